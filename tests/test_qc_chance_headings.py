"""Chance control (issue 14): a heading that covers some rows of a table only names none of them.

Expected figures read from the PDF (`pdftotext -layout`): yatha_hotword_perf_report_zh.pdf p.7, `C. 延迟分析`, below the
analysis list item `3. 小负载场景下吞吐量波动较大,因为测量误差对短时间处理影响更大` (which the extractor takes for a
section heading): 单行延迟 input3_one_eighth 0.169 ms/行, input3_quarter 0.080, input3_half 0.095, input3 (1x) 0.101,
input3_double (2x) 0.072, input3_triple (3x) 0.070, input3_x4 (4x) 0.074; p.10 `7、关键性能指标汇总`: 延迟 | 单行处理延迟 |
0.074 ms | 大规模数据下的稳定值.
"""

from __future__ import annotations

from real_support import OK, YATHA, verdicts


def test_a_heading_over_some_rows_of_a_table_names_no_row() -> None:
    # the sentence shares 吞吐量 and 处理 with the list item taken for a heading over the latency rows: no row of them
    body = "YatHA 的实际处理吞吐量稳定在约 13,500 行/秒,大规模数据下单行延迟为 {} ms【出处:R3】。"
    assert verdicts(YATHA, body.format("0.074"))["0.074 ms"] in OK  # the summary's large-data value
    for wrong in ("0.101", "0.169", "0.080"):  # the 1x, 1/8 and 1/4 rows, which the sentence does not name
        assert verdicts(YATHA, body.format(wrong))[f"{wrong} ms"] not in OK, wrong
