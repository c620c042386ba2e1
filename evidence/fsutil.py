"""Atomic file and folder replacement and content hashes shared by every stage."""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_bytes(data: bytes | str) -> str:
    """Hex sha256 of bytes, or of a string's UTF-8 encoding."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def _mode_for(path: Path) -> int:
    """The permissions a new version of `path` gets: the old file's, else what the umask gives a new file.

    mkstemp makes 0600 files; kept as is, drafts and built pages would be unreadable to a web server or a colleague.
    """
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def atomic_write(path: str | Path, data: bytes | str) -> None:
    """Write a file so readers see the old or the new content, never a torn one, even if the process is killed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), _mode_for(path))
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`); False where unsupported."""
    if sys.platform != "linux":
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # musl or an old glibc without the wrapper
        return False
    return renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0


def replace_dir(new: str | Path, target: str | Path, *, keep_old: str | Path | None = None) -> None:
    """Put folder `new` in the place of folder `target`, so that a crash at any moment leaves `target` whole.

    On Linux the two folders trade places in one system call and the old one is then deleted. Elsewhere `target`
    is moved aside to `.<name>.old-<id>` first; `recover_dir` moves it back should the process die in between.
    With `keep_old`, the old folder is moved there instead of deleted (the site build recycles it).
    """
    new, target = Path(new), Path(target)
    if target.exists() and _exchange(new, target):
        if keep_old is None:
            shutil.rmtree(new, ignore_errors=True)  # `new` now holds the old folder
        elif Path(keep_old) != new:
            os.rename(new, keep_old)
        return
    aside = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
    had_old = target.exists()
    if had_old:
        os.rename(target, aside)
    try:
        os.rename(new, target)
    except OSError:
        if had_old:
            os.rename(aside, target)
        raise
    if had_old:
        if keep_old is None:
            shutil.rmtree(aside, ignore_errors=True)
        else:
            os.rename(aside, keep_old)


def recover_dir(target: str | Path) -> None:
    """Clean up after a killed writer of `target`: bring back a folder moved aside mid-swap, delete half-built
    `.<name>.new-*` and leftover `.<name>.old-*` folders. Call it while holding the content root's lock."""
    target = Path(target)
    aside = sorted(target.parent.glob(f".{target.name}.old-*"), key=lambda p: p.stat().st_mtime)
    if aside and not target.exists():
        os.rename(aside.pop(), target)  # the newest one moved aside is the site that was live
    for p in [*aside, *target.parent.glob(f".{target.name}.new-*")]:
        shutil.rmtree(p, ignore_errors=True)
