"""Which figures answer which question: label and caption terms (zh↔en), the kind of quantity asked for, headlines.

The rule, used by the offline drafter, the LLM prompt and the bench alike: a group (a table or a `label: value`
block) answers a question when they share terms (idf-weighted; Chinese labels meet English questions through the
glossary and the reports' own `中文(English)` terms) and, if the question names a kind of quantity (bandwidth,
latency, time, throughput…, from its words), the group holds figures of that kind (from their units). A question
nothing overlaps gets the reports' headline comparisons, so no section is empty while the reports hold figures.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache

from evidence.models import Figure
from evidence.pdf import find_numbers
from pipeline.brief import Brief
from pipeline.drafting.lang import CJK, RATIO_UNITS, Lang, terms
from pipeline.drafting.prose import prose_groups
from pipeline.drafting.setting import asks_setting, setting_groups
from pipeline.drafting.tables import (
    CAPTION,
    HEADING,
    KEYSEP,
    NUMBERED_HEADING,
    Comparison,
    Group,
    Row,
    against,
    report_groups,
    runs,
    twins,
)
from qc.glossary import glossary, glossary_terms
from qc.index import EvidenceIndex
from qc.prepare import column_ways, known_unit, names_of
from qc.units import parse_unit

MAX_GROUPS = 4  # tables per section: the reference gives each question two to four scenarios
MIN_SHARE = 0.15  # a group must score this share of its question's best match to join it
PHRASE = 0.25  # each further bigram of a matched Chinese phrase adds this share of its best term
KIND_BONUS = 2.0  # a group holding the kind of quantity asked for scores this much more
NO_KIND = 0.25  # … and one without it keeps this share of its term score
ON_REQUEST_ROWS = 2  # least disclosure: an on-request report contributes one table and at most two rows of it
BILINGUAL = re.compile(
    r"([\u3400-\u9fff][\u3400-\u9fff A-Za-z]{1,15}?)\s*[((]\s*([A-Za-z][A-Za-z0-9 ./-]{1,30}?)\s*[))]"
)
MAX_WORDS = re.compile(
    r"峰值|最高|最大|最快|最多|peak|highest|maximum|\bmax\b|\bbest\b|\btop\b(?![\s_-]?\d)", re.IGNORECASE
)
THAN = re.compile(
    r"(?:\bthan|\bvs\.?|\bversus|\bcompared? (?:with|to)|(?:improve(?:d|s|ment)?|gains?|faster|better|speed-?up)"
    r"\s+over|相比于?|相对于?|对比|较)\s*(?:in |on |with )?(?:the |an? (?=\S{2}))?(?:(?:old |previous |prior )?(?:version|release) )?"
    r"((?:[A-Za-z0-9][\w./+-]*[A-Za-z0-9]|[A-Za-z])(?:\s+v?\d+(?:\.\d+)+)?)",  # (a release: `Vectra 3.6`)
    re.IGNORECASE,
)
# `和 3.1 相比 p99 …`: in Chinese the baseline stands between 和/与/跟 and 相比, not after it (that is the metric).
THAN_ZH = re.compile(
    r"[和与跟同]\s*((?:[A-Za-z0-9][\w./+-]*[A-Za-z0-9]|[A-Za-z])(?:\s+v?\d+(?:\.\d+)+)?)\s*(?:版本?)?\s*(?:相比|比较|对比)"
)
RATIO_WORDS = re.compile(
    r"几倍|多少倍|倍数|加速比|how many times|\btimes (?:faster|slower|higher|lower|more|less|as)\b|speed-?up",
    re.IGNORECASE,
)
# A count per second the glossary does not list (`trans/s`, `kv/s`, `tok/s/GPU`): a throughput all the same.
PER_SECOND = re.compile(r"/s(?:/|$)")
# A question that compares (`Which is faster, HBase or Cassandra?`, `谁的读延迟更低`) rather than asks of one.
COMPARES = re.compile(
    r"\b(?:which|who|vs|versus|compar\w*|or|better|worse|faster|slower|higher|lower)\b|谁|哪|对比|比较|相比|还是|更",
    re.IGNORECASE,
)
LOWER_WINS = {"latency", "time"}  # of these kinds the lower figure is the better; of throughput, bandwidth the higher
HIGHER_WINS = {"throughput", "bandwidth"}
TOKEN = re.compile(r"[A-Za-z0-9][\w.+-]*|[\u3400-\u9fff]+")
# A question asking how a comparison changes over its conditions (`as the batch grows`, `随着并发增加`).
GROWS = re.compile(r"\b(?:as|when)\b.*\b(?:grows?|increases?|rises?|scales?)\b|随着|增大|增加时|升高时", re.IGNORECASE)
# A question asking how things changed (`How much did throughput improve?`, `What happened to the error rate?`,
# `写 p99 降低了多少`): two runs of one test then answer it as a before → after (`tables.runs`, `tables.twins`).
CHANGES = re.compile(
    r"\b(?:improve\w*|chang\w*|happen\w*|gain\w*|regress\w*|rose|fell|drop\w*|reduc\w*|before|after|speed-?up)\b|"
    r"提升|提高|降低|下降|减少|变化|改善|优化|前后",
    re.IGNORECASE,
)
MIN_WORDS = re.compile(r"最低|最小|最短|最少|lowest|minimum|\bmin\b|shortest|least", re.IGNORECASE)


@dataclass
class Ask:
    """What a question asks for: its terms in both languages, the kinds of quantity, which extreme (if any)."""

    text: str
    terms: set[str]
    kinds: set[str]
    extreme: str = ""  # "max", "min" or ""
    runs: list[list[str]] = field(default_factory=list)  # the question's Chinese bigrams, run by run
    baseline: str = ""  # what the question compares with (`than the ABQ`, `相比 NFS`)
    ratio: bool = False  # the question asks for a factor (`快了几倍`, `how many times faster`), not a percentage


@dataclass
class Pick:
    """A group chosen for a question, with its score and the columns that carry the answer."""

    group: Group
    score: float
    columns: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # the rows the question names (empty: all)
    focus: list[int] = field(
        default_factory=list
    )  # the rows the brief names (`TTFT p50`), where the question names none
    headline: bool = False  # chosen as a headline because nothing in the reports overlaps the question
    facts: list[Figure] = field(default_factory=list)  # the `label: value` facts the question names (empty: all)
    question: str = ""
    kinds: set[str] = field(default_factory=set)  # the kinds of quantity the question asks for
    among: int = 1  # how many tables answer the question with it
    versus: list[Versus] = field(default_factory=list)  # the systems the question compares, side by side


@dataclass
class Versus:
    """Each system a question names with its figure for one metric under one condition (`Read`: HBase max 1669 ms,
    Cassandra max 8387 ms), in the question's order."""

    row: str  # the condition (the row's keys, KEYSEP-joined) when the systems are columns, else ""
    figures: list[tuple[str, str, Figure]]  # (the system as printed, the label naming the figure, the figure)


