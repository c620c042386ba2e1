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
4KB 随机读 p99 延迟 ms 2.84 1.67 -41.2%; 4KB 随机读 IOPS 182,400 265,300 +45.4%.
docling_otsl_tableformer_benchmark_p9.pdf Table 1: enc 6 / dec 6, OTSL 2.73 s, HTML 5.39 s (the column's largest).
oaid_facerecognition_rk3399_perf_report.pdf Table 5.2 (single A72, OpenBLAS, Total ms/frame): 480P 48*48 single face
67 315 383, two faces 92 737 831; Table 5.3 (two A72): 64*64 single face 168, two faces 638, 48*48 single face 252.
oaid_speechrecognition_perf_report.pdf p.5, Words Error Rate (%): A003 20, A012 7.27, B002 1.36; §5 `For different
speakers, the WERs changed from 1.4% to 20%.` yatha_hotword_perf_report_zh.pdf p.7 (表观吞吐量, 实际吞吐量):
input3_one_eighth 640 行/秒 5,925 行/秒 (单行延迟 0.169 ms); input3_quarter 0.080 ms; input3 (1x) 0.101 ms; input3_x4 (4x)
8,462 行/秒 13,527 行/秒 0.074 ms; `表观吞吐量随负载增加而显著提升(从 640
行/秒 → 8,462 行/秒)`, `实际吞吐量在大规模数据下趋于稳定,约 13,500~14,300 行/秒`; p.10 (平均值, 标准差, 变异系数):
总耗时 3.78s 0.35s 9.3%, 用户态时间 3.15s 0.06s 1.9%, 内存占用 149.9 MB 0.06 MB 0.04%; `后续运行稳定:用户态时间标准差仅
0.06s(变异系数 1.9%)`, `内存占用极其稳定:变异系数仅 0.04%`. pymupdf_small_table_units.pdf (min, max, avg): Metalloids
335 3900 741.5, Metals 357 >5000 2755.9.
"""

from __future__ import annotations

from real_support import BROKER, FACE, GESTURE, MOONCAKE, OK, OTSL, SPEECH, STORE, YATHA, ZS3, verdicts


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


def test_an_extreme_of_a_column_names_no_row_where_the_sentence_names_another() -> None:
    # `the largest model` is the 6-layer one, and the sentence names OTSL: 5.39 is HTML's (a row of score cells and
    # one timed cell keeps its row labels apart from its column's)
    body = "OTSL's {} s per run in the largest model is 2730 ms [source: R3]."
    assert verdicts(OTSL, body.format("2.73"), lang="en")["2.73 s"] in OK
    assert verdicts(OTSL, body.format("5.39"), lang="en")["5.39 s"] not in OK


def test_a_chinese_count_of_a_noun_names_the_english_rows_count() -> None:
    # 单人脸 is `single face`, 双人脸 `two faces`: an article table's row label names one of them
    table = ("| 平台与场景(OpenBLAS) | 检测 (ms/帧) | 提取 (ms/帧) | 合计 (ms/帧) |\n|---|---|---|---|\n"
             "| 单个 A72,48*48 单人脸 | 67 | 315 | {} |\n\n所有数据均为 100 帧的平均处理时间【出处:R3】。")  # fmt: skip
    assert verdicts(FACE, table.format(383))["383"] in OK
    assert verdicts(FACE, table.format(831))["831"] not in OK


def test_an_earlier_sentence_names_no_row_whose_key_of_a_kind_it_gives_another_value() -> None:
    # `同一场景` is the 64*64 single face scene of the sentence before: neither the 48*48 single face row (252) nor the
    # 64*64 two faces one (638) of the two-A72 table
    body = ("单个 A72 核、最小人脸 64*64 的单人脸场景,OpenBLAS 每帧 225 ms【出处:R3】。两个 A72 核配合 OpenBLAS 时同一场景"
            "仅需 {} ms/帧【出处:R3】。")  # fmt: skip
    assert verdicts(FACE, body.format(168))["168 ms/帧"] in OK
    for wrong in (252, 638):
        assert verdicts(FACE, body.format(wrong))[f"{wrong} ms/帧"] not in OK, wrong


def test_a_row_named_by_its_identifier_is_no_prose_figure_naming_none() -> None:
    # `Speaker A012` names the WER table's A012 row (7.27); the conclusion's `from 1.4% to 20%` names no speaker
    body = "Word error rate by speaker [source: R3]:\n\n- Speaker A003: 20%;\n- Speaker A012: {}%.\n"
    assert verdicts(SPEECH, body.format("7.27"), lang="en")["7.27%"] in OK
    assert verdicts(SPEECH, body.format("20"), lang="en")["20%"] not in OK


def test_ranges_from_a_to_b_is_the_span_of_its_column() -> None:
    body = ("On the indoor, low-noise test set, the word error rate ranges from {}% to 20% depending on the speaker "
            "[source: R3].")  # fmt: skip
    assert verdicts(SPEECH, body.format("1.36"), lang="en")["1.36%"] in OK
    assert verdicts(SPEECH, body.format("7.27"), lang="en")["7.27%"] not in OK


def test_a_report_sentence_restating_a_cell_after_its_header_stands_for_that_cell() -> None:
    # `表观吞吐量 … (从 640 行/秒 → 8,462 行/秒)` prints the 表观吞吐量 cells; the claim speaks of 实际吞吐量
    body = "扣除 2.64 s 的词典加载开销后,YatHA 的实际处理吞吐量稳定在约 {} 行/秒【出处:R3】。"
    assert verdicts(YATHA, body.format("13,500"))["约 13,500 行/秒"] in OK
    for wrong in ("8,462", "640"):
        assert verdicts(YATHA, body.format(wrong))[f"约 {wrong} 行/秒"] not in OK, wrong
    # the row label printed before a cell's number: 1.9% is the 用户态时间 row's, 0.04% the 内存占用 row's
    body = "5 次运行的总耗时平均 3.78 s,变异系数 {}%;用户态时间标准差仅 0.06 s【出处:R3】。"
    assert verdicts(YATHA, body.format("9.3"))["9.3%"] in OK
    for wrong in ("1.9", "0.04"):
        assert verdicts(YATHA, body.format(wrong))[f"{wrong}%"] not in OK, wrong
    # (a row the claim names in words QC does not read, `1/8 数据集` of `input3_one_eighth`, is not ruled out)
    item = "- 表观吞吐量:从 1/8 数据集的 640 行/秒升到 4 倍数据集的 8,462 行/秒,约 13 倍【出处:R3】。"
    assert verdicts(YATHA, item)["640 行/秒"] in OK


BOILING = "pymupdf_small_table_units.pdf"


def test_a_column_printing_limits_states_its_other_cells_exactly() -> None:
    # the max column prints `>5000` for Metals and 3900 for Metalloids: `above 3900 °C` rests on no limit
    body = "Metals boil at an average of 2755.9 °C, and some above {} °C [source: R3]."
    assert verdicts(BOILING, body.format(5000), lang="en")["above 5000 °C"] in OK
    assert verdicts(BOILING, body.format(3900), lang="en")["above 3900 °C"] not in OK


def test_an_article_table_rows_cell_is_the_cell_of_its_mates_row() -> None:
    # 182,400 and 265,300 are the 4KB 随机读 IOPS row's; -41.2% is the change of the p99 latency row below it
    table = ("| 指标 | v1.8 | v2.0 | 变化 |\n|---|---|---|---|\n| 4KB 随机读 (IOPS) | 182,400 | 265,300 | {} |\n\n"
             "来源:【出处:R3】")  # fmt: skip
    assert verdicts(ZS3, table.format("+45.4%"))["+45.4%"] in OK
    assert verdicts(ZS3, table.format("-41.2%"))["-41.2%"] not in OK


def test_an_earlier_sentence_keeps_its_key_of_a_kind_the_claims_sentence_does_not_name() -> None:
    # 表 7 (value size, batch, kv/s): 4KB 16 35803.93; 64KB 16 12662.14. The second sentence names batch 16 only;
    # the first one's 4KB still holds: 64KB's cell is no rescue
    body = ("Mooncake Store served 7,368.67 requests per second for 4KB objects at batch=1 [source: R3]. Raising the "
            "batch to 16 cut requests per second from 7,368.67 to 2,237.75, while keys per second rose to {} "
            "[source: R3].")  # fmt: skip
    assert verdicts(STORE, body.format("35,803.93"), lang="en")["35,803.93"] in OK
    assert verdicts(STORE, body.format("12662.14"), lang="en")["12662.14"] not in OK
