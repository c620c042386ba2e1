"""Claims and their context: the sentences of a block, each number's words around it."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

from qc.blocks import FULL_END, SENT_END, cite_ids, markers_only
from qc.context import KINDS, context_tokens, id_shapes, lazy, positions
from qc.numbers import CHANGE_RE, Quantity, markers
from qc.prepare import stems
from qc.units import parse_unit

_LEAD_INT = re.compile(r"(\d+)\s")  # (what context_tokens drops as a label's section number)


@dataclass(eq=False)
class Sentence:
    start: int
    end: int
    chunk: str  # the sentence as written (positions of `where` count from `start`)
    cites: list[str]
    extra: str = ""  # more context words (a table cell's row and header)
    quantities: list[Quantity] = field(default_factory=list)
    full_cites: list[str] = field(default_factory=list)  # markers anywhere in the full sentence (up to 。)

    # Text and context are read only for sentences that hold a number, and once.
    @lazy
    def plain(self) -> str:
        """The sentence without citation markers, spaces collapsed, final punctuation dropped."""
        plain = self.chunk
        for s, e, _ in reversed(markers(plain)):
            plain = plain[:s] + plain[e:]
        # = re.sub(r"\s+", " ", plain).strip() (split() breaks at the same whitespace); then the final punctuation.
        return " ".join(plain.split()).rstrip(" 。.!?;")

    @lazy
    def text(self) -> str:
        """As shown in findings (a table cell shows its row instead)."""
        return self.plain

    @lazy
    def tokens(self) -> frozenset[str]:
        toks = context_tokens(self.plain + " " + self.extra)
        # A sentence that opens with a number (`128 个客户端时…`) has no section number to drop: it is a word of it.
        lead = _LEAD_INT.match(self.plain) if not self.extra else None
        return toks | {lead.group(1)} if lead else toks

    @lazy
    def where(self) -> list[tuple[str, int]]:
        """Tokens with their positions in the block text."""
        return positions(self.chunk, self.start)

    @lazy
    def ids(self) -> dict[str, frozenset[str]]:
        return id_shapes(self.tokens)


def sentences(text: str, spans: list[tuple[int, int]] | None = None) -> list[Sentence]:
    out: list[Sentence] = []
    regions = spans or [(0, len(text))]
    for a, b in regions:
        pos = a
        cuts = [m.end() for m in SENT_END.finditer(text, a, b)]
        for end in [*cuts, b]:
            if end <= pos:
                continue
            chunk = text[pos:end]
            if out and out[-1].end == pos and markers_only(chunk):
                prev = out[-1]  # a citation marker after the full stop belongs to the sentence before it
                prev.end = end
                prev.cites = list(dict.fromkeys([*prev.cites, *cite_ids(chunk)]))
            elif chunk.strip():
                out.append(sentence(text, pos, end))
            pos = end
    # A marker at the end of a full sentence covers its clauses before a `;` too.
    if not any(x.cites for x in out):
        return out  # no marker anywhere: every full sentence's markers are none
    fulls = [m.end() for m in FULL_END.finditer(text)] + [len(text)]
    start, k = 0, 0
    for end in fulls:  # sentences are in order: each full sentence takes the next run of them
        while k < len(out) and out[k].start < start:
            k += 1
        j = k
        while j < len(out) and out[j].start < end:
            j += 1
        group = out[k:j]
        # (one sentence's markers are already without repeats)
        cites = list(group[0].cites) if len(group) == 1 else list(dict.fromkeys(c for x in group for c in x.cites))
        for x in group:
            x.full_cites = cites
        start = end
    return out


def sentence(text: str, a: int, b: int, extra: str = "") -> Sentence:
    chunk = text[a:b]
    return Sentence(a, b, chunk, cite_ids(chunk), extra)


def shift(q: Quantity, by: int) -> None:
    q.start += by
    q.end += by
    q.num_start += by
    q.num_end += by
    if q.low_end:
        q.low_end += by


# A sentence about frames (`a 480P frame … in 329 ms`, `每帧`), not about a frame rate (`frames/s`, `fps`, `帧/秒`).
_FRAMES = re.compile(r"\bframes?\b(?![ \u00a0]*(?:/|per)[ \u00a0]*s)|帧(?![ \u00a0]*/[ \u00a0]*(?:秒|s))", re.I)
_RATE = re.compile(r"\bfps\b|frames?[ \u00a0]*/[ \u00a0]*s|帧/秒|每秒", re.I)


def per_frame(sent: Sentence) -> None:
    """`from 540 ms to 185 ms per frame`, `process a frame … in 329 ms`: every time of a sentence that speaks of
    frames is a time per frame (the `ms/frame` a report's column prints)."""
    timed = [q for q in sent.quantities if not q.exempt and q.unit and parse_unit(q.unit).dim == "time"]
    if timed and _FRAMES.search(sent.chunk) and not _RATE.search(sent.chunk):
        for q in timed:
            q.unit = parse_unit(q.unit + "/frame").name


# `6729 more than tool&agent's 8596`: a difference stated after the number, the other operand after `than`.
COMPARATIVE = re.compile(
    r"[ \u00a0]*(?:more|less|fewer|higher|lower|above|below|faster|slower|longer|shorter|larger|smaller)\b", re.I
)
_THAN = re.compile(r"[^,;:.。,;:]*?\bthan\b[^,;:.。,;:\d]*$", re.I)


def comparative_units(sent: Sentence, text: str) -> None:
    """`15325 tokens on average, 6729 more than tool&agent's 8596`: the bare numbers of a comparison with a number
    that carries a unit (the one before it in the sentence) are in that unit."""
    qs = [q for q in sent.quantities if not q.exempt and not q.count]
    for i, q in enumerate(qs):
        if q.unit or q.is_range or not COMPARATIVE.match(text, q.end):
            continue
        before = next((o for o in reversed(qs[:i]) if o.unit), None)
        if before is None or parse_unit(before.unit).dim in ("%", "x", "pp"):
            continue
        q.unit = before.unit
        after = qs[i + 1] if i + 1 < len(qs) else None
        if after is not None and not after.unit and _THAN.search(text, q.end, after.start):
            after.unit = before.unit


def printed_unit(text: str, q: Quantity) -> bool:
    """Whether `q` carries its unit as printed, whole (`120GB`; not a table header's, and not `0.39 元` of an
    unread `0.39 元/MWh`)."""
    return bool(q.unit) and q.end > q.num_end and not text.startswith("/", q.end)


# `from A to B`, `从 A 降至 B`: A is the state before (a baseline's figure); `A instead of B`, `A against B`, `A than
# B`, `A vs B`: B is the one compared with. Words only: the numbers between them are the caller's.
_BEFORE_AFTER = re.compile(r"[^,;:。,;:]*?(?:\bto\b|至|到)[^,;:。,;:\d]*$", re.I)
_BARE_TO = re.compile(r"[ \u00a0]*(?:\bto\b|至|到)[ \u00a0]*", re.I)  # a pair no change verb joins
_FROM = re.compile(r"(?:\bfrom\b|从|由)[^,;:。,;:\d]{0,12}$", re.I)
_VERSUS = re.compile(r"^[^,;:。,;:\d]*?(?:\binstead of\b|\bagainst\b|\bthan\b|\bvs\.?|\bversus\b|而非)", re.I)
_VS_CJK = re.compile(r"[ \u00a0]*[对比][ \u00a0]*")  # `2523798 对 1889515`: the two sides of a comparison
_CMP_NAME = re.compile(
    r"(?:比|相比于?|相对于|\bthan\b|\babove\b|\bbelow\b|\bcompared (?:with|to)\b)[ \u00a0]*"
    r"([A-Za-z][A-Za-z0-9_&.+-]*[A-Za-z0-9_+])",
    re.I,
)
# `6729 more than tool&agent's 8596`: the name a comparative right after a number sets that number against
_SET_AGAINST = re.compile(r"[^,;:。\uff0c\uff1b\uff1a\d()\uff08\uff09]{0,24}?" + _CMP_NAME.pattern, re.I)


def set_against(text: str, end: int, stop: int) -> str | None:
    """The name a comparative right after a number (ending at `end`, within `text[:stop]`) sets it against:
    `tool&agent` in `6729 more than tool&agent's 8596`, `brpc` in `20228649 比 brpc 的 4987564 高`."""
    m = _SET_AGAINST.match(text, end, stop)
    return m.group(1) if m is not None else None


# `the load test's 567 ms`, `从 TiKV 的 286,240`: a possessive right before a number names whose figure it is (up to
# three words, a version among them: `TiKV 7.5.1 的`).
_POSSESSOR = re.compile(
    r"([A-Za-z][\w&.+-]*(?:[ \u00a0]+[A-Za-z0-9][\w&.+-]*){0,2})(?:['\u2019]s[ \u00a0]+|[ \u00a0]*的[ \u00a0]*)$"
)


def possessor(text: str, start: int, lo: int) -> str | None:
    """The name a possessive right before a number (starting at `start`, not before `lo`) gives as its owner: `load
    test` in `about 3.1 times the load test's 567 ms`, `TiKV` in `从 TiKV 的 286,240`."""
    m = _POSSESSOR.search(text, max(lo, start - 48), start)
    return m.group(1) if m is not None else None


def _possessor_at(text: str, start: int, lo: int) -> int | None:
    """Where `possessor`'s name starts (of an `X's`, its last word: `1,445 ms higher than TensorRT-LLM's 3,689 ms`
    leaves `higher than` to the number before it), or None."""
    m = _POSSESSOR.search(text, max(lo, start - 48), start)
    if m is None:
        return None
    return m.start(1) + m.group(1).rfind(" ") + 1 if "的" not in m.group() else m.start(1)


# `ranges from 1.36% to 20%`: a pair a range verb leads is a span, no change from one to the other
RANGE_FROM = re.compile(r"\b(?:rang(?:e|es|ed|ing)|var(?:y|ies|ied|ying)|span(?:s|ned|ning)?)\s+from\s*$", re.I)


# Whose number it is, of names a table's column groups give (`HBase`, `Cassandra`): a name a comparison sets against
# (`than`, `比`) owns only a number right after it (`than Cassandra's 747 ms`, `than OpenBLAS at 0.9327 s`, `比
# Cassandra 的 747 ms`); a name after the number in its clause owns it through `for`, `on`… (`7 ms for HBase`) or
# right after it (`343 output tokens`); names joined as a list (`HBase and Cassandra`) give no one number a name.
_SET_AGAINST_BEFORE = re.compile(
    r"(?:\bthan|\bagainst|\bversus|\bvs\.?|\bover|\babove|\bbelow|\bcompared (?:with|to)|\brelative to"
    r"|\btimes(?: th(?:at|ose) of)?"
    r"|比|相比于?|相对于?|相较于?|对比)"
    r"[ \u00a0]*(?:the[ \u00a0]+)?$",
    re.I,
)
# `与默认读路径相比`, `约为创建帖子的 1.35 倍`: the name compared with, or the base of a multiple
_SET_AGAINST_AFTER = re.compile(
    r"[ \u00a0]*(?:相比|相较|比较|的?[ \u00a0]*约?[ \u00a0]*\d[\d.,]*[ \u00a0]*(?:倍|%|x\b|×))"
)
_OWNED_AFTER = re.compile(
    r"(?:['\u2019]s\b|(?<=s)['\u2019])?[ \u00a0]*(?:的|[(\uff08:\uff1a=]|\b(?:at|with|of|in|on)\b)?[ \u00a0]*"
    r"(?:[A-Za-z][\w.-]*[ \u00a0]+){0,2}"  # (the metric's words between: `against Cassandra min 747 ms`)
    r"(?:about|around|roughly|only|just|约|仅)?[ \u00a0]*"
)
_FOR_BEFORE = re.compile(r"\b(?:for|on|in|under|using|by)[ \u00a0]+(?:the[ \u00a0]+)?$", re.I)
_IS = re.compile(r"[ \u00a0]+(?:is|are|was|were)[ \u00a0]+(?:the[ \u00a0]+)?", re.I)  # `of which 17.6 GB is weights`
_JOINED = re.compile(r"[ \u00a0]*(?:[,、/&\uff0c]|\band\b|\bor\b|\bvs\.?|\bversus\b|和|与|及|对比?)[ \u00a0]*", re.I)


def _named(text: str, start: int, end: int, names: list[frozenset[str]]) -> list[tuple[int, int, int]]:
    """Where `text[start:end]` names one of `names`: (start, end, which) of each word."""
    chunk = text[start:end]
    low = chunk.lower()
    if not any(w in low for words in names for w in words):
        return []  # (most sentences name none: no need to read their words)
    found = []
    for tok, pos in _spots(chunk, start):
        # (an English word meets a Chinese label through the glossary: `response` names a `响应时间` row)
        said = stems((tok,)) | context_tokens(tok) if tok.isascii() else stems((tok,))
        k = next((i for i, words in enumerate(names) if not said.isdisjoint(words)), None)
        if k is not None:
            found.append((pos, pos + len(tok), k))
    return found


@lru_cache(maxsize=1024)
def _spots(chunk: str, lo: int) -> tuple[tuple[str, int], ...]:
    """`positions` of a full sentence, read once for every table whose systems a number of it is tried on."""
    return tuple(positions(chunk, lo))


def _named_after(text: str, lo: int, q: Quantity, sent: Sentence, found: list[tuple[int, int, int]],
                 nxt: Quantity | None) -> int | None:  # fmt: skip
    """The name of `found` that `q`'s own clause gives it after it: through `for`, `on`… (`7 ms for HBase`), `is`
    (`17.6 GB is weights`) or right after it (`343 output tokens`)."""
    part = OWN_CLAUSE.search(text, q.end, sent.end)
    stop = min(part.start() if part else sent.end, nxt.start if nxt else sent.end)
    for s, _, k in found:
        if q.end <= s < stop and (
            _FOR_BEFORE.search(text, max(lo, s - 16), s) or not text[q.end : s].strip() or _IS.fullmatch(text, q.end, s)
        ):
            return k
    return None


def owner(text: str, lo: int, q: Quantity, sent: Sentence, names: list[frozenset[str]]) -> int | None:
    """Which of `names` (each a group's words, stemmed) number `q` of `sent` belongs to, reading its full sentence from
    `lo`: the one its own clause gives it after it (`7 ms for HBase`), else the one named nearest before it (`HBase
    reads in 7 ms; Cassandra needs 747 ms`, `HBase's … 7 to 1669 ms against Cassandra's 747 to 8387 ms`; a clause
    naming none keeps the one before it); None where they name none or a list of them."""
    found = _named(text, lo, sent.end, names)
    if not found:
        return None
    nxt = next((o for o in sent.quantities if o.start >= q.end and not o.exempt), None)
    if nxt is not None and CHANGE_RE.fullmatch(text, q.end, nxt.start) and not RANGE_FROM.search(text, lo, q.start):
        return None  # (`在并行读补丁下把读带宽从 0.98 GB/s 提升至 5.23 GB/s`: a change starts from the state before)
    after = _named_after(text, lo, q, sent, found, nxt)
    if after is not None:
        return after
    before = [(s, e, k) for s, e, k in found if e <= q.start]
    bases = {k for s, e, k in before
             if _SET_AGAINST_BEFORE.search(text, max(lo, s - 16), s) or _SET_AGAINST_AFTER.match(text, e)}  # fmt: skip
    live = [(s, e, k) for s, e, k in before if k not in bases or _OWNED_AFTER.fullmatch(text, e, q.num_start)]
    if not live:
        return None
    s, e, k = live[-1]
    if any(j != k and (_JOINED.fullmatch(text, b, s) or _JOINED.fullmatch(text, e, a)) for a, b, j in found):
        return None
    prev = next((o for o in reversed(sent.quantities) if o.end <= q.start and not o.exempt), None)
    if (
        prev is not None
        and e <= prev.start
        and (_VERSUS.match(gap := text[prev.end : q.start]) or _VS_CJK.fullmatch(gap))
    ):
        # the side set against the first (`coro_rpc 比 brpc 高:… 2523798 对 1889515`) is the name compared with
        return next(iter(bases - {k})) if len(bases - {k}) == 1 else None
    return k


# `Login rises to 0.787 s and the total to 4.137 s`: each number the end of its own subject's change, no from→to pair
_TO_BEFORE = re.compile(r"(?:\bto\b|至|到)[ \u00a0]*$", re.I)
_NEW_SUBJECT_TO = re.compile(
    r"[ \u00a0]*[,\uff0c]?[ \u00a0]*(?:\band\b|\bwhile\b|\bwhereas\b|而|和|与|、)[ \u00a0]*"
    r"(?!(?:then|later|finally|eventually|further|again)\b|再|又|最终|随后)[^\d,;\uff0c\uff1b。]*?[A-Za-z\u4e00-\u9fff]"
    r"[^\d,;\uff0c\uff1b。]*?(?:\bto\b|至|到)[ \u00a0]*",
    re.I,
)


def two_ends(text: str, a: Quantity, b: Quantity, lo: int) -> bool:
    """Whether `a` and `b` are each the end of its own subject's change (`Login rises to 0.787 s and the total to
    4.137 s`): `a` follows a `to` and a conjunction brings in a new subject before `b`'s `to`. Such a pair states no
    change from `a` to `b`."""
    return bool(_TO_BEFORE.search(text, max(lo, a.start - 12), a.start)) and bool(
        _NEW_SUBJECT_TO.fullmatch(text, a.end, b.start)
    )


_NAMED_BASE = re.compile(r"([A-Za-z][A-Za-z0-9]+)[ \u00a0]*(?:baseline|基线)", re.I)
BASELINE = frozenset({"基线", "baseline"})  # the words of a baseline's labels (the glossary makes one of the other)


# The words right before a number that label it: a CJK run of two or more characters, or a metric's acronym (`EPS`,
# `PB`), past the members of a list the number ends (`EPS 分别为 6.02/6.26`), the fillers (`分别`, `对应`) and the
# verbs and particles between a term and its value (`为`, `约`, `达`, a colon, a log's `=`).
_PARTICLES = "为是约达至的超仅在了"  # the verbs and particles between a term and its value
_LABEL_FILLER = frozenset(["分别", "对应", "预计", "约为", "达到", "同比"])
_LABEL_BEFORE = re.compile(
    rf"([\u3400-\u9fff]{{2,}}?|(?<![A-Za-z])[A-Z]{{2,5}}(?![a-z]))(?:{'|'.join(sorted(_LABEL_FILLER))}|[{_PARTICLES}:：=]|\s)*"
    rf"(?:[\d.,]+\s*[/、]\s*)*$"
)


def label_term(text: str, num_start: int) -> str | None:
    """The term printed right before a number (`目标价 38.50 元` → `目标价`, `EPS 分别为 6.02` → `EPS`), None without
    one."""
    span = label_span(text, num_start)
    return text[span[0] : span[1]] if span else None


def label_span(text: str, num_start: int) -> tuple[int, int] | None:
    """Where `label_term`'s term stands in `text`."""
    m = _LABEL_BEFORE.search(text, max(0, num_start - 40), num_start)
    if m is None or m.group(1) in _LABEL_FILLER:
        return None
    return m.start(1), m.end(1)


_PARTS = re.compile(r"\b(?:against|versus|vs\.?)(?!\w)", re.I)


def own_terms(sent: Sentence, qs: list[Quantity], text: str) -> list[frozenset[str]]:
    """The words that belong to each of `qs` (numbers of `sent`) alone: those of its clause (split at `,` `;` `、`
    `and` `while` `而`) between the number of its kind before it and the one after it. Shared words decide nothing
    between a sentence's numbers: the lead of a clause holding two numbers (`在并行读补丁下把读带宽从 0.98 GB/s 提升至
    5.23 GB/s`) is both numbers' subject; `batch=4` in `batch=4 的峰值 1399.08 MiB/s` is a word, not a number of its
    kind."""
    seps: list[tuple[int, int]] = []
    for m in OWN_CLAUSE.finditer(text, sent.start, sent.end):
        lo = seps[-1][1] if seps else sent.start
        if m.group() == "with" and not any(lo <= o.start < m.start() and not o.exempt for o in sent.quantities):
            continue  # `with` parts a number from the next (`averaged 927 with a maximum of 1997`), not a name from
            # its number (`trained on PubTabNet with 395k samples`)
        seps.append((m.start(), m.end()))
    ends = [e for _, e in seps]
    starts = [st for st, _ in seps]
    where = sorted(sent.where, key=lambda tp: tp[1])
    at = [pos for _, pos in where]
    out = []
    for q in qs:
        kin = _kin(q, sent, text)
        live = [o for o in sent.quantities
                if o is q or (not o.exempt and o.unit == q.unit and _kin(o, sent, text) == kin)]  # fmt: skip
        i = next(k for k, o in enumerate(live) if o is q)
        k = bisect_right(ends, q.start)
        clause = ends[k - 1] if k else sent.start
        k = bisect_left(starts, q.end)
        ce = starts[k] if k < len(starts) else sent.end
        prev = live[i - 1] if i > 0 else None
        nxt = live[i + 1] if i + 1 < len(live) else None
        cs = max(clause, prev.end) if prev is not None else clause
        if nxt is not None:
            if (close := _closes(text, q.end, min(ce, nxt.start))) is not None:
                ce = close  # (`A72(…,实际 1.8GHz)和四个 A53(标称 1.5GHz`: the words after its aside lead the next one)
            if nxt.start < ce and (prev is None or prev.end <= clause):
                cs = q.start  # the first number of a clause with more: its lead is the clause's, not its own
            ce = min(ce, nxt.start)
        # The term printed right before a number names it (`窗口大小:60 s 窗口总耗时 3.93 s`): the next number's is not
        # this one's, and this one's is its own even before the clause (a list item's `窗口大小:` lead).
        theirs = label_span(text, nxt.num_start) if nxt is not None else None
        if theirs is not None and theirs[0] > q.end:
            ce = min(ce, theirs[0])
        mine = label_span(text, q.num_start)
        if mine is not None and sent.start <= mine[0] < clause and (prev is None or mine[0] >= prev.end):
            cs = mine[0]  # (a term inside the clause is its lead, both numbers' subject: `读带宽从 0.98 GB/s 提升至 …`)
        # `143 ms in Run 1 against 112 ms in Run 2`: the words before `against` are the first number's, those after
        # it the second's
        if nxt is not None and (part := _PARTS.search(text, q.end, nxt.start)) is not None:
            ce = min(ce, part.start())
        if prev is not None and (ms := list(_PARTS.finditer(text, max(cs, prev.end), q.start))):
            cs = max(cs, ms[-1].end())
        # a possessive names its own number alone (`从 TiKV 的 286,240 提升到 TideKV 的 412,060`), not the one before
        if nxt is not None and (p := _possessor_at(text, nxt.start, q.end)) is not None:
            ce = min(ce, p)
        if (p := _possessor_at(text, q.start, prev.end if prev is not None else sent.start)) is not None:
            cs = min(cs, p)
        lo, hi = bisect_left(at, cs), bisect_left(at, ce)
        out.append(kinds(frozenset(tok for tok, pos in where[lo:hi] if not q.start <= pos < q.end)))
    return out


def aside(text: str, start: int, end: int) -> int | None:
    """Where a parenthesis opens in `text[start:end]` that is still open at `end` (`3.78 s（用户态时间 3.15 s）`: the
    aside and its words belong to the number inside it, not to the one before it)."""
    p = max(text.rfind("(", start, end), text.rfind("\uff08", start, end))  # ( or its full-width form
    if p < 0 or ")" in text[p:end] or "\uff09" in text[p:end]:
        return None
    return p


def _closes(text: str, start: int, end: int) -> int | None:
    """Where a parenthesis the number at `start` stands in closes before `end` (none opening first), or None."""
    for k in range(start, end):
        if text[k] in "(\uff08":
            return None
        if text[k] in ")\uff09":
            return k
    return None


def kinds(words: frozenset[str]) -> frozenset[str]:
    """`words` with the other words of each kind they name (`lowest` → `min`, `最低`; `on average` → `avg`)."""
    for group in SYNONYMS:
        if not words.isdisjoint(group):
            words |= group
    return words


def _kin(q: Quantity, sent: Sentence | None = None, text: str = "") -> bool:
    """Whether a number without a unit is a measure (a decimal) rather than a key or a count; a whole number set
    against a decimal (`1 on the A53 against 2.9 on the A72`) measures the same thing."""
    if q.unit or (q.value is not None and q.value != int(q.value)):
        return True
    if sent is None or q.exempt or q.value is None:
        return False
    for o in sent.quantities:
        if o is q or o.exempt or o.unit or o.value is None or o.value == int(o.value):
            continue
        if set_against_each_other(sent, text, q, o) if o.start >= q.end else set_against_each_other(sent, text, o, q):
            return True
    return False


def set_against_each_other(sent: Sentence, text: str, a: Quantity, b: Quantity) -> bool:
    """Whether `against`, `vs` or `对` sets number `a` against the later `b` within one clause, no number between
    (`2.9 on the A53 against 1 on the A72`)."""
    lo, hi = a.end, b.start
    return (0 <= hi - lo <= 30 and bool(_AGAINST_WORD.search(text, lo, hi)) and not _CLAUSE_BREAK.search(text, lo, hi)
            and not any(lo <= m.start < hi and not m.exempt for m in sent.quantities))  # fmt: skip


_AGAINST_WORD = re.compile(r"\bagainst\b|\bvs\b|\bversus\b|对", re.I)
_CLAUSE_BREAK = re.compile(r"[,;:。\uff0c\uff1b\uff1a]")


# (every comma, a thousands one too: the clause words of a sentence lean on it; a report sentence's cut where a
# number must stay whole skips it, `check._up_to_clause`)
OWN_CLAUSE = re.compile(r"[,;:\uff0c\uff1b\uff1a、]|\band\b|\bwhile\b|\bwith\b|而|以及|并且")


# What the words around a derived number say it is: a fall, a rise, a gap (a difference needs words saying so).
_DOWN = re.compile(
    r"降低|下降|降幅|降至|缩短|减少|减小|节省|节约|少了|低了|快了|fell|falls?|drop|lower|reduc|decreas|shorter|"
    r"less|cut|sav|(?<![-\w])down\b",
    re.I,
)
_UP = re.compile(
    r"提升|提高|增加|增长|增幅|上升|升至|多了|高了|rose|rises?|gain|higher|increas|grow|more|improv|longer|\blift|\bboost|"
    r"(?<![-\w])up\b(?![ \u00a0]+to\b)",  # `up 12%`, `lifts … by`; never `up to` (a bound) nor `speed-up` (a ratio)
    re.I,
)
_GAP = re.compile(
    r"相差|差距|差值|差了|少|多|快|慢|缩短|节省|节约|减少|降低|提升|提高|增加|高出|低于|高于|lower by|higher by|"
    r"faster|slower|quicker|less|more|fewer|longer|shorter|above|below|ahead|behind|span|spread|apart|"
    r"difference|gap|sav|by\b|跨度|温差|超出|领先|落后",
    re.I,
)


def wording(text: str) -> tuple[str | None, bool]:
    """The direction a change is stated in (`down`, `up` or None when the words say neither or both) and whether
    they state a difference at all."""
    down, up = bool(_DOWN.search(text)), bool(_UP.search(text))
    return ("down" if down and not up else "up" if up and not down else None), bool(_GAP.search(text))


def roles(sent: Sentence, qs: list[Quantity], text: str, list_lead: str = "") -> dict[int, frozenset[str]]:
    """Words a pair's wording gives its numbers (by index in `qs`): `from A to B` makes A the baseline's and B the
    new one's, `A instead of B` (against, than, vs) B the baseline's. The baseline's words are `baseline`, `基线`, the
    name the sentence gives it (`an NFS baseline`) and the side after `vs` of the sentence's `X vs Y`; the new one's
    the side before it. Two names joined by an arrow before the sentence's first pair, or else in `list_lead` (the
    paragraph leading into a list item), name the two sides of each arrow or from→to pair in that order."""
    out: dict[int, frozenset[str]] = {}
    pairs: list[tuple[int, bool]] = []  # (index of the first number, whether it is `from A to B`)
    for k in range(len(qs) - 1):
        a, b = qs[k], qs[k + 1]
        gap = text[a.end : b.start]
        if _AND.fullmatch(gap) and _BETWEEN.search(text, max(sent.start, a.start - 12), a.start):
            out[k], out[k + 1] = _LOW, _HIGH  # `between -269 °C and -62 °C`: the lowest, then the highest
        elif _BEFORE_AFTER.fullmatch(gap) and _FROM.search(text, max(sent.start, a.start - 16), a.start):
            pairs.append((k, True))
            if _BARE_TO.fullmatch(gap) and not (
                _DOWN.search(whole := text[sent.start : sent.end]) or _UP.search(whole)
            ):
                out[k], out[k + 1] = _LOW, _HIGH  # `Nonmetals, from -253 °C to 4827 °C`: a span, lowest first
        elif (_VERSUS.match(gap) or _VS_CJK.fullmatch(gap)) and bool(a.unit) == bool(b.unit):
            pairs.append((k, False))  # (`Run 1 against 112 ms`: a run's number is set against no latency)
    _respective(sent, qs, text, out)
    _named_respectively(sent, qs, text, out)
    _declared_order(sent, qs, text, list_lead, out)
    _the_two(sent, qs, text, out)
    if not pairs:
        return out
    # (the full sentence up to this clause: `…: patch vs. default path: bandwidth from A to B; TTFT from C to D`)
    lead = max((m.end() for m in FULL_END.finditer(text, 0, sent.start)), default=0)
    said = text[lead : sent.end]
    base = set(BASELINE)
    low = said.lower()
    if "baseline" in low or "基线" in said:
        base |= {m.group(1).lower() for m in _NAMED_BASE.finditer(said)}
    # `coro_rpc 比 brpc 高`, `0.007 above HTML's 0.927`: the name a comparative sets against is the baseline's side
    for m in _CMP_NAME.finditer(said):
        base |= context_tokens(m.group(1))
    new: frozenset[str] = frozenset()
    vs = _SIDES.search(said) if "vs" in low or "versus" in low or "对比" in said else None
    if vs is not None:
        new = context_tokens(vs.group(1))
        base |= context_tokens(vs.group(2)) - new
        new -= base
    old = frozenset(base)
    for k, from_to in pairs:
        a_words, b_words = (old, new) if from_to else (new, old)
        out[k], out[k + 1] = out.get(k, frozenset()) | a_words, out.get(k + 1, frozenset()) | b_words
    return out


# `(brpc → coro_rpc)`: two names in the order the pairs that follow give their values
_NAME = r"[A-Za-z\u4e00-\u9fff][\w&.+\-\u4e00-\u9fff]{0,29}"
_DECLARED = re.compile(rf"({_NAME})[ \u00a0]*(?:→|->|⟶|=>)[ \u00a0]*({_NAME})")
_ARROW = re.compile(r"[ \u00a0]*(?:→|->|⟶|=>)[ \u00a0]*")


def _declared_order(sent: Sentence, qs: list[Quantity], text: str, lead: str,
                    out: dict[int, frozenset[str]]) -> None:  # fmt: skip
    """`各消息大小的极限 QPS(brpc → coro_rpc):` over `- 4B:4987564 → 20228649`: where the sentence before its first
    pair, or else the paragraph leading into its list, names two systems joined by an arrow, each value of an arrow
    pair (`A → B`, `从 A 到 B`) takes the name in that place."""
    pairs = [k for k in range(len(qs) - 1) if _ARROW.fullmatch(text, qs[k].end, qs[k + 1].start)
             or (_BEFORE_AFTER.fullmatch(text[qs[k].end : qs[k + 1].start])
                 and _FROM.search(text, max(sent.start, qs[k].start - 16), qs[k].start))]  # fmt: skip
    if not pairs:
        return
    m = _DECLARED.search(text, sent.start, qs[pairs[0]].start) or _DECLARED.search(lead)
    if m is None or m.group(1).lower() == m.group(2).lower():
        return
    first, second = context_tokens(m.group(1)), context_tokens(m.group(2))
    first, second = first - second, second - first
    for k in pairs:
        out[k], out[k + 1] = out.get(k, frozenset()) | first, out.get(k + 1, frozenset()) | second


# `the two trackers`, `both systems`: the two names the sentence before gave numbers to
_THE_TWO = re.compile(r"\b(?:the two|both)[ \u00a0]+[a-z]+s\b", re.I)
_NAME_NUMBER = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9-]*[A-Z0-9])(?:[ \u00a0]+[a-z]+)?[ \u00a0]+\d")


