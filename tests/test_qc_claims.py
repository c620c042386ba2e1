"""QC rules on small hand-made reports: aliases a report defines, figures naming choices, units carried by labels,
derivations that follow the words. (Shapes taken from real reports outside the corpus, quoted in each test.)"""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import STRENGTHS, NumberCheck


def _index(figures: list[tuple[float, str, str, list[str], str]], text: str) -> EvidenceIndex:
    """Report R3 with `(value, unit, raw, labels, quote)` cells (one row per quote) and one page of `text`."""
    figs = [
        Figure(id=f"f{i}", report="R3", page=1, value=v, unit=u, raw=raw, labels=labs, quote=quote,
               kind="cell" if quote else "prose")
        for i, (v, u, raw, labs, quote) in enumerate(figures)
    ]  # fmt: skip
    rep = Report(id="R3", title="t", date=dt.date(2026, 1, 1), access="public", file="r3.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R3": rep}, figures={"R3": figs},
                         pages={"R3": [Page(report="R3", version=1, page=1, text=text)]})  # fmt: skip


def _number(index: EvidenceIndex, body: str, text: str, lang: str = "zh") -> NumberCheck:
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return next(n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text.strip() == text)


def _status(index: EvidenceIndex, sentence: str, text: str, lang: str = "en") -> tuple[str, str]:
    n = _number(index, sentence, text, lang)
    return n.status, n.message


# A Java queue benchmark: "ArrayBlockingQueue (ABQ) and LinkedBlockingQueue (LBQ)", then a table headed by the
# abbreviations only.
QUEUES = _index(
    [(8.1, "M ops/s", "8.1", ["Table 3 Throughput", "ABQ", "Throughput (M ops/s)"], "ABQ 8.1 12.5"),
     (12.5, "ms", "12.5", ["Table 3 Throughput", "ABQ", "p99 (ms)"], "ABQ 8.1 12.5"),
     (14.2, "M ops/s", "14.2", ["Table 3 Throughput", "LBQ", "Throughput (M ops/s)"], "LBQ 14.2 9.7"),
     (9.7, "ms", "9.7", ["Table 3 Throughput", "LBQ", "p99 (ms)"], "LBQ 14.2 9.7")],
    "We compare ArrayBlockingQueue (ABQ) with LinkedBlockingQueue (LBQ) under contention.",
)  # fmt: skip


def test_an_abbreviation_the_report_defines_is_its_full_name() -> None:
    assert _status(QUEUES, "ArrayBlockingQueue has a p99 latency of 12.5 ms [source: R3].", "12.5 ms")[0] == "verified"
    status, message = _status(QUEUES, "ArrayBlockingQueue has a p99 latency of 9.7 ms [source: R3].", "9.7 ms")
    assert status == "mismatch" and "12.5" in message  # 9.7 ms is LBQ's


def test_a_figure_naming_a_choice_backs_no_quantity() -> None:
    # "Option 2/3/4/5/7 were deployed" must not back "4 台"; a real count does.
    index = _index([(4.0, "", "4", ["部署方案"], ""), (6.0, "台", "6", ["服务器数量"], "")],
                   "部署方案 Option 2/3/4/5/7 均已验证。服务器数量 6 台。")  # fmt: skip
    index.figures["R3"][0].raw = "Option 2/3/4/5/7"
    index.figures["R3"][0].quote = "部署方案 Option 2/3/4/5/7 均已验证"
    assert _status(index, "部署方案使用 4 台服务器【出处:R3 实测】。", "4 台", "zh")[0] not in ("verified", "derived")
    assert _status(index, "服务器数量为 6 台【出处:R3 实测】。", "6 台", "zh")[0] == "verified"


