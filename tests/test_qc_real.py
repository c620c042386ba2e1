"""QC over real corpus PDFs, one test per finding of issue 14: a wrong number is caught, the right one verifies.

Expected figures were read from the page images (pdftoppm -png): cachepilot_mooncake_store_bench_zh.pdf p.5
表 6 (value size / batch / MiB/s / p50/ms / p95/ms / p99/ms): 64KB·4 → 694.43, 0.304, 0.503; 1MB·4 → 1399.08
(the peak, also in the prose below it); 4MB·16 → 1015.36, 52.517; 4KB·1 → 28.78. oaid_facerecognition p.7
Table 4.2 (single A72): 480P 48*48 single face, Extraction (ms/frame) → 747.
"""

from __future__ import annotations

from real_support import FACE, OK, STORE, check_body, verdicts

from qc.numbers import extract


def _one(name: str, body: str, text: str, lang: str = "zh") -> tuple[str, str, str]:
    n = next(n for n in check_body(name, body, lang=lang).numbers if n.text.strip() == text)
    return n.status, n.message, n.strength


def test_a_wrong_value_is_a_mismatch_naming_the_figure_of_its_row() -> None:
    for wrong in ("1370.30", "649.43"):  # 1370.30 = 1399.08 − 28.78; 649.43: two digits swapped
        status, message, _ = _one(STORE, f"64KB、batch=4 的带宽为 {wrong} MiB/s【出处:R3 实测】。", f"{wrong} MiB/s")
        assert status == "mismatch" and "694.43" in message, message
    status, _, strength = _one(STORE, "64KB、batch=4 的带宽为 694.43 MiB/s【出处:R3 实测】。", "694.43 MiB/s")
    assert status == "verified" and strength == "figure in context"


def test_a_drop_derives_only_from_the_operands_the_sentence_states() -> None:
    # 40% is (p95 − p50)/p95 of another metric pair in one row; the stated drop is (1399.08 − 1015.36)/1399.08.
    body = "峰值带宽为 1399.08 MiB/s,4MB、batch=16 的带宽为 1015.36 MiB/s,比峰值下降 {}【出处:R3 实测】。"
    assert verdicts(STORE, body.format("40%"))["40%"] not in OK
    assert verdicts(STORE, "4MB、batch=16 的带宽比峰值下降 40%【出处:R3 实测】。")["40%"] not in OK
    status, _, strength = _one(STORE, body.format("27.4%"), "27.4%")
    assert status == "derived" and strength == "stated derivation"
    assert verdicts(STORE, body.format("27.4%"))["1399.08 MiB/s"] == "verified"  # the peak, in its own clause


def test_a_ratio_never_rests_on_a_stray_figure() -> None:
    assert verdicts(STORE, "1MB、batch=4 的带宽约为 4KB、batch=1 的 4 倍【出处:R3 实测】。")["4 倍"] not in OK
    body = "1MB、batch=4 时达到峰值 1399.08 MiB/s,约为 4KB、batch=1(28.78 MiB/s)的 {} 倍【出处:R3 实测】。"
    assert verdicts(STORE, body.format(36))["36 倍"] not in OK
    assert verdicts(STORE, body.format(49))["49 倍"] == "derived"  # 1399.08 / 28.78 = 48.6


def test_a_changed_unit_does_not_pass() -> None:
    body = "On a single A72 core, feature extraction for a single 48*48 face takes {} [source: R3]."
    assert verdicts(FACE, body.format("747 ms/frame"), lang="en")["747 ms/frame"] == "verified"
    for wrong in ("757 ms/frame", "747 s/frame"):
        assert verdicts(FACE, body.format(wrong), lang="en")[wrong] == "mismatch"


