"""Tables as Word prints them: padded header lines, row-group label rows, stated units, tables across pages."""

from __future__ import annotations

from evidence.pdf.layout import lines_of
from evidence.pdf.prose import page_figures
from evidence.pdf.tables import PageContext, Raw, stated_unit

Row = tuple[float, list[tuple[float, str]]]
WIDTH, HEIGHT = 595.0, 842.0


def _runs(rows: list[Row], size: float) -> list[tuple[float, float, float, float, str]]:
    return [(x, x + 0.5 * size * len(text), y, size, text) for y, cells in rows for x, text in cells]


def _page(rows: list[Row], ctx: PageContext, size: float = 11.0, extra: list | None = None) -> list[Raw]:
    """The figures of one page of positioned cells (plain text is the same cells, line by line)."""
    runs = _runs(rows, size) + (extra or [])
    plain = "\n".join(" ".join(t for _x, t in cells) for _y, cells in rows)
    plain += "\n" + "\n".join(r[4] for r in extra or [])
    return page_figures(plain, lines_of(runs), WIDTH, HEIGHT, ctx)


def _ctx() -> PageContext:
    return PageContext("0" * 64, "R", 1)


def _find(figs: list[Raw], value: float, *labels: str) -> Raw:
    hits = [
        f for f in figs if f.kind == "cell" and f.value == value and all(lb in " | ".join(f.labels) for lb in labels)
    ]
    assert len(hits) == 1, (value, labels, [(f.value, f.unit, f.labels) for f in figs if f.value == value])
    return hits[0]


COLS = [234.0, 296.0, 349.0]


def _bordered(y: float, pitch: float, header: list[Row]) -> list[Row]:
    """A Caffe-HRT shape: label column, row-group rows `1st` / `Avg. Time`, three value columns."""
    body = [(y, [(110.0, "1st")])]
    values = [["3.2593", "0.1744", "2.7276"], ["2.4794", "0.1822", "0.0648"]]
    for n, label in enumerate(["ACL/NEON", "ACL/GPU"]):
        body.append((y - pitch * (n + 1), [(110.0, label), *zip(COLS, values[n], strict=True)]))
    body.append((y - 3 * pitch, [(110.0, "Avg. Time")]))
    avg = [["0.5908", "0.0011", "0.5811"], ["0.1542", "0.0022", "0.0127"]]
    for n, label in enumerate(["ACL/NEON", "ACL/GPU"]):
        body.append((y - pitch * (n + 4), [(110.0, label), *zip(COLS, avg[n], strict=True)]))
    return header + body


def test_padded_header_lines_and_row_group_rows_of_a_bordered_word_table() -> None:
    # Word pads bordered cells: the header's second line `(s)` is 1.9 sizes under its first, rows 1.4 sizes apart.
    header = [
        (692.5, [(110.0, "Table 2 AlexNet performance for configuration")]),
        (671.0, [(240.0, "TPI"), (300.0, "Allocate"), (356.0, "Run")]),
        (650.0, [(242.0, "(s)"), (306.0, "(s)"), (360.0, "(s)")]),
    ]
    figs = _page(_bordered(634.6, 15.4, header), _ctx())
    first = _find(figs, 3.2593, "ACL/NEON", "TPI", "1st")
    assert first.unit == "s" and "Avg. Time" not in " ".join(first.labels)
    assert _find(figs, 0.5811, "ACL/NEON", "Run", "Avg. Time").unit == "s"
    # A row named `ACL/GPU` is no unit `GPU` of its cells.
    assert _find(figs, 0.0648, "ACL/GPU", "Run", "1st").unit == "s"
    assert _find(figs, 0.0127, "ACL/GPU", "Avg. Time").unit == "s"


def test_tight_table_row_groups_superscript_and_a_unit_the_prose_states() -> None:
    ctx = _ctx()
    prose = [(700.0, [(54.0, "The data in the below tables are in the unit of second.")])]
    header = [(406.0, [(240.0, "TPI"), (300.0, "Allocate"), (356.0, "Run")])]
    rows = _bordered(393.0, 13.1, header)
    rows[1] = (393.0, [(110.0, "1")])  # `1` with a raised `st` in a smaller size, as Word prints 1st
    superscript = [(116.0, 121.0, 397.0, 7.0, "st")]
    figs = _page(prose + rows, ctx, extra=superscript)
    assert _find(figs, 3.2593, "ACL/NEON", "TPI", "1st").unit == "s"
    assert _find(figs, 0.5908, "ACL/NEON", "TPI", "Avg. Time").unit == "s"
    # The statement holds for the tables on the pages after it too.
    later = _page(header + _bordered(393.0, 13.1, [])[1:], ctx)
    assert _find(later, 0.5908, "ACL/NEON", "TPI", "Avg. Time").unit == "s"


