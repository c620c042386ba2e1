"""A rounded restatement in another unit set after the clause of the number it restates (issue #14, outside trial):
`Its 1,125 s start-up includes the model compile, about 19 minutes` says 1,125 s again, coarser."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

START = [
    ["Metric", "SGLang 0.4.1", "MLC-LLM 0.18"],
    ["Start-up time (s)", "84", "1,125"],
    ["Cached start-up time (s)", "31", "57"],
]


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("start") / "start.pdf"
    return table_index(path, "R3", ["4 Start-up", "Table 3: Start-up per server"], START, (60, 250, 400))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_a_coarse_restatement_in_another_unit_after_its_clause(start: EvidenceIndex) -> None:
    said = "MLC-LLM's 1,125 s start-up includes the one-off model compile, about {} minutes; a cached one takes 57 s [source: R3]."
    got = _verdicts(start, said.format(19))
    assert (got["1,125 s"], got["about 19 minutes"]) == ("verified", "verified")
    # 1,125 s is no 15 minutes
    assert _verdicts(start, said.format(15))["about 15 minutes"] == "mismatch"
