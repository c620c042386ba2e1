"""Units: aliases (zh/en) → canonical name, dimension and factor to the dimension's base, so ms↔s and MB↔GB compare."""

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

# (canonical name, dimension, factor, aliases). Bytes and bits are different dimensions; so are GB and GiB
# only in factor (both bytes): 1 GiB = 1.0737 GB, never equal within printed precision.
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
    ("B", "bytes", 1.0, ("B", "byte", "bytes", "字节")),
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
    ("KB/s", "bytes/s", 1e3, ("KB/s", "kB/s", "KBps")),
    ("MB/s", "bytes/s", 1e6, ("MB/s", "MBps")),
    ("GB/s", "bytes/s", 1e9, ("GB/s", "GBps")),
    ("TB/s", "bytes/s", 1e12, ("TB/s", "TBps")),
    ("MiB/s", "bytes/s", 1024.0**2, ("MiB/s",)),
    ("GiB/s", "bytes/s", 1024.0**3, ("GiB/s",)),
    ("Kb/s", "bits/s", 1e3, ("Kb/s", "Kbps", "kbps")),
    ("Mb/s", "bits/s", 1e6, ("Mb/s", "Mbps")),
    ("Gb/s", "bits/s", 1e9, ("Gb/s", "Gbps", "GbE", "GE")),
    ("Tb/s", "bits/s", 1e12, ("Tb/s", "Tbps")),
    ("tok/s", "token/s", 1.0, ("tok/s", "token/s", "tokens/s", "tokens/sec", "tok/sec", "tokens per second")),
    ("token", "token", 1.0, ("token", "tokens", "tok", "toks")),
    ("req/s", "req/s", 1.0, ("req/s", "requests/s", "QPS", "qps", "RPS")),
    ("IOPS", "IOPS", 1.0, ("IOPS",)),
    ("samples/s", "sample/s", 1.0, ("samples/s", "sample/s")),
    ("fps", "fps", 1.0, ("fps", "FPS", "帧/秒")),
    ("%", "%", 1.0, ("%", "％", "percent", "per cent", "pct")),
    ("pp", "pp", 1.0, ("pp", "个百分点", "百分点", "percentage points", "percentage point")),
    ("x", "x", 1.0, ("倍", "x", "X", "×", "times", "fold", "-fold")),
    ("Hz", "Hz", 1.0, ("Hz",)),
    ("kHz", "Hz", 1e3, ("kHz",)),
    ("MHz", "Hz", 1e6, ("MHz",)),
    ("GHz", "Hz", 1e9, ("GHz",)),
    ("W", "W", 1.0, ("W", "瓦")),
    ("kW", "W", 1e3, ("kW", "千瓦")),
    ("°C", "°C", 1.0, ("°C", "℃")),
    ("元", "元", 1.0, ("元",)),
    ("万元", "元", 1e4, ("万元",)),
    ("亿元", "元", 1e8, ("亿元",)),
    ("美元", "USD", 1.0, ("美元", "USD")),
]

# Count words ("8 卡", "4 盘", "4 disks"): each kind its own dimension (zh and en share it), so "8 卡" never matches
# "8 s" but "4 disks" matches a report's "4 盘".
_COUNTS: dict[str, tuple[str, ...]] = {
    "gpu": ("张卡", "卡", "GPUs", "GPU", "cards", "card"),
    "disk": ("块盘", "盘", "disks", "disk", "drives", "drive", "SSDs", "SSD"),
    "node": ("节点", "nodes", "node", "servers", "server"),
    "port": ("口", "ports", "port"),
    "core": ("核", "cores", "core"),
    "thread": ("线程", "threads", "thread"),
    "layer": ("层", "layers", "layer"),
    "level": ("档", "levels", "level"),
    "round": ("轮", "rounds", "round", "runs", "run"),
    "times": ("次",),
    "way": ("路",),
    "item": ("个",),
    "block": ("块", "blocks"),
    "machine": ("台", "machines"),
}
COUNT_WORDS: tuple[str, ...] = tuple(w for words in _COUNTS.values() for w in words)

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
_FOLD = {k: next(iter(v)) for k, v in _LOWER.items() if len(v) == 1}
_MAGNITUDE = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8}


def aliases() -> list[str]:
    """Every unit spelling extraction recognises after a number, longest first (for one alternation)."""
    return sorted(_BY_ALIAS, key=len, reverse=True)


def is_latin(alias: str) -> bool:
    return alias[-1:].isascii() and alias[-1:].isalpha()


@lru_cache(maxsize=1024)
def parse_unit(text: str | None) -> Unit:
    """Normalise a unit as printed in an article or a report (`GB/s`, `倍`, `K token`, `（亿元）`, `ms/frame`)."""
    t = (text or "").strip().strip("()（）[]").strip()
    if not t:
        return NONE
    hit = _BY_ALIAS.get(t) or _FOLD.get(t.lower())
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
        if base.dim:
            return Unit(t, f"{base.dim}/{den.strip().lower()}", base.factor)
    return Unit(t, t.lower(), 1.0)


def compatible(a: Unit, b: Unit) -> bool:
    """Whether two units measure the same thing (a missing unit is compatible with any)."""
    return not a.dim or not b.dim or a.dim == b.dim


def display(value: float, unit: Unit | str) -> str:
    """`7.53 s`, `26%`, `18.3 倍`-style rendering of a value and unit for messages."""
    name = unit.name if isinstance(unit, Unit) else unit
    num = f"{value:,.6f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):,}"
    num = num.replace(",", "") if abs(value) < 10000 else num
    if not name:
        return num
    if name in {"%", "x"}:
        return num + ("%" if name == "%" else "×")
    return f"{num} {name}"
