"""QC: a sentence naming no system speaks of the one the sentences before it in its paragraph name; a figure of
another system's section does not back it."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

PAGE = "4 Performance with NeonKit\nTable 4.1 Decode time\n5 Performance with BlasCore\nTable 5.1 Decode time\n"


def _index() -> EvidenceIndex:
    cells = [(412.0, "Table 4.1 Decode time on one core", "4.1 NeonKit"), (977.0, "Table 5.1 Decode time on one core",
              "5.1 BlasCore")]  # fmt: skip
    figs = [Figure(id=f"f{i}", report="R7", page=1, value=v, unit="ms/frame", raw=f"{v:.0f}", kind="cell",
                   labels=[cap, "720P single face", "Total (ms/frame)", sec], quote=f"720P single face {v:.0f}")
            for i, (v, cap, sec) in enumerate(cells)]  # fmt: skip
    rep = Report(id="R7", title="t", date=dt.date(2026, 1, 1), access="public", file="r7.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R7": rep}, figures={"R7": figs},
                         pages={"R7": [Page(report="R7", version=1, page=1, text=PAGE)]})  # fmt: skip


def _status(paragraph: str, number: str) -> str:
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R7]\nanswer: a\n---\n\n{paragraph}\n"
    return next(n.status for n in check_draft(parse_draft(doc, "t.md"), _index()).numbers if n.text.strip() == number)


def test_a_sentence_speaks_of_the_system_its_paragraph_names() -> None:
    lead = "On one core with NeonKit, faces are found quickly [source: R7]. "
    assert _status(lead + "The total for one face is 412 ms/frame [source: R7].", "412 ms/frame") == "verified"
    # 977 ms/frame is BlasCore's (section 5); the paragraph speaks of NeonKit
    assert _status(lead + "The total for one face is 977 ms/frame [source: R7].", "977 ms/frame") == "mismatch"
    # a sentence without a paragraph naming a system stays free to cite either
    assert _status("The total for one face is 977 ms/frame [source: R7].", "977 ms/frame") == "verified"
