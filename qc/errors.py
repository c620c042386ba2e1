"""QC's and the review gate's errors, in the one `PublishError` tree."""

from __future__ import annotations

from evidence.errors import PublishError


class QCFailed(PublishError):
    """QC found unwaived errors; nothing is published (exit 1)."""

    exit_code = 1


class AwaitingReview(PublishError):
    """The article has no approval for its current snapshot (exit 3)."""

    exit_code = 3
