"""One publish run per content root at a time: an OS file lock on `.publish/publish.lock`."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from evidence.errors import InputError, LockedError

DEFAULT_WAIT = 30.0
WAIT_ENV = "PROOFPRESS_LOCK_WAIT"  # seconds a second run waits for the first (tests and CI set it low)
POLL = 0.05  # seconds between attempts while waiting


def _default_wait() -> float:
    try:
        return max(0.0, float(os.environ.get(WAIT_ENV, DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


# The OS lock itself, taken directly: the filelock package does the same but costs ~10 ms of every command's
# start-up (it imports logging, asyncio helpers and more), and a no-op build has 0.3 s in all.
if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def _acquire(fd: int, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while not _try_lock(fd):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


@contextmanager
def root_lock(state_dir: Path, wait: float | None = None, echo: Callable[..., None] | None = None) -> Iterator[None]:
    """Hold the content root's lock; a second run says it waits, waits up to `wait` seconds, then fails clearly.

    The lock belongs to the open file (flock), so a run killed with SIGKILL releases it: no stale lock to delete.
    """
    wait = _default_wait() if wait is None else wait
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as e:
        raise InputError("the content root's state folder is a file; delete it (it is rebuilt)", path=state_dir) from e
    except OSError as e:
        raise InputError(f"cannot make the state folder: {e.strerror or e}", path=state_dir) from e
    path = state_dir / "publish.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except IsADirectoryError as e:
        raise InputError("the lock file is a folder; delete it (it is made again)", path=path) from e
    except OSError as e:
        raise InputError(f"cannot open the lock file: {e.strerror or e}", path=path) from e
    try:
        if not _try_lock(fd):
            if echo is not None:
                echo(f"another publish run is using this content root; waiting up to {wait:.0f}s for it…", err=True)
            if not _acquire(fd, wait):
                raise LockedError(f"another publish run holds {path}; waited {wait:.0f}s — try again when it ends")
        yield
    finally:
        os.close(fd)  # closing the file releases the lock
