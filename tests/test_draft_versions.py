"""Version comparisons: columns named by numbers (`指标 | 2.4（基线） | 2.5 | 变化`) are read as columns, a question naming
the version (`和 2.4 相比`, `over version 2.4`) is answered from them, and QC reads that version as a name."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from pdf_support import parsed_index

from pipeline.brief import Brief
from pipeline.drafting import fileformat
from pipeline.drafting.lang import Lang
from pipeline.drafting.offline import write_offline
from pipeline.drafting.prose import prose_groups
from pipeline.drafting.verdict import judge
from qc.draft import parse_draft
from qc.index import EvidenceIndex

PDF = Path(__file__).parent / "corpus" / "office" / "version_columns_zh.pdf"


@pytest.fixture(scope="module")
def gateway() -> EvidenceIndex:
    return parsed_index(PDF, "G1")


def _draft(index: EvidenceIndex, lang: str, questions: list[str]) -> tuple[str, list[str]]:
    brief = Brief(slug="t", title="t", lang=lang, tags=["t"], evidence=["G1"], audience="engineers",
                  brief="Answer from the report.", questions=questions, faq_count=len(questions))  # fmt: skip
    text = fileformat.render_draft(
        brief, write_offline(brief, index), drafter="offline", inputs="0", date=dt.date(2026, 1, 1), updated=None
    )
    errors = judge(parse_draft(text, Path("t.md")), index, {}).errors()
    return text, [f"{e.text} {e.message}" for e in errors]


def test_number_named_columns_name_the_cells(gateway: EvidenceIndex) -> None:
    cells = [f for f in gateway.figures["G1"] if f.kind == "cell" and "3-1" in f.labels[0]]
    assert len(cells) == 9, [f.labels for f in cells]  # 3 metrics × (2.4, 2.5, 变化); the header row is no row
    p99 = {f.raw: f.labels for f in cells if "p99 响应时间 (ms)" in f.labels}
    assert "2.4(基线)" in p99["69.5"] and "2.5" in p99["41.3"] and "变化" in p99["-40.6"], p99


def test_a_question_naming_the_baseline_version_is_answered_and_passes_qc(gateway: EvidenceIndex) -> None:
    q = "和 2.4 相比 p99 延迟降低了多少?"
    text, errors = _draft(gateway, "zh", [q])
    assert errors == []
    section = text.split(f"## {q}")[1]
    assert "69.5 ms" in section and "41.3 ms" in section and "40.6%" in section, section


def test_a_connective_between_two_names_reads_in_english() -> None:
    en = Lang("en")
    assert en.label("表 2 v1.8 与 v2.0 指标对比") == "2 v1.8 vs v2.0 metric"  # a comparison: A vs B
    assert en.label("不同并发数下的响应时间与吞吐量") == "concurrency response time and throughput"
    assert en.label("首 token 延迟与吞吐").count(" and ") == 1
    assert Lang("zh").label("v1.8 与 v2.0 对比") == "v1.8 与 v2.0 对比"


def test_a_table_of_metrics_down_its_rows_leads_with_the_kind_asked(gateway: EvidenceIndex) -> None:
    # `平均响应时间 | p99 响应时间 | TPS` rows of the version table: throughput asked, the TPS pair leads.
    q = "How much did throughput improve over version 2.4?"
    text, _ = _draft(gateway, "en", [q])
    lead = text.split(f"## {q}")[1].strip().splitlines()[0]
    assert lead.startswith("TPS from 5,020 to 7,310"), lead


def test_a_prose_comparison_of_bare_numbers_named_by_a_quantity_word(gateway: EvidenceIndex) -> None:
    # `开启 TLS 卸载后，并发数 100 时的 TPS 从 7,310 降至 6,720。`: TPS names the pair, printed without a unit.
    comps = [c for g in prose_groups(gateway, "G1", []) for c in g.comparisons]
    assert [(c.row, c.before.raw, c.after.raw) for c in comps] == [("开启 TLS 卸载", "7,310", "6,720")]
    assert "TPS" in comps[0].metric


def test_a_second_header_line_of_numbered_names_is_no_row() -> None:
    # Caffe-HRT p.23: `AlexNet | … | ResNet | ResNet | Reset` over `(s) | … | Net(s) | 18(s) | 34(s) | 50(s)`: the
    # models ResNet 18/34/50 (each column in seconds), not a row of 18 s, 34 s and 50 s.
    figures = parsed_index(PDF.parent.parent / "oaid_caffe_hrt_perf_report.pdf", "H1").figures["H1"]
    page = [f for f in figures if f.page == 23 and f.kind == "cell"]
    assert not [f.raw for f in page if f.value in (18, 34, 50)]
    assert any("ResNet 18(s)" in f.labels for f in page if f.raw == "1.0980"), [f.labels for f in page][:3]
