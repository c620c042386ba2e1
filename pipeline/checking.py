"""`publish check`: load drafts (or the drafts of briefs), ingest their evidence, check them, write the report."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evidence.errors import InputError
from evidence.fsutil import atomic_write
from qc.draft import MAX_ARTICLE_BYTES, Draft, read_draft
from qc.index import EvidenceIndex
from qc.models import CheckReport, FileResult
from qc.scope import article_reports, require_known

Echo = Callable[..., None]


def _draft_for(path: Path, max_bytes: int) -> Draft:
    """A draft file, or the draft `<slug>.md` next to a brief `<slug>.yaml` (refused over `max_bytes`)."""
    if path.suffix in (".yaml", ".yml"):
        from evidence.yamlio import read_yaml

        doc = read_yaml(path)
        slug = doc.data.get("slug") if isinstance(doc.data, dict) else None
        if not isinstance(slug, str) or not slug:
            raise InputError("a brief needs a 'slug' naming its draft", path=path, line=doc.line_of(("slug",)))
        md = path.with_name(f"{slug}.md")
        if not md.is_file():
            raise InputError(f"no draft {md.name} yet; run `publish draft {path}` first", path=path)
        return read_draft(md, max_bytes=max_bytes)
    if path.is_dir():
        raise InputError("expected a draft (.md) or a brief (.yaml), got a folder", path=path)
    return read_draft(path, max_bytes=max_bytes)


class _Evidence:
    """One evidence source (a content root's reports or an `--evidence DIR`), ingested once per run."""

    def __init__(
        self,
        reports_dir: Path,
        store_path: Path,
        lock_dir: Path,
        severity: dict[str, str],
        limits: Any,
        max_article_bytes: int = MAX_ARTICLE_BYTES,
    ) -> None:
        self.max_article_bytes = max_article_bytes  # the content root's limit, as the build applies it
        self.reports_dir = reports_dir
        self.store_path = store_path
        self.lock_dir = lock_dir
        self.severity = severity
        self.limits = limits
        self.known: set[str] | None = None
        self.ingested = False
        # One loaded copy per report, shared by every file's index: QC prepares a report's figures once per list.
        self.loaded = EvidenceIndex()

    def registry_ids(self) -> set[str]:
        if self.known is None:
            from evidence.registry import load_registry

            self.known = {r.id for r in load_registry(self.reports_dir)}
        return self.known

    def index(self, ids: list[str]) -> EvidenceIndex:
        from evidence.ingest import ingest
        from evidence.store import Store
        from pipeline.lock import root_lock

        missing = [rid for rid in ids if rid not in self.loaded.reports]
        if missing or not self.ingested:
            with root_lock(self.lock_dir):
                if not self.ingested:
                    self.summary = ingest(self.reports_dir, self.store_path, limits=self.limits)
                    self.ingested = True
                self.summary.raise_for_errors(ids)
                with Store(self.store_path) as store:
                    self.loaded.add(EvidenceIndex.load(store, missing))
        return self.loaded.subset(ids)


def _source_for(path: Path, evidence_dir: Path | None, cache: dict[Path, _Evidence]) -> _Evidence:
    if evidence_dir is not None:
        key = evidence_dir.resolve()
        if key not in cache:
            from evidence.cache import store_path_for

            if not (evidence_dir / "reports.yaml").is_file():
                raise InputError("no reports.yaml in the evidence folder", path=evidence_dir)
            store = store_path_for(evidence_dir)
            cache[key] = _Evidence(evidence_dir, store, store.parent, {}, None)
        return cache[key]
    from pipeline.config import open_root

    root = open_root(path)
    key = root.path.resolve()
    if key not in cache:
        limits = root.config.limits
        cache[key] = _Evidence(root.reports, root.store, root.state, dict(root.config.qc.severity),
                               limits.to_ingest(), limits.max_article_bytes)  # fmt: skip
    return cache[key]


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path.resolve()) if rel.startswith("..") else rel


def _merge(indexes: list[EvidenceIndex]) -> EvidenceIndex:
    merged = EvidenceIndex()
    for ix in indexes:
        merged.add(ix)
    return merged


def check_files(files: list[Path], *, evidence_dir: Path | None, fmt: str, out: Path | None, echo: Echo) -> bool:
    """Check drafts or briefs; write the report as text, json or html to `out` or standard output; True when clean."""
    from qc.check import check_draft
    from qc.report import render_html, render_text

    cache: dict[Path, _Evidence] = {}
    results: list[FileResult] = []
    entries: list[bytes] = []  # JSON: each file's entry as UTF-8, serialised as soon as it is checked
    ok = True
    drafts: dict[str, Draft] = {}
    indexes: list[EvidenceIndex] = []
    pdf_dirs: dict[str, Path] = {}
    for path in files:
        source = _source_for(Path(path), evidence_dir, cache)
        draft = _draft_for(Path(path), source.max_article_bytes)
        draft.path = _display(Path(draft.path))
        require_known(draft, source.registry_ids())
        ids = article_reports(draft)
        index = source.index(ids)
        result = check_draft(draft, index, source.severity)
        ok = ok and result.ok
        # A run over thousands of files keeps only what its report needs: the JSON text of each file's result;
        # the HTML report its drafts and indexes too.
        if fmt == "json":
            entry = json.dumps(CheckReport.file_json(result), ensure_ascii=False, indent=1)
            entries.append(textwrap.indent(entry, "  ").encode("utf-8"))
        else:
            results.append(result)
        if fmt == "html":
            drafts[draft.path] = draft
            indexes.append(index)
        for rid in index.reports:
            pdf_dirs.setdefault(rid, source.reports_dir)
    report = CheckReport(ok=ok, files=results)
    text: str | bytes
    if fmt == "json":
        files_json = b"[\n" + b",\n".join(entries) + b"\n ]" if entries else b"[]"
        text = b'{\n "ok": ' + json.dumps(ok).encode() + b',\n "files": ' + files_json + b"\n}\n"
    elif fmt == "html":
        base = (out.parent if out else Path.cwd()).resolve()
        links = {rid: Path(os.path.relpath(d.resolve(), base)).as_posix() for rid, d in pdf_dirs.items()}
        text = render_html(report, drafts, _merge(indexes), pdf_base=links)
    else:
        text = render_text(report, color=out is None and sys.stdout.isatty())
    if out is not None:
        atomic_write(out, text)
        echo(f"wrote {out}", err=True)
    else:
        echo((text.decode("utf-8") if isinstance(text, bytes) else text).rstrip("\n"))
    return report.ok
