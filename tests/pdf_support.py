"""Hand-made report PDFs for rule tests: lines of prose drawn with reportlab, and any drawn PDF parsed into an index."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from evidence.models import Report
from evidence.pdf import parse_pdf
from qc.index import EvidenceIndex


def parsed_index(path: Path, rid: str) -> EvidenceIndex:
    """The PDF at `path` read by the extractor (pypdf) as report `rid`."""
    parsed = parse_pdf(path, report_id=rid)
    report = Report(id=rid, title="t", date=dt.date(2026, 1, 1), access="public", file=path.name,
                    sha256=parsed.sha256 or "0", version=1, pages=len(parsed.pages))  # fmt: skip
    return EvidenceIndex(reports={rid: report}, figures={rid: parsed.figures}, pages={rid: parsed.pages})


def prose_index(path: Path, rid: str, lines: list[str], size: float = 10, left: float = 60) -> EvidenceIndex:
    """One A4 page of `lines` (Chinese and Latin, the STSong-Light CID font), one every 30 pt, read as `rid`."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", size)
    y = 780.0
    for line in lines:
        c.drawString(left, y, line)
        y -= 30
    c.showPage()
    c.save()
    return parsed_index(path, rid)


def table_index(path: Path, rid: str, lines: list[str], rows: list[list[str]], xs: tuple[float, ...],
                top: float = 760.0, gap: float = 20.0, pitch: float = 16.0,
                right: tuple[int, ...] = ()) -> EvidenceIndex:  # fmt: skip
    """One A4 page: `lines` (STSong-Light, one every `gap` pt from `top`), then the table `rows` under them, a cell
    at each of `xs` (a column in `right` ending there, as Word sets a right-aligned cell), one row every `pitch`
    pt, a Latin cell in Helvetica (the CID font's Latin glyphs are a full em wide: cells would run into each other),
    a Chinese one in STSong-Light; read as `rid`."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", 10)
    y = top
    for line in lines:
        c.drawString(60, y, line)
        y -= gap
    for row in rows:
        for n, (x, cell) in enumerate(zip(xs, row, strict=True)):
            c.setFont("Helvetica" if cell.isascii() else "STSong-Light", 9)
            (c.drawRightString if n in right else c.drawString)(x, y, cell)
        y -= pitch
    c.showPage()
    c.save()
    return parsed_index(path, rid)