def test_a_bare_figure_backs_a_unit_only_where_its_labels_carry_it() -> None:
    index = _index([(66.0, "", "66", ["Table 2 Network", "NIC", "Bandwidth (Gbps)"], "NIC 66 94"),
                    (94.0, "", "94", ["Table 2 Network", "NIC", "Recovery (s)"], "NIC 66 94")], "Table 2 Network")  # fmt: skip
    assert _status(index, "The NIC bandwidth is 66 Gbps [source: R3].", "66 Gbps")[0] == "verified"
    assert _status(index, "The NIC bandwidth is 66GB/s [source: R3].", "66GB/s")[0] != "verified"
    assert _status(index, "NIC recovery takes 94 s [source: R3].", "94 s")[0] == "verified"
    assert _status(index, "NIC recovery takes 94 ms [source: R3].", "94 ms")[0] != "verified"


def test_a_change_is_computed_the_way_its_words_say() -> None:
    index = _index([(178.0, "s", "178", ["保存时间 (s)", "基线"], "保存时间 178 94"),
                    (94.0, "s", "94", ["保存时间 (s)", "FX100"], "保存时间 178 94")], "保存时间 178 94")  # fmt: skip
    fell = "保存时间从 178 s 缩短到 94 s,缩短 {}【出处:R3 实测】。"
    assert _status(index, fell.format("47%"), "47%", "zh")[0] == "derived"  # (178 − 94) / 178
    status, message = _status(index, fell.format("89%"), "89%", "zh")  # (178 − 94) / 94 is a rise's figure
    assert status == "mismatch" and "from 178 s to 94 s is 47.19%, not 89%" in message
    rose = "基线 94 s 时,改进后为 178 s,提升 {}【出处:R3 实测】。"
    assert _status(index, rose.format("89%"), "89%", "zh")[0] == "derived"
    assert _status(index, "保存时间 178 s 比基线 94 s 多了 84 s【出处:R3 实测】。", "84 s", "zh")[0] == "derived"
    assert _status(index, "保存时间为 178 s 和 94 s,另需 84 s 预热【出处:R3 实测】。", "84 s", "zh")[0] != "derived"


def test_every_strength_is_named_once_and_ordered() -> None:
    assert len(set(STRENGTHS)) == len(STRENGTHS) and STRENGTHS[0] == "figure in context" and STRENGTHS[-1] == ""


def test_a_percentile_row_label_is_a_row_key() -> None:
    # A latency distribution: "99% observations less than 175,567 ns" (row label 99%, value in the ns column).
    index = _index([(29.0, "ns", "29", ["Table 4 Latency", "50%", "ns"], "50% 29"),
                    (175567.0, "ns", "175,567", ["Table 4 Latency", "99%", "ns"], "99% 175,567")], "Table 4 Latency")  # fmt: skip
    body = "In the latency test, 99% of observations are less than 175,567 ns [source: R3]."
    assert _status(index, body, "99%")[0] == "verified"
    assert _status(index, body, "less than 175,567 ns")[0] == "verified"
    assert (
        _status(index, "In the latency test, 98% of observations are less than 175,567 ns [source: R3].", "98%")[0]
        != "verified"
    )


def test_a_min_max_range_is_two_cells_of_its_row() -> None:
    index = _index([(29.0, "ns", "29", ["Table 4 Latency", "ABQ", "min (ns)"], "ABQ 29 175,567"),
                    (175567.0, "ns", "175,567", ["Table 4 Latency", "ABQ", "max (ns)"], "ABQ 29 175,567"),
                    (31.0, "ns", "31", ["Table 4 Latency", "LBQ", "min (ns)"], "LBQ 31 99,120"),
                    (99120.0, "ns", "99,120", ["Table 4 Latency", "LBQ", "max (ns)"], "LBQ 31 99,120")],
                   "ArrayBlockingQueue (ABQ) and LinkedBlockingQueue (LBQ), Table 4 Latency")  # fmt: skip
    ok = "ArrayBlockingQueue latency spans 29–175,567 ns (min–max) [source: R3]."
    assert _status(index, ok, "29–175,567 ns")[0] == "verified"
    status, message = _status(index, ok.replace("29–", "31–"), "31–175,567 ns")  # LBQ's minimum
    assert status == "mismatch" and message.startswith("31:")


