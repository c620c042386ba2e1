"""A page's figures: table cells first, then `label: value` lines, chart labels and prose sentences."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from typing import Literal

from evidence.pdf.charts import chart_figures
from evidence.pdf.layout import SENTENCE_END, Line, is_caption, is_heading, reading_order
from evidence.pdf.numbers import (
    PAGE_NUMBER,
    PARAM_LABEL,
    PAREN,
    Number,
    find_numbers,
    header_unit,
    is_code,
    names,
    printed_unit,
)
from evidence.pdf.runs import Runs
from evidence.pdf.tables import PageContext, Raw, clean_labels, continue_tables, find_tables, table_figures
from evidence.pdf.text import cjk_edge
from evidence.units import canonical

_KV = re.compile(r"^\s*(?P<label>[^:：=]{1,50}?)\s*(?P<sep>[:：]| = )\s*(?P<value>.*\d.*)$")


def _kv_contexts(value: str, numbers: list[Number]) -> list[str]:
    """What the value says right before each number (since the one before it, within its `;` part); a value in
    parentheses after another (`up to 2.0GHz (real frequency is 1.8GHz)`) keeps the other's words too."""
    out: list[str] = []
    end = 0
    for n in numbers:
        cut = max(value.rfind(";", end, n.start), value.rfind("；", end, n.start))
        start = cut + 1 if cut >= 0 else end
        text = re.sub(r"\s+", " ", value[start : n.start]).strip(" ≥≤><约~≈")
        if text.startswith(("(", "（")) and out and cut < 0:
            text = f"{out[-1]} {text.lstrip('(（ ')}".strip()
        text = text.strip("(（ ,，、:：/|=")  # (`min=12.3, mean=45.6`: each value is named by its key)
        words = re.search(r"[A-Za-z\u3400-\u9fff]{2,}", text)
        out.append(text if words and len(text) < 60 and not is_code(text) else "")
        end = n.end
    return out


_BRACKETED = re.compile(r"\s?[\[(（]\s*([^\[\]()（）]{1,16}?)\s*[\])）]")


def _bracketed_unit(value: str, end: int) -> str | None:
    """A unit in brackets right after a bare value (ApacheBench's `Time per request: 12.5 [ms] (mean)`)."""
    m = _BRACKETED.match(value, end)
    return printed_unit(m.group(1)) if m else None


_RATE_BEFORE = re.compile(r"\b(IOPS|QPS|TPS)\s*(?:达到|高达|为|是|约|of|reached|reaches|=|:|：)?\s*$")


def _rate_before(before: str) -> str:
    """A rate named right before its number (`4KB 随机读 IOPS 达到 1,250,000`, `QPS of 12,000`): its unit."""
    m = _RATE_BEFORE.search(before)
    return canonical(m.group(1)) or "" if m else ""


def _kv(line: str) -> tuple[str, str] | None:
    """`label: value unit` (or `label：value`), with a short label and the number near the start of the value."""
    m = _KV.match(line)
    if not m or is_code(line):
        return None
    label, value = m.group("label").strip().lstrip("-–•·*▶►◆●■▪ ").strip(), m.group("value").strip()  # list marks
    if not label or re.search(r"https?$|\d$|^[\"'(\[]", label) or SENTENCE_END.search(label):
        return None
    if re.search(r"[\"'\[\](){}<>）]$", label) and not header_unit(label, loose=False):
        return None  # a label may end in brackets only to give the unit of its values (`Request time (ms): …`)
    if m.group("sep") != " = " and len(m.group("label")) > 40:
        return None
    if m.group("sep") == " = " and (len(label) < 4 or not find_numbers(value) or find_numbers(value)[0].start > 0):
        return None  # tool output's `Avg throughput per process = 91503.61 kB/sec`; `x = a + b` is no figure
    if label.isascii() and not re.match(r"：|[:=]\s", line[m.end("label") :].lstrip()[:2] + " "):
        return None  # `cpu:0`, `http:…`: a Latin label needs a space after an ASCII colon (not after `：`)
    if label.count(" ") > 6 or re.match(r"\d+\s*[)、]|\d+\.(?!\d)", value):
        return None  # `steps: 1) …` is an enumeration, not a measurement
    first = find_numbers(value)
    if not first or first[0].start > 40 or len(value) > 80:
        return None
    return label, value


def _axis_ticks(numbers: list[Number]) -> bool:
    """Four or more bare numbers in an arithmetic or geometric progression: a chart axis, not data."""
    values = [n.value for n in numbers]
    if len(values) < 4 or any(n.unit and n.unit != "%" for n in numbers):
        return False
    steps = {round(b - a, 6) for a, b in itertools.pairwise(values)}
    if len(steps) == 1 and next(iter(steps)) != 0:
        return True
    if all(v > 0 for v in values):
        ratios = {round(b / a, 6) for a, b in itertools.pairwise(values)}
        return len(ratios) == 1
    return False


