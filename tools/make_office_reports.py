"""Office-made test reports: .docx (python-docx) and .html from tests/corpus/office/reports.yaml, printed to PDF by
LibreOffice or Chromium, and their expected figures (tests/corpus/expected/office__<name>.yaml) from the same data."""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
OFFICE = REPO / "tests" / "corpus" / "office"
EXPECTED = REPO / "tests" / "corpus" / "expected"
FOOTNOTE = re.compile(r"[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡]+$")
EMPTY = {"N/A", "n/a", "—", "-", "–", ""}
CJK_FONT = "WenQuanYi Zen Hei"
_NUMERIC = re.compile(
    r"[+\-−]?[\d.,]+(?: ± [\d.,]+|[–~][\d.,]+(?: [A-Za-z/]+)?)?(?:%|[A-Za-z/]+)?[¹²³*]?"
)  # cells printed right-aligned, as office suites do


def _text(cell: Any) -> str:
    return str(cell["t"] if isinstance(cell, dict) else cell)


def _plain(cell: Any) -> str:
    return _text(cell).replace("<br>", " ")


def _rows(table: dict[str, Any]) -> list[list[Any]]:
    """The table's body rows as printed (generated rows included)."""
    gen = table.get("rows_generated")
    if not gen:
        return [list(r) for r in table["rows"]]
    rows = []
    for b in range(gen["from"], gen["to"] + 1):
        p50 = round(gen["p50"][0] + gen["p50"][1] * b, 2)
        p99 = round(gen["p99"][0] + gen["p99"][1] * b, 2)
        tput = round(gen["tput"][0] * b - 0.5 * b * b + gen["tput"][1], 1)
        rows.append([str(b), f"{p50:.2f}", f"{p99:.2f}", f"{tput:,.1f}"])
    return rows


# ---- HTML ----------------------------------------------------------------------------------------------------------


def _html(report: dict[str, Any]) -> str:
    """The report as one HTML page; LibreOffice needs explicit table widths (it squeezes auto-width tables)."""
    font = f"'{CJK_FONT}', sans-serif" if report["lang"] == "zh" else "'Liberation Sans', Arial, sans-serif"
    out = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(report['title'])}</title><style>",
        f"@page{{margin:18mm}} body{{font-family:{font};font-size:10pt}} h1{{font-size:16pt}} h2{{font-size:12pt}}",
        "table{border-collapse:collapse;margin:6pt 0} th,td{padding:0 1px;border:none;text-align:left;"
        "vertical-align:top;white-space:nowrap} td.n{text-align:right} caption{text-align:left;padding-bottom:4pt}"
        " table.grid th,table.grid td{border:0.5pt solid #000;padding:0 5.4pt}",
        "</style></head><body>",
        f"<h1>{html.escape(report['title'])}</h1>",
    ]
    for block in report["blocks"]:
        if block.get("new_page"):
            out.append("<div style='break-before:page'></div>")
        if "h" in block:
            out.append(f"<h2>{html.escape(block['h'])}</h2>")
        elif "p" in block:
            out.append(f"<p>{html.escape(block['p'])}</p>")
        elif "list" in block:
            out.append("<p>" + "<br>".join(html.escape(x) for x in block["list"]) + "</p>")
        elif "chart" in block:
            out.append(_svg_chart(block["chart"]))
        else:
            out.append(_html_table(block["table"], fixed=report["via"] == "soffice-html"))
    out.append("</body></html>")
    return "\n".join(out)


def _cell_html(tag: str, cell: Any, numeric: bool = False, valign: str = "", pad: float = 0.0) -> str:
    style = (f"vertical-align:{valign};" if valign else "") + (f"padding:{pad}pt 5.4pt;line-height:1.5" if pad else "")
    attrs = f" style='{style}'" if style else ""
    if isinstance(cell, dict):
        attrs += f" colspan='{cell['span']}'" if cell.get("span") else ""
        attrs += f" rowspan='{cell['rows']}'" if cell.get("rows") else ""
    if numeric:
        attrs += " class='n'"
    body = "<br>".join(html.escape(part) for part in _text(cell).split("<br>"))
    return f"<{tag}{attrs}>{body}</{tag}>"


