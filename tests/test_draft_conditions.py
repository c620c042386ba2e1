"""The drafter answers the conditions a question names (`batch 为 1 时 4KB`, `with 128 clients`), the column its words
name (`写` of a merged `读 | 写` header), a `mean ± sd` cell as its mean, and names conditions in the article's language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from pdf_support import parsed_index

from evidence.models import Figure
from pipeline.brief import Brief
from pipeline.drafting import fileformat
from pipeline.drafting.lang import Lang
from pipeline.drafting.offline import _unit_token_off, write_offline
from pipeline.drafting.select import Ask, ask, condition_rows, names_baseline
from pipeline.drafting.tables import Cell, Group, Row, against, spread
from pipeline.drafting.verdict import judge
from qc.draft import parse_draft
from qc.index import EvidenceIndex

CORPUS = Path(__file__).parent / "corpus"


def _fig(value: float, unit: str, labels: list[str], raw: str = "", quote: str = "") -> Figure:
    return Figure(id=f"f{value}{unit}{labels}", report="R1", page=1, value=value, unit=unit,
                  raw=raw or f"{value:g}", labels=labels, quote=quote, kind="cell")  # fmt: skip


def _matrix() -> Group:
    # value size × batch, as a store benchmark prints it (req/s per row)
    rows = []
    for i, (size, batch) in enumerate([("4KB", "1"), ("4KB", "4"), ("64KB", "1"), ("64KB", "4"), ("4MB", "8")]):
        keys = [f"value size {size}", f"batch {batch}"]
        rows.append(Row(keys, [Cell(_fig(1000.0 + i, "req/s", [*keys, "req/s"]), "req/s")]))
    return Group("R1", (1, 0), "表 7 结果", "", "value size batch req/s", rows=rows)


def _ask(q: str) -> Ask:
    return ask(q, {})


def test_the_rows_naming_every_condition_asked_not_each_one() -> None:
    # `batch 为 1 时 4KB`: the one row of both; not `batch 4` (a bare 4 is no 4KB), not every 4KB row nor `4MB`.
    g = _matrix()
    assert condition_rows(g, _ask("batch 为 1 时 4KB 对象的吞吐量是多少?"), {}) == [0]
    assert condition_rows(g, _ask("4KB 对象的吞吐量是多少?"), {}) == [0, 1]
    assert condition_rows(g, _ask("What is the throughput at batch 8?"), {}) == [4]


def test_a_mean_plus_minus_sd_cell_is_its_mean() -> None:
    quote = "4MB 24,310 ± 155 16,420 ± 127"
    assert spread(_fig(127, "MB/s", [], raw="127", quote=quote))
    assert not spread(_fig(16420, "MB/s", [], raw="16,420", quote=quote))
    assert not spread(_fig(155, "MB/s", [], raw="155", quote="155 MB/s 160 MB/s"))


def test_a_header_ending_in_the_cells_unit_names_its_metric_only() -> None:
    assert _unit_token_off("顺序读带宽 MB/s", _fig(1, "MB/s", [])) == "顺序读带宽"
    assert _unit_token_off("写 p99 μs", _fig(1, "µs", [])) == "写 p99"
    assert _unit_token_off("读带宽 (GB/s)", _fig(1, "ms", [])) == "读带宽 (GB/s)"


def test_chinese_conditions_read_in_english() -> None:
    en = Lang("en")
    assert en.label("客户端数 128") == "client count 128"
    label = en.label("表2-1 长上下文场景首字延迟(单位:秒)")
    assert "time to first token" in label and "(" not in label and "单位" not in label, label


def _draft(index: EvidenceIndex, rid: str, lang: str, questions: list[str]) -> str:
    brief = Brief(slug="t", title="t", lang=lang, tags=["t"], evidence=[rid], audience="engineers",
                  brief="Answer from the report.", questions=questions, faq_count=1)  # fmt: skip
    text = fileformat.render_draft(
        brief, write_offline(brief, index), drafter="offline", inputs="0", date=dt.date(2026, 1, 1), updated=None
    )
    assert judge(parse_draft(text, Path("t.md")), index, {}).errors() == []
    return text


@pytest.fixture(scope="module")
def store() -> EvidenceIndex:
    return parsed_index(CORPUS / "cachepilot_mooncake_store_bench_zh.pdf", "R1")


@pytest.fixture(scope="module")
def flash() -> EvidenceIndex:
    return parsed_index(CORPUS / "office" / "merged_header_zh.pdf", "R1")


def test_a_question_gets_the_table_whose_row_names_its_conditions(store: EvidenceIndex) -> None:
    # p.6's 16-row matrix holds `4KB 1` (7368.67 req/s); p.5's verify_write table only `4KB 4` (2482.98): the
    # question about batch 1 is answered from the matrix, though the p99 question took it first.
    q1, q2 = "value size 为 64KB、batch 为 8 时 p99 响应时间是多少?", "batch 为 1 时 4KB 对象的吞吐量是多少?"
    text = _draft(store, "R1", "zh", [q1, q2])
    first, second = text.split(f"## {q1}")[1].split(f"## {q2}")
    assert "1.901 ms" in first, first
    assert "7368.67 req/s" in second and "2482.98" not in second, second


def test_the_column_a_one_character_word_names(flash: EvidenceIndex) -> None:
    # `写` heads the write half of `读 | 写` (p50, p99): 8KB's write p99 is 640 µs, its read p99 447 µs.
    text = _draft(flash, "R1", "zh", ["8KB 随机写的 p99 延迟是多少?"])
    lead = text.split("## 8KB 随机写的 p99 延迟是多少?")[1].strip().splitlines()[0]
    assert "640 µs" in lead and "447" not in lead, lead
    en = _draft(flash, "R1", "en", ["What is the p99 write latency at 8KB?"])
    lead = en.split("## What is the p99 write latency at 8KB?")[1].strip().splitlines()[0]
    assert "640 µs" in lead and "447" not in lead and "写" not in lead, lead


def test_a_mean_plus_minus_sd_table_answers_with_its_means(flash: EvidenceIndex) -> None:
    q = "4MB 块大小的顺序写带宽是多少?"
    section = _draft(flash, "R1", "zh", [q]).split(f"## {q}")[1]
    assert "16,420 MB/s" in section and "127" not in section and "MB/s 为" not in section, section


@pytest.mark.parametrize(
    ("question", "baseline"),
    [
        ("和 3.1 相比 p99 延迟降低了多少?", "3.1"),  # the baseline stands between 和 and 相比; p99 is the metric
        ("和 HS200 相比,顺序读带宽提升了多少?", "HS200"),
        ("v2.0 相比 v1.2 吞吐提升了多少?", "v1.2"),  # X 相比 Y: Y is the baseline
        ("How much did throughput improve over version 3.1?", "3.1"),
        ("How much faster than the ABQ?", "ABQ"),
        ("How much faster is filtered search than in Vectra 3.6?", "Vectra 3.6"),  # a release, not the product
        ("和 MySQL 5.7 相比 QPS 提升了多少?", "MySQL 5.7"),
        ("How does latency grow over 100 users?", ""),  # `over` a load is no baseline
    ],
)
def test_the_baseline_a_question_names(question: str, baseline: str) -> None:
    assert _ask(question).baseline == baseline


def test_a_table_printing_the_baseline_named_answers_before_one_that_does_not() -> None:
    named = Group("R1", (1, 0), "表 3-1 3.1 与 3.2 对比", "", "3.1(基线) 3.2 TPS")
    assert names_baseline(named, "3.1") and not names_baseline(named, "3")
    assert not names_baseline(Group("R1", (1, 1), "", "", "LX-Gateway 3.12 TPS"), "3.1")


def test_a_baseline_name_fitting_two_columns_of_one_quantity_compares_nothing() -> None:
    # `Vectra 4.0 QPS | Vectra 3.6 QPS`: the product's name alone fits both, so neither is the baseline; the release
    # names one, and the comparison runs from it (240) to the other (5,310)
    keys = ["Cohere-1M"]
    cells = [Cell(_fig(5310.0, "req/s", [*keys, "Vectra 4.0 QPS"]), "Vectra 4.0 QPS"),
             Cell(_fig(240.0, "req/s", [*keys, "Vectra 3.6 QPS"]), "Vectra 3.6 QPS")]  # fmt: skip
    g = Group("R1", (1, 0), "Table 2 Filtered search", "", "Vectra 4.0 QPS Vectra 3.6 QPS", rows=[Row(keys, cells)])
    assert against(g, "Vectra") is None
    compared = against(g, "Vectra 3.6")
    assert compared is not None
    (c,) = compared.comparisons
    assert (c.before.value, c.after.value) == (240.0, 5310.0)


def test_an_english_question_scores_a_chinese_label_as_its_chinese_version_does() -> None:
    """The Chinese an English question translates to is read a phrase at a time, as a Chinese question is:
    `long-context cold recovery` is 长上下文冷恢复 once (not six bigrams, nor again as `long-context`'s 长上下文场景)."""
    from pipeline.drafting.select import _overlap, both_terms, report_terms

    pairs = report_terms(EvidenceIndex(reports={}, figures={}, pages={}), [])
    doc = both_terms("长上下文冷恢复 TTFT", pairs)
    zh = _overlap(ask("长上下文冷恢复的 TTFT 是多少?", pairs), doc, lambda t: 1.0)
    en = _overlap(ask("What is the TTFT on long-context cold recovery?", pairs), doc, lambda t: 1.0)
    assert en == zh
