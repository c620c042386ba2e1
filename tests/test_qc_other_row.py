"""A number backed only by a figure whose row the sentence names: another row's value (issue 14, chance control).

Expected figures read from the PDFs (pdftotext -layout): oaid_caffe_hrt_perf_report.pdf p.7 Table 2 (TPI, Allocate,
Run, Config, Copy in s): 1st ACL/GPU 2.4794 0.1822 0.0648 1.5011 0.7269; Avg. Time ACL/GPU 0.1542 (Run 0.0127, Copy
0.1406). oaid_facerecognition_rk3399_perf_report.pdf p.6 Table 4.1 (single A53, ms/frame): 480P 32*32 single face
detection 540, extraction 1172; 480P 64*64 single face detection 185; 480P 32*32 two faces detection 573; 480P 48*48
two faces detection 307. mineru_broker_research_report_zh.pdf p.1: `公司 22
年 1 季度产能712 万公里`, `40 线、38 线向 36 线、35 线`. yatha_hotword_perf_report_zh.pdf p.8–9: TopK 5 3.87s (+6.0%),
TopK 20 ~3.65s, TopK 100 ~3.75s (+3.6%); 窗口大小 600s 3.65s. broker_report_metrics_table_zh.pdf p.1: `对应EPS分别为
6.02/6.26/6.52元`, `目标价38.50元`, `52周最高/最低 41.88 / 28.63元`. oaid_cvgesture_rk3399_perf_report.pdf p.6 (simple
background, FPS and ms): 2xA72@1.80G 27.1 37; 2xA72@1.80G+4xA53@1.42G 14.1 71. yatha_hotword_perf_report_zh.pdf p.10,
the raw output `Run 1: 总耗时 =4.41s, 用户态 =3.20s, 系统态 =0.50s, …`, `Run 2: 总耗时 =3.63s, 用户态 =3.18s, 系统态 =0.49s`;
`用户态时间 3.15s 0.06s 1.9%`; `后续运行稳定：用户态时间标准差仅 0.06s`.
"""

from __future__ import annotations

from real_support import BROKER, FACE, GESTURE, OK, YATHA, check_body, verdicts

from qc.context import context_tokens

CAFFE = "oaid_caffe_hrt_perf_report.pdf"
METRICS = "broker_report_metrics_table_zh.pdf"


def test_a_word_every_row_shares_in_some_form_names_no_row() -> None:
    # `single face` and `two faces`: `face` is in every row label once stemmed, so it names neither row
    body = ("Feature extraction: on a single A53, one face at 32*32 takes 1172 ms/frame to extract, against {} "
            "ms/frame for detection [source: R3].")  # fmt: skip
    assert verdicts(FACE, body.format(540), lang="en")["540 ms/frame"] == "verified"
    assert verdicts(FACE, body.format(307), lang="en")["307 ms/frame"] not in OK  # the 48*48 two-faces row


def test_a_part_of_a_breakdown_row_backs_only_a_claim_naming_its_column() -> None:
    body = "The first loop is slow on the GPU: ACL/GPU takes {} s, of which 1.5011 s is Config [source: R3]."
    v = verdicts(CAFFE, body.format("2.4794"), lang="en")
    assert v["2.4794 s"] == "verified" and v["1.5011 s"] == "verified"  # the total; Config named
    wrong = next(n for n in check_body(CAFFE, body.format("0.1822"), lang="en").numbers if n.text == "0.1822 s")
    assert wrong.status == "mismatch" and "2.4794" in wrong.message, wrong.message  # Allocate: the row's total
    assert verdicts(CAFFE, "- MIXED: 0.0319 s per inference [source: R3].", lang="en")["0.0319 s"] not in OK  # Run
    assert verdicts(CAFFE, "- MIXED: 0.5348 s per inference [source: R3].", lang="en")["0.5348 s"] == "verified"


