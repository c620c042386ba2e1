"""Slides, charts, prose figures and odd fonts (issue #17 B): one test per rule, on real corpus PDFs and small cases."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from evidence.models import Figure
from evidence.pdf import ParsedPdf, find_numbers, parse_pdf
from evidence.pdf.charts import chart_figures
from evidence.pdf.fonts import code_to_cid

CORPUS = Path(__file__).resolve().parent / "corpus"


@cache
def parsed(name: str) -> ParsedPdf:
    return parse_pdf(CORPUS / name)


def cells(name: str, page: int, value: float) -> list[Figure]:
    return [f for f in parsed(name).figures if f.page == page and abs(f.value - value) < 1e-9]


def joined(f: Figure) -> str:
    return " | ".join(f.labels)


# ---- fonts ------------------------------------------------------------------------------------------------------


def test_embedded_encoding_cmap_maps_two_byte_codes_to_cids() -> None:
    cmap = (
        b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n2 begincidchar\n<0001> 29805\n<0020> 1\n"
        b"endcidchar\n1 begincidrange\n<0030> <0032> 100\nendcidrange\n"
    )
    assert code_to_cid(cmap) == {1: 29805, 32: 1, 48: 100, 49: 101, 50: 102}
    assert code_to_cid(b"1 begincodespacerange\n<00> <FF>\nendcodespacerange\n") is None  # one-byte: pypdf's
    assert code_to_cid(b"/Identity-H usecmap\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n") is None


def test_cff_font_with_an_encoding_cmap_reads_its_tables_by_position() -> None:
    # pypdf read every glyph as NUL + character with the widths of other CIDs: the runs were twice as wide as the
    # page and no table was found. Read as two-byte codes, the log table comes out under its headers.
    name = "generated_cff_cjk_encoding_cmap_zh.pdf"
    (t,) = [f for f in cells(name, 1, 220.85) if f.kind == "cell"]
    assert t.unit == "V" and "Voltage" in joined(t) and "Temperature rise log" in joined(t)
    # `序号 No.` is a header (the period of `No.` ends no sentence), and its serial numbers are no figures.
    assert not [f for f in parsed(name).figures if f.kind == "cell" and "序号 No." in f.labels[1:2]]


def test_unit_column_gives_the_unit_of_its_row() -> None:
    name = "generated_cff_cjk_encoding_cmap_zh.pdf"
    (v,) = [f for f in cells(name, 1, 49.96) if f.kind == "cell"]
    assert v.unit == "Hz" and "Mains frequency" in joined(v)
    (k,) = [f for f in cells(name, 1, 22.47) if f.kind == "cell"]
    assert k.unit == "K"  # a unit the unit table does not know is kept as printed in its column
    assert not [f for f in parsed(name).figures if f.page == 1 and f.labels[:1] == ["Hz"]]  # no unit as a row label


# ---- charts ---------------------------------------------------------------------------------------------------


def _run(x0: float, y: float, text: str, size: float = 10.0) -> tuple[float, float, float, float, str]:
    return (x0, x0 + 5.5 * len(text), y, size, text)


def test_column_chart_labels_take_category_and_series_and_ticks_are_no_figures() -> None:
    runs = [_run(20, y, str(v)) for y, v in ((50, 0), (80, 10), (110, 20), (140, 30))]  # the value axis
    runs = [(35 - (r[1] - r[0]), 35, r[2], r[3], r[4]) for r in runs]  # right-aligned at x = 35
    runs += [_run(90, 100, "12.5"), _run(115, 130, "28.1"), _run(190, 90, "9.7"), _run(215, 120, "22.0")]
    runs += [_run(100, 35, "Read"), _run(198, 35, "Write")]  # categories under the plot
    runs += [_run(80, 170, "baseline"), _run(160, 170, "FX100")]  # the legend above it
    runs += [_run(80, 185, "Throughput (GB/s)")]
    chart = chart_figures(runs, "")
    assert chart is not None
    got = {(f.value, f.unit, tuple(f.labels[1:])) for f in chart.figures}
    assert got == {
        (12.5, "GB/s", ("Read", "baseline")),
        (28.1, "GB/s", ("Read", "FX100")),
        (9.7, "GB/s", ("Write", "baseline")),
        (22.0, "GB/s", ("Write", "FX100")),
    }
    assert {"0", "10", "20", "30"} <= set(chart.consumed)


def test_no_chart_without_a_value_axis() -> None:
    runs = [_run(90, 100, "12.5"), _run(115, 130, "28.1"), _run(100, 35, "Read"), _run(198, 35, "Write")]
    assert chart_figures(runs, "") is None


def test_matplotlib_chart_data_labels_by_legend_and_no_tick_figures() -> None:
    name = "deepseek_v3_benchmark_chart.pdf"
    (f,) = cells(name, 1, 75.9)
    assert f.kind == "cell" and f.unit == "%" and "MMLU-Pro" in f.labels and "DeepSeek-V3" in f.labels
    (g,) = cells(name, 1, 65.0)
    assert "GPQA-Diamond" in g.labels and "Claude-3.5-Sonnet-1022" in g.labels
    assert not cells(name, 1, 100) and not cells(name, 1, 60)  # axis ticks
    assert not cells(name, 1, 500)  # the category `MATH 500` is a name


def test_powerpoint_chart_series_by_offset_and_unit_from_the_title() -> None:
    name = "yalantinglibs_coro_rpc_qps_slides_zh.pdf"
    (f,) = cells(name, 24, 20228649)
    assert f.unit == "req/s" and "4B" in f.labels and "coro_rpc" in f.labels
    (g,) = cells(name, 25, 4049234)
    assert g.unit == "req/s" and "5" in g.labels and "BRPC QPS" in g.labels  # unit word of `ping-pong QPS测试`
    assert not [f for f in parsed(name).figures if f.page == 25 and f.unit == "B"]  # `PAYLOAD(BYTE)` is the x axis


# ---- slides and prose ---------------------------------------------------------------------------------------------


def test_table_row_in_the_bottom_margin_of_a_slide_is_read() -> None:
    (f,) = [f for f in cells("cachepilot_bench_slides_zh.pdf", 8, 1227.74) if f.kind == "cell"]
    assert f.unit == "MiB/s" and "value 4MB" in f.labels


def test_side_by_side_halves_of_a_table_keep_their_row_labels() -> None:
    (f,) = cells("cachepilot_bench_slides_zh.pdf", 10, 385.55)
    assert "value 64KB" in f.labels and "batch 1" in f.labels and "OK" not in f.labels


def test_kpi_card_line_under_the_value_labels_it() -> None:
    (f,) = cells("cachepilot_bench_slides_zh.pdf", 1, 16)
    assert f.unit == "组" and any("read_perf" in lab for lab in f.labels)


def test_ranges_and_spaced_volts() -> None:
    assert [(n.value, n.unit) for n in find_numbers("性能是protobuf的10-40倍")] == [(10, "x"), (40, "x")]
    assert [(n.value, n.unit) for n in find_numbers("compared 44.2 V in under")] == [(44.2, "V")]
    assert [(n.value, n.unit) for n in find_numbers("8 A100 GPUs")] == [(8, "")]
    assert not find_numbers("Qwen2.5-72B") and not find_numbers("TR-2026-0001")


def test_list_line_key_value_drops_the_list_mark() -> None:
    from evidence.pdf.prose import _kv

    assert _kv("- 吞吐: 30.6 MPPS") == ("吞吐", "30.6 MPPS")
    assert _kv("• 延迟：12 ms") == ("延迟", "12 ms")
    assert [(n.value, n.unit) for n in find_numbers("173Gbps (30.6MPPS), 2.8Ghz")] == [
        (173, "Gb/s"),
        (30.6, "MPPS"),
        (2.8, "GHz"),
    ]


def test_side_by_side_panel_and_table_are_read_apart() -> None:
    # A broker report's `股票数据` key–value panel stands left of its `主要财务数据及预测` table, their lines at
    # nearly the same heights: split at the gutter, the table keeps its header of years.
    name = "mineru_broker_research_report_zh.pdf"
    (f,) = [f for f in cells(name, 2, 1567) if f.kind == "cell"]
    assert f.unit == "百万元" and "2021" in f.labels and any("营业收入" in lab for lab in f.labels)
    (g,) = [f for f in cells(name, 2, 227.92)]
    assert g.unit == "百万股" and any("总股本" in lab for lab in g.labels)
    (h,) = [f for f in cells(name, 1, 32.88) if f.kind == "cell"]  # the sidebar's `1M 2M 3M` table
    assert h.unit == "%" and "2M" in joined(h) and "绝对涨幅" in joined(h)


def test_a_key_value_lines_numbers_keep_what_the_value_says_before_each() -> None:
    from evidence.pdf.numbers import find_numbers
    from evidence.pdf.prose import _kv_contexts

    value = "Dual-core Cortex-A72 up to 2.0GHz (real frequency is 1.8GHz); Quad-core Cortex-A53 up to 1.5GHz"
    said = _kv_contexts(value, list(find_numbers(value)))
    assert said == [
        "Dual-core Cortex-A72 up to",
        "Dual-core Cortex-A72 up to real frequency is",  # the parenthesised value keeps its subject
        "Quad-core Cortex-A53 up to",  # a `;` starts a new subject
    ]
    line = "总股本 252.20亿股   总市值 9,326亿元"
    assert _kv_contexts(line, list(find_numbers(line))) == ["总股本", "总市值"]  # not the previous item's key
