"""QC rules on lists: a report sentence that pairs a list of numbers with its members (`respectively`, `最高/最低`)
or only lists them in order binds each number to its member; a claim giving it another member does not match."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.claims import respective
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import NumberCheck


def _prose(sentences: list[tuple[str, list[tuple[float, str, str]]]], kind: str = "prose") -> EvidenceIndex:
    """Report R4: each sentence with its figures `(value, unit, raw)`, labelled by the sentence, as prose reads."""
    figs = [
        Figure(id=f"f{i}-{k}", report="R4", page=1, value=v, unit=u, raw=raw, labels=[text, "5.2 Evaluation"],
               quote=text, kind=kind)  # type: ignore[arg-type]
        for i, (text, values) in enumerate(sentences) for k, (v, u, raw) in enumerate(values)
    ]  # fmt: skip
    rep = Report(id="R4", title="t", date=dt.date(2026, 1, 1), access="public", file="r4.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    page = Page(report="R4", version=1, page=1, text="\n".join(t for t, _ in sentences))
    return EvidenceIndex(reports={"R4": rep}, figures={"R4": figs}, pages={"R4": [page]})


def _numbers(index: EvidenceIndex, body: str, lang: str = "en") -> list[NumberCheck]:
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R4]\nanswer: a\n---\n\n{body}\n"
    return [n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.status != "exempt"]


# A storage paper's prose: two rates over two network set-ups, and three savings over three workloads.
RATES = ("The engine reaches 61 GB/s and 142 GB/s under network configurations of 2×100 Gbps and 4×200 Gbps, "
         "respectively.")  # fmt: skip
SAVINGS = "Caching cuts the prefill time by 21%, 38%, and 57% for chat, coding, and search traces, respectively."
GAINS = "The new scheduler serves 73% and 91% more requests on the L40 and A100 clusters, respectively."
PAPER = _prose([(RATES, [(61, "GB/s", "61"), (142, "GB/s", "142")]),
                (SAVINGS, [(21, "%", "21"), (38, "%", "38"), (57, "%", "57")]),
                (GAINS, [(73, "%", "73"), (91, "%", "91")])])  # fmt: skip


def test_a_respectively_list_pairs_each_number_with_its_name() -> None:
    assert respective(RATES, "142") == (
        1,
        (61.0, 142.0),
        (frozenset({"2", "100", "2x100"}), frozenset({"4", "200", "4x200"})),
    )
    at, values, keys = respective(SAVINGS, "38")  # type: ignore[misc]
    assert at == 1 and values == (21.0, 38.0, 57.0) and keys is not None and "coding" in keys[1]
    assert respective("The engine reaches 61 GB/s on 2 nodes.", "61") is None  # no list


def test_a_number_given_another_name_of_the_list_does_not_match() -> None:
    ok = _numbers(PAPER, "It moves data at 61 GB/s over 2×100 Gbps and at 142 GB/s over 4×200 Gbps [source: R4].")
    assert {n.text.strip(): n.status for n in ok if "GB/s" in n.text} == {"61 GB/s": "verified", "142 GB/s": "verified"}
    bad = _numbers(PAPER, "It moves data at 142 GB/s over 2×100 Gbps NICs [source: R4].")
    n = next(n for n in bad if n.text.strip() == "142 GB/s")
    assert n.status == "mismatch" and n.source is not None and n.source.value == 61


def test_a_list_of_the_claim_takes_the_names_in_the_order_it_gives_them() -> None:
    clean = _numbers(
        PAPER, "Prefill time fell by 21%, 38% and 57% for the chat, coding and search traces [source: R4]."
    )
    assert all(n.status == "verified" for n in clean)
    reordered = _numbers(PAPER, "For the search, chat and coding traces it fell by 57%, 21% and 38% [source: R4].")
    assert all(n.status == "verified" for n in reordered)  # the names move with the numbers: still right
    swapped = _numbers(
        PAPER, "Prefill time fell by 21%, 57% and 38% for the chat, coding and search traces [source: R4]."
    )
    assert [n.status for n in swapped] == ["verified", "mismatch", "mismatch"]
    gains = _numbers(PAPER, "It serves 91% and 73% more requests on its L40 and A100 clusters [source: R4].")
    assert [n.status for n in gains] == ["mismatch", "mismatch"]


def test_a_plain_list_keeps_its_order_and_slashed_names_bind_their_numbers() -> None:
    broker = _prose(
        [
            ("对应 PE 25、18、12 倍,维持评级。", [(25, "x", "25"), (18, "x", "18"), (12, "x", "12")]),
            ("52周最高/最低 36.20 / 24.15元", [(36.2, "元", "36.20"), (24.15, "元", "24.15")]),
        ],
        kind="kv",
    )
    assert all(n.status == "verified" for n in _numbers(broker, "2024-2026 年对应 PE 25、18、12 倍【出处:R4】。", "zh"))
    swapped = _numbers(broker, "2024-2026 年对应 PE 18、25、12 倍【出处:R4】。", "zh")
    assert [(n.text.strip(), n.status) for n in swapped] == [
        ("18", "mismatch"),
        ("25", "mismatch"),
        ("12 倍", "verified"),
    ]
    assert all(
        n.status == "verified" for n in _numbers(broker, "52 周最高价 36.20 元、最低价 24.15 元【出处:R4】。", "zh")
    )
    crossed = _numbers(broker, "52 周最高价 24.15 元、最低价 36.20 元【出处:R4】。", "zh")
    assert [n.status for n in crossed if n.unit == "元"] == ["mismatch", "mismatch"]
