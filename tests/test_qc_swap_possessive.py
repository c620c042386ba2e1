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


EN_LINES = ["3 Latency", "At 128 users the p99 latency of OrbitDB reached 5,134 ms, 1,445 ms higher than NovaDB.",
            "Table 2: p99 latency by users"]  # fmt: skip
EN_ROWS = [["Users", "OrbitDB p99 (ms)", "NovaDB p99 (ms)"], ["64", "2,410", "1,980"], ["128", "5,134", "3,689"]]


@pytest.fixture(scope="module")
def tails(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return table_index(tmp_path_factory.mktemp("t") / "t.pdf", "R3", EN_LINES, EN_ROWS, (60, 160, 300))


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3,689 ms", "verified"), ("3,698 ms", "mismatch"), ("2,410 ms", "mismatch")],  # (2,410: OrbitDB's, 64 users)
)
def test_an_english_possessive_is_its_name_alone(tails: EvidenceIndex, value: str, expected: str) -> None:
    # `higher than` before `NovaDB's` stays the difference's words: they name the report sentence's 1,445
    body = (
        f"At 128 users the p99 latency of OrbitDB reached 5,134 ms, 1,445 ms higher than NovaDB's {value} [source: R3]."
    )
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    got = {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), tails).numbers}
    assert got["1,445 ms"] == "verified" and got[value] == expected
