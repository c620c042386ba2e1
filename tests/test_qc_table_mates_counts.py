"""Chance control (issue 14): an article table row whose other cells are one report row's states that row's count.

Expected figures read from the PDF (`pdftotext -layout`): yatha_hotword_perf_report_zh.pdf p.4 `2、测试数据集` (数据集 |
负载比例 | 行数 …): input3_one_eighth.txt 1/8 1,896 行, input3_triple.txt 三倍 (3x) 44,742 行, input3_double.txt 双倍 (2x)
29,828 行; p.7 `B. 吞吐量分析` (数据集 | 行数 | 总耗时 | 表观吞吐量 | 纯处理时间 | 实际吞吐量): input3_double (2x) 29,828
4.78s 6,240 行/秒 2.14s 13,937 行/秒.
"""

from __future__ import annotations

from real_support import OK, YATHA, check_body

TABLE = """| 数据集 | 行数 | 总耗时 (s) | 纯处理时间 (s) | 实际吞吐量 (行/秒) |
|---|---|---|---|---|
| input3_double (2x) | {} | 4.78 | 2.14 | 13,937 |

来源:【出处:R3】"""


def _cell(rows: str) -> str:
    return next(n.status for n in check_body(YATHA, TABLE.format(rows)).numbers if n.text.strip() == rows)


def test_a_count_of_another_row_of_the_dataset_table_is_no_cell_of_the_mates_row() -> None:
    # the row's other cells are the 2x row's of the p.7 table; a stub `数据集` names no `2、测试数据集` section
    assert _cell("29,828") in OK
    for wrong in ("1,896", "44,742"):  # the 1/8 and 3x datasets' line counts (p.4 table, printed with 行)
        assert _cell(wrong) not in OK, wrong
