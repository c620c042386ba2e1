"""Word's load-test tables: a units row under the header, a serial column, a header cell wrapped over two lines."""

from __future__ import annotations

from evidence.pdf.layout import lines_of
from evidence.pdf.numbers import header_unit
from evidence.pdf.prose import page_figures
from evidence.pdf.tables import PageContext, Raw
from evidence.units import parse_unit

Row = tuple[float, list[tuple[float, str]]]
X = [60.0, 90.0, 150.0, 240.0, 330.0, 440.0, 510.0]  # serial, module, five metrics
BODY = [
    ["1", "登录页面", "99.91", "0.24", "401.93", "9.84", "97.60"],
    ["2", "注册页面", "99.96", "0.20", "485.86", "11.90", "98.94"],
    ["3", "商品搜索", "99.93", "0.35", "276.41", "7.12", "96.85"],
]


def _figures(rows: list[Row], size: float = 10.0) -> list[Raw]:
    runs = [(x, x + 0.5 * size * len(t), y, size, t) for y, cells in rows for x, t in cells]
    plain = "\n".join(" ".join(t for _x, t in cells) for _y, cells in rows)
    return [
        f for f in page_figures(plain, lines_of(runs), 595.0, 842.0, PageContext("0" * 64, "R", 1)) if f.kind == "cell"
    ]


def _table(header: list[list[str]], xs: list[float], body: list[list[str]], y: float = 700.0) -> list[Row]:
    rows: list[Row] = [(y + 30.0, [(60.0, "表 3-1 各模块性能指标")])]
    for line in header:
        rows.append((y, [(x, t) for x, t in zip(xs, line, strict=True) if t]))
        y -= 14.0
    for line in body:
        rows.append((y, list(zip(xs, line, strict=True))))
        y -= 14.0
    return rows


def _one(figs: list[Raw], value: float) -> Raw:
    hits = [f for f in figs if f.value == value]
    assert len(hits) == 1, [(f.value, f.unit, f.labels) for f in hits]
    return hits[0]


def test_units_row_serial_column_and_a_header_cell_wrapped_over_two_lines() -> None:
    header = [
        ["编", "", "", "", "", "", ""],
        ["号", "模块", "Availability", "Response time", "Transaction rate", "Throughput", "Concurrency"],
        ["", "单位", "%", "sec", "trans/sec", "MB/sec", "无"],
    ]
    figs = _figures(_table(header, X, BODY))
    rate = _one(figs, 401.93)
    assert rate.unit == "trans/s" and parse_unit(rate.unit).dim != "time"  # a rate, never seconds
    assert "登录页面" in rate.labels and "Transaction rate" in rate.labels
    assert not any(lb in ("1", "%", "编", "trans/sec") or "单位" in lb for lb in rate.labels)
    assert _one(figs, 0.24).unit == "s" and _one(figs, 99.91).unit == "%" and _one(figs, 11.90).unit == "MB/s"
    bare = _one(figs, 97.60)
    assert bare.unit == "" and "Concurrency" in bare.labels and "无" not in " ".join(bare.labels)
    assert not [f for f in figs if f.value in (1, 2, 3)], "a serial number is no figure"
    assert all("编号" not in " ".join(f.labels) and "编 号" not in " ".join(f.labels) for f in figs)


def test_units_in_the_headers_full_width_brackets_and_an_english_serial() -> None:
    header = [
        ["序号", "模块", "可用性（%）", "响应时间（秒）", "Transaction rate (trans/sec)", "吞吐量（MB/sec）", "并发"]
    ]
    figs = _figures(_table(header, [60.0, 90.0, 150.0, 230.0, 330.0, 480.0, 540.0], BODY))
    assert _one(figs, 0.24).unit == "s" and _one(figs, 401.93).unit == "trans/s"
    assert "登录页面" in _one(figs, 401.93).labels and not [f for f in figs if f.value in (1, 2, 3)]
    english = [["No.", "Module", "Availability", "Response time", "Errors"], ["", "Unit", "%", "ms", "-"]]
    body = [["1", "Login", "99.95", "212", "17"], ["2", "Checkout", "99.81", "486", "64"]]
    figs = _figures(_table(english, [60.0, 90.0, 150.0, 230.0, 310.0], body))
    assert _one(figs, 212).unit == "ms" and _one(figs, 17).unit == ""
    assert "Login" in _one(figs, 212).labels and "No. 1" not in _one(figs, 212).labels


def test_units_row_without_a_serial_column() -> None:
    header = [["模块", "Availability", "Response time", "Transaction rate"], ["单位", "%", "sec", "trans/sec"]]
    body = [row[1:5] for row in BODY]
    figs = _figures(_table(header, [60.0, 150.0, 230.0, 310.0], body))
    assert _one(figs, 0.20).unit == "s" and _one(figs, 485.86).unit == "trans/s"
    assert "注册页面" in _one(figs, 485.86).labels  # the module column is no unit column for its `单位` cell


def test_a_swept_first_column_is_no_serial_and_a_lone_serial_still_names_its_rows() -> None:
    # Batch 1, 2, 4: a parameter, not serial numbers; it names the rows and is a figure.
    header = [["Batch", "p50 (ms)", "p99 (ms)"]]
    body = [["1", "11.2", "14.9"], ["2", "11.6", "15.4"], ["4", "12.6", "16.9"]]
    figs = _figures(_table(header, [60.0, 150.0, 230.0], body))
    assert any(f.value == 4 and "Batch" in f.labels for f in figs)
    assert "Batch 4" in _one(figs, 12.6).labels
    # `No.` 1..3 with no label column beside it: the rows' only name, kept as their label, still no figure.
    header = [["No.", "p50 (ms)", "p99 (ms)"]]
    body = [["1", "11.2", "14.9"], ["2", "11.6", "15.4"], ["3", "12.6", "16.9"]]
    figs = _figures(_table(header, [60.0, 150.0, 230.0], body))
    assert "No. 3" in _one(figs, 12.6).labels and not [f for f in figs if f.value in (1, 2, 3)]


def test_a_rate_per_second_is_no_time() -> None:
    assert header_unit("trans/sec") == "trans/s" and header_unit("Transaction rate (trans/sec)") == "trans/s"
    assert parse_unit("trans/sec").dim == "trans/s" and header_unit("p50/ms") == "ms"


def test_a_header_line_of_count_words_is_no_units_row() -> None:
    # `GPUs | Nodes` under `Throughput | Latency`: header words (what the columns count), not units.
    header = [["", "Throughput", "Latency"], ["", "GPUs", "Nodes"]]
    body = [["A", "12.5", "3.1"], ["B", "14.2", "3.4"]]
    figs = _figures(_table(header, [60.0, 150.0, 260.0], body))
    assert "Throughput GPUs" in _one(figs, 12.5).labels and "Latency Nodes" in _one(figs, 3.4).labels
