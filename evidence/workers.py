"""Worker processes that end with the process that started them."""

from __future__ import annotations

import contextlib
import os
import signal
import sys


def die_with(parent: int) -> None:
    """Pool initializer: a worker whose parent was killed would otherwise wait on its queue forever,
    holding the parent's stdout open so whoever ran it waits too."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
