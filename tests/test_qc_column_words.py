"""Words that do not name another column: a year column's `E`, a Chinese label's head noun (issue 14, part S).

Expected figures read with `pdftotext -layout` (never from QC's output):
- mineru_broker_research_report_zh.pdf p.3, 主要财务指标: 营业收入增长率 2021 110.0%, 2022E 135.1%; p.2 营业收入(百万元)
  2021 1,567, 2022E 3,684 (3,684/1,567 − 1 = 135.1 %).
- pymupdf_chinese_tables_zh.pdf 表 7-2 (万元): 5 中信银行盐城分行 授信总额 205,088.00, 已使用情况 205,088.00, 剩余额度 0.00;
  1 工商银行 330,435.30 / 234,850.00 / 95,585.30.
"""

from __future__ import annotations

from real_support import BROKER, OK, verdicts

CREDIT = "pymupdf_chinese_tables_zh.pdf"


def test_a_growth_rate_of_the_year_a_sentence_grows_to_is_that_years_column() -> None:
    body = "营业收入预计从 2021 年的 1,567 百万元增至 2022 年的 3,684 百万元,同比增长 {}【出处:R3】。"
    assert verdicts(BROKER, body.format("135.1%"))["135.1%"] in OK  # the 2022E column
    assert verdicts(BROKER, body.format("137.2%"))["137.2%"] not in OK  # no such figure


def test_a_columns_head_noun_alone_does_not_name_it() -> None:
    body = "中信银行盐城分行的 {} 万元额度已全部使用【出处:R3】。"
    assert verdicts(CREDIT, body.format("205,088.00"))["205,088.00 万元"] == "verified"  # 授信总额 (= 已使用)
    # its modifier does: `剩余` names the 剩余额度 column, whose value in this row is 0.00
    wrong = "中信银行盐城分行的剩余额度为 {} 万元【出处:R3】。"
    assert verdicts(CREDIT, wrong.format("205,088.00"))["205,088.00 万元"] == "mismatch"
    assert verdicts(CREDIT, wrong.format("0.00"))["0.00 万元"] == "verified"
