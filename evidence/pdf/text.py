"""Text normalisation of what pypdf returns: NFKC, PUA bullets and NULs dropped, CJK character tests."""

from __future__ import annotations

import re
import unicodedata

# ---- text normalisation ------------------------------------------------------------------------------------

_PUA = re.compile(r"[\ue000-\uf8ff\ufffd]")
_TRANSLATE = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u00ad": "", "\x00": ""})


def normalize(text: str) -> str:
    """NFKC (ligatures, fullwidth `：（）％`), NULs and PUA bullets dropped, non-breaking hyphens made plain."""
    text = unicodedata.normalize("NFKC", text.translate(_TRANSLATE))
    return _PUA.sub(" ", text).translate(_TRANSLATE)


def cjk_edge(left: str, right: str) -> bool:
    return bool(left) and bool(right) and (is_cjk(left[-1]) or is_cjk(right[0]))


def is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"
