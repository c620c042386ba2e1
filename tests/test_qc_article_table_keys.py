"""QC: an article Markdown table's cell is held to its row label and column header: a value of the report table's
other row (`32 MiB` for `256 MiB`) or other column (`Alpha PUT` under `Beta GET`) is a mismatch naming the right cell."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Object size", "Alpha GET", "Alpha PUT", "Beta GET", "Beta PUT"]
ROWS = [["4 MiB", "40.2", "21.6", "25.1", "11.9"], ["32 MiB", "63.7", "33.4", "44.0", "19.5"],
        ["256 MiB", "69.1", "36.8", "50.3", "22.7"]]  # fmt: skip
ARTICLE = """Throughput by object size [source: R3]:

| Object size | Alpha GET (GB/s) | Beta GET (GB/s) | Alpha PUT (GB/s) | Beta PUT (GB/s) |
|---|---|---|---|---|
| 4 MiB | 40.2 | {b4} | 21.6 | 11.9 |
| 32 MiB | 63.7 | 44.0 | 33.4 | 19.5 |
| 256 MiB | 69.1 | {b256} | 36.8 | 22.7 |
"""


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["3 Results", "At 4 MiB the Alpha PUT throughput is 21.6 GB/s.", "Table 2 Throughput (GB/s) by object size"]
    path = tmp_path_factory.mktemp("sizes") / "sizes.pdf"
    return table_index(path, "R3", lines, [HEAD, *ROWS], (60, 150, 230, 310, 390))


def _found(index: EvidenceIndex, body: str) -> dict[tuple[int, int, str], tuple[str, str]]:
    """Each checked number by line, column and text: its status and message."""
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    found = check_draft(parse_draft(doc, "a.md"), index).numbers
    return {(n.line, n.column, n.text.strip()): (n.status, n.message) for n in found if n.status != "exempt"}


def test_a_cell_of_the_report_s_other_row_does_not_back_the_article_row(sizes: EvidenceIndex) -> None:
    right = _found(sizes, ARTICLE.format(b4="25.1", b256="50.3"))
    assert {s for s, _ in right.values()} == {"verified"}, right
    wrong = _found(sizes, ARTICLE.format(b4="25.1", b256="44.0"))  # 44.0 is Beta GET at 32 MiB
    bad = {k: v for k, v in wrong.items() if v[0] != "verified"}
    assert [k[::2] for k in bad] == [(15, "44.0")] and "50.3" in next(iter(bad.values()))[1], wrong
    assert next(iter(bad.values()))[0] == "mismatch"


def test_a_cell_of_the_report_s_other_column_does_not_back_the_article_column(sizes: EvidenceIndex) -> None:
    wrong = _found(sizes, ARTICLE.format(b4="21.6", b256="50.3"))  # 21.6 is Alpha PUT at 4 MiB (table and prose)
    bad = {k: v for k, v in wrong.items() if v[0] != "verified"}
    assert [k[:2] for k in bad] == [(13, 18)] and "25.1" in next(iter(bad.values()))[1], wrong  # the Beta GET cell
    assert next(iter(bad.values()))[0] == "mismatch"
