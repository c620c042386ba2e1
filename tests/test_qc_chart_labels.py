"""A Chinese article over the English Mooncake paper (FAST '25): chart value labels, lists named before, one figure.

Expected figures were read from the page images (pdftoppm -png -r 80/200) of
tests/corpus/mooncake_fast25_kvcache_serving_paper.pdf: p.10 Figure 8 (prefill GPU time over Mooncake's: vLLM
1.56x/2.12x/2.76x, vLLM Prefix Caching 1.43x/1.40x/2.59x, vLLM Chunked Prefill 1.90x/2.68x/3.33x for Conversation,
Tool&Agent, Synthetic) and §5.2.2-5.2.3 (42% for tool&agent over vLLM with prefix caching, 40% for synthetic over
vLLM; Mooncake's TBT within 100 ms, 20% of vLLM's requests over 300 ms); p.11 §5.3.2 (136% more cache hits, up to
48% less prefill computation time, global vs local cache); p.12 §5.4.3 (prefix caching cuts prefill time by 92%).
"""

from __future__ import annotations

from real_support import MOONCAKE, check_body, corpus_index

from evidence.models import Figure
from qc.prepare import antecedent_names, in_chart_run

TABLE = """各方案 prefill GPU 时间相对 Mooncake 的倍数如下【出处:R3】:

| 负载 | vLLM 前缀缓存 (倍) | vLLM 分块 prefill (倍) |
|---|---|---|
| 对话 | {a} | {b} |
| 工具与智能体 | {c} | {d} |
| 合成 | {e} | {f} |
"""
RIGHT = {"a": "1.43", "b": "1.90", "c": "1.40", "d": "2.68", "e": "2.59", "f": "3.33"}


def _table(**changed: str) -> list[tuple[int, str, str]]:
    """(line, number, status) of each cell of the prefill table, some cells changed."""
    body = TABLE.format(**{**RIGHT, **changed})
    return [(n.line, n.text, n.status) for n in check_body(MOONCAKE, body).numbers if n.text != "R3"]


def _status(body: str, text: str) -> list[str]:
    return [n.status for n in check_body(MOONCAKE, body).numbers if n.text.strip() == text]


def test_the_chart_value_labels_are_a_glued_run_and_their_values_rest_on_the_sentences() -> None:
    figs = [f for f in corpus_index(MOONCAKE).figures["R3"] if f.page == 10 and in_chart_run(f, f.raw)]
    # the run `1.56x1.43x 1.90x 2.12x 1.40x 2.68x 2.76x2.59x 3.33x` of Figure 8, not the prose `1.90×, 2.68×, …`
    assert {f.raw for f in figs} >= {"1.90", "2.68", "3.33"}
    assert all("×" not in f.quote for f in figs)
    prose = Figure(id="x", report="R3", page=1, value=1.9, unit="x", raw="1.90", quote="1.90×, 2.68×, and 3.33× that")
    assert not in_chart_run(prose, "1.90")


def test_the_prefill_table_read_from_figure_8_passes() -> None:
    assert all(s == "verified" for _, _, s in _table()), _table()


def test_a_value_of_another_workload_in_the_chart_is_a_mismatch() -> None:
    # 2.68× is chunked prefill's tool&agent bar; the Figure 8 label line names every workload, the sentence
    # `1.90×, 2.68×, and 3.33× … for the three workloads` (named in order two sentences before) does not back it
    got = _table(b="2.68")
    assert ("2.68", "mismatch") in [(t, s) for _, t, s in got]
    # the fix named is chunked prefill's conversation figure, not a chart label of the same wrong value
    body = TABLE.format(**{**RIGHT, "b": "2.68"})
    bad = next(n for n in check_body(MOONCAKE, body).numbers if n.text == "2.68")
    assert bad.source is not None and bad.source.value == 1.9 and "×" in bad.source.quote
    got = _table(c="1.90")  # 1.90× is conversation's (chunked prefill), put in the tool&agent row
    assert ("1.90", "mismatch") in [(t, s) for _, t, s in got]


def test_two_values_swapped_between_the_columns_are_caught() -> None:
    got = _table(a="1.90", b="1.43")
    assert [s for _, t, s in got if t in ("1.90", "1.43")][:2] == ["mismatch", "mismatch"]


def test_one_figure_never_backs_two_cells_of_a_row() -> None:
    # 3.33× is chunked prefill's synthetic figure, put in the prefix-caching column as well
    got = [(t, s) for _, t, s in _table(e="3.33")]
    assert got[4:6] == [("3.33", "mismatch"), ("3.33", "verified")]


def test_the_names_of_a_list_are_found_before_it() -> None:
    before = (
        "achieving reductions of 36%, 53%, and 64% for conversation, tool&agent, and synthetic workloads, respectively"
    )
    assert antecedent_names(before, "workload", 3) == ["conversation", "tool&agent", "synthetic"]
    assert antecedent_names(before, "workload", 2) is None
    assert antecedent_names(before, "cluster", 3) is None


def test_one_figure_never_backs_two_numbers_of_a_sentence() -> None:
    ok = ("在 200 ms 的 TBT 阈值下,工具与智能体负载的有效缓存能力比带前缀缓存的 vLLM 提升 42%,合成负载的有效请求容量比 vLLM "
          "提升 40%【出处:R3】。")  # fmt: skip
    assert _status(ok, "42%") == ["verified"] and _status(ok, "40%") == ["verified"]
    assert _status(ok.replace("42%", "40%"), "40%") == ["mismatch", "verified"]


def test_a_number_beside_another_of_a_report_sentence_stands_for_that_sentences_figure() -> None:
    ok = "与本地缓存相比,Mooncake 的全局缓存使缓存命中率最多提升 136%,prefill 计算时间最多减少 48%【出处:R3】。"
    assert _status(ok, "48%") == ["verified"]
    # 92% is prefix caching's cut of the prefill time at 128k tokens (p.12); the sentence's 136% is p.11's
    bad = check_body(MOONCAKE, ok.replace("48%", "92%")).numbers
    got = next(n for n in bad if n.text == "92%")
    assert got.status == "mismatch" and got.source is not None and got.source.value == 48


def test_a_bound_one_way_never_rests_on_a_figure_limited_the_other_way() -> None:
    ok = "合成负载下约 20% 的 vLLM 请求 TBT 超过 300 ms【出处:R3】。"
    assert _status(ok, "超过 300 ms") == ["verified"]
    # Mooncake keeps TBT *within* 100 ms; the 20% of vLLM's requests are those over 300 ms
    bad = check_body(MOONCAKE, ok.replace("300 ms", "100 ms")).numbers
    got = next(n for n in bad if "100 ms" in n.text)
    assert got.status == "mismatch" and got.source is not None and got.source.value == 300


def test_a_value_only_the_chart_run_prints_backs_no_cell() -> None:
    # 2.12× is vLLM's tool&agent bar, printed only in Figure 8's glued label line, which names every workload and
    # series: it says no bar, so it is no vLLM-prefix-caching cell of any row
    for cell in ("a", "b", "d", "f"):
        got = _table(**{cell: "2.12"})
        assert ("2.12", "verified") not in [(t, s) for _, t, s in got], (cell, got)


def test_a_cell_whose_row_names_no_member_of_a_named_list_is_none_of_them() -> None:
    # `1.43× and 1.40× … for the conversation and tool&agent workloads, respectively`: the synthetic row names
    # neither, so neither value is its prefix-caching cell (2.59× is)
    for wrong in ("1.40", "1.43"):
        got = _table(e=wrong)
        assert got[4][1:] == (wrong, "mismatch"), got
