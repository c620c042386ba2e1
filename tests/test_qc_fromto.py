"""QC of from→to pairs, `A 对 B` pairs and the changes stated beside them (issue 14, hard errors), on real reports.

Expected figures read from the PDFs (pdftotext -layout, checked against the page images): office/unit_column_zh.pdf
表 1 元数据列举延迟 v1.8 850 μs → v2.0 410 μs (-51.8%), 4KB 随机读 p99 延迟 2.84 ms → 1.67 ms (-41.2%); 表 2 读带宽
64 个客户端 9.87 GB/s, 128 个 10.12 GB/s. yatha_hotword_perf_report_zh.pdf p.7 实际吞吐量 2x 13,937 行/秒, 4x 13,527 行/秒.
yalantinglibs_coro_rpc_qps_slides_zh.pdf p.25 (ping-pong QPS chart): 5000 字节 coro_rpc 2523798, brpc 1889515.
docling_otsl_tableformer_benchmark_p9.pdf Table 1, 6 layers: OTSL TEDs complex 0.934, mAP 0.88; HTML 0.927, 0.857.
"""

from __future__ import annotations

from real_support import OK, OTSL, YATHA, ZS3, check_body, verdicts

CORO = "yalantinglibs_coro_rpc_qps_slides_zh.pdf"


def _one(name: str, body: str, text: str, lang: str = "zh") -> tuple[str, str, str]:
    n = next(n for n in check_body(name, body, lang=lang).numbers if n.text.strip() == text)
    return n.status, n.message, n.strength


def test_a_change_over_an_unstated_cell_of_a_column_whose_rows_the_sentence_names() -> None:
    # 9.87 GB/s (64 clients) is not stated; the item opens with the other row's key (`128 个客户端时`).
    body = "- 128 个客户端时读带宽为 10.12 GB/s，只比 64 个客户端时高 {}【出处:R3 实测】。"
    status, message, strength = _one(ZS3, body.format("2.5%"), "2.5%")
    assert status == "derived" and strength == "derivation from one column", message
    assert verdicts(ZS3, body.format("3.5%"))["3.5%"] not in OK


def test_a_pair_moves_the_way_the_change_stated_after_it_says() -> None:
    body = "- 元数据列举延迟：{}，降低 51.8%【出处:R3 实测】。"
    assert verdicts(ZS3, body.format("850 μs → 410 μs"))["410 μs"] == "verified"
    status, message, _ = _one(ZS3, body.format("410 μs → 850 μs"), "850 μs")
    assert status == "mismatch" and "swapped" in message, message
    body = "- 实际吞吐量：2 倍到 4 倍数据集从 {} 行/秒变为 {} 行/秒，仅下降 2.9%【出处:R3 实测】。"
    assert verdicts(YATHA, body.format("13,937", "13,527"))["13,527 行/秒"] == "verified"
    assert verdicts(YATHA, body.format("13,527", "13,937"))["13,937 行/秒"] == "mismatch"


def test_a_pair_of_one_value_is_no_change_where_the_words_state_one() -> None:
    body = "- 4KB 随机读 p99 延迟：2.84 ms → {}，降低 41.2%【出处:R3 实测】。"
    assert [n.status for n in check_body(ZS3, body.format("1.67 ms")).numbers if "ms" in n.text] == ["verified"] * 2
    statuses = [n.status for n in check_body(ZS3, body.format("2.84 ms")).numbers if n.text.strip() == "2.84 ms"]
    assert statuses == ["verified", "mismatch"], statuses


def test_a_versus_pair_follows_the_order_the_comparative_names_its_sides() -> None:
    # `A 对 B`, `A against B`: B is the side the comparative sets against (`比 brpc`, `above HTML's`).
    body = "ping-pong 模式下 coro_rpc 比 brpc 高：5000 字节负载时为 {} 对 {}，高 33.6%【出处:R3 实测】。"
    assert verdicts(CORO, body.format(2523798, 1889515))["1889515"] == "verified"
    swapped = verdicts(CORO, body.format(1889515, 2523798))
    assert swapped["1889515"] == swapped["2523798"] == "mismatch", swapped
    body = (
        "In the 6-layer configuration OTSL scores 0.934 TEDs, 0.007 above HTML's 0.927, and its mAP is {} [source: R3]."
    )
    assert verdicts(OTSL, body.format("0.88 against 0.857"), lang="en")["0.857"] == "verified"
    swapped = verdicts(OTSL, body.format("0.857 against 0.88"), lang="en")
    assert swapped["0.857"] == swapped["0.88"] == "mismatch", swapped


UNITS = "pymupdf_small_table_units.pdf"  # Boiling Points °C: Nonmetals min -253, max 4827, avg 414.1


def test_a_from_to_span_that_no_verb_moves_names_the_lowest_first() -> None:
    body = "Nonmetals boil from {} °C, a span of 5080 °C [source: R3]."
    good = verdicts(UNITS, body.format("-253 °C to 4827"), lang="en")
    assert good["-253 °C"] == good["4827 °C"] == "verified", good
    bad = verdicts(UNITS, body.format("4827 °C to -253"), lang="en")
    assert bad["4827 °C"] == bad["-253 °C"] == "mismatch", bad


BROKER = "mineru_broker_research_report_zh.pdf"  # p.2-3: 营业收入 2021 1,567 → 2022E 3,684 百万元; 增长率 135.1%


