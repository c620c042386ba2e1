"""QC's row keys over real corpus PDFs (issue 14, part B): a figure of another row, year or order is a mismatch.

Expected figures read with `pdftotext -layout`: cachepilot_mooncake_store_bench_zh.pdf p.6 表 7 (value size / batch /
req/s / kv/s / MiB/s / p50/ms / p99/ms): 1MB·1 → p99 3.046; 1MB·16 → p99 24.824; 4KB·1 → req/s 7368.67, p50 0.106;
4KB·4 → req/s 4392.48; 4KB·16 → req/s 2237.75, MiB/s 139.86, p50 0.352; 4MB·4 → p50 12.251, p99 22.456; 4MB·16 →
p99 93.267; 1MB·4 → p50 2.574. broker_report_metrics_table_zh.pdf p.1: 营业收入(亿元) 2024A 3,374.88, 2026E 3,552.00.
"""

from __future__ import annotations

from real_support import OK, STORE, verdicts

BANK = "broker_report_metrics_table_zh.pdf"


def test_a_figure_of_another_batch_is_a_mismatch() -> None:
    body = "At 1MB and batch=16 the p99 is {} ms [source: R3]."
    assert verdicts(STORE, body.format("24.824"), lang="en")["24.824 ms"] == "verified"
    assert verdicts(STORE, body.format("3.046"), lang="en")["3.046 ms"] == "mismatch"  # batch 1's p99


def test_each_clause_keys_its_own_number() -> None:
    body = "1MB、batch=1 的 p99 为 3.046 ms,1MB、batch=16 的 p99 为 {} ms【出处:R3 实测】。"
    assert verdicts(STORE, body.format("24.824"))["24.824 ms"] == "verified"
    assert verdicts(STORE, body.format("5.956"))["5.956 ms"] not in OK  # 5.956 is batch 4's


def test_a_clause_inherits_the_size_it_does_not_name() -> None:
    body = "4MB 对象在 batch=16 时 p99 为 93.267 ms,约为 batch=4({} ms)的 4.2 倍【出处:R3 实测】。"
    assert verdicts(STORE, body.format("22.456"))["22.456 ms"] == "verified"
    assert verdicts(STORE, body.format("2.574"))["2.574 ms"] not in OK  # 1MB's p50, not 4MB's


def test_an_article_tables_integer_cells_key_its_row() -> None:
    table = "| value size | batch | MiB/s | p50 (ms) |\n|---|---|---|---|\n| 4KB | 16 | 139.86 | {} |\n"
    text = "read_perf 结果【出处:R3 实测】:\n\n" + table
    assert verdicts(STORE, text.format("0.352"))["0.352"] == "verified"
    assert verdicts(STORE, text.format("0.106"))["0.106"] == "mismatch"  # batch 1's p50


def test_from_to_keys_pair_with_from_to_figures_in_order() -> None:
    body = "4MB 对象下 batch 从 4 增至 16,p99 从 {} ms 升至 {} ms【出处:R3 实测】。"
    right = verdicts(STORE, body.format("22.456", "93.267"))
    assert right["22.456 ms"] == right["93.267 ms"] == "verified"
    swapped = verdicts(STORE, body.format("93.267", "22.456"))
    assert swapped["93.267 ms"] == "mismatch" or swapped["22.456 ms"] == "mismatch"


def test_a_shared_key_allows_its_own_row_beside_another() -> None:
    # `batch to 16` keys the 2,237.75 of the change; 7,368.67 (batch 1) is its before, named by the other number
    body = "Raising the batch to 16 cut requests per second from 7,368.67 to {} [source: R3]."
    result = verdicts(STORE, body.format("2,237.75"), lang="en")
    assert result["7,368.67"] == result["2,237.75"] == "verified"
    assert verdicts(STORE, body.format("3339.45"), lang="en")["3339.45"] not in OK  # batch 8's, not 16's


def test_a_year_column_is_a_row_key() -> None:
    body = "营业收入预计从 2024 年的 {} 亿元增至 2026 年的 {} 亿元【出处:R3】。"
    right = verdicts(BANK, body.format("3,374.88", "3,552.00"))
    assert right["3,374.88 亿元"] == right["3,552.00 亿元"] == "verified"
    swapped = verdicts(BANK, body.format("3,552.00", "3,374.88"))
    assert "mismatch" in (swapped["3,552.00 亿元"], swapped["3,374.88 亿元"])


FACE = "oaid_facerecognition_rk3399_perf_report.pdf"  # p.14 Table 7.1: Recall 0.80, Precision 0.77, Stability 0.65
CREDIT = (
    "pymupdf_chinese_tables_zh.pdf"  # 表 7-2, 工商银行: 授信总额 330,435.30, 已使用情况 234,850.00, 剩余额度 95,585.30
)


def test_swapped_bare_decimals_are_caught_by_their_own_labels() -> None:
    body = "On the CelebA subset, recall is {}, precision {} and stability 0.65 [source: R3]."
    right = verdicts(FACE, body.format("0.80", "0.77"), lang="en")
    assert right["0.80"] == right["0.77"] == "verified"
    swapped = verdicts(FACE, body.format("0.77", "0.80"), lang="en")
    assert swapped["0.77"] == "mismatch"  # recall is 0.80


def test_a_swap_is_not_excused_by_the_other_number_standing_for_its_figure() -> None:
    body = "工商银行授信总额 330,435.30 万元,已使用 {} 万元,剩余 {} 万元【出处:R3】。"
    right = verdicts(CREDIT, body.format("234,850.00", "95,585.30"))
    assert right["234,850.00 万元"] == right["95,585.30 万元"] == "verified"
    swapped = verdicts(CREDIT, body.format("95,585.30", "234,850.00"))
    assert swapped["234,850.00 万元"] == swapped["95,585.30 万元"] == "mismatch"


GRID = (
    "office/grid_tables_zh.pdf"  # 表 2-1: 128K → 本地重算 35.10 s, 开启外存缓存 7.84 s; 64K → 3.96 s (read off the PDF)
)


def test_the_new_systems_name_in_a_from_to_sentence_does_not_rekey_its_before_value() -> None:
    for body in (
        "开启外存缓存后 128K 上下文的首字延迟从 35.10 秒降至 7.84 秒【出处:R3 实测】。",
        "128K 上下文首字延迟从本地重算的 35.10 s 降至开启外存缓存后的 7.84 s【出处:R3 实测】。",
    ):
        result = verdicts(GRID, body)
        assert result["35.10 秒" if "秒" in body else "35.10 s"] == "verified", result
        assert {v for k, v in result.items() if k != "R3"} == {"verified"}, result
    wrong = verdicts(GRID, "开启外存缓存后 128K 上下文的首字延迟从 35.10 秒降至 3.96 秒【出处:R3 实测】。")
    assert wrong["3.96 秒"] == "mismatch"  # 64K's value


def test_a_part_after_a_semicolon_keeps_the_year_its_full_sentence_names() -> None:
    # p.1: `不良贷款率持续下行至0.92%` (prose); 不良贷款率（%） 2024A 0.95, 2025E 0.93, 2026E 0.92 (table)
    body = "2025 年上半年营收同比增长 1.6%;不良贷款率下行至 {}【出处:R3】。"
    assert verdicts(BANK, body.format("0.92%"))["0.92%"] == "verified"
    assert verdicts(BANK, body.format("0.95%"))["0.95%"] == "mismatch"  # 2024A's, not 2025's
