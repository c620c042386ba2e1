"""The one QC verdict a draft gets: the reviewer's, in the scope the draft cites (as publish, review and build)."""

from __future__ import annotations

from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.models import FileResult


def judge(draft: Draft, index: EvidenceIndex, severity: dict[str, str]) -> FileResult:
    """`check_draft` over the reports the draft names: what the offline drafter, the repair loop and the gate see."""
    from qc.check import check_draft
    from qc.review import article_index

    return check_draft(draft, article_index(draft, index), severity=severity or None)
