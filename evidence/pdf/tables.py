"""Tables: rows found among lines, columns from the data rows, headers and row labels assigned, cells as figures."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Literal

from evidence.pdf.layout import SENTENCE_END, Line, Seg, is_caption, is_heading, spaced_caption
from evidence.pdf.numbers import (
    BYTE_CONTEXT,
    BYTE_HEADER,
    BYTE_UNITS,
    PARAM_LABEL,
    Number,
    find_numbers,
    header_unit,
    is_code,
    number_cell,
    printed_unit,
    table_unit,
)
from evidence.pdf.text import is_cjk
from evidence.units import COUNT_WORDS, UNITLESS, unit_at

# ---- figures ------------------------------------------------------------------------------------------------------


@dataclass
class PageContext:
    """What the extractor knows while walking a report: the section heading and the last table carry across pages."""

    sha256: str
    report: str
    version: int
    heading: str = ""
    last_table: tuple[str, str, str | None] | None = None  # (header text, caption, unit) of the last captioned table
    stated_unit: str | None = None  # `The data in the below tables are in the unit of second.`
    tail: Table | None = None  # the table that ended the last page, which the next page may continue
    caption: str = ""  # a caption that ended the last page with no table under it: the next page's first table's
    head: tuple[str, float] | None = None  # the last page's top line (text, y): a running head when it recurs


@dataclass
class Raw:
    value: float
    unit: str
    raw: str
    labels: list[str]
    quote: str
    kind: Literal["cell", "kv", "prose", "name"]


def clean_labels(labels: list[str]) -> list[str]:
    out: list[str] = []
    for label in labels:
        label = re.sub(r"\s+", " ", label).strip()
        label = re.sub(r"\s*=$", "", label)  # `Avg throughput per process =`: tool output's separator, no word
        label = re.sub(r"[-=_]{4,}\s*", "", label).strip()  # a console table's rule line (`-----`) above its rows
        if label and label not in out:
            out.append(label)
    return out


@dataclass
class Table:
    lines: list[Line]
    header: list[Line]
    caption: str
    unit: str | None
    carried: list[Line] = field(default_factory=list)  # its whole header where the page before holds (some of) it
    lone: bool = False  # one headerless row at the top of a page: a table only if it continues one


def is_row(line: Line, page_width: float) -> bool:
    segs = line.segs
    if len(segs) < 2 or is_code(line.text):
        return False
    if any(s.x1 - s.x0 > 0.55 * page_width for s in segs):
        return False
    if _CJK_PROSE.search(line.text) and len(line.text) > 40:
        return False  # a justified line of Chinese prose, its gaps widened: `目前 36 线单 GW 切割线耗约 50 万公里,较`
    if all(re.fullmatch(r"(?:19|20)\d{2}[AEFHQ]?", sg.text.strip()) for sg in segs if re.search(r"\d", sg.text)):
        return False  # `指标 2021 2022E 2023E`: a header of years
    if _period_header(segs):
        return False  # `沪深 300 对比 | 1M | 2M | 3M`: a header of periods
    if len(segs) >= 4 and _ticks(segs):
        return False  # `0 500 1000 1500 2000`: a chart's axis under the table, not a row of it
    if any(number_cell(s.text) and re.search(r"\d", s.text) for s in segs[1:]) or (
        number_cell(segs[0].text) and any(number_cell(s.text) for s in segs[1:])
    ):
        return True
    # A `label | value with words` row of a test-environment table: `网络 | 单口 100 GbE`, `存储 | FX100, 4 盘 RAID0`.
    first, second = segs[0].text, segs[-1].text
    return (
        len(segs) == 2
        and len(first) <= 20
        and len(second) <= 60
        and not find_numbers(first)
        and bool(find_numbers(second, bytes_ok=True))
        and not SENTENCE_END.search(line.text)
    )


def _ticks(segs: list[Seg]) -> bool:
    """Evenly spaced bare numbers rising in even steps, one per segment: an axis."""
    values = []
    for sg in segs:
        if not re.fullmatch(r"-?\d+(?:\.\d+)?", sg.text.strip()):
            return False
        values.append(float(sg.text))
    steps = {round(b - a, 6) for a, b in itertools.pairwise(values)}
    return len(steps) == 1 and next(iter(steps)) != 0


def _is_header(line: Line, page_width: float) -> bool:
    if len(line.segs) < 2 or any(s.x1 - s.x0 > 0.5 * page_width for s in line.segs):
        return False
    if is_caption(line.text) or _sentence(line.text.rstrip("。.")):
        return False
    numeric = [s for s in line.segs if number_cell(s.text) and re.search(r"\d", s.text)]
    return all(_PERIOD.fullmatch(s.text.strip()) for s in numeric) or _period_header(line.segs)


def _period_header(segs: list[Seg]) -> bool:
    """Cells after the row-label header that are two or more periods (`1M 2M 3M`), the label free to hold a name."""
    n = 0
    while n < len(segs) - 1 and _PERIOD.fullmatch(segs[len(segs) - 1 - n].text.strip()):
        n += 1
    return n >= 2 and not any(_PERIOD.fullmatch(sg.text.strip()) is None and number_cell(sg.text) for sg in segs[:1])


_CJK_PROSE = re.compile(r"[\u3400-\u9fff][。;]|[\u3400-\u9fff],(?=\s*[\u3400-\u9fff])")
# Column headers that are numbers: years (`2022E`) and a broker's periods (`1M`, `3M`, `12M`, `1Y`).
_PERIOD = re.compile(r"(?:19|20)\d{2}[AEFHQ]?|\d{1,2}[MY]")


_NOT_HEADER = re.compile(r"\s*(?:资料来源|数据来源|来源|Sources?)\s*[:：]|\s*\[[A-Za-z_]+\]\s*$")


def find_tables(lines: list[Line], page_width: float) -> list[Table]:
    """Runs of table rows (lines of several cells, some numeric), with their header lines and caption."""
    tables: list[Table] = []
    i = 0
    used: set[int] = set()
    named: set[int] = set()  # lines read as a header of number-like names
    while i < len(lines):
        if not is_row(lines[i], page_width):
            i += 1
            continue
        rows = [i]
        j = i + 1
        while j < len(lines):
            step = lines[j - 1].y - lines[j].y
            if step > 3.3 * max(lines[j].size, lines[j - 1].size) or step < -0.5 * lines[j].size:
                break  # a gap, or the jump to the top of the next column
            if lines[j].size > 1.4 * lines[i].size:
                break  # a heading in a larger type (`3.1.2 4X A53 CPU performance`), however many numbers it holds
            if is_row(lines[j], page_width):
                rows.append(j)
            elif not _continuation(lines[j]):
                break
            elif (
                len(lines[j].segs) >= 3
                and _is_header(lines[j], page_width)
                and j > i + 1
                and step > 1.8 * max(lines[rows[-1]].size, _pitch(lines, i, j))
            ):
                break  # a header row after a gap starts the next table (two tables under one heading, no caption)
            j += 1
        if len(rows) >= 3 and rows[0] == i and rows[1] == i + 1 and named_columns(lines[i], lines[i + 1 : j]):
            named.add(i)
            rows, i = rows[1:], i + 1  # `指标 | 3.1（基线） | 3.2 | 变化`: the columns' names, not a row
        # Lines after the last row belong to the table only when they sit right under it (a wrapped last cell).
        last = rows[-1]
        j = last + 1
        while (
            j < len(lines)
            and _continuation(lines[j])
            and _within_cells(lines[j], lines[last])
            and lines[last].y - lines[j].y < 1.3 * max(lines[j].size, min(lines[last].size, 2 * lines[j].size))
        ):
            j += 1
        # A wrapped label of the first row may sit just above it (`480P 32*32` over `single face 395 493 0 890`), and
        # so may a row-group label one row pitch above it, in the label column (`1st` over `ACL/NEON 3.2593 …`).
        pitch = lines[i].y - lines[i + 1].y if len(rows) > 1 and rows[1] == i + 1 else 0.0
        while i > 0 and i - 1 not in used and _continuation(lines[i - 1]) and len(lines[i - 1].segs) == 1:
            gap = lines[i - 1].y - lines[i].y
            if _is_header(lines[i - 1], page_width) or gap > max(1.3 * lines[i].size, 1.15 * pitch):
                break
            if _over_values(lines[i - 1], lines[i]):
                break  # a header cell over the values (`FPS`, `(%)`), not a label of the row
            label, first = lines[i - 1].segs[0], lines[i].segs
            if gap > 1.3 * lines[i].size and (
                abs(label.x0 - first[0].x0) > 0.5 * lines[i].size or len(first) < 2 or label.x1 > first[1].x0
            ):
                break
            i -= 1
        data = [lines[k] for k in range(i, j)]
        n_rows = sum(1 for k in range(i, j) if is_row(lines[k], page_width))
        # Header lines: right above the first row, several cells, no measured numbers; a multi-line header is tight.
        # (Word pads bordered cells, so its header lines stand up to twice their size apart.) A header cell wrapped
        # onto a line of its own under the others (`(ms) in 5 seconds`) is taken once a header line stands above it.
        header: list[Line] = []
        pending: list[Line] = []
        k = i - 1
        top = i - 1
        while k >= 0 and k not in used and grid_rows([*pending, *header]) < 4:
            cand = lines[k]
            below = (pending or header or [lines[i]])[0]
            limit = (2.0 if len(cand.segs) > 1 else 1.7) if header or pending else 3.4
            # A padded Word grid stands its header rows as far apart as its data rows (one row pitch and more).
            padded = bool(header) and cand.y - below.y < 1.15 * pitch and _is_header(cand, page_width)
            if cand.y - below.y > limit * max(cand.size, below.size) and not padded:
                break
            if is_caption(cand.text) or is_heading(cand.text) or _sentence(cand.text.rstrip("。.")):
                break
            if _NOT_HEADER.match(cand.text):
                break  # the source note or layout tag of the block above (`资料来源:公司公告`, `[Table_Finance]`)
            if _is_header(cand, page_width) or (header and len(cand.text) < 40) or (k == i - 1 and k in named):
                header[0:0] = [cand, *pending]
                pending = []
                top = k - 1
                k -= 1
                continue
            if len(cand.segs) == 1 and len(header) < 2 and _continuation(cand) and len(cand.text) < 40:
                if not header and not pending and _over_values(cand, lines[i]):
                    header = [cand]  # the one header cell of a table whose label column has none (`FPS`)
                    top = k - 1
                else:
                    pending.insert(0, cand)
                k -= 1
                continue
            break
        k = top
        if n_rows >= 2 or (n_rows >= 1 and (header or i == 0)):
            caption, unit = _caption(lines, k, j, data, header)
            tables.append(Table(data, header, caption, unit, lone=n_rows < 2 and not header))
            used.update(range(k + 1, j))
        i = j
    return tables


_BARE_NAME = re.compile(r"[vV]?\d+(?:\.\d+)+|[vV]?\d+")  # a version or a plain number, no unit, no separator
_REMARK = re.compile(r"\s*[(（]([^()（）]{1,20})[)）]$")


def named_columns(line: Line, below: list[Line]) -> bool:
    """The first line of a run is its header when it names the columns with numbers (`指标 | 3.1（基线） | 3.2 | 变化`,
    `Metric | 2.0 (baseline) | 2.1`): a word over the row labels, bare numbers (no unit, no thousands separator),
    and a word over a column of numbers below (`变化`) or a number set off with a remark (`（基线）`) — cells a row of
    results does not print."""
    first, rest = line.segs[0].text.strip(), line.segs[1:]
    if re.search(r"\d", first) or number_cell(first) or not below:
        return False
    remark = word_over_numbers = False
    for sg in rest:
        t = sg.text.strip()
        m = _REMARK.search(t)
        bare = t[: m.start()] if m else t
        if _BARE_NAME.fullmatch(bare):
            remark = remark or bool(m and re.search(r"[^\W\d_]", m.group(1)))
            continue
        if re.search(r"\d", t) or number_cell(t):
            return False  # a measured number (a unit, a percentage, `3,610`): a row of results
        word_over_numbers = word_over_numbers or all(
            any(min(c.x1, sg.x1) > max(c.x0, sg.x0) and number_cell(c.text) and re.search(r"\d", c.text)
                for c in b.segs[1:])
            for b in below
        )  # fmt: skip
    return remark or word_over_numbers


def _over_values(line: Line, row: Line) -> bool:
    """A one-cell line standing wholly right of the row's label cell, over its values."""
    return len(row.segs) > 1 and line.segs[0].x0 > row.segs[0].x1 and line.segs[0].x0 < row.segs[-1].x1


