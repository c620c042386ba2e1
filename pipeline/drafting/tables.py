"""The cited reports read as tables: rows, columns, baseline → improved comparisons, and `label: value` blocks."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace

from evidence.models import Figure
from evidence.units import canonical
from pipeline.drafting.lang import CJK, RATIO_UNITS
from qc.index import EvidenceIndex
from qc.units import parse_unit

CAPTION = re.compile(r"^\s*(?:表|图|Table|Tab\.|Figure|Fig\.)\s*[A-Z]?\d")
HEADING = re.compile(
    r"^\s*(?!.*\*\*)"
    r"(?:(?:\d+(?:\.\d+)*\.?|附录\s*[A-Z]|Appendix\s+[A-Z])\s+\S|(?:\d+|[一二三四五六七八九十]+)\s*、\s*[^\d\s])"
)  # `4.1 Results`, `附录 A …`, and Chinese numbering `5、参数敏感性测试`, `二、性能分析`; a line in Markdown markup
# (`4. **Exam Date: April 10, 2025**`, a model's answer a report quotes) is a list item of that text, no heading
APPENDIX = re.compile(r"^\s*(?:附录|Appendix)\b", re.IGNORECASE)
BASELINE = re.compile(
    r"基线|baseline|默认|default|NFS|重算|无外存|本地|before|原始|original|vanilla|w/o", re.IGNORECASE
)
# A column named as another one without its feature (`无负载均衡` beside `负载均衡`, `without cache` beside `cache`)
# or before it (`缓存前` beside `缓存后`): the baseline of that row, by the table's own words (`无形资产` beside
# `营业收入` names nothing else of the table).
WITHOUT = re.compile(r"^\s*(?:无|未|不|without\s+|no\s+)(?P<x>.+?)\s*$", re.IGNORECASE)
BEFORE = re.compile(r"^\s*(?P<x>.+?)\s*(?:前|之前)\s*$")
# Two runs of one test (`Run 1 (5.4.0) | Run 2 (5.4.1)`, `第 1 轮`): the earlier is the before, when a question asks
# how things changed (two runs may also be repeats of one measurement: only the question tells).
RUN = re.compile(r"\b(?:run|round|pass|trial|iteration)\s*#?\s*(\d+)\b|第\s*(\d+)\s*[轮次]", re.IGNORECASE)
UNIT_IN_LABEL = re.compile(r"\s*[((][^()()]*[))]\s*$")
UNIT_AFTER_SLASH = re.compile(r"\s*/\s*([A-Za-z%]+)\s*$")  # `延迟/ms`; not the ratio `PG/BQ`, whose `BQ` is no unit
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?[KkMB万亿]?")
QUALIFIER = re.compile(r"(约|≈|~|≥|≤|>|<|about|up to)\s*$", re.IGNORECASE)
KEYSEP = "\x1f"
LETTER = re.compile(r"[A-Za-z\u3400-\u9fff]")
# A heading as office suites number it (`4. 测试结果`, `3.1 Multi-CPU`, `第1节 …`, `3.分享社区相关接口测试`): it names
# the section, not a row.
NUMBERED_HEADING = re.compile(
    r"^\s*(?:第\s*[\d一二三四五六七八九十]+\s*[节章]|\d+(?:\.\d+)*\.\s|\d+(?:\.\d+)*\.(?=[\u3400-\u9fff])|\d+(?:\.\d+)+\s|(?:\d+|[一二三四五六七八九十]+)\s*、\s*(?=[^\d\s]))"
)
RUNNING = re.compile(r"^\s*(?:[一二三四五六七八九十]+、|(?:序号|No\.?|#)\s*\d+\s*$)", re.IGNORECASE)
# The conditions a test sweeps (value size, batch, concurrency…), and a load tool's count of samples (JMeter's
# `Samples`: how many requests were sent): a column of them keys the rows, it is no result.
# A bare `value`/`size` header is one only over data sizes (`value 64 KB`); a `Value` column of TFLOPS is a result.
SIZE_HEADER = re.compile(r"(?:^|\s)(?:value|size)$", re.IGNORECASE)
CONDITION = re.compile(
    r"(?:^|\s)(?:value\s*size|block\s*size|object\s*size|io\s*size|bs|batch(?:\s*size)?|concurrency|"
    r"threads?|workers?|clients?|iodepth|queue\s*depth|qd|并发(?:数|档位)?|线程数?|批大小|块大小|对象大小|"
    r"#?\s*samples?|样本(?:数|量)?|采样数)$",
    re.IGNORECASE,
)
# Label text a parser broke (a code identifier, a word cut at a hyphen, CJK spaced out letter by letter, an
# unbalanced bracket): no reader could read it, so the drafter never prints it.
CODE_WORD = re.compile(r"[A-Za-z]-$|[A-Za-z]-\s|[;{}]\s*$")  # (`float x;`: a code line)
# Two snake_case words are code (`LD_PRELOAD get_alloc_func_addr`); one is a name (`IVF_PQ`, `input3_double (2x)`).
SNAKE = re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b")
# A label a value ran into (`Standby power0.305W`): the parser fused a cell into its neighbour's header.
FUSED = re.compile(r"[A-Za-z\u3400-\u9fff]\d+\.(?:\d{2,}|\d[A-Za-z°%])")
PERIOD_KEY = re.compile(r"^\s*(?:FY\s*)?(?:19|20)\d{2}\s*[AEFHQ]?\d?\s*$", re.IGNORECASE)  # `2022E`, `FY2024`
SPACED_CJK = re.compile(r"[\u3400-\u9fff](?:\s[\u3400-\u9fff]){2,}")
# A list item's marker as extracted: a dash, a bullet, an arrow (`➢ GPU`), or the glyph a symbol font maps to a
# control or private-use code point (`\x7f Fastest Model`).
BULLET = re.compile(r"^[\s\-*•·‣⁃▪▫■□●○◦◆◇►▶➢➤✓✔\x00-\x1f\x7f-\x9f\ue000-\uf8ff]+")
# A date as printed (`04/01/2021`, `2021-04-01`, `2021.04.01`): its parts are no figures.
DATE = re.compile(
    r"(?<![\d.])(?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d{2}|(?:19|20)\d{2}[/.-]\d{1,2}[/.-]\d{1,2})(?![\d.])"
)
# A contents line: a title, a dot leader, a page number (`ops/sec 8B k&v fillseq MT engines . . . . 6`, `概述……3`).
CONTENTS = re.compile(r"(?:\.\s*|…|·){2,}\s*\d+\s*$")
# A `label: value` line whose label is a clause, not a metric's or condition's term (`The checkout endpoint benefited
# most: its average response time fell from 790 ms to 498 ms`, `LFW dataset is: 0.73`): prose split at its colon.
CLAUSE_LABEL = re.compile(
    r"^(?:the|this|these|those|its|it|our|we|they|there)\s+\S+\s+\S|\s(?:is|are|was|were|has|have)$", re.IGNORECASE
)
# Tables that describe the test bed (hardware, software, settings) answer no question about results.
ENVIRONMENT = re.compile(
    r"测试环境|实验环境|环境配置|实验设置|运行配置|配置项|软硬件|硬件配置|test (?:environment|setup|bed)|testbed|"
    r"experimental setup|hardware|environment",
    re.IGNORECASE,
)


@dataclass
class Cell:
    fig: Figure
    col: str  # column header ("" if none)


@dataclass
class Row:
    keys: list[str]  # what identifies the row: row labels, key cells
    cells: list[Cell]

    def cell(self, col: str) -> Figure | None:
        """The row's figure in column `col`, if it has one."""
        return next((c.fig for c in self.cells if c.col == col), None)


