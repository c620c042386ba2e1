"""A lone `K` after a number is kelvin only in a text about temperature; `29.8K token`, `8 K tokens` stay magnitudes.

Expected figures read from the page image of pymupdf_small_table_units.pdf p.1 (Boiling Points °C: Metalloids min 335,
max 3900) and from site/reports/R2.pdf p.2 (`会话长度: 29.8K token`).
"""

from __future__ import annotations

from pathlib import Path

import pypdf
from real_support import check_body, verdicts

from qc.numbers import extract

BOIL = "pymupdf_small_table_units.pdf"
R2 = Path(__file__).resolve().parent.parent / "site" / "reports" / "R2.pdf"


def _rejected(body: str, text: str) -> bool:
    n = next(n for n in check_body(BOIL, body, lang="en").numbers if n.text == text)
    return n.status not in ("verified", "derived") and n.severity == "error"


def test_kelvin_where_the_report_prints_celsius_is_an_error() -> None:
    body = "The lowest metalloid boiling point is {} [source: R3]."
    assert verdicts(BOIL, body.format("335 °C"), lang="en")["335 °C"] == "verified"
    assert _rejected(body.format("335 K"), "335 K")
    assert _rejected("Metalloids boil between 335 K and 3900 °C [source: R3].", "335 K")


def test_a_lone_k_in_a_temperature_text_is_kelvin() -> None:
    (q,) = extract("Nitrogen boils at 77 K.")
    assert (q.value, q.unit) == (77.0, "K")


def test_k_before_a_counted_thing_stays_a_magnitude_even_beside_a_temperature() -> None:
    line = next(s for s in pypdf.PdfReader(R2).pages[1].extract_text().splitlines() if "29.8K" in s)
    (q,) = [q for q in extract(f"{line}, at a GPU temperature of 70 °C.") if q.unit != "°C"]
    assert (q.value, q.unit) == (29800.0, "token")
    q = extract("The boiling test keeps 8 K tokens of context at 20 °C.")[0]
    assert q.unit != "K"


def test_k_without_temperature_is_never_kelvin() -> None:
    assert all(q.unit != "K" for q in extract("The cache holds 335 K and more."))
