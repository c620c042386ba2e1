"""Chance control (issue 14 item 4): the change after a from→to pair of unitless figures is that pair's change.

Expected figures read from the PDF (pypdf text) office/unit_column_zh.pdf p.1: 表 1 row `4KB 随机读 IOPS 182,400 265,300
+45.4%` (v1.8(基线) / v2.0 / 变化); prose: 在 64 个客户端下,顺序读带宽从 6.42 GB/s 提升到 9.87 GB/s,提升 53.7%.
"""

from __future__ import annotations

from real_support import ZS3, verdicts

BODY = "- 4KB 随机读 IOPS:182,400 → 265,300,提升 {}【出处:R3 实测】。"


def test_the_change_of_a_bare_pair_is_checked_against_the_pair() -> None:
    # IOPS is printed in its own column, so the two values are bare numbers: their change is still theirs.
    right = verdicts(ZS3, BODY.format("45.4%"))
    assert right["182,400"] == right["265,300"] == "verified" and right["45.4%"] in ("verified", "derived")
    # 53.7% is the sequential-read bandwidth's rise: a figure of the report, not this pair's change
    assert verdicts(ZS3, BODY.format("53.7%"))["53.7%"] == "mismatch"


HRT = "oaid_caffe_hrt_perf_report.pdf"  # p.6 Table 1 Performance comparation: GoogleNet Original Caffe 1387.70 ms,
# Caffe-HRT 494.00 ms, Performance Gain 2.81


def test_a_pair_of_times_that_gets_faster_falls() -> None:
    body = "GoogleNet's time per inference goes from {} ms to {} ms (2.81 times faster) [source: R3]."
    right = verdicts(HRT, body.format("1387.70", "494.00"), lang="en")
    assert right["1387.70 ms"] == right["494.00 ms"] == "verified"
    # swapped, the time rises where the words say it got faster
    assert verdicts(HRT, body.format("494.00", "1387.70"), lang="en")["1387.70 ms"] == "mismatch"