def test_stated_units() -> None:
    assert stated_unit("time. The data in the below tables are in the unit of second.") == "s"
    assert stated_unit("The unit of all the data columns in tests below is second.") == "s"
    assert stated_unit("以下数据单位均为毫秒。") == "ms"
    assert stated_unit("The unit of work is a batch.") is None
    assert stated_unit("time measured is in nanoseconds.") == "ns"  # a Word report's line, its start wrapped above
    assert stated_unit("Latencies are reported in microseconds.") == "µs"
    assert stated_unit("时间均以 ms 为单位,空间以 kb 为单位。") == "ms"
    assert stated_unit("The results are in line with the model.") is None
    assert stated_unit("The time is in the log.") is None


def test_a_unit_the_prose_states_in_its_own_words_and_jmeter_min_max_columns() -> None:
    # A course report: `The time measured is in nanoseconds.` above unitless Socket/RMI columns; a JMeter summary
    # whose `Min`/`Max` headers are the extremes of the row, not minutes.
    prose = [
        (700.0, [(54.0, "My analysis compares the time taken. The")]),
        (686.0, [(54.0, "time measured is in nanoseconds.")]),
    ]
    socket = [(650.0, [(60.0, "Command"), (200.0, "Socket"), (320.0, "RMI")])]
    socket += [(636.0, [(60.0, "move up 5"), (200.0, "571479"), (320.0, "1326548")])]
    socket += [(622.0, [(60.0, "move down 4"), (200.0, "363909"), (320.0, "1302352")])]
    figs = _page(prose + socket, _ctx())
    assert _find(figs, 1326548, "move up 5", "RMI").unit == "ns"
    heads = ["Label", "Samples", "Average", "Median", "Min", "Max"]
    xs = [60.0, 160.0, 230.0, 300.0, 370.0, 430.0]
    jmeter = [(500.0, list(zip(xs, heads, strict=True)))]
    jmeter += [(486.0, list(zip(xs, ["add clothes", "800", "115", "107", "62", "443"], strict=True)))]
    jmeter += [(472.0, list(zip(xs, ["get clothes", "100", "85", "78", "71", "151"], strict=True)))]
    jmeter += [(458.0, list(zip(xs, ["TOTAL", "800", "115", "107", "62", "443"], strict=True)))]
    figs = _page(jmeter, _ctx())
    assert _find(figs, 71, "get clothes", "Min").unit == "" and _find(figs, 151, "get clothes", "Max").unit == ""
    # The TOTAL row repeats `add clothes` whole: its Samples/Average/Median are measurements, not row keys.
    top = _find(figs, 443, "add clothes", "Max")
    assert not any("115" in lb or "800" in lb for lb in top.labels), top.labels
    assert _find(figs, 115, "add clothes", "Average").kind == "cell"


def test_header_cell_wrapped_under_the_header_and_a_one_cell_header() -> None:
    rows: list[Row] = [
        (285.2, [(288.0, "FPS"), (352.0, "Avg. gesture detection time")]),
        (273.1, [(352.0, "(ms) in 5 seconds")]),
        (241.4, [(132.0, "1xA53@1.42G"), (288.0, "6"), (352.0, "168")]),
        (228.8, [(132.0, "1xA72@1.80G"), (288.0, "14.3"), (352.0, "69")]),
    ]
    figs = _page(rows, _ctx(), size=10.6)
    assert _find(figs, 6, "1xA53@1.42G", "FPS").unit == "fps"
    assert _find(figs, 168, "1xA53@1.42G", "detection time").unit == "ms"
    # The label column has no header: the one header cell stands over the values alone.
    lone: list[Row] = [
        (560.0, [(185.0, "FPS")]),
        (545.7, [(88.0, "1xA53"), (185.0, "6")]),
        (531.4, [(88.0, "1xA72"), (185.0, "19")]),
    ]
    figs = _page(lone, _ctx(), size=12.0)
    six = _find(figs, 6, "1xA53")
    assert six.unit == "fps" and "FPS 1xA53" not in six.labels


