"""Extraction of every number in zh/en prose: values, units, ranges, bounds, magnitudes, and what is exempt."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from qc.draft import citations
from qc.glossary import glossary
from qc.units import COUNT_WORDS, aliases, is_latin, kelvin_at, parse_unit, storage_size_at


@dataclass(slots=True)
class Quantity:
    """One number (or range) as written: where it stands, its value in `unit`, how precisely it was printed."""

    start: int
    end: int
    text: str
    value: float | None  # None for ranges and exempt tokens
    unit: str = ""  # canonical unit name (`s`, `GB`, `%`, `x`, `token`, `卡` …); "" when none
    low: float | None = None  # range endpoints
    high: float | None = None
    step: float = 1.0  # printed precision of `value` (of `high` for a range), in `unit`: 26% → 1, 29.8K → 100
    low_step: float = 1.0
    approx: bool = False  # 约, about, ~, ≈
    bound: str | None = None  # "≥", "≤", ">" or "<" (at least, up to, 超过 …)
    exempt: str | None = None  # "id", "date" or "citation": not checked
    sign: str = ""  # "+" or "-" when printed
    count: bool = False  # a multiplier of things, not a speedup: "×8", "8×H100"
    magnitude: bool = False  # printed with K/M/B/万/亿
    num_start: int = 0  # span of the number itself (without prefix words and unit), for term look-ups
    num_end: int = 0
    low_end: int = 0  # for a range: where the low endpoint's text ends

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def endpoints(self) -> list[tuple[float, float]]:
        """(value, step) of the number, or of each endpoint of a range."""
        if self.low is not None and self.high is not None:
            return [(self.low, self.low_step), (self.high, self.step)]
        return [] if self.value is None else [(self.value, self.step)]


# \d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d) | \d+(?:\.\d+)?, with the first digit taken out of the alternation so
# that the regex starts with a character set (the engine then skips straight to digits). A comma after the last
# group ends the number (`600,000, while`); one before more digits makes a list (`1,2,3`), read digit by digit.
_NUM = r"\d(?:\d{0,2}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)|\d*(?:\.\d+)?)"
NUM_RE = re.compile(_NUM)
_UNIT_ALTS = "|".join(re.escape(a) + ("(?![A-Za-z0-9])" if is_latin(a) else "") for a in aliases())
UNIT_RE = re.compile(rf"[ \u00a0]?(?P<u>{_UNIT_ALTS})")


def _by_first_char() -> dict[str, re.Pattern[str]]:
    """UNIT_RE split by the first character of its alternatives (kept in order): at a given position only those
    starting with the character there can match, so one small regex gives the very match of the long one."""
    groups: dict[str, list[str]] = {}
    for a in aliases():
        groups.setdefault(a[0], []).append(re.escape(a) + ("(?![A-Za-z0-9])" if is_latin(a) else ""))
    return {c: re.compile(rf"[ \u00a0]?(?P<u>{'|'.join(alts)})") for c, alts in groups.items()}


_UNIT_BY_CHAR = _by_first_char()


def unit_at(t: str, pos: int) -> re.Match[str] | None:
    """`UNIT_RE.match(t, pos)`, trying only the units that can start there."""
    if pos >= len(t):
        return None
    c = t[pos]
    if c in " \u00a0" and pos + 1 < len(t) and (rx := _UNIT_BY_CHAR.get(t[pos + 1])) is not None:
        m = rx.match(t, pos)  # (its optional space takes the space first, as UNIT_RE's does)
        if m is not None:
            return m
    rx = _UNIT_BY_CHAR.get(c)
    return rx.match(t, pos) if rx is not None else None


PER_RE = re.compile(r"/(?:[A-Za-z]+(?![A-Za-z0-9/])|帧)")
# `185 ms per frame`, `每帧 225 ms`: a time per frame, the unit a report's `ms/frame` column carries.
PER_FRAME_AFTER = re.compile(r"[ \u00a0]*(?:per frame|a frame|每帧)", re.IGNORECASE)
PER_FRAME_BEFORE = re.compile(r"每帧[ \u00a0]*$")
# `每秒处理 485.86 次事务`, `每秒事务处理量 485.86 次`: a count each second is a rate (`trans/sec`, `次/秒`).
PER_SECOND_BEFORE = re.compile(r"每秒([\u4e00-\u9fff]{0,6})[ \u00a0]*$")
_CJK_AFTER = re.compile(r"[\u4e00-\u9fff]{1,2}")
# `32*32`, `64×64`, `1920x1080`: a size (an image's or a face's), a name of the test case, never a quantity.
SIZE_RE = re.compile(r"[ \u00a0]?[*×xX][ \u00a0]?\d+(?![\d.])")
# Members of a list written `1,521/1,582/1,646 亿元` or `4.7、7.2、9.3 亿元`: the unit printed once covers each.
LIST_SEP_RE = re.compile(r"[ \u00a0]*[/、][ \u00a0]*")
MAG_RE = re.compile(r"[KkMB](?![A-Za-z0-9/])|[ \u00a0]?[万亿](?!分)|[ \u00a0](?:thousand|million|billion)\b")
_MAG = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
DATE_RE = re.compile(
    rf"(?<![\d.])(?:(?:19|20)\d{{2}}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?![\d.])"
    rf"|(?:19|20)\d{{2}}\s*年(?:\s*\d{{1,2}}\s*月(?:\s*\d{{1,2}}\s*[日号])?)?"
    rf"|\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号]"
    rf"|(?:0?[1-9]|1[0-2])\s*[-–~～至到]\s*(?:0?[1-9]|1[0-2])\s*月(?!\s*\d)"  # months: `2022 年 1-5 月`
    rf"|(?:19|20)\d{{2}}-(?:0[1-9]|1[0-2])(?![\d.])"
    rf"|{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{{2}}"
    rf"|\d{{1,2}}\s+{_MONTHS}\s+(?:19|20)\d{{2}}"
    rf"|{_MONTHS}\s+(?:19|20)\d{{2}}"
    rf"|Q[1-4]\s*(?:19|20)\d{{2}}|(?:19|20)\d{{2}}\s*Q[1-4])"
)
# Spans never read as numbers: inline code, URLs, Markdown link targets, HTML tags, footnote refs.
MASK_RE = re.compile(
    r"`[^`\n]+`|(?:https?://|www\.)[^\s)>\]】]+|\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|<[^>\n]+>|\[\^[^\]\s]+\]"
)
# (`averaged over 20 confidence levels` is across them: no bound)
PREFIX_RE = re.compile(
    r"(?:(?P<approx>约为|约|大约|大概|近|将近|接近|~|～|≈|about|around|approximately|approx\.|roughly|nearly|almost|some)"
    r"|(?P<ge>≥|>=|⩾|不低于|不少于|至少|at least|no less than)"
    r"|(?P<gt>>|超过|逾|多于|高于|more than|greater than|(?<!averaged )(?<!summed )over|above|exceeding)"
    r"|(?P<le>≤|<=|⩽|不超过|(?P<verb>最多(?:提升|提高|增加|减少|降低|下降|缩短|节省))|最多|最高|高达|up to|at most|no more than)"
    r"|(?P<lt><|低于|少于|不到|less than|under|below))[ \u00a0]*$",
    re.IGNORECASE,
)
# A sentence opening `Over` a count whose phrase ends in a comma within four words (`Over 30 runs, the p99 …`).
_ACROSS = re.compile(r"(?:^|[.;:!?]\s+|\n)Over[ \u00a0]*$")
_PHRASE_END = re.compile(r"(?:[ \u00a0]+[A-Za-z0-9][A-Za-z0-9-]*){0,4},")
# `48 times a day`: how often (a count of times), never a multiple.
_FREQUENCY = re.compile(
    r"[ \u00a0]+(?:a|an|per|each|every)[ \u00a0]+(?:second|minute|hour|day|week|month|year)\b", re.I
)
ID_PREFIX_RE = re.compile(
    r"(?:表|图|Table|Tab\.|Fig\.|Figure|Section|Sec\.|§|Eq\.|Equation|No\.|#|第|章节|Step|Gate)[ \u00a0]*$"
)
# The last character of every PREFIX_RE / ID_PREFIX_RE alternative. A prefix ends right before the number (spaces
# aside), so where the character there is none of these the regex cannot match and its costly search is skipped.
PREFIX_ENDS = frozenset("为约概近~～≈tdy.e≥=⩾于少n>过逾rg≤<⩽多高达ow到升加低降短省")
ID_PREFIX_ENDS = frozenset("表图e.n§#第节p")


def _may_end(t: str, pos: int, ends: frozenset[str], fold: bool) -> bool:
    """Whether a prefix whose alternatives end in `ends` can end at `pos` (before optional spaces)."""
    k = pos
    if k and t[k - 1] == "\n":  # `$` also matches before a final newline: let the regex decide
        return True
    while k and t[k - 1] in " \u00a0":
        k -= 1
    if not k:
        return False
    c = t[k - 1]
    if c in ends:
        return True
    if not fold:
        return False
    if c.isascii():
        return c.lower() in ends
    return c.lower() != c or c.upper() != c  # a cased letter may fold to one of them (ſ ~ s): let the regex decide


ID_TAIL_RE = re.compile(r"[0-9]*(?:[.\-–~～〜][0-9]+)*(?:[ \u00a0]*(?:章|节|页|条|部分|轮|次|步|阶段|期))?")
RANGE_SEP_RE = re.compile(r"[ \u00a0]*(?:–|—|~|～|〜|至|到|to|and)[ \u00a0]*|-")
CHANGE_RE = re.compile(
    r"[ \u00a0]*(?:降至|降到|降低到|降低至|减至|减少到|减少至|缩短至|缩短到|提升至|提升到|提高至|提高到|增至|增加到|增加至|"
    r"升至|上升至|上升到|增长到|增长至|变为|→|->|to|到|至)[ \u00a0]*"
)
# A word that names what the integer after it numbers (`Run 1`, `batch 32`): the integer is a key, no measure.
KEY_BEFORE = re.compile(
    r"\b(?:run|batch|test|case|round|trial|step|phase|stage|level|iteration|scenario)[ \u00a0]+$", re.IGNORECASE
)
PAIR_SEP_RE = re.compile(r"[ \u00a0]*(?:vs\.?|versus|against|对)[ \u00a0]*", re.IGNORECASE)
FROM_RE = re.compile(r"(?:从|由|from)[ \u00a0]*$", re.IGNORECASE)
# A `from` earlier in the clause that no `to` has closed yet (`from 7.0 ms at batch 1 …`).
OPEN_FROM = re.compile(r"(?:\bfrom\b|从|由)(?:(?!\bto\b|至|到)[^,;，；。!?])*$", re.IGNORECASE)
ID_CHARS = re.compile(r"[A-Za-z0-9_]*(?:(?:\.|×)[0-9][A-Za-z0-9_]*)*")
LEFT_WORD = re.compile(r"[A-Za-z0-9_]+$")
COUNT_AFTER = re.compile(r"[ \u00a0]?[A-Z0-9]")
_COUNTS = frozenset(COUNT_WORDS)
# `100 concurrent threads`, `4 storage nodes`: one lower-case word between a number and the English count it counts
_EN_COUNTS = "|".join(re.escape(w) for w in sorted(COUNT_WORDS, key=len, reverse=True) if w.isascii())
_COUNT_AFTER_WORD = re.compile(rf" [a-z]{{3,}} ({_EN_COUNTS})\b")


# Every date DATE_RE reads holds a year (19xx/20xx) or 月: a cheap test spares the long alternation most texts.
_YEARISH = re.compile(r"(?:19|20)\d\d")
_CHECKED = re.compile(r"[\d【\[]")  # no digit and no citation marker: nothing to extract


@lru_cache(maxsize=1)
def _temperature_words() -> tuple[str, ...]:
    return tuple(str(w).lower() for w in (glossary().get("kinds") or {}).get("temperature") or ())


def speaks_of_temperature(text: str) -> bool:
    """Whether a text names a temperature (the glossary's temperature words): where a lone `K` may be kelvin."""
    low = text.lower()
    return any(w in low for w in _temperature_words())


@lru_cache(maxsize=1024)
def markers(text: str) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """`citations(text)`, remembered: checking reads one block's or sentence's markers several times. Every marker
    opens with `【` or `[`, so text without either has none."""
    if "【" not in text and "[" not in text:
        return ()
    return tuple((start, end, tuple(ids)) for start, end, ids in citations(text))


def _decimals(num: str) -> int:
    return len(num.split(".", 1)[1]) if "." in num else 0


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.temperature = "K" in text and speaks_of_temperature(text)
        self.out: list[Quantity] = []
        spans: list[tuple[int, int]] = []
        for start, end, ids in markers(text):
            spans.append((start, end))
            pos = start
            for rid in ids:
                i = text.find(rid, pos, end)
                if i >= 0:
                    self.out.append(
                        Quantity(i, i + len(rid), rid, None, exempt="citation", num_start=i, num_end=i + len(rid))
                    )
                    pos = i + len(rid)
        for m in MASK_RE.finditer(text):
            spans.append(m.span())
        for m in DATE_RE.finditer(text) if "月" in text or _YEARISH.search(text) else ():
            if not self._inside(spans, m.start()):
                self.out.append(
                    Quantity(m.start(), m.end(), m.group(), None, exempt="date", num_start=m.start(), num_end=m.end())
                )
                spans.append(m.span())
        merged: list[list[int]] = []
        for a, b in sorted(spans):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]

    @staticmethod
    def _inside(spans: list[tuple[int, int]], pos: int) -> bool:
        return any(s <= pos < e for s, e in spans)

    def masked(self, pos: int) -> bool:
        i = bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.ends[i]

    def ident(self, start: int, end: int) -> Quantity:
        """An identifier token (TP8, MI308X, RAID0, p50, 表 4-1): its whole span."""
        t = self.text
        while start > 0 and (t[start - 1].isascii() and (t[start - 1].isalnum() or t[start - 1] == "_")):
            start -= 1
        m = ID_CHARS.match(t, end)
        end = m.end() if m else end
        while end > start and t[end - 1] in ".-":
            end -= 1
        return Quantity(start, end, t[start:end], None, exempt="id", num_start=start, num_end=end)

    def atom(self, m: re.Match[str], allow_sign: bool = True) -> Quantity | None:
        """Parse the number at `m` with its magnitude, unit, sign and prefix words; None if it is not a quantity."""
        t = self.text
        s, num = m.start(), m.group()
        c1 = t[s - 1] if s > 0 else ""
        c2 = t[s - 2] if s > 1 else ""
        pos = m.end()
        if pos < len(t) - 1 and t[pos] == "." and t[pos + 1].isdigit():  # 1.2.3 or an IP address
            return None
        value = float(num.replace(",", ""))
        step = 10.0 ** -_decimals(num)
        magnitude = False
        kelvin = kelvin_at(t, pos) if self.temperature else None
        storage = storage_size_at(t, pos) if kelvin is None else None  # `8G 内存` is 8 GB, no magnitude
        mm = MAG_RE.match(t, pos) if kelvin is None and storage is None else None
        if mm:  # glued K/M/B (480B, 29.8K) or 万/亿; a spaced "B" stays bytes
            factor = _MAG[mm.group().strip()]
            value, step, pos, magnitude = value * factor, step * factor, mm.end(), True
        unit = ""
        count = False
        um = unit_at(t, pos) if kelvin is None else None
        if kelvin is not None:
            unit, pos = "K", kelvin
        elif storage is not None:
            unit, pos = storage
        elif um:
            u = um.group("u")
            if u in ("x", "X", "×") and COUNT_AFTER.match(t, um.end()):
                count = True  # 8×H100, 8x A100: eight of something
            elif u.lower() == "times" and _FREQUENCY.match(t, um.end()):
                unit = parse_unit("次").name
            else:
                unit = parse_unit(u).name
            pos = um.end()
            per = PER_RE.match(t, pos)
            if per and not count and ((cu := parse_unit(u + per.group())).dim != cu.name.lower()
                                      or parse_unit(per.group()[1:]).dim != per.group()[1:].lower()):  # fmt: skip
                unit, pos = cu.name, per.end()  # 756 ms/frame, 0.39 元/kwh: a compound of units the table knows
            if not count and parse_unit(unit).dim == "time":
                if pf := PER_FRAME_AFTER.match(t, pos):
                    unit, pos = parse_unit(unit + "/frame").name, pf.end()
                elif PER_FRAME_BEFORE.search(t, max(0, s - 8), s):
                    unit = parse_unit(unit + "/frame").name
            elif (
                not count
                and parse_unit(unit).dim == "count:times"
                and (ps := PER_SECOND_BEFORE.search(t, max(0, s - 10), s))
            ):
                unit = _per_second(ps.group(1), t, pos)
        elif pos < len(t) and t[pos].isascii() and t[pos].isalpha():
            return None  # glued letters that are no unit: 3D, 5G, 2nd
        elif not magnitude and (cw := _COUNT_AFTER_WORD.match(t, pos)):
            unit = parse_unit(cw.group(1)).name  # the number's own span stays `100`
        start = s
        sign = ""
        if c1 == "×" and not count and not unit:
            count, start = True, s - 1
        elif allow_sign and c1 in "+-−–" and not ((c2.isascii() and c2.isalnum()) or c2 in ".%)"):  # 为-5%: signed
            sign, start = ("-" if c1 != "+" else "+"), s - 1
            if sign == "-":
                value = -value
        approx, bound = False, None
        pm = PREFIX_RE.search(t, max(0, start - 16), start) if _may_end(t, start, PREFIX_ENDS, True) else None
        counted = not (dim := parse_unit(unit).dim) or dim.startswith("count:")
        if pm and counted and _ACROSS.search(t, max(0, start - 24), start) and _PHRASE_END.match(t, pos):
            pm = None  # `Over 30 back-to-back saves, …`: a leading phrase over a count is across them, no bound
        if pm:
            kind = pm.lastgroup
            if kind == "approx":
                approx = True
            else:
                bound = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<"}[kind or "ge"]
            if not pm.group("verb"):  # (`最多减少 48%` bounds the change, which stays its own word)
                start = pm.start()
        return Quantity(
            start, pos, t[start:pos], value, unit, step=step, approx=approx, bound=bound, sign=sign,
            count=count, magnitude=magnitude, num_start=s, num_end=m.end(),
        )  # fmt: skip

    def classify(self, m: re.Match[str]) -> Quantity | None:
        t = self.text
        s = m.start()
        c1 = t[s - 1] if s > 0 else ""
        c2 = t[s - 2] if s > 1 else ""
        if c1.isascii() and (c1.isalpha() or c1 == "_"):
            return self.ident(s, m.end())
        if c1 == "@" and c2.isascii() and c2.isalnum():  # `A53@1.42GHz` names a core, as the evidence reads it
            return self.ident(s, m.end())
        if c1 == "." and c2.isdigit():
            return None
        if c1 == "-" and c2.isascii() and c2.isalnum():  # DeepSeek-32B is a model size; Llama-3 a name
            q = self.atom(m, allow_sign=False)
            return q if q is not None and q.magnitude else self.ident(s, m.end())
        if _may_end(t, s, ID_PREFIX_ENDS, False) and ID_PREFIX_RE.search(t, max(0, s - 10), s):
            tail = ID_TAIL_RE.match(t, s)
            end = tail.end() if tail else m.end()
            while end > s and t[end - 1] in ".-– ":
                end -= 1
            return Quantity(s, end, t[s:end], None, exempt="id", num_start=s, num_end=end)
        size = SIZE_RE.match(t, m.end())
        if size and not ((c1 and c1 in "*×") or unit_at(t, size.end())):  # (`4×200 Gbps` is four 200 Gbps links)
            return Quantity(s, size.end(), t[s : size.end()], None, exempt="id", num_start=s, num_end=size.end())
        q = self.atom(m)
        if q is None:
            return self.ident(s, m.end())
        if (
            q.unit == "" and not q.magnitude and not q.count and "." not in m.group() and 1990 <= (q.value or 0) <= 2039
        ):  # a bare year
            return Quantity(q.num_start, q.num_end, m.group(), None, exempt="date", num_start=s, num_end=m.end())
        return q

    def inside_from(self, a: Quantity) -> bool:
        """Whether `a` stands between a `from` of its clause and the `to` closing it, not right after the `from`
        (`from 7.0 ms at batch 1 to 25.0 ms`: 1 names the batch, neither side of the change)."""
        t = self.text
        return not FROM_RE.search(t, max(0, a.start - 8), a.start) and bool(
            OPEN_FROM.search(t, max(0, a.start - 60), a.start)
        )

    def range_from(self, a: Quantity) -> Quantity:
        """Merge `a` with a following `–B`, `~B`, `至 B`, `to B` into one range."""
        t = self.text
        sep = RANGE_SEP_RE.match(t, a.end)
        if not sep or a.count or (a.bound and a.unit):
            return a
        word = sep.group().strip()
        if word in ("to", "至", "到") and (FROM_RE.search(t, max(0, a.start - 8), a.start) or self.inside_from(a)):
            # "from 10.17 s to 7.53 s" is a before/after pair, checked as two numbers; in `from 7.0 ms at batch 1 to
            # 25.0 ms` the `to` closes the clause's `from` (1 is a key)
            return a
        if word == "and" and not re.search(r"between\s+$", t[max(0, a.start - 9) : a.start], re.I):
            return a
        m = NUM_RE.match(t, sep.end())
        if not m or self.masked(m.start()):
            return a
        b = self.atom(m, allow_sign=False)
        # `b` starts right after the separator, so an "about" prefix `atom` reads into it is the separator itself:
        # the tilde of `1~2s` joins a range, it does not make 2 approximate (`b.approx` is not b's own).
        if b is None or b.count or b.bound:
            return a
        if a.unit and b.unit and a.unit != b.unit:
            return a
        unit = b.unit or a.unit
        low = abs(a.value or 0.0) if a.sign == "+" else a.value
        low_step = a.step
        mag = MAG_RE.match(t, b.num_end) if b.magnitude and not a.magnitude and not a.unit else None
        if mag and low is not None:  # `1.5~2.25 万`, `3-5K`: the magnitude printed once covers both ends
            factor = _MAG[mag.group().strip()]
            low, low_step = low * factor, low_step * factor
        return Quantity(
            a.start, b.end, t[a.start : b.end], None, unit, low=low, high=b.value, step=b.step, low_step=low_step,
            approx=a.approx, bound=a.bound, sign=a.sign, magnitude=a.magnitude or b.magnitude,
            num_start=a.num_start, num_end=b.num_end, low_end=a.end,
        )  # fmt: skip

    def run(self) -> list[Quantity]:
        t = self.text
        consumed = 0
        for m in NUM_RE.finditer(t):
            if m.start() < consumed or self.masked(m.start()):
                continue
            q = self.classify(m)
            if q is None:
                consumed = m.end()
                continue
            if q.exempt is None:
                q = self.range_from(q)
            consumed = max(q.end, m.end())
            self.out.append(q)
        # Spans never overlap (an identifier glued to a date or a number could run into it): keep the first, but
        # never let an exempt token swallow a number QC must check.
        kept: list[Quantity] = []
        for q in sorted(self.out, key=lambda q: (q.start, q.exempt is not None)):
            if kept and q.start < kept[-1].end:
                if kept[-1].exempt is not None and q.exempt is None:
                    kept[-1] = q
                continue
            kept.append(q)
        self.out = kept
        self._propagate_units()
        self._deviation_units()
        self._pair_units()
        return self.out

    def _pair_units(self) -> None:
        """`12 vs 40 ms`, `69 against 168 ms`, `12 ms 对 40`: two numbers set against each other measure one thing, so
        the unit printed once applies to both (either way round)."""
        qs = [q for q in self.out if q.exempt is None]
        for a, b in pairwise(qs):
            if bool(a.unit) == bool(b.unit) or a.count or b.count or a.is_range or b.is_range:
                continue
            if a.magnitude or b.magnitude or a.bound or b.bound or not PAIR_SEP_RE.fullmatch(self.text, a.end, b.start):
                continue
            bare = b if a.unit else a
            if KEY_BEFORE.search(self.text, max(0, bare.start - 16), bare.start):
                continue  # `143 ms in Run 1 against 112 ms in Run 2`: 1 names the run, no time
            if a.unit:
                b.unit = a.unit
            else:
                a.unit = b.unit

    def _deviation_units(self) -> None:
        """`23,760 ± 142 MB/s`: a mean takes the unit printed after its deviation."""
        qs = [q for q in self.out if q.exempt is None]
        for a, b in pairwise(qs):
            if (
                b.unit
                and not a.unit
                and not a.is_range
                and re.fullmatch(r"[ \u00a0]*±[ \u00a0]*", self.text[a.end : b.start])
            ):
                a.unit = b.unit

    def _propagate_units(self) -> None:
        """`从 10.17 降至 7.53s`, `from 4.1 to 74.9 tok/s`: the first number takes the second's unit; so do the
        members of a list before its last (`1,521/1,582/1,646 亿元`, `4.7、7.2、9.3 亿元`)."""
        qs = [q for q in self.out if q.exempt is None]
        factor = 1.0  # the magnitude the list's last member prints (`亿元`: 亿 covers every member)
        for a, b in reversed(list(pairwise(qs))):
            if (
                b.unit
                and not a.unit
                and not (a.count or a.bound or a.is_range or a.magnitude or b.is_range)
                and LIST_SEP_RE.fullmatch(self.text, a.end, b.start)
            ):
                if b.magnitude and (mag := MAG_RE.match(self.text, b.num_end)):
                    factor = _MAG[mag.group().strip()]
                a.unit = b.unit
                if factor != 1.0:
                    a.value, a.step, a.magnitude = (a.value or 0.0) * factor, a.step * factor, True
            else:
                factor = 1.0
        for a, b in pairwise(qs):
            if (
                not a.unit
                and b.unit
                and not a.count
                and not a.is_range
                and CHANGE_RE.fullmatch(self.text, a.end, b.start)
                and not self.inside_from(a)
            ):
                a.unit = b.unit


def _per_second(before: str, t: str, pos: int) -> str:
    """The rate a count `每秒` precedes: the thing counted, right after `次` or among the words after `每秒`, where the
    unit table knows it per second (`次事务` → `trans/s`), else `次/秒`."""
    after = m.group() if (m := _CJK_AFTER.match(t, pos)) else ""
    for noun in (after, after[:1], *(before[i : i + 2] for i in range(len(before) - 1))):
        if noun and (cu := parse_unit(noun + "/秒")).name != noun + "/秒":  # (a unit the table knows is renamed)
            return cu.name
    return parse_unit("次/秒").name


def extract(text: str) -> list[Quantity]:
    """Every number in `text`, in order: quantities with value/unit/precision, and exempt ids, dates and citations."""
    if not _CHECKED.search(text):
        return []
    return _Scanner(text).run()