def _pitch(lines: list[Line], start: int, end: int) -> float:
    """The smallest step between consecutive lines of the table so far (0 with fewer than two)."""
    return min((lines[k - 1].y - lines[k].y for k in range(start + 1, end)), default=0.0)


_FOLIO = re.compile(r"^\s*(?:[-–]\s*)?\d{1,4}(?:\s*/\s*\d{1,4})?(?:\s*[-–])?\s*$|^\s*(?:Page|第)\s*\d+")


def _carry(prev: Table, table: Table) -> None:
    """A headerless table at the top of a page whose cells stand in the columns of the table that ended the page
    before continues it (Word repeats no header unless told to): it takes that table's header, caption and unit."""
    header = prev.carried or prev.header
    if not header:
        return
    old_rows = [ln for ln in prev.lines if len(ln.segs) >= 2]
    new_rows = [ln for ln in table.lines if len(ln.segs) >= 2]
    if not new_rows:
        return
    if old_rows:
        cols = _columns(old_rows)
    else:  # only the header: its cells stand over the values, the row labels left of them
        first = min(sg.x0 for r in new_rows for sg in r.segs)
        cols = [[first, header[-1].segs[0].x0 - 1], *([sg.x0, sg.x1] for sg in header[-1].segs)]
    for row in new_rows:
        if len(row.segs) > len(cols):
            return
        for sg in row.segs:
            if not any(min(b, sg.x1) - max(a, sg.x0) > -0.3 * sg.size for a, b in cols):
                return
    if max(len(r.segs) for r in new_rows) < len(cols) - 1:
        return
    table.carried = header
    table.caption = table.caption or prev.caption
    table.unit = table.unit or prev.unit


def _parted_header(content: list[Line]) -> list[Line]:
    """The header lines that end a page (the last, and the tight header lines over it: `vLLM | TensorRT-LLM` over
    `TTFT | TPOT`), parted from their rows by the page break."""
    out = [content[-1]]
    for ln in reversed(content[:-1]):
        if len(out) == 3 or not _is_header(ln, float("inf")) or ln.y - out[0].y > 2.0 * max(ln.size, out[0].size):
            break
        out.insert(0, ln)
    return out


