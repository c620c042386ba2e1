"""One measure in two runs of a test, printed as two tables one under the other on a page (a load tool's summary
after each run): `list orders` average from the first run's 640 to the second's 1,530 is one before/after pair."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import parsed_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["Label", "Samples", "Average", "Max"]
RUN_A = [["list orders", "300", "640", "1810"], ["order detail", "300", "512", "1702"], ["TOTAL", "600", "576", "1810"]]
RUN_B = [
    ["list orders", "2210", "1530", "2950"],
    ["order detail", "2185", "1402", "2704"],
    ["TOTAL", "4395", "1466", "2950"],
]
XS = (60, 180, 260, 340)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    path: Path = tmp_path_factory.mktemp("runs") / "runs.pdf"
    c = Canvas(str(path), pagesize=A4, invariant=1)
    y = 760.0
    c.setFont("Helvetica", 10)
    c.drawString(60, y, "3. Order service")
    for intro, rows in (("300 threads started within 5 seconds:", RUN_A),
                        ("Then 100 threads browse orders repeatedly for 5 minutes:", RUN_B)):  # fmt: skip
        y -= 24
        c.setFont("Helvetica", 10)
        c.drawString(60, y, intro)
        y -= 20
        c.setFont("Helvetica", 9)
        for line in [HEAD, *rows]:
            for x, cell in zip(XS, line, strict=True):
                c.drawString(x, y, cell)
            y -= 16
    c.showPage()
    c.save()
    return parsed_index(path, "R4")


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R4]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_one_cell_of_two_runs_is_a_before_after_pair(index: EvidenceIndex) -> None:
    said = "With 100 threads browsing for 5 minutes, the list orders average rose from 640 to 1530 [source: R4]."
    got = _verdicts(index, said)
    assert got["640"] == got["1530"] == "verified"
    # another row's cell of the second run is still no pair with it
    wrong = "With 100 threads browsing for 5 minutes, the list orders average rose from 640 to 1402 [source: R4]."
    assert _verdicts(index, wrong)["1402"] == "mismatch"


def test_a_counted_noun_is_its_numbers_word(index: EvidenceIndex) -> None:
    # `samples` is what 4395 counts: no word naming the first run's Samples cell as a better fit for the maximum
    said = "Across 4395 samples the average was 1466 and the maximum 2950 [source: R4]."
    got = _verdicts(index, said)
    assert got["4395"] == got["1466"] == got["2950"] == "verified"
    assert _verdicts(index, "Across 4395 samples the average was 1466 and the maximum 2704 [source: R4].")["2704"] == (
        "mismatch"
    )
