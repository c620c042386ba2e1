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
    ["1", "登录页面", "99.92", "0.26", "412.57", "9.63", "97.45"],
    ["2", "注册页面", "99.98", "0.22", "468.31", "11.42", "98.66"],
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
    rate = _one(figs, 412.57)
    assert rate.unit == "trans/s" and parse_unit(rate.unit).dim != "time"  # a rate, never seconds
    assert "登录页面" in rate.labels and "Transaction rate" in rate.labels
    assert not any(lb in ("1", "%", "编", "trans/sec") or "单位" in lb for lb in rate.labels)
    assert _one(figs, 0.26).unit == "s" and _one(figs, 99.92).unit == "%" and _one(figs, 11.42).unit == "MB/s"
    bare = _one(figs, 97.45)
    assert bare.unit == "" and "Concurrency" in bare.labels and "无" not in " ".join(bare.labels)
    assert not [f for f in figs if f.value in (1, 2, 3)], "a serial number is no figure"
    assert all("编号" not in " ".join(f.labels) and "编 号" not in " ".join(f.labels) for f in figs)


def test_units_in_the_headers_full_width_brackets_and_an_english_serial() -> None:
    header = [
        ["序号", "模块", "可用性（%）", "响应时间（秒）", "Transaction rate (trans/sec)", "吞吐量（MB/sec）", "并发"]
    ]
    figs = _figures(_table(header, [60.0, 90.0, 150.0, 230.0, 330.0, 480.0, 540.0], BODY))
    assert _one(figs, 0.26).unit == "s" and _one(figs, 412.57).unit == "trans/s"
    assert "登录页面" in _one(figs, 412.57).labels and not [f for f in figs if f.value in (1, 2, 3)]
    english = [["No.", "Module", "Availability", "Response time", "Errors"], ["", "Unit", "%", "ms", "-"]]
    body = [["1", "Login", "99.95", "212", "17"], ["2", "Checkout", "99.81", "486", "64"]]
    figs = _figures(_table(english, [60.0, 90.0, 150.0, 230.0, 310.0], body))
    assert _one(figs, 212).unit == "ms" and _one(figs, 17).unit == ""
    assert "Login" in _one(figs, 212).labels and "No. 1" not in _one(figs, 212).labels


def test_units_row_without_a_serial_column() -> None:
    header = [["模块", "Availability", "Response time", "Transaction rate"], ["单位", "%", "sec", "trans/sec"]]
    body = [row[1:5] for row in BODY]
    figs = _figures(_table(header, [60.0, 150.0, 230.0, 310.0], body))
    assert _one(figs, 0.22).unit == "s" and _one(figs, 468.31).unit == "trans/s"
    assert "注册页面" in _one(figs, 468.31).labels  # the module column is no unit column for its `单位` cell


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


def _grid(header: list[tuple[float, list[str]]], pitch: float) -> list[Row]:
    """Header lines at their own heights (y, cells by X), then BODY one row `pitch` apart under the last of them."""
    rows: list[Row] = [(y, [(x, t) for x, t in zip(X, line, strict=True) if t]) for y, line in header]
    y = header[-1][0]
    for line in BODY:
        y -= pitch
        rows.append((y, list(zip(X, line, strict=True))))
    return rows


def test_a_padded_word_grid_takes_its_header_rows_a_row_pitch_apart() -> None:
    # Word's cell spacing stands rows 2.6 lines apart, the header and units rows as far as the data rows.
    header = [
        (726.0, ["编号", "模块", "Availability", "Response time", "Transaction rate", "Throughput", "Concurrency"]),
        (700.0, ["", "单位", "%", "sec", "trans/sec", "MB/sec", "无"]),
    ]
    figs = _figures(_grid(header, 26.0))
    rate = _one(figs, 412.57)
    assert rate.unit == "trans/s" and "登录页面" in rate.labels and "Transaction rate" in rate.labels
    assert not [f for f in figs if f.value in (1, 2, 3)] and "1" not in rate.labels
    assert _one(figs, 97.45).unit == "" and "Concurrency" in _one(figs, 97.45).labels


def test_a_vertically_centred_header_wrapped_over_lines_half_a_line_apart_is_one_row() -> None:
    # Word centres each header cell: `编`/`号` and `Response`/`time` on two lines, the one-line cells between them.
    header = [
        (742.0, ["编", "", "", "Response", "Transaction", "", ""]),
        (734.5, ["", "模块", "Availability", "", "", "Throughput", "Concurrency"]),
        (727.0, ["号", "", "", "time", "rate", "", ""]),
        (700.0, ["", "单位", "%", "sec", "trans/sec", "MB/sec", "无"]),
    ]
    for pitch in (26.0, 14.0):  # padded, and at plain line spacing under a units row close below the header
        rows = _grid(header, pitch) if pitch > 20 else _grid([*header[:3], (713.0, header[3][1])], pitch)
        figs = _figures(rows)
        rate = _one(figs, 412.57)
        assert rate.unit == "trans/s" and "登录页面" in rate.labels and "Transaction rate" in rate.labels, rate.labels
        assert "Response time" in _one(figs, 0.26).labels and _one(figs, 0.26).unit == "s"
        assert "Availability" in _one(figs, 99.92).labels and _one(figs, 97.45).unit == ""
        assert not [f for f in figs if f.value in (1, 2, 3)]
        assert all("编" not in " ".join(f.labels) and "Response Transaction" not in " ".join(f.labels) for f in figs)


def test_header_lines_a_full_line_apart_stay_lines_of_their_own() -> None:
    # Bottom-aligned wrapped headers (`Throughput` / `(MB/sec)`) stand a line apart: the second line is the first's.
    header = [
        ["", "", "", "Response", "Transaction", "Throughput", ""],
        ["", "模块", "Avail (%)", "time (sec)", "rate", "(MB/sec)", "Conc"],
    ]
    body = [row[1:] for row in BODY]
    rows: list[Row] = [(712.0, [(x, t) for x, t in zip(X, header[0], strict=True) if t])]
    rows.append((700.0, [(x, t) for x, t in zip(X, header[1], strict=True) if t]))
    y = 700.0
    for line in body:
        y -= 14.0
        rows.append((y, list(zip(X[1:], line, strict=True))))
    figs = _figures(rows)
    assert "Throughput (MB/sec)" in _one(figs, 9.63).labels and _one(figs, 9.63).unit == "MB/s"
    assert "Response time (sec)" in _one(figs, 0.26).labels
