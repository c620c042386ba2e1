"""QC: in a sentence naming two systems of a table's column groups, each number is the system's named nearest before
it (its own clause or possessive); a value of the other system's columns is a mismatch naming the right one's."""

from __future__ import annotations

import pytest
from pdf_support import table_index
from real_support import verdicts

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Workload", "HBase min (ms)", "HBase max (ms)", "Cassandra min (ms)", "Cassandra max (ms)"]
ROWS = [["Read", "7", "1669", "747", "8387"], ["Update", "3", "1099", "12", "2011"]]


@pytest.fixture(scope="module")
def latency(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["5 Results", "Table 3 Latency of HBase and Cassandra (YCSB)"]
    path = tmp_path_factory.mktemp("latency") / "latency.pdf"
    return table_index(path, "R3", lines, [HEAD, *ROWS], (60, 150, 250, 350, 460))


def _found(index: EvidenceIndex, body: str) -> dict[str, tuple[str, str]]:
    lang = "en" if body.isascii() else "zh"
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): (n.status, n.message) for n in check_draft(parse_draft(doc, "a.md"), index).numbers}


def _status(index: EvidenceIndex, body: str) -> dict[str, str]:
    return {k: s for k, (s, _) in _found(index, body).items() if k != "R3"}


def test_each_range_is_the_system_named_before_it(latency: EvidenceIndex) -> None:
    right = "For reads, HBase's latency ranges from 7 to 1669 ms against Cassandra's 747 to 8387 ms [source: R3]."
    assert _status(latency, right) == {"7": "verified", "1669 ms": "verified", "747 to 8387 ms": "verified"}
    swapped = "For reads, HBase's latency ranges from 747 to 8387 ms against Cassandra's 7 to 1669 ms [source: R3]."
    got = _found(latency, swapped)
    assert {k: s for k, (s, _) in got.items() if k != "R3"} == {
        "747": "mismatch", "8387 ms": "mismatch", "7 to 1669 ms": "mismatch"}  # fmt: skip
    # each names the cell of the system its words give it
    assert "says 7 ms" in got["747"][1] and "says 1669 ms" in got["8387 ms"][1]
    assert "says 747 ms" in got["7 to 1669 ms"][1]


def test_a_clause_after_a_semicolon_takes_its_own_system_or_keeps_the_sentence_s(latency: EvidenceIndex) -> None:
    assert _status(latency, "HBase reads in 7 ms at best; Cassandra needs 747 ms [source: R3].") == {
        "7 ms": "verified", "747 ms": "verified"}  # fmt: skip
    assert _status(latency, "HBase reads in 747 ms at best; Cassandra needs 7 ms [source: R3].") == {
        "747 ms": "mismatch", "7 ms": "mismatch"}  # fmt: skip
    # a clause naming no system of its own speaks of the one before it
    assert _status(latency, "HBase reads in 7 ms at best; 1669 ms at worst [source: R3].") == {
        "7 ms": "verified", "1669 ms": "verified"}  # fmt: skip
    assert _status(latency, "HBase reads in 7 ms at best; 8387 ms at worst [source: R3].")["8387 ms"] == "mismatch"


def test_chinese_clauses_name_their_system(latency: EvidenceIndex) -> None:
    right = "HBase 的读延迟为 7–1669 ms,Cassandra 为 747–8387 ms【出处:R3】。"
    assert _status(latency, right) == {"7–1669 ms": "verified", "747–8387 ms": "verified"}
    swapped = "HBase 的读延迟为 747–8387 ms,Cassandra 为 7–1669 ms【出处:R3】。"
    assert _status(latency, swapped) == {"747–8387 ms": "mismatch", "7–1669 ms": "mismatch"}


def test_a_system_named_only_as_the_one_compared_with_owns_no_number(latency: EvidenceIndex) -> None:
    for said in ("For reads, HBase's 1669 ms is far below Cassandra [source: R3].",
                 "For reads, HBase is faster than Cassandra, at 1669 ms at worst [source: R3].",
                 "For reads, Cassandra needs 747 ms, against 7 ms for HBase [source: R3].",
                 "For reads, Cassandra's worst, 8387 ms, is about five times the HBase's 1669 ms [source: R3].",
                 "For reads, Cassandra (747 ms) is far slower than HBase (7 ms) [source: R3]."):  # fmt: skip
        assert set(_status(latency, said).values()) == {"verified"}, said
    assert _status(latency, "For reads, Cassandra needs 747 ms, against 12 ms for HBase [source: R3].")["12 ms"] == (
        "mismatch")  # fmt: skip


