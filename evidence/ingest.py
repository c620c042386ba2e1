"""Registry → store: parse each registered PDF whose bytes changed, keep every version, never stop at one bad file."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evidence.errors import EvidenceError, PublishError
from evidence.fsutil import sha256_file
from evidence.models import IngestLimits, Registry, Report, ReportEntry
from evidence.pdf import PARSER_VERSION, parse_pdf
from evidence.registry import REGISTRY_NAME, report_file
from evidence.store import Store
from evidence.yamlio import read_yaml, validate

Progress = Callable[..., None]


@dataclass
class IngestResult:
    """What happened to one registered report."""

    id: str
    version: int = 0
    pages: int = 0
    figures: int = 0
    seconds: float = 0.0
    parsed: bool = False
    error: str | None = None
    file: str = ""


@dataclass
class IngestSummary:
    """Per-report results of one ingest run, and the errors among them."""

    results: list[IngestResult] = field(default_factory=list)
    errors: list[EvidenceError] = field(default_factory=list)
    error_ids: list[str] = field(default_factory=list)  # report id of each entry in `errors`

    @property
    def ok(self) -> bool:
        return not self.errors

    def result(self, report_id: str) -> IngestResult | None:
        return next((r for r in self.results if r.id == report_id), None)

    def raise_for_errors(self, report_ids: Iterable[str]) -> None:
        """Raise the first error among the given report ids (the reports an article cites)."""
        wanted = set(report_ids)
        for rid, err in zip(self.error_ids, self.errors, strict=True):
            if rid in wanted:
                raise err

    def _fail(self, result: IngestResult, err: EvidenceError) -> None:
        result.error = str(err)
        self.results.append(result)
        self.errors.append(err)
        self.error_ids.append(result.id)


def _entries(reports_dir: Path, summary: IngestSummary) -> list[ReportEntry]:
    """The registry's entries; a repeated id is an error for that entry while the others go on."""
    path = reports_dir / REGISTRY_NAME
    doc = read_yaml(path)  # a missing or malformed registry stops everything: there is nothing to ingest
    registry = validate(Registry, doc)
    seen: dict[str, int] = {}
    entries = []
    for i, entry in enumerate(registry.reports):
        if entry.id in seen:
            err = EvidenceError(
                f"duplicate report id {entry.id!r} (also entry {seen[entry.id] + 1}); this entry is skipped",
                path=path,
                line=doc.line_of(("reports", i, "id")),
            )
            summary._fail(IngestResult(entry.id, file=entry.file), err)
            continue
        seen[entry.id] = i
        entries.append(entry)
    return entries


def _notify(progress: Progress | None, event: str, *args: Any) -> None:
    # A plain echo callable gets lines only; a richer sink (the CLI's progress bar) also gets per-page events.
    hook = getattr(progress, event, None) if progress is not None else None
    if callable(hook):
        hook(*args)


def ingest(
    reports_dir: Path,
    store_path: Path,
    *,
    limits: IngestLimits | None = None,
    progress: Progress | None = None,
) -> IngestSummary:
    """Bring the store up to date with `reports_dir/reports.yaml`: unchanged PDFs are not parsed again."""
    reports_dir = Path(reports_dir)
    limits = limits or IngestLimits()
    summary = IngestSummary()
    entries = _entries(reports_dir, summary)
    with Store(store_path) as store:
        for n, entry in enumerate(entries):
            _notify(progress, "report_start", entry.id, n, len(entries))
            result = IngestResult(entry.id, file=entry.file)
            pdf = reports_dir / entry.file
            try:
                result = _ingest_one(entry, report_file(reports_dir, entry), store, limits, progress)
            except PublishError as e:
                err = e if isinstance(e, EvidenceError) else EvidenceError(e.message, path=e.path or pdf, line=e.line)
                store.set_error(entry.id, entry.file, str(err))
                summary._fail(result, err)
                if progress is not None:
                    progress(f"error: {err}", err=True)
            else:
                summary.results.append(result)
                if result.parsed and progress is not None:
                    progress(
                        f"{entry.id} v{result.version}: {result.pages} pages, {result.figures} figures, {result.seconds:.2f} s"
                    )
            _notify(progress, "report_end", entry.id, result)
    return summary


def _ingest_one(
    entry: ReportEntry, pdf: Path, store: Store, limits: IngestLimits, progress: Progress | None
) -> IngestResult:
    if not pdf.is_file():
        raise EvidenceError(f"file not found (registered as {entry.id} in {REGISTRY_NAME})", path=pdf)
    sha = sha256_file(pdf)
    state = store.state(entry.id)
    if state is not None and state[0] == sha and state[2] == PARSER_VERSION:
        version = state[1]
        store.update_metadata(
            entry.id, version, title=entry.title, date=entry.date, access=entry.access, file=entry.file
        )
        report = store.report(entry.id, version)
        figures = len(store.figures(entry.id, version))
        return IngestResult(
            entry.id, version, report.pages if report else 0, figures, 0.0, parsed=False, file=entry.file
        )
    # Same bytes but an older parser: re-read into the same version. New bytes: the next version.
    version = state[1] if state is not None and state[0] == sha else (state[1] + 1 if state else 1)
    started = time.perf_counter()

    def on_page(page: int, pages: int) -> None:
        _notify(progress, "page", entry.id, page, pages)

    parsed = parse_pdf(pdf, limits, report_id=entry.id, version=version, sha256=sha, on_page=on_page)
    seconds = time.perf_counter() - started
    report = Report(
        id=entry.id,
        title=entry.title,
        date=entry.date,
        access=entry.access,
        file=entry.file,
        sha256=sha,
        version=version,
        pages=len(parsed.pages),
        page_labels=parsed.page_labels,
    )
    store.save_version(report, parsed.pages, parsed.figures, parser=PARSER_VERSION, seconds=seconds)
    return IngestResult(
        entry.id, version, len(parsed.pages), len(parsed.figures), seconds, parsed=True, file=entry.file
    )