def test_faster_n_times_is_read_both_ways_and_flagged() -> None:
    index = _index([(5.23, "GB/s", "5.23", ["读带宽 (GB/s)", "并行读补丁"], "并行读补丁 5.23"),
                    (0.98, "GB/s", "0.98", ["读带宽 (GB/s)", "默认读路径"], "默认读路径 0.98")], "读带宽")  # fmt: skip
    body = "并行读补丁的读带宽为 5.23 GB/s,默认读路径为 0.98 GB/s,{}【出处:R3 实测】。"
    doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body.format('快 4.3 倍')}\n"
    n = next(n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text == "4.3 倍")
    assert n.status == "derived" and "ambiguous" in (n.derivation or "")  # 5.23/0.98 − 1 = 4.34
    assert _status(index, body.format("是其 5.3 倍"), "5.3 倍", "zh")[0] == "derived"
    assert _status(index, body.format("是其 4.3 倍"), "4.3 倍", "zh")[0] != "derived"  # no `快`: a ratio only


def test_an_ambiguous_faster_reaches_the_reviewer_as_a_warning() -> None:
    # `快 4.3 倍`: 5.23/0.98 = 5.34× as fast, or 4.34 times more; either reading derives, the reviewer must choose.
    from qc.models import CheckReport
    from qc.report import render_html, render_text

    index = _index([(5.23, "GB/s", "5.23", ["读带宽 (GB/s)", "并行读补丁"], "并行读补丁 5.23"),
                    (0.98, "GB/s", "0.98", ["读带宽 (GB/s)", "默认读路径"], "默认读路径 0.98")], "读带宽")  # fmt: skip
    body = "并行读补丁的读带宽为 5.23 GB/s,默认读路径为 0.98 GB/s,{}【出处:R3 实测】。"
    doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body.format('快 4.3 倍')}\n"
    draft = parse_draft(doc, "t.md")
    result = check_draft(draft, index)
    assert result.ok  # a warning, not an error
    report = CheckReport(ok=True, files=[result])
    (entry,) = [n for n in report.to_json()["files"][0]["numbers"] if n["text"] == "4.3 倍"]
    assert entry["status"] == "derived" and entry["severity"] == "warning", entry
    assert entry["message"].startswith("ambiguous") and "4.3×" in entry["message"] and "5.3×" in entry["message"]
    assert "warning:" in render_text(report) and "ambiguous" in render_text(report)
    html = render_html(report, {"t.md": draft}, index)
    assert "qc-derived qc-warning" in html and "ambiguous: “4.3 倍”" in html
    plain = parse_draft(doc.replace("快 4.3 倍", "是其 5.3 倍"), "t.md")  # a plain ratio: nothing to warn about
    assert next(n for n in check_draft(plain, index).numbers if n.text == "5.3 倍").severity == "ok"


# ---- Reading correct articles (issue 14, part A). Shapes from the real accuracy corpus (tools/qc_corpus/real). ----

FACES = _index(
    [(329.0, "ms/frame", "329", ["Table 4.3 Two A72", "480P 64*64 single face", "Total (ms/frame)"], "64*64 68 261 329"),
     (1110.0, "ms/frame", "1110", ["Table 4.1 Single A53", "480P 64*64 single face", "Total (ms/frame)"],
      "64*64 185 924 1110")],
    "Table 4.1 Single A53 Table 4.3 Two A72 480P 64*64 single face",
)  # fmt: skip


