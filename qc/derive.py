"""Derivations the sentence states: percent change, ratio and difference of its own operands or of one row or column."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any, TypeVar, cast

from qc.blocks import CLAUSE
from qc.claims import COMPARATIVE, Sentence, two_ends, wording
from qc.context import context_tokens, fmt, id_shapes, num_text
from qc.match import Matching, Verdict
from qc.numbers import CHANGE_RE, Quantity
from qc.prepare import Fig, labels_of, matches, say, source_of
from qc.units import NONE, Unit, compatible, parse_unit


class Derivations(Matching):
    """Numbers that no figure prints, computed from operands the sentence states (or one row it names)."""

    def _derive(
        self, q: Quantity, value: float, step: float, unit: Unit, sent: Sentence, scope: list[str]
    ) -> Verdict | None:
        """Percent change, ratio or difference of two numbers of the sentence, or of one table row of a cited report."""
        target = abs(value)
        tol = step / 2 * (1 + 1e-9) + 1e-12
        if unit.dim not in ("%", "x", "pp") and (rest := self._remainder(q, target, tol, unit, sent)):
            return Verdict("derived", derivation=rest, message="derived from numbers of the sentence",
                           strength="stated derivation")  # fmt: skip
        if not unit.dim and not q.count and COMPARATIVE.match(self._text, q.end):
            # `0.934 TEDs …, 0.007 above HTML's 0.927`: a bare difference of two bare numbers of the sentence
            bare = [(v, num_text(v), unit) for o in sent.quantities if o is not q and not (o.exempt or o.count
                    or o.unit) for v, _ in o.endpoints()]  # fmt: skip
            hit = formula(bare, target, tol, unit, q, gap=True, bare=True)
            return Verdict("derived", derivation=hit[0], message="derived from numbers of the sentence",
                           strength="stated derivation") if hit else None  # fmt: skip
        if not unit.dim or unit.dim.startswith("count:"):
            return None
        tol = approx_tolerance(q, target, step, tol)
        cs, ce = self._clause_bounds(q, sent)
        direction, gap = wording(self._text[cs:ce])
        if direction is None:  # `比 brpc 高 33.6%`, `低 5%`: the bare comparative right before the number
            m = _BARE_CMP.search(self._text, max(cs, q.start - 6), q.start)
            direction = ("up" if m.group(1) in "高多大快" else "down") if m else None
            gap = gap or bool(m and unit.dim not in ("%", "x", "pp"))  # (`高 49.4 MB`: a difference of measures)
        # `592 ms higher than`: a measure right before a comparative is the difference it states (`lower` alone, unlike
        # `less`, is no difference word: `a lower latency of 5 ms` is a level)
        gap = gap or bool(unit.dim not in ("%", "x", "pp") and COMPARATIVE.match(self._text, q.end))
        if unit.dim == "%" and (sw := _SPEED_WORD.match(self._text, q.end)):
            # `17 fps against 14 fps, 21.4% faster`: over 14; the word right after the number, not the clause's
            # (`slower` holds `lower`), says the way, as the operands' dimension reads it (`formula`)
            direction = "slower" if "slower" in sw.group().lower() else "faster"
        if unit.dim == "%" and not gap and (shared := _share_of(q, target, tol, sent, self._text, cs)):
            return shared  # `5.2 FPS, about 31% of the 16.7 FPS …`, `约为 4KB 对象(139.86 MiB/s)的 19%`
        if unit.dim == "%" and direction is None and not gap and _SHARE.search(self._text, cs, q.start):
            return _share(q, target, tol, sent)  # `已使用 252.06 亿元,使用率约 67.7%`: no change, a share
        if direction is None and _ELIDED.fullmatch(self._text, cs, q.start):
            # `… falls by 64%, AlexNet's by 43%`: a clause of a name and its number borrows the verb before it
            direction = wording(self._text[sent.start : cs])[0]
        faster = unit.dim == "x" and faster_words(self._text, q)
        ops: list[tuple[float, str, Unit]] = []
        owners: list[Quantity] = []
        for other in sent.quantities:
            if other is q or other.exempt or other.count or not other.unit:
                continue
            u = parse_unit(other.unit)
            for v, _ in other.endpoints():
                ops.append((v, num_text(v), u))
                owners.append(other)
        ops, owners = _nearest_first(ops, owners, q, cs, ce)
        if (
            gap
            and unit.dim not in ("%", "x", "pp")
            and not COMPARATIVE.match(self._text, q.end)
            and any(cs <= o.start < ce and COMPARATIVE.match(self._text, o.end) for o in owners)
        ):
            gap = False  # (`357 °C, 22 °C above the … boiling point of 335 °C`: the difference is the number the
            # comparative follows, the one after it an operand)
        hit = formula(ops, target, tol, unit, q, direction, gap, faster=faster)
        if hit and (keys := [o for o in (owners[hit[1]], owners[hit[2]]) if self._names_row(o, sent, scope)]):
            # `64KB 对象的带宽为 791.38 MiB/s,约为 4KB 对象(139.86 MiB/s)的 16 倍`: 64KB and 4KB name the rows of
            # the bandwidths, they are no operands (keys never are)
            kept = [i for i, o in enumerate(owners) if o not in keys]
            ops, owners = [ops[i] for i in kept], [owners[i] for i in kept]
            hit = formula(ops, target, tol, unit, q, direction, gap, faster=faster)
        if hit and self._operands_swapped(q, cs, ce, owners[hit[1]], owners[hit[2]]):
            hit = None  # (`1669 ms is 6718 ms higher than Cassandra's 8387 ms`: the words put the sides the other way)
        if not hit and unit.dim == "x":
            # `an RTF of 0.71 … with 1.36, so about 1.9 times faster`: a ratio of two bare numbers the sentence states
            # (never keys, `batch=1 to batch=4` is no 4x; and one operand at least a measured decimal)
            bare = [(v, num_text(v), NONE) for o in sent.quantities if o is not q and not (o.exempt or o.count
                    or o.unit or o.is_range or self._text[max(0, o.start - 1) : o.start] in ("=", ":"))
                    for v, _ in o.endpoints()]  # fmt: skip
            if any(v != int(v) for v, _, _ in bare):
                hit = formula(bare, target, tol, unit, q, bare=True, faster=faster)
            elif m := _OPERANDS_AFTER.match(self._text, q.end):
                # `1.35 倍(115 对 85)`: the operands the ratio states right after it, whole numbers as the table prints
                inside = [(v, num_text(v), NONE) for o in sent.quantities if m.start() <= o.start < m.end()
                          and not (o.exempt or o.unit or o.is_range) for v, _ in o.endpoints()]  # fmt: skip
                if len(inside) == 2:
                    hit = formula(inside, target, tol, unit, q, bare=True, faster=faster)
            if not hit:
                hit = self._column_ratio(q, sent, target, tol, unit, scope, faster)
        if not hit and unit.dim in ("%", "x"):
            # A stated pair: `from 7,368.67 to 2,237.75, a 69.6% drop` (unitless), `ROE 从 14.49% 降至 13.78%,
            # 下降约 4.9%` (a relative change of two percentages; `66% is 65% above 40%` says so too).
            pairs = self._stated_pairs(sent)
            if unit.dim == "%" and COMPARATIVE.match(self._text, q.end):
                pct = [(v, num_text(v), u) for v, _, u in ops if u.dim == "%"]
                pairs += [(a, b) for a, b in pairwise(pct)]
            for a, b in pairs:
                hit = formula([a, b], target, tol, unit, q, direction, gap, bare=True, faster=faster, rel=True)
                if hit:
                    break
        if hit:
            # `快 3 倍`, `3 times faster`: N times as fast or N times more; the reviewer decides which is meant
            warn = f"ambiguous: “{q.text.strip()}” may mean {fmt(target)}× or {fmt(target + 1)}×" if faster else ""
            return Verdict("derived", derivation=hit[0], message="derived from numbers of the sentence",
                           strength="stated derivation", warning=warn)  # fmt: skip
        if conv := converted(sent, q, value, tol, unit, self._text):
            return Verdict("derived", derivation=conv, message="converted from a number of the sentence",
                           strength="stated derivation")  # fmt: skip
        if unit.dim == "pp" and sum(u.dim == "%" for _, _, u in ops) >= 2:
            return None  # points between the sentence's own percentages: never two other cells of their row
        dims = [u.dim for _, _, u in ops if u.dim not in ("%", "x")]
        paired = len(dims) > len(set(dims))  # the sentence states operands of its own
        clause = self._clause_tokens(q, sent)
        rows: list[list[Fig]] = []
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
        # A row whose own key (`GoogleNet` of a per-network table) the clause names is tried before rows that merely
        # share words with it (a per-layer table under a `GoogleNet` caption, whose two cells agree by chance).
        # (Where the sentence states operands of its own, only an eligible row is: `about 5 times the metalloids'
        # 741.5 °C` divides by 741.5, never the metalloids' max by their mean.)
        keyed = [i for i in (eligible if paired else range(len(rows)))
                 if by_clause[i] and self._row_key_named(rows[i], clause)]  # fmt: skip
        eligible = keyed + [i for i in eligible if i not in keyed]
        # (the operands the number's own clause states: `约为原来的 2 倍` after `从 0.47 GB/s 增至 0.92 GB/s`)
        stated = [v * u.factor for o in sent.quantities if o is not q and o.unit and not (o.exempt or o.count)
                  and cs <= o.start < ce and (u := parse_unit(o.unit)).dim == unit_of_ops(u, unit)
                  for v, _ in o.endpoints()]  # fmt: skip
        own = stated_measures(sent, q) if not q.is_range else {}  # (a range's ends span rows)
        mine = id_shapes(clause)
        words, compared = context_tokens(self._text[cs:ce]), self._compared(q, cs, ce)  # (glossary words: `max`)
        for i in eligible:
            row, row_ops = rows[i], infos[i][1]
            theirs = id_shapes(infos[i][0])
            if any(shape in theirs and ids.isdisjoint(theirs[shape]) for shape, ids in mine.items()):
                continue  # the clause names another row's key of the kind (`128K 下…约为原来的 3.0 倍`, a 32K row)
            if self._keyed_apart(row, q, sent):
                continue  # the sentence gives the row's key another number (`At ef=128 …, 45.1% more`: no ef 256 row)
            hit = formula(row_ops, target, tol, unit, q, direction, gap)
            if not hit or _columns_conflict(row[hit[1]], row[hit[2]]):
                continue
            xa, xb = row[hit[1]], row[hit[2]]
            if self._key_cell(xa) or self._key_cell(xb):
                continue  # (`value` cells 4KB, 64KB that label the other cells' rows: keys, never operands)
            if _other_columns_named(row, xa, xb, words):
                continue  # (`HBase's maximum read latency is 740 ms lower`: no difference of the two min columns)
            if compared and _cells_swapped(
                compared, xa, xb, xa.col_tokens - xb.col_tokens, xb.col_tokens - xa.col_tokens
            ):
                continue  # (`HBase's maximum read latency is 6718 ms higher than Cassandra's`: HBase's is lower)
            if stated and not any(abs(x.base - v) <= 1e-9 * max(abs(v), 1.0) for x in (xa, xb) for v in stated):
                continue  # the sentence states operands of its own: two other cells agreeing by chance are none
            if not_stated(own, xa, xb):
                continue  # (the same, where the sentence states the pair outside the number's clause)
            if self._columns_of(row, xa) > _FEW_CELLS and not _named_apart_in_row(xa, xb, sent.tokens):
                continue  # of a long row (a per-layer table), two cells agree by chance unless both columns are named
            # the cells' columns named apart by the number's own clause, or by its sentence where that states one of
            # them (`- MIXED: 0.5348 s, 43% less than OpenBLAS`)
            apart = _named_apart_in_row(xa, xb, clause if not _states_one(own, xa, xb) else sent.tokens)
            named = apart or self._row_key_named(row, sent.tokens, every=True)
            if keyed and i not in keyed and not named:
                # the row the clause names failed: another only where the sentence names it or both cells (`GoogleNet's
                # time … falls by 64%, AlexNet's by 42%`: no AlexNet cell against a MobileNet one of a row the
                # sentence does not name, 4xA53's)
                continue
            if keyed and self._under_rival(row, [rows[j] for j in keyed], rows, clause):
                continue  # a row under another key than the clause's (`Table 3 AlexNet …` for GoogleNet's change)
            first = row[0]
            return Verdict("derived", source_of(first), derivation=hit[0], strength="derivation from one row",
                           message=f"derived from {first.f.report} p.{first.f.page} ({labels_of(first.f, 2)})")  # fmt: skip
        found, fixed = self._from_stated_cell(q, target, tol, unit, sent, scope, direction)
        if found is not None or fixed:
            return found  # (the sentence fixes both operands: two other cells agreeing with the number are none)
        return self._from_column(q, target, tol, unit, sent, scope, direction, gap, clause) or self._from_pair(
            q, target, tol, unit, sent, scope, direction, gap
        )

    def _from_stated_cell(self, q: Quantity, target: float, tol: float, unit: Unit, sent: Sentence, scope: list[str],
                          direction: str | None) -> tuple[Verdict | None, bool]:  # fmt: skip
        """`- SET: 81,300 RPS, about 3.3 times the single-request rate`, `the average latency rises from 1.289 ms to
        3.085 ms, … while the p99 falls by 7.3% to 7.583 ms`: a change or ratio of a table cell the sentence states
        and the cell of its column in the one other row the sentence names (where the number's own clause states no
        other operand), either by every word that row's labels have and the stated cell's lack (`single-request`:
        SET's Single Request row, not `SET (with EX 10s)`'s), or by another of its numbers that is a cell of that row
        and not of the stated cell's (1.289 of GET's single-request row). The stated number fixes the column and the
        sentence the row; with both fixed (the second value true) no other two cells derive the number."""
        if unit.dim not in ("%", "x"):
            return None, False
        fixed = False
        live = [o for o in sent.quantities if o is not q and o.value is not None and o.unit
                and not (o.exempt or o.count or o.is_range or o.bound)]  # fmt: skip
        nums = {num_text(o.value) for o in sent.quantities if o is not q and o.value is not None}
        cs, ce = self._clause_bounds(q, sent)
        clause = self._clause_tokens(q, sent)
        for o in live:
            u = parse_unit(o.unit)
            if any(p is not o and cs <= p.start < ce and compatible(parse_unit(p.unit), u) for p in live):
                continue  # the number's own clause states the other operand (`3.7 times the metalloids' 741.5 °C`)
            if not u.dim or u.dim in ("%", "x", "pp") or u.dim.startswith("count:") or self._names_row(o, sent, scope):
                continue  # (`64KB 对象的带宽…`: a row key, no operand)
            for x in matches(self.prep, o.value or 0.0, o.step, u, scope):
                if not x.table or x.row is None or x.col is None or self._key_cell(x):
                    continue
                mates = [g for g in self.prep.table(x.table) if g.row == x.row and g.col != x.col]
                if any((g.tokens - x.tokens) & clause for g in mates) and not any(
                    (x.tokens - g.tokens) & clause for g in mates
                ):
                    continue  # the number's clause speaks of another column (`事务处理量比登录页面高约 20.9%,响应时间…`)
                mine = x.own_tokens - x.col_tokens
                others = nums - {num_text(o.value)}
                named = []
                for y in self.prep.table_dim(x.table, x.unit.dim):
                    if y.col != x.col or y.row == x.row:
                        continue
                    extra = (y.own_tokens - y.col_tokens) - mine
                    by_words = bool(extra) and extra <= sent.tokens
                    by_cell = any(m.replace(",", "") in others and m not in x.row_mates for m in y.row_mates)
                    if by_words or by_cell:
                        named.append(y)
                if len({y.row for y in named}) != 1:
                    continue  # (no row, or several: the sentence names no one base)
                y = named[0]
                ops = [
                    (abs(o.value or 0.0), num_text(o.value), u),
                    (y.f.value, y.raw_num or num_text(y.f.value), y.unit),
                ]
                hit = formula(ops, target, tol, unit, q, direction)
                if hit:
                    verdict = Verdict("derived", source_of(y), derivation=hit[0], strength="derivation from one column",
                                      message=f"derived from {y.f.report} p.{y.f.page} ({labels_of(y.f, 3)}) and the "
                                              f"number the sentence states")  # fmt: skip
                    return verdict, True
                fixed = True
        return None, fixed

    def _compared(self, q: Quantity, cs: int, ce: int) -> _Compared | None:
        """The side the words set the number's subject against, the way the subject stands to it, and where that
        side's words are: after `比` before a bare comparative (`比 32K 高 11.2 个百分点`), or after a comparative right
        after the number (`6718 ms lower than Cassandra's 8387 ms`)."""
        text = self._text
        if (m := _BARE_CMP.search(text, max(cs, q.start - 6), q.start)) and (k := text.rfind("比", cs, m.start())) >= 0:
            return context_tokens(text[k + 1 : m.start()]), "up" if m.group(1) in "高多大快" else "down", k, m.start()
        if c := COMPARATIVE.match(text, q.end):
            word = c.group().strip().lower()
            way = word if word in ("faster", "slower") else "up" if word in _MORE else "down"
            return context_tokens(text[c.end() : ce]), way, c.end(), ce
        return None

    def _operands_swapped(self, q: Quantity, cs: int, ce: int, a: Quantity, b: Quantity) -> bool:
        """Whether, of two numbers of the sentence, the words set one as the base (`than Cassandra's 8387 ms`) and
        the other stands to it the other way than they say."""
        compared = self._compared(q, cs, ce)
        if compared is None or (compared[2] <= a.start < compared[3]) == (compared[2] <= b.start < compared[3]):
            return False
        base, subject = (a, b) if compared[2] <= a.start < compared[3] else (b, a)
        ub, us = parse_unit(base.unit), parse_unit(subject.unit)
        return _stands_against(compared[1], us.dim, abs(subject.value or 0.0) * us.factor,
                               abs(base.value or 0.0) * ub.factor)  # fmt: skip

    def _remainder(self, q: Quantity, target: float, tol: float, unit: Unit, sent: Sentence) -> str | None:
        """`dropped 257,173 duplicate keys of the intended 1,000,000, leaving 742,827 nodes`: the part a sentence
        takes away before the rest it says is left (`leaving`, `剩余`) is the whole it states less that rest."""
        qs = [o for o in sent.quantities if o is not q and o.value is not None and not (o.exempt or o.is_range)]
        for rest in qs:
            if rest.start < q.end or not _LEAVING.search(self._text, max(q.end, rest.start - 16), rest.start):
                continue
            ur = parse_unit(rest.unit)
            for whole in qs:
                uw = parse_unit(whole.unit)
                if whole is rest or not (compatible(ur, uw) and compatible(ur, unit) and compatible(uw, unit)):
                    continue
                d = (cast(float, whole.value) * uw.factor - cast(float, rest.value) * ur.factor) / unit.factor
                if d > 0 and abs(d - target) <= tol:
                    shown = q.text[max(0, q.num_start - q.start) :].strip()
                    return f"{num_text(whole.value)} − {num_text(rest.value)} = {fmt(d)} ≈ {shown}"
        return None

    def _from_pair(self, q: Quantity, target: float, tol: float, unit: Unit, sent: Sentence, scope: list[str],
                   direction: str | None, gap: bool) -> Verdict | None:  # fmt: skip
        """`消息从 4B 增大到 10KB,coro_rpc 的 QPS 下降 94.9%`, `A003's error rate is 14.7 times B002's`: two figures of
        one table (two bars of a chart) whose labels differ in one label each, both named by the sentence; the labels
        they share that set rows or series apart are named by the number's clause (or, where the clause names none
        of the table's, by the sentence)."""
        cs, ce = self._clause_bounds(q, sent)
        clause = self._clause_tokens(q, sent)
        s_nums = {num_text(o.value) for o in sent.quantities if o.value is not None}
        c_nums = {num_text(o.value) for o in sent.quantities if o.value is not None and cs <= o.start < ce}
        # The measures the sentence states, by dimension: a pair of that dimension must hold one of them
        # (`从 3,374.88 亿元增至 3,552.00 亿元,增长约 6.6%` is never two cells of another row).
        stated = stated_measures(sent, q)
        base = self._compared(q, cs, ce)
        for rid in scope:
            rp = self.prep.by_rid.get(rid)
            for figs in rp.by_table.values() if rp else ():
                hit = _pair_in_table(figs, q, target, tol, unit, direction, gap, (sent.tokens, s_nums),
                                     (clause, c_nums), base)  # fmt: skip
                if hit and ((hit[1].unit.dim and not_stated(stated, hit[1], hit[2], least=1))
                            or self._keyed_apart([hit[1], hit[2]], q, sent)):  # fmt: skip
                    hit = None
                if hit and hit[1].table and hit[1].row is not None and hit[1].row == hit[2].row:
                    row = [g for g in figs if g.row == hit[1].row]
                    if _other_columns_named(row, hit[1], hit[2], context_tokens(self._text[cs:ce])):
                        hit = None  # (as of one row the clause names: `maximum` is no pair of the min columns)
                if hit:
                    deriv, x, y = hit
                    return Verdict("derived", source_of(x), derivation=deriv, strength="derivation from one row",
                                   message=f"derived from {x.f.report} p.{x.f.page} ({labels_of(x.f, 3)} and "
                                           f"{labels_of(y.f, 3)})")  # fmt: skip
        return None

    def _over_own_table(self, q: Quantity, unit: Unit, sent: Sentence) -> Verdict | None:
        """`Close 的 AvgLat 比 NTCreateX 低 20.4%` below the article's own table: a change or ratio of two verified cells
        of one of its columns, the clause naming both rows (by the words only that row's label has) and the sentence
        the column (its header's words), as the words state the operation."""
        table: list[tuple[str, str, Quantity]] = getattr(self, "_own_table", [])
        if not table or unit.dim not in ("%", "x") or q.value is None:
            return None
        cs, ce = self._clause_bounds(q, sent)
        clause = context_tokens(self._text[sent.start : ce])
        rows = {row: context_tokens(row) for row, _, _ in table}
        common = frozenset.intersection(*rows.values()) if len(rows) > 1 else frozenset()
        named = {row for row, toks in rows.items() if (toks - common) & clause}
        if len(named) < 2:
            return None
        direction, gap = wording(self._text[cs:ce])
        if direction is None and (m := _BARE_CMP.search(self._text, max(cs, q.start - 6), q.start)):
            direction = "up" if m.group(1) in "高多大快" else "down"
        target = abs(q.value)
        tol = approx_tolerance(q, target, q.step, q.step / 2 * (1 + 1e-9) + 1e-12)
        heads = {h: context_tokens(h) for _, h, _ in table}
        shared = frozenset.intersection(*heads.values()) if len(heads) > 1 else frozenset()
        for hdr, words in heads.items():
            if not (words - shared) & sent.tokens:
                continue  # the sentence names no column (a unit every column has names none)
            cells = [c for row, h, c in table if h == hdr and row in named]
            ops = [(c.value or 0.0, num_text(c.value), parse_unit(c.unit) if c.unit else NONE) for c in cells]
            hit = formula(ops, target, tol, unit, q, direction, gap, bare=True)
            if hit:
                return Verdict("derived", derivation=hit[0], strength="stated derivation",
                               message="derived from two cells of the article's table above")  # fmt: skip
        return None

    def _ratios(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict], scope: list[str]) -> None:
        """`at 87 GB/s … and at 190 GB/s …, about 2.2 times as fast`: an `N times as fast` whose clause names no
        other side compares the two measures of one dimension its sentence states before it; a figure of its value found
        elsewhere (the paper's 4.6× over TCP) does not make another ratio right."""
        for k, q in enumerate(qs):
            v = verdicts[k]
            if v.status != "verified" or q.exempt or q.is_range or parse_unit(q.unit).dim != "x" or q.value is None:
                continue
            cs, ce = self._clause_bounds(q, sent)
            if _OTHER_SIDE.search(self._text, cs, ce):
                continue  # `4.6× faster than TCP`, `比 brpc 快`: the clause names what it is compared with
            base = (m := _TIMES_THE.match(self._text, q.end)) and next((o for o in qs if o.start == m.end()), None)
            if not base and not _AS_MUCH.match(self._text, q.end):
                continue  # (`… and improved TTFT 4.1x` states a ratio of its own; `N times as fast` compares)
            by_dim: dict[str, list[Quantity]] = {}
            for o in [*qs[:k], *([base] if base else [])]:
                u = parse_unit(o.unit) if o.unit and not (o.exempt or o.count or o.is_range) else NONE
                if unit_of_ops(u, u) and o.value and not self._names_row(o, sent, scope):
                    by_dim.setdefault(u.dim, []).append(o)
            if base:  # `137.9 GB/s …, 2.55 times the 54.1 GB/s`: the measure it multiplies, and the one it gives
                by_dim = {d: os_ for d, os_ in by_dim.items() if base in os_}
            pairs = [os_ for os_ in by_dim.values() if len(os_) == 2]
            if not pairs or any(len(os_) > 2 for os_ in by_dim.values()):
                continue  # no pair, or more measures of a kind than one comparison: nothing says which are compared
            ratios = []
            for a, b in pairs:
                x, y = abs(a.value or 0.0) * parse_unit(a.unit).factor, abs(b.value or 0.0) * parse_unit(b.unit).factor
                if x and y and x != y:
                    ratios.append((max(x, y) / min(x, y), (a, b) if x > y else (b, a)))
            if not ratios or any(self._ratio_fits(q, r, hi, lo) for r, (hi, lo) in ratios):
                continue
            r, (hi, lo) = ratios[0]
            verdicts[k] = _overruled(
                v,
                f"{hi.text.strip()} / {lo.text.strip()} = {fmt(r)}×, not {q.text.strip()} "
                f"({v.message}: a figure of another comparison)",
            )

    def _column_ratio(self, q: Quantity, sent: Sentence, target: float, tol: float, unit: Unit, scope: list[str],
                      faster: bool) -> tuple[str, int, int] | None:  # fmt: skip
        """`a height of 22 while the plain BST reaches 164, about 7.5 times taller`, `25,432 requests per second … and
        87,489 with a pipeline of 16, about 3.4 times more`: two numbers of the sentence, one at least printed bare,
        that are cells of one column of a cited report's table (whole numbers too: the column says they measure one
        thing, where two stray integers would not)."""
        live = [o for o in sent.quantities if o is not q and o.value is not None and not (o.exempt or o.count
                or o.is_range or o.bound or self._text[max(0, o.start - 1) : o.start] in ("=", ":"))]  # fmt: skip
        cols = [col for rid in scope if (rp := self.prep.by_rid.get(rid)) for col in rp.columns]
        for i, a in enumerate(live):
            for b in live[i + 1 :]:
                if a.unit and b.unit:
                    continue  # (two numbers with units are the sentence's own operands above)
                if not any(_in_column(col, a) and _in_column(col, b) for col in cols):
                    continue
                ops = [(o.value or 0.0, num_text(o.value), NONE) for o in (a, b)]
                if hit := formula(ops, target, tol, unit, q, bare=True, faster=faster):
                    return hit
        return None

    def _ratio_fits(self, q: Quantity, r: float, hi: Quantity, lo: Quantity) -> bool:
        """Whether ratio `r` of `hi` over `lo` is `q` (within both's printed precision; `faster` read both ways)."""
        target = abs(q.value or 0.0)
        tol = q.step / 2 * (1 + 1e-9) + _rounding(hi, lo, parse_unit("x")) + 1e-12
        tol = approx_tolerance(q, target, q.step, tol)
        return abs(r - target) <= tol or (faster_words(self._text, q) and abs(r - 1 - target) <= tol)

    def _names_row(self, o: Quantity, sent: Sentence, scope: list[str]) -> bool:
        """Whether number `o` of the sentence, as printed (`64KB`), is a label of a figure another number of the
        sentence, of another dimension, rests on (`value 64KB` of 791.38 MiB/s): a row key, not a measure."""
        tok = re.sub(r"\s+", "", o.text[max(0, o.num_start - o.start) :]).lower()
        dim = parse_unit(o.unit).dim
        for p in sent.quantities:
            if p is o or p.exempt or p.value is None or not p.unit or (u := parse_unit(p.unit)).dim == dim:
                continue
            if any(tok in x.tokens for x in matches(self.prep, p.value, p.step, u, scope)):
                return True
        return False

    def _under_rival(
        self, row: list[Fig], keyed: list[list[Fig]], rows: list[list[Fig]], clause: frozenset[str]
    ) -> bool:
        """Whether `row` stands under (its caption or section names) another row key of a table whose row the
        clause names by its own key, and not under that key: `GoogleNet's time … falls by 36%` names Table 1's
        GoogleNet row; a row of `Table 3 AlexNet performance for each Layer` is AlexNet's, Table 1's other row."""
        words = self._table_words(row)
        for kr in keyed:
            table = kr[0].table
            if table == row[0].table or not (own := self._row_own(kr)) or any(k & words for k in own):
                continue
            for other in rows:
                if other is kr or other[0].table != table:
                    continue
                if any(k & words and not k & clause for k in self._row_own(other)):
                    return True
        return False

    def _keyed_apart(self, row: list[Fig], q: Quantity, sent: Sentence) -> bool:
        """Whether the sentence gives a row key of the row's cells (`ef 256`) another number (`ef=128`)."""
        for kw, val, _ in dict.fromkeys(k for x in row for k in x.row_keys):
            vals, _ = self._key_values(kw, q, sent)
            if vals and val not in vals:
                return True
        return False

    def _table_of(self, x: Fig, default: list[Fig]) -> list[Fig]:
        """The figures of `x`'s table (`default` where the report holds none by that name)."""
        rp = self.prep.by_rid.get(x.f.report)
        return rp.by_table.get(x.table or "", default) if rp else default

    def _key_cell(self, x: Fig) -> bool:
        """Whether a table cell with a unit, as printed (`4KB`), is a label of its table's cells (`value 4KB`): the
        key of their rows, not a measure."""
        if not x.table or not x.unit.dim:
            return False
        table = self._table_of(x, [x])
        words = _memo(_TABLE_LABELS, table,
                      lambda: frozenset().union(*(context_tokens(lab) for lab in {lab for y in table for lab in y.f.labels})))  # fmt: skip
        return re.sub(r"\s+", "", f"{x.raw_num or num_text(x.f.value)}{x.f.unit}").lower() in words

    def _columns_of(self, row: list[Fig], x: Fig) -> int:
        """How many columns of `x`'s dimension the row's table has (a sparse row, `ACL/NEON 0.1950   0.1602   0.0320`,
        prints fewer; a key column, `并发档位`, is none)."""
        dim = _dim_of(x)
        return len({y.col for y in (*self._table_of(row[0], row), *row) if y.col and _dim_of(y) == dim})

    def _table_words(self, row: list[Fig]) -> frozenset[str]:
        """The words of the labels every cell of the row's table has (its caption, its section)."""
        table = self._table_of(row[0], row)
        return _memo(_TABLE_WORDS, table, lambda: frozenset().union(*(context_tokens(lab) for lab in _common(table))))

    def _row_own(self, row: list[Fig]) -> list[frozenset[str]]:
        """The words of the labels that set this table row apart: its cells' common labels but the table's own
        (caption, section)."""

        def make() -> list[frozenset[str]]:
            return [context_tokens(lab) for lab in _common(row) - _common(self._table_of(row[0], row))]

        return _memo(_ROW_OWN, row, make, limit=100_000)  # (`publish serve` checks for hours)

    def _row_key_named(self, row: list[Fig], words: frozenset[str], every: bool = False) -> bool:
        """Whether `words` name the labels that set this table row apart (see _row_own): one of them, or (`every`)
        each."""
        hits = [bool(toks & words) for toks in self._row_own(row)]
        return bool(hits) and (all(hits) if every else any(hits))

    def _stated_pairs(self, sent: Sentence) -> list[tuple[tuple[float, str, Unit], tuple[float, str, Unit]]]:
        """The from→to pairs of the sentence printed without a unit (`from 7,368.67 to 2,237.75`, right after one
        another: `batch=1 to batch=4` are no operands) or in percent (`从 14.49% 降至 2026 年的 13.78%`)."""
        live = [o for o in sent.quantities if not (o.exempt or o.count or o.is_range)]
        return [((a.value or 0.0, num_text(a.value), parse_unit(a.unit)),
                 (b.value or 0.0, num_text(b.value), parse_unit(b.unit)))
                for a, b in pairwise(live) if a.unit == b.unit and a.unit in ("", "%")
                and (CHANGE_RE.fullmatch(self._text, a.end, b.start) if not a.unit
                     else _PAIR_GAP.fullmatch(between(self._text, sent.quantities, a, b)))]  # fmt: skip

    def _from_column(self, q: Quantity, target: float, tol: float, unit: Unit, sent: Sentence, scope: list[str],
                     direction: str | None, gap: bool, clause: frozenset[str]) -> Verdict | None:  # fmt: skip
        """`In the Conversation workload, the input is about 35 times the output`: two cells of the column the
        clause names, each named by the sentence too (its row's own words), in the operation the words say."""
        ctx = sent.tokens
        own = stated_measures(sent, q) if not q.is_range else {}  # (a range's ends span rows)
        compared = self._compared(q, *self._clause_bounds(q, sent))
        for rid in scope:
            rp = self.prep.by_rid.get(rid)
            for col in rp.columns if rp else ():
                head = col[0].col_tokens
                if not head or not (ctx & head):
                    continue
                ops = [(abs(x.f.value), x.raw_num or num_text(x.f.value), x.unit) for x in col]
                hit = formula(ops, target, tol, unit, q, direction, gap, bare=True)
                if not hit:
                    continue
                a, b = col[hit[1]], col[hit[2]]
                if not_stated(own, a, b):
                    continue  # the sentence states operands of its own: two cells of a column agreeing by chance
                keyed = any(s in b.ids and not (k & b.ids[s]) for s, k in a.ids.items())  # p50 vs p90 rows
                if compared and _cells_swapped(compared, a, b, a.tokens - b.tokens, b.tokens - a.tokens):
                    continue  # (`the update latency is 6376 ms higher than the read latency`: the read's is higher)
                if not keyed and (a.tokens - b.tokens) & ctx and (b.tokens - a.tokens) & ctx:
                    return Verdict("derived", source_of(a), derivation=hit[0], strength="derivation from one column",
                                   message=f"derived from {a.f.report} p.{a.f.page} ({labels_of(a.f, 3)} and "
                                           f"{labels_of(b.f, 3)})")  # fmt: skip
        return None

    def _pairs(self, text: str, qs: list[Quantity], verdicts: list[Verdict], sent: Sentence | None = None) -> None:
        """`从 A 降至 B`: A and B must be two figures of one row, or of one column, of the same table (a column
        whose rows differ only in what the sentence names: `OTSL cut … from 5.39 s to 2.73 s … than HTML`)."""
        live = [(q, v) for q, v in zip(qs, verdicts, strict=True) if not q.exempt]
        for (a, va), (b, vb) in pairwise(live):
            if a.is_range or b.is_range or va.status != "verified" or vb.status != "verified":
                continue
            if not va.cands or not vb.cands or not CHANGE_RE.fullmatch(text, a.end, b.start):
                continue
            same_table = [(x, y) for x in va.cands for y in vb.cands if x.table and x.table == y.table]
            if not same_table or len(same_table) < len([(x, y) for x in va.cands for y in vb.cands]):
                continue  # the pair spans tables or prose: nothing to compare
            if any(x is not y and (x.row == y.row or (x.col is not None and x.col == y.col)
                   or (sent is not None and _one_apart(x, y, sent.tokens))) for x, y in same_table):  # fmt: skip
                continue
            if sent is not None and any(x is not y and _named_apart(x, y, sent.tokens) for x, y in same_table):
                continue
            if any(x is not y and _one_cell_twice(x, y) for x, y in same_table):
                continue  # one measure in two runs: `user posts` Average of the 200-thread and the 2-minute tables
            x, y = same_table[0]
            mate = next((m for m in self.prep.table(x.table or "") if m.row == x.row and m is not x
                         and m.unit.dim == y.unit.dim), None)  # fmt: skip
            target = mate or y
            msg = (f"{a.text.strip()} and {b.text.strip()} are not one before/after pair of {x.f.report} "
                   f"({labels_of(x.f, 3)} vs {labels_of(y.f, 3)})") + (f"; {say(mate)}" if mate else "")  # fmt: skip
            verdicts[verdicts.index(vb)] = Verdict("mismatch", source_of(target), message=msg, fig=target)

    def _directions(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`从 0.8 元 降至 0.39 元`, `cut detection from 540 ms to 185 ms`: a from→to pair moves the way its words
        say (two values swapped rise where the sentence says they fall)."""
        live = [(k, q) for k, q in enumerate(qs) if not q.exempt and not q.is_range and q.value is not None]
        text = self._text
        for n, ((_, a), (k, b)) in enumerate(pairwise(live)):
            if verdicts[k].status not in ("verified", "derived") or a.unit != b.unit:
                continue
            m = _PAIR_GAP.fullmatch(between(text, qs, a, b))
            if not m:
                continue
            word = m.group()
            said = "down" if _SAID_DOWN.search(word) else "up" if _SAID_UP.search(word) else None
            if not said:  # `from A to B`: the verb of the clause before it (cut, lifted, fell, 缩短 …)
                cs = max((c.end() for c in CLAUSE.finditer(text, sent.start, a.start)), default=sent.start)
                said = wording(text[cs : a.start])[0]
                if not said and cs > sent.start:  # `cuts the RTF by 48%, from 1.36 to 0.71`: the clause before's
                    bs = max((c.end() for c in CLAUSE.finditer(text, sent.start, cs - 1)), default=sent.start)
                    before = text[bs:cs]
                    down, up = bool(_VERB_DOWN.search(before)), bool(_VERB_UP.search(before))  # verb (not `gain`)
                    said = "down" if down and not up else "up" if up and not down else None
            if not said and n + 2 < len(live):
                said = _stated_change(text, sent, b, live[n + 2][1])  # `A → B，降低 41.2%`: the change stated next
            if not said and parse_unit(a.unit).dim == "time":
                # `loading from 691 s to 112 s (6.2x faster)`: a time that gets faster falls
                m2 = _SPEED_AFTER.match(text, b.end, min(sent.end, b.end + 40))
                said = None if m2 is None else "down" if m2.group(1) else "up"
                if not said and _GAIN_BEFORE.search(text, sent.start, a.start):
                    said = "down"  # `the gain is 1.74x, from 932.70 ms to 534.80 ms`: a time that gains speed falls
            if a.value == b.value:  # `2.84 ms → 2.84 ms，降低 41.2%`: the pair says no change, its words say one
                if said:
                    verdicts[k] = _overruled(
                        verdicts[k],
                        f"from {a.text.strip()} to {b.text.strip()} is no change, but the sentence says it "
                        f"{'fell' if said == 'down' else 'rose'} (a value repeated?)",
                    )
                continue
            rose = (b.value or 0.0) > (a.value or 0.0)
            if said and (said == "up") != rose:
                verdicts[k] = _overruled(
                    verdicts[k],
                    f"from {a.text.strip()} to {b.text.strip()} is a {'rise' if rose else 'fall'}, "
                    f"but the sentence says it {'fell' if said == 'down' else 'rose'} (two values swapped?)",
                )

    def _span_orders(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`the word error rate ranges from 1.36% to 20%`, `介于 A 和 B 之间`, `从 A 到 B 不等`: a span its words state
        runs from the lowest to the highest (its two values swapped run the other way)."""
        live = [(k, q) for k, q in enumerate(qs) if not q.exempt and not q.is_range and q.value is not None]
        text = self._text
        for (_, a), (k, b) in pairwise(live):
            if verdicts[k].status not in ("verified", "derived") or a.unit != b.unit:
                continue
            if (a.value or 0) <= (b.value or 0):
                continue
            gap = text[a.end : b.start]
            ranged = _SPAN_TO.fullmatch(gap) and _SPAN_FROM.search(text, max(sent.start, a.start - 24), a.start)
            ranged = ranged or (_SPAN_AND.fullmatch(gap) and _SPAN_BETWEEN.search(text, max(sent.start, a.start - 12),
                                                                                  a.start))  # fmt: skip
            ranged = ranged or (_BARE_TO_CJK.fullmatch(gap) and _SPAN_END_CJK.match(text, b.end, sent.end))
            if ranged:
                verdicts[k] = _overruled(
                    verdicts[k],
                    f"a span runs from its lowest to its highest value, but {a.text.strip()} is above "
                    f"{b.text.strip()} (two values swapped?)",
                )

    def _parts_of_wholes(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`the FC layers take 2.8777 s of the first loop's 3.2593 s`, `2.4794 s, of which 1.5011 s is Config`: a part
        its words put inside a whole of its unit is no larger than that whole (the two swapped are)."""
        live = [(k, q) for k, q in enumerate(qs) if not q.exempt and not q.is_range and q.value is not None]
        text = self._text
        for (i, a), (k, b) in pairwise(live):
            if a.unit != b.unit or not a.unit or verdicts[i].status not in ("verified", "derived"):
                continue
            if verdicts[k].status not in ("verified", "derived"):
                continue
            gap = text[a.end : b.start]
            part, whole = (a, b) if _OF_WHOLE.fullmatch(gap) else (b, a) if _OF_WHICH.fullmatch(gap) else (None, None)
            if part is None or whole is None or abs(part.value or 0) <= abs(whole.value or 0):
                continue
            j = i if part is a else k
            verdicts[j] = Verdict(
                "mismatch", verdicts[j].source, fig=verdicts[j].fig,
                message=f"{part.text.strip()} is said to be part of {whole.text.strip()}, but is larger (two values "
                        f"swapped?)",
            )  # fmt: skip

    def _changes(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`从 10.17 s 降至 7.53 s(降低 26%)`: a percentage or ratio after a from→to pair in its clause is that change."""
        live = [(k, q) for k, q in enumerate(qs) if not q.exempt]  # (a number's place in qs: no two are equal)
        text = self._text
        for i, (k, q) in enumerate(live):
            if i < 2 or q.is_range:
                continue
            unit = parse_unit(q.unit)
            v = verdicts[k]
            ok = v.status in ("verified", "derived")
            if unit.dim not in ("%", "x"):
                continue
            a, b = live[i - 2][1], live[i - 1][1]
            ua, ub = parse_unit(a.unit), parse_unit(b.unit)
            if a.is_range or b.is_range or ua.dim != ub.dim or ua.dim in ("%", "x"):
                continue
            if not ua.dim and (a.unit or b.unit or a.count or b.count
                               or any(verdicts[live[i - d][0]].fig is None for d in (1, 2))):  # fmt: skip
                continue  # two bare numbers are a pair of measures where figures back both (`IOPS:182,400 → 265,300`)
            # (a failed number after the pair, even past a comma, is told what the pair's change is; a verified one
            # past a comma only where its clause names nothing but the change: `…增至 3,684 百万元,同比增长 135.1%`)
            if not (CHANGE_RE.fullmatch(text, a.end, b.start) or _PAIR_GAP.fullmatch(between(text, qs, a, b))):
                continue
            if two_ends(text, a, b, sent.start):
                continue  # (`Login rises to 0.787 s and the total to 4.137 s`: two subjects, no from→to pair)
            bare = ok and CLAUSE.search(text, a.end, q.start)
            if bare and not _BARE_CHANGE.fullmatch(text, b.end, q.start):
                continue
            ops = [(abs(a.value or 0), num_text(a.value), ua), (abs(b.value or 0), num_text(b.value), ub)]
            direction = wording(text[b.end : q.end])[0] if not ok else None
            tol = q.step / 2 * (1 + 1e-9) + 1e-12
            slack = tol + (_rounding(a, b, unit) if bare else 0.0)
            if formula(ops, abs(q.value or 0), slack, unit, q, direction, bare=not ua.dim):
                continue
            x, y = ops[0][0] * ua.factor, ops[1][0] * ub.factor
            if not x or not y:
                continue
            said = f"{fmt(abs(x - y) / x * 100)}%" if unit.dim == "%" else f"{fmt(max(x, y) / min(x, y))}×"
            verdicts[k] = _overruled(
                v,
                f"from {a.text.strip()} to {b.text.strip()} is {said}, not {q.text.strip()}"
                + (f" ({v.message})" if v.message else ""),
            )


# A clause that names the other side of its comparison (a ratio of its own, not of the sentence's two measures).
_OTHER_SIDE = re.compile(
    r"\bthan\b|\bover\b|\bvs\.?|\bversus\b|\bcompared\b|\brelative to\b|比|较|相比|相对|对比", re.I
)
# `2.55 times the 54.1 GB/s`: a ratio stating the measure it multiplies right after it.
_TIMES_THE = re.compile(r"[ \u00a0]+(?:the|that of)[ \u00a0]+(?=\d)", re.I)
# `2.2 times as fast`: a ratio that compares two things of one measure (the sentence's), naming none of its own.
_AS_MUCH = re.compile(r"[ \u00a0]+as[ \u00a0]+(?:fast|quick|high|large|much|many|big|long)\b", re.I)
# What may stand between a from→to pair and the change it states when nothing else is named there.
_BARE_CHANGE = re.compile(
    r"[ \u00a0]*[,\uff0c][ \u00a0]*(?:同比|环比|仅|约|即|共)?[ \u00a0]*(?:增长|下降|提升|提高|降低|减少|增加|上升|下滑|"
    r"增幅|降幅|up|down|(?:a|an)[ \u00a0]+(?:rise|drop|fall|gain|increase|decrease|cut|reduction)[ \u00a0]+of|"
    r"(?:rising|falling|dropping|growing)(?:[ \u00a0]+by)?)?[ \u00a0]*(?:了|约|达|为)?[ \u00a0]*",
    re.I,
)


def _overruled(v: Verdict, message: str) -> Verdict:
    """`v`'s figure still stands, but what the sentence says of it does not hold: a mismatch keeping its source."""
    return Verdict("mismatch", v.source, fig=v.fig, message=message)


# A clause that is only a name before its number (`AlexNet's by 43%`, `, 延迟 30%`): the verb is elided.
_ELIDED = re.compile(
    r"(?:[\s,;\uff0c\uff1b、]|\band\b|以及|和|及)*[A-Za-z\u3400-\u9fff][\w.\-]*(?:['\u2019]s)?"
    r"(?:[ \u00a0]+by)?[ \u00a0]*"
)
_SHARE = re.compile(r"率|占|比例|比重|份额|\bshare\b|\bproportion\b|utili[sz]ation|\bfraction\b", re.I)


_PERCENT = parse_unit("%")


def _in_column(col: list[Fig], o: Quantity) -> bool:
    """Whether a cell of `col` (no choice of a list) prints `o`: its value within `o`'s printed precision, in `o`'s
    unit where it has one."""
    u = parse_unit(o.unit) if o.unit else None
    return any(abs(x.f.value - (o.value or 0.0)) <= o.step / 2 + 1e-9 and (u is None or x.unit.name == u.name)
               and not x.listed for x in col)  # fmt: skip


def _share(q: Quantity, target: float, tol: float, sent: Sentence) -> Verdict | None:
    """A percentage whose clause names a share and no change (`使用率`, `占比`, `share`): the part over the whole, two
    measures of one dimension that the sentence states before it (never a change of them, nor one stated after)."""
    ops = [(abs(v) * u.factor, num_text(v), u.dim) for o in sent.quantities if o is not q and o.end <= q.start
           and o.unit and not (o.exempt or o.count) and unit_of_ops(u := parse_unit(o.unit), _PERCENT)
           for v, _ in o.endpoints()]  # fmt: skip
    shown = q.text[max(0, q.num_start - q.start) :].strip()
    for part, tp, dp in ops:
        for whole, tw, dw in ops:
            if dp == dw and 0 < part < whole and abs(part / whole * 100 - target) <= tol:
                return Verdict("derived", derivation=f"{tp}/{tw} = {fmt(part / whole * 100)}% ≈ {shown}",
                               message="derived from numbers of the sentence (a share)",
                               strength="stated derivation")  # fmt: skip
    return None


# The comparatives (`claims.COMPARATIVE`) of a rise, the rest of a fall (faster and slower as the measure reads them);
# the side the words set a subject against: its words, the way, where they stand (`Derivations._compared`).
_MORE = frozenset({"more", "higher", "above", "longer", "larger"})
_Compared = tuple[frozenset[str], str, int, int]
_SPEED_WORD = re.compile(r"[ \u00a0]+(?:faster|quicker|slower)\b", re.I)


def _stands_against(way: str, dim: str, subject: float, base: float) -> bool:
    """Whether a subject of value `subject` stands to a base of `base` the other way than the words say (`way`:
    up, down, faster or slower, as a measure of dimension `dim` reads it)."""
    said = _way(way, dim)
    return said is not None and subject != base and (subject > base) != (said == "up")


def _cells_swapped(compared: _Compared, x: Fig, y: Fig, tx: frozenset[str], ty: frozenset[str]) -> bool:
    """Whether the words name figure `x` or `y` as the base, by the words that set each apart (`tx`, `ty`: `than
    Cassandra's`, `比 32K`), and the other stands to it the other way than they say."""
    words = compared[0]
    if bool(tx & words) == bool(ty & words):
        return False
    base, subject = (x, y) if tx & words else (y, x)
    return _stands_against(compared[1], _dim_of(subject), _base(subject), _base(base))


def _way(direction: str | None, dim: str) -> str | None:
    """The way a change goes: `up`, `down` or None as the words state it, `faster` (or `slower`) as operands of
    dimension `dim` read it: a faster rate rises, a faster time falls (`ms/frame` is a time too)."""
    if direction not in ("faster", "slower"):
        return direction
    return "up" if (direction == "faster") != dim.startswith("time") else "down"


def _nearest_first(ops: list[tuple[float, str, Unit]], owners: list[Quantity], q: Quantity, cs: int, ce: int
                   ) -> tuple[list[tuple[float, str, Unit]], list[Quantity]]:  # fmt: skip
    """The sentence's operands, those of the number's own clause first, then by distance: where two pairs give the
    same value (`193 ms to 75.8 ms, a 2.5× speed-up, and reach 13.2 FPS, 2.5-fold the 5.2 FPS`), the derivation
    shown is of the operands the number speaks of, not a coincidence of the other pair."""

    def far(k: int) -> tuple[bool, int]:
        o = owners[k]
        return not (cs <= o.start < ce), min(abs(o.start - q.end), abs(q.start - o.end))

    order = sorted(range(len(ops)), key=far)
    return [ops[k] for k in order], [owners[k] for k in order]


# `about 31% of the 16.7 FPS`: the whole follows the percentage; `约为 16.7 FPS 的 31%`: it stands before it.
_OF_AFTER = re.compile(r"[ \u00a0]+of\b", re.I)
_OF_BEFORE = re.compile(r"(?:为|是|相当于|达到?|只有|仅有?)[^，,。;；:：]*?的[ \u00a0]*$")


def _share_of(q: Quantity, target: float, tol: float, sent: Sentence, text: str, cs: int) -> Verdict | None:
    """A percentage `of` a number (`about 31% of the 16.7 FPS`, `约为…的 19%`): that number is the whole and the
    part is the measure of its dimension the sentence states before them, never a change of the two."""
    qs = [o for o in sent.quantities if o is not q and o.unit and o.value and not (o.exempt or o.count or o.is_range)
          and unit_of_ops(parse_unit(o.unit), _PERCENT)]  # fmt: skip
    if _OF_AFTER.match(text, q.end):
        wholes = [o for o in qs if o.start >= q.end][:1]
        before = q.start
    elif m := _OF_BEFORE.search(text, cs, q.start):
        wholes = [o for o in qs if m.start() <= o.start and o.end <= q.start][-1:]
        before = m.start()
    else:
        return None
    if not wholes:
        return None
    w = wholes[0]
    uw = parse_unit(w.unit)
    parts = [o for o in qs if o.end <= before and parse_unit(o.unit).dim == uw.dim][-1:]
    if not parts:
        return None
    p = parts[0]
    part, whole = abs(p.value or 0.0) * parse_unit(p.unit).factor, abs(w.value or 0.0) * uw.factor
    if not 0 < part < whole or abs(part / whole * 100 - target) > tol:
        return None
    shown = q.text[max(0, q.num_start - q.start) :].strip()
    return Verdict("derived", derivation=f"{num_text(p.value)}/{num_text(w.value)} = {fmt(part / whole * 100)}% ≈ "
                   f"{shown}", message="derived from numbers of the sentence (a share)",
                   strength="stated derivation")  # fmt: skip


def _rounding(a: Quantity, b: Quantity, unit: Unit) -> float:
    """How far the change of a pair may move within its operands' printed precision (a report's change is of the
    unrounded figures)."""
    fa, fb = parse_unit(a.unit).factor, parse_unit(b.unit).factor
    x, y = abs(a.value or 0.0) * fa, abs(b.value or 0.0) * fb
    if not x or not y:
        return 0.0
    ratio = (lambda p, q: abs(p - q) / p * 100) if unit.dim == "%" else (lambda p, q: max(p, q) / min(p, q))
    mid = ratio(x, y)
    da, db = a.step / 2 * fa, b.step / 2 * fb
    corners = [ratio(x + i * da, y + j * db) for i in (-1, 1) for j in (-1, 1) if x + i * da > 0 and y + j * db > 0]
    return max((abs(c - mid) for c in corners), default=0.0)


_VERB_DOWN = re.compile(
    r"\bcut|\breduc|\bsav(?:e|es|ed|ing)\b|\bdecreas|\bfell\b|\bfalls?\b|\bdrop|\blowered\b|降|减|缩短", re.I
)
_VERB_UP = re.compile(r"\brais|\bincreas|\brose\b|\brises?\b|\bgr[eo]w|\blift|\bboost|提升|提高|增|升", re.I)
_BARE_CMP = re.compile(r"([高多大快低少小慢])\s*(?:了|出|约|近|达)?\s*$")
_SAID_DOWN = re.compile(r"降|减|缩短")
# What a pair of times says right after it, in its parenthesis or clause: faster (a fall) or slower (a rise).
_SPEED_AFTER = re.compile(
    r"[ \u00a0]*[(\uff08,\uff0c][^(),;\uff08\uff09\uff0c\uff1b。]*?(?:(faster|quicker|speed-?up|加速|提速|快)|slower|减速|慢)",
    re.I,
)
_SAID_UP = re.compile(r"提升|提高|增|升")
_FASTER = re.compile(r"[快慢高低多少大小]了?\s*(?:约|大约|近)?\s*$|(?:faster|slower|higher|lower|more|less)\s*$", re.I)


def _stated_change(text: str, sent: Sentence, b: Quantity, nxt: Quantity) -> str | None:
    """The direction of the change a from→to pair ending at `b` states right after it: the next number is a
    percentage or ratio in `b`'s clause or the one after (`→ 410 μs，降低 51.8%`), and the words before it say
    which way (None otherwise)."""
    if parse_unit(nxt.unit).dim not in ("%", "x"):
        return None
    cuts = [c.end() for c in CLAUSE.finditer(text, b.end, nxt.start)]
    if len(cuts) > 1 or nxt.start > sent.end:
        return None  # (a change two clauses on speaks of something else)
    return wording(text[b.end : nxt.start])[0]


def faster_words(text: str, q: Quantity) -> bool:
    """`快 3 倍`, `3 times faster`: a ratio that may be read as N times or N times more."""
    before = text[max(0, q.start - 6) : q.start]
    after = text[q.end : q.end + 10]
    return bool(_FASTER.search(before)) or bool(re.match(r"\s*(?:faster|slower|higher|lower|more|less)\b", after, re.I))


def approx_tolerance(q: Quantity, target: float, step: float, tol: float) -> float:
    """How far a derived number may be from its computed value: half its last printed digit, or, where the words
    say it is rounded (`约 20%`, `about 50 times`) and it is printed as a round integer, 5 % of it. A number printed
    with decimals (`约 6.4%`, `about 7.4 times`) or a non-round integer keeps its printed precision: `about 7.3 times`
    is no 7.44, `约 43%` no 42.5 %."""
    if q.approx and step >= 1 and target % 10 == 0:
        return max(tol, target * 0.05)
    return tol


def formula(
    ops: list[tuple[float, str, Unit]], target: float, tol: float, unit: Unit, q: Quantity,
    direction: str | None = None, gap: bool = False, bare: bool = False, faster: bool = False, rel: bool = False,
) -> tuple[str, int, int] | None:  # fmt: skip
    """Percent change, ratio or (where the words state one) difference of two operands equal to `target` (within
    `tol`): the derivation as shown and the operands' places. A fall is (a−b)/a, a rise (b−a)/a of the smaller;
    percentage points are the difference of two percentages."""
    shown = q.text[max(0, q.num_start - q.start) :].strip()
    for i, (a, ta, ua) in enumerate(ops):
        for j, (b, tb, ub) in enumerate(ops):
            if i == j or not (ua.dim or bare) or ua.dim != ub.dim:
                continue  # (`bare`: two cells of one column, counts printed without a unit, may be operands)
            a_, b_ = a * ua.factor, b * ub.factor
            if a_ == b_:
                continue
            if unit.dim == "pp":  # percentage points: the difference of two percentages, never a percent change
                if ua.dim == "%" and i < j and abs(abs(a_ - b_) - target) <= tol:
                    hi, lo = (ta, tb) if a_ > b_ else (tb, ta)
                    return f"{hi}% − {lo}% = {fmt(abs(a_ - b_))} pp ≈ {shown}", i, j
                continue
            if ua.dim == "x" or (ua.dim == "%" and not (rel and unit.dim in ("%", "x"))):
                continue  # (`rel`: a stated pair of percentages changes by a percent too)
            if unit.dim in ("%", "x") and (a <= 0 or b <= 0):
                continue  # a change or a ratio is of two positive amounts
            if unit.dim == "%":
                way = _way(direction, ua.dim)
                if (way == "down" and a_ < b_) or (way == "up" and a_ > b_):
                    continue  # a fall is relative to the larger figure, a rise to the smaller
                pct = abs(a_ - b_) / a_ * 100
                if abs(pct - target) <= tol:
                    text = f"({ta}−{tb})/{ta}" if a_ > b_ else f"({tb}−{ta})/{ta}"
                    return f"{text} = {fmt(pct)}% ≈ {shown}", i, j
            elif unit.dim == "x":
                r = a_ / b_
                if r >= 1 and abs(r - target) <= tol:
                    note = f" (ambiguous: “{shown}” may also mean {fmt(r - 1)} times more)" if faster else ""
                    return f"{ta}/{tb} = {fmt(r)} ≈ {shown}{note}", i, j
                if faster and r >= 1 and abs(r - 1 - target) <= tol:  # 快 3 倍 read as 3 times more: ratio 4
                    return f"{ta}/{tb} − 1 = {fmt(r - 1)} ≈ {shown} (ambiguous: read as {fmt(r - 1)} more)", i, j
            elif gap and unit.dim == ua.dim and i < j:  # (signed: -253 °C to 4827 °C spans 5080 °C)
                d = abs(a_ - b_) / unit.factor
                if abs(d - target) <= tol:
                    hi, lo = (ta, tb) if a_ > b_ else (tb, ta)
                    return f"{hi}−{lo if not lo.startswith('-') else f'({lo})'} = {fmt(d)} ≈ {shown}", i, j
    return None


# The words before the rest a sentence says is left once a part it states is taken away.
_LEAVING = re.compile(
    r"\b(?:leaving|leaves|left(?:[ \u00a0]+with)?|remaining|remain(?:s|ed)?)(?:[ \u00a0]+only|[ \u00a0]+just)?"
    r"[ \u00a0]*$|(?:剩下|剩余|余下|还剩|剩)[ \u00a0]*(?:了)?[ \u00a0]*$",
    re.I,
)
# Two operands in a parenthesis right after a ratio: `1.35 倍(115 对 85)`, `1.4x (115 vs 85)`.
_OPERANDS_AFTER = re.compile(
    r"[ \u00a0]*[(\uff08][ \u00a0]*[\d][\d,.]*[ \u00a0]*(?:对|比|vs\.?|versus|against)[ \u00a0]*[\d][\d,.]*[ \u00a0]*[)\uff09]"
)


# Between the two numbers of a from→to pair, dates and names blanked: a change word in one clause
# (`14.49% 降至 2026 年的 13.78%`, `0.8 元/kwh 降至 2022 年 Q1 的 0.39 元/kwh`).
_PAIR_GAP = re.compile(rf"[^,\uff0c;\uff1b。\d]*?(?:{CHANGE_RE.pattern})[^,\uff0c;\uff1b。\d]*?")


# The words that make a from→to pair a span, not a change: `ranges from`, `varies between`, `介于…之间`, `…不等`.
_SPAN_FROM = re.compile(r"\b(?:rang(?:e|es|ed|ing)|var(?:y|ies|ied|ying)|spann?(?:s|ed|ing)?)[ \u00a0]+from[ \u00a0]*$",
                        re.I)  # fmt: skip
_SPAN_TO = re.compile(r"[ \u00a0]*to[ \u00a0]*", re.I)
_SPAN_BETWEEN = re.compile(r"(?:\bbetween|介于)[ \u00a0]*$", re.I)
_SPAN_AND = re.compile(r"[ \u00a0]*(?:and|和|与|至|到|-)[ \u00a0]*", re.I)
_BARE_TO_CJK = re.compile(r"[ \u00a0]*(?:至|到|~|～)[ \u00a0]*")
_SPAN_END_CJK = re.compile(r"[ \u00a0]*(?:不等|之间)")


# A gain stated as a multiple before a pair of times (`On AlexNet the gain is 1.74x, from …`): the times fall.
_GAIN_BEFORE = re.compile(r"\b(?:gain|speed-?up)\b[^,;:.\d]{0,12}\d+(?:\.\d+)?[ \u00a0]*(?:x|×|times)\b[^\d]{0,12}$",
                          re.I)  # fmt: skip
# A part inside a whole of its unit: `2.8777 s of the first loop's 3.2593 s`; `2.4794 s, of which 1.5011 s`, `其中`.
_OF_WHOLE = re.compile(r"[ \u00a0]+of[ \u00a0]+(?:the[ \u00a0]+)?[A-Za-z][^,;:()\d]{0,40}?['\u2019]s[ \u00a0]+", re.I)
_OF_WHICH = re.compile(r"[ \u00a0]*[,\uff0c][ \u00a0]*(?:of which|其中)[ \u00a0]*", re.I)


def between(text: str, qs: list[Quantity], a: Quantity, b: Quantity) -> str:
    """The text between `a` and `b` with the exempt tokens (dates, identifiers) there blanked."""
    gap = list(text[a.end : b.start])
    for o in qs:
        if o.exempt and a.end <= o.start and o.end <= b.start:
            gap[o.start - a.end : o.end - a.end] = " " * (o.end - o.start)
    return "".join(gap)


_T = TypeVar("_T")


def _memo(cache: dict[int, tuple[list[Fig], Any]], figs: list[Fig], make: Callable[[], _T], limit: int = 20_000) -> _T:
    """`make()` for a table's (or a row's) figures, remembered by the list's identity while it lives (the prepared
    report holds it; the cache is emptied past `limit` entries, those of earlier indexes)."""
    hit = cache.get(id(figs))
    if hit is None or hit[0] is not figs:
        if len(cache) > limit:
            cache.clear()
        hit = cache[id(figs)] = (figs, make())
    return cast(_T, hit[1])


def _common(figs: list[Fig]) -> set[str]:
    """The labels every one of the figures has."""
    return set(figs[0].f.labels).intersection(*(x.f.labels for x in figs[1:]))


# By a table's figures: the labels that set rows or series apart and its measures (_pair_in_table); the words of
# the labels all of them share (_table_words); the words of all their labels (_key_cell). By a row: its own key
# words (_row_own).
_TABLE_INFO: dict[int, tuple[list[Fig], Any]] = {}
_TABLE_WORDS: dict[int, tuple[list[Fig], Any]] = {}
_TABLE_LABELS: dict[int, tuple[list[Fig], Any]] = {}
_ROW_OWN: dict[int, tuple[list[Fig], Any]] = {}
_Words = tuple[frozenset[str], set[str]]  # context tokens and the numbers (as printed) of a sentence or clause


def _names(label: str, words: _Words, minus: frozenset[str] = frozenset()) -> bool:
    """Whether `words` name a figure's label: a number label (`5`, a payload) by that number, else by its words
    (less `minus`, the words another label shares)."""
    bare = label.strip()
    if bare.replace(".", "", 1).isdigit():
        return bare in words[1]
    return bool((context_tokens(label) - minus) & words[0])


def _pair_in_table(figs: list[Fig], q: Quantity, target: float, tol: float, unit: Unit, direction: str | None,
                   gap: bool, sentence: _Words, clause: _Words,
                   base: _Compared | None = None) -> tuple[str, Fig, Fig] | None:  # fmt: skip
    """The derivation `_from_pair` looks for within one table's figures, and its two operands; `base`: the side
    the words set the other against (`比 32K 高`, `higher than 32K`; `Derivations._compared`)."""

    def info() -> tuple[frozenset[str], list[tuple[Fig, frozenset[str]]]]:
        keyed = frozenset({lab for x in figs for lab in x.f.labels} - _common(figs))  # labels that set rows apart
        # (a unitless cell may be a key: `batch 4`)
        return keyed, [(x, frozenset(x.f.labels)) for x in figs if x.unit.dim and x.unit.dim != "x"]

    keyed, measures = _memo(_TABLE_INFO, figs, info)
    in_sentence = {lab for lab in keyed if _names(lab, sentence)}
    if len(in_sentence) < 2:  # the two labels the operands differ in, both named
        return None
    in_clause = {lab for lab in in_sentence if _names(lab, clause)}
    # (percentages are operands of points and of a ratio, `A003's error rate is 14.7 times B002's`, never of a %)
    named = [
        (x, sx)
        for x, sx in measures
        if (x.unit.dim != "%" or unit.dim in ("pp", "x")) and not in_sentence.isdisjoint(sx)
    ]
    if len(named) < 2 or len(named) > 120:
        return None
    for i, (x, sx) in enumerate(named):
        for y, sy in named[i + 1 :]:
            if x.unit.dim != y.unit.dim:
                continue
            only_x, only_y = sx - sy, sy - sx
            if len(only_x) != 1 or len(only_y) != 1:
                continue
            (lx,), (ly,) = only_x, only_y
            tx, ty = context_tokens(lx), context_tokens(ly)
            if not (_names(lx, sentence, ty) and _names(ly, sentence, tx)):
                continue
            shared = (sx & sy) & keyed
            if not all(lab in in_clause or (not in_clause - {lx, ly} and lab in in_sentence) for lab in shared):
                continue
            ops = [(abs(x.f.value), x.raw_num or num_text(x.f.value), x.unit),
                   (abs(y.f.value), y.raw_num or num_text(y.f.value), y.unit)]  # fmt: skip
            if base is not None and _cells_swapped(base, x, y, tx, ty):
                continue  # the words put the other side above the base (or below it): these two are swapped
            hit = formula(ops, target, tol, unit, q, direction, gap, bare=True, rel=unit.dim == "x")
            if hit:
                return hit[0], x, y
    return None


def stated_measures(sent: Sentence, q: Quantity) -> dict[str, list[float]]:
    """The measures the sentence states besides `q` (in base units, by dimension; never counts, percentages or
    ratios): the operands it gives a derived number itself."""
    out: dict[str, list[float]] = {}
    for o in sent.quantities:
        u = parse_unit(o.unit) if o.unit and not (o.exempt or o.count) and o is not q else NONE
        if u.dim and not u.dim.startswith("count:") and u.dim not in ("%", "x", "pp"):
            out.setdefault(u.dim, []).extend(abs(v) * u.factor for v, _ in o.endpoints())
            out.setdefault("", []).extend(abs(v) for v, _ in o.endpoints())  # as printed, for bare cells
    return out


def _states_one(stated: dict[str, list[float]], x: Fig, y: Fig) -> bool:
    """Whether the sentence states report figure `x` or `y` itself (a measure of `stated_measures`)."""
    dim = x.unit.dim or (lu.dim if (lu := x.label_unit) is not None else "")
    return any(abs(_base(z) - v) <= 1e-9 * max(abs(v), 1.0) for z in (x, y) for v in stated.get(dim, []))


def not_stated(stated: dict[str, list[float]], x: Fig, y: Fig, least: int = 2) -> bool:
    """Whether the sentence states at least `least` measures of the operands' dimension (for two, a pair of its own:
    `from 540 ms to 185 ms`) and neither report figure `x` nor `y` is one of them: a derivation from those two
    figures agrees with the number by chance, not by what the sentence says."""
    dim = x.unit.dim or (lu.dim if (lu := x.label_unit) is not None else "")  # (a bare cell: its column's unit)
    vals = stated.get(dim, [])  # (a cell of no unit at all: the measures as the sentence prints them)
    if len(vals) < least:
        return False
    return not any(abs(_base(z) - v) <= 1e-9 * max(abs(v), 1.0) for z in (x, y) for v in vals)


def _dim_of(x: Fig) -> str:
    """A figure's dimension, a bare cell's that of its column's unit."""
    return x.unit.dim or (lu.dim if (lu := x.label_unit) is not None else "")


def _base(x: Fig) -> float:
    """A figure's value in its dimension's base unit, a bare cell's in the unit of its column."""
    lu = x.label_unit
    if x.unit.dim:
        return x.base
    return abs(x.f.value) * (lu.factor if lu is not None else 1.0)


def unit_of_ops(u: Unit, target: Unit) -> str | None:
    """`u`'s dimension where a number of it may be an operand of a `target` derivation (a measure, never a count,
    a percentage or a ratio; the target's own dimension for a difference), else None."""
    if not u.dim or u.dim.startswith("count:") or u.dim in ("%", "x", "pp"):
        return None
    return u.dim if target.dim in ("%", "x", "pp") or target.dim == u.dim else None


# A row of at most this many measures (before, after, their ratio) may be a change's operands without the sentence
# naming their columns (`GoogleNet's time per inference falls by 64%` of `GoogleNet 1387.70 494.00 2.81`).
_FEW_CELLS = 3


def _named_apart_in_row(a: Fig, b: Fig, words: frozenset[str]) -> bool:
    """Two cells of one row whose own column labels (`OpenBLAS (s)`, `MIXED (s)`) the sentence names each."""
    la, lb = set(a.f.labels) - set(b.f.labels), set(b.f.labels) - set(a.f.labels)
    ta = frozenset().union(*(context_tokens(x) for x in la))
    tb = frozenset().union(*(context_tokens(x) for x in lb))
    return bool((ta - tb) & words) and bool((tb - ta) & words)


def _other_columns_named(row: list[Fig], a: Fig, b: Fig, words: frozenset[str]) -> bool:
    """Whether `words` name what the row's other columns of the operands' dimension measure (`maximum` of `HBase max
    (ms)`) and not what both operands' columns do (`min`): the clause speaks of other cells than the two."""
    mine = a.col_tokens | b.col_tokens
    theirs = frozenset().union(*(y.col_tokens for y in row if y is not a and y is not b and _dim_of(y) == _dim_of(a)))
    return bool((theirs - mine) & words) and not ((a.col_tokens & b.col_tokens) - theirs) & words


def _one_apart(x: Fig, y: Fig, words: frozenset[str]) -> bool:
    """Two bars of one group of a chart (`4B, brpc` and `4B, coro_rpc`; the extraction keys every bar apart): their
    labels differ in one label each, and the sentence names the key they share (`4B:4987564 → 20228649`)."""
    sx, sy = set(x.f.labels), set(y.f.labels)
    if len(sx - sy) != 1 or len(sy - sx) != 1:
        return False
    return any(shape in id_shapes(words) and keys & words
               for lab in sx & sy for shape, keys in id_shapes(context_tokens(lab)).items())  # fmt: skip


def _one_cell_twice(x: Fig, y: Fig) -> bool:
    """The same row label and column of two tables of a page (two runs of one test, printed one under the other):
    one cell's labels hold the other's, and the first (its row label) is the same."""
    sx, sy = set(x.f.labels), set(y.f.labels)
    return x.row != y.row and x.f.labels[:1] == y.f.labels[:1] and (sx <= sy or sy <= sx)


def _named_apart(x: Fig, y: Fig, words: frozenset[str]) -> bool:
    """Two cells of one column (a header they share) whose other labels, the rows' keys, the sentence names each."""
    if x.col is None or y.col is None or not (x.col & y.col):
        return False
    return all(context_tokens(lab) & words for lab in x.col ^ y.col)


# `800 Gbps, or 100 GB/s`, `1,600 Gb/s(即 200 GB/s)`: the same amount restated in bytes (or bits).
_RESTATED = re.compile(
    r"[ \u00a0]*(?:,|,)?[ \u00a0]*(?:\bor|\bi\.e\.|\bthat is|即|约合|相当于|\bequivalent to|=|≈|[((])[ \u00a0]*$"
)
_BITS_BYTES = {("bits/s", "bytes/s"), ("bytes/s", "bits/s"), ("bits", "bytes"), ("bytes", "bits")}


def converted(sent: Sentence, q: Quantity, value: float, tol: float, unit: Unit, text: str) -> str | None:
    """The number right before `q` in the sentence, restated in bytes where it was in bits (or the reverse)."""
    prev = next((o for o in reversed(sent.quantities) if o.end <= q.start and not o.exempt), None)
    if prev is None or prev.value is None or not prev.unit or not _RESTATED.search(text, prev.end, q.start):
        return None
    pu = parse_unit(prev.unit)
    if (pu.dim, unit.dim) not in _BITS_BYTES:
        return None
    base = abs(prev.value) * pu.factor * (1 / 8 if pu.dim.startswith("bits") else 8)
    if abs(base / unit.factor - abs(value)) > tol:
        return None
    return f"{num_text(prev.value)} {pu.name} = {num_text(base / unit.factor)} {unit.name} (8 bits a byte)"


def _columns_conflict(x: Fig, y: Fig) -> bool:
    """Two cells of one row measuring different things of one kind (p50 vs p95, 4KB vs 64KB): never operands of
    one change."""
    cx, cy = id_shapes(x.col_tokens), id_shapes(y.col_tokens)
    return any(shape in cy and not (keys & cy[shape]) for shape, keys in cx.items())
