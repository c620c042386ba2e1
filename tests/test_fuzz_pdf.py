"""Fuzz evidence ingest: flipped, cut, spliced and random PDFs end in figures or an EvidenceError, within the time limit."""

from __future__ import annotations

import io
import math
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from fuzzing import fuzz
from hypothesis import event, given
from hypothesis import strategies as st

from evidence.errors import EvidenceError
from evidence.ingest import ingest
from evidence.models import IngestLimits
from evidence.pdf import ParsedPdf, parse_pdf
from evidence.store import Store

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"
LIMITS = IngestLimits(seconds_per_file=10, max_pdf_pages=100, max_pdf_bytes=5_000_000)


def _uncompressed_report() -> bytes:
    """A small report with a table, `label: value unit` lines and CJK text whose content stream is not compressed,
    so byte flips land in text operators and numbers rather than in zlib data."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=0, invariant=1)
    for page in (1, 2):
        c.setFont("STSong-Light", 11)
        c.drawString(72, 780, f"表 4-1 长上下文冷恢复 TTFT (第 {page} 页)")
        y = 750
        for row in (("8", "p50", "10.17", "7.53", "26.0%"), ("16", "p90", "48.20", "33.02", "31.5%")):
            for x, cell in zip((72, 140, 200, 300, 400), row, strict=True):
                c.drawString(x, y, cell)
            y -= 18
        c.drawString(72, y - 10, "单会话 KV Cache: 7.15 GB")
        c.drawString(72, y - 30, "Throughput rose from 52.4 tok/s to 67.6 tok/s (29.0%).")
        c.showPage()
    c.save()
    return buf.getvalue()


SEEDS = {
    "R2": (REPO / "site" / "reports" / "R2.pdf").read_bytes(),
    "plain": _uncompressed_report(),
    "small-table": (CORPUS / "pymupdf_small_table_units.pdf").read_bytes(),
}
HOSTILE_INTS = [b"0", b"-1", b"2147483648", b"9223372036854775808", b"99999999999999999999", b"1e308", b"00000000"]


@st.composite
def mutated_pdf(draw: st.DrawFn) -> bytes:
    data = bytearray(SEEDS[draw(st.sampled_from(sorted(SEEDS)))])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "delete", "dup", "insert", "int", "keyword"]))
        n = len(data)
        if n < 32:
            break
        # Past the header: a file that is not a PDF at all is the cheap case, tested below with random bytes.
        at = draw(st.integers(16, n - 1))
        if kind == "flip":
            for _ in range(draw(st.integers(1, 16))):
                i = draw(st.integers(16, n - 1))
                data[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del data[at:]
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 4096))]
        elif kind == "dup":
            chunk = data[at : at + draw(st.integers(1, 4096))]
            j = draw(st.integers(0, n))
            data[j:j] = chunk
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=64))
        elif kind == "int":
            # Object numbers, /Length, /Count, xref offsets, coordinates: swap one integer for a hostile value.
            ints = [m.span() for m in re.finditer(rb"\d+", bytes(data[at : at + 2000]))]
            if ints:
                s, e = ints[draw(st.integers(0, len(ints) - 1))]
                data[at + s : at + e] = draw(st.sampled_from(HOSTILE_INTS))
        else:
            words = [b"obj", b"endobj", b"stream", b"endstream", b"xref", b"trailer", b"/Type", b"/Pages", b" R", b"BT"]
            word = draw(st.sampled_from(words))
            i = data.find(word, at)
            if i >= 0:
                data[i : i + len(word)] = draw(st.sampled_from([*words, b"", b"(", b"<<", b">>", b"[", b"\x00"]))
    if draw(st.booleans()) and not data.rstrip().endswith(b"%%EOF"):
        data += b"\n%%EOF\n"  # a cut file with its end marker put back gets past the quick check into pypdf
    return bytes(data)


def _parse_bytes(data: bytes) -> ParsedPdf | None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "x.pdf"
        path.write_bytes(data)
        try:
            parsed = parse_pdf(path, LIMITS, report_id="R1")
        except EvidenceError as e:
            assert e.path == str(path), e
            assert "\n" not in str(e), f"an ingest error must be one line: {e}"
            event(f"error: {e.message.split(':')[0][:40]}")
            return None
    event(f"parsed ({'with' if parsed.figures else 'no'} figures)")
    for f in parsed.figures:
        assert 1 <= f.page <= len(parsed.pages), f
        assert math.isfinite(f.value), f
        assert f.id and f.raw
    assert len(parsed.page_labels) in (0, len(parsed.pages))
    return parsed


@fuzz(0.5)
@given(mutated_pdf())
def test_fuzz_mutated_pdfs(data: bytes) -> None:
    _parse_bytes(data)


@fuzz(0.25)
@given(st.binary(max_size=4000), st.sampled_from([b"%PDF-1.7\n", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", b"%PDF-2.0\r"]))
def test_fuzz_random_bytes_with_a_pdf_header(body: bytes, header: bytes) -> None:
    _parse_bytes(header + body + b"\n%%EOF\n")


@fuzz(0.25)
@given(st.sampled_from(sorted(SEEDS)), st.floats(0.0, 1.0), st.booleans())
def test_fuzz_truncated_pdfs(seed: str, fraction: float, end_marker: bool) -> None:
    data = SEEDS[seed]
    _parse_bytes(data[: int(len(data) * fraction)] + (b"\n%%EOF\n" if end_marker else b""))


def test_fuzz_ingest_keeps_going_past_a_broken_pdf(tmp_path: Path, example_root: Path) -> None:
    """A broken R9 is one clear error; R1 and R2 still ingest, and the store stays consistent."""
    reports = example_root / "reports"
    data = (reports / "R9.pdf").read_bytes()
    (reports / "R9.pdf").write_bytes(data[: len(data) // 3])
    summary = ingest(reports, tmp_path / "e.sqlite", limits=LIMITS)
    assert [r.id for r in summary.results if r.error is None] == ["R1", "R2"]
    assert len(summary.errors) == 1 and "R9.pdf" in str(summary.errors[0])
    with pytest.raises(EvidenceError, match=r"R9\.pdf"):
        summary.raise_for_errors(["R9"])
    summary.raise_for_errors(["R1", "R2"])  # the article citing only good reports goes on
    with Store(tmp_path / "e.sqlite") as store:
        assert {r.id for r in store.reports() if not r.error} >= {"R1", "R2"}
        assert store.figures("R2")


# --- limits: time, pages, size ---------------------------------------------------------------------------------


# The alarm may land in a gc callback (hypothesis installs one), which Python reports and ignores; the per-page
# deadline then stops the parse at the next page. Either way the limit holds, which is what this test checks.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_time_limit_is_enforced(corpus: Path) -> None:
    """A 50-page PDF with a tiny per-file limit stops with a clear error instead of running on."""
    with pytest.raises(EvidenceError, match=r"longer than 0\.05 s"):
        parse_pdf(corpus / "generated_cff_cjk_encoding_cmap_zh.pdf", IngestLimits(seconds_per_file=0.05))


def test_page_limit_is_enforced(corpus: Path) -> None:
    with pytest.raises(EvidenceError, match="50 pages, over the 10-page limit"):
        parse_pdf(corpus / "generated_cff_cjk_encoding_cmap_zh.pdf", IngestLimits(max_pdf_pages=10))


def test_size_limit_is_enforced_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.pdf"
    with open(big, "wb") as f:  # sparse: the limit must trip on the size, not after reading 3 GB
        f.write(b"%PDF-1.7\n")
        f.seek(3 * 1024**3)
        f.write(b"%%EOF\n")
    with pytest.raises(EvidenceError, match="over the 1,000,000-byte limit"):
        parse_pdf(big, IngestLimits(max_pdf_bytes=1_000_000), sha256="0" * 64)


def test_limits_come_from_publish_toml(example_root: Path) -> None:
    """`[limits]` in publish.toml reaches ingest: a 3-page cap rejects the 4-page R2 through the publish recipe."""
    from pipeline.config import open_root

    (example_root / "publish.toml").write_text(
        (example_root / "publish.toml").read_text(encoding="utf-8") + "\n[limits]\nmax_pdf_pages = 3\n",
        encoding="utf-8",
    )
    root = open_root(example_root)
    summary = ingest(root.reports, root.store, limits=root.config.limits.to_ingest())
    with pytest.raises(EvidenceError, match="over the 3-page limit"):
        summary.raise_for_errors(["R2"])


def test_pdf_that_is_not_a_pdf(tmp_path: Path) -> None:
    fake = tmp_path / "fake.pdf"
    shutil.copy(REPO / "site" / "reports" / "reports.yaml", fake)
    with pytest.raises(EvidenceError, match="not a PDF"):
        parse_pdf(fake, LIMITS)
