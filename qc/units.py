"""Units for QC: the product's one unit table (evidence/units.py) and how QC prints a value with its unit."""

from __future__ import annotations

from evidence.units import (
    COUNT_WORDS,
    NONE,
    UNNAMED_RATE,
    Unit,
    aliases,
    compatible,
    is_latin,
    kelvin_at,
    names_counted_rate,
    parse_unit,
    storage_size_at,
)

__all__ = [
    "COUNT_WORDS",
    "NONE",
    "UNNAMED_RATE",
    "Unit",
    "aliases",
    "compatible",
    "display",
    "is_latin",
    "kelvin_at",
    "names_counted_rate",
    "parse_unit",
    "storage_size_at",
]


def display(value: float, unit: Unit | str) -> str:
    """`7.53 s`, `26%`, `18.3 倍`-style rendering of a value and unit for messages."""
    name = unit.name if isinstance(unit, Unit) else unit
    num = f"{value:,.6f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):,}"
    num = num.replace(",", "") if abs(value) < 10000 else num
    if not name:
        return num
    if name in {"%", "x"}:
        return num + ("%" if name == "%" else "×")
    return f"{num} {name}"
