"""The one unit table of the product: printed spellings (zh/en) → canonical name, dimension and factor to its base."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Unit:
    """A normalised unit: `name` for display, `dim` for compatibility, `factor` to the dimension's base unit."""

    name: str
    dim: str
    factor: float = 1.0


NONE = Unit("", "", 1.0)
UNNAMED_RATE = "/s"  # the dimension of a rate per second of things its unit does not name

# (canonical name, dimension, factor, spellings). Bytes and bits are different dimensions; GB and GiB differ in
# factor (1 GiB = 1.0737 GB, never equal within printed precision). Case carries meaning (Gb ≠ GB, mb is neither
# MB nor Mb for sure): a spelling in another case is read only where no two units share its lower-case form.
_TABLE: list[tuple[str, str, float, tuple[str, ...]]] = [
    ("ns", "time", 1e-9, ("ns", "nanoseconds", "nanosecond", "纳秒")),
    ("µs", "time", 1e-6, ("µs", "μs", "us", "microseconds", "microsecond", "微秒")),
    ("ms", "time", 1e-3, ("ms", "msec", "milliseconds", "millisecond", "毫秒")),
    ("s", "time", 1.0, ("s", "sec", "secs", "second", "seconds", "秒")),
    ("min", "time", 60.0, ("min", "mins", "minute", "minutes", "分钟")),
    ("h", "time", 3600.0, ("h", "hr", "hrs", "hour", "hours", "小时")),
    ("d", "time", 86400.0, ("day", "days", "天")),
    ("周", "time", 604800.0, ("周", "week", "weeks", "wk", "wks")),
    ("months", "time", 2629800.0, ("month", "months", "个月")),
    ("years", "time", 31557600.0, ("year", "years")),
    ("B", "bytes", 1.0, ("B", "byte", "bytes", "Bytes", "字节")),
    ("KB", "bytes", 1e3, ("KB", "kB")),
    ("MB", "bytes", 1e6, ("MB",)),
    ("GB", "bytes", 1e9, ("GB",)),
    ("TB", "bytes", 1e12, ("TB",)),
    ("PB", "bytes", 1e15, ("PB",)),
    ("KiB", "bytes", 1024.0, ("KiB",)),
    ("MiB", "bytes", 1024.0**2, ("MiB",)),
    ("GiB", "bytes", 1024.0**3, ("GiB",)),
    ("TiB", "bytes", 1024.0**4, ("TiB",)),
    ("Kb", "bits", 1e3, ("Kb", "kbit")),
    ("Mb", "bits", 1e6, ("Mb", "Mbit")),
    ("Gb", "bits", 1e9, ("Gb", "Gbit")),
    ("Tb", "bits", 1e12, ("Tb", "Tbit")),
    ("KB/s", "bytes/s", 1e3, ("KB/s", "kB/s", "KBps", "kB/sec", "KB/sec", "Kbytes/sec")),
    ("MB/s", "bytes/s", 1e6, ("MB/s", "MBps", "MB/sec")),
    ("GB/s", "bytes/s", 1e9, ("GB/s", "GBps", "GB/sec")),
    ("TB/s", "bytes/s", 1e12, ("TB/s", "TBps")),
    ("MiB/s", "bytes/s", 1024.0**2, ("MiB/s",)),
    ("GiB/s", "bytes/s", 1024.0**3, ("GiB/s",)),
    ("Kb/s", "bits/s", 1e3, ("Kb/s", "Kbps", "kbps")),
    ("Mb/s", "bits/s", 1e6, ("Mb/s", "Mbps", "Mbit/s")),
    ("Gb/s", "bits/s", 1e9, ("Gb/s", "Gbps", "Gbit/s", "GbE", "GE")),
    ("Tb/s", "bits/s", 1e12, ("Tb/s", "Tbps")),
    (
        "tok/s",
        "token/s",
        1.0,
        ("tok/s", "token/s", "tokens/s", "tokens/sec", "tok/sec", "tokens per second", "tokens/second", "token/second"),
    ),
    ("tok/s/GPU", "token/s/gpu", 1.0, ("tok/s/GPU", "tokens/s/GPU")),
    ("token", "token", 1.0, ("token", "tokens", "Token", "Tokens", "tok", "toks")),
    (
        "req/s",
        "req/s",
        1.0,
        (
            "req/s",
            "requests/s",
            "req/sec",
            "requests/sec",
            "requests/second",
            "QPS",
            "qps",
            "RPS",
            "requests per second",
            "请求/秒",
        ),
    ),
    # A rate that names no thing counted (JMeter's `737.0/sec` under `Throughput`): the claim says what it counts.
    ("/s", UNNAMED_RATE, 1.0, ("/s", "/sec", "/second", "/秒")),
    (
        "ops/s",
        "op/s",
        1.0,
        (
            "ops/s",
            "op/s",
            "ops/sec",
            "ops per sec",
            "ops per second",
            "operations per second",
            "operations/second",
            "operations/sec",
            "ops/second",
            "次/秒",
            "次/s",
        ),
    ),
    (
        "trans/s",
        "trans/s",
        1.0,
        ("trans/s", "trans/sec", "transactions/s", "transactions/sec", "transactions per second", "事务/秒"),
    ),
    ("lines/s", "line/s", 1.0, ("lines/s", "lines/sec", "lines per second", "行/秒", "行/s")),
    ("records/s", "record/s", 1.0, ("records/s", "records/sec", "records per second", "条/秒", "条/s")),
    ("kv/s", "kv/s", 1.0, ("kv/s",)),
    ("IOPS", "IOPS", 1.0, ("IOPS",)),
    ("pps", "packet/s", 1.0, ("pps",)),
    ("Kpps", "packet/s", 1e3, ("Kpps", "KPPS", "kpps")),
    ("MPPS", "packet/s", 1e6, ("MPPS", "Mpps", "mpps")),
    ("samples/s", "sample/s", 1.0, ("samples/s", "sample/s")),
    ("fps", "fps", 1.0, ("fps", "FPS", "frames/s", "帧/秒")),
    ("ms/frame", "time/frame", 1e-3, ("ms/frame",)),
    ("%", "%", 1.0, ("%", "％", "percent", "per cent", "pct")),
    ("‰", "%", 0.1, ("‰",)),
    ("pp", "pp", 1.0, ("pp", "个百分点", "百分点", "percentage points", "percentage point")),
    ("x", "x", 1.0, ("倍", "x", "X", "×", "times", "fold", "-fold")),
    ("Hz", "Hz", 1.0, ("Hz",)),
    ("kHz", "Hz", 1e3, ("kHz",)),
    ("MHz", "Hz", 1e6, ("MHz",)),
    ("GHz", "Hz", 1e9, ("GHz",)),
    ("GFLOPS", "flop/s", 1e9, ("GFLOPS",)),
    ("TFLOPS", "flop/s", 1e12, ("TFLOPS",)),
    ("PFLOPS", "flop/s", 1e15, ("PFLOPS",)),
    ("nm", "length", 1e-9, ("nm", "nanometres", "nanometers", "纳米")),
    ("µm", "length", 1e-6, ("µm", "μm", "um", "micrometres", "micrometers", "microns", "micron", "微米")),
    ("mm", "length", 1e-3, ("mm", "millimetres", "millimeters", "millimetre", "millimeter", "毫米")),
    ("cm", "length", 1e-2, ("cm", "centimetres", "centimeters", "centimetre", "centimeter", "厘米")),
    ("m", "length", 1.0, ("m", "metres", "meters", "metre", "meter", "米")),
    ("km", "length", 1e3, ("km", "kilometres", "kilometers", "kilometre", "kilometer", "千米", "公里")),
    ("W", "W", 1.0, ("W", "瓦")),
    ("kW", "W", 1e3, ("kW", "千瓦")),
    ("MW", "W", 1e6, ("MW", "兆瓦")),
    ("GW", "W", 1e9, ("GW", "吉瓦")),
    ("Wh", "Wh", 1.0, ("Wh", "瓦时")),
    ("kWh", "Wh", 1e3, ("kWh", "kwh", "千瓦时")),
    ("MWh", "Wh", 1e6, ("MWh",)),
    ("V", "V", 1.0, ("V",)),
    ("mV", "V", 1e-3, ("mV",)),
    ("kV", "V", 1e3, ("kV",)),
    ("A", "A", 1.0, ("A",)),
    ("mA", "A", 1e-3, ("mA",)),
    ("Ω", "Ω", 1.0, ("Ω",)),
    ("kΩ", "Ω", 1e3, ("kΩ",)),
    ("MΩ", "Ω", 1e6, ("MΩ",)),
    ("dB", "dB", 1.0, ("dB",)),
    ("dB(A)", "dB(A)", 1.0, ("dB(A)",)),
    ("°C", "°C", 1.0, ("°C", "℃")),
    ("元", "元", 1.0, ("元",)),
    ("千元", "元", 1e3, ("千元",)),
    ("万元", "元", 1e4, ("万元",)),
    ("百万元", "元", 1e6, ("百万元",)),
    ("亿元", "元", 1e8, ("亿元",)),
    ("美元", "USD", 1.0, ("美元", "USD")),
    ("元/kWh", "元/Wh", 1e-3, ("元/kWh", "元/kwh", "元/度")),
    ("股", "股", 1.0, ("股",)),
    ("万股", "股", 1e4, ("万股",)),
    ("百万股", "股", 1e6, ("百万股",)),
    ("亿股", "股", 1e8, ("亿股",)),
    # Magnitude words a report prints after a figure (`12.05万`): the figure keeps them as its unit; an article's
    # `12.05万` is a magnitude (QC's number reader), so they are no unit spelling there (see `aliases`).
    ("万", "万", 1.0, ("万",)),
    ("亿", "亿", 1.0, ("亿",)),
]
_REPORT_ONLY = {"万", "亿"}

