"""Loading and validating `reports.yaml`, the registry of report PDFs."""

from __future__ import annotations

from pathlib import Path

from evidence.errors import EvidenceError, InputError
from evidence.models import Registry, ReportEntry
from evidence.yamlio import read_yaml, validate

REGISTRY_NAME = "reports.yaml"


def load_registry(reports_dir: str | Path) -> list[ReportEntry]:
    """Read `reports_dir/reports.yaml`; duplicate ids and unknown keys are InputErrors with their line."""
    reports_dir = Path(reports_dir)
    path = reports_dir / REGISTRY_NAME
    doc = read_yaml(path)
    registry = validate(Registry, doc)
    seen: dict[str, int] = {}
    for i, entry in enumerate(registry.reports):
        if entry.id in seen:
            raise InputError(
                f"duplicate report id {entry.id!r} (first registered as entry {seen[entry.id] + 1})",
                path=path,
                line=doc.line_of(("reports", i, "id")),
            )
        seen[entry.id] = i
    return registry.reports


def report_file(reports_dir: str | Path, entry: ReportEntry) -> Path:
    """The PDF of `entry`, resolved through symlinks; one that leads outside `reports_dir` is an EvidenceError.

    `ReportEntry` already refuses `..` and absolute paths; this catches a symlink (the file, or a folder on its way)
    pointing elsewhere, so neither ingest nor the site ever reads or publishes a file from outside the reports folder.
    """
    base = Path(reports_dir).resolve()
    path = Path(reports_dir) / entry.file
    resolved = path.resolve()
    if not resolved.is_relative_to(base):
        raise EvidenceError(
            f"{entry.file} (report {entry.id}) leads outside the reports folder to {resolved}; copy the PDF into it",
            path=path,
        )
    return resolved
