"""Report preparation: each report's figures by dimension and value, tables, rows, pages, made once per index."""

from __future__ import annotations

import re
import sys
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from evidence.models import Figure, Page
from qc.context import COUNT_WORDS, KINDS, context_tokens, id_shape, id_shapes, lazy, merge_ids, norm_cuts, num_text
from qc.index import EvidenceIndex
from qc.models import Source
from qc.numbers import NUM_RE
from qc.units import UNNAMED_RATE, Unit, aliases, display, names_counted_rate, parse_unit

_BOUND_BEFORE = re.compile(
    r"(≥|>=|⩾|不低于|不少于|至少|at least|≤|<=|⩽|不超过|最多|最高|up to|at most|>|超过|<|低于)\s*$", re.I
)
_BOUND_SIGN = {"≥": "≥", ">=": "≥", "⩾": "≥", "不低于": "≥", "不少于": "≥", "至少": "≥", "at least": "≥", "≤": "≤",
               "<=": "≤", "⩽": "≤", "不超过": "≤", "最多": "≤", "最高": "≤", "up to": "≤", "at most": "≤", ">": ">",
               "超过": ">", "<": "<", "低于": "<"}  # fmt: skip


_MULTIPLE = re.compile(r"\d+x")  # a label token naming a multiple (`1x`, `4x`)


@dataclass(eq=False)
class Fig:
    f: Figure
    unit: Unit
    base: float  # |value| in the dimension's base unit
    tokens: frozenset[str]
    bound: str | None
    table: str | None  # figures of one printed table share this key
    row: str | None
    raw_num: str
    col: frozenset[str] | None = None  # labels naming the column within its row (None outside tables)
    listed: bool = False  # its number names a choice in a list or an identifier, not a measurement
    ids: dict[str, frozenset[str]] = field(
        default_factory=dict
    )  # identifier tokens (p90, 70b, tp8) by shape (p#, #b, tp#)

    @lazy
    def beyond(self) -> dict[int, frozenset[str]]:
        """`g.tokens - self.tokens` for table mates g (by id), filled as they are compared."""
        return {}

    @lazy
    def col_tokens(self) -> frozenset[str]:
        """The words of the labels naming its column (empty outside tables)."""
        return frozenset().union(*(context_tokens(lab) for lab in self.col)) if self.col else frozenset()

    @lazy
    def own_tokens(self) -> frozenset[str]:
        """The words of its own labels: a table cell's row and column, not its table's caption nor the section it
        stands in (a bare `8` of a `batch` column is no `misses 为 8` because both are under `read_perf`)."""
        if not self.table:
            # a prose figure's own words are its sentence's (its first label), not those of the section heading it
            # stands under (`0.01` under `4.3 SqueezeNet` names no SqueezeNet gain)
            labs = self.f.labels
            return frozenset().union(*(context_tokens(lab) for i, lab in enumerate(labs)
                                       if i == 0 or not _SECTION_LABEL.match(lab))) if labs else self.tokens  # fmt: skip
        return frozenset().union(*(context_tokens(lab) for lab in self.f.labels if not _IS_CAPTION.match(lab)
                                   and not _SECTION_LABEL.match(lab)))  # fmt: skip

    @lazy
    def label_unit(self) -> Unit | None:
        """The unit its labels carry (a column header's or a caption's), for figures printed without one."""
        return next((u for lab in self.f.labels if (u := header_unit(lab)) is not None), None)

    @lazy
    def row_keys(self) -> tuple[tuple[str, str, str], ...]:
        """Its labels that are row keys with a number (`batch 4`, `并发档位 8`): (key word, number, label)."""
        out = []
        for lab in self.f.labels:
            kv = row_key(lab)
            if kv is not None:
                out.append((kv[0], kv[1], lab))
            elif "=" in lab:  # keys inside a longer label: `1MB batch=4`
                out += [(m.group(1).lower(), m.group(2), lab) for m in _KEY_IN_LABEL.finditer(lab)]
        return tuple(out)

    @lazy
    def systems(self) -> frozenset[str]:
        """The system names of the report section it stands in (`ACL` under `4 Performance with Arm Compute Library
        (ACL)`) that tell that section from others (set by `_prepare_report`)."""
        return frozenset()

    @lazy
    def row_terms(self) -> frozenset[str]:
        """The words that tell its row from the other rows of its table (`Metalloids`, `4mb`, `1` of `batch 1`),
        stemmed; empty outside tables or where no label tells the rows apart (set by `_prepare_report`)."""
        return frozenset()

    @lazy
    def row_mates(self) -> frozenset[str]:
        """The other measured cells of its row as printed (`67.6`, `7368.67`; no bare small integers such as a
        `batch` cell), set by `_row_terms`: a claim stating one of them names this row."""
        return frozenset()

    @lazy
    def lent(self) -> frozenset[str]:
        """The words it has only from its caption or section that are, alone, another cell's label (`Table 1. HPO
        performed in OTSL and HTML` over `OTSL` and `HTML` rows: `otsl` is no word of an HTML cell's), by `_lend`."""
        return frozenset()

    @lazy
    def groups(self) -> tuple[tuple[int, tuple[tuple[frozenset[str], frozenset[str]], ...]], ...]:
        """The groups of its table's columns or rows it stands in, the systems they name (`HBase min`, `HBase max` |
        `Cassandra min`, `Cassandra max`; rows `HBase` | `Cassandra`): for each way the labels group them, its group's
        index and every group's words (stemmed) and dimensions (set by `_column_groups`)."""
        return ()

    @lazy
    def part(self) -> bool:
        """Whether it is a part of a breakdown row (`Allocate`, `Run`, `Config` beside the `TPI` they add up to), set by
        `_mark_parts`: only a claim naming its column means it."""
        return False

    @lazy
    def chart_run(self) -> bool:
        """Whether it is a value of a glued run of chart labels (set by `_demote_chart_runs`): it says no bar."""
        return False

    @lazy
    def limit(self) -> str:
        """`upper` (`within 100 ms`) or `lower` (`exceed 300 ms`) where its sentence limits it in words."""
        return figure_limit(self.f, self.raw_num)

    @lazy
    def list_quote(self) -> str:
        """Its quote as read for pairing a list of numbers with names: `for the three workloads` spelled out with the
        names the page gave before it (set by `_name_anaphoric_lists`)."""
        return self.f.quote

    @lazy
    def unit_named(self) -> bool:
        """Whether it is the only cell of its column in its kind of unit (the unit alone names its row)."""
        return False

    @lazy
    def extreme(self) -> str:
        """`max` or `min` when it is the largest or smallest of its column in its table, else "" (or both: "maxmin")."""
        return ""

    @lazy
    def found(self) -> str:
        """The message of a number verified by this figure (made once per figure, not per number)."""
        labs = labels_of(self.f)
        return f"{self.f.report} p.{self.f.page}: {shown(self)}" + (f" ({labs})" if labs else "")


_ROW_KEY = re.compile(
    r"^\s*(?:[A-Za-z][A-Za-z _-]*?\s)?([A-Za-z]{2,}|[\u3400-\u9fff]{2})[\u3400-\u9fff]*\s*[=::]?\s*(\d+)\s*"
    r"(?:ms|s|min|秒|毫秒|分钟)?\s*$"  # a setting in time units keys its row too (`窗口大小 60s` vs `120s`)
)


