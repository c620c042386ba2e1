"""A possessive before each number (`从 B 的 x 升至 A 的 y`, `from B's x to A's y`) names that number's owner: a sentence
restating both sides of a comparison in another order than the report's is no swap, while the owners exchanged still
are (issue #14, outside trial 11)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

LINES = ["4 写入结果", "在 128 线程下,NovaDB 的写入 QPS 为 93,480,比 OrbitDB 的 61,250 高 52.6%。", "表 3 写入吞吐"]
ROWS = [["线程数", "NovaDB QPS", "OrbitDB QPS"], ["64", "58,170", "40,020"], ["128", "93,480", "61,250"],
        ["256", "97,300", "66,840"]]  # fmt: skip


@pytest.fixture(scope="module")
def writes(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return table_index(tmp_path_factory.mktemp("w") / "w.pdf", "R3", LINES, ROWS, (60, 160, 280))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_each_possessive_owns_the_number_after_it(writes: EvidenceIndex) -> None:
    got = _verdicts(writes, "128 线程下写入 QPS 从 OrbitDB 的 61,250 升至 NovaDB 的 93,480(高 52.6%)【出处:R3】。")
    assert got["61,250"] == got["93,480"] == got["52.6%"] == "verified"


def test_owners_exchanged_are_still_a_swap(writes: EvidenceIndex) -> None:
    got = _verdicts(writes, "128 线程下写入 QPS 从 NovaDB 的 61,250 升至 OrbitDB 的 93,480(高 52.6%)【出处:R3】。")
    assert got["61,250"] == got["93,480"] == "mismatch"


def test_another_rows_value_still_fails(writes: EvidenceIndex) -> None:
    got = _verdicts(writes, "128 线程下写入 QPS 从 OrbitDB 的 66,840 升至 NovaDB 的 93,480【出处:R3】。")
    assert got["66,840"] == "mismatch"
