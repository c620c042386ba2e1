"""The offline drafter: picks the figures that answer each question and states them from sentence templates."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import yaml
from jinja2 import Environment, StrictUndefined

from evidence.models import Figure
from pipeline.brief import Brief
from pipeline.drafting.prompts import PROMPTS
from pipeline.drafting.schema import DraftSchema, FAQItem, Section, Sentence
from qc.index import EvidenceIndex

CAPTION = re.compile(r"^\s*(?:表|图|Table|Tab\.|Figure|Fig\.)\s*[A-Z]?\d")
HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*|附录\s*[A-Z]|Appendix\s+[A-Z])\s+\S")
APPENDIX = re.compile(r"^\s*(?:附录|Appendix)\b", re.IGNORECASE)
ENVIRONMENT = re.compile(r"测试环境|环境配置|test (?:environment|setup)|testbed", re.IGNORECASE)
BASELINE = re.compile(r"基线|baseline|默认|default|NFS|重算|无外存|本地|before|原始|vanilla|w/o", re.IGNORECASE)
UNIT_IN_LABEL = re.compile(r"\s*[((][^()()]*[))]\s*$|\s*/\s*[A-Za-z%]+\s*$")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?[KkMB万亿]?")
QUALIFIER = re.compile(r"(约|≈|~|≥|≤|>|<|about|up to)\s*$", re.IGNORECASE)
CJK = re.compile(r"[\u3400-\u9fff]")
WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]+")
RATIO_UNITS = frozenset({"x", "倍", "×"})
MIN_SHARE = 0.05  # a group must score this share of its question's best match to be included
KEYSEP = "\x1f"
KEEP = ("\x02", "\x03")  # brackets around report labels inside generated text (removed before output)
ON_REQUEST_ROWS = 2  # least disclosure: an on-request report contributes one table and at most two rows of it


# --- templates ----------------------------------------------------------------------------------------------------------


@cache
def _templates(lang: str) -> dict[str, Any]:
    data = yaml.safe_load((PROMPTS / f"offline.{lang}.yaml").read_text(encoding="utf-8"))
    glossary = data.pop("glossary", {}) or {}
    stop = frozenset(str(data.pop("stopwords", "")).split())
    env = Environment(undefined=StrictUndefined, autoescape=False)  # Markdown text out, not HTML
    compiled = {k: env.from_string(v) for k, v in data.items()}
    return {"t": compiled, "glossary": sorted(glossary.items(), key=lambda kv: -len(kv[0])), "stop": stop}


class _Lang:
    """Sentence templates and label translation for one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        data = _templates(lang)
        self._t = data["t"]
        self._glossary = data["glossary"]

    def __call__(self, key: str, **kw: Any) -> str:
        return self._t[key].render(**kw)

    def label(self, text: str) -> str:
        """A report label in the article's language (en: glossary, longest match first)."""
        text = re.sub(r"\s+", " ", text).strip()
        if self.lang == "zh" or not CJK.search(text):
            return text
        for zh, en in self._glossary:
            if zh in text:
                text = text.replace(zh, f" {en} ")
        text = re.sub(r"\s+", " ", text)
        return re.sub(r"\s+([),.;:])", r"\1", re.sub(r"([(])\s+", r"\1", text)).strip()

    def name(self, text: str) -> str:
        """A label for output; zh marks it so typesetting never changes its inside (verbatim terms stay verbatim)."""
        text = self.label(text)
        return f"{KEEP[0]}{text}{KEEP[1]}" if self.lang == "zh" and text else text

    def unit(self, unit: str) -> str:
        if unit in RATIO_UNITS:
            return " 倍" if self.lang == "zh" else "x"
        if unit == "%":
            return "%"
        if self.lang == "en" and CJK.search(unit):
            return " " + self.label(unit)
        return f" {unit}" if unit else ""


# --- reading the evidence as tables, rows, comparisons and facts ---------------------------------------------------------


@dataclass
class Cell:
    fig: Figure
    col: str  # column header ("" if none)


@dataclass
class Row:
    keys: list[str]  # what identifies the row: row labels, key cells
    cells: list[Cell]