# Two-letter words that key no row (a lower-case search parameter `ef 64` does; `TP 8` is a name, TP8)
_NO_KEY = frozenset(["an", "as", "at", "by", "in", "is", "no", "of", "on", "or", "to", "up", "vs"])
# A count of a part named by its kind (`# enc-layers 2`, `dec-layers 4`): the kind keys the row (enc vs dec).
_PART_KEY = re.compile(r"^\s*#?\s*([A-Za-z]{3,})-[A-Za-z]+\s*[=:]?\s*(\d+)\s*$")
_KEY_IN_LABEL = re.compile(r"(?<![A-Za-z])([A-Za-z]{3,})\s*=\s*(\d+)(?![\d.])")
_YEAR_LABEL = re.compile(r"((?:19|20)\d\d)[AEF]?")


def row_key(label: str) -> tuple[str, str] | None:
    """A label naming a row by a key word and an integer (`batch 4`, `concurrency=16`, `并发档位 8`): (word, number)."""
    y = _YEAR_LABEL.fullmatch(label.strip())
    if y is not None:  # a year column (`2024A`, `2026E`): the key is the year
        return "year", y.group(1)
    m = _ROW_KEY.match(label) or _PART_KEY.match(label)
    if m is None or _IS_CAPTION.match(label):
        return None
    word = m.group(1)
    if len(word) == 2 and word.isascii() and (not word.islower() or word in _NO_KEY):
        return None
    return word.lower(), m.group(2)


_IS_CAPTION = re.compile(r"\s*(?:表|图|Table|Fig\.?|Figure)\s*[A-Z]?\d", re.I)
_SECTION_LABEL = re.compile(r"\s*\d{1,2}(?:\.\d{1,2})*\.?\s+\S")  # a section heading label: `5.3 完整结果矩阵`


def _figure_bound(f: Figure, raw_num: str) -> str | None:
    for text in (f.raw, f.quote):
        i = text.find(raw_num) if raw_num else -1
        if i > 0 and (m := _BOUND_BEFORE.search(text[:i])):
            return _BOUND_SIGN.get(m.group(1).lower(), _BOUND_SIGN.get(m.group(1)))
    return None


# How a report sentence limits a figure where no bound sign is printed: `a TBT within 100 ms` is an upper limit,
# `requests … exceed 300 ms` a lower one.
_UPPER_BEFORE = re.compile(
    r"\b(?:within|below|under|less than|no more than|at most|up to|maximum(?: [a-z]+)? (?:of|by))[ \u00a0]*$"
    r"|(?:不超过|以内)$"
    r"|\b(?:not|never)[ \u00a0]+(?:go[ \u00a0]+|be[ \u00a0]+)?(?:beyond|exceed|above|over|more than)[ \u00a0]*$",
    re.I,
)  # (`should not go beyond 30 degrees`: a negated lower limit is an upper one)
_LOWER_BEFORE = re.compile(
    r"\b(?:exceeds?|exceeding|exceeded|above|over|more than|greater than|beyond|at least)[ \u00a0]*$", re.I
)


def figure_limit(f: Figure, raw_num: str) -> str:
    """`upper` or `lower` when the words right before the figure's number in its quote limit it, else ""."""
    i = f.quote.find(raw_num) if raw_num and f.kind == "prose" else -1
    if i <= 0 or f.quote.find(raw_num, i + 1) >= 0:
        return ""  # (a number printed twice: which one the figure is, the quote cannot say)
    before = f.quote[max(0, i - 24) : i]
    return "upper" if _UPPER_BEFORE.search(before) else "lower" if _LOWER_BEFORE.search(before) else ""


def opposite_bound(bound: str | None, x: Fig) -> bool:
    """A claim bounded one way (`超过 100 ms`: more than) never rests on a figure the report limits the other way
    (`most requests … maintain a TBT within 100 ms`)."""
    if not bound:
        return False
    limit = x.limit
    return (limit == "upper" and bound in (">", "≥")) or (limit == "lower" and bound in ("<", "≤"))


def same_bound(bound: str, x: Fig) -> bool:
    """Whether the report's words limit figure `x` the way claim bound `bound` does (`exceeds 100 Gbps` for `超过 100
    Gbps`)."""
    return (x.limit == "lower" and bound in (">", "≥")) or (x.limit == "upper" and bound in ("<", "≤"))


@dataclass(eq=False)
class ReportPrep:
    """One report's figures and pages, prepared once and shared by every index (and sub-index) that holds them."""

    rid: str
    figs: list[Fig]
    page_list: list[Page]
    pure: bool  # every figure names this report (so per-report look-ups see exactly its figures)
    dims: list[str] = field(default_factory=list)  # dimensions in order of first appearance
    by_dim: dict[str, tuple[list[float], list[Fig]]] = field(default_factory=dict)  # sorted by base value
    dim_figs: dict[str, list[Fig]] = field(default_factory=dict)  # in report order
    with_unit: tuple[list[float], list[Fig]] = field(default_factory=lambda: ([], []))  # with a unit, by printed value
    by_table: dict[str, list[Fig]] = field(default_factory=dict)
    table_dims: dict[tuple[str, str], list[Fig]] = field(default_factory=dict)  # (table, dimension) → figures
    rows: list[list[Fig]] = field(default_factory=list)
    systems: frozenset[str] = frozenset()  # system names that tell its top-level sections apart
    label_tokens: dict[str, frozenset[str]] = field(default_factory=dict)  # each label's words
    _pages: list[tuple[Page, tuple[str, frozenset[int]]]] | None = None
    _lines: dict[int, list[tuple[str, tuple[str, frozenset[int]]]]] = field(default_factory=dict)
    _table_words: dict[tuple[str, str], dict[str, list[int]]] = field(default_factory=dict)

    def table_words(self, key: str, dim: str) -> dict[str, list[int]]:
        """Each word of a table's figures in one dimension → their positions in `table_dims[(key, dim)]` (ascending),
        made on the first look-up: a claim's rival cells are found from its words, not by scanning the table."""
        hit = self._table_words.get((key, dim))
        if hit is None:
            hit = self._table_words[(key, dim)] = {}
            for i, x in enumerate(self.table_dims.get((key, dim), ())):
                for tok in x.tokens:
                    hit.setdefault(tok, []).append(i)
        return hit

    @lazy
    def row_info(self) -> list[tuple[frozenset[str], list[tuple[float, str, Unit]]]]:
        """Each row's words and operands, for derivations: made on the first derivation, not per number."""
        return [
            (frozenset().union(*(x.tokens for x in r)), [(abs(x.f.value), x.raw_num or num_text(x.f.value), x.unit) for x in r])
            for r in self.rows
        ]  # fmt: skip

    @lazy
    def page_cells(self) -> dict[tuple[int, str], list[Fig]]:
        """(page, dimension) → the table cells there that have a column, for a rival in the table beside a cell's."""
        out: dict[tuple[int, str], list[Fig]] = {}
        for x in self.figs:
            if x.table and x.col:
                out.setdefault((x.f.page, x.unit.dim), []).append(x)
        return out

    @lazy
    def columns(self) -> list[list[Fig]]:
        """Each table column's cells (figures of one table whose labels name the same column), for derivations."""
        out: dict[tuple[str, frozenset[str]], list[Fig]] = {}
        for x in self.figs:
            if x.table and x.col:
                out.setdefault((x.table, x.col), []).append(x)
        return [members for members in out.values() if len(members) >= 2]

    @lazy
    def ints(self) -> dict[str, dict[str, list[tuple[Fig, str, frozenset[str]]]]]:
        """report → integer token of a label → (figure, label, the label's other words), for row keys (`并发 8`);
        made on the first such look-up."""
        label_ints = {
            lab: [(tok, toks - {tok}) for tok in toks if tok.isdigit() or _MULTIPLE.fullmatch(tok)]
            for lab, toks in self.label_tokens.items()  # (`1x` of `input3 (1x)`: a load's multiple)
        }
        out: dict[str, dict[str, list[tuple[Fig, str, frozenset[str]]]]] = {}
        for x in self.figs:
            for lab in x.f.labels:
                for tok, rest in label_ints[lab]:
                    out.setdefault(x.f.report, {}).setdefault(tok, []).append((x, lab, rest))
        return out

    def pages(self) -> list[tuple[Page, tuple[str, frozenset[int]]]]:
        """Normalised page texts, made on the first verbatim look-up in this report."""
        if self._pages is None:
            self._pages = [(p, norm_cuts(p.text)) for p in self.page_list]
        return self._pages

    def lines(self, i: int) -> list[tuple[str, tuple[str, frozenset[int]]]]:
        """Page `i`'s lines (and pairs of lines) normalised, for quoting a verbatim hit."""
        out = self._lines.get(i)
        if out is None:
            out = self._lines[i] = _page_lines(self.page_list[i].text)
        return out


