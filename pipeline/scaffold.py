"""`publish init`: a new content root with a working example (the bundled one, minus built output)."""

from __future__ import annotations

import shutil
from pathlib import Path

from evidence.errors import InputError

EXAMPLE = Path(__file__).resolve().parent.parent / "site"
_SKIP = shutil.ignore_patterns("public", ".publish", "*.bak", "__pycache__")


def init_root(directory: str | Path) -> Path:
    """Copy the bundled example into `directory`, which must be new or empty."""
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError("already exists and is not an empty folder; choose a new one", path=target)
    if not (EXAMPLE / "publish.toml").is_file():
        raise InputError("the bundled example content root is missing from this installation", path=EXAMPLE)
    shutil.copytree(EXAMPLE, target, ignore=_SKIP, dirs_exist_ok=True)
    return target
