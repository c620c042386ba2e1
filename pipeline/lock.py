"""One publish run per content root at a time: a file lock under `.publish/`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from evidence.errors import LockedError


@contextmanager
def root_lock(state_dir: Path, wait: float = 30.0) -> Iterator[None]:
    """Hold the content root's lock; a second run waits up to `wait` seconds, then fails clearly."""
    state_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(state_dir / "publish.lock"))
    try:
        lock.acquire(timeout=wait)
    except Timeout as e:
        raise LockedError(
            f"another publish run holds {state_dir / 'publish.lock'}; waited {wait:.0f}s — try again when it ends"
        ) from e
    try:
        yield
    finally:
        lock.release()
