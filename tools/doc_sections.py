"""The one way a bench tool rewrites its own section of docs/benchmarks.md, leaving every other section alone."""

from __future__ import annotations

import os
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def replace_section(section: str, doc: Path = DOC) -> None:
    """Put `section` (starting with its `## ` heading line) in place of the section with that heading, or append it.

    A section runs from its heading to the next `## ` heading, so tools that each own a section never clobber
    one another whatever order `make bench` runs them in.
    """
    heading = section.split("\n", 1)[0].rstrip()
    assert heading.startswith("## "), heading
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.rstrip() == heading), None)
    if start is None:
        new = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        tail = "\n".join(lines[end:])
        head = "\n".join(lines[:start])
        new = head + ("\n" if head else "") + section.rstrip("\n") + "\n" + ("\n" + tail if tail.strip() else "")
    tmp = doc.with_name(f".{doc.name}.{os.getpid()}.tmp")
    tmp.write_text(new.rstrip("\n") + "\n", encoding="utf-8")
    tmp.replace(doc)
