"""Ingest speed in pages/s (cold and cached) next to pdfplumber's extract_text on the same PDFs, with figure counts."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

try:
    import resource
except ImportError:  # not on Unix: CPU time of this process only
    resource = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evidence.ingest import ingest  # noqa: E402

CORPUS = REPO / "tests" / "corpus"


def default_pdfs() -> list[Path]:
    """The bundled example reports and the test corpus."""
    return sorted((REPO / "site" / "reports").glob("*.pdf")) + sorted(CORPUS.glob("*.pdf"))


def _plumber_seconds(pdf: Path) -> tuple[float, float]:
    """pdfplumber's (wall, CPU) seconds to extract every page's text."""
    import pdfplumber  # the bench extra only: the product reads PDFs with pypdf alone

    started, cpu = time.perf_counter(), time.process_time()
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            page.extract_text()
    return time.perf_counter() - started, time.process_time() - cpu


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the ingest worker pool)."""
    own = time.process_time()
    if resource is None:
        return own
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + kids.ru_utime + kids.ru_stime


def _registry(reports: Path, files: list[Path]) -> None:
    lines = ["reports:"]
    for n, pdf in enumerate(files):
        name = f"B{n}.pdf"
        shutil.copyfile(pdf, reports / name)  # a copy: ingest refuses symlinks that leave the reports folder
        lines += [f"  - id: B{n}", f"    title: {pdf.stem}", "    date: 2026-01-01", f"    file: {name}"]
    (reports / "reports.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _rate(pages: int, seconds: float | None) -> float | None:
    return round(pages / seconds, 1) if seconds else None


def bench_ingest(pdfs: Iterable[Path] | None = None, *, echo: Callable[[str], Any] = print) -> dict[str, Any]:
    """Ingest `pdfs` cold (worker pool), again (cached), cold in one process, and with pdfplumber; print and return.

    Per-file seconds come from the one-process run, so each sits next to pdfplumber's time for the same file.
    """
    files = [Path(p) for p in (pdfs if pdfs is not None else default_pdfs())]
    try:
        import pdfplumber  # noqa: F401

        have_plumber = True
    except ImportError:
        have_plumber = False
    with tempfile.TemporaryDirectory(prefix="proofpress-bench-") as tmp:
        reports = Path(tmp) / "reports"
        reports.mkdir()
        _registry(reports, files)
        store = Path(tmp) / "evidence.sqlite"
        started, cpu = time.perf_counter(), _cpu()
        cold = ingest(reports, store)
        cold_total, cold_cpu = time.perf_counter() - started, _cpu() - cpu
        started = time.perf_counter()
        cached = ingest(reports, store)
        cached_total = time.perf_counter() - started
        started, cpu = time.perf_counter(), _cpu()
        serial = ingest(reports, Path(tmp) / "serial.sqlite", workers=1)
        serial_total, serial_cpu = time.perf_counter() - started, _cpu() - cpu
    assert not any(r.parsed for r in cached.results), "the second ingest parsed a PDF again"
    rows = []
    for pdf, result, one in zip(files, cold.results, serial.results, strict=True):
        plumber, plumber_cpu = _plumber_seconds(pdf) if have_plumber and not result.error else (None, None)
        rows.append(
            {
                "file": pdf.name,
                "pages": result.pages,
                "figures": result.figures,
                "ingest_seconds": round(one.seconds, 4),
                "plumber_seconds": round(plumber, 4) if plumber is not None else None,
                "plumber_cpu_seconds": round(plumber_cpu, 4) if plumber_cpu is not None else None,
                "error": result.error,
            }
        )
    pages = sum(r["pages"] for r in rows)
    plumber_total = sum(r["plumber_seconds"] or 0 for r in rows) if have_plumber else None
    plumber_cpu_total = sum(r["plumber_cpu_seconds"] or 0 for r in rows) if have_plumber else None
    summary = {
        "pages": pages,
        "figures": sum(r["figures"] for r in rows),
        "cold_seconds": round(cold_total, 3),
        "cached_seconds": round(cached_total, 3),
        "serial_seconds": round(serial_total, 3),
        "cold_pages_per_s": _rate(pages, cold_total),
        "cached_pages_per_s": _rate(pages, cached_total),
        "serial_pages_per_s": _rate(pages, serial_total),
        "plumber_seconds": round(plumber_total, 3) if plumber_total is not None else None,
        "plumber_pages_per_s": _rate(pages, plumber_total),
        "cold_vs_plumber": round(plumber_total / cold_total, 2) if plumber_total and cold_total else None,
        # CPU seconds: less at the mercy of other work on a shared machine than wall-clock rates.
        "cold_cpu_seconds": round(cold_cpu, 3),
        "serial_cpu_seconds": round(serial_cpu, 3),
        "plumber_cpu_seconds": round(plumber_cpu_total, 3) if plumber_cpu_total is not None else None,
    }
    width = max(len(r["file"]) for r in rows) if rows else 10
    echo(
        f"{'file':<{width}} {'pages':>5} {'figures':>7} {'pypdf ingest s':>14} {'pages/s':>8} {'pdfplumber s':>12} {'pages/s':>8}"
    )
    for r in rows:
        ps = f"{r['pages'] / r['ingest_seconds']:.1f}" if r["ingest_seconds"] else "-"
        pl = f"{r['plumber_seconds']:.3f}" if r["plumber_seconds"] is not None else "-"
        pps = f"{r['pages'] / r['plumber_seconds']:.1f}" if r["plumber_seconds"] else "-"
        echo(
            f"{r['file']:<{width}} {r['pages']:>5} {r['figures']:>7} {r['ingest_seconds']:>14.3f} {ps:>8} {pl:>12} {pps:>8}"
        )
    echo(
        f"total: {pages} pages, {summary['figures']} figures; ingest cold {summary['cold_pages_per_s']} pages/s "
        f"({summary['cold_seconds']} s; one process {summary['serial_pages_per_s']} pages/s, "
        f"{summary['serial_seconds']} s), cached {summary['cached_pages_per_s']} pages/s ({summary['cached_seconds']} s)"
        + (
            f"; pdfplumber.extract_text {summary['plumber_pages_per_s']} pages/s ({summary['plumber_seconds']} s); "
            f"cold ingest {summary['cold_vs_plumber']}x pdfplumber's speed; CPU s: ingest one process "
            f"{summary['serial_cpu_seconds']}, pool {summary['cold_cpu_seconds']}, pdfplumber {summary['plumber_cpu_seconds']}"
            if have_plumber
            else "; pdfplumber not installed (pip install -e '.[bench]')"
        )
    )
    return {"files": rows, "summary": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDFs to measure (default: example reports and corpus)")
    args = parser.parse_args(argv)
    bench_ingest(args.pdfs or None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
