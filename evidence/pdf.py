"""pypdf → page texts and citable figures: tables split into cells by x-position, `label: value` lines, prose."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import itertools
import logging
import re
import signal
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from evidence.errors import EvidenceError
from evidence.models import Figure, IngestLimits, Page

# When extraction changes, bump PARSER_VERSION in evidence/store.py: ingest then re-reads unchanged PDFs.

# ---- text normalisation ------------------------------------------------------------------------------------

_PUA = re.compile(r"[\ue000-\uf8ff\ufffd]")
_TRANSLATE = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u00ad": "", "\x00": ""})


def normalize(text: str) -> str:
    """NFKC (ligatures, fullwidth `：（）％`), NULs and PUA bullets dropped, non-breaking hyphens made plain."""
    text = unicodedata.normalize("NFKC", text.translate(_TRANSLATE))
    return _PUA.sub(" ", text).translate(_TRANSLATE)


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


_PAREN = re.compile(r"[(\[]\s*([^()\[\]]{1,24}?)\s*[)\]]")


def header_unit(text: str, *, loose: bool = True) -> str | None:
    """The unit a table header gives its cells: `基线 TTFT (s)`, `p50/ms`, `MiB/s`, `Boiling Points °C`.

    `loose=False` (row labels, captions) only trusts a bracketed or slashed unit: a row called `GPU` has none.
    """
    t = text.strip()
    if not t:
        return None
    if loose and parse_unit(t) and t not in ("min", "max", "s", "h", "A", "B", "V", "W", "x", "X", "个", "次"):
        return parse_unit(t)
    for inner in reversed(_PAREN.findall(t)):
        u = parse_unit(inner)
        if u:
            return u
        m = re.search(r"单位\s*[:：]?\s*(\S+)$", inner)
        if m and parse_unit(m.group(1)):
            return parse_unit(m.group(1))
    m = re.search(r"/\s*([^/\s]+(?:/[A-Za-z]+)?)$", t)
    if m and not t.endswith(")"):
        u = parse_unit(m.group(1))
        if u:
            return u
    parts = t.split()
    if loose and len(parts) > 1:
        u = parse_unit(parts[-1])
        if u and u not in ("x", "A", "B", "V", "W", "h", "s", "个", "次", "项"):
            return u
    return None


_TABLE_UNIT = re.compile(r"(?:单位|Unit|Units|unit)\s*[:：]\s*([^\s,，;；)）]+)")


def table_unit(text: str) -> str | None:
    """A table-level unit line such as `单位：万元` or `(Unit: ms)`."""
    m = _TABLE_UNIT.search(text)
    return parse_unit(m.group(1)) if m else None


# ---- numbers ---------------------------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?P<cmp>(?:[≥≤><]|约|~|≈|about|up to|over)\s*)?"
    r"(?P<sign>[+\-±])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
)
_MAGNITUDE = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8}
# Spans that hold digits but are not figures: dates, versions, IPs, times, references, page numbers, citations.
_NOT_FIGURES = re.compile(
    (
        r"\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?|\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}\s*年(?:度|末|初|底)?"
        r"|⟨(?:19|20)\d{2}[AEFHQ]⟩|⟨(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])(?:[-/.](?:0?[1-9]|[12]\d|3[01]))?⟩"
        r"|⟨\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?⟩|⟨[vV]?\d+(?:\.\d+){2,}⟩|⟨\d{1,2}:\d{2}(?::\d{2})?⟩"
        r"|(?:表|图|附表|附图|Table|TABLE|Tab\.|Fig\.?|Figure|FIGURE|Eq\.|Section|Sec\.|§|Appendix|附录|Chapter|第)\s*"
        r"(?:[A-Z][-.]?)?\d+(?:[-.–]\d+)*(?:\s*[章节条])?"
        r"|第\s*\d+\s*[页頁]|共\s*\d+\s*[页頁]|⟨[Pp]age\s+\d+(?:\s+of\s+\d+)?⟩"
        r"|(?:Ubuntu|CentOS|Debian|Windows|Android|iOS|Python|CUDA|ROCm|Linux|kernel|gcc|g\+\+|clang|Java|Node|PyTorch|vLLM)"
        r"\s*v?\d+(?:\.\d+)*|arXiv:\s*\d{4}\.\d{4,5}(?:v\d+)?|⟨[a-z]+:\d+⟩"
        # Versions: `version 2.3`, `版本：8.0`, and a YY.MM release after a named library, `Library(ACL) 17.12`,
        # `ACL 17.12/OpenBLAS` (no unit may follow: `(QPS) 12.05万` stays a figure).
        r"|(?:[Vv]ersion|版本|[Rr]elease)\s*(?:号|number)?\s*[:：]?\s*[vV]?\d+(?:\.\d+)+"
        r"|(?:\([A-Z][A-Za-z]{1,10}\)\s*|⟨[A-Z]{2,}[A-Za-z]*\s+(?=\d{2}\.\d{2}/[A-Za-z]))"
        r"\d{2}\.(?:0[1-9]|1[0-2])(?![\d.])(?!\s?[A-Za-zµμ%‰万亿倍])"
        r"|\[\d+(?:[,–-]\s*\d+)*\]|⟨[A-Za-z]+\d+[A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*|\d+(?:\*\d+)+|⟨\d+[A-Za-z]*-[A-Za-z0-9_]+"
        r"|(?:[A-Za-z0-9_]+-)+\d+[A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*|⟨\d+(?::\d+)+⟩|(?:^|(?<=[\s(（]))\d{1,2}[)）](?=\s)"
        r"|(?:Listing|Algorithm|Equation|Lemma|Theorem|Step|步骤)\s*\d+|C\+\+\d+|\d+\^\(?-?\d+\)?"
    )
    .replace("⟨", r"(?<![A-Za-z0-9_])")
    .replace("⟩", r"(?![A-Za-z0-9_])")
)
_RANGE_JOIN = re.compile(r"\s*(?:[–~〜]|-(?=\d)|至|到|to)\s*")
# Code listings and algorithm lines: their numbers (`int32_t width = 11;`) measure nothing.
_CODE = re.compile(
    r"^\s*\d+:\s|←|^\s*\"[^\"]+\"\s*:|[{}]"
    r"|^\s*(?:#include|#define|int\d*_t|uint\d*_t|int|char|auto|struct|class|return|const|std::|for\s*\(|if\s*\()"
    r"|^\s*[A-Za-z_][\w.\[\]]*\s*=\s*\S|::|->|^\s*[$>#]\s|(?:^|\s)--?[a-z][\w-]*[ =]"
)


def _is_code(text: str) -> bool:
    # A statement ends in `;` with `=` or a call in it; Chinese prose ends clauses in `；` (`;` after NFKC) too.
    if _CODE.search(text):
        return True
    return bool(re.search(r"[\w)\]\"']\s*;\s*$", text)) and ("=" in text or "(" in text) and not _CJK_CHAR.search(text)


_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
_PAGE_NUMBER = re.compile(
    r"^\s*(?:第\s*\d+\s*页\s*(?:/|,|，)?\s*共\s*\d+\s*页|-?\s*\d{1,4}\s*-?|\d{1,4}\s*/\s*\d{1,4}|[Pp]age\s+\d+(?:\s+of\s+\d+)?)\s*$"
)


@dataclass(frozen=True)  # shared between callers through find_numbers' cache
class Number:
    """One number found in a piece of text."""

    value: float
    unit: str
    raw: str  # the number as printed: sign, digits, magnitude suffix (no unit)
    start: int
    end: int  # end of the number (and its unit, when inline)


def _masked(text: str) -> str:
    return _NOT_FIGURES.sub(lambda m: " " * len(m.group(0)), text)


def find_numbers(
    text: str, *, keep_years: bool = False, bytes_ok: bool | None = None, billions: bool = False
) -> list[Number]:
    """Numbers with their units in zh/en text (see `_find_numbers`); callers must not change the returned Numbers."""
    return list(_find_numbers(text, keep_years, bytes_ok, billions))


@functools.lru_cache(maxsize=16384)  # table cells and lines are read several times over while finding tables
def _find_numbers(text: str, keep_years: bool, bytes_ok: bool | None, billions: bool) -> tuple[Number, ...]:
    """Numbers with their units in zh/en text, skipping dates, versions, identifiers and references.

    A `B` glued to a number is a count of bytes only in byte context (`bytes_ok`; by default: other byte units or
    words like 负载/payload in `text`), billions when labelled as parameters (`480B 参数`, or `billions` for a
    value whose label says so), and otherwise part of a model or product name (`Atlas 910B`, `480B·TP8`), which is
    no figure.
    """
    masked = _masked(text)
    found: list[Number] = []
    byte_context: bool | None = bytes_ok
    for m in _NUMBER.finditer(masked):
        start = m.start("sign") if m.group("sign") else m.start("num")
        before = text[start - 1] if start > 0 else " "  # the unmasked text: `LLaMA3-70B` stays one identifier
        # Digits glued to Latin letters are identifiers (`TP8`, `A800`); after a CJK character they are numbers.
        if (
            _ASCII_ALNUM.match(before)
            or before in ".\\@#&"
            or (before == "-" and start > 1 and _ASCII_ALNUM.match(text[start - 2]))
        ):
            continue
        num = m.group("num")
        value = float(num.replace(",", ""))
        end = m.end("num")
        raw = (m.group("sign") or "") + num
        nxt = masked[end] if end < len(masked) else " "
        if nxt in "._" and end + 1 < len(masked) and masked[end + 1].isdigit():
            continue  # a fragment of something longer, e.g. a masked version or a glued token
        unit = ""
        billion = nxt == "B" and (billions or _billion_context(masked, end + 1))
        if nxt == "B" and not billion and not _ASCII_ALNUM.match(masked[end + 1 : end + 2] or " "):
            if byte_context is None:
                byte_context = bool(_BYTE_CONTEXT.search(text))
            if not byte_context and not _BYTE_WORD_BEFORE.search(text[max(0, start - 16) : start]):
                continue
        found_unit = None if billion else unit_at(masked, end)
        if found_unit is None and nxt in _MAGNITUDE:
            after = masked[end + 1] if end + 1 < len(masked) else " "
            if not (after.isascii() and after.isalpha()) and not (nxt == "B" and not billion):
                value *= _MAGNITUDE[nxt]
                raw += nxt
                end += 1
                found_unit = unit_at(masked, end)
        if found_unit is not None:
            unit, end = found_unit
        elif nxt.isascii() and nxt.isalpha() and not raw.endswith(nxt):
            continue  # 480P, 2022E, 3rd: part of an identifier, not a quantity
        if re.match(r"\s?[×x*]\s?[A-Za-z0-9]", text[m.end("num") : m.end("num") + 3]) and not m.group("num").count("."):
            unit, end = "", m.end("num")  # `8×A800`, `8×312 TFLOPS`: a count of things, the multiplier is no unit
        if m.group("sign") == "-":
            value = -value
        if not unit and not keep_years and not m.group("num").count(".") and 1900 <= value <= 2100 and "," not in num:
            continue  # a bare year
        if value in (float("inf"), float("-inf")):
            continue  # a 400-digit run is no measurement, and infinity is not valid JSON downstream
        found.append(Number(value, unit, raw, start, end))
    # A unit written once after a range or list (`29–40%`, `1,521/1,582/1,646亿元`) applies to each member.
    for i in range(len(found) - 2, -1, -1):
        a, b = found[i], found[i + 1]
        gap = masked[a.end : b.start]
        if not a.unit and b.unit and (_RANGE_JOIN.fullmatch(gap) or gap.strip() == "/"):
            found[i] = dataclasses.replace(a, unit=b.unit)
    return tuple(found)


def _billion_context(text: str, pos: int) -> bool:
    # Only a label saying so makes `480B` a parameter count; `480B 模型` or `32B LoRA` name a model size.
    return bool(re.match(r"\s*(?:参数|[Pp]arams\b|[Pp]arameters)", text[pos : pos + 16]))


_BYTE_UNITS = {"B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "PB"}
# Text that shows a glued `B` counts bytes: another byte unit (`1KB`, `64 MiB`, `bytes`), or a payload or size
# word right before the number (`负载4B`; 负载 alone also means a workload, so only right before it).
_BYTE_CONTEXT = re.compile(r"\d\s?(?:[KMGTP]i?B|bytes?|字节)(?![A-Za-z])|[Bb]ytes?\b|字节")
# A column of payload or message sizes counts bytes (a column of model `Size`s, 7B/70B, does not).
_BYTE_HEADER = re.compile(r"[Pp]ayload|负载|载荷|消息|[Mm]essage|[Pp]acket|包长")
# A label that makes a glued `B` a parameter count: `参数量 | 480B`, `Params: 70B`.
_PARAM_LABEL = re.compile(r"参数|[Pp]aram")
_BYTE_WORD_BEFORE = re.compile(r"(?:负载|载荷|[Pp]ayload|大小|[Ss]ize)\s*(?:of|为|是|[:：=])?\s*$")


def number_cell(text: str) -> bool:
    """A table cell that is a number, with an optional unit or sign (or a placeholder such as `-` or `N/A`).

    A trailing remark in brackets (`2 B (BFloat16)`) and a count prefix (`8×312 TFLOPS`) are allowed.
    """
    t = re.sub(r"\s*[(（][^()（）]{0,30}[)）]$", "", text.strip())
    t = re.sub(r"^\d+\s?[×x*]\s?(?=\d)", "", t)
    if t in ("-", "—", "–", "/", "N/A", "n/a", "NA", "--", "—", "×", "✓"):
        return True
    nums = find_numbers(t, keep_years=True, bytes_ok=True)  # `910B` is shaped like a number cell either way
    if len(nums) != 1:
        return False
    n = nums[0]
    rest = (t[: n.start] + t[n.end :]).strip()
    return rest in ("", "≥", "≤", ">", "<", "约", "~", "≈") or bool(re.fullmatch(r"[≥≤><~约≈]", rest))


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


class _LayoutState:
    """pypdf's layout-mode text state machine driven one content-stream operation at a time.

    pypdf keeps this machinery private and its own grouping neither advances the pen after `Tj` (so runs after a
    font switch land at the line start) nor keeps neighbouring cells apart (`330,435.30234,850.00`); this class
    uses its text state and font metrics but tracks the pen itself. It is fed either from its own parse of the
    content stream (`_layout_runs`) or, in the single pass, from plain extraction's operator visitor.
    """

    def __init__(self, fonts: dict[str, Any]) -> None:
        from pypdf._text_extraction._layout_mode._fixed_width_page import set_font_operation
        from pypdf._text_extraction._layout_mode._text_state_manager import TextStateManager
        from pypdf.generic import ArrayObject

        self._set_font = set_font_operation
        self._array = ArrayObject
        self.fonts = fonts
        self.mgr = TextStateManager()
        self.runs: list[tuple[float, float, float, float, str]] = []
        self.depth = 0

    def _show(self, value: Any) -> Any:
        mgr = self.mgr
        params = mgr.text_state_params(value)
        if not params.rotated and params.font.interpretable and params.text:
            y = params.ty * (-1 if params.flip_vertical else 1)
            self.runs.append((params.tx, params.displaced_tx, y, max(params.font_height, 1.0), params.text))
        mgr.add_trm(params.displacement_matrix())
        return params

    def operation(self, op: bytes, operands: Any) -> None:
        mgr = self.mgr
        if op == b"q":
            mgr.add_q()
            self.depth += 1
        elif op == b"Q":
            if self.depth:
                mgr.remove_q()
                self.depth -= 1
        elif op == b"cm" and len(operands) >= 6:
            mgr.add_cm(*operands)
        elif op in (b"BT", b"ET"):
            mgr.reset_tm()
        elif op == b"Tf":
            self._set_font(mgr, self.fonts, operands)
        elif op in (b"Tj", b"TJ", b"'", b'"') and mgr.font is None:
            return  # text before any Tf: nothing pypdf can decode
        elif op == b"Tj" and operands and isinstance(operands[0], (str, bytes)):
            self._show(operands[0])
        elif op == b"TJ" and operands and isinstance(operands[0], self._array):
            last = None
            for item in operands[0]:
                if isinstance(item, (str, bytes)):
                    last = self._show(item)
                elif isinstance(item, (int, float)) and last is not None:
                    mgr.add_trm(last.displacement_matrix(word="", td_offset=float(item)))
        elif op in (b"'", b'"'):
            mgr.reset_trm()
            if op == b'"' and len(operands) >= 3:
                mgr.set_state_param(b"Tw", operands[0])
                mgr.set_state_param(b"Tc", operands[1])
            mgr.add_tm([0, -mgr.TL])
            text = operands[-1] if operands else None
            if isinstance(text, (str, bytes)):
                self._show(text)
        elif op in (b"Td", b"Tm", b"TD", b"T*"):
            mgr.reset_trm()
            if op == b"Tm":
                mgr.reset_tm()
            elif op == b"TD" and len(operands) >= 2 and isinstance(operands[1], (int, float)):
                mgr.set_state_param(b"TL", -operands[1])
            elif op == b"T*":
                operands = [0, -mgr.TL]
            mgr.add_tm(operands)
        elif op in (b"Tc", b"Tw", b"Tz", b"TL", b"Ts"):
            mgr.set_state_param(op, operands)


def _layout_runs(page: Any) -> list[tuple[float, float, float, float, str]]:
    """(x0, x1, y, size, text) for every text-show operation, from a parse of the page's own content stream."""
    from pypdf.generic import ArrayObject, ContentStream, StreamObject

    contents = page.get("/Contents")
    if contents is not None:
        contents = contents.get_object()
    if not isinstance(contents, (ArrayObject, StreamObject)):
        return []
    state = _LayoutState(page._layout_mode_fonts())
    for operands, op in ContentStream(contents, page.pdf, "bytes").operations:
        state.operation(op, operands)
    return state.runs


