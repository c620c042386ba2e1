"""Where the evidence store lives for `--evidence DIR` runs outside any content root: the user cache dir."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs


def store_path_for(evidence_dir: Path) -> Path:
    """The store for a reports folder, keyed by the folder's resolved path (figures are keyed by sha256 anyway)."""
    # PROOFPRESS_CACHE_DIR lets tests and CI keep the cache out of the real home directory.
    base = os.environ.get("PROOFPRESS_CACHE_DIR") or platformdirs.user_cache_dir("proofpress", appauthor=False)
    key = hashlib.sha256(str(Path(evidence_dir).resolve()).encode("utf-8")).hexdigest()[:16]
    return Path(base) / "evidence" / key / "evidence.sqlite"
