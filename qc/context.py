"""Context words: what a sentence or a figure's labels talk about (latin words, row keys, CJK bigrams)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import add
from typing import Any


class lazy:
    """A value computed on first read and kept in the instance; functools.cached_property without its lock (which
    Python 3.11 takes on every first read, a cost paid for each sentence)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn
        self.name = fn.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


DEC = re.compile(r"\d\d*\.\d+")  # = \d+\.\d+, written to start with a character set (a fast scan)
_CAPTION = re.compile(r"(?:表|图|table|tab\.|fig\.|figure)\s*[a-z]?\d+(?:[-.–]\d+)*", re.I)
# On lower-cased text re.I only matters for ı and ſ (they match i and s); without it the literals make a fast scan.
_CAPTION_LOWER = re.compile(_CAPTION.pattern)
_SECTION_NO = re.compile(r"^\s*\d+(?:\.\d+)*\s+")
_LAT = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_COUNTED = re.compile(r"\d{1,2}x?([a-z]{1,3}\d{2,4})")
_YEAR = re.compile(r"(?:19|20)\d\d")
_STOP = frozenset(
    [
        "s",
        "ms",
        "us",
        "ns",
        "gb",
        "mb",
        "kb",
        "tb",
        "gib",
        "mib",
        "b",
        "tok",
        "token",
        "tokens",
        "x",
        "h",
        "min",
        "the",
        "of",
        "and",
        "or",
        "in",
        "on",
        "to",
        "a",
        "an",
        "vs",
        "for",
        "with",
        "by",
        "is",
        "are",
        "at",
        "from",
        "per",
        "sec",
        "gbe",
        "gb/s",
    ]
)


# English words and the Chinese label terms they stand for, so an English article citing a Chinese report still
# shares context with the figures' labels ("concurrency 8" ↔ "并发档位 8").
_GLOSSARY = {
    "concurrency": "并发", "concurrent": "并发", "throughput": "吞吐", "baseline": "基线", "bandwidth": "带宽",
    "read": "读", "write": "写", "save": "保存", "saving": "保存", "saves": "保存", "snapshot": "快照",
    "load": "加载", "loading": "加载", "loaded": "加载", "speedup": "加速", "faster": "加速", "model": "模型",
    "deployment": "部署", "whole": "全机", "machine": "全机", "recompute": "重算", "recomputing": "重算",
    "tiered": "分层", "reduction": "降幅", "lower": "降低", "session": "会话", "length": "长度", "size": "大小",
    "gate": "门禁", "stability": "稳定", "cycle": "周期", "training": "训练", "time": "时间", "sustained": "持续",
    "patch": "补丁", "parallel": "并行", "default": "默认", "path": "路径", "storage": "存储", "network": "网络",
    "recovery": "恢复", "cold": "冷恢", "context": "上下", "improvement": "改善", "improved": "改善",
    "detection": "检测", "extraction": "提取", "total": "合计", "chunked": "分块", "revenue": "营收",
    "highest": "最高", "lowest": "最低",
}  # fmt: skip


@lru_cache(maxsize=4096)
def context_tokens(text: str) -> frozenset[str]:
    t = DEC.sub(" ", text.lower())
    t = _SECTION_NO.sub(" ", (_CAPTION_LOWER if "ı" not in t and "ſ" not in t else _CAPTION).sub(" ", t))
    words = _LAT.findall(t)
    if words:
        t += " " + " ".join(_GLOSSARY[w] for w in words if w in _GLOSSARY)
    out = set(words)
    # `1A72@1.99G`, `2xA53`: a core count before a part name; the name alone is the term the article uses
    out.update(m.group(1) for w in words if w[0].isdigit() and (m := _COUNTED.fullmatch(w)))
    # `2022E`, `2024A`: a broker's estimate or actual column is that year (`2022 年` in prose)
    out.update(w[:4] for w in words if len(w) == 5 and w[4] in "aef" and _YEAR.fullmatch(w, 0, 4))
    out -= _DROP
    for run in _CJK.findall(t):
        if len(run) == 1:
            out.add(run)
        else:
            out.update(map(add, run, run[1:]))  # its bigrams
    return frozenset(out)


_DROP = _STOP | frozenset("abcdefghijklmnopqrstuvwxyz")  # stop words and single letters


_IDTOK = re.compile(r"(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]+")


def id_shapes(tokens: Iterable[str]) -> dict[str, frozenset[str]]:
    """Identifier-like tokens keyed by shape: `p90` → `p#`, `70b` → `#b`; the same shape names one kind of key."""
    out: dict[str, set[str]] = {}
    for t in tokens:
        shape = _shape(t)
        if shape is not None:
            out.setdefault(shape, set()).add(t)
    return {k: frozenset(v) for k, v in out.items()}


def merge_ids(maps: list[dict[str, frozenset[str]]]) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for m in maps:
        for shape, toks in m.items():
            out[shape] = out[shape] | toks if shape in out else toks
    return out


_DIGITS = re.compile(r"\d+")


_SIZE = re.compile(r"\d+(?:kb|mb|gb|tb|kib|mib|gib|tib)")


@lru_cache(maxsize=16384)
def _shape(token: str) -> str | None:
    if _SIZE.fullmatch(token):  # 64KB and 1MB name one kind of key (a value size), whatever the prefix
        return "#size"
    return _DIGITS.sub("#", token) if _IDTOK.fullmatch(token) else None


def id_shape(token: str) -> str | None:
    """The shape of an identifier-like token (`p90` → `p#`, `64kb` → `#size`), None for other words."""
    return _shape(token)


def positions(text: str, offset: int) -> list[tuple[str, int]]:
    """Context tokens of `text` with their positions (plus `offset`), for nearest-key decisions."""
    low = DEC.sub(lambda m: " " * len(m.group()), text.lower())
    out = [(m.group(), offset + m.start()) for m in _LAT.finditer(low)]
    for m in _CJK.finditer(low):
        run = m.group()
        out += (
            [(run, offset + m.start())]
            if len(run) == 1
            else [(run[i : i + 2], offset + m.start() + i) for i in range(len(run) - 1)]
        )
    return out


def norm(text: str) -> str:
    """Text compared verbatim: NFKC, case-folded, without whitespace (PDF text wraps and spaces freely)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold().replace("\x00", ""))


def norm_cuts(text: str) -> tuple[str, frozenset[int]]:
    """`norm(text)` and the positions in it where whitespace was removed (word boundaries of the original)."""
    parts = re.split(r"\s+", unicodedata.normalize("NFKC", text).casefold().replace("\x00", ""))
    cuts, pos = set(), 0
    for part in parts:
        pos += len(part)
        cuts.add(pos)
    return "".join(parts), frozenset(cuts)


def num_text(v: float | None) -> str:
    if v is None:
        return ""
    return f"{v:.6f}".rstrip("0").rstrip(".")


def fmt(v: float) -> str:
    if v == 0:
        return "0"
    digits = 2 if abs(v) >= 1 else 4
    return f"{v:.{digits}f}".rstrip("0").rstrip(".")
