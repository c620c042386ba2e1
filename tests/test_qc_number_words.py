"""QC: English number words — a sentence opening `Over 30 runs,` is across them (no bound), `48 times a day` is how
often (no multiple)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import prose_index
from real_support import OK

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.numbers import extract

LINES = [
    "3 Checkpoint results",
    "We ran 30 consecutive saves of the 13B model; the p99 save time was 6.42 s.",
    "Checkpoints per day: 36",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(Path(tmp_path_factory.mktemp("words")) / "words.pdf", "R3", LINES)


def _status(index: EvidenceIndex, body: str) -> dict[str, str]:
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    found = check_draft(parse_draft(doc, "a.md"), index).numbers
    return {n.text.strip(): n.status for n in found if n.status != "exempt"}


def test_over_a_count_opening_a_phrase_is_across_it(report: EvidenceIndex) -> None:
    body = "Over {} back-to-back 13B saves, the p99 save time was 6.42 s [source: R3]."
    assert _status(report, body.format(30)) == {"30": "verified", "13B": "verified", "6.42 s": "verified"}
    assert _status(report, body.format(31))["31"] not in OK
    assert extract("Over 30 runs, the p99 was 6.42 s")[0].bound is None
    assert extract("Over 30 customers use it")[0].bound == ">"  # a bound where no phrase ends before the clause
    assert extract("It served over 30 tenants, then stopped")[0].bound == ">"  # (not opening the sentence)


def test_times_a_day_is_a_frequency_not_a_multiple(report: EvidenceIndex) -> None:
    assert _status(report, "The job checkpoints 36 times a day [source: R3].")["36 times"] == "verified"
    assert _status(report, "The job checkpoints 37 times a day [source: R3].")["37 times"] not in OK
    assert extract("36 times a day")[0].unit != "x"
    assert extract("36 times faster")[0].unit == "x"
