"""A report's list with one unit after its last member (`64, 128, 256, 512 and 1024 bytes`) gives every member
that unit, so an article's range over the list or any one member with the unit is backed (issue #14, outside trial
3: `from 64 to 1024 bytes` was a false alarm naming 1024 B)."""

from __future__ import annotations

import pytest
from pdf_support import prose_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

BED = ["2 Test bed", "Message sizes tested: 64, 128, 256, 512 and 1024 bytes.", "消息大小依次为 4、8 和 16 KB。",
       "In test 3, 500 ms passed before the first reply."]  # fmt: skip


@pytest.fixture(scope="module")
def bed(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("bed") / "bed.pdf", "R3", BED)


def _verdicts(index: EvidenceIndex, body: str, lang: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


@pytest.mark.parametrize(
    ("body", "lang", "expected"),
    [
        (
            "Message sizes ranged from 64 to 1024 bytes [source: R3].",
            "en",
            {"64": "verified", "1024 bytes": "verified"},
        ),
        ("The smallest message was 64 bytes [source: R3].", "en", {"64 bytes": "verified"}),
        ("消息最小为 4 KB,最大为 16 KB【出处:R3】。", "zh", {"4 KB": "verified", "16 KB": "verified"}),
        # a member with another unit, and a range past the list, are still errors
        ("The smallest message was 64 KB [source: R3].", "en", {"64 KB": "mismatch"}),
        ("Message sizes ranged from 64 to 2048 bytes [source: R3].", "en", {"2048 bytes": "mismatch"}),
        ("消息最小为 4 MB【出处:R3】。", "zh", {"4 MB": "mismatch"}),
        # a comma between two numbers is no list: the test's number takes no unit
        ("The first reply took 3 ms [source: R3].", "en", {"3 ms": "mismatch"}),
    ],
)
def test_a_unit_after_a_list_covers_each_member(
    bed: EvidenceIndex, body: str, lang: str, expected: dict[str, str]
) -> None:
    got = _verdicts(bed, body, lang)
    assert {k: got[k] for k in expected} == expected
