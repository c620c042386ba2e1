"""The build's input files: only regular files, read within a size bound, hashed only when their stat changed."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence.errors import InputError
from evidence.fsutil import sha256_bytes

# A file whose mtime or ctime lies this close to the moment it was looked at may change again within the same
# timestamp tick: its stat is not trusted next time (the "racy git" problem), so its content is hashed again.
RACY_NS = 2_000_000_000


@dataclass
class SourceFile:
    """A draft, approval or report file: its name, stat fingerprint and content hash (bytes kept when read)."""

    name: str
    path: Path
    fp: tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
    sha: str
    raw: bytes | None = None


def _regular(path: Path, what: str) -> os.stat_result:
    """The stat of `path`, which must be a regular file (through symlinks): never a device, FIFO or folder."""
    try:
        st = os.stat(path)
    except FileNotFoundError as e:
        raise InputError(f"{what} not found", path=path) from e
    except OSError as e:
        raise InputError(f"cannot read {what}: {e.strerror or e}", path=path) from e
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device, FIFO or socket)"
        raise InputError(f"{what} is {kind}; only regular files are read", path=path)
    return st


def read_regular(path: Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `max_bytes`, read without blocking on a FIFO or a device swapped in."""
    _regular(path, what)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputError(f"cannot read {what}: {e.strerror or e}", path=path) from e
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the stat and the open
            raise InputError(f"{what} is not a regular file; only regular files are read", path=path)
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise InputError(f"{what} is over the limit of {max_bytes:,} bytes", path=path)
        return b"".join(chunks)
    except OSError as e:
        if e.errno == errno.EISDIR:
            raise InputError(f"{what} is a folder", path=path) from e
        raise InputError(f"cannot read {what}: {e.strerror or e}", path=path) from e
    finally:
        os.close(fd)


def scan(
    folder: Path, suffix: str, known: dict[str, list[Any]], max_bytes: int, what: str = "file"
) -> list[SourceFile]:
    """Every `*<suffix>` file of `folder` by name, hashed only when its stat differs from the one `known` records
    (so an unchanged tree of 1,000 drafts costs 1,000 stat calls, not 1,000 reads). Anything but a regular file of
    at most `max_bytes` (a folder named `x.md`, a FIFO, a symlink to /dev/zero) is an InputError naming it."""
    try:
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if e.name.endswith(suffix))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise InputError(f"cannot list the folder: {e.strerror or e}", path=folder) from e
    return [fingerprint(folder / name, name, known, max_bytes, what) for name in names]


def fingerprint(path: Path, name: str, known: dict[str, list[Any]], max_bytes: int, what: str) -> SourceFile:
    """One file's stat fingerprint and content hash (its bytes read only when the stat is not the known one)."""
    st = _regular(path, what)
    if st.st_size > max_bytes:
        if what == "draft":
            from qc.draft import check_article_size

            check_article_size(path, max_bytes)  # the limit's own message, naming its publish.toml setting
        raise InputError(f"{what} is {st.st_size:,} bytes, over the limit of {max_bytes:,}", path=path)
    fp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    prev = known.get(name)
    if prev is not None and tuple(prev[:4]) == fp:
        return SourceFile(name, path, fp, prev[4])
    raw = read_regular(path, max_bytes, what)
    return SourceFile(name, path, fp, sha256_bytes(raw), raw)


def trusted_stats(files: list[SourceFile], now_ns: int) -> dict[str, list[Any]]:
    """The fingerprints worth trusting next time (not those of files touched moments ago)."""
    return {f.name: [*f.fp, f.sha] for f in files if max(f.fp[1], f.fp[2]) < now_ns - RACY_NS}