@dataclass
class Comparison:
    """Baseline → improved for one metric, with the printed change if the table has one."""

    metric: str
    row: str
    before: Figure
    after: Figure
    change: Figure | None = None
    ratio: bool = False
    before_col: str = ""
    after_col: str = ""  # without a printed change: state a speedup (×) rather than a percentage
    apart: bool = False  # before and after from two tables (two runs): a change no one table backs is not stated


@dataclass
class Spec:
    """One printed line of a report's test-bed list: `label` and `value` as printed, the figures it holds."""

    label: str
    value: str
    figures: list[Figure] = field(default_factory=list)


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
    rows: list[Row] = field(default_factory=list)  # a table's rows (empty for `label: value` blocks)
    specs: list[Spec] = field(default_factory=list)  # the test bed's spec items (a setting group only)


def _strip_unit(label: str) -> str:
    label = UNIT_IN_LABEL.sub("", label)
    m = UNIT_AFTER_SLASH.search(label)
    if m and canonical(m.group(1)) is not None:
        label = label[: m.start()]
    return label.strip()


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
    """A cell that repeats its row's key (`4KB` in the row `value 4KB`): the condition of the row, not a result."""
    raw = cell.fig.raw.strip()
    if not cell.fig.unit:
        return any(raw in k.split() for k in keys)
    compact = re.escape(re.sub(r"\s+", "", raw))
    tight = re.compile(rf"(?<![\d.]){compact}(?![\d.])", re.IGNORECASE)
    return any(tight.search(re.sub(r"\s+", "", k)) for k in keys)


