"""The test bed a report describes (CPU, memory, disks, network) as spec items, for a question that asks about it.

A spec item is one printed line of the report's environment list or table (`内存 512 GB DDR4`, `Network: 2 × 200
Gb/s`): its label and its value as printed, with the figures it holds. Lines come from the environment section's
table cells and `label: value` lines, and from any line that starts with a hardware word of the glossary
(`CPU:2 × Intel Xeon Gold 6338 @ 2.0GHz` read as prose). Results tables never become spec items, and spec items
answer only a question about the test bed (`测试用了什么硬件?`), one that asks for no quantity of a result.
"""

from __future__ import annotations

import re
from functools import cache

from evidence.models import Figure
from pipeline.drafting.tables import APPENDIX, CAPTION, ENVIRONMENT, HEADING, Group, Spec
from qc.glossary import glossary
from qc.index import EvidenceIndex

SPEC_CHARS = 48  # a spec value longer than this is a sentence, not an item of a list
SPEC_NUMBERS = 4  # … and so is one holding more numbers than this (`E5-2680 v4 @ 2.40GHz` holds four)
LABEL = re.compile(r"^\s*[-•·➢*]?\s*([^\s::=]{1,16}(?:\s[A-Za-z][^\s::=]{0,12})?)\s*[::=]\s*(.+)$")
BULLET = re.compile(r"^\s*[-•·➢*]\s*")
SEPARATORS = " ::="  # what stands between a spec's label and its value
STOP = re.compile(r"[;\uff1b。]")
PHRASE = re.compile(r"\b(?:of|to|the|and|is|are|for|with|that|was|were)\b", re.IGNORECASE)  # a sentence's words
DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# A question about the test bed: its words, and no kind of quantity asked for (`峰值读带宽出现在什么配置?` asks
# for a result's condition, not the hardware).
ASKS_SETTING = re.compile(
    r"硬件|测试环境|实验环境|环境|配置|平台|机器|服务器|hardware|environment|test ?bed|set ?up|configuration|"
    r"platform|machine|server|tested on|run on",
    re.IGNORECASE,
)


@cache
def _hardware() -> tuple[str, ...]:
    words = glossary().get("hardware") or []
    return tuple(sorted((str(w) for w in words), key=len, reverse=True))


def asks_setting(question: str, kinds: set[str]) -> bool:
    """Does the question ask what the test ran on (and no quantity of a result)?"""
    return not kinds and ASKS_SETTING.search(question) is not None


def _in_setting(f: Figure) -> bool:
    caption = next((lbl for lbl in f.labels if CAPTION.match(lbl)), "")
    section = next((lbl for lbl in f.labels if HEADING.match(lbl) and not CAPTION.match(lbl)), "")
    if APPENDIX.match(section) or APPENDIX.match(caption):
        return False
    return ENVIRONMENT.search(f"{caption} {section}") is not None


def _line_of(f: Figure, pages: dict[int, list[str]]) -> str:
    """The printed line that holds a figure: a table row or `label: value` line is its quote; prose, its page line."""
    if f.kind in ("cell", "kv") and f.quote:
        return f.quote
    token = re.compile(rf"(?<![\d.]){re.escape(f.raw)}(?![\d.])")
    said = _squash(f.labels[0]) if f.labels else ""  # the line is part of the figure's own sentence
    return next((ln for ln in pages.get(f.page, []) if token.search(ln) and _squash(ln) in said), "")


def _squash(text: str) -> str:
    return re.sub(r"[\s:\uff1a]+", "", text)


def _split(line: str, f: Figure) -> tuple[str, str]:
    """(label, value) of the spec line that holds `f`: `缓存:每控 256 GB` → (缓存, 每控 256 GB); a line listing two
    (`控制器:双控 CPU:2 × Xeon`) is cut at the label before the figure."""
    line = re.sub(r"\s+", " ", line).strip()
    at = line.find(f.raw)
    if at < 0:
        return "", ""
    own = [lbl for lbl in f.labels if not CAPTION.match(lbl) and not HEADING.match(lbl)]
    body = BULLET.sub("", line)
    for lbl in own:  # `内存 512 GB DDR4`, `Host memory: 1.5 TB`: the row's own label, then the value
        lbl = BULLET.sub("", lbl).strip()
        if lbl and body.lower().startswith(lbl.lower()) and len(body) > len(lbl) and not body[len(lbl)].isalnum():
            return lbl, STOP.split(body[len(lbl) :])[0].strip(SEPARATORS)
    starts = [m.start(1) for m in re.finditer(r"(?:^|\s)([^\s::=]{1,16})\s*[::=]", line)]
    start = max((s for s in starts if s <= at), default=0)
    piece = STOP.split(line[start:])[0]
    body = BULLET.sub("", piece)
    m = LABEL.match(piece)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    for lbl in _hardware():  # a spec line without a colon: `CPU Intel Xeon …`
        if body.lower().startswith(lbl.lower()) and len(body) > len(lbl) and not body[len(lbl)].isalnum():
            return lbl, body[len(lbl) :].strip(SEPARATORS)
    return "", ""


def _hardware_line(line: str) -> bool:
    body = BULLET.sub("", line.strip()).lower()
    return any(body.startswith(w.lower()) and body[len(w) : len(w) + 1] in (" ", ":", ":", "=") for w in _hardware())


def _quantity(spec: Spec) -> bool:
    return any(f.unit for f in spec.figures)


def _count(spec: Spec) -> bool:
    """A bare count of a part the label names (`Cores per CPU 28`, `Total CPU Threads 112`, `GPU 数量 8`)."""
    label = spec.label.lower()
    named = any(re.search(rf"(?<![a-z]){re.escape(w.lower())}(?![a-z])", label) for w in _hardware())
    return named and spec.value.strip().isdigit() and all(float(f.value).is_integer() for f in spec.figures)


def setting_groups(index: EvidenceIndex, rid: str) -> list[Group]:
    """The report's test bed as one group of spec items per page (none if it lists none)."""
    pages = {p.page: p.text.splitlines() for p in index.pages.get(rid, [])}
    specs: dict[int, dict[tuple[str, str], Spec]] = {}
    for f in index.figures.get(rid, []):
        line = _line_of(f, pages)
        if not line or not (_in_setting(f) or (f.kind == "prose" and _hardware_line(line))):
            continue
        label, value = _split(line, f)
        if not label or not value or len(value) > SPEC_CHARS or len(DIGITS.findall(value)) > SPEC_NUMBERS:
            continue
        if f.raw not in value:
            continue  # the figure belongs to the label (`每 1,000 tokens 能耗`), not to what it reads
        item = specs.setdefault(f.page, {}).setdefault((label, value), Spec(label, value))
        item.figures.append(f)
    groups = []
    for page, items in specs.items():
        # A spec states a quantity (`512 GB`, `2 × 200 Gb/s`) or counts a part (`Cores per CPU 28`), in a list's
        # words, not a sentence's.
        found = [s for s in items.values() if (_quantity(s) or _count(s)) and not PHRASE.search(s.value)]
        if not found:
            continue
        text = " ".join(s.label for s in found)
        facts = [f for s in found for f in s.figures]
        groups.append(Group(rid, (page, 0), "", "", text, facts=facts, specs=found))
    return groups