def _the_two(sent: Sentence, qs: list[Quantity], text: str, out: dict[int, frozenset[str]]) -> None:
    """`KCF took 60ms/frame and DSST 80ms/frame. On one A72 core the two trackers need 45 vs 47 ms/frame`: where a
    sentence speaks of `the two` things the full sentence before it named, each before a number of its own (two
    names, in order), each side of its `vs`, `against` or arrow pairs takes the name in that place."""
    m = _THE_TWO.search(text, sent.start, sent.end)
    if m is None:
        return
    ends = [0] + [e.end() for e in FULL_END.finditer(text, 0, sent.start)]
    if len(ends) < 2:
        return
    names = list(dict.fromkeys(n.group(1) for n in _NAME_NUMBER.finditer(text, ends[-2], ends[-1])))
    if len(names) != 2 or names[0].lower() == names[1].lower():
        return
    first, second = context_tokens(names[0]), context_tokens(names[1])
    first, second = first - second, second - first
    for k in range(len(qs) - 1):
        a, b = qs[k], qs[k + 1]
        if a.start < m.end() or a.unit != b.unit:
            continue
        gap = text[a.end : b.start]
        if _VERSUS.match(gap) or _VS_CJK.fullmatch(gap) or _ARROW.fullmatch(gap):
            out[k], out[k + 1] = out.get(k, frozenset()) | first, out.get(k + 1, frozenset()) | second