def test_an_ordinal_in_words_names_the_row_labelled_by_it() -> None:
    body = "The first loop is slow on the GPU: ACL/GPU takes {} s, of which 1.5011 s is Config [source: R3]."
    assert verdicts(CAFFE, body.format("0.1542"), lang="en")["0.1542 s"] not in OK  # the Avg. Time row's TPI
    assert {"1st", "2nd", "10th"} <= context_tokens("首次运行, the second run, 第十轮")
    assert "10th" not in context_tokens("第十一次")  # (the eleventh)


def test_a_bare_number_counts_the_word_after_it() -> None:
    body = "公司 22 年 {} 季度金刚线产能 712 万公里,年化产能超 2500 万公里【出处:R3】。"
    assert verdicts(BROKER, body.format(1))["1"] == "verified"
    assert verdicts(BROKER, body.format(35))["35"] not in OK  # `35 线` of the report counts wire gauges
    assert verdicts(BROKER, body.format(40))["40"] not in OK


def test_a_key_the_sentence_gives_rules_out_rows_of_another_key() -> None:
    body = "- TopK:TopK 为 5 时总耗时 3.87 s(+6.0%),为 100 时约 {} s(+3.6%)【出处:R3 实测】。"
    v = verdicts(YATHA, body.format("3.75"))
    assert v["3.87 s"] == "verified" and v["约 3.75 s"] == "verified" and v["+3.6%"] == "verified"
    assert verdicts(YATHA, body.format("3.65"))["约 3.65 s"] not in OK  # 窗口大小 600s's (and TopK 20's)
    assert verdicts(YATHA, "- TopK 为 5 时总耗时 3.62 s【出处:R3 实测】。")["3.62 s"] not in OK  # TopK 10's


def test_a_term_right_before_a_number_labels_that_number() -> None:
    # the report prints 目标价 right before 38.50: an EPS of its forecast sentence is no target price
    body = "当前股价对应 2025 年 PE 约 6.0 倍、PB 约 0.95 倍,目标价 {} 元【出处:R3】。"
    assert verdicts(METRICS, body.format("38.50"))["38.50 元"] == "verified"
    for wrong in ("6.26", "6.52", "28.63"):
        assert verdicts(METRICS, body.format(wrong))[f"{wrong} 元"] not in OK, wrong


def test_a_row_keyed_by_a_combination_is_not_the_row_of_its_part() -> None:
    # `2xA72@1.80G+4xA53@1.42G` contains `2xA72@1.80G`, a row of its own: a claim naming only the part is that row's
    body = "On a simple background 2xA72@1.80G reaches {} FPS [source: R3]."
    assert verdicts(GESTURE, body.format("27.1"), lang="en")["27.1 FPS"] == "verified"
    wrong = next(n for n in check_body(GESTURE, body.format("14.1"), lang="en").numbers if n.text == "14.1 FPS")
    assert wrong.status == "mismatch" and "27.1" in wrong.message, wrong.message
    both = "On a simple background 2xA72@1.80G+4xA53@1.42G reaches 14.1 FPS [source: R3]."
    assert verdicts(GESTURE, both, lang="en")["14.1 FPS"] == "verified"  # the whole combination named


def test_a_table_printed_again_under_another_section_is_not_the_claims() -> None:
    # p.6 `4.1 Simple background`: 1xA72@1.80G 14.3 FPS, 69 ms; p.7 `4.2 Complex background`: 1xA72@1.80G 10.7, 93.3
    table = ("## Speed on a simple background\n\nFrame rate and detection time per core set [source: R3]:\n\n"
             "| Cores | FPS | Detection time (ms) |\n|---|---|---|\n| 1xA72@1.80G | {} | {} |\n")  # fmt: skip
    right = verdicts(GESTURE, table.format("14.3", "69"), lang="en")
    assert (right["14.3"], right["69"]) == ("verified", "verified")
    checked = {n.text: n for n in check_body(GESTURE, table.format("10.7", "93.3"), lang="en").numbers}
    assert checked["10.7"].status == "mismatch" and "14.3" in checked["10.7"].message, checked["10.7"].message
    assert checked["93.3"].status == "mismatch" and "69" in checked["93.3"].message, checked["93.3"].message
    # naming the complex background, the same cells are right
    other = table.format("10.7", "93.3").replace("simple", "complex")
    right = verdicts(GESTURE, other, lang="en")
    assert (right["10.7"], right["93.3"]) == ("verified", "verified")