def _prepare_report(rid: str, figures: list[Figure], pages: list[Page]) -> ReportPrep:
    figs: list[Fig] = []
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
                lt = label_tokens[lab] = context_tokens(lab)
                label_ids[lab] = id_shapes(lt)
            toks |= lt
        if table is None and f.kind == "cell":  # a table without a caption: its page's cells are one table
            table = f"{rid}\x1f\x1fp{f.page}"
        row = f"{rid}\x1f{f.page}\x1f{f.quote}" if f.kind == "cell" and f.quote else None
        ftoks = frozenset(toks)
        with_ids = tuple(lab for lab in f.labels if label_ids[lab])
        if not with_ids:
            ids = no_ids
        elif len(with_ids) == 1:
            ids = label_ids[with_ids[0]]
        else:
            ids = merged.get(with_ids) or merged.setdefault(with_ids, merge_ids([label_ids[lab] for lab in with_ids]))
        figs.append(Fig(f, unit, abs(f.value) * unit.factor, ftoks, _figure_bound(f, raw_num), table, row, raw_num,
                         listed=_listed(f, raw_num), ids=ids))  # fmt: skip
    aliases = report_aliases(pages)
    if aliases:  # `ArrayBlockingQueue (ABQ)`: the report's abbreviation and its full name are one term
        for x in figs:
            more: set[str] = set()
            for short, long in aliases:
                if short in x.tokens:
                    more |= long
                elif long <= x.tokens:
                    more.add(short)
            if more - x.tokens:
                x.tokens = x.tokens | more
    _demote_chart_runs(figs)
    _name_anaphoric_lists(figs, pages)
    rp = ReportPrep(rid, figs, pages, pure=all(x.f.report == rid for x in figs))
    rp.systems = _section_systems(figs, pages)
    for x in figs:
        rp.dim_figs.setdefault(x.unit.dim, []).append(x)
        if x.table:
            rp.by_table.setdefault(x.table, []).append(x)
            rp.table_dims.setdefault((x.table, x.unit.dim), []).append(x)
    rp.dims = list(rp.dim_figs)
    for dim, lst in rp.dim_figs.items():  # (a figure naming a choice in a list is never looked up by value)
        ordered = sorted((x for x in lst if not x.listed), key=lambda x: x.base)
        rp.by_dim[dim] = ([x.base for x in ordered], ordered)
    # (by the value as printed: a number without a unit stands for a figure's digits, `1.01` for `1.01 ms`)
    ordered = sorted((x for x in figs if x.unit.dim and not x.listed), key=lambda x: abs(x.f.value))
    rp.with_unit = ([abs(x.f.value) for x in ordered], ordered)
    # Tables without a caption label: figures sharing two or more labels count as one table.
    rows: dict[str, list[Fig]] = {}
    for x in figs:
        if x.row:
            rows.setdefault(x.row, []).append(x)
    rp.rows = [members for members in rows.values() if len(members) >= 2]
    for members in rows.values():  # a row's own labels (row keys) vs each cell's column labels
        # (a row of scores with one timed cell, `HTML 0.969 … 0.857 5.39`: all its cells share its row labels)
        measured = [x for x in members if x.unit.dim]
        if len(measured) < 2:
            measured = members
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
    _join_report_terms(figs, report_terms(pages))
    rp.label_tokens = label_tokens  # for `ints`, made when first asked
    for members in rp.by_table.values():
        _split_glued(members)
        _row_terms(members)
        _mark_parts(members)
        _lend(members)
        _column_groups(members)
    return rp


def _column_groups(members: list[Fig]) -> None:
    """Set `groups` for a table's cells: the ways its column headers group its columns (a word shared by two or more
    columns names a group: `HBase min (ms)`, `HBase max (ms)` | `Cassandra min (ms)`, `Cassandra max (ms)`) and its
    row labels its rows (a word of a row's own: `HBase` | `Cassandra`), the systems a results table compares."""
    cols: dict[frozenset[str], tuple[frozenset[str], set[str]]] = {}
    rows: dict[str, tuple[frozenset[str], set[str]]] = {}
    for x in members:
        if x.col and x.col_tokens:
            cols.setdefault(x.col, (stems(x.col_tokens), set()))[1].add(x.unit.dim)
        if x.row and x.row_terms:
            rows.setdefault(x.row, (x.row_terms, set()))[1].add(x.unit.dim)
    for way in (*_ways(cols, *_COLUMN_WAYS), *_ways(rows, 2, 1)):
        for x in members:
            k = next((i for i, (at, _, _) in enumerate(way) if x.col in at or x.row in at), None)
            if k is not None:
                x.groups = (*x.groups, (k, tuple((words, dims) for _, words, dims in way)))


_NO_NAMES = frozenset().union(*KINDS) | COUNT_WORDS
_COLUMN_WAYS = (4, 2)  # columns grouped by the systems they name: four at least, two or more under each


def column_ways(labels: list[str]) -> list[list[tuple[frozenset[int], frozenset[str]]]]:
    """The ways words group a table's column labels by the systems it compares (`vLLM 0.6.3 TTFT p50/ms`, … |
    `TensorRT-LLM 0.13.0 TTFT p50/ms`, …), QC's rule (`_column_groups`) for the drafter: each way as its groups, each
    its label indexes and the words (stemmed) naming it."""
    parts = {i: (stems(context_tokens(lb)), set[str]()) for i, lb in enumerate(labels)}
    return [[(at, words) for at, words, _ in way] for way in _ways(parts, *_COLUMN_WAYS)]


def names_of(token: str, words: frozenset[str]) -> bool:
    """Whether a printed token is one of a group's naming words (as `column_ways` gives them)."""
    return bool(stems(context_tokens(token)) & words)


def _ways(
    parts: dict[Any, tuple[frozenset[str], set[str]]], least: int, size: int
) -> list[list[tuple[frozenset[Any], frozenset[str], frozenset[str]]]]:
    """The ways words group `parts` (columns or rows, each with its words, stemmed, and dimensions), at least `least`
    of them: groups of `size` or more parts, each named by the words only its parts have (no kind of figure such as
    `min`, no count such as `two`, no number, unit or identifier), no two sharing a part and together every part,
    two or more; each group as its parts, its words and its parts' dimensions."""
    if len(parts) < least:
        return []
    where: dict[str, set[Any]] = {}
    for key, (words, _) in parts.items():
        for tok in words - _NO_NAMES:
            if not tok.isdigit() and id_shape(tok) is None and known_unit(tok) is None:
                where.setdefault(tok, set()).add(key)
    named: dict[frozenset[Any], set[str]] = {}
    for tok, found in where.items():
        if size <= len(found) < len(parts):
            named.setdefault(frozenset(found), set()).add(tok)
    first = next(iter(parts))
    out = []
    for at in named:  # each way as the groups that meet the first part (a way holds exactly one of them)
        if first in at:
            way = [at] + [o for o in named if o.isdisjoint(at)]
            if len(way) > 1 and sum(map(len, way)) == len(parts) == len(frozenset().union(*way)):
                out.append([(g, frozenset(named[g]), frozenset(d for p in g for d in parts[p][1])) for g in way])
    return out


