"""Number extraction in zh and en: every form issue #4 lists, and what is exempt."""

from __future__ import annotations

import pytest

from qc.numbers import Quantity, extract
from qc.units import compatible, parse_unit


def one(text: str) -> Quantity:
    qs = [q for q in extract(text) if q.exempt is None]
    assert len(qs) == 1, (text, qs)
    q = qs[0]
    assert text[q.start : q.end] == q.text
    return q


@pytest.mark.parametrize(
    ("text", "shown", "value", "unit", "step"),
    [
        ("TTFT 为 7.53s。", "7.53s", 7.53, "s", 0.01),
        ("TTFT is 7.53 s.", "7.53 s", 7.53, "s", 0.01),
        ("快照 65.6GB", "65.6GB", 65.6, "GB", 0.1),
        ("read 5.23 GB/s", "5.23 GB/s", 5.23, "GB/s", 0.01),
        ("吞吐 4.1 tok/s", "4.1 tok/s", 4.1, "tok/s", 0.1),
        ("加速 18 倍", "18 倍", 18, "x", 1),
        ("18x faster", "18x", 18, "x", 1),
        ("加速 1.9×", "1.9×", 1.9, "x", 0.1),
        ("单口 100 GbE", "100 GbE", 100, "Gb/s", 1),
        ("稳定性 72h", "72h", 72, "h", 1),
        ("联测 10 周", "10 周", 10, "周", 1),
        ("about 10 weeks", "about 10 weeks", 10, "周", 1),
        ("会话 29.8K token", "29.8K token", 29800, "token", 100),
        ("共 1,399 s", "1,399 s", 1399, "s", 1),
        ("规模 3.5 亿元", "3.5 亿元", 3.5e8, "元", 1e7),
        ("480B 参数", "480B", 480e9, "", 1e9),
        ("延迟 7,530 ms", "7,530 ms", 7530, "ms", 1),
        ("降幅 26%", "26%", 26, "%", 1),
        ("降幅 26％", "26％", 26, "%", 1),
        ("提升 +96%", "+96%", 96, "%", 1),
        ("变化 −5%", "−5%", -5, "%", 1),
        ("4 盘 RAID0", "4 盘", 4, "盘", 1),
        ("on 8 GPUs", "8 GPUs", 8, "GPUs", 1),
    ],
)
def test_single_quantities(text: str, shown: str, value: float, unit: str, step: float) -> None:
    q = one(text)
    assert (q.text, q.unit) == (shown, unit)
    assert q.value == pytest.approx(value)
    assert q.step == pytest.approx(step)


@pytest.mark.parametrize(
    ("text", "shown", "low", "high", "unit"),
    [
        ("TTFT 降低 26–32%", "26–32%", 26, 32, "%"),
        ("吞吐提升 29-40%", "29-40%", 29, 40, "%"),
        ("加载加速 6.2–9.3 倍", "6.2–9.3 倍", 6.2, 9.3, "x"),
        ("p50 从 10.17–35.73s", "10.17–35.73s", 10.17, 35.73, "s"),
        ("gains 26%–32%", "26%–32%", 26, 32, "%"),
        ("并发 8–16 档", "8–16 档", 8, 16, "档"),
        ("提升 8 至 16 倍", "8 至 16 倍", 8, 16, "x"),
        ("between 3 and 5 s", "3 and 5 s", 3, 5, "s"),
        ("吞吐 +29–40% 实测带内", "+29–40%", 29, 40, "%"),
    ],
)
def test_ranges(text: str, shown: str, low: float, high: float, unit: str) -> None:
    q = one(text)
    assert q.is_range and q.value is None
    assert (q.text, q.unit) == (shown, unit)
    assert (q.low, q.high) == (pytest.approx(low), pytest.approx(high))
    assert [v for v, _ in q.endpoints()] == [pytest.approx(low), pytest.approx(high)]


def test_from_to_is_a_pair_whose_first_number_takes_the_unit() -> None:
    zh = [q for q in extract("TTFT 从 10.17 降至 7.53s") if not q.exempt]
    assert [(q.text, q.unit) for q in zh] == [("10.17", "s"), ("7.53s", "s")]
    en = [q for q in extract("throughput from 4.1 to 74.9 tok/s") if not q.exempt]
    assert [(q.text, q.unit, q.is_range) for q in en] == [("4.1", "tok/s", False), ("74.9 tok/s", "tok/s", False)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the `to` closes the clause's `from`: the batch's 1 is a key, no range's end and no time
        (
            "TPOT grew from 7.0 ms at batch 1 to 25.0 ms at batch 128",
            [("7.0 ms", "ms"), ("1", ""), ("25.0 ms", "ms"), ("128", "")],
        ),
        ("from 1 to 3 threads", [("1", "threads"), ("3 threads", "threads")]),
        ("a latency of 1 to 3 ms", [("1 to 3 ms", "ms")]),
        # a run's number set against another measure is no measure itself
        ("143 ms in Run 1 against 112 ms in Run 2", [("143 ms", "ms"), ("1", ""), ("112 ms", "ms"), ("2", "")]),
        ("69 against 168 ms", [("69", "ms"), ("168 ms", "ms")]),
    ],
)
def test_keys_inside_a_change_are_no_ends_of_it(text: str, found: list[tuple[str, str]]) -> None:
    assert [(q.text, q.unit) for q in extract(text) if not q.exempt] == found


