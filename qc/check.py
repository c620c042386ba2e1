"""QC verdicts: every number of a draft against the figures of the reports cited in its scope."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import sys
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from operator import add
from typing import Any

from evidence.errors import InputError
from evidence.models import Figure, Page
from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.models import ALL_STATUSES, ERROR_STATUSES, FileResult, NumberCheck, Source, TermCheck
from qc.numbers import CHANGE_RE, NUM_RE, Quantity, extract, markers
from qc.units import NONE, Unit, display, parse_unit


class _lazy:
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


# ---------------------------------------------------------------------------------------------------------------
# Context tokens: what a sentence or a figure's labels talk about (latin words, row keys, CJK bigrams).

_DEC = re.compile(r"\d\d*\.\d+")  # = \d+\.\d+, written to start with a character set (a fast scan)
_CAPTION = re.compile(r"(?:表|图|table|tab\.|fig\.|figure)\s*[a-z]?\d+(?:[-.–]\d+)*", re.I)
# On lower-cased text re.I only matters for ı and ſ (they match i and s); without it the literals make a fast scan.
_CAPTION_LOWER = re.compile(_CAPTION.pattern)
_SECTION_NO = re.compile(r"^\s*\d+(?:\.\d+)*\s+")
_LAT = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")
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
}  # fmt: skip


@lru_cache(maxsize=4096)
def _tokens(text: str) -> frozenset[str]:
    t = _DEC.sub(" ", text.lower())
    t = _SECTION_NO.sub(" ", (_CAPTION_LOWER if "ı" not in t and "ſ" not in t else _CAPTION).sub(" ", t))
    words = _LAT.findall(t)
    if words:
        t += " " + " ".join(_GLOSSARY[w] for w in words if w in _GLOSSARY)
    out = set(words)
    out -= _DROP
    for run in _CJK.findall(t):
        if len(run) == 1:
            out.add(run)
        else:
            out.update(map(add, run, run[1:]))  # its bigrams
    return frozenset(out)


_DROP = _STOP | frozenset("abcdefghijklmnopqrstuvwxyz")  # stop words and single letters


_IDTOK = re.compile(r"(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]+")


def _id_shapes(tokens: Iterable[str]) -> dict[str, frozenset[str]]:
    """Identifier-like tokens keyed by shape: `p90` → `p#`, `70b` → `#b`; the same shape names one kind of key."""
    out: dict[str, set[str]] = {}
    for t in tokens:
        shape = _shape(t)
        if shape is not None:
            out.setdefault(shape, set()).add(t)
    return {k: frozenset(v) for k, v in out.items()}


def _merge_ids(maps: list[dict[str, frozenset[str]]]) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for m in maps:
        for shape, toks in m.items():
            out[shape] = out[shape] | toks if shape in out else toks
    return out


_DIGITS = re.compile(r"\d+")


@lru_cache(maxsize=16384)
def _shape(token: str) -> str | None:
    return _DIGITS.sub("#", token) if _IDTOK.fullmatch(token) else None


def _positions(text: str, offset: int) -> list[tuple[str, int]]:
    """Context tokens of `text` with their positions (plus `offset`), for nearest-key decisions."""
    low = _DEC.sub(lambda m: " " * len(m.group()), text.lower())
    out = [(m.group(), offset + m.start()) for m in _LAT.finditer(low)]
    for m in _CJK.finditer(low):
        run = m.group()
        out += (
            [(run, offset + m.start())]
            if len(run) == 1
            else [(run[i : i + 2], offset + m.start() + i) for i in range(len(run) - 1)]
        )
    return out


def _norm(text: str) -> str:
    """Text compared verbatim: NFKC, case-folded, without whitespace (PDF text wraps and spaces freely)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold().replace("\x00", ""))


def _norm_cuts(text: str) -> tuple[str, frozenset[int]]:
    """`_norm(text)` and the positions in it where whitespace was removed (word boundaries of the original)."""
    parts = re.split(r"\s+", unicodedata.normalize("NFKC", text).casefold().replace("\x00", ""))
    cuts, pos = set(), 0
    for part in parts:
        pos += len(part)
        cuts.add(pos)
    return "".join(parts), frozenset(cuts)


# ---------------------------------------------------------------------------------------------------------------
# The index, prepared once per EvidenceIndex: figures by dimension and value, tables, rows, normalised pages.

_BOUND_BEFORE = re.compile(
    r"(≥|>=|⩾|不低于|不少于|至少|at least|≤|<=|⩽|不超过|最多|最高|up to|at most|>|超过|<|低于)\s*$", re.I
)
_BOUND_SIGN = {"≥": "≥", ">=": "≥", "⩾": "≥", "不低于": "≥", "不少于": "≥", "至少": "≥", "at least": "≥", "≤": "≤",
               "<=": "≤", "⩽": "≤", "不超过": "≤", "最多": "≤", "最高": "≤", "up to": "≤", "at most": "≤", ">": ">",
               "超过": ">", "<": "<", "低于": "<"}  # fmt: skip


@dataclass(eq=False)
class _Fig:
    f: Figure
    unit: Unit
    base: float  # |value| in the dimension's base unit
    tokens: frozenset[str]
    bound: str | None
    table: str | None  # figures of one printed table share this key
    row: str | None
    raw_num: str
    col: frozenset[str] | None = None  # labels naming the column within its row (None outside tables)
    ids: dict[str, frozenset[str]] = field(
        default_factory=dict
    )  # identifier tokens (p90, 70b, tp8) by shape (p#, #b, tp#)

    @_lazy
    def beyond(self) -> dict[int, frozenset[str]]:
        """`g.tokens - self.tokens` for table mates g (by id), filled as they are compared."""
        return {}

    @_lazy
    def found(self) -> str:
        """The message of a number verified by this figure (made once per figure, not per number)."""
        labs = _labels(self.f)
        return f"{self.f.report} p.{self.f.page}: {_shown(self)}" + (f" ({labs})" if labs else "")


_IS_CAPTION = re.compile(r"\s*(?:表|图|Table|Fig\.?|Figure)\s*[A-Z]?\d", re.I)


def _figure_bound(f: Figure, raw_num: str) -> str | None:
    for text in (f.raw, f.quote):
        i = text.find(raw_num) if raw_num else -1
        if i > 0 and (m := _BOUND_BEFORE.search(text[:i])):
            return _BOUND_SIGN.get(m.group(1).lower(), _BOUND_SIGN.get(m.group(1)))
    return None


