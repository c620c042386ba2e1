"""Chance control (issue 14, digit kinds): a condition number rests on its values' row key; one figure, one claim.

Expected figures read from the PDFs (pypdf text): docling_otsl_tableformer_benchmark_p9.pdf Table 1 (# enc-layers /
# dec-layers / Language / TEDs simple complex all / mAP (0.75) / Inference time (secs)): 6 6 OTSL 0.965 0.934 0.955
0.88 2.73, HTML 0.969 0.927 0.955 0.857 5.39; 4 2 OTSL 0.952 0.92 0.942 0.857 1.22, HTML … 0.824 2.
cachepilot_mooncake_store_bench_zh.pdf p.6 表 7 (value size / batch / req/s / kv/s / MiB/s / p50/ms / p99/ms): 64KB 1
… 385.55 0.138 0.354; 64KB 4 … 694.43 0.304 0.917; 4MB 1 … 3.623 5.242; 4MB 8 … 26.942 45.513.
yatha_hotword_perf_report_zh.pdf p.7: input3_double (2x) … 13,937 行 / 秒; input3_x4 (4x) … 13,527 行 / 秒; `4 倍数据
（ 59,656 行）的实际吞吐量（ 13,527 行 / 秒）与 2 倍 /3 倍数据接近`.
yalantinglibs_coro_rpc_qps_slides_zh.pdf p.25 chart `ping-pong qps` (PAYLOAD(BYTE) 5 500 1000 5000 10000; CORO_RPC QPS,
BRPC QPS): payload 5 → 4507942 and 4049234. oaid_facerecognition_rk3399_perf_report.pdf p.4 (2 Test Environment): GPU:
Mali T864 (800MHz); CPU: Dual-core Cortex-A72 up to 2.0GHz (real frequency is 1.8GHz). pymupdf_chinese_tables_zh.pdf
p.1 表 7-2: 1 工商银行 330,435.30 234,850.00 95,585.30. mooncake_fast25_kvcache_serving_paper.pdf: see its test.
"""

from __future__ import annotations

from real_support import FACE, MOONCAKE, OTSL, STORE, YATHA, check_body, verdicts


def test_a_layer_count_is_the_key_of_its_values_row() -> None:
    body = ("With {} encoder and {} decoder layers, OTSL cut TableFormer inference from 5.39 s to 2.73 s, about 2.0x "
            "faster than HTML [source: R3].")  # fmt: skip
    right = verdicts(OTSL, body.format(6, 6), lang="en")
    assert right["5.39 s"] == right["2.73 s"] == "verified"
    assert verdicts(OTSL, body.format(4, 6), lang="en")["4"] == "mismatch"  # 4 keys the 4/4 and 4/2 rows, not these
    assert verdicts(OTSL, body.format(6, 2), lang="en")["2"] == "mismatch"  # 2 keys the 2/4 and 4/2 rows
    body = "With 4 encoder and {} decoder layers, OTSL reaches an mAP of 0.857 and takes 1.22 s [source: R3]."
    assert verdicts(OTSL, body.format(2), lang="en")["2"] == "verified"
    assert verdicts(OTSL, body.format(1), lang="en")["1"] == "mismatch"


def test_a_from_to_pair_of_keys_maps_in_order_onto_its_values() -> None:
    body = "For 64KB objects, going from batch={} to batch=4 lifted bandwidth from 385.55 MiB/s to 694.43 MiB/s [source: R3]."
    right = [(n.text, n.status) for n in check_body(STORE, body.format(1), lang="en").numbers]
    assert [s for t, s in right if t in ("1", "4", "385.55 MiB/s", "694.43 MiB/s")] == ["verified"] * 4
    # batch 4 is a key of the sentence's other value (694.43), not of 385.55's row
    wrong = [(n.text, n.status) for n in check_body(STORE, body.format(4), lang="en").numbers]
    assert [s for t, s in wrong if t == "4"] == ["mismatch", "verified"]
    # keys after their values pair up the same way
    body = "At 4MB, p50 latency went from 3.623 ms at batch=1 to 26.942 ms at batch={} [source: R3]."
    assert verdicts(STORE, body.format(8), lang="en")["8"] == "verified"


def test_a_load_multiple_is_the_key_of_its_values_row() -> None:
    body = "实际吞吐量:{} 倍到 4 倍数据集从 13,937 行/秒变为 13,527 行/秒【出处:R3 实测】。"
    assert verdicts(YATHA, body.format(2))["2 倍到 4 倍"] == "verified"
    assert verdicts(YATHA, body.format(3))["3 倍到 4 倍"] == "mismatch"  # 13,937 is the 2x row's


def test_a_derived_multiple_is_still_a_condition() -> None:
    body = "实际吞吐量:{} 倍到 4 倍数据集从 13,937 行/秒变为 13,527 行/秒【出处:R3 实测】。"
    assert verdicts(YATHA, body.format(1))["1 倍到 4 倍"] == "mismatch"  # (13,527/13,937 ≈ 1: no load of the rows)


CORO = "yalantinglibs_coro_rpc_qps_slides_zh.pdf"


def test_an_article_tables_integer_label_is_the_key_of_its_cells_row() -> None:
    table = "| 负载 (Byte) | coro_rpc (QPS) | brpc (QPS) |\n|---|---|---|\n| {} | 4,507,942 | 4,049,234 |\n"
    text = "ping-pong 模式【出处:R3 实测】:\n\n" + table
    assert verdicts(CORO, text.format(5))["5"] == "verified"
    assert verdicts(CORO, text.format(4))["4"] == "mismatch"  # the cells are the chart's payload-5 category
    assert verdicts(CORO, text.format(500))["500"] == "mismatch"  # another category of the chart


CREDIT = "pymupdf_chinese_tables_zh.pdf"


def test_one_figure_in_two_units_backs_one_of_two_claims() -> None:
    body = "RK3399 的 GPU 为 Mali T864(800MHz),A72 核实际频率为 {}【出处:R3 实测】。"
    right = verdicts(FACE, body.format("1.8GHz"))
    assert right["800MHz"] == right["1.8GHz"] == "verified"
    assert verdicts(FACE, body.format("0.8GHz"))["0.8GHz"] == "mismatch"  # the GPU's 800 MHz, not the A72's
    # a number restated right after it in another magnitude is one figure said twice
    body = "工商银行的授信总额为 330,435.30 万元,约合 33.04 亿元【出处:R3】。"
    assert verdicts(CREDIT, body)["33.04 亿元"] == "verified"


def test_a_clause_resting_on_a_report_sentence_takes_that_sentences_other_numbers() -> None:
    # p.12: `87 GB/s and 190 GB/s under network configurations of 4×200 Gbps and 8×400 Gbps`; p.3 Table 1: `Bnic NIC
    # bandwidth 800 Gbps`
    body = ("The transfer engine moved 40 GB of KVCache at 87 GB/s over 4×{} NICs and at 190 GB/s over 8×400 Gbps "
            "NICs [source: R3].")  # fmt: skip
    assert verdicts(MOONCAKE, body.format("200 Gbps"), lang="en")["200 Gbps"] == "verified"
    assert verdicts(MOONCAKE, body.format("800 Gbps"), lang="en")["800 Gbps"] == "mismatch"  # Table 1's NIC
