"""The drafting and site-build stages' errors, in the one `PublishError` tree."""

from __future__ import annotations

from evidence.errors import PublishError


class DraftError(PublishError):
    """The drafter could not produce a draft (model unreachable, malformed answer)."""


class BuildError(PublishError):
    """Rendering the site failed; the previous site is kept."""
