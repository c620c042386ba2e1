"""QC results: one record per number (and verbatim term) with its verdict, source and derivation.

The JSON output of `publish check` is `CheckReport.to_json()`; its shape is a public contract.
`field`, `start`, `end` and `sentence` locate the number for the renderer and the review snapshot and
are left out of that JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["verified", "derived", "exempt", "uncited", "unsupported", "mismatch"]
Severity = Literal["ok", "error", "warning", "ignore"]
OK_STATUSES: frozenset[str] = frozenset({"verified", "derived", "exempt"})
ERROR_STATUSES: tuple[str, ...] = ("uncited", "unsupported", "mismatch")
ALL_STATUSES: tuple[str, ...] = ("verified", "derived", "exempt", "uncited", "unsupported", "mismatch")
# How strong the evidence of an ok number is, strongest first: a figure whose labels the sentence names, a figure
# of that value alone, a derivation from operands the sentence states, one from a table row or column it names, a row key
# (`并发 8`), the number with its words printed verbatim; exempt numbers (ids, dates) have none.
STRENGTHS: tuple[str, ...] = ("figure in context", "exact figure", "stated derivation", "derivation from one row",
                              "derivation from one column", "row key", "verbatim term", "")  # fmt: skip
INTERNAL = {"field", "start", "end", "sentence", "id", "labels"}


class Source(BaseModel):
    """The report figure a number rests on."""

    report: str
    figure: str
    page: int
    value: float
    unit: str
    quote: str
    version: int = 1
    page_label: str | None = None
    labels: list[str] = Field(default_factory=list)


class NumberCheck(BaseModel):
    """The verdict on one number of an article."""

    text: str  # as written, e.g. "7.53s" or "29–40%"
    line: int  # 1-based line in the file, front matter included
    column: int  # 1-based column (characters)
    value: float | None
    unit: str
    status: Status
    severity: Severity
    cited: list[str]
    source: Source | None = None
    derivation: str | None = None  # e.g. "(10.17−7.53)/10.17 = 25.96% ≈ 26%"
    strength: str = ""  # for verified and derived numbers: one of STRENGTHS
    message: str = ""
    # Located for the renderer and the review snapshot (not in the JSON output):
    field: str = "body"  # "title", "answer", "faq.0.q", "faq.0.a" or "body"
    start: int = 0  # character offsets of `text` within that field's string
    end: int = 0
    sentence: str = ""  # the sentence the number stands in, citation markers removed
    id: str = ""  # stable finding id (for waivers): hash of field, sentence and text


class TermCheck(BaseModel):
    """A verbatim term (e.g. `4 盘 RAID0`) found in a cited report's text."""

    text: str
    line: int
    column: int
    report: str
    page: int
    quote: str
    field: str = "body"
    start: int = 0
    end: int = 0


class FileResult(BaseModel):
    """QC of one article file."""

    file: str
    ok: bool
    numbers: list[NumberCheck] = Field(default_factory=list)
    terms: list[TermCheck] = Field(default_factory=list)
    summary: dict[str, int] = Field(default_factory=dict)

    def errors(self) -> list[NumberCheck]:
        return [n for n in self.numbers if n.severity == "error"]


class CheckReport(BaseModel):
    """QC of one or more files."""

    ok: bool
    files: list[FileResult]

    def to_json(self) -> dict[str, Any]:
        """The public JSON shape: `{"ok", "files": [{"file", "ok", "numbers", "summary"}]}`."""
        return {"ok": self.ok, "files": [self.file_json(f) for f in self.files]}

    @staticmethod
    def file_json(f: FileResult) -> dict[str, Any]:
        """One file's entry of the public JSON shape (so a long run can write each file as soon as it is checked)."""
        return {
            "file": f.file,
            "ok": f.ok,
            "numbers": [
                {
                    **n.model_dump(exclude=INTERNAL | {"source"}),
                    "source": n.source.model_dump(exclude={"version", "page_label", "labels"}) if n.source else None,
                }
                for n in f.numbers
            ],
            "summary": f.summary,
        }
