"""Chance control, other_row (issue 14): a number replaced by another row's value of its report table must fail.

Expected figures read from the PDFs (pypdf page text): oaid_cvgesture_rk3399_perf_report.pdf p.6, `4.1 Simple
background`, FPS on different cores: 1xA53@1.42G 6, 1xA72@1.80G 14.3, 2xA72@1.80G 27.1, 4xA53@1.42G 15.5,
2xA72@1.80G+4xA53@1.42G 14.1. mooncake_fast25_kvcache_serving_paper.pdf p.10: Figure 7's labels `+62% Threshold I`,
`+40% Threshold II`, `+28% Threshold III`; §5.2.2 `Compared to vLLM, MOONCAKE increases effective request capacity
by 40% under the 200 ms threshold`; p.12 §5.4.2 `simulating a range of bandwidths from 24 Gbps to 400 Gbps`, `When
the total communication bandwidth exceeds 100 Gbps, the average TTFT remains below 2 s`.
oaid_cvgesture_rk3399_perf_report.pdf p.10: `the results are averaged from 20 different confidence level`, Avg. IoU
0.75. mineru_broker_research_report_zh.pdf p.1: `公司 22 年 1 季度产能712 万公里`, `金刚线母线直径已由 2016年的 80um
降至 2022 年上半年的 36、38、40um`. yatha_hotword_perf_report_zh.pdf p.7 (总耗时, 纯处理时间, 实际吞吐量): input3 (1x)
4.15s 1.51s 9,887 行/秒; input3_double (2x) 4.78s 2.14s 13,937 行/秒; input3_x4 (4x) 7.05s 4.41s 13,527 行/秒.
office/unit_column_zh.pdf p.1 表 1 (v1.8(基线), v2.0, 变化): 顺序读带宽 GB/s 6.42 9.87 +53.7%; 顺序写带宽 3.15 4.96;
4KB 随机读 p99 延迟 ms 2.84 1.67 -41.2%.
"""

from __future__ import annotations

from real_support import verdicts

GESTURE = "oaid_cvgesture_rk3399_perf_report.pdf"
MOONCAKE = "mooncake_fast25_kvcache_serving_paper.pdf"
BROKER = "mineru_broker_research_report_zh.pdf"
YATHA = "yatha_hotword_perf_report_zh.pdf"
ZS3 = "office/unit_column_zh.pdf"
OK = ("verified", "derived")


def test_a_range_across_rows_of_a_column_is_its_span_even_where_both_rows_are_named() -> None:
    # the earlier sentences name the one-core rows; the range's own sentence speaks of all five core sets
    body = ("On a plain wall, one A72 core reaches 14.3 FPS and one A53 core 6 FPS [source: R3]. Across the five core "
            "sets the frame rate spans {} FPS [source: R3].")  # fmt: skip
    assert verdicts(GESTURE, body.format("6–27.1"), lang="en")["6–27.1 FPS"] in OK
    for wrong in ("14.1–27.1", "14.3–27.1", "6–14.1", "6–15.5"):  # ends of other rows, not the column's lowest/highest
        assert verdicts(GESTURE, body.format(wrong), lang="en")[f"{wrong} FPS"] not in OK, wrong


def test_a_signed_percentage_of_a_chart_is_a_change_not_a_percentile_row() -> None:
    # `+28%` labels Figure 7's third threshold: no row key `28%` (as `99%` names a percentile row)
    body = "在 200 ms 的 TBT 阈值下,合成负载的有效请求容量比 vLLM 提升 {}【出处:R3】。"
    assert verdicts(MOONCAKE, body.format("40%"))["40%"] in OK
    for wrong in ("28%", "+28%"):
        assert verdicts(MOONCAKE, body.format(wrong))[wrong] not in OK, wrong


