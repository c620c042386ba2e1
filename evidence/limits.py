"""The defaults of every input bound, written once: ingest, QC and publish.toml's `[limits]` all read them here."""

from __future__ import annotations

MAX_PDF_BYTES = 100 * 1024 * 1024
"""A report PDF larger than this is refused before pypdf reads it."""

MAX_PDF_PAGES = 2000
"""A report with more pages is refused (a page bomb would otherwise take the ingest's time)."""

INGEST_SECONDS_PER_FILE = 120.0
"""Wall-clock budget for parsing one PDF; past it the file is reported, never waited on."""

MAX_ARTICLE_BYTES = 2 * 1024 * 1024
"""A draft or article file larger than this is refused before it is read into memory."""

MAX_APPROVAL_BYTES = 8 * MAX_ARTICLE_BYTES
"""An approval file (the approved draft text and its claims) larger than this is refused before it is read."""
