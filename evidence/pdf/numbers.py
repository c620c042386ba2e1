"""Numbers with their units in zh/en report text, what is no figure (dates, versions, ids), and header units."""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from evidence.units import COUNT_WORDS, canonical, storage_size_at, unit_at

_ASCII_ALNUM = re.compile(r"[A-Za-z0-9_]")


def printed_unit(text: str) -> str | None:
    """The canonical unit when `text` is exactly one unit as a header prints it (`MiB/s`, `毫秒`, `in ms`), else None."""
    t = text.strip().strip(".:：").strip()
    m = re.fullmatch(r"(?:approx\.?\s*)?(?:in\s+)?(.+)", t)
    return canonical(t) or (canonical(m.group(1)) if m else None)


PAREN = re.compile(r"[(\[]\s*([^()\[\]]{1,24}?)\s*[)\]]")


def header_unit(text: str, *, loose: bool = True) -> str | None:
    """The unit a table header gives its cells: `基线 TTFT (s)`, `p50/ms`, `MiB/s`, `Boiling Points °C`.

    `loose=False` (row labels, captions) only trusts a bracketed or slashed unit: a row called `GPU` has none.
    """
    t = text.strip()
    if not t:
        return None
    whole = printed_unit(t) if loose else None
    # A header that is one word of count (`Threads`, `GPUs`) names the key its column holds, not a unit of the cells.
    if (
        whole
        and t not in ("s", "h", "A", "B", "V", "W", "x", "X", "个", "次")
        and t.casefold() not in ("min", "max")  # JMeter's `Min`/`Max` columns: a minimum, not minutes
        and whole not in COUNT_WORDS
    ):
        return whole
    for inner in reversed(PAREN.findall(t)):
        u = printed_unit(inner)
        if u:
            return u
        m = re.search(r"单位\s*[:：]?\s*(\S+)$", inner)
        if m and printed_unit(m.group(1)):
            return printed_unit(m.group(1))
    last = t.split()[-1]
    if loose and "/" in last and last != t and (u := printed_unit(last)):
        return u  # `顺序读带宽 MB/s`: a compound unit after the words, not `s` after a slash
    m = re.search(r"/\s*([^/\s]+(?:/[A-Za-z]+)?)$", t)
    if m and not t.endswith(")"):
        u = printed_unit(m.group(1))
        if u:
            return u
    parts = t.split()
    if loose and len(parts) > 1:
        u = printed_unit(parts[-1])
        if u and u not in ("x", "A", "B", "V", "W", "h", "s", "个", "次", "项"):
            return u
    return None


_TABLE_UNIT = re.compile(r"(?:单位|Unit|Units|unit)\s*[:：]\s*([^\s,，;；)）]+)")


def table_unit(text: str) -> str | None:
    """A table-level unit line such as `单位：万元` or `(Unit: ms)`."""
    m = _TABLE_UNIT.search(text)
    return printed_unit(m.group(1)) if m else None


