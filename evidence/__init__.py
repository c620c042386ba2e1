"""Evidence store: report PDFs parsed into citable figures, kept in SQLite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evidence.lazy import exporter

# The public API. Names load on first use (PEP 562), so `import evidence.errors` stays as cheap as it is: the
# CLI's start-up budget has no room for pypdf or SQLite when a command needs neither.
_EXPORTS = {
    "ingest": "evidence.ingest",
    "IngestSummary": "evidence.ingest",
    "parse_pdf": "evidence.ingest",
    "Store": "evidence.store",
    "load_registry": "evidence.registry",
    "report_file": "evidence.registry",
    "Figure": "evidence.models",
    "IngestLimits": "evidence.models",
    "Page": "evidence.models",
    "Report": "evidence.models",
    "ReportEntry": "evidence.models",
    "EvidenceError": "evidence.errors",
    "InputError": "evidence.errors",
    "PublishError": "evidence.errors",
}
__all__ = [
    "EvidenceError",
    "Figure",
    "IngestLimits",
    "IngestSummary",
    "InputError",
    "Page",
    "PublishError",
    "Report",
    "ReportEntry",
    "Store",
    "ingest",
    "load_registry",
    "parse_pdf",
    "report_file",
]

if TYPE_CHECKING:
    from evidence.errors import EvidenceError, InputError, PublishError
    from evidence.ingest import IngestSummary, ingest, parse_pdf
    from evidence.models import Figure, IngestLimits, Page, Report, ReportEntry
    from evidence.registry import load_registry, report_file
    from evidence.store import Store


__getattr__ = exporter("evidence", _EXPORTS)
