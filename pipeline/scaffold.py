"""`publish init`: a new content root with a working example (the bundled one, minus built output)."""

from __future__ import annotations

import shutil
from pathlib import Path

from evidence.errors import InputError
from pipeline.resources import example_dir

_GITIGNORE = (
    "# Derived data (rebuilt from reports/ and articles/) and the built sites.\n.publish/\npublic/\npublic-preview/\n"
)
_SKIP = shutil.ignore_patterns("public", "public-preview", ".publish", "*.bak", "__pycache__")


def init_root(directory: str | Path) -> Path:
    """Copy the bundled example into `directory`, which must be new or empty."""
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError("already exists and is not an empty folder; choose a new one", path=target)
    example = example_dir()
    if not (example / "publish.toml").is_file():
        raise InputError("the bundled example content root is missing from this installation", path=example)
    shutil.copytree(example, target, ignore=_SKIP, dirs_exist_ok=True)
    # Derived data and the built site are never committed: the store rebuilds, the site is rebuilt.
    (target / ".gitignore").write_text(_GITIGNORE, encoding="utf-8")
    return target