# ---- numbers ---------------------------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?P<cmp>(?:[≥≤><]|约|~|≈|about|up to|over)\s*)?"
    r"(?P<sign>[+\-±])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
)
_MAGNITUDE = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8}
_MAGNITUDE_WORD = re.compile(r" (thousand|million|billion)\b")  # `about 3 million tokens`
_WORD_FACTOR = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
# Spans that hold digits but are not figures: dates, versions, IPs, times, references, page numbers, citations.
_NOT_FIGURES = re.compile(
    (
        r"\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?|\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}\s*年(?:度|末|初|底)?"
        r"|⟨(?:19|20)\d{2}[AEFHQ]⟩|⟨(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])(?:[-/.](?:0?[1-9]|[12]\d|3[01]))?⟩"
        r"|⟨\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?⟩|⟨[vV]?\d+(?:\.\d+){2,}⟩|⟨\d{1,2}:\d{2}(?::\d{2})?⟩"
        r"|(?:表|图|附表|附图|Table|TABLE|Tab\.|Fig\.?|Figure|FIGURE|Eq\.|Section|Sec\.|§|Appendix|附录|Chapter|第)\s*"
        r"(?:[A-Z][-.]?)?\d+(?:[-.–]\d+)*(?:\s*[章节条])?"
        # `Tables 3 and 4`, `Figures 2, 5 and 7`, `Sections 3.1–3.4`: references to several, no figures
        r"|(?:Tables|Figures|Figs\.|Sections|Chapters|Appendices)\s*\d+(?:\.\d+)*"
        r"(?:\s*(?:,|and|&|to|or|–|-)\s*\d+(?:\.\d+)*)*"
        r"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+"
        r"\d{1,2}(?:,?\s+\d{4})?(?![\d.])"  # `Thu Dec 1 10:18:38 2022`, `March 3, 2024`: a date
        # `3–6 November 2026`, `12 Mar 2025`: days before their month
        r"|(?<![\d.])\d{1,2}(?:\s*[–-]\s*\d{1,2})?\s+(?:January|February|March|April|May|June|July|August|September"
        r"|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?(?![A-Za-z])(?:,?\s+\d{4})?(?!\d)"
        r"|第\s*\d+\s*[页頁]|共\s*\d+\s*[页頁]|⟨[Pp]age\s+\d+(?:\s+of\s+\d+)?⟩"
        r"|(?:Ubuntu|CentOS|Debian|Windows|Android|iOS|Python|CUDA|ROCm|Linux|kernel|gcc|g\+\+|clang|Java|Node|PyTorch|vLLM)"
        r"\s*v?\d+(?:\.\d+)*(?![\d.]*[A-Za-z%/])"  # (a unit glued on: `MultiCPU Linux 60ms/frame` is a row's cell)
        # benchmark tools and serving stacks named with their release (`fio 3.28`, `iozone 3.429`, `SGLang 0.4.1`)
        r"|(?:fio|iozone|dbench|mdtest|vdbench|sysbench|iperf3?|YCSB|ycsb|SGLang|LMCache|TensorRT-LLM|Ceph|MLNX_OFED)"
        r"\s*v?\d+(?:\.\d+)+|arXiv:\s*\d{4}\.\d{4,5}(?:v\d+)?|⟨[a-z]+:\d+⟩"
        # Versions: `version 2.3`, `版本：8.0`, and a YY.MM release after a named library, `Library(ACL) 17.12`,
        # `ACL 17.12/OpenBLAS` (no unit may follow: `(QPS) 12.05万` stays a figure).
        r"|(?:[Vv]ersion|版本|[Rr]elease|\$?Revision)\s*(?:号|number)?\s*[:：]?\s*[vV]?\d+(?:\.\d+)+"
        r"|(?:\([A-Z][A-Za-z]{1,10}\)\s*|⟨[A-Z]{2,}[A-Za-z]*\s+(?=\d{2}\.\d{2}/[A-Za-z]))"
        r"\d{2}\.(?:0[1-9]|1[0-2])(?![\d.])(?!\s?[A-Za-zµμ%‰万亿倍])"
        # (`10-40倍`, `29-40%`: a range of two numbers is no identifier)
        r"|\[\d+(?:[,–-]\s*\d+)*\]|⟨[A-Za-z]+\d+[A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*|\d+(?:\*\d+)+"
        r"|(?!\d+-\d+(?![A-Za-z0-9_-]))(?:⟨\d+[A-Za-z]*-[A-Za-z0-9_]+|(?:[A-Za-z0-9_]+-)+\d+[A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)|⟨\d+(?::\d+)+⟩|(?:^|(?<=[\s(（]))\d{1,2}[)）](?=\s)"
        r"|(?:Listing|Algorithm|Equation|Lemma|Theorem|Step|步骤)\s*\d+|C\+\+\d+|\d+\^\(?-?\d+\)?"
    )
    .replace("⟨", r"(?<![A-Za-z0-9_])")
    .replace("⟩", r"(?![A-Za-z0-9_])")
)
_RANGE_JOIN = re.compile(r"\s*(?:[–~〜]|-(?=\d)|至|到|to)\s*")
# The last join of a list (`64, 128 and 256 bytes`, `4、8 和 16 GB`) and the commas before it.
_AND_JOIN = re.compile(r"\s*[,，]?\s*(?:and|or|和|或|及)\s*")
_COMMA_JOIN = re.compile(r"\s*[,，]\s+|\s*，\s*")
# Code listings and algorithm lines: their numbers (`int32_t width = 11;`) measure nothing.
_CODE = re.compile(
    r"^\s*\d+:\s|←|^\s*\"[^\"]+\"\s*:|[{}]"
    r"|^\s*(?:#include|#define|int\d*_t|uint\d*_t|int|char|auto|struct|class|return|const|std::|for\s*\(|if\s*\()"
    r"|^\s*[A-Za-z_][\w.\[\]]*\s*=\s*\S|::|->|^\s*[$>#]\s|(?:^|\s)--?[a-z][\w-]*[ =]"
)