def test_a_header_row_after_a_gap_starts_the_next_table() -> None:
    rows: list[Row] = [
        (393.4, [(210.0, "TPI"), (266.0, "Allocate"), (336.0, "Run")]),
        (367.0, [(109.0, "ACL/NEON"), (215.0, "3.5360"), (278.0, "0.1931"), (336.0, "2.8732")]),
        (353.9, [(109.0, "OpenBLAS"), (215.0, "1.0270"), (278.0, "0.0100"), (336.0, "0.0200")]),
        (319.5, [(210.0, "TPI"), (266.0, "CONV"), (336.0, "FC")]),
        (306.4, [(109.0, "ACL/NEON"), (215.0, "3.5360"), (278.0, "0.2846"), (336.0, "3.1980")]),
        (293.3, [(109.0, "OpenBLAS"), (215.0, "1.0270"), (278.0, "0.1856"), (336.0, "0.3922")]),
    ]
    figs = _page(rows, _ctx())
    conv = _find(figs, 0.2846, "ACL/NEON")
    assert "CONV" in conv.labels and "Allocate" not in conv.labels
    assert "Allocate" in _find(figs, 0.1931, "ACL/NEON").labels


def test_a_table_continued_on_the_next_page_takes_its_header() -> None:
    ctx = _ctx()
    page1: list[Row] = [
        (191.4, [(59.0, "Library"), (279.0, "AlexNet(s)"), (348.0, "GoogleNet")]),
        (173.3, [(348.0, "(s)")]),
        (154.8, [(59.0, "CaffeOnACL(Neon)"), (221.0, "Acc-top1"), (279.0, "0.5661"), (348.0, "0.6918")]),
        (136.3, [(221.0, "Acc-top5"), (279.0, "0.8015"), (348.0, "0.8954")]),
        (117.9, [(59.0, "CaffeOnACL(Mixed"), (221.0, "Acc-top1"), (279.0, "0.5662"), (348.0, "0.6919")]),
        (51.9, [(295.0, "5 / 6")]),  # the folio under the table: the table still ends the page
    ]
    _page(page1, ctx, size=10.6)
    page2: list[Row] = [
        (706.3, [(59.0, "S)"), (221.0, "Acc-top5"), (279.0, "0.8016"), (348.0, "0.8955")]),
        (656.4, [(139.0, "Accuracy of different models on CaffeOnACL, as measured")]),
    ]
    figs = _page(page2, ctx, size=10.6)
    assert _find(figs, 0.8016, "Acc-top5", "AlexNet").unit == "s"
    assert "GoogleNet" in " ".join(_find(figs, 0.8955, "Acc-top5").labels)


def test_a_table_continued_under_a_running_head_takes_its_header() -> None:
    # Word prints the document header just inside the top margin band on every page (a student id in it); the rows
    # the page break carried over stand right under it
    ctx = _ctx()
    head: Row = (790.9, [(60.0, "Load test report"), (400.0, "Zhang-3160104367")])
    page1: list[Row] = [
        head,
        (400.0, [(60.0, "No."), (90.0, "Page"), (200.0, "Availability"), (300.0, "Response time")]),
        (380.0, [(200.0, "%"), (300.0, "sec")]),
        (360.0, [(60.0, "1"), (90.0, "Login"), (200.0, "99.91"), (300.0, "0.24")]),
        (340.0, [(60.0, "2"), (90.0, "Register"), (200.0, "99.96"), (300.0, "0.20")]),
        (53.1, [(295.0, "18")]),
    ]
    _page(page1, ctx, size=9.1)
    page2: list[Row] = [
        head,
        (748.4, [(60.0, "3"), (90.0, "Search"), (200.0, "98.40"), (300.0, "12.90")]),
        (722.2, [(60.0, "4"), (90.0, "Profile"), (200.0, "99.97"), (300.0, "0.38")]),
        (53.1, [(295.0, "19")]),
    ]
    figs = _page(page2, ctx, size=9.1)
    assert _find(figs, 12.9, "Search", "Response time").unit == "s"
    assert _find(figs, 99.97, "Profile", "Availability").unit == "%"
    assert not [f for f in figs if f.value == -3160104367]  # the running head yields no figure


def test_a_header_the_page_break_parted_from_its_one_row() -> None:
    ctx = _ctx()
    _page([(89.7, [(253.0, "ObjectTracker-KCF"), (424.0, "ObjectTracker-DSST")]), (51.9, [(298.0, "4 / 7")])], ctx)
    figs = _page([(708.9, [(60.0, "On FOUR A53@1.42GHz 480P"), (287.0, "6 fps"), (461.0, "5 fps")])], ctx)
    assert "ObjectTracker-KCF" in _find(figs, 6, "On FOUR A53").labels
    assert "ObjectTracker-DSST" in _find(figs, 5, "On FOUR A53").labels