@dataclass
class Comparison:
    """Baseline → improved for one metric, with the printed change if the table has one."""

    metric: str
    row: str
    before: Figure
    after: Figure
    change: Figure | None = None
    ratio: bool = False  # without a printed change: state a speedup (×) rather than a percentage


@dataclass
class Group:
    """What one table (or one block of `label: value` lines) says: comparisons and plain facts."""

    report: str
    order: tuple[int, int]
    caption: str
    section: str
    text: str  # everything the group is about, for matching questions
    comparisons: list[Comparison] = field(default_factory=list)
    facts: list[Figure] = field(default_factory=list)
    score: float = 0.0


def _strip_unit(label: str) -> str:
    return UNIT_IN_LABEL.sub("", label).strip()


def _common(a: str, b: str) -> str:
    """Longest common substring of two headers (e.g. `基线 TTFT` / `FX100 TTFT` → `TTFT`)."""
    best = ""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] in b:
                best = a[i:j]
            else:
                break
    best = best.strip(" -_/·")
    if not CJK.search(best) and best and not re.fullmatch(r"[A-Za-z0-9 ._/-]*[A-Za-z][A-Za-z0-9 ._/-]*", best):
        return ""
    if len(best) < 2 or (not CJK.search(best) and not re.search(rf"(?:^|\s){re.escape(best)}(?:$|\s)", a)):
        return ""
    return best


def _is_key(cell: Cell, keys: list[str]) -> bool:
    raw = cell.fig.raw.strip()
    return not cell.fig.unit and any(raw in k.split() for k in keys)


def _tables(index: EvidenceIndex, rid: str) -> list[Group]:
    """Group a report's table cells into tables and rows, and its `label: value` lines into blocks."""
    figs = index.figures.get(rid, [])
    tables: dict[tuple[int, str], list[Figure]] = defaultdict(list)
    kv_blocks: dict[tuple[int, str], list[Figure]] = defaultdict(list)
    for f in figs:
        caption = next((lbl for lbl in f.labels if CAPTION.match(lbl)), "")
        section = next((lbl for lbl in f.labels if HEADING.match(lbl) and not CAPTION.match(lbl)), "")
        if APPENDIX.match(section) or APPENDIX.match(caption) or ENVIRONMENT.search(caption + " " + section):
            continue
        if f.kind == "cell" and caption:
            tables[(f.page, caption)].append(f)
        elif f.kind == "kv":
            kv_blocks[(f.page, section)].append(f)
        # prose figures are never used: report prose is not a source of sentences (nor of instructions)
    position = {f.id: i for i, f in enumerate(figs)}
    groups = [_table_group(rid, key, cells, position[cells[0].id]) for key, cells in tables.items()]
    # A `加速比: 18.3 倍` line restates a table's change; the comparison already says it, with its operands.
    changes = [(_change_value(c), c) for g in groups for c in g.comparisons]
    for (page, section), facts in kv_blocks.items():
        facts = [f for f in facts if not any(_restates(f, v, c) for v, c in changes)]
        if not facts:
            continue
        labels = [_kv_label(f) for f in facts]
        groups.append(Group(rid, (page, position[facts[0].id]), "", section, " ".join([section, *labels]), facts=facts))
    return [g for g in groups if g.comparisons or g.facts]


def _change_value(c: Comparison) -> tuple[float, str]:
    if c.change is not None:
        return c.change.value, "x" if c.change.unit in RATIO_UNITS else c.change.unit
    b, a = c.before.value, c.after.value
    if a <= 0 or b <= 0:
        return 0.0, ""
    return max(a, b) / min(a, b), "x"


def _restates(f: Figure, change: tuple[float, str], c: Comparison) -> bool:
    """Does a `label: value` line state this comparison's change (same value at the printed precision)?"""
    value, unit = change
    unit_f = "x" if f.unit in RATIO_UNITS else f.unit
    if unit_f != unit or c.before.report != f.report:
        return False
    digits = _num(f).split(".")[1] if "." in _num(f) else ""
    return abs(f.value - value) <= 0.5 * 10 ** -len(digits) + 1e-9


