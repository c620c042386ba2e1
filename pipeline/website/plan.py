"""The site plan: every draft the build tracks, every file of the new site, and writing the plan into place."""

from __future__ import annotations

import os
import re
import shutil
import stat
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from evidence.fsutil import replace_dir, sha256_bytes
from pipeline.errors import BuildError

if TYPE_CHECKING:
    from pipeline.website.cache import BuildCache
    from qc.draft import Draft

MARKER = ".proofpress-build"  # in the output: the build key, and proof the folder is ours to replace


@lru_cache(maxsize=65536)
def tag_slug(tag: str) -> str:
    """A tag's folder name: NFKC, lower case, runs of anything but letters and digits → '-'."""
    s = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFKC", tag).lower()).strip("-")
    return s or "tag-" + sha256_bytes(tag)[:8]


@dataclass
class DraftItem:
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
    served: str = ""  # the approval's date when the build serves the approved text, not the edited draft

    # Read from `meta` once: listings, keys and related articles ask for them thousands of times per build.
    date: str = field(init=False)
    tags: tuple[str, ...] = field(init=False)
    evidence: tuple[str, ...] = field(init=False)
    names: tuple[str, ...] = field(init=False)  # every report the draft names (brief and citation markers)

    def __post_init__(self) -> None:
        self.date = str(self.meta["date"])
        self.names = tuple(self.meta.get("names") or self.meta.get("evidence") or ())
        self.tags = tuple(self.meta.get("tags") or ())
        self.evidence = tuple(self.meta.get("evidence") or ())


class PlannedFile(NamedTuple):
    """One file of the new site: a fingerprint of its content, where the content comes from, and how to write it
    ("link" a content-addressed cache file, or "copy" a source file)."""

    fingerprint: str
    src: Path | str
    how: str


class SitePlan:
    """Every file of the new site by its path: what the build writes, and the manifest the next build compares."""

    def __init__(self) -> None:
        self.files: dict[str, PlannedFile] = {}  # site-relative path → the file

    def link(self, rel: str, src: Path | str, fingerprint: str) -> None:
        self.files[rel] = PlannedFile(fingerprint, src, "link")

    def copy(self, rel: str, src: Path) -> None:
        st = src.stat()
        self.files[rel] = PlannedFile(f"copy:{src}:{st.st_size}:{st.st_mtime_ns}", src, "copy")

    def manifest(self) -> dict[str, str]:
        return {rel: fp for rel, (fp, _, _) in self.files.items()}


def _put(src: Path | str, dst: Path, how: str) -> None:
    # Copied, never hard-linked, whatever `how` says: an edit of a published file must not reach the cache (and
    # through it later builds), so the published folder shares no inode with the cache.
    shutil.copyfile(src, dst)


def apply_plan(plan: SitePlan, dest: Path, old: dict[str, str] | None) -> int:
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


def swap(new: Path, out: Path, stage: Path) -> None:
    """Put the new site in place in one atomic exchange where the OS has it (a crash leaves one of them whole);
    the site it replaces becomes `stage`, the starting point of the next build."""
    try:
        replace_dir(new, out, keep_old=stage)
    except OSError as e:
        if new != stage:
            shutil.rmtree(new, ignore_errors=True)
        raise BuildError(f"cannot move the new site into place: {e}", path=out) from e


def written_manifest(plan: SitePlan, dest: Path) -> dict[str, list[Any]]:
    """The manifest of a site folder just written: per file its fingerprint and the stat it was left with, so the
    next build can tell which files were touched since (size, mtime, ctime and inode: ctime cannot be set back)."""
    out: dict[str, list[Any]] = {}
    for rel, f in plan.files.items():
        st = os.lstat(dest / rel)
        out[rel] = [f.fingerprint, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    return out


def stage_manifest(stage: Path, cache: BuildCache) -> dict[str, str] | None:
    """What the recycled site folder holds (path → fingerprint), verified file by file; None when it cannot be
    trusted at all. A file not in the manifest (a stray report someone saved there) or touched since it was written
    (edited, replaced, a symlink) is deleted, so the build writes it anew or leaves it out; a deleted one is missing
    from the result, so it is written again."""
    try:
        key = (stage / MARKER).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    recorded = cache.manifest(key)
    if recorded is None:
        return None
    trusted: dict[str, str] = {}
    try:
        for dirpath, dirnames, filenames in os.walk(stage):
            base = Path(dirpath)
            for d in [d for d in dirnames if (base / d).is_symlink()]:
                (base / d).unlink()
                dirnames.remove(d)
            for name in filenames:
                path = base / name
                rel = path.relative_to(stage).as_posix()
                if rel == MARKER:
                    continue
                rec = recorded.get(rel)
                st = os.lstat(path)
                if (
                    isinstance(rec, list)
                    and len(rec) == 5
                    and stat.S_ISREG(st.st_mode)
                    and rec[1:] == [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
                ):
                    trusted[rel] = rec[0]
                else:
                    path.unlink()
    except OSError:
        return None
    return trusted


def write_file(path: Path, data: str | bytes) -> None:
    """Write a file of the site being made (its folder created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