# A chart's value labels as the extraction glues them into one line (`Conversation Tool&Agent Synthetic … 1.56x1.43x
# 1.90x 2.12x …`): three or more multiples, or percentages, with nothing between them but spaces or a chart's tag
# (`41% max 75% max 46% max 48% max`).
_CHART_RUN = re.compile(
    r"(?<![\w.])(?:(?:\d+(?:\.\d+)?[x×][ \u00a0]*){3,}"
    r"|(?:\d+(?:\.\d+)?%[ \u00a0]*(?:(?:max|min|avg|mean)(?![\w])[ \u00a0]*)?){3,})"
)


def in_chart_run(f: Figure, raw_num: str) -> bool:
    """Whether the figure's number is one of a glued run of chart value labels (multiples or percentages) in its
    quote."""
    if f.kind != "prose" or not raw_num:
        return False
    own = re.compile(rf"(?<![\d.]){re.escape(raw_num)}[x×%]")
    return any(own.search(m.group()) for m in _CHART_RUN.finditer(f.quote))


def _demote_chart_runs(figs: list[Fig]) -> None:
    """A value of a glued run of chart labels backs no claim. The run's line carries the names of every group and
    series of the chart, so its words fit any claim about the chart (`1.90` of Conversation would back `2.68` put in
    the conversation row, `2.12` of vLLM's tool&agent bar any cell of the table): only a sentence stating the value
    says which bar it is, and a value only the chart prints says none (a reviewer reads it from the image)."""
    for x in figs:
        if in_chart_run(x.f, x.raw_num):
            x.chart_run = True
            x.listed = True


# `1.90×, 2.68×, and 3.33× … for the three workloads`: a list whose names are those the text gave before it.
_ANAPHOR = re.compile(r"\b(?:for|in|across|of|on|under|at)\s+(the\s+(two|three|four|five|six)|both)\s+([a-z]{3,})s\b",
                      re.I)  # fmt: skip
_HOW_MANY = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_LIST_NAME = r"([A-Za-z][\w&+./-]*(?:[ ][A-Za-z][\w&+./-]*){0,2}?)"
_NAME_SEP = r"(?:[ ]?,[ ](?:and[ ])?|[ ]and[ ])"


def _flat(text: str) -> str:
    """A page's text on one line, words the line breaks hyphenated joined again (`con-\nversation`)."""
    return " ".join(re.sub(r"-\n(?=[a-z])", "", text).split())


def antecedent_names(before: str, noun: str, n: int) -> list[str] | None:
    """The `n` names the last `for A, B, and C <noun>s` of `before` lists (`noun` singular), if any."""
    pat = re.compile(rf"\b(?:for|of|in|on|across|under|at)[ ](?:the[ ])?{_NAME_SEP.join([_LIST_NAME] * n)}[ ]{noun}s?\b",
                     re.I)  # fmt: skip
    found = list(pat.finditer(before))
    return list(found[-1].groups()) if found else None


def _name_anaphoric_lists(figs: list[Fig], pages: list[Page]) -> None:
    """A sentence that lists numbers `for the three workloads` (`both workloads`) pairs them with the names of the
    last list of that many names of that noun before it on its page (`for conversation, tool&agent, and synthetic
    workloads, respectively`): its `list_quote` says them, `respectively`, in place of the phrase."""
    flat: dict[int, str] = {}
    for x in figs:
        if x.f.kind != "prose" or "respectively" in x.f.quote.lower():
            continue
        m = _ANAPHOR.search(x.f.quote)
        if m is None:
            continue
        n = _HOW_MANY.get((m.group(2) or "two").lower(), 0)
        if x.f.page not in flat:
            flat[x.f.page] = next((_flat(p.text) for p in pages if p.page == x.f.page), "")
        text = flat[x.f.page]
        at = text.find(_flat(x.f.quote)[:60])
        names = antecedent_names(text[max(0, at - 2000) : at], m.group(3), n) if at > 0 else None
        if names is None:
            continue
        said = " and ".join(names) if n == 2 else ", ".join(names[:-1]) + ", and " + names[-1]
        q = x.f.quote
        x.list_quote = f"{q[: m.start(1)]}{said}, respectively{q[m.end() :]}"


_TOP_HEADING = re.compile(r"^[ \t]*(\d{1,2})[ \t]+([A-Za-z\u3400-\u9fff][^\n]{2,100})$", re.M)
_SUBSECTION = re.compile(r"^\s*(?:(?:表|图|Table|Fig\.?|Figure)\s*)?(\d{1,2})(?:[.-]\d+)+\b", re.I)
_NAME = re.compile(r"(?<![A-Za-z0-9])(?=[a-z0-9]*[A-Z][A-Za-z0-9]*[A-Z])[A-Za-z][A-Za-z0-9]+")  # ACL, OpenBLAS, vLLM


def _section_systems(figs: list[Fig], pages: list[Page]) -> frozenset[str]:
    """The names (two capitals or more: `ACL`, `OpenBLAS`) in the report's top-level numbered headings that some of
    those headings have and others lack; each figure of a subsection (`4.1 …`, `Table 4.3 …`) gets those of its
    section's heading. A system named only there is still part of the figure's context."""
    heads: dict[str, frozenset[str]] = {}
    for page in pages:
        for m in _TOP_HEADING.finditer(page.text):
            num, title = m.group(1), m.group(2)
            if num not in heads and ".." not in title and "…" not in title:  # (a table of contents line)
                heads[num] = frozenset(n.lower() for n in _NAME.findall(title))
    if len(heads) < 2:
        return frozenset()
    every = frozenset.intersection(*heads.values())
    names = frozenset().union(*heads.values()) - every
    if not names:
        return names
    for x in figs:
        for lab in x.f.labels:
            sub = _SUBSECTION.match(lab)
            if sub and sub.group(1) in heads:
                x.systems = heads[sub.group(1)] & names
                break
    return names


def row_labels(x: Fig) -> frozenset[str]:
    """A table cell's labels that set its row apart: neither its column's, its caption nor its section heading."""
    return frozenset(lab for lab in x.f.labels if lab not in (x.col or ()) and not _IS_CAPTION.match(lab)
                     and not _SECTION_LABEL.match(lab))  # fmt: skip


def _lend(members: list[Fig]) -> None:
    """Set `lent` for a table's cells (see Fig.lent)."""
    alone: set[str] = set()
    for x in members:
        for lab in x.f.labels:
            if not _is_heading(lab) and len(toks := context_tokens(lab)) == 1:
                alone |= toks
    for x in members:
        lent = (x.tokens - x.own_tokens) & (alone - x.own_tokens) if alone else None
        if lent:
            x.lent = frozenset(lent)


_GLUED = re.compile(r"[a-z]{6,}")
_GLUE_MIN = 3


