"""Two runs of one test asked how things changed: drafted as before → after (columns `Run 1 | Run 2 | Change`, or one
table per run), never as two lists; a `label: value` line whose label is a clause names no figure; `写` of `写 p99`
picks its column though the question's `读写混合` says `读` too. Hand-made reports."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from pdf_support import parsed_index, table_index
from real_support import FACE, corpus_index

from pipeline.brief import Brief
from pipeline.drafting import fileformat
from pipeline.drafting.offline import write_offline
from pipeline.drafting.tables import CLAUSE_LABEL, _kv_label, report_groups
from pipeline.drafting.verdict import judge
from qc.draft import parse_draft
from qc.index import EvidenceIndex

XS = (60, 250, 360, 470)
OVERALL = [
    ["Metric", "Run 1 (2.0.0)", "Run 2 (2.0.1)", "Change"],
    ["Throughput (req/s)", "1,210.4", "1,655.2", "+36.7%"],
    ["95th percentile (ms)", "640", "402", "-37.2%"],
    ["Error rate (%)", "2.10", "0.40", "-1.70 pp"],
]
HEAD = ["Label", "# Samples", "Average", "95% Line", "Error %"]
RUN1 = [["GET /cart", "800,120", "150", "360", "0.30%"], ["POST /pay", "310,400", "820", "2,010", "5.90%"]]
RUN2 = [["GET /cart", "1,020,300", "118", "270", "0.10%"], ["POST /pay", "402,100", "505", "1,190", "0.80%"]]
JM = (60, 160, 250, 330, 420)


def _draft(index: EvidenceIndex, lang: str, questions: list[str]) -> str:
    brief = Brief(slug="t", title="t", lang=lang, tags=["t"], evidence=["R1"], audience="engineers",
                  brief="Answer from the report.", questions=questions, faq_count=1)  # fmt: skip
    text = fileformat.render_draft(
        brief, write_offline(brief, index), drafter="offline", inputs="0", date=dt.date(2026, 1, 1), updated=None
    )
    return text


def _errors(index: EvidenceIndex, text: str) -> list[str]:
    return [f.text for f in judge(parse_draft(text, Path("t.md")), index, {}).errors()]


@pytest.fixture(scope="module")
def overall(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("runs") / "overall.pdf"
    return table_index(path, "R1", ["3. Overall results", "Table 2. Overall results, Run 1 vs Run 2"], OVERALL, XS)


def test_two_runs_columns_are_one_comparison_with_its_change(overall: EvidenceIndex) -> None:
    text = _draft(overall, "en", ["How much did throughput and the p95 improve?"])
    body = text.split("## ")[1]
    assert "from 1,210.4 req/s to 1,655.2 req/s" in body and "from 640 ms to 402 ms (37.2% lower)" in body, body
    assert "Run 1 1,210.4" not in text and "Run 2 1,655.2" not in text, text
    assert _errors(overall, text) == []
    # the same sentence with Run 2's figure of another row (the error rate's 0.40, not the p95's 402) is caught
    wrong = text.replace("from 640 ms to 402 ms", "from 640 ms to 0.40 ms")
    assert wrong != text and _errors(overall, wrong) != []


def test_two_runs_asked_of_no_change_stay_as_printed(overall: EvidenceIndex) -> None:
    # two runs may be repeats of one measurement: without a question of change, no before → after is made
    text = _draft(overall, "en", ["What was the throughput in each run?"])
    assert "from 1,210.4 req/s to" not in text, text


@pytest.fixture(scope="module")
def per_run(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    path: Path = tmp_path_factory.mktemp("runs") / "aggregate.pdf"
    c = Canvas(str(path), pagesize=A4, invariant=1)
    y = 780.0
    c.setFont("Helvetica", 10)
    c.drawString(60, y, "4. Per-endpoint results")
    y -= 20
    c.drawString(60, y, "Tables 3 and 4 are the Aggregate Report of each run. Times are in milliseconds.")
    y -= 30
    for caption, rows in (
        ("Table 3. Aggregate Report - Run 1 (baseline, build 2.0.0)", RUN1),
        ("Table 4. Aggregate Report - Run 2 (optimised, build 2.0.1)", RUN2),
    ):
        c.setFont("Helvetica", 10)
        c.drawString(60, y, caption)
        y -= 20
        c.setFont("Helvetica", 9)
        for line in [HEAD, *rows]:
            for x, cell in zip(JM, line, strict=True):
                c.drawString(x, y, cell)
            y -= 16
        y -= 30
    c.setFont("Helvetica", 10)
    c.drawString(60, y, "5. Analysis")
    y -= 20
    c.drawString(60, y, "The payment endpoint benefited most: its average response time fell from 820 ms to 505 ms.")
    c.showPage()
    c.save()
    return parsed_index(path, "R1")


def test_a_table_per_run_is_one_comparison(per_run: EvidenceIndex) -> None:
    text = _draft(per_run, "en", ["Which endpoint improved?"])
    body = text.split("## Which endpoint improved?")[1]
    # POST /pay's Average of Table 3 against Table 4's, one row: 820 → 505 (and GET /cart's 150 → 118)
    assert (
        "| POST /pay | Average | 820 ms | 505 ms |" in body and "| GET /cart | Average | 150 ms | 118 ms |" in body
    ), body
    assert _errors(per_run, text) == []
    wrong = text.replace("| 820 ms | 505 ms |", "| 820 ms | 118 ms |")  # GET /cart's Run 2 average
    assert wrong != text and _errors(per_run, wrong) != []


def test_a_clause_before_a_colon_names_no_figure() -> None:
    # `the average accuracy in the LFW dataset is: 0.73.` (C3) is prose split at its colon, no `label: value`:
    # no group states `LFW dataset is 0.73`; a term's line (`Peak bandwidth: 5.23 GB/s`) stays a fact
    index = corpus_index(FACE, "R1")
    assert any(f.kind == "kv" and f.labels[:1] == ["LFW dataset is"] for f in index.figures["R1"])
    facts = [_kv_label(f) for g in report_groups(index, "R1") for f in g.facts]
    assert "LFW dataset is" not in facts, facts
    assert CLAUSE_LABEL.search("The checkout endpoint benefited most") is not None
    assert CLAUSE_LABEL.search("Peak bandwidth") is None and CLAUSE_LABEL.search("Model load from local NVMe") is None


def test_a_one_character_word_of_a_printed_word_names_no_column(tmp_path: Path) -> None:
    # `读写混合` is the caption's word: the question's `写 p99` asks the write column (2.80–12.40 ms), the read one
    # (1.50–6.40 ms) at most beside it
    rows = [["并发数", "读 p99 (ms)", "写 p99 (ms)"], ["64", "1.50", "2.80"], ["512", "6.40", "12.40"]]
    index = table_index(tmp_path / "mixed.pdf", "R1", ["表 3 YCSB-A 读写混合性能对比"], rows, (60, 200, 340))
    text = _draft(index, "zh", ["读写混合负载下写 p99 延迟是多少?"])
    lead = text.split("## 读写混合负载下写 p99 延迟是多少?")[1].strip().splitlines()[0]
    assert "写 p99 为 2.80–12.40 ms" in lead and "读 p99" not in lead, lead
    assert _errors(index, text) == []
