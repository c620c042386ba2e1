"""Tilde ranges (`1~2s`, `1～2 秒`, `1〜2 ms`): read as one range by the extractor and checked end to end by QC."""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

import pytest

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult, NumberCheck
from qc.numbers import Quantity, extract

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy

TILDES = ["~", "～", "〜"]


def checked(text: str) -> list[Quantity]:
    return [q for q in extract(text) if q.exempt is None]


# --- extraction ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown", "low", "high", "unit", "approx"),
    [
        ("恢复时间约 1~2s。", "约 1~2s", 1, 2, "s", True),
        ("恢复时间 1～2 秒。", "1～2 秒", 1, 2, "s", False),
        ("延迟 1〜2 ms。", "1〜2 ms", 1, 2, "ms", False),
        ("latency 10 ~ 20 ms.", "10 ~ 20 ms", 10, 20, "ms", False),
        ("加速 3~5 倍", "3~5 倍", 3, 5, "x", False),
        ("降低 20%~30%", "20%~30%", 20, 30, "%", False),
        ("降低 26～32％", "26～32％", 26, 32, "%", False),
        ("recovery takes about 1~2 s.", "about 1~2 s", 1, 2, "s", True),
        ("保存 1s~2s", "1s~2s", 1, 2, "s", False),
        ("p50 从 10.17~35.73s 降至 7.53~26.35s", "10.17~35.73s", 10.17, 35.73, "s", False),
        ("写入 1,000~2,000 MB", "1,000~2,000 MB", 1000, 2000, "MB", False),
        ("用 8~16 卡", "8~16 卡", 8, 16, "卡", False),
    ],
)
def test_tilde_between_numbers_is_one_range(
    text: str, shown: str, low: float, high: float, unit: str, approx: bool
) -> None:
    q = checked(text)[0]
    assert q.text == shown == text[q.start : q.end]
    assert (q.value, q.low, q.high, q.unit, q.approx) == (None, pytest.approx(low), pytest.approx(high), unit, approx)
    assert q.bound is None and re.match(r" ?[~～〜]", text[q.low_end :])  # the low end stops before the tilde


@pytest.mark.parametrize("tilde", TILDES)
@pytest.mark.parametrize("hyphen", ["–", "-"])
def test_tilde_range_reads_like_the_hyphen_range(tilde: str, hyphen: str) -> None:
    # Same spans, endpoints, steps, unit and approx flag as the hyphen form, whichever tilde is used.
    spaced = ["{} {} {} 倍"] if hyphen == "–" else []  # a spaced ASCII hyphen is no range separator
    for form in ["约 {}{}{}s", "{}%{}{}%", "about {}{}{} GB/s", "{}{}{}万 token", *spaced]:
        a, b = "1.5", "2.25"
        hy = form.format(a, hyphen, b)
        ti = form.format(a, tilde, b)
        [qh], [qt] = checked(f"实测 {hy}【出处:R2】"), checked(f"实测 {ti}【出处:R2】")
        assert qt.text == qh.text.replace(hyphen, tilde), (hy, ti)
        for attr in ("start", "end", "low", "high", "step", "low_step", "unit", "approx", "magnitude", "low_end"):
            assert getattr(qt, attr) == getattr(qh, attr), (ti, attr)


@pytest.mark.parametrize(
    ("text", "shown", "value", "unit"),
    [("恢复时间 ~2s。", "~2s", 2, "s"), ("恢复时间～2 秒。", "～2 秒", 2, "s"), ("p50 ~2s", "~2s", 2, "s")],
)
def test_tilde_not_after_a_number_still_means_about(text: str, shown: str, value: float, unit: str) -> None:
    [q] = checked(text)
    assert (q.text, q.value, q.unit, q.approx, q.is_range) == (shown, value, unit, True, False)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("1s~2GB", [("1s", False), ("~2GB", True)]),  # different units: two numbers, the second approximate
        ("≥1s~2s", [("≥1s", False), ("~2s", True)]),  # a bound with a unit never opens a range (as for hyphens)
        ("从 1 降至 ~2s", [("1", False), ("~2s", True)]),
    ],
)
def test_tilde_that_cannot_join_a_range_stays_about(text: str, parts: list[tuple[str, bool]]) -> None:
    assert [(q.text, q.approx) for q in checked(text)] == parts
    assert not any(q.is_range for q in checked(text))