def figure_kind(unit: str) -> str:
    """The kind of quantity of a unit (`MiB/s` → bandwidth, `ms/frame` → time, `tok/s` → throughput), or ""."""
    dims: dict[str, list[str]] = glossary().get("dims") or {}
    unit = unit.strip()
    dim = parse_unit(unit).dim if unit else ""
    if "/" in unit and not any(dim in ds for ds in dims.values()):  # `ms/frame` (time per frame), `kv/s`
        head, _, tail = unit.partition("/")
        dim = parse_unit(head).dim or ("req/s" if tail.strip().lower() in ("s", "sec") else "")
    for kind, ds in dims.items():
        if kind != "latency" and dim in ds:
            return kind
    return "throughput" if PER_SECOND.search(parse_unit(unit).dim) else ""


def figure_kinds(f: Figure) -> set[str]:
    """The kinds of quantity a figure is: from its unit, else (printed bare, as a console table prints `AvgLat`
    in ms) from the words of its own labels (not the caption's or heading's, which name the whole table)."""
    kind = figure_kind(f.unit)
    if not kind and not f.unit:
        own = " ".join(lbl for lbl in f.labels if not CAPTION.match(lbl) and not HEADING.match(lbl))
        words = both_terms(own, {})
        found = {k for w, k in _kind_words() if w in words and k not in ("speedup", "percent")}
        kind = next((k for k in ("latency", "time", "throughput", "bandwidth") if k in found), "")
    return (
        {kind, "latency" if kind == "time" else "time"} if kind in ("time", "latency") else ({kind} if kind else set())
    )


_kinds_of = figure_kinds


@cache
def _synonyms() -> dict[str, list[str]]:
    raw = glossary().get("synonyms") or {}
    return {str(k).lower(): [str(x).lower() for x in (v if isinstance(v, list) else [v])] for k, v in raw.items()}


@cache
def _kind_words() -> list[tuple[str, str]]:
    kinds: dict[str, list[str]] = glossary().get("kinds") or {}
    return [(str(w).lower(), k) for k, ws in kinds.items() for w in ws]


def both_terms(text: str, pairs: dict[str, str]) -> set[str]:
    """A text's terms together with those of its translation (zh → en and en → zh through the glossary)."""
    low = text.lower()
    out = set(terms(text, "en"))  # Chinese bigrams and Latin words (English stop words dropped)
    out |= {full for short, fulls in _synonyms().items() if short in out for full in fulls}
    for zh, en in pairs.items():
        if zh.lower() in low:
            out |= set(terms(en, "en"))
        elif _has_words(low, en.lower()):
            out |= set(terms(zh, "zh"))
    return out


def _has_words(text: str, phrase: str) -> bool:
    if CJK.search(phrase):
        return phrase in text
    return re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", text) is not None


def ask(question: str, pairs: dict[str, str]) -> Ask:
    """What `question` asks for."""
    low = question.lower()
    kinds = {k for w, k in _kind_words() if _has_words(low, w)}
    if kinds & {"latency", "time"}:
        kinds |= {"latency", "time"}
    high, low_ = bool(MAX_WORDS.search(question)), bool(MIN_WORDS.search(question))
    extreme = "max" if high and not low_ else ("min" if low_ and not high else "")  # both: the span, not one end
    # The Chinese a question's English words translate to is read as Chinese is, a phrase at a time: otherwise
    # `long-context cold recovery` (长上下文冷恢复) counts six bigrams where `长上下文冷恢复时` counts one phrase, and a
    # table matching its other words (`TTFT` of R1's read-path table) falls under MIN_SHARE in English only.
    chinese = " ".join(
        [question, *(zh for zh, en in pairs.items() if not CJK.search(en) and _has_words(low, en.lower()))]
    )
    runs = [[r[i : i + 2] for i in range(len(r) - 1)] for r in re.findall(r"[\u3400-\u9fff]{2,}", chinese)]
    m = THAN_ZH.search(question) or THAN.search(question)
    ratio = bool(RATIO_WORDS.search(question))
    return Ask(
        question, both_terms(question, pairs) | _e_forms(low), kinds, extreme, runs, m.group(1) if m else "", ratio
    )


ING = re.compile(r"\b([a-z]{2,}[^aeiousy\W\d])ing\b")


def _e_forms(question: str) -> set[str]:
    """A question's `caching` also asks for a label's `cache` (`writing`: `write`); the stems cut `-ing` only. On the
    question's side alone, so a label's own `loading` is not counted twice (not `processing`: `processe`)."""
    return {stem + "e" for stem in ING.findall(question) if stem[-1] != stem[-2]}


