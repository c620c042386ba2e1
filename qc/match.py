"""Matching: the figure of a cited report that backs a number, in value, unit and context."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from evidence.models import Page
from qc.blocks import CLAUSE, FULL_END, Block
from qc.claims import RANGE_FROM, Sentence, aside, label_term, owner, respective_conflict, restatement
from qc.context import context_tokens, id_shapes, norm, num_text, unnumbered
from qc.context import id_shape as _id_shape
from qc.index import EvidenceIndex
from qc.models import Source
from qc.numbers import CHANGE_RE, Quantity, extract, markers
from qc.prepare import (
    Fig,
    Prep,
    counts_off,
    in_title,
    labels_of,
    matches,
    next_item,
    opposite_bound,
    own_labels,
    row_labels,
    same_bound,
    say,
    shown,
    source_of,
    stems,
)
from qc.units import NONE, Unit, aliases, parse_unit


@dataclass
class Verdict:
    status: str
    source: Source | None = None
    derivation: str | None = None
    message: str = ""
    term: tuple[str, Page, str] | None = None  # (term text, page, quote) when verified verbatim
    fig: Fig | None = None
    cands: list[Fig] = field(default_factory=list)  # every figure the number fits (for from→to pairs)
    strength: str = ""  # how strong the evidence of a verified or derived number is (see models.STRENGTHS)
    warning: str = ""  # what a reviewer must look at in an ok verdict (an ambiguous `快 3 倍`): shown as a warning


class Matching:
    """Direct evidence for one number: a figure of equal value and compatible unit whose labels fit the sentence."""

    prep: Prep
    index: EvidenceIndex
    _text: str  # the block being checked
    _clauses: dict[tuple[int, int], frozenset[str]]  # each number's clause words, for the block being checked
    _own_ctx: dict[tuple[int, int], frozenset[str]]  # each number's _own_context, for the block being checked
    _owners: dict[tuple[int, int, int], int | None]  # (number span, column groups) → claims.owner, for the block
    _upto_ctx: dict[tuple[int, int], frozenset[str]]  # each number's _up_to_own, for the block being checked
    _row_keys: dict[int, str]  # a table cell's sentence (by id) → its row's integer cells (`batch=16`)
    _keys_seen: dict[tuple[str, int, int], tuple[frozenset[str], bool]]  # (key word, number span) → _key_values
    _labelled: dict[tuple[str, str, str], bool]  # (report, dimension, term) → _labelled_elsewhere's report scan
    _mates: dict[tuple[str, str], list[Fig]]  # (figure id, term) → _better_mates
    _id_rows: dict[tuple[str, str], dict[str, set[str]]]  # (report, dimension) → row identifier → its tables
    _columns_named: dict[tuple[str, tuple[str, ...]], bool]  # (word, scope) → _a_column_named
    _lead: frozenset[str]  # the words of the heading or FAQ question the block stands under
    _lead_ids: dict[str, frozenset[str]]  # its identifier tokens by shape (`a72`, `p99`)
    _article_ids_made: dict[str, frozenset[str]] | None  # the identifier tokens of the whole draft, by shape

    def _article_ids(self) -> dict[str, frozenset[str]]:
        if self._article_ids_made is None:
            self._article_ids_made = id_shapes(context_tokens(self._article_text))
        return self._article_ids_made

    _article_text: str
    _before: str  # the text a block's claims also stand under: the list item before it, the title for the answer
    _fulls: list[tuple[int, frozenset[str], list[str]]] | None  # the block's full sentences, for _claim_context
    _claim_nums: dict[int, frozenset[str]]  # a sentence (by id) → the numbers of its claim context, as printed
    _claim_near: dict[int, frozenset[str]]  # a sentence (by id) → the words of its own full sentence and lead, stemmed
    _heading: bool  # the block being checked is a heading
    _stub: frozenset[str]  # the words of the stub header of the article table being checked
    _claim_ctx: dict[int, frozenset[str]]  # a sentence (by id) → _claim_context, for the block being checked

    def _identifies(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """Whether the claim's context names the row of table cell `x`: a word of its row label (in the sentence, the
        heading or question above it), another number of the sentence that is a cell of that row (`吞吐从 52.4 提升至
        67.6,提升 29%`), or `highest`/`最低`… where `x` is that extreme of its column."""
        terms = x.row_terms
        if not terms or self._heading:  # (a heading names a topic: `4KB 小对象的请求吞吐有多高`)
            return True
        if q.is_range and self._family(x, q, sent):
            return True
        ctx = self._claim_context(sent)
        if (
            x.unit_named
        ):  # its unit names it, unless the claim's own sentence names another row (`不良贷款率 … 0.92 倍`)
            near = self._claim_near[id(sent)]
            return not terms.isdisjoint(near) or near.isdisjoint(self.prep.row_words(x.table or "") - terms)
        if not terms.isdisjoint(ctx):
            # named in the blocks before its own full sentence only: not where that sentence names another row
            near = self._claim_near[id(sent)]
            # (nor where those blocks give a key of its kind another value, one its own sentence does not name:
            # `64*64 的单人脸场景` names no 48*48 row, `4KB objects … batch to 16` no 64KB one; the rows of a range are
            # its span's, `_no_span`'s)
            ids = id_shapes(ctx) if not q.is_range else {}
            near_ids = id_shapes(near)
            if not terms.isdisjoint(near) and not any(
                shape in ids and shape not in near_ids and not (keys & ctx) for shape, keys in x.ids.items()
            ):
                return True
            if (
                near.isdisjoint(self.prep.row_words(x.table or ""))
                and not self._mate_of_another_row(x, q, sent)
                and not any(shape in ids and not (keys & ctx) for shape, keys in x.ids.items())
            ):
                return True
        if (
            x.row_mates
            and not self._claim_nums[id(sent)].isdisjoint(x.row_mates)
            and not self._mate_of_another_row(x, q, sent)
        ):
            return True  # another number of the claim's context is a cell of its row (`从 52.4 提升至 67.6,提升 29%`)
        ext = x.extreme
        if not ext or not self._claim_near[id(sent)].isdisjoint(self.prep.row_words(x.table or "") - terms):
            return False  # (`OTSL's 5.39 s in the largest model`: its own sentence names another row, OTSL's)
        return ("max" in ext and not ctx.isdisjoint(_HIGHEST)) or ("min" in ext and not ctx.isdisjoint(_LOWEST))

    def _mate_of_another_row(self, x: Fig, q: Quantity, sent: Sentence) -> bool:
        """Whether another number of the claim's own full sentence is a cell of another row of `x`'s table only
        (`完整数据集总耗时 4.78 s,…纯处理时间为 1.51 s`: 1.51 is the 1x row's, so an earlier item's `2 倍` names no row
        of 4.78 here): that sentence names another row by its number."""
        fulls = self._fulls or []
        found = next((f for end, _, f in fulls if end >= sent.end), [])
        own = {n.replace(",", "") for n in _NUMBER.findall(self._text[q.start : q.end])}  # (a range's two ends)
        nums = {n for n in found if n not in own}
        if not nums or not x.table or any(m.replace(",", "") in nums for m in x.row_mates):
            return False  # (a cell of its own row in the sentence names it: `SqueezeNet stays at 144.30 ms, a gain of 1.00`)
        return any(g.row != x.row and g.raw_num.replace(",", "") in nums and g.raw_num not in x.row_mates
                   for g in self.prep.table(x.table))  # fmt: skip

    def _family(self, x: Fig, q: Quantity, sent: Sentence) -> bool:
        """Whether range `q` spans a family of rows that the sentence (or its heading) names in the plural: `the three
        ResNets gain 1.01–1.03` for the rows ResNet18/34/50 (the label's letters before its number)."""
        words = sent.tokens | self._lead
        fam = {shape for shape in x.ids if (m := _FAMILY.fullmatch(shape)) is not None and m.group(1) + "s" in words}
        if not fam or not q.is_range or not x.table:
            return False
        # the range spans the family: its ends are the lowest and highest cell of those rows in this column
        vals = [g.f.value for g in self.prep.table_dim(x.table, x.unit.dim) if g.col == x.col and fam & g.ids.keys()]
        (lo, s1), (hi, s2) = q.endpoints()[0], q.endpoints()[-1]
        return abs(lo - min(vals)) <= s1 / 2 * (1 + 1e-9) and abs(hi - max(vals)) <= s2 / 2 * (1 + 1e-9)

    def _claim_context(self, sent: Sentence) -> frozenset[str]:
        """The words a claim's row may be named in, stemmed: its block up to the end of its full sentence (the clauses
        a `;` splits off too), the list item before it, the heading or FAQ question above (and the title, for the
        answer)."""
        hit = self._claim_ctx.get(id(sent))
        if hit is None:
            fulls = self._fulls
            if fulls is None:  # the block's full sentences (their ends, words and numbers), once per block
                text, pos, fulls = self._text, 0, []
                for end in [m.end() for m in FULL_END.finditer(text)] + [len(text)]:
                    if end > pos:
                        found = _stated(text[pos:end])
                        fulls.append((end, context_tokens(text[pos:end]), found))
                        pos = end
                self._fulls = fulls
            words: set[str] = set(sent.tokens | self._lead | context_tokens(self._before))
            nums: set[str] = set(_stated(self._before))
            near: frozenset[str] = frozenset()
            for end, toks, found in fulls:
                words |= toks
                nums.update(found)
                if end >= sent.end:
                    near = toks
                    break
            self._claim_near[id(sent)] = stems(sent.tokens | near | self._lead)
            hit = self._claim_ctx[id(sent)] = stems(words)
            self._claim_nums[id(sent)] = frozenset(nums)
        return hit

    def _column_span(self, x: Fig, q: Quantity, value: float, sent: Sentence, endpoint: bool) -> bool:
        """A cell of a row the claim does not name, standing with a cell of the same column that another number of the
        sentence gives: the other end of a range spanning the column (neither end's row named), or the other side of a
        `from A to B` pair across rows (`raising the batch to 16 cut it from 7,368.67 to 2,237.75`); a pair a range verb
        leads (`ranges from 1.36% to 20% depending on the speaker`) is a range."""
        others: list[tuple[float, float, str, bool]] = []  # (value, step, unit, the other end of a range)
        if endpoint:
            others += [(v, st, q.unit, True) for v, st in q.endpoints() if v != value]
        else:
            live = [o for o in sent.quantities if not o.exempt and not o.is_range and o.value is not None]
            if q in live:
                i = live.index(q)
                text = self._text
                if i > 0 and CHANGE_RE.fullmatch(text, live[i - 1].end, q.start):
                    span = RANGE_FROM.search(text, max(0, live[i - 1].start - 40), live[i - 1].start) is not None
                    others.append((live[i - 1].value or 0.0, live[i - 1].step, live[i - 1].unit, span))
                if i + 1 < len(live) and CHANGE_RE.fullmatch(text, q.end, live[i + 1].start):
                    span = RANGE_FROM.search(text, max(0, q.start - 40), q.start) is not None
                    others.append((live[i + 1].value or 0.0, live[i + 1].step, live[i + 1].unit, span))
        for v, st, u, span in others:
            unit = parse_unit(u)
            scale = unit.factor if unit.dim and x.unit.dim else x.unit.factor
            tol = st * scale / 2 * (1 + 1e-9) + 1e-12
            col = [g for g in self.prep.table_dim(x.table or "", x.unit.dim) if g.col == x.col]
            mates = [g for g in col if g is not x and g.row != x.row and abs(abs(v) * scale - g.base) <= tol]
            if span and not any(
                abs(abs(v) * scale - g.base) <= tol for g in self.prep.table_dim(x.table or "", x.unit.dim)
            ):
                return True  # the other end is no cell of this table: it is judged on its own
            for g in mates:
                if not span or (not self._identifies(g, sent, q) and self._spans(x, g, value, v, col, sent)):
                    return True
        return False

    def _no_span(self, x: Fig, q: Quantity, value: float, sent: Sentence) -> bool:
        """An end of a range whose other end is a cell of another row of its column, the two not the smallest and
        largest cell of the rows the claim allows (`spans 14.1–27.1 FPS` where the claim's rows reach down to 6): named
        rows or not, a range across one column's rows is that column's span. The rows are those its claim context,
        its own full sentence or its clause up to it allows (else the article's): rows an earlier sentence names (`One
        A72 core … one A53 core …`) do not narrow `Across the five core sets … 6–27.1 FPS`, nor the detail after a
        summary (`TTFT down 26–32%: … p50 …`, `TTFT 降低 26–32%(p50 从 …)`) the summary; a family the sentence names
        (`the three ResNets`) is checked by `_family`, a key span by `_key_span_conflict`."""
        if x.row is None or not x.table or self._family(x, q, sent) or self._span_rows(x, sent) is not None:
            return False  # (the rows a key span sets, `batch 从 4 增至 16`, are `_key_span_conflict`'s)
        if self._all_rows_span(x, q, value, sent) is True:
            return False
        self._claim_context(sent)
        cs = self._clause_bounds(q, sent)[0]
        lead = frozenset(tok for tok, pos in sent.where if cs <= pos < q.start)
        ctxs = (None, self._claim_near[id(sent)], lead)
        unit = parse_unit(q.unit)
        scale = unit.factor if unit.dim and x.unit.dim else x.unit.factor
        col = [g for g in self.prep.table_dim(x.table, x.unit.dim) if g.col == x.col]
        for v, st in q.endpoints():
            if v == value:
                continue
            tol = st * scale / 2 * (1 + 1e-9) + 1e-12
            mates = [g for g in col if g.row != x.row and abs(abs(v) * scale - g.base) <= tol]
            if mates and not any(self._spans(x, g, value, v, col, sent, c) for g in mates for c in ctxs):
                return True
        return False

    def _all_rows_span(self, x: Fig, q: Quantity, value: float, sent: Sentence) -> bool | None:
        """A range whose own clause, before it, says it spans all rows (`Across all seven runs the p50 lies between
        0.895 and 2.727 ms`, `各页面的成功率都在 98.40%–99.99% 之间`, `十个页面的平均响应时间在 0.20–0.72 秒之间`): its
        ends are the lowest and highest cell of `x`'s column over every row (of its table and the tables continuing
        it on the next pages: same columns, one section). A count of rows (`seven`, `十个`) must be theirs, or theirs
        less the rows whose cells lie beyond the range and that the full sentence names apart (`只有搜索接口慢`).
        None where the clause says no such thing or the range's other end is no cell of that column."""
        if not q.is_range or x.row is None or not x.table or x.col is None:
            return None
        cs = self._clause_bounds(q, sent)[0]
        m = _ALL_ROWS.search(self._text, cs, q.start)
        if m is None:
            return None
        said = m.group("n") or m.group("zh")
        count = _count_word(said or "")
        if said and count is None:
            return None
        rows: dict[str, Fig] = {}
        for g in self._continued_column(x):
            rows.setdefault(g.row or "", g)
        (lo, s1), (hi, s2) = q.endpoints()[0], q.endpoints()[-1]
        unit = parse_unit(q.unit)
        scale = unit.factor if unit.dim and x.unit.dim else x.unit.factor
        t1, t2 = s1 * scale / 2 * (1 + 1e-9) + 1e-12, s2 * scale / 2 * (1 + 1e-9) + 1e-12
        lo, hi = lo * scale, hi * scale
        ends = [any(abs(g.base - v) <= t for g in rows.values()) for v, t in ((lo, t1), (hi, t2))]
        if len(rows) < 3 or not all(ends):
            return None  # (an end of another table or of prose: the range is judged on its own)
        inside = [g for g in rows.values() if lo - t1 <= g.base <= hi + t2]
        self._claim_context(sent)
        words = self._claim_near[id(sent)]  # (its full sentence: the clauses a `;` splits off too)
        if count is None and len(inside) != len(rows):
            return False
        if count is not None and len(inside) != count:
            return False
        if any(not (g.row_terms & words) for g in rows.values() if g not in inside):
            return False  # (a row left out must be one the sentence names apart)
        bases = [g.base for g in inside]
        return x in inside and abs(min(bases) - lo) <= t1 and abs(max(bases) - hi) <= t2

    def _continued_column(self, x: Fig) -> list[Fig]:
        """The cells of `x`'s column in its table and in the tables of its report that continue it on the pages right
        before or after (the same columns under the same section heading: a table broken across a page)."""
        rp = self.prep.by_rid.get(x.f.report)
        own = self.prep.table_dim(x.table or "", x.unit.dim)
        if rp is None:
            return [g for g in own if g.col == x.col]

        def shape(figs: list[Fig]) -> tuple[frozenset[frozenset[str] | None], str]:
            return frozenset(g.col for g in figs), figs[0].f.labels[-1] if figs[0].f.labels else ""

        mine = shape(rp.by_table[x.table or ""])
        pages = {x.f.page}
        tables = {x.table or ""}
        grew = True
        while grew:
            grew = False
            for key, figs in rp.by_table.items():
                if key in tables or not figs or figs[0].f.kind != "cell" or shape(figs) != mine:
                    continue
                if {g.f.page for g in figs} & {p + d for p in pages for d in (-1, 1)}:
                    tables.add(key)
                    pages |= {g.f.page for g in figs}
                    grew = True
        return [g for key in tables for g in self.prep.table_dim(key, x.unit.dim) if g.col == x.col]

    def _between(self, q: Quantity, sent: Sentence) -> list[tuple[float, float]]:
        """`between A and B`, `介于 A 与 B 之间`: both ends (value, step) when `q` is one of them, else none."""
        if not _BETWEEN_WORD.search(sent.chunk):
            return []
        live = [o for o in sent.quantities if not o.exempt and not o.is_range and o.value is not None]
        if q not in live:
            return []
        i = live.index(q)
        text = self._text
        for a, b in ((i - 1, i), (i, i + 1)):
            if a < 0 or b >= len(live):
                continue
            qa, qb = live[a], live[b]
            if _AND.fullmatch(text, qa.end, qb.start) and _BETWEEN.search(text, max(0, qa.start - 12), qa.start):
                return [(qa.value or 0.0, qa.step), (qb.value or 0.0, qb.step)]
        return []

    def _row_cells(self, x: Fig) -> list[Fig]:
        """The cells of table cell `x`'s row in its dimension (`x` among them); empty outside tables."""
        if x.row is None or not x.table:
            return []
        return [g for g in self.prep.table_dim(x.table, x.unit.dim) if g.row == x.row]

    def _system_cells(self, x: Fig) -> list[Fig]:
        """The cells of `x`'s row in its column groups (HBase's of a row comparing HBase and Cassandra: a range of one
        system spans its own cells)."""
        return [g for g in self._row_cells(x) if g.groups == x.groups]

    def _row_span(self, x: Fig, q: Quantity, value: float, ends: list[tuple[float, float]]) -> bool:
        """An end of a range whose other end is a cell of the same row (`between -269 °C and -62 °C`): the two are the
        smallest and largest cell of that row (not its average)."""
        row = self._system_cells(x)
        if len(row) < 3:
            return True
        unit = parse_unit(q.unit)
        scale = unit.factor if unit.dim and x.unit.dim else x.unit.factor
        for v, st in ends:
            if v == value:
                continue
            tol = st * scale / 2 * (1 + 1e-9) + 1e-12
            mate = next((g for g in row if g is not x and abs(v * scale - g.f.value * g.unit.factor) <= tol), None)
            if mate is None:
                return True
            lo, hi = (x, mate) if value < v else (mate, x)
            vals = [g.f.value for g in row]
            return lo.f.value == min(vals) and hi.f.value == max(vals)
        return True

    def _row_end(self, x: Fig, value: float, ends: list[tuple[float, float]]) -> Fig | None:
        """The cell of `x`'s row that this end of a range should be: its lowest for the low end, else its highest."""
        row = self._system_cells(x)
        if not row or not any(v != value for v, _ in ends):
            return None
        low = all(value <= v for v, _ in ends)
        best = (min if low else max)(row, key=lambda g: g.f.value * g.unit.factor)
        return None if best is x else best

    def _spans(self, x: Fig, g: Fig, value: float, other: float, col: list[Fig], sent: Sentence,
               ctx: frozenset[str] | None = None) -> bool:  # fmt: skip
        """Whether the range from `x` to `g` is the span of their column: its ends the smallest and the largest cell
        of the rows the claim's words (`ctx`, else its claim context) allow (`DeepSeek-32B … DeepSeek-70B` leave out
        the 7B row)."""
        ctx = self._claim_context(sent) if ctx is None else ctx
        ids = id_shapes(ctx)
        lo, hi = (x, g) if value < other else (g, x)
        # the rows the claim's words allow, else those the article speaks of (32B and 70B, not the 7B row)
        for art in ({}, self._article_ids()):
            live = [c.f.value for c in col if not any((shape in ids and not (keys & ctx)) or (shape not in ids
                    and shape in art and not (keys & art[shape])) for shape, keys in c.ids.items())]  # fmt: skip
            if lo.f.value in live and hi.f.value in live and lo.f.value == min(live) and hi.f.value == max(live):
                return True
        return False

    def _unnamed(self, x: Fig, q: Quantity, value: float, unit: Unit, sent: Sentence, scope: list[str]) -> Verdict:
        """A mismatch for a value found only in table rows the claim does not name, naming the cell of the same
        column in the row it does name when there is one."""
        rows = ", ".join(lab for lab in x.f.labels if lab not in (x.col or ()) and not _IS_CAPTION_LABEL.match(lab))
        msg = f"{shown(x)} in {x.f.report} is for {rows or labels_of(x.f, 3)}, which this sentence does not name"
        named = [g for g in self.prep.table_dim(x.table or "", x.unit.dim)
                 if g is not x and g.col == x.col and g.row != x.row and self._identifies(g, sent, q)
                 and not self._conflict(g, sent, q)]  # fmt: skip
        if named:
            ctx = self._claim_context(sent)
            g = max(named, key=lambda g: len(g.row_terms & ctx))
            return Verdict("mismatch", source_of(g), fig=g, message=f"{say(g)}; {msg}")
        return Verdict("mismatch", source_of(x), fig=x, message=msg)

    def _accounted(
        self, g: Fig, sent: Sentence, q: Quantity, value: float | None = None,
        skip: Quantity | None = None, same_unit: bool = False,
    ) -> bool:  # fmt: skip
        """Whether another number of the sentence (or the range's other end; never `skip`) stands for figure `g`
        (`same_unit`: one printed in `q`'s unit, as the other side of a from→to pair is; never `q` restated,
        `3.046 ms, or 0.025 s`)."""
        for other in sent.quantities:
            if other.exempt or (other is q and not q.is_range) or other is skip or (same_unit and other.unit != q.unit):
                continue
            unit = parse_unit(other.unit)
            for v, step in other.endpoints():
                if other is q and v == value:
                    continue
                # (a bare figure stands for the number as printed: `343 tokens` is the `343` of a length column)
                scale = unit.factor if unit.dim and g.unit.dim else g.unit.factor
                tol = step * scale / 2 * (1 + 1e-9) + 1e-12
                if (not unit.dim or not g.unit.dim or unit.dim == g.unit.dim) and abs(abs(v) * scale - g.base) <= tol:
                    return True
        return False

    def _rival(self, f: Fig, q: Quantity, value: float, step: float, unit: Unit, sent: Sentence,
               endpoint: bool = False) -> Fig | None:  # fmt: skip
        """A figure of the same table the sentence describes better than `f` (another row or metric)."""
        if not f.table or (endpoint and self._all_rows_span(f, q, value, sent) is True):
            return None  # (a range over all rows stands for none of them)
        if not endpoint and self._compares(q, sent):
            own = self._own_context(q, sent)
            if own != sent.tokens:
                # The number's own clause names the other figure (`recall is 0.77, precision 0.80`): that figure being
                # another number of the sentence does not excuse it, it is a swap (see _rival_in).
                found = self._rival_in(own, f, q, value, step, unit, sent, endpoint, strict=True)
                if found is not None and self._owned_apart(f, found, sent, q):
                    return None
                return found or self._sibling_rival(f, q, value, sent)
        found = self._rival_in(self._up_to_own(q, sent), f, q, value, step, unit, sent, endpoint)
        return found or (None if endpoint else self._sibling_rival(f, q, value, sent))

    def _sibling_rival(self, f: Fig, q: Quantity, value: float, sent: Sentence) -> Fig | None:
        """The cell of `f`'s row in another table of its page whose column the number's own clause names, where that
        clause names none of `f`'s column (`ACL/GPU takes 2.4794 s, of which 1.1812 s is Config`: 1.1812 is the CONV
        layer's time of the per-layer table; Config is a column of the configuration table beside it)."""
        if not f.col or f.row is None:
            return None
        own = self._part_tokens(q, sent)
        if not own.isdisjoint(f.col_tokens):
            return None
        rp = self.prep.by_rid.get(f.f.report)
        rows = row_labels(f)
        for g in rp.page_cells.get((f.f.page, f.unit.dim), ()) if rp else ():
            if (g.f.report == f.f.report and g.table != f.table and g.col and not own.isdisjoint(g.col_tokens)
                    and abs(g.f.value - f.f.value) > 1e-12 and row_labels(g) == rows
                    and not self._accounted(g, sent, q, value)):  # fmt: skip
                return g
        return None

    def _up_to_own(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        """The sentence's words without those of later clauses that hold a measured number of their own: in
        `总耗时平均 3.78 s,变异系数 9.3%;…,用户态时间标准差仅 0.06 s` the user-time row is 0.06's, no rival of 9.3%'s cell
        (a lead clause, and the clauses before, still speak for the number)."""
        key = (q.start, q.end)  # once per number, not per figure it is tried on (as _own_context)
        hit = self._upto_ctx.get(key)
        if hit is None:
            hit = self._upto_ctx[key] = self._find_up_to_own(q, sent)
        return hit

    def _find_up_to_own(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        nxt = _PART.search(self._text, q.end, sent.end)
        if nxt is None:
            return sent.tokens
        drop: set[str] = set()
        for o in sent.quantities:
            if o is q or o.exempt or not o.unit or o.start < nxt.end():
                continue
            cs, ce = self._part(o, sent)
            drop.update(tok for tok, pos in sent.where if cs <= pos < ce)
        if not drop:
            return sent.tokens
        mine = frozenset(tok for tok, pos in sent.where if pos < nxt.start())
        return sent.tokens - (drop - mine)

    def _part(self, x: Quantity, sent: Sentence) -> tuple[int, int]:
        """The span of number `x`'s clause (between `,` `;` `and`…), taking in a leading `label:` (see _head)."""
        text = self._text
        cs = self._head(max((m.end() for m in _PART.finditer(text, sent.start, x.start)), default=sent.start), sent)
        nxt = _PART.search(text, x.end, sent.end)
        ce = nxt.start() if nxt else sent.end
        # A parenthesis is a clause of its own: `总耗时平均 3.78 s（用户态时间 3.15 s）` (see claims.aside)
        if (p := aside(text, cs, x.start)) is not None:
            cs = p + 1
        later = next((o.start for o in sent.quantities if o.start >= x.end and o.start < ce and not o.exempt), None)
        if later is not None and (p := aside(text, x.end, later)) is not None:
            ce = p
        return cs, ce

    def _part_tokens(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        """The words of the number's own clause (between `,` `;` `and`…), not those of clauses without a number."""
        cs, ce = self._part(q, sent)
        return frozenset(tok for tok, pos in sent.where if cs <= pos < ce)

    def _head(self, cs: int, sent: Sentence) -> int:
        """A clause's start, taking in the sentence's leading `label:` without a number of its own: in a list item
        `ACL/GPU: 0.1542 s …, faster than OpenBLAS at 0.9327 s` the label is the first number's, not the sentence's."""
        text = self._text
        before = text[sent.start : cs].rstrip()
        if before[-1:] in (":", "：") and not _PART.search(text, sent.start, sent.start + len(before) - 1) \
                and not _NUMBER.search(before):  # fmt: skip
            return sent.start
        return cs

    def _own_context(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        """The sentence's words without those of other clauses holding their own number of `q`'s unit:
        `峰值 1399.08 MiB/s,4MB 的带宽为 1015.36 MiB/s` — 4MB is the second number's key, not the first's (while
        `concurrency 8, p50: from 10.17 s to 7.53 s` keys both numbers of its one clause)."""
        key = (q.start, q.end)  # one block at a time, like _clauses (asked once per figure the number is tried on)
        hit = self._own_ctx.get(key)
        if hit is None:
            hit = self._own_ctx[key] = self._find_own_context(q, sent)
        return hit

    def _find_own_context(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        def words(span: tuple[int, int]) -> frozenset[str]:
            return frozenset(tok for tok, pos in sent.where if span[0] <= pos < span[1])

        bounds = self._part(q, sent)  # its clause, `、` joining keys (`4MB、batch=16 的带宽为 …`)
        drop: set[str] = set()
        earlier: set[str] = set()
        for o in sent.quantities:
            if o is not q and not o.exempt and o.unit == q.unit and (other := self._part(o, sent)) != bounds:
                (earlier if other[0] < bounds[0] else drop).update(words(other))
        if not drop and not earlier:
            return sent.tokens
        mine = words(bounds)
        # An identifier key of a kind the clause does not name itself carries over from the clauses before it
        # (`4MB 对象在 batch=16 时 …,约为 batch=4(12.251 ms)的 4.3 倍`: the second clause is still about 4MB).
        kinds = set(id_shapes(mine))
        if any(_CORES.fullmatch(k) for k in kinds):
            kinds.add("#xcore")  # (a clause naming `the two A72 cores` names their number: `six cores` stays behind)
        drop |= {t for t in earlier if (shape := _id_shape(t)) is None or shape in kinds}
        return sent.tokens - (drop - mine)

    def _rival_in(self, ctx: frozenset[str], f: Fig, q: Quantity, value: float, step: float, unit: Unit,
                  sent: Sentence, endpoint: bool, strict: bool = False) -> Fig | None:  # fmt: skip
        """`_rival` with `ctx` as the words the number stands among (`strict`: the number's own clause's words)."""
        ft, dim = f.tokens, f.unit.dim
        assert f.table is not None
        ctx = ctx - self._nouns_of_others(q, sent)
        if f.lent and id(sent) in self._row_keys:
            # An article table's cell has its column header for words: a caption naming every row's system (`OTSL
            # and HTML`) names none of them, so `| OTSL mAP |` over HTML's figure has the OTSL cell for rival (prose
            # names systems too loosely for that: `OTSL cut it from 5.39 s to 2.73 s … than HTML`).
            ft = ft - f.lent
        own = ctx & ft
        best, best_adv = None, 0
        scale = unit.factor if unit.dim else f.unit.factor
        tol = step * scale / 2 * (1 + 1e-9) + 1e-12
        target = abs(value) * scale
        beyond = f.beyond
        # A table without a caption is its page's cells: only a cell differing in one label is a mate there.
        page_table = _PAGE_TABLE in f.table
        span = self._span_rows(f, sent) if endpoint else None
        labs = set(f.f.labels) if page_table else set()
        mates, where = self.prep.table_words(f.table, dim)
        # Only a mate with a word of the sentence that f lacks can describe it better: those, in table order.
        near: set[int] = set()
        for tok in ctx:
            if tok not in ft and (pos := where.get(tok)) is not None:
                near.update(pos)
        for i in sorted(near):
            g = mates[i]
            if g is f or (page_table and len(labs.symmetric_difference(g.f.labels)) != 2):
                continue
            more = beyond.get(id(g))
            if more is None:
                more = beyond[id(g)] = g.tokens - ft
            theirs = ctx & more
            if abs(g.base - target) <= tol or _fragment(theirs, g):
                continue
            if self._conflict(g, sent, q):
                continue  # g names a key the sentence contradicts (`32K` where it says `128K`): no better fit
            if span and g in span:
                continue  # both rows lie in the key span the sentence gives the range (`batch 从 1 增至 16`)
            mine = own - g.tokens
            adv = len(theirs) - len(mine)
            if adv == 0 and mine and theirs and not endpoint and self._nearest_key(q, sent, mine, theirs) == "theirs":
                adv = 1  # "40% at concurrency 8 and 29% at concurrency 16": the key next to the number decides
            if adv > best_adv and ((strict and theirs & self._part_tokens(q, sent))
                                   or not self._accounted(g, sent, q, value)):  # fmt: skip
                best, best_adv = g, adv
        return best

    def _nouns_of_others(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        """The word right after another bare number of the sentence, the thing it counts (`Across 3195 samples … the
        maximum 3184`: `samples` is 3195's, no word naming a Samples cell as a better fit for 3184)."""
        out: set[str] = set()
        for o in sent.quantities:
            if o is q or o.exempt or o.unit:
                continue
            m = _NOUN_AFTER.match(self._text, o.end)
            if m and o.value != 1:  # (a counted noun is plural after any other number: `samples`, not `throughput`)
                out.add(m.group(1).lower())
        return frozenset(out)

    @staticmethod
    def _compares(q: Quantity, sent: Sentence) -> bool:
        """Whether the sentence states another number of the same unit as `q` (it compares figures); bare decimals
        compare too (`recall is 0.80, precision 0.77`)."""
        if len(sent.quantities) < 2 or not (q.unit or _bare_decimal(q)):
            return False
        return any(o is not q and not o.exempt and o.unit == q.unit and (q.unit or _bare_decimal(o))
                   for o in sent.quantities)  # fmt: skip

    def _clause_bounds(self, q: Quantity, sent: Sentence) -> tuple[int, int]:
        text = self._text
        cs = max((m.end() for m in CLAUSE.finditer(text, sent.start, q.start)), default=sent.start)
        nxt = CLAUSE.search(text, q.end, sent.end)
        return cs, (nxt.start() if nxt else sent.end)

    def _clause_tokens(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        key = (q.start, q.end)  # one block at a time: its numbers' spans never repeat (emptied per block)
        hit = self._clauses.get(key)
        if hit is None:
            cs, ce = self._clause_bounds(q, sent)
            hit = self._clauses[key] = frozenset(tok for tok, pos in sent.where if cs <= pos < ce)
        return hit

    def _nearest_key(self, q: Quantity, sent: Sentence, mine: frozenset[str], theirs: frozenset[str]) -> str | None:
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

    def _key_values(self, kw: str, q: Quantity, sent: Sentence) -> tuple[frozenset[str], bool]:
        """The numbers the sentence gives row key `kw` (`batch=16`, `并发 8`, a table row's `batch` cell): those of the
        number's own clause when the sentence compares figures and that clause names the key, else the sentence's;
        and whether they were paired with the number by order (`from 4 to 16 … from A to B`)."""
        key = (kw, q.start, q.end)  # one block at a time, like _clauses
        hit = self._keys_seen.get(key)
        if hit is None:
            hit = self._keys_seen[key] = self._find_key_values(kw, q, sent)
        return hit

    def _find_key_values(self, kw: str, q: Quantity, sent: Sentence) -> tuple[frozenset[str], bool]:
        texts = [(sent.plain + " " + self._row_keys.get(id(sent), ""), sent.start, sent.end)]
        if self._compares(q, sent):
            # its own clause, else the sentence up to its end (a key carries over to later clauses, never back)
            text = self._text
            cs = max((m.end() for m in _PART.finditer(text, sent.start, q.start)), default=sent.start)
            nxt = _PART.search(text, q.end, sent.end)
            ce = nxt.start() if nxt else sent.end
            texts = [(text[cs:ce], cs, ce), (text[sent.start : ce], sent.start, ce)]
        pat = _key_pattern(kw)
        for t, cs, ce in texts:
            found = list(dict.fromkeys(v for m in pat.finditer(t) for v in m.groups() if v))
            if found and kw != "year":
                found += [v for v in _elided_key_values(t, pat) if v not in found]
            if len(found) == 2:
                # `batch 从 4 增至 16,p99 从 22.456 ms 升至 93.267 ms`: two keys and two figures in one clause pair up
                # in order (a swap of either pair is caught)
                mates = [o for o in sent.quantities if not o.exempt and o.unit == q.unit and cs <= o.start < ce]
                if len(mates) == 2 and not any(o.is_range for o in mates):
                    return frozenset([found[mates.index(q)]]), True
            if found:
                return frozenset(found), False
        if kw == "year":
            return self._years_before(q, sent)
        return frozenset(), False

    def _years_before(self, q: Quantity, sent: Sentence) -> tuple[frozenset[str], bool]:
        """A from→to pair in a sentence naming no year is between the two years of the last full sentence before it
        in its paragraph that names years (`ROE 从 2024 年的 14.49% 降至 2026 年的 13.78%。拨备覆盖率预计从 411.98% 提升至
        426.00%`), paired in order; a lone number takes no year from another sentence, only from the parts of its own
        full sentence before a `;`."""
        text = self._text
        pat = _key_pattern("year")
        # a part after a `;` of a full sentence speaks of the one year its parts before it name (`2025 年上半年营收…;
        # 不良贷款率下行至 0.92%`)
        full = max((m.end() for m in FULL_END.finditer(text, 0, sent.start)), default=0)
        named = list(dict.fromkeys(m.group(1) for m in pat.finditer(text, full, sent.start)))
        if len(named) == 1:
            return frozenset(named), False
        mates = [o for o in sent.quantities if not o.exempt and o.unit == q.unit and not o.is_range]
        if len(mates) != 2 or q not in mates or not CHANGE_RE.fullmatch(text, mates[0].end, mates[1].start):
            return frozenset(), False
        ends = [0] + [m.end() for m in FULL_END.finditer(text, 0, sent.start)]
        for a, b in reversed(list(pairwise(ends))):
            found = list(dict.fromkeys(m.group(1) for m in pat.finditer(text, a, b)))
            if found:
                return (frozenset([found[mates.index(q)]]), True) if len(found) == 2 else (frozenset(), False)
        return frozenset(), False

    def _key_conflict(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """The sentence gives a row key of this figure another number (`batch=16` against a `batch 4` row), unless the
        figure of that other row is another number of the sentence (`batch 16 cut it from 7,368.67 to 2,237.75`)."""
        for kw, val, lab in x.row_keys:
            vals, paired = self._key_values(kw, q, sent)
            if not vals or val in vals:
                continue
            rest = set(x.f.labels) - {lab}
            again = restatement(sent, q, self._text)  # (`24.824 ms, or about 0.025 s` stands for no other row)
            if not paired and x.table and any(
                g is not x and rest <= set(g.f.labels) and any(k == kw and v in vals for k, v, _ in g.row_keys)
                and self._accounted(g, sent, q, skip=again, same_unit=True)
                for g in self.prep.table_dim(x.table, x.unit.dim)
            ):  # fmt: skip
                continue
            return True
        return self._other_key_named(x, sent, q)

    def _other_key_named(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """The sentence gives none of the figure's row keys a number but gives one to a key of other rows of its table
        (`TopK 为 5 时 …,为 100 时约 3.75 s` against a `窗口大小 600s` row of a table keyed by TopK and 窗口大小)."""
        if not x.table:
            return False
        mine = {kw for kw, _, _ in x.row_keys}
        if any(self._key_values(kw, q, sent)[0] for kw in mine):
            return False
        others = {kw for g in self.prep.table_dim(x.table, x.unit.dim) for kw, _, _ in g.row_keys} - mine
        return any(self._key_values(kw, q, sent)[0] for kw in sorted(others))

    def _system_conflict(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """The claim names another system of the report (`OpenBLAS`) and not the one of the figure's section (`ACL`);
        in a sentence comparing figures, the number's own clause decides."""
        rp = self.prep.by_rid.get(x.f.report)
        names = rp.systems if rp else frozenset()
        if not names:
            return False
        if sent.tokens.isdisjoint(names) and self._stub.isdisjoint(names):
            # a sentence naming none speaks of the system the sentences before it in its paragraph name
            before = context_tokens(self._text[: sent.start]) & names if sent.start else frozenset()
            return bool(before) and not (before & x.systems) and bool(before - x.tokens)
        toks = self._deciding_words(q, sent)
        # (an article table's stub header names the system of every row: `| 平台与场景(OpenBLAS) |`)
        said = toks & names or (self._stub & names if not sent.tokens & names else frozenset())
        return bool(said) and not (said & x.systems) and bool(said - x.tokens)

    def _group_conflict(self, x: Fig, sent: Sentence, q: Quantity) -> tuple[int, int] | None:
        """A group of the table's columns or rows other than table cell `x`'s (`Cassandra` of `Cassandra min (ms)`
        where `x` is HBase's) that the number belongs to by the name nearest before it in its full sentence
        (`claims.owner`): the way the labels group them and that group's index, else None. An article table's cell
        (its header names it) and a range its clause says spans every row (`五个页面的…在 0.21–0.41 秒之间`) have none."""
        if sent.extra or (q.is_range and _ALL_ROWS.search(self._text, self._clause_bounds(q, sent)[0], q.start)):
            return None
        for way, (k, groups) in enumerate(x.groups):
            key = (q.start, q.end, id(groups))
            hit = self._owners.get(key, -1)
            if hit == -1:
                lo = max((m.end() for m in FULL_END.finditer(self._text, 0, sent.start)), default=0)
                hit = self._owners[key] = owner(self._text, lo, q, sent, [words for words, _ in groups])
            if hit is not None and hit != k and x.unit.dim in groups[hit][1]:
                return way, hit
        return None

    def _owned_apart(self, x: Fig, g: Fig, sent: Sentence, q: Quantity) -> bool:
        """Whether the number's words give it to `x`'s column rather than `g`'s, another column of its row (`against
        52.3 GB for vLLM`, TensorRT-LLM named before it): the other column's name is another number's."""
        if not x.col or not g.col or x.row != g.row or x.col == g.col:
            return False
        mine, theirs = stems(x.col_tokens - g.col_tokens), stems(g.col_tokens - x.col_tokens)
        lo = max((m.end() for m in FULL_END.finditer(self._text, 0, sent.start)), default=0)
        return bool(mine and theirs) and owner(self._text, lo, q, sent, [mine, theirs]) == 0

    def _group_fix(self, x: Fig, sent: Sentence, q: Quantity) -> Fig | None:
        """The cell of the group `_group_conflict` says the number belongs to that stands where `x` stands: in its row,
        its column otherwise the same (`Cassandra min (ms)` for HBase's min where the words say Cassandra), or in its
        column, for a group of rows."""
        found = self._group_conflict(x, sent, q)
        if found is None:
            return None
        way, k = found
        groups = x.groups[way][1]
        words = frozenset().union(*(w for w, _ in groups))
        want = (*x.groups[:way], (k, groups), *x.groups[way + 1 :])
        rest = stems(x.col_tokens) - words
        return next((g for g in self.prep.table_dim(x.table or "", x.unit.dim) if g.groups == want
                     and (g.col == x.col or (g.row == x.row and stems(g.col_tokens) - words == rest))), None)  # fmt: skip

    def _system_outfits(self, cands: list[Fig], fitting: list[Fig], rival_of: dict[int, Fig | None], sent: Sentence,
                        q: Quantity, value: float) -> tuple[Fig, Fig] | None:  # fmt: skip
        """A cell of another system that the claim's words fit better than every figure of its table left (`In the
        6-layer configuration OTSL … its mAP is 0.857` over HTML's 6-layer cell, where an OTSL 0.857 of a 4-layer row
        is left): the words speak of its row, and the number's system's cell there is the fix (the cell, the fix)."""
        own = sent.tokens - {num_text(value)} - self._printed_number(q)
        for x in cands:
            if id(x) in rival_of or not x.groups or (fix := self._group_fix(x, sent, q)) is None:
                continue
            if all(y.table == x.table and len(own & y.tokens) < len(own & x.tokens) for y in fitting):
                return x, fix
        return None

    def _conflict(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """The sentence names a key of the kind this figure has, but another one (DeepSeek-32B vs a DeepSeek-70B table);
        in a sentence comparing figures, the number's own clause decides."""
        if x.row_keys and self._key_conflict(x, sent, q):
            return True
        if x.f.kind in ("prose", "kv") and respective_conflict(x.list_quote, x.raw_num, sent, q, self._text):
            return True
        if x.systems and self._system_conflict(x, sent, q):
            return True
        if x.groups and self._group_conflict(x, sent, q) is not None:
            return True
        if self._other_heading(x, sent, q):
            return True
        if not x.ids:
            return False
        toks, ids = sent.tokens, sent.ids
        if self._names_a_part(x, self._deciding_words(q, sent)):
            return True
        if not any(shape in ids and not (keys & toks) for shape, keys in x.ids.items()):
            # the sentence names the figure's keys, but in a sentence comparing figures another clause may be the one
            # naming them (`on one A72 core … 45 vs 160 ms/frame, and on one A53 core …`: 160 is no A53 cell)
            if self._compares(q, sent) and (own := self._own_context(q, sent)) != toks:
                own_ids = id_shapes(own)
                if any(shape in own_ids and not (keys & own) for shape, keys in x.ids.items()):
                    return True
            # a kind of key the sentence does not name at all is the heading's or question's (`## Two A72 cores`)
            lead = self._lead_ids
            return any(shape in lead and shape not in ids and not (keys & self._lead) for shape, keys in x.ids.items())
        if self._compares(q, sent):
            own = self._own_context(q, sent)
            if own != toks:
                toks, ids = own, id_shapes(own)
                return any(shape in ids and not (keys & toks) for shape, keys in x.ids.items())
        return True

    def _other_heading(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """The report prints another value for `x`'s row and column under another caption or section (`4.1 Simple
        background`, `4.2 Complex background`), and the claim names only that one's own words (`simple`): in the
        number's own clause, else in the heading or question it stands under."""
        siblings = self.prep.sibling_headings(x) if x.table else []
        if not siblings:
            return False
        words, lead = stems(self._part_tokens(q, sent)), stems(self._lead)
        for own, theirs in siblings:
            said = words if words & (own | theirs) else lead
            if said & theirs and not said & own:
                return True
        return False

    def _deciding_words(self, q: Quantity, sent: Sentence) -> frozenset[str]:
        """The words that say which figure a number is: its own clause's in a sentence comparing figures, else the
        sentence's."""
        return self._own_context(q, sent) if self._compares(q, sent) else sent.tokens

    def _names_a_part(self, x: Fig, toks: frozenset[str]) -> bool:
        """A row keyed by a combination (`2xA72@1.80G+4xA53@1.42G`) of which the claim names only a part (`2xA72`),
        where a row of the same column is keyed by exactly that part and neither the claim nor its heading or question
        names the rest: the claim speaks of that row, not this one."""
        if not x.table:
            return False
        for shape, keys in x.ids.items():
            said = keys & toks
            if len(keys) < 2 or not said or keys <= toks | self._lead:  # (the question may name the rest)
                continue
            for g in self.prep.table_dim(x.table, x.unit.dim):
                if g.col == x.col and g is not x and (part := g.ids.get(shape)) and part <= said:
                    return True
        return False

    def _end_conflict(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """`_conflict` for an end of a range, within the range's own clause only (the other clauses of the sentence
        often give the rows it spans: `26.0–32.0%: concurrency 8, p50: …; concurrency 8, p90: …`)."""
        if x.groups and self._group_conflict(x, sent, q) is not None:
            return True
        if not x.ids and not x.row_keys:
            return False
        cs, ce = self._clause_bounds(q, sent)
        paren = _PAREN.search(self._text, q.end, ce)  # (a parenthesis after it details one case: `26–32%(p50 从 …)`)
        ce = paren.start() if paren else ce
        toks = frozenset(tok for tok, pos in sent.where if cs <= pos < ce)
        ids = id_shapes(toks)
        if any(shape in ids and not (keys & toks) for shape, keys in x.ids.items()):
            return True
        clause = self._text[cs:ce]
        for kw, val, _ in x.row_keys:
            found = {v for m in _key_pattern(kw).finditer(clause) for v in m.groups() if v}
            if found and val not in found:
                return True
        return self._key_span_conflict(x, sent, q)

    def _key_span_conflict(self, x: Fig, sent: Sentence, q: Quantity) -> bool:
        """`4KB 对象随 batch 从 1 增至 16,带宽在 28.78–139.86 MiB/s 之间`: a range over the rows whose key the
        sentence takes from one number to another has for ends the lowest and highest cell of its column over those
        rows (the same in every other key); an end of another row, or not that extreme, is not the range's."""
        span = self._span_rows(x, sent)
        if span is None:
            return False
        if x not in span:
            return True
        low = q.low is not None and q.high is not None and abs(x.f.value - q.low) <= abs(x.f.value - q.high)
        return (min if low else max)(g.base for g in span) != x.base

    def _span_rows(self, x: Fig, sent: Sentence) -> list[Fig] | None:
        """The cells of `x`'s column in the rows whose key the sentence takes from one number to another (`batch 从
        1 增至 16`), the same as `x`'s in every other key; None when the sentence spans no key of `x`'s row."""
        if not x.table or x.col is None:
            return None
        for kw, _, _ in x.row_keys:
            found = [int(v) for m in _key_pattern(kw).finditer(sent.plain) for v in m.groups() if v]
            if len(found) < 2:
                continue
            lo, hi = min(found), max(found)
            rest = {(k, v) for k, v, _ in x.row_keys if k != kw}
            return [g for g in self.prep.table_dim(x.table, x.unit.dim) if g.col == x.col and g.ids == x.ids
                    and {(k, v) for k, v, _ in g.row_keys if k != kw} == rest
                    and any(k == kw and lo <= int(v) <= hi for k, v, _ in g.row_keys)]  # fmt: skip
        return None

    def _a_column_named(self, word: str, scope: list[str]) -> bool:
        """Whether a table of the cited reports has a column of bare figures (a score) whose header holds `word`
        (stemmed)."""
        key = (word, tuple(scope))
        hit = self._columns_named.get(key)
        if hit is None:
            hit = self._columns_named[key] = any(
                word in stems(x.col_tokens)
                for rid in scope
                if (rp := self.prep.by_rid.get(rid)) is not None
                for figs in rp.by_table.values()
                for x in figs
                if x.col_tokens and not x.unit.dim
            )
        return hit

    def _direct(self, q: Quantity, value: float, step: float, unit: Unit, sent: Sentence, scope: list[str],
                endpoint: bool = False) -> Verdict | None:  # fmt: skip
        if unit.dim == "count:item":  # `20 个节点`: the noun after the classifier 个 is what is counted
            m = _AFTER_GE.match(self._text, q.end)
            for word in (m.group(1), m.group(1)[:1]) if m else ():
                if (noun := parse_unit(word)).dim.startswith("count:"):
                    unit = noun
                    break
        cands = [x for x in matches(self.prep, value, step, unit, scope, rounded=q.approx) if self._bound_ok(q, x)]
        if q.magnitude and value == 0:  # `0.0 million tokens` is no bare `0` of the report: zero times any magnitude
            cands = [
                x
                for x in cands
                if x.f.value == 0 and (_MAGNITUDE_RAW.search(x.f.raw) or _MAGNITUDE_UNIT.match(x.f.unit))
            ]
        if not unit.dim or unit.dim.startswith("count:"):
            # A bare count (8 卡, 并发 8) rests on a unitless figure only where the sentence talks about the same thing.
            own = {num_text(value)}
            cands = [x for x in cands if (x.unit.dim and unit.dim) or _talks_about(sent.tokens - own, x)]
            if unit.dim.startswith("count:") and unit.dim != "count:item":
                # `16 cores` is no cell of a `batch` column: a count rests on no bare cell of a column that counts
                # another thing
                cands = [x for x in cands if x.unit.dim or not x.table or not _counts_other(x, unit.dim)]
            if not q.unit:
                counted = counted_word(self._text, q.end)
                cands = [x for x in cands if not _counts_another(counted, x)]
                if counted and counted.isascii() and self._a_column_named(counted, scope):
                    # `6 TEDs`: the word after a bare number names a column of scores of a cited table (`TEDs
                    # complex`): the number is a cell of such a column, no other figure of its value (`enc=6`)
                    cands = [x for x in cands if x.table and not x.unit.dim and counted in stems(x.col_tokens)]
        cands = [x for x in cands if not self._rounded_by_chance(x, value, unit, sent)
                 and not self._stray_prose(x, value, sent) and not _another_run(x, sent)
                 and not self._unnamed_metric(x, sent)]  # fmt: skip
        cands = [x for x in cands if not self._names_another_row(x, sent)]
        term = label_term(self._text, q.num_start)
        if term and cands:
            cands = [x for x in cands if not self._labelled_elsewhere(x, term, sent)]
        if not cands:
            return None
        if endpoint:
            spans = [(x, self._all_rows_span(x, q, value, sent)) for x in cands]
            wrong = next((x for x, ok in spans if ok is False), None)
            if wrong is not None and not any(ok for _, ok in spans):
                return Verdict("mismatch", source_of(wrong), fig=wrong,
                               message=f"{shown(wrong)} ({labels_of(wrong.f, 3)}): the range's ends are not the "
                                       f"lowest and highest cell of its column over all the rows its words name")  # fmt: skip
        ctx = sent.tokens
        v = abs(value) * (unit.factor if unit.dim else 1.0)
        if len(cands) > 1:
            cands.sort(key=lambda x: (-len(ctx & x.tokens), abs(x.base - v * (1.0 if unit.dim else x.unit.factor))))
        rivals = []
        rival_of: dict[int, Fig | None] = {}
        for x in cands:
            if not (self._end_conflict(x, sent, q) if endpoint else self._conflict(x, sent, q)):
                rival_of[id(x)] = self._rival(x, q, value, step, unit, sent, endpoint)
        fitting = [x for x in cands if id(x) in rival_of and rival_of[id(x)] is None]
        # table cells of another row by a key the sentence gives (`2025E` where it speaks of 2026)
        keyed_out = {id(x) for x in cands if id(x) not in rival_of and x.table and x.row_keys} if fitting else set()
        if fitting and (len(fitting) < len(rival_of) or keyed_out):
            # The figure the claim's words fit best has a mate they name better (`| Caffe-HRT (ms) |` over the
            # `Original Caffe` cell of its row): a figure of the value that fits them less does not rescue it; nor
            # one that fits them no better than a cell their key puts in another row (`维持在420%以上` of a summary
            # line is no rescue of the 2025E cell where the paragraph speaks of 2026).
            own = ctx - {num_text(value)} - self._printed_number(q)
            best = max(cands, key=lambda x: len(own & x.tokens) if id(x) in rival_of or id(x) in keyed_out else -1)
            score = len(own & best.tokens) + (id(best) in keyed_out)
            if (id(best) in keyed_out or rival_of[id(best)] is not None) and all(
                x.table != best.table and len(own & x.tokens) < score for x in fitting
            ):
                fitting = []
        if fitting and (outfit := self._system_outfits(cands, fitting, rival_of, sent, q, value)) is not None:
            x, g = outfit
            return Verdict("mismatch", source_of(g), fig=g, message=f"{say(g)}; {shown(x)} is {labels_of(x.f, 3)}")
        named = [x for x in fitting if self._identifies(x, sent, q)
                 or (endpoint and self._all_rows_span(x, q, value, sent) is True)]  # fmt: skip
        if endpoint and named and all(self._no_span(x, q, value, sent) for x in named):
            x = named[0]
            return Verdict("mismatch", source_of(x), fig=x,
                           message=f"{shown(x)} ({labels_of(x.f, 3)}) and the range's other end, a cell of another row "
                                   f"of its column, are not the smallest and largest cell of that column")  # fmt: skip
        ends = q.endpoints() if endpoint else self._between(q, sent)
        if ends and named:
            named = [x for x in named if self._row_span(x, q, value, ends)]
            if not named:
                x = fitting[0]
                fix = self._row_end(x, value, ends)
                if fix is not None:  # the fix a reviewer needs: the row's lowest (or highest) cell
                    return Verdict("mismatch", source_of(fix), fig=fix,
                                   message=f"{say(fix)}: the range's ends are the lowest and highest of their row; "
                                           f"{shown(x)} is {labels_of(x.f, 3)}")  # fmt: skip
                return Verdict("mismatch", source_of(x), fig=x,
                               message=f"{shown(x)} ({labels_of(x.f, 3)}) and the range's other end are not the lowest "
                                       f"and highest of their row")  # fmt: skip
        if len(named) < len(fitting):
            named += [x for x in fitting if x not in named and self._column_span(x, q, value, sent, endpoint)]
            unnamed = next((x for x in fitting if x not in named), None)
            if unnamed is not None and not any((ctx - {num_text(value)}) & x.tokens for x in named):
                # the value is a cell of a row the claim does not name, and otherwise only a figure no word of the
                # claim names (a bare `6.26 元` of the front page where the sentence speaks of a target price)
                return self._unnamed(unnamed, q, value, unit, sent, scope)
        # A report sentence printing a table cell's number and its row's or column's label restates that cell
        # (`表观吞吐量 … → 8,462 行/秒` of the 4x row's cell, `用户态时间标准差仅 0.06s(变异系数 1.9%)`): where the claim's
        # words rule that cell out (they name another column or row), the restatement is no rescue.
        ruled_out = [g for g in cands if g.table and (id(g) not in rival_of or rival_of[id(g)] is not None)]
        fitting = [x for x in named if not self._restates_a_cell(x, ruled_out)]
        if fitting and all(self._unnamed_part(x, sent) for x in fitting):
            x = fitting[0]
            total = max(self._row_cells(x), key=lambda g: g.base)
            return Verdict("mismatch", source_of(total), fig=total,
                           message=f"{say(total)}; {shown(x)} is {labels_of(x.f)}, a part of it the sentence does not "
                                   f"name")  # fmt: skip
        fitting = [x for x in fitting if not self._unnamed_part(x, sent)]
        if fitting:
            x = fitting[0]
            shared = (ctx - {num_text(value)}) & x.tokens or x.row_terms & self._claim_context(sent)
            return Verdict("verified", source_of(x), message=x.found, fig=x, cands=fitting,
                           strength="figure in context" if shared else "exact figure")  # fmt: skip
        for x in cands:
            rival = rival_of[id(x)] if id(x) in rival_of else self._rival(x, q, value, step, unit, sent, endpoint)
            if rival is not None:
                rivals.append((x, rival))
        if not rivals:  # every figure with this value belongs to another model, row or gate than the sentence names
            x = cands[0]
            if (fix := self._group_fix(x, sent, q)) is not None:  # (another system's cell: that system's is the fix)
                return Verdict(
                    "mismatch", source_of(fix), fig=fix, message=f"{say(fix)}; {shown(x)} is {labels_of(x.f, 3)}"
                )
            near = self._nearest(q, value, unit, sent, scope, exclude=x)
            keys = ", ".join(sorted(k for keys in x.ids.values() for k in keys))
            if self._other_heading(x, sent, q):  # (its row is named; the heading it stands under is not)
                keys = " ".join(lab for lab in x.f.labels if lab not in own_labels(x))
            msg = f"{shown(x)} in {x.f.report} is for {keys or labels_of(x.f, 3)}, which this sentence does not name"
            if near:
                return Verdict("mismatch", source_of(near), fig=near, message=f"{say(near)}; {msg}")
            return Verdict("mismatch", source_of(x), fig=x, message=msg)
        x, g = rivals[0]
        return Verdict("mismatch", source_of(g), fig=g,
                        message=f"{say(g)}; {shown(x)} is {labels_of(x.f) or 'another figure'}")  # fmt: skip

    def _unnamed_part(self, x: Fig, sent: Sentence) -> bool:
        """A part of a breakdown row (`Allocate` of `TPI`) whose column the claim's own sentence (or the heading above)
        does not name: `ACL/GPU takes 0.1822 s` states the row's total, not its allocation time."""
        if not x.part:
            return False
        self._claim_context(sent)  # (fills _claim_near)
        return stems(x.col_tokens).isdisjoint(self._claim_near[id(sent)])

    @staticmethod
    def _restates_a_cell(x: Fig, ruled_out: list[Fig]) -> bool:
        """Whether prose figure `x` prints the number of a table cell of its page, with a label of that cell's row or
        column, where the claim's words rule that cell out (a conflicting key or a rival they name better; a row they
        do not name may be one they name in words QC does not read: `1/8 数据集` of `input3_one_eighth`)."""
        if x.table or x.f.kind != "prose":
            return False
        return any(g.table and g.f.page == x.f.page and g.raw_num == x.raw_num
                   and any(lab in x.f.quote for lab in own_labels(g) if any(c.isalpha() for c in lab))
                   for g in ruled_out)  # fmt: skip

    def _names_another_row(self, x: Fig, sent: Sentence) -> bool:
        """A figure outside tables whose own words name no row of a table of its report and unit, where the claim's
        sentence names a row of that table by an identifier the figure lacks (`Speaker A012: 20%` over the WER table's
        `A012 7.27`): the claim states that row's cell, and a prose figure of another value (`the WERs changed from
        1.4% to 20%`) is no evidence of it."""
        if x.table or x.f.kind not in ("prose", "kv"):
            return False
        ids = stems(t for t in sent.tokens if _id_shape(t) is not None) - stems(x.tokens)
        if not ids:
            return False
        key = (x.f.report, x.unit.dim)
        rows = self._id_rows.get(key)
        if rows is None:
            rows = self._id_rows[key] = {}
            for g in self.prep.figs_of(x.f.report, x.unit.dim):
                if g.table:
                    for t in g.row_terms:
                        if _id_shape(t) is not None:
                            rows.setdefault(t, set()).add(g.table)
        own = stems(x.tokens)
        return any(own.isdisjoint(self.prep.row_words(table)) for t in ids for table in rows.get(t, ()))

    def _labelled_elsewhere(self, x: Fig, term: str, sent: Sentence) -> bool:
        """A prose figure whose sentence lacks the term the claim prints right before its number (`目标价 6.26 元`),
        where the report prints that term right before another number of the unit (`目标价38.50元`): the term labels
        that number, not this one (`EPS分别为6.02/6.26/6.52元`); so a claim's `EPS 分别为 6.02/38.50` or `最低价 38.50 元`
        is no `目标价38.50元` where the report prints `EPS` or `最低` right before other numbers of the unit. Within one
        report sentence the term printed right before each number names it: where another number of the unit stands
        after a term that fits the claim's better than this number's own (`总额达372.53 亿元,其中已使用额度252.06 亿元`;
        a run log's `用户态 =3.20s, 系统态 =0.49s`), the claim's term names that number, not this one (unless the claim's
        sentence states every such number too: two numbers swapped are told as such)."""
        if x.table or x.f.kind not in ("prose", "kv"):
            return False
        if any(not self._states(sent, y) for y in self._better_mates(x, term)):
            return True
        if not context_tokens(term).isdisjoint(x.own_tokens) or _printed_before(x, term):
            return False  # (`最高/最低 41.88 / 28.63元` of a key–value line whose key is `主要数据`)
        key = (x.f.report, x.unit.dim, term)
        hit = self._labelled.get(key)
        if hit is None:
            hit = self._labelled[key] = any(y is not x and y.f.kind in ("prose", "kv") and _printed_before(y, term)
                                       for y in self.prep.figs_of(x.f.report, x.unit.dim))  # fmt: skip
        return hit

    def _better_mates(self, x: Fig, term: str) -> list[Fig]:
        """The other numbers of the unit in prose figure `x`'s own sentence that stand right after the term sharing the
        most words with `term`, where that is more than any term printed right before `x`'s number shares (see
        _labelled_elsewhere)."""
        key = (x.f.id, term)
        if key not in self._mates:
            words = context_tokens(term)

            def fit(y: Fig) -> int:
                return max((len(words & context_tokens(t)) for t in printed_terms(y)), default=0)

            fits = [(fit(y), y) for y in self.prep.figs_of(x.f.report, x.unit.dim) if y.f.kind in ("prose", "kv")
                    and not y.table and y.f.quote == x.f.quote and y.f.page == x.f.page and y.raw_num != x.raw_num]  # fmt: skip
            best = max((k for k, _ in fits), default=0)
            self._mates[key] = [y for k, y in fits if k == best] if best > fit(x) else []
        return self._mates[key]

    @staticmethod
    def _states(sent: Sentence, y: Fig) -> bool:
        """Whether a number of the sentence has figure `y`'s value (in its unit's base)."""
        for o in sent.quantities:
            if o.exempt or o.value is None:
                continue
            u = parse_unit(o.unit) if o.unit else NONE
            if u.dim == y.unit.dim and abs(abs(o.value) * (u.factor if u.dim else 1.0) - y.base) <= 1e-9 * max(
                1.0, y.base
            ):
                return True
        return False

    def _printed_number(self, q: Quantity) -> frozenset[str]:
        """The words of the number as printed (`8,462` → `8`, `462`): a figure quoting that number shares no word of
        the claim by it (a sentence citing `→ 8,462 行/秒` fits the claim no better than the table's cell)."""
        return context_tokens(self._text[q.num_start : q.num_end])

    def _rounded_by_chance(self, x: Fig, value: float, unit: Unit, sent: Sentence) -> bool:
        """A figure the claim's number only rounds (`4 %` of a `3.8%`, `3 s` of a `3.07`, the printed value not the
        same) while the claim shares none of its words (bare numbers aside): a coarse number lands within rounding
        of some figure of a long report by chance, so rounding needs the figure's context."""
        v = abs(value) * (unit.factor if unit.dim else x.unit.factor)
        if abs(x.base - v) <= 1e-9 * max(1.0, x.base):
            return False
        words = unnumbered((sent.tokens - {num_text(value)}) & x.tokens)
        return not words and not x.row_terms & self._claim_context(sent)

    def _stray_prose(self, x: Fig, value: float, sent: Sentence) -> bool:
        """A number of prose with two significant digits or fewer (`50%`, `3.8%`, `100x`) in a sentence whose own
        words the claim shares none of (its section heading and bare numbers aside), in a report printing many
        figures of its unit: such values recur all over it, so one elsewhere is no evidence without its context."""
        if x.table or x.f.kind != "prose" or not self._recurs(x.f.report, x.raw_num, x.unit.dim):
            return False
        ctx = stems(sent.tokens - {num_text(value)}) | self._claim_context(sent)
        return not unnumbered(ctx & stems(x.own_tokens)) and not self._shares_a_measure(x, value, sent)

    def _unnamed_metric(self, x: Fig, sent: Sentence) -> bool:
        """A prose figure printed right after a metric's acronym (`对应 PE 30、20、15 倍`, `EPS 6.02`) is that metric's:
        it backs only a claim naming it (`较 38 线提升约 30 倍` is no price–earnings ratio)."""
        if x.table or x.f.kind not in ("prose", "kv"):
            return False
        names = {t.casefold() for t in printed_terms(x) if _ACRONYM.fullmatch(t)}
        return bool(names) and names.isdisjoint(sent.tokens | self._claim_context(sent))

    def _shares_a_measure(self, x: Fig, value: float, sent: Sentence) -> bool:
        """Another number of the claim's sentence, with its unit, printed in the prose figure's sentence too: `100
        threads within 5 seconds` over `在 5秒内产生 100个线程` is that sentence, in any language."""
        said = x.f.labels[:1]
        for o in sent.quantities:
            if o.exempt or not o.unit or o.value is None or o.value == value or o.is_range:
                continue
            unit = parse_unit(o.unit)
            if self._recurs(x.f.report, num_text(o.value), unit.dim):
                continue  # (a round `2 s` recurs in many sentences of such a report: no sign of the same one)
            if any(y.f.labels[:1] == said for y in matches(self.prep, o.value, o.step, unit, [x.f.report])):
                return True
        return False

    def _recurs(self, rid: str, raw: str, dim: str) -> bool:
        """Whether a value printed as `raw` is round (two significant digits or fewer: `50%`, `2 s`) in a report
        printing many figures of its unit, where such a value recurs by chance (`0.8 元/kwh` of a report that rarely
        prints its unit is distinctive by itself)."""
        rp = self.prep.by_rid.get(rid)
        pair = rp.by_dim.get(dim) if rp is not None else None
        return _significant(raw) <= 2 and pair is not None and len(pair[1]) >= _MANY_OF_A_UNIT

    def _bound_ok(self, q: Quantity, x: Fig) -> bool:
        if (
            q.bound
            and x.bound is None
            and x.table
            and not q.count
            and any(g.bound is not None for g in self.prep.table_dim(x.table, x.unit.dim) if g.col == x.col)
        ):
            return False  # a column printing its cells' limits (`>5000`) states the others exactly: `above 3900 °C` is no 3900
        if q.bound and x.bound is None and x.f.kind == "prose" and not q.count:
            # a report sentence states its limits in words (`exceeds 100 Gbps`); one that does not (`from 24 Gbps to
            # 400 Gbps`) limits nothing (a table cell has no words: `99%` of a percentile row is an upper limit;
            # `over 4×200 Gbps NICs` counts links)
            return same_bound(q.bound, x)
        return (x.bound is None or x.bound == q.bound) and not opposite_bound(q.bound, x)

    def _label(self, q: Quantity, value: float, sent: Sentence, scope: list[str]) -> Verdict | None:
        """A row key such as `并发 8`, or a percentile row `99%` (`99% observations less than`), that names a table
        row of a cited report."""
        pct = q.unit == "%"
        mult = parse_unit(q.unit).dim == "x"  # a load's multiple in a row label: `input3 (1x)`
        if (
            value != int(value)
            or q.magnitude
            or (q.unit and not (pct or mult) and not parse_unit(q.unit).dim.startswith("count:"))
        ):
            return None
        key = str(int(abs(value))) + ("x" if mult else "")
        counted = None if q.unit else counted_word(self._text, q.end)
        # (`8/1 数据集` is no `1/8` row: a number written as a fraction keys a label printing that fraction)
        frac = None if q.unit else _fraction(self._text, q)
        for rid in scope:
            for x, lab, own in self.prep.ints(rid).get(key, ()):  # own: the label's words but the key
                if len(lab) > KEY_LABEL_MAX:
                    continue  # a sentence quoted as a label is no row key (`相关研究1.《…》 3.《…》`)
                if pct and not re.search(rf"(?<![\d.+\-−]){key}\s*%", lab):
                    continue  # (a signed `+28%` of a chart is a change, no percentile row)
                if not pct and not key_in_label(key.rstrip("x"), lab):
                    continue  # (`5.4.2 Bandwidth …`, `2. 数据结构开销`, `<6%`: no key 2, 2 or 6 of the label)
                if frac and not re.search(rf"(?<![\d.]){re.escape(frac)}(?![\d.]*\d)", lab):
                    continue
                if not x.table and _counts_other_in(counted, lab, key):
                    continue  # (`公司 38 年` is no row key of `较 38 线提升`)
                if own and (shared := sent.tokens & own) and self._keys_another(shared, key.rstrip("x"), sent):
                    continue  # (`return_code 为 1,…batch=4` is no `batch 1` row: the sentence's batch is 4)
                if (own and sent.tokens & own) or (not own and len(sent.tokens & x.tokens) >= 2):
                    src = _label_source(x, value, q.unit, lab)
                    return Verdict("verified", src, message=f"{rid} p.{x.f.page}: {lab}", strength="row key")
        return None

    def _keys_another(self, words: frozenset[str], key: str, sent: Sentence) -> bool:
        """Whether the sentence gives every one of these words of a label a number, none of them `key`: the words
        are another number's key, not this one's."""
        text = self._text[sent.start : sent.end]
        for w in words:
            if w.isdigit() or not w.isascii() or not w.isalpha():
                return False
            got = [g for m in _key_pattern(w).finditer(text) for g in m.groups() if g]
            if not got or key in got:
                return False
        return True

    def _relabelled(self, q: Quantity, value: float, unit: Unit, sent: Sentence, scope: list[str]) -> Verdict | None:
        """A number beside a name in an article table's row label (`| input3_double (2x) |`) quotes the label of the
        report's row of that name: where the cited report labels that row with another number or unit (`2%` against
        `input3_double (2x)`), the label is misquoted, whatever figure of that value stands elsewhere (a `2.0%` of
        another page says nothing of this row)."""
        cell = self._text[sent.start : q.start] + " " + self._text[q.end : sent.end]
        name = frozenset(t for t in context_tokens(cell) if not t.isdigit())
        if not name:
            return None
        best: list[tuple[str, Fig]] = []  # (label, a cell of its row) of the rows the name fits with fewest other words
        fewest = KEY_LABEL_MAX
        for rid in scope:
            for lab, (toks, x) in self.prep.row_names(rid).items():
                if name <= toks and len(toks - name) <= fewest and _label_numbers(lab):
                    if len(toks - name) < fewest:
                        best, fewest = [], len(toks - name)
                    best.append((lab, x))
        if not best or any(self._quotes(lab, value, unit) for lab, _ in best):
            return None
        lab, x = best[0]
        return Verdict("mismatch", _label_source(x, value, unit.name, lab), message=f"{x.f.report} p.{x.f.page} labels this row “{lab}”, not "
                                                f"{q.text.strip()}")  # fmt: skip

    @staticmethod
    def _quotes(label: str, value: float, unit: Unit) -> bool:
        """Whether the label prints the number in the unit's dimension (a bare number any of its numbers: `| input3 (1)
        |` quotes `input3 (1x)`)."""
        nums = _label_numbers(label)
        return (value, unit.dim) in nums or (not unit.dim and any(v == value for v, _ in nums))

    def _verbatim(
        self, bl: Block, q: Quantity, reports: Iterable[str], words: bool = False
    ) -> tuple[str, Page, str] | None:
        """The number with its neighbouring words (`4 盘 RAID0`, `DeepSeek-32B`) as printed in a report's text, on a
        line that does not print the term right before the claim's number before another number instead (`年化产能超
        712 万公里` is not `季度产能712 万公里,年化产能超 2500 万公里`); with `words`, only with a word beside it (the
        number and its unit alone, `712 万公里`, say nothing of what it measures)."""
        term = label_term(bl.text, q.num_start)
        raw = bl.text[q.num_start : q.num_end]
        for cand, strict in _term_candidates(bl.text, q):
            if words and not strict:
                continue
            n = norm(cand)
            if not n or (strict and len(n) < 2):
                continue
            for rid in reports:
                rp = self.prep.by_rid.get(rid)
                if rp is None:
                    continue
                for i, (page, text) in enumerate(rp.pages()):
                    if _find_bounded(text, n):
                        quote = next((ln for ln, nl in rp.lines(i) if _find_bounded(nl, n)), cand)
                        if term and _term_before_another(quote, term, raw):
                            continue
                        if in_title(quote, raw):
                            continue  # (`5.《高测股份(688556.SH): 21 年业…》`: the name of a cited work, no figure)
                        return cand.strip(), page, quote
        return None

    def _model_name(self, bl: Block, q: Quantity, scope: list[str]) -> tuple[str, Page] | None:
        """`RTX 4090`, `Platinum 8163`, `EPYC 7763`, `MATH 500`: a bare integer after a capitalised word that a cited
        report prints as that very name is an identifier (a model or part number), not a quantity."""
        v = q.value
        if (v is None or q.unit or q.magnitude or q.approx or q.bound or q.sign or q.count or q.is_range
                or v != int(v) or v < 100 or q.num_end - q.num_start != len(str(int(v)))):  # fmt: skip
            return None
        m = _NAME_BEFORE.search(bl.text, max(0, q.num_start - 24), q.num_start)
        if not m:
            return None
        cand = m.group(1) + " " + bl.text[q.num_start : q.num_end]
        needle = norm(cand)
        for rid in scope:
            rp = self.prep.by_rid.get(rid)
            for page, text in rp.pages() if rp else ():
                if _find_bounded(text, needle):
                    return cand, page
        return None

    def _question_name(self, bl: Block, q: Quantity, scope: list[str]) -> tuple[str, Fig] | None:
        """A bare number of a question (a section heading, an FAQ question) that a cited report prints as the name of a
        table's column or row (`和 3.1 相比` over `指标 | 3.1（基线） | 3.2`, `over version 3.1`): the reader's question
        names the version or condition, it states no quantity."""
        if not (bl.kind == "heading" or _QUESTION_FIELD.fullmatch(bl.field)):
            return None
        if q.value is None or q.unit or q.magnitude or q.approx or q.bound or q.sign or q.count or q.is_range:
            return None
        printed = re.compile(rf"(?<![\d.,]){re.escape(bl.text[q.num_start : q.num_end])}(?![A-Za-z0-9,]|\.\d)")
        for rp in self.prep.holding(scope):
            for x in rp.figs:
                if x.f.report not in scope or not x.table:
                    continue
                for lab in sorted(x.col or ()) + ([x.row] if x.row else []):
                    if len(lab) <= KEY_LABEL_MAX and printed.search(lab):
                        return lab, x
        return None

    def _nearest(self, q: Quantity, value: float, unit: Unit, sent: Sentence, scope: list[str],
                 exclude: Fig | None = None) -> Fig | None:  # fmt: skip
        """The figure of a cited report that the sentence most likely meant (same kind of unit, most shared labels)."""
        if not unit.dim or unit.dim.startswith("count:") or q.count:
            return None
        v = abs(value) * unit.factor
        best, best_key = None, None
        term = label_term(self._text, q.num_start)
        for rid in scope:
            for x in self.prep.figs_of(rid, unit.dim):
                if x is exclude or x.listed or x.chart_run:  # (a choice's number, a chart label: no fix to name)
                    continue
                if term and self._labelled_elsewhere(x, term, sent):  # (`目标价38.50元` is no fix of `最低价 38.50 元`)
                    continue
                score = len(sent.tokens & x.tokens)
                rel = abs(x.base - v) / max(x.base, v, 1e-12)
                if (score < 1 and rel > 0.25) or self._conflict(x, sent, q):  # (the cheap test first)
                    continue
                # (a bound's fix is a figure the report limits the same way: `超过 100 ms` → `exceed 300 ms`)
                limited = bool(q.bound) and (x.bound == q.bound or same_bound(q.bound or "", x))
                key = (score, limited, not self._accounted(x, sent, q), -rel)
                if best_key is None or key > best_key:
                    best, best_key = x, key
        return best


_FAMILY = re.compile(r"([a-z]{2,})#")  # the shape of a row label that is a name and a number (`resnet50`)
_MAGNITUDE_RAW = re.compile(r"\d\s?(?:[KkMB万亿]|thousand|million|billion)")  # a figure printed with a magnitude
_MAGNITUDE_UNIT = re.compile(r"(?:万|亿|千|百万|thousand|million|billion)")  # …or in a unit its table states (`万元`)
_PART = re.compile(r",(?!\d{3}(?!\d))|[,;:\uff0c\uff1b\uff1a]|\band\b|\bwhile\b|以及|并且")  # CLAUSE without `、`


# `ranges from A to B`, `varies from A to B`: the pair is the span of what varies, no change from A to B


def _stated(text: str) -> list[str]:
    """The numbers `text` states, as printed without separators; not a citation marker's (`[source: R3]` states no
    3: it would name the row of a cell 3)."""
    for start, end, _ in reversed(markers(text)):
        text = text[:start] + " " * (end - start) + text[end:]
    return [n.replace(",", "") for n in _NUMBER.findall(text)]


def _bare_decimal(q: Quantity) -> bool:
    return not q.unit and not q.count and not q.magnitude and q.value is not None and q.value != int(q.value)


_PAGE_TABLE = "\x1f\x1fp"
_CJK_RUN = re.compile(r"[\u3400-\u9fff]{3,}")


def _fragment(theirs: frozenset[str], g: Fig) -> bool:
    """Whether the words that name table cell `g` rather than the claimed figure are only the head noun of its
    column's Chinese label (its last two characters): `额度` names no `剩余额度` column, `剩余` does. A head noun is
    the kind of thing a column counts, which prose gives several columns (`授信额度`, `已使用额度`)."""
    return bool(g.col) and theirs <= _heads(g.col)


@lru_cache(maxsize=4096)
def _heads(col: frozenset[str]) -> frozenset[str]:
    return frozenset(run[-2:] for lab in col for run in _CJK_RUN.findall(lab))


_HIGHEST = stems(["peak", "highest", "maximum", "max", "largest", "top", "best", "most", "峰值", "最高", "最大", "最多",
                  "最快"])  # fmt: skip
_LOWEST = stems(["lowest", "minimum", "min", "smallest", "least", "最低", "最小", "最少"])
KEY_LABEL_MAX = 48  # a longer label is a sentence quoted as a label (a caption, a list of titles): no row key


def _label_source(x: Fig, value: float, unit: str, label: str) -> Source:
    """The source of a number read as a label of figure `x`'s row (a row key, a misquoted row label): the label."""
    return Source(report=x.f.report, figure="", page=x.f.page, value=value, unit=unit, quote=label,
                  version=x.f.version, page_label=x.f.page_label, labels=[label])  # fmt: skip


@lru_cache(maxsize=4096)
def _label_numbers(label: str) -> frozenset[tuple[float, str]]:
    """The numbers a row label prints, each with its unit's dimension (`input3_double (2x)` → (2, `x`))."""
    return frozenset((q.value, parse_unit(q.unit).dim if q.unit else "") for q in extract(label)
                     if q.value is not None and not q.exempt)  # fmt: skip


_QUESTION_FIELD = re.compile(r"faq\.\d+\.q")
# A label's integer that is part of a section number (`5.4.2`), a leading ordinal (`2. 数据结构开销`) or a
# percentage (`<6%`): none of them names a row.
_NOT_A_KEY = re.compile(r"\.\d|\s*%")
_ORDINAL = re.compile(r"\s*\d+\s*[.、)）](?!\d)")
_CITED_PAGES = re.compile(r"\d+\s*\(\d+\)\s*:\s*\d+(?:\s*[-–]\s*\d+)?")  # `1(8):9`, `12(3):45–67`


_CORES = re.compile(r"#x[a-z]{1,3}#")  # the shape of a count of one kind of core (`2xa72`)
_FRACTION_AFTER = re.compile(r"/(\d+)(?![\d.])")
_FRACTION_BEFORE = re.compile(r"(?<![\d.])(\d+)/$")


def _fraction(text: str, q: Quantity) -> str | None:
    """The fraction a bare integer is printed in (`1/8`, the `1` or the `8` of it), None for a number alone."""
    if (m := _FRACTION_AFTER.match(text, q.num_end)) is not None:
        return f"{text[q.num_start : q.num_end]}/{m.group(1)}"
    if (m := _FRACTION_BEFORE.search(text, max(0, q.num_start - 8), q.num_start)) is not None:
        return f"{m.group(1)}/{text[q.num_start : q.num_end]}"
    return None


def key_in_label(key: str, lab: str) -> bool:
    """Whether integer `key` stands in label `lab` as a whole number that may name a row (`batch 4`, `input3
    (2x)`, `1/8`), not as part of a section number, a list ordinal, a percentage, a step counted off (`for i in 1 2
    3 4 5`) or a cited work's volume, issue and pages (`OpenAI blog, 1(8):9, 2019`)."""
    if counts_off(lab, key):
        return False
    cited = [m.span() for m in _CITED_PAGES.finditer(lab)]
    for m in re.finditer(rf"(?<![\d.]){key}(?!\d)", lab):
        if (m.start() and lab[m.start() - 1] == ".") or _NOT_A_KEY.match(lab, m.end()):
            continue
        if any(a <= m.start() < b for a, b in cited):
            continue
        if m.start() == len(lab) - len(lab.lstrip()) and _ORDINAL.match(lab, m.start()):
            continue
        if next_item(lab, m.start(), m.end()):
            continue
        return True
    return False


_AFTER_GE = re.compile(r"\s*([\u3400-\u9fff]{1,2})")
_PAREN = re.compile(r"[((]")
_AND = re.compile(r"\s*(?:°C|[A-Za-z%/]+)?\s*(?:and|与|和|至)\s*", re.I)
_BETWEEN_WORD = re.compile(r"between|介于|在", re.I)
# A range's clause that says it spans all rows: `across all seven runs`, `every page`, `各页面`, `所有`, `十个页面`.
_ALL_ROWS = re.compile(
    r"\b(?:all|every|each)\b(?:[ \u00a0]+(?:the|of[ \u00a0]+the))?(?:[ \u00a0]+(?P<n>one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve|\d+)\b)?|(?:各|所有|全部|每个)|(?P<zh>[一二两三四五六七八九十]{1,3})个(?=[\u3400-\u9fff])",
    re.I,
)
_EN_COUNTS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                          "nine", "ten", "eleven", "twelve"))}  # fmt: skip
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_BETWEEN = re.compile(r"(?:between|介于|在)\s*$", re.I)
_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?")
_IS_CAPTION_LABEL = re.compile(
    r"\s*(?:表|图|Table|Fig\.?|Figure)\s*[A-Z]?\d", re.I
)  # (see prepare: the table key of a page's uncaptioned cells)


_KEY_NUM = r"(?<![\d.])(?<!\d,)(\d+)(?![\d.]*\d|,\d{3}|[A-Za-z%])"  # (no group of `182,350`: `350 并发` is no key)
_KEY_TO = rf"(?:\s*(?:to|至|增至|增加到|降至|升至|提升至|->|→|–|~)\s*{_KEY_NUM})?"  # `batch 从 4 增至 16`


# A later clause that gives the key another value without repeating it: `TopK 为 5 时 3.87 s,为 100 时约 3.75 s`.
_ELIDED_KEY = re.compile(r"[,;\uff0c\uff1b]\s*(?:为|是|取)\s*(\d+)(?![\d.])\s*时")


def _elided_key_values(text: str, pat: re.Pattern[str]) -> list[str]:
    """The values `_ELIDED_KEY` clauses give after the key's first match in `text`."""
    first = pat.search(text)
    return [m.group(1) for m in _ELIDED_KEY.finditer(text, first.end())] if first else []


@lru_cache(maxsize=512)
def _key_pattern(kw: str) -> re.Pattern[str]:
    """`batch=16`, `batch 16`, `batch to 16`, `batch from 1 to 4`, `并发为 8`, `8 并发`: the key word with its numbers
    (groups: first, second, a number before the word)."""
    if kw == "year":  # `2024 年`, `in 2024`, `2026E`
        return re.compile(r"(?<![\d.])((?:19|20)\d\d)(?:\s*年|[AEF]?(?![\d.%]))()()")
    if kw.isascii():
        tail = "[a-z]*" if len(kw) > 2 else "(?![A-Za-z])"  # (`ef 32`, `ef set to 32`; no `effort`)
        return re.compile(rf"(?<![A-Za-z]){kw}{tail}\s*(?:[=:\uff1a]|\b(?:set )?to\b|\bof\b|\bis\b|\bfrom\b|从|为|是)?\s*{_KEY_NUM}{_KEY_TO}()",
                          re.I)  # fmt: skip
    return re.compile(
        rf"{kw}[\u3400-\u9fff]{{0,2}}\s*(?:[=:\uff1a]|为|是|从|由)?\s*{_KEY_NUM}{_KEY_TO}|{_KEY_NUM}\s*{kw}"
    )


_NAME_BEFORE = re.compile(r"(?<![A-Za-z0-9])([A-Z][A-Za-z]*)[ \u00a0-]$")  # the capitalised word right before
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
    cands = [left + core + right, left + core, core + right]
    if lg.endswith("-") and any(c.isalpha() for c in lg):
        # `DeepSeek-910B`: a name glued to the number by a hyphen is one identifier, never found as `910B` alone
        return [(c, True) for c in dict.fromkeys([*cands[:2], lg + core + right, lg + core]) if c != core]
    if right and q.unit == "个":
        cands.append(core[:-1].rstrip() + right)  # `200,000 个事件` is the report's `200,000 事件`
    for cand in cands:
        if cand != core and cand not in [c for c, _ in out]:
            out.append((cand, True))
    if (q.unit or q.magnitude or q.count) and not _NUM_ONLY.fullmatch(core):
        out.append((core, False))  # (with its unit as printed: a listed `4.7、7.5、9.3 亿元`'s bare 7.5 is no `7.5%`)
    if q.unit and parse_unit(q.unit).dim.startswith("count:"):
        num = text[q.num_start : q.num_end]  # `16 cores` is the report's `16 核`: a count in any of its spellings
        out += [(f"{num} {a}", True) for a in _spellings(parse_unit(q.unit).dim) if a != q.unit]
    return out


def _counts_other(x: Fig, dim: str) -> bool:
    """Whether a bare table cell's column header names a count of another thing than `dim` (`batch`, `卡`)."""
    for lab in x.col or ():
        for w in _HEADER_WORD.findall(lab):
            u = parse_unit(w)
            if u.dim and u.dim != dim and (u.dim.startswith("count:") or u.dim == "batch"):
                return True
    return False


_HEADER_WORD = re.compile(r"[A-Za-z]+|[\u3400-\u9fff]")


@lru_cache(maxsize=256)
def _spellings(dim: str) -> tuple[str, ...]:
    """Every spelling the unit table knows of a count (`count:core`: `核`, `cores`, `core`)."""
    return tuple(a for a in aliases() if parse_unit(a).dim == dim)


_NOUN_AFTER = re.compile(r"[ \u00a0]+([A-Za-z]{2,}s)\b")
_NUM_ONLY = re.compile(r"[\s\d.,+\-−]*")
_MANY_OF_A_UNIT = 10  # figures of one unit in a report from which a round value of it recurs by chance


def _significant(raw: str) -> int:
    """Significant digits of a printed number (`0.06` 1, `100` 1, `2500` 2, `1.50` 3, `28.63` 4)."""
    digits = "".join(c for c in raw if c.isdigit() or c == ".")
    whole, _, frac = digits.partition(".")
    return len((whole + frac).lstrip("0")) if frac else len(whole.lstrip("0").rstrip("0"))


# The word a bare number counts: the CJK character right after it (`22 年`, `35 线`) or an English plural noun
# (`16 threads`); particles and classifiers that stand after any number (`8 下`, `4 个`) count nothing by themselves.
_COUNTED_AFTER = re.compile(r"[ \u00a0]*(?:([\u3400-\u9fff])|([A-Za-z]{2,}s)\b)")
_NOT_COUNTED = frozenset("的时下中之后前以为和与及或等左右内上个多余约次")


def counted_word(text: str, end: int) -> str | None:
    """What the number ending at `end` counts, by the word right after it; None when no word stands there."""
    m = _COUNTED_AFTER.match(text, end)
    if m is None or (m.group(1) or "") in _NOT_COUNTED:
        return None
    return m.group(1) or m.group(2).lower()[:-1]


# Dimensions of a physical measure: a number counting a word (`40 季度`) is never one (a rate of counted things is:
# `2523798 对 1889515` of a QPS column, whose `对` is no counted word).
_MEASURES = frozenset(["length", "time", "time/frame", "bytes", "bits", "bytes/s", "bits/s", "Hz", "W", "Wh", "V", "A",
                       "°C", "Ω", "dB", "dB(A)"])  # fmt: skip


def _counts_another(counted: str | None, x: Fig) -> bool:
    """Whether a figure counts something else than the claim's bare number: one with a unit of measure never counts
    (`40 季度` is no `40um`); a prose figure's number counted by another word neither: `公司 22 年 35 季度` is no `35 线` of
    the report (the term right after a number labels it). Every occurrence of the figure's number in its sentence
    must count another thing in the same script (`16 组` vs `16 groups` is a translation, not a conflict)."""
    if counted is not None and x.unit.dim in _MEASURES:
        return True  # (`40 季度` counts quarters: no `40um` of `36、38、40um` measures them)
    if counted is None or x.table or x.f.kind not in ("prose", "kv") or not x.raw_num:
        return False
    return _counts_other_in(counted, x.f.quote, x.raw_num)


def _counts_other_in(counted: str | None, text: str, raw: str) -> bool:
    """Whether every occurrence of number `raw` in `text` counts another thing than `counted` (see _counts_another)."""
    if counted is None:
        return False
    cjk = not counted.isascii()
    seen = False
    for m in re.finditer(rf"(?<![\d.,]){re.escape(raw)}(?![\d]|[.,]\d)", text):
        theirs = counted_word(text, m.end())
        if theirs is None and (tail := _LIST_UNIT.match(text, m.end())) is not None:
            # a member of a list whose unit is printed once after it (`36、38、40um`) measures in that unit
            if tail.group(1).lower() == counted:
                return False
            seen = True
            continue
        if theirs is None or theirs == counted or (not theirs.isascii()) != cjk:
            return False
        seen = True
    return seen


_LIST_UNIT = re.compile(r"(?:[ \u00a0]*[、/,，][ \u00a0]*\d+(?:\.\d+)?)+[ \u00a0]?([A-Za-zμ]+)(?![A-Za-z])")


def _term_before_another(line: str, term: str, raw: str) -> bool:
    """Whether a report line prints `term` (see label_term) right before another number and never right before `raw`:
    the term labels that number."""
    mine = theirs = False
    for m in _NUMBER.finditer(line):
        t = label_term(line, m.start())
        if t is not None and (term in t or t in term):
            if m.group() == raw:
                mine = True
            else:
                theirs = True
    return theirs and not mine


def printed_terms(y: Fig) -> list[str]:
    """The terms figure `y`'s sentence prints right before its number (`label_term`; `系统态` of `系统态 =0.49s`), and
    a remark in brackets right after it and its unit (`单副本` of `约 1 TB(单副本)`)."""
    quote = y.f.quote
    found: list[str | None] = []
    for m in re.finditer(rf"(?<![\d.,]){re.escape(y.raw_num)}(?![\d]|[.,]\d)", quote) if y.raw_num else ():
        found.append(label_term(quote, m.start()))
        if (r := _REMARK_AFTER.match(quote, m.end())) and re.search(r"[A-Za-z\u3400-\u9fff]", r.group(1)):
            found.append(r.group(1))
    return [t for t in found if t is not None]


_REMARK_AFTER = re.compile(r"[ \t]*[^\s\d()（）,，;；。]{0,8}?[ \t]*[(（]([^()（）,，]{1,12})[)）]")


def _printed_before(y: Fig, term: str) -> bool:
    """Whether figure `y`'s sentence prints `term` as the term right before its number (`label_term`), or a term that
    one holds the other (`最低` of `52周最高/最低 41.88 / 28.63元` for a claim's `最低价`)."""
    return any(term in t or t in term for t in printed_terms(y))


def _another_run(x: Fig, sent: Sentence) -> bool:
    """A value of a log of repeated runs (`Run 1: 总耗时 =2.62s, … Run 5: 总耗时 =2.65s`) is one run's: it backs only a
    claim naming that run (`Run 5`, `第 5 次`, `首次` for the first); a claim naming none speaks of the runs together
    (their average, the start-up cost), which one run's value matches only by chance."""
    if x.table or x.f.kind not in ("prose", "kv") or not x.raw_num:
        return False
    quote = x.f.quote or ""
    marks = list(_RUN_MARK.finditer(quote))
    if len({m.group(1) for m in marks}) < 2:
        return False
    runs: set[int] = set()
    for m in re.finditer(rf"(?<![\d.,]){re.escape(x.raw_num)}(?![\d]|[.,]\d)", quote):
        before = [r for r in marks if r.end() <= m.start()]
        if not before or m.start() < before[-1].end():
            return False  # (a number outside the runs' lines, or a run's own number)
        runs.add(int(before[-1].group(1)))
    if not runs:
        return False
    words = sent.tokens
    for n in runs:
        ordinal = f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"
        if ordinal in words or re.search(rf"(?:\brun\s*#?\s*|第\s*){n}(?!\d)", sent.plain, re.I):
            return False
    return True


_RUN_MARK = re.compile(r"\bRun\s*#?\s*(\d+)\s*[:：]", re.I)


_ACRONYM = re.compile(r"[A-Z]{2,5}")


def _talks_about(words: frozenset[str], x: Fig) -> bool:
    """Whether the claim's words name a unitless figure: a word of its own labels; for a figure of prose, not a bare
    number (a table cell's numeric label is a row key: `batch 4`)."""
    shared = words & x.own_tokens
    return bool(shared if x.table else unnumbered(shared))


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
        ) and not (needle[-1].isdigit() and after and parse_unit(after).dim == "%")  # `to 20` is no `to 20%`
        if ok_b and ok_a:
            return True
        i = hay.find(needle, i + 1)
    return False


def _count_word(word: str) -> int | None:
    """A count of rows written as a word or digits: `seven` → 7, `12` → 12, `十` → 10, `十一` → 11, `二十` → 20."""
    w = word.lower()
    if w.isdigit():
        return int(w)
    if w in _EN_COUNTS:
        return _EN_COUNTS[w]
    if not w or any(c not in _ZH_DIGITS and c != "十" for c in w):
        return None
    if "十" not in w:
        return _ZH_DIGITS.get(w) if len(w) == 1 else None
    tens, _, ones = w.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (_ZH_DIGITS.get(tens, 0) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)