def test_a_size_is_an_identifier_and_a_time_per_frame_reads_as_ms_per_frame() -> None:
    from evidence.units import parse_unit
    from qc.numbers import extract

    assert [(q.text, q.exempt) for q in extract("32*32 单人脸、64×64、1920x1080")] == [
        ("32*32", "id"), ("64×64", "id"), ("1920x1080", "id")]  # fmt: skip
    assert [(q.text, q.unit) for q in extract("over 4×200 Gbps NICs") if not q.count] == [("200 Gbps", "Gb/s")]
    assert parse_unit("ms/帧") == parse_unit("ms/frame") and parse_unit("s/帧").dim == "time/frame"
    assert [q.unit for q in extract("OpenBLAS 每帧 225 ms,168 ms/帧,185 ms per frame,16 h")] == [
        "ms/frame", "ms/frame", "ms/frame", "h"]  # fmt: skip
    ok = "Two A72 cores process a 480P frame with a 64*64 minimum face size in 329 ms [source: R3]."
    assert _status(FACES, ok, "329 ms")[0] == "verified"
    assert _status(FACES, ok.replace("329 ms", "329 s"), "329 s")[0] != "verified"
    assert _status(FACES, "Two A72 cores ran 329 ms [source: R3].", "329 ms")[0] != "verified"  # no frame named


def test_a_unit_printed_once_covers_every_member_of_the_list() -> None:
    from evidence.pdf.numbers import find_numbers
    from qc.numbers import extract

    got = [(q.value, q.unit) for q in extract("净利润分别为 1,521/1,582/1,646 亿元,PE 30、20、15 倍")]
    assert got == [(1521e8, "元"), (1582e8, "元"), (1646e8, "元"), (30.0, "x"), (20.0, "x"), (15.0, "x")]
    assert [n.unit for n in find_numbers("对应 PE 30、20、15 倍")] == ["x", "x", "x"]
    index = _index([(1521.0, "亿元", "1,521.00", ["归母净利润(亿元)", "2025E"], "归母净利润 1,521.00 1,582.00"),
                    (1582.0, "亿元", "1,582.00", ["归母净利润(亿元)", "2026E"], "归母净利润 1,521.00 1,582.00")],
                   "归母净利润")  # fmt: skip
    body = "预计 2025-2026 年归母净利润分别为 {}/1,582 亿元【出处:R3 实测】。"
    assert _status(index, body.format("1,521"), "1,521", "zh")[0] == "verified"
    assert _status(index, body.format("1,621"), "1,621", "zh")[0] != "verified"


PCT = _index([(14.49, "%", "14.49", ["加权平均ROE(%)", "2024A"], "ROE 14.49 14.05 13.78"),
              (14.05, "%", "14.05", ["加权平均ROE(%)", "2025E"], "ROE 14.49 14.05 13.78"),
              (13.78, "%", "13.78", ["加权平均ROE(%)", "2026E"], "ROE 14.49 14.05 13.78")], "加权平均ROE")  # fmt: skip


def test_percentage_points_are_the_difference_of_two_percentages() -> None:
    body = "加权平均 ROE 从 2024 年的 14.49% 降至 2026 年的 13.78%,下降 {}【出处:R3 实测】。"
    assert _status(PCT, body.format("0.71 个百分点"), "0.71 个百分点", "zh")[0] == "derived"
    assert _status(PCT, body.format("约 4.9%"), "约 4.9%", "zh")[0] == "derived"  # (14.49 − 13.78) / 14.49
    assert _status(PCT, body.format("0.71%"), "0.71%", "zh")[0] != "derived"  # points are no percent
    assert _status(PCT, body.format("4.9 个百分点"), "4.9 个百分点", "zh")[0] != "derived"
    assert _status(PCT, body.format("0.44 个百分点"), "0.44 个百分点", "zh")[0] != "derived"  # 14.49 − 14.05


BOIL = _index([(-253.0, "°C", "-253", ["Boiling Points °C", "Nonmetals", "min"], "Nonmetals -253 4827"),
               (4827.0, "°C", "4827", ["Boiling Points °C", "Nonmetals", "max"], "Nonmetals -253 4827"),
               (357.0, "°C", "357", ["Boiling Points °C", "Metals", "min"], "Metals 357"),
               (335.0, "°C", "335", ["Boiling Points °C", "Metalloids", "min"], "Metalloids 335")],
              "Boiling Points °C")  # fmt: skip