@dataclass(eq=False)
class _ReportPrep:
    """One report's figures and pages, prepared once and shared by every index (and sub-index) that holds them."""

    rid: str
    figs: list[_Fig]
    page_list: list[Page]
    pure: bool  # every figure names this report (so per-report look-ups see exactly its figures)
    dims: list[str] = field(default_factory=list)  # dimensions in order of first appearance
    by_dim: dict[str, tuple[list[float], list[_Fig]]] = field(default_factory=dict)  # sorted by base value
    dim_figs: dict[str, list[_Fig]] = field(default_factory=dict)  # in report order
    with_unit: tuple[list[float], list[_Fig]] = field(default_factory=lambda: ([], []))  # figures with a unit, by value
    by_table: dict[str, list[_Fig]] = field(default_factory=dict)
    table_dims: dict[tuple[str, str], list[_Fig]] = field(default_factory=dict)  # (table, dimension) → figures
    rows: list[list[_Fig]] = field(default_factory=list)
    label_tokens: dict[str, frozenset[str]] = field(default_factory=dict)  # each label's words
    _pages: list[tuple[Page, tuple[str, frozenset[int]]]] | None = None
    _lines: dict[int, list[tuple[str, tuple[str, frozenset[int]]]]] = field(default_factory=dict)

    @_lazy
    def row_info(self) -> list[tuple[frozenset[str], list[tuple[float, str, Unit]]]]:
        """Each row's words and operands, for derivations: made on the first derivation, not per number."""
        return [
            (frozenset().union(*(x.tokens for x in r)), [(abs(x.f.value), x.raw_num or _num_text(x.f.value), x.unit) for x in r])
            for r in self.rows
        ]  # fmt: skip

    @_lazy
    def ints(self) -> dict[str, dict[str, list[tuple[_Fig, str, frozenset[str]]]]]:
        """report → integer token of a label → (figure, label, the label's other words), for row keys (`并发 8`);
        made on the first such look-up."""
        label_ints = {
            lab: [(tok, toks - {tok}) for tok in toks if tok.isdigit()] for lab, toks in self.label_tokens.items()
        }
        out: dict[str, dict[str, list[tuple[_Fig, str, frozenset[str]]]]] = {}
        for x in self.figs:
            for lab in x.f.labels:
                for tok, rest in label_ints[lab]:
                    out.setdefault(x.f.report, {}).setdefault(tok, []).append((x, lab, rest))
        return out

    def pages(self) -> list[tuple[Page, tuple[str, frozenset[int]]]]:
        """Normalised page texts, made on the first verbatim look-up in this report."""
        if self._pages is None:
            self._pages = [(p, _norm_cuts(p.text)) for p in self.page_list]
        return self._pages

    def lines(self, i: int) -> list[tuple[str, tuple[str, frozenset[int]]]]:
        """Page `i`'s lines (and pairs of lines) normalised, for quoting a verbatim hit."""
        out = self._lines.get(i)
        if out is None:
            out = self._lines[i] = _page_lines(self.page_list[i].text)
        return out


def _prepare_report(rid: str, figures: list[Figure], pages: list[Page]) -> _ReportPrep:
    figs: list[_Fig] = []
    label_tokens: dict[str, frozenset[str]] = {}
    # Identifier shapes per label, merged per figure: most labels hold none, so most figures share one empty map
    # (maps are read-only once made); merging per label instead of per token set is most of preparing a report.
    label_ids: dict[str, dict[str, frozenset[str]]] = {}
    merged: dict[tuple[str, ...], dict[str, frozenset[str]]] = {}
    no_ids: dict[str, frozenset[str]] = {}
    caption: dict[str, bool] = {}
    for f in figures:
        unit = parse_unit(f.unit)
        m = NUM_RE.search(f.raw or "")
        raw_num = m.group() if m else ""
        table = None
        toks: set[str] = set()
        for lab in f.labels:
            cap = caption.get(lab)
            if cap is None:
                cap = caption[lab] = bool(_IS_CAPTION.match(lab))
            if cap and table is None:
                table = f"{rid}\x1f{lab}"
            lt = label_tokens.get(lab)
            if lt is None:
                lt = label_tokens[lab] = _tokens(lab)
                label_ids[lab] = _id_shapes(lt)
            toks |= lt
        row = f"{rid}\x1f{f.page}\x1f{f.quote}" if f.kind == "cell" and f.quote else None
        ftoks = frozenset(toks)
        with_ids = tuple(lab for lab in f.labels if label_ids[lab])
        if not with_ids:
            ids = no_ids
        elif len(with_ids) == 1:
            ids = label_ids[with_ids[0]]
        else:
            ids = merged.get(with_ids) or merged.setdefault(with_ids, _merge_ids([label_ids[lab] for lab in with_ids]))
        figs.append(_Fig(f, unit, abs(f.value) * unit.factor, ftoks, _figure_bound(f, raw_num), table, row, raw_num,
                         ids=ids))  # fmt: skip
    rp = _ReportPrep(rid, figs, pages, pure=all(x.f.report == rid for x in figs))
    for x in figs:
        rp.dim_figs.setdefault(x.unit.dim, []).append(x)
        if x.table:
            rp.by_table.setdefault(x.table, []).append(x)
            rp.table_dims.setdefault((x.table, x.unit.dim), []).append(x)
    rp.dims = list(rp.dim_figs)
    for dim, lst in rp.dim_figs.items():
        ordered = sorted(lst, key=lambda x: x.base)
        rp.by_dim[dim] = ([x.base for x in ordered], ordered)
    ordered = sorted((x for x in figs if x.unit.dim), key=lambda x: x.base)
    rp.with_unit = ([x.base for x in ordered], ordered)
    # Tables without a caption label: figures sharing two or more labels count as one table.
    rows: dict[str, list[_Fig]] = {}
    for x in figs:
        if x.row:
            rows.setdefault(x.row, []).append(x)
    rp.rows = [members for members in rows.values() if len(members) >= 2]
    for members in rows.values():  # a row's own labels (row keys) vs each cell's column labels
        measured = [x for x in members if x.unit.dim] or members
        if len(measured) > 1:
            common = set(measured[0].f.labels).intersection(*(x.f.labels for x in measured[1:]))
            for x in members:
                x.col = frozenset(x.f.labels).difference(common)
    for members in rp.by_table.values():  # one-cell rows: the labels they share with other rows name the column
        seen: dict[str, set[str | None]] = {}
        for x in members:
            for lab in x.f.labels:
                seen.setdefault(lab, set()).add(x.row)
        n_rows = len({x.row for x in members})
        for x in members:
            if x.col is None and x.row is not None:
                x.col = frozenset(lab for lab in x.f.labels if 1 < len(seen[lab]) < n_rows or n_rows == 1)
    rp.label_tokens = label_tokens  # for `ints`, made when first asked
    return rp


# Prepared reports by the identity of their figure and page lists (held here, so an id is never reused while cached):
# a build checks each article against a sub-index sharing the full index's lists, and must not prepare them again.
_ReportKey = tuple[str, int, int, int, int]
_REPORT_CACHE: OrderedDict[_ReportKey, tuple[list[Figure] | None, list[Page] | None, _ReportPrep]] = OrderedDict()
_REPORT_CACHE_KEEP = 32  # beyond this many, drop reports whose lists no index holds any more
_REPORT_CACHE_MAX = 512
_REPORT_LOCK = threading.Lock()


def _held_elsewhere(lst: list[Any] | None) -> bool:
    # References: the cache's tuple, this argument, getrefcount's own; more means an index still holds the list.
    # (Should an interpreter count otherwise, a report is at worst prepared again: never a wrong result.)
    return lst is not None and sys.getrefcount(lst) > 3


def _report_prep(rid: str, figures: list[Figure] | None, pages: list[Page] | None) -> _ReportPrep:
    key = (rid, id(figures), len(figures or ()), id(pages), len(pages or ()))
    with _REPORT_LOCK:  # `publish serve` may check from several threads
        hit = _REPORT_CACHE.get(key)
        if hit is not None and hit[0] is figures and hit[1] is pages:
            _REPORT_CACHE.move_to_end(key)
            return hit[2]
    rp = _prepare_report(rid, figures or [], pages or [])
    with _REPORT_LOCK:
        _remember(key, figures, pages, rp)
    return rp


def _remember(key: _ReportKey, figures: list[Figure] | None, pages: list[Page] | None, rp: _ReportPrep) -> None:
    _REPORT_CACHE[key] = (figures, pages, rp)
    if len(_REPORT_CACHE) > _REPORT_CACHE_KEEP:
        # (entries are read by index, not unpacked: a local name would count as one more holder)
        for k in [k for k, e in _REPORT_CACHE.items() if not (_held_elsewhere(e[0]) or _held_elsewhere(e[1]))]:
            del _REPORT_CACHE[k]
    while len(_REPORT_CACHE) > _REPORT_CACHE_MAX:
        _REPORT_CACHE.popitem(last=False)