# A path template's parameter (`/api/v2/orders/{id}`, an endpoint's name in a load-test table) is no code block.
_PATH_PARAM = re.compile(r"/\{[\w.-]+\}")


def is_code(text: str) -> bool:
    # A statement ends in `;` with `=` or a call in it; Chinese prose ends clauses in `；` (`;` after NFKC) too.
    if _CODE.search(_PATH_PARAM.sub("/", text)):
        return True
    return bool(re.search(r"[\w)\]\"']\s*;\s*$", text)) and ("=" in text or "(" in text) and not CJK_CHAR.search(text)


CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
PAGE_NUMBER = re.compile(
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


# A footnote mark after a value (`12.5^1` from `12.5¹`, `1.12*`, `3.4†`) is no part of it; `10^4` and `2^20` are powers.
_FOOTNOTE = re.compile(r"(?<=\d)(?:\^(?!(?<=(?<![\d.])10\^)|(?<=(?<![\d.])2\^))\d{1,2}(?!\d)|\*(?![\d*])|[†‡])")


# Numbers a report prints as names: a processor, GPU or product model (`Xeon 8280`, `Gold 6230N`, `RTX 4090`) or a
# numbered option, case or mode (`Option 2/3/4/5/7`, `Case 3`). They are kept as figures of kind `name`, never as
# quantities: QC can then never verify a measurement against them.
NAMES = re.compile(
    r"(?<![A-Za-z0-9_])(?:Xeon|EPYC|Ryzen|Threadripper|Opteron|Core\s+i[3579]|Gold|Platinum|Silver|Bronze|Kunpeng|鲲鹏|"
    r"Ascend|昇腾|Atlas|RTX|GTX|Quadro|Tesla|Option|Options|Model|Type|Mode|Case|Scenario|Phase|型号|方案|选项|场景)"
    r"\s*(?P<id>\d+[A-Za-z]*(?:[/-]\d+[A-Za-z]*)*)(?![\d.%])"
)


# A model number with a letter suffix on its own (`(6230N)`, `4090D`): find_numbers already skips it as no quantity.
_MODEL_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(?!(?:19|20)\d\d[AEFHQ]\b)\d{3,}(?P<suffix>[A-Z]{1,2})(?![A-Za-z0-9_])")


def names(text: str) -> list[tuple[str, str]]:
    """The identifiers `text` prints with digits, as (the whole name, its numeric part): `("Xeon 8280", "8280")`."""
    out = [(m.group(0), m.group("id")) for m in NAMES.finditer(text)]
    out += [(m.group(0), m.group(0)) for m in _MODEL_NUMBER.finditer(text) if canonical(m.group("suffix")) is None]
    return out


def _masked(text: str) -> str:
    text = _FOOTNOTE.sub(lambda m: " " * len(m.group(0)), text)
    text = NAMES.sub(lambda m: m.group(0)[: m.start("id") - m.start()] + " " * len(m.group("id")), text)
    return _NOT_FIGURES.sub(lambda m: " " * len(m.group(0)), text)


def find_numbers(
    text: str, *, keep_years: bool = False, bytes_ok: bool | None = None, billions: bool = False
) -> list[Number]:
    """Numbers with their units in zh/en text (see `_find_numbers`); callers must not change the returned Numbers."""
    return list(_find_numbers(text, keep_years, bytes_ok, billions))


# `11× higher`, `4x faster than`: a multiple compared, not a count of things (`8×A800`, `2 × Xeon`).
_COMPARED = re.compile(
    r"\s?[×xX]\s(?:higher|lower|faster|slower|more|less|better|worse|larger|smaller|greater|fewer|the|as|over)\b"
)


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
        sign = m.group("sign") or ""
        start = m.start("sign") if sign else m.start("num")
        before = text[start - 1] if start > 0 else " "  # the unmasked text: `LLaMA3-70B` stays one identifier
        if sign == "-" and before.isdigit():  # `10-40倍`: the second end of a range, not a negative number
            sign, start, before = "", m.start("num"), " "
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
        raw = sign + num
        if end < len(text) and text[end] in "^*†‡" and masked[end] == " ":
            end = _FOOTNOTE.match(text, end).end()  # type: ignore[union-attr]  # masked above, so it matches here
        nxt = masked[end] if end < len(masked) else " "
        if nxt in "._" and end + 1 < len(masked) and masked[end + 1].isdigit():
            continue  # a fragment of something longer, e.g. a masked version or a glued token
        unit = ""
        billion = nxt == "B" and (billions or _billion_context(masked, end + 1))
        if nxt == "B" and not billion and not _ASCII_ALNUM.match(masked[end + 1 : end + 2] or " "):
            if byte_context is None:
                byte_context = bool(BYTE_CONTEXT.search(text))
            if not byte_context and not _BYTE_WORD_BEFORE.search(text[max(0, start - 16) : start]):
                continue
        found_unit = None if billion else unit_at(masked, end) or storage_size_at(masked, end)
        if found_unit is None and (word := _MAGNITUDE_WORD.match(masked, end)):
            value *= _WORD_FACTOR[word.group(1)]
            raw += word.group(0)
            end = word.end()
            found_unit = unit_at(masked, end)
        if found_unit is None and nxt in _MAGNITUDE:
            after = masked[end + 1] if end + 1 < len(masked) else " "
            if not (after.isascii() and after.isalpha()) and not (nxt == "B" and not billion):
                value *= _MAGNITUDE[nxt]
                raw += nxt
                end += 1
                found_unit = unit_at(masked, end)
        if found_unit is not None and found_unit[0] in ("万", "亿"):
            # `170 万 Ops/sec`, `100 万条`: the magnitude word of a value with its own unit after it multiplies it
            inner = unit_at(masked, found_unit[1])
            if inner is not None and inner[0] not in ("万", "亿"):
                value *= _MAGNITUDE[found_unit[0]]
                raw += found_unit[0]
                found_unit = inner
        if found_unit is not None:
            unit, end = found_unit
        elif nxt.isascii() and nxt.isalpha() and not raw.endswith(nxt):
            continue  # 480P, 2022E, 3rd: part of an identifier, not a quantity
        if (
            re.match(r"\s?[×x*]\s?[A-Za-z0-9]", text[m.end("num") : m.end("num") + 4])
            and not m.group("num").count(".")
            and not _COMPARED.match(text, m.end("num"))
        ):
            unit, end = "", m.end("num")  # `8×A800`, `8×312 TFLOPS`: a count of things, the multiplier is no unit
        if sign == "-":
            value = -value
        if not unit and not keep_years and not m.group("num").count(".") and 1900 <= value <= 2100 and "," not in num:
            continue  # a bare year
        if value in (float("inf"), float("-inf")):
            continue  # a 400-digit run is no measurement, and infinity is not valid JSON downstream
        found.append(Number(value, unit, raw, start, end))
    # A unit written once after a range or list (`29–40%`, `1,521/1,582/1,646亿元`, `30、20、15 倍`, `64, 128, 256
    # and 1024 bytes`) applies to each member.
    members: set[int] = set()  # numbers that took the unit of the list member after them
    for i in range(len(found) - 2, -1, -1):
        a, b = found[i], found[i + 1]
        gap = masked[a.end : b.start]
        if a.unit or not b.unit:
            continue
        if _RANGE_JOIN.fullmatch(gap) or gap.strip() in ("/", "-", "、") or _AND_JOIN.fullmatch(gap):
            found[i] = dataclasses.replace(a, unit=b.unit)
            members.add(i)
        elif _COMMA_JOIN.fullmatch(gap) and (
            i + 1 in members
            or (i > 0 and not found[i - 1].unit and _COMMA_JOIN.fullmatch(masked, found[i - 1].end, a.start))
        ):
            # a comma joins members only in a list of three or more (`In test 3, 500 ms` joins nothing)
            found[i] = dataclasses.replace(a, unit=b.unit)
            members.add(i)
    return tuple(found)


def _billion_context(text: str, pos: int) -> bool:
    # Only a label saying so makes `480B` a parameter count; `480B 模型` or `32B LoRA` name a model size.
    return bool(re.match(r"\s*(?:参数|[Pp]arams\b|[Pp]arameters)", text[pos : pos + 16]))


BYTE_UNITS = {"B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "PB"}
# Text that shows a glued `B` counts bytes: another byte unit (`1KB`, `64 MiB`, `bytes`), or a payload or size
# word right before the number (`负载4B`; 负载 alone also means a workload, so only right before it).
BYTE_CONTEXT = re.compile(r"\d\s?(?:[KMGTP]i?B|bytes?|字节)(?![A-Za-z])|[Bb]ytes?\b|字节")
# A column of payload or message sizes counts bytes (a column of model `Size`s, 7B/70B, does not).
BYTE_HEADER = re.compile(r"[Pp]ayload|负载|载荷|消息|[Mm]essage|[Pp]acket|包长")
# A label that makes a glued `B` a parameter count: `参数量 | 480B`, `Params: 70B`.
PARAM_LABEL = re.compile(r"参数|[Pp]aram")
_BYTE_WORD_BEFORE = re.compile(r"(?:负载|载荷|[Pp]ayload|大小|[Ss]ize)\s*(?:of|为|是|[:：=])?\s*$")


def number_cell(text: str) -> bool:
    """A table cell that is a number, with an optional unit or sign (or a placeholder such as `-` or `N/A`).

    A trailing remark in brackets (`2 B (BFloat16)`) and a count prefix (`8×312 TFLOPS`) are allowed.
    """
    t = re.sub(r"\s*[(（][^()（）]{0,30}[)）]$", "", text.strip())
    t = re.sub(r"^\d+\s?[×x*]\s?(?=\d)", "", t)
    t = re.sub(r"(?<=\d)\s?±\s?\d[\d,]*(?:\.\d+)?(?=\s?\D*$)", "", t)  # `12,480 ± 96`: a mean and its deviation
    if t in ("-", "—", "–", "/", "N/A", "n/a", "NA", "--", "—", "×", "✓"):
        return True
    nums = find_numbers(t, keep_years=True, bytes_ok=True)  # `910B` is shaped like a number cell either way
    if len(nums) != 1:
        return False
    n = nums[0]
    rest = (t[: n.start] + t[n.end :]).strip()
    rest = re.sub(r"^(?:\^\d{1,2}|\*|[†‡])", "", rest).strip()
    # (`= 1047344.44 kB/sec`: tool output's `name = value` column)
    return rest in ("", "≥", "≤", ">", "<", "约", "~", "≈", "=") or bool(re.fullmatch(r"[≥≤><~约≈]", rest))
