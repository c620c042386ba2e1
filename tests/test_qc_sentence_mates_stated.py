"""A report sentence's other figure that the article's full sentence states too (by a table cell: `CPU 使用率为 54.2%`)
is stood for, so a change of the same report sentence stated from its own operands (`较 BetaKV 的 439.8 MB/s 减少 27.6%`)
is no stand-in for it (issue #14, outside trial 11); a wrong change still fails."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# (the report sentence breaks before its last figure, as a Word line does: 27.6% is a line of its own)
LINES = ["四、结论", "资源:同等负载下 AlphaKV 的CPU 使用率为 54.2%,磁盘写带宽为 318.4 MB/s,较 BetaKV 减少", "27.6%。",
         "表 4 资源使用(YCSB-A,256 并发)"]  # fmt: skip
ROWS = [["指标", "AlphaKV", "BetaKV"], ["CPU 使用率 (%)", "54.2", "71.9"], ["磁盘写带宽 (MB/s)", "318.4", "439.8"]]
BODY = ("256 并发 YCSB-A 负载下,AlphaKV 单节点 CPU 使用率为 54.2%,比 BetaKV 的 71.9% 低 17.7 个百分点;磁盘写带宽为 "
        "318.4 MB/s,较 BetaKV 的 439.8 MB/s 减少 {}【出处:R3】。")  # fmt: skip


@pytest.fixture(scope="module")
def resources(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return table_index(tmp_path_factory.mktemp("r") / "r.pdf", "R3", LINES, ROWS, (60, 220, 300))


@pytest.mark.parametrize(("change", "expected"), [("27.6%", "verified"), ("38.1%", "mismatch")])
def test_a_change_from_its_own_operands_stands_for_itself(resources: EvidenceIndex, change: str, expected: str) -> None:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{BODY.format(change)}\n"
    got = {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), resources).numbers}
    assert got[change] == expected and got["54.2%"] == "verified"