_AND = re.compile(r"[^,;:。,;:\d]{0,8}?(?:\band\b|和|与|至|到)[^,;:。,;:\d]{0,4}", re.I)
_BETWEEN = re.compile(r"(?:\bbetween|介于)[^,;:。,;:\d]{0,6}$", re.I)
_LOW, _HIGH, _MEAN = SYNONYMS = KINDS  # words of one kind of figure (a column `min`, `最低价`, `lowest`)
_YEARS = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*[-–~至到]\s*((?:19|20)\d\d)(?!\d)")
_LIST_SEP = re.compile(r"\s*(?:[/、,\uff0c]|\band\b|和)\s*")


def _respective(sent: Sentence, qs: list[Quantity], text: str, out: dict[int, frozenset[str]]) -> None:
    """`2025-2027 年归母净利润分别为 1,521/1,582/1,646 亿元`: a list of as many numbers as the years of a range before
    it gives each number its year (`2026`, as a column prints it: `2026E`)."""
    years = [m for m in _YEARS.finditer(text, sent.start, sent.end)]
    if not years:
        return
    k = 0
    while k < len(qs):
        j = k
        while (
            j + 1 < len(qs)
            and qs[j + 1].unit == qs[k].unit
            and _LIST_SEP.fullmatch(text, qs[j].num_end, qs[j + 1].start)
        ):
            j += 1
        n = j - k + 1
        span = next((m for m in reversed(years) if m.end() <= qs[k].start), None)
        if n > 1 and span is not None and int(span.group(2)) - int(span.group(1)) + 1 == n:
            for i in range(n):
                y = str(int(span.group(1)) + i)
                out[k + i] = out.get(k + i, frozenset()) | {y, y + "e", y + "a"}
        k = j + 1