@pytest.mark.parametrize(
    ("text", "shown", "approx", "bound"),
    [
        ("加速约 18 倍", "约 18 倍", True, None),
        ("about 7.15 GB", "about 7.15 GB", True, None),
        ("~26%", "~26%", True, None),
        ("降幅 ≥25%", "≥25%", False, "≥"),
        ("at least 25%", "at least 25%", False, "≥"),
        ("up to 40%", "up to 40%", False, "≤"),
        ("超过 1000 s", "超过 1000 s", False, ">"),
        ("不超过 3 s", "不超过 3 s", False, "≤"),
    ],
)
def test_approximations_and_bounds(text: str, shown: str, approx: bool, bound: str | None) -> None:
    q = one(text)
    assert (q.text, q.approx, q.bound) == (shown, approx, bound)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("TP8 部署与 FP8 精度", ["TP8", "FP8"]),
        ("G1 到货验收 / G3 主门禁", ["G1", "G3"]),
        ("4 盘 RAID0", ["RAID0"]),
        ("AMD MI308X 与 H200", ["MI308X", "H200"]),
        ("p50 与 p90", ["p50", "p90"]),
        ("全机 TP4×2", ["TP4×2"]),
        ("见表 4-1", ["4-1"]),
        ("Qwen2.5 and v1.2.3 at 10.0.0.1", ["Qwen2.5", "v1.2.3", "10.0.0.1"]),
        ("On CPU1 A53@1.42GHz 480P", ["CPU1", "A53", "1.42GHz", "480P"]),  # a core's name, as the evidence reads it
    ],
)
def test_identifiers_are_exempt(text: str, ids: list[str]) -> None:
    found = extract(text)
    assert [q.text for q in found if q.exempt == "id"] == ids
    assert all(q.value is None for q in found if q.exempt)


@pytest.mark.parametrize(
    "text", ["发布于 2026-07-05", "2026 年 7 月 5 日发布", "7 月 5 日", "published July 5, 2026", "in 2025", "Q3 2026"]
)
def test_dates_are_exempt(text: str) -> None:
    found = extract(text)
    assert found and all(q.exempt == "date" for q in found), found


def test_citation_ids_are_exempt_and_nothing_inside_code_or_links_is_read() -> None:
    found = extract(
        "TTFT 7.53s【出处:R1/R9 实测】,见 `x = 12` 与 [报告](reports/R2.pdf#page=2) https://e.com/a/3 [source: R2]"
    )
    assert [(q.text, q.exempt) for q in found] == [
        ("7.53s", None),
        ("R1", "citation"),
        ("R9", "citation"),
        ("R2", "citation"),
    ]


def test_model_sizes_and_counts_are_quantities_for_verbatim_checks() -> None:
    found = [q for q in extract("DeepSeek-32B 在 Atlas 910B 上,AMD MI308X ×8,8×H100") if not q.exempt]
    assert [(q.text, q.value, q.count) for q in found] == [
        ("32B", 32e9, False),
        ("910B", 910e9, False),
        ("×8", 8, True),
        ("8×", 8, True),
    ]


def test_offsets_and_order_survive_mixed_text() -> None:
    text = "并发 8 档下 TTFT p50 从 10.17s 降至 7.53s;并发 16 档下从 35.73s 降至 26.35s【出处:R2 实测】。"
    found = extract(text)
    assert [q.start for q in found] == sorted(q.start for q in found)
    assert all(text[q.start : q.end] == q.text for q in found)
    assert [q.text for q in found if not q.exempt] == ["8 档", "10.17s", "7.53s", "16 档", "35.73s", "26.35s"]


def test_units_convert_and_keep_different_units_apart() -> None:
    ms, s, gb, gib, gbit = (parse_unit(u) for u in ("ms", "秒", "GB", "GiB", "Gb"))
    assert ms.dim == s.dim and 7530 * ms.factor == pytest.approx(7.53 * s.factor)
    assert compatible(gb, gib) and gb.factor != gib.factor  # both bytes, never equal within printed precision
    assert not compatible(gb, gbit)  # bytes vs bits
    assert parse_unit("倍") == parse_unit("x") == parse_unit("×")
    assert parse_unit("(亿元)").factor == 1e8 and parse_unit("K token").factor == 1e3
    assert parse_unit("disks").dim == parse_unit("盘").dim != parse_unit("卡").dim


def test_a_mean_takes_the_unit_printed_after_its_deviation() -> None:
    qs = [q for q in extract("sequential read is 23,760 ± 142 MB/s, write 15,930 MB/s") if q.exempt is None]
    assert [(q.value, q.unit) for q in qs] == [(23760, "MB/s"), (142, "MB/s"), (15930, "MB/s")]
    # only the unit right after the deviation: `12 ± 3 and 5 ms` leaves the pair unitless
    assert [(q.value, q.unit) for q in extract("latency 12 ± 3 and 5 ms") if q.exempt is None] == [
        (12, ""),
        (3, ""),
        (5, "ms"),
    ]