def _join_parted_header(tail: Table, table: Table) -> None:
    """A table heading a page whose header goes on from the header lines that ended the page before (the page
    break fell inside the header: `TTFT | TPOT` on one page, `p50/ms | p99/ms` over the rows on the next) takes
    those lines as its header's first ones (`carried`), set just above its own so the header reads top to bottom."""
    if tail.lines or not tail.header:
        return
    rows = [ln for ln in table.lines if len(ln.segs) >= 2]
    left = min(sg.x0 for ln in [*rows, *table.header] for sg in ln.segs)
    right = max(sg.x1 for ln in [*rows, *table.header] for sg in ln.segs)
    if any(sg.x0 < left - 2 * sg.size or sg.x1 > right + 2 * sg.size for ln in tail.header for sg in ln.segs):
        return  # not over this table's columns
    top, last = table.header[0], tail.header[-1]
    shift = top.y + 1.2 * max(top.size, last.size) - last.y
    table.carried = [*(Line(ln.y + shift, ln.size, ln.segs) for ln in tail.header), *table.header]


_STATED = re.compile(
    r"\bin (?:the )?units? of ([A-Za-z]+)"
    r"|\bunits? of (?:all )?(?:the )?(?:data|values|numbers|figures|results)\b[^.。]{0,60}?\b(?:is|are) (?:in )?([A-Za-z/]+)"
    r"|(?:以下|下表|下列|本节)[^。]{0,30}?单位(?:为|是|均为)\s*([^\s，。,;；)）]+)"
    # `The time measured is in nanoseconds.`, `All times are in ms`: what the measured values are in, not `in line`.
    r"|\b(?i:times?|durations?|latenc(?:y|ies)|timings?)(?: taken| measured| shown| reported)? (?:is|are) "
    r"(?:measured |given |reported |shown )?in ([A-Za-z]+)\b"
    r"|(?:时间|时延|延迟|耗时)[^。，,]{0,6}?均?以\s*([A-Za-zµμ]+|毫秒|秒|微秒|纳秒)\s*为单位"
)


def stated_unit(text: str) -> str | None:
    """A unit the prose declares for the tables below it: `… are in the unit of second`, `以下数据单位均为毫秒`."""
    m = _STATED.search(text)
    return printed_unit(next(g for g in m.groups() if g)) if m else None


def continue_tables(tables: list[Table], ctx: PageContext, lines: list[Line] | None = None) -> None:
    """A table without a caption under the same header as the last captioned one (on this page or the one before)
    continues it: the header a word processor repeats after a page break. It takes that table's caption and unit.

    A unit the prose declares for the tables below (`lines`, the page in reading order) is the unit of every later
    table that prints none, on this page and the next ones, until another is declared."""
    lines = lines or []
    if tables and lines and ctx.tail is not None and tables[0].lines[0] is lines[0] and not tables[0].header:
        _carry(ctx.tail, tables[0])
    elif tables and lines and ctx.tail is not None and tables[0].header and tables[0].header[0] is lines[0]:
        _join_parted_header(ctx.tail, tables[0])
    tables[:] = [t for t in tables if not t.lone or t.carried]
    content = [ln for ln in lines if not _FOLIO.match(ln.text)]
    if tables and content and ctx.caption and not tables[0].caption:
        first = tables[0].header[0] if tables[0].header else tables[0].lines[0]
        if first is content[0]:
            tables[0].caption = ctx.caption  # (Word keeps a caption above its table, the page break parted them)
    last = spaced_caption(content[-1].text) if content and is_caption(content[-1].text) else ""
    ctx.caption = last if not any(t.caption == last for t in tables) else ""  # (not a caption under its table)
    ctx.tail = tables[-1] if tables and content and tables[-1].lines[-1] is content[-1] else None
    if content and ctx.tail is None and len(content[-1].segs) >= 2 and _is_header(content[-1], float("inf")):
        ctx.tail = Table([], _parted_header(content), "", None)  # a header the page break parted from its rows
    starts = {id(t.header[0] if t.header else t.lines[0]): t for t in tables}
    for k, ln in enumerate(lines):
        if id(ln) in starts:
            table = starts[id(ln)]
            table.unit = table.unit or ctx.stated_unit
        # (with the next line: the sentence may wrap at its unit, `Times are in` / `milliseconds; throughput …`)
        elif unit := stated_unit(ln.text) or (k + 1 < len(lines) and stated_unit(f"{ln.text} {lines[k + 1].text}")):
            ctx.stated_unit = unit
    for table in tables:
        head = re.sub(r"\s+", "", " ".join(ln.text for ln in table.header))
        if not table.caption and head and ctx.last_table is not None and ctx.last_table[0] == head:
            table.caption, table.unit = ctx.last_table[1], table.unit or ctx.last_table[2]
        if table.caption:
            ctx.last_table = (head, table.caption, table.unit)


def _within_cells(line: Line, row: Line) -> bool:
    """Each piece of `line` lies under one cell of `row` (a wrapped cell); a paragraph under the table runs across
    several cells."""
    return all(sum(1 for c in row.segs if min(c.x1, s.x1) - max(c.x0, s.x0) > 0) <= 1 for s in line.segs)


_ABBREV = re.compile(r"\b(?:[A-Za-z]{1,4}|approx)\.(?=\s+\S)")  # `Avg. Time`, `Latency (approx. in ms)`


def _sentence(text: str) -> bool:
    """Sentence punctuation in a line, abbreviations aside (`Avg. Time`, `No. 3` end no sentence)."""
    return bool(SENTENCE_END.search(_ABBREV.sub("", text)))


def _continuation(line: Line) -> bool:
    """A wrapped row label, or a row without numbers, between table rows: short, no sentence, no `label:`."""
    t = line.text
    return (
        len(t) <= 60
        and not is_caption(t)
        and not is_heading(t)
        and not _sentence(t)
        and not re.search(r"[:：]", t)
        and not is_code(t)
        and not any(number_cell(s.text) and re.search(r"\d", s.text) for s in line.segs)
    )


def _caption(lines: list[Line], above: int, below: int, data: list[Line], header: list[Line]) -> tuple[str, str | None]:
    """The table's caption (nearest `表 …`/`Table …` line above, else below) and a table-level unit line."""
    caption, unit = "", None
    top = header[0] if header else data[0]
    for k in range(above, max(above - 6, -1), -1):
        t = lines[k].text
        if top.y - lines[k].y > 0 and lines[k].y - top.y > 12 * top.size:
            break
        if is_heading(t) and not is_caption(t):
            break  # a caption above the section's heading is the last section's table's (`Table 2:` under its rows)
        unit = unit or table_unit(t)
        if is_caption(t):
            caption = spaced_caption(t)
            # A caption wrapped to the table's width goes on to the next line (`表 8 …(单位:` / `tok/s)`).
            if k + 1 <= above and caption.count("(") > caption.count(")") and len(lines[k + 1].segs) == 1:
                caption += " " + lines[k + 1].text
            break
    if not caption:
        for k in range(below, min(below + 3, len(lines))):
            t = lines[k].text
            if is_heading(t):  # a caption past the next heading is the next section's table's
                break
            unit = unit or table_unit(t)
            if is_caption(t):
                caption = spaced_caption(t)
                break
    if caption:
        unit = unit or table_unit(caption) or header_unit(caption, loose=False) or _caption_unit(caption)
    return caption, unit


_IN_UNIT = re.compile(r"(?:\bin|单位为|单位是)\s*(\S.{0,28}?)\s*[.。)）]?\s*$")


def _caption_unit(caption: str) -> str | None:
    """A unit the caption names at its end: `Queue throughput in ops per sec`, `各方案吞吐，单位为 tok/s`."""
    m = _IN_UNIT.search(caption)
    return printed_unit(m.group(1)) if m else None