def names_baseline(g: Group, term: str) -> bool:
    """The group prints the baseline a question names (`3.1（基线）`, `HS200`) as a word of its own."""
    return re.search(rf"(?<![\w.]){re.escape(term)}(?![\w]|\.\d)", g.text, re.IGNORECASE) is not None


def as_ratio(c: Comparison) -> Comparison:
    """The comparison stated as a factor computed from its pair (`14.80 s → 3.96 s`, 3.7×), its printed percentage
    (`降幅 73.2%`) left aside: the question asks how many times, a percentage does not tell it."""
    if c.change is not None and c.change.unit in RATIO_UNITS:
        return c
    return replace(c, change=None, ratio=True)


def report_terms(index: EvidenceIndex, ids: list[str]) -> dict[str, str]:
    """The glossary plus the reports' own bilingual terms: `首 token 延迟(TTFT)` → {首 token 延迟: TTFT}."""
    pairs = dict(glossary_terms())
    for rid in ids:
        for page in index.pages.get(rid, []):
            for m in BILINGUAL.finditer(page.text):
                zh, en = m.group(1).strip(), m.group(2).strip()
                if len(zh) >= 2 and zh not in pairs:
                    pairs[zh] = en
    return pairs


def _group_figures(g: Group) -> list[Figure]:
    cells = [c.fig for r in g.rows for c in r.cells]
    return cells or [*g.facts, *(f for c in g.comparisons for f in (c.before, c.after))]


def _kinds(g: Group) -> set[str]:
    return set().union(*(_kinds_of(f) for f in _group_figures(g)))


def _columns(g: Group, a: Ask, pairs: dict[str, str]) -> list[str]:
    """The group's columns that answer `a`, best first: the kind asked for, then shared terms."""
    cols: dict[str, tuple[int, int]] = {}
    # `label = value` lines (one value a row): their values' one column has no name; cells no header names are else
    # left out.
    headed = any(c.col for r in g.rows for c in r.cells) or any(len({c.fig.value for c in r.cells}) > 1 for r in g.rows)
    for r in g.rows:
        for c in r.cells:
            if (headed and not c.col) or c.col in cols:
                continue
            kind = bool(_kinds_of(c.fig) & a.kinds)
            cols[c.col] = (kind, len(both_terms(c.col, pairs) & a.terms) + _one_character_words(c.col, a.text, g.text))
    ranked = sorted(cols, key=lambda k: (-cols[k][0], -cols[k][1], list(cols).index(k)))
    if a.kinds and any(cols[k][0] for k in ranked):
        ranked = [k for k in ranked if cols[k][0]]
    return ranked


def _one_character_words(label: str, question: str, table: str) -> int:
    """A header's one-character Chinese words the question says (`写` of a merged `读 | 写` header in `随机写的 p99`):
    no bigram holds them, yet they tell the columns apart. Said within a word the table prints (`读写混合` of `读写
    混合负载下写 p99`, its caption's), a character names that word, not the column."""
    words = {b for r in re.findall(r"[\u3400-\u9fff]{2,}", table) for b in (r[i : i + 2] for i in range(len(r) - 1))}

    def said(w: str) -> bool:
        return any(question[max(i - 1, 0) : i + 1] not in words and question[i : i + 2] not in words
                   for i in (m.start() for m in re.finditer(w, question)))  # fmt: skip

    return sum(len(w) == 1 and said(w) for w in re.findall(r"[\u3400-\u9fff]+", label))


def _headings(r: Row) -> list[str]:
    """The section headings a row's cells were printed under (`1.虚拟衣柜相关接口测试`): no label of the row, yet
    they tell its rows from those of a table run on under the next heading (`3.分享社区相关接口测试`)."""
    return list(dict.fromkeys(lb for c in r.cells for lb in c.fig.labels if NUMBERED_HEADING.match(lb)))


def matching_rows(g: Group, a: Ask, pairs: dict[str, str]) -> list[int]:
    """Indexes of the rows the question names by a row term the other rows lack (`4KB` of `value size 4KB`)."""
    # What the headings the rows were printed under tell apart (`虚拟衣柜` of `1.虚拟衣柜相关接口测试` beside
    # `3.分享社区相关接口测试`; not `电气安全与性能测试` of every `第N节 电气安全与性能测试`), over headings of 2+ rows
    # (one over a single row is a page's running heading).
    heads = [_headings(r) for r in g.rows]
    count = Counter(h for hs in heads for h in hs)
    told = {h: both_terms(h, pairs) for h, n in count.items() if n > 1}
    same = set.intersection(*told.values()) if len(told) > 1 else set().union(*told.values())
    keys = [
        both_terms(" ".join(r.keys), pairs).union(*(told[h] - same for h in hs if h in told))
        for r, hs in zip(g.rows, heads, strict=True)
    ]
    # Terms all rows share, or the caption's (`Single A53` of the caption is not `single face` of a row), name none.
    common = (set.intersection(*keys) if keys else set()) | both_terms(f"{g.caption} {g.section}", pairs)
    shared = [(k - common) & a.terms for k in keys]
    # The rows no other row names more of the question in: `单个 A53` is `1xA53`, not `4xA53` nor `1xA72`.
    hits = [i for i, n in enumerate(shared) if n and not any(n < m for m in shared)]
    if len(hits) * 2 > len(keys):
        return []  # what most rows share (`银行` of `各银行`) names a kind of row, not one
    extra = [len(k - common - a.terms) for k in keys]  # of two naming the same, the one naming less else
    hits = [i for i in hits if not any(shared[j] == shared[i] and extra[j] < extra[i] for j in hits)]
    return hits if hits and len(hits) < len(keys) else []


