"""Comparisons a report states in prose (`吞吐从 412 tokens/s 提升到 1,268 tokens/s,约为原来的 3.1 倍`), as groups.

Only the sentence's structure is taken — which quantity (a kind word of the glossary right before `从`/`from`), under
which condition (`在 128K 上下文下`, `At batch 16,`), before → after and a printed change — never its wording: the
drafter states the comparison in its own template, like a table's.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

from evidence.models import Figure
from pipeline.drafting.tables import HEADING, RATIO_UNITS, Comparison, Group
from qc.glossary import glossary
from qc.index import EvidenceIndex
from qc.units import parse_unit

FROM = re.compile(r"(?:从|由|from)\s*$", re.IGNORECASE)
TO = re.compile(
    r"^\s*(?:[^\d,\uff0c。;\uff1b]{0,4})?(?:(?:降低|下降|降|减少|缩短|提升|提高|增加|增长|增|升|上升)\s*[至到]|到|至|to)\s*$",
    re.IGNORECASE,
)
# The condition a sentence states its comparison under: `在 128K 上下文下,`, `在并发 8 时`, `At batch 16,`.
CONDITION = (
    re.compile(r"在\s*([^,\uff0c。;\uff1b]{1,20}?)\s*(?:下|时|中)\s*[,\uff0c]"),
    re.compile(r"^(?:At|With|Under|For|In)\s+([^,;.]{1,30}?)\s*,", re.IGNORECASE),
    re.compile(r"((?:开启|启用|打开|关闭|禁用)\s*[^,\uff0c。;\uff1b]{1,16}?)\s*后\s*[,\uff0c]"),  # `开启 TLS 卸载后,`
)
METRIC_SPAN = 12  # characters before `从`/`from` a quantity word is looked for in


@cache
def _kind_words() -> list[str]:
    kinds: dict[str, list[str]] = glossary().get("kinds") or {}
    words = {str(w) for k, ws in kinds.items() if k not in ("speedup", "percent") for w in ws if len(str(w)) >= 2}
    return sorted(words, key=len, reverse=True)


def _metric(before: str) -> str:
    """The quantity word (as printed) that ends the text before `从`/`from`: `吞吐`, `TTFT`, `throughput`."""
    tail = before[-METRIC_SPAN:]
    low = tail.lower()
    best, at = "", -1
    for w in _kind_words():
        i = low.rfind(w.lower())
        if i < 0 or (w.isascii() and w[:1].isalpha() and i and low[i - 1].isalpha()):
            continue
        end = i + len(w)
        if re.fullmatch(r"\s*(?:的|of)?\s*", low[end:]) and i > at:
            best, at = tail[i:end], i
    return best


# What a clause states before its metric that is not part of the metric's name: a verb, a subject's particle.
VERB = re.compile(
    r".*(?:将|把|使|让|令|\b(?:raised|cut|reduced|lowered|increased|improved|brings|brought|took|has|have|was|were)\b)\s*",
    re.IGNORECASE,
)
CLAUSE = re.compile(r".*[,;:\uff0c\uff1b\uff1a。]\s*")


def _named(before: str, metric: str) -> str:
    """The metric with the words its clause names it by: `4KB 随机读 p99 延迟`, not just `延迟` (`v2.0 raised output
    throughput` → `output throughput`)."""
    if not metric:
        return ""
    clause = VERB.sub("", CLAUSE.sub("", before)).strip()
    name = (
        clause[: clause.lower().rfind(metric.lower()) + len(metric)].strip() if metric.lower() in clause.lower() else ""
    )
    return (
        name
        if name and len(name) <= 2 * METRIC_SPAN and not re.search(r"(?:相比|compared|than)", name, re.I)
        else metric
    )


def _condition(text: str, start: int) -> str:
    for pattern in CONDITION:
        m = pattern.search(text, 0, start)
        if m:
            return m.group(1).strip()
    return ""


def _locate(text: str, figs: list[Figure]) -> list[tuple[Figure, int, int]]:
    """Each figure with its span in the sentence (figures come in the order printed)."""
    out = []
    pos = 0
    for f in figs:
        i = text.find(f.raw, pos)
        if i < 0:
            continue
        out.append((f, i, i + len(f.raw)))
        pos = i + len(f.raw)
    return out


def _comparison(text: str, figs: list[Figure]) -> Comparison | None:
    spans = _locate(text, figs)
    sweep = ""  # `from 4 KB to 1 MB objects`: a sweep of the condition, which then names the comparison's row
    for k, (a, _, a_end) in enumerate(spans[:-1]):
        b, b_start, _ = spans[k + 1]
        if parse_unit(a.unit).dim != parse_unit(b.unit).dim or (a.unit != b.unit and not a.unit) or a.value <= 0 \
                or b.value <= 0:  # fmt: skip
            continue  # (two bare numbers compare when a quantity word names them: `TPS 从 5,290 降至 4,870`)
        if a.value == b.value or not FROM.search(text[: spans[k][1]]):
            continue
        between = text[a_end:b_start].replace(a.unit, "")
        between = re.sub(r"^\s*[A-Za-z/%]+\s*", "", between) if not TO.match(between) else between
        if not TO.match(between):
            continue
        start = FROM.search(text[: spans[k][1]])
        metric = _named(text[: start.start()], _metric(text[: start.start()])) if start else ""
        if not metric:
            sweep = sweep or (f"{a.raw} {a.unit} → {b.raw} {b.unit}" if a.unit else "")
            continue
        change = next(
            (f for f, _, _ in spans[k + 2 :] if f.unit in RATIO_UNITS or f.unit == "%"),
            None,
        )
        return Comparison(metric, _condition(text, spans[k][1]) or sweep, a, b, change)
    return None


def prose_groups(index: EvidenceIndex, rid: str, tables: list[Group]) -> list[Group]:
    """The report's prose sentences that state a before → after comparison no table of `tables` states, one each."""
    sentences: dict[str, list[Figure]] = defaultdict(list)
    order: dict[str, int] = {}
    for i, f in enumerate(index.figures.get(rid, [])):
        if f.kind == "prose" and f.labels:
            sentences[f.labels[0]].append(f)
            order.setdefault(f.labels[0], i)
    groups = []
    for text, figs in sentences.items():
        c = _comparison(text, figs)
        if c is None or any(_same(c, t) for g in tables for t in g.comparisons):
            continue
        section = next((lbl for lbl in figs[0].labels[1:] if HEADING.match(lbl)), "")
        words = " ".join(w for w in (section, c.row, c.metric) if w)
        groups.append(Group(rid, (figs[0].page, order[text]), "", section, words, comparisons=[c]))
    return groups


def _same(a: Comparison, b: Comparison) -> bool:
    return (a.before.value, a.after.value) == (b.before.value, b.after.value)