def _columns(rows: list[Line]) -> list[list[float]]:
    """Column extents from the data rows: the widest row seeds them, other rows' cells join by overlap."""
    seed = max(rows, key=lambda r: len(r.segs))
    cols = [[s.x0, s.x1] for s in seed.segs]
    for row in rows:
        if row is seed:
            continue
        for s in row.segs:
            hits = [c for c in cols if min(c[1], s.x1) - max(c[0], s.x0) > -0.3 * s.size]
            if len(hits) == 1:
                hits[0][0], hits[0][1] = min(hits[0][0], s.x0), max(hits[0][1], s.x1)
            elif not hits:
                cols.append([s.x0, s.x1])
                cols.sort()
    return cols


def _slots(rows: list[Line], cols: list[list[float]]) -> tuple[list[tuple[float, float]], list[str]]:
    """The x range each column's header may take: from the data's alignment (right-aligned numbers under a
    left-aligned header start where the column to their left ends; left-aligned cells start their column)."""
    align = []
    by_col: dict[int, list[Seg]] = {}
    for row in rows:
        for sg in row.segs:
            by_col.setdefault(_column_of(sg, cols), []).append(sg)
    for n in range(len(cols)):
        segs = by_col.get(n, [])
        left = max(sg.x0 for sg in segs) - min(sg.x0 for sg in segs) if segs else 0.0
        right = max(sg.x1 for sg in segs) - min(sg.x1 for sg in segs) if segs else 0.0
        numeric = sum(1 for sg in segs if number_cell(sg.text)) > len(segs) / 2
        # Cells of one width fit any alignment; numbers are then taken as right-aligned, as office suites print them.
        even = abs(left - right) <= 0.5 and (left <= 0.5 or right <= 0.5)
        align.append(
            "left"
            if left + 0.5 < right
            else "right"
            if right + 0.5 < left
            else "even"
            if even and numeric
            else "center"
        )
    edges = []
    for n in range(len(cols) - 1):
        b0, a1 = cols[n][1], cols[n + 1][0]
        if align[n + 1] == "right":
            edges.append(b0)
        elif align[n + 1] == "left" and align[n] != "right":
            edges.append(a1)
        else:
            edges.append((b0 + a1) / 2)
    lo = [float("-inf"), *edges]
    hi = [*edges, float("inf")]
    return list(zip(lo, hi, strict=True)), align


def _headers(header: list[Line], rows: list[Line], cols: list[list[float]]) -> list[str]:
    """Each column's header text: header words go to the column whose slot holds them; a header line with fewer
    cells than the line under it holds group headers (`Platform A` over `ABQ | Disruptor`), each the label of every
    column whose data ends between it and the next group header; wrapped header cells are joined per column."""
    ncol = len(cols)
    out = [""] * ncol
    slots, align = _slots(rows, cols)
    placed: list[tuple[Seg, int]] = []  # header cells put on one column, for the lines wrapped under them
    for k, hl in enumerate(header):
        groups = _groups(hl, header[k + 1 :], cols, slots)
        if groups is not None:
            for seg, members in zip(hl.segs, groups, strict=True):
                for n in members:
                    out[n] = (out[n] + " " + seg.text).strip()
            continue
        skip = _skipped(hl, cols, out)
        if skip is not None:
            for n, seg in enumerate(hl.segs, start=skip):
                out[n] = (out[n] + " " + seg.text).strip()
                placed.append((seg, n))
            continue
        for seg in hl.segs:
            # A header cell wrapped onto this line (`Throughput` / `(GB/s)`) lines up with its first line: same
            # left edge, right edge or centre as the cell placed above it.
            under = {
                n
                for above, n in placed
                if min(abs(seg.x0 - above.x0), abs(seg.x1 - above.x1), abs(seg.x0 + seg.x1 - above.x0 - above.x1) / 2)
                < 0.3 * seg.size
            }
            if len(under) == 1:
                (n,) = under
                out[n] = (out[n] + " " + seg.text).strip()
                continue
            overlaps = [min(b, seg.x1) - max(a, seg.x0) for a, b in slots]
            best = max(range(ncol), key=lambda n: overlaps[n])
            if overlaps[best] <= 0:
                best = _column_of(seg, cols)
            # A header flush with a column's aligned edge is that column's, however far it reaches (`Batch` over 1, 2).
            flush = [
                n
                for n, (a, b) in enumerate(cols)
                if (align[n] in ("left", "even") and abs(seg.x0 - a) < 0.5 * seg.size)
                or (align[n] in ("right", "even") and abs(seg.x1 - b) < 0.5 * seg.size)
            ]
            if len(flush) == 1:
                best = flush[0]
            # A header wider than one slot covers every slot it fills most of (a spanning header cell).
            hits = [n for n, (a, b) in enumerate(slots) if b - a < 1e6 and overlaps[n] > 0.6 * (b - a)]
            for n in sorted({best, *hits}):
                out[n] = (out[n] + " " + seg.text).strip()
    return out


def _in_order(line: Line, cols: list[list[float]]) -> bool:
    """A header line with one cell per column, each between its neighbours' data: the cells go to the columns in
    order, whatever the alignment of header and data (left-aligned titles over right-aligned numbers)."""
    if len(line.segs) != len(cols):
        return False
    for n, seg in enumerate(line.segs):
        mid = (seg.x0 + seg.x1) / 2
        if (n and mid < cols[n - 1][1] - 0.5 * seg.size) or (n + 1 < len(cols) and mid > cols[n + 1][0]):
            return False
    return True


def _skipped(line: Line, cols: list[list[float]], above: list[str]) -> int | None:
    """How many leading columns a header line leaves out when its cells go to the remaining columns in order: none
    (`_in_order`), or the label columns whose header cell spans down from a line above (a merged `块大小` beside
    `p50 | p99 | p50 | p99`), whose data all end before the line's first cell."""
    if _in_order(line, cols):
        return 0
    skip = len(cols) - len(line.segs)
    if skip <= 0 or not all(above[:skip]) or cols[skip - 1][1] > line.segs[0].x0:
        return None
    return skip if _in_order(line, cols[skip:]) else None


def _groups(
    line: Line, lower: list[Line], cols: list[list[float]], slots: list[tuple[float, float]]
) -> list[list[int]] | None:
    """The columns under each cell of a group-header line, or None when `line` is no such line.

    A group header (left-aligned or centred) covers the columns whose data end between it and the next one; the line
    is a group line when it has fewer cells than the header line below and every column a group covers has a header
    word of its own below it.
    """
    if not lower or len(line.segs) >= len(lower[0].segs):
        return None
    below = [sg for ln in lower for sg in ln.segs]
    out: list[list[int]] = []
    for g, seg in enumerate(line.segs):
        end = line.segs[g + 1].x0 if g + 1 < len(line.segs) else float("inf")
        out.append([n for n, (_a, b) in enumerate(cols) if seg.x0 < b < end])
    centred = _centred_groups(line, cols)
    if centred is not None and any(
        len(members) > 1 and abs(seg.x0 - _left_edge(members[0], cols, below)) > seg.size
        for seg, members in zip(line.segs, out, strict=True)
    ):
        out = centred  # (a group header starting inside its first column: centred over its columns, as Word sets it)
    for members in out:
        # A column's own header word sits in its slot, or (over right-aligned numbers) between the data of the column
        # before and its own right edge.
        own = [(slots[n], (cols[n - 1][1] if n else float("-inf"), cols[n][1])) for n in members]
        if len(members) > 1 and not all(
            any(min(b, sg.x1) - max(a, sg.x0) > 0.5 * (sg.x1 - sg.x0) for (a, b) in pair for sg in below)
            for pair in own
        ):
            return None
    return out if any(len(m) > 1 for m in out) else None