class _Prep:
    """An index's prepared reports, in the index's order; look-ups give the same figures in the same order as one
    index-wide table would."""

    def __init__(self, reports: list[_ReportPrep]) -> None:
        self.reports = reports
        self.by_rid = {rp.rid: rp for rp in reports}
        self.pure = all(rp.pure for rp in reports)
        self.dims = list(dict.fromkeys(d for rp in reports for d in rp.dims))
        self.dim_rank = {d: i for i, d in enumerate(self.dims)}
        self._ints: dict[str, dict[str, list[tuple[_Fig, str, frozenset[str]]]]] = {}
        self._holding: dict[tuple[str, ...], tuple[list[_ReportPrep], frozenset[str]]] = {}

    def holding(self, rids: Iterable[str]) -> list[_ReportPrep]:
        """The prepared reports whose figures may belong to `rids`, in index order."""
        if not self.pure:
            return self.reports
        wanted = set(rids)
        return [rp for rp in self.reports if rp.rid in wanted]

    def scope(self, rids: Iterable[str]) -> tuple[list[_ReportPrep], frozenset[str]]:
        """`holding(rids)` and the set of `rids`, remembered per scope (articles cite few distinct sets)."""
        key = tuple(rids)
        hit = self._holding.get(key)
        if hit is None:
            hit = self._holding[key] = (self.holding(key), frozenset(key))
        return hit

    def table(self, key: str) -> list[_Fig]:
        """The figures of one printed table (its key starts with the report id)."""
        rp = self.by_rid.get(key.split("\x1f", 1)[0])
        return rp.by_table.get(key, []) if rp else []

    def table_dim(self, key: str, dim: str) -> list[_Fig]:
        """The figures of one table in one dimension, in table order."""
        rp = self.by_rid.get(key.split("\x1f", 1)[0])
        return rp.table_dims.get((key, dim), []) if rp else []

    @property
    def figs(self) -> list[_Fig]:
        """Every figure, in index order (for tools; checking looks figures up per report)."""
        return [x for rp in self.reports for x in rp.figs]

    @property
    def by_table(self) -> dict[str, list[_Fig]]:
        return {k: v for rp in self.reports for k, v in rp.by_table.items()}

    def rows(self, rid: str) -> tuple[list[list[_Fig]], list[tuple[frozenset[str], list[tuple[float, str, Unit]]]]]:
        rp = self.by_rid.get(rid)
        return (rp.rows, rp.row_info) if rp else ([], [])

    def ints(self, rid: str) -> dict[str, list[tuple[_Fig, str, frozenset[str]]]]:
        out = self._ints.get(rid)
        if out is None:
            out = {}
            for rp in self.holding([rid]):
                for key, lst in rp.ints.get(rid, {}).items():
                    out.setdefault(key, []).extend(lst)
            self._ints[rid] = out
        return out

    def figs_of(self, rid: str, dim: str) -> Iterable[_Fig]:
        """Figures of report `rid` in dimension `dim`, in index order."""
        for rp in self.holding([rid]):
            for x in rp.dim_figs.get(dim, ()):
                if x.f.report == rid:
                    yield x


def _prepare(index: EvidenceIndex) -> _Prep:
    figures, pages = index.figures, index.pages
    sig = tuple((rid, id(figs), len(figs)) for rid, figs in figures.items()) + tuple(
        (rid, id(p), len(p)) for rid, p in pages.items()
    )
    cached = getattr(index, "_qc_prep", None)
    if cached and cached[0] == sig:
        return cached[1]
    rids = list(figures) + [rid for rid in pages if rid not in figures]
    prep = _Prep([_report_prep(rid, figures.get(rid), pages.get(rid)) for rid in rids])
    index._qc_prep = (sig, prep)  # type: ignore[attr-defined]  # cache on the instance; keyed by content identity
    return prep


def _matches_any_unit(
    prep: _Prep, holding: list[_ReportPrep], wanted: frozenset[str] | None, v: float, step: float
) -> list[_Fig]:
    """`_matches` for a number without a unit: figures of every dimension, listed dimension by dimension (in the
    index's order of dimensions), each by value, as one query per dimension would list them."""
    tol_bare = step / 2 * (1 + 1e-9) + 1e-12  # against figures without a unit: within the printed precision
    # a bare integer stands for a measured figure only when printed exactly
    tol_unit = 1e-9 * max(v, 1.0) if step >= 1 else tol_bare
    hits: list[_Fig] = []
    for rp in holding:
        for (bases, figs), tol in ((rp.by_dim.get("", ([], [])), tol_bare), (rp.with_unit, tol_unit)):
            lo = bisect_left(bases, v - tol)
            hi = bisect_right(bases, v + tol, lo)
            if lo < hi:
                hits.extend(figs[lo:hi] if wanted is None else [x for x in figs[lo:hi] if x.f.report in wanted])
    if len(hits) > 1:
        rank = prep.dim_rank
        hits.sort(key=lambda x: (rank[x.unit.dim], x.base))  # stable: ties stay in index order
    return hits


def _page_lines(text: str) -> list[tuple[str, tuple[str, frozenset[int]]]]:
    lines = [ln.strip() for ln in text.replace("\x00", "").split("\n") if ln.strip()]
    out = [(ln, _norm_cuts(ln)) for ln in lines]
    out += [(a + " " + b, _norm_cuts(a + " " + b)) for a, b in pairwise(lines)]
    return out


def _matches(prep: _Prep, value: float, step: float, unit: Unit, reports: Iterable[str] | None) -> list[_Fig]:
    """Figures equal to `value` within the printed precision (`step`), in compatible units."""
    if reports is None:
        holding, wanted = prep.reports, None
    else:
        holding, wanted = prep.scope(reports)
    if not holding:
        return []
    if prep.pure:  # the reports held are exactly the wanted ones
        wanted = None
    v = abs(value)
    if not unit.dim:
        return _matches_any_unit(prep, holding, wanted, v, step)
    out: list[_Fig] = []
    for dim in (unit.dim, ""):
        factor = unit.factor if dim else 1.0
        tol = step * factor / 2 * (1 + 1e-9) + 1e-12
        lo_v, hi_v = v * factor - tol, v * factor + tol
        hits: list[_Fig] = []
        sources = 0
        for rp in holding:
            pair = rp.by_dim.get(dim)
            if pair is None:
                continue
            bases, figs = pair
            lo = bisect_left(bases, lo_v)
            hi = bisect_right(bases, hi_v, lo)
            if lo < hi:
                hits.extend(figs[lo:hi] if wanted is None else [x for x in figs[lo:hi] if x.f.report in wanted])
                sources += 1
        if sources > 1:  # as one index-wide sorted table would list them: by value, ties in index order
            hits.sort(key=lambda x: x.base)
        out.extend(hits)
    return out


# ---------------------------------------------------------------------------------------------------------------
# The draft as blocks: front-matter fields, headings, paragraphs, list items, table cells.

# Sentence ends. Each alternative starts with one character of a set, so the regex engine skips ahead to
# candidates instead of trying the abbreviation look-behinds at every position. (`!` and `?` end a sentence
# unconditionally; `.` not after e.g., vs., Fig. … and only before space or the end.)
_NOT_ABBREV = r"(?<!e\.g.)(?<!i\.e.)(?<!vs.)(?<!al.)(?<!No.)(?<!Fig.)(?<!approx.)"
_FULL_END = re.compile(r"[。!?.\n](?:(?<=[。!?])[。!?]*|(?<=\.)" + _NOT_ABBREV + r"(?=\s|$)|(?<=\n)\s*\n)")
_SENT_END = re.compile(r"[。!?;.\n](?:(?<=[。!?;])[。!?;]*|(?<=\.)" + _NOT_ABBREV + r"(?=\s|$)|(?<=\n)\s*\n)")
_CLAUSE = re.compile(r"[,,;;::、]|\band\b|\bwhile\b|以及|并且")
_MARKER = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))?")
_HEADING = re.compile(r"^[ \t]*#{1,6}(?:[ \t]+(?:\d+(?:\.\d+)*\.?(?=[ \t]))?|$)|[ \t]+#+[ \t]*$")
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)*")
_MARKERS_ONLY = re.compile(r"【[^】]*】|\[source:[^\]]*\]|[\s。.;;,,]", re.I)


