"""One publish run per content root at a time: a file lock under `.publish/`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from evidence.errors import LockedError

DEFAULT_WAIT = 30.0
WAIT_ENV = "PROOFPRESS_LOCK_WAIT"  # seconds a second run waits for the first (tests and CI set it low)


def _default_wait() -> float:
    try:
        return max(0.0, float(os.environ.get(WAIT_ENV, DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


@contextmanager
def root_lock(state_dir: Path, wait: float | None = None, echo: Callable[..., None] | None = None) -> Iterator[None]:
    """Hold the content root's lock; a second run says it waits, waits up to `wait` seconds, then fails clearly.

    The lock is an OS file lock (flock), so a run killed with SIGKILL releases it: no stale lock to delete by hand.
    """
    wait = _default_wait() if wait is None else wait
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / "publish.lock"
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if echo is not None:
            echo(f"another publish run is using this content root; waiting up to {wait:.0f}s for it…", err=True)
        try:
            lock.acquire(timeout=wait)
        except Timeout as e:
            raise LockedError(f"another publish run holds {path}; waited {wait:.0f}s — try again when it ends") from e
    try:
        yield
    finally:
        lock.release()
