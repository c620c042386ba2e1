"""Generate the bundled example test-report PDFs (site/reports/R*.pdf) from tools/report_data/*.yaml."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Any

import yaml
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

# Fixed IDs and dates in the PDF trailer/info: the same data always gives the same bytes.
rl_config.invariant = 1

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "report_data"
OUT = REPO / "site" / "reports"
FONT_PATH = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
FONT = "WQYZenHei"
MARGIN = 20 * mm
PAGE_W, PAGE_H = A4


def _register_font() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        if not Path(FONT_PATH).is_file():
            sys.exit(f"error: {FONT_PATH} is missing (Debian: apt-get install fonts-wqy-zenhei)")
        pdfmetrics.registerFont(TTFont(FONT, FONT_PATH, subfontIndex=0))


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=16, wordWrap="CJK", spaceAfter=6)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontSize=19, leading=26, alignment=TA_CENTER, spaceAfter=4),
        "subtitle": ParagraphStyle(
            "subtitle", parent=base, fontSize=13, leading=20, alignment=TA_CENTER, spaceAfter=14
        ),
        "h1": ParagraphStyle("h1", parent=base, fontSize=13.5, leading=20, spaceBefore=10, spaceAfter=6),
        "h2": ParagraphStyle("h2", parent=base, fontSize=11.5, leading=18, spaceBefore=6, spaceAfter=4),
        "caption": ParagraphStyle(
            "caption", parent=base, fontSize=10, alignment=TA_CENTER, spaceBefore=4, spaceAfter=4
        ),
        "kv": ParagraphStyle("kv", parent=base, leftIndent=8 * mm, spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=9.5, leading=13, spaceAfter=0),
        "sign": ParagraphStyle("sign", parent=base, spaceBefore=24),
    }


def _esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _table(spec: dict[str, Any], styles: dict[str, ParagraphStyle], width: float) -> Flowable:
    columns = spec["columns"]
    fractions = spec.get("widths") or [1 / len(columns)] * len(columns)
    col_w = [width * f for f in fractions]
    rows = [[str(c) for c in columns], *[[str(c) for c in row] for row in spec["rows"]]]
    table = Table(rows, colWidths=col_w, repeatRows=1, hAlign="CENTER")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9.5),
                ("GRID", (0, 0), (-1, -1), 0.5, colors.HexColor("#666666")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E4E9F0")),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("ALIGN", (0, 1), (0, -1), "LEFT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    caption = Paragraph(_esc(spec["caption"]), styles["caption"])
    parts: list[Flowable] = [caption, table]
    if spec.get("note"):
        parts.append(Paragraph(_esc(spec["note"]), styles["cell"]))
    parts.append(Spacer(1, 6))
    return KeepTogether(parts)


def _story(data: dict[str, Any], styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    story: list[Flowable] = [
        Spacer(1, 8 * mm),
        Paragraph(_esc(data["title"]), styles["title"]),
        Paragraph(_esc(data["subtitle"]), styles["subtitle"]),
    ]
    meta = Table([[k, v] for k, v in data["meta"]], colWidths=[width * 0.25, width * 0.5], hAlign="CENTER")
    meta.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    story += [meta, Spacer(1, 8 * mm)]
    for section in data["sections"]:
        if section.get("pagebreak"):
            story.append(PageBreak())
            continue
        if section.get("heading"):
            story.append(Paragraph(_esc(section["heading"]), styles["h1"]))
        for block in section.get("blocks", []):
            if "p" in block:
                story.append(Paragraph(_esc(block["p"]), styles["body"]))
            elif "h2" in block:
                story.append(Paragraph(_esc(block["h2"]), styles["h2"]))
            elif "kv" in block:
                story += [Paragraph(f"{_esc(k)}: {_esc(v)}", styles["kv"]) for k, v in block["kv"]]
                story.append(Spacer(1, 4))
            elif "table" in block:
                story.append(_table(block["table"], styles, width))
            elif "sign" in block:
                story.append(Paragraph("　　".join(_esc(s) for s in block["sign"]), styles["sign"]))
            else:
                raise ValueError(f"{data['id']}: unknown block {sorted(block)}")
    return story


def _canvas_class(data: dict[str, Any]) -> type[rl_canvas.Canvas]:
    """A canvas that defers headers/footers to save time, when the page total is known."""
    cover = data.get("page_labels") == "cover"
    confidential = data["access"] != "public"

    class ReportCanvas(rl_canvas.Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            if cover:  # the cover is unnumbered: printed numbers (and /PageLabels) start on page 2
                self.addPageLabel(0, prefix="封面")
                self.addPageLabel(1, style="D", start=1)
            for index, state in enumerate(self._pages):
                self.__dict__.update(state)
                self._decorate(index, total)
                super().showPage()
            super().save()

        def _decorate(self, index: int, total: int) -> None:
            self.setFont(FONT, 8.5)
            self.setFillColor(colors.HexColor("#444444"))
            top = PAGE_H - 12 * mm
            self.drawString(MARGIN, top, f"{data['vendor']} · {data['product']} 测试报告")
            self.drawRightString(PAGE_W - MARGIN, top, f"报告编号 {data['report_no']}")
            self.setStrokeColor(colors.HexColor("#888888"))
            self.setLineWidth(0.5)
            self.line(MARGIN, top - 2.5 * mm, PAGE_W - MARGIN, top - 2.5 * mm)
            bottom = 11 * mm
            self.line(MARGIN, bottom + 4 * mm, PAGE_W - MARGIN, bottom + 4 * mm)
            if confidential:
                self.drawString(MARGIN, bottom, "保密 · 仅限授权客户,未经许可不得转发")
            else:
                self.drawString(MARGIN, bottom, "公开报告")
            if cover and index == 0:
                return
            number, count = (index, total - 1) if cover else (index + 1, total)
            self.drawRightString(PAGE_W - MARGIN, bottom, f"第 {number} 页 / 共 {count} 页")

    return ReportCanvas


def build_report(data_file: Path, out_dir: Path) -> Path:
    """Render one report data file to `<out_dir>/<file>`; returns the PDF path."""
    _register_font()
    data = yaml.safe_load(data_file.read_text(encoding="utf-8"))
    out = out_dir / data["file"]
    out_dir.mkdir(parents=True, exist_ok=True)
    date = data["date"] if isinstance(data["date"], dt.date) else dt.date.fromisoformat(str(data["date"]))
    doc = SimpleDocTemplate(
        str(out),
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=24 * mm,
        bottomMargin=22 * mm,
        title=f"{data['title']}({data['subtitle']})",
        author=data["vendor"],
        subject=f"{data['product']} 测试报告 {data['report_no']} ({date.isoformat()})",
        creator="Proofpress tools/make_reports.py",
    )
    doc.build(_story(data, _styles(), doc.width), canvasmaker=_canvas_class(data))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (default: site/reports)")
    parser.add_argument("ids", nargs="*", help="report ids to build (default: all)")
    args = parser.parse_args(argv)
    for data_file in sorted(DATA.glob("*.yaml")):
        if args.ids and data_file.stem not in args.ids:
            continue
        out = build_report(data_file, args.out)
        print(f"{out} ({out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
