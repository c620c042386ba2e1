"""The offline drafter: each question answered with the few figures that answer it, in the reference's shape.

Shape (as the reference article): a direct answer with two to four key figures; per question the brief's note (the
mechanism in plain words), one sentence answering it, then one list item per scenario — a single comparison,
baseline → new with the change, in at most six numbers — or a Markdown table when a comparison runs over more than
four rows; key-point Q&A of at most three sentences. Every number is a figure as printed or a change computed from
one row, rounded as a reader reads it (`26–32%`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from evidence.models import Figure
from pipeline.brief import Brief
from pipeline.drafting.lang import KEEP, RATIO_UNITS, Lang, gist, restates, sentence, terms
from pipeline.drafting.schema import DraftSchema, FAQItem, Section, Sentence, Table
from pipeline.drafting.select import Pick, Versus, asks_of, better, confidential, figure_kinds, headlines, select
from pipeline.drafting.tables import (
    CAPTION_NUMBER,
    KEYSEP,
    NUMBER,
    QUALIFIER,
    Comparison,
    Group,
    Row,
    _factor,
    _kv_label,
    _strip_unit,
    printed_number,
)
from qc.draft import citations
from qc.index import EvidenceIndex
from qc.units import parse_unit

LIST_ROWS = 4  # a comparison over more rows than this becomes a table
TABLE_ROWS = 8  # rows a table shows at most
TABLE_COLUMNS = 2  # value columns a table shows at most (the asked-for quantity, and the next one)
SECTION_TABLES = 1  # tables a section shows: the one holding its answer (a reader's table, not every row of the report)
SECTION_ITEMS = 6  # list items a section shows at most (the reference gives two to four scenarios)
ITEM_COLUMNS = 2  # values a list item of a table without a baseline states
PERIODS = 2  # periods a row of a forecast table states
ITEMS_PER_GROUP = 2  # list items a group of at most LIST_ROWS rows gives (its range's two ends)
VERSUS_ITEMS = 3  # list items a side-by-side gives after its lead: two metrics at the first and the last condition
FAQ_SENTENCES = 3  # sentences in a key-point answer
MAX_FIGURES = 4  # numbers in a direct answer
ITEM_NUMBERS = 6  # numbers in a list item
FACTS = 3  # `label: value` facts in one sentence
DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
YEAR = re.compile(r"(?<![\d.,])(?:19|20)\d{2}(?=\s*(?:年|\(|\uff08))")
MARKER = re.compile(r"【[^】]*】|\[\s*source\s*:[^\]]*\]")
PERCENTILE = re.compile(r"(?<![A-Za-z0-9])[pP]\d{2,3}(?:\.\d+)?(?![\d.])")
RANGE = re.compile(r"(\d[\d,.]*)\s*[–~]\s*\d[\d,.]*")
SENTENCE_END = re.compile(r"(?<=[。!?!?])|(?<=[.!?])\s+(?=[A-Z0-9])")


def numbers_in(text: str) -> int:
    """How many numbers a reader sees in `text` (citation markers, typesetting brackets and the years that name a
    period, `2024 年(预测)`, left out)."""
    plain = MARKER.sub("", text.replace(KEEP[0], "").replace(KEEP[1], ""))
    return len(DIGITS.findall(YEAR.sub("", plain)))


# --- numbers as readers read them ----------------------------------------------------------------------------------


def _show(fig: Figure, w: Lang) -> str:
    """A figure as printed (digits and magnitude suffix copied), with its unit and any qualifier (约, ≥)."""
    m = NUMBER.search(fig.raw)
    qual = QUALIFIER.search(fig.raw[: m.start()]) if m else None
    prefix = ""
    if qual:
        q = qual.group(1)
        en = {"约": "about ", "≈": "about "}.get(q, q + " ")
        prefix = en if w.lang == "en" else (q if q == "约" else q + " ")
    sign = "-" if fig.value < 0 else ""  # `-269` (NUMBER reads the digits only)
    number, unit = printed_number(fig), w.unit(fig.unit)
    if unit == f" {fig.unit}" and f"{number}{fig.unit}" in fig.quote and f"{number} {fig.unit}" not in fig.quote:
        unit = fig.unit  # as the report sets it: `2.40GHz`
    return f"{prefix}{sign}{number}{unit}"


def _round(value: float, ratio: bool) -> str:
    """A computed change at the precision a reader needs: `26%`, `4.5%`, `1.9 倍` (one decimal for ×)."""
    if ratio or abs(value) < 10:
        text = f"{value:.1f}"
        return text[:-2] if text.endswith(".0") and not ratio else text
    return f"{value:.0f}"


def _change(c: Comparison, w: Lang) -> tuple[str, str, float]:
    """(template key, formatted change, value): the printed change cell, else computed from the pair."""
    b, a = c.before.value, c.after.value
    down = a < b
    if c.change is not None and _agrees(c):
        ratio = c.change.unit in RATIO_UNITS
        value = c.change.value
        text = f"{printed_number(c.change).lstrip('+')}{w.unit(c.change.unit)}"
    else:  # computed (also when a printed ratio does not follow from the printed pair: then as a ratio)
        ratio = c.ratio or (c.change is not None and c.change.unit in RATIO_UNITS)
        value = _factor(c) if ratio else abs(a - b) / b * 100
        text = f"{_round(value, ratio)}{w.unit('x' if ratio else '%')}"
    key = ("change_ratio_" if ratio else "change_pct_") + ("down" if down else "up")
    return key, text, value


def _agrees(c: Comparison) -> bool:
    """Does the printed change follow from the printed pair at its printed precision? (`2.78 倍` beside 1388 → 498
    ms, which is 2.79×, was computed from unrounded times: the pair as printed gives the reader its own change.)"""
    assert c.change is not None
    b, a = c.before.value, c.after.value
    if c.change.unit in RATIO_UNITS:
        value = _factor(c)
    elif c.change.unit == "%":
        value = abs(a - b) / b * 100
    else:
        return True
    text = printed_number(c.change)
    digits = len(text.split(".")[1]) if "." in text else 0
    return abs(abs(c.change.value) - value) <= 0.5 * 10**-digits + 1e-9


def _range(changes: list[tuple[str, str, float]], w: Lang) -> str:
    """`26–32%` over changes of one kind: the ends at the precision the sentence needs."""
    key = changes[0][0]
    unit = "%" if "pct" in key else w.unit("x")
    lo = min(changes, key=lambda x: x[2])[1].removesuffix(unit)
    hi = max(changes, key=lambda x: x[2])[1].removesuffix(unit)
    if lo.endswith(".0") and hi.endswith(".0"):  # printed `26.0%` and `32.0%`: a reader reads `26–32%`
        lo, hi = lo[:-2], hi[:-2]
    return f"{lo}{unit}" if lo == hi else f"{lo}–{hi}{unit}"


# --- what a group says ----------------------------------------------------------------------------------------------


def _names(row: str, w: Lang) -> str:
    return w("list_joiner").join(w.name(k) for k in row.split(KEYSEP) if k)


def _row_text(c: Comparison, w: Lang) -> str:
    if "\0" in c.row:
        after_row, before_row = c.row.split("\0")
        return w("pair_row", after_row=_names(after_row, w), before_row=_names(before_row, w))
    return _names(c.row, w)


def _comparison(c: Comparison, w: Lang, *, metric: str = "", with_change: bool = True) -> str:
    kind = _kind(c.after)
    core = w(
        "decrease" if c.after.value < c.before.value else "increase",
        metric=w.name(metric or c.metric) or (w(f"kind_{kind}") if kind else ""),
        before=_show(c.before, w),
        after=_show(c.after, w),
    ).strip()
    if with_change and not c.apart:
        key, change, _ = _change(c, w)
        core = w("with_change", text=core, change=w(key, change=change))
    row = _row_text(c, w)
    return (w("row_prefix", row=row) if row else "") + core


def _after_key(c: Comparison) -> str:
    """The row a comparison across columns was made of (`Throughput` of `Throughput · v2.0 vs v1.2`)."""
    return c.row.split("\0")[0].split(KEYSEP)[0]


_TABLE_NUMBER = re.compile(r"\s*(?:表|Table|Tab\.)\s*[A-Z]?\d", re.IGNORECASE)


def _caption(g: Group) -> str:
    caption = re.sub(
        r"^\s*(?:(?:\d+|[一二三四五六七八九十]+)\s*、|\d+(?:\.\d+)*\.?(?=\s))\s*", "", CAPTION_NUMBER.sub("", g.caption)
    ).strip()
    return caption or re.sub(r"^\s*(?:[\d.]+|[一二三四五六七八九十]+(?=\s*、))\s*、?\s*", "", g.section).strip()


def _topic(g: Group, w: Lang) -> str:
    """The group's caption for a sentence; numbered details (`(8 卡 32B LoRA)`) are left to the report in English."""
    caption = _caption(g)
    if w.lang == "en":
        caption = re.sub(r"\s*[((][^()()]*\d[^()()]*[))]", "", caption)
    return w.name(caption) if caption else ""


