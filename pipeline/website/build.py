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
from evidence.registry import REGISTRY_NAME, load_registry
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
from pipeline.website.plan import (
    MARKER,
    DraftItem,
    SitePlan,
    apply_plan,
    stage_manifest,
    swap,
    tag_slug,
    write_file,
)

# A no-op build imports only the above: drafts, QC, Markdown, Jinja2 and the page code load when something changed.
if TYPE_CHECKING:
    from pipeline.website.article import ArticleJob
    from qc.draft import Draft
    from qc.index import EvidenceIndex
    from qc.models import FileResult

Echo = Callable[..., None]
_QC_CODE = Path(__file__).resolve().parent.parent.parent / "qc"
_META_KEYS = {"title", "lang", "date", "updated", "tags", "evidence"}  # what listings, links and cache keys need
POOL_MIN = 24  # below this many renders, starting worker processes costs more than it saves
RELATED_K, RELATED_WINDOW = 4, 3
# A file whose mtime or ctime lies this close to the moment it was looked at may change again within the same
# timestamp tick: its stat is not trusted next time (the "racy git" problem), so its content is hashed again.
_RACY_NS = 2_000_000_000


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

    def page_for(self, slug: str) -> Path:
        """The built page of an article; BuildError if it was not built (e.g. not approved)."""
        try:
            return self.articles[slug]
        except KeyError:
            raise BuildError(f"article {slug!r} was not built (not approved?)", path=self.out) from None

    def __str__(self) -> str:
        extra = f"; {len(self.skipped)} not approved ({', '.join(self.skipped[:5])})" if self.skipped else ""
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
    def versions(self) -> dict[str, str]: ...
    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex: ...


Check = Callable[["Draft", "EvidenceIndex", dict[str, str]], "FileResult"]
Approve = Callable[["Draft", "FileResult", "EvidenceIndex", Path], bool]


class StoreEvidence:
    """The evidence store of a content root: cheap version lookups; reports' figures and pages loaded only when
    needed, and only for the reports asked for (checking one edited draft needs just the reports it cites)."""

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

    def __init__(self, index: EvidenceIndex) -> None:
        self._index = index

    def versions(self) -> dict[str, str]:
        return {rid: f"{r.sha256}:{r.version}" for rid, r in self._index.reports.items()}

    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex:
        return self._index


def default_check(draft: Draft, index: EvidenceIndex, severity: dict[str, str]) -> FileResult:
    from qc.check import check_draft

    return check_draft(draft, index, severity=severity or None)


def default_approve(draft: Draft, result: FileResult, index: EvidenceIndex, approvals: Path) -> bool:
    from qc.review import is_approved

    return is_approved(draft, result, index, approvals)


# ---- inputs -----------------------------------------------------------------------------------------------


@dataclass
class _File:
    """A draft or approval file: its name, stat fingerprint and content hash (bytes kept when read this build)."""

    name: str
    path: Path
    fp: tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
    sha: str
    raw: bytes | None = None


def _scan(folder: Path, suffix: str, known: dict[str, list[Any]], max_bytes: int | None = None) -> list[_File]:
    """Every `*<suffix>` file of `folder` by name, hashed only when its stat differs from the one `known` records
    (so an unchanged tree of 1,000 drafts costs 1,000 stat calls, not 1,000 reads)."""
    try:
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if e.name.endswith(suffix))
    except (FileNotFoundError, NotADirectoryError):
        return []
    out: list[_File] = []
    for name in names:
        path = folder / name
        st = os.stat(path)
        if max_bytes is not None and st.st_size > max_bytes:
            from qc.draft import check_article_size

            check_article_size(path, max_bytes)  # before reading: a runaway file must not fill memory
        fp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        prev = known.get(name)
        if prev is not None and tuple(prev[:4]) == fp:
            out.append(_File(name, path, fp, prev[4]))
        else:
            raw = path.read_bytes()
            out.append(_File(name, path, fp, sha256_bytes(raw), raw))
    return out