SIZES = {"bytes", "bits"}  # a data size (`4KB` value size, `8KB` block) is a condition of its own, never a bare count


def _conditions(text: str) -> set[tuple[float, str]]:
    """The numbers a text names, each with its unit (`4KB` → (4, "KB"), `batch 为 1` → (1, ""))."""
    return {(n.value, n.unit) for n in find_numbers(text)}


def _same_condition(q: tuple[float, str], held: tuple[float, str]) -> bool:
    """A number of the question names a held one: the same value, and the same unit, or one printed bare while the
    other is no data size (`batch 4` is no `4KB`; `100 threads` is `线程数 100`)."""
    (qv, qu), (hv, hu) = q, held
    if qv != hv:
        return False
    if qu and hu:
        return parse_unit(qu).dim == parse_unit(hu).dim and parse_unit(qu).factor == parse_unit(hu).factor
    other = qu or hu
    return not other or parse_unit(other).dim not in SIZES


def _condition_counts(g: Group, a: Ask, pairs: dict[str, str]) -> list[int]:
    """Per row, how many of the numbers the question names it was measured under: in the row's keys, or in a cell
    of a column the question names that is no quantity asked for (`行数`, not `总耗时`)."""
    wanted = _conditions(a.text)
    counts = []
    for r in g.rows:
        held = _conditions(" ".join(r.keys))
        held |= {
            (c.fig.value, c.fig.unit)
            for c in r.cells
            if both_terms(c.col, pairs) & a.terms and not (_kinds_of(c.fig) and _kinds_of(c.fig) <= a.kinds)
        }
        counts.append(sum(any(_same_condition(q, h) for h in held) for q in wanted))
    return counts


def condition_rows(g: Group, a: Ask, pairs: dict[str, str]) -> list[int]:
    """Indexes of the rows measured under the numbers the question names (`59,656 行`, `100 threads`), those
    naming most of them (`64KB、batch 8` is the row of both, not every 64KB row nor every batch-8 row)."""
    counts = _condition_counts(g, a, pairs)
    best = max(counts, default=0)
    hits = [i for i, n in enumerate(counts) if best and n == best]
    return hits if len(hits) < len(g.rows) else []


def condition_score(g: Group, a: Ask, pairs: dict[str, str]) -> int:
    """How many of the question's numbers the group's best row was measured under (0: none, or every row)."""
    rows = condition_rows(g, a, pairs)
    return _condition_counts(g, a, pairs)[rows[0]] if rows else 0


def matching_facts(g: Group, a: Ask, pairs: dict[str, str]) -> list[Figure]:
    """The facts of a `label: value` block the question asks for: of the kind asked, naming most of its terms
    (`峰值带宽` is `Peak bandwidth: 5.23 GB/s`, not the block's throughput and latency beside it)."""
    from pipeline.drafting.tables import _kv_label

    if not a.kinds:
        return []  # "how does it work": the whole block is the setting
    scored = []
    for f in g.facts:
        kind = not a.kinds or bool(_kinds_of(f) & a.kinds)
        scored.append((kind, len(both_terms(_kv_label(f), pairs) & a.terms), f))
    best = max(((k, n) for k, n, _ in scored), default=(False, 0))
    if not best[1]:
        return []
    hits = [f for k, n, f in scored if (k, n) == best]
    return hits if len(hits) < len(g.facts) else []


def versus(g: Group, a: Ask, pairs: dict[str, str], rows: list[int]) -> list[Versus]:
    """A question comparing systems the table's columns (`HBase min (ms)` beside `Cassandra min (ms)`) or rows carry:
    per metric and condition, each named system's figure, side by side. The rows the question names (`rows`), the
    metrics of the kind asked, and of those the ones it names (`max`); [] for a question that compares nothing."""
    if g.comparisons or not g.rows or not COMPARES.search(a.text):
        return []
    cols = list(dict.fromkeys(c.col for r in g.rows for c in r.cells if c.col))
    found: list[Versus | None] = []
    if lines := _lines(cols, a, pairs) or _column_groups(cols, a, pairs):  # the systems the question names first
        told = [g.rows[i] for i in rows] or g.rows
        if GROWS.search(a.text) and not rows and len(told) > 2:  # `as the batch grows`: the first and the last
            told = [told[0], told[-1]]
        for r in told:
            found += [_side_by_side(KEYSEP.join(r.keys), [(name, cols[i], r.cell(cols[i])) for name, i in line])
                      for line in lines]  # fmt: skip
    elif lines := _lines([" ".join(r.keys) for r in g.rows], a, pairs):
        for col in cols:
            found += [_side_by_side("", [(name, f"{' '.join(g.rows[i].keys)} {col}", g.rows[i].cell(col))
                                         for name, i in line]) for line in lines]  # fmt: skip
    out = [v for v in found if v is not None]
    asked = [v for v in out if a.kinds & figure_kinds(v.figures[0][2])]
    return asked or out


def _side_by_side(row: str, figures: list[tuple[str, str, Figure | None]]) -> Versus | None:
    """The systems' figures as one comparison; None when a system has none, or they measure different things."""
    held = [(name, label, f) for name, label, f in figures if f is not None]
    if len(held) < len(figures) or len({parse_unit(f.unit).dim for *_, f in held}) > 1:
        return None
    return Versus(row, held)