def garbage(label: str) -> bool:
    """Is `label` a fragment a parser broke rather than words a reader could read?"""
    opened = label.count("(") + label.count("(") - label.count(")") - label.count(")")
    code = CODE_WORD.search(label) or len(SNAKE.findall(label)) > 1
    return bool(code or SPACED_CJK.search(label) or FUSED.search(label) or opened)


def condition(cell: Cell, keys: list[str]) -> bool:
    """A cell that states a row's condition, not its result: it repeats the row's key, or its column is swept."""
    col = _strip_unit(cell.col).strip()
    swept = parse_unit(cell.fig.unit).dim == "bytes" if SIZE_HEADER.search(col) else bool(CONDITION.search(col))
    return swept or _is_key(cell, keys)


def report_groups(index: EvidenceIndex, rid: str) -> list[Group]:
    """Group a report's table cells into tables and rows, and its `label: value` lines into blocks."""
    figs = index.figures.get(rid, [])
    tables: dict[tuple[int, str], list[Figure]] = defaultdict(list)
    kv_blocks: dict[tuple[int, str], list[Figure]] = defaultdict(list)
    for f in figs:
        caption = next((lbl for lbl in f.labels if CAPTION.match(lbl)), "")
        section = next((lbl for lbl in f.labels if HEADING.match(lbl) and not CAPTION.match(lbl)), "")
        if APPENDIX.match(section) or APPENDIX.match(caption) or ENVIRONMENT.search(caption + " " + section):
            continue
        if not any(LETTER.search(lbl) for lbl in f.labels):
            continue  # a figure no word names (a chart's data label, `23.323.3`) cannot be stated in context
        if f.kind == "cell" and (caption or f.labels):  # a captionless table is one per page and section
            tables[(f.page, caption or section)].append(f)
        elif f.kind == "kv":
            kv_blocks[(f.page, section)].append(f)
        # prose figures are never used: report prose is not a source of sentences (nor of instructions)
    position = {f.id: i for i, f in enumerate(figs)}
    # A list of figures or a table of contents prints figure and page numbers, no measurement: most of its lines
    # end in a dot leader and a page number (a title ending in one dot, `(w/ robinhood) . 11`, is of the list too).
    tables = {k: cells for k, cells in tables.items() if not _contents(cells)}
    groups = [_table_group(rid, key, cells, position[cells[0].id]) for key, cells in tables.items()]
    # A `加速比: 18.3 倍` line restates a table's change; the comparison already says it, with its operands.
    changes = [(_change_value(c), c) for g in groups for c in g.comparisons]
    for (page, section), facts in kv_blocks.items():
        facts = [
            f
            for f in facts
            if not any(_restates(f, v, c) for v, c in changes)
            and not garbage(_kv_label(f))
            and not CLAUSE_LABEL.search(_kv_label(f))
            and not CONTENTS.search(f.quote or "")
            and not in_date(f)
        ]
        if not facts:
            continue
        labels = [_kv_label(f) for f in facts]
        groups.append(Group(rid, (page, position[facts[0].id]), "", section, " ".join([section, *labels]), facts=facts))
    return [g for g in groups if g.comparisons or g.facts]


