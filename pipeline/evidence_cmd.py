"""Bodies of `publish evidence ingest|list|show|search`: the store of a content root or of any --evidence folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from evidence.cache import store_path_for
from evidence.errors import EvidenceError, InputError
from evidence.ingest import IngestResult, IngestSummary, ingest
from evidence.models import Figure, IngestLimits
from evidence.store import Store
from pipeline.config import open_root
from pipeline.lock import root_lock

Echo = Callable[..., None]


@dataclass
class _Where:
    reports: Path
    store: Path
    state: Path
    limits: IngestLimits


def _where(evidence_dir: Path | None, root: Path) -> _Where:
    """`--evidence DIR` (store in the user cache dir) or the content root around `root`."""
    if evidence_dir is not None:
        if not evidence_dir.is_dir():
            raise InputError("not a folder (expected reports.yaml and the PDFs)", path=evidence_dir)
        store = store_path_for(evidence_dir)
        return _Where(evidence_dir, store, store.parent, IngestLimits())
    content = open_root(root)
    return _Where(content.reports, content.store, content.state, content.config.limits.to_ingest())


class _RichProgress:
    """An ingest progress sink: a bar over reports and pages on stderr, result lines through `echo`."""

    def __init__(self, echo: Echo, progress: Progress) -> None:
        self.echo = echo
        self.bar = progress
        self.reports_task = progress.add_task("reports", total=None)
        self.pages_task = progress.add_task("pages", total=None, visible=False)

    def __call__(self, message: str = "", *, err: bool = False, **style: Any) -> None:
        pass  # the command prints its own per-report table after the run

    def report_start(self, report_id: str, index: int, total: int) -> None:
        self.bar.update(self.reports_task, total=total, completed=index, description=f"report {report_id}")
        self.bar.update(self.pages_task, visible=False, completed=0, total=None)

    def page(self, report_id: str, page: int, pages: int) -> None:
        self.bar.update(self.pages_task, visible=True, total=pages, completed=page, description=f"{report_id} pages")

    def report_end(self, report_id: str, result: IngestResult) -> None:
        self.bar.advance(self.reports_task)


@contextmanager
def _locked(where: _Where) -> Iterator[None]:
    with root_lock(where.state):
        yield


def _ingest(where: _Where, progress: Any = None) -> IngestSummary:
    with _locked(where):
        return ingest(where.reports, where.store, limits=where.limits, progress=progress)


def ingest_cmd(*, evidence_dir: Path | None, root: Path, echo: Echo) -> bool:
    """`publish evidence ingest`: ingest with a progress bar, then one line per report; False on any error."""
    where = _where(evidence_dir, root)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        summary = _ingest(where, _RichProgress(echo, bar))
    for r in summary.results:
        if r.error:
            continue
        state = f"parsed in {r.seconds:.2f} s" if r.parsed else "unchanged"
        echo(f"{r.id:<8} v{r.version:<3} {r.pages:>4} pages {r.figures:>6} figures  {state}")
    for err in summary.errors:
        echo(f"error: {err}", err=True, fg="red")
    return summary.ok


def list_cmd(*, evidence_dir: Path | None, root: Path, echo: Echo) -> None:
    """`publish evidence list`: every report with its versions, access and figure counts."""
    where = _where(evidence_dir, root)
    summary = _ingest(where)
    with Store(where.store, readonly=True) as store:
        for report in store.reports():
            versions = store.versions(report.id)
            figures = len(store.figures(report.id, report.version))
            echo(
                f"{report.id:<8} v{report.version:<3} {report.date}  {report.access:<10} {report.pages:>4} pages "
                f"{figures:>6} figures  {report.title}"
                + (f"  (versions: {', '.join(str(v.version) for v in versions)})" if len(versions) > 1 else "")
            )
    for err in summary.errors:
        echo(f"error: {err}", err=True, fg="red")


def _figure_json(f: Figure) -> dict[str, Any]:
    return {
        "id": f.id,
        "page": f.page,
        "value": f.value,
        "unit": f.unit,
        "raw": f.raw,
        "labels": f.labels,
        "quote": f.quote,
    }


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def show_cmd(report_id: str, *, evidence_dir: Path | None, root: Path, fmt: str, echo: Echo) -> None:
    """`publish evidence show ID`: a readable table of the report's figures, or the JSON other tools parse."""
    where = _where(evidence_dir, root)
    summary = _ingest(where)
    with Store(where.store, readonly=True) as store:
        report = store.report(report_id)
        if report is None:
            summary.raise_for_errors([report_id])
            known = ", ".join(r.id for r in store.reports()) or "none"
            raise EvidenceError(
                f"no report {report_id!r} in the evidence (known: {known})", path=where.reports / "reports.yaml"
            )
        figures = store.figures(report_id, report.version)
    if fmt == "json":
        doc = {
            "report": {
                "id": report.id,
                "title": report.title,
                "date": report.date.isoformat(),
                "access": report.access,
                "sha256": report.sha256,
                "pages": report.pages,
            },
            "figures": [_figure_json(f) for f in figures],
        }
        echo(json.dumps(doc, ensure_ascii=False, indent=1))
        return
    echo(f"{report.id} v{report.version}  {report.title}")
    echo(f"{report.date}  {report.access}  {report.pages} pages  {len(figures)} figures  sha256 {report.sha256[:16]}…")
    echo("")
    echo(f"{'page':>5}  {_pad('value', 16)} {_pad('kind', 5)} labels")
    for f in figures:
        page = f"{f.page}" + (f" ({f.page_label})" if f.page_label and f.page_label != str(f.page) else "")
        shown = f"{f.raw} {f.unit}".strip()
        labels = " · ".join(f.labels)
        if cell_len(labels) > 110:
            labels = labels[:100] + "…"
        echo(f"{page:>5}  {_pad(shown, 16)} {_pad(f.kind, 5)} {labels}")


def search_cmd(query: str, *, evidence_dir: Path | None, root: Path, echo: Echo) -> None:
    """`publish evidence search QUERY`: figures whose labels or quote match, best first."""
    where = _where(evidence_dir, root)
    _ingest(where)
    with Store(where.store, readonly=True) as store:
        hits = store.search(query)
    if not hits:
        echo(f"no figure matches {query!r}")
        return
    for f in hits:
        shown = f"{f.raw} {f.unit}".strip()
        echo(f"{f.report} p.{f.page:<3} {_pad(shown, 14)} {' · '.join(f.labels)[:100]}")