def _kv_label(f: Figure) -> str:
    own = [lbl for lbl in f.labels if not HEADING.match(lbl) and not CAPTION.match(lbl)]
    if own:
        return own[0]
    return f.quote.split(":")[0].split(":")[0].strip() if f.quote else ""


def _table_group(rid: str, key: tuple[int, str], figs: list[Figure], position: int) -> Group:
    page, caption = key
    section = next((lbl for lbl in figs[0].labels if HEADING.match(lbl) and not CAPTION.match(lbl)), "")
    # Rows are the printed lines (quotes); a label shared by several rows is a column header.
    by_row: dict[str, list[Figure]] = defaultdict(list)
    for f in figs:
        by_row[f.quote or f"{f.page}:{f.id}"].append(f)
    label_rows: dict[str, set[str]] = defaultdict(set)
    for q, fs in by_row.items():
        for f in fs:
            for lbl in f.labels:
                label_rows[lbl].add(q)
    structural = {caption, section}
    rows: list[Row] = []
    for fs in by_row.values():
        own = [[lbl for lbl in f.labels if lbl not in structural] for f in fs]
        if len(fs) > 1:  # within a row, the row's labels repeat on its cells and each column header is on one
            shared = list(dict.fromkeys(lbl for o in own for lbl in o if sum(lbl in x for x in own) > 1))
        else:  # a one-cell row: a label found on other rows too is the column header
            shared = [lbl for lbl in own[0] if len(label_rows[lbl]) == 1 or len(by_row) == 1]
        cells = []
        for f, o in zip(fs, own, strict=True):
            cols = [lbl for lbl in o if lbl not in shared]
            cells.append(Cell(f, cols[-1] if cols else ""))
        longest = max(own, key=len)  # a value cell lists the row's labels in their printed order
        keys = sorted(shared, key=lambda lbl: longest.index(lbl) if lbl in longest else len(longest))
        cells = [c for c in cells if not _is_key(c, keys)]
        rows.append(Row(keys, cells))
    group = Group(rid, (page, position), caption, section, "")
    group.comparisons, group.facts = _compare(rows)
    words = {caption, section, *(k for r in rows for k in r.keys), *(c.col for r in rows for c in r.cells)}
    group.text = " ".join(sorted(w for w in words if w))
    return group


def _row_name(row: Row) -> str:
    return KEYSEP.join(k for k in row.keys if k)  # joined per language when written


def _compare(rows: list[Row]) -> tuple[list[Comparison], list[Figure]]:
    """Baseline/improved pairs within a row (columns), else across rows (a baseline row), else facts."""
    comps, facts = _pairs(rows)
    # One table speaks one way: speedups (×) only when every computed change of it is large, else percentages.
    computed = [c for c in comps if c.change is None]
    ratio = bool(computed) and all(_factor(c) >= (1.5 if c.after.value < c.before.value else 2.0) for c in computed)
    for c in computed:
        c.ratio = ratio
    return comps, facts


def _factor(c: Comparison) -> float:
    b, a = c.before.value, c.after.value
    return b / a if a < b else a / b


def _pairs(rows: list[Row]) -> tuple[list[Comparison], list[Figure]]:
    comps: list[Comparison] = []
    facts: list[Figure] = []
    for row in rows:
        base = [c for c in row.cells if c.col and BASELINE.search(c.col) and c.fig.unit not in RATIO_UNITS]
        if not base:
            continue
        b = base[0]
        others = [c for c in row.cells if c is not b and c.fig.unit == b.fig.unit and c.col != b.col]
        if not others:
            continue
        a = others[0]
        change = next(
            (
                c.fig
                for c in row.cells
                if c not in (a, b) and (c.fig.unit == "%" or c.fig.unit in RATIO_UNITS) and c.fig.unit != b.fig.unit
            ),
            None,
        )
        metric = _common(_strip_unit(b.col), _strip_unit(a.col))
        name = _row_name(row)
        if not metric:  # headers are `基线 | FX100`: the row names the metric
            metric, name = _strip_unit(name.replace(KEYSEP, " ")), ""
        if b.fig.value == a.fig.value or b.fig.value <= 0 or a.fig.value <= 0:  # nothing to compare by ratio
            facts.append(a.fig)
            continue
        comps.append(Comparison(metric, name, b.fig, a.fig, change))
    if comps or facts:
        return comps, facts
    base_rows = [r for r in rows if BASELINE.search(_row_name(r))]
    if base_rows:
        b_row = base_rows[0]
        for row in rows:
            if row is b_row:
                continue
            for cell in row.cells:
                ref = next((c for c in b_row.cells if c.col == cell.col and c.fig.unit == cell.fig.unit), None)
                if ref is None or ref.fig.value in (cell.fig.value, 0) or cell.fig.value <= 0 or not cell.col:
                    continue
                comps.append(
                    Comparison(_strip_unit(cell.col), f"{_row_name(row)}\0{_row_name(b_row)}", ref.fig, cell.fig)
                )
        if comps:
            return comps, facts
    return [], [c.fig for r in rows for c in r.cells]