def test_a_difference_keeps_signs_and_reads_above_and_below() -> None:
    span = "Nonmetals boil from -253 °C to 4827 °C, a span of {} [source: R3]."
    assert _status(BOIL, span.format("5080 °C"), "5080 °C")[0] == "derived"
    assert _status(BOIL, span.format("4574 °C"), "4574 °C")[0] != "derived"  # |−253| is no operand
    above = "The lowest metal boils at 357 °C, {} above the lowest metalloid at 335 °C [source: R3]."
    assert _status(BOIL, above.format("22 °C"), "22 °C")[0] == "derived"
    assert _status(BOIL, above.format("23 °C"), "23 °C")[0] != "derived"


def test_a_stated_pair_without_units_and_a_bare_comparative_derive() -> None:
    index = _index([(7368.67, "req/s", "7,368.67", ["read_perf", "4KB batch 1", "req/s"], "4KB 1 7,368.67"),
                    (2237.75, "req/s", "2,237.75", ["read_perf", "4KB batch 16", "req/s"], "4KB 16 2,237.75"),
                    (0.934, "", "0.934", ["Table 1", "OTSL", "TEDs complex"], "OTSL 0.934"),
                    (0.927, "", "0.927", ["Table 1", "HTML", "TEDs complex"], "HTML 0.927")], "read_perf")  # fmt: skip
    drop = "For 4KB objects, requests per second fell from 7,368.67 to 2,237.75, a {} drop [source: R3]."
    assert _status(index, drop.format("69.6%"), "69.6%")[0] == "derived"
    assert _status(index, drop.format("59.6%"), "59.6%")[0] != "derived"
    above = "OTSL scores 0.934 TEDs on complex tables, {} above HTML's 0.927 [source: R3]."
    assert _status(index, above.format("0.007"), "0.007")[0] == "derived"
    assert _status(index, above.format("0.017"), "0.017")[0] != "derived"
    assert (
        _status(index, "OTSL scores 0.934 TEDs and HTML 0.927; the gap is 0.007 [source: R3].", "0.007")[0] != "derived"
    )


def test_a_comparison_carries_its_unit_and_bits_restate_as_bytes() -> None:
    index = _index([(15325.0, "", "15325", ["Table 2", "Synthetic", "Avg Input Len"], "Synthetic 15325"),
                    (8596.0, "", "8596", ["Table 2", "Tool&Agent", "Avg Input Len"], "Tool&Agent 8596"),
                    (800.0, "Gb/s", "800", ["Table 1", "NIC bandwidth"], "NIC bandwidth 800 Gbps")], "Table 2")  # fmt: skip
    more = "The synthetic inputs average 15325 tokens, {} more than tool&agent's 8596 [source: R3]."
    assert _status(index, more.format("6729"), "6729")[0] == "derived"
    assert _status(index, more.format("6739"), "6739")[0] != "derived"
    nic = "The NIC bandwidth is 800 Gbps, or {} [source: R3]."
    assert _status(index, nic.format("100 GB/s"), "100 GB/s")[0] == "derived"
    assert _status(index, nic.format("800 GB/s"), "800 GB/s")[0] != "derived"
    assert _status(index, "The NIC bandwidth is 800 Gbps and 100 GB/s [source: R3].", "100 GB/s")[0] != "derived"
    assert _status(index, "The NIC bandwidth is 800 Gbps for 100 GB/s [source: R3].", "100 GB/s")[0] != "derived"


def test_a_quantity_printed_verbatim_where_no_figure_was_read_and_a_key_value_label_unit() -> None:
    from qc.prepare import header_unit

    index = _index(
        [(24.0, "GB", "24", ["表 4", "GPU"], "GPU RTX 4090 24GB")], "GPU RTX 4090 24GB CPU / 内存 16 核 / 120GB"
    )
    assert _status(index, "The host has 120GB of memory [source: R3].", "120GB")[0] == "verified"
    assert _status(index, "The host has 130GB of memory [source: R3].", "130GB")[0] != "verified"
    assert _status(index, "The host has 120 TB of memory [source: R3].", "120 TB")[0] != "verified"
    unit = header_unit("所属行业:机械设备当前价格(元):82.42")
    assert unit is not None and unit.name == "元" and header_unit("总市值(百万元):") is None


