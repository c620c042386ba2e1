"""Two systems' columns restated in one English sentence (issue #14, outside trial): `in both` names both columns
of a row whose cells are equal, and a trailing `for X` owns the number before it (`A of … against B for X`)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

MEMORY = [
    ["Metric", "SGLang 0.4.1", "MLC-LLM 0.18"],
    ["Weights per GPU (GB)", "35.2", "35.2"],
    ["KV cache per GPU (GB)", "38.4", "41.9"],
    ["Peak memory per GPU (GB)", "76.3", "78.8"],
    ["Start-up time (s)", "84", "1,125"],
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("memory") / "memory.pdf"
    lines = ["4 Memory", "MLC-LLM reserves 3.5 GB more KV cache per GPU, so it holds 448 sequences instead of 412.",
             "Table 3: Memory and start-up per GPU"]  # fmt: skip
    return table_index(path, "R3", lines, MEMORY, (60, 250, 400))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_a_trailing_for_owns_the_number_before_it(memory: EvidenceIndex) -> None:
    said = "MLC-LLM allocates {} GB of KV cache per GPU against {} GB for SGLang, 3.5 GB more [source: R3]."
    got = _verdicts(memory, said.format("41.9", "38.4"))
    assert (got["41.9 GB"], got["38.4 GB"]) == ("verified", "verified")
    # the systems swapped: each number is the other's cell
    swapped = _verdicts(memory, said.format("38.4", "41.9"))
    assert swapped["38.4 GB"] == "mismatch"
    assert swapped["41.9 GB"] == "mismatch"


def test_in_both_names_both_columns_of_an_equal_row(memory: EvidenceIndex) -> None:
    said = "Peak memory per GPU was 76.3 GB for SGLang and 78.8 GB for MLC-LLM, of which {} GB is weights in both [source: R3]."
    assert _verdicts(memory, said.format("35.2"))["35.2 GB"] == "verified"
    # another row's cell, and a row whose cells differ, are no weights of both
    assert _verdicts(memory, said.format("38.4"))["38.4 GB"] != "verified"
    differ = "Peak memory per GPU was 76.3 GB for SGLang and 78.8 GB for MLC-LLM, of which 41.9 GB is KV cache in both [source: R3]."
    assert _verdicts(memory, differ)["41.9 GB"] != "verified"