def _stats(files: list[_File], now_ns: int) -> dict[str, list[Any]]:
    """The fingerprints worth trusting next time (not those of files touched moments ago)."""
    return {f.name: [*f.fp, f.sha] for f in files if max(f.fp[1], f.fp[2]) < now_ns - _RACY_NS}


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

    task: _GateTask = _W["gate"][i]
    sub = _W["index"].subset(task.draft.meta.evidence)
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
    written; only approved articles are built (all of them with `preview`, unapproved ones under a banner).
    """
    return _build(
        root,
        out=out,
        preview=preview,
        echo=echo,
        evidence=StoreEvidence(root.store),
        check=default_check,
        approve=default_approve,
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
    drafts = _scan(root.articles, ".md", known.get("articles") or {}, max_bytes)
    approval_files = _scan(root.approvals, ".json", known.get("approvals") or {})
    approvals = {f.name: f.sha for f in approval_files}
    pdfs = []
    for e in registry:
        f = root.reports / e.file
        st = f.stat() if f.is_file() else None
        pdfs.append((e.id, e.file, st.st_size if st else None, st.st_mtime_ns if st else None))
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
        pdfs,
    )
    stats = {"articles": _stats(drafts, now_ns), "approvals": _stats(approval_files, now_ns)}
    marker = out / MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8").strip() == build_key and quick.get("key") == build_key:
        if stats != known:  # touched but unchanged files: remember their new stat, so they are not read again
            cache.save_quick({**quick, "stats": stats})
        built = ArticlePages(out, quick.get("articles", []))
        summary = BuildSummary(out, 0, len(built), built, list(quick.get("skipped", [])), 0, time.perf_counter() - t0)
        say(f"build: nothing changed since the last build ({len(built)} articles)")
        return summary
    T.BYTECODE[:] = [cache.dir / "jinja"]
    inputs = _Inputs(cache, quick, stats, registry, versions, drafts, approvals, code, qc_code, build_key)
    return _full_build(root, out, preview, say, evidence, check, approve, t0, inputs)


@dataclass
class _Inputs:
    """What a build looked at to decide whether anything changed, handed on to the build that follows."""

    cache: BuildCache
    quick: dict[str, Any]  # the last build's key, its articles and the drafts' trusted stats
    stats: dict[str, Any]  # this build's stats, saved for the next one
    registry: list[Any]
    versions: dict[str, str]
    drafts: list[_File]
    approvals: dict[str, str]  # approval file name → sha256
    code: str  # hash of the page code, templates and static files
    qc_code: str
    build_key: str


def _full_build(
    root: ContentRoot,
    out: Path,
    preview: bool,
    say: Echo,
    evidence: Evidence,
    check: Check,
    approve: Approve,
    t0: float,
    inputs: _Inputs,
) -> BuildSummary:
    from pipeline.brief import SLUG
    from pipeline.website import article, pages, search
    from pipeline.website.contexts import ArticleLink, site_context
    from qc.draft import parse_draft

    cache, registry, versions, code = inputs.cache, inputs.registry, inputs.versions, inputs.code
    max_bytes = root.config.limits.max_article_bytes

    # 1. Every draft, parsed (or its metadata reused when its bytes are unchanged) and validated.
    state = cache.load()
    old: dict[str, Any] = state.get("drafts") or {}
    items: list[DraftItem] = []
    for f in inputs.drafts:
        prev = old.get(f.name)
        if prev and prev.get("sha") == f.sha:
            items.append(DraftItem(f.name, f.path, f.sha, prev["meta"], prev["slug"]))
            continue
        draft = _parse(f.path, f.raw if f.raw is not None else f.path.read_bytes(), max_bytes, parse_draft)
        meta = draft.meta.model_dump(mode="json", include=_META_KEYS)
        items.append(DraftItem(f.name, f.path, f.sha, meta, draft.slug, draft=draft))
    seen: dict[str, Path] = {}
    for it in items:
        if not SLUG.match(it.slug):
            raise InputError(f"slug {it.slug!r} must be lower-case letters, digits and dashes", path=it.path)
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
    gate: list[tuple[DraftItem, _GateTask]] = []
    n_qc = 0
    # A key's inputs beyond the draft's own bytes, hashed once: when they and the draft are unchanged, the draft's
    # key is the last build's (comparing two strings instead of hashing its description, thousands of times).
    qc_salt = cache_key("qc", sorted(versions.items()), severity, inputs.qc_code)
    same_qc = state.get("qc_salt") == qc_salt
    for it in items:
        prev = old.get(it.name) or {}
        if same_qc and prev.get("sha") == it.sha and prev.get("qc"):
            it.qc_key = prev["qc"]
        else:
            ev = sorted(set(it.evidence))
            it.qc_key = cache_key("qc", it.sha, [(r, versions.get(r)) for r in ev], severity, inputs.qc_code)
        it.approval_key = cache_key("approval", it.qc_key, inputs.approvals.get(f"{it.slug}.json"))
        qc_cached = f"{it.qc_key}.json" in results
        if qc_cached and prev.get("approval") == it.approval_key:
            it.cited, it.cited_reports, it.approved = prev["cited"], prev["cited_reports"], bool(prev["approved"])
        else:
            gate.append((it, _GateTask(draft_of(it), cache.result_path(it.qc_key), not qc_cached)))
            n_qc += not qc_cached
    if gate:
        say(f"build: checking {n_qc} draft(s), gating {len(gate)}")
        t_qc = time.perf_counter()
        wanted = {r for it, _ in gate for r in it.evidence}
        _W.update(
            gate=[t for _, t in gate],
            index=evidence.index(wanted),
            check=check,
            approve=approve,
            severity=severity,
            approvals=root.approvals,
        )
        try:
            outcomes = _run(_gate_task, len(gate))
        finally:
            _W.clear()
        for (it, _), (cited, reports, approved) in zip(gate, outcomes, strict=True):
            it.cited, it.cited_reports, it.approved = cited, reports, approved
        say(f"build: checked {n_qc} draft(s) in {time.perf_counter() - t_qc:.2f}s")
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
                "page", it.slug, code, it.qc_key, it.approved, site_key, [info_keys[r] for r in info_ids], rel_sig
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
                it.draft, None, site, infos, links, it.approved, it.meta, (it.path, it.sha, max_bytes)
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
    )
    manifest = plan.manifest()
    stage = out.parent / f".{out.name}.stage"
    old_files = stage_manifest(stage, cache)
    target = stage if old_files is not None else out.parent / f".{out.name}.new-{uuid.uuid4().hex[:8]}"
    try:
        if old_files is None:
            shutil.rmtree(stage, ignore_errors=True)  # unknown contents (a build died while updating it)
        else:
            (stage / MARKER).unlink()  # until the marker is back, this folder counts as half-written
        files = apply_plan(plan, target, old_files)
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
    cache.save_quick({"key": inputs.build_key, "articles": list(articles), "skipped": skipped, "stats": inputs.stats})
    cache.prune("qc", results, {it.qc_key for it in items})
    cache.prune("pages", page_files, {it.page_key for it in built_items} | generated)
    written = len(todo)
    summary = BuildSummary(out, written, len(built_items) - written, articles, skipped, files, time.perf_counter() - t0)
    return summary


def _info_ids(it: DraftItem, report_infos: Mapping[str, Any]) -> list[str]:
    """The reports an article page describes: those its brief names and those its numbers cite."""
    return [r for r in sorted({*it.evidence, *it.cited_reports}) if r in report_infos]


def _reread(path: Path, sha: str, max_bytes: int) -> Draft:
    """A draft whose bytes were hashed earlier in this build, parsed (and refused if it changed since)."""
    from qc.draft import parse_draft

    raw = path.read_bytes()
    if sha256_bytes(raw) != sha:
        raise InputError("the draft changed while the site was being built; build again", path=path)
    return _parse(path, raw, max_bytes, parse_draft)


def _parse(path: Path, raw: bytes, max_bytes: int, parse_draft: Callable[..., Draft]) -> Draft:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text: {e}", path=path) from e
    return parse_draft(text, path, max_bytes=max_bytes)


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
