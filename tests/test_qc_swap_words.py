"""A swap rests on words that say which figure a number is, never on how it changed or where it is cited: `降低` in
`读 p99 由 4.85 ms 降到 3.08 ms(降低 36.5%)` is no word of the report sentence about writes that also says `降低`
(issue #14, outside trial 11: both numbers of a correct bullet were called swapped)."""

from __future__ import annotations

import pytest
from pdf_support import table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

HEAD = ["并发数", "TideKV 读", "TideKV 写", "TiKV 读", "TiKV 写"]
ROWS = [["64", "1.46", "2.83", "2.12", "4.37"], ["256", "3.08", "5.92", "4.85", "10.63"]]
LINES = [
    "3.2 读写混合性能",
    "256 并发时,写 p99 延迟由 TiKV 的 10.63 ms 降至 5.92 ms,降低 44.3%。",
    "表 3 YCSB-A p99 延迟对比(单位:ms)",
]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("mixed") / "mixed.pdf"
    return table_index(path, "R3", LINES, [HEAD, *ROWS], (40, 110, 210, 310, 410))


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_change_words_decide_no_swap(mixed: EvidenceIndex) -> None:
    said = ("- 256 并发:写 p99 延迟由 10.63 ms 降到 5.92 ms(降低 44.3%),读 p99 延迟由 4.85 ms 降到 3.08 ms"
            "(降低 36.5%)【出处:R3 实测】。")  # fmt: skip
    got = _verdicts(mixed, said)
    assert {k: got[k] for k in ("10.63 ms", "5.92 ms", "4.85 ms", "3.08 ms")} == dict.fromkeys(
        ("10.63 ms", "5.92 ms", "4.85 ms", "3.08 ms"), "verified"
    )
    # the read and write results exchanged are still errors
    swapped = ("- 256 并发:写 p99 延迟由 10.63 ms 降到 3.08 ms(降低 44.3%),读 p99 延迟由 4.85 ms 降到 5.92 ms"
               "(降低 36.5%)【出处:R3 实测】。")  # fmt: skip
    got = _verdicts(mixed, swapped)
    assert got["3.08 ms"] != "verified" and got["5.92 ms"] != "verified"
