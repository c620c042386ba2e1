"""Reading correct articles (issue #14): a pair's unit printed once, a share `N% of` a number, a core count before a
part name (`one A72 core` is the `1xA72` row) — over the CVGesture report (RK3399), whose tables key rows by
`1xA53@1.42G` … `2xA72@1.80G+4xA53@1.42G`."""

from __future__ import annotations

import pytest
from real_support import GESTURE, check_body, verdicts

from qc.context import context_tokens
from qc.numbers import extract


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("in 69 vs 168 ms", ["ms", "ms"]),
        ("12 against 40 ms", ["ms", "ms"]),
        ("12 ms vs. 40", ["ms", "ms"]),
        ("基线 12 对 40 ms", ["ms", "ms"]),
        ("from 12 to 40 ms", ["ms", "ms"]),
        ("1.35 倍(115 对 85)", ["x", "", ""]),  # no unit printed for the pair: none is given
        ("8 vs 16 卡", ["卡", "卡"]),
    ],
)
def test_a_pair_set_against_each_other_shares_its_printed_unit(text: str, units: list[str]) -> None:
    assert [q.unit for q in extract(text) if q.exempt is None] == units


@pytest.mark.parametrize(
    ("text", "key"),
    [("One A72 core", "1xa72"), ("the two A72 cores", "2xa72"), ("两个 A72 核", "2xa72"), ("单 A53 核", "1xa53"),
     ("on 2x A72", "2xa72"), ("4 A53 cores", "4xa53"), ("1A72@1.99G", "1xa72"), ("2xA72@1.80G", "2xa72")],
)  # fmt: skip
def test_a_core_count_before_a_part_is_one_key(text: str, key: str) -> None:
    assert key in context_tokens("x " + text)


def test_a_digit_before_an_identifier_is_no_core_count() -> None:
    assert not any(t.startswith("16x") for t in context_tokens("batch 16 p50 latency"))


def test_one_core_names_the_one_core_row() -> None:
    said = "One A72 core detects a gesture in 69 vs 168 ms for one A53 core [source: R3]."
    got = verdicts(GESTURE, said, lang="en")
    assert got["69"] == got["168 ms"] == "verified"
    # the rows of four A53 cores or of all six hold other times: one A53 core's 168 is no 64
    assert verdicts(GESTURE, said.replace("168 ms", "64 ms"), lang="en")["64 ms"] == "mismatch"


def test_a_ratio_of_a_pair_with_one_unit() -> None:
    said = "One A72 core detects a gesture in 69 vs 168 ms for one A53 core, so the A53 takes about 2.4 times as long [source: R3]."
    assert verdicts(GESTURE, said, lang="en")["about 2.4 times"] == "derived"
    assert verdicts(GESTURE, said.replace("2.4", "3.4"), lang="en")["about 3.4 times"] != "derived"


@pytest.mark.parametrize(
    ("said", "pct", "lang"),
    [
        ("One A53 core alone delivers 5.2 FPS, about 31% of the 16.7 FPS of the two A72 cores [source: R3].",
         "about 31%", "en"),
        ("复杂背景下单个 A53 核为 5.2 FPS,约为两个 A72 核 16.7 FPS 的 31%【出处:R3】。", "31%", "zh"),
    ],
)  # fmt: skip
def test_a_share_of_a_number_is_part_over_whole(said: str, pct: str, lang: str) -> None:
    got = verdicts(GESTURE, said, lang=lang)
    assert got[pct] == "derived"
    assert got["16.7 FPS"] == "verified"
    wrong = said.replace("31%", "41%")
    assert verdicts(GESTURE, wrong, lang=lang)[pct.replace("31", "41")] != "derived"


def test_a_ratio_rests_on_the_operands_of_its_own_clause() -> None:
    said = ("Four A53 cores cut the detection time of one A53 core from 193 ms to 75.8 ms, a 2.5× speed-up, and reach "
            "13.2 FPS, 2.5-fold the 5.2 FPS of a single A53 [source: R3].")  # fmt: skip
    got = {n.text.strip(): n for n in check_body(GESTURE, said, lang="en").numbers}
    assert got["2.5×"].derivation is not None and got["2.5×"].derivation.startswith("193/75.8")
    # 193/75.8 rounds to 2.5 too: the fold of the frame rates is 13.2 over 5.2, the numbers of its clause
    assert got["2.5-fold"].derivation is not None and got["2.5-fold"].derivation.startswith("13.2/5.2")