def _left_edge(n: int, cols: list[list[float]], below: list[Seg]) -> float:
    """Where column `n` starts: its data's left edge, or a header word under the group line that stands over it."""
    a, b = cols[n]
    return min([a, *(sg.x0 for sg in below if min(b, sg.x1) - max(a, sg.x0) > 0)])


def _centred_groups(line: Line, cols: list[list[float]]) -> list[list[int]] | None:
    """The columns under each cell of a group-header line whose cells are centred over their columns, left to right:
    each takes the run of columns after the last group's that it overlaps whose centre is nearest to its own. None
    when some cell is centred over no run, or columns are left over."""
    out: list[list[int]] = []
    start = 0
    for seg in line.segs:
        centre = (seg.x0 + seg.x1) / 2
        runs = [list(range(start, e + 1)) for e in range(start, len(cols))
                if min(seg.x1, cols[e][1]) - max(seg.x0, cols[start][0]) > 0]  # fmt: skip
        if not runs:
            return None
        best = min(runs, key=lambda r: abs((cols[r[0]][0] + cols[r[-1]][1]) / 2 - centre))
        width = cols[best[-1]][1] - cols[best[0]][0]
        # (a cell wider than its one column, `Batch` over `1`, stands off its centre by up to half its width)
        slack = max(0.15 * width, (seg.x1 - seg.x0) / 2, seg.size)
        if abs((cols[best[0]][0] + cols[best[-1]][1]) / 2 - centre) > slack:
            return None
        out.append(best)
        start = best[-1] + 1
    return out if start == len(cols) else None


def _column_of(seg: Seg, cols: list[list[float]]) -> int:
    best, best_overlap = 0, float("-inf")
    for n, (a, b) in enumerate(cols):
        overlap = min(b, seg.x1) - max(a, seg.x0)
        if overlap <= 0:
            overlap = -min(abs(seg.x0 - b), abs(a - seg.x1), abs((a + b) / 2 - (seg.x0 + seg.x1) / 2))
        if overlap > best_overlap:
            best, best_overlap = n, overlap
    return best


_KEY_HEADER = re.compile(
    r"序号|编号|档位|并发|批|batch|Batch|size|Size|case|Case|配置|场景|轮次|线程|threads|Threads|cores|Cores|"
    r"clients|Clients|#|No\.|Index|index|ID|层数|layers|年份|Year|year|模型|Model|model|参数|Parameter|"
    r"上下文|长度|[Cc]ontext|[Ll]ength|节点|[Nn]odes|队列深度|[Qq]ueue depth|iodepth|QD|"
    r"窗口|[Ww]indow|[Tt]op-?[Kk]|客户端|用户数"
)


def table_figures(table: Table, page_width: float, heading: str) -> list[tuple[Raw, Line]]:
    data_rows = [ln for ln in table.lines if is_row(ln, page_width)]
    cols = _columns(data_rows)
    # Row-group labels centred over their rows stand on lines of their own, left of every data cell: their column.
    left = [ln.segs[0] for ln in table.lines if len(ln.segs) == 1 and ln.segs[0].x1 < cols[0][0] - 0.5 * ln.size]
    if left:
        cols.insert(0, [min(sg.x0 for sg in left), max(sg.x1 for sg in left)])
    ncol = len(cols)
    words, unit_rows = split_units_rows(unwrap_header_cells(table.carried or table.header))
    headers = _headers(words, data_rows, cols)
    row_of_units = units_row_units(headers, _headers(words + unit_rows, data_rows, cols)) if unit_rows else {}
    cells: list[list[str]] = []
    row_lines: list[Line] = []
    wrapped: list[tuple[int, float, str, int]] = []  # (rows seen so far, y, text, column) of label lines between rows
    footers = [""] * ncol
    for ln in table.lines:
        row = [""] * ncol
        for s in ln.segs:
            n = _column_of(s, cols)
            row[n] = (row[n] + " " + s.text).strip()
        if is_row(ln, page_width):
            cells.append(row)
            row_lines.append(ln)
        elif len({_column_of(s, cols) for s in ln.segs}) == 1:
            wrapped.append((len(cells), ln.y, " ".join(c for c in row if c), _column_of(ln.segs[0], cols)))
        elif row_lines and len(cells) <= 2:
            # Under a one-row "table" of KPI cards the line below names each value's unit: `MiB/s, 1MB batch=4`.
            for n, text in enumerate(row):
                footers[n] = (footers[n] + " " + text).strip()
    sections = _sections(wrapped, cells, row_lines)
    wrapped = [w for w in wrapped if w not in sections]
    section_of: list[str] = []
    for r in range(len(cells)):
        section_of.append(next((text for pos, _y, text, _c in reversed(sections) if pos <= r), ""))
    # A wrapped label belongs to the nearer of the rows around it (the one below when it sits midway).
    labels_extra: dict[int, list[str]] = {}  # row → label texts, prefixed "0" (above the row) or "1" (below)
    # A label alone in a column that most rows leave empty names a group of rows (`随机读` centred over three).
    # (only left of the first column of numbers: a chart title under the table is no group)
    numeric = [c for c in range(ncol) if sum(1 for row in cells if number_cell(row[c]) and row[c]) > len(cells) / 2]
    group_cols = {
        c
        for *_, c in wrapped
        if c < min(numeric, default=ncol - 1) and sum(1 for row in cells if not row[c]) > len(cells) / 2
    }
    wrapped_at: list[tuple[int, int, bool, str]] = []  # (row, column, above it, text)
    top_aligned = _top_aligned(wrapped, row_lines, group_cols)
    for pos, y, text, col in wrapped:
        if col in group_cols:
            continue
        if pos >= len(cells) or (top_aligned and pos > 0):
            target = min(pos, len(cells)) - 1
        elif pos == 0:
            target = 0
        else:
            target = pos if abs(row_lines[pos].y - y) <= abs(row_lines[pos - 1].y - y) else pos - 1
        labels_extra.setdefault(target, []).append(("0" if y > row_lines[target].y else "1") + text)
        wrapped_at.append((target, col, y > row_lines[target].y, text))
    _row_groups(cells, row_lines, wrapped, group_cols)
    units_at = _unit_columns(cells, headers)
    key_cols = [c for c in _key_columns(cells, headers) if c not in units_at]
    serials = serial_columns(cells, headers, key_cols)
    key_cols = [c for c in key_cols if c not in serials]
    # A wrapped label in a label column is part of that row's label there (`1MB 顺序` / `大块读取` around its row).
    for r, col, on_top, text in wrapped_at:
        if col in key_cols:
            cells[r][col] = _join_label(text, cells[r][col]) if on_top else _join_label(cells[r][col], text)
            labels_extra[r].remove(("0" if on_top else "1") + text)
    _carry_down(cells, key_cols)
    lent = _label_rows(cells, row_lines, key_cols)
    # A glued `B` counts bytes in a column whose header or other cells say bytes (`Size (B)`, `4B | 1KB`).
    byte_cols = [
        bool(BYTE_CONTEXT.search(" ".join([headers[c], *(row[c] for row in cells)])))
        or header_unit(headers[c]) in BYTE_UNITS
        or bool(BYTE_HEADER.search(headers[c]))
        for c in range(ncol)
    ]
    own_words = _own_words(cells, key_cols)
    # A unit in a label column's header (`Boiling Points °C`, `利润表(百万元)`) is the unit of the cells to its right.
    out: list[tuple[Raw, Line]] = []
    for r, (row, ln) in enumerate(zip(cells, row_lines, strict=True)):
        quote = " ".join(c for k, c in enumerate(row) if c and (r, k) not in lent)  # as printed on its line
        for c, cell in enumerate(row):
            serial = c in serials or (c in key_cols and _SERIAL.search(headers[c]))
            if not cell or c in units_at or serial or (r, c) in lent:
                continue  # a unit cell is no figure, nor is a row's serial number (`序号 No. | 1`) or a lent label
            key = c in key_cols
            row_labels: list[str] = []
            row_unit = None
            group = _label_group(key_cols, c) if not key else _run_of(key_cols, c)
            # (a count word there names the key's unit: `Threads` over 1, 2, 4 says nothing of the cells)
            group_unit = next(
                (u for k in group if (u := header_unit(headers[k])) and u not in COUNT_WORDS),
                None,
            )
            prev = -2
            for k in group if not key else [k for k in group if k != c]:
                if row[k]:
                    split = prev == k - 1 and headers[k] in ("", headers[prev])
                    if split and not number_cell(row[k]) and not number_cell(row[prev]):
                        # one label the columns split at its word gaps (`全面摊薄 | EPS(元)`, `流通 | A | 股(百万股):`)
                        row_labels[-1] = f"{row_labels[-1]} {row[k]}"
                    else:
                        row_labels.append(f"{headers[k]} {row[k]}".strip() if number_cell(row[k]) else row[k])
                    if (u := header_unit(row[k], loose=False)) and u not in COUNT_WORDS:
                        row_unit = row_unit or u  # (`ACL/GPU` names a row, not a unit of its cells)
                    prev = k
            if labels_extra.get(r):
                above = [t[1:] for t in labels_extra[r] if t[0] == "0"]
                below = [t[1:] for t in labels_extra[r] if t[0] == "1"]
                first = row_labels[-1] if row_labels else ""
                row_labels = [*row_labels[:-1], " ".join([*above, first, *below]).strip()]
            col_unit = header_unit(headers[c]) if headers[c] else None
            bare = row_of_units.get(c) == ""  # the units row says `无` / `-`: bare numbers, whatever else is near
            col_unit = row_of_units.get(c) or col_unit
            if col_unit is None and footers[c] and unit_at(footers[c], 0):
                col_unit = unit_at(footers[c], 0)[0]  # type: ignore[index]
            params = bool(PARAM_LABEL.search(" ".join([headers[c], *row_labels])))
            said = own_words.get((r, c), "")
            for num in find_numbers(cell, keep_years=not key, bytes_ok=byte_cols[c] or None, billions=params):
                if key and not number_cell(cell):
                    continue  # numbers inside a row label (`480P 32*32`) describe the row
                if not num.unit and not number_cell(cell) and _PRODUCT.search(cell, 0, num.start):
                    continue  # a product's version in a cell of words (`Redis 7.2, 2 nodes`, `OpenJDK 21`)
                unit = num.unit or col_unit or ""
                if not unit and not key and not bare:
                    unit = next((_unit_cell(row[u]) for u in units_at if row[u]), None) or ""
                if not unit and not key and not bare:
                    unit = row_unit or group_unit or table.unit or header_unit(heading, loose=False) or ""
                # A KPI card's line under its value says what it counts (`read_perf 全部成功`, `4KB, batch=4`).
                if key:
                    labels = [table.caption, headers[c], section_of[r], *row_labels, heading]
                else:
                    card = footers[c] if len(cells) == 1 else ""
                    labels = [table.caption, section_of[r], *row_labels, headers[c], card, said, heading]
                out.append((Raw(num.value, unit, num.raw, clean_labels(labels), quote, "cell"), ln))
    return out


