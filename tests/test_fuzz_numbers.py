"""Fuzz the number extractor: random and mutated text never breaks it, and every supported form reads back exactly."""

from __future__ import annotations

import math
from pathlib import Path

from fuzzing import SPICY, fuzz, mutated
from hypothesis import assume, given
from hypothesis import strategies as st

from qc.numbers import extract

# Seeds: the project's own example drafts (real article prose with citations, ranges, units and tables).
_EXAMPLE = Path(__file__).resolve().parent.parent / "site" / "articles"
ARTICLE = "\n".join(p.read_text(encoding="utf-8") for p in sorted(_EXAMPLE.glob("*.md")))
assert ARTICLE, f"no example drafts under {_EXAMPLE}"

# Alphabet of characters that steer the extractor: digits, separators, signs, units, prefixes, CJK, brackets.
NUMBERY = [*"0123456789.,%+-−–—~～×xX/ KMBGTkmsbh",
    "万", "亿", "倍", "秒", "周", "约", "至", "≥", "≤", "【", "】", "出处", ":", "R2", "[source: R1]", "TP8", "p50",
    "GB/s", "tok/s", "token", "2026-07-08", "`", "(", ")", "\n", "\u00a0", "年", "月", "日", "表 4-1", "Table 3",
]  # fmt: skip


def _check_spans(text: str) -> None:
    found = extract(text)
    end = 0
    for q in found:
        assert 0 <= q.start < q.end <= len(text), q
        assert q.text == text[q.start : q.end], q
        assert q.start >= end, f"overlapping or unordered spans: {found}"
        end = q.end
        assert q.start <= q.num_start <= q.num_end <= q.end or q.exempt, q
        for v in (q.value, q.low, q.high):
            assert v is None or not math.isnan(v), q  # a 400-digit run may read as inf; QC then finds no figure
        if q.exempt is None:
            assert q.value is not None or q.is_range, q


@fuzz()
@given(st.lists(st.sampled_from(NUMBERY) | st.characters(codec="utf-8"), max_size=80).map("".join))
def test_fuzz_extract_random_text(text: str) -> None:
    _check_spans(text)


@fuzz()
@given(st.text(max_size=300))
def test_fuzz_extract_any_unicode(text: str) -> None:
    _check_spans(text)


@fuzz(0.5)
@given(mutated(ARTICLE[:3000], [*SPICY, "9" * 400, "1" + "0" * 320 + "%", "1e308", "29–40–50%", "约约约 3"]))
def test_fuzz_extract_mutated_article(text: str) -> None:
    _check_spans(text)


# --- round trip: render a quantity in any supported form, extract it back ---------------------------------------

# (spelling in the text, canonical unit QC reports)
UNITS = [
    ("s", "s"), ("秒", "s"), ("ms", "ms"), ("毫秒", "ms"), ("h", "h"), ("小时", "h"), ("周", "周"), ("weeks", "周"),
    ("GB", "GB"), ("GiB", "GiB"), ("KB", "KB"), ("MB", "MB"), ("TB", "TB"), ("GB/s", "GB/s"), ("Gb/s", "Gb/s"),
    ("MB/s", "MB/s"), ("MiB/s", "MiB/s"), ("GbE", "Gb/s"), ("tok/s", "tok/s"), ("tokens/s", "tok/s"),
    ("token", "token"), ("%", "%"), ("％", "%"), ("倍", "x"), ("x", "x"), ("×", "x"), ("IOPS", "IOPS"), ("W", "W"),
    ("°C", "°C"), ("", ""),
]  # fmt: skip
MAGNITUDES = [("", 1.0), ("K", 1e3), ("M", 1e6), ("万", 1e4), ("亿", 1e8)]
PREFIXES = {"zh": [("", None, False), ("约 ", None, True), ("约", None, True), ("≥", "≥", False), ("不超过", "≤", False)],
            "en": [("", None, False), ("about ", None, True), ("~", None, True), ("at least ", "≥", False),
                   ("up to ", "≤", False), ("≥ ", "≥", False)]}  # fmt: skip


