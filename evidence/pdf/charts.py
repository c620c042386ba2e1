"""Bar and column charts drawn as text: data labels become figures (category × series), axis ticks none."""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from evidence.pdf.numbers import PAREN, find_numbers, printed_unit
from evidence.pdf.text import normalize

_BARE = re.compile(r"[-+]?\d+(?:\.\d+)?%?")


@dataclass(frozen=True)
class Item:
    """A word of the page as drawn: runs joined while they touch."""

    x0: float
    x1: float
    y: float
    size: float
    text: str

    @property
    def mid(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def number(self) -> bool:
        return bool(_BARE.fullmatch(self.text))


@dataclass
class ChartLabel:
    """One data label of a chart: its number, the unit of the chart, and what it is of (category, series)."""

    value: float
    unit: str
    raw: str
    labels: list[str]
    quote: str
    placed: bool  # False: a label that falls in no series of the legend (a cell of no known column)


@dataclass
class Chart:
    """What a page's chart gives: its data labels, and the texts of its ticks and labels (no figures elsewhere)."""

    figures: list[ChartLabel]
    consumed: list[str]  # the raw numbers of ticks and data labels, for the prose pass to skip
    items: list[tuple[float, float, float]]  # (x0, x1, y) of the ticks and data labels, for the table pass to skip


def _items(runs: list[tuple[float, float, float, float, str]]) -> list[Item]:
    rows: dict[float, list[tuple[float, float, float, float, str]]] = {}
    for run in runs:
        if run[4].strip():
            rows.setdefault(round(run[2] * 2) / 2, []).append(run)
    out: list[Item] = []
    for y, row in rows.items():
        row.sort()
        x0, x1, size, text = row[0][0], row[0][1], row[0][3], normalize(row[0][4]).strip()
        for run in row[1:]:
            nxt = normalize(run[4]).strip()
            glued = run[0] - x1 < 0.25 * max(size, 1.0)
            # Two data labels that touch (`24.8` `25.3`) stay two: their join would be no number.
            two_numbers = _BARE.fullmatch(text) and _BARE.fullmatch(nxt) and not _BARE.fullmatch(text + nxt)
            if glued and not two_numbers:
                text, x1 = text + normalize(run[4]).rstrip(), run[1]
                continue
            out.append(Item(x0, x1, y, size, text.strip()))
            x0, x1, size, text = run[0], run[1], run[3], nxt
        out.append(Item(x0, x1, y, size, text.strip()))
    return [it for it in out if it.text]


def _value(text: str) -> float:
    return float(text.rstrip("%"))


def _axis(items: list[Item]) -> list[Item] | None:
    """The value axis: four or more bare numbers right-aligned one above the other, rising in even steps."""
    numbers = sorted((it for it in items if it.number and not it.text.endswith("%")), key=lambda it: it.x1)
    columns: list[list[Item]] = []
    for it in numbers:  # right-aligned: their right edges agree within a fraction of the type size
        if columns and it.x1 - columns[-1][0].x1 < 0.2 * it.size:
            columns[-1].append(it)
        else:
            columns.append([it])
    best: list[Item] | None = None
    for group in columns:
        ticks = sorted(group, key=lambda it: it.y)
        ticks = [t for k, t in enumerate(ticks) if k == 0 or t.y - ticks[k - 1].y > 0.5 * t.size]
        if len(ticks) < 4:
            continue
        values = [_value(t.text) for t in ticks]
        steps = {round(b - a, 6) for a, b in itertools.pairwise(values)}
        gaps = [b.y - a.y for a, b in itertools.pairwise(ticks)]
        even = len(steps) == 1 and next(iter(steps)) > 0 and max(gaps) - min(gaps) < 0.05 * max(gaps)
        if even and (best is None or len(ticks) > len(best)):
            best = ticks
    return best


def chart_figures(runs: list[tuple[float, float, float, float, str]], plain: str) -> Chart | None:
    """The data labels of a column chart on the page (value axis at the left, categories under the plot), or None."""
    if sum(1 for run in runs if run[4].strip().isdigit()) < 4:
        return None  # no value axis without four ticks (cheap: most pages have no chart)
    items = _items(runs)
    axis = _axis(items)
    if axis is None:
        return None
    x_axis = max(t.x1 for t in axis)
    lo, hi = axis[0].y, axis[-1].y
    tick_ids = {id(t) for t in axis}
    data = [
        it
        for it in items
        if it.number and id(it) not in tick_ids and it.x0 > x_axis and lo - 0.5 * it.size <= it.y <= hi + it.size
    ]
    below = sorted({it.y for it in items if it.y < lo - 0.3 * it.size and it.x0 > x_axis - 1}, reverse=True)
    if len(data) < 2 or not below:
        return None
    cats = sorted((it for it in items if it.y == below[0] and it.x0 > x_axis - 1), key=lambda it: it.x0)
    if len(cats) < 2:
        return None
    taken = {id(it) for it in [*axis, *data, *cats]}
    legend = _legend(items, taken, lo, hi, below[0])
    groups: dict[int, list[Item]] = {}
    for it in data:
        groups.setdefault(min(range(len(cats)), key=lambda c: abs(cats[c].mid - it.mid)), []).append(it)
    series = _series(groups, cats, len(legend))
    # (what the category axis prints under the categories, `PAYLOAD(BYTE)`, is the categories' unit)
    above = [it.text for it in items if id(it) not in taken and not it.number and it.y > hi]
    unit = _unit(above, [t for t in plain.splitlines() if t.strip() not in {it.text for it in items if it.y < lo}])
    title = next((it.text for it in sorted(items, key=lambda it: -it.y) if it.y > hi and PAREN.search(it.text)), "")
    out: list[ChartLabel] = []
    for c, members in groups.items():
        for it in members:
            s = series.get(id(it))
            name = legend[s].text if s is not None else ""
            labels = [x for x in (title, cats[c].text, name) if x]
            for num in find_numbers(it.text):
                quote = f"{cats[c].text} {name}".strip()
                placed = s is not None or len(legend) < 2
                out.append(ChartLabel(num.value, num.unit or unit, num.raw, labels, quote, placed))
    # Category names (`MATH 500`, `4KB`) are labels, not figures: their numbers are consumed too.
    names = [n.raw for it in cats for n in find_numbers(it.text, bytes_ok=True)]
    drawn = [*axis, *data]
    return Chart(out, [*(t.text.rstrip("%") for t in drawn), *names], [(t.x0, t.x1, t.y) for t in [*drawn, *cats]])


def _legend(items: list[Item], taken: set[int], lo: float, hi: float, cat_y: float) -> list[Item]:
    """The series names: the line of two or more words above the plot or under the categories with most of them."""
    best: list[Item] = []
    for y in sorted({it.y for it in items if id(it) not in taken and (it.y > hi + it.size or it.y < cat_y)}):
        row = sorted((it for it in items if it.y == y and id(it) not in taken), key=lambda it: it.x0)
        if len(row) < 2 or any(it.number or re.fullmatch(r"[(（].*[)）]", it.text) for it in row):
            continue
        if len(row) > len(best):
            best = row
    return best


def _series(groups: dict[int, list[Item]], cats: list[Item], n: int) -> dict[int, int]:
    """Each data label's series: the bars of a category stand at the same offsets from its label, in legend order."""
    if n < 2:
        return {}
    offsets = sorted((it.mid - cats[c].mid, id(it)) for c, members in groups.items() for it in members)
    spacing = [
        b.mid - a.mid
        for members in groups.values()
        for a, b in itertools.pairwise(sorted(members, key=lambda i: i.mid))
    ]
    if not spacing:
        return {}
    tol = 0.3 * statistics.median(spacing)
    clusters: list[list[tuple[float, int]]] = [[offsets[0]]]
    for off in offsets[1:]:
        if off[0] - clusters[-1][-1][0] > tol:
            clusters.append([])
        clusters[-1].append(off)
    if len(clusters) < n:
        return {}
    keep = sorted(sorted(range(len(clusters)), key=lambda k: -len(clusters[k]))[:n])
    return {ident: s for s, k in enumerate(keep) for _off, ident in clusters[k]}


def _unit(titles: list[str], plain: list[str]) -> str:
    """The chart's unit: a bracketed unit in its title or axis title (`最大压力性能测试（QPS）`, `Accuracy (%)`), or a
    unit word of the title (`ping-pong QPS测试`)."""
    for text in [*titles, *plain]:
        for inner in reversed(PAREN.findall(text)):
            u = printed_unit(inner)
            if u:
                return u
    for text in titles:
        for word in re.findall(r"[A-Za-z][A-Za-z/]*", text):
            u = printed_unit(word)
            if u and len(word) > 1:
                return u
    return ""
