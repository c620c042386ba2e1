"""English differences and relative changes the words state (`N ms lower than X's M`) derive from named figures only."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import NumberCheck

HEAD = ["Workload", "HBase min (ms)", "HBase max (ms)", "Cassandra min (ms)", "Cassandra max (ms)"]
ROWS = [["Read", "7", "1669", "747", "8387"], ["Update", "3", "1099", "12", "2011"]]
RATES = [["Workload", "HBase (GB/s)", "Cassandra (GB/s)"], ["Scan", "2.35", "1.10"], ["Insert", "0.92", "1.48"]]


@pytest.fixture(scope="module")
def latency(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["5 Results", "Table 3 Latency of HBase and Cassandra (YCSB)"]
    path = tmp_path_factory.mktemp("latency") / "latency.pdf"
    return table_index(path, "R3", lines, [HEAD, *ROWS], (60, 150, 250, 350, 460))


@pytest.fixture(scope="module")
def rates(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["6 Throughput", "Table 4 Throughput of HBase and Cassandra"]
    return table_index(tmp_path_factory.mktemp("rates") / "rates.pdf", "R3", lines, RATES, (60, 160, 280))


def _numbers(index: EvidenceIndex, body: str) -> dict[str, NumberCheck]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def _status(index: EvidenceIndex, body: str, number: str) -> str:
    return _numbers(index, body)[number].status


STATED = "For reads, HBase's maximum latency of 1669 ms is {} lower than Cassandra's 8387 ms [source: R3]."


def test_a_difference_of_the_two_figures_the_sentence_gives_is_derived(latency: EvidenceIndex) -> None:
    # 8387 − 1669 = 6718 (Table 3, Read row, the two max columns)
    got = _numbers(latency, STATED.format("6718 ms"))["6718 ms"]
    assert got.status == "derived"
    assert got.derivation is not None and got.derivation.startswith("8387−1669 = 6718")
    assert _status(latency, STATED.format("6781 ms"), "6781 ms") == "mismatch"
    # no rounding word: 6700 is no 6718
    assert _status(latency, STATED.format("6700 ms"), "6700 ms") == "mismatch"
    # `about` and a round figure: within 5 % (the rule for `约`/`about`), and no further
    assert _status(latency, STATED.format("about 6700 ms"), "about 6700 ms") == "derived"
    assert _status(latency, STATED.format("about 6000 ms"), "about 6000 ms") != "derived"


@pytest.mark.parametrize(
    "said",
    [
        "For reads, HBase's maximum latency of 1669 ms is {} less than Cassandra's 8387 ms [source: R3].",
        "For reads, HBase's maximum latency of 1669 ms is {} faster than Cassandra's 8387 ms [source: R3].",
        "For reads, Cassandra's maximum latency of 8387 ms is {} higher than HBase's 1669 ms [source: R3].",
        "For reads, Cassandra's maximum latency of 8387 ms is {} more than HBase's 1669 ms [source: R3].",
        "For reads, Cassandra's maximum latency of 8387 ms is {} slower than HBase's 1669 ms [source: R3].",
    ],
)
def test_each_english_comparative_states_the_difference(latency: EvidenceIndex, said: str) -> None:
    assert _status(latency, said.format("6718 ms"), "6718 ms") == "derived"
    assert _status(latency, said.format("6728 ms"), "6728 ms") != "derived"


def test_a_difference_of_bandwidths_is_derived(rates: EvidenceIndex) -> None:
    said = "On scans HBase reaches 2.35 GB/s, {} more than Cassandra's 1.10 GB/s [source: R3]."
    assert _status(rates, said.format("1.25 GB/s"), "1.25 GB/s") == "derived"  # 2.35 − 1.10
    assert _status(rates, said.format("1.52 GB/s"), "1.52 GB/s") != "derived"


NAMED = "HBase's {} latency is {} lower than Cassandra's [source: R3]."


def test_a_difference_of_the_row_and_columns_the_sentence_names_is_derived(latency: EvidenceIndex) -> None:
    # the one stated side of the Chinese `比纯算法核心高 49.4 MB`: the Read row, the two max columns
    assert _status(latency, NAMED.format("maximum read", "6718 ms"), "6718 ms") == "derived"
    assert _status(latency, NAMED.format("maximum read", "6781 ms"), "6781 ms") != "derived"
    said = "HBase's maximum read latency of 1669 ms is {} lower than Cassandra's [source: R3]."
    assert _status(latency, said.format("6718 ms"), "6718 ms") == "derived"
    assert _status(latency, said.format("6700 ms"), "6700 ms") != "derived"
    # the Update row the sentence names: 2011 − 1099
    assert _status(latency, NAMED.format("maximum update", "912 ms"), "912 ms") == "derived"


@pytest.mark.parametrize(
    ("what", "number"),
    [
        ("maximum read", "912 ms"),  # 2011 − 1099: the two max columns of the Update row
        ("maximum read", "7288 ms"),  # 8387 − 1099: Cassandra's read max against HBase's update max
        ("maximum read", "740 ms"),  # 747 − 7: the two min columns of the Read row
        ("maximum read", "99.1%"),  # (747 − 7)/747: the same, as a percent change
        ("maximum update", "6718 ms"),  # the Read row's max columns
    ],
)
def test_a_difference_of_cells_the_sentence_does_not_name_is_not_derived(
    latency: EvidenceIndex, what: str, number: str
) -> None:
    assert _status(latency, NAMED.format(what, number), number) != "derived"


@pytest.mark.parametrize(
    ("said", "right", "wrong"),
    [
        # a relative change over what follows `than`: (8387 − 1669)/1669 = 402.5 %, (8387 − 1669)/8387 = 80.1 %
        ("For reads, Cassandra's maximum latency of 8387 ms is {} higher than HBase's 1669 ms [source: R3].",
         "402.5%", "80.1%"),
        ("For reads, HBase's maximum latency of 1669 ms is {} lower than Cassandra's 8387 ms [source: R3].",
         "80.1%", "402.5%"),
        # of a time, slower is higher (`slower` holds `lower`) and faster lower
        ("For reads, Cassandra's maximum latency of 8387 ms is {} slower than HBase's 1669 ms [source: R3].",
         "402.5%", "80.1%"),
        ("For reads, HBase's maximum latency of 1669 ms is {} faster than Cassandra's 8387 ms [source: R3].",
         "80.1%", "402.5%"),
        ("Cassandra's maximum read latency is {} slower than HBase's [source: R3].", "402.5%", "80.1%"),
        ("HBase's maximum read latency is {} faster than Cassandra's [source: R3].", "80.1%", "402.5%"),
    ],
)  # fmt: skip
def test_a_percent_faster_or_slower_is_over_the_base_after_than(
    latency: EvidenceIndex, said: str, right: str, wrong: str
) -> None:
    assert _status(latency, said.format(right), right) == "derived"
    assert _status(latency, said.format(wrong), wrong) != "derived"


def test_a_rate_that_is_faster_is_higher(rates: EvidenceIndex) -> None:
    # (2.35 − 1.10)/1.10 = 113.6 %: of a rate, faster is higher
    said = "On scans HBase reaches 2.35 GB/s, {} faster than Cassandra's 1.10 GB/s [source: R3]."
    assert _status(rates, said.format("113.6%"), "113.6%") == "derived"
    assert _status(rates, said.format("53.2%"), "53.2%") != "derived"  # (2.35 − 1.10)/2.35: the other base


@pytest.mark.parametrize(
    ("said", "swapped"),
    [
        # what follows `than` is the base, the subject stands above or below it as the comparative says
        ("For reads, Cassandra's maximum latency of 8387 ms is 6718 ms higher than HBase's 1669 ms [source: R3].",
         "For reads, HBase's maximum latency of 1669 ms is 6718 ms higher than Cassandra's 8387 ms [source: R3]."),
        ("For reads, HBase's maximum latency of 1669 ms is 6718 ms less than Cassandra's 8387 ms [source: R3].",
         "For reads, HBase's maximum latency of 1669 ms is 6718 ms more than Cassandra's 8387 ms [source: R3]."),
        # of a time, faster is lower
        ("For reads, HBase's maximum latency of 1669 ms is 6718 ms faster than Cassandra's 8387 ms [source: R3].",
         "For reads, Cassandra's maximum latency of 8387 ms is 6718 ms faster than HBase's 1669 ms [source: R3]."),
        # the row and the columns the sentence names: the column after `than` is the base
        ("HBase's maximum read latency is 6718 ms lower than Cassandra's [source: R3].",
         "HBase's maximum read latency is 6718 ms higher than Cassandra's [source: R3]."),
        ("Cassandra's maximum read latency is 6718 ms slower than HBase's [source: R3].",
         "HBase's maximum read latency is 6718 ms slower than Cassandra's [source: R3]."),
    ],
)  # fmt: skip
def test_a_difference_the_words_put_the_other_way_is_not_derived(
    latency: EvidenceIndex, said: str, swapped: str
) -> None:
    assert _status(latency, said, "6718 ms") == "derived"
    assert _status(latency, swapped, "6718 ms") != "derived"


def test_a_percent_change_the_words_put_the_other_way_is_not_derived(latency: EvidenceIndex) -> None:
    # (8387 − 1669)/1669 = 402.5 %, but HBase's 1669 ms is the lower
    said = "For reads, HBase's maximum latency of 1669 ms is 402.5% higher than Cassandra's 8387 ms [source: R3]."
    assert _status(latency, said, "402.5%") != "derived"
    named = "HBase's maximum read latency is 402.5% higher than Cassandra's [source: R3]."
    assert _status(latency, named, "402.5%") != "derived"


COLUMN = "Cassandra's maximum {} latency is {} than its maximum {} latency [source: R3]."


def test_a_difference_of_two_rows_of_the_column_named_goes_the_way_the_words_say(latency: EvidenceIndex) -> None:
    # one column, two rows: 8387 − 2011 = 6376, (8387 − 2011)/2011 = 317.1 %, (8387 − 2011)/8387 = 76.0 %
    assert _status(latency, COLUMN.format("read", "6376 ms higher", "update"), "6376 ms") == "derived"
    assert _status(latency, COLUMN.format("update", "6376 ms lower", "read"), "6376 ms") == "derived"
    assert _status(latency, COLUMN.format("update", "6376 ms higher", "read"), "6376 ms") != "derived"
    assert _status(latency, COLUMN.format("read", "317.1% higher", "update"), "317.1%") == "derived"
    assert _status(latency, COLUMN.format("update", "76.0% lower", "read"), "76.0%") == "derived"
    assert _status(latency, COLUMN.format("update", "317.1% higher", "read"), "317.1%") != "derived"