# Count words ("8 卡", "4 盘", "4 disks"): each kind its own dimension (zh and en share it), so "8 卡" never matches
# "8 s" but "4 disks" matches a report's "4 盘".
_COUNTS: dict[str, tuple[str, ...]] = {
    "gpu": ("张卡", "卡", "GPUs", "GPU", "cards", "card"),
    "disk": ("块盘", "盘", "disks", "disk", "drives", "drive", "SSDs", "SSD"),
    "node": ("个节点", "节点", "nodes", "node", "servers", "server"),
    "port": ("口", "ports", "port"),
    "core": ("核", "cores", "core"),
    "thread": ("个线程", "线程", "threads", "thread"),  # `100 个线程`: the classifier before its noun
    "layer": ("层", "layers", "layer"),
    "level": ("档", "levels", "level"),
    "round": ("轮", "rounds", "round", "runs", "run"),
    "times": ("次",),
    "way": ("路",),
    "item": ("个", "件", "items", "item"),  # `8 件衣物`, `8 items`
    "block": ("块", "blocks"),
    "machine": ("台", "machines"),
    "entry": ("条",),
    "group": ("组",),
    "term": ("项",),
    "chip": ("颗",),
    "person": ("人",),
    "company": ("家",),
    "sheet": ("张",),
    "line": ("行",),  # `50,000 行`: lines of input, rows
    "event": ("事件", "events"),
}
COUNT_WORDS: tuple[str, ...] = tuple(w for words in _COUNTS.values() for w in words)
# What a table prints where a column has no unit (a units row's `无`, `-`, `none`): the cells are bare numbers.
UNITLESS: frozenset[str] = frozenset({"无", "-", "—", "–", "/", "none", "None", "n/a", "N/A", "NA"})

