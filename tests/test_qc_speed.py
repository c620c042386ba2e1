"""QC's speed-ups keep its verdicts: shared per-report preparation, cheap pre-tests before costly regexes, caches."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from evidence.models import Figure
from qc import prepare as qc_prepare
from qc.blocks import FULL_END as _FULL_END
from qc.blocks import SENT_END as _SENT_END
from qc.check import check_draft
from qc.context import DEC as _DEC
from qc.context import context_tokens as _tokens
from qc.draft import citations, parse_draft
from qc.index import EvidenceIndex
from qc.numbers import (
    ID_PREFIX_ENDS,
    ID_PREFIX_RE,
    NUM_RE,
    PREFIX_ENDS,
    PREFIX_RE,
    UNIT_RE,
    _may_end,
    extract,
    markers,
    unit_at,
)
from qc.prepare import prepare as _prepare
from qc.units import aliases

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy

CLEAN = sorted((qc_accuracy.CORPUS / "clean").glob("*.md"))


@pytest.fixture(scope="module")
def index() -> EvidenceIndex:
    return qc_accuracy.load_index()


def _sub(index: EvidenceIndex, ids: list[str], copy: bool = False) -> EvidenceIndex:
    """A sub-index as a build makes one per article: sharing the full index's lists (or copies of them)."""
    sub = index.subset(ids)
    if copy:
        sub.figures = {i: list(v) for i, v in sub.figures.items()}
        sub.pages = {i: list(v) for i, v in sub.pages.items()}
    return sub


def test_subset_keeps_the_named_order_and_shares_the_lists_and_add_takes_reports_in(index: EvidenceIndex) -> None:
    sub = index.subset(["R9", "R404", "R2", "R9"])
    assert list(sub.reports) == list(sub.figures) == list(sub.pages) == ["R9", "R2"]  # unknown and repeated ids dropped
    assert sub.figures["R2"] is index.figures["R2"] and sub.pages["R9"] is index.pages["R9"]
    sub.add(index.subset(["R1"]))
    assert list(sub.reports) == ["R9", "R2", "R1"] and sub.figures["R1"] is index.figures["R1"]
    assert list(index.subset([]).reports) == []


def test_sub_indexes_share_the_prepared_reports(index: EvidenceIndex) -> None:
    full = _prepare(index)
    sub = _prepare(_sub(index, ["R2", "R1"]))
    assert sub.by_rid["R2"] is full.by_rid["R2"] and sub.by_rid["R1"] is full.by_rid["R1"]
    assert [rp.rid for rp in sub.reports] == ["R2", "R1"]  # the sub-index's own order
    assert _prepare(_sub(index, ["R2"], copy=True)).by_rid["R2"] is not full.by_rid["R2"]  # other lists: prepared anew


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_verdicts_do_not_depend_on_which_index_prepared_a_report(path: Path, index: EvidenceIndex) -> None:
    draft = parse_draft(path.read_text(encoding="utf-8"), path)
    ids = list(draft.meta.evidence)
    shared = check_draft(draft, _sub(index, ids))
    fresh = check_draft(draft, _sub(index, ids, copy=True))
    again = check_draft(draft, _sub(index, ids))
    assert shared.model_dump() == fresh.model_dump() == again.model_dump()
    assert shared.summary["verified"] > 10


def test_figures_looked_up_by_value_in_index_order(index: EvidenceIndex) -> None:
    # A figure appended to a report is found (the preparation follows the list), and figures of equal value are
    # listed as one index-wide table sorted by value would list them: the earlier report first.
    body = "【出处:R2 实测】测得 123.45 GB。\n"
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R2]\nanswer: 见正文。\n---\n{body}"
    r2 = [*index.figures["R2"]]
    idx = EvidenceIndex(reports=dict(index.reports), figures={**index.figures, "R2": r2}, pages=dict(index.pages))
    draft = parse_draft(text, "t.md")
    assert next(n for n in check_draft(draft, idx).numbers if n.text == "123.45 GB").status == "unsupported"
    r2.append(Figure(id="x1", report="R2", page=3, value=123.45, unit="GB", raw="123.45", labels=["测得"]))
    n = next(n for n in check_draft(draft, idx).numbers if n.text == "123.45 GB")
    assert n.status == "verified" and n.source is not None and n.source.figure == "x1"


