"""Two numbers of one sentence swapped (issue 14, chance control): each number is checked against the words naming it.

Expected figures read from the PDFs: oaid_objecttracker_perf_report_2017-12.pdf p.5-6: 3.2.1 Single A72 CPU performance
(On CPU5 A72@1.80GHZ 480P) 45ms/frame (TrackerTLD), 47ms/frame (TrackTLD-DSST); 3.2.2 Single A53 CPU performance (On
CPU1 A53@1.42GHz 480P) 160ms/frame, 155ms/frame. oaid_cvgesture_rk3399_perf_report.pdf p.6, 4.1 Simple background:
FPS 2xA72@1.80G 27.1, 2xA72@1.80G+4xA53@1.42G 14.1, 1xA53@1.42G 6. yatha_hotword_perf_report_zh.pdf p.4: the 1/8
data set; p.7: 表观吞吐量 从 640 行/秒 → 8,462 行/秒. oaid_speechrecognition_perf_report.pdf p.5: `From the above test
cases, we can deduce that : 1.` (a list's first item). mineru_broker_research_report_zh.pdf p.1: `公司 22 年 1 季度产能712
万公里,年化产能超 2500 万公里`. office/grid_tables_zh.pdf 表 2-1: 降幅 32K 66.5%, 128K 77.7%. oaid_cvgesture_rk3399_perf_report.pdf
p.4: a palm `front and back should not go beyond 30 degrees`, `left and right should not go beyond 45 degrees`; p.5: a
fist `front, back, left and right should not go beyond 30 degrees`. yatha_hotword_perf_report_zh.pdf p.8: 窗口大小 60s
总耗时 3.93s. curvefs_release2.4_test_zh.pdf p.6 dbench: LockX 366 0.005, UnlockX 366 0.002. docling_otsl_tableformer_
benchmark_p9.pdf: PubTabNet (395k samples), FinTabNet (113k samples). pymupdf_small_table_units.pdf: Metals min 357 °C,
Metalloids min 335 °C.
"""

from __future__ import annotations

import datetime as dt

from real_support import BROKER, GESTURE, OK, OTSL, SPEECH, YATHA, verdicts

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

TRACKER = "oaid_objecttracker_perf_report_2017-12.pdf"
GRID = "office/grid_tables_zh.pdf"
CURVE = "curvefs_release2.4_test_zh.pdf"
BOILING = "pymupdf_small_table_units.pdf"


def as_printed_and_swapped(
    pdf: str, body: str, a: str, b: str, lang: str = "zh"
) -> tuple[dict[str, str], dict[str, str]]:
    """The verdicts of `body` with its two numbers as the report prints them, and swapped."""
    return verdicts(pdf, body.format(a, b), lang=lang), verdicts(pdf, body.format(b, a), lang=lang)


def test_a_key_of_a_later_clause_is_not_an_earlier_numbers() -> None:
    # `on one A53 core` is the second clause's: 160 ms/frame in the A72 clause is no A53 cell
    body = "On one A72 core the two trackers need 45 vs {} ms/frame, and on one A53 core {} ms/frame against 155 ms/frame [source: R3]."
    right, swapped = as_printed_and_swapped(TRACKER, body, "47", "160", lang="en")
    assert right["47 ms/frame"] in OK and right["160 ms/frame"] in OK
    assert swapped["160 ms/frame"] not in OK and swapped["47 ms/frame"] not in OK


def test_a_set_of_counted_cores_is_its_number_of_cores() -> None:
    # `all six cores` are 2xA72@1.80G+4xA53@1.42G: neither the one-A53 row's 6 FPS nor the two A72 cores' 27.1 FPS
    body = "All six cores together reach {} FPS on a simple background, against {} FPS for the two A72 cores alone [source: R3]."
    right = verdicts(GESTURE, body.format("14.1", "27.1"), lang="en")
    assert right["14.1 FPS"] in OK and right["27.1 FPS"] in OK
    assert verdicts(GESTURE, body.format("6", "27.1"), lang="en")["6 FPS"] not in OK
    assert verdicts(GESTURE, body.format("27.1", "14.1"), lang="en")["27.1 FPS"] not in OK


