"""Word's squeezed full-width punctuation and a decimal point parted from its digits by a space in the glyph run."""

from __future__ import annotations

from pathlib import Path

from evidence.pdf import parse_pdf
from evidence.pdf.layout import lines_of

FONT, SIZE = "STSong-Light", 12.0


def _word_table(path: Path) -> None:
    """A Word-like table: its row labels print `（` squeezed under the glyph before it (the box starts left of that
    glyph's end, drawn after it) and one cell prints `481.` and ` 57` as two touching runs."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont(FONT, SIZE)

    def w(text: str) -> float:
        return pdfmetrics.stringWidth(text, FONT, SIZE)

    def squeezed_label(x: float, y: float, word: str, unit: str) -> None:
        c.drawString(x, y, word[:-1])
        x += w(word[:-1])
        c.drawString(x, y, word[-1])
        x += w(word[-1]) - 0.42 * SIZE  # the opener's blank left half tucked under the glyph before it
        for part in ("（", unit, "）"):
            c.drawString(x, y, part)
            x += w(part)

    c.drawString(60, 760, "表 1 压测结果")
    for x, t in ((60, "指标"), (260, "负载均衡"), (380, "动静分离")):
        c.drawString(x, 730, t)
    squeezed_label(60, 705, "Times per request", "ms")
    c.drawString(260, 705, "524.43")
    # One glyph run, as Word writes it: `[(481.) 5 ( 57)] TJ`, a space after the point and kerning between the parts.
    font = pdfmetrics.getFont(FONT)
    tj = " 5 ".join(f"({font.formatForPdf(t)})" for t in ("481.", " 57"))
    c._code.append(f"BT {c._doc.getInternalFontName(FONT)} {SIZE:g} Tf 1 0 0 1 380 705 Tm [{tj}] TJ ET")
    squeezed_label(60, 680, "Transfer rate", "KB/s")
    c.drawString(260, 680, "26161.85")
    c.drawString(380, 680, "27358.46")
    c.drawString(60, 640, "可见添加动静分离后，性能比之前有所提高。")
    c.showPage()
    c.save()


def test_squeezed_full_width_bracket_keeps_its_place_and_a_split_decimal_is_one_cell(tmp_path: Path) -> None:
    pdf = tmp_path / "word.pdf"
    _word_table(pdf)
    figs = {f.value: f for f in parse_pdf(pdf, report_id="W").figures if f.kind == "cell"}
    assert figs[524.43].unit == "ms" and "Times per request(ms)" in figs[524.43].labels
    assert figs[26161.85].unit == "KB/s" and "Transfer rate(KB/s)" in figs[26161.85].labels
    assert figs[481.57].unit == "ms" and "动静分离" in figs[481.57].labels
    assert 481 not in figs and 57 not in figs


def _runs(line: list[tuple[float, str]], y: float = 700.0) -> list[tuple[float, float, float, float, str]]:
    return [(x, x + sum(SIZE if ch >= "\u3000" else 0.5 * SIZE for ch in t), y, SIZE, t) for x, t in line]


def test_an_unsqueezed_bracket_stays_joined_to_its_word() -> None:
    # LibreOffice and browsers print `（` after the glyph before it, its full box: still one label, no gap.
    ln = lines_of(_runs([(60.0, "延迟"), (84.0, "（ms）"), (200.0, "12.5")]))[0]
    assert [s.text for s in ln.segs] == ["延迟(ms)", "12.5"]


def test_a_list_marker_or_a_sentence_after_a_point_is_no_decimal() -> None:
    # `1.` then a tab: a numbered item; `12.` then ` 5 次`: a sentence going on; `481. 57` in one run: as printed.
    lines = lines_of(
        _runs([(60.0, "1."), (72.0 + 0.9 * SIZE, "57")], 700)
        + _runs([(60.0, "12."), (78.0, " 5 次")], 670)
        + _runs([(60.0, "x"), (200.0, "481. 57")], 640)
    )
    texts = [[s.text for s in ln.segs] for ln in lines]
    assert texts == [["1.", "57"], ["12. 5 次"], ["x", "481. 57"]]


def test_the_space_may_end_the_run_before_the_digits() -> None:
    # `(481. ) (57)`: the space printed at the end of the point's run, the digits' run touching it.
    ln = lines_of(_runs([(60.0, "x"), (200.0, "481. "), (230.0, "57")]))[0]
    assert [s.text for s in ln.segs] == ["x", "481.57"]
