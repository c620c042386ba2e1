"""The published folder is what the build planned, every time: the recycled staging folder is verified file by file,
and nothing published shares an inode with the build cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_support import build, make_root

SLUG = "kv-cache-ttft"


@pytest.fixture
def root(example_root: Path, corpus: Path) -> Path:
    return make_root(example_root, corpus)


def _edit(root: Path, n: int) -> None:
    """A body edit, so the next build is a real one (not the no-op path) and recycles the staging folder."""
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(draft.read_text(encoding="utf-8") + f"\n补充说明 {n}。\n", encoding="utf-8")


def test_a_file_deleted_from_the_site_comes_back_in_every_build(root: Path) -> None:
    build(root)
    public = root / "public"
    (public / "search" / "index.html").unlink()
    for n in range(3):
        _edit(root, n)
        build(root)
        assert (public / "search" / "index.html").is_file(), n


def test_a_stray_file_in_the_site_never_comes_back(root: Path) -> None:
    build(root)
    public = root / "public"
    (public / "qc-report.html").write_text("internal QC report", encoding="utf-8")
    (public / "articles" / "stray").mkdir()
    (public / "articles" / "stray" / "index.html").write_text("stray", encoding="utf-8")
    for n in range(3):
        _edit(root, n)
        build(root)
        assert not (public / "qc-report.html").exists(), n
        assert not (public / "articles" / "stray" / "index.html").exists(), n


def test_an_edit_of_a_published_page_reaches_neither_the_cache_nor_later_builds(root: Path) -> None:
    build(root)
    public = root / "public"
    index = public / "index.html"
    good = index.read_bytes()
    index.write_bytes(good.replace(b"</body>", b"<p>DEFACED</p></body>"))
    cache = root / ".publish" / "site"
    assert not any(b"DEFACED" in p.read_bytes() for p in cache.rglob("*.html"))
    for n in range(3):
        _edit(root, n)
        build(root)
        assert b"DEFACED" not in index.read_bytes(), n


def test_the_published_folder_shares_no_inode_with_the_cache(root: Path) -> None:
    for n in range(2):
        _edit(root, n)
        build(root)
    cached = {(p.stat().st_dev, p.stat().st_ino) for p in (root / ".publish").rglob("*") if p.is_file()}
    published = {(p.stat().st_dev, p.stat().st_ino) for p in (root / "public").rglob("*") if p.is_file()}
    assert published and not (published & cached)