_BY_ALIAS: dict[str, Unit] = {}
for _name, _dim, _factor, _aliases in _TABLE:
    for _alias in _aliases:
        _BY_ALIAS[_alias] = Unit(_name, _dim, _factor)
for _kind, _words in _COUNTS.items():
    for _word in _words:
        _BY_ALIAS[_word] = Unit(_word, f"count:{_kind}", 1.0)

# Case-insensitive lookup only where case carries no meaning (GB/Gb and MB/Mb differ: bytes vs bits).
_LOWER: dict[str, set[Unit]] = {}
for _alias, _unit in _BY_ALIAS.items():
    _LOWER.setdefault(_alias.lower(), set()).add(_unit)
_PER_THING = {"frame": "frame", "帧": "frame", "fr": "frame"}  # denominators spelt several ways
_MAGNITUDE = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8}
# A spelling whose other case is only a magnitude is read in its own case alone: `0.5m` is metres, `2M` no metre.
_FOLD = {k: next(iter(v)) for k, v in _LOWER.items()
         if len(v) == 1 and not (k not in _MAGNITUDE and k.upper() in _MAGNITUDE and k.upper() not in _BY_ALIAS)}  # fmt: skip
# Kelvin has no spelling in the table: `K` after a number is a magnitude (`29.8K token`, `8 K tokens`, `128K context`)
# and is kelvin only where `kelvin_at` says so.
KELVIN = Unit("K", "K", 1.0)
_KELVIN_AFTER = re.compile(
    r"[ \u00a0]?K(?![A-Za-z0-9/])(?=[ \u00a0]*(?:$|[^\sA-Za-z]"
    r"|(?:and|or|to|at|in|on|for|from|of|above|below|than|with|while|but|vs|is|was|are|were)(?![A-Za-z])))"
)