@dataclass(eq=False)
class _Item:
    parent: _Item | None
    intro: list[str]  # citations of the paragraph that introduces the list
    cites: list[str] = field(default_factory=list)


@dataclass(eq=False)
class _Block:
    field: str
    offset: int  # where `text` starts in the field's string
    text: str  # the field's text here, with Markdown markers blanked (same length)
    kind: str  # front, heading, para, item, table
    item: _Item | None = None
    intro: list[str] = dataclasses.field(default_factory=list)
    cites: list[str] = dataclasses.field(default_factory=list)
    cells: list[tuple[int, int, str, str]] = dataclasses.field(default_factory=list)  # (start, end, header, row)


def _blank(text: str, pattern: re.Pattern[str], first_only: bool = False) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if first_only and i > 0:
            lines[i] = _QUOTE_PREFIX.sub(lambda m: " " * len(m.group()), line)
            continue
        lines[i] = pattern.sub(lambda m: " " * len(m.group()), line)
    return "\n".join(lines)


def _markers_only(chunk: str) -> bool:
    """Whether `chunk` holds nothing but citation markers, spaces and punctuation."""
    if "【" not in chunk and "[" not in chunk:  # stops at the first other character, as a rule the first
        return all(c.isspace() or c in "。.;," for c in chunk)
    return not _MARKERS_ONLY.sub("", chunk)


def _cite_ids(text: str) -> list[str]:
    out: list[str] = []
    for _, _, ids in markers(text):
        out.extend(i for i in ids if i not in out)
    return out