class _SinglePass:
    """Plain text and positioned runs from one parse of a page's content stream.

    Plain extraction calls a visitor before and after every operation; the layout state machine rides on it, so
    the stream is parsed once. Operations of form XObjects (between a `Do`'s before and after calls) are skipped:
    the positions come from the page's own stream, as in `_layout_runs`.
    """

    def __init__(self, fonts: dict[str, Any]) -> None:
        self.state: _LayoutState | None = _LayoutState(fonts)
        self.xform = 0

    def before(self, op: bytes, operands: Any, cm: Any, tm: Any) -> None:
        if self.xform == 0 and self.state is not None:
            try:
                self.state.operation(op, operands)
            except Exception:
                self.state = None  # fall back to visitor positions for this page, as when `_layout_runs` fails
        if op == b"Do":
            self.xform += 1

    def after(self, op: bytes, operands: Any, cm: Any, tm: Any) -> None:
        if op == b"Do":
            self.xform -= 1


# One parse keeps a cache of decoded fonts (widths, encodings, ToUnicode CMaps) per font object: pypdf decodes
# them again on every page that uses them, which was a fifth of the ingest time on slide decks.
_FONT_CACHE: ContextVar[dict[int, tuple[Any, Any]] | None] = ContextVar("proofpress_font_cache", default=None)
_font_cache_ok: bool | None = None
SINGLE_PASS = True  # tests turn this off to check that the two-pass fallback reads the same figures
FAST_STREAMS = True  # and this, to check the content-stream tokeniser against pypdf's own parser