def _metric_name(metric: str, g: Group) -> str:
    """The metric with its context from the caption: `TTFT` → `长上下文冷恢复 TTFT`."""
    topic = re.sub(r"\s*[((][^()()]*[))]\s*$", "", _caption(g)).strip()
    if not metric or not topic:
        return metric
    i = topic.find(metric)
    if i >= 0:
        return topic[: i + len(metric)].strip()
    for k in range(min(len(topic), len(metric)) - 1, 1, -1):  # caption ends where the metric begins
        if topic.endswith(metric[:k]):
            return topic + metric[k:]
    return metric


def _series(g: Group, w: Lang) -> str:
    """`TTFT 降低 26–32%` over a table's rows of one metric and one kind of change; "" if mixed."""
    comps = g.comparisons
    if len(comps) < 2 or len({c.metric for c in comps}) != 1 or not comps[0].metric or any(c.apart for c in comps):
        return ""  # a range over several metrics, or over none named, says nothing a reader can place
    changes = [_change(c, w) for c in comps]
    if len({k for k, _, _ in changes}) != 1:
        return ""
    key = changes[0][0]
    template = "series_ratio" if "ratio" in key else ("series_down" if key.endswith("down") else "series_up")
    return w(template, metric=w.name(_metric_name(comps[0].metric, g)), range=_range(changes, w))


def _ends(g: Group, w: Lang, focus: list[int] | None = None) -> list[Comparison]:
    """The comparisons a list shows of a short table: those of the rows the brief names (`TTFT p50`: p50 at each
    concurrency, as the reference lists them, the range's ends left to the headline), else the two ends of its range
    (or its first two)."""
    comps = g.comparisons
    if len(comps) <= ITEMS_PER_GROUP:
        return list(comps)
    named = {KEYSEP.join(g.rows[i].keys) for i in focus or [] if i < len(g.rows)}
    if named and (mine := [c for c in comps if c.row in named]):
        return mine[:ITEMS_PER_GROUP]
    if _series(g, w):
        values = [_change(c, w)[2] for c in comps]
        lo, hi = values.index(min(values)), values.index(max(values))
        return [comps[i] for i in sorted({lo, hi})]
    return list(comps[:ITEMS_PER_GROUP])


def _scenarios(comps: list[Comparison], w: Lang) -> dict[str, list[str]]:
    """One list item per scenario: the comparisons of one row over several metrics (R1's read path: TTFT and read
    bandwidth, `并行读补丁相对默认读路径`) in one item, its row named once, while the item holds ITEM_NUMBERS numbers.
    Each item with the comparisons it joins, each said alone (for when QC cannot back one, or a summary has room
    for one only)."""
    out: list[tuple[str, str, list[str]]] = []  # (the scenario's row, its item, its comparisons said alone)
    for c in comps:
        alone = _comparison(c, w)
        if out and out[-1][0] == c.row:
            row, item, parts = out[-1]
            more = w("scenario_more", text=item, more=_comparison(replace(c, row=""), w))
            if numbers_in(more) <= ITEM_NUMBERS:
                out[-1] = (row, more, [*parts, alone])
                continue
        out.append((c.row, alone, [alone]))
    return {item: parts for _, item, parts in out}


def _facts(facts: list[Figure], w: Lang) -> str:
    parts = []
    for f in facts[:FACTS]:
        label = _kv_label(f)
        parts.append(w("fact", label=w.name(_strip_unit(label)) if label else "", value=_show(f, w)).strip())
    return w("list_joiner").join(parts)


