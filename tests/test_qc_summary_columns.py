"""A load tool's summary table (JMeter: Label, Samples, Average, Median, 90% Line, 95% Line, Min, Max), read by an
article that names the columns in its own words (`maximum`, `最大值`, `样本`), over a hand-made report.

The report is built here with reportlab: two tables as a course report prints them, the first with a TOTAL row equal
to its one data row (add clothes), so every column repeats a value there."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import parsed_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Label", "Samples", "Average", "Median", "90% Line", "95% Line", "Min", "Max"]
CLOSET = [
    ["add clothes", "800", "115", "107", "164", "184", "62", "443"],
    ["get clothes", "100", "85", "78", "103", "124", "71", "151"],
    ["TOTAL", "800", "115", "107", "164", "184", "62", "443"],
]
XS = (60, 140, 200, 260, 320, 380, 440, 500)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    path: Path = tmp_path_factory.mktemp("jm") / "jmeter.pdf"
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", 9)
    y = 760.0
    c.drawString(60, y, "1. 虚拟衣柜相关接口测试")
    y -= 20
    c.drawString(60, y, "当在 5 秒内产生 100 个线程来对服务器进行访问时,得到的结果如下:")
    y -= 20
    c.setFont("Helvetica", 9)  # the CID font's Latin glyphs are a full em wide: cells would run into each other
    for line in [HEAD, *CLOSET]:
        for x, cell in zip(XS, line, strict=True):
            c.drawString(x, y, cell)
        y -= 16
    c.setFont("STSong-Light", 10)
    c.drawString(60, y - 10, "接下来打开 300 个线程,每个线程重复浏览贴文的操作,持续 2 分钟。")
    c.showPage()
    c.save()
    return parsed_index(path, "R3")


def _verdicts(index: EvidenceIndex, body: str, lang: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_an_articles_words_for_the_summary_columns_name_them(index: EvidenceIndex) -> None:
    en = "- add clothes: 800 samples, median 107, maximum {} [source: R3]."
    assert _verdicts(index, en.format("443"), "en")["443"] == "verified"
    assert _verdicts(index, "- add clothes: minimum 62, maximum 443 [source: R3].", "en")["62"] == "verified"
    zh = "- add clothes 共 800 个样本,平均值 115,95% Line 为 184,最大值 {}【出处:R3】。"
    assert _verdicts(index, zh.format("443"), "zh")["443"] == "verified"  # 最大值 is the Max column
    assert _verdicts(index, "- add clothes 的最大值为 184【出处:R3】。", "zh")["184"] == "mismatch"  # a 95% Line


def test_cells_of_measured_columns_are_no_row_keys(index: EvidenceIndex) -> None:
    # The TOTAL row repeats add clothes whole: Samples/Average/Median stay measurements, so another column's value
    # is not "verified" as the row's key (`164` was the key `90% Line 164` of every cell to its right).
    assert _verdicts(index, "- add clothes: average 115, 95% line 184 [source: R3].", "en")["184"] == "verified"
    assert _verdicts(index, "- add clothes: average 115, 95% line 164 [source: R3].", "en")["164"] == "mismatch"
    assert _verdicts(index, "- add clothes 的 95% Line 为 164【出处:R3】。", "zh")["164"] == "mismatch"


def test_a_count_after_its_classifier_is_that_count(index: EvidenceIndex) -> None:
    # The report's `300 个线程`: an English article's `300 threads` is that count, not an unsupported number.
    got = _verdicts(index, "With 300 threads browsing for 2 minutes, no request failed [source: R3].", "en")
    assert got["300 threads"] == "verified"
    assert _verdicts(index, "- 持续 2 分钟的测试打开了 300 个线程【出处:R3】。", "zh")["300 个线程"] == "verified"
    assert _verdicts(index, "With 300 disks for 2 minutes [source: R3].", "en")["300 disks"] != "verified"


def test_a_count_noun_one_word_after_its_number(index: EvidenceIndex) -> None:
    # A brief's question as an offline draft's heading: `with 300 concurrent threads` was a bare `300`, unsupported.
    body = "## What response times did the APIs show with {} concurrent {}?\n\nNo request failed [source: R3]."
    assert _verdicts(index, body.format(300, "threads"), "en")["300"] == "verified"
    assert _verdicts(index, body.format(300, "disks"), "en")["300"] != "verified"