def test_a_lone_row_at_the_top_of_a_page_that_continues_nothing_is_no_table() -> None:
    figs = _page([(708.9, [(60.0, "Throughput"), (287.0, "6 fps"), (461.0, "5 fps")])], _ctx())
    assert all(f.kind != "cell" for f in figs)


def test_a_raised_superscript_joins_its_line() -> None:
    lines = lines_of([(109.0, 115.0, 380.2, 11.0, "1"), (115.0, 120.0, 384.2, 7.0, "st")])
    assert [(round(ln.y, 1), ln.text) for ln in lines] == [(380.2, "1st")]
    # A smaller line well below is a line of its own.
    lines = lines_of([(109.0, 160.0, 380.0, 11.0, "Body text"), (109.0, 160.0, 372.0, 7.0, "note")])
    assert [ln.text for ln in lines] == ["Body text", "note"]


def test_cells_and_headers_of_the_new_user_trial() -> None:
    """#16's unseen reports: `mean ± deviation` cells, tool output's `= value` column, a compound unit after words."""
    from evidence.pdf.numbers import find_numbers, header_unit, number_cell

    assert number_cell("12,480 ± 96") and number_cell("1.5±0.2 ms") and number_cell("= 1047344.44 kB/sec")
    assert not number_cell("12 ± 3 ± 4") and not number_cell("± 5")
    assert [n.value for n in find_numbers("12,480 ± 96")] == [12480, 96]
    assert header_unit("顺序读带宽 MB/s") == "MB/s" and header_unit("Read GB/s") == "GB/s"
    assert header_unit("延迟/ms") == "ms" and header_unit("读 p50/ms") == "ms"
    assert find_numbers("测试工具:fio 3.28") == [] and find_numbers("Version $Revision: 3.429 $") == []
    assert [n.value for n in find_numbers("iozone 3 次")] == [3]
    assert [(n.value, n.unit) for n in find_numbers("= 91503.61 kB/sec")] == [(91503.61, "KB/s")]


def test_kv_lines_of_tool_output_and_a_full_width_colon() -> None:
    """`name = value unit` lines (iozone), `CPU：2 × …` with no space after `：`, a time stamp that is no figure, and a
    rate named before its number."""
    text = (
        "Avg throughput per process = 91503.61 kB/sec\n"
        "Run began: Thu Dec 1 10:18:38 2022\n"
        "CPU：2 × Intel Xeon Gold 6338 @ 2.0GHz\n"
        "x = a + 5\n"
        "在 128 个并发作业下，4KB 随机读 IOPS 达到 1,250,000。\n"
    )
    got = page_figures(text, [], 595, 842, PageContext("s", "R", 1))
    found = {(r.value, r.unit, r.kind, r.labels[0]) for r in got}
    assert (91503.61, "KB/s", "kv", "Avg throughput per process") in found
    assert (2.0, "GHz", "kv", "CPU") in found and (2, "", "kv", "CPU") in found
    assert (1250000, "IOPS", "prose", "在 128 个并发作业下,4KB 随机读 IOPS 达到 1,250,000。") in found or any(
        r.value == 1250000 and r.unit == "IOPS" for r in got
    )
    assert not [r for r in got if r.value in (1, 10, 18, 38, 2022, 5)]


def test_a_header_cell_holding_an_abbreviation_and_its_unit() -> None:
    # A Word table (HBase/Cassandra benchmark): `Latency (approx. in ms)` over the label column, system names over
    # the values. `approx.` ends no sentence, so the line is the header, and its unit applies to the cells.
    rows: list[Row] = [
        (693.3, [(72.0, "Latency (approx. in ms)"), (238.0, "HBase"), (403.0, "Cassandra")]),
        (679.4, [(72.0, "Minimum update Latency"), (238.0, "7"), (403.0, "747")]),
        (665.5, [(72.0, "Maximum update Latency"), (238.0, "1669"), (403.0, "8387")]),
    ]
    figs = _page(rows, _ctx())
    assert _find(figs, 747, "Minimum update Latency", "Cassandra").unit == "ms"
    assert _find(figs, 1669, "Maximum update Latency", "HBase").unit == "ms"