def test_a_from_to_pair_may_span_two_rows_of_a_column_the_sentence_names() -> None:
    t, inf = "Table 1 HPO", "Inference time (secs)"
    index = _index([(5.39, "s", "5.39", [t, "HTML", inf], "HTML 6 5.39"), (2.73, "s", "2.73", [t, "OTSL", inf], "OTSL 6 2.73"),
                    (3.77, "s", "3.77", [t, "HTML", inf], "HTML 4 3.77"), (1.97, "s", "1.97", [t, "OTSL", inf], "OTSL 4 1.97"),
                    (8.0, "", "8", [t, "heads"], "heads 8")], t)  # fmt: skip
    ok = "相比 HTML,OTSL 的推理时间从 5.39 s 降至 2.73 s【出处:R3 实测】。"
    assert _status(index, ok, "2.73 s", "zh")[0] == "verified"
    # rows whose difference the sentence does not name are no before/after pair
    status, message = _status(index, "推理时间从 5.39 s 降至 2.73 s【出处:R3 实测】。", "2.73 s", "zh")
    assert status == "mismatch" and "not one before/after pair" in message


def test_a_from_to_pair_moves_the_way_its_words_say() -> None:
    index = _index([(0.8, "元/kwh", "0.8", ["电力采购单价"], ""), (0.39, "元/kwh", "0.39", ["电力采购单价"], "")],
                   "电力采购单价从 2019 年 0.8 元/kwh 降低到 2022 年 Q1 的 0.39 元/kwh")  # fmt: skip
    ok = "电力采购单价从 2019 年的 0.8 元/kwh 降至 2022 年 Q1 的 0.39 元/kwh【出处:R3 实测】。"
    assert _status(index, ok, "0.39 元/kwh", "zh")[0] == "verified"
    status, message = _status(index, ok.replace("0.8 元/kwh 降至", "0.3 元/kwh 降至"), "0.39 元/kwh", "zh")
    assert status == "mismatch" and "is a rise, but the sentence says it fell" in message
    en = "The unit price fell from 0.39 元/kwh to 0.8 元/kwh [source: R3]."
    assert _status(index, en, "0.8 元/kwh")[0] == "mismatch"
    assert _status(index, en.replace("fell", "rose"), "0.8 元/kwh")[0] == "verified"


# coro_rpc slides (yalantinglibs, slide 24): a bar chart, each bar its own cell keyed by size and series.
CHART = _index(
    [(4987564, "req/s", "4987564", ["最大压力性能测试(QPS)", "4B", "brpc"], "4B brpc"),
     (20228649, "req/s", "20228649", ["最大压力性能测试(QPS)", "4B", "coro_rpc"], "4B coro_rpc"),
     (963124, "req/s", "963124", ["最大压力性能测试(QPS)", "10KB", "brpc"], "10KB brpc"),
     (1029137, "req/s", "1029137", ["最大压力性能测试(QPS)", "10KB", "coro_rpc"], "10KB coro_rpc")],
    "最大压力性能测试(QPS) brpc coro_rpc MESSAGE SIZE",
)  # fmt: skip


def test_a_change_between_two_bars_the_sentence_names_is_derived() -> None:
    n = _number(CHART, "消息从 4B 增大到 10KB,coro_rpc 的极限 QPS 下降 94.9%【出处:R3 实测】。", "94.9%")
    assert n.status == "derived" and "20228649" in (n.derivation or "")
    # 80.7 % is brpc's drop; the clause names coro_rpc
    assert _number(CHART, "消息从 4B 增大到 10KB,coro_rpc 的极限 QPS 下降 80.7%【出处:R3 实测】。", "80.7%").status \
        not in ("verified", "derived")  # fmt: skip


def test_a_before_after_pair_of_two_series_of_one_bar_group_is_one_pair() -> None:
    body = "4B:4987564 → 20228649,约 4.1 倍【出处:R3 实测】。"
    assert _number(CHART, body, "20228649").status == "verified"
    assert _number(CHART, "4B:963124 → 20228649【出处:R3 实测】。", "963124").status != "verified"  # 10KB's brpc


