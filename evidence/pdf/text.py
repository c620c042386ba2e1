"""Text normalisation of what pypdf returns: NFKC, PUA bullets and NULs dropped, CJK character tests."""

from __future__ import annotations

import re
import unicodedata

# ---- text normalisation ------------------------------------------------------------------------------------

_PUA = re.compile(r"[\ue000-\uf8ff\ufffd]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_TRANSLATE = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u00ad": "", "\x00": ""})


_SUPERSCRIPT = re.compile(r"(?:(?<=[\d.])|^)[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def normalize(text: str) -> str:
    """NFKC (ligatures, fullwidth `：（）％`), NULs and PUA bullets dropped, non-breaking hyphens made plain.

    Superscript digits after a number (or alone, a run of their own) become `^n`, not more digits: `12.5¹` is 12.5 with
    a footnote and `10⁴` a power, never 12.51 or 104.
    """
    if _SURROGATE.search(text):
        text = _join_surrogates(text)
    text = _SUPERSCRIPT.sub(lambda m: "^" + m.group(0).translate(_SUPER_DIGITS), text)
    text = unicodedata.normalize("NFKC", text.translate(_TRANSLATE))
    return _PUA.sub(" ", text).translate(_TRANSLATE)


def _join_surrogates(text: str) -> str:
    """pypdf returns a ToUnicode's astral characters (math bold `𝐮`) as UTF-16 halves, some of them lone: the pairs
    become their character (NFKC then makes `𝐮` a `u`), a lone half U+FFFD, dropped as PUA; unjoined, the page
    text cannot be stored (SQLite wants valid UTF-8) and the whole ingest failed."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def cjk_edge(left: str, right: str) -> bool:
    return bool(left) and bool(right) and (is_cjk(left[-1]) or is_cjk(right[0]))


def is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"
