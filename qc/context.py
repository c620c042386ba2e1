"""Context words: what a sentence or a figure's labels talk about (latin words, row keys, CJK bigrams)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import add
from typing import Any

from qc.glossary import english_phrases, english_words


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


# Words of one kind of figure (a column `min`, `最低价`, `lowest`): the lowest, the highest, the average.
KINDS = (frozenset({"min", "minimum", "lowest", "最低", "最小"}), frozenset({"max", "maximum", "highest", "最高", "最大"}),
         frozenset({"avg", "average", "mean", "平均"}))  # fmt: skip
DEC = re.compile(r"\d\d*\.\d+")  # = \d+\.\d+, written to start with a character set (a fast scan)
# `1,132,920` is one number, not the words `1`, `132` and `920` (a `Run 1` is no `# Samples 1,132,920` row)
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_CAPTION = re.compile(r"(?:表|图|table|tab\.|fig\.|figure)\s*[a-z]?\d+(?:[-.–]\d+)*", re.I)
# On lower-cased text re.I only matters for ı and ſ (they match i and s); without it the literals make a fast scan.
_CAPTION_LOWER = re.compile(_CAPTION.pattern)
_SECTION_NO = re.compile(r"^\s*\d+(?:\.\d+)*\s+")
_LAT = re.compile(r"[a-z0-9]+")
_VERSION = re.compile(r"(?<![a-z0-9])v\d+(?:\.\d+)+(?![\d.]*\d)")
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


@lru_cache(maxsize=4096)
def context_tokens(text: str) -> frozenset[str]:
    low = text.lower()
    # `v1.8` vs `v2.0`: a version names a system (a column of a before/after table); the decimal rule below would
    # leave only its `v`, so two versions' columns would be one
    versions = _VERSION.findall(low) if "v" in low else []
    t = DEC.sub(" ", _GROUPED.sub(lambda m: m.group().replace(",", ""), low) if "," in low else low)
    t = _SECTION_NO.sub(" ", (_CAPTION_LOWER if "ı" not in t and "ſ" not in t else _CAPTION).sub(" ", t))
    words = _LAT.findall(t)
    if words:
        gloss = english_words()  # (through the glossary an English text shares words with Chinese labels)
        t += " " + " ".join(gloss[w] for w in words if w in gloss)
        pat, phrases = english_phrases()
        if pat is not None and " " in t:
            t += " " + " ".join(phrases[" ".join(m.group().split())] for m in pat.finditer(t))
    out = set(words)
    out.update(versions)
    # `95% Line` (JMeter), `90th percentile`, `99 分位`, `median`: the percentile a `p95` (`p50`) names
    out.update(f"p{m.group(1) or 50}" for m in _PERCENTILE.finditer(low))
    # `1A72@1.99G`, `2xA53`: a core count before a part name; the name alone is the term the article uses
    out.update(m.group(1) for w in words if w[0].isdigit() and (m := _COUNTED.fullmatch(w)))
    out.update(core_counts(t, words))
    # `2xA72@1.80G+4xA53@1.42G`: a set of counted cores is also its number of cores, the `six cores` of prose
    if "@" in low or "+" in low:
        out.update(f"{sum(int(n) for n in _CORE_N.findall(m.group()))}xcore" for m in _CORE_SET.finditer(low))
    if words:
        # a test case's size (`32*32`, `64×64`) and a count word before a noun (`one face`, `two faces`) are keys:
        # `32x32`, `1xface` (a `single face` row is no `two faces` one)
        out.update(f"{m.group(1)}x{m.group(2)}" for m in _SIZE_KEY.finditer(t))
        out.update(f"{_COUNT_WORDS[m.group(1)]}x{_stem_noun(m.group(2))}" for m in _COUNT_NOUN.finditer(t)
                   if m.group(2) not in _STOP)  # fmt: skip
    # `2022E`, `2024A`: a broker's estimate or actual column is that year (`2022 年` in prose)
    out.update(w[:4] for w in words if len(w) == 5 and w[4] in "aef" and _YEAR.fullmatch(w, 0, 4))
    out -= _DROP
    if words:
        out.update(_ORDINALS[w] for w in words if w in _ORDINALS)  # `first loop` names a `1st` row
    for run in _CJK.findall(t):
        out.update(key for key, _ in cjk_count_keys(run))
        if "第" in run or "首次" in run:
            out.update(_ORDINALS[o] for o in _CJK_ORDINAL.findall(run))
        if len(run) == 1:
            out.add(run)
        else:
            out.update(map(add, run, run[1:]))  # its bigrams
    return frozenset(out)


_COUNT_WORDS = {"one": 1, "single": 1, "two": 2, "dual": 2, "three": 3, "four": 4, "quad": 4, "six": 6, "eight": 8,
                "一": 1, "单": 1, "单个": 1, "两": 2, "两个": 2, "双": 2, "三": 3, "四": 4, "四个": 4, "六": 6, "八": 8}  # fmt: skip
COUNT_WORDS = frozenset(_COUNT_WORDS)  # (`two A72 cores`: a count names no row of `two faces`)
_COUNT_BEFORE = re.compile(
    r"(?<![a-z0-9.])(?:(\d{1,2})\s*x\s*|(\d{1,2})\s+(?=[a-z]{1,3}\d{2,4}\s*(?:cores?|cpus?|核))"
    r"|(one|single|two|dual|three|four|quad|six|eight|单个?|两个?|[一双三四六八]个?)[\s-]*(?:个|颗)?\s*)"
    r"([a-z]{1,3}\d{2,4})(?![a-z0-9])"
)  # a digit count needs its `x` or a core word after the part (`batch 16 p50` counts no p50)


def core_counts(low: str, words: list[str]) -> set[str]:
    """A part and its count as one key, `2xa72`: a label prints `2xA72@1.80G` or `1A72@1.99G`, prose `two A72 cores`
    or `两个 A72` — so `one A72 core` names the one-core row, not every row holding an A72."""
    out = {f"{int(m.group(1))}x{m.group(2)}" for w in words if w[0].isdigit() and (m := _LABEL_COUNT.fullmatch(w))}
    if any(c.isdigit() for c in low):  # (every part name has a digit)
        for m in _COUNT_BEFORE.finditer(low):
            n = m.group(1) or m.group(2) or m.group(3)
            out.add(f"{int(n) if n.isdigit() else _COUNT_WORDS[n.rstrip('个') or n]}x{m.group(4)}")
    return out


_CORE = r"\d{1,2}x?[a-z]{1,3}\d{2,4}@[\d.]+[a-z]*"
_CORE_SET = re.compile(rf"(?<![a-z0-9]){_CORE}(?:\+{_CORE})*(?![a-z0-9])")
_CORE_N = re.compile(r"(?:^|\+)(\d{1,2})")
_SIZE_KEY = re.compile(r"(?<![\d.])(\d{1,4})[ \u00a0]*[*×x][ \u00a0]*(\d{1,4})(?![\d.])")
_COUNT_NOUN = re.compile(r"\b(one|single|two|dual|three|four|quad|six|eight)[ \u00a0-]+([a-z]{3,})\b")


@lru_cache(maxsize=1)
def _cjk_count_noun() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """A Chinese count word before a noun of the glossary's English words, and each noun's English (singular)."""
    nouns: dict[str, str] = {}
    for en, zh in sorted(english_words().items(), key=lambda kv: (len(kv[0]), kv[0])):
        if en.isascii() and en.isalpha():
            for word in zh.split():
                if len(word) >= 2 and _CJK.fullmatch(word):
                    nouns.setdefault(word, _stem_noun(en))
    if not nouns:
        return None, nouns
    alts = "|".join(map(re.escape, sorted(nouns, key=len, reverse=True)))
    return re.compile(rf"(单个?|两个?|双|[一三四六八]个?)({alts})"), nouns


@lru_cache(maxsize=8192)
def cjk_count_keys(run: str) -> tuple[tuple[str, int], ...]:
    """The count keys of a run of Chinese text (`双人脸` → `2xface`, as `two faces` is), with their offsets in it:
    a Chinese row label `单人脸` names the `single face` row of an English report and no `two faces` one."""
    pat, nouns = _cjk_count_noun()
    if pat is None:
        return ()
    return tuple((f"{_COUNT_WORDS[m.group(1).rstrip('个')]}x{nouns[m.group(2)]}", m.start()) for m in pat.finditer(run))


def _stem_noun(word: str) -> str:
    """`faces` → `face`: the singular of a counted noun, for a count key."""
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


_LABEL_COUNT = re.compile(r"(\d{1,2})x?([a-z]{1,3}\d{2,4})")
_DROP = _STOP | frozenset("abcdefghijklmnopqrstuvwxyz")  # stop words and single letters
# Ordinals in words name the rows a report labels `1st`, `2nd`… (`the first loop`, `第一轮`, `首次运行`).
_ORDINALS = {w: f"{i}{'st' if i == 1 else 'nd' if i == 2 else 'rd' if i == 3 else 'th'}" for i, w in enumerate(
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"], 1)}  # fmt: skip
_ORDINALS.update({f"第{c}": _ORDINALS[w] for c, w in zip("一二三四五六七八九十", _ORDINALS, strict=True)})
_ORDINALS["首次"] = "1st"
_CJK_ORDINAL = re.compile(r"第[一二三四五六七八九十](?![一二三四五六七八九十百千万零])|首次")


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
_PERCENTILE = re.compile(
    r"(?<![\d.])(\d{2}(?:\.\d+)?)\s*(?:%|th)?\s*(?:line\b|percentile\b|分位|百分位)|\bmedian\b|中位"
)


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
    # the keys made of several words stand where they are printed too, so a clause keeps its own: in `on one A72 core
    # … 160 ms, and on one A53 core 47 ms` the later clause's `1xa53` is not the first number's word
    if any(c.isdigit() for c in low):
        out += [(f"{int(n) if n.isdigit() else _COUNT_WORDS[n.rstrip('个') or n]}x{m.group(4)}", offset + m.start())
                for m in _COUNT_BEFORE.finditer(low) if (n := m.group(1) or m.group(2) or m.group(3))]  # fmt: skip
    out += [(f"{_COUNT_WORDS[m.group(1)]}x{_stem_noun(m.group(2))}", offset + m.start()) for m in _COUNT_NOUN.finditer(low)
            if m.group(2) not in _STOP]  # fmt: skip
    for m in _CJK.finditer(low):
        run = m.group()
        out += [(key, offset + m.start() + i) for key, i in cjk_count_keys(run)]
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


def unnumbered(tokens: frozenset[str]) -> frozenset[str]:
    """Context words less bare numbers: a number both texts print (`16` of `16 组 read_perf` and of `batch 从 0 增至
    16`), or the claim's own digits, is no word a figure shares with the claim."""
    return frozenset(t for t in tokens if not t.isdigit())
