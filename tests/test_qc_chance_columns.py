"""Chance control (issue 14 item 4): a value of another column of the row it names passes no more.

Expected figures read from the PDFs (pypdf text): office/unit_column_zh.pdf p.1 表 1 v1.8 与 v2.0 主要指标对比 (指标 / 单位 /
v1.8(基线) / v2.0 / 变化): 4KB 随机读 IOPS 182,400 265,300 +45.4%. pymupdf_chinese_tables_zh.pdf p.1 (序号 / 金融机构名称 /
授信总额 / 已使用情况 / 剩余额度): 3 兴业银行盐城分行 302,600.00 110,600.00 192,000.00; 5 中信银行盐城分行 205,088.00
205,088.00 0.00 (万元); above it: 截至2023 年3 月末,发行人各类授信额度总额达372.53 亿元,其中已使用额度252.06 亿元,尚未使用的
授信额度为120.47 亿元. mooncake_fast25_kvcache_serving_paper.pdf p.11 §5.3.2: the global cache exhibits a maximum increase
of 136% in cache hit rate and a reduction of up to 48% in prefill computation time.
"""

from __future__ import annotations

from real_support import MOONCAKE, OK, ZS3, check_body, verdicts

CREDIT = "pymupdf_chinese_tables_zh.pdf"


def test_two_versions_columns_swapped_in_an_article_table_are_caught() -> None:
    # `v1.8` and `v2.0` name the two columns: the decimal in a version must not reduce both headers to one `v`.
    table = "各项指标【出处:R3 实测】:\n\n| 指标 | v1.8 | v2.0 |\n|---|---|---|\n| 4KB 随机读 (IOPS) | {} | {} |\n"
    right = verdicts(ZS3, table.format("182,400", "265,300"))
    assert right["182,400"] in OK and right["265,300"] in OK
    swapped = check_body(ZS3, table.format("265,300", "182,400")).numbers
    assert any(n.text in ("182,400", "265,300") and n.status == "mismatch" for n in swapped)


def test_a_cell_of_the_row_s_other_column_its_words_name_is_a_mismatch() -> None:
    body = "兴业银行盐城分行授信 {} 万元,已使用 110,600.00 万元【出处:R3】。"
    assert verdicts(CREDIT, body.format("302,600.00"))["302,600.00 万元"] == "verified"
    wrong = next(n for n in check_body(CREDIT, body.format("192,000.00")).numbers if n.text.startswith("192,000.00"))
    assert wrong.status == "mismatch" and "302,600.00" in wrong.message, wrong.message


def test_words_naming_two_other_columns_name_none() -> None:
    # 205,088.00 is both this row's 授信总额 and its 已使用情况; `额度已全部使用` names 剩余额度 and 已使用 alike.
    body = "中信银行盐城分行的 205,088.00 万元额度已全部使用【出处:R3】。"
    assert verdicts(CREDIT, body)["205,088.00 万元"] == "verified"


def test_two_values_of_one_report_sentence_swapped_are_told_apart_by_its_clauses() -> None:
    # Both figures stand in one report sentence (their words are that sentence's): each one's own clause names it.
    body = "截至 2023 年 3 月末,发行人各类授信额度总额达 {} 亿元,已使用 {} 亿元【出处:R3】。"
    right = verdicts(CREDIT, body.format("372.53", "252.06"))
    assert right["372.53 亿元"] == right["252.06 亿元"] == "verified"
    swapped = verdicts(CREDIT, body.format("252.06", "372.53"))
    assert swapped["252.06 亿元"] == swapped["372.53 亿元"] == "mismatch"


def test_an_english_report_sentence_s_clauses_tell_a_chinese_claim_s_two_numbers_apart() -> None:
    body = "与本地缓存相比,全局缓存使缓存命中率最多提升 {},prefill 计算时间最多减少 {}【出处:R3】。"
    right = verdicts(MOONCAKE, body.format("136%", "48%"))
    assert right["136%"] in OK and right["48%"] in OK
    swapped = verdicts(MOONCAKE, body.format("48%", "136%"))
    assert swapped["48%"] == swapped["136%"] == "mismatch"
