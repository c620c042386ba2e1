"""Word tables as an outside trial met them (issue #14, trial 11): group headers centred over their columns
(`vLLM 0.6.3` over TTFT p50, TTFT p99 and TPOT), a page break inside the header (the group and metric lines end
page 1, the `p50/ms` line heads the rows on page 2), and a caption under its table that is no caption of the next
section's table."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import parsed_index

from qc.index import EvidenceIndex

COLS = (60, 130, 200, 270, 340, 410, 480)  # the right edge of each column: Word right-aligns numbers
GROUP = [(60, "Batch"), (None, "vLLM 0.6.3", 1, 3), (None, "TensorRT-LLM 0.13.0", 4, 6)]
METRIC = ["TTFT", "TTFT", "TPOT", "TTFT", "TTFT", "TPOT"]
UNITS = ["p50/ms", "p99/ms", "p50/ms", "p50/ms", "p99/ms", "p50/ms"]
ROWS = [["1", "78", "96", "7.0", "64", "81", "5.9"], ["32", "742", "1,286", "11.1", "561", "904", "9.0"]]


def _draw(path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=A4, invariant=1)

    def right(x: float, y: float, text: str) -> None:
        c.setFont("Helvetica", 9)
        c.drawRightString(x, y, text)

    c.setFont("Helvetica", 10)
    c.drawString(60, 780, "3 Latency")
    c.drawString(60, 760, "Time to first token (TTFT) and time per output token were measured per batch.")
    c.setFont("Helvetica", 9)
    for _x, text, *span in GROUP:
        if not span:
            c.drawString(60, 120, text)
            continue
        lo, hi = span
        centre = (COLS[lo] - 40 + COLS[hi]) / 2  # centred over its columns' cells (each about 40 pt wide)
        c.drawCentredString(centre, 120, text)
    for n, text in enumerate(METRIC, start=1):
        right(COLS[n], 106, text)
    c.showPage()
    y = 780.0
    for n, text in enumerate(UNITS, start=1):
        right(COLS[n], y, text)
    for row in ROWS:
        y -= 16
        c.setFont("Helvetica", 9)
        c.drawString(60, y, row[0])
        for n, cell in enumerate(row[1:], start=1):
            right(COLS[n], y, cell)
    c.setFont("Helvetica", 10)
    c.drawString(200, y - 18, "Table 2: TTFT and TPOT by batch size")
    c.drawString(60, y - 50, "4 GPU memory and start-up")
    c.setFont("Helvetica", 9)
    y -= 80
    c.drawString(60, y, "Metric")
    right(COLS[3], y, "vLLM 0.6.3")
    right(COLS[5], y, "TensorRT-LLM 0.13.0")
    for label, a, b in (("KV cache per GPU (GB)", "52.3", "55.8"), ("Start-up time (s)", "96", "1,340")):
        y -= 16
        c.drawString(60, y, label)
        right(COLS[3], y, a)
        right(COLS[5], y, b)
    c.setFont("Helvetica", 10)
    c.drawString(200, y - 18, "Table 3: Memory footprint and start-up")
    c.showPage()
    c.save()


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("serving") / "serving.pdf"
    _draw(path)
    return parsed_index(path, "R3")


def _labels(index: EvidenceIndex, raw: str) -> list[str]:
    return next(f.labels for f in index.figures["R3"] if f.raw == raw and f.page == 2)


@pytest.mark.parametrize(
    ("raw", "system", "metric"),
    [("78", "vLLM 0.6.3", "TTFT p50/ms"), ("7.0", "vLLM 0.6.3", "TPOT p50/ms"), ("64", "TensorRT-LLM 0.13.0", "TTFT p50/ms"),
     ("904", "TensorRT-LLM 0.13.0", "TTFT p99/ms")],
)  # fmt: skip
def test_a_header_the_page_break_parted_labels_each_cell(
    serving: EvidenceIndex, raw: str, system: str, metric: str
) -> None:
    labels = _labels(serving, raw)
    assert any(lab == f"{system} {metric}" for lab in labels), labels
    assert all("TensorRT" not in lab for lab in labels) if system.startswith("vLLM") else True


def test_a_caption_under_its_table_is_not_the_next_sections_tables(serving: EvidenceIndex) -> None:
    labels = _labels(serving, "55.8")
    assert labels[0] == "Table 3: Memory footprint and start-up"
    assert not any(lab.startswith("Table 2") for lab in labels)


def _draw_parted_caption(path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", 10)
    c.drawString(60, 780, "3.1 点读性能")
    c.drawString(60, 760, "点读负载按 Zipfian 分布访问键空间,各并发档位的吞吐见表 2。")
    c.drawString(200, 120, "表 2 YCSB-C 点读性能对比")
    c.showPage()
    c.setFont("STSong-Light", 9)
    for y, cells in (
        (780, ["并发数", "QPS", "p99 (ms)"]),
        (764, ["64", "182,350", "1.12"]),
        (748, ["128", "296,710", "1.58"]),
    ):
        for x, cell in zip((60, 160, 260), cells, strict=True):
            c.setFont("Helvetica" if cell.isascii() else "STSong-Light", 9)
            c.drawString(x, y, cell)
    c.showPage()
    c.save()


def test_a_caption_the_page_break_parted_from_its_table_labels_it(tmp_path: Path) -> None:
    path = tmp_path / "parted.pdf"
    _draw_parted_caption(path)
    index = parsed_index(path, "R3")
    cell = next(f for f in index.figures["R3"] if f.raw == "182,350")
    assert cell.labels[0] == "表 2 YCSB-C 点读性能对比"
