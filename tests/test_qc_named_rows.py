"""Numbers over the rows a sentence names without printing their figures (issue #14, outside trial): a change or
ratio whose base is the cell of the stated number's column in the one row the sentence names; a range over all rows
(`Across all five runs`, `各页面`, `五个页面`) of a column, the table continued on the next page too."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import parsed_index, table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

BENCH = [
    ["Command", "Mode", "Throughput (RPS)", "p50 (ms)", "p99 (ms)"],
    ["READ", "Single Request", "18,200", "0.812", "6.400"],
    ["WRITE", "Single Request", "16,400", "0.901", "4.120"],
    ["WRITE (with TTL)", "Single Request (Custom)", "19,900", "0.840", "1.730"],
    ["WRITE (Batched)", "Batch=32", "60,500", "2.410", "10.220"],
    ["READ (Batched)", "Batch=32", "66,100", "2.290", "5.950"],
]


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("bench") / "bench.pdf"
    return table_index(path, "R3", ["2 Results", "Table 1 Benchmark results"], BENCH, (60, 170, 290, 390, 460))


def _status(index: EvidenceIndex, body: str, number: str, lang: str = "en") -> str:
    text = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return next(
        n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers if n.text.strip() == number
    )


def test_a_ratio_over_the_row_the_sentence_names_by_its_words(bench: EvidenceIndex) -> None:
    said = "- WRITE: 60,500 RPS, about {} times the single-request rate [source: R3]."
    # 60,500 / 16,400 (WRITE's Single Request row: every word it has and the batched row lacks is said)
    assert _status(bench, said.format("3.7"), "about 3.7 times") == "derived"
    # 60,500 / 19,900 is the `WRITE (with TTL)` row's, which the sentence does not name (`TTL`, `Custom`)
    assert _status(bench, said.format("3.0"), "about 3.0 times") != "derived"
    # 60,500 / 18,200 is READ's: the sentence fixes the base, so no other single-request cell derives the number
    assert _status(bench, said.format("3.3"), "about 3.3 times") != "derived"
    # no row named: no base
    plain = "- WRITE: 60,500 RPS, about 3.7 times more [source: R3]."
    assert _status(bench, plain, "about 3.7 times") != "derived"


def test_a_change_over_the_row_another_number_names(bench: EvidenceIndex) -> None:
    said = "READ: the p50 rises from 0.812 ms to 2.290 ms, while the p99 falls by {} to 5.950 ms [source: R3]."
    # (6.400 − 5.950) / 6.400: 0.812 is a cell of READ's single-request row, the base's
    assert _status(bench, said.format("7.0%"), "7.0%") == "derived"
    # (10.220 − 5.950) / 10.220 = 41.8 % is WRITE (Batched)'s p99, a row the sentence does not name
    assert _status(bench, said.format("41.8%"), "41.8%") != "derived"
    # without the number naming the base's row, nothing derives it
    alone = "READ: the p99 falls by 7.0% to 5.950 ms [source: R3]."
    assert _status(bench, alone, "7.0%") != "derived"


def test_a_range_across_all_runs_spans_the_whole_column(bench: EvidenceIndex) -> None:
    # the heading names the batched rows; `all five runs` names every row: the p50 column's lowest and highest
    said = "## With a batch of 32\n\nAcross all five runs the p50 latency lies between {} and {} ms [source: R3]."
    assert _status(bench, said.format("0.812", "2.410"), "0.812 and 2.410 ms") == "verified"
    assert _status(bench, said.format("0.840", "2.410"), "0.840 and 2.410 ms") == "mismatch"  # not the lowest
    assert _status(bench, said.format("0.812", "2.290"), "0.812 and 2.290 ms") == "mismatch"  # not the highest
    four = "## With a batch of 32\n\nAcross all four runs the p50 latency lies between 0.812 and 2.410 ms [source: R3]."
    assert _status(bench, four, "0.812 and 2.410 ms") == "mismatch"  # (the table has five)


HEAD = ["模块", "Availability(%)", "Response time(sec)"]
PAGES = [
    [["登录页面", "99.90", "0.26"], ["注册页面", "99.99", "0.21"], ["网站首页", "99.70", "0.35"]],
    [["个人中心", "99.98", "0.41"], ["订单中心", "99.80", "0.32"], ["搜索接口", "98.50", "11.80"]],
]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    """A load test's table without a caption, broken across two pages (its header printed again on the second)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    path: Path = tmp_path_factory.mktemp("pages") / "pages.pdf"
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    for i, rows in enumerate(PAGES):
        if i == 0:
            c.setFont("STSong-Light", 10)
            c.drawString(60, 760, "5.3 压力测试")
        y = 720.0
        for line in [HEAD, *rows]:
            for x, cell in zip((60, 200, 340), line, strict=True):
                c.setFont("Helvetica" if cell.isascii() else "STSong-Light", 10)
                c.drawString(x, y, cell)
            y -= 16
        c.showPage()
    c.save()
    return parsed_index(path, "R3")


def test_a_range_over_every_page_spans_the_table_on_both_pages(pages: EvidenceIndex) -> None:
    said = "各页面的成功率都在 {}–{} 之间【出处:R3】。"
    assert (
        _status(pages, said.format("98.50%", "99.99%"), "98.50%–99.99%", "zh") == "verified"
    )  # 99.99 on p.1, 98.50 on p.2
    assert _status(pages, said.format("98.50%", "99.98%"), "98.50%–99.98%", "zh") != "verified"  # p.2's span only


def test_a_counted_range_leaves_out_only_the_row_named_apart(pages: EvidenceIndex) -> None:
    said = "登录页面为 0.26 秒,{}个页面的平均响应时间在 {} 秒之间;{}【出处:R3】。"
    slow = "只有搜索接口慢,为 11.80 秒"
    # the six rows less 搜索接口, whose 11.80 lies beyond the range and which the sentence names apart
    assert _status(pages, said.format("五", "0.21–0.41", slow), "0.21–0.41 秒", "zh") == "verified"
    assert (
        _status(pages, said.format("五", "0.26–0.41", slow), "0.26–0.41 秒", "zh") != "verified"
    )  # 0.21 is the lowest
    assert (
        _status(pages, said.format("四", "0.21–0.41", slow), "0.21–0.41 秒", "zh") != "verified"
    )  # five rows, not four
    # the row left out must be named apart
    assert _status(pages, said.format("五", "0.21–0.41", "其余略"), "0.21–0.41 秒", "zh") != "verified"


def test_a_stated_cell_of_another_column_fixes_no_base(bench: EvidenceIndex) -> None:
    # the clause speaks of the throughput; the p50 the sentence states is no operand of it, so the two throughput cells
    # of the rows it names still derive the change (66,100 over 18,200)
    said = "The READ (Batched) throughput is 263% above READ's single-request throughput, with a p50 of 2.290 ms [source: R3]."
    assert _status(bench, said, "263%") == "derived"