def test_a_bare_change_after_a_pair_past_a_comma_is_that_pair_s_change() -> None:
    # 172.8% is the net profit growth of 2022E (净利润增长率): a real figure of another row, not this pair's change.
    body = "营业收入预计从 2021 年的 1,567 百万元增至 2022 年的 3,684 百万元,{}【出处:R3】。"
    assert verdicts(BROKER, body.format("同比增长 135.1%"))["135.1%"] == "verified"
    status, message, _ = _one(BROKER, body.format("同比增长 172.8%"), "172.8%")
    assert status == "mismatch" and "135.1%" in message, message
    assert verdicts(BROKER, body.format("净利润同比增长 172.8%"))["172.8%"] == "verified"  # another measure, named


YANCHENG = "pymupdf_chinese_tables_zh.pdf"  # 授信额度总额 372.53 亿元, 已使用 252.06 亿元, 尚未使用 120.47 亿元


def test_a_share_is_the_part_over_the_whole_the_sentence_states_before_it() -> None:
    # 67.7% = 252.06/372.53; 32.3% = (372.53 − 252.06)/372.53 is a change, which `使用率` does not state; 209.2% is
    # (372.53 − 120.47)/120.47 over a number stated after it.
    body = "授信额度总额达 372.53 亿元,已使用 252.06 亿元,使用率约 {},尚未使用 120.47 亿元【出处:R3】。"
    status, _, strength = _one(YANCHENG, body.format("67.7%"), "约 67.7%")
    assert status == "derived" and strength == "stated derivation"
    for wrong in ("32.3%", "209.2%"):
        assert verdicts(YANCHENG, body.format(wrong))[f"约 {wrong}"] not in OK, wrong


CAFFE = "oaid_caffe_hrt_perf_report.pdf"  # p.6 Table 1 GoogleNet 1387.70 → 494.00 ms; p.7 Table 3 AlexNet MIXED 0.5348/0.3425


def test_a_change_never_rests_on_a_row_under_another_key_than_the_one_its_clause_names() -> None:
    # 36% = (0.5348 − 0.3425)/0.5348, two cells of a row of `Table 3 AlexNet performance for each Layer`.
    body = "In percent, GoogleNet's time per inference falls by {}, AlexNet's by 43% [source: R3]."
    status, message, _ = _one(CAFFE, body.format("64%"), "64%", "en")
    assert status == "derived" and "GoogleNet" in message, message
    assert verdicts(CAFFE, body.format("36%"), lang="en")["36%"] not in OK
    assert verdicts(CAFFE, body.format("64%"), lang="en")["43%"] == "derived"


def test_a_row_under_the_same_key_is_no_rival_whatever_its_columns_say() -> None:
    # p.21 Table 16 AlexNet TPI data, 1xA72: OpenBLAS 0.9327 s, MIXED 0.5348 s (43% less); its `ACL/NEON (s)` column
    # names a row key of Table 3 (ACL/NEON), its caption none other than AlexNet.
    body = (
        "## AlexNet configurations\n\nAveraged over the 2nd to 11th loop [source: R3]:\n\n"
        "- ACL/GPU: 0.1542 s per inference, about 6 times faster than OpenBLAS at 0.9327 s;\n"
        "- MIXED: 0.5348 s, 43% less than OpenBLAS;\n"
    )
    assert verdicts(CAFFE, body, lang="en")["43%"] == "derived"


SLIDES = "cachepilot_bench_slides_zh.pdf"  # p.8: value 4KB batch 16 139.86 MiB/s, 64KB batch 16 791.38 MiB/s


def test_a_ratio_never_rests_on_the_keys_that_name_its_rows() -> None:
    # 791.38/139.86 = 5.66; 64KB/4KB = 16 are the rows' value sizes (keys), stated and printed as a table column.
    body = "batch=16 时,64KB 对象的带宽为 791.38 MiB/s,约为 4KB 对象(139.86 MiB/s)的 {} 倍【出处:R3 实测】。"
    assert verdicts(SLIDES, body.format("5.7"))["5.7 倍"] == "derived"
    assert verdicts(SLIDES, body.format("16"))["16 倍"] not in OK


PAPER = "mooncake_fast25_kvcache_serving_paper.pdf"  # p.12: 87 GB/s and 190 GB/s (4×200, 8×400 Gbps), 2.4× and 4.6× over TCP


def test_a_ratio_naming_no_other_side_compares_the_two_measures_its_sentence_states() -> None:
    body = (
        "The transfer engine moved 40 GB of KVCache at 87 GB/s over 4×200 Gbps NICs and at 190 GB/s over 8×400 Gbps "
        "NICs, {} [source: R3]."
    )
    assert (
        verdicts(PAPER, body.format("about 2.2 times as fast on the larger network"), lang="en")["about 2.2 times"]
        in OK
    )
    status, message, _ = _one(
        PAPER, body.format("about 4.6 times as fast on the larger network"), "about 4.6 times", "en"
    )
    assert status == "mismatch" and "2.18" in message, message
    # the paper's own comparison, its other side named: 4.6× over TCP
    assert verdicts(PAPER, body.format("4.6 times faster than over TCP"), lang="en")["4.6 times"] == "verified"


def test_a_load_multiple_in_an_article_table_row_label_is_that_row_s_key() -> None:
    # p.6-7: `input3 (1x)` 14,930 行, 总耗时 4.15 s; `1x` names the row (it was derived by chance as 2.96/2.38 ≈ 1).
    table = (
        "| 数据集 | 行数 | 总耗时 (s) | 纯处理时间 (s) | 实际吞吐量 (行/秒) |\n|---|---|---|---|---|\n"
        "| input3 (1x) | 14,930 | 4.15 | 1.51 | 9,887 |\n\n来源:【出处:R3 实测】\n"
    )
    n = next(n for n in check_body(YATHA, table).numbers if n.text.strip() == "1x")
    assert n.status == "verified" and n.strength == "row key", (n.status, n.message)
