"""Registry → store: parse changed PDFs (in parallel when several changed), keep every version, never stop at one bad file."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence.errors import EvidenceError, PublishError
from evidence.fsutil import sha256_file
from evidence.models import IngestLimits, Registry, Report, ReportEntry
from evidence.registry import REGISTRY_NAME, report_file
from evidence.store import PARSER_VERSION, Store
from evidence.workers import die_with
from evidence.yamlio import read_yaml, validate

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from evidence.pdf import ParsedPdf

Progress = Callable[..., None]
# A worker stuck in C code (where the per-file SIGALRM cannot land) is killed this long after its own limit.
_GRACE_SECONDS = 10.0


def parse_pdf(path: Path, limits: IngestLimits, **kwargs: Any) -> ParsedPdf:
    """`evidence.pdf.parse_pdf`, imported on first use: an up-to-date store never loads pypdf or the extractor."""
    from evidence.pdf import parse_pdf as parse

    return parse(path, limits, **kwargs)


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


@dataclass
class _Job:
    """A registered PDF whose bytes (or the parser) changed since the store last read it."""

    index: int
    entry: ReportEntry
    pdf: Path
    sha: str
    version: int


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


def _as_evidence_error(e: PublishError, pdf: Path) -> EvidenceError:
    return e if isinstance(e, EvidenceError) else EvidenceError(e.message, path=e.path or pdf, line=e.line)


def ingest(
    reports_dir: Path,
    store_path: Path,
    *,
    limits: IngestLimits | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> IngestSummary:
    """Bring the store up to date with `reports_dir/reports.yaml`: unchanged PDFs are not parsed again.

    Changed PDFs are parsed in worker processes (`workers`, default: one per core) when more than one needs it;
    every write to the store happens here, in one process.
    """
    reports_dir = Path(reports_dir)
    limits = limits or IngestLimits()
    summary = IngestSummary()
    entries = _entries(reports_dir, summary)
    outcomes: dict[int, IngestResult] = {}
    errors: dict[int, EvidenceError] = {}
    jobs: list[_Job] = []
    with Store(store_path) as planning:
        for n, entry in enumerate(entries):
            try:
                planned = _plan(n, entry, reports_dir, planning)
            except PublishError as e:
                _notify(progress, "report_start", entry.id, n, len(entries))
                errors[n] = _record_error(planning, entry, _as_evidence_error(e, reports_dir / entry.file), progress)
                _notify(progress, "report_end", entry.id, IngestResult(entry.id, file=entry.file, error=str(errors[n])))
                continue
            if isinstance(planned, _Job):
                jobs.append(planned)
            else:
                _notify(progress, "report_start", entry.id, n, len(entries))
                outcomes[n] = planned
                _notify(progress, "report_end", entry.id, planned)
    done = len(outcomes) + len(errors)
    # The store is reopened only once the first outcome is in, after the workers forked: no child inherits an open
    # SQLite connection.
    store: Store | None = None  # reopened after the fork, see above
    try:
        for job, outcome, seconds in _parse_all(jobs, limits, progress, workers, done, len(entries)):
            store = store or Store(store_path)
            entry = job.entry
            if isinstance(outcome, PublishError):
                errors[job.index] = _record_error(store, entry, _as_evidence_error(outcome, job.pdf), progress)
                result = IngestResult(entry.id, file=entry.file, error=str(errors[job.index]))
            else:
                result = _save(job, outcome, seconds, store)
                outcomes[job.index] = result
                if progress is not None:
                    progress(
                        f"{entry.id} v{result.version}: {result.pages} pages, {result.figures} figures, "
                        f"{result.seconds:.2f} s"
                    )
            _notify(progress, "report_end", entry.id, result)
    finally:
        if store is not None:
            store.close()
    for n, entry in enumerate(entries):
        if n in errors:
            summary._fail(IngestResult(entry.id, file=entry.file), errors[n])
        else:
            summary.results.append(outcomes[n])
    return summary


def _record_error(store: Store, entry: ReportEntry, err: EvidenceError, progress: Progress | None) -> EvidenceError:
    store.set_error(entry.id, entry.file, str(err))
    if progress is not None:
        progress(f"error: {err}", err=True)
    return err


def _plan(n: int, entry: ReportEntry, reports_dir: Path, store: Store) -> IngestResult | _Job:
    """The stored result of an unchanged PDF (metadata refreshed from the registry), or a job to parse it."""
    pdf = report_file(reports_dir, entry)
    if not pdf.is_file():
        raise EvidenceError(f"file not found (registered as {entry.id} in {REGISTRY_NAME})", path=pdf)
    sha = sha256_file(pdf)
    state = store.state(entry.id)
    if state is not None and state[0] == sha and state[2] == PARSER_VERSION:
        version = state[1]
        report = store.refresh(
            entry.id, version, title=entry.title, date=entry.date, access=entry.access, file=entry.file
        )
        figures = store.figure_count(entry.id, version)
        return IngestResult(
            entry.id, version, report.pages if report else 0, figures, 0.0, parsed=False, file=entry.file
        )
    # Same bytes but an older parser: re-read into the same version. New bytes: the next version.
    version = state[1] if state is not None and state[0] == sha else (state[1] + 1 if state else 1)
    return _Job(n, entry, pdf, sha, version)


def _save(job: _Job, parsed: ParsedPdf, seconds: float, store: Store) -> IngestResult:
    entry = job.entry
    report = Report(
        id=entry.id,
        title=entry.title,
        date=entry.date,
        access=entry.access,
        file=entry.file,
        sha256=job.sha,
        version=job.version,
        pages=len(parsed.pages),
        page_labels=parsed.page_labels,
    )
    store.save_version(report, parsed.pages, parsed.figures, parser=PARSER_VERSION, seconds=seconds)
    return IngestResult(
        entry.id,
        job.version,
        len(parsed.pages),
        store.figure_count(entry.id, job.version),
        seconds,
        parsed=True,
        file=entry.file,
    )


Outcome = tuple[_Job, "ParsedPdf | PublishError", float]


def _parse_one(job: _Job, limits: IngestLimits, on_page: Callable[[int, int], None] | None) -> Outcome:
    started = time.perf_counter()
    try:
        parsed = parse_pdf(
            job.pdf, limits, report_id=job.entry.id, version=job.version, sha256=job.sha, on_page=on_page
        )
    except PublishError as e:
        return job, e, time.perf_counter() - started
    return job, parsed, time.perf_counter() - started


def _workers(requested: int | None, jobs: int) -> int:
    import multiprocessing

    if multiprocessing.current_process().daemon:
        return 1  # a daemonic process may not start children
    if requested is None:
        try:
            requested = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            requested = os.cpu_count() or 1
    return max(1, min(requested, jobs))


def _parse_all(
    jobs: list[_Job], limits: IngestLimits, progress: Progress | None, workers: int | None, done: int, total: int
) -> Iterator[Outcome]:
    """Parse every job, yielding outcomes as they finish: in this process for one job, else in a process pool."""
    n_workers = _workers(workers, len(jobs)) if len(jobs) > 1 else 1
    if n_workers == 1:
        for job in jobs:
            _notify(progress, "report_start", job.entry.id, done, total)

            def on_page(page: int, pages: int, rid: str = job.entry.id) -> None:
                _notify(progress, "page", rid, page, pages)

            yield _parse_one(job, limits, on_page)
            done += 1
        return
    yield from _parse_pool(jobs, limits, progress, n_workers, done, total)


# ---- the worker processes -------------------------------------------------------------------------------------

_EVENTS: Any = None  # the queue a worker process reports its start and pages through


def _init_worker(events: Any, parent: int) -> None:
    global _EVENTS
    die_with(parent)
    _EVENTS = events


def _worker(job: _Job, limits: IngestLimits) -> tuple[Any, float]:
    """Parse one PDF in a worker process; the outcome (ParsedPdf or PublishError) goes back pickled."""
    events = _EVENTS
    rid = job.entry.id
    if events is not None:
        events.put(("start", rid, 0, 0))

    def on_page(page: int, pages: int) -> None:
        if events is not None:
            events.put(("page", rid, page, pages))

    _, outcome, seconds = _parse_one(job, limits, on_page)
    return outcome, seconds


def _pool_context() -> Any:
    import multiprocessing

    # fork starts workers at once with the extractor already imported; elsewhere the platform default.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _parse_pool(
    jobs: list[_Job], limits: IngestLimits, progress: Progress | None, n_workers: int, done: int, total: int
) -> Iterator[Outcome]:
    # Imported here: checking an up-to-date store never starts a pool, so it need not load multiprocessing.
    import queue as queue_mod
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = _pool_context()
    events = ctx.Queue()
    started: dict[str, float] = {}
    finished: set[str] = set()
    last_page: dict[str, int] = {}

    def drain() -> None:
        while True:
            try:
                kind, rid, page, pages = events.get_nowait()
            except queue_mod.Empty:
                return
            if rid in finished:
                continue  # a late event of a report already saved
            if kind == "start":
                started[rid] = time.monotonic()
                _notify(progress, "report_start", rid, done, total)
            else:
                last_page[rid] = page
                _notify(progress, "page", rid, page, pages)

    # Biggest files first, so the last one to finish is a small one.
    order = sorted(jobs, key=lambda j: -_size(j.pdf))
    pool = ProcessPoolExecutor(n_workers, mp_context=ctx, initializer=_init_worker, initargs=(events, os.getpid()))
    leftover: list[_Job] = []
    try:
        try:
            futures: dict[Future[Any], _Job] = {pool.submit(_worker, job, limits): job for job in order}
        except OSError:  # no processes to be had (limits, memory): read them all here
            futures, leftover = {}, order
        pending = set(futures)
        while pending:
            ready, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            drain()
            for fut in ready:
                job = futures[fut]
                finished.add(job.entry.id)
                try:
                    outcome, seconds = fut.result()
                except Exception as e:  # the worker died (killed, out of memory): this file, not the run, fails
                    outcome, seconds = EvidenceError(f"reading failed: {type(e).__name__}: {e}", path=job.pdf), 0.0
                n = len(getattr(outcome, "pages", ()))
                if n and last_page.get(job.entry.id) != n:
                    # (the worker's last page event may still be in the queue's pipe when its result arrives: the
                    # report is complete, so its bar is too)
                    _notify(progress, "page", job.entry.id, n, n)
                done += 1
                yield job, outcome, seconds
            limit = limits.seconds_per_file + _GRACE_SECONDS
            stuck = [futures[f] for f in pending if time.monotonic() - started.get(futures[f].entry.id, 1e18) > limit]
            if stuck:
                # A worker ignored its own time limit: fail its file, stop the pool, read the rest here.
                for job in stuck:
                    finished.add(job.entry.id)
                    err = EvidenceError(
                        f"reading took longer than {limits.seconds_per_file:g} s; giving up", path=job.pdf
                    )
                    done += 1
                    yield job, err, limit
                leftover = [futures[f] for f in pending if futures[f] not in stuck]
                _kill(pool)
                break
    finally:
        pool.shutdown(wait=not leftover, cancel_futures=True)
        with contextlib.suppress(Exception):
            events.close()
    for job in leftover:
        yield _parse_one(job, limits, None)


def _kill(pool: ProcessPoolExecutor) -> None:
    for proc in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(Exception):
            proc.kill()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
