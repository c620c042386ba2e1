"""QC of hand-written sentences over real corpus PDFs: the index of one PDF, cited as R3, and one verdict a number."""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path

from evidence.models import Report
from evidence.pdf import parse_pdf
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult

CORPUS = Path(__file__).resolve().parent / "corpus"


@cache
def corpus_index(name: str, rid: str = "R3") -> EvidenceIndex:
    """The figures and pages of one corpus PDF as report `rid`."""
    parsed = parse_pdf(CORPUS / name, report_id=rid)
    report = Report(id=rid, title=name, date=dt.date(2026, 1, 1), access="public", file=name,
                    sha256=parsed.sha256 or "0", version=1, pages=len(parsed.pages))  # fmt: skip
    return EvidenceIndex(reports={rid: report}, figures={rid: parsed.figures}, pages={rid: parsed.pages})


def check_body(name: str, body: str, rid: str = "R3", lang: str = "zh") -> FileResult:
    """Check an article body (Markdown) whose every paragraph cites `rid`, the corpus PDF `name`."""
    text = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [{rid}]\nanswer: a\n---\n\n{body}\n"
    return check_draft(parse_draft(text, path="real.md"), corpus_index(name, rid))


def verdicts(name: str, body: str, lang: str = "zh") -> dict[str, str]:
    """Each number's text → its status (the last one wins for repeated texts)."""
    return {n.text.strip(): n.status for n in check_body(name, body, lang=lang).numbers}
