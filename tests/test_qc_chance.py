"""QC's chance control (issue 14, part V): a mutated number must not pass on a coincidence of the report.

Expected figures read with `pdftotext -layout`: cachepilot_bench_slides_zh.pdf (read_perf table): 4MB, batch 1:
1084.48 MiB/s; 4MB, batch 16: 1015.36 MiB/s, p50 52.517 ms, p99 93.267 ms; 4MB, batch 4: p50 12.251 ms, p99 22.456 ms.
oaid_facerecognition_rk3399_perf_report.pdf Table 4.1 (single A53, ACL): 480P 32*32 single face detection 540
ms/frame, 480P 64*64 single face detection 185 ms/frame. cachepilot_mooncake_store_bench_zh.pdf 表 7: value size 1MB,
batch 16: p99 24.824 ms; batch 1: p99 3.046 ms. mineru_broker_research_report_zh.pdf p.1: 归母净利润 4.7、7.2、9.3 亿元;
研发费用率% 7.5% (every year).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from real_support import BROKER, FACE, MOONCAKE, OK, STORE, check_body, verdicts

from evidence.models import Report
from evidence.pdf import parse_pdf
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

SLIDES = "cachepilot_bench_slides_zh.pdf"
HRT = "oaid_caffe_hrt_perf_report.pdf"


def test_a_rounded_word_keeps_the_precision_of_a_decimal() -> None:
    # (1084.48 − 1015.36) / 1084.48 = 6.37 %: `约 6.4%` is that rounded; `约` never stretches it to 6.5 or 6.3
    body = "4MB 对象的带宽从 batch=1 的 1084.48 MiB/s 降至 batch=16 的 1015.36 MiB/s,降幅约 {}%【出处:R3 实测】。"
    assert verdicts(SLIDES, body.format("6.4"))["约 6.4%"] in OK
    for wrong in ("6.5", "6.3"):
        assert verdicts(SLIDES, body.format(wrong))[f"约 {wrong}%"] not in OK


def test_a_round_integer_after_a_rounded_word_may_round_coarsely() -> None:
    body = "4MB 对象的带宽从 batch=1 的 1084.48 MiB/s 降至 batch=16 的 1015.36 MiB/s,降幅约 {}%【出处:R3 实测】。"
    assert verdicts(SLIDES, body.format("6"))["约 6%"] in OK
    assert verdicts(SLIDES, body.format("8"))["约 8%"] not in OK


def test_a_ratio_of_the_sentences_own_operands_is_not_taken_from_another_column() -> None:
    # 52.517 / 12.251 = 4.29; 4.2 is the p99 column's 93.267 / 22.456, which the sentence does not state
    body = "4MB 对象在 batch=16 时 p50 为 52.517 ms,约为 batch=4(12.251 ms)的 {} 倍【出处:R3 实测】。"
    assert verdicts(SLIDES, body.format("4.3"))["4.3 倍"] in OK
    assert verdicts(SLIDES, body.format("4.2"))["4.2 倍"] not in OK


def test_a_change_of_a_stated_pair_is_not_derived_from_other_cells() -> None:
    # (540 − 185) / 540 = 65.7 %; a 36 % drop holds between two cells of another table, not between 540 and 185
    body = ("On a single A53 with ACL, raising the minimum face size from 32*32 to 64*64 cuts detection from 540 ms to "
            "185 ms per frame, a {}% reduction [source: R3].")  # fmt: skip
    assert verdicts(FACE, body.format("66"), lang="en")["66%"] in OK
    assert verdicts(FACE, body.format("36"), lang="en")["36%"] not in OK


def test_a_restated_number_does_not_excuse_a_cell_of_another_batch() -> None:
    # 1MB, batch 16: p99 24.824 ms; 3.046 ms is the batch 1 row's p99. `or about 0.025 s` restates the number, it is
    # no other side of a from→to pair that would let a cell of another batch stand for it.
    body = "At 1MB and batch=16 the p99 is {} ms, or about 0.025 s [source: R3]."
    assert verdicts(STORE, body.format("24.824"), lang="en")["24.824 ms"] in OK
    wrong = check_body(STORE, body.format("3.046"), lang="en").numbers
    bad = next(n for n in wrong if n.text == "3.046 ms")
    assert bad.status == "mismatch"
    assert bad.source is not None and bad.source.value == 24.824  # the fix: the cell of the row the sentence names


def test_a_bare_number_needs_words_of_the_figures_own_labels() -> None:
    # The report prints `misses=0`; the 8 of the `batch` column shares only the table's caption (`read_perf`) with the
    # sentence: it backs no count of misses.
    body = "16 组 read_perf 全部成功,misses 为 {}【出处:R3 实测】。"
    assert verdicts(STORE, body.format("0"))["0"] in OK
    assert verdicts(STORE, body.format("8"))["8"] not in OK


def test_a_listed_number_is_not_found_verbatim_without_its_unit() -> None:
    # `4.7、7.5、9.3 亿元`: the bare 7.5 is the report's `研发费用率 7.5%` only by its digits
    body = "德邦研究所预计公司 2022-2024 年归母净利润 4.7、{}、9.3 亿元【出处:R3】。"
    assert verdicts(BROKER, body.format("7.2"))["7.2"] in OK
    assert verdicts(BROKER, body.format("7.5"))["7.5"] not in OK


def test_a_bare_number_is_not_named_by_a_number_both_texts_print() -> None:
    # cachepilot_mooncake_store_bench_zh.pdf table p.6: 4MB p99 5.242 ms at batch 1, 93.267 ms at batch 16; p.5 prints
    # `16 组 read_perf 全部 return_code=0,且 misses=0`. `from 0 to 16` is no batch of the report: that sentence shares
    # only the `16` with it (a number, not a word naming what the 0 counts).
    body = "The p99 latency of 4MB objects spans 5.242–93.267 ms as the batch grows from {} to 16 [source: R3]."
    assert verdicts(STORE, body.format("1"), lang="en")["1"] in OK
    assert verdicts(STORE, body.format("0"), lang="en")["0"] not in OK


def test_a_coarse_number_rounds_a_figure_only_in_its_context() -> None:
    # mooncake_fast25_kvcache_serving_paper.pdf p.12: "the average TTFT remains below 2 s" once the bandwidth exceeds
    # 100 Gbps; p.7's chart prints the ticks `3.07 3.58`, which `3 s` only rounds and whose words it shares none of.
    body = "总通信带宽超过 100 Gbps 时,平均 TTFT 保持在 {} s 以下【出处:R3 实测】。"
    assert verdicts(MOONCAKE, body.format("2"))["2 s"] in OK
    assert verdicts(MOONCAKE, body.format("3"))["3 s"] not in OK


def test_a_section_heading_word_does_not_name_a_bare_figure_of_prose() -> None:
    # oaid_caffe_hrt_perf_report.pdf Table 1 (p.6, read from the page image): SqueezeNet 144.30 ms, gain 1.00; ResNet18
    # 1.03, ResNet34 1.02, ResNet50 1.01. A `0.01` of the report is a chart's axis tick under `4.3 SqueezeNet`: the
    # section's name is no word of the tick's own.
    body = "SqueezeNet stays at 144.30 ms, a gain of 1.00, and the three ResNets gain only {}–1.03 [source: R3]."
    assert verdicts(HRT, body.format("1.01"), lang="en")["1.01–1.03"] in OK
    assert verdicts(HRT, body.format("0.01"), lang="en")["0.01–1.03"] not in OK


def test_a_round_value_of_another_sentence_of_prose_is_no_evidence() -> None:
    # mooncake_fast25_kvcache_serving_paper.pdf p.10: "whereas about 20% of requests handled by vLLM exceed 300 ms"
    # (Figure 7, synthetic workload); 50% is p.11's "does not achieve 50% of the theoretical maximum hit rate", a
    # sentence the claim shares no word with.
    body = "合成负载下约 {}% 的 vLLM 请求 TBT 超过 300 ms【出处:R3 实测】。"
    assert verdicts(MOONCAKE, body.format("20"))["约 20%"] in OK
    assert verdicts(MOONCAKE, body.format("50"))["约 50%"] not in OK


def _r2_status(body: str, text: str) -> str:
    """The verdict on `text` in an English article body citing the bundled example report site/reports/R2.pdf."""
    parsed = parse_pdf(Path(__file__).resolve().parent.parent / "site" / "reports" / "R2.pdf", report_id="R2")
    rep = Report(id="R2", title="R2", date=dt.date(2026, 1, 1), access="public", file="R2.pdf", sha256="0", version=1,
                 pages=len(parsed.pages))  # fmt: skip
    index = EvidenceIndex(reports={"R2": rep}, figures={"R2": parsed.figures}, pages={"R2": parsed.pages})
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R2]\nanswer: a\n---\n\n{body}\n"
    return next(n.status for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text == text)


# site/reports/R2.pdf 表 4-2 (p.3, read from the page image): TP8 gains 29.0% at concurrency 8 and 40.0% at 16; the
# whole machine (TP4×2) 35.2% and 36.1%.
THROUGHPUT = "- Throughput up {}%: 29% at concurrency 8 and 40% at concurrency 16; the whole machine (TP4×2) gains {}% [source: R2]."


def test_a_range_whose_ends_are_one_figure_is_no_span() -> None:
    # `36–36%` rests both ends on the 36.1% cell: it states no span.
    assert _r2_status(THROUGHPUT.format("29–40", "35–36"), "35–36%") in OK
    assert _r2_status(THROUGHPUT.format("29–40", "36–36"), "36–36%") == "mismatch"


def test_a_range_before_a_colon_spans_the_numbers_listed_after_it() -> None:
    # `29–35.2%` holds two cells of the column (TP8 at 8, TP4×2 at 8), but sums up 29%, 40% and 35–36%: 29–40%.
    assert _r2_status(THROUGHPUT.format("29–40", "35–36"), "29–40%") in OK
    assert _r2_status(THROUGHPUT.format("29–35.2", "35–36"), "29–35.2%") == "mismatch"


BROKER_G = "mineru_broker_research_report_zh.pdf"


def test_a_list_ordinal_of_the_report_backs_no_number() -> None:
    # mineru_broker_research_report_zh.pdf p.1 (pdftotext -layout): "公司 22 年 1 季度产能 712 万公里,年化产能超
    # 2500 万公里"; its `相关研究` list numbers titles `1.《…》 2.《光伏设备:…》`: that 2 is an ordinal, no quarter.
    body = "公司 22 年 {} 季度金刚线产能 712 万公里,年化产能超 2500 万公里【出处:R3】。"
    assert verdicts(BROKER_G, body.format("1"))["1"] in OK
    assert verdicts(BROKER_G, body.format("2"))["2"] not in OK
