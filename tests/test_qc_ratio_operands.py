"""QC: a ratio stating the measure it multiplies (`2.50 times the 48.2 GB/s`) beside the sentence's other measure of
that kind is decided by those two operands, never by an unrelated figure of its value elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import prose_index
from real_support import OK

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

LINES = [
    "2 Checkpoint save",
    "Alpha saved the 40B checkpoint at 120.6 GB/s against 48.2 GB/s for Beta.",
    "Across model sizes the save speed-up ranged from 2.31x to 2.62x.",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(Path(tmp_path_factory.mktemp("ratio")) / "ratio.pdf", "R3", LINES)


def _status(index: EvidenceIndex, body: str) -> dict[str, str]:
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    found = check_draft(parse_draft(doc, "a.md"), index).numbers
    return {n.text.strip(): n.status for n in found if n.status != "exempt"}


def test_the_ratio_s_own_operands_decide(report: EvidenceIndex) -> None:
    body = "Alpha saved the 40B checkpoint at 120.6 GB/s, {} times the 48.2 GB/s of Beta [source: R3]."
    assert _status(report, body.format("2.50"))["2.50 times"] in OK  # 120.6 / 48.2
    assert _status(report, body.format("2.62"))["2.62 times"] not in OK  # the range's end, another comparison