@pytest.mark.parametrize("text", ["见表 3~5", "第 1～2 章", "Table 3〜5 shows"])
def test_tilde_in_table_and_chapter_numbers_is_an_identifier(text: str) -> None:
    assert checked(text) == []
    [q] = [q for q in extract(text) if q.exempt == "id"]
    assert re.fullmatch(r"\d[~～〜]\d( 章)?", q.text)


# --- QC against a report whose figures are 1 s and 2 s --------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny() -> EvidenceIndex:
    text = "故障恢复时间:最短 1 s,最长 2 s。"
    report = Report(id="R5", title="恢复测试", date=dt.date(2026, 7, 1), access="public", file="r5.pdf",
                    sha256="0" * 64, version=1, pages=1)  # fmt: skip
    figs = [
        Figure(
            id=f"f{v}", report="R5", page=1, value=v, unit="s", raw=f"{v} s", labels=["故障恢复时间", label], quote=text
        )
        for v, label in ((1.0, "最短"), (2.0, "最长"))
    ]
    return EvidenceIndex({"R5": report}, {"R5": figs}, {"R5": [Page(report="R5", version=1, page=1, text=text)]})


def draft(body: str, evidence: str = "[R5]") -> str:
    return f"---\ntitle: 恢复\nlang: zh\ndate: 2026-07-10\nevidence: {evidence}\nanswer: 见正文。\n---\n{body}\n"


def check(text: str, index: EvidenceIndex) -> FileResult:
    return check_draft(parse_draft(text, "articles/t.md"), index)


def number(result: FileResult, text: str) -> NumberCheck:
    hits = [n for n in result.numbers if n.text == text]
    assert len(hits) == 1, (text, [(n.text, n.status) for n in result.numbers])
    return hits[0]


@pytest.mark.parametrize("shown", ["约 1~2s", "1～2 秒", "1〜2 s", "1 ~ 2 s", "1s~2s"])
def test_sourced_tilde_range_verifies(shown: str, tiny: EvidenceIndex) -> None:
    r = check(draft(f"故障恢复时间{shown}【出处:R5 实测】。"), tiny)
    n = number(r, shown)
    assert r.ok and n.status == "verified" and n.cited == ["R5"], n
    assert "1.0 s (故障恢复时间, 最短)" in n.message and "2.0 s (故障恢复时间, 最长)" in n.message
    assert [x.text for x in r.numbers if x.status not in ("exempt",)] == [shown]  # no stray bare `1` or `~2s`


@pytest.mark.parametrize(("shown", "bad"), [("1~3s", "3"), ("0.5～2 秒", "0.5"), ("约 1〜4 s", "4")])
def test_tilde_range_with_a_wrong_end_is_an_error(shown: str, bad: str, tiny: EvidenceIndex) -> None:
    r = check(draft(f"故障恢复时间{shown}【出处:R5 实测】。"), tiny)
    n = number(r, shown)
    assert not r.ok and n.severity == "error" and n.status in ("mismatch", "unsupported"), n
    assert n.message.startswith(f"{bad}: "), n.message


def test_tilde_range_outside_its_citation_scope_is_not_verified(tiny: EvidenceIndex) -> None:
    both = EvidenceIndex({**tiny.reports, "R6": tiny.reports["R5"].model_copy(update={"id": "R6"})},
                         {**tiny.figures, "R6": []}, {**tiny.pages, "R6": []})  # fmt: skip
    r = check(draft("故障恢复时间 1~2s【出处:R6 实测】。", "[R5, R6]"), both)
    assert number(r, "1~2s").status != "verified" and not r.ok


# --- QC against the example reports ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def index() -> EvidenceIndex:
    return qc_accuracy.load_index()


def _tilded(text: str, tilde: str) -> str:
    return re.sub(r"(?<=[\d%])–(?=\d)", tilde, text)


@pytest.mark.parametrize("tilde", TILDES)
@pytest.mark.parametrize("name", ["kv-zh.md", "kv-en.md", "drafter-zh.md"])
def test_clean_articles_with_tilde_ranges_check_exactly_like_hyphen_ones(
    name: str, tilde: str, index: EvidenceIndex
) -> None:
    src = (qc_accuracy.CORPUS / "clean" / name).read_text(encoding="utf-8")
    til = _tilded(src, tilde)
    assert til.count(tilde) >= 5  # the article does hold ranges to convert
    a, b = check(src, index), check(til, index)
    assert b.ok and b.summary == a.summary
    pairs = list(zip(a.numbers, b.numbers, strict=True))
    assert [(y.text, y.status, y.message) for _, y in pairs] == [
        (_tilded(x.text, tilde), x.status, x.message) for x, _ in pairs
    ]


