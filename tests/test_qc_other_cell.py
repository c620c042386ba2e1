"""A value of another row, column or system of a real report's table passes no more (issue 14, task C).

Expected figures read from the PDFs (`pdftotext -layout`, page images): yatha_hotword_perf_report_zh.pdf p.7 (数据集 / 行数 /
总耗时 / 表观吞吐量 / 纯处理时间 / 实际吞吐量): input3_x4 (4x) → 59,656, 7.05s, 8,462 行/秒, 4.41s, 13,527 行/秒; the
prose below it: 表观吞吐量 从 640 行/秒 → 8,462 行/秒. p.8 窗口大小 table: 60s → 总耗时 3.93s (+7.7%), 120s → 3.86s.
"""

from __future__ import annotations

from real_support import OK, YATHA, check_body, verdicts


def test_a_cell_of_another_column_is_not_rescued_by_a_sentence_quoting_that_value() -> None:
    # 8,462 is the x4 row's apparent throughput (表观); the column is the real throughput (实际). The report's prose
    # quoting `→ 8,462 行/秒` fits the cell no better by the digits of the number itself.
    table = "| 数据集 | 行数 | 实际吞吐量 (行/秒) |\n|---|---|---|\n| input3_x4 (4x) | 59,656 | {} |\n"
    text = "各数据集的吞吐量如下【出处:R3 实测】:\n\n" + table
    assert verdicts(YATHA, text.format("13,527"))["13,527"] == "verified"
    assert verdicts(YATHA, text.format("8,462"))["8,462"] == "mismatch"


def test_a_setting_printed_with_its_unit_keys_its_row() -> None:
    # `窗口大小 60s` and `窗口大小 120s` are rows keyed by a number with a unit: 3.86 s is the 120 s window's.
    body = "- 窗口大小：60 s 窗口总耗时 {} s，比基准多 7.7%【出处:R3 实测】。"
    assert verdicts(YATHA, body.format("3.93"))["3.93 s"] == "verified"
    assert verdicts(YATHA, body.format("3.86"))["3.86 s"] == "mismatch"


BROKER = "mineru_broker_research_report_zh.pdf"  # p.2 主要财务数据及预测: 营业收入 2021 1,567, 2022E 3,684 (百万元);
# (+/-)YOY 2021 110.0%, 2022E 135.1%; p.3 营业收入增长率 the same, 净利润增长率 2022E 172.8%


def test_a_change_in_the_clause_after_a_from_to_pair_is_that_pairs_change() -> None:
    body = "营业收入预计从 2021 年的 1,567 百万元增至 2022 年的 3,684 百万元,同比增长 {}【出处:R3】。"
    assert verdicts(BROKER, body.format("135.1%"))["135.1%"] in OK
    for wrong in ("110.0%", "172.8%"):  # 2021's growth; another metric's 2022E growth
        assert verdicts(BROKER, body.format(wrong))[wrong] == "mismatch"
    # a clause naming another metric states no change of the pair
    other = "营业收入预计从 2021 年的 1,567 百万元增至 2022 年的 3,684 百万元,净利润增长率为 172.8%【出处:R3】。"
    assert verdicts(BROKER, other)["172.8%"] in OK


CORO = (
    "yalantinglibs_coro_rpc_qps_slides_zh.pdf"  # p.25 ping-pong QPS chart: payload 5 → CORO_RPC 4507942, BRPC 4049234
)


def test_a_glued_series_label_still_names_its_system() -> None:
    # The extraction reads the legend `CORO_RPC QPS` as `CORO_RPCQPS`: brpc's bar put in coro_rpc's column is caught.
    table = "ping-pong 模式【出处:R3 实测】:\n\n| 负载 (Byte) | coro_rpc (QPS) | brpc (QPS) |\n|---|---|---|\n| 5 | {} | {} |\n"
    right = verdicts(CORO, table.format("4,507,942", "4,049,234"))
    assert right["4,507,942"] == right["4,049,234"] == "verified"
    first = next(n for n in check_body(CORO, table.format("4,049,234", "4,049,234")).numbers if n.text == "4,049,234")
    assert first.status == "mismatch" and "4507942" in first.message, first.message


