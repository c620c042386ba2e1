"""Shared fixtures: paths, a copy of the example content root, golden files and the CLI runner."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "site"
CORPUS = REPO / "tests" / "corpus"
GOLDEN = Path(__file__).resolve().parent / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="Rewrite golden files from current output.")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def golden(update_golden: bool) -> Callable[[str, Any], None]:
    """Compare output with tests/golden/<name>; `make golden` (pytest --update-golden) rewrites it."""

    def check(name: str, actual: Any) -> None:
        path = GOLDEN / name
        text = (
            actual
            if isinstance(actual, str)
            else json.dumps(actual, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        )
        if update_golden:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing; run `make golden` and commit it")
        expected = path.read_text(encoding="utf-8")
        assert text == expected, f"output differs from {path}; if intended, run `make golden` and review the diff"

    return check


@pytest.fixture
def example_root(tmp_path: Path) -> Path:
    """A private copy of the bundled example content root (without built output or caches)."""
    dst = tmp_path / "site"
    shutil.copytree(EXAMPLE, dst, ignore=shutil.ignore_patterns("public", ".publish"))
    return dst


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.fail(f"the PDF test corpus is missing at {CORPUS}")
    return CORPUS
