"""The static site: every approved article with its numbers' provenance, rendered to a temp dir and swapped in."""

from __future__ import annotations

import gc
import json
import marshal
import os
import re
import shutil
import sys
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from evidence.errors import InputError, PublishError
from evidence.fsutil import recover_dir, replace_dir, sha256_bytes
from evidence.registry import REGISTRY_NAME, load_registry
from evidence.workers import die_with
from pipeline.config import CONFIG_NAME, ContentRoot
from pipeline.errors import BuildError
from pipeline.resources import templates_dir

# A no-op build imports only the above: drafts, QC, Markdown, Jinja2 and the page code load when something changed.
if TYPE_CHECKING:
    import jinja2

    from pipeline.pages import ArticleJob
    from qc.draft import Draft
    from qc.index import EvidenceIndex
    from qc.models import FileResult

Echo = Callable[..., None]
TEMPLATES = templates_dir()
SITE_TEMPLATES = TEMPLATES / "site"
STATIC = TEMPLATES / "static"
_HERE = Path(__file__).resolve().parent
_CODE = [_HERE / "build.py", _HERE / "pages.py", _HERE / "render.py", _HERE / "charts.py"]
_QC_CODE = _HERE.parent / "qc"
MARKER = ".proofpress-build"  # in the output: the build key, and proof the folder is ours to replace
STATE_VERSION = "6"
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


# ---- helpers ------------------------------------------------------------------------------------------------


def _h(*parts: Any) -> str:
    """A cache key: the hash of the parts' repr (built from str, int, tuple, list, dict and dataclass values)."""
    return sha256_bytes(repr(parts))[:32]


def _files_hash(paths: Iterable[Path]) -> str:
    return _h(*[(str(p.name), sha256_bytes(p.read_bytes())) for p in sorted(paths) if p.is_file()])


def _tree_files(root: Path, pattern: str = "*") -> list[Path]:
    # Bytecode caches are not sources: a fresh .pyc must not change a build key.
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts)


@lru_cache(maxsize=65536)
def tag_slug(tag: str) -> str:
    """A tag's folder name: NFKC, lower case, runs of anything but letters and digits → '-'."""
    s = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFKC", tag).lower()).strip("-")
    return s or "tag-" + sha256_bytes(tag)[:8]


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


# ---- templates ----------------------------------------------------------------------------------------------

_ENV: dict[tuple[str, str | None], jinja2.Environment] = {}
_BYTECODE: list[Path] = []  # where compiled templates are cached (set per build: the content root's state folder)


def _env() -> jinja2.Environment:
    import jinja2

    # SITE_TEMPLATES is read at call time, so a test can point the build at other templates.
    cache_dir = str(_BYTECODE[-1]) if _BYTECODE else None
    key = (str(SITE_TEMPLATES), cache_dir)
    if key not in _ENV:
        bcc = None
        if cache_dir is not None:
            os.makedirs(cache_dir, exist_ok=True)
            bcc = _bytecode_cache(cache_dir)
        _ENV[key] = jinja2.Environment(
            loader=jinja2.FileSystemLoader(key[0]),
            undefined=jinja2.StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            bytecode_cache=bcc,
        )
    return _ENV[key]


def _bytecode_cache(directory: str) -> Any:
    """Compiled templates cached on disk (the class is made on first use, so jinja2 loads lazily)."""
    import jinja2

    class BytecodeCache(jinja2.FileSystemBytecodeCache):
        """Compiled templates on disk (Jinja checks each against its source); an unreadable entry is compiled anew."""

        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # a damaged cache file is no reason to fail a build
                bucket.reset()

    return BytecodeCache(directory)


def _template_error(e: Exception) -> BuildError:
    """A Jinja error as a BuildError naming the template file and line."""
    import jinja2

    if isinstance(e, jinja2.TemplateSyntaxError):
        return BuildError(f"template error: {e.message}", path=e.filename or e.name, line=e.lineno)
    tb = e.__traceback__
    where: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if fn.startswith(str(TEMPLATES)) or fn.endswith((".html", ".xml", ".txt")):
            where = (fn, tb.tb_lineno)
        tb = tb.tb_next
    return BuildError(f"template error: {e}", path=where[0], line=where[1])


def _render_template(name: str, **ctx: Any) -> str:
    import jinja2

    try:
        return _env().get_template(name).render(**ctx)
    except jinja2.TemplateError as e:
        raise _template_error(e) from e


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