HRT = "oaid_caffe_hrt_perf_report.pdf"  # p.7 Table 2 (configuration) 1st ACL/GPU: TPI 2.4794, Config 1.5011 (s);
# Table 3 (per layer) 1st ACL/GPU: TPI 2.4794, CONV 1.1812, FC 0.9399 (s)


def test_a_cell_of_the_table_beside_it_is_no_column_the_clause_names() -> None:
    body = "The first loop is slow on the GPU: ACL/GPU takes 2.4794 s, of which {} s is Config [source: R3]."
    assert verdicts(HRT, body.format("1.5011"), lang="en")["1.5011 s"] == "verified"
    wrong = next(n for n in check_body(HRT, body.format("1.1812"), lang="en").numbers if n.text == "1.1812 s")
    assert wrong.status == "mismatch" and "1.5011" in wrong.message, wrong.message  # the CONV layer's time
    # a clause naming the cell's own column is its table's: the per-layer CONV time passes
    conv = "On the first loop ACL/GPU spends {} s in the CONV layers [source: R3]."
    assert verdicts(HRT, conv.format("1.1812"), lang="en")["1.1812 s"] == "verified"


BANK = "broker_report_metrics_table_zh.pdf"  # p.1: 加权平均ROE(%) 2024A 14.49, 2026E 13.78; 拨备覆盖率(%) 2024A 411.98,
# 2025E 420.00, 2026E 426.00; a bullet above: 拨备覆盖率维持在420%以上


def test_a_sentence_naming_no_year_speaks_of_the_years_before_it() -> None:
    body = ("加权平均 ROE 从 2024 年的 14.49% 降至 2026 年的 13.78%【出处:R3】。"
            "拨备覆盖率预计从 411.98% 提升至 {}【出处:R3】。")  # fmt: skip
    assert verdicts(BANK, body.format("426.00%"))["426.00%"] == "verified"
    # 2025E's cell; the bullet's `420%以上` fits the claim no better and does not rescue it
    assert verdicts(BANK, body.format("420.00%"))["420.00%"] == "mismatch"
    # with no year before it, the sentence names no column: 2025E's figure stands
    alone = "拨备覆盖率预计从 411.98% 提升至 420.00%【出处:R3】。"
    assert verdicts(BANK, alone)["420.00%"] == "verified"


def test_a_lone_number_takes_no_year_from_the_sentence_before() -> None:
    # 14.05% is ROE's 2025E: a sentence after a 2024 → 2026 one that gives a lone figure is not keyed by those years
    body = "加权平均 ROE 从 2024 年的 14.49% 降至 2026 年的 13.78%【出处:R3】。中间一年的加权平均 ROE 为 14.05%【出处:R3】。"
    assert verdicts(BANK, body)["14.05%"] == "verified"


OTSL = "docling_otsl_tableformer_benchmark_p9.pdf"  # Table 1 (caption `HPO performed in OTSL and HTML …`), enc 2 /
# dec 4: OTSL mAP 0.859, 1.91 s; HTML mAP 0.834, 3.81 s


def test_a_caption_naming_both_systems_names_neither_for_an_article_tables_column() -> None:
    table = ("Table 1 of the paper [source: R3]:\n\n| Layers (enc, dec) | OTSL mAP | HTML mAP | HTML time (s) |\n"
             "|---|---|---|---|\n| 2, 4 | {} | {} | 3.81 |\n")  # fmt: skip
    right = check_body(OTSL, table.format("0.859", "0.834"), lang="en").numbers
    assert [n.status for n in right if n.text in ("0.859", "0.834")] == ["verified", "verified"]
    wrong = check_body(OTSL, table.format("0.834", "0.834"), lang="en").numbers
    first = next(n for n in wrong if n.text == "0.834")  # HTML's mAP in the OTSL column
    assert first.status == "mismatch", first.message