def _column_groups(labels: list[str], a: Ask, pairs: dict[str, str]) -> list[list[tuple[str, int]]]:
    """Columns printed under the systems' group headers (`vLLM 0.6.3` over `TTFT p50 (ms) | TPOT p50 (ms)`, then
    `TensorRT-LLM 0.13.0` over the same), the groups QC reads (`qc.prepare.column_ways`): the same metrics under each,
    two at least; per metric a line of (system, label index); of the metrics those naming most of the question's
    terms, one per set of them (`TTFT p50`, `TPOT p50`). A group named by a kind of quantity (`TTFT` over
    `vLLM | TRT`) is a metric, no system."""
    kinds = {w for w, _ in _kind_words()}
    for way in column_ways(labels):
        groups = [_under(labels, at, words) for at, words in way]
        if any(g is None or both_terms(g[0], pairs) & kinds for g in groups):
            continue
        named_groups = [g for g in groups if g is not None]
        metrics = list(named_groups[0][1])
        if any(set(m) != set(metrics) for _, m in named_groups):
            continue
        named = {m: frozenset(both_terms(" ".join(m), pairs) & a.terms) for m in metrics}
        best = max(len(n) for n in named.values())
        chosen = [m for m, n in named.items() if len(n) == best]
        if best:  # (`TTFT p50` and `TTFT p99` both name `TTFT`: the first tells it)
            chosen = [m for m in chosen if m == next(o for o in chosen if named[o] == named[m])]
        return [[(name, cols[m]) for name, cols in named_groups] for m in chosen]
    return []


def _under(
    labels: list[str], at: frozenset[int], words: frozenset[str]
) -> tuple[str, dict[tuple[str, ...], int]] | None:
    """A group's name as printed, the run of words all its labels print that holds its naming `words` (`vLLM 0.6.3`
    of `vLLM 0.6.3 TTFT p50/ms`, not its `ms`), and its labels by the rest (the metric: `TTFT p50 ms`); None when
    two of its labels print the same metric or none names it."""
    tokens = [TOKEN.findall(labels[i]) for i in sorted(at)]
    common = set.intersection(*(set(t) for t in tokens))
    spans: list[list[str]] = [[]]
    for t in tokens[0]:
        if t in common and known_unit(t) is None:  # (a unit every label prints, `ms`, names no system)
            spans[-1].append(t)
        elif spans[-1]:
            spans.append([])
    name = next((span for span in spans if any(names_of(t, words) for t in span)), [])
    metrics: dict[tuple[str, ...], int] = {}
    for i, t in zip(sorted(at), tokens, strict=True):
        if metrics.setdefault(tuple(x for x in t if x not in name), i) != i:
            return None
    return (" ".join(name), metrics) if name else None


def _lines(labels: list[str], a: Ask, pairs: dict[str, str]) -> list[list[tuple[str, int]]]:
    """The systems the question names that tell `labels` apart (`HBase`, `Cassandra`; a kind of quantity's word,
    `TTFT`, names a metric), two at least, each naming labels no other one names; their labels lined up by what else
    they say (`max (ms)`): per line, (system, label index). Of the lines, those naming most of the question's other
    terms (`max`)."""
    words = [both_terms(lb, pairs) for lb in labels]
    low = a.text.lower()
    named: dict[frozenset[int], set[str]] = {}
    metrics = {w for w, _ in _kind_words()}  # (`TTFT` and `TPOT` of one system's columns are metrics, no systems)
    for t in sorted(a.terms - metrics, key=lambda t: (low.find(t) if t in low else len(low), t)):  # question's order
        at = frozenset(i for i, ws in enumerate(words) if t in ws)
        if at and len(at) < len(labels):
            named.setdefault(at, set()).add(t)
    items = list(named.items())

    def apart(first: int) -> list[tuple[frozenset[int], set[str]]]:  # from one term on, those naming other labels
        chosen = [items[first]]
        for at, ts in items:
            if all(not at & other for other, _ in chosen):
                chosen.append((at, ts))
        return sorted(chosen, key=items.index)

    # The most systems told apart: `HBase` and `Cassandra`, not the `maximum` both print.
    systems = max((apart(i) for i in range(len(items))), key=len, default=[])
    if len(systems) < 2:
        return []
    drop = set().union(*(ts for _, ts in systems))
    keyed = [{frozenset(words[i] - drop): i for i in sorted(at)} for at, _ in systems]
    lines = [(key, [(_printed(labels[k[key]], ts, pairs), k[key]) for k, (_, ts) in zip(keyed, systems, strict=True)])
             for key in keyed[0] if all(key in k for k in keyed)]  # fmt: skip
    best = max((len(key & a.terms) for key, _ in lines), default=0)
    return [line for key, line in lines if len(key & a.terms) == best]


def _printed(label: str, ts: set[str], pairs: dict[str, str]) -> str:
    """A system's name as the label prints it: the label's words the question named it by (`HBase`)."""
    return " ".join(t for t in TOKEN.findall(label) if both_terms(t, pairs) & ts) or label


def better(v: Versus) -> tuple[str, str]:
    """The system whose figure is the better one and how ("lower" latency or time, "higher" throughput or bandwidth),
    by the figures' kind of quantity; ("", "") when the kind says neither or the figures tie."""
    kinds = set.intersection(*(figure_kinds(f) for *_, f in v.figures))
    lower, higher = bool(kinds & LOWER_WINS), bool(kinds & HIGHER_WINS)
    if lower == higher:
        return "", ""
    values = [f.value * parse_unit(f.unit).factor for *_, f in v.figures]
    best = min(values) if lower else max(values)
    if values.count(best) > 1:
        return "", ""
    return v.figures[values.index(best)][0], "lower" if lower else "higher"


def answers(g: Group, a: Ask, pairs: dict[str, str]) -> bool:
    """The bench's rule: the group shares a label term with the question and, if one is asked, its kind."""
    if not (both_terms(g.text, pairs) & a.terms):
        return False
    return not a.kinds or any(_kinds_of(f) & a.kinds for f in _group_figures(g))


