"""A bound that restates the value beside it (`达到 47.36 ms,超过 40 ms`) is no second value a swap could exchange, in
whichever order the report prints the two (issue #14, outside trial 11); a wrong value beside it still fails."""

from __future__ import annotations

import pytest
from pdf_support import prose_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

LINES = ["5 延迟", "在 1024 连接下 OrbitDB 的读 p95 延迟超过 40 ms,达到 47.36 ms。"]


@pytest.fixture(scope="module")
def latency(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("l") / "l.pdf", "R3", LINES)


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("1024 连接下 OrbitDB 的读 p95 延迟达到 47.36 ms,超过 40 ms【出处:R3】。",
         {"47.36 ms": "verified", "超过 40 ms": "verified"}),
        ("1024 连接下 OrbitDB 的读 p95 延迟超过 40 ms,达到 47.36 ms【出处:R3】。",
         {"47.36 ms": "verified", "超过 40 ms": "verified"}),
        # the two exchanged, or a value the report does not print, still fail
        ("1024 连接下 OrbitDB 的读 p95 延迟达到 40 ms,超过 47.36 ms【出处:R3】。",
         {"40 ms": "mismatch", "超过 47.36 ms": "mismatch"}),
        ("1024 连接下 OrbitDB 的读 p95 延迟达到 41.36 ms,超过 40 ms【出处:R3】。", {"41.36 ms": "mismatch"}),
    ],
)  # fmt: skip
def test_a_bound_is_no_swap_partner(latency: EvidenceIndex, body: str, expected: dict[str, str]) -> None:
    got = _verdicts(latency, body)
    assert {k: got[k] for k in expected} == expected