def test_real_tilde_ranges_verify_and_derive(index: EvidenceIndex) -> None:
    body = (
        "TTFT 降低 26~32%【出处:R2 实测】。模型加载加速 6.2～9.3 倍【出处:R9 实测】。\n\n"
        "DeepSeek-32B 从 691s 降至 112s,DeepSeek-70B 加速 9.3 倍,加载时间缩短 84%〜89%【出处:R9 实测】。\n"
    )
    r = check(draft(body, "[R1, R2, R9]"), index)
    assert r.ok, [(n.text, n.status, n.message) for n in r.errors()]
    ttft = number(r, "26~32%")
    assert ttft.status == "verified" and "26.0%" in ttft.message and "32.0%" in ttft.message
    assert number(r, "6.2～9.3 倍").status == "verified"
    assert number(r, "84%〜89%").status == "derived"  # endpoints computed from the table, as for `84–89%`


@pytest.mark.parametrize(("old", "new", "bad"), [("26–32%", "26~37%", "37"), ("6.2–9.3 倍", "6.2～9.8 倍", "9.8")])
def test_real_tilde_range_with_a_changed_end_is_caught(old: str, new: str, bad: str, index: EvidenceIndex) -> None:
    src = (qc_accuracy.CORPUS / "clean" / "kv-zh.md").read_text(encoding="utf-8")
    assert old in src
    r = check(src.replace(old, new, 1), index)
    errors = r.errors()
    assert [n.text for n in errors] == [new] and errors[0].status == "mismatch"
    assert errors[0].message.startswith(f"{bad}: ")


# --- a magnitude printed once covers both ends ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "low", "low_step", "high", "step"),
    [
        ("上下文 1.5~2.25 万 token", 15_000, 1_000, 22_500, 100),
        ("上下文 1.5–2 万 token", 15_000, 1_000, 20_000, 10_000),
        ("context of 3-5K tokens", 3_000, 1_000, 5_000, 1_000),
        ("请求 2～3 亿次", 2e8, 1e8, 3e8, 1e8),
        ("上下文 1.2 万~1.8 万 token", 12_000, 1_000, 18_000, 1_000),  # printed on both ends: unchanged
    ],
)
def test_magnitude_after_the_high_end_scales_the_low_end(
    text: str, low: float, low_step: float, high: float, step: float
) -> None:
    [q] = checked(text)
    assert q.magnitude and (q.low, q.low_step, q.high, q.step) == (
        pytest.approx(low),
        pytest.approx(low_step),
        pytest.approx(high),
        pytest.approx(step),
    )


def test_magnitude_does_not_reach_a_low_end_with_its_own_unit() -> None:
    [q] = checked("写入 3 GB-5K")
    assert q.is_range and q.low == 3  # `3 GB` is no count of thousands


def test_sourced_range_with_one_magnitude_verifies_and_a_wrong_low_end_fails() -> None:
    text = "上下文长度:短 15000 token,长 22500 token。"
    report = Report(id="R7", title="上下文测试", date=dt.date(2026, 7, 1), access="public", file="r7.pdf",
                    sha256="0" * 64, version=1, pages=1)  # fmt: skip
    figs = [
        Figure(
            id=f"g{v}",
            report="R7",
            page=1,
            value=v,
            unit="token",
            raw=f"{v:g} token",
            labels=["上下文长度", k],
            quote=text,
        )
        for v, k in ((15000.0, "短"), (22500.0, "长"))
    ]
    idx = EvidenceIndex({"R7": report}, {"R7": figs}, {"R7": [Page(report="R7", version=1, page=1, text=text)]})
    good = check(draft("上下文 1.5~2.25 万 token【出处:R7 实测】。", "[R7]"), idx)
    assert good.ok and number(good, "1.5~2.25 万 token").status == "verified"
    bad = check(draft("上下文 1.2~2.25 万 token【出处:R7 实测】。", "[R7]"), idx)
    assert not bad.ok and number(bad, "1.2~2.25 万 token").severity == "error"