def _cited(result: FileResult) -> tuple[str, list[str]]:
    """The figures a draft's numbers rest on, as sorted `report\\tfigure` lines, and the reports they belong to
    in order of first citation. A failed number's nearest figure is not cited."""
    from qc.models import OK_STATUSES

    pairs = [(n.source.report, n.source.figure) for n in result.numbers if n.source and n.status in OK_STATUSES]
    return "\n".join(sorted({f"{r}\t{f}" for r, f in pairs})), list(dict.fromkeys(r for r, _ in pairs))


def _gate_task(i: int) -> tuple[str, list[str], bool]:
    from qc.models import FileResult
    from qc.scope import article_index

    task: _GateTask = _W["gate"][i]
    sub = article_index(task.draft, _W["index"])
    result = None
    if not task.need_qc:
        try:
            result = FileResult.model_validate_json(task.qc_path.read_bytes())
        except (OSError, ValueError):  # a damaged cache entry: check again
            result = None
    if result is None:
        result = _W["check"](task.draft, sub, _W["severity"])
        _cache_write(task.qc_path, result.model_dump_json())
        task.qc_path.with_suffix(".nums").unlink(missing_ok=True)  # the pages' copy of its numbers, made again
    cited, reports = _cited(result)
    _cache_write(task.qc_path.with_suffix(".cited"), cited)  # for the evidence library, read only when it changes
    return sha256_bytes(cited)[:16], reports, bool(_W["approve"](task.draft, result, sub, _W["approvals"]))


def _render_task(i: int) -> tuple[dict[str, str], bytes]:
    """One article page, written to the page cache; its plain texts and its search entry go back to the build,
    which writes the entries into the search shards (one file per shard, not one more per page)."""
    from pipeline.pages import load_numbers, render_article

    job, qc_path, page_path = _W["render"][i]
    if job.draft is None:
        job.draft = _reread(*job.source)
    if job.numbers is None:
        job.numbers = load_numbers(qc_path)
    html, texts, fragment = render_article(job)
    _cache_write(page_path, html)
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


@dataclass
class _Item:
    """One draft as the build tracks it (metadata as plain JSON data, so unchanged drafts need no parsing)."""

    name: str
    path: Path
    sha: str
    meta: dict[str, Any]
    slug: str
    draft: Draft | None = None
    qc_key: str = ""
    cited: str = ""  # hash of the figures its numbers rest on (listed in the QC cache's `<qc_key>.cited`)
    cited_reports: list[str] = field(default_factory=list)
    approval_key: str = ""
    approved: bool = False
    page_key: str = ""
    texts: dict[str, str] = field(default_factory=dict)  # plain title and answer, for listings and feeds
    entry: bytes | None = None  # its search entry, when rendered by this build (else in the last build's shards)

    # Read from `meta` once: listings, keys and related articles ask for them thousands of times per build.
    date: str = field(init=False)
    tags: tuple[str, ...] = field(init=False)
    evidence: tuple[str, ...] = field(init=False)
    scope: tuple[str, ...] = field(init=False)  # every report it names (qc.scope.article_reports)

    def __post_init__(self) -> None:
        self.date = str(self.meta["date"])
        self.tags = tuple(self.meta.get("tags") or ())
        self.evidence = tuple(self.meta.get("evidence") or ())
        self.scope = tuple(self.meta.get("scope") or self.evidence)