def test_an_article_table_takes_its_header_units() -> None:
    table = (
        "read_perf 的代表性结果如下【出处:R3 实测】。\n\n| value size | batch | MiB/s | p50/ms |\n| --- | --- | --- | --- |\n"
        "| 64KB | 4 | 694.43 | 0.304 |\n| 4MB | 16 | 1015.36 | {} |\n"
    )
    good = {n.text.strip(): n for n in check_body(STORE, table.format("52.517")).numbers}
    assert all(good[t].status == "verified" for t in ("694.43", "0.304", "1015.36", "52.517")), good
    bad = {n.text.strip(): n for n in check_body(STORE, table.format("0.503")).numbers}  # 64KB's p95, not 4MB's p50
    assert bad["0.503"].status == "mismatch" and "52.517" in bad["0.503"].message


def test_thousands_separators_before_punctuation_are_one_number() -> None:
    assert [(q.text, q.value) for q in extract("达到 600,000, 比基线高")] == [("600,000", 600000.0)]
    assert [q.value for q in extract("2,128,918, in line with the log")] == [2128918.0]
    assert [q.value for q in extract("options 1,2,3")] == [1.0, 2.0, 3.0]
    assert [(q.value, q.unit) for q in extract("takes 756 ms/frame.")] == [(756.0, "ms/frame")]


MOONCAKE = "mooncake_fast25_kvcache_serving_paper.pdf"  # p.9 Table 2: Workload Statistics (columns per workload)


def test_a_value_from_another_workloads_column_is_a_mismatch() -> None:
    # Table 2 prints Cache Ratio 40% (Conversation), 59% (Tool&Agent), 66% (Synthetic).
    status, message, _ = _one(MOONCAKE, "The Tool&Agent workload has a cache ratio of 66% [source: R3].", "66%", "en")
    assert status == "mismatch" and "59%" in message and "Tool&Agent" in message
    assert (
        _one(MOONCAKE, "The Tool&Agent workload has a cache ratio of 59% [source: R3].", "59%", "en")[0] == "verified"
    )


def test_a_ratio_in_words_derives_from_the_column_the_sentence_names() -> None:
    # Avg Input Len / Avg Output Len: Conversation 12035 / 343 = 35.1; Tool&Agent 8596 / 182 = 47.2.
    body = "In the {} workload, the average input is about {} times the average output [source: R3]."
    status, _, strength = _one(MOONCAKE, body.format("Conversation", 35), "about 35 times", "en")
    assert status == "derived" and strength == "derivation from one column" and "12035" in check_body(
        MOONCAKE, body.format("Conversation", 35), lang="en").numbers[0].derivation  # fmt: skip
    assert _one(MOONCAKE, body.format("Tool&Agent", 47), "about 47 times", "en")[0] == "derived"
    for wrong in (body.format("Tool&Agent", 35), body.format("Conversation", 49), body.format("Tool&Agent", 49)):
        assert _one(MOONCAKE, wrong, next(w for w in ("about 35 times", "about 49 times") if w in wrong), "en")[0] \
            not in OK, wrong  # fmt: skip
    both = "The average input of the Conversation workload (12,035 tokens) is roughly 35 times its output (343 tokens) [source: R3]."
    assert verdicts(MOONCAKE, both, lang="en") == {"12,035 tokens": "verified", "roughly 35 times": "derived",
                                                    "343 tokens": "verified", "R3": "exempt"}  # fmt: skip


def test_model_numbers_the_report_uses_as_names_are_identifiers() -> None:
    assert _one(STORE, "测试机器为单卡 RTX 4090【出处:R3 实测】。", "4090")[0] == "exempt"  # p.3: 单卡 RTX 4090
    assert _one(STORE, "测试机器为单卡 RTX 4080【出处:R3 实测】。", "4080")[0] not in (*OK, "exempt")
    yalanting = "yalantinglibs_coro_rpc_qps_slides_zh.pdf"  # p.21: Intel(R) Xeon(R) Platinum 8163 CPU
    assert _one(yalanting, "The server has an Intel Xeon Platinum 8163 CPU [source: R3].", "8163", "en")[0] == "exempt"