def test_a_claims_metric_term_rules_out_a_figure_the_report_prints_under_another_term() -> None:
    # the claim's own metric (`EPS`, `最低价`) is a term the report prints right before other numbers of its unit
    # (`对应EPS分别为6.02/6.26/6.52元`, `52周最高/最低 41.88 / 28.63元`): `目标价38.50元` backs neither
    eps = "预计 2025-2027 年 EPS 分别为 6.02/{}/6.52 元【出处:R3】。"
    assert verdicts(METRICS, eps.format("6.26"))["6.26"] == "verified"
    for wrong in ("38.50", "28.63"):
        assert verdicts(METRICS, eps.format(wrong))[wrong] not in OK, wrong
    low = "52 周最高价 41.88 元、最低价 {} 元【出处:R3】。"
    assert verdicts(METRICS, low.format("28.63"))["28.63 元"] == "verified"
    for wrong in ("38.50", "6.52"):
        n = next(n for n in check_body(METRICS, low.format(wrong)).numbers if n.text == f"{wrong} 元")
        assert n.status not in OK, wrong
        assert f"says {wrong}" not in n.message, n.message  # the fix named is another figure, not the same value


def test_a_figure_printed_after_a_term_of_its_own_is_named_by_that_term() -> None:
    # a run log's `系统态 =0.49s` is named by 系统态, not by the rest of its line: no `用户态时间标准差` (the log prints
    # 用户态 before other seconds), nor a `总耗时平均`
    # (the sentence states Run 1's 总耗时 4.41 s too: the log's other 总耗时 still name the `总耗时平均`, so no swap)
    body = "5 次运行的总耗时平均 {} s,变异系数 9.3%;首次运行为 4.41 s,用户态时间标准差仅 {} s【出处:R3 实测】。"
    v = verdicts(YATHA, body.format("3.78", "0.06"))
    assert v["3.78 s"] == "verified" and v["0.06 s"] == "verified"
    assert verdicts(YATHA, body.format("3.78", "0.49"))["0.49 s"] not in OK
    assert verdicts(YATHA, body.format("0.49", "0.06"))["0.49 s"] not in OK
    assert verdicts(YATHA, "首次运行偏慢,总耗时 4.41 s【出处:R3 实测】。")["4.41 s"] == "verified"  # Run 1's 总耗时


def test_a_count_word_and_a_size_carry_to_the_later_clause_of_a_comparison() -> None:
    # `one face at 32*32` keys the sentence: the detection time set against it is of that row too, not 32*32 two
    # faces' 573 nor 64*64 single face's 185
    body = ("Feature extraction: on a single A53, one face at 32*32 takes 1172 ms/frame to extract, against {} "
            "ms/frame for detection [source: R3].")  # fmt: skip
    assert verdicts(FACE, body.format(540), lang="en")["540 ms/frame"] == "verified"
    for wrong in (573, 185):
        n = next(n for n in check_body(FACE, body.format(wrong), lang="en").numbers if n.text == f"{wrong} ms/frame")
        assert n.status == "mismatch" and "540" in n.message, n.message
    assert {"1xface", "32x32"} <= context_tokens("one face at 32*32") and "2xface" in context_tokens("two faces")


def test_a_measure_and_its_unit_alone_are_no_verbatim_rescue() -> None:
    # mineru_broker_research_report_zh.pdf p.1: `目前 36 线单 GW 切割线耗约 50 万公里`; `712 万公里` is the quarter's
    # capacity (`季度产能712 万公里`): printed elsewhere with its unit, it says nothing of the wire used per GW
    body = "目前 36 线单 GW 切割线耗约 {} 万公里,较 38 线提升约 30%【出处:R3】。"
    assert verdicts("mineru_broker_research_report_zh.pdf", body.format("50"))["约 50 万公里"] in (
        "verified",
        "derived",
    )
    assert verdicts("mineru_broker_research_report_zh.pdf", body.format("712"))["约 712 万公里"] not in (
        "verified",
        "derived",
    )
