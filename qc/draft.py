"""The draft format: Markdown with YAML front matter (title, answer, faq, evidence…) and `## question` sections."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evidence.errors import InputError, LimitError
from evidence.fsutil import sha256_bytes
from evidence.limits import MAX_ARTICLE_BYTES
from evidence.yamlio import parse_yaml, validate

FENCE = "---"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")  # the slug names output folders: no dots, slashes or spaces


class QA(BaseModel):
    """One key-point question and its answer."""

    model_config = ConfigDict(extra="forbid")

    q: str
    a: str


class Drafted(BaseModel):
    """What the drafter recorded: the inputs' hash (cache key) and the body it wrote (hand-edit detection)."""

    model_config = ConfigDict(extra="forbid")

    drafter: str
    inputs: str
    output: str


class FrontMatter(BaseModel):
    """The draft's front matter."""

    model_config = ConfigDict(extra="forbid")

    title: str
    lang: Literal["zh", "en"]
    date: dt.date
    updated: dt.date | None = None
    tags: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    answer: str
    faq: list[QA] = Field(default_factory=list)
    slug: str | None = None
    drafted: Drafted | None = None

    @field_validator("slug")
    @classmethod
    def _slug(cls, v: str | None) -> str | None:
        if v is not None and not SLUG.fullmatch(v):
            raise ValueError(f"slug {v!r} must be lower-case letters, digits and dashes")
        return v


class Draft(BaseModel):
    """A parsed draft: front matter, body, and where the body starts in the file."""

    path: str
    meta: FrontMatter
    body: str
    body_line: int  # 1-based line of the file where the body's first line stands
    text: str  # the whole file as read
    front_lines: dict[str, int] = Field(default_factory=dict)  # e.g. "title" -> 2, "faq.0.q" -> 9

    @property
    def sha256(self) -> str:
        return sha256_bytes(self.text)

    @property
    def slug(self) -> str:
        """The name of the article's page and approval: `slug:` in the front matter, else the file's name."""
        if self.meta.slug:
            return self.meta.slug
        stem = Path(self.path).stem
        if not SLUG.fullmatch(stem):
            raise InputError(
                f"file name {stem!r} is no slug (lower-case letters, digits and dashes); rename the file or set "
                "`slug:` in its front matter",
                path=self.path,
            )
        return stem


def split_front_matter(text: str, path: str) -> tuple[str, str, int]:
    """Return (front matter YAML, body, body's first line number)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise InputError("a draft must start with '---' and YAML front matter", path=path, line=1)
    for i in range(1, len(lines)):
        if lines[i].strip() == FENCE:
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    raise InputError("front matter is not closed by a '---' line", path=path, line=1)


def _check_size(size: int, max_bytes: int, path: str | Path) -> None:
    if size > max_bytes:
        raise LimitError(
            f"article is {size:,} bytes, over the limit of {max_bytes:,} (max_article_bytes in publish.toml [limits])",
            path=path,
        )


def check_article_size(path: str | Path, max_bytes: int = MAX_ARTICLE_BYTES) -> None:
    """Refuse an article file over `max_bytes` before anything reads it into memory."""
    _check_size(Path(path).stat().st_size, max_bytes, path)


def parse_draft(text: str, path: str | Path, *, max_bytes: int = MAX_ARTICLE_BYTES) -> Draft:
    """Parse a draft's text; every front-matter problem is reported with its line; oversized text is a LimitError."""
    path = str(path)
    if len(text) * 4 > max_bytes:  # UTF-8 takes at most 4 bytes a character: encode only when it might matter
        _check_size(len(text.encode("utf-8", "surrogatepass")), max_bytes, path)
    if text.startswith("\ufeff"):
        text = text[1:]
    front, body, body_line = split_front_matter(text, path)
    doc = parse_yaml(front, path, line_offset=1)
    meta = validate(FrontMatter, doc)
    front_lines = {".".join(str(x) for x in loc): line + 1 for loc, line in doc.lines.items() if loc}
    return Draft(path=path, meta=meta, body=body, body_line=body_line, text=text, front_lines=front_lines)


def decode_draft(raw: bytes, path: str | Path) -> str:
    """A draft file's bytes as the text every stage checks, hashes and approves: UTF-8 with `\n` line ends (a CRLF
    or CR file reads the same in review, approve and the build)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text: {e.reason} at byte {e.start}", path=path) from e
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_draft(path: str | Path, *, max_bytes: int = MAX_ARTICLE_BYTES) -> Draft:
    """Read and parse a draft file, refusing one over `max_bytes` before reading it."""
    p = Path(path)
    try:
        _check_size(p.stat().st_size, max_bytes, p)
        raw = p.read_bytes()
    except FileNotFoundError as e:
        raise InputError("file not found", path=p) from e
    except OSError as e:  # a folder, no permission, a name too long…
        raise InputError(f"cannot read: {e.strerror or e}", path=p) from e
    return parse_draft(decode_draft(raw, p), p, max_bytes=max_bytes)


CITATION = re.compile(
    r"【\s*(?:出处|来源|source)\s*[:：]\s*(?P<zh>[A-Z][A-Za-z0-9_-]*(?:\s*[/、,，]\s*[A-Z][A-Za-z0-9_-]*)*)[^】]*】"
    r"|\[\s*source\s*:\s*(?P<en>[A-Z][A-Za-z0-9_-]*(?:\s*[,/]\s*[A-Z][A-Za-z0-9_-]*)*)\s*\]",
    re.IGNORECASE,
)


def citations(text: str) -> list[tuple[int, int, list[str]]]:
    """Citation markers in `text`: (start, end, report ids) for `【出处:R1/R9 实测】` and `[source: R1, R9]`."""
    out = []
    for m in CITATION.finditer(text):
        ids = m.group("zh") or m.group("en") or ""
        out.append((m.start(), m.end(), [i for i in re.split(r"[\s/、,，]+", ids) if i]))
    return out


# `[R4]`, `【R2】`, `[R1, R9]`: what a writer may take for a citation. Square or lenticular brackets around report-id
# shapes only (a model name in parentheses, `(H20)`, is prose).
_CITE_LIKE = re.compile(r"[\[【]\s*(?P<ids>[A-Z][A-Za-z0-9_-]*(?:\s*[,，、/]\s*[A-Z][A-Za-z0-9_-]*)*)\s*[\]】](?!\()")
_REPORT_ID_SHAPE = re.compile(r"R\d+[A-Za-z0-9_-]*")


def stray_citations(text: str, report_ids: set[str] | frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """Markers that look like citations but are not (`[R4]` instead of `【出处:R4】` or `[source: R4]`): their line
    in `text` and the marker, for a warning. Ids must be registered report ids or shaped like one (R + digits)."""
    real = [(s, e) for s, e, _ in citations(text)]
    out = []
    for m in _CITE_LIKE.finditer(text):
        if any(s <= m.start() < e for s, e in real):
            continue
        ids = re.split(r"[\s,，、/]+", m.group("ids").strip())
        if all(i in report_ids or _REPORT_ID_SHAPE.fullmatch(i) for i in ids):
            out.append((text.count("\n", 0, m.start()) + 1, m.group(0)))
    return out
