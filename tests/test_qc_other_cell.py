"""A value of another row, column or system of a real report's table passes no more (issue 14, task C).

Expected figures read from the page images (pdftoppm -png -r 80): yatha_hotword_perf_report_zh.pdf p.7 (数据集 / 行数 /
总耗时 / 表观吞吐量 / 纯处理时间 / 实际吞吐量): input3_x4 (4x) → 59,656, 7.05s, 8,462 行/秒, 4.41s, 13,527 行/秒; the
prose below it: 表观吞吐量 从 640 行/秒 → 8,462 行/秒. p.8 窗口大小 table: 60s → 总耗时 3.93s (+7.7%), 120s → 3.86s.
"""

from __future__ import annotations

from real_support import verdicts

YATHA = "yatha_hotword_perf_report_zh.pdf"
OK = ("verified", "derived")


def test_a_cell_of_another_column_is_not_rescued_by_a_sentence_quoting_that_value() -> None:
    # 8,462 is the x4 row's apparent throughput (表观); the column is the real throughput (实际). The report's prose
    # quoting `→ 8,462 行/秒` fits the cell no better by the digits of the number itself.
    table = "| 数据集 | 行数 | 实际吞吐量 (行/秒) |\n|---|---|---|\n| input3_x4 (4x) | 59,656 | {} |\n"
    text = "各数据集的吞吐量如下【出处:R3 实测】:\n\n" + table
    assert verdicts(YATHA, text.format("13,527"))["13,527"] == "verified"
    assert verdicts(YATHA, text.format("8,462"))["8,462"] == "mismatch"


def test_a_setting_printed_with_its_unit_keys_its_row() -> None:
    # `窗口大小 60s` and `窗口大小 120s` are rows keyed by a number with a unit: 3.86 s is the 120 s window's.
    body = "- 窗口大小：60 s 窗口总耗时 {} s，比基准多 7.7%【出处:R3 实测】。"
    assert verdicts(YATHA, body.format("3.93"))["3.93 s"] == "verified"
    assert verdicts(YATHA, body.format("3.86"))["3.86 s"] == "mismatch"
