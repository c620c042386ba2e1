"""Tables: rows found among lines, columns from the data rows, headers and row labels assigned, cells as figures."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from evidence.pdf.layout import SENTENCE_END, Line, Seg, is_caption, is_heading, spaced_caption
from evidence.pdf.numbers import (
    BYTE_CONTEXT,
    BYTE_HEADER,
    BYTE_UNITS,
    PARAM_LABEL,
    find_numbers,
    header_unit,
    is_code,
    number_cell,
    table_unit,
)
from evidence.units import unit_at

# ---- figures ------------------------------------------------------------------------------------------------------


@dataclass
class PageContext:
    """What the extractor knows while walking a report: the section heading carries across pages."""

    sha256: str
    report: str
    version: int
    heading: str = ""


@dataclass
class Raw:
    value: float
    unit: str
    raw: str
    labels: list[str]
    quote: str
    kind: Literal["cell", "kv", "prose"]


def clean_labels(labels: list[str]) -> list[str]:
    out: list[str] = []
    for label in labels:
        label = re.sub(r"\s+", " ", label).strip()
        if label and label not in out:
            out.append(label)
    return out


@dataclass
class Table:
    lines: list[Line]
    header: list[Line]
    caption: str
    unit: str | None


def is_row(line: Line, page_width: float) -> bool:
    segs = line.segs
    if len(segs) < 2 or is_code(line.text):
        return False
    if any(s.x1 - s.x0 > 0.55 * page_width for s in segs):
        return False
    if all(re.fullmatch(r"(?:19|20)\d{2}[AEFHQ]?", sg.text.strip()) for sg in segs if re.search(r"\d", sg.text)):
        return False  # `指标 2021 2022E 2023E`: a header of years
    if any(number_cell(s.text) and re.search(r"\d", s.text) for s in segs[1:]) or (
        number_cell(segs[0].text) and any(number_cell(s.text) for s in segs[1:])
    ):
        return True
    # A `label | value with words` row of a test-environment table: `网络 | 单口 100 GbE`, `存储 | FX100, 4 盘 RAID0`.
    first, second = segs[0].text, segs[-1].text
    return (
        len(segs) == 2
        and len(first) <= 20
        and len(second) <= 40
        and not find_numbers(first)
        and bool(find_numbers(second, bytes_ok=True))
        and not SENTENCE_END.search(line.text)
    )


def _is_header(line: Line, page_width: float) -> bool:
    if len(line.segs) < 2 or any(s.x1 - s.x0 > 0.5 * page_width for s in line.segs):
        return False
    if is_caption(line.text) or SENTENCE_END.search(line.text.rstrip("。.")):
        return False
    numeric = [s for s in line.segs if number_cell(s.text) and re.search(r"\d", s.text)]
    return all(re.fullmatch(r"(?:19|20)\d{2}[AEFHQ]?", s.text.strip()) for s in numeric)


def find_tables(lines: list[Line], page_width: float) -> list[Table]:
    """Runs of table rows (lines of several cells, some numeric), with their header lines and caption."""
    tables: list[Table] = []
    i = 0
    used: set[int] = set()
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
            if is_row(lines[j], page_width):
                rows.append(j)
            elif not _continuation(lines[j]):
                break
            j += 1
        # Lines after the last row belong to the table only when they sit right under it (a wrapped last cell).
        last = rows[-1]
        j = last + 1
        while (
            j < len(lines)
            and _continuation(lines[j])
            and lines[last].y - lines[j].y < 1.3 * max(lines[j].size, min(lines[last].size, 2 * lines[j].size))
        ):
            j += 1
        # A wrapped label of the first row may sit just above it (`480P 32*32` over `single face 395 493 0 890`).
        while i > 0 and i - 1 not in used and _continuation(lines[i - 1]) and len(lines[i - 1].segs) == 1:
            if lines[i - 1].y - lines[i].y > 1.3 * lines[i].size or _is_header(lines[i - 1], page_width):
                break
            i -= 1
        data = [lines[k] for k in range(i, j)]
        n_rows = sum(1 for k in range(i, j) if is_row(lines[k], page_width))
        # Header lines: right above the first row, several cells, no measured numbers; a multi-line header is tight.
        header: list[Line] = []
        k = i - 1
        while k >= 0 and k not in used and len(header) < 3:
            cand = lines[k]
            below = header[0] if header else lines[i]
            limit = 1.7 if header else 3.4
            if cand.y - below.y > limit * max(cand.size, below.size):
                break
            if is_caption(cand.text) or is_heading(cand.text) or SENTENCE_END.search(cand.text.rstrip("。.")):
                break
            if _is_header(cand, page_width) or (header and len(cand.text) < 40):
                header.insert(0, cand)
                k -= 1
                continue
            break
        if n_rows >= 2 or (n_rows >= 1 and header):
            caption, unit = _caption(lines, k, j, data, header)
            tables.append(Table(data, header, caption, unit))
            used.update(range(k + 1, j))
        i = j
    return tables


def _continuation(line: Line) -> bool:
    """A wrapped row label, or a row without numbers, between table rows: short, no sentence, no `label:`."""
    t = line.text
    return (
        len(t) <= 60
        and not is_caption(t)
        and not is_heading(t)
        and not SENTENCE_END.search(t)
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
        unit = unit or table_unit(t)
        if is_caption(t):
            caption = spaced_caption(t)
            break
    if not caption:
        for k in range(below, min(below + 3, len(lines))):
            t = lines[k].text
            unit = unit or table_unit(t)
            if is_caption(t):
                caption = spaced_caption(t)
                break
    if caption:
        unit = unit or table_unit(caption) or header_unit(caption, loose=False)
    return caption, unit


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
    r"clients|Clients|#|No\.|Index|index|ID|层数|layers|年份|Year|year|模型|Model|model|参数|Parameter"
)


def table_figures(table: Table, page_width: float, heading: str) -> list[tuple[Raw, Line]]:
    data_rows = [ln for ln in table.lines if is_row(ln, page_width)]
    cols = _columns(data_rows)
    ncol = len(cols)
    headers = [""] * ncol
    for hl in table.header:
        for s in hl.segs:
            hits = [n for n, (a, b) in enumerate(cols) if min(b, s.x1) - max(a, s.x0) > 0]
            for n in hits or [_column_of(s, cols)]:
                headers[n] = (headers[n] + " " + s.text).strip()
    cells: list[list[str]] = []
    row_lines: list[Line] = []
    wrapped: list[tuple[int, float, str]] = []  # (rows seen so far, y, text) of label lines between rows
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
            wrapped.append((len(cells), ln.y, " ".join(c for c in row if c)))
        elif row_lines and len(cells) <= 2:
            # Under a one-row "table" of KPI cards the line below names each value's unit: `MiB/s, 1MB batch=4`.
            for n, text in enumerate(row):
                footers[n] = (footers[n] + " " + text).strip()
    # A wrapped label belongs to the nearer of the rows around it (the one below when it sits midway).
    labels_extra: dict[int, list[str]] = {}  # row → label texts, prefixed "0" (above the row) or "1" (below)
    for pos, y, text in wrapped:
        if pos >= len(cells):
            target = len(cells) - 1
        elif pos == 0:
            target = 0
        else:
            target = pos if abs(row_lines[pos].y - y) <= abs(row_lines[pos - 1].y - y) else pos - 1
        labels_extra.setdefault(target, []).append(("0" if y > row_lines[target].y else "1") + text)
    key_cols = _key_columns(cells, headers)
    # A glued `B` counts bytes in a column whose header or other cells say bytes (`Size (B)`, `4B | 1KB`).
    byte_cols = [
        bool(BYTE_CONTEXT.search(" ".join([headers[c], *(row[c] for row in cells)])))
        or header_unit(headers[c]) in BYTE_UNITS
        or bool(BYTE_HEADER.search(headers[c]))
        for c in range(ncol)
    ]
    # A unit in a label column's header (`Boiling Points °C`, `利润表(百万元)`) is the unit of the cells to its right.
    out: list[tuple[Raw, Line]] = []
    for r, (row, ln) in enumerate(zip(cells, row_lines, strict=True)):
        quote = " ".join(c for c in row if c)
        for c, cell in enumerate(row):
            if not cell:
                continue
            key = c in key_cols
            row_labels = []
            row_unit = None
            group = _label_group(key_cols, c) if not key else _run_of(key_cols, c)
            group_unit = next((header_unit(headers[k]) for k in group if header_unit(headers[k])), None)
            for k in group if not key else [k for k in group if k != c]:
                if row[k]:
                    row_labels.append(f"{headers[k]} {row[k]}".strip() if number_cell(row[k]) else row[k])
                    row_unit = row_unit or header_unit(row[k], loose=False)
            if r in labels_extra and row_labels:
                above = [t[1:] for t in labels_extra[r] if t[0] == "0"]
                below = [t[1:] for t in labels_extra[r] if t[0] == "1"]
                row_labels = [" ".join([*above, row_labels[0], *below]).strip(), *row_labels[1:]]
            col_unit = header_unit(headers[c]) if headers[c] else None
            if col_unit is None and footers[c] and unit_at(footers[c], 0):
                col_unit = unit_at(footers[c], 0)[0]  # type: ignore[index]
            params = bool(PARAM_LABEL.search(" ".join([headers[c], *row_labels])))
            for num in find_numbers(cell, keep_years=not key, bytes_ok=byte_cols[c] or None, billions=params):
                if key and not number_cell(cell):
                    continue  # numbers inside a row label (`480P 32*32`) describe the row
                unit = num.unit or col_unit or ""
                if not unit and not key:
                    unit = row_unit or group_unit or table.unit or header_unit(heading, loose=False) or ""
                if key:
                    labels = [table.caption, headers[c], *row_labels, heading]
                else:
                    labels = [table.caption, *row_labels, headers[c], heading]
                out.append((Raw(num.value, unit, num.raw, clean_labels(labels), quote, "cell"), ln))
    return out


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
        if header_unit(headers[c]) and header_unit(headers[c]) not in ("KB", "MB", "B", "GB"):
            break
        ints = all(re.fullmatch(r"\d+\s*(?:[KMG]i?B|B|K|k)?", v.strip()) for v in numeric)
        repeats = len(set(values)) < len(values)
        if ints and (repeats or _KEY_HEADER.search(headers[c] or "")):
            keys.append(c)
            continue
        break
    # Side-by-side tables (`主要财务指标 … | 利润表 …`): a later column of words starts the next table's labels.
    start = (keys[-1] + 2) if keys else 1
    for c in range(start, ncol - 1):
        values = [row[c] for row in cells if row[c]]
        if values and sum(1 for v in values if number_cell(v)) < len(values) / 2:
            keys.append(c)
    return keys


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