def _overlap(a: Ask, doc: set[str], idf: Callable[[str], float]) -> float:
    """idf-weighted shared terms; a run of Chinese bigrams (`长上下文冷恢复`) counts as one phrase, not six words."""
    total = 0.0
    in_runs: set[str] = set()
    for run in a.runs:
        chain: list[float] = []
        for bigram in [*run, ""]:
            if bigram in doc and bigram not in in_runs:  # (a bigram of two runs, `长上下文` twice, counts once)
                chain.append(idf(bigram))
                in_runs.add(bigram)
                continue
            if chain:
                total += max(chain) * (1 + PHRASE * (len(chain) - 1))
                chain = []
    return total + sum(idf(t) for t in (a.terms & doc) - in_runs)


def select(brief: Brief, index: EvidenceIndex) -> list[list[Pick]]:
    """For each question of `brief`, the groups whose figures answer it (never none while the reports hold any)."""
    w = Lang(brief.lang)
    groups = [g for rid in brief.evidence for g in _report_groups(index, rid)]
    pairs = report_terms(index, list(brief.evidence))
    asks = [ask(q, pairs) for q in brief.questions]
    _data_rates(asks, groups)
    focus = ask(brief.brief, pairs)  # what the brief asks to show (`用 R2 的实测(TTFT p50、吞吐)说明…`)
    docs = [both_terms(g.text, pairs) | both_terms(w.label(g.text), pairs) for g in groups]
    df: dict[str, int] = defaultdict(int)
    for d in docs:
        for t in d:
            df[t] += 1
    n = len(docs) or 1
    scores: list[list[float]] = []
    shared: list[list[bool]] = []  # per group, the questions it shares a term with
    for g, d in zip(groups, docs, strict=True):
        kinds = _kinds(g)
        row = []
        shared.append([])
        for a in asks:
            s = _overlap(a, d, lambda t: math.log(1 + n / df[t]))
            shared[-1].append(s > 0)
            if a.kinds:  # holding the kind asked for is evidence on its own; lacking it, weak evidence
                s = s + KIND_BONUS if kinds & a.kinds else s * NO_KIND
            if s > 0 and a.baseline and names_baseline(g, a.baseline):  # `over version 3.1`: the table of 3.1
                s += KIND_BONUS
            row.append(s)
        scores.append(row)
    # Each group goes to the question it answers best (ties to the earlier one): a table is told once. A question
    # it shares words with comes first: the kind of quantity alone (a time) does not take the PG-vs-Neo4j table
    # from "When does Neo4j beat PostgreSQL?" for "How much faster is MongoDB at loading?".
    per_q: list[list[Pick]] = [[] for _ in asks]
    for gi, g in enumerate(groups):
        row = scores[gi]
        if not row or max(row) <= 0:
            continue
        qi = max(range(len(row)), key=lambda i: (shared[gi][i], row[i], -i))
        per_q[qi].append(Pick(g, row[qi]))
    _limit(per_q, index, asks)  # before the cut, so an on-request table that will not be told takes no place
    for qi, picks in enumerate(per_q):
        # A table that answers this question best also answers it when another question scores it higher (the
        # section states other columns of it): `峰值读带宽` and `4KB 的 req/s` both read the read_perf matrix.
        best = max(range(len(groups)), key=lambda gi: (scores[gi][qi], -gi)) if groups else -1
        if (
            best >= 0
            and scores[best][qi] > 0
            and all(p.group is not groups[best] for p in picks)
            and (not picks or scores[best][qi] > max(p.score for p in picks))
        ):
            picks.append(Pick(groups[best], scores[best][qi]))
        if picks:
            top = max(p.score for p in picks)
            ranked = sorted(picks, key=lambda p: -p.score)
            chosen = [p for p in ranked if p.score >= top * MIN_SHARE][:MAX_GROUPS]
            if asks[qi].kinds and any(_kinds(p.group) & asks[qi].kinds for p in chosen):
                chosen = [p for p in chosen if _kinds(p.group) & asks[qi].kinds]  # the kind asked for, only
            chosen = _named(chosen, asks[qi], pairs)
            # A question asking for two kinds ("TTFT 和吞吐") gets the best table of each.
            for kind in sorted(asks[qi].kinds - {"latency"}):
                if not any(kind in _kinds(p.group) for p in chosen):
                    extra = next((p for p in ranked if kind in _kinds(p.group)), None)
                    if extra is not None:
                        chosen.append(extra)
            picks[:] = sorted(chosen, key=lambda p: -p.score)
    _systems(groups, scores, per_q, asks, index, pairs)
    _conditioned(groups, scores, per_q, asks, pairs, index)
    _settings(brief, index, asks, per_q)
    used = {id(p.group) for picks in per_q for p in picks}
    for qi, picks in enumerate(per_q):
        if not picks:  # nothing overlaps: the reports' headline comparisons (not yet told), else their first tables
            picks.extend(_headlines(groups, used, index))
            used.update(id(p.group) for p in picks)
        for p in picks:
            p.columns = _columns(p.group, asks[qi], pairs)
            p.rows = matching_rows(p.group, asks[qi], pairs) or condition_rows(p.group, asks[qi], pairs)
            p.focus = [] if p.rows else matching_rows(p.group, focus, pairs)
            p.facts = matching_facts(p.group, asks[qi], pairs)
            compared = against(p.group, asks[qi].baseline)
            if compared is None and CHANGES.search(asks[qi].text):  # two runs: before → after
                compared = runs(p.group) or twins(p.group, groups)
            if compared is not None:
                p.group = compared
            p.versus = versus(p.group, asks[qi], pairs, p.rows)
            if asks[qi].ratio and p.group.comparisons:  # (a copy: another question may read the same table)
                p.group = replace(p.group, comparisons=[as_ratio(c) for c in p.group.comparisons])
            p.question = asks[qi].text
            p.kinds = asks[qi].kinds
        # A condition the question names (`59,656 行`) held by some table's rows: the tables without it answer
        # another condition (`4、不同负载下的性能测试` states the range over all loads), not this question (a
        # prose comparison or a `label: value` block is no table of conditions: it stays).
        # Of the tables holding it, those whose rows name most of the question's numbers (`batch 1` and `4KB`).
        named = [condition_score(p.group, asks[qi], pairs) for p in picks]
        if any(named):
            picks[:] = [p for p, n in zip(picks, named, strict=True) if n == max(named) or not p.group.rows]
        # A prose sentence restating a comparison a table of this section states (`from 10,480 to 15,120`) is said once.
        pairs_said = {(c.before.value, c.after.value) for p in picks if p.group.rows for c in p.group.comparisons}
        picks[:] = [
            p
            for p in picks
            if p.group.rows or not p.group.comparisons
            or any((c.before.value, c.after.value) not in pairs_said for c in p.group.comparisons)
        ]  # fmt: skip
    return per_q