def test_cells_of_a_counted_rate_keep_their_column() -> None:
    # `640 行/秒` is a number with its unit (lines per second): the column is a value column, not a second label
    # column, so the row keeps its dataset name and `5,925 行/秒` is no `5,925 s`.
    rows: list[Row] = [
        (700.0, [(60.0, "数据集"), (160.0, "行数"), (220.0, "总耗时"), (280.0, "表观吞吐量"), (360.0, "实际吞吐量")]),
        (685.0, [(60.0, "input3_one_eighth"), (160.0, "1,896"), (220.0, "2.96s"), (280.0, "640 行/秒"),
                 (360.0, "5,925 行/秒")]),
        (670.0, [(60.0, "input3_quarter"), (160.0, "3,749"), (220.0, "2.94s"), (280.0, "1,275 行/秒"),
                 (360.0, "12,497 行/秒")]),
    ]  # fmt: skip
    figs = _page(rows, _ctx())
    assert _find(figs, 640, "input3_one_eighth", "表观吞吐量").unit == "lines/s"
    assert _find(figs, 5925, "input3_one_eighth", "实际吞吐量").unit == "lines/s"


def test_a_first_column_of_whole_durations_under_a_parameter_name_keys_the_rows() -> None:
    # `窗口大小 | 总耗时 …` with `60s`, `120s`: the window is the row's condition, its time the measurement.
    rows: list[Row] = [
        (532.9, [(50.0, "窗口大小"), (107.0, "总耗时"), (154.0, "用户态时间"), (221.0, "相对变化")]),
        (508.2, [(50.0, "60s"), (107.0, "3.93s"), (154.0, "3.38s"), (221.0, "+7.7%")]),
        (483.4, [(50.0, "120s"), (107.0, "3.86s"), (154.0, "3.34s"), (221.0, "+5.8%")]),
        (458.7, [(50.0, "600s"), (107.0, "3.65s"), (154.0, "3.17s"), (221.0, "基准")]),
    ]
    figs = _page(rows, _ctx())
    assert _find(figs, 3.93, "60s", "总耗时").unit == "s"
    assert _find(figs, 7.7, "60s", "相对变化").unit == "%"


def test_a_label_wrapped_at_line_spacing_is_the_rest_of_the_row_above_not_a_row_group() -> None:
    # LibreOffice's Table Grid at CJK line height: `延迟` sits one row pitch under `4KB 随机读 p99`, whose cell it
    # did not fit, so it ends that label; it names no group of the rows below it.
    rows: list[Row] = [
        (498.4, [(90.0, "指标"), (176.0, "单位"), (263.0, "v1.8"), (349.0, "v2.0")]),
        (484.4, [(90.0, "顺序读带宽"), (176.0, "GB/s"), (322.0, "6.42"), (405.0, "9.87")]),
        (470.4, [(90.0, "4KB 随机读 p99"), (176.0, "ms"), (322.0, "2.84"), (409.0, "1.67")]),
        (456.9, [(90.0, "延迟")]),
        (442.9, [(90.0, "小对象 PUT 吞吐"), (176.0, "ops/s"), (310.0, "12,850"), (393.0, "18,920")]),
        (428.9, [(90.0, "元数据列举延迟"), (176.0, "μs"), (325.0, "850"), (412.0, "410")]),
    ]
    runs = [(x, x + (10.0 if len(t) < 6 else 7.0) * len(t) if any(ord(ch) > 0x3000 for ch in t) else x + 5.5 * len(t),
             y, 10.0, t) for y, cells in rows for x, t in cells]  # fmt: skip
    plain = "\n".join(" ".join(t for _x, t in cells) for _y, cells in rows)
    figs = page_figures(plain, lines_of(runs), WIDTH, HEIGHT, _ctx())
    assert _find(figs, 2.84, "4KB 随机读 p99 延迟", "v1.8").unit == "ms"
    hit = _find(figs, 12850, "小对象 PUT 吞吐", "v1.8")
    assert "延迟" not in hit.labels, hit.labels


def test_a_first_row_of_counted_amounts_is_a_row_not_the_header() -> None:
    # a benchmark's results table (outside trial): `总数据量 | 200,000 事件 | 50,000 行` under the system names is
    # data (counts of events and of lines), so the columns stay the systems' and the row keeps its label
    rows: list[Row] = [
        (700.0, [(60.0, "指标"), (200.0, "纯算法核心 (Core)"), (340.0, "全链路系统 (Full System)")]),
        (685.0, [(60.0, "总数据量"), (200.0, "200,000 事件"), (340.0, "50,000 行")]),
        (670.0, [(60.0, "总耗时"), (200.0, "0.2002s"), (340.0, "2.8847s")]),
        (655.0, [(60.0, "内存峰值"), (200.0, "36.75 MB"), (340.0, "86.15 MB")]),
    ]
    figs = _page(rows, _ctx())
    assert _find(figs, 50000, "总数据量", "全链路系统").unit == "行"
    assert _find(figs, 200000, "总数据量", "纯算法核心").unit == "事件"
    assert "总数据量" not in " ".join(_find(figs, 2.8847, "总耗时", "全链路系统").labels)