def _split_glued(members: list[Fig]) -> None:
    """A label whose capitalised words the extraction glued together (`CORO_RPCQPS` beside `BRPC QPS`) also has its
    two parts as words, where one part is a word of another label of the same table: the column is coro_rpc's QPS."""
    words = frozenset().union(*(x.tokens for x in members))
    split: dict[str, frozenset[str]] = {}
    for x in members:
        more: set[str] = set()
        for tok in x.tokens:
            if not _GLUED.fullmatch(tok) or not any(tok.upper() in lab for lab in x.f.labels):
                continue  # (only a run of capitals: `Throughput` is one word, whatever the other labels hold)
            parts = split.get(tok)
            if parts is None:
                found = [(tok[:i], tok[i:]) for i in range(_GLUE_MIN, len(tok) - _GLUE_MIN + 1)
                         if tok[:i] in words or tok[i:] in words]  # fmt: skip
                parts = split[tok] = frozenset(found[0]) if len(found) == 1 else frozenset()
            more |= parts
        if more - x.tokens:
            x.tokens = x.tokens | more


_SIBLING_WORDS = 6  # at most this many words tell two sibling headings apart (`简单背景`/`复杂背景`: four bigrams)


def _is_heading(label: str) -> bool:
    """A caption (`Table 2 …`, `表 3`) or a section heading (`4.1 Simple background`) among a figure's labels."""
    return bool(_IS_CAPTION.match(label) or _SECTION_LABEL.match(label))


_SECTION_ITEM = re.compile(r"\s*\d{1,2}(?:\.\d{1,2})*\s*、\s*\S")  # `2、测试数据集`, numbered with an enumeration comma


def section_words(x: Fig) -> frozenset[str]:
    """The words of the section headings among a figure's labels (`5.3 完整结果矩阵`, `2、测试数据集`)."""
    return frozenset().union(
        *(context_tokens(lab) for lab in x.f.labels if _SECTION_LABEL.match(lab) or _SECTION_ITEM.match(lab))
    )


def own_labels(x: Fig) -> frozenset[str]:
    """A figure's labels but its captions and section headings: its row and column (or its sentence)."""
    return frozenset(lab for lab in x.f.labels if not _is_heading(lab))


def _heading_words(x: Fig) -> frozenset[str]:
    """The words (stemmed) of a figure's captions and section headings, not their numbers (`表 7`)."""
    words = frozenset().union(*(context_tokens(lab) for lab in x.f.labels if _is_heading(lab)))
    return stems(w for w in words if not w.isdigit())


def stems(tokens: Iterable[str]) -> frozenset[str]:
    """Words compared without a plural `s` (`metal` names the `Metals` row)."""
    return frozenset(t[:-1] if len(t) > 3 and t[-1] == "s" and t.isascii() and t.isalpha() else t for t in tokens)


def _shared_stems(words: Iterable[frozenset[str]]) -> frozenset[str]:
    """The words, stemmed, that every row's labels share: `face` of `single face` and `two faces` tells no row apart."""
    return frozenset.intersection(*(stems(w) for w in words))


def _row_terms(members: list[Fig]) -> None:
    """Each cell's row terms: the words of its labels that name neither its column nor the whole table (caption,
    section) and that not every row's labels share (`batch` of `batch 1`); and which cells are the extremes of their
    column."""
    rows = {x.row for x in members if x.row is not None}
    if len(rows) < 2:
        return
    whole = set(members[0].f.labels).intersection(*(x.f.labels for x in members[1:]))
    # a caption or section heading over several rows but not all (a heading the table runs past, a list item taken
    # for one: `3. 小负载场景下吞吐量波动较大…`) names no row either, where a cell has a row label of its own
    over: dict[str, set[str]] = {}
    for x in members:
        for lab in x.f.labels:
            if x.row is not None and _is_heading(lab):
                over.setdefault(lab, set()).add(x.row)
    spread = {lab for lab, rows_of in over.items() if len(rows_of) > 1}
    own: dict[int, frozenset[str]] = {}
    for x in members:
        if x.row is not None and x.col is not None:
            labs = [lab for lab in x.f.labels if lab not in x.col and lab not in whole]
            if any(lab not in spread for lab in labs):
                labs = [lab for lab in labs if lab not in spread]
            said = frozenset().union(*(context_tokens(lab) for lab in x.f.labels))
            # (with the names the report's abbreviations add: `ABQ` is `ArrayBlockingQueue`)
            own[id(x)] = frozenset().union(*(context_tokens(lab) for lab in labs)) | (x.tokens - said)
    if not own:
        return
    common = _shared_stems(own.values())
    cols: dict[tuple[frozenset[str], str], list[Fig]] = {}
    for x in members:
        if id(x) not in own:
            continue
        # (a unit in a row label, `PB(倍)`, names no row: the claim carries it anyway)
        x.row_terms = stems(t for t in own[id(x)] - x.col_tokens if t.isascii() or known_unit(t) is None) - common
        cols.setdefault((x.col or frozenset(), x.unit.dim), []).append(x)
    by_row: dict[str, list[Fig]] = {}
    for x in members:
        if x.row is not None:
            by_row.setdefault(x.row, []).append(x)
    for cells in by_row.values():
        named = frozenset().union(*(x.row_terms for x in cells))  # any cell's row words name the row (`value size 4KB`)
        for x in cells:
            if x.row_terms or id(x) in own:
                x.row_terms = named
        printed = {x.raw_num.replace(",", "") for x in cells}
        for x in cells:
            x.row_mates = frozenset(n for n in printed - {x.raw_num.replace(",", "")} if "." in n or len(n) >= 3)
    for col in cols.values():
        if len({x.row for x in col}) < 2:
            for x in col:  # the only cell of its kind in its column (`4 盘` of a config table): its unit names it
                x.unit_named = True
            continue
        hi, lo = max(x.f.value for x in col), min(x.f.value for x in col)
        for x in col:
            x.extreme = ("max" if x.f.value == hi else "") + ("min" if x.f.value == lo else "")


_SUM_TOL = 0.02  # a total printed beside its rounded parts: their sum within 2 %


def _mark_parts(members: list[Fig]) -> None:
    """Mark the part cells of a table whose rows break a total down (`TPI` = `Allocate` + `Run` + `Config` + `Copy`):
    a column holds the largest cell of every row it is in, and equals the sum of its row's other cells of its unit in
    at least half of the rows with three or more of them (rounding aside; a chance sum is rare in several rows)."""
    rows: dict[tuple[str, str], list[Fig]] = {}
    for x in members:
        if x.row is not None and x.col and x.unit.dim:
            rows.setdefault((x.row, x.unit.dim), []).append(x)
    wide = [cells for cells in rows.values() if len(cells) >= 3]
    if not wide:
        return
    sums: dict[frozenset[str], int] = {}
    for cells in wide:
        top = max(cells, key=lambda x: x.base)
        rest = sum(x.base for x in cells if x is not top)
        if top.base > 0 and abs(top.base - rest) <= _SUM_TOL * top.base:
            sums[top.col or frozenset()] = sums.get(top.col or frozenset(), 0) + 1
    for col, n in sums.items():
        if 2 * n < len(wide):
            continue
        held = [cells for cells in rows.values() if any(x.col == col for x in cells)]
        if all(max(cells, key=lambda x: x.base).col == col for cells in held):
            for cells in held:
                for x in cells:
                    if x.col != col:
                        x.part = True
            return


# Prepared reports by the identity of their figure and page lists (held here, so an id is never reused while cached):
# a build checks each article against a sub-index sharing the full index's lists, and must not prepare them again.
_ReportKey = tuple[str, int, int, int, int]
REPORT_CACHE: OrderedDict[_ReportKey, tuple[list[Figure] | None, list[Page] | None, ReportPrep]] = OrderedDict()
REPORT_CACHE_KEEP = 32  # beyond this many, drop reports whose lists no index holds any more
_REPORT_CACHE_MAX = 512
_REPORT_LOCK = threading.Lock()


