"""English magnitude words (issue #14, outside trial): `1.2 million` is 1,200,000 at a precision of 100,000, so a
stated difference `about 1.1 million more than` is derived from the sentence's two counts."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.numbers import extract

RUNS = [
    ["Metric", "Run A", "Run B"],
    ["Requests served", "2,874,310", "3,952,655"],
    ["Errors", "4,120", "1,905"],
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("runs") / "runs.pdf"
    return table_index(path, "R3", ["3 Results", "Table 2. Totals per run"], RUNS, (60, 250, 400))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_a_magnitude_word_scales_its_number() -> None:
    (q,) = [q for q in extract("the pool served about 2.5 million users") if q.value]
    assert (q.value, q.step, q.magnitude, q.approx) == (2_500_000, 100_000, True, True)
    (k,) = extract("some 40 thousand rows")
    assert k.value == 40_000


def test_a_difference_in_millions_is_derived(runs: EvidenceIndex) -> None:
    said = "Run B served 3,952,655 requests, about {} million more than the 2,874,310 of Run A [source: R3]."
    assert _verdicts(runs, said.format("1.1"))["about 1.1 million"] == "derived"
    # 3,952,655 − 2,874,310 = 1,078,345: no 1.4 million
    assert _verdicts(runs, said.format("1.4"))["about 1.4 million"] not in ("verified", "derived")


def test_a_zero_in_millions_rests_on_no_bare_zero(runs: EvidenceIndex) -> None:
    # the report's `0` (a page or a bare count) is no 0.0 million of anything, nor its 1,905 errors rounded
    body = "Run B served 3,952,655 requests and about {} million errors [source: R3]."
    assert _verdicts(runs, body.format("0.0"))["about 0.0 million"] not in ("verified", "derived")
