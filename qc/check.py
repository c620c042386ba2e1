"""QC verdicts: every number of a draft against the figures of the reports cited in its scope."""

from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from functools import lru_cache, partial
from itertools import combinations, pairwise

from evidence.models import Page
from qc.blocks import FULL_END, Block, body_blocks, cite_ids, line_starts
from qc.claims import (
    COMPARATIVE,
    OWN_CLAUSE,
    SYNONYMS,
    Sentence,
    comparative_units,
    crossed,
    kinds,
    own_terms,
    per_frame,
    plainly_crossed,
    possessor,
    printed_unit,
    respective,
    restatement,
    roles,
    sentence,
    sentences,
    set_against,
    set_against_each_other,
    shift,
)
from qc.context import context_tokens, id_shapes, num_text, unnumbered
from qc.derive import Derivations
from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.match import KEY_LABEL_MAX, Verdict, key_in_label
from qc.models import ALL_STATUSES, ERROR_STATUSES, OK_STATUSES, STRENGTHS, FileResult, NumberCheck, Source, TermCheck
from qc.numbers import Quantity, extract
from qc.prepare import (
    Fig,
    Prep,
    header_unit,
    labels_of,
    matches,
    own_labels,
    prepare,
    say,
    section_words,
    shown,
    source_of,
    stems,
)
from qc.scope import article_index, number_scope, require_known
from qc.units import NONE, Unit, parse_unit

# `与 v1.8 相比`, `相比 v1.8`, `compared with v1.8`: the name a sentence sets its change against
_COMPARED_WITH = re.compile(
    r"(?:与|和|同|较)[ \u00a0]*([A-Za-z][\w.+-]*)[ \u00a0]*(?:相比|相较|比较)|(?:相比于?|相较于?|\bcompared (?:with|to)\b)"
    r"[ \u00a0]*([A-Za-z][\w.+-]*)",
    re.I,
)
# the words right before the value a change ends at: `达到`, `降至`, `rose to`, `reaching`
_REACHES = re.compile(
    r"(?:达到|达|降至|降到|升至|升到|增至|增加到|提升至|提升到|提高至|提高到|减至|减少到|缩短至|缩短到|"
    r"\breach(?:es|ed|ing)?|\b(?:rose|rises|fell|falls|dropped|drops|climbed|grew|increased|decreased|went up|went down) to)"
    r"[ \u00a0]*(?:约|about|roughly)?[ \u00a0]*$",
    re.I,
)

_PERCENT = parse_unit("%")
# `比纯算法核心高 49.4 MB`: the bare comparative after a `比` right before a number
_BI_CMP = re.compile(r"比[^,，。;；:：]{1,30}?[高多大快低少小慢长短](?:了|出|约|近)?[ \u00a0]*$")

__all__ = ["check_draft"]