_TOC = re.compile(r"(?:\.\s*){5,}|…{2,}|·{5,}")


def _sentences(paragraph: str) -> Iterator[str]:
    start = 0
    for m in SENTENCE_END.finditer(paragraph):
        yield paragraph[start : m.end()].strip()
        start = m.end()
    if paragraph[start:].strip():
        yield paragraph[start:].strip()


def _join(a: str, b: str) -> str:
    if not a:
        return b
    if a.endswith("-") and a[-2:-1].isalnum() and b[:1].isalnum():
        # `bench-`/`mark` was one word broken at the line end; `LLaMA3-`/`70B` keeps its hyphen.
        return a[:-1] + b if b[:1].islower() and a[-2:-1].isalpha() else a + b
    if cjk_edge(a.rstrip(), b.lstrip()):
        return a.rstrip() + b.lstrip()
    return a.rstrip() + " " + b.lstrip()


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _chart_unit(lines: list[str], idx: int) -> str | None:
    """A bare chart label takes the unit of the nearest title above it that names one, e.g. `(nanoseconds)`."""
    for k in range(idx - 1, max(idx - 25, -1), -1):
        t = lines[k]
        if find_numbers(t) and not re.search(r"[(（]", t):
            continue
        for inner in reversed(PAREN.findall(t)):
            u = printed_unit(inner)
            if u:
                return u
    return None


def _glued_in(raw: str, plain: str) -> bool:
    """`raw` printed in plain text glued to a neighbouring number (`5,321,00425,914,530`): cells a browser prints
    without a space between them, which positions keep apart."""
    if len(raw) < 4:  # a short number glued to digits proves nothing (`2` in `8192`)
        return False
    return re.search(rf"\d[,.]?{re.escape(raw)}|{re.escape(raw)}[,.]?\d", plain) is not None


def _split_in(raw: str, plain: str) -> bool:
    """`raw`, a decimal, printed in plain text with one space after its point (`481. 57`): a glyph run that the
    positions joined back into one cell (`lines_of`)."""
    if "." not in raw:
        return False
    split = re.escape(raw).replace(r"\.", r"\. ", 1)
    return re.search(rf"(?<![\d.,]){split}(?![\d.,]\d)", plain) is not None


def _token(raw: str) -> str:
    # `480B` is `480` bytes or 480 billion depending on its label: one token either way for the cross-checks.
    return raw.removesuffix("B")


