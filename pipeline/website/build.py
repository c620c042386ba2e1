"""The site build: check and gate every draft, render what changed into a temp dir, and swap it in."""

from __future__ import annotations

import gc
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from evidence.errors import InputError, PublishError
from evidence.fsutil import recover_dir, sha256_bytes
from evidence.limits import MAX_APPROVAL_BYTES
from evidence.registry import REGISTRY_NAME, load_registry, report_file
from evidence.workers import die_with
from pipeline.config import CONFIG_NAME, ContentRoot
from pipeline.errors import BuildError
from pipeline.website import templates as T
from pipeline.website.cache import (
    STATE_VERSION,
    BuildCache,
    cache_key,
    cache_write,
    cited_lines,
    code_hash,
    files_hash,
    tree_files,
)
from pipeline.website.inputs import SourceFile, fingerprint, read_regular, scan, trusted_stats
from pipeline.website.plan import (
    MARKER,
    DraftItem,
    SitePlan,
    apply_plan,
    stage_manifest,
    swap,
    tag_slug,
    write_file,
    written_manifest,
)
from qc.errors import AwaitingReview

# A no-op build imports only the above: drafts, QC, Markdown, Jinja2 and the page code load when something changed.
if TYPE_CHECKING:
    from pipeline.website.article import ArticleJob
    from qc.draft import Draft
    from qc.index import EvidenceIndex
    from qc.models import FileResult
    from qc.review import Approval

Echo = Callable[..., None]
_QC_CODE = Path(__file__).resolve().parent.parent.parent / "qc"
_META_KEYS = {"title", "lang", "date", "updated", "tags", "evidence"}  # what listings, links and cache keys need
POOL_MIN = 24  # below this many renders, starting worker processes costs more than it saves
RELATED_K, RELATED_WINDOW = 4, 3


# ---- results ------------------------------------------------------------------------------------------------


@dataclass
class BuildSummary:
    """What a build produced: the output folder, how many article pages were rendered or reused, and where."""

    out: Path
    written: int
    reused: int
    articles: Mapping[str, Path] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # drafts left out because they are not approved
    files: int = 0
    seconds: float = 0.0
    held: dict[str, str] = field(default_factory=dict)  # slug → date of the approved version served for an edit

    def page_for(self, slug: str) -> Path:
        """The built page of an article; BuildError if it was not built (e.g. not approved)."""
        try:
            return self.articles[slug]
        except KeyError:
            raise BuildError(f"article {slug!r} was not built (not approved?)", path=self.out) from None

    def __str__(self) -> str:
        extra = f"; {len(self.skipped)} not approved ({', '.join(self.skipped[:5])})" if self.skipped else ""
        if self.held:
            extra += f"; {len(self.held)} serving their approved version while an edit awaits review"
        return (
            f"built {len(self.articles)} article(s) into {self.out} "
            f"({self.written} rendered, {self.reused} reused, {self.seconds:.2f}s){extra}"
        )


class ArticlePages(Mapping[str, Path]):
    """Slug → built page (`<out>/articles/<slug>/index.html`), each path made when asked for: a build of thousands
    of articles is asked for one or two."""

    def __init__(self, out: Path, slugs: Iterable[str]) -> None:
        self.out = out
        self._slugs = dict.fromkeys(slugs)

    def __getitem__(self, slug: str) -> Path:
        if slug not in self._slugs:
            raise KeyError(slug)
        return self.out / "articles" / slug / "index.html"

    def __iter__(self) -> Iterator[str]:
        return iter(self._slugs)

    def __len__(self) -> int:
        return len(self._slugs)


# ---- dependencies (injected so tests need neither PDFs nor the full QC) -------------------------------------


class Evidence(Protocol):
    verifies_files: bool  # whether versions() are hashes of the report files' bytes (the store), or made up (tests)

    def versions(self) -> dict[str, str]: ...
    def errors(self) -> dict[str, str]: ...
    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex: ...


Check = Callable[["Draft", "EvidenceIndex", dict[str, str]], "FileResult"]
Approve = Callable[["Draft", "FileResult", "EvidenceIndex", Path], bool]
ApprovedVersion = Callable[[Path], "Approval | None"]  # the approval file, read (None: there is none)