def _install_font_cache() -> bool:
    """Wrap pypdf's `Font.from_font_resource` (once) to reuse a font object's decoding while a cache is active."""
    global _font_cache_ok
    if _font_cache_ok is None:
        try:
            from pypdf.generic._font import Font

            original = Font.__dict__["from_font_resource"].__func__

            def from_font_resource(cls: Any, pdf_font_dict: Any) -> Any:
                cache = _FONT_CACHE.get()
                if cache is None or cls is not Font:
                    return original(cls, pdf_font_dict)
                hit = cache.get(id(pdf_font_dict))
                if hit is None or hit[0] is not pdf_font_dict:  # the cache holds the dict, so its id stays unique
                    hit = (pdf_font_dict, original(cls, pdf_font_dict))
                    cache[id(pdf_font_dict)] = hit
                return hit[1]

            Font.from_font_resource = classmethod(from_font_resource)  # type: ignore[method-assign,assignment]
            _font_cache_ok = True
        except Exception:  # other pypdf internals: read every page the slow way
            _font_cache_ok = False
    return _font_cache_ok


# ---- content streams ---------------------------------------------------------------------------------------------

# pypdf reads content streams a byte at a time (a third of all ingest time). While a parse is active, streams are
# tokenised with one regex instead; whatever is not plain (dictionaries, escaped or nested strings, odd arrays,
# inline images) goes to pypdf's own readers at that position, and a stream with tokens near pypdf's length limits
# is left to pypdf whole, so the operations (and the errors) are the ones pypdf would give.
_FAST_STREAMS: ContextVar[bool] = ContextVar("proofpress_fast_streams", default=False)
_fast_streams_ok: bool | None = None
_WS = rb"[\x00\t\n\x0c\r ]*"  # pypdf's WHITESPACES (not \v)
_CS_TOKEN = (
    re.compile(  # groups by index: 1 number, 2 operator, 3 name, 4 string, 5 hex string, 6 `[`, 7 comment, 8 end
        _WS
        + rb"(?:([0-9+\-.][0-9+,\-.]*)"
        + rb"|([A-Za-z'\"][^\s()<>\[\]{}/%]*)"
        + rb"|(/[^\s()<>\[\]{}/%]*)"
        + rb"|\(([^()\\]*)\)"
        + rb"|<([0-9A-Fa-f\x00\t\n\x0c\r ]*)>"
        + rb"|(\[)"
        + rb"|(%[^\r\n]*[\r\n]?)"
        + rb"|(\Z))",
        re.S,
    )
)
_ARRAY_ITEM = re.compile(  # 1 number, 2 string, 3 hex string, 4 `]`
    rb"[\x00\t\n\x0b\x0c\r ]*(?:([0-9+\-.][0-9+,\-.]*)|\(([^()\\]*)\)|<([0-9A-Fa-f\x00\t\n\x0c\r ]*)>|(\]))"
)
_HEX_SPACE = re.compile(rb"[\x00\t\n\x0c\r ]")
_INDIRECT = re.compile(rb"[+-]?(\d+)\s+(\d+)\s+R[^a-zA-Z]")


