"""A question's bare number that a cited report prints as a table's column or row name (`和 2.4 相比` over
`指标 | 2.4（基线） | 2.5`) names a version or condition; the same number elsewhere, or one no name prints, is checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import parsed_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

PDF = Path(__file__).parent / "corpus" / "office" / "version_columns_zh.pdf"


@pytest.fixture(scope="module")
def gateway() -> EvidenceIndex:
    return parsed_index(PDF, "G1")


def _statuses(index: EvidenceIndex, faq_q: str, heading: str, para: str) -> dict[tuple[int, str], str]:
    text = (
        "---\ntitle: t\nlang: zh\ndate: 2026-01-01\ntags: [t]\nevidence: [G1]\nanswer: 见下文。\n"
        f"faq:\n  - q: {faq_q}\n    a: 见下文。\n---\n\n## {heading}\n\n{para}\n"
    )
    result = check_draft(parse_draft(text, Path("t.md")), index)
    return {(n.line, n.text.strip()): n.status for n in result.numbers}


def test_a_version_the_report_prints_as_a_column_name_is_named_by_the_question(gateway: EvidenceIndex) -> None:
    got = _statuses(gateway, "How much lower is the p99 latency than on 2.4?", "和 2.4 相比 p99 延迟降低了多少?",
                    "p99 响应时间从 69.5 ms 降至 41.3 ms【出处:G1 实测】。")  # fmt: skip
    assert got[(9, "2.4")] == "exempt" and got[(13, "2.4")] == "exempt", got
    assert got[(15, "69.5 ms")] == "verified", got


def test_a_version_no_name_prints_or_a_version_outside_a_question_is_checked(gateway: EvidenceIndex) -> None:
    got = _statuses(gateway, "How much lower is the p99 latency than on 2.3?", "和 2.3 相比 p99 延迟降低了多少?",
                    "2.4 的 p99 响应时间为 69.5 ms【出处:G1 实测】。")  # fmt: skip
    assert got[(9, "2.3")] not in ("exempt", "verified") and got[(13, "2.3")] not in ("exempt", "verified"), got
