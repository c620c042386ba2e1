"""A small matcher of expected figures (tests/corpus/expected/*.yaml) against parsed ones, per EXPECTED_FORMAT."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from evidence.models import Figure
from evidence.units import canonical, parse_unit


def fold(text: str) -> str:
    """Case-insensitive, whitespace-free, width-folded form (NFKC, as the store keeps labels: `（基线）` is `(基线)`):
    CJK labels joined over a line break keep or lose their space."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()


def unit_name(unit: str) -> str:
    return canonical(unit) or parse_unit(unit).name


def matches(expected: dict[str, Any], fig: Figure) -> bool:
    value = float(expected["value"])
    if fig.page != expected["page"] or abs(fig.value - value) > 1e-9 * max(1.0, abs(value)):
        return False
    if unit_name(str(expected.get("unit") or "")) != unit_name(fig.unit):
        return False
    joined = fold(" ".join(fig.labels))
    return all(fold(str(label)) in joined for label in expected.get("labels") or [])


@dataclass
class Score:
    """Recall over expected figures, precision over the stored figures placed in the expected tables."""

    expected: int = 0
    found: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)
    in_tables: int = 0
    right_in_tables: int = 0
    wrong: list[Figure] = field(default_factory=list)


def score(spec: dict[str, Any], figures: list[Figure]) -> Score:
    out = Score()
    limits = {k["index"] for k in spec.get("known_limits") or []}
    used: set[int] = set()
    for n, exp in enumerate(spec["figures"]):
        if n in limits:
            continue
        out.expected += 1
        hit = next((i for i, f in enumerate(figures) if i not in used and matches(exp, f)), None)
        if hit is None:
            out.misses.append(exp)
        else:
            used.add(hit)
            out.found += 1
    for table in spec.get("tables") or []:
        cells = [e for e in spec["figures"] if e.get("table") == table["id"]]
        pages = {e["page"] for e in cells} | {table["page"]}
        caption = fold(table["caption"])
        for f in figures:
            if f.kind == "cell" and f.page in pages and caption in fold(" ".join(f.labels)):
                out.in_tables += 1
                if any(matches(e, f) for e in cells):
                    out.right_in_tables += 1
                else:
                    out.wrong.append(f)
    return out