def _install_fast_streams() -> bool:
    """Swap in the regex tokeniser for `ContentStream._parse_content_stream` (once), active only inside a parse."""
    global _fast_streams_ok
    if _fast_streams_ok is None:
        try:
            from pypdf import get_configuration
            from pypdf.generic import ContentStream, FloatObject, NameObject, NumberObject
            from pypdf.generic._data_structures import ArrayObject, read_object
            from pypdf.generic._image_inline import read_inline_image
            from pypdf.generic._utils import StreamParsingBudget, create_string_object

            original = ContentStream.__dict__["_parse_content_stream"]

            def hex_string(tok: bytes, encoding: Any) -> Any:
                digits = _HEX_SPACE.sub(b"", tok)
                if len(digits) % 2:
                    digits += b"0"
                return create_string_object(bytes.fromhex(digits.decode("ascii")), encoding)

            def array(data: bytes, pos: int, encoding: Any, refs: bool) -> tuple[Any, int] | None:
                """A `[…]` of numbers and plain strings from `pos` (after `[`), or None for pypdf to read."""
                arr = ArrayObject()
                match = _ARRAY_ITEM.match
                while True:
                    m = match(data, pos)
                    if m is None:
                        return None
                    pos = m.end()
                    k = m.lastindex or 0
                    tok = m.group(k)
                    if k == 1:
                        if len(tok) >= 20 or (refs and _INDIRECT.match(data, m.start(1), m.start(1) + 20)):
                            return None
                        arr.append(FloatObject(tok) if b"." in tok else NumberObject(tok))
                    elif k == 2:
                        arr.append(create_string_object(tok, encoding))
                    elif k == 3:
                        arr.append(hex_string(tok, encoding))
                    else:
                        return arr, pos
                    if len(arr) >= 10_000:
                        return None  # pypdf counts elements against its limits

            def parse(self: Any, stream: Any) -> None:
                data = stream.getvalue() if hasattr(stream, "getvalue") else None
                limit = get_configuration().stream_parsing_work_maximum_count
                # Every token takes at least a byte, so a stream shorter than pypdf's token budget cannot exhaust it.
                if not _FAST_STREAMS.get() or data is None or len(data) >= limit:
                    return original(self, stream)
                budget = StreamParsingBudget(remaining_budget=limit)
                encoding = self.forced_encoding
                refs = _INDIRECT.search(data) is not None  # `1 0 R` makes pypdf's reader fail: let it
                ops: list[tuple[Any, bytes]] = []
                operands: list[Any] = []
                pos = 0
                match = _CS_TOKEN.match

                def pypdf_object(at: int) -> int:
                    stream.seek(at)
                    operands.append(read_object(stream, None, encoding, parsing_budget=budget))
                    return int(stream.tell())

                while True:
                    m = match(data, pos)
                    if m is None:  # anything else: pypdf reads one object here (or raises what it raises)
                        pos = pypdf_object(pos + _leading_ws(data, pos))
                        continue
                    pos = m.end()
                    k = m.lastindex or 0
                    tok = m.group(k)
                    if k == 1:
                        if len(tok) >= 20 or (refs and _INDIRECT.match(data, m.start(1), m.start(1) + 20)):
                            pos = pypdf_object(m.start(1))
                        else:
                            operands.append(FloatObject(tok) if b"." in tok else NumberObject(tok))
                    elif k == 2:
                        if len(tok) >= 100:
                            break  # near pypdf's operator length limit: let pypdf decide
                        if tok == b"BI":
                            assert operands == []
                            stream.seek(pos)
                            image = read_inline_image(content_stream=self, stream=stream, parsing_budget=budget)
                            ops.append((image, b"INLINE IMAGE"))
                            pos = stream.tell()
                        else:
                            ops.append((operands, tok))
                            operands = []
                    elif k == 3:
                        if len(tok) >= 4000 or b"#" in tok or not tok.isascii():
                            pos = pypdf_object(m.start(3))
                        else:
                            operands.append(NameObject(tok.decode("ascii")))
                    elif k == 4:
                        operands.append(create_string_object(tok, encoding))
                    elif k == 5:
                        operands.append(hex_string(tok, encoding))
                    elif k == 6:
                        got = array(data, pos, encoding, refs)
                        if got is None:
                            pos = pypdf_object(m.start(6))
                        else:
                            operands.append(got[0])
                            pos = got[1]
                    elif k == 8:
                        self._operations.extend(ops)
                        return None
                    # 7: comments are skipped
                # A token near pypdf's limits: pypdf parses the whole stream, as it would have.
                stream.seek(0)
                return original(self, stream)

            ContentStream._parse_content_stream = parse  # type: ignore[method-assign]
            _fast_streams_ok = True
        except Exception:
            _fast_streams_ok = False
    return _fast_streams_ok


def _leading_ws(data: bytes, pos: int) -> int:
    n = 0
    while pos + n < len(data) and data[pos + n] in b"\x00\t\n\x0c\r ":
        n += 1
    return n


Runs = list[tuple[float, float, float, float, str]]


def _read_page(page: Any, caches: tuple[dict[int, Any], dict[int, Any]] | None) -> tuple[str, Runs]:
    """A page's plain text and positioned runs: one content-stream parse when pypdf's internals allow it."""
    if caches is None:
        plain = page.extract_text() or ""
        try:
            runs = _layout_runs(page)
        except Exception:
            runs = _visitor_runs(page)
        return plain, runs
    plain_fonts, layout_fonts = caches
    # Two caches: plain extraction adjusts a font's space width in place, and layout mode must not see that.
    token = _FONT_CACHE.set(layout_fonts)
    try:
        try:
            single: _SinglePass | None = _SinglePass(page._layout_mode_fonts())
        except Exception:
            single = None
        _FONT_CACHE.set(plain_fonts)
        if single is None:
            plain = page.extract_text() or ""
        else:
            plain = page.extract_text(visitor_operand_before=single.before, visitor_operand_after=single.after) or ""
        runs = single.state.runs if single is not None and single.state is not None else _visitor_runs(page)
    finally:
        _FONT_CACHE.reset(token)
    return plain, runs


