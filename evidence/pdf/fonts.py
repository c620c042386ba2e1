"""Composite fonts pypdf misreads: an embedded encoding CMap (two-byte codes, code → CID widths) read as one byte."""

from __future__ import annotations

import re
from typing import Any

# An embedded CMap with more entries than a font has glyphs is no CMap we should trust (and would cost memory).
_MAX_CODES = 65_536
_CODESPACE = re.compile(rb"begincodespacerange(.*?)endcodespacerange", re.S)
_CIDCHAR = re.compile(rb"begincidchar(.*?)endcidchar", re.S)
_CIDRANGE = re.compile(rb"begincidrange(.*?)endcidrange", re.S)
_CHAR_LINE = re.compile(rb"<([0-9A-Fa-f]+)>\s*(\d+)")
_RANGE_LINE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\d+)")


def code_to_cid(data: bytes) -> dict[int, int] | None:
    """The code → CID map of an embedded CMap whose codes are all two bytes, or None (another shape: leave it)."""
    spaces = _CODESPACE.findall(data)
    bounds = [tok for block in spaces for tok in re.findall(rb"<([0-9A-Fa-f]*)>", block)]
    if not bounds or any(len(tok) != 4 for tok in bounds) or b"usecmap" in data:
        return None
    out: dict[int, int] = {}
    for block in _CIDCHAR.findall(data):
        for code, cid in _CHAR_LINE.findall(block):
            out[int(code, 16)] = int(cid)
    for block in _CIDRANGE.findall(data):
        for lo, hi, cid in _RANGE_LINE.findall(block):
            first, last = int(lo, 16), int(hi, 16)
            if last < first or last - first + len(out) > _MAX_CODES:
                return None
            out.update((code, int(cid) + code - first) for code in range(first, last + 1))
    return out if 0 < len(out) <= _MAX_CODES else None


def fix_encoding_cmap(font: Any, font_dict: Any) -> Any:
    """Read a Type0 font's embedded encoding CMap as two-byte codes, with each code's width from its CID.

    pypdf knows only named CMaps (`Identity-H`, …); for a CMap stream it falls back to a one-byte encoding, so every
    glyph comes out as U+0000 plus a character and measures the width of two wrong CIDs (fpdf2 writes such fonts).
    """
    try:
        if font_dict.get("/Subtype") != "/Type0" or not isinstance(font.encoding, dict):
            return font
        enc = font_dict.get("/Encoding")
        enc = enc.get_object() if enc is not None else None
        if enc is None or not hasattr(enc, "get_data"):
            return font
        mapping = code_to_cid(enc.get_data())
        if mapping is None:
            return font
        by_cid: dict[str, float] = {}
        for d_font in font_dict.get("/DescendantFonts", []):
            type(font)._collect_cid_character_widths(d_font=d_font.get_object(), current_widths=by_cid)
    except Exception:  # a broken font dictionary: pypdf's own reading stands
        return font
    widths: dict[str, float] = {"default": font.character_widths.get("default", 1000)}
    for code, cid in mapping.items():
        width = by_cid.get(chr(cid))
        if width is not None:
            widths[chr(code)] = width
    font.encoding = "utf-16-be"  # what pypdf uses for Identity-H: a character per two-byte code
    font.character_widths = widths
    space = font.space_char
    font.space_width = widths.get(space) or widths["default"] / 2
    return font
