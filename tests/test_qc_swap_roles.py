"""Two numbers of one sentence exchanged (issue 14, the chance control's `swap`): each number is bound to its figure by
the roles its words give it. Sentences from the corpus articles (tools/qc_corpus/real/articles), each clean and
swapped.

Figures read with `pdftotext -layout`: mooncake_fast25_kvcache_serving_paper.pdf p.9 Table 2 `Avg Input Len 12035
8596 15325` (Conversation, Tool&Agent, Synthetic); p.10 `enhances effective caching capacity by 42% compared to vLLM
with prefix caching`, `increases effective request capacity by 40%`. oaid_facerecognition_rk3399_perf_report.pdf p.14
`a subset of CelebA dataset containing 10000 images`, Table 7.1 recall 0.80, precision 0.77, stability 0.65.
oaid_speechrecognition_perf_report.pdf p.5 WER (%) A003 20, A012 7.27, B002 1.36. oaid_caffe_hrt_perf_report.pdf p.6
Table 1 `ResNet34 1040.00 1024.30` (Original Caffe, Caffe-HRT, ms). yalantinglibs_coro_rpc_qps_slides_zh.pdf p.24
(chart, 4B): brpc 4987564, coro_rpc 20228649. site/reports/R2.pdf 表 4-1 (基线, FX100 TTFT s, 降幅): 8 p50
10.17 7.53 26.0%, 8 p90 14.62 9.94 32.0%, 16 p50 35.73 26.35 26.3%; 表 4-2 吞吐提升: 8 TP8 29.0%, 16 TP8 40.0%.
"""

from __future__ import annotations

import sys
from pathlib import Path

from real_support import FACE, MOONCAKE, OK, SPEECH, verdicts

from qc.check import check_draft
from qc.draft import parse_draft

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy

HRT = "oaid_caffe_hrt_perf_report.pdf"
CORO = "yalantinglibs_coro_rpc_qps_slides_zh.pdf"


def _ok(said: dict[str, str], *numbers: str) -> bool:
    return all(said[n] in OK for n in numbers)


def test_a_section_heading_over_both_report_sentences_names_neither_value() -> None:
    # `5.2.2 Effective Request Capacity` stands over both sentences: its `request` is no word of the 42% one
    body = ("在 200 ms 的 TBT 阈值下,工具与智能体负载的有效缓存能力比带前缀缓存的 vLLM 提升 {},合成负载的有效请求容量比 vLLM "
            "提升 {}【出处:R3 实测】。")  # fmt: skip
    assert _ok(verdicts(MOONCAKE, body.format("42%", "40%")), "42%", "40%")
    swapped = verdicts(MOONCAKE, body.format("40%", "42%"))
    assert swapped["40%"] == swapped["42%"] == "mismatch"


def test_two_bare_numbers_of_different_kinds_swap_when_each_names_the_others_figure() -> None:
    body = "On a CelebA subset of {} images, recall is {}, precision 0.77 and stability 0.65 [source: R3]."
    assert _ok(verdicts(FACE, body.format("10,000", "0.80"), lang="en"), "10,000", "0.80")
    swapped = verdicts(FACE, body.format("0.80", "10,000"), lang="en")
    assert swapped["0.80"] == swapped["10,000"] == "mismatch"


def test_a_span_runs_from_its_lowest_to_its_highest() -> None:
    body = "On the indoor, low-noise test set, the word error rate ranges from {} to {} depending on the speaker [source: R3]."
    assert _ok(verdicts(SPEECH, body.format("1.36%", "20%"), lang="en"), "1.36%", "20%")
    assert verdicts(SPEECH, body.format("20%", "1.36%"), lang="en")["1.36%"] == "mismatch"


def test_a_saving_falls() -> None:
    body = "ResNet34 saves only 15.7 ms, from {} to {} [source: R3]."
    assert _ok(verdicts(HRT, body.format("1040.00 ms", "1024.30 ms"), lang="en"), "1040.00 ms", "1024.30 ms")
    assert verdicts(HRT, body.format("1024.30 ms", "1040.00 ms"), lang="en")["1040.00 ms"] == "mismatch"


