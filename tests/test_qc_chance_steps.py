"""Chance control (issue 14, digit kinds): step numbers, a log's runs, a chart's tags and a citation back no number.

Expected figures read from the PDFs (pypdf page text): cachepilot_bench_slides_zh.pdf p.5, a flow `真实 Store Benchmark
数据采集流程1 启动 _master 2HTTPmetadata… 3 官方 benchmark_kv_bench.py 4 保存日志/stderr5 解析指标 … 6CSV/PNG测试场景
verify_write 确认读写正确性`; p.9 `代表性结果 batch 1`; p.14 `verify_write 成功,misses=0`. yatha_hotword_perf_report_zh.pdf
p.5 `多次运行稳定性测试: for i in 1 2 3 4 5;`, the raw output `Run 1: 总耗时 =2.62s … Run 5: 总耗时 =2.65s, …` and the
table of averages `初始化耗时 2.64s 0.10s`; p.6 `1. 空文件处理耗时 2.64 秒`; p.10 `…(变异系数 1.9% ) 3.`.
mooncake_fast25_kvcache_serving_paper.pdf p.11, Figure 9's labels `Cache Hit Rate 41% max 75% max 46% max 48% max
Conversation Tool&Agent Synthetic All` and §5.3.2 `a maximum increase of 136% in cache hit rate and a reduction of up to
48% in prefill computation time`; p.11 `about 3 million tokens`; p.15 a reference `OpenAI blog, 1(8):9, 2019.`.
cachepilot_mooncake_store_bench_zh.pdf p.4 表 4 `CPU / 内存 16 核 / 120GB`; p.5 `batch 16` rows.
"""

from __future__ import annotations

from real_support import BROKER, GESTURE, MOONCAKE, OK, STORE, YATHA, check_body, verdicts

from qc.match import key_in_label
from qc.prepare import counts_off

SLIDES = "cachepilot_bench_slides_zh.pdf"
FACEREC = "oaid_facerecognition_rk3399_perf_report.pdf"
GRID = "office/grid_tables_zh.pdf"


def test_numbers_counted_off_name_steps_and_the_last_says_how_many() -> None:
    assert counts_off("流程1 启动 _master 2HTTPmetadata0051/8080 3 官方 4 保存日志/stderr5 解析指标", "3")
    assert counts_off("for i in 1 2 3 4 5;", "4")
    assert not counts_off("for i in 1 2 3 4 5;", "5")  # (a loop over 1…5 runs 5 times)
    assert not counts_off("1 TB, 2 nodes, 3 GPUs", "2")  # (three quantities, no count)
    assert not key_in_label("3", "多次运行稳定性测试: for i in 1 2 3 4 5;")
    assert key_in_label("5", "多次运行稳定性测试: for i in 1 2 3 4 5;")


def test_a_step_number_backs_no_bare_number() -> None:
    body = "verify_write 的 return_code 为 {}【出处:R3】。"
    assert verdicts(SLIDES, body.format(3))["3"] not in OK


def test_a_loop_counts_its_runs_but_no_other_count() -> None:
    body = "{} 次运行的总耗时平均 3.78 s【出处:R3】。"
    assert verdicts(YATHA, body.format(5))["5 次"] in OK
    for wrong in (3, 4):  # (3 also opens the next item of a list cut off after it: `…1.9% ) 3.`)
        assert verdicts(YATHA, body.format(wrong))[f"{wrong} 次"] not in OK, wrong


def test_a_cited_works_pages_are_no_row_key() -> None:
    assert not key_in_label("9", "OpenAI blog, 1(8):9, 2019.")
    body = "即便预留约 1 TB DRAM 也只能存下约 {} million token【出处:R3】。"
    assert verdicts(MOONCAKE, body.format(3))["约 3 million token"] in OK
    assert verdicts(MOONCAKE, body.format(9))["约 9 million token"] not in OK


def test_a_label_word_the_sentence_gives_another_number_keys_no_row() -> None:
    # `batch 1` labels a row; the sentence's batch is 4, its 1 a return code
    body = "verify_write 的 return_code 为 1,4KB、batch=4 下带宽 38.80 MiB/s【出处:R3】。"
    assert verdicts(SLIDES, body)["1"] != "verified" or "batch 1" not in _source(SLIDES, body, "1")


def _source(name: str, body: str, text: str, lang: str = "zh") -> str:
    n = next(n for n in check_body(name, body, lang=lang).numbers if n.text.strip() == text)
    return n.source.quote if n.source is not None else ""


def test_one_runs_value_backs_no_claim_that_names_no_run() -> None:
    body = "空文件测试中,程序平均耗时 {} s,全部来自 cppjieba 的词典加载【出处:R3】。"
    assert verdicts(YATHA, body.format("2.64"))["2.64 s"] in OK
    assert verdicts(YATHA, body.format("2.65"))["2.65 s"] not in OK  # Run 5's, not the average
    assert verdicts(YATHA, "第 5 次运行的总耗时为 2.65 s【出处:R3】。")["2.65 s"] in OK


