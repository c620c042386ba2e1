"""Publishing as a newsroom does, on the real example: cited reports that change, vanish or cannot be read stop the
build and leave the site as it was; the approved version stays live; a preview is a site of its own."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from site_support import new_r2_version, tree_bytes

from evidence.errors import InputError
from pipeline.publish import build_only
from pipeline.reviewing import approve
from qc.errors import AwaitingReview

REPO = Path(__file__).resolve().parent.parent
SLUG = "kv-cache-ttft"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, timeout=300, cwd=REPO
    )


@pytest.fixture
def built(example_root: Path) -> Path:
    """The example, built once with its bundled approvals (both articles published)."""
    summary = build_only(example_root)
    assert set(summary.articles) == {SLUG, f"{SLUG}-en"}, summary
    return example_root


@pytest.mark.parametrize("damage", ["truncated", "deleted", "folder"])
def test_a_cited_report_that_cannot_be_read_stops_the_build_and_keeps_the_site(built: Path, damage: str) -> None:
    before = tree_bytes(built / "public")
    pdf = built / "reports" / "R2.pdf"
    if damage == "truncated":
        pdf.write_bytes(pdf.read_bytes()[:2000])
    elif damage == "deleted":
        pdf.unlink()
    else:
        pdf.unlink()
        pdf.mkdir()
    with pytest.raises(InputError) as e:
        build_only(built)
    assert e.value.exit_code == 2 and "R2.pdf" in str(e.value) and SLUG in str(e.value)
    assert tree_bytes(built / "public") == before
    r = _cli("build", "--root", str(built))
    assert r.returncode == 2 and "R2.pdf" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert tree_bytes(built / "public") == before


def test_a_cited_report_changed_since_approval_stops_the_build_until_approved_again(built: Path) -> None:
    original = (built / "reports" / "R2.pdf").read_bytes()
    before = tree_bytes(built / "public")
    new_r2_version(built, "'7.53'", "'7.45'")
    r = _cli("build", "--root", str(built))
    assert r.returncode == 3, r.stderr
    assert "report R2 changed since the approval" in r.stderr and SLUG in r.stderr and "publish review" in r.stderr
    assert tree_bytes(built / "public") == before
    # The very bytes that were approved, restored: the approval holds again (the store calls them a new version).
    (built / "reports" / "R2.pdf").write_bytes(original)
    summary = build_only(built)
    assert set(summary.articles) == {SLUG, f"{SLUG}-en"}
    assert (built / "public" / "reports" / "R2.pdf").read_bytes() == original


def test_the_public_pdf_is_the_checked_bytes_even_with_the_same_size_and_mtime(built: Path) -> None:
    pdf = built / "reports" / "R1.pdf"
    st = pdf.stat()
    raw = bytearray(pdf.read_bytes())
    # Same size, same mtime, other bytes (a change inside the PDF's trailing comment-free whitespace is still new bytes).
    raw[-1:] = b"\n" if raw[-1:] != b"\n" else b" "
    pdf.write_bytes(bytes(raw))
    os.utime(pdf, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert pdf.stat().st_size == st.st_size
    with pytest.raises(AwaitingReview, match="report R1 changed since the approval"):
        build_only(built)  # new bytes are a new version of the report: its citers wait for a reviewer
    for slug in (SLUG, f"{SLUG}-en"):
        approve(built / "articles" / f"{slug}.yaml", reviewer="Li Wei", note=None, waive=[], reasons=[], echo=_quiet)
    summary = build_only(built)
    assert set(summary.articles) == {SLUG, f"{SLUG}-en"}
    assert (built / "public" / "reports" / "R1.pdf").read_bytes() == bytes(raw)
    sha = hashlib.sha256(bytes(raw)).hexdigest()
    assert sha in (built / "public" / "evidence" / "R1" / "index.html").read_text(encoding="utf-8")


def test_renaming_a_report_id_stops_the_articles_citing_the_old_id(built: Path) -> None:
    before = tree_bytes(built / "public")
    registry = built / "reports" / "reports.yaml"
    registry.write_text(registry.read_text(encoding="utf-8").replace("id: R2\n", "id: R2b\n"), encoding="utf-8")
    with pytest.raises(InputError) as e:
        build_only(built)
    assert "cites report R2," in str(e.value) and ".md" in str(e.value) and e.value.exit_code == 2
    assert tree_bytes(built / "public") == before


def test_an_edited_article_keeps_serving_its_approved_version(built: Path) -> None:
    page = built / "public" / "articles" / SLUG / "index.html"
    approved_html = page.read_text(encoding="utf-8")
    draft = built / "articles" / f"{SLUG}.md"
    text = draft.read_text(encoding="utf-8")
    assert "多轮对话" in text
    draft.write_text(text.replace("多轮对话", "多轮会话", 1), encoding="utf-8")
    lines: list[str] = []
    summary = build_only(built, echo=lambda m="", **_: lines.append(str(m)))
    assert SLUG in summary.articles and summary.held == {SLUG: _approved_date(built)}
    assert any(
        f"{SLUG}: serving the version approved {_approved_date(built)}; the current draft awaits review" in x
        for x in lines
    ), lines
    assert page.read_text(encoding="utf-8") == approved_html  # the approved text, not the edit
    assert "多轮会话" not in "".join(p.read_text("utf-8", "replace") for p in (built / "public").rglob("*.*ml"))
    # The CLI says so too, on a no-op build as well.
    r = _cli("build", "--root", str(built))
    assert r.returncode == 0 and f"serving the version approved {_approved_date(built)}" in r.stdout + r.stderr
    # Once the edit is approved, it is what the site serves.
    approve(draft, reviewer="Li Wei", note=None, waive=[], reasons=[], echo=_quiet)
    summary = build_only(built)
    assert summary.held == {} and "多轮会话" in page.read_text(encoding="utf-8")


def _quiet(*_: object, **__: object) -> None:
    pass


def _approved_date(root: Path) -> str:
    return str(json.loads((root / "approvals" / f"{SLUG}.json").read_text(encoding="utf-8"))["time"])[:10]


def test_a_never_approved_article_is_not_published(built: Path) -> None:
    (built / "approvals" / f"{SLUG}-en.json").unlink()
    summary = build_only(built)
    assert set(summary.articles) == {SLUG} and summary.skipped == [f"{SLUG}-en"]
    assert not (built / "public" / "articles" / f"{SLUG}-en").exists()


def test_a_crlf_draft_has_one_verdict_in_review_approve_and_build(built: Path) -> None:
    from pipeline.reviewing import load_article

    draft = built / "articles" / f"{SLUG}-en.md"
    draft.write_bytes(draft.read_bytes().replace(b"\n", b"\r\n"))
    assert load_article(draft).status.approved  # the same text, line ends aside
    summary = build_only(built)
    assert f"{SLUG}-en" in summary.articles and summary.held == {}


def test_preview_is_a_site_of_its_own(built: Path) -> None:
    (built / "approvals" / f"{SLUG}-en.json").unlink()
    build_only(built)
    before = tree_bytes(built / "public")
    summary = build_only(built, preview=True)
    preview = built / "public-preview"
    assert summary.out == preview.resolve() and f"{SLUG}-en" in summary.articles
    assert tree_bytes(built / "public") == before  # production untouched
    html = (preview / "articles" / f"{SLUG}-en" / "index.html").read_text(encoding="utf-8")
    assert 'name="robots" content="noindex' in html and 'class="banner"' in html
    public_text = "".join(
        p.read_text("utf-8", "replace") for p in (built / "public").rglob("*") if p.is_file() and p.suffix != ".pdf"
    )
    assert f"{SLUG}-en" not in public_text
    # The folder is configurable.
    toml = built / "publish.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace("[site]", '[site]\npreview_output = "drafts-site"'), "utf-8"
    )
    assert build_only(built, preview=True).out == (built / "drafts-site").resolve()


def test_a_citation_like_marker_that_is_no_citation_is_a_warning_naming_its_line(built: Path) -> None:
    draft = built / "articles" / f"{SLUG}-en.md"
    text = draft.read_text(encoding="utf-8") + "\nMore in the appendix [R4].\n"
    draft.write_text(text, encoding="utf-8")
    lines: list[str] = []
    build_only(built, preview=True, echo=lambda m="", **_: lines.append(str(m)))
    line = text.count("\n", 0, text.index("[R4]")) + 1
    assert any(f"{draft}:{line}: [R4] is not a citation" in x for x in lines), lines


def test_the_disclosure_is_configurable_per_language(built: Path) -> None:
    zh = (built / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")
    assert "AI 内容引擎生成" in zh and "自动质检" in zh  # the default says so
    toml = built / "publish.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace("[site]", '[site]\ndisclosure = { en = "Written with {brand} AI." }'),
        encoding="utf-8",
    )
    build_only(built)
    en = (built / "public" / "articles" / f"{SLUG}-en" / "index.html").read_text(encoding="utf-8")
    brand = re.search(r'brand = "([^"]*)"', toml.read_text(encoding="utf-8"))
    assert brand and f"Written with {brand.group(1)} AI." in en
    assert "AI 内容引擎生成" in (built / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")
