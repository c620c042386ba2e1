"""A cell printed with a thousands separator is one number: its last group is no row key of the word after it
(`| 64 | 182,350 |` under `| 并发数 | … QPS |` read `350 并发` and called the cell another row's; issue #14, outside
trial 11)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["并发数", "TideKV QPS", "TiKV QPS", "TideKV p99 (ms)"]
ROWS = [["64", "182,350", "131,480", "1.12"], ["128", "296,710", "214,930", "1.58"]]


@pytest.fixture(scope="module")
def qps(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("qps") / "qps.pdf"
    return table_index(path, "R3", ["3 测试结果", "表 2 点读性能对比"], [HEAD, *ROWS], (60, 140, 240, 340))


def _verdicts(index: EvidenceIndex, table: str) -> list[tuple[str, str]]:
    body = f"## 点读性能差多少?\n\n{table}\n\n上表取自表 2【出处:R3 实测】。"
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return [(n.text.strip(), n.status) for n in check_draft(parse_draft(text, path="a.md"), index).numbers
            if n.status != "exempt"]  # fmt: skip


def test_a_thousands_group_is_no_row_key(qps: EvidenceIndex) -> None:
    table = "| 并发数 | TideKV QPS | TiKV QPS |\n|---|---|---|\n| 64 | 182,350 | 131,480 |\n| 128 | 296,710 | 214,930 |"
    assert _verdicts(qps, table) == [("64", "verified"), ("182,350", "verified"), ("131,480", "verified"),
                                     ("128", "verified"), ("296,710", "verified"), ("214,930", "verified")]  # fmt: skip
    # the two systems' cells swapped in a row, or a cell of the other row, are still errors
    swapped = (
        "| 并发数 | TideKV QPS | TiKV QPS |\n|---|---|---|\n| 64 | 131,480 | 182,350 |\n| 128 | 182,350 | 214,930 |"
    )
    got = dict(_verdicts(qps, swapped)[:3])
    assert got["131,480"] == got["182,350"] == "mismatch"
    assert _verdicts(qps, swapped)[4] == ("182,350", "mismatch")
