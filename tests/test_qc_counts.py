"""Counts as Chinese and English write them: `200,000 个事件` is a report's `200,000 事件`; `8 件` and `8 items` are one
count (a classifier before its noun)."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.units import parse_unit

# A page as a hot-word service report prints it (no figure extracted from the prose).
PAGE = (
    "核心算法吞吐量测试:处理 200,000 事件耗时 0.2002 s。压力测试:用户连续上传 8 件衣物后衣橱已满。"
    "表 2 接口性能 上传图片 115 创建帖子 85"
)


def _statuses(sentence: str, lang: str = "zh") -> dict[str, str]:
    rep = Report(id="H1", title="t", date=dt.date(2026, 1, 1), access="public", file="h1.pdf", sha256="0",
                 version=1, pages=1)  # fmt: skip
    cells = [Figure(id=f"c{i}", report="H1", page=1, value=v, unit="", raw=str(v), kind="cell",
                    labels=["表 2 接口性能", row, "Average"], quote=f"{row} {v}")
             for i, (row, v) in enumerate((("上传图片", 115), ("创建帖子", 85)))]  # fmt: skip
    index = EvidenceIndex(reports={"H1": rep}, figures={"H1": cells},
                          pages={"H1": [Page(report="H1", version=1, page=1, text=PAGE)]})  # fmt: skip
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [H1]\nanswer: a\n---\n\n{sentence}\n"
    numbers = check_draft(parse_draft(doc, "t.md"), index).numbers
    return {n.text.strip(): n.status for n in numbers if n.status != "exempt"}


def test_a_classifier_before_the_noun_is_the_reports_bare_count() -> None:
    assert _statuses("核心算法处理 200,000 个事件【出处:H1 实测】。") == {"200,000 个": "verified"}
    # another count of the same noun is not in the report
    assert _statuses("核心算法处理 300,000 个事件【出处:H1 实测】。") == {"300,000 个": "unsupported"}


def test_items_and_jian_are_one_count() -> None:
    assert _statuses("用户连续上传 8 件衣物后衣橱已满【出处:H1 实测】。") == {"8 件": "verified"}
    assert _statuses("用户连续上传 9 件衣物后衣橱已满【出处:H1 实测】。") == {"9 件": "unsupported"}
    # English counts items in the same dimension (a figure `8 件` of a table backs `8 items`)
    assert parse_unit("items").dim == parse_unit("件").dim == parse_unit("个").dim


def test_a_ratio_rests_on_the_whole_numbers_it_states_in_its_parenthesis() -> None:
    # a JMeter-style table prints bare whole numbers; the article states both operands right after the ratio
    assert _statuses("上传图片的平均响应时间约为创建帖子的 1.35 倍（115 对 85）【出处:H1 实测】。") == {
        "1.35 倍": "derived", "115": "verified", "85": "verified"}  # fmt: skip
    assert (
        _statuses("上传图片的平均响应时间约为创建帖子的 1.55 倍（115 对 85）【出处:H1 实测】。")["1.55 倍"] != "derived"
    )