# Names joined as a list (`LockX 与 UnlockX`, `A800 and H800`): what a list of numbers `分别`/`respectively` pairs with.
_NAME_LIST = re.compile(
    r"(?<![\w.])[A-Za-z][\w&.+\-]*(?:[ \u00a0]*(?:与|和|及|、|,|\uff0c|\band\b)[ \u00a0]*[A-Za-z][\w&.+\-]*)+"
)
_NAME_SEP = re.compile(r"[ \u00a0]*(?:与|和|及|、|,|\uff0c|\band\b)[ \u00a0]*")


def _named_respectively(sent: Sentence, qs: list[Quantity], text: str, out: dict[int, frozenset[str]]) -> None:
    """`LockX 与 UnlockX 各 366 次,AvgLat 分别为 0.005、0.002`, `A and B … 12 ms and 15 ms respectively`: a list of
    numbers the sentence says go `respectively` with as many names joined as a list gives each number its name, in
    order (the words of the other names taken away)."""
    m = _RESPECTIVE.search(text, sent.start, sent.end)
    if m is None:
        return
    zh = m.group() == "分别"
    k = next((i for i, q in enumerate(qs) if q.start >= m.end()), None) if zh else None
    if not zh:
        k = next((i for i in range(len(qs) - 1, -1, -1) if qs[i].end <= m.start()), None)
    if k is None:
        return
    a = b = k  # the run of numbers a list separator joins, around the one next to the word
    while a > 0 and _LIST_SEP.fullmatch(text, qs[a - 1].num_end, qs[a].start) and qs[a - 1].unit == qs[k].unit:
        a -= 1
    while (
        b + 1 < len(qs) and _LIST_SEP.fullmatch(text, qs[b].num_end, qs[b + 1].start) and qs[b + 1].unit == qs[k].unit
    ):
        b += 1
    n = b - a + 1
    if n < 2:
        return
    lists = [_NAME_SEP.split(x.group()) for x in _NAME_LIST.finditer(text, sent.start, qs[a].start)]
    names = next((x for x in reversed(lists) if len(x) == n), None)
    if names is None:
        return
    words = [context_tokens(x) for x in names]
    for i, w in enumerate(words):
        mine = w - frozenset().union(*(o for j, o in enumerate(words) if j != i))
        if mine:
            out[a + i] = out.get(a + i, frozenset()) | mine


