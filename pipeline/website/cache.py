"""The build cache under `.publish/site/`: cache keys, content-addressed files, and the state between builds."""

from __future__ import annotations

import json
import marshal
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence.fsutil import sha256_bytes
from pipeline.errors import BuildError
from pipeline.website import templates as T

if TYPE_CHECKING:
    from pipeline.config import ContentRoot
    from qc.models import FileResult

STATE_VERSION = "7"  # 7: QC results carry evidence strength; drafts name their scope in order
PACKAGE = Path(__file__).resolve().parent  # every module of the site build: all of it is in the page cache key


def cache_key(*parts: Any) -> str:
    """A cache key: the hash of the parts' repr (built from str, int, tuple, list, dict and dataclass values)."""
    return sha256_bytes(repr(parts))[:32]


def files_hash(paths: Iterable[Path]) -> str:
    """A hash of the files' names and contents."""
    return cache_key(*[(str(p.name), sha256_bytes(p.read_bytes())) for p in sorted(paths) if p.is_file()])


def tree_files(root: Path, pattern: str = "*") -> list[Path]:
    # Bytecode caches are not sources: a fresh .pyc must not change a build key.
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts)


def code_hash() -> str:
    """The hash of everything that shapes a page: every file of this package, the site templates and static files
    (whole folders, so a new module or template can never leave stale pages behind)."""
    return files_hash([*tree_files(PACKAGE, "*.py"), *tree_files(T.SITE_TEMPLATES), *tree_files(T.STATIC)])


def cited_lines(result: FileResult) -> tuple[str, list[str]]:
    """The figures a draft's numbers rest on, as sorted `report\\tfigure` lines, and the reports they belong to
    in order of first citation. A failed number's nearest figure is not cited."""
    from qc.models import OK_STATUSES

    pairs = [(n.source.report, n.source.figure) for n in result.numbers if n.source and n.status in OK_STATUSES]
    return "\n".join(sorted({f"{r}\t{f}" for r, f in pairs})), list(dict.fromkeys(r for r, _ in pairs))


class BuildCache:
    """Derived build state under `.publish/site/`: per-draft metadata and keys, QC results, rendered pages.

    `quick` (the last build's key and the drafts' stat fingerprints) is all a no-op build reads; `state` holds the
    rest. Both are plain data in marshal format, which reads and writes 5–10× faster than JSON (what an edit waits
    for); the version stamp names the Python version, as marshal's format may change with it. Cache files are
    content-addressed and replaced whole, without fsync: all of it is derived data.
    """

    VERSION = f"{STATE_VERSION}:py{sys.version_info[0]}.{sys.version_info[1]}"

    def __init__(self, root: ContentRoot) -> None:
        # Shared by preview and production builds: a page's key holds its approval and the site's preview flag, so a
        # preview page can never be linked into the public site.
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
        cache_write(self.state_path, marshal.dumps({"version": self.VERSION, **state}))

    def save_quick(self, quick: dict[str, Any]) -> None:
        cache_write(self.quick_path, marshal.dumps({"version": self.VERSION, **quick}))

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
            text = cited_lines(FileResult.model_validate_json(self.result_path(key).read_bytes()))[0]
        return [tuple(line.split("\t", 1)) for line in text.split("\n") if line]  # type: ignore[misc]

    def page_path(self, key: str) -> Path:
        return self._pages / f"{key}.html"

    def page_file(self, key: str) -> str:
        """`page_path` as a plain string: the plan of a big site names thousands of them."""
        return f"{self._pages_str}/{key}.html"

    def pdf_path(self, sha: str) -> Path:
        """A public report's checked bytes, by their content hash."""
        return self._pages / f"{sha}.pdf"

    def offsets_path(self, key: str) -> Path:
        """Where each article's entry lies in a cached search.json, so the next one is spliced, not rebuilt."""
        return self._pages / f"{key}.idx"

    def manifest_path(self, build_key: str) -> Path:
        return self.dir / "manifests" / f"{build_key}.json"

    def manifest(self, build_key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.manifest_path(build_key).read_bytes())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def save_manifest(self, build_key: str, files: dict[str, Any]) -> None:
        cache_write(self.manifest_path(build_key), json.dumps(files, ensure_ascii=False))

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


def cache_write(path: Path, data: str | bytes) -> None:
    """Replace a cache file whole (no fsync: the cache is derived data, rebuilt if ever lost)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        try:
            tmp.write_bytes(raw)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(raw)
        os.replace(tmp, path)
    except OSError as e:  # a full disk, a read-only folder: name the file; the live site is not touched
        tmp.unlink(missing_ok=True)
        raise BuildError(f"cannot write the build cache: {e.strerror or e}", path=path) from e