class _Cache:
    """Derived build state under `.publish/site/`: per-draft metadata and keys, QC results, rendered pages.

    `quick` (the last build's key and the drafts' stat fingerprints) is all a no-op build reads; `state` holds the
    rest. Both are plain data in marshal format, which reads and writes 5–10× faster than JSON (what an edit waits
    for); the version stamp names the Python version, as marshal's format may change with it. Cache files are
    content-addressed and replaced whole, without fsync: all of it is derived data.
    """

    VERSION = f"{STATE_VERSION}:py{sys.version_info[0]}.{sys.version_info[1]}"

    def __init__(self, root: ContentRoot) -> None:
        self.dir = root.state / "site"
        self.state_path = self.dir / "state.marshal"
        self.quick_path = self.dir / "quick.marshal"
        self._qc, self._pages = self.dir / "qc", self.dir / "pages"
        self._pages_str = str(self._pages)

    @classmethod
    def _read(cls, path: Path) -> dict[str, Any]:
        try:
            data = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):  # missing, damaged or foreign: build without it
            return {}
        return data if isinstance(data, dict) and data.get("version") == cls.VERSION else {}

    def load(self) -> dict[str, Any]:
        return self._read(self.state_path)

    def quick(self) -> dict[str, Any]:
        return self._read(self.quick_path)

    def save_state(self, state: dict[str, Any]) -> None:
        _cache_write(self.state_path, marshal.dumps({"version": self.VERSION, **state}))

    def save_quick(self, quick: dict[str, Any]) -> None:
        _cache_write(self.quick_path, marshal.dumps({"version": self.VERSION, **quick}))

    def listing(self, sub: str) -> set[str]:
        """File names in a cache folder: one directory read instead of a stat per cached file."""
        try:
            return set(os.listdir(self.dir / sub))
        except (FileNotFoundError, NotADirectoryError):
            return set()

    def result_path(self, key: str) -> Path:
        return self._qc / f"{key}.json"

    def cited(self, key: str) -> list[tuple[str, str]]:
        """(report, figure) of every figure the numbers of QC result `key` rest on."""
        from qc.models import FileResult

        try:
            text = (self._qc / f"{key}.cited").read_text(encoding="utf-8")
        except OSError:  # written by an interrupted build's gate, or lost: the result itself says
            text = _cited(FileResult.model_validate_json(self.result_path(key).read_bytes()))[0]
        return [tuple(line.split("\t", 1)) for line in text.split("\n") if line]  # type: ignore[misc]

    def page_path(self, key: str) -> Path:
        return self._pages / f"{key}.html"

    def page_file(self, key: str) -> str:
        """`page_path` as a plain string: the plan of a big site names thousands of them."""
        return f"{self._pages_str}/{key}.html"

    def offsets_path(self, key: str) -> Path:
        """Where each article's entry lies in a cached search.json, so the next one is spliced, not rebuilt."""
        return self._pages / f"{key}.idx"

    def manifest_path(self, build_key: str) -> Path:
        return self.dir / "manifests" / f"{build_key}.json"

    def manifest(self, build_key: str) -> dict[str, str] | None:
        try:
            data = json.loads(self.manifest_path(build_key).read_bytes())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def save_manifest(self, build_key: str, files: dict[str, str]) -> None:
        _cache_write(self.manifest_path(build_key), json.dumps(files, ensure_ascii=False))

    def keep_manifests(self, keep: set[str]) -> None:
        for name in self.listing("manifests"):
            if name.endswith(".json") and name[: -len(".json")] not in keep:
                (self.dir / "manifests" / name).unlink(missing_ok=True)

    def prune(self, sub: str, names: set[str], keep: set[str]) -> None:
        """Delete the entries of cache folder `sub` (its file `names`, listed earlier in the build) whose key is not
        kept: what the last build used and this one no longer does, and leftovers of an interrupted build."""
        for name in names:
            if name.split(".", 1)[0] not in keep and not name.startswith("."):
                (self.dir / sub / name).unlink(missing_ok=True)


def _guard_out(root: ContentRoot, out: Path) -> None:
    src = root.path.resolve()
    for p in (src, root.reports.resolve(), root.articles.resolve(), root.approvals.resolve(), root.state.resolve()):
        if out == p or p.is_relative_to(out) or (out.is_relative_to(p) and p != src):
            raise InputError(
                "the output folder would replace the content root's own files; choose another --out", path=out
            )
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise InputError(f"{out} exists and was not built by Proofpress; remove it or choose another --out", path=out)