def _conditioned(
    groups: list[Group],
    scores: list[list[float]],
    per_q: list[list[Pick]],
    asks: list[Ask],
    pairs: dict[str, str],
    index: EvidenceIndex,
) -> None:
    """A question naming its conditions (`batch 为 1 时 4KB`) also gets the table whose rows name more of them than
    its picks do, though another question took that table (`p99` and `吞吐` both read one read_perf matrix)."""
    for qi, a in enumerate(asks):
        if not _conditions(a.text):
            continue
        have = max((condition_score(p.group, a, pairs) for p in per_q[qi]), default=0)
        fits = [
            (condition_score(g, a, pairs), scores[gi][qi], gi)
            for gi, g in enumerate(groups)
            if scores[gi][qi] > 0
            and (not a.kinds or _kinds(g) & a.kinds)
            and all(p.group is not g for p in per_q[qi])
            and not _confidential(g, index)  # an on-request report's one table was chosen already (`_limit`)
        ]
        best = max(fits, default=(0, 0.0, -1))
        if best[0] > have:
            per_q[qi].insert(0, Pick(groups[best[2]], best[1]))


TOC_LINE = re.compile(r"\.{4,}|…{2,}")


def _parent_titles(index: EvidenceIndex, rid: str) -> dict[str, str]:
    """The report's top-level headings by number (`5` → `Performance with OpenBLAS (BYPASSACL=0Xffff)`), as printed
    on its pages (a contents line, dotted to its page number, is none)."""
    out: dict[str, str] = {}
    for page in index.pages.get(rid, []):
        for line in page.text.splitlines():
            m = re.match(r"^\s*(\d{1,2})\.?\s+([A-Za-z\u3400-\u9fff].{2,80}?)\s*$", line)
            if m and not TOC_LINE.search(line):
                out.setdefault(m.group(1), m.group(2))
    return out


def _systems(
    groups: list[Group],
    scores: list[list[float]],
    per_q: list[list[Pick]],
    asks: list[Ask],
    index: EvidenceIndex,
    pairs: dict[str, str],
) -> None:
    """A question naming what one top-level section of a report is about (`with OpenBLAS`, where section 4 is ACL and
    5 OpenBLAS) is answered by that section's tables only, the best-scoring of them."""
    titles: dict[int, set[str]] = {}
    cache: dict[str, dict[str, str]] = {}
    for gi, g in enumerate(groups):
        m = re.match(r"\s*(\d{1,2})\.\d", g.section or "")
        if m:
            parents = cache.setdefault(g.report, _parent_titles(index, g.report))
            titles[gi] = both_terms(parents.get(m.group(1), ""), pairs)
    if len({frozenset(t) for t in titles.values()}) < 2:
        return
    common = set.intersection(*titles.values())
    for qi, a in enumerate(asks):
        named = {gi for gi, t in titles.items() if (t - common) & a.terms}
        if not named or len(named) == len(titles):
            continue
        if per_q[qi] and all(any(p.group is groups[gi] for gi in named) for p in per_q[qi]):
            continue
        best = sorted(named, key=lambda gi: -scores[gi][qi])
        per_q[qi][:] = [Pick(groups[gi], scores[gi][qi]) for gi in best if scores[gi][qi] > 0][:MAX_GROUPS]


def _data_rates(asks: list[Ask], groups: list[Group]) -> None:
    """`读写吞吐` over reports that print only data rates (`91503.61 kB/sec`): the throughput asked for is a bandwidth."""
    held = set().union(*(_kinds(g) for g in groups)) if groups else set()
    for a in asks:
        if "throughput" in a.kinds and "throughput" not in held and "bandwidth" in held:
            a.kinds.add("bandwidth")


def _settings(brief: Brief, index: EvidenceIndex, asks: list[Ask], per_q: list[list[Pick]]) -> None:
    """A question about the test bed (`测试用了什么硬件?`) is answered by the reports' spec items, when they list any
    (an on-request report's first ON_REQUEST_ROWS only): never by a results table that shares a word with it."""
    beds = [g for rid in brief.evidence for g in setting_groups(index, rid)]
    for a, picks in zip(asks, per_q, strict=True):
        if not beds or not asks_setting(a.text, a.kinds):
            continue
        picks[:] = []
        for g in beds[:MAX_GROUPS]:
            if _confidential(g, index):
                g = Group(g.report, g.order, g.caption, g.section, g.text, specs=g.specs[:ON_REQUEST_ROWS])
                g.facts = [f for sp in g.specs for f in sp.figures]
            picks.append(Pick(g, 0.0))


def _report_groups(index: EvidenceIndex, rid: str) -> list[Group]:
    """A report's tables and `label: value` blocks, then the comparisons its prose states that no table does."""
    groups = report_groups(index, rid)
    return groups + prose_groups(index, rid, groups)