def aliases() -> list[str]:
    """Every unit spelling an article's number may carry, longest first (for one alternation)."""
    return sorted((a for a, u in _BY_ALIAS.items() if u.name not in _REPORT_ONLY), key=len, reverse=True)


def is_latin(alias: str) -> bool:
    return alias[-1:].isascii() and alias[-1:].isalpha()


@lru_cache(maxsize=1024)
def parse_unit(text: str | None) -> Unit:
    """Normalise a unit as printed in an article or a report (`GB/s`, `倍`, `K token`, `（亿元）`, `ms/frame`)."""
    t = (text or "").strip().strip("()（）[]").strip()
    if not t:
        return NONE
    hit = _BY_ALIAS.get(t) or _FOLD.get(t.lower()) or (KELVIN if t == "K" else None)
    if hit:
        return hit
    m = re.fullmatch(r"([KkMB万亿])\s*(.+)", t)  # a magnitude glued to a unit: "K token", "万 token"
    if m and (inner := _BY_ALIAS.get(m.group(2).strip()) or _FOLD.get(m.group(2).strip().lower())):
        return Unit(inner.name, inner.dim, inner.factor * _MAGNITUDE[m.group(1)])
    if "/" in t:  # compound rate such as `ms/frame` or `GB/秒`
        num, _, den = t.partition("/")
        known = num.strip() in _BY_ALIAS or num.strip().lower() in _FOLD
        base = parse_unit(num) if known else NONE
        per = parse_unit(den)
        if base.dim and per.dim == "time":
            dim = {"bytes": "bytes/s", "bits": "bits/s", "token": "token/s"}.get(base.dim, f"{base.dim}/s")
            return Unit(f"{base.name}/{per.name}", dim, base.factor / per.factor)
        if base.dim:  # per thing: `ms/帧` is `ms/frame`
            thing = _PER_THING.get(den.strip().lower())
            if thing:
                return Unit(f"{base.name}/{thing}", f"{base.dim}/{thing}", base.factor)
            return Unit(t, f"{base.dim}/{den.strip().lower()}", base.factor)
    return Unit(t, t.lower(), 1.0)


def kelvin_at(text: str, pos: int) -> int | None:
    """The end of a kelvin `K` right after the number ending at `pos`, or None; the caller asks only of a text that
    speaks of temperature. Kelvin is a `K` standing alone: nothing glued to it and no word after it but a joining one
    (`335 K and 3900 °C`, `at 77 K.`); a counted thing after it (`8 K tokens`, `29.8K token`) keeps it a magnitude."""
    m = _KELVIN_AFTER.match(text, pos)
    return m.end() if m else None


def names_counted_rate(unit: Unit) -> bool:
    """Whether `unit` counts things per second (`req/s`, `tok/s`, `trans/s`), the rates a figure printed as a bare
    `/sec` may stand for; a bandwidth (`GB/s`, `Gb/s`) is a size per second, never one of them."""
    return unit.dim.endswith("/s") and unit.dim not in ("bytes/s", "bits/s", UNNAMED_RATE)


def compatible(a: Unit, b: Unit) -> bool:
    """Whether two units measure the same thing (a missing unit is compatible with any)."""
    return not a.dim or not b.dim or a.dim == b.dim


# ---- units as the extractor finds them after a number -----------------------------------------------------------

