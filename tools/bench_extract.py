"""`make bench`: extraction accuracy per corpus PDF (ours vs pdfplumber's extract_tables), into docs/benchmarks.md."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO))

import extraction_score as xs  # noqa: E402

from evidence.pdf import parse_pdf  # noqa: E402

DOC = REPO / "docs" / "benchmarks.md"
HEADING = "## Extraction accuracy"


def ours(expected: xs.Expected) -> xs.Score:
    t0 = time.perf_counter()
    parsed = parse_pdf(expected.pdf_path)
    seconds = time.perf_counter() - t0
    s = xs.score(expected, xs.from_store(parsed.figures))
    s.pages, s.seconds = len(parsed.pages), seconds
    return s


def plumber(expected: xs.Expected) -> xs.Score | None:
    try:
        import pdfplumber
    except ImportError:
        return None
    t0 = time.perf_counter()
    with pdfplumber.open(expected.pdf_path) as pdf:
        tables = [(i + 1, page.extract_tables()) for i, page in enumerate(pdf.pages)]
    seconds = time.perf_counter() - t0
    s = xs.score(expected, xs.plumber_figures(tables), captions=False)
    s.pages, s.seconds = len(tables), seconds
    return s


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def prec(s: xs.Score) -> str:
    return f"{pct(s.precision)} ({s.right}/{s.in_tables})" if s.in_tables else "– (no cell in scope)"


def table(rows: list[tuple[str, xs.Score, xs.Score | None]]) -> str:
    head = (
        "| PDF | expected | ours: recall | ours: precision | ours: pages/s | pdfplumber: recall | pdfplumber: precision"
        " | pdfplumber: pages/s |\n|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for name, a, b in rows:
        rate = f"{a.pages / a.seconds:.1f}" if a.seconds else "–"
        other = (
            f"{pct(b.recall)} ({b.found}) | {prec(b)} | {b.pages / b.seconds:.1f}" if b and b.seconds else "– | – | –"
        )
        lines.append(f"| {name} | {a.expected} | {pct(a.recall)} ({a.found}) | {prec(a)} | {rate} | {other} |")
    return head + "\n".join(lines) + "\n"


def section(body: str, limits: int, total: int) -> str:
    return (
        f"{HEADING}\n\n"
        "Written by `make bench` (`tools/bench_extract.py`); do not edit by hand. Expected figures are in "
        "`tests/corpus/expected/` (read off each PDF by hand; format and rules in `docs/extraction_accuracy.md`, scorer "
        "`tools/extraction_score.py`). Recall: expected figures matched with page, value, unit and labels. "
        "Precision: among the extracted cells that page and caption place in a listed table, the share that match "
        "an expected cell of that table (pdfplumber knows no captions: every cell on the table's page counts). "
        "pdfplumber cells are labelled by their row's text cells (the first one included) and their column header "
        "(the first row and the rows after it without a number, joined per column), their unit taken from the cell or the header. pages/s: whole-document wall time, open included, one run.\n\n"
        f"{body}\n"
        f"Known limits (expected figures our parser misses today, each with its reason in the expected file): "
        f"{limits} of {total}.\n"
    )


def write_doc(text: str, doc: Path = DOC) -> None:
    """Replace this tool's section of the benchmarks page (or append it), leaving the other sections alone."""
    from doc_sections import replace_section

    replace_section(text, doc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    args = ap.parse_args(argv)
    rows: list[tuple[str, xs.Score, xs.Score | None]] = []
    all_ours, all_plumber = xs.Score(), xs.Score()
    limits = 0
    for e in xs.load_expected():
        a, b = ours(e), plumber(e)
        rows.append((e.pdf, a, b))
        all_ours += a
        if b:
            all_plumber += b
        limits += len(e.known_limits)
        print(f"{e.pdf}: ours {pct(a.recall)} / {pct(a.precision)}", file=sys.stderr)
    rows.append(("**overall**", all_ours, all_plumber if all_plumber.pages else None))
    body = table(rows)
    print(body)
    if not args.no_write:
        write_doc(section(body, limits, all_ours.expected))
        print(f"written to {DOC.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