def page_figures(
    plain: str, lines: list[Line], page_width: float, page_height: float, ctx: PageContext, runs: Runs | None = None
) -> list[Raw]:
    """All figures of one page: chart labels and table cells from positions, then `label: value` lines and prose."""
    out: list[Raw] = []
    consumed: Counter[str] = Counter()
    chart = chart_figures(runs, plain) if runs else None
    if chart is not None:
        for dot in chart.figures:
            kind: Literal["cell", "prose"] = "cell" if dot.placed else "prose"
            out.append(Raw(dot.value, dot.unit, dot.raw, clean_labels(dot.labels), dot.quote, kind))
        consumed.update(_token(t) for t in chart.consumed)
        lines = _without(lines, chart.items)
    body = _without_running_head(lines, _body(lines, page_height), page_height, ctx)
    in_body = {id(ln) for ln in body}
    margin_texts = {squash(ln.text) for ln in lines if id(ln) not in in_body}
    body = _side_by_side(reading_order(body, page_width))
    sizes = Counter(round(ln.size) for ln in body)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    tables = find_tables(body, page_width)
    table_text: list[str] = []
    # Section headings seen on this page (in reading order), so a table is labelled with the heading above it.
    heading_at: dict[int, str] = {}
    for i, ln in enumerate(body):
        if is_heading(ln.text, ln.size, body_size):
            heading_at[i] = ln.text.strip()
    position = {id(ln): i for i, ln in enumerate(body)}
    plain_tokens = Counter(_token(n.raw) for n in find_numbers(plain, keep_years=True, bytes_ok=True))
    continue_tables(tables, ctx, body)
    for table in tables:
        top = position[id(table.header[0] if table.header else table.lines[0])]
        heading = next((heading_at[i] for i in sorted(heading_at, reverse=True) if i < top), None) or ctx.heading
        for raw, _ln in table_figures(table, page_width, heading):
            # Cross-check with plain text: a number plain mode never printed is a fusion of neighbours; drop it. Plain
            # text may itself glue neighbouring cells (browsers print no space between them): the digits must then
            # stand in it as printed.
            if plain_tokens[_token(raw.raw)] <= 0 and not _glued_in(raw.raw, plain) and not _split_in(raw.raw, plain):
                continue
            plain_tokens[_token(raw.raw)] -= 1
            consumed[_token(raw.raw)] += 1
            out.append(raw)
        table_text.append(squash(" ".join([table.caption, *(ln.text for ln in [*table.header, *table.lines])])))
    # Plain text in reading order: kv lines, headings and prose (table lines are skipped, their numbers consumed).
    plain_lines = [ln.strip() for ln in plain.splitlines()]
    heading_before = ctx.heading
    paragraph = ""
    para_heading = ctx.heading
    prose: list[tuple[str, str]] = []

    def flush() -> None:
        nonlocal paragraph
        if paragraph.strip():
            prose.append((paragraph.strip(), para_heading))
        paragraph = ""

    # The table lines of plain text give back what their cells took first, wherever they stand: a `mean=12.5` line
    # above a table that prints 12.5 again is a figure of its own, not a cell read twice.
    table_lines = set()
    for idx, text in enumerate(plain_lines):
        sq = squash(text)
        if not sq or sq in margin_texts or PAGE_NUMBER.match(text):
            continue
        if any(sq in tt for tt in table_text) and (find_numbers(text, keep_years=True) or len(sq) < 40):
            table_lines.add(idx)
            for n in find_numbers(text, keep_years=True, bytes_ok=True):
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
    for idx, text in enumerate(plain_lines):
        sq = squash(text)
        if not sq:
            flush()
            continue
        if sq in margin_texts or PAGE_NUMBER.match(text) or idx in table_lines:
            continue
        if is_heading(text, 0, 0) or (is_caption(text) and len(text) < 80):
            flush()
            if is_heading(text, 0, 0):
                ctx.heading = text
                para_heading = text
            continue
        if is_code(text) or _TOC.search(text):
            flush()
            continue  # code listings and table-of-contents lines hold numbers that measure nothing
        kv = _kv(text)
        if kv:
            flush()
            label, value = kv
            numbers = list(find_numbers(value, billions=bool(PARAM_LABEL.search(label))))
            for n, said in zip(numbers, _kv_contexts(value, numbers), strict=True):
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
                    continue
                labels = [label, said, ctx.heading]
                kv_unit = n.unit or _bracketed_unit(value, n.end) or header_unit(label, loose=False) or ""
                out.append(Raw(n.value, kv_unit, n.raw, clean_labels(labels), text, "kv"))
            continue
        if re.fullmatch(r"[\d\s.,%+\-]+", text) and find_numbers(text):
            # A line of bare numbers is chart data labels or axis ticks: keep them, with the chart title's unit.
            flush()
            unit = _chart_unit(plain_lines, idx)
            if _axis_ticks(find_numbers(text, keep_years=True)):
                continue
            for n in find_numbers(text):
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
                    continue
                out.append(Raw(n.value, n.unit or unit or "", n.raw, clean_labels([text, ctx.heading]), text, "prose"))
            continue
        paragraph = _join(paragraph, text)
        if SENTENCE_END.search(text[-1:]) and text[-1] in "。！？!?":
            flush()
    flush()
    for para, heading in prose:
        for sentence in _sentences(para):
            for n in find_numbers(sentence):
                if n.start <= 2 and re.match(r"[.、)]\s*(?!\d)", sentence[n.end : n.end + 2] + " ") and not n.unit:
                    continue  # `2. 各字段…`, `3、…`: a list item's number
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
                    continue
                quote = sentence if len(sentence) <= 400 else sentence[max(0, n.start - 150) : n.end + 150]
                unit = n.unit or _rate_before(sentence[: n.start])
                out.append(Raw(n.value, unit, n.raw, clean_labels([quote, heading]), quote, "prose"))
    out.extend(_names(plain_lines, heading_before))
    return out


