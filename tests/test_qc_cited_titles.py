"""Chance control (issue 14): a number inside the title of a work a report cites (《…》) is no figure of it.

Expected figures read from the PDF (`pdftotext -layout`): mineru_broker_research_report_zh.pdf p.1, `公司目前切片代工产能约
47GW`; the 相关研究 column lists `3.《高测股份(688556.SH):再签建湖 10GW 硅片切割代工产能,强化代…》`, a title.
"""

from __future__ import annotations

from real_support import BROKER, OK, verdicts


def test_a_number_in_a_cited_title_backs_no_claim() -> None:
    body = "目前切片代工产能约 {}GW【出处:R3】。"
    assert verdicts(BROKER, body.format(47))["约 47GW"] in OK
    assert verdicts(BROKER, body.format(10))["约 10GW"] not in OK  # only the cited work's title says 10GW of 代工产能
