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

# Corpus PDFs the rule tests read, and the verdicts that back a number.
YATHA = "yatha_hotword_perf_report_zh.pdf"
MOONCAKE = "mooncake_fast25_kvcache_serving_paper.pdf"
FACE = "oaid_facerecognition_rk3399_perf_report.pdf"
STORE = "cachepilot_mooncake_store_bench_zh.pdf"
BROKER = "mineru_broker_research_report_zh.pdf"
OTSL = "docling_otsl_tableformer_benchmark_p9.pdf"
GESTURE = "oaid_cvgesture_rk3399_perf_report.pdf"
ZS3 = "office/unit_column_zh.pdf"
SPEECH = "oaid_speechrecognition_perf_report.pdf"
OK = ("verified", "derived")


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