# --- matching questions --------------------------------------------------------------------------------------------------


def _terms(text: str, lang: str) -> list[str]:
    """Words to match questions with: Chinese bigrams, Latin words (en: stop words dropped, crudely stemmed)."""
    out: list[str] = []
    for w in WORD.findall(text.lower()):
        if CJK.match(w):
            out.extend(w[i : i + 2] for i in range(max(1, len(w) - 1)))
        elif w in _templates(lang)["stop"]:
            continue
        else:
            if lang == "en" and len(w) > 5 and w.endswith("ing"):
                w = w[:-3]
            elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
                w = w[:-1]
            out.append(w)
    return out


def _assign(groups: list[Group], questions: list[str], words: _Lang) -> list[list[Group]]:
    """Each group goes to the question it answers best (BM25-like overlap with idf; ties go to the earlier one)."""
    lang = words.lang
    docs = [set(_terms(words.label(g.text), lang)) for g in groups]
    n = len(docs) or 1
    df: dict[str, int] = defaultdict(int)
    for d in docs:
        for t in d:
            df[t] += 1
    qterms = [set(_terms(q, lang)) for q in questions]
    out: list[list[Group]] = [[] for _ in questions]
    scored: list[tuple[int, float, Group]] = []
    for g, d in zip(groups, docs, strict=True):
        scores = [sum(math.log(1 + n / df[t]) for t in q & d) for q in qterms]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i)) if scores else 0
        if scores and scores[best] > 0:
            g.score = scores[best]
            scored.append((best, scores[best], g))
    for qi in range(len(questions)):
        mine = [(s, g) for i, s, g in scored if i == qi]
        if not mine:
            continue
        top = max(s for s, _ in mine)
        out[qi] = [g for s, g in mine if s >= top * MIN_SHARE]
    return out


# --- writing ------------------------------------------------------------------------------------------------------------


@dataclass
class Headline:
    """A one-clause summary of a group (a range over its rows, one comparison, or its facts)."""

    text: str
    kind: str  # "series", "comparison" or "facts"
    score: float
    question: int
    reports: list[str]


def _num(fig: Figure) -> str:
    m = NUMBER.search(fig.raw)
    return m.group(0) if m else f"{fig.value:g}"


def _show(fig: Figure, w: _Lang) -> str:
    """A figure as printed (digits and magnitude suffix copied), with its unit and any qualifier (约, ≥)."""
    m = NUMBER.search(fig.raw)
    qual = QUALIFIER.search(fig.raw[: m.start()]) if m else None
    prefix = ""
    if qual:
        q = qual.group(1)
        en = {"约": "about ", "≈": "about "}.get(q, q + " ")
        prefix = en if w.lang == "en" else (q if q == "约" else q + " ")
    return f"{prefix}{_num(fig)}{w.unit(fig.unit)}"


def _change(c: Comparison, w: _Lang) -> tuple[str, str, float]:
    """(template key, formatted change, value) — the printed change cell, else computed from the pair."""
    b, a = c.before.value, c.after.value
    down = a < b
    if c.change is not None:
        ratio = c.change.unit in RATIO_UNITS
        value = c.change.value
        text = f"{_num(c.change).lstrip('+')}{w.unit(c.change.unit)}"
    else:
        ratio = c.ratio
        value = _factor(c) if ratio else abs(a - b) / b * 100
        text = f"{value:.1f}{w.unit('x' if ratio else '%')}"
    key = ("change_ratio_" if ratio else "change_pct_") + ("down" if down else "up")
    return key, text, value


