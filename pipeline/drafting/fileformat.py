"""The draft file: its rendering from the structured draft, its cache key, hand-edit detection and dates."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path
from typing import Any

import yaml

from evidence.errors import InputError, PublishError
from evidence.fsutil import atomic_write, sha256_bytes
from pipeline.brief import Brief, DrafterChoice
from pipeline.config import ContentRoot, DrafterConfig
from pipeline.drafting.prompts import prompts_hash
from pipeline.drafting.schema import DraftSchema, Sentence, Table, marker
from pipeline.errors import DraftError
from qc.draft import check_article_size, parse_draft
from qc.index import EvidenceIndex

FORMAT_VERSION = "2"  # bump when the rendering changes, so cached drafts are redrafted
OUTPUT_LINE = re.compile(r"^(\s+output:)[ \t]*\S.*$", re.MULTILINE)


def settings(brief: Brief, root: ContentRoot, override: str | None) -> DrafterConfig:
    """Argument, then the brief's `drafter:`, then `publish.toml` `[drafter]`."""
    cfg = root.config.drafter.model_copy()
    choice = brief.drafter
    if isinstance(choice, str):
        cfg.model = choice
    elif isinstance(choice, DrafterChoice):
        cfg.model = choice.model
        for key in ("base_url", "temperature", "max_repairs"):
            value = getattr(choice, key)
            if value is not None:
                setattr(cfg, key, value)
    if override:
        cfg.model = override
    cfg.model = cfg.model.strip()
    return cfg


def inputs_hash(brief: Brief, index: EvidenceIndex, cfg: DrafterConfig) -> str:
    """The cache key: brief, the cited reports' versions (sha256), the drafter and its templates."""
    data = {
        "brief": brief.model_dump(mode="json", exclude={"drafter"}),
        "evidence": {rid: _evidence_version(index, rid) for rid in brief.evidence},
        "drafter": cfg.model,
        "base_url": cfg.base_url,
        "templates": prompts_hash(),
        "format": FORMAT_VERSION,
    }
    return sha256_bytes(json.dumps(data, sort_keys=True, ensure_ascii=False))[:32]


def _evidence_version(index: EvidenceIndex, rid: str) -> dict[str, str]:
    """The report's sha256 and what was read from it (a better extractor is new evidence, too)."""
    figures = [(f.id, f.value, f.unit, f.raw, f.labels, f.kind) for f in index.figures.get(rid, [])]
    return {"sha256": index.reports[rid].sha256, "figures": sha256_bytes(json.dumps(figures, ensure_ascii=False))}


def output_hash(text: str) -> str:
    """Hash of the file as written, with the `drafted.output` value itself blanked out."""
    return sha256_bytes(OUTPUT_LINE.sub(r"\1 ''", text, count=1))[:32]


def inspect(text: str, max_bytes: int) -> tuple[bool, str | None]:
    """(edited by hand?, recorded inputs hash) of an existing draft."""
    try:
        meta = parse_draft(text, "draft", max_bytes=max_bytes).meta
    except PublishError:
        return True, None
    if meta.drafted is None:
        return True, None
    return meta.drafted.output != output_hash(text), meta.drafted.inputs


def read_existing(path: Path, max_bytes: int) -> str | None:
    try:
        check_article_size(path, max_bytes)  # before reading: a runaway file must not fill memory
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as e:
        raise DraftError(f"cannot read the existing draft: {e}", path=path) from e
    return text[1:] if text.startswith("\ufeff") else text


def _today() -> dt.date:
    # SOURCE_DATE_EPOCH (the reproducible-builds convention) pins the date for golden files and demos.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.date.today()


def dates(old_text: str | None, path: Path, max_bytes: int) -> tuple[dt.date, dt.date | None]:
    """A redraft keeps the article's first date and records today as `updated`."""
    today = _today()
    if old_text is None:
        return today, None
    try:
        first = parse_draft(old_text, path, max_bytes=max_bytes).meta.date
    except PublishError:
        return today, None
    return first, (today if today != first else None)