def _held_elsewhere(lst: list[Any] | None) -> bool:
    # References: the cache's tuple, this argument, getrefcount's own; more means an index still holds the list.
    # (Should an interpreter count otherwise, a report is at worst prepared again: never a wrong result.)
    return lst is not None and sys.getrefcount(lst) > 3


def _report_prep(rid: str, figures: list[Figure] | None, pages: list[Page] | None) -> ReportPrep:
    key = (rid, id(figures), len(figures or ()), id(pages), len(pages or ()))
    with _REPORT_LOCK:  # `publish serve` may check from several threads
        hit = REPORT_CACHE.get(key)
        if hit is not None and hit[0] is figures and hit[1] is pages:
            REPORT_CACHE.move_to_end(key)
            return hit[2]
    rp = _prepare_report(rid, figures or [], pages or [])
    with _REPORT_LOCK:
        _remember(key, figures, pages, rp)
    return rp


def _remember(key: _ReportKey, figures: list[Figure] | None, pages: list[Page] | None, rp: ReportPrep) -> None:
    REPORT_CACHE[key] = (figures, pages, rp)
    if len(REPORT_CACHE) > REPORT_CACHE_KEEP:
        # (entries are read by index, not unpacked: a local name would count as one more holder)
        for k in [k for k, e in REPORT_CACHE.items() if not (_held_elsewhere(e[0]) or _held_elsewhere(e[1]))]:
            del REPORT_CACHE[k]
    while len(REPORT_CACHE) > _REPORT_CACHE_MAX:
        REPORT_CACHE.popitem(last=False)


class Prep:
    """An index's prepared reports, in the index's order; look-ups give the same figures in the same order as one
    index-wide table would."""

    def __init__(self, reports: list[ReportPrep]) -> None:
        self.reports = reports
        self.by_rid = {rp.rid: rp for rp in reports}
        self.pure = all(rp.pure for rp in reports)
        self.dims = list(dict.fromkeys(d for rp in reports for d in rp.dims))
        self.dim_rank = {d: i for i, d in enumerate(self.dims)}
        self._ints: dict[str, dict[str, list[tuple[Fig, str, frozenset[str]]]]] = {}
        self._holding: dict[tuple[str, ...], tuple[list[ReportPrep], frozenset[str]]] = {}
        self._row_words: dict[str, frozenset[str]] = {}
        self._row_names: dict[str, dict[str, tuple[frozenset[str], Fig]]] = {}
        self._siblings: dict[str, dict[frozenset[str], set[tuple[frozenset[str], float]]]] = {}
        self._sibling_of: dict[int, list[tuple[frozenset[str], frozenset[str]]]] = {}

    def holding(self, rids: Iterable[str]) -> list[ReportPrep]:
        """The prepared reports whose figures may belong to `rids`, in index order."""
        if not self.pure:
            return self.reports
        wanted = set(rids)
        return [rp for rp in self.reports if rp.rid in wanted]

    def scope(self, rids: Iterable[str]) -> tuple[list[ReportPrep], frozenset[str]]:
        """`holding(rids)` and the set of `rids`, remembered per scope (articles cite few distinct sets)."""
        key = tuple(rids)
        hit = self._holding.get(key)
        if hit is None:
            hit = self._holding[key] = (self.holding(key), frozenset(key))
        return hit

    def table(self, key: str) -> list[Fig]:
        """The figures of one printed table (its key starts with the report id)."""
        rp = self.by_rid.get(key.split("\x1f", 1)[0])
        return rp.by_table.get(key, []) if rp else []

    def row_words(self, key: str) -> frozenset[str]:
        """Every row term of one table's cells (a sentence naming none of them names no row of it)."""
        hit = self._row_words.get(key)
        if hit is None:
            hit = self._row_words[key] = frozenset().union(*(x.row_terms for x in self.table(key)))
        return hit

    def table_dim(self, key: str, dim: str) -> list[Fig]:
        """The figures of one table in one dimension, in table order."""
        rp = self.by_rid.get(key.split("\x1f", 1)[0])
        return rp.table_dims.get((key, dim), []) if rp else []

    def table_words(self, key: str, dim: str) -> tuple[list[Fig], dict[str, list[int]]]:
        """`table_dim` and its words' positions in it (see ReportPrep.table_words)."""
        rp = self.by_rid.get(key.split("\x1f", 1)[0])
        return (rp.table_dims.get((key, dim), []), rp.table_words(key, dim)) if rp else ([], {})

    @property
    def figs(self) -> list[Fig]:
        """Every figure, in index order (for tools; checking looks figures up per report)."""
        return [x for rp in self.reports for x in rp.figs]

    @property
    def by_table(self) -> dict[str, list[Fig]]:
        return {k: v for rp in self.reports for k, v in rp.by_table.items()}

    def rows(self, rid: str) -> tuple[list[list[Fig]], list[tuple[frozenset[str], list[tuple[float, str, Unit]]]]]:
        rp = self.by_rid.get(rid)
        return (rp.rows, rp.row_info) if rp else ([], [])

    def ints(self, rid: str) -> dict[str, list[tuple[Fig, str, frozenset[str]]]]:
        out = self._ints.get(rid)
        if out is None:
            out = {}
            for rp in self.holding([rid]):
                for key, lst in rp.ints.get(rid, {}).items():
                    out.setdefault(key, []).extend(lst)
            self._ints[rid] = out
        return out

    def row_names(self, rid: str) -> dict[str, tuple[frozenset[str], Fig]]:
        """The row labels of report `rid`'s tables (`input3_double (2x)`): their words and a cell of the row, made
        on first use."""
        out = self._row_names.get(rid)
        if out is None:
            out = self._row_names[rid] = {}
            for rp in self.holding([rid]):
                for x in rp.figs:
                    if x.f.report == rid and x.table:
                        for lab in row_labels(x):
                            if lab not in out:
                                out[lab] = (context_tokens(lab), x)
        return out

    def sibling_headings(self, x: Fig) -> list[tuple[frozenset[str], frozenset[str]]]:
        """Where `x`'s report prints another value for `x`'s row and column under another caption or section (`10.7`
        FPS of `1xA72@1.80G` under `4.2 Complex background`, `x` under `4.1 Simple background`): per such heading, the
        words (stemmed) of `x`'s headings that it lacks and its words that `x`'s lack, neither numbers nor words of
        `x`'s own labels (`single` of a `single face` row says nothing of a `Single A72` table); made per report on
        first use."""
        hit = self._sibling_of.get(id(x))
        if hit is not None:
            return hit
        rid = x.f.report
        by_labels = self._siblings.get(rid)
        if by_labels is None:
            by_labels = self._siblings[rid] = {}
            for rp in self.holding([rid]):
                for g in rp.figs:
                    if g.f.report == rid and (labs := own_labels(g)):
                        by_labels.setdefault(labs, set()).add((_heading_words(g), g.base))
        labs = own_labels(x)
        mine = _heading_words(x)
        named = stems(frozenset().union(*(context_tokens(lab) for lab in labs)))
        out = []
        for words, base in by_labels.get(labs, ()) if labs else ():
            only_mine, only_theirs = (mine - words) - named, (words - mine) - named
            # (headings that differ in more words than a condition's name are other kinds of table: `Table 3 … for
            # each Layer` against `Table 4 GoogleNet Performance for configuration`)
            if (only_mine and only_theirs and len(only_mine | only_theirs) <= _SIBLING_WORDS
                    and abs(base - x.base) > 1e-9 * max(1.0, x.base)):  # fmt: skip
                out.append((only_mine, only_theirs))
        self._sibling_of[id(x)] = out  # (figures live as long as this Prep: their ids stay theirs)
        return out

    def figs_of(self, rid: str, dim: str) -> Iterable[Fig]:
        """Figures of report `rid` in dimension `dim`, in index order."""
        for rp in self.holding([rid]):
            for x in rp.dim_figs.get(dim, ()):
                if x.f.report == rid:
                    yield x


