"""A summary's prose figure takes no key from the clause after it (`QPS 最高达到 512,730,在 128 并发及以下 …`: the 128 is
the next clause's), so the table cell of the row the claim names backs it; and a bare count rounded to a magnitude right
after it (`512,730,约 51.3 万`) restates it, no list member of its own (issue #14, outside trial 11)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

LINES = ["一、摘要", "AlphaKV 的点读 QPS 最高达到 512,730,在 128 并发及以下 p99 延迟低于 3 ms。", "表 2 点读性能"]
ROWS = [
    ["并发数", "QPS", "p99 (ms)"],
    ["64", "201,350", "1.92"],
    ["128", "389,460", "2.71"],
    ["256", "512,730", "6.48"],
]


@pytest.fixture(scope="module")
def reads(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return table_index(tmp_path_factory.mktemp("k") / "k.pdf", "R3", LINES, ROWS, (60, 160, 300))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("256 并发下 AlphaKV 点读 QPS 达到 512,730,约 51.3 万,此时 p99 延迟为 6.48 ms【出处:R3】。",
         {"256": "verified", "512,730": "verified", "约 51.3 万": "verified", "6.48 ms": "verified"}),
        # another row's key, or a rounding of another value, still fail
        ("128 并发下 AlphaKV 点读 QPS 达到 512,730,此时 p99 延迟为 6.48 ms【出处:R3】。",
         {"512,730": "mismatch", "6.48 ms": "mismatch"}),
        ("256 并发下 AlphaKV 点读 QPS 达到 512,730,约 52.3 万,此时 p99 延迟为 6.48 ms【出处:R3】。",
         {"约 52.3 万": "unsupported"}),
        ("256 并发下 AlphaKV 点读 QPS 达到 512,730,约 38.9 万,此时 p99 延迟为 6.48 ms【出处:R3】。",
         {"约 38.9 万": "mismatch"}),  # (the 128 row's QPS, rounded)
    ],
)  # fmt: skip
def test_a_summary_figure_keys_from_its_own_clause(reads: EvidenceIndex, body: str, expected: dict[str, str]) -> None:
    got = _verdicts(reads, body)
    assert {k: got[k] for k in expected} == expected


def test_a_thousands_comma_ends_no_clause(tmp_path_factory: pytest.TempPathFactory) -> None:
    # `per 1,000 requests`: the comma inside 1,000 is no clause end, so the figure's key is `per 1,000`, not `per 1`
    from pdf_support import prose_index

    index = prose_index(tmp_path_factory.mktemp("c") / "c.pdf", "R3", [
        "1. Summary", "Serving cost fell from $0.84 to $0.61 per 1,000 requests (-27.4%) on the same GPUs."])  # fmt: skip

    def verdicts(body: str) -> dict[str, str]:
        text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
        return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}

    said = verdicts("Serving cost dropped from $0.84 to $0.61 per 1,000 requests [source: R3].")
    assert said["1,000"] == "verified" and said["0.84"] == "verified", said
    other = verdicts("Serving cost dropped from $0.84 to $0.61 per 1,000 requests, on 8 GPUs [source: R3].")
    assert other["8 GPUs"] not in ("verified", "derived"), other  # the report says no 8