def _html_table(table: dict[str, Any], fixed: bool = False) -> str:
    out = []
    width = " width='75%'" if fixed else ""
    if table.get("style") == "Table Grid":  # Word's bordered Table Grid: 0.5 pt rules, 0.19 cm cell margins
        width += " class='grid'"
    if table.get("unit_line"):
        out.append(f"<p>{html.escape(table['caption'])}</p><p>{html.escape(table['unit_line'])}</p><table{width}>")
    else:
        out.append(f"<table{width}><caption>{html.escape(table['caption'])}</caption>")
    out.append("<thead>")
    # `cell_pad`: Word's spacing before and after each cell's paragraph (pt), rows standing ~2.5 lines apart
    pad = float(table.get("cell_pad", 0.0))
    for row in table["header"]:
        # `header_valign: bottom`: header text at the foot of its cell, as Word's "Align Bottom" sets it
        valign = table.get("header_valign", "")
        out.append("<tr>" + "".join(_cell_html("th", c, valign=valign, pad=pad) for c in row) + "</tr>")
    out.append("</thead><tbody>")
    for row in _rows(table):
        cells = [
            _cell_html("td", c, numeric=bool(_NUMERIC.fullmatch(_text(c))) and n > 0, pad=pad)
            for n, c in enumerate(row)
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _svg_chart(chart: dict[str, Any]) -> str:
    """A bar chart with y-axis ticks and a data label on each bar."""
    h, top = 160, 20
    scale = h / max(chart["ticks"])
    parts = [f"<p>{html.escape(chart['caption'])}</p><svg width='320' height='{h + 50}' font-size='10'>"]
    for t in chart["ticks"]:
        y = top + h - t * scale
        parts.append(
            f"<text x='0' y='{y + 3:.1f}'>{t}</text><line x1='28' x2='300' y1='{y:.1f}' y2='{y:.1f}' stroke='#ccc'/>"
        )
    for n, bar in enumerate(chart["bars"]):
        x = 60 + n * 110
        v = float(bar["value"])
        y = top + h - v * scale
        parts.append(f"<rect x='{x}' y='{y:.1f}' width='60' height='{v * scale:.1f}' fill='#4a7'/>")
        parts.append(f"<text x='{x + 14}' y='{y - 4:.1f}'>{bar['value']}</text>")
        parts.append(f"<text x='{x + 8}' y='{top + h + 16}'>{html.escape(bar['label'])}</text>")
    parts.append("</svg>")
    return "".join(parts)


# ---- DOCX -----------------------------------------------------------------------------------------------------------


def _docx(report: dict[str, Any], path: Path) -> None:
    from docx import Document
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Mm, Pt

    doc = Document()
    if not report.get("default_style"):  # else Word's own Normal style, as a user who never changes it writes
        style = doc.styles["Normal"]
        style.font.size = Pt(10)
        font = CJK_FONT if report["lang"] == "zh" else "Liberation Sans"
        style.font.name = font
        style.element.rPr.rFonts.set(qn("w:eastAsia"), CJK_FONT)
    doc.add_heading(report["title"], level=1)
    for block in report["blocks"]:
        if "h" in block:
            doc.add_heading(block["h"], level=2)
        elif "p" in block:
            doc.add_paragraph(block["p"])
        elif "list" in block:
            for item in block[
                "list"
            ]:  # `bullets: true`: Word's List Bullet style, as the toolbar's bullet button gives
                doc.add_paragraph(item, style="List Bullet" if block.get("bullets") else None)
        elif "table" in block:
            t = block["table"]
            if t["caption"] and not t.get("caption_below"):
                doc.add_paragraph(t["caption"])
            if t.get("unit_line"):
                doc.add_paragraph(t["unit_line"])
            rows = _rows(t)
            ncol = len(t["columns"]) if "columns" in t else len(t["header"][-1])
            table = doc.add_table(rows=0, cols=ncol)
            if t.get("style"):  # Word's "Table Grid": the bordered table Insert → Table gives
                table.style = doc.styles[t["style"]]
            table.autofit = not t.get("touching")
            mar = OxmlElement("w:tblCellMar")
            for side in ("left", "right"):
                el = OxmlElement(f"w:{side}")
                el.set(qn("w:w"), "0" if t.get("touching") else "60")
                el.set(qn("w:type"), "dxa")
                mar.append(el)
            table._tbl.tblPr.append(mar)
            first = len(table.rows)
            for _ in t["header"]:
                table.add_row()
            _docx_header(table, t["header"], first)
            for r in range(first, first + len(t["header"])):
                if t.get("repeat_header"):
                    tr_pr = table.rows[r]._tr.get_or_add_trPr()
                    el = OxmlElement("w:tblHeader")
                    el.set(qn("w:val"), "true")
                    tr_pr.append(el)
            for row in rows:
                cells = table.add_row().cells
                for n, c in enumerate(row):
                    cells[n].text = _plain(c)
                    if n and _NUMERIC.fullmatch(_text(c)):
                        cells[n].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
            if report.get("text_columns"):  # a table as wide as its text column, as Writer sizes a new one there
                page = 297 if report.get("landscape") else 210
                w = Mm((page - 30 - 10 * (report["text_columns"] - 1)) / report["text_columns"] / ncol)
                for col in table.columns:
                    for cell in col.cells:
                        cell.width = w
                for grid in table._tbl.tblGrid.findall(qn("w:gridCol")):  # Writer lays out by the grid
                    grid.set(qn("w:w"), str(int(w) // 635))  # EMU → twips
            if t.get("touching"):
                # Columns as wide as their header text: the header runs of neighbouring columns touch.
                widths = [max(len(_plain(c)) for c in col) for col in zip(*t["header"], *rows, strict=False)]
                for n, col in enumerate(table.columns):
                    w = Pt(6.2 * widths[n] + (10 if any(ord(ch) > 0x3000 for ch in _plain(t["header"][0][n])) else 0))
                    for cell in col.cells:
                        cell.width = w
            if t["caption"] and t.get("caption_below"):
                doc.add_paragraph(t["caption"])
    if report.get("landscape") or report.get("text_columns"):
        _docx_page(doc, report)
    doc.core_properties.author = "Proofpress test corpus"
    doc.core_properties.created = __import__("datetime").datetime(2026, 1, 1)
    doc.save(str(path))


def _docx_header(table: Any, header: list[list[Any]], first: int) -> None:
    """Header rows with merged cells: `span` merges across (读 over p50/p99), `rows` merges down, as Word's Merge Cells."""
    taken: set[tuple[int, int]] = set()
    for r, row in enumerate(header):
        col = 0
        for cell in row:
            while (r, col) in taken:
                col += 1
            span = int(cell.get("span", 1)) if isinstance(cell, dict) else 1
            down = int(cell.get("rows", 1)) if isinstance(cell, dict) else 1
            top = table.rows[first + r].cells[col]
            top.text = _text(cell).replace("<br>", "\n")  # a line break inside the header cell
            if span > 1 or down > 1:
                top.merge(table.rows[first + r + down - 1].cells[col + span - 1])
            taken.update((r + i, col + j) for i in range(down) for j in range(span))
            col += span


def _docx_page(doc: Any, report: dict[str, Any]) -> None:
    """Landscape pages and/or newspaper columns (Format → Columns), set on the document's one section."""
    from docx.enum.section import WD_ORIENT
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Mm

    section = doc.sections[0]
    if report.get("landscape"):
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = Mm(297), Mm(210)
        for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
            setattr(section, side, Mm(15))
    if report.get("text_columns"):
        cols = OxmlElement("w:cols")
        cols.set(qn("w:num"), str(report["text_columns"]))
        cols.set(qn("w:space"), "567")
        section._sectPr.append(cols)


# ---- printing -------------------------------------------------------------------------------------------------------


def _print(src: Path, pdf: Path, via: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if via == "chromium":
            subprocess.run(
                ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                 f"--print-to-pdf={Path(tmp) / 'out.pdf'}", src.resolve().as_uri()],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
            shutil.move(Path(tmp) / "out.pdf", pdf)
        else:
            # HTML is opened in Writer proper (not Writer/Web), as a user's "Open with LibreOffice Writer" does.
            infilter = [] if src.suffix == ".docx" else ["--infilter=HTML (StarWriter)"]
            subprocess.run(
                ["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", *infilter,
                 "--convert-to", "pdf:writer_pdf_Export", "--outdir", tmp, str(src)],
                check=True, capture_output=True, timeout=180,
            )  # fmt: skip
            shutil.move(Path(tmp) / (src.stem + ".pdf"), pdf)


# ---- expected figures -----------------------------------------------------------------------------------------------


def _pages(pdf: Path) -> list[str]:
    """Page texts by poppler's pdftotext (an independent reader), whitespace removed, for finding what is where."""
    out = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return [re.sub(r"\s+", "", p) for p in out.split("\f")]


def _page_of(pages: list[str], text: str | list[str], start: int = 0) -> int:
    """The first page from `start` that prints `text` (or every one of a list of texts)."""
    keys = [re.sub(r"\s+", "", t) for t in ([text] if isinstance(text, str) else text)]
    for n in range(start, len(pages)):
        if all(k in pages[n] for k in keys):
            return n + 1
    raise SystemExit(f"{text!r} is not printed in the PDF (from page {start + 1})")


_UNIT_IN = re.compile(r"[(（]([^()（）]+)[)）]\s*$")


def _cell_value(text: str) -> tuple[float, str] | None:
    t = FOOTNOTE.sub("", text.strip())
    if t in EMPTY:
        return None
    t = re.sub(r"\s*±.*$", "", t)  # `12,480 ± 96`: the mean (the deviation is listed by _deviation)
    m = re.fullmatch(r"([+\-−]?)([\d,]+(?:\.\d+)?)\s*(%|[A-Za-z/]+)?", t)
    if not m:
        raise SystemExit(f"cell {text!r}: not a number as this generator writes them")
    sign = -1.0 if m.group(1) in ("-", "−") else 1.0
    return sign * float(m.group(2).replace(",", "")), m.group(3) or ""


_RANGE = re.compile(r"([\d,]+(?:\.\d+)?)\s*[–~]\s*([\d,]+(?:\.\d+)?)(\s*(?:%|[A-Za-z/]+)?)")


def _deviation(text: str) -> float | None:
    """The `± 96` of a `12,480 ± 96` cell: a printed figure too (an article may quote it)."""
    m = re.search(r"±\s*([\d,]+(?:\.\d+)?)", text)
    return float(m.group(1).replace(",", "")) if m else None


def _expected(report: dict[str, Any], pdf: Path) -> dict[str, Any]:
    pages = _pages(pdf)
    tables, figures = [], []
    for block in report["blocks"]:
        t = block.get("table")
        if not t or t.get("kv"):
            continue
        page = _page_of(pages, t["caption"])
        tables.append({"id": t["id"], "page": page, "caption": t["caption"]})
        keys = t.get("keys", 1)
        group = ""
        cursor = page - 1
        spans: dict[int, tuple[str, int]] = {}  # key column → (row-spanning label, rows left)
        for row in _rows(t):
            cells: list[Any] = []
            for c in range(len(t["columns"])):
                if c in spans and spans[c][1] > 0:
                    cells.append(spans[c][0])
                    spans[c] = (spans[c][0], spans[c][1] - 1)
                    continue
                cell = row.pop(0)
                if isinstance(cell, dict) and cell.get("rows"):
                    spans[c] = (_plain(cell), cell["rows"] - 1)
                cells.append(_plain(cell))
            serial = t.get("serial")  # a serial-number column (`编号`, `No.`): it names no row and is no figure
            row_labels = []
            for c in range(keys):
                if c == serial:
                    continue
                label = cells[c]
                head = (t["columns"][c]["labels"] or [""])[0]
                # A numeric row key is read with its column's name (`Batch 16`), as a reader says it.
                row_labels.append(f"{head} {label}".strip() if re.fullmatch(r"[\d.,]+", label) else label)
            here = _page_of(pages, [c for c in cells[keys:] if c], cursor)
            cursor = here - 1
            row_unit = next((m.group(1) for c in cells[:keys] if (m := _UNIT_IN.search(c))), "")
            if (uc := t.get("unit_col")) is not None:  # a `单位` column: each row's unit sits in its own cell
                row_unit = cells[uc]
            for c in range(keys if t.get("key_figures", True) else 0):
                if c == serial:
                    continue
                # A numeric row key (`4KB`, batch `16`) is a figure too, named by its column.
                if re.fullmatch(r"[\d.,]+\s*[A-Za-z]*", cells[c]) and (got := _cell_value(cells[c])):
                    head = t["columns"][c]["labels"]
                    figures.append(
                        {
                            "page": here,
                            "value": got[0],
                            "unit": got[1],
                            "labels": head,
                            "kind": "cell",
                            "table": t["id"],
                        }
                    )
            for c in range(keys, len(cells)):
                if c == t.get("unit_col"):
                    continue
                col = t["columns"][c]
                labels = [*row_labels, *col["labels"]] if not group else [group, *row_labels, *col["labels"]]
                # A range cell (`400–800 ms`, `10~20`) prints two figures, both in the unit written after the second.
                ends = _RANGE.fullmatch(cells[c].strip())
                for part in [f"{ends.group(1)} {ends.group(3)}", ends.group(2) + ends.group(3)] if ends else [cells[c]]:
                    got = _cell_value(part)
                    if got is None:
                        continue
                    value, glued = got
                    unit = glued or col.get("unit") or row_unit or t.get("unit", "")
                    figures.append(
                        {"page": here, "value": value, "unit": unit, "labels": labels, "kind": "cell", "table": t["id"]}
                    )
                if (dev := _deviation(cells[c])) is not None:
                    figures.append(
                        {"page": here, "value": dev, "unit": unit, "labels": labels, "kind": "cell", "table": t["id"]}
                    )
    for f in report.get("figures", []):
        item = {k: v for k, v in f.items() if k != "find"}
        figures.append({"page": _page_of(pages, f["find"]), **item})
    from pypdf import PdfReader

    producer = str(PdfReader(pdf).metadata.producer or "")
    return {"pdf": f"office/{pdf.name}", "producer": producer, "tables": tables, "figures": figures, "known_limits": []}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("names", nargs="*", help="reports to make (default: all)")
    ap.add_argument("--expected-only", action="store_true", help="rewrite the expected figures from existing PDFs")
    args = ap.parse_args(argv)
    data = yaml.safe_load((OFFICE / "reports.yaml").read_text(encoding="utf-8"))
    (OFFICE / "src").mkdir(exist_ok=True)
    EXPECTED.mkdir(parents=True, exist_ok=True)
    for report in data["reports"]:
        if args.names and report["name"] not in args.names:
            continue
        name, via = report["name"], report["via"]
        pdf = OFFICE / f"{name}.pdf"
        if not args.expected_only:
            if via == "docx":
                src = OFFICE / "src" / f"{name}.docx"
                _docx(report, src)
            else:
                src = OFFICE / "src" / f"{name}.html"
                src.write_text(_html(report), encoding="utf-8")
            _print(src, pdf, via)
        expected = _expected(report, pdf)
        old = EXPECTED / f"office__{name}.yaml"
        if old.exists():  # the known limits are a human's notes: kept while their figure still exists
            kept = yaml.safe_load(old.read_text(encoding="utf-8")).get("known_limits") or []
            expected["known_limits"] = [k for k in kept if k["index"] < len(expected["figures"])]
        (EXPECTED / f"office__{name}.yaml").write_text(
            "# Written by tools/make_office_reports.py from tests/corpus/office/reports.yaml (what the document says);\n"
            "# pages located with poppler's pdftotext.\n"
            + yaml.safe_dump(expected, allow_unicode=True, sort_keys=False),
            encoding="utf-8",
        )
        print(f"{pdf.relative_to(REPO)}: {len(expected['figures'])} expected figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
