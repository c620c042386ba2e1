"""Reading a PDF within its limits (size, pages, time, encryption) into page texts and figures."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence.errors import EvidenceError, LimitError
from evidence.models import Figure, IngestLimits, Page
from evidence.pdf import speedups
from evidence.pdf.layout import lines_of
from evidence.pdf.prose import PageContext, page_figures
from evidence.pdf.text import normalize

# ---- the whole file -----------------------------------------------------------------------------------------------


@dataclass
class ParsedPdf:
    """Everything read from one PDF: page texts, figures and printed page labels."""

    pages: list[Page]
    figures: list[Figure]
    page_labels: list[str]
    sha256: str = ""


class _Timeout(BaseException):  # not an Exception: pypdf's `except Exception` recovery must not swallow the alarm
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """A hard stop for pathological files (SIGALRM, main thread only); other threads rely on per-page checks."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _figure_id(sha: str, page: int, pos: int, raw: str) -> str:
    return hashlib.sha256(f"{sha}:{page}:{pos}:{raw}".encode()).hexdigest()[:16]


def _check_envelope(path: Path, limits: IngestLimits) -> None:
    """Cheap checks on size, header and end marker, made before the timed parse so their verdict never races it."""
    try:
        size = path.stat().st_size
    except OSError as e:
        raise EvidenceError(f"cannot read: {e.strerror or e}", path=path) from e
    if size > limits.max_pdf_bytes:
        raise EvidenceError(f"PDF is {size:,} bytes, over the {limits.max_pdf_bytes:,}-byte limit", path=path)
    with open(path, "rb") as f:
        head = f.read(1024)
    if b"%PDF-" not in head:
        raise EvidenceError("not a PDF file (no %PDF- header)", path=path)
    with open(path, "rb") as f:
        f.seek(max(0, size - 4096))
        tail = f.read()
    if b"%%EOF" not in tail:
        # pypdf would rebuild what it can and silently lose the rest: a cut-off file is an error, not half a report.
        raise EvidenceError("truncated PDF (no %%EOF marker at the end); copy the file again", path=path)


def _open(path: Path) -> Any:
    from pypdf import PasswordType, PdfReader

    try:
        reader = PdfReader(path, strict=False)
    except Exception as e:
        raise EvidenceError(f"corrupt or truncated PDF: {e}", path=path) from e
    if reader.is_encrypted:
        try:
            ok = reader.decrypt("") != PasswordType.NOT_DECRYPTED
        except Exception:
            ok = False
        if not ok:
            raise EvidenceError("encrypted PDF (password-protected); register an unencrypted copy", path=path)
    return reader


def parse_pdf(
    path: str | Path,
    limits: IngestLimits | None = None,
    *,
    report_id: str = "",
    version: int = 1,
    sha256: str | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> ParsedPdf:
    """Read a PDF into page texts and figures; every failure is an EvidenceError naming the file."""
    from evidence.fsutil import sha256_file

    path = Path(path)
    limits = limits or IngestLimits()
    sha = sha256 or sha256_file(path)
    _check_envelope(path, limits)
    deadline = time.monotonic() + limits.seconds_per_file
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # pypdf warns about recoverable oddities; those are not the user's problem
    try:
        with speedups.fast_streams(), _time_limit(limits.seconds_per_file):
            return _parse(path, limits, sha, report_id, version, deadline, on_page)
    except _Timeout:
        raise EvidenceError(f"reading took longer than {limits.seconds_per_file:g} s; giving up", path=path) from None
    except (EvidenceError, LimitError):
        raise
    except RecursionError as e:
        raise EvidenceError("corrupt PDF (nesting too deep)", path=path) from e
    except Exception as e:  # pypdf raises many kinds on broken files; any of them is a bad input, not a crash
        raise EvidenceError(f"corrupt or truncated PDF: {type(e).__name__}: {e}", path=path) from e
    finally:
        pypdf_log.setLevel(level)


def _refuse_bomb(page: Any, number: int, path: Path) -> None:
    """pypdf reads a page whose stream inflates past its limit as empty: say it is a compression bomb, not a scan."""
    from pypdf.errors import LimitReachedError

    try:
        contents = page.get_contents()
        if contents is not None:
            contents.get_data()
    except LimitReachedError as e:
        raise LimitError(
            f"page {number}: a content stream inflates past pypdf's decompression limit (a compression bomb?); refused",
            path=path,
        ) from e
    except Exception:
        return  # anything else wrong with the stream: the page is simply empty, as pypdf read it


def _parse(
    path: Path,
    limits: IngestLimits,
    sha: str,
    report_id: str,
    version: int,
    deadline: float,
    on_page: Callable[[int, int], None] | None,
) -> ParsedPdf:
    reader = _open(path)
    n_pages = len(reader.pages)
    if n_pages > limits.max_pdf_pages:
        raise EvidenceError(f"PDF has {n_pages} pages, over the {limits.max_pdf_pages}-page limit", path=path)
    if n_pages == 0:
        raise EvidenceError("PDF has no pages", path=path)
    has_labels = "/PageLabels" in reader.trailer["/Root"]
    labels: list[str] = []
    if has_labels:
        try:
            labels = [str(x) for x in reader.page_labels]
        except Exception:
            has_labels, labels = False, []
    ctx = PageContext(sha, report_id, version)
    caches = speedups.page_caches()
    pages: list[Page] = []
    figures: list[Figure] = []
    text_chars = 0
    for i, page in enumerate(reader.pages):
        if time.monotonic() > deadline:
            raise _Timeout
        number = i + 1
        label = labels[i] if has_labels and i < len(labels) else None
        text, runs = speedups.read_page(page, caches)
        plain = normalize(text)
        if not plain.strip():
            _refuse_bomb(page, number, path)
        text_chars += len(plain.strip())
        box = page.mediabox
        width, height = float(box.width), float(box.height)
        bottom = float(box.bottom)
        runs = [(x0, x1, y - bottom if y >= 0 else y, size, t) for x0, x1, y, size, t in runs]
        lines = lines_of(runs)
        pages.append(Page(report=report_id, version=version, page=number, label=label, text=plain))
        try:
            raws = page_figures(plain, lines, width, height, ctx, runs)
        except Exception as e:  # our analysis, not the file: say so instead of blaming the PDF
            raise EvidenceError(
                f"page {number}: figure extraction failed ({type(e).__name__}: {e}); please report this PDF", path=path
            ) from e
        for pos, raw in enumerate(raws):
            figures.append(
                Figure(
                    id=_figure_id(sha, number, pos, raw.raw),
                    report=report_id,
                    version=version,
                    page=number,
                    page_label=label,
                    value=raw.value,
                    unit=raw.unit,
                    raw=raw.raw,
                    labels=raw.labels,
                    quote=raw.quote,
                    kind=raw.kind,
                )
            )
        if on_page is not None:
            on_page(number, n_pages)
    if text_chars == 0:
        raise EvidenceError("no text layer (a scanned PDF?); run OCR on it and register the result", path=path)
    return ParsedPdf(pages, figures, labels if has_labels else [], sha)