def test_an_axis_tick_is_the_key_of_the_figure_its_row_rests_on() -> None:
    body = "| 消息 (Byte) | brpc (QPS) |\n|---|---|\n| 4 | 4987564 |\n| 7 | 963124 |\n\n上表【出处:R3 实测】。"
    assert _number(CHART, body, "4").status == "verified" and _number(CHART, body, "4").strength == "row key"
    assert _number(CHART, body, "7").status not in ("verified", "derived")  # 963124 is 10KB's


# SpeechRecognition report (OAID, p.4): a core count before the part name, `1A72@1.99G`; RTF values without unit.
RTF = _index(
    [(1.0, "", "1", ["1A72@1.99G", "Real Time Rate"], "1A72@1.99G 1"),
     (0.71, "", "0.71", ["1A72@1.99G", "average Real Time Rate"], "1A72@1.99G 0.71"),
     (1.36, "", "1.36", ["1A53@1.51G", "average Real Time Rate"], "1A53@1.51G 1.36")],
    "RTF(Real Time Factor)",
)  # fmt: skip


def test_a_part_name_after_a_core_count_is_the_name_the_article_uses() -> None:
    assert _status(RTF, "The first run gave 1 on the A72 [source: R3].", "1")[0] == "verified"


def test_a_ratio_of_two_bare_numbers_of_the_sentence_is_derived_but_never_of_keys() -> None:
    sentence = "One A72 core runs at 0.71 and one A53 core at 1.36, so the A72 is about 1.9 times faster [source: R3]."
    assert _status(RTF, sentence, "about 1.9 times")[0] == "derived"
    assert _status(RTF, "From batch=1 to batch=4 it reads 0.71, 4x [source: R3].", "4x")[0] not in ("derived",)


def test_a_bare_number_is_a_figure_as_printed_whatever_its_unit() -> None:
    # Caffe-HRT Table 1 prints `(ms)` over its Performance Gain column: `1.01` is that cell, not 1.01 s.
    index = _index([(1.01, "ms", "1.01", ["Table 1", "ResNet50", "Performance Gain (ms)"], "ResNet50 1095.30 1089.10 1.01"),
                    (1.0101, "s", "1.0101", ["Table 9", "Copy (s)"], "Copy 1.0101")], "Table 1 Table 9")  # fmt: skip
    status, message = _status(index, "ResNet50 gains only 1.01 [source: R3].", "1.01")
    assert status == "verified" and "ResNet50" in message


def test_a_row_the_clause_names_by_its_key_gives_the_operands() -> None:
    # Caffe-HRT: a per-network table, and a per-layer table whose RELU and SOFTMAX cells differ by 43% by chance.
    index = _index([(932.70, "ms", "932.70", ["Table 1", "AlexNet", "Original Caffe (ms)"], "AlexNet 932.70 534.80"),
                    (534.80, "ms", "534.80", ["Table 1", "AlexNet", "Caffe-HRT (ms)"], "AlexNet 932.70 534.80"),
                    (305.0, "ms", "305.00", ["Table 1", "MobileNet", "Original Caffe (ms)"], "MobileNet 305.00 292.80"),
                    (292.8, "ms", "292.80", ["Table 1", "MobileNet", "Caffe-HRT (ms)"], "MobileNet 305.00 292.80"),
                    (0.0014, "s", "0.0014", ["Table 3 AlexNet per layer time", "ACL/GPU", "RELU (s)"], "ACL/GPU 0.0014 0.0008"),
                    (0.0008, "s", "0.0008", ["Table 3 AlexNet per layer time", "ACL/GPU", "SOFTMAX (s)"], "ACL/GPU 0.0014 0.0008")],
                   "Table 1 Table 3")  # fmt: skip
    doc = "AlexNet's time per inference falls by 43% [source: R3]."
    n = _number(index, doc, "43%", "en")
    assert n.status == "derived" and "932.70" in (n.derivation or "")


