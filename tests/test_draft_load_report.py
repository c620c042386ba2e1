"""The drafter over a load tool's summary tables (JMeter: Label, Samples, Average, …), a hand-made report: a count of
samples is the test's condition, never a key result, and a section heading is no row label."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from pdf_support import parsed_index

from pipeline.brief import Brief
from pipeline.drafting.offline import write_offline
from pipeline.drafting.verdict import judge
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Label", "Samples", "Average", "Median", "90% Line", "Min", "Max", "Error %"]
CLOSET = [
    ["add clothes", "800", "115", "107", "164", "62", "443", "0.00%"],
    ["get clothes", "100", "85", "78", "103", "71", "151", "0.00%"],
]
POSTS = [
    ["user posts", "300", "2204", "1980", "3410", "420", "6120", "0.00%"],
    ["share post", "300", "1630", "1502", "2711", "388", "4402", "0.00%"],
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
    y = 760.0
    for title, rows in (("1.虚拟衣柜相关接口测试", CLOSET), ("3.分享社区相关接口测试", POSTS)):
        c.setFont("STSong-Light", 10)
        c.drawString(60, y, title)
        y -= 20
        c.drawString(60, y, "当在 5 秒内产生 100 个线程来对服务器进行访问时,得到的结果如下(响应时间单位 ms):")
        y -= 20
        c.setFont("Helvetica", 9)
        for line in [HEAD, *rows]:
            for x, cell in zip(XS, line, strict=True):
                c.drawString(x, y, cell)
            y -= 16
        y -= 30
    c.showPage()
    c.save()
    return parsed_index(path, "R3")


def _draft(index: EvidenceIndex, questions: list[str]) -> str:
    from pipeline.drafting import fileformat

    brief = Brief(slug="jm", title="接口压测结果", lang="zh", tags=["JMeter"], evidence=["R3"], audience="后端工程师",
                  brief="说明各接口的响应时间。", questions=questions, faq_count=1)  # fmt: skip
    content = write_offline(brief, index)
    return fileformat.render_draft(
        brief, content, drafter="offline", inputs="0", date=dt.date(2026, 1, 1), updated=None
    )


QUESTIONS = ["哪个接口的平均响应时间最高?", "虚拟衣柜接口的响应时间是多少?"]


def test_a_count_of_samples_is_no_key_result(index: EvidenceIndex) -> None:
    # `Samples` counts the requests sent (800, 100, 300): the test's condition, never `Samples 为 800` as an answer.
    text = _draft(index, QUESTIONS)
    assert "Samples 为" not in text and "800" not in text, text
    assert "2204" in text.split("## ")[1]  # user posts' Average, the highest (the hand-made table above)
    assert judge(parse_draft(text, Path("jm.md")), index, {}).errors() == []


def test_a_section_heading_is_no_row_label_but_tells_its_rows_apart(index: EvidenceIndex) -> None:
    # `3.分享社区相关接口测试` heads the second table, which the store reads on from the first: no row's name, but the
    # question naming `虚拟衣柜` asks for the rows under `1.虚拟衣柜相关接口测试` (add clothes 115, get clothes 85).
    text = _draft(index, QUESTIONS)
    assert "相关接口测试" not in text, text
    section = text.split("## 虚拟衣柜接口的响应时间是多少?")[1]
    assert "115" in section and "85" in section and "2204" not in section and "1630" not in section, section