CURVE = "curvefs_release2.4_test_zh.pdf"  # CurveFS 2.4.0 release test: shell listings, dbench's console table


def test_an_option_value_rests_on_the_option_as_printed() -> None:
    got = check_body(CURVE, "fsstress 以 -n 1000 -p 10 运行,dbench 以 -t 600 运行【出处:R3】。").numbers
    said = {n.text.strip(): n for n in got}
    assert all(said[t].status == "verified" and "verbatim" in said[t].message for t in ("1000", "10", "600"))
    # the two values swapped: `-p 1000` is printed nowhere, though 1000 is (as `-n 1000`)
    swapped = {
        n.text.strip(): n.status for n in check_body(CURVE, "fsstress 以 -n 10 -p 1000 运行【出处:R3】。").numbers
    }
    assert swapped["1000"] != "verified"


def test_greater_than_is_a_lower_bound() -> None:
    from qc.numbers import extract

    assert [q.bound for q in extract("when the threshold is greater than 0.7")] == [">"]
    said = ("KCF scores better when the overlap threshold is less than 0.7, and DSST when it is greater than 0.7 "
            "[source: R3].")  # fmt: skip
    got = verdicts("oaid_objecttracker_perf_report.pdf", said, lang="en")
    assert got["less than 0.7"] == got["greater than 0.7"] == "verified"


@pytest.mark.parametrize(
    ("said", "pct"),
    [
        ("A second A72 core lifts the frame rate from 14.3 to 27.1 FPS, up 89.5% [source: R3].", "89.5%"),
        ("On two A72 cores detection takes 37 ms on the simple background and 59.8 ms on the complex one, 61.6% "
         "longer [source: R3].", "61.6%"),
    ],
)  # fmt: skip
def test_up_lifts_and_longer_state_a_rise(said: str, pct: str) -> None:
    assert verdicts(GESTURE, said, lang="en")[pct] == "derived"
    over_the_larger = {"89.5%": "47.2%", "61.6%": "38.1%"}[pct]  # (b−a)/b: the base of a fall, not of a rise
    assert verdicts(GESTURE, said.replace(pct, over_the_larger), lang="en")[over_the_larger] != "derived"


def test_a_change_between_two_cells_of_the_articles_own_table() -> None:
    table = ("dbench 的部分操作统计如下【出处:R3】:\n\n| Operation | Count | AvgLat |\n|---|---|---|\n"
             "| NTCreateX | 111856 | 12.154 |\n| Close | 82175 | 9.680 |\n\n")  # fmt: skip
    got = verdicts(CURVE, table + "Close 的 AvgLat 比 NTCreateX 低 20.4%【出处:R3】。")
    assert got["20.4%"] == "derived"
    assert verdicts(CURVE, table + "Close 的 AvgLat 比 NTCreateX 低 25.6%【出处:R3】。")["25.6%"] != "derived"
    # a sentence naming only one of the rows states no change between two cells
    assert verdicts(CURVE, table + "Close 的 AvgLat 低 20.4%【出处:R3】。")["20.4%"] != "derived"


@pytest.mark.parametrize(
    ("name", "said", "right", "wrong"),
    [
        ("oaid_objecttracker_perf_report.pdf",
         "On two A72 cores KCF runs at 17 fps against 14 fps for DSST, {} faster [source: R3].", "21.4%", "17.6%"),
        (GESTURE, "Two A72 cores detect a gesture in 37 ms against 69 ms for one A72 core, {} faster [source: R3].",
         "46.4%", "86.5%"),
    ],
)  # fmt: skip
def test_faster_is_a_rise_of_a_rate_and_a_fall_of_a_time(name: str, said: str, right: str, wrong: str) -> None:
    assert verdicts(name, said.format(right), lang="en")[right] == "derived"
    assert verdicts(name, said.format(wrong), lang="en")[wrong] != "derived"  # over the other base
