"""Layout: positioned runs → lines of segments → reading order; captions and section headings."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from evidence.pdf.numbers import find_numbers, number_cell, printed_unit
from evidence.pdf.text import is_cjk, normalize

# ---- positioned text -------------------------------------------------------------------------------------------


@dataclass
class Seg:
    """A run of text on one line, with its horizontal extent."""

    x0: float
    x1: float
    text: str
    size: float


@dataclass
class Line:
    """Text at one height of the page, as segments left to right."""

    y: float
    size: float
    segs: list[Seg] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.segs)


def lines_of(runs: list[tuple[float, float, float, float, str]]) -> list[Line]:
    """Group runs into lines (top to bottom) and merge touching runs into segments; wide gaps split cells.

    Where a page prints its word spaces as glyphs (office suites and browsers do; TeX does not), a visible gap with no
    space in it is a cell boundary even when narrower than a space: `ABQ`|`Disruptor`, `5,321,004`|`25,914,530`.
    """
    items = []
    spaces: list[tuple[float, float, float]] = []  # (x0, x1, y) of printed spaces
    chars = blanks = 0
    for x0, x1, y, size, raw in runs:
        text = normalize(raw)
        chars += len(text)
        width = (x1 - x0) / max(len(text), 1)
        for m in re.finditer(r"\s+", text):
            blanks += len(m.group(0))
            spaces.append((x0 + m.start() * width, x0 + m.end() * width, y))
        if not text.strip():
            continue
        # Runs that hold wide internal gaps (two or more spaces) are several cells: split them proportionally.
        parts = [(m.start(), m.group(0)) for m in re.finditer(r"\S+(?: \S+)*", text)]
        for off, part in parts:
            a, b = x0 + off * width, x0 + (off + len(part)) * width
            # A single printed space between this part and its run's edge: where the run's box starts or ends.
            lead = x0 if off == 1 and text[0] == " " else None
            tail = x1 if off + len(part) == len(text) - 1 and text[-1] == " " else None
            items.append((a, b, y, size, part, (a + _blank_lead(raw, off, width, size), lead, tail)))
    explicit = chars > 0 and blanks >= 0.03 * chars
    items.sort(key=lambda r: (-r[2], r[5][0]))
    lines: list[Line] = []
    # id(seg) -> where its ink starts (the key segments are ordered by) and its run's box beyond a single space
    meta: dict[int, tuple[float, float | None, float | None]] = {}
    for x0, x1, y, size, text, info in items:
        line = next((ln for ln in reversed(lines[-3:]) if _same_line(ln, y, size, x0, x1)), None)
        if line is None:
            line = Line(y, size)
            lines.append(line)
        seg = Seg(x0, x1, text, size)
        meta[id(seg)] = info
        line.segs.append(seg)
        if size > line.size:
            line.y, line.size = y, size  # a line stands where its body text does, not where a superscript does
    for line in lines:
        line.segs.sort(key=lambda s: meta[id(s)][0])
        # Printed spaces matter only where two runs sit close enough to be merged.
        merge = any(b.x0 - a.x1 < 0.9 * b.size for a, b in itertools.pairwise(line.segs))
        gaps = [(a, b) for a, b, y in spaces if abs(y - line.y) <= 0.45 * line.size] if explicit and merge else []
        merged: list[Seg] = []
        widest: list[float | None] = []  # per merged segment: the widest gap it was joined over (None: one run)
        split_point: list[bool] = []  # per merged segment: a decimal point was joined to its digits over one space
        trail: float | None = None  # the box end of the last run merged, past a single trailing space
        for s in line.segs:
            if merged:
                prev = merged[-1]
                gap = s.x0 - prev.x1
                tight = widest[-1] is not None and widest[-1] < 0.05 * prev.size
                if (
                    gap < 0.9 * min(prev.size, s.size)
                    and not _keep_apart(prev.text, s.text, gap, s.size)
                    and not (explicit and _unspaced_gap(prev, s, gaps, tight))
                ):
                    sep = "" if gap < 0.15 * s.size else " "
                    lead = meta[id(s)][1]
                    touch = (lead is not None and abs(lead - prev.x1) < 0.15 * s.size) or (
                        trail is not None and abs(s.x0 - trail) < 0.15 * s.size
                    )
                    if sep and touch and _LONE_POINT.fullmatch(prev.text) and s.text[:1].isdigit():
                        split_point[-1] = True
                    trail = meta[id(s)][2]
                    merged[-1] = Seg(prev.x0, max(prev.x1, s.x1), prev.text + sep + s.text, max(prev.size, s.size))
                    widest[-1] = max(widest[-1] or 0.0, gap)
                    continue
            merged.append(Seg(s.x0, s.x1, s.text.strip(), s.size))
            widest.append(None)
            split_point.append(False)
            trail = meta[id(s)][2]
        for i, s in enumerate(merged):
            if split_point[i] and _SPLIT_DECIMAL.fullmatch(s.text):
                s.text = s.text.replace(". ", ".")
        line.segs = [s for s in merged if s.text.strip()]
    lines.sort(key=lambda ln: -ln.y)
    return [ln for ln in lines if ln.segs]


# Full-width opening punctuation prints its ink in the right half of its em box; Word and WPS squeeze that blank half
# under the glyph before it (标点挤压), so the box can start left of that glyph: `reques` `（` `t` `ms` `）`.
_FULLWIDTH_OPENERS = "（［｛〔【〖〘〚「『《〈“‘"
# A cell that is one number whose decimal point a single printed space parts from its digits (`481. 57`, a Word
# glyph run split after the point), as opposed to a list marker (`1.` then a tab) or a sentence going on after it.
_LONE_POINT = re.compile(r"[+\-]?\d{1,3}(?:,\d{3})*\.|[+\-]?\d+\.")
_SPLIT_DECIMAL = re.compile(r"[+\-]?\d[\d,]*\. \d+")


def _blank_lead(raw: str, off: int, width: float, size: float) -> float:
    """How far right of its box a part of a run starting at `off` starts inking: half a full-width opener, else 0."""
    ch = raw[off : off + 1]
    return 0.5 * min(width, size) if ch and ch in _FULLWIDTH_OPENERS and width >= 0.8 * size else 0.0


def _same_line(line: Line, y: float, size: float, x0: float, x1: float) -> bool:
    """A run at this height joins the line; a smaller run raised or lowered by up to half the line's size is a
    superscript or subscript of it when it touches one of its runs (`1` + raised `st`, `m` + `2`)."""
    if abs(line.y - y) <= 0.45 * min(line.size, size):
        return True
    small, big = min(size, line.size), max(size, line.size)
    if small > 0.8 * big or abs(line.y - y) > 0.5 * big:
        return False
    return any(s.x0 - 0.2 * big <= x1 and x0 <= s.x1 + 0.2 * big for s in line.segs)


def _unspaced_gap(prev: Seg, seg: Seg, spaces: list[tuple[float, float]], tight: bool = False) -> bool:
    """A visible gap between two runs that no printed space fills: two cells. Justified CJK spaces its characters
    apart evenly, so a gap between CJK characters splits cells only after glyphs that touch (`tight`): a browser's
    header `线程数` | `延迟(ms)` with a 1.5 pt cell padding between them."""
    gap = seg.x0 - prev.x1
    if gap < 0.12 * seg.size or (is_cjk(prev.text[-1]) and is_cjk(seg.text[0]) and not tight):
        return False
    slack = 0.3 * seg.size
    return not any(a < seg.x0 + slack and b > prev.x1 - slack for a, b in spaces)


def _keep_apart(left: str, right: str, gap: float, size: float) -> bool:
    # Two numbers side by side with a visible gap are two cells, never one number (`330,435.30 234,850.00`).
    return gap > 0.2 * size and bool(re.search(r"\d[%)]?$", left)) and bool(re.match(r"[+\-]?\d", right))


# ---- page structure ----------------------------------------------------------------------------------------------

_CAPTION = re.compile(
    r"^\s*(?:(?:附)?表|图|Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)\s*(?:[A-Z][-.]?)?\d+(?:[-.–]\d+)*\s*[:：.]?"
)
_HEADING = re.compile(
    r"^\s*(?:(?:\d{1,2}(?:\.\d{1,2}){0,3})\.?|[一二三四五六七八九十]+\s*[、.．]|第[一二三四五六七八九十\d]+[章节]|附录\s*[A-Z]?|Appendix\s+[A-Z])"
    r"\s*[^\d\s.,;:%].{0,50}$"
)
# A period ends a sentence, not an abbreviation a header or label prints (`序号 No.`, `vs.`, `e.g.`).
SENTENCE_END = re.compile(r"[。！？；!?;]|(?<!\bNo)(?<!\bno)(?<!\bvs)(?<!\bVs)(?<!e\.g)(?<!i\.e)(?<!\betc)\.(?=\s|$)")


def spaced_caption(text: str) -> str:
    # Letter-spaced captions (`Ta b l e 1 .`) defeat the caption pattern; squeeze them first.
    m = re.match(r"^\s*T\s*a\s*b\s*l\s*e\s*(\d)", text)
    return "Table " + text[m.start(1) :] if m else text


def is_caption(text: str) -> bool:
    return bool(_CAPTION.match(spaced_caption(text)))


def is_heading(text: str, size: float = 0.0, body: float = 0.0) -> bool:
    """A numbered section heading (`4.1 长上下文冷恢复 TTFT`, `二、授信情况`), short and without sentence punctuation."""
    t = text.strip()
    if len(t) > 60 or len(t) < 2 or is_caption(t) or t.endswith(("。", ".", ",", ";", "，", "；", ":", "：")):
        return False
    if not _HEADING.match(t):
        return False
    if re.match(r"^\s*0|^\s*\d+(?:\.\d+)*[A-Za-z]|://", t):
        return False  # `0.6Cache Hit Rate`, `8Replica Count`, `10th`, URLs: chart and reference debris
    head = re.match(r"^\s*[\d.]+\s*", t)
    rest = t[head.end() :] if head else t
    if not re.search(r"[\u3400-\u9fff]|[A-Za-z]{3,}", rest) or printed_unit(rest) or re.search(r"[/_=]|\.py", rest):
        return False  # `16 GT/s` is a chart label and `4 保存日志/stderr` a flow diagram, not section 16 or 4
    # `3 测试方法` is a heading; `8 p50 10.17 7.53` is a table row: headings carry (almost) no further numbers.
    return len(find_numbers(rest)) <= (1 if size > body * 1.1 else 0) and not number_cell(rest)


def reading_order(lines: list[Line], width: float) -> list[Line]:
    """Two-column pages become left column then right column (between full-width lines); others stay as they are.

    A page is two-column when a vertical gutter near the middle is crossed by few lines and wide prose segments
    sit on both sides of it; table columns never make such wide segments on both sides.
    """
    if len(lines) < 8 or width <= 0:
        return lines

    def crossing(ln: Line, g: float) -> bool:
        return any(sg.x0 < g - 1 and sg.x1 > g + 1 for sg in ln.segs)

    best_g, best_n = 0.0, len(lines) + 1
    for step in range(41):
        g = width * (0.4 + 0.005 * step)
        n = sum(1 for ln in lines if crossing(ln, g))
        if n < best_n:
            best_g, best_n = g, n
    g = best_g
    if best_n > 0.2 * len(lines):
        return lines
    wide = 0.28 * width
    left = sum(1 for ln in lines for sg in ln.segs if sg.x1 <= g and sg.x1 - sg.x0 > wide)
    right = sum(1 for ln in lines for sg in ln.segs if sg.x0 >= g and sg.x1 - sg.x0 > wide)
    if left < 5 or right < 5:
        return lines
    out: list[Line] = []
    block_left: list[Line] = []
    block_right: list[Line] = []

    def flush() -> None:
        out.extend(block_left)
        out.extend(block_right)
        block_left.clear()
        block_right.clear()

    for ln in lines:
        if crossing(ln, g):
            flush()
            out.append(ln)
            continue
        ls = [sg for sg in ln.segs if sg.x1 <= g + 1]
        rs = [sg for sg in ln.segs if sg.x1 > g + 1]
        if ls:
            block_left.append(Line(ln.y, max(sg.size for sg in ls), ls))
        if rs:
            block_right.append(Line(ln.y, max(sg.size for sg in rs), rs))
    flush()
    return out