def _named(chosen: list[Pick], a: Ask, pairs: dict[str, str]) -> list[Pick]:
    """When the best table's caption names part of the question (`AlexNet`), its sibling tables whose caption names
    none of it are left out: beside `4.1 AlexNet`, `4.3 SqueezeNet` answers another question."""
    if len(chosen) < 2:
        return chosen
    titles = [both_terms(f"{p.group.caption} {p.group.section}", pairs) for p in chosen]
    named = titles[0] & a.terms
    if named:
        top = _parent(chosen[0].group)
        keep = [not top or bool(t & a.terms) or _parent(p.group) != top for p, t in zip(chosen, titles, strict=True)]
        chosen, titles = (
            [p for p, k in zip(chosen, keep, strict=True) if k],
            [t for t, k in zip(titles, keep, strict=True) if k],
        )
    return _told_apart(chosen, titles, a)


def _told_apart(chosen: list[Pick], titles: list[set[str]], a: Ask) -> list[Pick]:
    """Of tables of one shape, those whose caption names what the question asks about and the others' lack
    (`单个 A72` → `on Single A72`, not `on Two A72`, whose `single face` rows would otherwise be read as the answer).

    Only tables of one shape (`_one_shape`) compete: a table of other rows and columns (a baseline comparison beside
    a table of TTFT percentiles) answers in its own right, whatever its caption names."""
    left = [i for i, p in enumerate(chosen) if p.group.rows]
    dropped: set[int] = set()
    while left:  # the tables linked by their shape, one set at a time
        linked, todo = set(), [left[0]]
        while todo:
            i = todo.pop()
            linked.add(i)
            todo += [j for j in left if j not in linked and _one_shape(chosen[i].group, chosen[j].group)]
        left = [i for i in left if i not in linked]
        if len(linked) < 2:
            continue
        common = set.intersection(*(titles[i] for i in linked))
        told = {i: (titles[i] - common) & a.terms for i in linked}
        if any(told.values()):
            dropped |= {i for i in linked if not told[i]}
    return [p for i, p in enumerate(chosen) if i not in dropped]


def _one_shape(g: Group, h: Group) -> bool:
    """Tables of the same rows, of the same columns, or sharing two names (one's rows the other's columns:
    `总耗时`, `用户态时间` down a stability table and across a load table). A row is named by its keys together:
    `并发档位 8 p50` is no row of `并发档位 8 TP8`."""
    (rows_g, cols_g), (rows_h, cols_h) = _names(g), _names(h)
    return rows_g == rows_h or cols_g == cols_h or len((rows_g | cols_g) & (rows_h | cols_h)) >= 2


def _names(g: Group) -> tuple[set[str], set[str]]:
    """A table's row names and column names."""
    rows = {" ".join(r.keys).strip().lower() for r in g.rows} - {""}
    return rows, {c.col.strip().lower() for r in g.rows for c in r.cells} - {""}


def _parent(g: Group) -> str:
    """`4` of a table under `4.3 SqueezeNet`: tables under one parent heading, each titled by a name only, are
    siblings (one per model)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)*)\.\d+\s+[A-Za-z][\w-]*\s*", g.section or g.caption)  # a name only
    return m.group(1) if m else ""


def headlines(brief: Brief, index: EvidenceIndex) -> list[Pick]:
    """The cited reports' groups as headlines, comparisons first (for a section its own figures leave empty)."""
    groups = [g for rid in brief.evidence for g in _report_groups(index, rid) if not _confidential(g, index)]
    ranked = sorted(groups, key=lambda g: (not g.comparisons, g.report, g.order))
    picks = [Pick(g, 0.0, headline=True) for g in ranked]
    for p in picks:
        p.columns = list(dict.fromkeys(c.col for r in p.group.rows for c in r.cells if c.col))
    return picks


def asks_of(brief: Brief, index: EvidenceIndex) -> list[Ask]:
    """What each question of `brief` asks for, over its cited reports (the drafter's and the bench's reading)."""
    pairs = report_terms(index, list(brief.evidence))
    asks = [ask(q, pairs) for q in brief.questions]
    _data_rates(asks, [g for rid in brief.evidence for g in _report_groups(index, rid)])
    return asks


def _headlines(groups: list[Group], used: set[int], index: EvidenceIndex) -> list[Pick]:
    fresh = [g for g in groups if id(g) not in used and not _confidential(g, index)] or [
        g for g in groups if not _confidential(g, index)
    ]
    ranked = sorted(fresh, key=lambda g: (not g.comparisons, not g.rows and not g.facts, g.report, g.order))
    return [Pick(g, 0.0, headline=True) for g in ranked[:1]]


def _limit(per_q: list[list[Pick]], index: EvidenceIndex, asks: list[Ask]) -> None:
    """On-request reports disclose the least: one table each (the best-scoring), at most two rows of it."""
    best: dict[str, Pick] = {}
    for picks in per_q:
        for p in picks:
            if _confidential(p.group, index) and (p.group.report not in best or p.score > best[p.group.report].score):
                best[p.group.report] = p
    keep = {id(p) for p in best.values()}
    for picks in per_q:
        for p in list(picks):
            if not _confidential(p.group, index):
                continue
            if id(p) not in keep:
                picks.remove(p)
                continue
            g = p.group
            g.comparisons, g.facts = g.comparisons[:ON_REQUEST_ROWS], g.facts[:ON_REQUEST_ROWS]
            g.rows = g.rows[:ON_REQUEST_ROWS]


def _confidential(g: Group, index: EvidenceIndex) -> bool:
    report = index.reports.get(g.report)
    return report is not None and report.access == "on-request"


def confidential(g: Group, index: EvidenceIndex) -> bool:
    """Whether the group comes from an on-request report (disclosed as little as possible)."""
    return _confidential(g, index)