_EXACT = re.compile("|".join(re.escape(a) for a in sorted(_BY_ALIAS, key=len, reverse=True)))
# Other cases only for Latin spellings of three letters or more whose lower case names one unit: `2.8Ghz` is GHz,
# `10gbps` stays unread (Gb/s or GB/s?), and `5 S` is not seconds.
_FOLDABLE = sorted((a for a in _FOLD if len(a) >= 3 and a.isascii() and a[-1:].isalpha()), key=len, reverse=True)
_FOLDED = re.compile("|".join(re.escape(a) for a in _FOLDABLE), re.IGNORECASE)
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9_]")
_REPEATED = re.compile(
    r"\b(?:test(?:ed)?|runs?|ran|repeat(?:ed)?|execut(?:e|ed)|measur(?:e|ed)|iterat(?:e|ed)|loop(?:ed)?|call(?:ed)?"
    r"|invok(?:e|ed)|tried|performed|sampled)\b(?:\s+[A-Za-z]+){0,2}\s+[\d.,]+\s*$",
    re.IGNORECASE,
)


def canonical(text: str) -> str | None:
    """The canonical name of exactly one printed unit (`毫秒` → `ms`, `Gbps` → `Gb/s`, `2.8Ghz`'s `Ghz` → `GHz`)."""
    t = text.strip()
    hit = _BY_ALIAS.get(t)
    if hit is None and len(t) >= 3 and t.isascii():
        hit = _FOLD.get(t.lower())
    return hit.name if hit else None


# `8G 内存`, `16G RAM`, `1T 硬盘`: a size printed without its B before a word of memory or storage counts bytes.
_STORAGE_SIZE = re.compile(
    r"([KMGT])(?=[ \u00a0]?(?:内存|显存|存储|硬盘|磁盘|固态|(?:D|V)?RAM\b|HBM\b|SSD\b|HDD\b|NVMe\b|[Mm]emory\b|[Dd]isks?\b))"
)


def storage_size_at(text: str, pos: int) -> tuple[str, int] | None:
    """The byte unit (`GB`) a lone magnitude letter at `pos` stands for before a memory or storage word (`8G 内存`),
    and its end; None elsewhere (`5G 网络`, `4G LTE` name things)."""
    m = _STORAGE_SIZE.match(text, pos)
    return (m.group(1) + "B", m.end()) if m else None


_SPACED_RATE = re.compile(r"([^\s/\d,.;:()（）]{1,6}) / ([^\s/\d,.;:()（）]{1,6})(?![A-Za-z0-9])")


def unit_at(text: str, pos: int) -> tuple[str, int] | None:
    """The unit starting at `pos` (after at most two spaces) as (canonical name, end), or None."""
    i = pos
    while i < len(text) and text[i] == " " and i - pos < 2:
        i += 1
    # A rate whose slash the text layer spaced out (`640 行 / 秒`, `3.2 GB / s`): the unit as printed, joined.
    spaced = _SPACED_RATE.match(text, i)
    if spaced and (name := canonical(f"{spaced.group(1)}/{spaced.group(2)}")):
        return name, spaced.end()
    m = _EXACT.match(text, i)
    f = _FOLDED.match(text, i)
    if f and (m is None or f.end() > m.end()):
        m = f
    if not m:
        return None
    raw = m.group(0)
    end = m.end()
    # Latin units need a word boundary after them: `5 s` but not `5 steps`, `2.22x` but not `4 x86`.
    if raw[-1].isascii() and raw[-1].isalnum() and end < len(text) and _ASCII_ALNUM.match(text[end]):
        return None
    # `4 x 8`, `8 A100`, `8 A B`: these letters count only when glued, or (amperes, volts) before a word or the end
    # of a clause: `44.2 V in`, `1.2 A.`
    if (
        i > pos
        and raw in ("x", "X", "A", "V")
        and (raw in ("x", "X") or not re.match(r"\s*(?:$|[,.;:)，。；）]|[a-z\u3400-\u9fff])", text[end:]))
    ):
        return None
    name = canonical(raw)
    # "tested 10 times" counts repetitions; only "10 times faster", "10 times the …" is a multiple.
    if name == "x" and raw.lower() == "times" and _REPEATED.search(text, max(0, pos - 80), pos):
        return None
    return (name, end) if name else None