# `parallel-read patch vs. default read path:`, `FX100 分层加载对比重算基线:`: a lead naming the new side, then the
# baseline (only a lead ending in `:`: a `vs` inside a clause compares the numbers around it, not the two systems)
_SIDES = re.compile(
    r"([^,;:()。\uff0c\uff1b\uff1a\uff08\uff09]{2,60}?)\s*(?:\bvs\.?|\bversus\b|对比)\s*([^,;:()。\uff0c\uff1b\uff1a\uff08\uff09\d]{2,60})(?:[(\uff08][^)\uff09]*[)\uff09])?\s*[:\uff1a]",
    re.I,
)


# Words that say how a value changed or where it is cited, never which figure it is: a swap rests on none of them
# (`由 4.85 ms 降到 3.08 ms(降低 36.5%)` is no write latency for the `降低 44.3%` of a report sentence about writes).
_NO_MEASURE = frozenset(
    {"降低", "降到", "降至", "降为", "下降", "减少", "缩短", "提升", "提高", "升至", "增至", "增长", "增加", "上升", "出处", "实测",
     "rose", "fell", "dropped", "increased", "decreased", "reduced", "improved", "from", "to", "by"}
)  # fmt: skip


def crossed(items: list[tuple[frozenset[str], list[tuple[frozenset[str], frozenset[str]]]]]) -> list[tuple[int, int]]:
    """Pairs (i, j) of numbers whose own words fit each other's figures better than their own: `items` holds each
    number's own words and, for each figure its value could be, the figure's words and its column's words (a
    table's caption names every cell, its column header only some: column words count twice). Only the words that
    tell the two numbers apart count (those one has and the other lacks); each side takes its best-fitting figure,
    and a swap is a pair whose crossed fit beats the straight one (an assignment, not each number on its own)."""
    out: list[tuple[int, int]] = []
    for i, (oi, fi) in enumerate(items):
        for j in range(i + 1, len(items)):
            oj, fj = items[j]
            a, b = oi - oj - _NO_MEASURE, oj - oi - _NO_MEASURE
            if not (a or b) or not fi or not fj:
                continue
            ai, aj, bi, bj = _fit(a, fi), _fit(a, fj), _fit(b, fi), _fit(b, fj)
            # each side's words fit the other's figures at least as well as its own (one of them better): a swap
            # both numbers' words agree on, not one side's many words outweighing the other's
            if aj + bi > ai + bj and aj >= ai and bi >= bj:
                out.append((i, j))
    return out