class StoreEvidence:
    """The evidence store of a content root: cheap version lookups; reports' figures and pages loaded only when
    needed, and only for the reports asked for (checking one edited draft needs just the reports it cites)."""

    verifies_files = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self._loaded: EvidenceIndex | None = None
        self._complete = False

    def versions(self) -> dict[str, str]:
        if not self.path.is_file():
            return {}
        from evidence.store import Store

        with Store(self.path, readonly=True) as store:
            return {r.id: f"{r.sha256}:{r.version}" for r in store.reports()}

    def errors(self) -> dict[str, str]:
        """The last ingest's error per report (a PDF replaced by one that cannot be read, or deleted)."""
        if not self.path.is_file():
            return {}
        from evidence.store import Store

        with Store(self.path, readonly=True) as store:
            return store.errors()

    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex:
        """An index holding at least the reports `ids` (every report when None)."""
        from qc.index import EvidenceIndex

        if self._loaded is None:
            self._loaded = EvidenceIndex()
        if self._complete or not self.path.is_file():
            return self._loaded
        from evidence.store import Store

        with Store(self.path, readonly=True) as store:
            if ids is None:
                self._loaded, self._complete = EvidenceIndex.load(store), True
            else:
                missing = [i for i in dict.fromkeys(ids) if i not in self._loaded.reports]
                if missing:
                    self._loaded.add(EvidenceIndex.load(store, missing))
        return self._loaded


class IndexEvidence:
    """Evidence from an index built in memory (tests, tools)."""

    verifies_files = False

    def __init__(self, index: EvidenceIndex) -> None:
        self._index = index

    def versions(self) -> dict[str, str]:
        return {rid: f"{r.sha256}:{r.version}" for rid, r in self._index.reports.items()}

    def errors(self) -> dict[str, str]:
        return {}

    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex:
        return self._index


def default_check(draft: Draft, index: EvidenceIndex, severity: dict[str, str]) -> FileResult:
    from qc.check import check_draft

    return check_draft(draft, index, severity=severity or None)


def default_approve(draft: Draft, result: FileResult, index: EvidenceIndex, approvals: Path) -> bool:
    from qc.review import is_approved

    return is_approved(draft, result, index, approvals)


def default_approved_version(path: Path) -> Approval | None:
    from qc.review import load_approval

    return load_approval(path)


# ---- inputs -----------------------------------------------------------------------------------------------


# ---- worker processes ---------------------------------------------------------------------------------------

# What forked workers inherit: the tasks and their shared inputs. Tasks travel as indexes, so no draft, index or
# QC result is ever pickled (unpickling a large pydantic result costs more than rendering its page).
_W: dict[str, Any] = {}


@dataclass
class _GateTask:
    """QC (unless its result is cached) and the approval gate of one draft."""

    draft: Draft
    qc_path: Path
    need_qc: bool


def _gate_task(i: int) -> tuple[str, list[str], bool]:
    from qc.models import FileResult
    from qc.scope import article_index

    task: _GateTask = _W["gate"][i]
    sub = article_index(task.draft, _W["index"])  # the reports the draft names: the scope review and publish use
    result = None
    if not task.need_qc:
        try:
            result = FileResult.model_validate_json(task.qc_path.read_bytes())
        except (OSError, ValueError):  # a damaged cache entry: check again
            result = None
    if result is None:
        result = _W["check"](task.draft, sub, _W["severity"])
        cache_write(task.qc_path, result.model_dump_json())
        task.qc_path.with_suffix(".nums").unlink(missing_ok=True)  # the pages' copy of its numbers, made again
    cited, reports = cited_lines(result)
    cache_write(task.qc_path.with_suffix(".cited"), cited)  # for the evidence library, read only when it changes
    return sha256_bytes(cited)[:16], reports, bool(_W["approve"](task.draft, result, sub, _W["approvals"]))


def _render_task(i: int) -> tuple[dict[str, str], bytes]:
    """One article page, written to the page cache; its plain texts and its search entry go back to the build,
    which writes the entries into the search shards (one file per shard, not one more per page)."""
    from pipeline.website.article import load_numbers, render_article

    job, qc_path, page_path = _W["render"][i]
    if job.draft is None:
        job.draft = _reread(*job.source)
    if job.numbers is None:
        job.numbers = load_numbers(qc_path)
    html, texts, fragment = render_article(job)
    cache_write(page_path, html)
    return texts, fragment.encode("utf-8")


