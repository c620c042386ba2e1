"""Limits: oversized articles and PDFs end in a clear error naming the limit; huge tables finish (size bounds time)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidence.errors import EvidenceError, LimitError
from evidence.ingest import ingest
from evidence.models import IngestLimits
from evidence.pdf import parse_pdf
from evidence.store import Store
from qc.check import check_draft
from qc.draft import MAX_ARTICLE_BYTES, parse_draft, read_draft
from qc.index import EvidenceIndex

REPO = Path(__file__).resolve().parent.parent
HEAD = "---\ntitle: t\nlang: zh\ndate: 2026-07-08\nevidence: [R2]\nanswer: a\nslug: big\n---\n"


def _publish(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, cwd=REPO, env=env, timeout=600
    )


def _limit(root: Path, line: str) -> None:
    cfg = root / "publish.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + f"\n[limits]\n{line}\n", encoding="utf-8")


# --- articles --------------------------------------------------------------------------------------------------------


def test_article_over_the_default_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    with open(big, "wb") as f:  # sparse: the refusal must come from the size, not from reading it all
        f.write(HEAD.encode())
        f.seek(MAX_ARTICLE_BYTES + 10)
        f.write(b"\n")
    with pytest.raises(LimitError, match="max_article_bytes") as e:
        read_draft(big)
    assert e.value.path == str(big) and "\n" not in str(e.value)


def test_article_limit_applies_to_text_from_a_model_too() -> None:
    with pytest.raises(LimitError, match="over the limit of 1,000"):
        parse_draft(HEAD + "长" * 400, "draft", max_bytes=1000)  # 400 CJK characters are 1,200 bytes
    assert parse_draft(HEAD + "x" * 100, "draft", max_bytes=1000).body.startswith("x")


def test_configured_article_limit_stops_the_build(example_root: Path) -> None:
    _limit(example_root, "max_article_bytes = 2000")
    draft = example_root / "articles" / "kv-cache-ttft.md"
    assert draft.stat().st_size > 2000
    r = _publish("build", "--root", str(example_root), "--preview")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "kv-cache-ttft" in r.stderr and "max_article_bytes" in r.stderr and "Traceback" not in r.stderr
    assert not (example_root / "public-preview").exists()


def test_configured_article_limit_stops_review(example_root: Path) -> None:
    _limit(example_root, "max_article_bytes = 2000")
    approval = example_root / "approvals" / "kv-cache-ttft.json"
    before = approval.read_bytes() if approval.exists() else None
    r = _publish("approve", str(example_root / "articles" / "kv-cache-ttft.md"), "--reviewer", "Li Wei")
    assert r.returncode == 2 and "max_article_bytes" in r.stderr, r.stdout + r.stderr
    assert (approval.read_bytes() if approval.exists() else None) == before


def test_configured_article_limit_stops_check_and_draft_too(example_root: Path) -> None:
    # One limit for every command: `publish check` and the drafter apply publish.toml's, as build and review do.
    draft = example_root / "articles" / "kv-cache-ttft.md"
    before = draft.read_bytes()
    assert _publish("check", str(draft)).returncode == 0
    _limit(example_root, "max_article_bytes = 2000")
    for args in (("check", str(draft)), ("draft", str(example_root / "articles" / "kv-cache-ttft.yaml"))):
        r = _publish(*args)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "kv-cache-ttft.md" in r.stderr and "max_article_bytes" in r.stderr and "Traceback" not in r.stderr
    assert draft.read_bytes() == before  # the drafter stopped before writing anything


@pytest.fixture(scope="module")
def r2_index(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    db = tmp_path_factory.mktemp("store") / "e.sqlite"
    ingest(REPO / "site" / "reports", db).raise_for_errors(["R2"])
    with Store(db) as store:
        return EvidenceIndex.load(store, ["R2"])


def test_article_with_thousands_of_table_rows_is_checked_in_full(r2_index: EvidenceIndex) -> None:
    """2,000 table rows (6,000 numbers): QC gives every one a verdict; the size limit bounds how long that takes."""
    rows = "\n".join(f"| {8 if i % 2 else 16} | p50 | 10.17s | 7.53s【出处:R2 实测】 |" for i in range(2000))
    text = HEAD + f"## 表\n\n| 并发 | 指标 | 基线 | FX100 |\n|---|---|---|---|\n{rows}\n"
    result = check_draft(parse_draft(text, "big.md"), r2_index)
    checked = [n for n in result.numbers if n.status != "exempt"]
    assert len(checked) == 6000
    assert not result.ok  # the 16-row values are not R2's: caught, row after row
    assert {n.status for n in checked} <= {"verified", "mismatch", "derived", "unsupported"}
    assert sum(n.status == "verified" and n.text == "10.17s" for n in checked) == 1000


# --- PDFs -----------------------------------------------------------------------------------------------------------


def _table_pdf(path: Path, rows: int) -> None:
    """A report whose table runs to `rows` rows over many pages (plain canvas: fast to make)."""
    from reportlab import rl_config
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    rl_config.invariant = 1
    if "WQY" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("WQY", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", subfontIndex=0))
    c = Canvas(str(path), pagesize=A4)
    per_page = 45
    for start in range(0, rows, per_page):
        c.setFont("WQY", 9)
        c.drawString(60, 800, "表 1 压力测试明细")
        for x, head in zip((60, 160, 260, 360), ("序号", "延迟 (ms)", "吞吐 (tok/s)", "命中率 (%)"), strict=True):
            c.drawString(x, 780, head)
        y = 762
        for i in range(start, min(rows, start + per_page)):
            for x, cell in zip((60, 160, 260, 360), (f"{i + 1}", f"{1 + i % 97}.{i % 10}", f"{50 + i % 41}.5",
                                                     f"{60 + i % 37}.{i % 7}"), strict=True):  # fmt: skip
                c.drawString(x, y, cell)
            y -= 16
        c.showPage()
    c.save()


@pytest.fixture(scope="module")
def long_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "long.pdf"
    _table_pdf(path, 3000)
    return path


def test_pdf_table_with_thousands_of_rows_is_read(long_table: Path) -> None:
    parsed = parse_pdf(long_table, IngestLimits(seconds_per_file=300))
    assert len(parsed.pages) == 67
    latency = [f for f in parsed.figures if f.unit == "ms"]
    assert len(latency) >= 2900  # (nearly) every row's latency cell, with the header's unit
    assert all(1 <= f.page <= 67 for f in parsed.figures)


def test_pdf_table_over_the_time_limit_is_a_clear_error(long_table: Path) -> None:
    with pytest.raises(EvidenceError, match=r"longer than 0\.2 s") as e:
        parse_pdf(long_table, IngestLimits(seconds_per_file=0.2))
    assert e.value.path == str(long_table)


def test_pdf_over_the_page_limit_through_publish_toml(tmp_path: Path, example_root: Path, long_table: Path) -> None:
    (example_root / "reports" / "R2.pdf").write_bytes(long_table.read_bytes())
    _limit(example_root, "max_pdf_pages = 50\nmax_pdf_bytes = 50000000")
    r = _publish("evidence", "ingest", "--root", str(example_root))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "R2.pdf" in r.stderr and "67 pages, over the 50-page limit" in r.stderr and "Traceback" not in r.stderr
    # The other reports were still ingested.
    with Store(example_root / ".publish" / "evidence.sqlite") as store:
        assert store.figures("R1") and store.figures("R9")


def test_pdf_over_the_size_limit_through_publish_toml(example_root: Path) -> None:
    _limit(example_root, "max_pdf_bytes = 10000")
    r = _publish("evidence", "ingest", "--root", str(example_root))
    assert r.returncode == 2 and "-byte limit" in r.stderr, r.stdout + r.stderr


def _bomb(path: Path, inflated: int) -> Path:
    """A one-page PDF whose content stream is a few hundred KB that inflate to `inflated` bytes."""
    import zlib

    comp = zlib.compress(b"0 0 m\n" * (inflated // 6), 6)
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(comp) + comp + b"\nendstream",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for n, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_compression_bomb_is_named_as_such(tmp_path: Path) -> None:
    bomb = _bomb(tmp_path / "bomb.pdf", 120_000_000)
    assert bomb.stat().st_size < 1_000_000
    with pytest.raises(LimitError, match="compression bomb") as e:
        parse_pdf(bomb)
    assert str(bomb) in str(e.value) and "scanned" not in str(e.value) and "corrupt" not in str(e.value)