def backup(path: Path, old_text: str, new_text: str) -> Path | None:
    """Keep the replaced draft beside it: `x.md.bak`, else a dated name; an existing backup is never overwritten."""
    if old_text == new_text:
        return None
    stamp = f"{dt.datetime.now():%Y%m%d-%H%M%S}"
    names = [f"{path.name}.bak", f"{path.name}.{stamp}.bak"]
    names += (f"{path.name}.{stamp}-{n}.bak" for n in range(2, 1000))
    for name in names:
        candidate = path.with_name(name)
        if not candidate.exists():
            atomic_write(candidate, old_text)
            return candidate
        if candidate.is_file() and candidate.read_text(encoding="utf-8", errors="replace") == old_text:
            return candidate  # this very text is kept already
    raise InputError(f"{path}: too many backups named {path.name}.{stamp}*.bak; move some away")


_END = "。.!?;:\uff01\uff1f\uff1b\uff1a"  # (and their full-width forms: ！？；：)


def _sentence(s: Sentence, lang: str, *, end: str | None = None) -> str:
    """A sentence with its citation marker before the final punctuation (markers come from `reports`)."""
    text = re.sub(r"\s+", " ", s.text).strip()
    text = re.sub(r"【[^】]*】|\[\s*source\s*:[^\]]*\]", "", text).strip()  # the drafter, not the model, cites
    tail = ""
    while text and text[-1] in _END:
        tail = text[-1] + tail
        text = text[:-1].rstrip()
    tail = tail[-1:] if tail else (end if end is not None else ("。" if lang == "zh" else "."))
    reports = list(dict.fromkeys(r.strip() for r in s.reports if r.strip()))
    if reports:
        text += ("" if lang == "zh" else " ") + marker(reports, lang)
    return text + tail


def sentence_text(s: Sentence, lang: str) -> str:
    """One sentence as the draft writes it: its citation marker before the final punctuation."""
    return _sentence(s, lang)


def _join(sentences: list[Sentence], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(_sentence(s, lang) for s in sentences)


def render_body(content: DraftSchema, lang: str) -> str:
    """The Markdown body: one `## question` section each, intro paragraph, list, closing sentence."""
    out: list[str] = []
    for sec in content.sections:
        out.append(f"## {sec.question.strip()}")
        out.append("")
        if sec.intro:
            colon = ":"  # zh and en alike: the intro leads into the list
            intro = [*sec.intro]
            text = _join(intro[:-1], lang)
            last = _sentence(intro[-1], lang, end=colon if sec.items else None)
            if sec.items and last[-1] in _END:
                last = last[:-1] + colon
            out.append((text + ("" if lang == "zh" or not text else " ") + last).strip())
            out.append("")
        for item in sec.items:
            out.append(f"- {_sentence(item, lang)}")
        if sec.items:
            out.append("")
        for table in sec.tables:
            lead = _sentence(table.lead, lang, end=":")
            out += [lead, "", *_table_lines(table), ""]
        if sec.outro:
            out.append(_join(sec.outro, lang))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _table_lines(table: Table) -> list[str]:
    def cell(text: str) -> str:
        return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()

    width = len(table.columns)
    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |", "|" + "---|" * width]
    for row in table.rows:
        cells = [*row[:width], *[""] * (width - len(row))]
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return lines


def render_draft(
    brief: Brief, content: DraftSchema, *, drafter: str, inputs: str, date: dt.date, updated: dt.date | None
) -> str:
    """The whole draft file; `drafted.output` is the hash of the file as written (hand-edit detection)."""
    lang = brief.lang
    front: dict[str, Any] = {
        "title": brief.title,
        "lang": lang,
        "date": date,
    }
    if updated:
        front["updated"] = updated
    front |= {
        "tags": list(brief.tags),
        "evidence": list(brief.evidence),
        "answer": _join(content.answer, lang),
        "faq": [{"q": f.q.strip(), "a": _sentence(f.a, lang)} for f in content.faq],
        "slug": brief.slug,
        "drafted": {"drafter": drafter, "inputs": inputs, "output": ""},
    }
    head = yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1_000_000, default_flow_style=False)
    text = f"---\n{head}---\n\n{render_body(content, lang)}"
    digest = output_hash(text)
    return OUTPUT_LINE.sub(lambda m: f"{m.group(1)} {digest}", text, count=1)