def _row_text(c: Comparison, w: _Lang) -> str:
    def name(row: str) -> str:
        return w("list_joiner").join(w.name(k) for k in row.split(KEYSEP) if k)

    if "\0" in c.row:
        after_row, before_row = c.row.split("\0")
        return w("pair_row", after_row=name(after_row), before_row=name(before_row))
    return name(c.row)


def _comparison_text(c: Comparison, w: _Lang, *, with_row: bool = True, metric: str = "") -> str:
    before, after = _show(c.before, w), _show(c.after, w)
    key, change, _ = _change(c, w)
    core = w(
        "decrease" if c.after.value < c.before.value else "increase",
        metric=w.name(metric or c.metric),
        before=before,
        after=after,
    )
    text = w("with_change", text=core.strip(), change=w(key, change=change))
    row = _row_text(c, w) if with_row else ""
    return (w("row_prefix", row=row) if row else "") + text


def _metric_name(metric: str, g: Group) -> str:
    """The metric with its context from the caption: `TTFT` → `长上下文冷恢复 TTFT`, `保存时间` → `训练 Checkpoint
    保存时间` (caption `训练 Checkpoint 保存`)."""
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


def _series(g: Group, w: _Lang) -> str:
    """`TTFT 降低 26.0–32.0%` over a table's rows of one metric and one kind of change; "" if mixed."""
    comps = g.comparisons
    if len(comps) < 2 or len({c.metric for c in comps}) != 1:
        return ""
    changes = [_change(c, w) for c in comps]
    if len({k for k, _, _ in changes}) != 1:
        return ""
    key = changes[0][0]
    lo = min(changes, key=lambda x: x[2])
    hi = max(changes, key=lambda x: x[2])
    unit = "%" if "pct" in key else w.unit("x")
    lo_n, hi_n = lo[1].removesuffix(unit), hi[1].removesuffix(unit)
    rng = lo[1] if lo_n == hi_n else f"{lo_n}–{hi_n}{unit}"
    template = "series_ratio" if "ratio" in key else ("series_down" if key.endswith("down") else "series_up")
    return w(template, metric=w.name(_metric_name(comps[0].metric, g)), range=rng)


def _caption_for(g: Group, w: _Lang) -> str:
    caption = _caption(g)
    if w.lang == "en":  # `(8 卡 32B LoRA)` cannot be quoted verbatim in English: leave the detail to the report
        caption = re.sub(r"\s*[((][^()()]*\d[^()()]*[))]", "", caption)
    return w.name(caption)


def _caption(g: Group) -> str:
    caption = re.sub(r"^\s*(?:表|Table|Tab\.)\s*[A-Z]?[\d.-]*\s*[::.]?\s*", "", g.caption).strip()
    return caption or re.sub(r"^\s*[\d.]+\s*", "", g.section).strip()


def _facts_text(facts: list[Figure], w: _Lang) -> str:
    parts = []
    for f in facts:
        label = _kv_label(f)
        parts.append(w("fact", label=w.name(_strip_unit(label)) if label else "", value=_show(f, w)).strip())
    return w("list_joiner").join(parts)


def _item(g: Group, w: _Lang) -> tuple[str, Headline]:
    """(list item text, headline) for one group."""
    headline = _series(g, w)
    one_row = len(g.comparisons) > 1 and len({c.row for c in g.comparisons}) == 1 and bool(g.comparisons[0].row)
    rows = [_comparison_text(c, w, with_row=not one_row) for c in g.comparisons]
    if one_row:  # `并行读补丁相对默认读路径:读带宽…;TTFT…` names the pair once
        rows[0] = w("row_prefix", row=_row_text(g.comparisons[0], w)) + rows[0]
    if g.facts:
        rows.append(_facts_text(g.facts, w))
    body = w("joiner").join(rows)
    if headline:
        return w("table_item", headline=headline, rows=body), Headline(headline, "series", g.score, 0, [g.report])
    if g.comparisons:
        first = g.comparisons[0]
        lead = _comparison_text(first, w, with_row=len(g.comparisons) > 1, metric=_metric_name(first.metric, g))
        caption = _caption_for(g, w)
        return (
            w("caption_item", caption=caption, rows=body) if caption else body,
            Headline(lead, "comparison", g.score, 0, [g.report]),
        )
    facts = _facts_text(g.facts, w)
    return facts, Headline(facts, "facts", g.score, 0, [g.report])