class _Checker(Derivations):
    """One draft's check: its blocks, sentences and numbers in order, each with its verdict."""

    def __init__(self, draft: Draft, index: EvidenceIndex, severity: dict[str, str] | None) -> None:
        self.draft = draft
        self.index = index
        self.prep = prepare(index)
        self.severity = severity or {}
        self.evidence = list(draft.meta.evidence)
        self.numbers: list[NumberCheck] = []
        self.terms: list[TermCheck] = []
        self.ids: dict[str, int] = {}
        self._text = ""
        self._clauses = {}
        self._own_ctx = {}
        self._owners = {}
        self._upto_ctx = {}
        self._row_keys: dict[int, str] = {}
        self._keys_seen: dict[tuple[str, int, int], tuple[frozenset[str], bool]] = {}
        self._labelled: dict[tuple[str, str, str], bool] = {}
        self._columns_named: dict[tuple[str, tuple[str, ...]], bool] = {}
        self._mates: dict[tuple[str, str], list[Fig]] = {}
        self._id_rows: dict[tuple[str, str], dict[str, set[str]]] = {}
        self._lead = frozenset()
        self._lead_ids: dict[str, frozenset[str]] = {}
        self._claim_ctx: dict[int, frozenset[str]] = {}
        self._claim_nums: dict[int, frozenset[str]] = {}
        self._claim_near: dict[int, frozenset[str]] = {}
        self._fulls: list[tuple[int, frozenset[str], list[str]]] | None = None
        self._heading = False
        self._stub: frozenset[str] = frozenset()
        self._label_cells: set[int] = set()  # the row-label cells (sentences by id) of the article table being checked
        self._own_table: list[tuple[str, str, Quantity]] = []  # the article table above: (row label, header, cell)
        self._before = ""
        self._list_lead = ""  # the paragraph leading into the list being checked
        self._article_text = draft.text
        self._article_ids_made = None
        self._body_starts = line_starts(draft.body)
        self._file_starts = line_starts(draft.text)

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

    def check(self, bl: Block, q: Quantity, sent: Sentence, scope: list[str]) -> Verdict:
        if not (_finite(q.value) and _finite(q.low) and _finite(q.high)):
            return Verdict("unsupported", message=f"{q.text.strip()[:20]}… is too large to be any report's figure")
        unit = parse_unit(q.unit) if q.unit else NONE
        if q.is_range:
            parts = [self._one(bl, q, v, s, unit, sent, scope, endpoint=True) for v, s in q.endpoints()]
            bad = next((p for p in parts if p.status not in ("verified", "derived")), None)
            if bad:
                bad.message = f"{num_text(q.low if bad is parts[0] else q.high)}: {bad.message}"
                return bad
            if (one := _one_figure(parts)) is not None:
                return one
            if (split := _split_range(parts)) is not None:
                return split
            if (apart := _two_settings(parts, sent.tokens | self._claim_context(sent), self.prep)) is not None:
                return apart
            status = "derived" if any(p.status == "derived" for p in parts) else "verified"
            deriv = "; ".join(p.derivation for p in parts if p.derivation) or None
            strength = min((p.strength for p in parts), key=STRENGTHS.index)  # a range is as strong as its weaker end
            return Verdict(status, parts[0].source, deriv, " | ".join(p.message for p in parts), fig=parts[0].fig,
                           strength=strength)  # fmt: skip
        return self._one(bl, q, q.value or 0.0, q.step, unit, sent, scope)

    def _one(self, bl: Block, q: Quantity, value: float, step: float, unit: Unit, sent: Sentence,
             scope: list[str], endpoint: bool = False) -> Verdict:  # fmt: skip
        if not endpoint and (named := self._model_name(bl, q, scope)):
            return Verdict("exempt", message=f"identifier: {named[1].report} p.{named[1].page} names “{named[0]}”")
        counting = q.count or unit.dim.startswith("count:")
        if counting or (not unit.dim and not q.magnitude) or (unit.dim == "x" and bl.kind == "table"):
            # (an article table's `| input3 (1x) |`: the label of the row its other cells rest on)
            v = self._label(q, value, sent, scope)
            if v:
                return v
        if not endpoint and id(sent) in self._label_cells and (v := self._relabelled(q, value, unit, sent, scope)):
            return v
        v = self._direct(q, value, step, unit, sent, scope, endpoint)
        termish = counting or q.magnitude or not unit.dim
        if v and v.status != "verified" and termish and not endpoint and (term := self._verbatim(bl, q, scope)):
            return self._verbatim_verdict(term, value, unit)  # `年化产能超 2500 万公里` as printed beats a table's 25
        # `比纯算法核心高 49.4 MB`, `592 ms higher than`: the number is the difference the words state, of two figures
        # the sentence or one named row gives (`_derive`), not a figure of its own
        if (
            v
            and v.status == "mismatch"
            and unit.dim not in ("", "%", "x", "pp")
            and self._a_difference(q, sent)
            and (d := self._derive(q, value, step, unit, sent, scope)) is not None
            and d.status == "derived"
        ):
            return d
        if v:
            return v
        if unit.dim == "%" and (v := self._label(q, value, sent, scope)):  # a percentile row: `99% 的请求低于…`
            return v
        v = self._derive(q, value, step, unit, sent, scope)
        if v:
            return v
        if bl.kind != "table" and (v := self._over_own_table(q, unit, sent)):
            return v
        # A measure no figure of the cited reports holds in any context (nor as a bound): printed as written in a
        # place the extraction read no figure from (`16 核 / 120GB`). Never a percentage or a ratio: those stand
        # in too many places of a report to tell one from another by their text.
        held = bool(matches(self.prep, value, step, unit, scope))
        unread = unit.dim not in ("%", "x", "pp") and printed_unit(bl.text, q) and not held
        if not endpoint and (termish or unread):
            # (where a figure holds the measure, the matching above found it does not fit: the number and its unit
            # alone, `712 万公里`, are no rescue then, its words printed with it are; a bare `32K` names a setting)
            term = self._verbatim(bl, q, scope, held and bool(unit.dim))
            if term:
                return self._verbatim_verdict(term, value, unit)
        if not endpoint and (name := self._question_name(bl, q, scope)):
            lab, x = name
            return Verdict("exempt", message=f"identifier: {x.f.report} p.{x.f.page} names “{lab}”")
        others = [r for r in self.index.reports if r not in scope]
        out = [x for x in matches(self.prep, value, step, unit, others) if self._bound_ok(q, x)]
        if out:
            x = out[0]
            where = ", ".join(scope) if scope else "no report"
            return Verdict("uncited", source_of(x), fig=x,
                            message=f"only {x.f.report} has it (p.{x.f.page}, {labels_of(x.f, 3)}); this sentence cites {where}")  # fmt: skip
        if not endpoint and termish and others and (term := self._verbatim(bl, q, others)):
            t, page, quote = term
            src = Source(report=page.report, figure="", page=page.page, value=value, unit=unit.name, quote=quote,
                         version=page.version, page_label=page.label)  # fmt: skip
            return Verdict(
                "uncited",
                src,
                message=f"only {page.report} has “{t}” (p.{page.page}); this sentence cites {', '.join(scope) or 'no report'}",
            )
        if not unit.dim and not q.magnitude and (pct := matches(self.prep, value, step, _PERCENT, scope)):
            # a bare number QC no longer lets a percentage back (`ranges from 1.36 to 20` of a WER in %)
            x = pct[0]
            return Verdict("mismatch", source_of(x), fig=x, message=f"{say(x)}: the article drops its unit")
        near = self._nearest(q, value, unit, sent, scope)
        if near:
            return Verdict("mismatch", source_of(near), fig=near, message=say(near))
        where = ", ".join(scope) if scope else "no report is cited here"
        return Verdict("unsupported", message=f"no cited report has {q.text.strip()} ({where})")

    def _a_difference(self, q: Quantity, sent: Sentence) -> bool:
        """Whether the words state `q` as a difference: `比 X 高 49.4 MB` (a bare comparative after `比`) or
        `592 ms higher than`."""
        return bool(COMPARATIVE.match(self._text, q.end) or _BI_CMP.search(self._text, sent.start, q.start))

    @staticmethod
    def _verbatim_verdict(term: tuple[str, Page, str], value: float, unit: Unit) -> Verdict:
        t, page, quote = term
        src = Source(report=page.report, figure="", page=page.page, value=value, unit=unit.name, quote=quote,
                     version=page.version, page_label=page.label)  # fmt: skip
        return Verdict("verified", src, message=f"{page.report} p.{page.page}: “{t}” verbatim", term=term,
                       strength="verbatim term")  # fmt: skip

    def run_block(self, bl: Block) -> None:
        first = len(self.numbers)
        self._run_block(bl)
        keys_of_operands(self.numbers[first:])
        if bl.kind != "table":
            self._summary_ranges(bl, self.numbers[first:])

    def _summary_ranges(self, bl: Block, nums: list[NumberCheck]) -> None:
        """`Throughput up 29–40%: 29% at concurrency 8 and 40% at concurrency 16`: a range right before a colon sums
        up the numbers of its unit its full sentence lists after it; its ends must be their lowest and highest (a
        range of any two cells of the column, `29–35.2%`, is no summary of these)."""
        text = bl.text
        for i, n in enumerate(nums):
            end = n.end - bl.offset
            if n.status not in ("verified", "derived") or not _COLON_AFTER.match(text, end):
                continue
            qs = extract(n.text)
            r = qs[0] if len(qs) == 1 and qs[0].is_range else None
            if r is None or r.low is None or r.high is None:
                continue
            low, high = r.low, r.high
            stop = FULL_END.search(text, end)
            listed: list[float] = []
            for m in nums[i + 1 :]:
                if stop is not None and m.start - bl.offset >= stop.start():
                    break
                if m.unit == n.unit and m.status != "exempt":
                    listed += [x for q in extract(m.text) for x in ((q.low, q.high) if q.is_range else (q.value,))
                               if x is not None]  # fmt: skip
            if len(listed) < 2:
                continue
            lo, hi, tol = min(listed), max(listed), r.step / 2 * (1 + 1e-9)
            if abs(low - lo) <= tol and abs(high - hi) <= tol:
                continue
            n.status, n.strength, n.severity = "mismatch", "", self.severity.get("mismatch", "error")  # type: ignore[assignment]
            n.message = (f"the range sums up the {len(listed)} numbers its sentence lists after it, "
                         f"{num_text(lo)}–{num_text(hi)}{n.unit}: its ends are their lowest and highest")  # fmt: skip

    def _run_block(self, bl: Block) -> None:
        ftext = self._text = bl.text
        self._clauses = {}
        self._own_ctx = {}
        self._owners = {}
        self._upto_ctx = {}
        self._row_keys = {}
        self._keys_seen = {}
        self._claim_ctx = {}
        self._claim_near = {}
        self._heading = bl.kind == "heading" or bl.field == "title" or bl.field.endswith(".q")  # (questions too)
        self._claim_nums = {}
        self._fulls = None
        if bl.kind == "table":
            keys: dict[str, list[str]] = {}  # a row's integer cells under their headers (`batch=16`): its row keys
            for s, e, hdr, row in bl.cells:
                cell = ftext[s:e].strip()
                if hdr and cell.isdigit():
                    keys.setdefault(row, []).append(f"{hdr}={cell}")
                elif (named := _PAIRED_HEADER.search(hdr or "")) and _PAIRED_CELL.fullmatch(cell):
                    # `| Layers (enc, dec) | 4, 2 |`: each name in the header's brackets keys its own integer
                    names = [w.strip() for w in named.group(1).split(",")]
                    vals = [v.strip() for v in cell.split(",")]
                    if len(names) == len(vals):
                        keys.setdefault(row, []).extend(f"{k}={v}" for k, v in zip(names, vals, strict=True))
            # The header over the row labels (the first body cell's) says what every row is, like a heading:
            # `| Two A72, test case |`, `| 平台与场景(OpenBLAS) |`.
            stub = next((hdr for _, _, hdr, _ in bl.cells if hdr), "")
            lead, lead_ids = self._lead, self._lead_ids
            self._stub = context_tokens(stub)
            self._lead = lead | self._stub
            self._lead_ids = id_shapes(self._lead)
            judged: list[tuple[Sentence, list[Quantity], list[str], list[Verdict], str, str]] = []
            stubs: dict[str, str] = {}  # each row's first cell (its label)
            firsts: dict[str, int] = {}  # where each row's label cell starts
            for s, e, _, row in bl.cells:
                stubs.setdefault(row, ftext[s:e].strip())
                firsts.setdefault(row, s)
            for s, e, hdr, row in bl.cells:
                # `| MiB/s |`, `| p50/ms |`, `| 带宽 (GB/s) |`, else the row label's: `| PB(倍) | 0.95 |`
                hu = (header_unit(hdr) if hdr else None) or (header_unit(stubs[row]) if hdr else None) or NONE
                sent = sentence(ftext, s, e, extra=f"{row} {hdr}")
                if firsts[row] == s and hdr:
                    self._label_cells.add(id(sent))
                self._row_keys[id(sent)] = " ".join(keys.get(row, ()))
                sent.text = row
                qs = [q for q in extract(ftext[s:e])]
                for q in qs:
                    shift(q, s)
                    if not q.exempt and not q.unit and not q.count and hu.dim:
                        q.unit = hu.name
                sent.quantities = qs
                if qs:
                    judged.append((sent, qs, *self._judge(bl, sent, qs), hdr, row))
            for row in dict.fromkeys(j[5] for j in judged):  # its integer label cell is the condition of its cells
                mine = [(q, v, id(sent) in self._label_cells) for sent, qs, _, vs, _, r in judged if r == row
                        for q, v in zip(qs, vs, strict=True)]  # fmt: skip
                labelled = frozenset(id(q) for q, _, lab in mine if lab and _integral(q))
                self._condition_keys([q for q, _, _ in mine], [v for _, v, _ in mine], partial(_cell_kind, labelled))
            # A row's cells are one claim each, their column header their own words: a swap within a row is caught.
            for row in dict.fromkeys(j[5] for j in judged):
                cells = [(q, v, hdr, scope) for _, qs, scope, vs, hdr, r in judged if r == row
                         for q, v in zip(qs, vs, strict=True) if not q.exempt]  # fmt: skip
                pair = _swappable([(q, v) for q, v, _, _ in cells])
                self._swaps(
                    [(q, v, kinds(context_tokens(hdr)), scope) for q, v, hdr, scope in (cells[i] for i in pair)]
                )
                self._one_figure_two_claims([(q, v, context_tokens(hdr)) for q, v, hdr, _ in cells])
                self._row_of_table_mates([(q, v, context_tokens(f"{stubs[row]} {hdr}") | self._stub,
                                           context_tokens(hdr or "")) for q, v, hdr, _ in cells])  # fmt: skip
                self._header_column([(q, v, context_tokens(hdr or "")) for q, v, hdr, _ in cells])
            for sent, qs, scope, verdicts, _, _ in judged:
                self._record(bl, sent, qs, scope, verdicts)
            # its verified cells, for a change the text below states between two of them
            self._own_table = [(stubs[row], hdr, q) for _, qs, _, vs, hdr, row in judged if hdr
                               for q, v in zip(qs, vs, strict=True)
                               if not q.exempt and not q.is_range and v.status == "verified"]  # fmt: skip
            self._lead, self._lead_ids, self._stub = lead, lead_ids, frozenset()
            self._label_cells.clear()
            return
        quantities = extract(ftext)
        sents = sentences(ftext)
        for sent in sents:
            sent.quantities = [q for q in quantities if sent.start <= q.start < sent.end]
            per_frame(sent)
            comparative_units(sent, ftext)
        for sent in sents:
            self._emit(bl, sent, sent.quantities)

    def _emit(self, bl: Block, sent: Sentence, qs: list[Quantity]) -> None:
        if not qs:
            return
        scope, verdicts = self._judge(bl, sent, qs)
        self._condition_keys(qs, verdicts, lambda q: _key_kind(self._text, q) if _condition(q) else None)
        self._clause_sentence(sent, qs, verdicts)
        live = [k for k, q in enumerate(qs) if not q.exempt]
        said: dict[int, frozenset[str]] | None = None  # made once, for whichever check needs it first

        def claims(picked: list[int]) -> list[tuple[Quantity, Verdict, frozenset[str], list[str]]]:
            """The picked live numbers with their own words and the roles the sentence's wording gives them."""
            nonlocal said
            if said is None:
                said = roles(sent, [qs[k] for k in live], bl.text, self._list_lead)
            words = own_terms(sent, [qs[live[i]] for i in picked], bl.text)
            return [(qs[live[i]], verdicts[live[i]], w | said.get(i, frozenset()), scope)
                    for i, w in zip(picked, words, strict=True)]  # fmt: skip

        pair = _swappable([(qs[k], verdicts[k]) for k in live])
        if pair:
            self._swaps(claims(pair))
        pairs = [i for i in range(len(live) - 1) if set_against_each_other(sent, bl.text, qs[live[i]], qs[live[i + 1]])]
        if pairs:
            self._one_measure(sent, claims(sorted({j for i in pairs for j in (i, i + 1)})))
        # A lone number verified by a table cell still has its own words (`at -62 °C on average`): its kind decides,
        # even when the sentence's other numbers were already rejected (no pair left to swap).
        kept = [i for i, k in enumerate(live) if verdicts[k].status == "verified"
                and (fig := verdicts[k].fig) is not None and fig.table]  # fmt: skip
        if kept:
            self._kinds(claims(kept))
            self._end_state(sent, [(qs[live[i]], verdicts[live[i]]) for i in kept], bl.text)
        self._sentence_mates(sent, qs, verdicts)
        self._against_own_name(sent, qs, verdicts)
        _restated_apart(sent, qs, verdicts, bl.text)
        one = [i for i, k in enumerate(live) if verdicts[k].status == "verified" and verdicts[k].fig is not None]
        if len(one) > 1 and len({id(verdicts[live[i]].fig) for i in one}) < len(one):
            restated = {id(r) for q in qs if (r := restatement(sent, q, bl.text)) is not None}
            self._one_figure_two_claims([(q, v, own) for q, v, own, _ in claims(one)], restated, self._text)
        self._record(bl, sent, qs, scope, verdicts)

    def _condition_keys(
        self, qs: list[Quantity], verdicts: list[Verdict], kind_of: Callable[[Quantity], str | None]
    ) -> None:
        """`With 6 encoder and 2 decoder layers, … from 5.39 s to 2.73 s`, `较 38 线提升约 30%`: a condition number
        (a bare, counted or multiple integer naming the row a value belongs to) is backed only by the key of the row
        its sentence's values come from. Where a value's figure gives the condition's key word (`# enc-layers 6`,
        `batch 1`, `(2x)`, its report sentence's `38 线`) a number, the condition must be one of those numbers, and a
        from→to pair of conditions maps in order onto a from→to pair of values; any label of the report holding the
        integer is no backing then. A sentence whose values' figures give the key no number keeps its verdict. In an
        article table the row's label cell (`| 5 | 4,507,942 |`) is the condition, its key a label of that bare number
        (a chart's category): `kind_of` gives a number's key word, None for no condition."""
        conds = [(q, v, lo, kind) for q, v in zip(qs, verdicts, strict=True) if v.status in ("verified", "derived")
                 and (kind := kind_of(q)) is not None for lo in q.endpoints()]  # fmt: skip
        # (a round size, `4KB`, `64KB objects`, is a setting of its row like the condition: no value of the sentence)
        values = [(q, v.fig) for q, v in zip(qs, verdicts, strict=True)
                  if not q.exempt and v.status == "verified" and v.fig is not None and not _condition(q)
                  and all(q is not c[0] for c in conds)
                  and not (v.fig.unit.dim == "bytes" and q.value == int(q.value or 0.5))]  # fmt: skip
        if not values or any(q.is_range for q, _ in values):
            return  # (a range's figure is its first end's: the rows it spans are not all known)
        for kind in dict.fromkeys(c[3] for c in conds):
            mine = [c for c in conds if c[3] == kind]
            keyed = [(q, x, ks) for q, x in values if (ks := _keys_of_kind(x, kind))]
            if not keyed:
                continue
            # the values the conditions pair with in order: those of one unit as many as the conditions (`from
            # batch=1 to batch=4 … from 385.55 MiB/s to 694.43 MiB/s`, `from 3.623 ms at batch=1 to 26.942 ms at batch=8`)
            dims: dict[str, list[tuple[Quantity, Fig]]] = {}
            for q, x in values:
                dims.setdefault(x.unit.dim, []).append((q, x))
            paired = next((g for g in dims.values() if len(mine) > 1 and len(g) == len(mine)), None)
            for i, (_, v, (val, _), _) in enumerate(mine):
                if paired is not None:
                    ks = _keys_of_kind(paired[i][1], kind)
                    backs = [(paired[i][0], paired[i][1], ks)] if ks else []
                else:
                    backs = keyed
                if not backs or any(num_text(val) in ks for _, _, ks in backs):
                    continue
                o, x, ks = backs[0]
                v.status, v.source, v.fig, v.strength = "mismatch", source_of(x), x, ""
                keys = "/".join(sorted(ks))
                v.message = (f"{say(x)}, the figure of {o.text.strip()}, is of {f'{kind} ' if kind else ''}{keys} "
                             f"({labels_of(x.f, 3)}), not {num_text(val)}")  # fmt: skip

    def _clause_sentence(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`at 87 GB/s over 4×200 Gbps NICs`: where a number of the clause rests on a report sentence that prints two
        or more numbers of another number's unit (`4×200 Gbps and 8×400 Gbps`), that number is one of them; a figure
        of its value elsewhere (`800 Gbps` of a notation table) backs it no more."""
        live = [(q, v, v.fig) for q, v in zip(qs, verdicts, strict=True)
                if not q.exempt and not q.is_range and v.status == "verified" and v.fig is not None and q.unit]  # fmt: skip
        for q, v, x in live:
            cs, ce = self._part(q, sent)
            for p, _, y in live:
                if p is q or not cs <= p.start < ce or y.f.kind not in ("prose", "kv") or not y.f.quote:
                    continue
                if y.f.quote == x.f.quote or y.unit.dim == x.unit.dim:
                    continue
                said = [o for o in extract(y.f.quote) if o.unit and o.value is not None and not o.is_range
                        and parse_unit(o.unit).dim == x.unit.dim]  # fmt: skip
                if len({o.value for o in said}) < 2 or any(
                    parse_unit(o.unit).name == x.unit.name and o.value == x.f.value for o in said
                ):
                    continue  # (one number of the unit there, `7.15 GB`, lists no settings: `256 KB` may be another)
                shown_ = ", ".join(o.text.strip() for o in said[:3])
                v.status, v.source, v.fig, v.strength = "mismatch", source_of(y), y, ""
                v.message = (f"{say(y)}: the clause's {p.text.strip()} rests on a report sentence that gives "
                             f"{shown_}, not {q.text.strip()}")  # fmt: skip
                break

    def _judge(self, bl: Block, sent: Sentence, qs: list[Quantity]) -> tuple[list[str], list[Verdict]]:
        """The verdicts on a sentence's numbers, each on its own and then as from→to pairs and changes."""
        scope = number_scope(bl, sent, self.evidence)
        verdicts = [
            Verdict("exempt", message={"id": "identifier", "date": "date", "citation": "citation"}[q.exempt])
            if q.exempt
            else self.check(bl, q, sent, scope)
            for q in qs
        ]
        self._pairs(bl.text, qs, verdicts, sent)
        self._row_of_mates(sent, qs, verdicts)
        self._changes(sent, qs, verdicts)
        self._ratios(sent, qs, verdicts, scope)
        self._directions(sent, qs, verdicts)
        self._span_orders(sent, qs, verdicts)
        self._parts_of_wholes(sent, qs, verdicts)
        return scope, verdicts

    def _row_of_mates(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`工商银行授信总额 330,435.30 万元,已使用 256,735.30 万元,剩余 95,585.30 万元`: where two or more of the
        sentence's other numbers are cells of one table row (and none of its own row), a number verified by a cell
        of another row (of that table or another, in a column none of them shares; its own clause naming neither its
        row nor its table) stands for that row's cell of its column."""
        live = [(q, v, v.fig) for q, v in zip(qs, verdicts, strict=True)
                if not q.exempt and v.status == "verified" and v.fig is not None and v.fig.table and v.fig.row]  # fmt: skip
        if len(live) < 3:
            return
        for q, v, x in live:
            others = [g for o, _, g in live if o is not q]
            row, n = Counter(g.row for g in others).most_common(1)[0]
            labs = set(x.f.labels)
            if n < 2 or any(g.row == x.row or (g.col and g.col <= labs) for g in others):
                continue
            table = next(g.table for g in others if g.row == row) or ""
            mate = next((g for g in self.prep.table_dim(table, x.unit.dim) if g.row == row and g.col and g.col <= labs),
                        None)  # fmt: skip
            if mate is None or mate.base == x.base:
                continue
            own = stems(own_terms(sent, [q], self._text)[0])
            if not own.isdisjoint(x.row_terms) or not own.isdisjoint(stems(x.tokens - mate.tokens)):
                continue  # its own clause names its row, or its table (`read 68.63 MiB/s` after write figures)
            _stands_for(v, x, mate, "sentence")

    def _row_of_table_mates(self, cells: list[tuple[Quantity, Verdict, frozenset[str], frozenset[str]]]) -> None:
        """`| 480P 48*48 single face | 134 | 437 | 571 |` under `| Two A72, test case |`: where two or more cells of an
        article table's row are cells of one report table row, a cell verified by a figure of another report table
        (the same row label and column under another caption: `Single A72`) or of another row of theirs (`| 4KB 随机读
        (IOPS) | 182,400 | 265,300 | -41.2% |`: -41.2% is the p99 row's) stands for that row's cell of its column (a
        figure of prose, the cell of the column its header names), unless its words (the row's and its header's) name
        the other figure and not the mates'."""
        live = [(q, v, v.fig, words, hdr) for q, v, words, hdr in cells
                if v.status == "verified" and v.fig is not None]  # fmt: skip
        if sum(1 for *_, x, _, _ in live if x.table and x.row) < 3:
            return
        for q, v, x, words, hdr in live:
            others = [g for o, _, g, _, _ in live if o is not q and g.table and g.row]
            row, n = Counter(g.row for g in others).most_common(1)[0]
            table = next(g.table for g in others if g.row == row) or ""
            if n < 2 or any(g.row == x.row for g in others):
                continue
            labs = set(x.f.labels)
            taken = {id(g) for g in others}
            own = _mates_labels(row, x, others)
            # (a figure of prose, `Run 1: … 用户态 =2.15s`: the column its header names, `纯处理时间 (s)`; a count,
            # `1,896 行`, in a column of bare counts too)
            pool = self.prep.table_dim(table, x.unit.dim)
            if x.unit.dim.startswith("count:"):
                pool = [*pool, *self.prep.table_dim(table, "")]
            mate = next((g for g in pool if g.row == row and g.col and id(g) not in taken
                         and (g.col - own <= labs if x.table else hdr and g.col_tokens <= hdr)), None)  # fmt: skip
            if mate is None or mate.base == x.base:
                continue
            # the article's row names the cell's own table (not by a word of the section it stands in: a stub
            # `数据集` names no `2、测试数据集` table)
            if not stems(words).isdisjoint(stems(x.tokens - mate.tokens - section_words(x))):
                continue
            _stands_for(v, x, mate, "article table row")

    def _header_column(self, cells: list[tuple[Quantity, Verdict, frozenset[str]]]) -> None:
        """`| 1 MiB | 48.3 | 27.5 |` under `| 对象大小 | 岚存 GET | Ceph GET |`: where two or more other cells of an
        article table's row are cells of one report table row, a cell verified by another column of that row, or by a
        figure of prose, stands for the row's cell of the one column whose labels its header names most, if that is
        not its own (nor a prose figure its header names better)."""
        live = [(q, v, v.fig, hdr) for q, v, hdr in cells if v.status == "verified" and v.fig is not None]
        for q, v, x, hdr in live:
            rows = Counter(g.row for o, _, g, _ in live if o is not q and g.table and g.row)
            if not hdr or not rows or (row := rows.most_common(1)[0])[1] < 2 or (x.table and x.row != row[0]):
                continue
            table = next(g.table for _, _, g, _ in live if g.row == row[0]) or ""
            own = _mates_labels(row[0], x, [g for _, _, g, _ in live if g is not x])
            said = stems(hdr - frozenset().union(*(context_tokens(lab) for lab in own)))
            in_row = [g for g in self.prep.table_dim(table, x.unit.dim) if g.row == row[0] and g.col_tokens]
            score = {id(g): len(said & stems(g.col_tokens)) for g in in_row}
            best = max(score.values(), default=0)
            top = [g for g in in_row if score[id(g)] == best]
            if best <= score.get(id(x), 0) or len(top) != 1 or top[0].base == x.base:
                continue
            if not x.table and not said.isdisjoint(stems(x.tokens - top[0].tokens)):
                continue
            v.status, v.source, v.fig, v.strength = "mismatch", source_of(top[0]), top[0], ""
            v.message = (
                f"{say(top[0])}: the article table's header names that column; {shown(x)} is {labels_of(x.f, 3)}"
            )

    def _swaps(self, claims: list[tuple[Quantity, Verdict, frozenset[str], list[str]]]) -> None:
        """Numbers of one sentence (or table row) verified by figures that each other's own words name: swapped."""
        live = [(q, v, v.fig, own, scope) for q, v, own, scope in claims if v.fig is not None]
        # Each number's figures: every figure of its value in scope (a swap is only called when no figure of the
        # right value fits its words as well as one of the other number's value does).
        figs = [[x, *self._all_figs(q, scope)] for q, _, x, _, scope in live]
        # a report sentence stating two of the numbers' values tells them apart by its clauses (elsewhere a clause
        # can lack the subject an earlier sentence named: its words alone decide nothing)
        said = Counter(k for f in figs for k in {_quote_key(x) for x in f})  # in how many numbers' figures

        def item(k: int, shared: frozenset[str]) -> tuple[frozenset[str], list[tuple[frozenset[str], frozenset[str]]]]:
            return live[k][3], [(_swap_words(x, shared), _clause_tokens(x) if said[_quote_key(x)] > 1 else x.col_tokens)
                                for x in figs[k]]  # fmt: skip

        for i, j in combinations(range(len(live)), 2):
            # the setting both numbers' figures share names neither (a third number's figures have no say: a cell
            # of each run's table, `262 ms` in both, leaves the two runs' captions telling 143 from 112)
            shared = _shared_setting([figs[i], figs[j]])
            items = [item(i, shared), item(j, shared)]
            if not crossed(items):
                continue
            (qi, vi, fi, oi, _), (qj, vj, fj, oj, _) = live[i], live[j]
            if fi.unit.dim != fj.unit.dim or fi.base == fj.base or qi.value == qj.value:
                continue  # (`持续 2 分钟时约 2 秒`: two numbers printed alike swap into the same sentence)
            if _restated_bound(qi, qj) or _restated_bound(qj, qi):
                continue  # a bound the other value passes restates it (`达到 21.58 ms,超过 20 ms`): no second figure
            if self._owned(qi, fi, fj) or self._owned(qj, fj, fi):
                continue  # (`the load test's 567 ms` under a `Load test` heading: its owner named, no swap is plain)
            if not fi.unit.dim and (fi.table is None or fi.table != fj.table) and not plainly_crossed(items, 0, 1):
                continue  # bare numbers (`6`-layer, a 0.934 score) are one kind of quantity only within one table,
                # unless each one's words name the other's figure better than its own
            # the figure to name: of the other number's value, the one the number's own words fit best
            for q, v, mine, theirs in (
                (qi, vi, fi, max(figs[j], key=lambda x: len((oi - oj) & x.tokens))),
                (qj, vj, fj, max(figs[i], key=lambda x: len((oj - oi) & x.tokens))),
            ):
                v.status, v.source, v.fig, v.strength = "mismatch", source_of(theirs), theirs, ""
                v.message = (
                    f"{say(theirs)}: the words around {q.text.strip()} name that figure; {shown(mine)} is "
                    f"{labels_of(mine.f, 3) or 'another figure'} (two values swapped?)"
                )

    def _one_measure(self, sent: Sentence, claims: list[tuple[Quantity, Verdict, frozenset[str], list[str]]]) -> None:
        """`the first measurement (2.9 on the A53 against 0.71 on the A72)`: two numbers set against each other
        measure one thing. Where their cells differ in two labels (the row and the column), the cell of the first one's
        column in the row the second one's own words name is the second's, unless the sentence names the label that
        sets the second one's own cell apart (`… against 0.71 on average`)."""
        for (a, va, _, _), (b, vb, own, _) in pairwise(claims):
            x, y = va.fig, vb.fig
            if va.status != "verified" or vb.status != "verified" or x is None or y is None:
                continue
            if not set_against_each_other(sent, self._text, a, b) or not x.table or x.table != y.table:
                continue
            lx, ly = set(x.f.labels), set(y.f.labels)
            if len(lx ^ ly) != 4 or x.unit.dim != y.unit.dim:
                continue
            said = stems(own)
            named = [m for m in self.prep.table_dim(x.table, x.unit.dim) if len(set(m.f.labels) ^ lx) == 2
                     and len(set(m.f.labels) ^ ly) == 2 and not said.isdisjoint(stems(frozenset().union(
                         *(context_tokens(lab) for lab in set(m.f.labels) & ly))))]  # fmt: skip
            if len(named) != 1 or named[0].base == y.base:
                continue
            m = named[0]
            apart = frozenset().union(*(context_tokens(lab) for lab in ly - set(m.f.labels))) - m.tokens
            if not apart or not stems(apart).isdisjoint(stems(sent.tokens)):
                continue
            vb.status, vb.source, vb.fig, vb.strength = "mismatch", source_of(m), m, ""
            vb.message = (f"{say(m)}: the sentence sets {b.text.strip()} against {a.text.strip()}, one measure; "
                          f"{shown(y)} is {labels_of(y.f, 3)}")  # fmt: skip

    def _owned(self, q: Quantity, mine: Fig, theirs: Fig) -> bool:
        """Whether a possessive right before `q` (`the load test's 567 ms`) names the setting of its own figure `mine`
        (a table row, a section heading) and not that of `theirs`: the number is plainly its owner's, whatever other
        words of its sentence (or the other figure's report sentence, `3.1 times that of the load test`) say."""
        name = possessor(self._text, q.start, 0)
        words = context_tokens(name) if name else frozenset()
        return bool(words) and words <= _setting_words(mine) and not words <= _setting_words(theirs)

    def _against_own_name(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`8596 more than tool&agent's 6729`: a number its sentence sets against a name (`than X`, `比 X`) right after
        it is not X's own figure; verified by a cell of X's row, where another number of the sentence follows for X,
        it is a mismatch."""
        text = self._text
        for k, (q, v) in enumerate(zip(qs, verdicts, strict=True)):
            x = v.fig
            if q.exempt or v.status != "verified" or x is None or not x.table:
                continue
            name = set_against(text, q.end, sent.end)
            if name is None or not any(o.start > q.end and not o.exempt for o in qs[k + 1 :]):
                continue
            words = context_tokens(name)
            if not words or not words <= x.own_tokens:
                continue
            v.status, v.strength = "mismatch", ""
            v.message = (f"{say(x)}: that is {name}'s, but the sentence sets {q.text.strip()} against {name} (two values "
                         f"swapped?)")  # fmt: skip

    def _sentence_mates(self, sent: Sentence, qs: list[Quantity], verdicts: list[Verdict]) -> None:
        """`与本地缓存相比,全局缓存使命中率最多提升 136%,prefill 计算时间最多减少 92%`: where another number of the
        sentence rests on a report sentence that states one more figure of this number's kind (`a reduction of up to
        48% in prefill computation time`) that no number of the sentence stands for, and that report sentence fits
        the claim's sentence and the number's own clause better than the figure verifying it, the number
        stands for that figure."""
        live = [(q, v) for q, v in zip(qs, verdicts, strict=True) if not q.exempt and v.status == "verified"
                and v.fig is not None and v.fig.f.kind in ("prose", "kv")]  # fmt: skip
        if len(live) < 2:
            return
        used = {id(v.fig) for _, v in live}
        said = unnumbered(sent.tokens)
        for q, v in live:
            x = v.fig
            if x is None:
                continue
            own: frozenset[str] | None = None
            for p, w in live:
                y = w.fig
                if p is q or y is None or y.f.report != x.f.report or y.f.quote == x.f.quote:
                    continue
                cs, ce = self._part(q, sent)
                if any(r is not q and r is not p and cs <= r.start < ce and u.fig is not None
                       and u.fig.f.quote != y.f.quote for r, u in live):  # fmt: skip
                    continue  # its own clause holds a number of another report sentence (`200 个线程下…约 1 秒`)
                free = [g for g in self.prep.figs_of(y.f.report, x.unit.dim) if g.f.quote == y.f.quote
                        and g.f.page == y.f.page and id(g) not in used and g.base != x.base]  # fmt: skip
                if len(free) != 1 or self._stated_in_full(sent, free[0]):
                    continue
                g = free[0]
                own = unnumbered(own_terms(sent, [q], self._text)[0]) if own is None else own
                if len(own & g.tokens) <= len(own & x.tokens) or len(said & g.tokens) <= len(said & x.tokens):
                    continue
                v.status, v.source, v.fig, v.strength = "mismatch", source_of(g), g, ""
                v.message = (f"{say(g)}: the sentence's {p.text.strip()} is from that report sentence; "
                             f"{shown(x)} is {labels_of(x.f, 3) or 'another figure'}")  # fmt: skip
                break

    def _stated_in_full(self, sent: Sentence, g: Fig) -> bool:
        """Whether a number of the full sentence around `sent` (its parts up to `。`) states figure `g`'s value in its
        unit, whichever figure backs it (`CPU 使用率为 61.3%,…;磁盘写带宽为 412.5 MB/s,较 TiKV 的 655.8 MB/s 减少
        37.1%`: the report sentence's 61.3% is stood for, though a table cell verifies it)."""
        text = self._text
        lo = max((m.end() for m in FULL_END.finditer(text, 0, sent.start)), default=0)
        hi = m.end() if (m := FULL_END.search(text, max(sent.start, sent.end - 1))) is not None else len(text)
        return any(o.value == g.f.value and (parse_unit(o.unit) if o.unit else NONE).dim == g.unit.dim
                   for o in extract(text[lo:hi]) if not o.exempt)  # fmt: skip

    @staticmethod
    def _one_figure_two_claims(
        cells: list[tuple[Quantity, Verdict, frozenset[str]]], restated: set[int] | None = None, text: str = ""
    ) -> None:
        """Two numbers of one value in one sentence (in two units too, unless the second restates the first right after
        it: `restated`), or in two cells of one article-table row, verified by one and the same report figure while
        their own words (a cell's: its header) differ (`| 合成 | 3.33 | 3.33 |` over the chunked-prefill figure): one
        figure measures one thing, so the number whose words the figure fits less (of the words one has and the other
        lacks) stands for another."""
        ok = [(q, v, hdr) for q, v, hdr in cells if v.status == "verified" and v.fig is not None and q.value]
        for (qi, vi, hi), (qj, vj, hj) in combinations(ok, 2):
            x = vi.fig
            if x is None or vj.fig is not x or hi == hj:
                continue
            if (qi.value, qi.unit) != (qj.value, qj.unit) and (restated is None or id(qj) in restated):
                continue  # (`24.824 ms, or about 0.025 s`: one figure restated, not two numbers of one value; a
                # sentence's `GPU 为 Mali T864(800MHz),A72 核实际频率为 0.8GHz` states two)
            if (w := _counted(text, qi)) and w == _counted(text, qj):
                continue  # (`185 ms 的 100 帧平均值,DSST 的 100 帧平均`: one count of one thing, said twice)
            if _option_value(text, qi) != _option_value(text, qj):
                continue  # (`siege -c 200 … 并发量 200`: a command's option and the words naming what it sets)
            if text and _LIST_GAP.fullmatch(text, qi.end, qj.start):
                # `TBT thresholds to 100 ms, 200 ms and 200 ms` over `100 ms, 200 ms, and 300 ms`: members of one
                # list name one value each, so the later one resting on the earlier one's figure stands for another
                vj.status, vj.strength = "mismatch", ""
                vj.message = (f"{say(x)}, the figure of {qi.text.strip()} before it in its list: a list's members "
                              f"are values of their own")  # fmt: skip
                continue
            fi, fj = len((hi - hj) & x.tokens), len((hj - hi) & x.tokens)
            if fi == fj:
                continue  # the figure's words tell neither column: nothing says which cell is wrong
            q, v, other = (qi, vi, qj) if fi < fj else (qj, vj, qi)
            v.status, v.strength = "mismatch", ""
            v.message = (f"{say(x)}, the figure of the other {other.text.strip()} of its sentence or row: one figure "
                         f"measures one thing, and no figure of {q.text.strip()} fits these words")  # fmt: skip

    def _kinds(self, claims: list[tuple[Quantity, Verdict, frozenset[str], list[str]]]) -> None:
        """A number whose own words name one kind of figure of a row (`between -269 °C and -62 °C`: the lowest, the
        highest; `on average`) verified by a cell of another kind of that row: the cell of its kind is the fix."""
        taken = {id(v.fig) for _, v, _, _ in claims}
        for q, v, own, _ in claims:
            x = v.fig
            if v.status != "verified" or x is None or not x.table or not x.row or not x.col_tokens:
                continue
            said = next((g for g in SYNONYMS if not own.isdisjoint(g)), None)
            if said is None:
                self._column_named(q, v, x, own, taken)
                continue
            if not x.col_tokens.isdisjoint(said):
                continue
            if all(x.col_tokens.isdisjoint(g) for g in SYNONYMS):
                continue  # its column names no kind: nothing contradicts the words
            mate = next((g for g in self._row_cells(x) if g is not x and not g.col_tokens.isdisjoint(said)), None)
            if mate is not None and mate.base != x.base:
                v.status, v.source, v.fig, v.strength = "mismatch", source_of(mate), mate, ""
                v.message = f"{say(mate)}: the words around {q.text.strip()} name that figure; {shown(x)} is {labels_of(x.f, 3)}"

    def _end_state(self, sent: Sentence, claims: list[tuple[Quantity, Verdict]], text: str) -> None:
        """`与 v1.8 相比,v2.0 的顺序读带宽提升 53.7%,达到 9.87 GB/s`: the value a change reaches (`达到`, `降至`,
        `rose to`) is the state after it, never the compared-with side's: a cell of the column that side names is
        wrong where exactly one other column of its row is named by the sentence (that column's cell is the fix)."""
        said = text[sent.start : sent.end]
        against = frozenset().union(*(context_tokens(m.group(1) or m.group(2)) for m in _COMPARED_WITH.finditer(said)))
        if not against:
            return
        words = context_tokens(said)
        for q, v in claims:
            x = v.fig
            if x is None or not x.col_tokens or x.col_tokens.isdisjoint(against):
                continue
            if not _REACHES.search(text, max(sent.start, q.start - 8), q.start):
                continue
            named = [g for g in self._row_cells(x) if g is not x and g.col_tokens and g.col_tokens.isdisjoint(against)
                     and g.unit.dim == x.unit.dim and not words.isdisjoint(g.col_tokens - x.col_tokens - x.row_terms)]  # fmt: skip
            if len({g.col for g in named}) != 1 or named[0].base == x.base:
                continue
            g = named[0]
            v.status, v.source, v.fig, v.strength = "mismatch", source_of(g), g, ""
            v.message = f"{say(g)}: {q.text.strip()} is the state the change reaches; {shown(x)} is {labels_of(x.f, 3)}"

    def _column_named(self, q: Quantity, v: Verdict, x: Fig, own: frozenset[str], taken: set[int]) -> None:
        """`兴业银行盐城分行授信 192,000.00 万元` verified by that row's 剩余额度 cell: where the number's own words name
        one other column of the row (words of its header the cell's header lacks) and none of the cell's own, that
        column's cell is the figure the words state (unless another number of the sentence rests on that cell: the
        words are its own, `总耗时平均 3.78 s(标准差 0.35 s)`)."""
        if not x.col_tokens:
            return
        said = unnumbered(own)
        if not said.isdisjoint(x.col_tokens - x.row_terms):
            return  # its words name its own column
        named = [g for g in self._row_cells(x) if g is not x and g.col_tokens
                 and not said.isdisjoint(g.col_tokens - x.col_tokens - x.row_terms)]  # fmt: skip
        if len({g.col for g in named}) != 1 or named[0].base == x.base or id(named[0]) in taken:
            return
        g = named[0]
        v.status, v.source, v.fig, v.strength = "mismatch", source_of(g), g, ""
        v.message = f"{say(g)}: the words around {q.text.strip()} name that column; {shown(x)} is {labels_of(x.f, 3)}"

    def _all_figs(self, q: Quantity, scope: list[str]) -> list[Fig]:
        unit = parse_unit(q.unit) if q.unit else NONE
        return matches(self.prep, q.value or 0.0, q.step, unit, scope)  # (bounds aside: words decide here)

    def _record(self, bl: Block, sent: Sentence, qs: list[Quantity], scope: list[str], verdicts: list[Verdict]) -> None:
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
            message = v.message
            if v.warning and sev == "ok":  # an ok number the reviewer must still read (`快 3 倍`: 3× or 4×?)
                sev, message = "warning", f"{v.warning}; {v.message}" if v.message else v.warning
            value = None if q.exempt or q.is_range or not math.isfinite(q.value or 0.0) else q.value  # JSON: no inf
            self.numbers.append(NumberCheck(
                text=text, line=line, column=col, value=value, unit=q.unit, status=status, severity=sev,
                cited=list(scope), source=v.source, derivation=v.derivation, message=message, field=bl.field,
                start=start, end=end, sentence=sent.text, id=fid, strength=v.strength if status in OK_STATUSES else "",
            ))  # fmt: skip
            if v.term:
                t, page, quote = v.term
                self.terms.append(TermCheck(text=t, line=line, column=col, report=page.report, page=page.page,
                                            quote=quote, field=bl.field, start=start, end=end))  # fmt: skip

    def run(self) -> FileResult:
        meta = self.draft.meta
        fields = [("title", meta.title), ("answer", meta.answer)]
        for i, qa in enumerate(meta.faq):
            fields += [(f"faq.{i}.q", qa.q), (f"faq.{i}.a", qa.a)]
        for name, text in fields:
            # an FAQ answer stands under its question (`How cold do noble gases boil?` names the row)
            self._lead = context_tokens(meta.faq[int(name.split(".")[1])].q) if name.endswith(".a") else frozenset()
            self._lead_ids = id_shapes(self._lead)
            self._before = meta.title if name == "answer" else ""
            self.run_block(Block(name, 0, text, "front", cites=cite_ids(text)))
        self._lead, self._lead_ids = frozenset(), {}
        prev: Block | None = None
        for bl in body_blocks(self.draft.body):
            self._before = prev.text if prev is not None and prev.kind == bl.kind == "item" else ""
            self._list_lead = _list_lead(self._list_lead, prev, bl)
            self.run_block(bl)
            prev = bl
            if bl.kind == "heading":  # the blocks below a heading stand under it (and no more below its table)
                self._own_table = []
                self._lead = context_tokens(bl.text)
                self._lead_ids = id_shapes(self._lead)
        summary = {s: 0 for s in ALL_STATUSES}
        for n in self.numbers:
            summary[n.status] += 1
        ok = not any(n.severity == "error" for n in self.numbers)
        return FileResult(file=self.draft.path, ok=ok, numbers=self.numbers, terms=self.terms, summary=summary)


# The thing a bare number counts: the CJK word or English plural right after it (`100 帧`, `100 frames`; two CJK
# characters, so that a classifier tells its nouns apart: `4 个节点` and `4 个盘`).
_COUNTED = re.compile(r"[ \u00a0]?([\u4e00-\u9fff]{1,2}|[a-z]{3,}s\b)")


def _counted(text: str, q: Quantity) -> str:
    """The word a bare number counts (`帧平` of `100 帧平均`), empty for a number with a unit or none."""
    if q.unit or not text:
        return ""
    m = _COUNTED.match(text, q.end)
    return m.group(1) if m else ""


# A command-line option right before a number (`-c 200`, `--threads=8`), not a word's hyphen (`Cortex-A72 1.8GHz`).
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=| +)$")


def _option_value(text: str, q: Quantity) -> bool:
    """Whether `q` is the value of a command-line option the sentence quotes (`siege -c 200`)."""
    return bool(_OPTION.search(text, max(0, q.start - 40), q.start))


def _mates_labels(row: str | None, x: Fig, mates: list[Fig]) -> frozenset[str]:
    """The labels that `x`'s mates in report row `row` (of its dimension) share: the row's own, caption and section,
    which name no column (a label cell with a unit, `128 MiB`, keeps the row label off the column's labels)."""
    same = [frozenset(g.f.labels) for g in mates if g.row == row and g.unit.dim == x.unit.dim]
    return frozenset.intersection(*same) if same else frozenset()


def _stands_for(v: Verdict, x: Fig, mate: Fig, where: str) -> None:
    """A number verified by `x` stands for `mate`, the cell of its column in the row its mates rest on: a mismatch."""
    v.status, v.source, v.fig, v.strength = "mismatch", source_of(mate), mate, ""
    v.message = f"{say(mate)}: the {where}'s other numbers are that row's; {shown(x)} is {labels_of(x.f, 3)}"


def _restated_bound(q: Quantity, other: Quantity) -> bool:
    """Whether `q` is a lower bound (`超过 20 ms`, `above 20 ms`) that `other`, of its unit, passes (`21.58 ms`):
    the bound says where the value stands, it measures nothing of its own (an upper bound, `no more than 45 degrees`
    beside a 30, is as often a second limit)."""
    return q.bound in (">", "≥") and q.unit == other.unit and (other.value or 0.0) > (q.value or 0.0)


def _quote_key(x: Fig) -> tuple[str, int, str]:
    return (x.f.report, x.f.page, x.f.quote if not x.table else "")


def _clause_tokens(x: Fig) -> frozenset[str]:
    """The words naming a figure alone: a table cell's column header; a report sentence's figure, its own clause of
    that sentence (`授信额度总额达372.53 亿元,其中已使用额度252.06 亿元`: 总额 names one, 已使用 the other), where its
    number stands once in the sentence."""
    if x.table or x.f.kind not in ("prose", "kv") or not x.raw_num:
        return x.col_tokens
    quote = x.f.quote
    at = [m.start() for m in re.finditer(rf"(?<![\d.]){re.escape(x.raw_num)}(?![\d]|\.\d)", quote)]
    if len(at) != 1 or respective(quote, x.raw_num) is not None:
        return x.col_tokens  # (a list's numbers, `61 GB/s and 142 GB/s … respectively`, share one clause)
    seps = [(m.start(), m.end()) for m in OWN_CLAUSE.finditer(quote)]
    start = max((e for _, e in seps if e <= at[0]), default=0)
    end = min((b for b, _ in seps if b >= at[0] + len(x.raw_num)), default=len(quote))
    return context_tokens(quote[start:end])


def _up_to_own_clause(x: Fig) -> str:
    """A prose figure's report sentence up to the end of the figure's own clause: a key carries to later clauses,
    never back (`QPS 最高达到 438,920,在 256 并发及以下 p99 …`: the 256 is the next clause's)."""
    return _up_to_clause(x.f.quote, x.raw_num) if x.raw_num else x.f.quote


@lru_cache(maxsize=2048)
def _up_to_clause(quote: str, num: str) -> str:
    at = [m.end() for m in re.finditer(rf"(?<![\d.]){re.escape(num)}(?![\d]|\.\d)", quote)]
    if len(at) != 1:
        return quote
    end = next((m for m in OWN_CLAUSE.finditer(quote, at[0]) if not _THOUSANDS.match(quote, m.start() - 1)), None)
    return quote[: end.start()] if end is not None else quote


_THOUSANDS = re.compile(r"\d,\d{3}(?!\d)")  # a comma inside a number (`per 1,000 requests`) ends no clause


def _list_lead(lead: str, prev: Block | None, bl: Block) -> str:
    """The paragraph a list item stands under: the one right before its list, kept through the list's items."""
    if bl.kind != "item" or prev is None:
        return ""
    return prev.text if prev.kind == "para" else lead if prev.kind == "item" else ""


def _setting_words(x: Fig) -> frozenset[str]:
    """The words of where a figure stands: all its labels but a report sentence's own text (a prose figure's first
    label), so a name that sentence merely compares it with is none of them."""
    labs = x.f.labels if x.table else x.f.labels[1:]
    return frozenset().union(*(context_tokens(lab) for lab in labs))


def _setting(x: Fig) -> frozenset[str]:
    """The words a figure has from where it stands (its table's caption, its section heading), not its own labels."""
    return x.tokens - x.own_tokens


def _shared_setting(figs: list[list[Fig]]) -> frozenset[str]:
    """The setting words of one number's figures that another number's figures have too (`表 4-3 对比无外存重算基线`
    over both cells, a section `Effective Request Capacity` over two report sentences): they name every figure
    there, so they tell none of the numbers apart."""
    sets = [frozenset().union(*(_setting(x) for x in f)) for f in figs]
    alls = [frozenset().union(*(x.tokens for x in f)) for f in figs]
    return frozenset().union(*(s & a for i, s in enumerate(sets) for j, a in enumerate(alls) if i != j))


def _swap_words(x: Fig, shared: frozenset[str]) -> frozenset[str]:
    """A figure's words for the swap check: its own labels' and those of its setting no other number's figure shares
    (a caption's `基线` is no baseline's word where it stands over the new system's cell too)."""
    return x.own_tokens | (_setting(x) - shared)


def _swappable(claims: list[tuple[Quantity, Verdict]]) -> list[int]:
    """The numbers (by index) verified by a figure that another one's figure shares a dimension with, at another
    value: those two numbers could be swapped (empty when no pair could be)."""
    ok = [i for i, (q, v) in enumerate(claims) if v.status == "verified" and v.fig is not None and not q.is_range]
    dims: dict[str, set[float]] = {}
    for i in ok:
        x = claims[i][1].fig
        assert x is not None
        dims.setdefault(x.unit.dim, set()).add(x.base)
    return [i for i in ok if len(dims[claims[i][1].fig.unit.dim]) > 1]  # type: ignore[union-attr]


def keys_of_operands(numbers: list[NumberCheck]) -> None:
    """`| 5 | 4,507,942 | 4,049,234 |`, `5 字节负载时高 11.3%`: an integer no figure holds is the row key (a chart's
    category, an axis tick) of the figure another number of its sentence or table row rests on, printed as that
    label alone (`5`) or with the unit as written (`4B`)."""
    for n in numbers:
        if n.status in OK_STATUSES or n.value is None or n.value != int(n.value):
            continue
        key = num_text(n.value)
        forms = {key, f"{key}{(n.unit or '').strip()}".lower()}
        for o in numbers:
            if o is n or o.status not in ("verified", "derived") or o.sentence != n.sentence or o.source is None:
                continue
            lab = next((lab for lab in o.source.labels if lab.strip().replace(" ", "").lower() in forms), None)
            if lab is not None:
                n.status, n.severity, n.strength = "verified", "ok", "row key"
                n.source = o.source.model_copy(update={"value": n.value, "unit": n.unit, "quote": lab, "labels": [lab]})
                n.message = f"{o.source.report} p.{o.source.page}: {lab} (the key of {o.text.strip()}'s figure)"
                break


_COLON_AFTER = re.compile(r"\s*[:：]")
_PAIRED_HEADER = re.compile(r"\(\s*([A-Za-z]{3,}(?:\s*,\s*[A-Za-z]{3,})+)\s*\)")  # `Layers (enc, dec)`
_PAIRED_CELL = re.compile(r"\d+(?:\s*,\s*\d+)+")  # `4, 2`


def _restated_apart(sent: Sentence, qs: list[Quantity], verdicts: list[Verdict], text: str) -> None:
    """`1715 ms/frame, about 1.7 s`, `800 Gbps, or 100 GB/s`: a number that restates the one right before it says the
    same quantity again, so one of another value (`1715 ms/frame, about 1.0 s`; `800 Gbps, or 100 Gbps`) is wrong
    whatever figure of its value stands elsewhere."""
    for k, q in enumerate(qs):
        r = restatement(sent, q, text) if not q.exempt and q.value is not None else None
        if r is None or r.value is None or q.value is None or r.is_range or q.is_range or r not in qs:
            continue
        if not r.approx and not _SAYS_AGAIN.search(text, q.end, r.start):
            continue  # (`15325 tokens, 6729 more than …`: a comma alone restates nothing)
        a, b = parse_unit(q.unit), parse_unit(r.unit)
        v = verdicts[qs.index(r)]
        if v.status not in ("verified", "derived") or verdicts[k].status not in ("verified", "derived"):
            continue
        x, y = abs(q.value) * a.factor, abs(r.value) * b.factor
        if abs(x - y) <= (r.step * b.factor) / 2 * 1.0001 or abs(x - y) <= (q.step * a.factor) / 2 * 1.0001:
            continue
        v.status, v.strength, v.derivation = "mismatch", "", None
        v.message = f"{r.text.strip()} restates {q.text.strip()}, but is not the same quantity"


_SAYS_AGAIN = re.compile(r"\bor\b|i\.e\.|that is|即|约合|折合|[(（]", re.I)
_LIST_GAP = re.compile(r"\s*(?:[,、，]\s*(?:and\s+|和|与|及)?|and\s+|和|与|及)\s*")  # between members of a list


def _one_figure(parts: list[Verdict]) -> Verdict | None:
    """A range whose two ends rest on one and the same figure (`35–35%`, `36–36%` of a `36.1%` cell) states no span
    of the report: a mismatch naming that figure."""
    a, b = parts[0].fig, parts[-1].fig
    if len(parts) < 2 or a is None or a is not b or any(p.status != "verified" for p in parts):
        return None
    return Verdict("mismatch", parts[0].source, fig=a,
                   message=f"both ends of the range are {shown(a)} ({labels_of(a.f, 3)}): no span of the report")  # fmt: skip


def _split_range(parts: list[Verdict]) -> Verdict | None:
    """A range whose ends rest on table cells of neither one row nor columns sharing a label (`26–40%` of a TTFT fall
    and a throughput gain; `7.53–35.73 s` of the new system's and the baseline's TTFT) spans no one measure: a
    mismatch naming its upper end's cell."""
    a, b = parts[0].fig, parts[-1].fig
    if len(parts) < 2 or a is None or b is None or any(p.status != "verified" for p in parts):
        return None
    if not (a.table and b.table and a.col and b.col) or not a.col.isdisjoint(b.col):
        return None  # (a column group beside the header, `value size 1MB` over `p50/ms`, is no other column)
    if a.table == b.table and a.row == b.row:
        return None
    return Verdict("mismatch", parts[-1].source, fig=b,
                   message=f"the range's ends are {shown(a)} ({labels_of(a.f, 4)}) and {shown(b)} "
                           f"({labels_of(b.f, 4)}): two measures, not one span")  # fmt: skip


def _two_settings(parts: list[Verdict], words: frozenset[str], prep: Prep) -> Verdict | None:
    """A range whose ends rest on cells of two tables set apart by their captions or headings (`4.1 Simple
    background` and `4.2 Complex background`), neither holding both ends, spans one column only where the claim
    names both settings: `the frame rate spans 5–27.1 FPS` takes its 5 from the complex background and its 27.1 from
    the simple one (a summary table repeating rows of the full one holds both)."""
    a, b = parts[0].fig, parts[-1].fig
    if len(parts) < 2 or a is None or b is None or not (a.table and b.table) or a.table == b.table:
        return None
    for t in (a.table, b.table):
        vals = [g.base for g in prep.table_dim(t, a.unit.dim)]
        if all(any(abs(v - x.base) <= 1e-9 * max(1.0, abs(v)) for v in vals) for x in (a, b)):
            return None
    sa, sb = set(a.f.labels) - own_labels(a), set(b.f.labels) - own_labels(b)
    if sa == sb:
        return None
    wa = context_tokens(" ".join(sa - sb)) - context_tokens(" ".join(sb))
    wb = context_tokens(" ".join(sb - sa)) - context_tokens(" ".join(sa))
    wa, wb = frozenset(w for w in wa if not w.isdigit()), frozenset(w for w in wb if not w.isdigit())
    if not wa or not wb or (not words.isdisjoint(wa) and not words.isdisjoint(wb)):
        return None
    return Verdict("mismatch", parts[-1].source, fig=b,
                   message=f"the range's ends are {shown(a)} ({labels_of(a.f, 4)}) and {shown(b)} "
                           f"({labels_of(b.f, 4)}): cells of two settings, not one span")  # fmt: skip


def _finite(v: float | None) -> bool:
    return v is None or math.isfinite(v)


def check_draft(draft: Draft, index: EvidenceIndex, severity: dict[str, str] | None = None) -> FileResult:
    """Check every number of `draft` (front matter and body) against the figures of the reports each one cites."""
    require_known(draft, index.reports)
    return _Checker(draft, article_index(draft, index), severity).run()


_COND_UNIT_DIMS = ("", "x")
# A label's integer with the word right before it (`batch 1`, `# enc-layers 6`, `batch=4`) or right after it (`38 线`,
# `6 encoder`), or a multiple (`2x`, `2 倍`): the key word a condition number shares with a figure's row.
_KEY_BEFORE = re.compile(r"([A-Za-z][A-Za-z_-]*)\s*[=:]?\s*$")
_KEY_AFTER = re.compile(r"[ \u00a0]*([A-Za-z][A-Za-z_-]*|[\u3400-\u9fff])")
_LABEL_INT = re.compile(r"(?<![\d.,])(\d+)(?![\d.,]\d|\d)")
_MULT_IN_LABEL = re.compile(r"(?<![\d.])(\d+)\s*(?:x|×|倍)(?![A-Za-z\d])", re.I)


def _condition(q: Quantity) -> bool:
    """A bare, counted or multiple integer (both ends of a range so): a number that may name a row, not measure."""
    ends = q.endpoints()
    if q.exempt or q.magnitude or not ends:
        return False
    dim = parse_unit(q.unit).dim if q.unit else ""
    return (dim in _COND_UNIT_DIMS or dim.startswith("count:")) and _integral(q)


def _cell_kind(labelled: frozenset[int], q: Quantity) -> str | None:
    """The key word of an article table's integer label cell (a bare label of the report: ``); None for other cells."""
    return "" if id(q) in labelled else None


def _integral(q: Quantity) -> bool:
    """Whether the number (each end of a range) is a whole number: a row label's (`| 5 |` of a `负载 (Byte)` column)."""
    ends = q.endpoints()
    return bool(ends) and not q.exempt and not q.magnitude and all(v == int(v) for v, _ in ends)


def _key_kind(text: str, q: Quantity) -> str | None:
    """The key word of a condition number: `x` for a multiple, its unit for a count (`8 档`), else the word right
    before (`batch=4`) or after (`6 encoder`, `38 线`) it."""
    if q.unit and parse_unit(q.unit).dim == "x":
        # a load's multiple names a row (`4 倍数据集`); a ratio (`快 2 倍`, `2x faster`) is a measure
        m = _KEY_AFTER.match(text, q.end)
        return "x" if m and (w := m.group(1).lower()) not in _NOT_KEY_WORDS and w not in _RATIO_WORDS else None
    if q.unit:
        return q.unit.strip().lower()  # what it counts (`8 档`): its unit names its key
    m = _KEY_BEFORE.search(text, max(0, q.num_start - 24), q.num_start)
    if m and (w := m.group(1).lower()) not in _NOT_KEY_WORDS:
        return w
    m = _KEY_AFTER.match(text, q.end)
    if m and (w := m.group(1).lower()) not in _NOT_KEY_WORDS:
        return w
    return None


_NOT_KEY_WORDS = frozenset(["and", "to", "or", "of", "the", "at", "vs", "from", "in", "on", "for", "with", "by", "a",
                            "的", "时", "下", "中", "之", "后", "前", "以", "为", "和", "与", "及", "或", "等", "到", "至",
                            "约", "从", "在", "是", "个", "多", "余", "左", "右", "内", "上"])  # fmt: skip


_RATIO_WORDS = frozenset(["faster", "slower", "more", "less", "higher", "lower", "as", "than", "that", "times", "over",
                          "speedup", "speed-up", "improvement", "increase", "reduction", "better", "worse", "larger",
                          "smaller", "fewer", "greater", "提", "快", "慢", "高", "低", "多", "少", "增", "降", "减", "左",
                          "速", "加", "性", "差", "大", "小"])  # fmt: skip


def _kind_fits(kind: str, word: str) -> bool:
    """Whether a label's word next to a number is the condition's key word (`enc-layers` of `encoder`)."""
    word = word.lower()
    if word == kind:
        return True
    parts = [p for p in re.split(r"[-_]", word) if len(p) >= 3]
    return len(kind) >= 3 and any(kind.startswith(p) or p.startswith(kind) for p in parts)


def _keys_of_kind(x: Fig, kind: str) -> frozenset[str]:
    """The numbers figure `x`'s row gives key word `kind`: in its short labels (not its caption or heading) and, for a
    figure of prose, in its report sentence."""
    labs = [lab for lab in x.f.labels if len(lab) <= KEY_LABEL_MAX and lab in own_labels(x)]
    if not x.table and x.f.kind in ("prose", "kv") and x.f.quote:
        labs.append(_up_to_own_clause(x))
    out: set[str] = set()
    for lab in labs:
        if not kind:  # a bare label: a chart's category (`5`)
            if lab.strip().isdigit():
                out.add(lab.strip())
            continue
        if kind == "x":
            out.update(m.group(1) for m in _MULT_IN_LABEL.finditer(lab))
            continue
        for m in _LABEL_INT.finditer(lab):
            if not key_in_label(m.group(1), lab):
                continue
            before = _KEY_BEFORE.search(lab, max(0, m.start() - 24), m.start())
            after = _KEY_AFTER.match(lab, m.end())
            if any(w is not None and _kind_fits(kind, w.group(1)) for w in (before, after)):
                out.add(m.group(1))
    return frozenset(out)