def _cache_write(path: Path, data: str | bytes) -> None:
    """Replace a cache file whole (no fsync: the cache is derived data, rebuilt if ever lost)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        tmp.write_bytes(raw)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(raw)
    os.replace(tmp, path)


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def _link_or_copy(src: Path | str, dst: Path, *, mkdir: bool = True) -> None:
    if mkdir:
        dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)  # cached pages are immutable (content-addressed), so sharing their inode is safe
    except OSError:
        shutil.copyfile(src, dst)


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


def _code_hash() -> str:
    return _files_hash([*_CODE, *_tree_files(SITE_TEMPLATES), *_tree_files(STATIC)])


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
    cache = _Cache(root)
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
    code = _code_hash()
    qc_code = _files_hash(_tree_files(_QC_CODE, "*.py"))  # sources only: .pyc files change on first import
    config_bytes = (root.path / CONFIG_NAME).read_bytes() if (root.path / CONFIG_NAME).is_file() else b""
    build_key = _h(
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
    _BYTECODE[:] = [cache.dir / "jinja"]
    inputs = _Inputs(cache, quick, stats, registry, versions, drafts, approvals, code, qc_code, build_key)
    return _full_build(root, out, preview, say, evidence, check, approve, t0, inputs)


@dataclass
class _Inputs:
    """What a build looked at to decide whether anything changed, handed on to the build that follows."""

    cache: _Cache
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
    from pipeline import pages
    from pipeline.brief import SLUG
    from qc.draft import parse_draft
    from qc.scope import article_reports, require_known

    cache, registry, versions, code = inputs.cache, inputs.registry, inputs.versions, inputs.code
    max_bytes = root.config.limits.max_article_bytes
    known = {e.id for e in registry}

    # 1. Every draft, parsed (or its metadata reused when its bytes are unchanged) and validated.
    state = cache.load()
    old: dict[str, Any] = state.get("drafts") or {}
    items: list[_Item] = []
    for f in inputs.drafts:
        prev = old.get(f.name)
        if prev and prev.get("sha") == f.sha:
            items.append(_Item(f.name, f.path, f.sha, prev["meta"], prev["slug"]))
            continue
        draft = _parse(f.path, f.raw if f.raw is not None else f.path.read_bytes(), max_bytes, parse_draft)
        meta = draft.meta.model_dump(mode="json", include=_META_KEYS)
        require_known(draft, known)
        meta["scope"] = article_reports(draft)  # the reports QC loads: evidence and every marker's (qc.scope)
        items.append(_Item(f.name, f.path, f.sha, meta, draft.slug, draft=draft))
    seen: dict[str, Path] = {}
    for it in items:
        if not SLUG.match(it.slug):
            raise InputError(f"slug {it.slug!r} must be lower-case letters, digits and dashes", path=it.path)
        if it.slug in seen:
            raise InputError(f"slug {it.slug!r} is also used by {seen[it.slug].name}", path=it.path)
        seen[it.slug] = it.path

    def draft_of(it: _Item) -> Draft:
        if it.draft is None:
            it.draft = _reread(it.path, it.sha, max_bytes)
        return it.draft

    # 2. QC, reused when the draft, its reports' versions, the severity settings and QC's code are unchanged.
    severity: dict[str, str] = dict(root.config.qc.severity)

    # 3. The approval gate, reused when QC's result and the approval file are unchanged.
    results = cache.listing("qc")
    gate: list[tuple[_Item, _GateTask]] = []
    n_qc = 0
    # A key's inputs beyond the draft's own bytes, hashed once: when they and the draft are unchanged, the draft's
    # key is the last build's (comparing two strings instead of hashing its description, thousands of times).
    qc_salt = _h("qc", sorted(versions.items()), severity, inputs.qc_code)
    same_qc = state.get("qc_salt") == qc_salt
    for it in items:
        prev = old.get(it.name) or {}
        if same_qc and prev.get("sha") == it.sha and prev.get("qc"):
            it.qc_key = prev["qc"]
        else:
            ev = sorted(set(it.scope))
            it.qc_key = _h("qc", it.sha, [(r, versions.get(r)) for r in ev], severity, inputs.qc_code)
        it.approval_key = _h("approval", it.qc_key, inputs.approvals.get(f"{it.slug}.json"))
        qc_cached = f"{it.qc_key}.json" in results
        if qc_cached and prev.get("approval") == it.approval_key:
            it.cited, it.cited_reports, it.approved = prev["cited"], prev["cited_reports"], bool(prev["approved"])
        else:
            gate.append((it, _GateTask(draft_of(it), cache.result_path(it.qc_key), not qc_cached)))
            n_qc += not qc_cached
    if gate:
        say(f"build: checking {n_qc} draft(s), gating {len(gate)}")
        t_qc = time.perf_counter()
        wanted = {r for it, _ in gate for r in it.scope}
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
    site = pages.site_context(root.config.site, preview, _files_hash(_tree_files(STATIC))[:10])
    report_infos = {e.id: pages.ReportInfo(e.id, e.title, e.date.isoformat(), e.access, e.file) for e in registry}
    site_key = _h(site)
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
    shards = pages.SearchShards(cache, state.get("search"), page_files)
    todo: list[tuple[_Item, ArticleJob]] = []
    links_made: dict[str, pages.ArticleLink] = {}

    def related_link(slug: str) -> pages.ArticleLink:
        # Each article is some seven others' related link: made once, shared (links are immutable).
        if slug not in links_made:
            links_made[slug] = pages.article_link(by_slug[slug], "../../", with_answer=False)
        return links_made[slug]

    page_salt = _h("page", code, site_key, sorted(info_keys.items()))
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
            it.page_key = _h(
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
            job = pages.ArticleJob(
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
    plan = _Plan()
    for it in built_items:
        plan.link(f"articles/{it.slug}/index.html", cache.page_file(it.page_key), it.page_key)
    generated, search = pages.plan_site(
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
    old_files = _stage_manifest(stage, cache)
    target = stage if old_files is not None else out.parent / f".{out.name}.new-{uuid.uuid4().hex[:8]}"
    try:
        if old_files is None:
            shutil.rmtree(stage, ignore_errors=True)  # unknown contents (a build died while updating it)
        else:
            (stage / MARKER).unlink()  # until the marker is back, this folder counts as half-written
        files = _apply(plan, target, old_files)
        _write(target / MARKER, inputs.build_key + "\n")
    except BaseException as e:
        if old_files is None:
            shutil.rmtree(target, ignore_errors=True)
        if isinstance(e, PublishError):
            raise
        if isinstance(e, OSError):
            raise BuildError(f"cannot write the site: {e}", path=getattr(e, "filename", None) or target) from e
        raise
    cache.save_manifest(inputs.build_key, manifest)
    _swap(target, out, stage)
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
            "search": search,
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


def _info_ids(it: _Item, report_infos: Mapping[str, Any]) -> list[str]:
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


def _swap(new: Path, out: Path, stage: Path) -> None:
    """Put the new site in place in one atomic exchange where the OS has it (a crash leaves one of them whole);
    the site it replaces becomes `stage`, the starting point of the next build."""
    try:
        replace_dir(new, out, keep_old=stage)
    except OSError as e:
        if new != stage:
            shutil.rmtree(new, ignore_errors=True)
        raise BuildError(f"cannot move the new site into place: {e}", path=out) from e


def _stage_manifest(stage: Path, cache: _Cache) -> dict[str, str] | None:
    """What the recycled site folder holds (path → fingerprint), or None when it cannot be trusted."""
    try:
        key = (stage / MARKER).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return cache.manifest(key)


def _related_inputs(meta: dict[str, Any]) -> tuple[str, list[str], list[str]]:
    """What of an article decides its related articles (besides its place in date order)."""
    return str(meta.get("date")), list(meta.get("tags") or []), list(meta.get("evidence") or [])


def _related(items: list[_Item]) -> dict[str, list[str]]:
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


class _Plan:
    """Every file of the new site: its path, a fingerprint of its content, and where its content comes from."""

    def __init__(self) -> None:
        # rel → (fingerprint, source file, how to write it: "link" a content-addressed cache file or "copy")
        self.files: dict[str, tuple[str, Path | str, str]] = {}

    def link(self, rel: str, src: Path | str, fingerprint: str) -> None:
        self.files[rel] = (fingerprint, src, "link")

    def copy(self, rel: str, src: Path) -> None:
        st = src.stat()
        self.files[rel] = (f"copy:{src}:{st.st_size}:{st.st_mtime_ns}", src, "copy")

    def manifest(self) -> dict[str, str]:
        return {rel: fp for rel, (fp, _, _) in self.files.items()}


def _put(src: Path | str, dst: Path, how: str) -> None:
    if how == "link":
        _link_or_copy(src, dst, mkdir=False)
    else:
        shutil.copyfile(src, dst)


def _apply(plan: _Plan, dest: Path, old: dict[str, str] | None) -> int:
    """Write the plan into a fresh folder (`old` None), or bring a recycled site folder whose files `old`
    describes up to date by touching only what differs. Returns how many files were written."""
    made: set[str] = set()

    def parent_of(rel: str) -> None:
        parent = rel.rpartition("/")[0]
        if parent not in made:
            (dest / parent).mkdir(parents=True, exist_ok=True)
            made.add(parent)

    written = 0
    if old is None:
        dest.mkdir(parents=True)
        made.add("")
        for rel, (_, src, how) in plan.files.items():
            parent_of(rel)
            _put(src, dest / rel, how)
            written += 1
        return written
    for rel in old.keys() - plan.files.keys():
        path = dest / rel
        path.unlink(missing_ok=True)
        for parent in path.parents:  # an article or tag that is gone leaves no empty folder behind
            if parent == dest or any(parent.iterdir()):
                break
            parent.rmdir()
    for rel, (fp, src, how) in plan.files.items():
        if old.get(rel) == fp:
            continue
        path = dest / rel
        parent_of(rel)
        part = path.with_name(f".{path.name}.part")
        part.unlink(missing_ok=True)
        _put(src, part, how)
        os.replace(part, path)
        written += 1
    return written