def _spaced(text: str, lang: str) -> str:
    """zh: a space between Chinese and Latin letters or digits, as technical Chinese is typeset — except inside
    report labels, which keep their printed form."""
    chars: list[tuple[str, int]] = []  # (char, label number or 0)
    label, n = 0, 0
    for ch in text:
        if ch == KEEP[0]:
            n += 1
            label = n
        elif ch == KEEP[1]:
            label = 0
        else:
            chars.append((ch, label))
    if lang != "zh":
        return "".join(c for c, _ in chars)
    out = []
    for i, (ch, lab) in enumerate(chars):
        if i and not (lab and lab == chars[i - 1][1]):
            prev = chars[i - 1][0]
            if (CJK.match(prev) and re.match(r"[A-Za-z0-9]", ch)) or (
                re.match(r"[A-Za-z0-9%]", prev) and CJK.match(ch)
            ):
                out.append(" ")
        out.append(ch)
    return "".join(out)


def _s(text: str, reports: list[str], lang: str) -> Sentence:
    text = _spaced(text, lang)
    if lang == "en" and text[:1].islower():
        text = text[0].upper() + text[1:]
    return Sentence(text=text, reports=reports)


def write_offline(brief: Brief, index: EvidenceIndex) -> DraftSchema:
    """The whole article from templates: every number a figure as printed or a change computed from one row."""
    w = _Lang(brief.lang)
    groups = [g for rid in brief.evidence for g in _tables(index, rid)]
    per_q = _limit(_assign(groups, brief.questions, w), index, brief, w)

    sections: list[Section] = []
    headlines: list[Headline] = []
    for qi, (q, gs) in enumerate(zip(brief.questions, per_q, strict=True)):
        best = {r: max(g.score for g in gs if g.report == r) for r in {g.report for g in gs}}
        gs = sorted(
            gs, key=lambda g: (_confidential(g, index), -best[g.report], brief.evidence.index(g.report), g.order)
        )
        comp_groups = [g for g in gs if g.comparisons]
        fact_groups = [g for g in gs if not g.comparisons]
        intro: list[Sentence] = []
        items: list[Sentence] = []
        if fact_groups:
            facts = _facts_text([f for g in fact_groups for f in g.facts], w)
            reports = _ids(fact_groups)
            intro.append(_s(w("facts", lead=w("facts_lead"), facts=facts), reports, w.lang))
            headlines.append(Headline(facts, "facts", max(g.score for g in fact_groups), qi, reports))
        if comp_groups:
            made = [(*_item(g, w), g) for g in comp_groups]
            lead = sorted((h for _, h, _ in made), key=lambda h: (h.kind != "series", -h.score))[:2]
            lead.sort(key=lambda h: [m[1] for m in made].index(h))
            intro.append(
                _s(
                    w("intro_lead", headlines=w("list_joiner").join(h.text for h in lead)),
                    list(dict.fromkeys(r for h in lead for r in h.reports)),
                    w.lang,
                )
            )
            topics = w("list_joiner").join(_caption_for(g, w) for g in comp_groups)
            intro.append(_s(w("intro_list", topics=topics), _ids(comp_groups), w.lang))
            items = [_s(text, [g.report], w.lang) for text, _, g in made]
            for _, h, _ in made:
                h.question = qi
                headlines.append(h)
        if not intro:
            intro.append(_s(w("intro_none"), [], w.lang))
        sections.append(Section(question=q, intro=intro, items=items, outro=[]))
    return DraftSchema(answer=_answer(brief, headlines, w), sections=sections, faq=_faq(brief, headlines, w))


def _ids(groups: list[Group]) -> list[str]:
    return list(dict.fromkeys(g.report for g in groups))