def in_date(f: Figure) -> bool:
    """Is the figure a part of a date its line prints (`Testing date: 04/01/2021` read as 04 and 01)?"""
    token = re.compile(rf"(?<![\d.]){re.escape(f.raw)}(?![\d])")
    return any(token.search(m.group()) for m in DATE.finditer(f.quote or ""))


def _contents(cells: list[Figure]) -> bool:
    """Is this table a contents list (most of its printed lines end in a dot leader and a page number)?"""
    lines = {f.quote for f in cells if f.quote}
    return len(lines) >= 2 and 2 * sum(bool(CONTENTS.search(q)) for q in lines) > len(lines)


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
    digits = printed_number(f).split(".")[1] if "." in printed_number(f) else ""
    return abs(f.value - value) <= 0.5 * 10 ** -len(digits) + 1e-9


def _kv_label(f: Figure) -> str:
    own = [lbl for lbl in f.labels if not HEADING.match(lbl) and not CAPTION.match(lbl)]
    if own:
        return BULLET.sub("", own[0]).strip() or own[0]  # a bullet's marker (`- 测试时长`) is no part of the label
    return f.quote.split(":")[0].split(":")[0].strip() if f.quote else ""


SPREAD = re.compile(r"(?:±|\+/-)\s*([\d.,]+)")


def spread(f: Figure) -> bool:
    """A cell's `± 127` of `16,420 ± 127` (mean ± standard deviation, as fio and most tools print): a spread of the
    value before it, no result of its own (and no column of its own: its header is the mean's)."""
    if not f.quote or not f.raw:
        return False
    after = {m.group(1).rstrip(".,") for m in SPREAD.finditer(f.quote)}
    before = re.sub(SPREAD, " ", f.quote)
    return f.raw in after and not re.search(rf"(?<![\d.,]){re.escape(f.raw)}(?![\d.,])", before)


