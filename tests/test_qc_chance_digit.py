"""Chance control (issue 14, digit kinds): a changed digit passes no more by a section number or two cells of a long row.

Expected figures read from the PDFs (pypdf text): oaid_caffe_hrt_perf_report.pdf p.6 Table 1 Performance comparation
(Original Caffe (ms) / Caffe-HRT (ms) / Performance Gain): GoogleNet 1387.70 494.00 2.81; p.9 Table 5 GoogleNet
Performance for each layer, Avg. Time (TPI (s) CONV (s) FC (s) LRN (s) Pooling (s) RELU (s) SOFTMAX (s)): ACL/NEON
0.6268 0.4938 0.0061 0.0542 0.0371 0.0175 0.0001. mooncake_fast25_kvcache_serving_paper.pdf p.12 §5.4.1: the transfer
engine achieves bandwidth of 87 GB/s and 190 GB/s under network configurations of 4×200 Gbps and 8×400 Gbps; the
page's heading `5.4.2 Bandwidth Demand by MOONCAKE`. oaid_facerecognition_rk3399_perf_report.pdf p.7 Table 4.2
Performance of different part on Single A72 (Detection / Extraction / Verification / Total, ms/frame): 480P 48*48 single
face 134 747 0 882; p.8 Table 4.3 … on Two A72: 480P 48*48 single face 133 437 0 571.
yatha_hotword_perf_report_zh.pdf p.7 (数据集 行数 总耗时 表观吞吐量 纯处理时间 实际吞吐量): input3_double (2x) 29,828 4.78s 6,240 行 / 秒
2.14s 13,937 行 / 秒; p.5, the empty file's raw output: Run 1: 总耗时 =2.62s, 用户态 =2.15s, ….
oaid_caffe_hrt_perf_report.pdf p.6 Table 1: AlexNet 932.70 534.80 1.74, MobileNet 305.00 292.80 1.04; p.23 Table 23 The
TPI data for different CPU cores (AlexNet (s) GoogleNet (s) MobileNet (s) …): 4xA53 0.3181 0.6078 0.5532 …,
2xA72+4xA53 0.2493 0.5355 0.2382 ….
"""

from __future__ import annotations

from real_support import MOONCAKE, OK, YATHA, check_body, verdicts

from qc.match import key_in_label
from qc.numbers import extract

CAFFE = "oaid_caffe_hrt_perf_report.pdf"
FACEREC = "oaid_facerecognition_rk3399_perf_report.pdf"


def test_a_change_rests_on_a_long_row_only_where_the_sentence_names_both_columns() -> None:
    body = "In percent, GoogleNet's time per inference falls by {} [source: R3]."
    assert verdicts(CAFFE, body.format("64%"), lang="en")["64%"] == "derived"  # (1387.70−494.00)/1387.70
    # (0.0371−0.0061)/0.0371 = 83.6%: Pooling against FC of the per-layer row, two columns no word names
    assert verdicts(CAFFE, body.format("84%"), lang="en")["84%"] not in OK


def test_an_elided_clause_keeps_the_row_and_the_verb_of_the_clause_before_it() -> None:
    body = ("In percent, GoogleNet's time per inference falls by 64%, AlexNet's by {} and MobileNet's by 4% "
            "[source: R3].")  # fmt: skip
    assert verdicts(CAFFE, body.format("43%"), lang="en")["43%"] == "derived"  # (932.70−534.80)/932.70 = 42.66%
    # (0.5532−0.3181)/0.5532 = 42.5%: Table 23's 4xA53 row, AlexNet against MobileNet; the sentence names no 4xA53
    # and the clause (`AlexNet's by`) only one of the two columns
    assert verdicts(CAFFE, body.format("42%"), lang="en")["42%"] not in OK
    # (932.70−534.80)/534.80 = 74.4%: a rise of the AlexNet row, where `falls by` is the elided verb
    assert verdicts(CAFFE, body.format("74%"), lang="en")["74%"] not in OK
    # (0.2493−0.2382)/0.2382 = 4.66%: 2xA72+4xA53's AlexNet over its MobileNet, a row the sentence does not name
    wrong = body.replace("MobileNet's by 4%", "MobileNet's by 5%").format("43%")
    assert verdicts(CAFFE, wrong, lang="en")["5%"] not in OK


def test_a_section_number_is_no_row_key() -> None:
    body = (
        "Mooncake's transfer engine moved 40 GB of KVCache at 87 GB/s over {}×200 Gbps NICs and at 190 GB/s over "
        "8×400 Gbps NICs, about 2.2 times as fast on the larger network [source: R3]."
    )
    assert verdicts(MOONCAKE, body.format("4"), lang="en")["over 4×"] in OK
    wrong = next(n for n in check_body(MOONCAKE, body.format("2"), lang="en").numbers if n.text == "over 2×")
    assert wrong.status not in OK, wrong.message  # (no key 2 of the heading `5.4.2 Bandwidth Demand by MOONCAKE`)


def test_a_label_integer_names_a_row_only_as_a_whole_number() -> None:
    assert key_in_label("4", "batch 4") and key_in_label("2", "input3_double (2x)") and key_in_label("8", "1/8")
    assert not key_in_label("2", "5.4.2 Bandwidth Demand by MOONCAKE")
    assert not key_in_label("5", "5.4.2 Bandwidth Demand by MOONCAKE")
    assert not key_in_label("2", "2. 数据结构开销")
    assert not key_in_label("6", "分析: TopK 参数对总体性能影响极小( <6% ),因为:")


def test_an_article_table_cell_stands_for_the_report_row_its_row_mates_rest_on() -> None:
    table = (
        "| Two A72, test case | Detection (ms/frame) | Extraction (ms/frame) | Total (ms/frame) |\n|---|---|---|---|\n"
        "| 480P 48*48 single face | {} | 437 | 571 |\n\nThe table is of two A72 cores [source: R3]."
    )
    assert verdicts(FACEREC, table.format("133"), lang="en")["133"] == "verified"
    # 134 is the Single A72 table's cell of that row label and column: 437 and 571 are the Two A72 table's
    wrong = next(n for n in check_body(FACEREC, table.format("134"), lang="en").numbers if n.text == "134")
    assert wrong.status == "mismatch" and "133" in wrong.message, wrong.message


def test_a_span_of_months_is_a_date() -> None:
    # (G1 p.1: `2022 年光伏产业链景气度高涨,1-5 月光伏装机同比+24.4%`): `1-5 月` is January to May, no range to check
    got = [(q.text, q.exempt) for q in extract("2022 年 1-5 月光伏装机同比增长 24.4%")]
    assert got == [("2022 年", "date"), ("1-5 月", "date"), ("24.4%", None)]
    assert [q.exempt for q in extract("持续 3-5 个月")] == [None]  # (a duration stays a quantity)


def test_an_article_table_cell_stands_for_its_row_s_column_over_a_figure_of_prose() -> None:
    table = (
        "| 数据集 | 行数 | 总耗时 (s) | 纯处理时间 (s) | 实际吞吐量 (行/秒) |\n|---|---|---|---|---|\n"
        "| input3_double (2x) | 29,828 | 4.78 | {} | 13,937 |\n\n来源:【出处:R3 实测】"
    )
    assert verdicts(YATHA, table.format("2.14"))["2.14"] == "verified"
    # 2.15 s is run 1's user time of the empty file, not this row's pure processing time
    wrong = next(n for n in check_body(YATHA, table.format("2.15")).numbers if n.text == "2.15")
    assert wrong.status == "mismatch" and "2.14" in wrong.message, wrong.message