def test_a_fraction_keys_only_a_label_printing_that_fraction() -> None:
    body = "表观吞吐量从 {} 数据集的 640 行/秒升到 4 倍数据集的 8,462 行/秒【出处:R3 实测】。"
    right = verdicts(YATHA, body.format("1/8"))
    assert right["1"] in OK and right["8"] in OK
    swapped = verdicts(YATHA, body.format("8/1"))
    assert swapped["8"] not in OK or swapped["1"] not in OK


def test_the_number_of_a_lists_first_item_is_no_figure() -> None:
    # `we can deduce that : 1.` numbers the conclusion's first item; the sentence names no row of the RTF table
    assert verdicts(SPEECH, "From the above test cases the report deduces 1 [source: R3].", lang="en")["1"] not in OK


def test_a_verbatim_term_is_not_the_one_the_report_prints_after_another_term() -> None:
    body = "公司 22 年 1 季度金刚线产能 {} 万公里,年化产能超 {} 万公里【出处:R3】。"
    right = verdicts(BROKER, body.format("712", "2500"))
    assert right["712 万公里"] in OK and right["2500 万公里"] in OK
    assert verdicts(BROKER, body.format("2500", "712"))["712 万公里"] not in OK  # the report's 年化产能 is 2500 万公里


def test_the_side_after_bi_is_the_base_of_a_difference() -> None:
    # 77.7 − 66.5 = 11.2 points: 128K's fall is the higher one
    body = "上下文越长收益越大:{} 的降幅比 {} 高 11.2 个百分点【出处:R3 实测】。"
    assert verdicts(GRID, body.format("128K", "32K"))["11.2 个百分点"] in OK
    assert verdicts(GRID, body.format("32K", "128K"))["11.2 个百分点"] not in OK


def test_a_bare_number_whose_words_name_only_the_other_ones_figure_is_swapped() -> None:
    # p.4: a palm turns at most 30 degrees front and back, 45 left and right (`should not go beyond`: an upper limit);
    # p.5's fist turns at most 30 degrees every way, so it fits `30 degrees left to right` as well as the palm's 45
    body = "A palm may turn no more than {} degrees front to back and {} degrees left to right [source: R3]."
    right, swapped = as_printed_and_swapped(GESTURE, body, "30", "45", lang="en")
    assert right["no more than 30"] in OK and right["45"] in OK
    assert swapped["no more than 45"] not in OK and swapped["30"] not in OK


def test_the_term_right_before_a_number_is_its_own() -> None:
    # p.8: 窗口大小 60s, 总耗时 3.93s: `窗口总耗时` names the second number, `窗口大小:` the first
    body = "- 窗口大小：{} s 窗口总耗时 {} s，比基准多 7.7%【出处:R3 实测】。"
    right, swapped = as_printed_and_swapped(YATHA, body, "60", "3.93")
    assert right["60 s"] in OK and right["3.93 s"] in OK
    assert swapped["60 s"] not in OK and swapped["3.93 s"] not in OK


def test_numbers_given_respectively_take_the_names_in_order() -> None:
    # p.6 dbench: LockX 366 0.005, UnlockX 366 0.002 (AvgLat)
    body = "LockX 与 UnlockX 各 366 次,AvgLat 分别为 {}、{}【出处:R3】。"
    right, swapped = as_printed_and_swapped(CURVE, body, "0.005", "0.002")
    assert right["0.005"] in OK and right["0.002"] in OK
    assert swapped["0.005"] not in OK and swapped["0.002"] not in OK


def test_with_does_not_part_a_name_from_its_number() -> None:
    # p.9: PubTabNet (395k samples), FinTabNet (113k samples)
    body = "The models were then trained on PubTabNet with {}k samples and FinTabNet with {}k samples [source: R3]."
    right, swapped = as_printed_and_swapped(OTSL, body, "395", "113", lang="en")
    assert right["395k"] in OK and right["113k"] in OK
    assert swapped["113k"] not in OK and swapped["395k"] not in OK


def test_the_number_a_comparative_follows_is_the_difference() -> None:
    # Metals min 357 °C, Metalloids min 335 °C: 22 °C is the difference, 335 °C the metalloids' boiling point
    body = "The lowest metal boiling point is 357 °C, {} °C above the lowest metalloid boiling point of {} °C [source: R3]."
    right = verdicts(BOILING, body.format("22", "335"), lang="en")
    assert right["22 °C"] in OK and right["335 °C"] in OK
    assert verdicts(BOILING, body.format("335", "22"), lang="en")["22 °C"] not in OK