def plainly_crossed(items: list[tuple[frozenset[str], list[tuple[frozenset[str], frozenset[str]]]]], i: int,
                    j: int) -> bool:  # fmt: skip
    """Whether numbers i and j of `items` (as `crossed` takes them) are each named better by the other's figures than
    by their own, both strictly (`recall is 10,000 … a subset of 0.80 images`): what a swap of two bare numbers of
    different kinds needs, where no shared table says they measure one thing."""
    (oi, fi), (oj, fj) = items[i], items[j]
    a, b = oi - oj, oj - oi
    if not (fi and fj):
        return False
    ai, aj, bi, bj = _fit(a, fi), _fit(a, fj), _fit(b, fi), _fit(b, fj)
    # (or one side's words name nothing of its own figures, only the other's, and the other side's name the first
    # one's figure as well as their own: `45 degrees front to back and 30 degrees left to right` over a left-and-right
    # 45, where a fist's `front, back, left and right … 30 degrees` fits the 30 as well)
    return (aj > ai and bi > bj) or (ai == 0 < aj and bi >= bj > 0) or (bj == 0 < bi and aj >= ai > 0)


def _fit(words: frozenset[str], figs: list[tuple[frozenset[str], frozenset[str]]]) -> int:
    return max(len(words & f) + len(words & col) for f, col in figs) if words else 0