def _own_words(cells: list[list[str]], key_cols: list[int]) -> dict[tuple[int, int], str]:
    """The words of each value cell of words that no other row's cells print, numbers, units and model numbers left
    out (`4 × 3.84 TB NVMe SSD` beside `2 × 480 GB SATA SSD` → `NVMe`): what a test-bed table's value says it
    measures, a label of its figures that names its row alone."""
    found: dict[tuple[int, int], list[str]] = {}
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if c not in key_cols and cell and not number_cell(cell):
                found[(r, c)] = _cell_words(cell, find_numbers(cell, bytes_ok=True))
    rows_of: dict[str, set[int]] = {}
    for (r, _c), words in found.items():
        for w in words:
            rows_of.setdefault(w.lower(), set()).add(r)
    return {at: " ".join(w for w in words if len(rows_of[w.lower()]) == 1) for at, words in found.items()}


def _cell_words(cell: str, nums: list[Number]) -> list[str]:
    text = cell
    for num in reversed(nums):
        text = text[: num.start] + " " + text[num.end :]
    words = re.split(r"[\s,，;；、:：=()（）]+", text)
    # (a model number, `c6i.2xlarge`, `P5510`, would be a key the claim must name: words only)
    return [w for w in words if re.search(r"[A-Za-z\u3400-\u9fff]", w) and not re.search(r"\d|^[x×]$", w)]


def _top_aligned(wrapped: list[tuple[int, float, str, int]], row_lines: list[Line], group_cols: set[int]) -> bool:
    """Whether the table's cells are top-aligned (Word's default): nothing wrapped above its first row, and the
    first row's wrapped label right under it, nearer to it than to the next row. Then every wrapped line continues
    the row above it, however near the next row it sits (`GET` / `/api/v2/produ` / `cts/{id}` over `GET 829,260`)."""
    lines = [(pos, y) for pos, y, _t, col in wrapped if col not in group_cols]
    if len(row_lines) < 2 or not lines or any(pos == 0 for pos, _y in lines):
        return False
    under = [y for pos, y in lines if pos == 1]
    return bool(under) and row_lines[0].y - max(under) < max(under) - row_lines[1].y


