"""Load-test reports (ApacheBench, JMeter, wrk summaries): key–value units, multiples, user-count keys, CJK cells."""

from __future__ import annotations

from evidence.pdf.layout import lines_of
from evidence.pdf.numbers import find_numbers
from evidence.pdf.prose import page_figures
from evidence.pdf.tables import PageContext, Raw
from evidence.pdf.text import normalize

WIDTH, HEIGHT = 595.0, 842.0
Row = tuple[float, list[tuple[float, str]]]


def _page(rows: list[Row], size: float = 10.0) -> list[Raw]:
    runs = [(x, x + 0.5 * size * len(text), y, size, text) for y, cells in rows for x, text in cells]
    plain = normalize("\n".join(" ".join(t for _x, t in cells) for _y, cells in rows))  # as parse_pdf reads it
    return page_figures(plain, lines_of(runs), WIDTH, HEIGHT, PageContext("0" * 64, "R", 1))


def _one(figs: list[Raw], value: float, kind: str) -> Raw:
    hits = [f for f in figs if f.value == value and f.kind == kind]
    assert len(hits) == 1, (value, kind, [(f.value, f.unit, f.labels, f.kind) for f in figs])
    return hits[0]


def test_a_unit_in_the_labels_brackets_and_each_value_named_by_its_key() -> None:
    figs = _page([(700.0, [(60.0, "Request time (ms): min=12.3, mean=45.6, max=78.9")])])
    for value, key in ((12.3, "min"), (45.6, "mean"), (78.9, "max")):
        f = _one(figs, value, "kv")
        assert f.unit == "ms" and f.labels[:2] == ["Request time (ms)", key]
    zh = _page([(700.0, [(60.0, "当前价格(元)：82.42")])])
    assert _one(zh, 82.42, "kv").unit == "元"


def test_a_bracket_that_gives_no_unit_still_ends_no_label() -> None:
    # `f(x): 3` is code-like; brackets end a label only when they hold its unit
    figs = _page([(700.0, [(60.0, "Score (final): 3.5 points")])])
    assert all(f.kind != "kv" for f in figs)


def test_a_bracketed_unit_after_the_value() -> None:
    figs = _page(
        [
            (700.0, [(60.0, "Time per request: 12.5 [ms] (mean)")]),
            (686.0, [(60.0, "Transfer rate: 845.21 [Kbytes/sec] received")]),
        ]
    )
    assert _one(figs, 12.5, "kv").unit == "ms"
    assert _one(figs, 845.21, "kv").unit == "KB/s"


def test_a_compared_multiple_is_no_count_of_things() -> None:
    (n,) = find_numbers("sustains 11× higher throughput")
    assert (n.value, n.unit) == (11, "x")
    (m,) = find_numbers("4x faster than before")
    assert m.unit == "x"
    # a count of things keeps no unit: `8×A800`, `2 × Xeon`
    assert [x.unit for x in find_numbers("8×A800 and 2 × Xeon")] == ["", ""]


def test_user_counts_with_thousands_separators_key_their_rows() -> None:
    cols = [60.0, 160.0, 260.0]
    rows: list[Row] = [(700.0, [(60.0, "Users"), (160.0, "Throughput (req/s)"), (260.0, "p99 (ms)")])]
    for k, (users, tput, p99) in enumerate(
        (("100", "2,480", "18.4"), ("1,000", "9,310", "41.7"), ("5,000", "12,905", "96.2"))
    ):
        rows.append((686.0 - 14 * k, [(cols[0], users), (cols[1], tput), (cols[2], p99)]))
    figs = _page(rows)
    f = _one(figs, 9310, "cell")
    assert f.unit == "req/s" and "Users 1,000" in f.labels
    assert "Users 5,000" in _one(figs, 96.2, "cell").labels


def test_a_key_value_line_above_a_table_that_prints_its_value_again() -> None:
    rows: list[Row] = [
        (720.0, [(60.0, "平均延迟：12.5 ms")]),
        (700.0, [(60.0, "线程数"), (160.0, "延迟(ms)"), (260.0, "吞吐量（req/s）")]),
        (686.0, [(60.0, "100"), (160.0, "12.5"), (260.0, "8,000")]),
        (672.0, [(60.0, "1,000"), (160.0, "48.2"), (260.0, "20,746")]),
        (658.0, [(60.0, "2,000"), (160.0, "95.1"), (260.0, "21,030")]),
    ]
    figs = _page(rows)
    kv = _one(figs, 12.5, "kv")
    assert kv.unit == "ms" and kv.labels[0] == "平均延迟"
    assert _one(figs, 12.5, "cell").unit == "ms"


def _glyphs(x: float, y: float, text: str, size: float = 10.0) -> list[tuple[float, float, float, float, str]]:
    """One run per glyph, as Chromium prints: CJK a full em wide, Latin half."""
    out = []
    for ch in text:
        w = size if ord(ch) > 0x2E80 else 0.5 * size
        out.append((x, x + w, y, size, ch))
        x += w
    return out


def test_touching_cjk_glyphs_then_a_cell_padding_gap_are_two_cells() -> None:
    runs = _glyphs(57.0, 700.0, "线程数") + _glyphs(88.5, 700.0, "延迟(ms)")
    # a page that prints its spaces (a browser's): the gap between 数 and 延 holds none
    runs += _glyphs(57.0, 680.0, "Throughput is 8,000 req/s at 100 users")
    (header, _body) = lines_of(runs)
    assert [s.text for s in header.segs] == ["线程数", "延迟(ms)"]


def test_justified_cjk_stays_one_segment() -> None:
    runs = []
    x = 57.0
    for ch in "在一千线程时吞吐量达到峰值":
        runs.append((x, x + 10.0, 700.0, 10.0, ch))
        x += 11.5  # every character spaced apart alike
    runs += _glyphs(57.0, 680.0, "Throughput is 8,000 req/s at 100 users")
    (line, _body) = lines_of(runs)
    assert len(line.segs) == 1