def test_figure_by_id_is_the_first_and_follows_the_lists(index: EvidenceIndex) -> None:
    first = index.figures["R2"][0]
    assert index.figure(first.id) is first
    assert index.figure("no-such-figure") is None
    figs = [*index.figures["R1"]]
    idx = EvidenceIndex(reports=dict(index.reports), figures={"R1": figs}, pages={})
    assert idx.figure("late") is None
    late = Figure(id="late", report="R1", page=1, value=1.0, raw="1")
    figs.append(late)
    assert idx.figure("late") is late
    figs.append(Figure(id="late", report="R1", page=2, value=2.0, raw="2"))
    assert idx.figure("late") is late  # the first of equal ids, as a scan would find


# The sentence-end regexes as first written (look-behinds tried at every position); the fast forms must agree.
_SENT_END_PLAIN = re.compile(
    r"[。!?;!?;]+|(?<!e\.g)(?<!i\.e)(?<!vs)(?<!al)(?<!No)(?<!Fig)(?<!approx)[.!?](?=\s|$)|\n\s*\n"
)
_FULL_END_PLAIN = re.compile(
    r"[。!?!?]+|(?<!e\.g)(?<!i\.e)(?<!vs)(?<!al)(?<!No)(?<!Fig)(?<!approx)[.!?](?=\s|$)|\n\s*\n"
)


def _samples(pieces: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def test_sentence_ends_match_the_plain_definition() -> None:
    pieces = [*"eg.iv sal NoFig approx!?;。\n \t", "e.g.", "i.e.", "vs.", "et al.", "No.", "Fig.", "approx.", "\n\n",
              " \n \n", "。。", "！", "？", "；", "7.53 s", "x. Y"]  # fmt: skip
    texts = _samples(pieces, 20000, 1) + [p.read_text(encoding="utf-8") for p in CLEAN]
    for fast, plain in ((_SENT_END, _SENT_END_PLAIN), (_FULL_END, _FULL_END_PLAIN)):
        for t in texts:
            assert [m.span() for m in fast.finditer(t)] == [m.span() for m in plain.finditer(t)], t
            a, b = len(t) // 3, 2 * len(t) // 3
            assert [m.span() for m in fast.finditer(t, a, b)] == [m.span() for m in plain.finditer(t, a, b)], t


def test_number_regexes_match_the_plain_definitions() -> None:
    num_plain = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)|\d+(?:\.\d+)?")  # `600,000,` is one number
    dec_plain = re.compile(r"\d+\.\d+")
    pieces = [*"0123456789,. a", "١٢", "３", "1,234", "12,345.6", ",000", "1,23", "1,2345", "7.53s"]
    for t in _samples(pieces, 20000, 3) + [p.read_text(encoding="utf-8") for p in CLEAN]:
        assert [m.span() for m in NUM_RE.finditer(t)] == [m.span() for m in num_plain.finditer(t)], t
        assert _DEC.sub(" ", t) == dec_plain.sub(" ", t), t


def _alternatives(pattern: str) -> list[str]:
    body = re.sub(r"\(\?P<\w+>|\(\?:|\)", "", pattern.split("[ \\u00a0]*$")[0])
    return [a.replace("\\.", ".") for a in body.split("|")]


@pytest.mark.parametrize(("regex", "ends"), [(PREFIX_RE, PREFIX_ENDS), (ID_PREFIX_RE, ID_PREFIX_ENDS)])
def test_prefix_pretest_lists_every_alternatives_last_character(regex: re.Pattern[str], ends: frozenset[str]) -> None:
    alts = _alternatives(regex.pattern)
    assert len(alts) > 10
    assert {a[-1] for a in alts} == set(ends)