def _sections(
    wrapped: list[tuple[int, float, str, int]], cells: list[list[str]], row_lines: list[Line]
) -> list[tuple[int, float, str, int]]:
    """Row-group labels on rows of their own (`1st`, `Avg. Time` over rows that each name themselves): a label line
    in the first column one full row pitch from the rows around it, in a table whose rows are padded (bordered Word
    tables) so that a wrapped label line, at line spacing, is no such line, or in a tight table two or more such
    lines each over two rows or more (a wrapped label names one row). Each names the rows down to the next."""
    steps = sorted(a.y - b.y for a, b in itertools.pairwise(row_lines))
    if not steps:
        return []
    pitch = steps[len(steps) // 2]
    lone = []
    for pos, y, text, col in wrapped:
        if col != 0 or pos >= len(cells) or not cells[pos][0] or number_cell(text):
            continue
        below = y - row_lines[pos].y
        above = row_lines[pos - 1].y - y if pos else float("inf")
        if min(below, above) >= 0.85 * pitch:
            lone.append((pos, y, text, col))
    positions = [pos for pos, *_ in lone] + [len(cells)]
    spans = [b - a for a, b in itertools.pairwise(positions)]
    if len(lone) >= 2 and min(spans) >= 2 and len({pos for pos, *_ in wrapped}) == len(wrapped):
        return lone
    # (not the rest of the label above, which did not fit its cell: `4KB 随机读 p99` / `延迟`)
    return [
        (pos, y, t, c)
        for pos, y, t, c in lone
        if min(y - row_lines[pos].y, pitch) > 1.3 * row_lines[pos].size and not (pos and _wraps(row_lines[pos - 1], t))
    ]


def _wraps(row: Line, text: str) -> bool:
    """Whether `text` would not have fitted after the first cell of `row` on its line: the cell wrapped there."""
    if len(row.segs) < 2:
        return False
    first, after = row.segs[0], row.segs[1]
    width = sum(row.size if is_cjk(ch) else 0.55 * row.size for ch in text)
    return first.x1 + 0.3 * row.size + width > after.x0


# A product's name right before a bare number: a capitalised word with a lower-case letter (`Redis`, `OpenJDK`).
_PRODUCT = re.compile(r"(?<![\w.-])[A-Z][A-Za-z]*[a-z][A-Za-z]*\s?$")
_SERIAL = re.compile(r"序号|编号|^No\.?$|\bNo\.|^#$|^(?:ID|S/?N|Index)$")
_UNITS_HEAD = re.compile(r"(?:单位|Units?|unit)\s*[:：]?")


def _centred(a: Line, b: Line) -> bool:
    # Lines of one paragraph stand a full line apart; half a line apart they are cells of one centred header row.
    return a.y - b.y < 0.9 * max(a.size, b.size)


def grid_rows(header: list[Line]) -> int:
    """How many header rows the lines make, the lines of one vertically centred row counted once."""
    return sum(1 for k, line in enumerate(header) if k + 1 == len(header) or not _centred(line, header[k + 1]))


def centred_header_rows(header: list[Line]) -> list[Line]:
    """A header row whose cells are vertically centred and wrapped over different numbers of lines (Word: `编` /
    `号` and `Response` / `time` beside one-line `模块 | Availability`) prints as lines half a line apart, the
    one-line cells between the lines of the wrapped ones: one line, each cell's pieces (overlapping in x) joined."""
    out: list[Line] = []
    run: list[Line] = []
    for line in [*header, None]:
        if line is not None and (not run or _centred(run[-1], line)):
            run.append(line)
            continue
        if len(run) == 1:
            out.append(run[0])
        elif run:
            cells: list[Seg] = []
            for sg in (sg for ln in run for sg in ln.segs):
                hits = [c for c in cells if min(c.x1, sg.x1) - max(c.x0, sg.x0) > 0]
                if len(hits) == 1:
                    c = hits[0]
                    c.x0, c.x1, c.text = min(c.x0, sg.x0), max(c.x1, sg.x1), _join_label(c.text, sg.text)
                else:
                    cells.append(Seg(sg.x0, sg.x1, sg.text, sg.size))
            size = max(ln.size for ln in run)
            out.append(Line(sum(ln.y for ln in run) / len(run), size, sorted(cells, key=lambda c: c.x0)))
        run = [line] if line is not None else []
    return out


def unwrap_header_cells(header: list[Line]) -> list[Line]:
    """A header cell wrapped over two lines whose second line stands beside the other header cells (`编` over `号 |
    模块 | Availability`, the row bottom-aligned or centred) is one cell: a one-cell line over the first cell of the
    header line right below it, within that cell's extent and aligned with it, joins it. (Only the first column:
    a group header stands over the value columns, never alone over the label column.) Centred rows are joined
    first (`centred_header_rows`)."""
    out = centred_header_rows(header)
    k = 0
    while k + 1 < len(out):
        line, below = out[k], out[k + 1]
        if len(line.segs) == 1 and len(below.segs) >= 2:
            top, first = line.segs[0], below.segs[0]
            tol = 0.3 * top.size
            inside = top.x0 >= first.x0 - tol and top.x1 <= first.x1 + tol and top.x1 < below.segs[1].x0
            aligned = min(
                abs(top.x0 - first.x0), abs(top.x1 - first.x1), abs(top.x0 + top.x1 - first.x0 - first.x1) / 2
            )
            if inside and aligned < tol and line.y - below.y < 1.6 * max(line.size, below.size):
                joined = Seg(
                    min(top.x0, first.x0), max(top.x1, first.x1), _join_label(top.text, first.text), first.size
                )
                out[k : k + 2] = [Line(below.y, below.size, [joined, *below.segs[1:]])]
                continue
        k += 1
    return out


def _unit_or_none(text: str) -> bool:
    return text.strip() in UNITLESS or _unit_cell(text) is not None


def split_units_rows(header: list[Line]) -> tuple[list[Line], list[Line]]:
    """The header's words and its units rows: a header line whose first cell is `单位`/`Unit(s)` and whose other
    cells are units or `无`/`-` (`单位 | % | sec | trans/sec | 无`), or whose cells are all units the unit table
    knows (two or more, `μs | μs | μs`). A header of units only keeps them as its words."""
    words: list[Line] = []
    units: list[Line] = []
    for line in header:
        cells = [sg.text.strip() for sg in line.segs]
        headed = len(cells) >= 2 and _UNITS_HEAD.fullmatch(cells[0]) and all(_unit_or_none(c) for c in cells[1:])
        # (a count word is a header's name for its key, `GPUs | Nodes`, not the unit of a column)
        known = [c for c in cells if (u := printed_unit(c)) and u not in COUNT_WORDS]
        if headed or (len(known) >= 2 and len(known) + sum(c in UNITLESS for c in cells) == len(cells)):
            units.append(line)
        else:
            words.append(line)
    return (words, units) if words else (header, [])


def units_row_units(words: list[str], full: list[str]) -> dict[int, str]:
    """Each column's unit from the header's units rows, given the column headers without them (`words`) and with
    them (`full`, each units cell placed under its header as a wrapped header line is): `trans/sec` → `trans/s`;
    `""` where the row prints `无`, `-` or `none` (a unitless column). The `单位` cell over the labels gives none."""
    out: dict[int, str] = {}
    for c, (head, both) in enumerate(zip(words, full, strict=True)):
        text = _UNITS_HEAD.sub("", both[len(head) :] if both.startswith(head) else "").strip()
        if text in UNITLESS:
            out[c] = "" if text else out.get(c, "")
        elif unit := _unit_cell(text):
            out[c] = unit
    return {c: u for c, u in out.items() if u or full[c] != words[c]}


def serial_columns(cells: list[list[str]], headers: list[str], key_cols: list[int]) -> set[int]:
    """The leading column of serial numbers (`编号`/`序号`/`No.`/`#`/`ID`, or headerless): consecutive integers down
    every row (1..N, or on from a page before) beside a label column that names the rows. It is neither a row's
    label nor a figure. (Alone, it is the rows' only name and stays their label.)"""
    if not cells or not key_cols or key_cols[0] != 0 or len(key_cols) < 2 or key_cols[1] != 1:
        return set()
    if headers[0] and not _SERIAL.search(headers[0]):
        return set()
    values = [row[0].strip() for row in cells]
    if len(values) < 2 or not all(re.fullmatch(r"\d{1,4}", v) for v in values):
        return set()
    nums = [int(v) for v in values]
    if any(b - a != 1 for a, b in itertools.pairwise(nums)):
        return set()
    return {0} if any(row[1] and not number_cell(row[1]) for row in cells) else set()


_UNIT_HEADER = re.compile(r"^(?:单位|Units?|unit)\b|\s(?:单位|Units?)$|^单位")


def _unit_columns(cells: list[list[str]], headers: list[str]) -> set[int]:
    """Columns headed `单位 Unit` whose cells are units: each gives the unit of its row's numbers."""
    out = set()
    for c, head in enumerate(headers):
        values = [row[c] for row in cells if row[c]]
        if head and _UNIT_HEADER.search(head.strip()) and values and all(_unit_cell(v) for v in values):
            out.add(c)
    return out


def _unit_cell(text: str) -> str | None:
    """A unit column's cell as a unit: one the unit table knows, else the short symbol as printed (`K`, `%RH`)."""
    t = text.strip()
    return printed_unit(t) or (t if len(t) <= 8 and not re.search(r"\d|\s", t) else None)


def _row_groups(
    cells: list[list[str]], row_lines: list[Line], wrapped: list[tuple[int, float, str, int]], group_cols: set[int]
) -> None:
    """Row-group labels into the rows they span: a label on a line of its own goes to the rows nearest to it (it is
    centred over them), and a label printed on its group's first row is carried down to the rows that leave it empty."""
    for col in group_cols:
        labels = [(y, text) for _pos, y, text, c in wrapped if c == col]
        for row, ln in zip(cells, row_lines, strict=True):
            if not row[col]:
                row[col] = min(labels, key=lambda lab: abs(lab[0] - ln.y))[1]


def _label_rows(cells: list[list[str]], row_lines: list[Line], key_cols: list[int]) -> set[tuple[int, int]]:
    """Rows that hold only labels (`6 6` centred between an OTSL and an HTML row) name the rows nearest to them that
    leave those label columns empty (`OTSL` has a label of its own, in another column: it takes `6 6` beside it).
    Returns the (row, column) cells lent: labels of their rows, figures only of the label row."""
    lent: set[tuple[int, int]] = set()
    if not key_cols:
        return lent
    values = [c for c in range(len(cells[0])) if c not in key_cols] if cells else []
    labels = [r for r, row in enumerate(cells) if any(row[k] for k in key_cols) and not any(row[c] for c in values)]
    if not labels:
        return lent
    for r, row in enumerate(cells):
        if r in labels:
            continue
        y = row_lines[r].y
        near = min(labels, key=lambda k: abs(row_lines[k].y - y))
        spans = [k for k in key_cols if cells[near][k]]
        if any(row[k] for k in spans):
            continue  # the row names itself in those columns: the label row is another row's
        if abs(row_lines[near].y - y) < 2.5 * row_lines[r].size:
            for k in spans:
                row[k] = cells[near][k]
                lent.add((r, k))
    return lent


def _join_label(a: str, b: str) -> str:
    if not a or not b:
        return a or b
    return a + b if is_cjk(a[-1]) and is_cjk(b[0]) else a + " " + b


def _carry_down(cells: list[list[str]], key_cols: list[int]) -> None:
    """Top-aligned row groups: the label stands on the group's first row; the rows below it that name themselves in
    the next label column but leave this one empty belong to the same group."""
    for col in key_cols:
        if col + 1 not in key_cols:
            continue
        last = ""
        for row in cells:
            if row[col]:
                last = "" if number_cell(row[col]) else row[col]  # a group is named by words; `序号 9` is no group
            elif last and row[col + 1]:
                row[col] = last


def _key_columns(cells: list[list[str]], headers: list[str]) -> list[int]:
    """Leading columns that name a row (labels, or integer parameters like 并发 8 / batch 4) rather than measure it."""
    keys: list[int] = []
    ncol = len(headers)
    for c in range(ncol - 1):
        values = [row[c] for row in cells if row[c]]
        if not values:
            if c == 0:
                continue
            break
        numeric = [v for v in values if number_cell(v)]
        if len(numeric) < len(values) / 2:
            keys.append(c)
            continue
        unit = header_unit(headers[c])
        if unit and unit not in ("KB", "MB", "B", "GB") and unit not in COUNT_WORDS:
            break
        ints = all(re.fullmatch(rf"{_INT}\s*(?:[KMG]i?B|B|K|k)?", v.strip()) for v in numeric)
        # A first column of whole durations under a parameter's name (`窗口大小 | 60s, 120s, 300s`) sets the row's
        # condition (a window, a timeout), as integers do: measured times are not whole and rising.
        if not ints and c == 0 and _KEY_HEADER.search(headers[c] or ""):
            ints = all(re.fullmatch(r"\d+\s*(?:s|ms|min|h)", v.strip()) for v in numeric)
        repeats = _repeats(cells, c)
        # A first column of object sizes (`4KB`, `64KB`, `1MB`) names the rows it leads.
        sizes = (
            c == 0 and len(numeric) == len(values) and all(re.fullmatch(r"\d+\s*[KMGT]i?B", v.strip()) for v in values)
        )
        if ints and (repeats or sizes or _KEY_HEADER.search(headers[c] or "") or (c == 0 and _sweep(numeric))):
            keys.append(c)
            continue
        break
    # Two halves of one table side by side under a repeated header (`value batch MiB/s 状态 | value batch …`): the
    # second half has the first half's label columns.
    period = _repeat(headers)
    if period and keys:
        return [*keys, *(k + period for k in keys if k + period < ncol)]
    # Side-by-side tables (`主要财务指标 … | 利润表 …`): a later column of words starts the next table's labels.
    start = (keys[-1] + 2) if keys else 1
    for c in range(start, ncol - 1):
        values = [row[c] for row in cells if row[c]]
        if values and sum(1 for v in values if number_cell(v)) < len(values) / 2:
            keys.append(c)
    return keys


_INT = r"\d{1,3}(?:,\d{3})+|\d+"  # a whole number, with or without thousands separators (`1,000` users)


def _repeats(cells: list[list[str]], c: int) -> bool:
    """Whether column `c` repeats a value in rows that differ to its right (`batch 4` for read and for write): a
    summary row equal to the one row it sums (JMeter's `TOTAL` under a single label) repeats every column, keys none."""
    seen: dict[str, set[tuple[str, ...]]] = {}
    for row in cells:
        if not row[c]:
            continue
        rest = tuple(row[c + 1 :])
        if row[c] in seen and rest not in seen[row[c]]:
            return True
        seen.setdefault(row[c], set()).add(rest)
    return False


def _sweep(values: list[str]) -> bool:
    """A parameter swept upward (`32K, 64K, 128K`, `1, 4, 16, 64`): the condition of each row, not a result."""
    scale = {"": 1, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9}
    nums = []
    for v in values:
        m = re.fullmatch(rf"({_INT})\s*([KMGk]?)(?:i?B)?", v.strip())
        if not m:
            return False
        nums.append(int(m.group(1).replace(",", "")) * scale[m.group(2)])
    return len(nums) >= 3 and all(b > a for a, b in itertools.pairwise(nums))


def _repeat(headers: list[str]) -> int:
    """The width of a header printed twice side by side (`a b c | a b c`), or 0."""
    n = len(headers)
    if n % 2 or n < 4:
        return 0
    half = n // 2
    return half if all(headers[c] and headers[c] == headers[c + half] for c in range(half)) else 0


def _run_of(key_cols: list[int], c: int) -> list[int]:
    """The run of consecutive label columns that holds column `c`."""
    run = [c]
    while run[0] - 1 in key_cols:
        run.insert(0, run[0] - 1)
    while run[-1] + 1 in key_cols:
        run.append(run[-1] + 1)
    return run


def _label_group(key_cols: list[int], c: int) -> list[int]:
    """The run of label columns nearest to the left of column `c`."""
    left = [k for k in key_cols if k < c]
    group: list[int] = []
    for k in reversed(left):
        if group and k != group[0] - 1:
            break
        group.insert(0, k)
    return group or [k for k in key_cols if k <= c][:1]