def _side_by_side(lines: list[Line]) -> list[Line]:
    """Two blocks printed side by side (a report's sidebar next to its body, a key–value panel next to a table):
    the left block's lines, then the right block's, where lines of both would otherwise join across the gutter.

    A gutter is an x that no segment crosses over a run of lines in which each side has lines of its own holding
    numbers, more of them than lines that reach across (a table's rows reach across the gaps between its columns).
    """
    if len(lines) < 7:
        return lines
    numeric = [_numeric(ln) for ln in lines]
    if sum(numeric) < 7:
        return lines
    # Candidate gutters: just right of a segment, crossed by at most all lines but seven (a difference array).
    xs = sorted({round(sg.x1 + 1.0, 1) for ln in lines for sg in ln.segs})
    crossed = [0] * (len(xs) + 1)
    for ln in lines:
        for sg in ln.segs:
            lo, hi = bisect.bisect_right(xs, sg.x0), bisect.bisect_left(xs, sg.x1)
            if lo < hi:
                crossed[lo] += 1
                crossed[hi] -= 1
    best: tuple[int, int, int, float] | None = None  # (size of the run, start, end, x)
    count = 0
    for i, x in enumerate(xs):
        count += crossed[i]
        if count > len(lines) - 7:
            continue
        start = 0
        for k in range(len(lines) + 1):
            if k < len(lines) and not any(sg.x0 < x < sg.x1 for sg in lines[k].segs):
                continue
            if k - start >= 7 and (best is None or k - start > best[0]):
                run = range(start, k)
                left = sum(1 for j in run if numeric[j] and lines[j].segs[-1].x1 < x)
                right = sum(1 for j in run if numeric[j] and lines[j].segs[0].x0 > x)
                both = sum(1 for j in run if numeric[j] and lines[j].segs[0].x0 < x < lines[j].segs[-1].x1)
                # (a table's wrapped row labels stand alone left of its rows, a few; its rows reach across, most)
                if min(left, right) >= 3 and 1 <= both < left + right:
                    best = (k - start, start, k, x)
            start = k + 1
    if best is None:
        return lines
    _n, start, end, x = best
    run_lines = lines[start:end]
    west = [Line(ln.y, ln.size, [sg for sg in ln.segs if sg.x1 < x]) for ln in run_lines]
    east = [Line(ln.y, ln.size, [sg for sg in ln.segs if sg.x0 > x]) for ln in run_lines]
    return [*lines[:start], *(ln for ln in west if ln.segs), *(ln for ln in east if ln.segs), *lines[end:]]


def _numeric(line: Line) -> bool:
    """A line with a labelled number (`总市值(百万元): 18,785.44`), not bare numbers (a chart's, a row group's)."""
    return any(ch.isdigit() for ch in line.text) and bool(_WORD.search(line.text))


_WORD = re.compile(r"[A-Za-z\u3400-\u9fff]{2,}")


def _without(lines: list[Line], items: list[tuple[float, float, float]]) -> list[Line]:
    """The page's lines without the segments a chart took (its ticks and data labels)."""
    out = []
    for ln in lines:
        segs = [
            sg
            for sg in ln.segs
            if not any(abs(y - ln.y) < ln.size and min(x1, sg.x1) - max(x0, sg.x0) > 0 for x0, x1, y in items)
        ]
        if segs:
            out.append(Line(ln.y, ln.size, segs) if len(segs) != len(ln.segs) else ln)
    return out


def _without_running_head(lines: list[Line], body: list[Line], page_height: float, ctx: PageContext) -> list[Line]:
    """The body without the page's top line when the page before began with the same text at the same height: a
    running head (a Word header just inside the margin band, `旧书交易网站-测试报告 黄亦非-3160104367`), so that it
    yields no figure and a table continued under it still starts its page."""
    top = max(lines, key=lambda ln: ln.y, default=None)
    if top is None:
        return body
    seen, ctx.head = ctx.head, (squash(top.text), top.y)
    if seen is None or not page_height or top.y < page_height * 0.85:
        return body
    if seen[0] != ctx.head[0] or abs(seen[1] - top.y) > 1.0:
        return body
    return [ln for ln in body if ln is not top]


def _body(lines: list[Line], page_height: float) -> list[Line]:
    """The lines between the page's top and bottom margins (running headers, footers and page numbers stand there).

    A line in a margin band still belongs to the body when it goes on from the body line next to it at the same
    size and line pitch: the last row of a table that fills a slide to its bottom edge.
    """
    if not page_height:
        return lines
    inside = [ln for ln in lines if page_height * 0.06 < ln.y < page_height * 0.94]
    if not inside:
        return inside
    keep = {id(ln) for ln in inside}
    for band in (sorted(lines, key=lambda ln: -ln.y), sorted(lines, key=lambda ln: ln.y)):
        prev: Line | None = None
        pitch = 0.0
        for ln in band:
            if id(ln) in keep:
                pitch = abs(prev.y - ln.y) if prev is not None and id(prev) in keep else pitch
                prev = ln
                continue
            if prev is None or id(prev) not in keep or round(ln.size) != round(prev.size) or not pitch:
                continue
            if abs(prev.y - ln.y) <= 1.15 * pitch and abs(prev.y - ln.y) < 2 * ln.size:
                keep.add(id(ln))
                prev = ln
    return [ln for ln in lines if id(ln) in keep]


def _names(lines: list[str], heading: str) -> list[Raw]:
    """Identifiers printed with digits (`Xeon 8280`, `Option 2/3/4/5/7`), once per page, as figures of kind `name`."""
    seen: set[str] = set()
    out: list[Raw] = []
    for text in lines:
        if is_heading(text, 0, 0):
            heading = text
        for name, ident in names(text):
            if name in seen:
                continue
            seen.add(name)
            value = float(re.match(r"\d+", ident).group(0))  # type: ignore[union-attr]  # the id starts with digits
            out.append(Raw(value, "", ident, clean_labels([name, heading]), text, "name"))
    return out
