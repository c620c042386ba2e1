"""The one unit table of the product: printed spellings (zh/en) → canonical name, dimension and factor."""

from __future__ import annotations

import re

# ---- units ---------------------------------------------------------------------------------------------------

# Printed unit → canonical unit (`倍`, `x` and `×` are one unit: `x`).
_UNIT_TABLE: dict[str, str] = {
    "%": "%", "‰": "‰", "pp": "pp", "个百分点": "pp",
    "倍": "x", "x": "x", "X": "x", "×": "x",
    "ns": "ns", "nanoseconds": "ns", "纳秒": "ns",
    "us": "us", "μs": "us", "µs": "us", "microseconds": "us", "微秒": "us",
    "ms": "ms", "msec": "ms", "milliseconds": "ms", "毫秒": "ms",
    "s": "s", "sec": "s", "secs": "s", "seconds": "s", "second": "s", "秒": "s",
    "min": "min", "mins": "min", "minutes": "min", "分钟": "min",
    "h": "h", "hr": "h", "hrs": "h", "hours": "h", "hour": "h", "小时": "h",
    "天": "天", "days": "天", "周": "周", "weeks": "周", "个月": "月",
    "B": "B", "bytes": "B", "Bytes": "B", "字节": "B",
    "KB": "KB", "kB": "KB", "KiB": "KiB", "MB": "MB", "MiB": "MiB", "GB": "GB", "GiB": "GiB",
    "TB": "TB", "TiB": "TiB", "PB": "PB",
    "KB/s": "KB/s", "MB/s": "MB/s", "MiB/s": "MiB/s", "GB/s": "GB/s", "GiB/s": "GiB/s", "TB/s": "TB/s",
    "GB/sec": "GB/s", "MB/sec": "MB/s",
    "Gb/s": "Gb/s", "Gbps": "Gb/s", "Gbit/s": "Gb/s", "Mb/s": "Mb/s", "Mbps": "Mb/s", "Tb/s": "Tb/s", "Tbps": "Tb/s",
    "GbE": "GbE", "Gb": "Gb", "Mb": "Mb",
    "tok/s": "tok/s", "tokens/s": "tok/s", "token/s": "tok/s", "tokens/sec": "tok/s", "tok/s/GPU": "tok/s/GPU",
    "token": "token", "tokens": "token", "Token": "token", "Tokens": "token",
    "req/s": "req/s", "QPS": "QPS", "qps": "QPS", "kv/s": "kv/s", "IOPS": "IOPS", "ops/s": "ops/s",
    "samples/s": "samples/s", "fps": "fps", "FPS": "fps", "ms/frame": "ms/frame", "frames/s": "fps",
    "GHz": "GHz", "MHz": "MHz", "kHz": "kHz", "Hz": "Hz",
    "TFLOPS": "TFLOPS", "GFLOPS": "GFLOPS", "PFLOPS": "PFLOPS",
    "W": "W", "kW": "kW", "V": "V", "mV": "mV", "kV": "kV", "A": "A", "mA": "mA",
    "Ω": "Ω", "MΩ": "MΩ", "kΩ": "kΩ", "dB": "dB", "dB(A)": "dB(A)", "°C": "°C", "℃": "°C",
    "元": "元", "万元": "万元", "亿元": "亿元", "百万元": "百万元", "千元": "千元", "美元": "美元", "亿": "亿", "万": "万",
    "盘": "盘", "卡": "卡", "核": "核", "个": "个", "台": "台", "次": "次", "条": "条", "组": "组", "项": "项",
    "轮": "轮", "节点": "节点", "层": "层", "颗": "颗", "人": "人", "家": "家", "张": "张", "cores": "cores",
}  # fmt: skip
_UNIT_KEYS = sorted(_UNIT_TABLE, key=len, reverse=True)
_UNIT_RE = re.compile("|".join(re.escape(u) for u in _UNIT_KEYS))
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9_]")


def unit_at(text: str, pos: int) -> tuple[str, int] | None:
    """The unit starting at `pos` (after optional spaces) as (canonical unit, end), or None."""
    i = pos
    while i < len(text) and text[i] == " " and i - pos < 2:
        i += 1
    m = _UNIT_RE.match(text, i)
    if not m:
        return None
    raw = m.group(0)
    end = m.end()
    # Latin units need a word boundary after them: `5 s` but not `5 steps`, `2.22x` but not `4 x86`.
    if raw[-1].isascii() and raw[-1].isalnum() and end < len(text) and _ASCII_ALNUM.match(text[end]):
        return None
    if i > pos and raw in ("x", "X", "A"):  # `4 x 8`, `8 A100`: these letters count only when glued to the number
        return None
    return _UNIT_TABLE[raw], end


def parse_unit(text: str) -> str | None:
    """`text` when it is exactly one unit (e.g. `MiB/s`, `毫秒`, `ms/frame`), canonicalised; else None."""
    t = text.strip().strip(".:：").strip()
    if t in _UNIT_TABLE:
        return _UNIT_TABLE[t]
    m = re.fullmatch(r"(?:approx\.?\s*)?(?:in\s+)?(.+)", t)
    if m and m.group(1).strip() in _UNIT_TABLE:
        return _UNIT_TABLE[m.group(1).strip()]
    return None