def _visitor_runs(page: Any) -> list[tuple[float, float, float, float, str]]:
    """Fallback positions from `visitor_text` (one run per flushed line of text, widths estimated)."""
    runs: list[tuple[float, float, float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = abs(tm[0] * cm[0]) or 1.0
        h = max(size * scale, 1.0)
        for part in text.split("\n"):
            if part.strip():
                runs.append((x, x + 0.55 * h * len(part), y, h, part))

    page.extract_text(visitor_text=visit)
    return runs


def _lines(runs: list[tuple[float, float, float, float, str]]) -> list[Line]:
    """Group runs into lines (top to bottom) and merge touching runs into segments; wide gaps split cells."""
    items = []
    for x0, x1, y, size, text in runs:
        text = normalize(text)
        if not text.strip():
            continue
        # Runs that hold wide internal gaps (two or more spaces) are several cells: split them proportionally.
        parts = [(m.start(), m.group(0)) for m in re.finditer(r"\S+(?: \S+)*", text)]
        width = (x1 - x0) / max(len(text), 1)
        for off, part in parts:
            items.append((x0 + off * width, x0 + (off + len(part)) * width, y, size, part))
    items.sort(key=lambda r: (-r[2], r[0]))
    lines: list[Line] = []
    for x0, x1, y, size, text in items:
        line = next((ln for ln in reversed(lines[-3:]) if abs(ln.y - y) <= 0.45 * min(ln.size, size)), None)
        if line is None:
            line = Line(y, size)
            lines.append(line)
        line.segs.append(Seg(x0, x1, text, size))
        line.size = max(line.size, size)
    for line in lines:
        line.segs.sort(key=lambda s: s.x0)
        merged: list[Seg] = []
        for s in line.segs:
            if merged:
                prev = merged[-1]
                gap = s.x0 - prev.x1
                if gap < 0.9 * min(prev.size, s.size) and not _keep_apart(prev.text, s.text, gap, s.size):
                    sep = "" if gap < 0.15 * s.size else " "
                    merged[-1] = Seg(prev.x0, max(prev.x1, s.x1), prev.text + sep + s.text, max(prev.size, s.size))
                    continue
            merged.append(Seg(s.x0, s.x1, s.text.strip(), s.size))
        line.segs = [s for s in merged if s.text.strip()]
    lines.sort(key=lambda ln: -ln.y)
    return [ln for ln in lines if ln.segs]


def _keep_apart(left: str, right: str, gap: float, size: float) -> bool:
    # Two numbers side by side with a visible gap are two cells, never one number (`330,435.30 234,850.00`).
    return gap > 0.2 * size and bool(re.search(r"\d[%)]?$", left)) and bool(re.match(r"[+\-]?\d", right))


def _cjk_edge(left: str, right: str) -> bool:
    return bool(left) and bool(right) and (_is_cjk(left[-1]) or _is_cjk(right[0]))


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


# ---- page structure ----------------------------------------------------------------------------------------------

_CAPTION = re.compile(
    r"^\s*(?:(?:附)?表|图|Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)\s*(?:[A-Z][-.]?)?\d+(?:[-.–]\d+)*\s*[:：.]?"
)
_HEADING = re.compile(
    r"^\s*(?:(?:\d{1,2}(?:\.\d{1,2}){0,3})\.?|[一二三四五六七八九十]+\s*[、.．]|第[一二三四五六七八九十\d]+[章节]|附录\s*[A-Z]?|Appendix\s+[A-Z])"
    r"\s*[^\d\s.,;:%].{0,50}$"
)
_SENTENCE_END = re.compile(r"[。！？；!?;]|\.(?=\s|$)")


def _spaced_caption(text: str) -> str:
    # Letter-spaced captions (`Ta b l e 1 .`) defeat the caption pattern; squeeze them first.
    m = re.match(r"^\s*T\s*a\s*b\s*l\s*e\s*(\d)", text)
    return "Table " + text[m.start(1) :] if m else text


def is_caption(text: str) -> bool:
    return bool(_CAPTION.match(_spaced_caption(text)))


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
    if not re.search(r"[\u3400-\u9fff]|[A-Za-z]{3,}", rest) or parse_unit(rest) or re.search(r"[/_=]|\.py", rest):
        return False  # `16 GT/s` is a chart label and `4 保存日志/stderr` a flow diagram, not section 16 or 4
    # `3 测试方法` is a heading; `8 p50 10.17 7.53` is a table row: headings carry (almost) no further numbers.
    return len(find_numbers(rest)) <= (1 if size > body * 1.1 else 0) and not number_cell(rest)


# ---- figures ------------------------------------------------------------------------------------------------------


@dataclass
class _Ctx:
    """What the extractor knows while walking a report: the section heading carries across pages."""

    sha256: str
    report: str
    version: int
    heading: str = ""


@dataclass
class _Raw:
    value: float
    unit: str
    raw: str
    labels: list[str]
    quote: str
    kind: Literal["cell", "kv", "prose"]


def _clean_labels(labels: list[str]) -> list[str]:
    out: list[str] = []
    for label in labels:
        label = re.sub(r"\s+", " ", label).strip()
        if label and label not in out:
            out.append(label)
    return out


@dataclass
class _Table:
    lines: list[Line]
    header: list[Line]
    caption: str
    unit: str | None


def _is_row(line: Line, page_width: float) -> bool:
    segs = line.segs
    if len(segs) < 2 or _is_code(line.text):
        return False
    if any(s.x1 - s.x0 > 0.55 * page_width for s in segs):
        return False
    if all(re.fullmatch(r"(?:19|20)\d{2}[AEFHQ]?", sg.text.strip()) for sg in segs if re.search(r"\d", sg.text)):
        return False  # `指标 2021 2022E 2023E`: a header of years
    if any(number_cell(s.text) and re.search(r"\d", s.text) for s in segs[1:]) or (
        number_cell(segs[0].text) and any(number_cell(s.text) for s in segs[1:])
    ):
        return True
    # A `label | value with words` row of a test-environment table: `网络 | 单口 100 GbE`, `存储 | FX100, 4 盘 RAID0`.
    first, second = segs[0].text, segs[-1].text
    return (
        len(segs) == 2
        and len(first) <= 20
        and len(second) <= 40
        and not find_numbers(first)
        and bool(find_numbers(second, bytes_ok=True))
        and not _SENTENCE_END.search(line.text)
    )


def _is_header(line: Line, page_width: float) -> bool:
    if len(line.segs) < 2 or any(s.x1 - s.x0 > 0.5 * page_width for s in line.segs):
        return False
    if is_caption(line.text) or _SENTENCE_END.search(line.text.rstrip("。.")):
        return False
    numeric = [s for s in line.segs if number_cell(s.text) and re.search(r"\d", s.text)]
    return all(re.fullmatch(r"(?:19|20)\d{2}[AEFHQ]?", s.text.strip()) for s in numeric)


def _tables(lines: list[Line], page_width: float) -> list[_Table]:
    """Runs of table rows (lines of several cells, some numeric), with their header lines and caption."""
    tables: list[_Table] = []
    i = 0
    used: set[int] = set()
    while i < len(lines):
        if not _is_row(lines[i], page_width):
            i += 1
            continue
        rows = [i]
        j = i + 1
        while j < len(lines):
            step = lines[j - 1].y - lines[j].y
            if step > 3.3 * max(lines[j].size, lines[j - 1].size) or step < -0.5 * lines[j].size:
                break  # a gap, or the jump to the top of the next column
            if _is_row(lines[j], page_width):
                rows.append(j)
            elif not _continuation(lines[j]):
                break
            j += 1
        # Lines after the last row belong to the table only when they sit right under it (a wrapped last cell).
        last = rows[-1]
        j = last + 1
        while (
            j < len(lines)
            and _continuation(lines[j])
            and lines[last].y - lines[j].y < 1.3 * max(lines[j].size, min(lines[last].size, 2 * lines[j].size))
        ):
            j += 1
        # A wrapped label of the first row may sit just above it (`480P 32*32` over `single face 395 493 0 890`).
        while i > 0 and i - 1 not in used and _continuation(lines[i - 1]) and len(lines[i - 1].segs) == 1:
            if lines[i - 1].y - lines[i].y > 1.3 * lines[i].size or _is_header(lines[i - 1], page_width):
                break
            i -= 1
        data = [lines[k] for k in range(i, j)]
        n_rows = sum(1 for k in range(i, j) if _is_row(lines[k], page_width))
        # Header lines: right above the first row, several cells, no measured numbers; a multi-line header is tight.
        header: list[Line] = []
        k = i - 1
        while k >= 0 and k not in used and len(header) < 3:
            cand = lines[k]
            below = header[0] if header else lines[i]
            limit = 1.7 if header else 3.4
            if cand.y - below.y > limit * max(cand.size, below.size):
                break
            if is_caption(cand.text) or is_heading(cand.text) or _SENTENCE_END.search(cand.text.rstrip("。.")):
                break
            if _is_header(cand, page_width) or (header and len(cand.text) < 40):
                header.insert(0, cand)
                k -= 1
                continue
            break
        if n_rows >= 2 or (n_rows >= 1 and header):
            caption, unit = _caption(lines, k, j, data, header)
            tables.append(_Table(data, header, caption, unit))
            used.update(range(k + 1, j))
        i = j
    return tables


def _continuation(line: Line) -> bool:
    """A wrapped row label, or a row without numbers, between table rows: short, no sentence, no `label:`."""
    t = line.text
    return (
        len(t) <= 60
        and not is_caption(t)
        and not is_heading(t)
        and not _SENTENCE_END.search(t)
        and not re.search(r"[:：]", t)
        and not _is_code(t)
        and not any(number_cell(s.text) and re.search(r"\d", s.text) for s in line.segs)
    )


def _caption(lines: list[Line], above: int, below: int, data: list[Line], header: list[Line]) -> tuple[str, str | None]:
    """The table's caption (nearest `表 …`/`Table …` line above, else below) and a table-level unit line."""
    caption, unit = "", None
    top = header[0] if header else data[0]
    for k in range(above, max(above - 6, -1), -1):
        t = lines[k].text
        if top.y - lines[k].y > 0 and lines[k].y - top.y > 12 * top.size:
            break
        unit = unit or table_unit(t)
        if is_caption(t):
            caption = _spaced_caption(t)
            break
    if not caption:
        for k in range(below, min(below + 3, len(lines))):
            t = lines[k].text
            unit = unit or table_unit(t)
            if is_caption(t):
                caption = _spaced_caption(t)
                break
    if caption:
        unit = unit or table_unit(caption) or header_unit(caption, loose=False)
    return caption, unit


def _columns(rows: list[Line]) -> list[list[float]]:
    """Column extents from the data rows: the widest row seeds them, other rows' cells join by overlap."""
    seed = max(rows, key=lambda r: len(r.segs))
    cols = [[s.x0, s.x1] for s in seed.segs]
    for row in rows:
        if row is seed:
            continue
        for s in row.segs:
            hits = [c for c in cols if min(c[1], s.x1) - max(c[0], s.x0) > -0.3 * s.size]
            if len(hits) == 1:
                hits[0][0], hits[0][1] = min(hits[0][0], s.x0), max(hits[0][1], s.x1)
            elif not hits:
                cols.append([s.x0, s.x1])
                cols.sort()
    return cols


def _column_of(seg: Seg, cols: list[list[float]]) -> int:
    best, best_overlap = 0, float("-inf")
    for n, (a, b) in enumerate(cols):
        overlap = min(b, seg.x1) - max(a, seg.x0)
        if overlap <= 0:
            overlap = -min(abs(seg.x0 - b), abs(a - seg.x1), abs((a + b) / 2 - (seg.x0 + seg.x1) / 2))
        if overlap > best_overlap:
            best, best_overlap = n, overlap
    return best


_KEY_HEADER = re.compile(
    r"序号|编号|档位|并发|批|batch|Batch|size|Size|case|Case|配置|场景|轮次|线程|threads|Threads|cores|Cores|"
    r"clients|Clients|#|No\.|Index|index|ID|层数|layers|年份|Year|year|模型|Model|model|参数|Parameter"
)


def _table_figures(table: _Table, page_width: float, heading: str) -> list[tuple[_Raw, Line]]:
    data_rows = [ln for ln in table.lines if _is_row(ln, page_width)]
    cols = _columns(data_rows)
    ncol = len(cols)
    headers = [""] * ncol
    for hl in table.header:
        for s in hl.segs:
            hits = [n for n, (a, b) in enumerate(cols) if min(b, s.x1) - max(a, s.x0) > 0]
            for n in hits or [_column_of(s, cols)]:
                headers[n] = (headers[n] + " " + s.text).strip()
    cells: list[list[str]] = []
    row_lines: list[Line] = []
    wrapped: list[tuple[int, float, str]] = []  # (rows seen so far, y, text) of label lines between rows
    footers = [""] * ncol
    for ln in table.lines:
        row = [""] * ncol
        for s in ln.segs:
            n = _column_of(s, cols)
            row[n] = (row[n] + " " + s.text).strip()
        if _is_row(ln, page_width):
            cells.append(row)
            row_lines.append(ln)
        elif len({_column_of(s, cols) for s in ln.segs}) == 1:
            wrapped.append((len(cells), ln.y, " ".join(c for c in row if c)))
        elif row_lines and len(cells) <= 2:
            # Under a one-row "table" of KPI cards the line below names each value's unit: `MiB/s, 1MB batch=4`.
            for n, text in enumerate(row):
                footers[n] = (footers[n] + " " + text).strip()
    # A wrapped label belongs to the nearer of the rows around it (the one below when it sits midway).
    labels_extra: dict[int, list[str]] = {}  # row → label texts, prefixed "0" (above the row) or "1" (below)
    for pos, y, text in wrapped:
        if pos >= len(cells):
            target = len(cells) - 1
        elif pos == 0:
            target = 0
        else:
            target = pos if abs(row_lines[pos].y - y) <= abs(row_lines[pos - 1].y - y) else pos - 1
        labels_extra.setdefault(target, []).append(("0" if y > row_lines[target].y else "1") + text)
    key_cols = _key_columns(cells, headers)
    # A glued `B` counts bytes in a column whose header or other cells say bytes (`Size (B)`, `4B | 1KB`).
    byte_cols = [
        bool(_BYTE_CONTEXT.search(" ".join([headers[c], *(row[c] for row in cells)])))
        or header_unit(headers[c]) in _BYTE_UNITS
        or bool(_BYTE_HEADER.search(headers[c]))
        for c in range(ncol)
    ]
    # A unit in a label column's header (`Boiling Points °C`, `利润表(百万元)`) is the unit of the cells to its right.
    out: list[tuple[_Raw, Line]] = []
    for r, (row, ln) in enumerate(zip(cells, row_lines, strict=True)):
        quote = " ".join(c for c in row if c)
        for c, cell in enumerate(row):
            if not cell:
                continue
            key = c in key_cols
            row_labels = []
            row_unit = None
            group = _label_group(key_cols, c) if not key else _run_of(key_cols, c)
            group_unit = next((header_unit(headers[k]) for k in group if header_unit(headers[k])), None)
            for k in group if not key else [k for k in group if k != c]:
                if row[k]:
                    row_labels.append(f"{headers[k]} {row[k]}".strip() if number_cell(row[k]) else row[k])
                    row_unit = row_unit or header_unit(row[k], loose=False)
            if r in labels_extra and row_labels:
                above = [t[1:] for t in labels_extra[r] if t[0] == "0"]
                below = [t[1:] for t in labels_extra[r] if t[0] == "1"]
                row_labels = [" ".join([*above, row_labels[0], *below]).strip(), *row_labels[1:]]
            col_unit = header_unit(headers[c]) if headers[c] else None
            if col_unit is None and footers[c] and unit_at(footers[c], 0):
                col_unit = unit_at(footers[c], 0)[0]  # type: ignore[index]
            params = bool(_PARAM_LABEL.search(" ".join([headers[c], *row_labels])))
            for num in find_numbers(cell, keep_years=not key, bytes_ok=byte_cols[c] or None, billions=params):
                if key and not number_cell(cell):
                    continue  # numbers inside a row label (`480P 32*32`) describe the row
                unit = num.unit or col_unit or ""
                if not unit and not key:
                    unit = row_unit or group_unit or table.unit or header_unit(heading, loose=False) or ""
                if key:
                    labels = [table.caption, headers[c], *row_labels, heading]
                else:
                    labels = [table.caption, *row_labels, headers[c], heading]
                out.append((_Raw(num.value, unit, num.raw, _clean_labels(labels), quote, "cell"), ln))
    return out


def _key_columns(cells: list[list[str]], headers: list[str]) -> list[int]:
    """Leading columns that name a row (labels, or integer parameters like 并发 8 / batch 4) rather than measure it."""
    keys: list[int] = []
    ncol = len(headers)
    for c in range(ncol - 1):
        values = [row[c] for row in cells if row[c]]
        if not values:
            if c == 0:
                continue
            break
        numeric = [v for v in values if number_cell(v)]
        if len(numeric) < len(values) / 2:
            keys.append(c)
            continue
        if header_unit(headers[c]) and header_unit(headers[c]) not in ("KB", "MB", "B", "GB"):
            break
        ints = all(re.fullmatch(r"\d+\s*(?:[KMG]i?B|B|K|k)?", v.strip()) for v in numeric)
        repeats = len(set(values)) < len(values)
        if ints and (repeats or _KEY_HEADER.search(headers[c] or "")):
            keys.append(c)
            continue
        break
    # Side-by-side tables (`主要财务指标 … | 利润表 …`): a later column of words starts the next table's labels.
    start = (keys[-1] + 2) if keys else 1
    for c in range(start, ncol - 1):
        values = [row[c] for row in cells if row[c]]
        if values and sum(1 for v in values if number_cell(v)) < len(values) / 2:
            keys.append(c)
    return keys


def _run_of(key_cols: list[int], c: int) -> list[int]:
    """The run of consecutive label columns that holds column `c`."""
    run = [c]
    while run[0] - 1 in key_cols:
        run.insert(0, run[0] - 1)
    while run[-1] + 1 in key_cols:
        run.append(run[-1] + 1)
    return run


def _label_group(key_cols: list[int], c: int) -> list[int]:
    """The run of label columns nearest to the left of column `c`."""
    left = [k for k in key_cols if k < c]
    group: list[int] = []
    for k in reversed(left):
        if group and k != group[0] - 1:
            break
        group.insert(0, k)
    return group or [k for k in key_cols if k <= c][:1]


_KV = re.compile(r"^\s*(?P<label>[^:：=]{1,40}?)\s*[:：]\s*(?P<value>.*\d.*)$")


def _kv(line: str) -> tuple[str, str] | None:
    """`label: value unit` (or `label：value`), with a short label and the number near the start of the value."""
    m = _KV.match(line)
    if not m or _is_code(line):
        return None
    label, value = m.group("label").strip(), m.group("value").strip()
    if not label or re.search(r"https?$|\d$|[\"'\[\](){}<>]$|^[\"'(\[]", label) or _SENTENCE_END.search(label):
        return None
    if label.isascii() and not re.match(r"[:：]\s", line[m.end("label") :].lstrip()[:2] + " "):
        return None  # `cpu:0`, `http:…`: a Latin label needs a space after its colon
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
    for m in _SENTENCE_END.finditer(paragraph):
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
    if _cjk_edge(a.rstrip(), b.lstrip()):
        return a.rstrip() + b.lstrip()
    return a.rstrip() + " " + b.lstrip()


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _chart_unit(lines: list[str], idx: int) -> str | None:
    """A bare chart label takes the unit of the nearest title above it that names one, e.g. `(nanoseconds)`."""
    for k in range(idx - 1, max(idx - 25, -1), -1):
        t = lines[k]
        if find_numbers(t) and not re.search(r"[(（]", t):
            continue
        for inner in reversed(_PAREN.findall(t)):
            u = parse_unit(inner)
            if u:
                return u
    return None


def _reading_order(lines: list[Line], width: float) -> list[Line]:
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


def _token(raw: str) -> str:
    # `480B` is `480` bytes or 480 billion depending on its label: one token either way for the cross-checks.
    return raw.removesuffix("B")


def _page_figures(plain: str, lines: list[Line], page_width: float, page_height: float, ctx: _Ctx) -> list[_Raw]:
    """All figures of one page: table cells from positions, then `label: value` lines and prose from plain text."""
    body = [ln for ln in lines if page_height * 0.06 < ln.y < page_height * 0.94] if page_height else lines
    in_body = {id(ln) for ln in body}
    margin_texts = {_squash(ln.text) for ln in lines if id(ln) not in in_body}
    body = _reading_order(body, page_width)
    sizes = Counter(round(ln.size) for ln in body)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    out: list[_Raw] = []
    tables = _tables(body, page_width)
    consumed: Counter[str] = Counter()
    table_text: list[str] = []
    # Section headings seen on this page (in reading order), so a table is labelled with the heading above it.
    heading_at: dict[int, str] = {}
    for i, ln in enumerate(body):
        if is_heading(ln.text, ln.size, body_size):
            heading_at[i] = ln.text.strip()
    position = {id(ln): i for i, ln in enumerate(body)}
    plain_tokens = Counter(_token(n.raw) for n in find_numbers(plain, keep_years=True, bytes_ok=True))
    for table in tables:
        top = position[id(table.header[0] if table.header else table.lines[0])]
        heading = next((heading_at[i] for i in sorted(heading_at, reverse=True) if i < top), None) or ctx.heading
        for raw, _ln in _table_figures(table, page_width, heading):
            # Cross-check with plain text: a number plain mode never printed is a fusion of neighbours; drop it.
            if plain_tokens[_token(raw.raw)] <= 0:
                continue
            plain_tokens[_token(raw.raw)] -= 1
            consumed[_token(raw.raw)] += 1
            out.append(raw)
        table_text.append(_squash(" ".join([table.caption, *(ln.text for ln in [*table.header, *table.lines])])))
    # Plain text in reading order: kv lines, headings and prose (table lines are skipped, their numbers consumed).
    plain_lines = [ln.strip() for ln in plain.splitlines()]
    paragraph = ""
    para_heading = ctx.heading
    prose: list[tuple[str, str]] = []

    def flush() -> None:
        nonlocal paragraph
        if paragraph.strip():
            prose.append((paragraph.strip(), para_heading))
        paragraph = ""

    for idx, text in enumerate(plain_lines):
        sq = _squash(text)
        if not sq:
            flush()
            continue
        if sq in margin_texts or _PAGE_NUMBER.match(text):
            continue
        if any(sq in tt for tt in table_text) and (find_numbers(text, keep_years=True) or len(sq) < 40):
            for n in find_numbers(text, keep_years=True, bytes_ok=True):
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
            continue
        if is_heading(text, 0, 0) or (is_caption(text) and len(text) < 80):
            flush()
            if is_heading(text, 0, 0):
                ctx.heading = text
                para_heading = text
            continue
        if _is_code(text) or _TOC.search(text):
            flush()
            continue  # code listings and table-of-contents lines hold numbers that measure nothing
        kv = _kv(text)
        if kv:
            flush()
            label, value = kv
            for n in find_numbers(value, billions=bool(_PARAM_LABEL.search(label))):
                if consumed[_token(n.raw)] > 0:
                    consumed[_token(n.raw)] -= 1
                    continue
                before = value[: n.start].strip(" ≥≤><约~≈(（")
                labels = [
                    label,
                    before if before and len(before) < 30 and not find_numbers(before) else "",
                    ctx.heading,
                ]
                out.append(_Raw(n.value, n.unit, n.raw, _clean_labels(labels), text, "kv"))
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
                out.append(
                    _Raw(n.value, n.unit or unit or "", n.raw, _clean_labels([text, ctx.heading]), text, "prose")
                )
            continue
        paragraph = _join(paragraph, text)
        if _SENTENCE_END.search(text[-1:]) and text[-1] in "。！？!?":
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
                out.append(_Raw(n.value, n.unit, n.raw, _clean_labels([quote, heading]), quote, "prose"))
    return out


# ---- the whole file -----------------------------------------------------------------------------------------------


@dataclass
class ParsedPdf:
    """Everything read from one PDF: page texts, figures and printed page labels."""

    pages: list[Page]
    figures: list[Figure]
    page_labels: list[str]
    sha256: str = ""


class _Timeout(BaseException):  # not an Exception: pypdf's `except Exception` recovery must not swallow the alarm
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """A hard stop for pathological files (SIGALRM, main thread only); other threads rely on per-page checks."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _figure_id(sha: str, page: int, pos: int, raw: str) -> str:
    return hashlib.sha256(f"{sha}:{page}:{pos}:{raw}".encode()).hexdigest()[:16]


def _check_envelope(path: Path, limits: IngestLimits) -> None:
    """Cheap checks on size, header and end marker, made before the timed parse so their verdict never races it."""
    try:
        size = path.stat().st_size
    except OSError as e:
        raise EvidenceError(f"cannot read: {e.strerror or e}", path=path) from e
    if size > limits.max_pdf_bytes:
        raise EvidenceError(f"PDF is {size:,} bytes, over the {limits.max_pdf_bytes:,}-byte limit", path=path)
    with open(path, "rb") as f:
        head = f.read(1024)
    if b"%PDF-" not in head:
        raise EvidenceError("not a PDF file (no %PDF- header)", path=path)
    with open(path, "rb") as f:
        f.seek(max(0, size - 4096))
        tail = f.read()
    if b"%%EOF" not in tail:
        # pypdf would rebuild what it can and silently lose the rest: a cut-off file is an error, not half a report.
        raise EvidenceError("truncated PDF (no %%EOF marker at the end); copy the file again", path=path)


def _open(path: Path) -> Any:
    from pypdf import PasswordType, PdfReader

    try:
        reader = PdfReader(path, strict=False)
    except Exception as e:
        raise EvidenceError(f"corrupt or truncated PDF: {e}", path=path) from e
    if reader.is_encrypted:
        try:
            ok = reader.decrypt("") != PasswordType.NOT_DECRYPTED
        except Exception:
            ok = False
        if not ok:
            raise EvidenceError("encrypted PDF (password-protected); register an unencrypted copy", path=path)
    return reader


def parse_pdf(
    path: str | Path,
    limits: IngestLimits | None = None,
    *,
    report_id: str = "",
    version: int = 1,
    sha256: str | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> ParsedPdf:
    """Read a PDF into page texts and figures; every failure is an EvidenceError naming the file."""
    from evidence.fsutil import sha256_file

    path = Path(path)
    limits = limits or IngestLimits()
    sha = sha256 or sha256_file(path)
    _check_envelope(path, limits)
    deadline = time.monotonic() + limits.seconds_per_file
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # pypdf warns about recoverable oddities; those are not the user's problem
    try:
        fast = _FAST_STREAMS.set(FAST_STREAMS and _install_fast_streams())
        try:
            with _time_limit(limits.seconds_per_file):
                return _parse(path, limits, sha, report_id, version, deadline, on_page)
        finally:
            _FAST_STREAMS.reset(fast)
    except _Timeout:
        raise EvidenceError(f"reading took longer than {limits.seconds_per_file:g} s; giving up", path=path) from None
    except EvidenceError:
        raise
    except RecursionError as e:
        raise EvidenceError("corrupt PDF (nesting too deep)", path=path) from e
    except Exception as e:  # pypdf raises many kinds on broken files; any of them is a bad input, not a crash
        raise EvidenceError(f"corrupt or truncated PDF: {type(e).__name__}: {e}", path=path) from e
    finally:
        pypdf_log.setLevel(level)


def _parse(
    path: Path,
    limits: IngestLimits,
    sha: str,
    report_id: str,
    version: int,
    deadline: float,
    on_page: Callable[[int, int], None] | None,
) -> ParsedPdf:
    reader = _open(path)
    n_pages = len(reader.pages)
    if n_pages > limits.max_pdf_pages:
        raise EvidenceError(f"PDF has {n_pages} pages, over the {limits.max_pdf_pages}-page limit", path=path)
    if n_pages == 0:
        raise EvidenceError("PDF has no pages", path=path)
    has_labels = "/PageLabels" in reader.trailer["/Root"]
    labels: list[str] = []
    if has_labels:
        try:
            labels = [str(x) for x in reader.page_labels]
        except Exception:
            has_labels, labels = False, []
    ctx = _Ctx(sha, report_id, version)
    caches: tuple[dict[int, Any], dict[int, Any]] | None = ({}, {}) if SINGLE_PASS and _install_font_cache() else None
    pages: list[Page] = []
    figures: list[Figure] = []
    text_chars = 0
    for i, page in enumerate(reader.pages):
        if time.monotonic() > deadline:
            raise _Timeout
        number = i + 1
        label = labels[i] if has_labels and i < len(labels) else None
        text, runs = _read_page(page, caches)
        plain = normalize(text)
        text_chars += len(plain.strip())
        box = page.mediabox
        width, height = float(box.width), float(box.height)
        bottom = float(box.bottom)
        runs = [(x0, x1, y - bottom if y >= 0 else y, size, t) for x0, x1, y, size, t in runs]
        lines = _lines(runs)
        pages.append(Page(report=report_id, version=version, page=number, label=label, text=plain))
        try:
            raws = _page_figures(plain, lines, width, height, ctx)
        except Exception as e:  # our analysis, not the file: say so instead of blaming the PDF
            raise EvidenceError(
                f"page {number}: figure extraction failed ({type(e).__name__}: {e}); please report this PDF", path=path
            ) from e
        for pos, raw in enumerate(raws):
            figures.append(
                Figure(
                    id=_figure_id(sha, number, pos, raw.raw),
                    report=report_id,
                    version=version,
                    page=number,
                    page_label=label,
                    value=raw.value,
                    unit=raw.unit,
                    raw=raw.raw,
                    labels=raw.labels,
                    quote=raw.quote,
                    kind=raw.kind,
                )
            )
        if on_page is not None:
            on_page(number, n_pages)
    if text_chars == 0:
        raise EvidenceError("no text layer (a scanned PDF?); run OCR on it and register the result", path=path)
    return ParsedPdf(pages, figures, labels if has_labels else [], sha)