def prepare(index: EvidenceIndex) -> Prep:
    figures, pages = index.figures, index.pages
    sig = tuple((rid, id(figs), len(figs)) for rid, figs in figures.items()) + tuple(
        (rid, id(p), len(p)) for rid, p in pages.items()
    )
    cached = getattr(index, "_qc_prep", None)
    if cached and cached[0] == sig:
        return cached[1]
    rids = list(figures) + [rid for rid in pages if rid not in figures]
    prep = Prep([_report_prep(rid, figures.get(rid), pages.get(rid)) for rid in rids])
    index._qc_prep = (sig, prep)  # type: ignore[attr-defined]  # cache on the instance; keyed by content identity
    return prep


def _matches_any_unit(
    prep: Prep, holding: list[ReportPrep], wanted: frozenset[str] | None, v: float, step: float, rounded: bool = False
) -> list[Fig]:
    """`matches` for a number without a unit: figures of every dimension, listed dimension by dimension (in the
    index's order of dimensions), each by value, as one query per dimension would list them."""
    tol_bare = step / 2 * (1 + 1e-9) + 1e-12  # against figures without a unit: within the printed precision
    # a bare integer stands for a measured figure only when printed exactly, or rounded where its words say so
    tol_unit = 1e-9 * max(v, 1.0) if step >= 1 and not rounded else tol_bare
    hits: list[Fig] = []
    for rp in holding:
        for (bases, figs), tol in ((rp.by_dim.get("", ([], [])), tol_bare), (rp.with_unit, tol_unit)):
            lo = bisect_left(bases, v - tol)
            hi = bisect_right(bases, v + tol, lo)
            if lo < hi:
                # a percentage never backs a bare number: readers take `20` of a WER for 20, not 20 %
                hits.extend(x for x in figs[lo:hi] if (wanted is None or x.f.report in wanted)
                            and x.unit.dim != "%")  # fmt: skip
    if len(hits) > 1:
        rank = prep.dim_rank
        hits.sort(key=lambda x: (rank[x.unit.dim], x.base))  # stable: ties stay in index order
    return hits


def _page_lines(text: str) -> list[tuple[str, tuple[str, frozenset[int]]]]:
    lines = [ln.strip() for ln in text.replace("\x00", "").split("\n") if ln.strip()]
    out = [(ln, norm_cuts(ln)) for ln in lines]
    out += [(a + " " + b, norm_cuts(a + " " + b)) for a, b in pairwise(lines)]
    return out


def matches(prep: Prep, value: float, step: float, unit: Unit, reports: Iterable[str] | None,
            rounded: bool = False) -> list[Fig]:  # fmt: skip
    """Figures equal to `value` within the printed precision (`step`), in compatible units; a bare integer the words
    say is `rounded` (`约 486`) stands for a measured figure within its precision too (`485.86 trans/sec`)."""
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
        return _matches_any_unit(prep, holding, wanted, v, step, rounded)
    out: list[Fig] = []
    # (a rate of counted things also rests on a figure printed per second of nothing named: `460.7/sec`)
    for dim in (unit.dim, *((UNNAMED_RATE,) if names_counted_rate(unit) else ()), ""):
        factor = unit.factor if dim else 1.0
        tol = step * factor / 2 * (1 + 1e-9) + 1e-12
        lo_v, hi_v = v * factor - tol, v * factor + tol
        hits: list[Fig] = []
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
        if not dim and not countable(unit):
            # A figure printed without a unit backs a number with one only where its column or table carries that
            # very unit (`66GB/s` is no `66` in a Gbps column, `94 ms` no `94` in a seconds column).
            hits = [x for x in hits if (lu := x.label_unit) is not None and lu.dim == unit.dim
                    and abs(lu.factor - unit.factor) <= 1e-9 * unit.factor]  # fmt: skip
        out.extend(hits)
    return out


_KNOWN = frozenset(aliases())
_COUNTED = frozenset({"token", "requests"})


def countable(unit: Unit) -> bool:
    """Units that count things (`卡`, `nodes`, `tokens`): a bare figure of a count column is one of them."""
    return unit.dim.startswith("count:") or unit.dim in _COUNTED


_HEAD_PAREN = re.compile(r"[((\[]\s*([^()()\[\]]+?)\s*[))\]]\s*$")
_HEAD_NOTE = re.compile(
    r"(?:单位|unit|units|in)\s*[::]?\s*([A-Za-z%][A-Za-z%/]*|[\u3400-\u9fff]{1,2})\s*[))]?\s*$", re.I
)
_KV_PAREN = re.compile(r"[((]\s*([^()()\[\]]+?)\s*[))]\s*[::]\s*[-+]?[\d,]*\.?\d+\s*$")
_HEAD_SLASH = re.compile(r"(?<=[A-Za-z0-9\u3400-\u9fff])\s*/\s*([A-Za-z%][A-Za-z%/]*)\s*$")


def known_unit(text: str) -> Unit | None:
    """The unit `text` names when the unit table knows it (`MiB/s`, `ms/frame`, `倍`); None for other words."""
    t = text.strip()
    if not t:
        return None
    u = parse_unit(t)
    if t in _KNOWN or t.lower() in _KNOWN or (u.dim and u.dim != u.name.lower()):
        return u
    return None


def header_unit(label: str) -> Unit | None:
    """The unit a column header or caption carries: `MiB/s`, `读带宽 (GB/s)`, `p50/ms`, `Detection (ms/frame)`."""
    whole = known_unit(label)
    if whole is not None:
        return whole
    m = _HEAD_PAREN.search(label)
    if m and (u := known_unit(m.group(1))) is not None:
        return u
    m = _HEAD_NOTE.search(label)  # a caption's note: `(单位:ms)`, `单位:GB/s`, `unit: ms`, `in ms`
    if m and (u := known_unit(m.group(1))) is not None:
        return u
    m = _HEAD_SLASH.search(label)
    if m:
        return known_unit(m.group(1))
    m = _KV_PAREN.search(label)  # a key–value label ending in its own value: `当前价格(元):82.42`
    return known_unit(m.group(1)) if m else None


_DEFINED = re.compile(r"[((]\s*([A-Z][A-Za-z0-9]{1,7})\s*[))]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*|[\u3400-\u9fff]+")


def report_aliases(pages: list[Page]) -> list[tuple[str, frozenset[str]]]:
    """The abbreviations a report defines, each with its full name's context words: `ArrayBlockingQueue (ABQ)`,
    `time to first token (TTFT)`, `首 token 延迟(TTFT)`. An English full name is the shortest run of words before
    the parenthesis whose initials (and inner capitals) spell the abbreviation; a Chinese one the CJK run there."""
    out: dict[str, frozenset[str]] = {}
    for page in pages:
        text = page.text
        if "(" not in text and "(" not in text:
            continue
        for m in _DEFINED.finditer(text):
            abbr = m.group(1)
            if abbr.lower() in out or (not abbr.isupper() and not abbr[:-1].isupper()):
                continue
            before = _WORD.findall(text[max(0, m.start() - 80) : m.start()])
            long = _spelled(before, abbr.rstrip("s"))
            if long:
                toks = context_tokens(long)
                if toks and abbr.lower() not in toks:
                    out[abbr.lower()] = toks
    return list(out.items())


