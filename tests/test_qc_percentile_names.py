"""A percentile has many names: JMeter's `95% Line`, `90th percentile`, `99 分位`, and `median` for p50; a claim's
`p90` or `median` is no cell of another percentile's column (issue #14, outside trial 11: `p90 … 351` passed on a
`95% Line` cell, `median TTFT … 904 ms` on a p99 one)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.context import context_tokens
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Label", "Average", "90% Line", "95% Line"]
ROWS = [["GET /cart", "143", "262", "348"], ["TOTAL", "218", "412", "587"]]


@pytest.fixture(scope="module")
def jmeter(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("jm") / "jm.pdf"
    return table_index(path, "R3", ["4 Results", "Table 3. Aggregate Report (ms)"], [HEAD, *ROWS], (60, 200, 280, 360))


def _status(index: EvidenceIndex, body: str, number: str) -> str:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return next(
        n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers if n.text.strip() == number
    )


@pytest.mark.parametrize(
    ("body", "number", "status"),
    [
        ("In total the p95 was 587 ms [source: R3].", "587 ms", "verified"),
        ("In total the p90 was 412 ms [source: R3].", "412 ms", "verified"),
        ("In total the p90 was 587 ms [source: R3].", "587 ms", "mismatch"),  # the 95% Line's
        ("For the cart, the 90th percentile was 348 ms [source: R3].", "348 ms", "mismatch"),
        ("For the cart, the 95th percentile was 348 ms [source: R3].", "348 ms", "verified"),
    ],
)
def test_a_percentile_is_named_many_ways(jmeter: EvidenceIndex, body: str, number: str, status: str) -> None:
    assert _status(jmeter, body, number) == status


@pytest.mark.parametrize(
    ("words", "named"),
    [
        ("95% Line", "p95"),
        ("90th percentile (ms)", "p90"),
        ("99 分位延迟", "p99"),
        ("median TTFT", "p50"),
        ("中位数", "p50"),
    ],
)
def test_each_name_of_a_percentile_is_its_p_token(words: str, named: str) -> None:
    assert named in context_tokens(words)
    assert not any(t.startswith("p9") for t in context_tokens("95% of the runs finished"))  # a share, no percentile