def test_a_whole_number_set_against_a_decimal_measures_the_same_thing() -> None:
    # p.4 Real Time Rate: 1A72@1.99G 1, 1A53@1.51G 2.9: the 1 is an RTF like the 2.9, its words after it its own
    body = "The report's conclusion rounds the first measurement ({} on the A53 against {} on the A72) [source: R3]."
    right, swapped = as_printed_and_swapped(SPEECH, body, "2.9", "1", lang="en")
    assert right["2.9"] in OK and right["1"] in OK
    assert swapped["1"] not in OK and swapped["2.9"] not in OK


def test_a_name_glued_by_a_hyphen_is_found_only_with_its_number() -> None:
    # The shape of the example report R9: `与华为 910B 模型推理`, a table row `DeepSeek-32B 691 112`; swapped,
    # `Atlas 32B, DeepSeek-910B` must not find `910B` alone
    text = "芯元一 FX100 与华为 910B 模型推理与训练性能。表 2-1 模型加载时间 DeepSeek-32B 691 112"
    figs = [Figure(id=f"f{i}", report="R3", page=1, value=v, unit="s", raw=str(int(v)), kind="cell",
                   labels=["表 2-1 模型加载时间", "DeepSeek-32B", col], quote="DeepSeek-32B 691 112")
            for i, (v, col) in enumerate([(691.0, "NFS 加载 (s)"), (112.0, "FX100 加载 (s)")])]  # fmt: skip
    rep = Report(id="R3", title="t", date=dt.date(2026, 1, 1), access="public", file="r3.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    index = EvidenceIndex(reports={"R3": rep}, figures={"R3": figs},
                          pages={"R3": [Page(report="R3", version=1, page=1, text=text)]})  # fmt: skip

    def check(a: str, b: str) -> dict[str, str]:
        body = f"On Huawei Atlas {a}, DeepSeek-{b} loaded in 112 s instead of 691 s [source: R3]."
        doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
        return {n.text.strip(): n.status for n in check_draft(parse_draft(doc, "t.md"), index).numbers}

    right = check("910B", "32B")
    assert right["910B"] in OK and right["32B"] in OK
    assert check("32B", "910B")["910B"] not in OK


def test_the_two_things_are_the_names_the_sentence_before_gave_numbers_to() -> None:
    # p.5: MultiCPU TrackTLD-KCF 60ms/frame, TrackTLD-DSST 80ms/frame; one A72: 45 (TrackerTLD), 47 (TrackTLD-DSST)
    body = ("Scheduled by the Linux kernel over all cores, KCF took 60ms/frame and DSST 80ms/frame [source: R3]. On one "
            "A72 core the two trackers need {} vs {} ms/frame [source: R3].")  # fmt: skip
    right, swapped = as_printed_and_swapped(TRACKER, body, "45", "47", lang="en")
    assert right["45"] in OK and right["47 ms/frame"] in OK
    assert swapped["47"] not in OK and swapped["45 ms/frame"] not in OK


def test_the_word_after_a_bare_number_may_name_a_column_of_scores() -> None:
    # Table 1 (6 enc and dec layers): OTSL TEDs complex 0.934; `enc=6` of p.9's prose is no TEDs score
    body = "In the {}-layer configuration OTSL scores {} TEDs on complex tables [source: R3]."
    right = verdicts(OTSL, body.format("6", "0.934"), lang="en")
    assert right["6"] in OK and right["0.934"] in OK
    assert verdicts(OTSL, body.format("0.934", "6"), lang="en")["6"] not in OK


def test_two_numbers_set_against_each_other_measure_one_thing() -> None:
    # p.4: Real Time Rate 1A72 1, 1A53 2.9; the more accurate average: 1A72 0.71, 1A53 1.36
    body = "The report's conclusion rounds the first measurement (2.9 on the A53 against {} on the A72) [source: R3]."
    assert verdicts(SPEECH, body.format("1"), lang="en")["1"] in OK
    assert verdicts(SPEECH, body.format("0.71"), lang="en")["0.71"] not in OK  # the average's A72 cell
