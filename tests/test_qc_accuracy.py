"""The error-injection benchmark, small: every injected error is caught and the clean articles raise no alarm."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy


@pytest.fixture(scope="module")
def outcome() -> qc_accuracy.Outcome:
    drafts = [d for d in qc_accuracy.clean_articles() if Path(d.path).name in ("kv-zh.md", "kv-en.md", "derived-zh.md")]
    return qc_accuracy.run(qc_accuracy.load_index(), drafts, every=3)


def test_every_kind_is_injected_and_caught(outcome: qc_accuracy.Outcome) -> None:
    for kind, (injected, caught) in outcome.kinds.items():
        assert injected >= 3, f"too few {kind} mutants ({injected})"
        assert caught == injected, f"{kind}: missed {[m.change for m in outcome.misses if m.kind == kind]}"


def test_no_false_alarms_on_clean_articles(outcome: qc_accuracy.Outcome) -> None:
    assert outcome.clean_numbers > 100
    assert outcome.false_alarms == []


def test_mutants_really_change_the_article() -> None:
    index = qc_accuracy.load_index()
    (draft,) = [d for d in qc_accuracy.clean_articles() if d.path.endswith("kv-zh.md")]
    from qc.check import check_draft

    clean = check_draft(draft, index)
    seen = set()
    for m in qc_accuracy.mutants(draft, clean, index, __import__("random").Random(1)):
        assert m.text != draft.text and m.kind in qc_accuracy.KINDS
        a, b = m.span
        assert 0 <= a < b <= len(m.text)
        seen.add(m.kind)
    assert seen == set(qc_accuracy.KINDS)


def test_the_evidence_fixture_matches_the_example_reports() -> None:
    """The JSON fixture mirrors what ingesting `site/reports` yields (refresh with `dump_index` when it changes)."""
    fixture = qc_accuracy.load_index()
    assert set(fixture.reports) == {"R1", "R2", "R9"}
    values = {(f.report, f.page, f.value, f.unit) for figs in fixture.figures.values() for f in figs}
    for fact in [("R2", 2, 7.53, "s"), ("R2", 2, 29800.0, "token"), ("R2", 3, 18.3, "x"), ("R1", 3, 96.0, "%"),
                 ("R9", 1, 6.2, "x"), ("R2", 4, 25.0, "%")]:  # fmt: skip
        assert fact in values, fact
