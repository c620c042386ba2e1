"""The site build's design: one package without import cycles, and a page cache key that covers all of it."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import pipeline.website
import pipeline.website.cache as cache_mod
import pipeline.website.templates as templates_mod

PACKAGE = Path(pipeline.website.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every pipeline.website module `path` imports, at the top or inside a function (lazy imports count too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "pipeline.website":
                out.update(f"pipeline.website.{a.name}" for a in node.names)
            elif node.module.startswith("pipeline.website."):
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("pipeline.website."))
    return out


def test_the_site_package_has_no_import_cycle() -> None:
    graph = {f"pipeline.website.{p.stem}": _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert "pipeline.website.build" not in set().union(*(v for k, v in graph.items() if k != "pipeline.website.build"))
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        if state.get(node) == 2:
            return
        assert state.get(node) != 1, f"import cycle: {' → '.join([*trail, node])}"
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            visit(dep, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        visit(node, [])


def test_no_module_of_the_site_reaches_for_another_modules_private_names() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipeline"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} imports private {private} from {node.module}"


def test_the_page_cache_key_covers_every_module_of_the_package_and_every_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert PACKAGE.resolve() == cache_mod.PACKAGE
    package = tmp_path / "website"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    templates = tmp_path / "site"
    shutil.copytree(templates_mod.SITE_TEMPLATES, templates)
    monkeypatch.setattr(cache_mod, "PACKAGE", package)
    monkeypatch.setattr(templates_mod, "SITE_TEMPLATES", templates)
    before = cache_mod.code_hash()
    (package / "newpart.py").write_text('"""A module nobody listed by hand."""\n', encoding="utf-8")
    with_module = cache_mod.code_hash()
    assert with_module != before
    (templates / "partial.html").write_text("<p>new partial</p>\n", encoding="utf-8")
    assert cache_mod.code_hash() != with_module
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.pyc").write_bytes(b"bytecode")  # compiled files are not sources
    assert cache_mod.code_hash() != before
    (templates / "partial.html").unlink()
    (package / "newpart.py").unlink()
    assert cache_mod.code_hash() == before