def test_a_number_set_against_a_name_is_not_that_names_figure() -> None:
    body = "The synthetic workload has the longest inputs, 15325 tokens on average, {} more than tool&agent's {} [source: R3]."
    assert _ok(verdicts(MOONCAKE, body.format("6729", "8596"), lang="en"), "6729", "8596")
    assert verdicts(MOONCAKE, body.format("8596", "6729"), lang="en")["8596"] == "mismatch"


def test_the_order_a_list_lead_declares_binds_each_pair() -> None:
    lead = "Pipeline 模式下,各消息大小的极限 QPS(brpc → coro_rpc)【出处:R3 实测】:\n\n"
    assert _ok(verdicts(CORO, lead + "- 4B:4987564 → 20228649,约 4.1 倍;\n"), "4987564", "20228649")
    swapped = verdicts(CORO, lead + "- 4B:20228649 → 4987564,约 4.1 倍;\n")
    assert swapped["20228649"] == swapped["4987564"] == "mismatch"
    # without the declared order the arrow names no system: nothing binds the values to one
    assert _ok(verdicts(CORO, "Pipeline 模式下的极限 QPS【出处:R3 实测】:\n\n- 4B:20228649 → 4987564;\n"),
               "20228649", "4987564")  # fmt: skip


def _example(body: str) -> dict[str, str]:
    """Verdicts over the example reports (the JSON fixture of site/reports R1, R2, R9)."""
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R2]\nanswer: a\n---\n\n{body}\n"
    result = check_draft(parse_draft(text, path="a.md"), qc_accuracy.load_index())
    return {n.text.strip(): n.status for n in result.numbers}


def test_a_range_spans_one_column() -> None:
    body = "Long-context cold recovery gets {} more throughput and {} lower TTFT [source: R2]."
    assert _ok(_example(body.format("29–40%", "26–32%")), "29–40%", "26–32%")
    swapped = _example(body.format("26–40%", "29–32%"))  # a TTFT fall and a throughput gain: no one measure
    assert swapped["26–40%"] == swapped["29–32%"] == "mismatch"
    body = "With the 480B model on TP8, p50 TTFT falls from {} to {} [source: R2]."
    assert _ok(_example(body.format("10.17–35.73 s", "7.53–26.35 s")), "10.17–35.73 s", "7.53–26.35 s")
    assert _example(body.format("7.53–35.73 s", "10.17–26.35 s"))["7.53–35.73 s"] == "mismatch"


def test_a_caption_over_both_cells_is_no_word_of_either() -> None:
    # 表 4-3 对比无外存重算基线: the caption's 基线 stands over the FX100 cell too; the row 重算基线 is the baseline's
    body = "Throughput from {} to {} (18.3x the baseline) [source: R2]."
    assert _ok(_example(body.format("4.1 tok/s", "74.9 tok/s")), "4.1 tok/s", "74.9 tok/s")
    swapped = _example(body.format("74.9 tok/s", "4.1 tok/s"))
    assert swapped["74.9 tok/s"] == swapped["4.1 tok/s"] == "mismatch"


def test_a_part_is_no_larger_than_its_whole() -> None:
    # Table 2 (1st loop): ACL/GPU TPI 2.4794 s, Config 1.5011 s; ACL/NEON TPI 3.2593 s; Table 3: ACL/NEON FC 2.8777 s
    body = ("ACL/GPU takes {} s, of which {} s is Config [source: R3]. On ACL/NEON, the FC layers take {} s of the first "
            "loop's {} s [source: R3].")  # fmt: skip
    assert _ok(verdicts(HRT, body.format("2.4794", "1.5011", "2.8777", "3.2593"), lang="en"),
               "2.4794 s", "1.5011 s", "2.8777 s", "3.2593 s")  # fmt: skip
    swapped = verdicts(HRT, body.format("1.5011", "2.4794", "3.2593", "2.8777"), lang="en")
    assert swapped["2.4794 s"] == swapped["3.2593 s"] == "mismatch"


def test_a_gain_of_times_falls() -> None:
    # Table 1: AlexNet 932.70 ms (Original Caffe), 534.80 ms (Caffe-HRT), 1.74
    body = "On AlexNet the gain is 1.74x, from {} to {} [source: R3]."
    assert _ok(verdicts(HRT, body.format("932.70 ms", "534.80 ms"), lang="en"), "932.70 ms", "534.80 ms")
    assert verdicts(HRT, body.format("534.80 ms", "932.70 ms"), lang="en")["932.70 ms"] == "mismatch"