def _split_cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a Markdown table row (escaped pipes stay in the cell)."""
    bars = [i for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\")]
    s = line.lstrip()
    if not s.startswith("|"):
        bars = [-1, *bars]
    if not line.rstrip().endswith("|") or line.rstrip().endswith("\\|"):
        bars.append(len(line))
    return [(a + 1, b) for a, b in pairwise(bars)]


def _line_starts(text: str) -> list[int]:
    out = [0]
    i = text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


def _body_blocks(body: str) -> list[_Block]:
    from markdown_it import MarkdownIt  # imported on first use: keeps `publish` start-up light

    md = _md_cache.get("md")
    if md is None:  # block structure only: inline parsing (emphasis, links…) tells QC nothing
        md = _md_cache["md"] = MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])
    starts = _line_starts(body)

    def span(m: list[int]) -> tuple[int, int]:
        a = starts[m[0]] if m[0] < len(starts) else len(body)
        b = starts[m[1]] - 1 if m[1] < len(starts) else len(body)
        return a, max(a, b)

    blocks: list[_Block] = []
    items: list[_Item | None] = [None]
    lists: list[list[str]] = []
    last_para: dict[int, _Block | None] = {}
    with_blocks: set[int] = set()  # list items that have a block already (their first line holds the marker)
    for tok in md.parse(body):
        ctx = id(items[-1])
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            prev = last_para.get(ctx)
            lists.append(prev.cites if prev else (items[-1].cites if items[-1] else []))
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            last_para[ctx] = None  # what follows a list is introduced by nothing
        elif tok.type == "list_item_open":
            parent = items[-1]
            items.append(_Item(parent, lists[-1] if lists else []))
        elif tok.type == "list_item_close":
            items.pop()
        elif tok.type in ("paragraph_open", "heading_open") and tok.map:
            a, b = span(tok.map)
            raw = body[a:b]
            item = items[-1]
            if tok.type == "heading_open":
                text, kind = _blank(raw, _HEADING), "heading"
                last_para[ctx] = None
            else:
                first = item is not None and id(item) not in with_blocks
                text = _blank(raw, _MARKER, first_only=True) if first else _blank(raw, _QUOTE_PREFIX)
                kind = "item" if item else "para"
            bl = _Block("body", a, text, kind, item=item, cites=_cite_ids(raw))
            if item is not None:
                item.cites.extend(c for c in bl.cites if c not in item.cites)
                with_blocks.add(id(item))
            blocks.append(bl)
            if kind != "heading":
                last_para[ctx] = bl
        elif tok.type == "table_open" and tok.map:
            a, b = span(tok.map)
            raw = body[a:b]
            prev = last_para.get(ctx)
            bl = _Block("body", a, raw, "table", item=items[-1], intro=prev.cites if prev else [], cites=_cite_ids(raw))
            if items[-1] is not None:
                with_blocks.add(id(items[-1]))
            lines = raw.split("\n")
            header_cells: list[str] = []
            pos = 0
            for ln_no, line in enumerate(lines):
                cells = _split_cells(line)
                if ln_no == 0:
                    header_cells = [line[s:e].strip() for s, e in cells]
                if ln_no != 1:  # the delimiter row holds no numbers
                    for ci, (s, e) in enumerate(cells):
                        hdr = header_cells[ci] if ci < len(header_cells) and ln_no > 0 else ""
                        bl.cells.append((pos + s, pos + e, hdr, line.replace("|", " ").strip()))
                pos += len(line) + 1
            blocks.append(bl)
            last_para[ctx] = None
    return blocks


_md_cache: dict[str, Any] = {}


# ---------------------------------------------------------------------------------------------------------------
# Checking one number.


@dataclass
class _Verdict:
    status: str
    source: Source | None = None
    derivation: str | None = None
    message: str = ""
    term: tuple[str, Page, str] | None = None  # (term text, page, quote) when verified verbatim
    fig: _Fig | None = None
    cands: list[_Fig] = field(default_factory=list)  # every figure the number fits (for from→to pairs)


def _labels(f: Figure, limit: int = 4) -> str:
    labs = [lab for lab in f.labels if lab and lab != f.quote][:limit]
    return ", ".join(labs)


def _source(x: _Fig) -> Source:
    f = x.f
    return Source(report=f.report, figure=f.id, page=f.page, value=f.value, unit=x.unit.name, quote=f.quote or f.raw,
                  version=f.version, page_label=f.page_label, labels=list(f.labels))  # fmt: skip


def _shown(x: _Fig) -> str:
    """A figure as printed (`26.0%`, `29.8K token`, `7.53 s`), falling back to its value."""
    raw = (x.f.raw or "").strip()
    if not raw or not NUM_RE.search(raw):
        return display(x.f.value, x.unit)
    name = x.unit.name
    if not name or name in raw or (name == "x" and re.search(r"[倍x×]", raw)):
        return raw
    if name == "x":
        return raw + "×"
    return raw + ("" if name == "%" else " ") + name


def _say(x: _Fig) -> str:
    labs = _labels(x.f)
    return f"{x.f.report} p.{x.f.page} says {_shown(x)}" + (f" ({labs})" if labs else "")


def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    digits = 2 if abs(v) >= 1 else 4
    return f"{v:.{digits}f}".rstrip("0").rstrip(".")


@dataclass(eq=False)
class _Sentence:
    start: int
    end: int
    chunk: str  # the sentence as written (positions of `where` count from `start`)
    cites: list[str]
    extra: str = ""  # more context words (a table cell's row and header)
    quantities: list[Quantity] = field(default_factory=list)
    full_cites: list[str] = field(default_factory=list)  # markers anywhere in the full sentence (up to 。)

    # Text and context are read only for sentences that hold a number, and once.
    @_lazy
    def plain(self) -> str:
        """The sentence without citation markers, spaces collapsed, final punctuation dropped."""
        plain = self.chunk
        for s, e, _ in reversed(markers(plain)):
            plain = plain[:s] + plain[e:]
        # = re.sub(r"\s+", " ", plain).strip() (split() breaks at the same whitespace); then the final punctuation.
        return " ".join(plain.split()).rstrip(" 。.!?;")

    @_lazy
    def text(self) -> str:
        """As shown in findings (a table cell shows its row instead)."""
        return self.plain

    @_lazy
    def tokens(self) -> frozenset[str]:
        return _tokens(self.plain + " " + self.extra)

    @_lazy
    def where(self) -> list[tuple[str, int]]:
        """Tokens with their positions in the block text."""
        return _positions(self.chunk, self.start)

    @_lazy
    def ids(self) -> dict[str, frozenset[str]]:
        return _id_shapes(self.tokens)


class _Checker:
    def __init__(self, draft: Draft, index: EvidenceIndex, severity: dict[str, str] | None) -> None:
        self.draft = draft
        self.index = index
        self.prep = _prepare(index)
        self.severity = severity or {}
        self.evidence = list(draft.meta.evidence)
        self.numbers: list[NumberCheck] = []
        self.terms: list[TermCheck] = []
        self.ids: dict[str, int] = {}
        self._text = ""
        self._body_starts = _line_starts(draft.body)
        self._file_starts = _line_starts(draft.text)

    # -- scopes ---------------------------------------------------------------------------------------------
    def _unknown(self, ids: Iterable[str], fld: str, offset: int) -> None:
        for rid in ids:
            if rid not in self.index.reports:
                line, _ = self._pos(fld, offset, rid)
                raise InputError(f"unknown report id {rid!r} in citation (not in the evidence registry)",
                                 path=self.draft.path, line=line)  # fmt: skip

    def _scope(self, bl: _Block, sent: _Sentence) -> list[str]:
        if sent.cites:  # a marker in the sentence always decides, in the front matter too
            return sent.cites
        if sent.full_cites:
            return sent.full_cites
        if bl.kind in ("front", "heading"):
            return list(self.evidence)
        if bl.kind == "item" and bl.item is not None:
            item: _Item | None = bl.item
            while item is not None:
                if item.cites:
                    return item.cites
                if item.intro:
                    return item.intro
                item = item.parent
            return []
        if bl.cites:
            return bl.cites
        return bl.intro

    # -- positions ------------------------------------------------------------------------------------------
    def _field_text(self, fld: str) -> str:
        meta = self.draft.meta
        if fld == "body":
            return self.draft.body
        if fld == "title":
            return meta.title
        if fld == "answer":
            return meta.answer
        _, n, qa = fld.split(".")
        return getattr(meta.faq[int(n)], qa)

    def _pos(self, fld: str, offset: int, text: str) -> tuple[int, int]:
        """1-based (line, column) in the file of `text` standing at `offset` of field `fld`."""
        if fld == "body":
            starts = self._body_starts
            i = bisect_right(starts, offset) - 1
            return self.draft.body_line + i, offset - starts[i] + 1
        key_line = self.draft.front_lines.get(fld, 1)
        src = self.draft.text
        starts = self._file_starts
        base = starts[min(key_line, len(starts)) - 1]
        k = self._field_text(fld).count(text, 0, offset)
        i = base - 1
        for _ in range(k + 1):
            i = src.find(text, i + 1)
            if i < 0:
                return key_line, 1
        n = bisect_right(starts, i) - 1
        return n + 1, i - starts[n] + 1

    # -- verdicts -------------------------------------------------------------------------------------------
    def _accounted(self, g: _Fig, sent: _Sentence, q: Quantity, value: float | None = None) -> bool:
        """Whether another number of the sentence (or the range's other end) stands for figure `g`."""
        for other in sent.quantities:
            if other.exempt or (other is q and not q.is_range):
                continue
            unit = parse_unit(other.unit)
            for v, step in other.endpoints():
                if other is q and v == value:
                    continue
                tol = step * (unit.factor if unit.dim else g.unit.factor) / 2 * (1 + 1e-9) + 1e-12
                if (not unit.dim or unit.dim == g.unit.dim) and abs(
                    abs(v) * (unit.factor if unit.dim else g.unit.factor) - g.base
                ) <= tol:
                    return True
        return False

    def _rival(self, f: _Fig, q: Quantity, value: float, step: float, unit: Unit, sent: _Sentence,
               endpoint: bool = False) -> _Fig | None:  # fmt: skip
        """A figure of the same table the sentence describes better than `f` (another row or metric)."""
        if not f.table:
            return None
        ctx, ft, dim = sent.tokens, f.tokens, f.unit.dim
        own = ctx & ft
        best, best_adv = None, 0
        scale = unit.factor if unit.dim else f.unit.factor
        tol = step * scale / 2 * (1 + 1e-9) + 1e-12
        target = abs(value) * scale
        beyond = f.beyond
        for g in self.prep.table_dim(f.table, dim):
            if g is f:
                continue
            more = beyond.get(id(g))
            if more is None:
                more = beyond[id(g)] = g.tokens - ft
            if ctx.isdisjoint(more):  # the sentence names nothing of g's that f lacks: g can never describe it better
                continue
            theirs = ctx & more
            if abs(g.base - target) <= tol:
                continue
            mine = own - g.tokens
            adv = len(theirs) - len(mine)
            if adv == 0 and mine and theirs and not endpoint and self._nearest_key(q, sent, mine, theirs) == "theirs":
                adv = 1  # "40% at concurrency 8 and 29% at concurrency 16": the key next to the number decides
            if adv > best_adv and not self._accounted(g, sent, q, value):
                best, best_adv = g, adv
        return best

    def _clause_bounds(self, q: Quantity, sent: _Sentence) -> tuple[int, int]:
        text = self._text
        cs = max((m.end() for m in _CLAUSE.finditer(text, sent.start, q.start)), default=sent.start)
        nxt = _CLAUSE.search(text, q.end, sent.end)
        return cs, (nxt.start() if nxt else sent.end)

    def _clause_tokens(self, q: Quantity, sent: _Sentence) -> frozenset[str]:
        cs, ce = self._clause_bounds(q, sent)
        return frozenset(tok for tok, pos in sent.where if cs <= pos < ce)

    def _nearest_key(self, q: Quantity, sent: _Sentence, mine: frozenset[str], theirs: frozenset[str]) -> str | None:
        """Which side's key stands nearest the number within its clause (None when none or both do)."""
        cs, ce = self._clause_bounds(q, sent)
        best, side = None, None
        for tok, pos in sent.where:
            if not cs <= pos < ce:
                continue
            if tok in mine or tok in theirs:
                d = q.start - pos if pos < q.start else pos - q.end
                if pos >= q.start and pos < q.end:
                    continue
                if best is None or d < best:
                    best, side = d, "mine" if tok in mine else "theirs"
                elif d == best and side != ("mine" if tok in mine else "theirs"):
                    side = None
        return side

    @staticmethod
    def _conflict(x: _Fig, sent: _Sentence) -> bool:
        """The sentence names a key of the kind this figure has, but another one (DeepSeek-32B vs a DeepSeek-70B table)."""
        return bool(x.ids) and any(shape in sent.ids and not (keys & sent.tokens) for shape, keys in x.ids.items())

    def _direct(self, q: Quantity, value: float, step: float, unit: Unit, sent: _Sentence, scope: list[str],
                endpoint: bool = False) -> _Verdict | None:  # fmt: skip
        cands = [x for x in _matches(self.prep, value, step, unit, scope) if self._bound_ok(q, x)]
        if not unit.dim or unit.dim.startswith("count:"):
            # A bare count (8 卡, 并发 8) rests on a unitless figure only where the sentence talks about the same thing.
            own = {_num_text(value)}
            cands = [x for x in cands if x.unit.dim or (sent.tokens - own) & x.tokens]
        if not cands:
            return None
        ctx = sent.tokens
        v = abs(value) * (unit.factor if unit.dim else 1.0)
        if len(cands) > 1:
            cands.sort(key=lambda x: (-len(ctx & x.tokens), abs(x.base - v * (1.0 if unit.dim else x.unit.factor))))
        rivals = []
        rival_of: dict[int, _Fig | None] = {}
        for x in cands:
            if endpoint or not self._conflict(x, sent):
                rival_of[id(x)] = self._rival(x, q, value, step, unit, sent, endpoint)
        fitting = [x for x in cands if id(x) in rival_of and rival_of[id(x)] is None]
        if fitting:
            x = fitting[0]
            return _Verdict("verified", _source(x), message=x.found, fig=x, cands=fitting)
        for x in cands:
            rival = rival_of[id(x)] if id(x) in rival_of else self._rival(x, q, value, step, unit, sent, endpoint)
            if rival is not None:
                rivals.append((x, rival))
        if not rivals:  # every figure with this value belongs to another model, row or gate than the sentence names
            x = cands[0]
            near = self._nearest(q, value, unit, sent, scope, exclude=x)
            keys = ", ".join(sorted(k for keys in x.ids.values() for k in keys))
            msg = f"{_shown(x)} in {x.f.report} is for {keys or _labels(x.f, 3)}, which this sentence does not name"
            if near:
                return _Verdict("mismatch", _source(near), fig=near, message=f"{_say(near)}; {msg}")
            return _Verdict("mismatch", _source(x), fig=x, message=msg)
        x, g = rivals[0]
        return _Verdict("mismatch", _source(g), fig=g,
                        message=f"{_say(g)}; {_shown(x)} is {_labels(x.f) or 'another figure'}")  # fmt: skip

    @staticmethod
    def _bound_ok(q: Quantity, x: _Fig) -> bool:
        return x.bound is None or x.bound == q.bound

    def _label(self, q: Quantity, value: float, sent: _Sentence, scope: list[str]) -> _Verdict | None:
        """A row key such as `并发 8` that names a table row of a cited report."""
        if value != int(value) or q.magnitude or (q.unit and not parse_unit(q.unit).dim.startswith("count:")):
            return None
        key = str(int(abs(value)))
        for rid in scope:
            for x, lab, own in self.prep.ints(rid).get(key, ()):  # own: the label's words but the key
                if (own and sent.tokens & own) or (not own and len(sent.tokens & x.tokens) >= 2):
                    src = Source(report=rid, figure="", page=x.f.page, value=value, unit=q.unit, quote=lab,
                                 version=x.f.version, page_label=x.f.page_label, labels=[lab])  # fmt: skip
                    return _Verdict("verified", src, message=f"{rid} p.{x.f.page}: {lab}")
        return None

    def _derive(
        self, q: Quantity, value: float, step: float, unit: Unit, sent: _Sentence, scope: list[str]
    ) -> _Verdict | None:
        """Percent change, ratio or difference of two numbers of the sentence, or of one table row of a cited report."""
        target = abs(value)
        if not unit.dim or unit.dim.startswith("count:"):
            return None
        tol = step / 2 * (1 + 1e-9) + 1e-12
        ops: list[tuple[float, str, Unit]] = []
        for other in sent.quantities:
            if other is q or other.exempt or other.count or not other.unit:
                continue
            u = parse_unit(other.unit)
            for v, _ in other.endpoints():
                ops.append((abs(v), _num_text(v), u))
        hit = _formula(ops, target, tol, unit, q)
        if hit:
            return _Verdict("derived", derivation=hit[0], message="derived from numbers of the sentence")
        dims = [u.dim for _, _, u in ops if u.dim not in ("%", "x")]
        paired = len(dims) > len(set(dims))  # the sentence states operands of its own
        clause = self._clause_tokens(q, sent)
        rows: list[list[_Fig]] = []
        infos: list[tuple[frozenset[str], list[tuple[float, str, Unit]]]] = []
        for rid in scope:
            r, info = self.prep.rows(rid)
            rows += r
            infos += info
        labels = [t for t, _ in infos]
        by_clause = [len(clause & t) for t in labels]
        by_sentence = [len(sent.tokens & t) for t in labels]
        # Operands come from the row the clause names (保存时间缩短 47%), else the row the sentence names best;
        # beside operands of its own, the sentence must name that row clearly.
        top_c, top_s = max(by_clause, default=0), max(by_sentence, default=0)
        eligible = [i for i in range(len(rows)) if (top_c >= 2 and by_clause[i] == top_c)
                    or (top_s >= (2 if paired else 1) and by_sentence[i] == top_s)]  # fmt: skip
        for i in eligible:
            row, ops = rows[i], infos[i][1]
            hit = _formula(ops, target, tol, unit, q)
            if hit:
                first = row[0]
                src = _source(hit[1]) if hit[1] else _source(first)
                return _Verdict("derived", src, derivation=hit[0],
                                message=f"derived from {first.f.report} p.{first.f.page} ({_labels(first.f, 2)})")  # fmt: skip
        return None

    def _verbatim(self, bl: _Block, q: Quantity, reports: Iterable[str]) -> tuple[str, Page, str] | None:
        """The number with its neighbouring words (`4 盘 RAID0`, `DeepSeek-32B`) as printed in a report's text."""
        for cand, strict in _term_candidates(bl.text, q):
            n = _norm(cand)
            if not n or (strict and len(n) < 2):
                continue
            for rid in reports:
                rp = self.prep.by_rid.get(rid)
                if rp is None:
                    continue
                for i, (page, text) in enumerate(rp.pages()):
                    if _find_bounded(text, n):
                        quote = next((ln for ln, nl in rp.lines(i) if _find_bounded(nl, n)), cand)
                        return cand.strip(), page, quote
        return None

    def check(self, bl: _Block, q: Quantity, sent: _Sentence, scope: list[str]) -> _Verdict:
        if not (_finite(q.value) and _finite(q.low) and _finite(q.high)):
            return _Verdict("unsupported", message=f"{q.text.strip()[:20]}… is too large to be any report's figure")
        unit = parse_unit(q.unit) if q.unit else NONE
        if q.is_range:
            parts = [self._one(bl, q, v, s, unit, sent, scope, endpoint=True) for v, s in q.endpoints()]
            bad = next((p for p in parts if p.status not in ("verified", "derived")), None)
            if bad:
                bad.message = f"{_num_text(q.low if bad is parts[0] else q.high)}: {bad.message}"
                return bad
            status = "derived" if any(p.status == "derived" for p in parts) else "verified"
            deriv = "; ".join(p.derivation for p in parts if p.derivation) or None
            return _Verdict(status, parts[0].source, deriv, " | ".join(p.message for p in parts), fig=parts[0].fig)
        return self._one(bl, q, q.value or 0.0, q.step, unit, sent, scope)

    def _one(self, bl: _Block, q: Quantity, value: float, step: float, unit: Unit, sent: _Sentence,
             scope: list[str], endpoint: bool = False) -> _Verdict:  # fmt: skip
        counting = q.count or unit.dim.startswith("count:")
        if counting or (not unit.dim and not q.magnitude):
            v = self._label(q, value, sent, scope)
            if v:
                return v
        v = self._direct(q, value, step, unit, sent, scope, endpoint)
        if v:
            return v
        v = self._derive(q, value, step, unit, sent, scope)
        if v:
            return v
        termish = counting or q.magnitude or not unit.dim
        if not endpoint and termish:
            term = self._verbatim(bl, q, scope)
            if term:
                t, page, quote = term
                src = Source(report=page.report, figure="", page=page.page, value=value, unit=unit.name, quote=quote,
                             version=page.version, page_label=page.label)  # fmt: skip
                return _Verdict("verified", src, message=f"{page.report} p.{page.page}: “{t}” verbatim", term=term)
        others = [r for r in self.index.reports if r not in scope]
        out = [x for x in _matches(self.prep, value, step, unit, others) if self._bound_ok(q, x)]
        if out:
            x = out[0]
            where = ", ".join(scope) if scope else "no report"
            return _Verdict("uncited", _source(x), fig=x,
                            message=f"only {x.f.report} has it (p.{x.f.page}, {_labels(x.f, 3)}); this sentence cites {where}")  # fmt: skip
        if not endpoint and termish and others and (term := self._verbatim(bl, q, others)):
            t, page, quote = term
            src = Source(report=page.report, figure="", page=page.page, value=value, unit=unit.name, quote=quote,
                         version=page.version, page_label=page.label)  # fmt: skip
            return _Verdict(
                "uncited",
                src,
                message=f"only {page.report} has “{t}” (p.{page.page}); this sentence cites {', '.join(scope) or 'no report'}",
            )
        near = self._nearest(q, value, unit, sent, scope)
        if near:
            return _Verdict("mismatch", _source(near), fig=near, message=_say(near))
        where = ", ".join(scope) if scope else "no report is cited here"
        return _Verdict("unsupported", message=f"no cited report has {q.text.strip()} ({where})")

    def _nearest(self, q: Quantity, value: float, unit: Unit, sent: _Sentence, scope: list[str],
                 exclude: _Fig | None = None) -> _Fig | None:  # fmt: skip
        """The figure of a cited report that the sentence most likely meant (same kind of unit, most shared labels)."""
        if not unit.dim or unit.dim.startswith("count:") or q.count:
            return None
        v = abs(value) * unit.factor
        best, best_key = None, None
        for rid in scope:
            for x in self.prep.figs_of(rid, unit.dim):
                if x is exclude or self._conflict(x, sent):
                    continue
                score = len(sent.tokens & x.tokens)
                rel = abs(x.base - v) / max(x.base, v, 1e-12)
                if score < 1 and rel > 0.25:
                    continue
                key = (score, not self._accounted(x, sent, q), -rel)
                if best_key is None or key > best_key:
                    best, best_key = x, key
        return best

    # -- driving --------------------------------------------------------------------------------------------
    def _sentences(self, text: str, spans: list[tuple[int, int]] | None = None) -> list[_Sentence]:
        out: list[_Sentence] = []
        regions = spans or [(0, len(text))]
        for a, b in regions:
            pos = a
            cuts = [m.end() for m in _SENT_END.finditer(text, a, b)]
            for end in [*cuts, b]:
                if end <= pos:
                    continue
                chunk = text[pos:end]
                if out and out[-1].end == pos and _markers_only(chunk):
                    prev = out[-1]  # a citation marker after the full stop belongs to the sentence before it
                    prev.end = end
                    prev.cites = list(dict.fromkeys([*prev.cites, *_cite_ids(chunk)]))
                elif chunk.strip():
                    out.append(self._sentence(text, pos, end))
                pos = end
        # A marker at the end of a full sentence covers its clauses before a `;` too.
        if not any(x.cites for x in out):
            return out  # no marker anywhere: every full sentence's markers are none
        fulls = [m.end() for m in _FULL_END.finditer(text)] + [len(text)]
        start, k = 0, 0
        for end in fulls:  # sentences are in order: each full sentence takes the next run of them
            while k < len(out) and out[k].start < start:
                k += 1
            j = k
            while j < len(out) and out[j].start < end:
                j += 1
            group = out[k:j]
            # (one sentence's markers are already without repeats)
            cites = list(group[0].cites) if len(group) == 1 else list(dict.fromkeys(c for x in group for c in x.cites))
            for x in group:
                x.full_cites = cites
            start = end
        return out

    def _sentence(self, text: str, a: int, b: int, extra: str = "") -> _Sentence:
        chunk = text[a:b]
        return _Sentence(a, b, chunk, _cite_ids(chunk), extra)

    def run_block(self, bl: _Block) -> None:
        ftext = self._text = bl.text
        self._unknown(bl.cites, bl.field, bl.offset)
        if bl.kind == "table":
            units = {}
            for s, e, hdr, row in bl.cells:
                m = re.search(r"[((]([^()()]+)[))]\s*$|/\s*([A-Za-z%/]+)\s*$", hdr)
                hu = parse_unit((m.group(1) or m.group(2)) if m else "") if hdr else NONE
                units[(s, e)] = hu
                sent = self._sentence(ftext, s, e, extra=f"{row} {hdr}")
                sent.text = row
                qs = [q for q in extract(ftext[s:e])]
                for q in qs:
                    _shift(q, s)
                    if not q.exempt and not q.unit and not q.count and hu.dim:
                        q.unit = hu.name
                sent.quantities = qs
                self._emit(bl, sent, qs)
            return
        quantities = extract(ftext)
        sents = self._sentences(ftext)
        for sent in sents:
            sent.quantities = [q for q in quantities if sent.start <= q.start < sent.end]
        for sent in sents:
            self._emit(bl, sent, sent.quantities)

    def _pairs(self, text: str, qs: list[Quantity], verdicts: list[_Verdict]) -> None:
        """`从 A 降至 B`: A and B must be two figures of one row, or of one column, of the same table."""
        live = [(q, v) for q, v in zip(qs, verdicts, strict=True) if not q.exempt]
        for (a, va), (b, vb) in pairwise(live):
            if a.is_range or b.is_range or va.status != "verified" or vb.status != "verified":
                continue
            if not va.cands or not vb.cands or not CHANGE_RE.fullmatch(text, a.end, b.start):
                continue
            same_table = [(x, y) for x in va.cands for y in vb.cands if x.table and x.table == y.table]
            if not same_table or len(same_table) < len([(x, y) for x in va.cands for y in vb.cands]):
                continue  # the pair spans tables or prose: nothing to compare
            if any(x is not y and (x.row == y.row or (x.col is not None and x.col == y.col)) for x, y in same_table):
                continue
            x, y = same_table[0]
            mate = next((m for m in self.prep.table(x.table or "") if m.row == x.row and m is not x
                         and m.unit.dim == y.unit.dim), None)  # fmt: skip
            target = mate or y
            msg = (f"{a.text.strip()} and {b.text.strip()} are not one before/after pair of {x.f.report} "
                   f"({_labels(x.f, 3)} vs {_labels(y.f, 3)})") + (f"; {_say(mate)}" if mate else "")  # fmt: skip
            verdicts[verdicts.index(vb)] = _Verdict("mismatch", _source(target), message=msg, fig=target)

    def _changes(self, sent: _Sentence, qs: list[Quantity], verdicts: list[_Verdict]) -> None:
        """`从 10.17 s 降至 7.53 s(降低 26%)`: a percentage or ratio after a from→to pair in its clause is that change."""
        live = [(k, q) for k, q in enumerate(qs) if not q.exempt]  # (a number's place in qs: no two are equal)
        text = self._text
        for i, (k, q) in enumerate(live):
            if i < 2 or q.is_range:
                continue
            unit = parse_unit(q.unit)
            v = verdicts[k]
            if unit.dim not in ("%", "x") or v.status not in ("verified", "derived"):
                continue
            a, b = live[i - 2][1], live[i - 1][1]
            ua, ub = parse_unit(a.unit), parse_unit(b.unit)
            if a.is_range or b.is_range or not ua.dim or ua.dim != ub.dim or ua.dim in ("%", "x"):
                continue
            if not CHANGE_RE.fullmatch(text, a.end, b.start) or _CLAUSE.search(text, a.end, q.start):
                continue
            ops = [(abs(a.value or 0), _num_text(a.value), ua), (abs(b.value or 0), _num_text(b.value), ub)]
            if _formula(ops, abs(q.value or 0), q.step / 2 * (1 + 1e-9) + 1e-12, unit, q):
                continue
            x, y = ops[0][0] * ua.factor, ops[1][0] * ub.factor
            if not x or not y:
                continue
            said = f"{_fmt(abs(x - y) / x * 100)}%" if unit.dim == "%" else f"{_fmt(max(x, y) / min(x, y))}×"
            verdicts[k] = _Verdict(
                "mismatch", v.source, fig=v.fig,
                message=f"from {a.text.strip()} to {b.text.strip()} is {said}, not {q.text.strip()}"
                + (f" ({v.message})" if v.message else ""),
            )  # fmt: skip

    def _emit(self, bl: _Block, sent: _Sentence, qs: list[Quantity]) -> None:
        self._unknown(sent.cites, bl.field, bl.offset + sent.start)
        if not qs:
            return
        scope = self._scope(bl, sent)
        verdicts = [
            _Verdict("exempt", message={"id": "identifier", "date": "date", "citation": "citation"}[q.exempt])
            if q.exempt
            else self.check(bl, q, sent, scope)
            for q in qs
        ]
        self._pairs(bl.text, qs, verdicts)
        self._changes(sent, qs, verdicts)
        for q, v in zip(qs, verdicts, strict=True):
            start, end = bl.offset + q.start, bl.offset + q.end
            text = q.text
            line, col = self._pos(bl.field, start, text)
            base_id = f"{bl.field}\x1f{sent.text}\x1f{text}"
            k = self.ids.get(base_id, 0)
            self.ids[base_id] = k + 1
            fid = hashlib.sha256((base_id + (f"\x1f{k}" if k else "")).encode()).hexdigest()[:12]
            status = v.status
            sev = "ok" if status not in ERROR_STATUSES else self.severity.get(status, "error")
            value = None if q.exempt or q.is_range or not math.isfinite(q.value or 0.0) else q.value  # JSON: no inf
            self.numbers.append(NumberCheck(
                text=text, line=line, column=col, value=value, unit=q.unit, status=status, severity=sev,
                cited=list(scope), source=v.source, derivation=v.derivation, message=v.message, field=bl.field,
                start=start, end=end, sentence=sent.text, id=fid,
            ))  # fmt: skip
            if v.term:
                t, page, quote = v.term
                self.terms.append(TermCheck(text=t, line=line, column=col, report=page.report, page=page.page,
                                            quote=quote, field=bl.field, start=start, end=end))  # fmt: skip

    def run(self) -> FileResult:
        meta = self.draft.meta
        missing = [r for r in self.evidence if r not in self.index.reports]
        if missing:
            raise InputError(f"unknown report id {', '.join(missing)} in evidence (not in the evidence registry)",
                             path=self.draft.path, line=self.draft.front_lines.get("evidence"))  # fmt: skip
        fields = [("title", meta.title), ("answer", meta.answer)]
        for i, qa in enumerate(meta.faq):
            fields += [(f"faq.{i}.q", qa.q), (f"faq.{i}.a", qa.a)]
        for name, text in fields:
            self.run_block(_Block(name, 0, text, "front", cites=_cite_ids(text)))
        for bl in _body_blocks(self.draft.body):
            self.run_block(bl)
        summary = {s: 0 for s in ALL_STATUSES}
        for n in self.numbers:
            summary[n.status] += 1
        ok = not any(n.severity == "error" for n in self.numbers)
        return FileResult(file=self.draft.path, ok=ok, numbers=self.numbers, terms=self.terms, summary=summary)


def _finite(v: float | None) -> bool:
    return v is None or math.isfinite(v)


def _shift(q: Quantity, by: int) -> None:
    q.start += by
    q.end += by
    q.num_start += by
    q.num_end += by
    if q.low_end:
        q.low_end += by


def _num_text(v: float | None) -> str:
    if v is None:
        return ""
    return f"{v:.6f}".rstrip("0").rstrip(".")


def _formula(
    ops: list[tuple[float, str, Unit]], target: float, tol: float, unit: Unit, q: Quantity
) -> tuple[str, _Fig | None] | None:
    """Search percent change, ratio and difference of two operands for `target` (within `tol`)."""
    shown = q.text[max(0, q.num_start - q.start) :].strip()
    for i, (a, ta, ua) in enumerate(ops):
        for j, (b, tb, ub) in enumerate(ops):
            if i == j or not ua.dim or ua.dim != ub.dim or ua.dim in ("%", "x") or a <= 0 or b <= 0:
                continue
            a_, b_ = a * ua.factor, b * ub.factor
            if a_ == b_:
                continue
            if unit.dim == "%":
                pct = abs(a_ - b_) / a_ * 100
                if abs(pct - target) <= tol:
                    return (
                        f"({ta}−{tb})/{ta} = {_fmt(pct)}% ≈ {shown}"
                        if a_ > b_
                        else f"({tb}−{ta})/{ta} = {_fmt(pct)}% ≈ {shown}",
                        None,
                    )
            elif unit.dim == "x":
                r = a_ / b_
                if r >= 1 and abs(r - target) <= tol:
                    return f"{ta}/{tb} = {_fmt(r)} ≈ {shown}", None
            elif unit.dim == ua.dim and i < j:
                d = abs(a_ - b_) / unit.factor
                if abs(d - target) <= tol:
                    return f"{ta}−{tb} = {_fmt(d)} ≈ {shown}" if a_ > b_ else f"{tb}−{ta} = {_fmt(d)} ≈ {shown}", None
    return None


_LEFT_GLUED = re.compile(r"[A-Za-z0-9_.\-]*$")
_LEFT_WORD = re.compile(r"([A-Za-z][A-Za-z0-9_.\-]*)[ \u00a0]$")
_RIGHT_WORD = re.compile(r"[ \u00a0]?([A-Za-z0-9][A-Za-z0-9_.\-]*|[\u3400-\u9fff]{1,2})")


def _term_candidates(text: str, q: Quantity) -> list[tuple[str, bool]]:
    """Strings to look up verbatim, most specific first; a bare number only where it carries a unit or magnitude."""
    core_start = q.num_start - 1 if q.count and q.num_start > 0 and text[q.num_start - 1] in "×xX" else q.num_start
    core = text[core_start : q.end]
    glued = _LEFT_GLUED.search(text, 0, core_start)
    lg = glued.group() if glued else ""
    before = core_start - len(lg)
    lw = _LEFT_WORD.search(text, max(0, before - 40), before)
    left = (lw.group(0) if lw else "") + lg
    rm = _RIGHT_WORD.match(text, q.end)
    right = rm.group(0) if rm and not (rm.group(1)[0].isdigit() and not rm.group(1)[-1].isalpha()) else ""
    out: list[tuple[str, bool]] = []
    for cand in (left + core + right, left + core, core + right):
        if cand != core and cand not in [c for c, _ in out]:
            out.append((cand, True))
    if q.unit or q.magnitude or q.count:
        out.append((core, False))
    return out


def _find_bounded(norm: tuple[str, frozenset[int]], needle: str) -> bool:
    """`needle` in normalised text not as part of a longer number or word (`4盘` must not match in `14盘`)."""
    hay, cuts = norm
    i = hay.find(needle)
    while i >= 0:
        before = hay[i - 1] if i > 0 and i not in cuts else ""
        after = hay[i + len(needle)] if i + len(needle) < len(hay) and i + len(needle) not in cuts else ""
        ok_b = not (
            needle[0].isalnum() and needle[0].isascii() and ((before.isascii() and before.isalnum()) or before == ".")
        )
        ok_a = not (
            needle[-1].isascii()
            and needle[-1].isalnum()
            and after.isascii()
            and (after.isalnum() or (after == "." and needle[-1].isdigit()))
        )
        if ok_b and ok_a:
            return True
        i = hay.find(needle, i + 1)
    return False


def check_draft(draft: Draft, index: EvidenceIndex, severity: dict[str, str] | None = None) -> FileResult:
    """Check every number of `draft` (front matter and body) against the figures of the reports each one cites."""
    return _Checker(draft, index, severity).run()
