"""QC: a range over the rows a sentence spans by a key (`batch 从 1 增至 16`) has for ends the lowest and highest cell
of its column over those rows; an end from another row, or not that extreme, does not match."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.claims import restatement
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# An object store's read benchmark: bandwidth by value size and batch (the 8-batch row is not the peak of 8KB).
ROWS = [("8KB", 1, 31.4), ("8KB", 4, 88.2), ("8KB", 8, 152.7), ("8KB", 16, 147.9),
        ("2MB", 1, 610.3), ("2MB", 4, 1201.6), ("2MB", 8, 1302.2), ("2MB", 16, 1288.0)]  # fmt: skip


def _index() -> EvidenceIndex:
    figs = [  # each row: its bandwidth and its p99 latency (a made-up 0.1 ms per batch)
        Figure(id=f"f{i}{col}", report="R5", page=1, value=v, unit=unit, raw=f"{v}", kind="cell",
               labels=["表 3: 读取带宽", f"value size {size}", f"batch {b}", col], quote=f"{size} {b} {bw} {b / 10}")
        for i, (size, b, bw) in enumerate(ROWS)
        for col, unit, v in (("MiB/s", "MiB/s", bw), ("p99/ms", "ms", b / 10))
    ]  # fmt: skip
    rep = Report(id="R5", title="t", date=dt.date(2026, 1, 1), access="public", file="r5.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R5": rep}, figures={"R5": figs},
                         pages={"R5": [Page(report="R5", version=1, page=1, text="表 3: 读取带宽")]})  # fmt: skip


def _range(sentence: str) -> str:
    doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R5]\nanswer: a\n---\n\n{sentence}\n"
    return next(n.status for n in check_draft(parse_draft(doc, "t.md"), _index()).numbers if "–" in n.text)


def test_a_range_over_a_key_span_has_the_extremes_of_those_rows_for_ends() -> None:
    assert _range("8KB 对象随 batch 从 1 增至 16,带宽在 31.4–152.7 MiB/s 之间【出处:R5】。") == "verified"
    # 147.9 is the 16-batch row, not the highest of batch 1 to 16
    assert _range("8KB 对象随 batch 从 1 增至 16,带宽在 31.4–147.9 MiB/s 之间【出处:R5】。") == "mismatch"
    # over batch 4 to 16 the lowest is 88.2: 31.4 (batch 1) lies outside the span
    assert _range("8KB 对象随 batch 从 4 增至 16,带宽在 31.4–152.7 MiB/s 之间【出处:R5】。") == "mismatch"
    assert _range("8KB 对象随 batch 从 4 增至 16,带宽在 88.2–152.7 MiB/s 之间【出处:R5】。") == "verified"


def _number(sentence: str, number: str) -> str:
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R5]\nanswer: a\n---\n\n{sentence}\n"
    return next(n.status for n in check_draft(parse_draft(doc, "t.md"), _index()).numbers if n.text.strip() == number)


def test_a_restatement_in_another_unit_stands_for_no_other_row() -> None:
    assert _number("At 2MB and batch=16 the p99 is 1.6 ms, or about 0.002 s [source: R5].", "1.6 ms") == "verified"
    # 0.8 ms is the 8-batch row; `or about 0.002 s` restates the claim, it is not the 16-batch row's figure beside it
    assert _number("At 2MB and batch=16 the p99 is 0.8 ms, or about 0.002 s [source: R5].", "0.8 ms") == "mismatch"


def test_a_restatement_is_the_next_number_in_another_unit_of_its_kind() -> None:
    from qc.claims import sentences
    from qc.numbers import extract

    def again(text: str) -> str | None:
        sent = sentences(text)[0]
        sent.quantities = extract(text)
        got = restatement(sent, next(q for q in sent.quantities if not q.exempt), text)
        return got.text.strip() if got else None

    assert again("the p99 is 24.8 ms, or about 0.025 s") == "about 0.025 s"
    assert again("峰值 1399.08 MiB/s(约 1.37 GiB/s)") == "约 1.37 GiB/s"
    assert again("p50 is 24.8 ms and p99 0.025 s") is None  # another figure, joined by `and`
    assert again("it took 24.8 ms, against 31.2 ms before") is None  # the same unit: another figure