def test_prefix_pretest_never_hides_a_match() -> None:
    words = _alternatives(PREFIX_RE.pattern) + _alternatives(ID_PREFIX_RE.pattern)
    pieces = [*words, *(w.upper() for w in words), " ", "\u00a0", "\n", "x", "ſ", "K", "中", "5", ",", "almoſt"]
    for t in (s + "7" for s in _samples(pieces, 20000, 2)):
        s = len(t) - 1
        pm = PREFIX_RE.search(t, max(0, s - 16), s)
        assert pm is None or _may_end(t, s, PREFIX_ENDS, True), t
        assert not ID_PREFIX_RE.search(t, max(0, s - 10), s) or _may_end(t, s, ID_PREFIX_ENDS, False), t


def test_units_looked_up_by_first_character_match_as_the_whole_alternation() -> None:
    units = sorted(aliases())
    pieces = [*units, *(u[:2] for u in units), " ", "\u00a0", "x", "5", "中", "/s", "s2"]
    for t in _samples(pieces, 20000, 3):
        for pos in range(len(t) + 1):
            a, b = UNIT_RE.match(t, pos), unit_at(t, pos)
            assert (a and (a.span(), a.group("u"))) == (b and (b.span(), b.group("u"))), (t, pos)


@pytest.mark.parametrize(
    ("text", "approx", "bound"),
    [("约 18 倍", True, None), ("about 18x", True, None), ("ABOUT 18x", True, None), ("almoſt 5 s", True, None),
     ("≥25%", False, "≥"), ("up to 5 s", False, "≤"), ("不超过 5 s", False, "≤"), ("低于 5 s", False, "<"),
     ("5 s", False, None), ("共 5 s", False, None)],
)  # fmt: skip
def test_prefixes_still_read(text: str, approx: bool, bound: str | None) -> None:
    (q,) = [q for q in extract(text) if not q.exempt]
    assert (q.approx, q.bound) == (approx, bound)


def test_identifier_prefixes_still_exempt() -> None:
    assert [q.exempt for q in extract("见表 4-1 与 Fig. 3")] == ["id", "id"]
    assert [q.exempt for q in extract("见 4-1 与 3")] == [None, None]


def test_text_without_digits_or_markers_has_nothing_to_extract() -> None:
    assert extract("没有数字的句子。") == []
    assert [q.value for q in extract("速度 ５ 倍")] == [5.0]  # a full-width digit is a digit
    assert [(q.text, q.exempt) for q in extract("见【出处:RX 实测】")] == [("RX", "citation")]


def test_markers_are_the_citations_remembered() -> None:
    for text in ("a【出处:R1/R9 实测】b [source: R2, R1] c", "no markers here", "[not a source]", "【来源:R2】"):
        assert [(s, e, list(ids)) for s, e, ids in markers(text)] == citations(text)


def test_caption_numbers_leave_the_context_in_any_case() -> None:
    # Captions are cut from a sentence's context words case-insensitively, `ı` and `ſ` (which fold to i and s) too.
    assert "3" in _tokens("speed 3 gpus")
    for text in ("see Fig. 3 speed", "see FIGURE 3 speed", "see fıg. 3 speed", "see fig. ſ3 speed", "见表 3 速度"):
        toks = _tokens(text)
        assert "3" not in toks and ("speed" in toks or "速度" in toks), (text, toks)
    assert "3" in _tokens("see fig 3 speed")  # no dot: not a caption


def test_prepared_reports_of_dropped_indexes_are_let_go() -> None:
    def fig(rid: str, i: int) -> Figure:
        return Figure(id=f"{rid}-{i}", report=rid, page=1, value=float(i), unit="s", raw=str(i))

    kept = [fig("R9", 0)]  # an index that stays alive keeps its reports prepared
    rp = _prepare(EvidenceIndex(reports={}, figures={"R9": kept}, pages={})).by_rid["R9"]
    for i in range(qc_prepare.REPORT_CACHE_KEEP + 20):
        assert _prepare(EvidenceIndex(reports={}, figures={"RX": [fig("RX", i)]}, pages={})).figs[0].f.value == i
    dropped = [k for k, e in qc_prepare.REPORT_CACHE.items() if e[0] and e[0][0].id.startswith("RX-")]
    assert len(dropped) <= qc_prepare.REPORT_CACHE_KEEP
    assert _prepare(EvidenceIndex(reports={}, figures={"R9": kept}, pages={})).by_rid["R9"] is rp