@st.composite
def rendered(draw: st.DrawFn) -> tuple[str, int, int, float, str, str | None, bool, str]:
    lang = draw(st.sampled_from(["zh", "en"]))
    decimals = draw(st.integers(0, 3))
    whole = draw(st.integers(0, 99_999))
    frac = draw(st.integers(0, 10**decimals - 1)) if decimals else 0
    value = whole + frac / 10**decimals if decimals else float(whole)
    num = f"{value:,.{decimals}f}" if draw(st.booleans()) else f"{value:.{decimals}f}"
    mag, factor = draw(st.sampled_from(MAGNITUDES))
    spelling, unit = draw(st.sampled_from(UNITS))
    if mag and spelling in ("", "%", "％", "倍", "x", "×", "°C"):
        mag, factor = "", 1.0  # 29.8K token yes, 29.8K% no
    if not unit and not mag and decimals == 0:
        assume(not 1990 <= whole <= 2039)  # a bare number in that range is read as a year, by design
    sign = draw(st.sampled_from(["", "+", "-", "−"])) if unit in ("%", "") else ""
    prefix, bound, approx = draw(st.sampled_from(PREFIXES[lang]))
    space = (
        draw(st.sampled_from(["", " ", "\u00a0"]))
        if spelling and spelling[0].isascii()
        else draw(st.sampled_from(["", " "]))
    )
    if not spelling:
        space = ""
    elif mag and spelling[0].isascii() and not space:
        space = " "  # `29.8K token`: a glued `29.8Ks` is an identifier, not a magnitude and a unit
    quantity = f"{prefix}{sign}{num}{mag}{space}{spelling}"
    if lang == "zh":
        text = f"实测结果为{quantity}【出处:R2 实测】。"
    else:
        text = f"The measured result was {quantity} [source: R2]."
    start = text.index(quantity)
    expected = (-1 if sign in ("-", "−") else 1) * value * factor
    return text, start, start + len(quantity), expected, unit, bound, approx, lang


@fuzz(2)
@given(rendered())
def test_fuzz_render_and_extract_back(case: tuple[str, int, int, float, str, str | None, bool, str]) -> None:
    text, start, end, expected, unit, bound, approx, _lang = case
    quantities = [q for q in extract(text) if q.exempt is None]
    assert len(quantities) == 1, (text, quantities)
    q = quantities[0]
    assert q.value is not None and math.isclose(q.value, expected, rel_tol=1e-9, abs_tol=1e-9), (text, q)
    assert q.unit == unit, (text, q)
    assert (q.start, q.end) == (start, end), (text, q)
    assert q.bound == bound and q.approx == approx, (text, q)
    ids = [q.text for q in extract(text) if q.exempt == "citation"]
    assert ids == ["R2"], (text, ids)


@st.composite
def rendered_range(draw: st.DrawFn) -> tuple[str, float, float, str]:
    low = draw(st.integers(1, 500))
    high = low + draw(st.integers(1, 500))
    decimals = draw(st.integers(0, 2))
    a, b = f"{low / 10**decimals:.{decimals}f}", f"{high / 10**decimals:.{decimals}f}"
    spelling, unit = draw(st.sampled_from([u for u in UNITS if u[0]]))
    sep = draw(st.sampled_from(["–", "-", " to ", "至", "—", "~", "～", "〜", " ~ "]))
    space = draw(st.sampled_from(["", " "])) if spelling[0].isascii() else ""
    unit_on_low = draw(st.booleans()) and sep not in ("-",)
    text = f"提升 {a}{space + spelling if unit_on_low else ''}{sep}{b}{space}{spelling}【出处:R2 实测】"
    return text, low / 10**decimals, high / 10**decimals, unit


@fuzz()
@given(rendered_range())
def test_fuzz_ranges_read_back(case: tuple[str, float, float, str]) -> None:
    text, low, high, unit = case
    quantities = [q for q in extract(text) if q.exempt is None]
    assert len(quantities) == 1 and quantities[0].is_range, (text, quantities)
    q = quantities[0]
    assert q.low is not None and q.high is not None
    assert math.isclose(q.low, low) and math.isclose(q.high, high) and q.unit == unit, (text, q)