def _table_group(rid: str, key: tuple[int, str], figs: list[Figure], position: int) -> Group:
    page, caption = key
    section = next((lbl for lbl in figs[0].labels if HEADING.match(lbl) and not CAPTION.match(lbl)), "")
    # Rows are the printed lines (quotes); a label shared by several rows is a column header.
    by_row: dict[str, list[Figure]] = defaultdict(list)
    for f in figs:
        if not spread(f):
            by_row[f.quote or f"{f.page}:{f.id}"].append(f)
    label_rows: dict[str, set[str]] = defaultdict(set)
    for q, fs in by_row.items():
        for f in fs:
            for lbl in f.labels:
                label_rows[lbl].add(q)
    # The caption and each cell's section heading (a table may run on under the next heading) name no row.
    structural = {
        caption,
        *(next((lb for lb in f.labels if HEADING.match(lb) and not CAPTION.match(lb)), "") for f in figs),
    }
    rows: list[Row] = []
    for fs in by_row.values():
        own = [[lbl for lbl in f.labels if lbl not in structural and not NUMBERED_HEADING.match(lbl)] for f in fs]
        if len(fs) > 1:  # within a row, the row's labels repeat on its cells and each column header is on one
            shared = list(dict.fromkeys(lbl for o in own for lbl in o if sum(lbl in x for x in own) > 1))
        else:  # a one-cell row: a label found on other rows too is the column header
            shared = [lbl for lbl in own[0] if len(label_rows[lbl]) == 1 or len(by_row) == 1]
        cells = []
        for f, o in zip(fs, own, strict=True):
            cols = [lbl for lbl in o if lbl not in shared]
            cells.append(Cell(f, cols[-1] if cols else ""))
        # Section numbers (`二、授信情况`) and running numbers (`序号 1`) say nothing a reader needs of the row.
        shared = [lbl for lbl in shared if not RUNNING.match(lbl)] or shared
        longest = max(own, key=len)  # a value cell lists the row's labels in their printed order
        keys = sorted(shared, key=lambda lbl: longest.index(lbl) if lbl in longest else len(longest))
        if any(garbage(k) for k in keys) or sum(bool(PERIOD_KEY.match(k)) for k in keys) > 1:
            # A row named by broken text, or by the periods of a header (`每股收益 2022E 2023E 2024E 营业成本`: two
            # tables printed side by side read as one), cannot be stated in context.
            continue
        cells = [c for c in cells if not condition(c, keys) and not garbage(c.col) and not in_date(c.fig)]
        # A value neither a column header nor a unit names (`6` beside `168` in a headerless row) says nothing a
        # reader can check: it is not stated.
        cells = [c for c in cells if c.col or c.fig.unit]
        rows.append(Row(keys, cells))
    group = Group(rid, (page, position), caption, section, "")
    group.comparisons, group.facts = _compare(rows, caption)
    group.rows = [r for r in rows if r.cells]
    words = {caption, section, *(k for r in rows for k in r.keys), *(c.col for r in rows for c in r.cells)}
    group.text = " ".join(sorted(w for w in words if w))
    return group


def _row_name(row: Row) -> str:
    return KEYSEP.join(k for k in row.keys if k)  # joined per language when written


def _compare(
    rows: list[Row], caption: str = "", baseline: re.Pattern[str] = BASELINE
) -> tuple[list[Comparison], list[Figure]]:
    """Baseline/improved pairs within a row (columns), else across rows (a baseline row), else facts."""
    comps, facts = _pairs(rows, _caption_metric(caption) if _swept(rows) else "", baseline)
    _one_way(comps)
    return comps, facts


def _one_way(comps: list[Comparison]) -> None:
    """One table speaks one way: speedups (×) only when every computed change of it is large, else percentages."""
    computed = [c for c in comps if c.change is None]
    ratio = bool(computed) and all(_factor(c) >= (1.5 if c.after.value < c.before.value else 2.0) for c in computed)
    for c in computed:
        c.ratio = ratio


def _factor(c: Comparison) -> float:
    b, a = c.before.value, c.after.value
    return b / a if a < b else a / b


CAPTION_NUMBER = re.compile(r"^\s*(?:表|Table|Tab\.)\s*[A-Z]?[\d.-]*\s*[::.–—-]?\s*")  # (`Table 1 – Search …`)


def _caption_metric(caption: str) -> str:
    """What a caption says is measured: `表 2-1 长上下文场景首字延迟(单位:秒)` → `长上下文场景首字延迟`."""
    text = re.sub(r"\s*[((][^()()]*[))]\s*$", "", CAPTION_NUMBER.sub("", caption)).strip()
    return text if LETTER.search(text) else ""


def _swept(rows: list[Row]) -> bool:
    """Rows keyed by one swept condition (`上下文长度 32K`, `上下文长度 64K`): the rows name conditions, not metrics."""
    if len(rows) < 2 or any(len(r.keys) != 1 for r in rows):
        return False
    heads = {re.sub(r"\s*\S*\d\S*$", "", r.keys[0]).strip() for r in rows}
    return len(heads) == 1 and all(re.search(r"\d", r.keys[0]) for r in rows) and bool(heads - {""})