def _limit(per_q: list[list[Group]], index: EvidenceIndex, brief: Brief, w: _Lang) -> list[list[Group]]:
    """On-request reports disclose the least: one comparison table each, at most two rows of it.

    The table kept is the one that best covers what the public reports leave open in its question.
    """
    qterms = [set(_terms(q, w.lang)) for q in brief.questions]
    chosen: dict[str, tuple[tuple[int, float], Group]] = {}
    for qi, gs in enumerate(per_q):
        covered: set[str] = set()
        for g in gs:
            if not _confidential(g, index):
                covered.update(_terms(w.label(g.text), w.lang))
        for g in gs:
            if not _confidential(g, index) or not g.comparisons:
                continue
            key = (len((qterms[qi] - covered) & set(_terms(w.label(g.text), w.lang))), g.score)
            if g.report not in chosen or key > chosen[g.report][0]:
                chosen[g.report] = (key, g)
    keep = {id(g) for _, g in chosen.values()}
    out: list[list[Group]] = []
    for gs in per_q:
        mine: list[Group] = []
        for g in gs:
            if not _confidential(g, index):
                mine.append(g)
            elif id(g) in keep:
                g.comparisons, g.facts = g.comparisons[:ON_REQUEST_ROWS], []
                mine.append(g)
        out.append(mine)
    return out


def _confidential(g: Group, index: EvidenceIndex) -> bool:
    report = index.reports.get(g.report)
    return report is not None and report.access == "on-request"


def _answer(brief: Brief, headlines: list[Headline], w: _Lang) -> list[Sentence]:
    """The direct answer, in the brief's order: the setting (facts), the main result (the first question with
    ranges: its two strongest), one more result from each further question, then a pointer to the sections."""
    out: list[Sentence] = []
    facts = next((h for h in headlines if h.kind == "facts"), None)
    if facts is not None:
        out.append(_s(w("facts", lead=w("facts_lead"), facts=facts.text), facts.reports, w.lang))
    results = [h for h in headlines if h.kind != "facts"]
    if not results:
        return out or [_s(w("intro_none"), [], w.lang)]
    main_q = next((h.question for h in results if h.kind == "series"), results[0].question)
    main = sorted((h for h in results if h.question == main_q), key=lambda h: (h.kind != "series", -h.score))[:2]
    main.sort(key=headlines.index)
    out.append(_s(w("answer_lead", headlines=w("list_joiner").join(h.text for h in main)), _reports(main), w.lang))
    more = []
    for qi in sorted({h.question for h in results} - {main_q}):
        mine = sorted((h for h in results if h.question == qi), key=lambda h: (h.kind != "series", -h.score))
        more.append(mine[0])
    if more:
        out.append(_s(w("answer_more", headlines=w("list_joiner").join(h.text for h in more)), _reports(more), w.lang))
    out.append(_s(w("answer_close"), [], w.lang))
    return out


def _reports(hs: list[Headline]) -> list[str]:
    return list(dict.fromkeys(r for h in hs for r in h.reports))


def _faq(brief: Brief, headlines: list[Headline], w: _Lang) -> list[FAQItem]:
    """Key-point Q&A: each question with its two strongest headlines, then further topics, up to faq_count."""
    out: list[FAQItem] = []
    used: set[int] = set()
    for qi, q in enumerate(brief.questions):
        mine = [h for h in headlines if h.question == qi]
        mine = sorted(mine, key=lambda h: (h.kind != "series", -h.score))[:2]
        if mine and len(out) < brief.faq_count:
            mine.sort(key=lambda h: headlines.index(h))
            text = w("joiner").join(h.text for h in mine)
            out.append(FAQItem(q=q, a=_s(text, list(dict.fromkeys(r for h in mine for r in h.reports)), w.lang)))
            used.update(id(h) for h in mine)
    for h in sorted(headlines, key=lambda h: -h.score):
        if len(out) >= brief.faq_count:
            break
        if id(h) not in used:
            used.add(id(h))
            topic = _s(w("faq_extra", topic=h.text.split(w("joiner"))[0]), [], w.lang).text
            out.append(FAQItem(q=topic, a=_s(h.text, h.reports, w.lang)))
    return out
