"""Chance control (issue 14 item 4): the change after a from→to pair of unitless figures is that pair's change.

Expected figures read from the PDF (pypdf text) office/unit_column_zh.pdf p.1: 表 1 row `4KB 随机读 IOPS 182,400 265,300
+45.4%` (v1.8(基线) / v2.0 / 变化); prose: 在 64 个客户端下,顺序读带宽从 6.42 GB/s 提升到 9.87 GB/s,提升 53.7%.
"""

from __future__ import annotations

from real_support import verdicts

ZS3 = "office/unit_column_zh.pdf"
BODY = "- 4KB 随机读 IOPS:182,400 → 265,300,提升 {}【出处:R3 实测】。"


def test_the_change_of_a_bare_pair_is_checked_against_the_pair() -> None:
    # IOPS is printed in its own column, so the two values are bare numbers: their change is still theirs.
    right = verdicts(ZS3, BODY.format("45.4%"))
    assert right["182,400"] == right["265,300"] == "verified" and right["45.4%"] in ("verified", "derived")
    # 53.7% is the sequential-read bandwidth's rise: a figure of the report, not this pair's change
    assert verdicts(ZS3, BODY.format("53.7%"))["53.7%"] == "mismatch"
