"""QC: a row key a sentence states (`ef=32`, `ef set to 32`, `an ef of 32`; two-letter keys too) rules out every cell
of another row for each figure of the sentence, even where its other figures are that row's."""

from __future__ import annotations

import pytest
from pdf_support import table_index
from real_support import OK

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["ef", "Alpha QPS", "p99 (ms)", "Beta QPS", "p99 (ms)"]  # (the latency columns name no system)
ROWS = [["32", "11,200", "3.8", "8,900", "5.1"], ["128", "6,100", "7.0", "4,400", "9.9"],
        ["512", "2,300", "18.6", "1,500", "27.4"]]  # fmt: skip


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["4 HNSW results", "Table 1 Queries per second and p99 latency by ef (32 clients)"]
    path = tmp_path_factory.mktemp("search") / "search.pdf"
    return table_index(path, "R3", lines, [HEAD, *ROWS], (60, 130, 210, 300, 380))


def _status(index: EvidenceIndex, body: str) -> dict[str, str]:
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    found = check_draft(parse_draft(doc, "a.md"), index).numbers
    return {n.text.strip(): n.status for n in found if n.status != "exempt"}


@pytest.mark.parametrize("said", ["At ef=32", "With ef set to 32,", "At an ef of 32,"])
def test_a_stated_key_rules_out_another_row_s_cell(search: EvidenceIndex, said: str) -> None:
    assert _status(search, f"{said} Alpha reached 11,200 QPS [source: R3].")["11,200 QPS"] == "verified"
    assert _status(search, f"{said} Alpha reached 2,300 QPS [source: R3].")["2,300 QPS"] not in OK  # the ef 512 row


def test_the_key_holds_where_the_sentence_s_other_figures_are_its_row_s(search: EvidenceIndex) -> None:
    body = "At ef=32 Alpha reached {} QPS with a p99 latency of 3.8 ms, against 8,900 QPS for Beta [source: R3]."
    right = _status(search, body.format("11,200"))
    assert right == {"32": "verified", "11,200 QPS": "verified", "3.8 ms": "verified", "8,900 QPS": "verified"}
    wrong = _status(search, body.format("2,300"))  # the ef 512 row's
    assert wrong["2,300 QPS"] not in OK and wrong["3.8 ms"] == "verified" and wrong["8,900 QPS"] == "verified"


def test_a_change_is_derived_from_the_row_the_sentence_keys(search: EvidenceIndex) -> None:
    body = "At ef=128 Alpha answered 6,100 queries per second, {} more than Beta [source: R3]."
    assert _status(search, body.format("38.6%"))["38.6%"] == "derived"  # 6,100 / 4,400
    assert _status(search, body.format("53.3%"))["53.3%"] not in OK  # 2,300 / 1,500: the ef 512 row's gain