def _versus(v: Versus, w: Lang) -> str:
    """`Read: HBase max 1669 ms, against Cassandra max 8387 ms, lower for HBase`: the figures first, then which one is
    better by their kind of quantity (none said when the kind tells neither, or they tie)."""
    facts = [w("fact", label=_col_name(label, f, w), value=_show(f, w)).strip() for _, label, f in v.figures]
    text = w("versus", first=facts[0], others=w("list_joiner").join(facts[1:]))
    text = (w("row_prefix", row=_names(v.row, w)) if v.row else "") + text
    system, how = better(v)
    return w(f"versus_{how}", text=text, system=w.name(system)) if system else text


def _unnamed(text: str, names: set[str]) -> str:
    """`text` without the names a reader reads as names, not figures: the systems' (`vLLM 0.6.3`), percentiles'."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return PERCENTILE.sub(" ", text) if names else text


def _extreme(p: Pick, w: Lang, want: str) -> tuple[str, Row | None]:
    """`value size 1MB、batch 4 时 MiB/s 最高,为 1399.08 MiB/s` for a table without a baseline ("" if none)."""
    if not p.columns:
        return "", None  # no column states what the values are (a table the parser could not head)
    col = p.columns[0]
    rows = [(r, f) for r in _rows(p) if (f := r.cell(col)) is not None]
    if p.kinds and any(figure_kinds(f) & p.kinds for _, f in rows):  # not `Min xfer` (KB) among the kB/sec rows
        rows = [(r, f) for r, f in rows if figure_kinds(f) & p.kinds]
    if not rows:
        return "", None
    if p.rows and not want and len(rows) > 1:  # the rows the question names, stated; no extreme over them
        named = [(r, f) for r, f in rows[:ITEMS_PER_GROUP] if r.keys]
        if named:
            facts = [
                w("row_prefix", row=_names(KEYSEP.join(r.keys), w))
                + w("fact", label=_col_name(col, f, w), value=_show(f, w)).strip()
                for r, f in named
            ]
            return w("joiner").join(dict.fromkeys(facts)), named[-1][0]  # a table printed twice: said once
    if p.rows and not want:
        rows = rows[:1]
    if not want and len(rows) > 1:  # no extreme asked for: the span over the rows, without their keys
        lo, hi = min(rows, key=lambda rf: rf[1].value)[1], max(rows, key=lambda rf: rf[1].value)[1]
        if lo.value != hi.value and lo.unit == hi.unit and lo.value >= 0:
            span = f"{_show(lo, w).removesuffix(w.unit(lo.unit))}–{_show(hi, w)}"
            return w("span", metric=_col_name(col, lo, w), range=span).strip(), None
    if len(rows) == 1:
        # One row: "highest at" would compare it with nothing; the value is stated as a fact.
        row, fig = rows[0]
        keys = _names(KEYSEP.join(row.keys), w)
        fact = w("fact", label=_col_name(col, fig, w), value=_show(fig, w)).strip()
        return ((w("row_prefix", row=keys) if keys else "") + fact), row
    kind = _kind(rows[0][1])
    lowest = want == "min" or (not want and kind in ("time", "latency"))
    row, fig = (min if lowest else max)(rows, key=lambda rf: rf[1].value)
    keys = _names(KEYSEP.join(row.keys), w)
    if want and p.among > 1 and (topic := _topic(p.group, w)):  # the extreme over several tables names its table
        keys = w("list_joiner").join(k for k in (topic, keys) if k)
    template = "extreme_min" if lowest else "extreme_max"
    return w(template, row=keys, metric=_col_name(col, fig, w), value=_show(fig, w)).strip(), row


SAME = 1e-3  # two readings within this share of each other are one measurement (`Children see` and `Parent sees`)


def _same(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= SAME * max(abs(x), abs(y)) for x, y in zip(a, b, strict=True))


def _rows(p: Pick) -> list[Row]:
    """The rows to state; a row repeating an earlier one's measurement under another name (iozone's `Min`, `Max` and
    `Avg throughput per process` beside `Children see throughput`, all of one `1 initial writers`) is left out."""
    rows = [p.group.rows[i] for i in p.rows] if p.rows else list(p.group.rows)
    cols = p.columns[:TABLE_COLUMNS]
    words = [set(terms(" ".join(r.keys), "en")) for r in rows]
    common = set.intersection(*words) if words else set()
    out: list[tuple[list[float], set[str], Row]] = []
    for r, own in zip(rows, words, strict=True):
        vals = [f.value for c in cols if (f := r.cell(c)) is not None]
        if vals and any(len(v) == len(vals) and (k & own) - common and _same(v, vals) for v, k, _ in out):
            continue
        out.append((vals, own, r))
    return [r for _, _, r in out]


def _col_name(col: str, fig: Figure, w: Lang) -> str:
    """A column header as a metric name; a header that is only a unit (`MiB/s`) is named by its kind (带宽)."""
    name = _strip_unit(_unit_token_off(col, fig))
    if not name or name.lower() in (fig.unit.lower(), fig.unit.split("/")[0].lower()):
        kind = _kind(fig)
        return w(f"kind_{kind}") if kind else w.name(col)
    return w.name(name)


def _unit_token_off(col: str, fig: Figure) -> str:
    """A header's last word when it is the cell's unit (`顺序读带宽 MB/s`, `写 p99 μs`): the value says it."""
    head, _, last = col.strip().rpartition(" ")
    unit, cell = parse_unit(last), parse_unit(fig.unit)
    same = bool(fig.unit) and unit.dim == cell.dim and unit.factor == cell.factor and bool(unit.dim)
    return head if head and same else col


def _first(g: Group, col: str) -> Figure:
    return next(c.fig for r in g.rows for c in r.cells if c.col == col)


def _kind(f: Figure) -> str:
    from pipeline.drafting.select import figure_kind

    return figure_kind(f.unit)


def _row_cells(row: Row, cols: list[str], w: Lang) -> str:
    parts = [
        w("fact", label=_col_name(col, f, w), value=_show(f, w)).strip()
        for col in cols
        if (f := row.cell(col)) is not None
    ]
    return w("list_joiner").join(parts)


Said = tuple[tuple[str, ...], frozenset[str]]  # a sentence's numbers and words (`lang.gist`)

# --- what QC could not back -----------------------------------------------------------------------------------------

# (a sentence as QC read it, the number in it QC could not back), from a previous round of this draft's own QC.
Avoid = frozenset[tuple[str, str]]
_PLAIN = re.compile(r"【[^】]*】|\[\s*source\s*:[^\]]*\]|[\s|*`" + KEEP[0] + KEEP[1] + r"]+")


def _plain(text: str) -> str:
    return _PLAIN.sub("", text)


FRONT = "\x1f"  # marks what QC could not back in the front matter (the direct answer, a key-point answer)


def avoided(field: str, sentence: str) -> str:
    """How a sentence QC could not back is remembered for the next round: as QC read it, marked as the front
    matter's (see `front`) unless it is the body's."""
    text = _plain(sentence)
    return text if field == "body" else front(text)


def front(sentence: str) -> str:
    """An avoided sentence of the front matter: it leaves a headline out of the summaries, not out of its section
    (`此外,剩余额度为 0.00–192,000.00 万元` failed in the answer; its section states it under its own heading)."""
    return FRONT + sentence


def backed(text: str, avoid: Avoid, *, summary: bool = False) -> bool:
    """False if `text` holds a number QC could not back in an earlier round: the drafter then leaves it out
    (`summary`: text for the direct or a key-point answer, which the front matter's findings also rule)."""
    if not avoid or not text:
        return True
    mine = _plain(text).lower()  # (a sentence capitalises its first word: `avg is highest` → `Avg is highest`)
    for said, number in avoid:
        if said.startswith(FRONT):
            if not summary:
                continue
            said = said[len(FRONT) :]
        said = said.lower()
        num = _plain(number).lower()
        if said and (said in mine or (mine in said and num in mine)):
            return False
    return True


# --- a section ------------------------------------------------------------------------------------------------------


PERIOD = re.compile(r"^\s*(?:FY\s*)?(?:19|20)\d{2}\s*[AEFHQ]?\d?\s*$", re.IGNORECASE)


class _Part:
    """What one picked group gives a section: its headline, list items and table."""

    def __init__(
        self,
        p: Pick,
        w: Lang,
        want: str,
        *,
        force_table: bool = False,
        avoid: Avoid = frozenset(),
        taken: frozenset[str] = frozenset(),
    ) -> None:
        self.force_table = force_table
        self.taken = taken  # rows of this table another question names: its answer, not this one's support
        self.value: float | None = None  # the extreme a fact table's headline states (to rank tables by)
        self.pick = p
        self.headline = ""
        self.items: list[str] = []
        self.parts: dict[str, list[str]] = {}  # an item joining a scenario's comparisons: each of them alone
        self.table: Table | None = None
        g, rid = p.group, p.group.report
        names: set[str] = set()  # the systems a side-by-side names (`vLLM 0.6.3`): their numbers are no figures
        if g.specs:
            self._specs(g, w, avoid)
        elif g.comparisons:
            self._comparisons(g, w, want)
        elif p.versus:  # the systems the question compares: each one's figure, side by side, then the better one
            said = [_versus(v, w) for v in p.versus]
            self.headline, self.items = said[0], said[1 : VERSUS_ITEMS + 1]
            names = {name for v in p.versus for name, _, _ in v.figures}
        elif g.rows:
            self._fact_table(p, w, want)
        elif g.facts:
            self.headline = _facts(p.facts or g.facts, w)
            if p.facts:  # the block's other results beside the one asked (as a table's other comparisons are)
                rest = [f for f in g.facts if f not in p.facts and _kv_label(f) not in taken][:ITEMS_PER_GROUP]
                self.items = [_facts([f], w) for f in rest]

        def fits(item: str) -> bool:
            return numbers_in(_unnamed(item, names)) <= ITEM_NUMBERS and backed(item, avoid)

        # (a scenario's item QC could not back wholly: the comparisons of it QC backs, one item each)
        self.items = [
            t for i in self.items for t in ([i] if fits(i) else [t for t in self.parts.get(i, []) if fits(t)])
        ]
        if not backed(self.headline, avoid):
            self.headline = ""
        if self.table is not None:
            self.table.rows = [r for r in self.table.rows if backed(" ".join(r), avoid)]
            head = " ".join(self.table.columns)
            if not self.table.rows or not backed(self.table.lead.text, avoid) or not backed(head, avoid):
                self.table = None
        self.reports = [rid]

    def _specs(self, g: Group, w: Lang, avoid: Avoid) -> None:
        """The test bed: as many spec items as a sentence holds lead, the rest one list item each (a spec QC could
        not back is left out alone, not with the sentence it shared)."""
        said = [w("fact", label=w.name(s.label), value=w.name(s.value)).strip() for s in g.specs]
        said = [t for t in said if backed(t, avoid)]
        lead: list[str] = []
        for text in said:
            if len(lead) < FACTS and numbers_in(w("list_joiner").join([*lead, text])) <= MAX_FIGURES:
                lead.append(text)
        self.headline = w("list_joiner").join(lead) if lead else ""
        self.items = [t for t in said if t not in lead]

    def _comparisons(self, g: Group, w: Lang, want: str = "") -> None:
        others: list[Comparison] = []
        if self.pick.rows:  # the rows the question names (`GoogleNet`), not the table's first
            names = {KEYSEP.join(g.rows[i].keys) for i in self.pick.rows}
            names |= {_strip_unit(n) for n in names}
            named = [c for c in g.comparisons if c.row in names or c.metric in names or _after_key(c) in names]
            if named:
                others = [
                    c for c in g.comparisons if c not in named and not {c.row, c.metric, _after_key(c)} & self.taken
                ]
                g = Group(g.report, g.order, g.caption, g.section, g.text, comparisons=named, rows=g.rows)
        # Metrics down the rows (`平均响应时间 | p99 | TPS` of a version comparison): the kind asked leads.
        asked = [c for c in g.comparisons if figure_kinds(c.after) & self.pick.kinds]
        if asked and len(asked) < len(g.comparisons):
            rest = [c for c in g.comparisons if c not in asked]
            g = Group(g.report, g.order, g.caption, g.section, g.text, comparisons=asked + rest, rows=g.rows)
        series = _series(g, w)
        first = g.comparisons[0]
        lead = bool(want and not series and len(g.comparisons) > 1)
        if lead:  # `最大性能提升`: the comparison with the largest (smallest) change leads, with its change
            first = (max if want == "max" else min)(g.comparisons, key=lambda c: _change(c, w)[2])
        one = len(g.comparisons) == 1 and not self.force_table  # one comparison: one sentence, with its change
        metric = _metric_name(first.metric, g)
        self.headline = series or _comparison(first, w, metric=metric, with_change=one or lead)
        if lead:
            self.headline = w(f"largest_{want}", text=self.headline)
        if one:  # as an item too, for when the lead has no room for it (a told sentence is never repeated)
            # The same comparison over the table's other metrics supports it (`v2.0 vs v1.2`: TTFT beside throughput).
            self.items = [self.headline, *(_comparison(c, w) for c in others[:ITEMS_PER_GROUP])]
            return
        if len(g.comparisons) > LIST_ROWS or self.force_table:
            self.table = self._comparison_table(g, w)
        else:
            ends = _ends(g, w, None if self.pick.rows else self.pick.focus)
            self.parts = _scenarios([c for c in ends if not (lead and c is first)], w)
            self.items = list(self.parts)

    def _period_table(self, p: Pick, periods: list[str], w: Lang) -> None:
        # The periods the question names (`2025 and 2026`, the ends of `2022E 至 2024E`), else the first and the
        # last: a change over time.
        asked = [c for c in periods if re.sub(r"\D", "", c)[:4] in p.question]
        periods = asked[:PERIODS] if asked else [periods[0], periods[-1]]
        rows = [r for r in _period_rows(p) if r.keys and any(r.cell(c) for c in periods)]
        if rows:
            self.headline = _period_row(rows[0], periods, w)
            self.items = [_period_row(r, periods, w) for r in rows[1 : ITEMS_PER_GROUP + 1]]

    def _comparison_table(self, g: Group, w: Lang) -> Table:
        comps = g.comparisons[:TABLE_ROWS]
        changed = not all(c.apart for c in comps)  # (two runs' tables: no change column, no one table backs it)
        head = [w("col_row"), w("col_metric"), w("col_before"), w("col_after"), *[w("col_change")] * changed]
        rows = []
        for c in comps:
            change = [_change(c, w)[1] if not c.apart else "—"] * changed
            rows.append([_row_text(c, w) or "—", w.name(c.metric), _show(c.before, w), _show(c.after, w), *change])
        return Table(lead=_lead(g, head, w), columns=head, rows=rows)

    def _fact_table(self, p: Pick, w: Lang, want: str) -> None:
        g = p.group
        periods = [c for c in dict.fromkeys(c.col for r in g.rows for c in r.cells) if PERIOD.match(c)]
        if len(periods) >= 2:  # metrics down, years across (a forecast table): each row is a series over time
            self._period_table(p, periods, w)
            return
        cols = p.columns[:TABLE_COLUMNS] or []
        self.headline, best = _extreme(p, w, want)
        cell = best.cell(cols[0]) if best is not None and cols else None
        self.value = cell.value if cell is not None else None
        rows = [r for r in _rows(p) if any(r.cell(c) for c in cols)]
        if p.kinds and any(figure_kinds(f) & p.kinds for r in rows for c in cols if (f := r.cell(c))):
            rows = [r for r in rows if any(figure_kinds(f) & p.kinds for c in cols if (f := r.cell(c)))]
        if rows and (len(rows) > LIST_ROWS or self.force_table):
            head = [w("col_row"), *(_col_name(c, _first(g, c), w) for c in cols)]
            body = []
            for r in rows[:TABLE_ROWS]:
                cells = [(_show(f, w) if (f := r.cell(c)) is not None else "—") for c in cols]
                body.append([_names(KEYSEP.join(r.keys), w) or "—", *cells])
            self.table = Table(lead=_lead(g, head, w), columns=head, rows=body)
        else:
            said = rows[:ITEMS_PER_GROUP] if p.rows and not want and best is not None else [best]
            if not want and len(rows) == 1 and best is rows[0] and len(cols) > 1:
                # The one row the question asks of, with the cell beside the asked one (TLD beside DSST), an item of
                # its own: QC judges it alone.
                keys = _names(KEYSEP.join(best.keys), w)
                text = _row_cells(best, cols[1:ITEM_COLUMNS], w)
                if text:
                    self.items.append((w("row_prefix", row=keys) if keys else "") + text)
            for r in rows[: ITEMS_PER_GROUP + 1]:
                if any(r is b for b in said):
                    continue  # the headline already states it
                text = _row_cells(r, cols[:ITEM_COLUMNS], w)
                keys = _names(KEYSEP.join(r.keys), w)
                self.items.append((w("row_prefix", row=keys) if keys else "") + text)


def _lead(g: Group, head: list[str], w: Lang) -> Sentence:
    """`The table below breaks down <caption>`; a table without a caption is named by its columns."""
    topic = _topic(g, w)
    text = (
        w("table_lead", topic=topic) if topic else w("table_lead_cols", topic="", cols=w("list_joiner").join(head[1:]))
    )
    return Sentence(text=text, reports=[g.report])


def _period_rows(p: Pick) -> list[Row]:
    return [p.group.rows[i] for i in p.rows] if p.rows else p.group.rows


_PERIOD_KIND = {"A": ("实际", "actual"), "E": ("预测", "est."), "F": ("预测", "forecast")}


def _period(col: str, w: Lang) -> str:
    """`2024A` as a reader (and QC's date reader) reads it: `2024 (actual)`, `2026 年(预测)`."""
    m = re.fullmatch(r"\s*(?:FY\s*)?((?:19|20)\d{2})\s*([AEF])\s*", col, re.IGNORECASE)
    if not m:
        return w.name(col)
    zh, en = _PERIOD_KIND[m.group(2).upper()]
    return f"{m.group(1)} 年({zh})" if w.lang == "zh" else f"{m.group(1)} ({en})"


def _period_row(row: Row, periods: list[str], w: Lang) -> str:
    values = [w("fact", label=_period(col, w), value=_show(f, w)).strip() for col in periods if (f := row.cell(col))]
    return w("period_row", metric=_names(KEYSEP.join(row.keys), w), values=w("list_joiner").join(values))


def _notes(brief: Brief, question: str, qi: int) -> list[Sentence]:
    """The brief's background paragraph for this question, sentence by sentence, citing what its markers name."""
    text = brief.note_for(question, qi)
    # A folded YAML paragraph joins its lines with spaces; Chinese takes none between its own characters.
    wide = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
    text = re.sub(rf"(?<=[{wide},;:])\s+(?=[{wide}])", "", text) if brief.lang == "zh" else text
    text = re.sub(r"\s+", " ", text)
    out = []
    for part in SENTENCE_END.split(text.strip()):
        part = part.strip()
        if not part:
            continue
        ids = [i for _, _, found in citations(part) for i in found]
        part = re.sub(r"\s+(?=[,.;:!?,。;:!?])", "", MARKER.sub("", part)).strip()  # the marker goes to the end
        out.append(Sentence(text=part, reports=list(dict.fromkeys(ids))))
    return out


def _fit(
    headlines: list[tuple[str, list[str]]], limit: int, figures: dict[str, int] | None = None, most: int = 0
) -> list[tuple[str, list[str]]]:
    """As many headlines as keep the numbers at or under `limit` (at least one, the first that fits if any does);
    with `figures` (a headline's key figures, its rows' keys not counted), also the key figures at or under `most`."""
    out: list[tuple[str, list[str]]] = []
    count = keys = 0
    for h in headlines:
        n = numbers_in(h[0])
        k = (figures or {}).get(h[0], n)
        if count + n > limit or (figures is not None and keys + k > most):
            continue
        out.append(h)
        count += n
        keys += k
    return out or headlines[:1]


def _key_figures(text: str, g: Group, w: Lang) -> int:
    """The figures a headline states, the numbers of its table rows' names (`value size 1MB、batch 4`) left out (as
    QC reads them: row keys). A prose comparison's condition (`128K 上下文`) QC reads as a figure: it counts."""
    names = {_names(KEYSEP.join(r.keys), w) for r in g.rows} | {w.name(k) for r in g.rows for k in r.keys}
    if g.rows:
        names |= {_row_text(c, w) for c in g.comparisons}
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    text = PERCENTILE.sub(" ", text)  # `p99` names a figure (QC exempts it), it is none
    return numbers_in(RANGE.sub(r"\1", text))  # a range (`26–32%`) is one figure


def write_offline(brief: Brief, index: EvidenceIndex, avoid: Avoid = frozenset()) -> DraftSchema:
    """The whole article from templates: every number a figure as printed or a change computed from one row.

    `avoid` lists what QC could not back in an earlier round (`article.draft_article`): such text is left out.
    """
    w = Lang(brief.lang)
    asks = asks_of(brief, index)
    picks = select(brief, index)
    sections: list[Section] = []
    per_q: list[list[tuple[str, list[str]]]] = []
    told_q: list[list[tuple[str, list[str]]]] = []  # per question the list items its section tells
    results: list[tuple[str, list[str]]] = []  # headlines of comparisons, in the brief's order
    figures: dict[str, int] = {}  # a headline's key figures (its rows' keys not counted)
    solo: set[str] = set()  # headlines naming their row (an extreme): one sentence each, so QC reads its context
    seen: set[str] = set()
    body: list[Said] = []  # what the body's sentences said (a repeat in other words is left out)
    for qi, (q, mine) in enumerate(zip(brief.questions, picks, strict=True)):
        mine = _named_first(sorted(mine, key=lambda p: (confidential(p.group, index), -p.score, p.group.order)))
        for p in mine:
            p.among = sum(bool(o.group.rows) for o in mine)
        parts = [_Part(p, w, asks[qi].extreme, avoid=avoid, taken=_taken(picks, qi, p)) for p in mine]
        parts.sort(key=lambda pt: not pt.pick.group.comparisons)  # results before the setting they were measured in
        if asks[qi].extreme:  # `the lowest … with OpenBLAS` over four tables: the table holding it leads
            sign = 1 if asks[qi].extreme == "min" else -1
            parts.sort(key=lambda pt: (not pt.pick.group.comparisons, pt.value is None, sign * (pt.value or 0)))
        heads = _fuller([(pt.headline, pt.reports) for pt in parts if pt.headline])
        figures.update((pt.headline, _key_figures(pt.headline, pt.pick.group, w)) for pt in parts if pt.headline)
        per_q.append(heads)
        results.extend((pt.headline, pt.reports) for pt in parts if pt.headline and pt.pick.group.comparisons)
        solo.update(pt.headline for pt in parts if pt.headline and not pt.pick.group.comparisons)
        intro = _notes(brief, q, qi)
        lead = _fit(heads, MAX_FIGURES)
        intro += _say("intro_lead", lead, solo, w)
        tables: list[Table] = []
        for pt in parts:
            if pt.table is not None and len(tables) < SECTION_TABLES:
                table = _typeset(pt.table, w)
                if _fresh_lead(table, pt.pick.group, w, avoid, seen) and _new_rows(table, seen):
                    tables.append(table)
        intro = _unique(intro, seen, body)
        items = _unique([s for pt in parts for s in _fresh_items(pt, w, body)], seen, body)
        if items and lead:  # (only over items not told already: a pointer to no list would dangle)
            told = {i.text for i in items}
            named = dict.fromkeys(
                t
                for pt in parts
                if any(sentence(i, pt.reports, w.lang).text in told for i in pt.items)
                and (t := _topic(pt.pick.group, w))
            )
            topics = w("list_joiner").join(list(named)[:2])
            if topics and backed(lead_text := w("intro_list", topics=topics), avoid):
                intro += _unique([sentence(lead_text, [], w.lang)], seen, body)
        if not items and not tables and not any(numbers_in(s.text) for s in intro) and mine:
            # Said for an earlier question: the rows this question names, one item each, else a table of them.
            asked = [sentence(t, [p.group.report], w.lang) for p in mine for t in _asked(p, w, avoid)]
            items = _unique(asked, seen, body)
        if not items and not tables and not any(numbers_in(s.text) for s in intro) and mine:
            for p in mine:
                fallback = _Part(p, w, asks[qi].extreme, force_table=True, avoid=avoid).table
                if fallback is not None and _told_anew(typeset := _typeset(fallback, w), p.group, w, avoid, seen):
                    tables.append(typeset)
                    break
        if not intro and not items and not tables:  # the reports' headline figures, in a table
            for p in headlines(brief, index):
                headline = _Part(p, w, "", force_table=True, avoid=avoid).table
                if headline is not None and _told_anew(typeset := _typeset(headline, w), p.group, w, avoid, seen):
                    tables.append(typeset)
                    break
        if not intro and not items and not tables:
            none = _unique([sentence(w("intro_none"), [], w.lang)], seen)
            intro = none or _unique([sentence(w("intro_none_again"), [], w.lang)], seen)
        sec = Section(question=q, intro=intro, items=items[:SECTION_ITEMS], tables=tables, outro=[])
        listed = {i.text for i in sec.items}
        # (each with the comparisons a scenario's item joins, for a key-point answer with room for one only)
        scenarios = [
            (s, pt.reports)
            for pt in parts
            for t in pt.items
            if sentence(t, pt.reports, w.lang).text in listed
            for s in dict.fromkeys([t, *pt.parts.get(t, [])])
        ]
        told_q.append(scenarios or _table_rows(heads, tables, w))
        sections.append(sec)
    every = [h for heads in per_q for h in heads]

    # The main results, else any headline, that the direct answer's two to four figures can hold.
    def fit(h: tuple[str, list[str]]) -> bool:
        return numbers_in(h[0]) <= ITEM_NUMBERS and figures.get(h[0], numbers_in(h[0])) <= MAX_FIGURES

    fits = [h for h in results if fit(h)]
    fits += [h for h in every if fit(h) and h not in fits]
    summed = [h for h in _each_first(per_q, fits or results or every, results) if backed(h[0], avoid, summary=True)]
    # (one question's headline held in another's: `Threads 1: … Disruptor`, then `… Disruptor …, against … ABQ …`)
    summed = _fuller(summed)
    answer = _answer(summed, w, seen, solo, figures)
    per_q = [[h for h in heads if backed(h[0], avoid, summary=True)] for heads in per_q]
    told_q = [[t for t in told if backed(t[0], avoid, summary=True)] for told in told_q]
    faq = _faq(brief, per_q, told_q, w, seen, solo)
    return DraftSchema(answer=answer, sections=sections, faq=faq)


def _fresh_items(pt: _Part, w: Lang, body: list[Said]) -> list[Sentence]:
    """A part's list items; of an item joining a scenario's comparisons of which the body said some already
    (`GoogleNet 从 566.70 ms 降至 508.40 ms` as an earlier section's lead), the others alone."""
    out = []
    for item in pt.items[: ITEMS_PER_GROUP + 1]:
        said = [t for t in pt.parts.get(item, []) if any(restates(gist(t), theirs) for theirs in body)]
        for t in [t for t in pt.parts[item] if t not in said] if said else [item]:
            out.append(sentence(t, pt.reports, w.lang))
    return out


def _table_rows(heads: list[tuple[str, list[str]]], tables: list[Table], w: Lang) -> list[tuple[str, list[str]]]:
    """A section's table rows as sentences (`value size 4MB、batch 4,带宽为 1227.74 MiB/s`), those whose values its
    headline does not state: what a key-point answer adds to the headline to sum the section up."""
    said = " ".join(h for h, _ in heads)
    out = []
    for t in tables:
        if w("col_before") in t.columns:  # (a comparison table's row is no sentence)
            continue
        for row in t.rows:
            cells = [(col, c) for col, c in zip(t.columns[1:], row[1:], strict=False) if c != "—"]
            if not cells or any(c in said for _, c in cells):
                continue
            facts = w("list_joiner").join(w("fact", label=col, value=c).strip() for col, c in cells)
            keys = row[0] if row[0] != "—" else ""
            out.append(((w("row_prefix", row=keys) if keys else "") + facts, t.lead.reports))
    return out


def _named_first(mine: list[Pick]) -> list[Pick]:
    """When the best group holds the rows the question names (`batch 16`, `repeated runs`), the groups that name
    none are left out: their rows (a continued table's next page, another test's table) answer no question asked."""
    best = max((p.score for p in mine), default=0.0)
    if not any(p.rows and p.score >= best for p in mine):
        return mine
    return [p for p in mine if p.rows or p.score >= best or (p.facts and not p.group.rows)]


def _taken(picks: list[list[Pick]], qi: int, p: Pick) -> frozenset[str]:
    """The rows of `p`'s table that the other questions name (`首 token 时间` asked by a question of its own)."""
    out: set[str] = set()
    for qj, theirs in enumerate(picks):
        for o in theirs:
            if qj != qi and (o.group.report, o.group.order) == (p.group.report, p.group.order):
                names = {KEYSEP.join(o.group.rows[i].keys) for i in o.rows} | {_kv_label(f) for f in o.facts}
                out |= names | {_strip_unit(n) for n in names}
    return frozenset(out)


_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _fuller(heads: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Drop a headline whose numbers another one states with more (`峰值带宽 1399.08` beside its row's keys)."""

    def nums(text: str) -> set[str]:
        return set(_FIGURE.findall(text))

    out = []
    for i, (h, r) in enumerate(heads):
        mine = nums(h) - _years(h)
        # (or states the same numbers as an earlier one: a report printing one table twice is told once)
        if mine and any(
            j != i and r == ro and (mine < (theirs := nums(o) - _years(o)) or (j < i and mine == theirs))
            for j, (o, ro) in enumerate(heads)
        ):
            continue
        out.append((h, r))
    return out


def _years(text: str) -> set[str]:
    return {m.group(0) for m in YEAR.finditer(text)}


def _say(key: str, heads: list[tuple[str, list[str]]], solo: set[str], w: Lang) -> list[Sentence]:
    """Headlines as sentences: those without a row of their own share one, each extreme gets its own."""
    shared = [h for h in heads if h[0] not in solo]
    out = []
    if shared:
        text = w(key, headlines=w("list_joiner").join(h for h, _ in shared))
        out.append(sentence(text, _merge(r for _, r in shared), w.lang))
    for h, reports in heads:
        if h in solo:
            out.append(sentence(w(key, headlines=h) if not out else h, reports, w.lang))
    return out


def _cite(s: Sentence, w: Lang) -> str:
    """A sentence with its citation marker, for an answer made of several (the last is cited by the schema)."""
    from pipeline.drafting.fileformat import sentence_text

    return sentence_text(s, w.lang)


def _typeset(table: Table, w: Lang) -> Table:
    lead = sentence(table.lead.text, table.lead.reports, w.lang)
    cells = [[sentence(c, [], w.lang).text for c in row] for row in table.rows]
    head = [sentence(c, [], w.lang).text for c in table.columns]
    return Table(lead=lead, columns=head, rows=cells)


def _fresh_lead(table: Table, g: Group, w: Lang, avoid: Avoid, seen: set[str]) -> bool:
    """Give `table` a lead no earlier sentence of the draft says (and mark it said); False when there is none.

    The caption's lead; told for another question, the same caption over another section's table (`Table 5.2` of
    OpenBLAS beside ACL's `Table 4.2`) as printed, its number telling the reader which; else (or no caption) the
    table's columns. A lead QC could not back in an earlier round is left out like any sentence."""
    topic = _topic(g, w)
    caption = g.caption.strip()
    # (a table's own number, `Table 5.2`, which QC reads as a name; never a section's `2. Benchmark …`)
    numbered = w.name(caption) if _TABLE_NUMBER.match(caption) else ""
    reports = table.lead.reports or [g.report]
    cols = w("list_joiner").join(table.columns[1:])
    leads = [table.lead] if topic else []
    if topic and numbered:
        leads.append(sentence(w("table_lead", topic=numbered), reports, w.lang))
    leads.append(sentence(w("table_lead_cols", topic=topic, cols=cols), reports, w.lang))
    fitting = [s for s in leads if backed(s.text, avoid) and _unique([s], set(seen))]
    if not fitting:
        return False
    table.lead = fitting[0]
    _unique(fitting[:1], seen)
    return True


def _told_anew(table: Table, g: Group, w: Lang, avoid: Avoid, seen: set[str]) -> bool:
    """A fallback table goes in when it tells rows not told yet, under a lead not said yet."""
    return _new_rows(table, seen) and _fresh_lead(table, g, w, avoid, seen)


def _unique(sentences: list[Sentence], seen: set[str], body: list[Said] | None = None) -> list[Sentence]:
    """No sentence repeats another (of the whole draft); in the body (`body`: what its sentences said) not even in
    other words (`restates`: the same numbers, the words of one among the other's)."""
    out = []
    for s in sentences:
        key = re.sub(r"[\s。.:;:]+$", "", re.sub(r"\s+", " ", s.text))
        if not key or key in seen:
            continue
        if body is not None:
            mine = gist(s.text)
            if any(restates(mine, theirs) for theirs in body):
                continue
            body.append(mine)
        seen.add(key)
        out.append(s)
    return out


def _asked(p: Pick, w: Lang, avoid: Avoid) -> list[str]:
    """The rows a question names (`concurrency 32`) as list items: their comparison, else their asked columns."""
    if not p.rows:
        return []
    rows = [p.group.rows[i] for i in p.rows]
    names = {KEYSEP.join(r.keys) for r in rows}
    out = [_comparison(c, w) for c in p.group.comparisons if c.row in names]
    if not p.group.comparisons:
        for r in rows:
            keys, text = _names(KEYSEP.join(r.keys), w), _row_cells(r, p.columns[:ITEM_COLUMNS], w)
            if keys and text:
                out.append(w("row_prefix", row=keys) + text)
    return [t for t in out[:ITEMS_PER_GROUP] if numbers_in(t) <= ITEM_NUMBERS and backed(t, avoid)]


def _new_rows(table: Table, seen: set[str]) -> bool:
    """Keep the rows no earlier table printed (a row shown twice is a repeated sentence); False if none is left."""
    rows = []
    for row in table.rows:
        key = "\x1e" + "|".join(row)
        if key not in seen:
            seen.add(key)
            rows.append(row)
    table.rows = rows
    return bool(rows)


def _merge(reports: object) -> list[str]:
    return list(dict.fromkeys(r for rs in reports for r in rs))  # type: ignore[attr-defined]


def _each_first(
    per_q: list[list[tuple[str, list[str]]]], heads: list[tuple[str, list[str]]], results: list[tuple[str, list[str]]]
) -> list[tuple[str, list[str]]]:
    """`heads` with each question's first headline ahead of the others: the direct answer's key figures are the
    brief's questions answered, not one question's table told twice."""
    firsts = [h[0] for h in per_q if h and h[0] in heads]
    firsts.sort(key=lambda h: h not in results)  # a comparison (TTFT 降低 26–32%) before a plain fact (KV 256 KB)
    return [*firsts, *(h for h in heads if h not in firsts)]


def _one(key: str, heads: list[tuple[str, list[str]]], solo: set[str], w: Lang) -> Sentence:
    """Headlines as one sentence: those without a row of their own share a clause, each extreme (and each list
    item) has a clause of its own, so QC reads its row with it."""
    shared = [h for h, _ in heads if h not in solo]
    clauses = [h for h, _ in heads if h in solo]
    if shared:
        clauses.insert(0, w("list_joiner").join(shared))
    return sentence(w(key, headlines=w("joiner").join(clauses)), _merge(r for _, r in heads), w.lang)


def _answer(
    heads: list[tuple[str, list[str]]], w: Lang, seen: set[str], solo: set[str], figures: dict[str, int]
) -> list[Sentence]:
    """The direct answer: the main results with two to four key figures in one sentence, then a pointer to the
    sections (its own sentence, never a section's lead repeated, which the draft's uniqueness would drop)."""
    # Up to four headlines in the numbers a sentence holds: a row's keys (`value size 1MB、batch 4`) are numbers a
    # reader reads, not key figures, so the bound is the sentence's, the key figures are the headlines'.
    first = _fit(heads, ITEM_NUMBERS, figures, MAX_FIGURES)
    out = [_one("answer_lead", first, solo, w)]
    keys = sum(figures.get(h, numbers_in(h)) for h, _ in first)
    rest = [h for h in heads if h not in first]
    if keys < 2 and rest:  # one key figure: the next question's in a sentence of its own (`此外,…`)
        more = _fit(rest, ITEM_NUMBERS, figures, MAX_FIGURES - keys)[:1]
        if sum(figures.get(h, numbers_in(h)) for h, _ in more) + keys <= MAX_FIGURES:
            out.append(_one("answer_more", more, solo, w))
    out.append(sentence(w("answer_close"), [], w.lang))
    return _unique(out, seen)


def _faq(
    brief: Brief,
    per_q: list[list[tuple[str, list[str]]]],
    told_q: list[list[tuple[str, list[str]]]],
    w: Lang,
    seen: set[str],
    solo: set[str],
) -> list[FAQItem]:
    """Key-point Q&A: each question's key figures in one sentence (at most three sentences) — its section's answer
    with the first scenario the section lists, as the reference sums a section up rather than repeating its lead."""
    out: list[FAQItem] = []
    for q, heads, told in zip(brief.questions, per_q, told_q, strict=True):
        if len(out) >= brief.faq_count or not heads:
            continue
        key = _fit(heads, MAX_FIGURES)
        room = ITEM_NUMBERS - sum(numbers_in(h) for h, _ in key)
        # (not beside a range: one row's name in the sentence would be read as the range's condition)
        ranged = any(RANGE.search(h) for h, _ in key)
        extra = [] if ranged else [t for t in told if numbers_in(t[0]) <= room][:1]
        faq = _unique([_one("faq_answer", key + extra, solo | {t for t, _ in extra}, w)], seen)
        if faq:
            out.append(FAQItem(q=q, a=faq[0]))
    return out