def test_a_bound_rests_only_on_a_figure_the_report_limits_the_same_way() -> None:
    # `exceeds 100 Gbps` is a lower limit; 24 and 400 Gbps are the ends of the simulated range, limits of nothing
    body = "总通信带宽超过 {} Gbps 时,平均 TTFT 保持在 2 s 以下【出处:R3】。"
    assert verdicts(MOONCAKE, body.format(100))["超过 100 Gbps"] in OK
    for wrong in (24, 400):
        assert verdicts(MOONCAKE, body.format(wrong))[f"超过 {wrong} Gbps"] not in OK, wrong


def test_averaged_over_a_count_is_no_bound() -> None:
    body = "Averaged over 20 confidence levels, the IoU is 0.75 [source: R3]."
    got = verdicts(GESTURE, body, lang="en")
    assert got["20"] in OK and got["0.75"] in OK, got


def test_a_member_of_a_list_measures_in_the_unit_printed_after_it() -> None:
    # 38 of `36、38、40um` is a wire diameter in um: no year of `公司 38 年`
    body = "公司 {} 年 1 季度金刚线产能 712 万公里【出处:R3】。"
    assert verdicts(BROKER, body.format(22))["22"] in OK
    assert verdicts(BROKER, body.format(38))["38"] not in OK


def test_a_cell_of_another_row_in_the_own_sentence_outweighs_an_earlier_items_row() -> None:
    # the item before names the 2x and 4x rows by their cells; this item's 1.51 s is the 1x row's
    body = ("- 实际吞吐量：2 倍到 4 倍数据集从 13,937 行/秒变为 13,527 行/秒【出处:R3】。\n"
            "- 完整数据集总耗时 {} s，减去 2.64 s 的初始化开销后，纯处理时间为 1.51 s【出处:R3】。\n")  # fmt: skip
    assert verdicts(YATHA, body.format("4.15"))["4.15 s"] in OK
    for wrong in ("4.78", "7.05"):
        assert verdicts(YATHA, body.format(wrong))[f"{wrong} s"] not in OK, wrong


def test_the_value_a_change_reaches_is_not_the_compared_with_sides() -> None:
    # `与 v1.8 相比 … 达到 X`: X is v2.0's; v1.8's own cell of the row (6.42, 2.84) is the baseline, not the state reached
    body = (
        "与 v1.8 相比，ZS-3 网关 v2.0 的顺序读带宽提升 53.7%，达到 {} GB/s；4KB 随机读 p99 延迟降至 {} ms【出处:R3】。"
    )
    got = verdicts(ZS3, body.format("9.87", "1.67"))
    assert got["9.87 GB/s"] in OK and got["1.67 ms"] in OK, got
    assert verdicts(ZS3, body.format("6.42", "1.67"))["6.42 GB/s"] not in OK
    assert verdicts(ZS3, body.format("9.87", "2.84"))["2.84 ms"] not in OK
    en = "Compared with v1.8, v2.0's sequential write bandwidth rose to {} GB/s [source: R3]."
    assert verdicts(ZS3, en.format("4.96"), lang="en")["4.96 GB/s"] in OK
    assert verdicts(ZS3, en.format("3.15"), lang="en")["3.15 GB/s"] not in OK


OTSL = "docling_otsl_tableformer_benchmark_p9.pdf"


def test_an_extreme_of_a_column_names_no_row_where_the_sentence_names_another() -> None:
    # Table 1 (pypdf page text): enc 6 / dec 6, OTSL 2.73 s, HTML 5.39 s, the column's largest; `the largest model`
    # is the 6-layer one, and the sentence names OTSL: 5.39 is HTML's (a row of score cells and one timed cell keeps
    # its row labels apart from its column's)
    body = "OTSL's {} s per run in the largest model is 2730 ms [source: R3]."
    assert verdicts(OTSL, body.format("2.73"), lang="en")["2.73 s"] in OK
    assert verdicts(OTSL, body.format("5.39"), lang="en")["5.39 s"] not in OK