def test_a_charts_tagged_percentages_back_no_claim() -> None:
    body = "与本地缓存相比,缓存命中率最多提升 136%,prefill 计算时间最多减少 {}%【出处:R3】。"
    got = verdicts(MOONCAKE, body.format(48))
    assert got["136%"] in OK and got["48%"] in OK, got
    # p.10 §5.2.2 `it enhances effective caching capacity by 42% compared to vLLM with prefix caching under the 200
    # ms threshold`; 41% is only the chart's `max` tag of the conversation workload
    body = "在 200 ms 的 TBT 阈值下,工具与智能体负载的有效缓存能力比带前缀缓存的 vLLM 提升 {}%【出处:R3】。"
    assert verdicts(MOONCAKE, body.format(42))["42%"] in OK
    assert verdicts(MOONCAKE, body.format(41))["41%"] not in OK


def test_a_count_rests_on_its_own_spelling_not_on_a_column_counting_another_thing() -> None:
    body = "测试主机有 {} cores 和 120GB 内存,4KB 对象在 batch=1 时的吞吐为 7,368.67 req/s【出处:R3】。"
    assert verdicts(STORE, body.format(16), lang="en")["16 cores"] in OK
    assert "16 核" in _source(STORE, body.format(16), "16 cores", lang="en")  # not a `batch 16` row or cell
    assert verdicts(STORE, body.format(15), lang="en")["15 cores"] not in OK


def test_members_of_a_list_rest_on_figures_of_their_own() -> None:
    # p.8 §5.1: `TBT thresholds are set to 100 ms, 200 ms, and 300 ms`
    body = "The TTFT threshold is set to 30 s, and TBT thresholds to 100 ms, 200 ms and {} ms [source: R3]."
    got = verdicts(MOONCAKE, body.format(300), lang="en")
    assert got["300 ms"] in OK and got["200 ms"] in OK, got
    got = check_body(MOONCAKE, body.format(200), lang="en").numbers
    assert [n.status for n in got if n.text.strip() == "200 ms"] == ["verified", "mismatch"], got


def test_a_restatement_says_the_same_quantity() -> None:
    # oaid_facerecognition_rk3399_perf_report.pdf p.6 Table 4.1 (Single A53): 480P 32*32 single face … Total 1715;
    # p.7 Table 4.2 (Single A72): 480P 32*32 single face … 1033
    body = (
        "On a single A53, raising the minimum face size from 32*32 to 64*64 cuts detection from 540 ms to 185 ms per "
        "frame [source: R3]. The total for one face at 32*32 is 1715 ms/frame, about {} s [source: R3]."
    )
    assert verdicts(FACEREC, body.format("1.7"), lang="en")["about 1.7 s"] in OK
    assert verdicts(FACEREC, body.format("1.0"), lang="en")["about 1.0 s"] not in OK  # Single A72's 1033 ms


def test_a_derivation_from_a_row_the_clause_keys_otherwise_is_none() -> None:
    # office/grid_tables_zh.pdf p.1 表2-1 (首字延迟, 单位:秒): 32K 6.42 2.15 66.5%; 128K 35.10 7.84; the text: `在128K
    # 上下文下,开启外存缓存后吞吐从412 tokens/s 提升到1,268 tokens/s,约为原来的3.1 倍`
    body = "开启外存缓存后,32K 至 128K 上下文的首字延迟降低 66.5–77.7%,128K 下吞吐约为原来的 {} 倍【出处:R3】。"
    assert verdicts(GRID, body.format("3.1"))["3.1 倍"] in OK
    assert verdicts(GRID, body.format("3.0"))["3.0 倍"] not in OK  # 6.42/2.15 of the 32K row's latencies


def test_a_cited_works_title_is_no_verbatim_term() -> None:
    # mineru_broker_research_report_zh.pdf p.1: `公司 22 年 1 季度产能712 万公里`; its list of related research `5.《高测
    # 股份(688556.SH): 21 年业…》`
    body = "公司 {} 年 1 季度金刚线产能 712 万公里,年化产能超 2500 万公里【出处:R3】。"
    assert verdicts(BROKER, body.format(22))["22"] in OK
    assert verdicts(BROKER, body.format(21))["21"] not in OK


def test_a_figure_after_a_metrics_acronym_backs_only_a_claim_naming_it() -> None:
    # mineru_broker_research_report_zh.pdf p.1: `目前 36 线单 GW 切割线耗约 50 万公里,较 38 线提升约 30%`; `对应 PE 30、
    # 20、15 倍,维持“增持”评级`
    body = "目前 36 线单 GW 切割线耗约 50 万公里,较 38 线提升约 {}【出处:R3】。"
    assert verdicts(BROKER, body.format("30%"))["约 30%"] in OK
    assert verdicts(BROKER, body.format("30 倍"))["约 30 倍"] not in OK
    assert verdicts(BROKER, "按最新股价计算,对应 2022 年 PE 为 30 倍【出处:R3】。")["30 倍"] in OK


def test_a_range_across_two_settings_tables_is_no_span_unless_both_are_named() -> None:
    # oaid_cvgesture_rk3399_perf_report.pdf p.6 `4.1 Simple background`: 1xA53@1.42G 6, 2xA72@1.80G 27.1 FPS; p.7
    # `4.2 Complex background`: 1xA53@1.42G 5.2 FPS
    body = "Across the five core sets the frame rate spans {} FPS [source: R3]."
    assert verdicts(GESTURE, body.format("6–27.1"), lang="en")["6–27.1 FPS"] in OK
    assert verdicts(GESTURE, body.format("5–27.1"), lang="en")["5–27.1 FPS"] not in OK  # 5.2 of the complex one