def _pairs(
    rows: list[Row], topic: str = "", baseline: re.Pattern[str] = BASELINE
) -> tuple[list[Comparison], list[Figure]]:
    comps: list[Comparison] = []
    facts: list[Figure] = []
    for row in rows:
        cols = [c.col for c in row.cells if c.col]
        base = [
            c
            for c in row.cells
            if c.col
            and (baseline.search(c.col) or (baseline is BASELINE and _without(c.col, cols)))
            and c.fig.unit not in RATIO_UNITS
        ]
        if not base or any(c.fig.unit == base[0].fig.unit for c in base[1:]):
            continue  # (the name fits two columns of one quantity, `Vectra 4.0 QPS` and `Vectra 3.6 QPS`: no baseline)
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
        if metric and re.search(rf"{re.escape(metric)}[-_][A-Za-z]|[A-Za-z][-_]{re.escape(metric)}", a.col):
            metric = ""  # `Original Caffe | Caffe-HRT`: what they share names the system compared, not a metric
        name = _row_name(row)
        if not metric and topic:  # headers are `本地重算 | 开启外存缓存`, rows a swept condition: the caption's metric
            metric = topic
        elif not metric:  # headers are `基线 | FX100`: the row names the metric
            metric, name = _strip_unit(name.replace(KEYSEP, " ")), ""
        if b.fig.value == a.fig.value or b.fig.value <= 0 or a.fig.value <= 0:  # nothing to compare by ratio
            facts.append(a.fig)
            continue
        comps.append(Comparison(metric, name, b.fig, a.fig, change, before_col=b.col, after_col=a.col))
    if comps or facts:
        return comps, facts
    names = [_row_name(r) for r in rows]
    base_rows = [
        r for r in rows if baseline.search(_row_name(r)) or (baseline is BASELINE and _without(_row_name(r), names))
    ]
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
                    Comparison(
                        _strip_unit(cell.col),
                        f"{_row_name(row)}\0{_row_name(b_row)}",
                        ref.fig,
                        cell.fig,
                        before_col=_row_name(b_row),
                        after_col=_row_name(row),
                    )
                )
        if comps:
            return comps, facts
    return [], [c.fig for r in rows for c in r.cells]


def _without(name: str, names: list[str]) -> bool:
    """Is `name` another of `names` without its feature, or before it (`无负载均衡` / `负载均衡`, `缓存前` / `缓存后`)?"""
    if m := WITHOUT.match(name):
        return any(o != name and m.group("x").lower() in o.lower() for o in names)
    if m := BEFORE.match(name):
        x = m.group("x")
        return any(o != name and o.startswith(x) and o.rstrip().endswith("后") for o in names)
    return False


def printed_number(fig: Figure) -> str:
    m = NUMBER.search(fig.raw)
    return m.group(0) if m else f"{fig.value:g}"


def against(g: Group, term: str) -> Group | None:
    """The table compared with the baseline a question names (`faster than the ABQ`): its `ABQ` column (or row)
    against the column (row) beside it, for a table that names no baseline of its own; None if none is named."""
    if g.comparisons or not g.rows or not term:
        return None
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(term)}(?![A-Za-z0-9])", re.IGNORECASE)
    comps, _ = _compare(g.rows, g.caption, pattern)
    for c in comps:
        if "\0" not in c.row:  # columns: `Platform A Disruptor vs. Platform A ABQ`, the quantity named by its kind
            c.row = KEYSEP.join(k for k in (c.row or c.metric, c.after_col) if k) + "\0" + c.before_col
            c.metric = ""
    if not comps:
        return None
    return Group(g.report, g.order, g.caption, g.section, g.text, comparisons=comps, rows=g.rows)


