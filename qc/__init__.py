"""QC: every number in an article checked against the figures of the reports it cites."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.lazy import exporter

# The public API, loaded on first use (PEP 562) so that importing one QC module never pulls in the others.
_EXPORTS = {
    "check_draft": "qc.check",
    "Draft": "qc.draft",
    "citations": "qc.draft",
    "parse_draft": "qc.draft",
    "read_draft": "qc.draft",
    "EvidenceIndex": "qc.index",
    "FileResult": "qc.models",
    "NumberCheck": "qc.models",
    "Approval": "qc.review",
    "approval_status": "qc.review",
    "article_index": "qc.review",
    "is_approved": "qc.review",
    "snapshot": "qc.review",
    "AwaitingReview": "qc.errors",
    "QCFailed": "qc.errors",
}
__all__ = [
    "Approval",
    "AwaitingReview",
    "Draft",
    "EvidenceIndex",
    "FileResult",
    "NumberCheck",
    "QCFailed",
    "approval_status",
    "article_index",
    "check_draft",
    "citations",
    "is_approved",
    "parse_draft",
    "read_draft",
    "snapshot",
]

if TYPE_CHECKING:
    from qc.check import check_draft
    from qc.draft import Draft, citations, parse_draft, read_draft
    from qc.errors import AwaitingReview, QCFailed
    from qc.index import EvidenceIndex
    from qc.models import FileResult, NumberCheck
    from qc.review import Approval, approval_status, article_index, is_approved, snapshot


__getattr__ = exporter("qc", _EXPORTS)
