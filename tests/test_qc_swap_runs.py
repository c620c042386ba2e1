"""Two runs' tables and two metrics in one sentence (`143 ms in Run 1 against 112 ms in Run 2, and its p95 from 348 ms
to 262 ms`): each number's own words are its clause's up to `against`, a run number is set against no latency, and
the setting two numbers' figures share is decided by those two alone (a third number with a cell in each run's table
leaves the two captions telling the runs apart); a grouped number in a label (`# Samples 1,132,920`) is no `1`
(issue #14, outside trial 11). Both directions: the sentence as the tables print it verifies, the runs exchanged or
another column's value fails."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Label", "# Samples", "Average (ms)", "90% Line (ms)", "95% Line (ms)"]
LINES = ["4 Per-endpoint results", "Table 3. Aggregate Report - Run 1 (baseline)"]
ROWS = [HEAD, ["GET /basket", "741,350", "157", "244", "319"], ["GET /search", "512,400", "96", "171", "205"],
        ["Table 4. Aggregate Report - Run 2 (tuned)", "", "", "", ""],
        HEAD, ["GET /basket", "1,064,780", "118", "187", "244"], ["GET /search", "702,110", "81", "140", "166"]]  # fmt: skip
BODY = "Basket: {} in Run 1 against {} in Run 2, and its p95 from {} to {} [source: R3]."


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return table_index(tmp_path_factory.mktemp("r") / "r.pdf", "R3", LINES, ROWS, (60, 200, 270, 350, 430))


def _verdicts(index: EvidenceIndex, *values: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{BODY.format(*values)}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_each_clause_names_its_own_run_and_metric(runs: EvidenceIndex) -> None:
    got = _verdicts(runs, "157 ms", "118 ms", "319 ms", "244 ms")
    assert {got[k] for k in ("157 ms", "118 ms", "319 ms", "244 ms")} == {"verified"}


def test_the_runs_exchanged_fail(runs: EvidenceIndex) -> None:
    got = _verdicts(runs, "118 ms", "157 ms", "319 ms", "244 ms")
    assert got["118 ms"] == got["157 ms"] == "mismatch"


def test_another_columns_value_fails(runs: EvidenceIndex) -> None:
    assert _verdicts(runs, "157 ms", "118 ms", "319 ms", "187 ms")["187 ms"] == "mismatch"  # (Run 2's 90% line)