# `36%, 53%, and 64% for conversation, tool&agent, and synthetic workloads, respectively`: a list of numbers and a
# list of as many names, paired in order. The gap between two numbers of a list (a unit may stand before it).
_LIST_GAP = re.compile(r"[ \u00a0]*[A-Za-z%×/]{0,6}[ \u00a0]*(?:,[ \u00a0]*(?:and[ \u00a0]+)?|and[ \u00a0]+|[、,\uff0c和与及/])[ \u00a0]*",
                       re.I)  # fmt: skip
_LIST_NUM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")
_UNIT_AFTER = re.compile(r"[ \u00a0]?(?:%|×|[A-Za-z]+/[A-Za-z]+|[A-Za-z]{1,3})(?![A-Za-z])")
_RESPECTIVE = re.compile(r"\brespectively\b|分别", re.I)
_ITEM_SEP = re.compile(r",[ \u00a0]*(?:and[ \u00a0]+)?|[ \u00a0]+and[ \u00a0]+|[、,\uff0c和与及]")
# The words that lead into a list of names (`on the A800 …`, `for conversation …`, `of 4×200 Gbps …`): the first
# name starts after the last of them.
_LEAD_IN = re.compile(r".*\b(?:on|for|of|in|at|under|with|than|by)\b(?:[ \u00a0]+the\b)?", re.I | re.S)


def _num_list(text: str, nums: list[tuple[int, int, str]], i: int) -> tuple[int, int]:
    """The run of numbers (first, last index) around `nums[i]` that only list separators join."""
    a = b = i
    while a > 0 and _LIST_GAP.fullmatch(text, nums[a - 1][1], nums[a][0]):
        a -= 1
    while b + 1 < len(nums) and _LIST_GAP.fullmatch(text, nums[b][1], nums[b + 1][0]):
        b += 1
    return a, b


@lru_cache(maxsize=4096)
def respective(quote: str, raw_num: str) -> tuple[int, tuple[float, ...], tuple[frozenset[str], ...] | None] | None:
    """A report sentence's list of numbers holding `raw_num` (its only occurrence): its index there, the list's
    values, and each name's own words (those no other name of the list has) when the sentence pairs the list with
    as many names — `respectively` / `分别` after it, or `最高/最低 41.88 / 28.63` — else None for the names. None
    when `raw_num` stands in no list of the sentence or more than once."""
    nums = [(m.start(), m.end(), m.group()) for m in _LIST_NUM.finditer(quote)]
    where = [k for k, (_, _, n) in enumerate(nums) if n == raw_num]
    if len(where) != 1:
        return None
    a, b = _num_list(quote, nums, where[0])
    n = b - a + 1
    if n < 2:
        return None
    values = tuple(float(x) for _, _, x in nums[a : b + 1])
    return where[0] - a, values, _names(quote, nums[a][0], nums[a][1], nums[b][1], n)