BY_ROW = [["System", "Read min (ms)", "Read max (ms)", "Update min (ms)", "Update max (ms)"],
          ["HBase", "7", "1669", "3", "1099"], ["Cassandra", "747", "8387", "12", "2011"]]  # fmt: skip


@pytest.fixture(scope="module")
def by_row(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["5 Results", "Table 3 Latency of HBase and Cassandra (YCSB)"]
    return table_index(tmp_path_factory.mktemp("by_row") / "by_row.pdf", "R3", lines, BY_ROW, (60, 150, 250, 350, 460))


def test_systems_a_table_names_by_its_row_labels(by_row: EvidenceIndex) -> None:
    right = "For reads, HBase's latency ranges from 7 to 1669 ms against Cassandra's 747 to 8387 ms [source: R3]."
    assert set(_status(by_row, right).values()) == {"verified"}
    swapped = "For reads, HBase's latency ranges from 747 to 8387 ms against Cassandra's 7 to 1669 ms [source: R3]."
    assert set(_status(by_row, swapped).values()) == {"mismatch"}
    assert set(_status(by_row, "HBase reads in 7 ms at best; Cassandra needs 747 ms [source: R3].").values()) == {
        "verified"}  # fmt: skip
    got = _found(by_row, "HBase reads in 747 ms at best; Cassandra needs 7 ms [source: R3].")
    assert got["747 ms"][0] == got["7 ms"][0] == "mismatch"
    assert "says 7 ms" in got["747 ms"][1] and "says 747 ms" in got["7 ms"][1]
    # the column groups (Read, Update) name the number's workload the same way
    assert _status(by_row, "HBase reads in 7 ms at best and updates in 3 ms [source: R3].") == {
        "7 ms": "verified", "3 ms": "verified"}  # fmt: skip
    assert _status(by_row, "HBase reads in 3 ms at best and updates in 7 ms [source: R3].") == {
        "3 ms": "mismatch", "7 ms": "mismatch"}  # fmt: skip


def test_a_chinese_clause_after_a_semicolon_takes_its_own_system(latency: EvidenceIndex) -> None:
    assert set(_status(latency, "读取时 HBase 最快 7 ms;Cassandra 需要 747 ms【出处:R3】。").values()) == {"verified"}
    assert set(_status(latency, "读取时 HBase 最快 747 ms;Cassandra 需要 7 ms【出处:R3】。").values()) == {"mismatch"}
    assert _status(latency, "读取时 HBase 最快 7 ms,最慢 8387 ms【出处:R3】。")["8387 ms"] == "mismatch"


def test_a_citation_marker_states_no_number_of_another_row(latency: EvidenceIndex) -> None:
    # the row named in the sentence before: `[source: R3]` is no 3, the Update row's HBase min cell
    said = "HBase is the faster store for reads [source: R3]. Its latency ranges from {} ms [source: R3]."
    assert set(_status(latency, said.format("7 to 1669")).values()) == {"verified"}
    assert set(_status(latency, said.format("7 to 1099")).values()) == {"mismatch"}


VERSIONS = "office/version_columns_zh.pdf"  # 表 3-1: TPS 5,020 → 7,310 (+45.6%), 平均响应时间 21.7 → 14.6 ms (-32.7%)


def test_english_words_name_a_chinese_reports_rows_through_the_glossary() -> None:
    said = ("## How much did throughput improve over version 2.4?\n\n- TPS from 5,020 to 7,310 (45.6% higher); "
            "response time from 21.7 ms to 14.6 ms ({} lower) [source: R3].")  # fmt: skip
    assert verdicts(VERSIONS, said.format("32.7%"), lang="en")["32.7%"] == "verified"  # `response` is 响应
    assert verdicts(VERSIONS, said.format("40.6%"), lang="en")["40.6%"] == "mismatch"  # p99's change


def test_a_name_set_against_owns_its_number_across_the_metric_s_words(latency: EvidenceIndex) -> None:
    # (the drafter's side-by-side line: `against Cassandra min 747 ms`, the column's words between name and number)
    said = "- Read: HBase min 7 ms, against Cassandra min 747 ms, lower for HBase [source: R3]."
    assert _status(latency, said) == {"7 ms": "verified", "747 ms": "verified"}
    swapped = "- Read: HBase min 747 ms, against Cassandra min 7 ms, lower for Cassandra [source: R3]."
    assert _status(latency, swapped) == {"747 ms": "mismatch", "7 ms": "mismatch"}
