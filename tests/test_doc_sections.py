"""Bench tools each rewrite only their own section of docs/benchmarks.md, whatever order they run in."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from doc_sections import replace_section


def test_sections_are_replaced_in_place_and_appended_once(tmp_path: Path) -> None:
    doc = tmp_path / "b.md"
    doc.write_text("# Benchmarks\n\n## Results\nold results\n\n## Targets\nkeep me\n", encoding="utf-8")
    replace_section("## Results\nnew results\n", doc)
    replace_section("## Extraction accuracy\ntable 1\n", doc)
    replace_section("## QC accuracy\nqc 1\n", doc)
    replace_section("## Extraction accuracy\ntable 2\n", doc)
    text = doc.read_text(encoding="utf-8")
    assert text == (
        "# Benchmarks\n\n## Results\nnew results\n\n## Targets\nkeep me\n\n"
        "## Extraction accuracy\ntable 2\n\n## QC accuracy\nqc 1\n"
    )
