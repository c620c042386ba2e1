"""The store re-reads a PDF only when `PARSER_VERSION` changes: a change to the extractor without a new version would
leave every existing store serving the old figures, so the extractor's code is pinned to its version here."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from evidence.store import PARSER_VERSION

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "tests" / "golden" / "parser.json"


def _extractor_hash() -> str:
    files = [*sorted((ROOT / "evidence" / "pdf").glob("*.py")), ROOT / "evidence" / "units.py"]
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode() + b"\0" + path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()


def test_the_extractor_code_is_pinned_to_its_version(update_golden: bool) -> None:
    now = {"version": PARSER_VERSION, "code": _extractor_hash()}
    if update_golden:
        PINNED.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        return
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    if pinned["code"] != now["code"] and pinned["version"] == now["version"]:
        pytest.fail(f"the extractor (evidence/pdf/, evidence/units.py) changed but PARSER_VERSION is still "
                    f"{PARSER_VERSION!r}: bump it in evidence/store.py, then run `make golden`")  # fmt: skip
    assert pinned == now, (
        "PARSER_VERSION or the extractor changed: run `make golden` and commit tests/golden/parser.json"
    )