def earlier(a: str, b: str) -> int:
    """Which of two names is the before of a before → after (0: `a`, 1: `b`, -1: neither): the lower run
    (`Run 1` / `Run 2`), the baseline (`baseline` / `optimised`), the one before (`优化前` / `优化后`)."""
    nums = [next((int(n) for n in m.groups() if n), 0) if (m := RUN.search(x)) else 0 for x in (a, b)]
    if all(nums) and nums[0] != nums[1]:
        return 0 if nums[0] < nums[1] else 1
    base = [bool(BASELINE.search(x)) for x in (a, b)]
    if base[0] != base[1]:
        return 0 if base[0] else 1
    for x, y, i in ((a, b, 0), (b, a, 1)):
        if "前" in x and x.replace("之前", "之后").replace("前", "后") == y:
            return i
    return -1


def runs(g: Group) -> Group | None:
    """A table of two runs side by side (`Metric | Run 1 (5.4.0) | Run 2 (5.4.1) | Change`) as before → after, each
    row's metric from the earlier run's column to the later's, with the row's printed change (`+36.6%`, `-1.16 pp`);
    None when the table compares already or prints no such pair."""
    if g.comparisons or not g.rows:
        return None
    cols = list(dict.fromkeys(c.col for r in g.rows for c in r.cells if RUN.search(c.col)))
    if len(cols) != 2 or earlier(*cols) < 0:
        return None
    before, after = cols if earlier(*cols) == 0 else cols[::-1]
    comps = []
    for r in g.rows:
        b, a = r.cell(before), r.cell(after)
        if b is None or a is None or b.unit != a.unit or b.value == a.value or min(b.value, a.value) <= 0:
            continue
        change = next((c.fig for c in r.cells if c.col not in cols and c.fig.unit != b.unit
                       and (c.fig.unit in ("%", "pp") or c.fig.unit in RATIO_UNITS)), None)  # fmt: skip
        name = _strip_unit(_row_name(r).replace(KEYSEP, " "))
        comps.append(Comparison(name, "", b, a, change, before_col=before, after_col=after))
    _one_way(comps)
    return replace(g, comparisons=comps) if comps else None


def twins(g: Group, groups: list[Group]) -> Group | None:
    """Two tables of one shape, one per run (`Table 3. Aggregate Report — Run 1 (baseline)`, `Table 4. … — Run 2
    (optimised)`), as one before → after: per row and column, the earlier table's figure to the later's. Named by
    their section (neither caption names both)."""
    if g.comparisons or not g.rows:
        return None
    shape = _shape(g)
    for h in groups:
        if h is g or h.report != g.report or h.comparisons or _shape(h) != shape:
            continue
        which = earlier(CAPTION_NUMBER.sub("", g.caption), CAPTION_NUMBER.sub("", h.caption))
        if which < 0:
            continue
        old, new = (g, h) if which == 0 else (h, g)
        comps = []
        for ro, rn in zip(old.rows, new.rows, strict=True):
            name = KEYSEP.join(_measured(ro))
            for cell in ro.cells:
                a = rn.cell(cell.col)
                b = cell.fig
                if a is None or not cell.col or a.unit != b.unit or a.value == b.value or min(a.value, b.value) <= 0:
                    continue
                comps.append(Comparison(_strip_unit(cell.col), name, b, a, before_col=old.caption,
                                        after_col=new.caption, apart=True))  # fmt: skip
        if comps:
            return Group(
                g.report, old.order, "", old.section, f"{old.text} {new.text}", comparisons=comps, rows=new.rows
            )
    return None


def _shape(g: Group) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """A table's row names and columns, in order."""
    return tuple(_measured(r) for r in g.rows), tuple(dict.fromkeys(c.col for r in g.rows for c in r.cells))


def _measured(r: Row) -> tuple[str, ...]:
    """What a row measures, its count of samples aside (`GET /api/v2/cart`, not `# Samples 829,260`: each run
    sends its own count)."""
    return tuple(k for k in r.keys if not CONDITION.search(re.sub(r"[\s\d.,]+$", "", k)))