def _names(quote: str, start: int, first_end: int, end: int, n: int) -> tuple[frozenset[str], ...] | None:
    """The own words of the `n` names a list of numbers (from `start` to `end`) is paired with, if it is."""
    items: list[str] = []
    slashed = _SLASHED.search(quote, 0, start)
    if slashed is not None:
        items = slashed.group(1).split("/")
    elif (resp := _RESPECTIVE.search(quote, end)) is not None:
        seg = quote[end : resp.start()]
        unit = _UNIT_AFTER.match(quote, first_end)
        if unit is not None and seg.startswith(unit.group()):
            seg = seg[unit.end() - unit.start() :]  # the last number's unit, as the first one prints it
        items = [x for s in _ITEM_SEP.split(seg) if (x := s.strip(" \u00a0,"))]
        lead = _LEAD_IN.match(items[0]) if items else None
        if lead is not None and items[0][lead.end() :].strip():
            items[0] = items[0][lead.end() :]
    if len(items) != n:
        return None
    toks = [context_tokens(s) for s in items]
    keys = tuple(t - frozenset().union(*(o for j, o in enumerate(toks) if j != k)) for k, t in enumerate(toks))
    return keys if all(keys) else None


_SLASHED = re.compile(r"((?:[^\s/\d]+/)+[^\s/\d]+)[ \u00a0]*$")  # `最高/最低 ` right before the numbers


def respective_conflict(quote: str, raw_num: str, sent: Sentence, q: Quantity, text: str) -> bool:
    """Whether claim `q` stands for another member of a report sentence's list than its figure (`raw_num` of
    `quote`). Where the report names the members (`respectively`, `最高/最低`): by the claim's place in a list of
    numbers of its own sentence, paired with those names in the order the sentence gives them (`107% and 115% more
    requests on its A800 and H800 clusters`), else by its own words (`at 190 GB/s over 4×200 Gbps`). Where it only
    lists them (`对应 PE 30、20、15 倍`): a list of the claim's sentence holding them in another order."""
    got = respective(quote, raw_num)
    if got is None:
        return False
    mine, values, keys = got
    live = [o for o in sent.quantities if not o.exempt and o.value is not None and not o.is_range
            and (o.unit == q.unit or not o.unit or not q.unit)]  # fmt: skip
    if q not in live:
        return False
    i = live.index(q)
    a, b = _num_list(text, [(o.num_start, o.num_end, "") for o in live], i)
    if keys is None:  # a list of the claim holding the same numbers must give them in the report's order
        said = [o.value for o in live[a : b + 1]]
        return len(said) == len(values) and set(said) == set(values) and i - a != mine
    if b > a:  # a list: its numbers take the names in the order the sentence gives them
        if b - a + 1 != len(keys):
            return False
        at: list[int] = []
        for k in keys:
            pos = [p for tok, p in sent.where if tok in k]
            if not pos:
                return False
            at.append(min(pos))
        if len(set(at)) != len(at):
            return False
        order = sorted(range(len(keys)), key=lambda k: at[k])
        return order[i - a] != mine
    own = own_terms(sent, [q], text)[0] or cell_words(sent)
    hit = [k for k, words in enumerate(keys) if not own.isdisjoint(words)]
    if not hit and sent.extra:
        return True  # an article table's cell names its member by its row label: one naming none is no member
    return len(hit) == 1 and hit[0] != mine


def cell_words(sent: Sentence) -> frozenset[str]:
    """An article table cell's words for naming a list's member: its row label and column header (a cell's text
    holds no words of its own); none for a sentence of prose."""
    return context_tokens(sent.extra) if sent.extra else frozenset()


# `24.824 ms, or about 0.025 s`, `1399.08 MiB/s(约 1.37 GiB/s)`: the next number says the same in other words.
_RESTATE = re.compile(
    r"[ \u00a0]*(?:[,\uff0c][ \u00a0]*(?:or|i\.e\.|that is|即|约合|折合)?|[(\uff08]|\bor\b)[ \u00a0]*"
    r"(?:about|around|roughly|approximately|nearly|约|约合|大约|近|≈|~)?[ \u00a0]*",
    re.I,
)


_UNIT_TAIL = re.compile(r"^\D*[\d,.]+")  # a number's text up to its last digit: what is left is its printed unit


def restatement(sent: Sentence, q: Quantity, text: str) -> Quantity | None:
    """The number right after `q` that restates it in another unit of its kind (`or about 0.025 s`, `约合 33.04 亿元`),
    or a bare count rounded to a magnitude (`438,920,约 43.9 万`), if any."""
    after = next((o for o in sent.quantities if o.start >= q.end and not o.exempt), None)
    if not q.unit:
        # `438,920,约 43.9 万`: a bare count said again in a magnitude word right after it (`约 38.9 万` there
        # restates it wrongly: `_restated_apart`)
        if after is None or not after.magnitude or after.unit:
            return None
        return after if _RESTATE.fullmatch(text, q.end, after.start) else None
    dim = parse_unit(q.unit).dim
    if after is None or not after.unit or parse_unit(after.unit).dim not in (dim, dim.removesuffix("/frame")):
        return None  # (`1715 ms/frame, about 1.7 s`: the time of a frame, in seconds)
    if after.unit == q.unit and _UNIT_TAIL.sub("", after.text).strip() == _UNIT_TAIL.sub("", q.text).strip():
        return None  # (`330,435.30 万元,约合 33.04 亿元`: another magnitude of the unit restates it too)
    if _RESTATE.fullmatch(text, q.end, after.start):
        return after
    # `Its 1,340 s start-up includes the engine build, about 22 minutes`: a rounded value in another unit set after
    # its clause, ending it, restates the number before it however many words stand between
    apposed = after.approx and after.unit != q.unit and _APPOSED.search(text, q.end, after.start)
    return after if apposed and _CLAUSE_END.match(text, after.end) else None


_APPOSED = re.compile(r"[,\uff0c][ \u00a0]*$")  # (the restatement's `about` is part of its number)
_CLAUSE_END = re.compile(r"[ \u00a0]*(?:[;；.。,，]|\[source|【|$)", re.I)