# `Availability: 成功率`: a line of a report's own list of terms, an English name and the Chinese words it explains.
_TERM_LINE = re.compile(r"^[ \t]*([A-Za-z][A-Za-z ]{1,30}?)[ \t]*[::][ \t]*([\u4e00-\u9fff]{2,10})[ \t]*$", re.M)


def report_terms(pages: list[Page]) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The English terms a report explains in Chinese, one a line, three or more on a page (a load tool's output
    items: `Transaction rate: 每秒事务处理量`, `Availability: 成功率`), as the two names' context words."""
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    for page in pages:
        found = _TERM_LINE.findall(page.text) if ":" in page.text or ":" in page.text else []
        if len(found) < 3:
            continue
        for en, zh in found:
            a, b = context_tokens(en), context_tokens(zh)
            if a and b and not a & b and (a, b) not in out:
                out.append((a, b))
    return out


def _join_report_terms(figs: list[Fig], terms: list[tuple[frozenset[str], frozenset[str]]]) -> None:
    """A term the report defines in both languages is one term: a figure (and its column) labelled with either name
    has the other's words too (`事务处理量` names the `Transaction rate` column)."""
    if not terms:
        return
    for x in figs:
        more = {w for a, b in terms for w in (b if a <= x.tokens else a if b <= x.tokens else ())}
        if more - x.tokens:
            x.tokens = x.tokens | more
        if x.col and (head := x.col_tokens):
            extra = {w for a, b in terms for w in (b if a <= head else a if b <= head else ())}
            if extra - head:
                x.__dict__["col_tokens"] = head | extra  # (the lazy value, widened)


def _spelled(words: list[str], abbr: str) -> str | None:
    if words and "\u3400" <= words[-1][0] <= "\u9fff":  # 首 token 延迟(TTFT): the words since the last CJK-free gap
        run: list[str] = []
        for w in reversed(words[-4:]):
            run.insert(0, w)
            if len("".join(run)) >= 2 and "\u3400" <= run[0][0] <= "\u9fff" and len(run) > 1:
                break
        return " ".join(run) if len("".join(w for w in run if "\u3400" <= w[0] <= "\u9fff")) >= 2 else None
    for k in range(1, min(len(abbr), len(words)) + 1):
        cand = words[-k:]
        initials = "".join(c for w in cand for i, c in enumerate(w) if i == 0 or c.isupper())
        if initials.lower() == abbr.lower():
            return " ".join(cand)
    return None


def _listed(f: Figure, raw_num: str) -> bool:
    """The figure's number stands in a list or an identifier (`Option 2/3/4/5/7`, `batch=1/4/8/16`, `方案 3`): it
    names a choice, it measures nothing."""
    if f.kind == "prose" and raw_num and in_title(f.quote, raw_num):
        return True  # (`3.《高测股份: 再签建湖 10GW 硅片切割代工产能…》`: a cited work's name, no figure of its own)
    if f.unit or not raw_num:
        return False
    if _enumerator(f.quote, raw_num):
        return True
    for text in (f.raw, f.quote):
        if not text or ("/" not in text and not _CHOICE_WORD.search(text)):
            continue
        for m in re.finditer(rf"(?<![\d.]){re.escape(raw_num)}(?![\d.])", text):
            a, b = m.start(), m.end()
            if _IN_LIST.match(text, b) or _LIST_BEFORE.search(text, max(0, a - 12), a) or _CHOICE.search(text, 0, a):
                return True
    return False


def in_title(line: str, raw: str) -> bool:
    """Whether every time the line prints the number it stands inside a title in 《》 (open till the line's end)."""
    hits = [m.start() for m in re.finditer(rf"(?<![\d.]){re.escape(raw)}(?![\d])", line)]
    return bool(hits) and all(line.rfind("《", 0, k) > line.rfind("》", 0, k) for k in hits)


def _enumerator(quote: str, raw_num: str) -> bool:
    """Every time the quote prints the number it numbers an item of a list (`相关研究1.《…》2.《…》`, `1)…`, `2）…`):
    an ordinal, not a quantity."""
    if counts_off(quote, raw_num):
        return True
    hits = list(re.finditer(rf"(?<![\d.]){re.escape(raw_num)}(?!\d|[.,]\d)", quote)) if raw_num.isdigit() else []
    return bool(hits) and all(_TITLE_AFTER.match(quote, m.end()) or (_PAREN_AFTER.match(quote, m.end())
                              and _ITEM_BEFORE.search(quote, 0, m.start()))
                              or (_LAST_ITEM.fullmatch(quote, m.end()) and _COLON_BEFORE.search(quote, 0, m.start()))
                              or next_item(quote, m.start(), m.end()) for m in hits)  # fmt: skip


def next_item(text: str, start: int, end: int) -> bool:
    """Whether the number at text[start:end] opens the next item of a list, cut off right after it (`…(变异系数 1.9% )
    3.`): an item's number, after the end of the one before."""
    return bool(_LAST_ITEM.fullmatch(text, end) and _ITEM_END.search(text, 0, start))


def counts_off(text: str, raw_num: str) -> bool:
    """Whether the text counts off 1, 2, 3, 4… in order (a flow's steps `1 启动 … 2 HTTP … 3 官方 …`, a shell loop
    `for i in 1 2 3 4 5`), the number one of them but the last: it numbers a step, it is no quantity and no row's key
    (the last one says how many there are: a loop over 1…5 runs 5 times)."""
    if not raw_num.isdigit() or raw_num.startswith("0"):
        return False
    want, top = 1, 0
    for m in _WHOLE.finditer(text):
        if int(m.group()) == want:
            top, want = want, want + 1
    return top >= _COUNT_OFF and int(raw_num) < top


_WHOLE = re.compile(r"(?<![\d.,])\d+(?![\d]|[.,]\d)")
_COUNT_OFF = 4  # (1, 2, 3 of a sentence may be three quantities; four in order is a count)
_TITLE_AFTER = re.compile(r"\.\s*《")  # `2.《光伏设备…》`
_PAREN_AFTER = re.compile(r"[)）]")  # `1)`, after the start, a space or a colon, full stop or semicolon only
_ITEM_BEFORE = re.compile(r"(?:^|[\s:：。;；])$")
# `we can deduce that : 1.`, `分析: 1.`: the number of the list's first item, where the quote stops before its text
_LAST_ITEM = re.compile(r"\.\s*")
_ITEM_END = re.compile(r"[)）。;；]\s*$")
_COLON_BEFORE = re.compile(r"(?:^|[:：])\s*$")
_IN_LIST = re.compile(r"\s*/\s*\d+(?:\s*/\s*\d+)+")  # 2/3/4: this one and two more after it
_LIST_BEFORE = re.compile(r"\d+\s*/\s*(?:\d+\s*/\s*)*$")
_CHOICE_WORD = re.compile(r"option|case|config|方案|选项|配置项?|编号", re.I)
_CHOICE = re.compile(r"(?:option|case|config|方案|选项|编号)\s*#?\s*$", re.I)


def labels_of(f: Figure, limit: int = 4) -> str:
    labs = [lab for lab in f.labels if lab and lab != f.quote][:limit]
    return ", ".join(labs)


def source_of(x: Fig) -> Source:
    f = x.f
    return Source(report=f.report, figure=f.id, page=f.page, value=f.value, unit=x.unit.name, quote=f.quote or f.raw,
                  version=f.version, page_label=f.page_label, labels=list(f.labels))  # fmt: skip


def shown(x: Fig) -> str:
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


def say(x: Fig) -> str:
    labs = labels_of(x.f)
    return f"{x.f.report} p.{x.f.page} says {shown(x)}" + (f" ({labs})" if labs else "")