def _run(fn: Callable[[int], Any], n: int) -> list[Any]:
    """fn(0..n-1), on both cores when there are enough tasks and forking is safe, else in this process."""
    import multiprocessing
    import threading

    fork = "fork" in multiprocessing.get_all_start_methods()
    # With other threads alive (publish serve's HTTP server) forking is unsafe: such builds stay in-process.
    if n < POOL_MIN or (os.cpu_count() or 1) < 2 or not fork or threading.active_count() > 1:
        return [fn(i) for i in range(n)]
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork")
    # Workers inherit this process's objects (drafts, state, the evidence index): frozen, the cyclic collector
    # neither walks them over and over nor touches (and so copies) their pages; rendering allocates many short-lived
    # objects, so workers collect less often. About 10 % of a full render.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=2, mp_context=ctx, initializer=_worker, initargs=(os.getpid(),)) as pool:
            return list(pool.map(fn, range(n), chunksize=max(1, n // 32)))
    finally:
        gc.unfreeze()


def _worker(parent: int) -> None:
    die_with(parent)
    gc.set_threshold(50_000, 20, 100)


# ---- the build ----------------------------------------------------------------------------------------------


def _guard_out(root: ContentRoot, out: Path) -> None:
    src = root.path.resolve()
    for p in (src, root.reports.resolve(), root.articles.resolve(), root.approvals.resolve(), root.state.resolve()):
        if out == p or p.is_relative_to(out) or (out.is_relative_to(p) and p != src):
            raise InputError(
                "the output folder would replace the content root's own files; choose another --out", path=out
            )
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise InputError(f"{out} exists and was not built by Proofpress; remove it or choose another --out", path=out)


def build_site(
    root: ContentRoot, *, out: Path | None = None, preview: bool = False, echo: Callable[..., None] | None = None
) -> BuildSummary:
    """Check, gate and render the content root into `out` (default `<root>/public`), atomically and incrementally.

    Every draft, the registry, the evidence and each approval are read and validated before anything is
    written; only approved articles are built (all of them with `preview`, unapproved ones under a banner, into
    `[site] preview_output` unless `out` says otherwise: production never holds unapproved content).
    """
    return _build(
        root,
        out=out if out is not None else (root.preview_output if preview else root.output),
        preview=preview,
        echo=echo,
        evidence=StoreEvidence(root.store),
        check=default_check,
        approve=default_approve,
        approved_version=default_approved_version,
    )


def _build(
    root: ContentRoot,
    *,
    out: Path | None,
    preview: bool,
    echo: Echo | None,
    evidence: Evidence,
    check: Check,
    approve: Approve,
    approved_version: ApprovedVersion | None = None,
) -> BuildSummary:
    t0 = time.perf_counter()
    say: Echo = echo or (lambda *_a, **_k: None)
    out = Path(out or root.output).resolve()
    _guard_out(root, out)
    recover_dir(out)  # a build killed mid-way left a half-written folder (or the live site moved aside)
    cache = BuildCache(root)
    quick = cache.quick()
    known = quick.get("stats") or {}
    now_ns = time.time_ns()
    registry = load_registry(root.reports)
    versions = evidence.versions()
    max_bytes = root.config.limits.max_article_bytes
    drafts = scan(root.articles, ".md", known.get("articles") or {}, max_bytes, "draft")
    approval_files = scan(root.approvals, ".json", known.get("approvals") or {}, MAX_APPROVAL_BYTES, "approval")
    approvals = {f.name: f.sha for f in approval_files}
    # Report files by content hash (read again only when their stat changed): what the site copies is what was checked.
    reports: dict[str, SourceFile | InputError] = {}
    for e in registry:
        path = report_file(root.reports, e)  # a symlink out of reports/ is refused outright
        try:
            f = fingerprint(path, e.id, known.get("reports") or {}, root.config.limits.max_pdf_bytes, f"report {e.id}")
            f.raw = None  # read again, and checked, when copied into the site
            reports[e.id] = f
        except InputError as err:
            reports[e.id] = err
    errors = evidence.errors()
    code = code_hash()
    qc_code = files_hash(tree_files(_QC_CODE, "*.py"))  # sources only: .pyc files change on first import
    config_bytes = (root.path / CONFIG_NAME).read_bytes() if (root.path / CONFIG_NAME).is_file() else b""
    build_key = cache_key(
        STATE_VERSION,
        code,
        qc_code,
        preview,
        sha256_bytes(config_bytes),
        sha256_bytes((root.reports / REGISTRY_NAME).read_bytes()),
        versions,
        [(f.name, f.sha) for f in drafts],
        approvals,
        [(rid, f.sha if isinstance(f, SourceFile) else str(f)) for rid, f in reports.items()],
        sorted(errors.items()),
    )
    files = [f for f in reports.values() if isinstance(f, SourceFile)]
    stats = {
        "articles": trusted_stats(drafts, now_ns),
        "approvals": trusted_stats(approval_files, now_ns),
        "reports": trusted_stats(files, now_ns),
    }
    marker = out / MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8").strip() == build_key and quick.get("key") == build_key:
        if stats != known:  # touched but unchanged files: remember their new stat, so they are not read again
            cache.save_quick({**quick, "stats": stats})
        built = ArticlePages(out, quick.get("articles", []))
        held = dict(quick.get("held") or {})
        summary = BuildSummary(
            out, 0, len(built), built, list(quick.get("skipped", [])), 0, time.perf_counter() - t0, held
        )
        for slug, date in held.items():
            say(f"build: {slug}: serving the version approved {date}; the current draft awaits review")
        say(f"build: nothing changed since the last build ({len(built)} articles)")
        return summary
    T.BYTECODE[:] = [cache.dir / "jinja"]
    inputs = _Inputs(
        cache, quick, stats, registry, versions, drafts, approvals, code, qc_code, build_key, reports, errors
    )
    return _full_build(root, out, preview, say, evidence, check, approve, approved_version, t0, inputs)


@dataclass
class _Inputs:
    """What a build looked at to decide whether anything changed, handed on to the build that follows."""

    cache: BuildCache
    quick: dict[str, Any]  # the last build's key, its articles and the drafts' trusted stats
    stats: dict[str, Any]  # this build's stats, saved for the next one
    registry: list[Any]
    versions: dict[str, str]
    drafts: list[SourceFile]
    approvals: dict[str, str]  # approval file name → sha256
    code: str  # hash of the page code, templates and static files
    qc_code: str
    build_key: str
    reports: dict[str, SourceFile | InputError]  # report id → its file's content hash, or why it cannot be read
    errors: dict[str, str]  # report id → the last ingest's error


def _full_build(
    root: ContentRoot,
    out: Path,
    preview: bool,
    say: Echo,
    evidence: Evidence,
    check: Check,
    approve: Approve,
    approved_version: ApprovedVersion | None,
    t0: float,
    inputs: _Inputs,
) -> BuildSummary:
    from pipeline.website import article, pages, search
    from pipeline.website.contexts import ArticleLink, site_context
    from qc.draft import parse_draft, stray_citations

    cache, registry, versions, code = inputs.cache, inputs.registry, inputs.versions, inputs.code
    max_bytes = root.config.limits.max_article_bytes

    # 1. Every draft, parsed (or its metadata reused when its bytes are unchanged) and validated.
    state = cache.load()
    old: dict[str, Any] = state.get("drafts") or {}
    items: list[DraftItem] = []
    for f in inputs.drafts:
        prev = old.get(f.name)
        if prev and prev.get("sha") == f.sha and not prev.get("served"):
            items.append(DraftItem(f.name, f.path, f.sha, prev["meta"], prev["slug"]))
            continue
        raw = f.raw if f.raw is not None else read_regular(f.path, max_bytes, "draft")
        draft = _parse(f.path, raw, max_bytes, parse_draft)
        for line, marker in stray_citations(draft.text, frozenset(e.id for e in registry)):
            say(f"warning: {f.path}:{line}: {marker} is not a citation; write 【出处:…】 or [source: …]", err=True)
        items.append(_item(f.name, f.path, f.sha, draft))
    seen: dict[str, Path] = {}
    for it in items:  # each slug was checked by Draft.slug, the one slug rule
        if it.slug in seen:
            raise InputError(f"slug {it.slug!r} is also used by {seen[it.slug].name}", path=it.path)
        seen[it.slug] = it.path

    def draft_of(it: DraftItem) -> Draft:
        if it.draft is None:
            it.draft = _reread(it.path, it.sha, max_bytes)
        return it.draft

    # 2. QC, reused when the draft, its reports' versions, the severity settings and QC's code are unchanged.
    severity: dict[str, str] = dict(root.config.qc.severity)

    # 3. The approval gate, reused when QC's result and the approval file are unchanged.
    results = cache.listing("qc")
    # A key's inputs beyond the draft's own bytes, hashed once: when they and the draft are unchanged, the draft's
    # key is the last build's (comparing two strings instead of hashing its description, thousands of times).
    qc_salt = cache_key("qc", sorted(versions.items()), severity, inputs.qc_code)
    same_qc = state.get("qc_salt") == qc_salt

    def gate(todo: list[DraftItem]) -> None:
        tasks: list[tuple[DraftItem, _GateTask]] = []
        n_qc = 0
        for it in todo:
            prev = old.get(it.name) or {}
            if same_qc and prev.get("sha") == it.sha and prev.get("qc") and not prev.get("served"):
                it.qc_key = prev["qc"]
            else:
                it.qc_key = cache_key("qc", it.sha, [(r, versions.get(r)) for r in it.names], severity, inputs.qc_code)
            it.approval_key = cache_key("approval", it.qc_key, inputs.approvals.get(f"{it.slug}.json"))
            qc_cached = f"{it.qc_key}.json" in results
            if qc_cached and prev.get("approval") == it.approval_key and not prev.get("served"):
                it.cited, it.cited_reports, it.approved = prev["cited"], prev["cited_reports"], bool(prev["approved"])
            else:
                tasks.append((it, _GateTask(draft_of(it), cache.result_path(it.qc_key), not qc_cached)))
                n_qc += not qc_cached
        if not tasks:
            return
        say(f"build: checking {n_qc} draft(s), gating {len(tasks)}")
        t_qc = time.perf_counter()
        wanted = {r for it, _ in tasks for r in it.names}
        _W.update(
            gate=[t for _, t in tasks],
            index=evidence.index(wanted),
            check=check,
            approve=approve,
            severity=severity,
            approvals=root.approvals,
        )
        try:
            outcomes = _run(_gate_task, len(tasks))
        finally:
            _W.clear()
        for (it, _), (cited, reports, approved) in zip(tasks, outcomes, strict=True):
            it.cited, it.cited_reports, it.approved = cited, reports, approved
        say(f"build: checked {n_qc} draft(s) in {time.perf_counter() - t_qc:.2f}s")

    gate(items)
    # An article edited since its approval keeps serving the approved version (the approval holds its text) until
    # the new one is approved; one whose approval no longer holds for its approved text stops the build (below).
    stale: list[tuple[DraftItem, Approval]] = []
    held: dict[str, str] = {}
    if approved_version is not None and not preview:  # a preview shows the drafts as they are
        fallback: list[tuple[int, DraftItem, Approval]] = []
        for i, it in enumerate(items):
            if it.approved or f"{it.slug}.json" not in inputs.approvals:
                continue
            approval = approved_version(root.approvals / f"{it.slug}.json")
            if approval is None:
                continue
            served = _approved_draft(approval, it, draft_of(it), max_bytes)
            if served is None:
                stale.append((it, approval))
            else:
                new = _item(it.name, it.path, sha256_bytes(served.text), served, approval.time[:10])
                fallback.append((i, new, approval))
        gate([new for _, new, _ in fallback])
        for i, new, approval in fallback:
            if new.approved:
                held[new.slug] = new.served
                say(
                    f"build: {new.slug}: serving the version approved {new.served}; the current draft awaits review "
                    f"(publish review {_review_arg(items[i].path)})"
                )
                items[i] = new
            else:
                stale.append((items[i], approval))
    stale_slugs = {s.slug for s, _ in stale}
    _check_sources(
        [it for it in items if it.approved or preview or it.slug in stale_slugs], inputs, evidence.verifies_files
    )
    if stale and not preview:
        raise AwaitingReview(_stale_message(stale, versions))
    built_items = [it for it in items if it.approved or preview]
    skipped = sorted(it.slug for it in items if not (it.approved or preview))
    # Newest first; ties by slug so the order never depends on the file system.
    built_items.sort(key=lambda it: it.slug)
    built_items.sort(key=lambda it: it.date, reverse=True)

    # 4. Site-wide context.
    site = site_context(root.config.site, preview, files_hash(tree_files(T.STATIC))[:10])
    report_infos = {e.id: article.ReportInfo(e.id, e.title, e.date.isoformat(), e.access, e.file) for e in registry}
    site_key = cache_key(site)
    info_keys = {rid: repr(info) for rid, info in report_infos.items()}
    changed = {it.slug for it in items if (old.get(it.name) or {}).get("sha") != it.sha}
    # Related articles depend only on the built articles' order, tags and reports: the last build's map stands while
    # the same articles are built in the same order and no edited one changed its date, tags or reports.
    last_rel = state.get("related") or {}
    last_map: dict[str, list[str]] = last_rel.get("map") or {}
    same_related = (
        last_rel.get("code") == code
        and list(last_map) == [it.slug for it in built_items]
        and all(
            _related_inputs(it.meta) == _related_inputs((old.get(it.name) or {}).get("meta") or {})
            for it in built_items
            if it.slug in changed
        )
    )
    related = last_map if same_related else _related(built_items)
    by_slug = {it.slug: it for it in built_items}

    # 5. Article pages, reused when everything they show is unchanged.
    page_files = cache.listing("pages")
    # A page is reused only with its search entry, which lives in the last build's search shards.
    shards = search.SearchShards(cache, state.get("search"), page_files)
    todo: list[tuple[DraftItem, ArticleJob]] = []
    links_made: dict[str, ArticleLink] = {}

    def related_link(slug: str) -> ArticleLink:
        # Each article is some seven others' related link: made once, shared (links are immutable).
        if slug not in links_made:
            links_made[slug] = pages.article_link(by_slug[slug], "../../", with_answer=False)
        return links_made[slug]

    page_salt = cache_key("page", code, site_key, sorted(info_keys.items()))
    same_pages = state.get("page_salt") == page_salt
    for it in built_items:
        last = old.get(it.name) or {}
        if (
            same_pages
            and last.get("page")
            and last.get("qc") == it.qc_key  # the draft's bytes, its reports, and with them its cited reports
            and last.get("approval") == it.approval_key  # and the approval, whose waivers' reasons the page shows
            and last.get("approved") == it.approved
            and last_map.get(it.slug) == related[it.slug]
            and changed.isdisjoint(related[it.slug])  # what its related links show comes from their drafts' bytes
        ):
            it.page_key = last["page"]
        else:
            info_ids = _info_ids(it, report_infos)
            rel = [by_slug[s] for s in related[it.slug]]
            rel_sig = [(x.slug, str(x.meta["title"]), x.date, str(x.meta.get("lang", "zh"))) for x in rel]
            it.page_key = cache_key(
                "page",
                it.slug,
                code,
                it.approval_key,
                it.approved,
                site_key,
                [info_keys[r] for r in info_ids],
                rel_sig,
            )
        prev = old.get(it.name)
        if (
            prev
            and prev.get("page") == it.page_key
            and prev.get("texts")
            and f"{it.page_key}.html" in page_files
            and shards.has(it.page_key)
        ):
            it.texts = prev["texts"]
        else:
            # Related links carry no answer text: it is known only after rendering, and the page key must not wait.
            links = [related_link(x) for x in related[it.slug]]
            # An unchanged draft is parsed again by the worker that renders it, not here one after another.
            infos = {r: report_infos[r] for r in _info_ids(it, report_infos)}
            job = article.ArticleJob(
                it.draft,
                None,
                site,
                infos,
                links,
                it.approved,
                it.meta,
                (it.path, it.sha, max_bytes),
                _waivers(it, root, inputs, approved_version),
            )
            todo.append((it, job))
    if todo:
        say(f"build: rendering {len(todo)} article page(s)")
        t_render = time.perf_counter()
        _W["render"] = [(job, cache.result_path(it.qc_key), cache.page_path(it.page_key)) for it, job in todo]
        try:
            rendered = _run(_render_task, len(todo))  # a template error is a BuildError, also from a worker
        finally:
            _W.clear()
        for (it, _), (texts, entry) in zip(todo, rendered, strict=True):
            it.texts, it.entry = texts, entry
        say(f"build: rendered {len(todo)} page(s) in {time.perf_counter() - t_render:.2f}s")

    # 6. Everything else; then the new site is written next to the output and swapped in. The folder swapped out
    # is kept as `.<out>.stage` and brought up to date next time, so a build rewrites only the files that changed.
    plan = SitePlan()
    for it in built_items:
        plan.link(f"articles/{it.slug}/index.html", cache.page_file(it.page_key), it.page_key)
    generated, search_keys = pages.plan_site(
        plan,
        root,
        site,
        built_items,
        registry,
        lambda: evidence.index(),
        versions,
        cache,
        code,
        site_key,
        shards,
        page_files,
        _checked_files(inputs, evidence.verifies_files),
    )
    stage = out.parent / f".{out.name}.stage"
    old_files = stage_manifest(stage, cache)
    target = stage if old_files is not None else out.parent / f".{out.name}.new-{uuid.uuid4().hex[:8]}"
    try:
        if old_files is None:
            shutil.rmtree(stage, ignore_errors=True)  # unknown contents (a build died while updating it)
        else:
            (stage / MARKER).unlink()  # until the marker is back, this folder counts as half-written
        files = apply_plan(plan, target, old_files)
        manifest = written_manifest(plan, target)
        write_file(target / MARKER, inputs.build_key + "\n")
    except BaseException as e:
        if old_files is None:
            shutil.rmtree(target, ignore_errors=True)
        if isinstance(e, PublishError):
            raise
        if isinstance(e, OSError):
            raise BuildError(f"cannot write the site: {e}", path=getattr(e, "filename", None) or target) from e
        raise
    cache.save_manifest(inputs.build_key, manifest)
    swap(target, out, stage)
    cache.keep_manifests({inputs.build_key, str(inputs.quick.get("key", ""))})

    new_drafts = {
        it.name: {
            "sha": it.sha,
            "meta": it.meta,
            "slug": it.slug,
            "qc": it.qc_key,
            "cited": it.cited,
            "cited_reports": it.cited_reports,
            "approval": it.approval_key,
            "approved": it.approved,
            "served": it.served,
            **({"page": it.page_key, "texts": it.texts} if it.page_key else {}),
        }
        for it in items
    }
    articles = ArticlePages(out, (it.slug for it in built_items))
    cache.save_state(
        {
            "drafts": new_drafts,
            "search": search_keys,
            "related": {"code": code, "map": related},
            "qc_salt": qc_salt,
            "page_salt": page_salt,
        }
    )
    cache.save_quick(
        {"key": inputs.build_key, "articles": list(articles), "skipped": skipped, "held": held, "stats": inputs.stats}
    )
    cache.prune("qc", results, {it.qc_key for it in items})
    cache.prune("pages", page_files, {it.page_key for it in built_items} | generated)
    written = len(todo)
    summary = BuildSummary(
        out, written, len(built_items) - written, articles, skipped, files, time.perf_counter() - t0, held
    )
    return summary


def _info_ids(it: DraftItem, report_infos: Mapping[str, Any]) -> list[str]:
    """The reports an article page describes: those its brief names and those its numbers cite."""
    return [r for r in sorted({*it.evidence, *it.cited_reports}) if r in report_infos]


def _item(name: str, path: Path, sha: str, draft: Draft, served: str = "") -> DraftItem:
    """A draft as the build tracks it, with every report it names (brief and citation markers: the QC scope)."""
    from qc.scope import article_reports

    meta = draft.meta.model_dump(mode="json", include=_META_KEYS)
    meta["names"] = article_reports(draft)
    return DraftItem(name, path, sha, meta, draft.slug, draft=draft, served=served)


def _approved_draft(approval: Approval, it: DraftItem, current: Draft, max_bytes: int) -> Draft | None:
    """The approved text of an article edited since, parsed; None when there is none to serve: the approval holds
    no text (or text that is not what it approved), or the draft is the approved text and the approval no longer
    holds for it (a cited report or the checked numbers changed)."""
    from qc.draft import parse_draft

    text = approval.draft_text
    approved_sha = approval.snapshot.draft_sha256
    if not text or sha256_bytes(text) != approved_sha or current.sha256 == approved_sha:
        return None
    try:
        draft = parse_draft(text, it.path, max_bytes=max_bytes)
    except PublishError:
        return None
    return draft if draft.slug == it.slug else None


def _review_arg(draft: Path) -> str:
    """What to give `publish review` for a draft: its brief when there is one, relative to the cwd when inside it."""
    brief = draft.with_suffix(".yaml")
    p = brief if brief.is_file() else draft
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)


def _stale_message(stale: list[tuple[DraftItem, Approval]], versions: dict[str, str]) -> str:
    """Which approved articles no longer match their approval, and why (a cited report changed, mostly)."""
    lines = [f"{len(stale)} approved article(s) no longer match their approval; the published site is left as it was:"]
    for it, approval in stale:
        why = []
        for rid, ref in sorted(approval.snapshot.reports.items()):
            now = versions.get(rid)
            if now is None:
                why.append(f"report {rid} is no longer in the evidence store")
            elif now.split(":")[0] != ref.sha256:
                sha, _, ver = now.partition(":")
                why.append(
                    f"report {rid} changed since the approval (v{ref.version} {ref.sha256[:12]} → v{ver} {sha[:12]})"
                )
        if not why:
            why.append(
                "its checked numbers changed since the approval"
                if approval.draft_text
                else "it was edited and the approval holds no approved text to serve"
            )
        lines.append(f"  {it.slug} (approved {approval.time[:10]}): {'; '.join(why)}")
        lines.append(f"  run: publish review {_review_arg(it.path)}")
    return "\n".join(lines)


def _check_sources(items: list[DraftItem], inputs: _Inputs, verifies: bool) -> None:
    """Every report the articles to publish name is registered, readable, and the very bytes that were checked;
    else the build stops before writing anything, naming the file."""
    registered = {e.id: e for e in inputs.registry}
    citing: dict[str, list[str]] = {}
    for it in items:
        for rid in it.names:
            if rid not in registered:
                raise InputError(
                    f"cites report {rid}, which reports/{REGISTRY_NAME} does not register (renamed or removed?); "
                    "the published site is left as it was",
                    path=it.path,
                )
            citing.setdefault(rid, []).append(it.slug)
    versions = inputs.versions
    for rid, slugs in citing.items():
        f = inputs.reports.get(rid)
        held = f"the article(s) citing it ({', '.join(sorted(slugs)[:5])}) are held back and the site is left as it was"
        if isinstance(f, InputError):
            raise InputError(f"{f.message}; {held}", path=f.path)
        assert f is not None
        err = inputs.errors.get(rid)
        if err:
            raise InputError(f"report {rid} cannot be read ({err}); {held}", path=f.path)
        if verifies and versions.get(rid, "").split(":")[0] != f.sha:
            raise InputError(f"report {rid} changed since it was last read; run `publish ingest`; {held}", path=f.path)


def _waivers(
    it: DraftItem, root: ContentRoot, inputs: _Inputs, approved_version: ApprovedVersion | None
) -> dict[str, str]:
    """The reviewer's reason for each error finding they accepted in the article's approval (shown to readers)."""
    if approved_version is None or not it.approved or f"{it.slug}.json" not in inputs.approvals:
        return {}
    approval = approved_version(root.approvals / f"{it.slug}.json")
    return {w.finding: w.reason for w in approval.waivers} if approval is not None else {}


def _checked_files(inputs: _Inputs, verifies: bool) -> dict[str, tuple[str, int]]:
    """Content hash and size of every report file whose bytes are the version QC reads (the ones to publish)."""
    out = {}
    for rid, f in inputs.reports.items():
        same = isinstance(f, SourceFile) and (not verifies or inputs.versions.get(rid, "").split(":")[0] == f.sha)
        if same and rid not in inputs.errors:
            assert isinstance(f, SourceFile)
            out[rid] = (f.sha, f.fp[0])
    return out


def _reread(path: Path, sha: str, max_bytes: int) -> Draft:
    """A draft whose bytes were hashed earlier in this build, parsed (and refused if it changed since)."""
    from qc.draft import parse_draft

    raw = read_regular(path, max_bytes, "draft")
    if sha256_bytes(raw) != sha:
        raise InputError("the draft changed while the site was being built; build again", path=path)
    return _parse(path, raw, max_bytes, parse_draft)


def _parse(path: Path, raw: bytes, max_bytes: int, parse_draft: Callable[..., Draft]) -> Draft:
    from qc.draft import decode_draft

    return parse_draft(decode_draft(raw, path), path, max_bytes=max_bytes)


def _related_inputs(meta: dict[str, Any]) -> tuple[str, list[str], list[str]]:
    """What of an article decides its related articles (besides its place in date order)."""
    return str(meta.get("date")), list(meta.get("tags") or []), list(meta.get("evidence") or [])


def _related(items: list[DraftItem]) -> dict[str, list[str]]:
    """Up to RELATED_K articles sharing tags or reports, from each shared tag's/report's nearest neighbours in
    date order — linear in the number of articles, and an edit only touches its neighbours' pages."""
    slugs = [it.slug for it in items]
    keys = [frozenset({("t", tag_slug(t)) for t in it.tags} | {("r", r) for r in it.evidence}) for it in items]
    buckets: dict[tuple[str, str], list[int]] = {}
    pos: list[dict[tuple[str, str], int]] = []
    for i, mine in enumerate(keys):
        where = {}
        for k in mine:
            bucket = buckets.setdefault(k, [])
            where[k] = len(bucket)
            bucket.append(i)
        pos.append(where)
    width = 2 * RELATED_WINDOW + 1
    out: dict[str, list[str]] = {}
    for i, mine in enumerate(keys):
        cands: set[int] = set()
        for k, p in pos[i].items():
            b = buckets[k]
            start = max(0, min(p - RELATED_WINDOW, len(b) - width))  # a full window at the ends too
            cands.update(b[start : start + width])
        cands.discard(i)
        ranked = sorted((-len(mine & keys[j]), abs(j - i), slugs[j]) for j in cands)
        out[slugs[i]] = [s for _, _, s in ranked[:RELATED_K]]
    return out