def test_a_bare_comparative_before_the_number_sets_the_base_of_the_change() -> None:
    ok = _number(CHART, "4B 时两者为 20228649 对 4987564,coro_rpc 比 brpc 高 305.6%【出处:R3 实测】。", "305.6%")
    assert ok.status == "derived"
    # (20228649 − 4987564)/20228649 = 75.3 %: “高” is over the smaller figure, brpc's
    bad = _number(CHART, "4B 时两者为 20228649 对 4987564,coro_rpc 比 brpc 高 75.3%【出处:R3 实测】。", "75.3%")
    assert bad.status not in ("verified", "derived")


def test_a_from_to_pair_after_a_clause_with_the_verb_moves_its_way() -> None:
    swapped = "Moving from the A53 to the A72 cuts the RTF by 48%, from 0.71 to 1.36 [source: R3]."
    assert _status(RTF, swapped, "1.36")[0] == "mismatch"
    assert _status(RTF, swapped.replace("0.71 to 1.36", "1.36 to 0.71"), "0.71")[0] == "verified"
    gain = "From the A53 to the A72 the gain is 1.9x, from 1.36 to 0.71 [source: R3]."
    assert _status(RTF, gain, "0.71")[0] == "verified"  # (`gain` is no verb)


# Caffe-HRT's Table 3 (a real report of tests/corpus): TPI per configuration, first loop and averaged.
LOOPS = _index(
    [(v, "s", raw, ["Table 3 AlexNet performance for each Layer", loop, conf, "TPI (s)"], f"{conf} {raw} {conv}")
     for loop, conf, v, raw, conv in [("1st", "ACL/GPU", 2.4794, "2.4794", "1.1812"),
                                      ("1st", "OpenBLAS", 0.9527, "0.9527", "0.1703"),
                                      ("Avg. Time", "ACL/GPU", 0.1542, "0.1542", "0.0913"),
                                      ("Avg. Time", "OpenBLAS", 0.9327, "0.9327", "0.1556")]],
    "Table 3 AlexNet performance for each Layer",
)  # fmt: skip


def test_a_list_items_label_is_its_first_numbers() -> None:
    # `ACL/GPU:` labels the 0.1542 s, not the OpenBLAS figure the item compares it with
    body = "## AlexNet\n\nAveraged over the 2nd to 11th loop [source: R3]:\n\n- ACL/GPU: {} s per inference, about 6 times faster than OpenBLAS at {} s;"
    assert _status(LOOPS, body.format("0.1542", "0.9327"), "0.9327 s")[0] == "verified"
    assert _status(LOOPS, body.format("0.1542", "0.9327"), "0.1542 s")[0] == "verified"
    swapped = body.format("0.9327", "0.1542")
    assert {_status(LOOPS, swapped, "0.9327 s")[0], _status(LOOPS, swapped, "0.1542 s")[0]} != {"verified"}


# Caffe-HRT's Table 1: the performance gain per network.
NETS = _index(
    [(v, "", raw, ["Table 1 Performance comparation", net, "Performance Gain"], f"{net} {raw}")
     for net, v, raw in [("GoogleNet", 2.78, "2.78"), ("SquezzeNet", 1.0, "1.00"), ("ResNet18", 1.03, "1.03"),
                         ("ResNet34", 1.02, "1.02"), ("ResNet50", 1.01, "1.01")]],
    "Table 1 Performance comparation",
)  # fmt: skip


def test_a_plural_family_name_names_the_rows_a_range_spans() -> None:
    said = "SqueezeNet gains 1.00, and the three ResNets gain only {} [source: R3]."
    assert _status(NETS, said.format("1.01–1.03"), "1.01–1.03")[0] == "verified"
    assert _status(NETS, said.format("1.02–1.03"), "1.02–1.03")[0] == "mismatch"  # not the family's span
    assert _status(NETS, said.format("1.00–1.03").replace("ResNets", "networks"), "1.00–1.03")[0] != "verified"
