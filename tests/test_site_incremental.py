"""Incremental builds at scale: what a rebuild reads, imports and renders again, and that it still makes the same site."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from site_support import (
    DRAFT_ZH,
    build,
    fake_approve,
    fake_check,
    make_index,
    make_root,
    record_renders,
    search_entries,
    tree_bytes,
)

import pipeline.website.build as build_mod
import pipeline.website.inputs as inputs_mod
import pipeline.website.search as search_mod
import pipeline.website.templates as templates_mod
from pipeline.config import open_root
from pipeline.website.build import IndexEvidence
from qc.index import EvidenceIndex

REPO = Path(__file__).resolve().parent.parent
SLUG = "kv-cache-ttft"


@pytest.fixture
def root(example_root: Path, corpus: Path) -> Path:
    return make_root(example_root, corpus)


def _fresh(root: Path, dest: Path) -> dict[str, bytes]:
    """The site a build from nothing makes of `root`'s current content (no cache, no earlier output)."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns("public", ".publish", ".public.*"))
    build(dest, preview=True)
    return tree_bytes(dest / "public")


def test_a_body_edit_renders_its_page_only(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build(root, preview=True)
    index_before = (root / "public" / "index.html").read_bytes()
    rendered = record_renders(monkeypatch)
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n补充一段说明。\n", encoding="utf-8")
    assert build(root, preview=True).written == 1
    # Listings show titles and answers, not bodies: the index and tag pages are linked from the cache, not rendered;
    # the search page is, as it names the new list of search shards (so no browser keeps the old list).
    assert sorted(rendered) == ["article.html", "search.html"]
    assert (root / "public" / "index.html").read_bytes() == index_before
    search = search_entries(root / "public")
    assert any("补充一段说明" in d["b"] for d in search)  # the search index has the new body…
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")  # …and the site is what a fresh build makes


def test_an_answer_edit_renders_the_listings_that_show_it(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(root, preview=True)
    rendered = record_renders(monkeypatch)
    draft = root / "articles" / "kv-cache-ttft-en.md"
    text = draft.read_text(encoding="utf-8")
    tags = next(line for line in text.splitlines() if line.startswith("tags:"))
    draft.write_text(text.replace('answer: "On', 'answer: "In short, on', 1), encoding="utf-8")
    build(root, preview=True)
    n_tags = tags.count(",") + 1
    # The article, the index and the article's own tag pages (not the other tags'); the feed shows answers too.
    assert rendered.count("article.html") == 1 and "feed.xml" in rendered
    assert rendered.count("list.html") == 1 + n_tags
    assert "In short, on" in (root / "public" / "index.html").read_text(encoding="utf-8")


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs_mod, "RACY_NS", 0)  # trust every stat at once, so only the fingerprint can tell
    draft = root / "articles" / f"{SLUG}.md"
    old = draft.stat()
    build(root, preview=True)
    text = draft.read_text(encoding="utf-8")
    same_size = text.replace("通过前缀缓存把", "通过前缀快取把", 1)  # the same UTF-8 length
    assert len(same_size.encode()) == len(text.encode()) and same_size != text
    draft.write_text(same_size, encoding="utf-8")
    os.utime(draft, ns=(old.st_atime_ns, old.st_mtime_ns))  # as `cp -p` or an editor restoring the mtime would
    assert draft.stat().st_mtime_ns == old.st_mtime_ns and draft.stat().st_size == old.st_size
    assert build(root, preview=True).written == 1  # the inode change time gives it away
    assert "通过前缀快取把" in (root / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")


def test_a_touched_draft_is_hashed_not_rebuilt(root: Path) -> None:
    build(root, preview=True)
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_bytes(draft.read_bytes())  # new mtime and ctime, same content
    again = build(root, preview=True)
    assert (again.written, again.files) == (0, 0)  # the build key is the content's: nothing to do


class _CountingEvidence:
    """IndexEvidence that records which reports each `index()` call asked for."""

    verifies_files = False

    def __init__(self, index: EvidenceIndex) -> None:
        self.inner = IndexEvidence(index)
        self.asked: list[set[str] | None] = []

    def versions(self) -> dict[str, str]:
        return self.inner.versions()

    def errors(self) -> dict[str, str]:
        return {}

    def index(self, ids: Iterable[str] | None = None) -> EvidenceIndex:
        self.asked.append(None if ids is None else set(ids))
        return self.inner.index(ids)


def test_checking_an_edit_loads_only_the_reports_it_cites(root: Path) -> None:
    build(root, preview=True)
    ev = _CountingEvidence(make_index())
    draft = root / "articles" / "kv-cache-ttft-en.md"
    draft.write_text(draft.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    build_mod._build(
        open_root(root), out=None, preview=True, echo=None, evidence=ev, check=fake_check, approve=fake_approve
    )
    meta = draft.read_text(encoding="utf-8").split("evidence:", 1)[1].split("\n", 1)[0]
    cited = {r.strip(" []") for r in meta.split(",")}
    assert ev.asked == [cited]  # not the whole store, and the unchanged library needed no index at all


def test_the_library_survives_a_lost_cited_list(root: Path) -> None:
    build(root, preview=True)
    r9 = (root / "public" / "evidence" / "R9" / "index.html").read_bytes()
    for p in (root / ".publish" / "site" / "qc").glob("*.cited"):
        p.unlink()
    for p in (root / ".publish" / "site" / "pages").glob("*.html"):
        p.unlink()  # every page rendered again, the library's cited figures worked out from the QC results
    build(root, preview=True)
    assert (root / "public" / "evidence" / "R9" / "index.html").read_bytes() == r9


def test_an_edit_rewrites_one_search_shard(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(search_mod, "SEARCH_SHARD", 1)  # the example's two articles in two shards
    build(root, preview=True)
    public = root / "public"
    before = json.loads((public / "search.json").read_text(encoding="utf-8"))["shards"]
    assert len(before) == 2 and len(search_entries(public)) == 2
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n补充一段说明。\n", encoding="utf-8")
    build(root, preview=True)
    after = json.loads((public / "search.json").read_text(encoding="utf-8"))["shards"]
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 1  # only the edited article's shard has a new name (and new bytes)…
    new_shard = json.loads((public / changed[0][1]).read_text(encoding="utf-8"))
    assert [d["u"] for d in new_shard] == [f"articles/{SLUG}/"] and "补充一段说明" in new_shard[0]["b"]
    assert not (public / changed[0][0]).exists()  # …the old one is gone, and the site is what a fresh build makes
    assert tree_bytes(public) == _fresh(root, tmp_path / "fresh")


@pytest.mark.parametrize("damage", ["offsets lost", "shard torn"])
def test_search_json_is_rebuilt_when_last_builds_copy_is_gone(root: Path, tmp_path: Path, damage: str) -> None:
    build(root, preview=True)
    cache = root / ".publish" / "site" / "pages"
    assert not list(cache.glob("*.json"))  # entries live in the shards, not in a file per article
    for p in cache.glob("*.idx"):
        if damage == "offsets lost":
            p.unlink()
        else:
            shard = p.with_suffix(".html")
            shard.write_bytes(shard.read_bytes()[:20])
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n再补充一句。\n", encoding="utf-8")
    summary = build(root, preview=True)
    assert summary.written == 2  # the other article's entry was lost with the shard: its page is made again
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")
    assert len(search_entries(root / "public")) == 2


def test_a_template_edit_is_seen_through_the_compiled_template_cache(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(templates_mod.SITE_TEMPLATES, templates)
    monkeypatch.setattr(templates_mod, "SITE_TEMPLATES", templates)
    build(root, preview=True)
    assert any((root / ".publish" / "site" / "jinja").iterdir())  # compiled templates are cached…
    art = templates / "article.html"
    art.write_text(art.read_text(encoding="utf-8").replace("</article>", "<!-- v2 --></article>"), encoding="utf-8")
    assert build(root, preview=True).written == 2  # …and a changed template is compiled and rendered again
    assert "<!-- v2 -->" in (root / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")


def test_a_noop_build_imports_no_page_code(root: Path) -> None:
    build(root, preview=True)
    probe = f"""
import sys
sys.path.insert(0, {str(REPO / "tests")!r})
from site_support import build
summary = build({str(root)!r}, preview=True)
assert summary.written == 0 and summary.files == 0, summary
heavy = [m for m in ("jinja2", "markdown_it", "pipeline.website.pages", "pipeline.website.article", "pipeline.website.render", "qc.check", "qc.review")
         if m in sys.modules]
print("HEAVY", heavy)
"""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PYTHONPATH"] = str(REPO)
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "HEAVY []" in r.stdout, r.stdout


def test_publish_build_imports_no_qc_until_it_needs_it() -> None:
    probe = "import sys, pipeline.publish; print(sorted(m for m in ('qc.check', 'qc.review') if m in sys.modules))"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PYTHONPATH"] = str(REPO)
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


def _numbered_drafts(root: Path, n: int) -> None:
    """Drafts a0…a<n-1>: the example draft titled "第 i 篇 …", one day apart, sharing its tags and reports."""
    for i in range(n):
        text = DRAFT_ZH.replace("title: 多轮对话", f"title: 第 {i} 篇 多轮对话").replace(
            "2026-07-08", f"2026-06-{i + 1:02d}"
        )
        (root / "articles" / f"a{i}.md").write_text(text, encoding="utf-8")


def test_a_retitled_article_is_retitled_in_its_neighbours_related_links(root: Path, tmp_path: Path) -> None:
    _numbered_drafts(root, 4)
    build(root, preview=True)
    pages = root / "public" / "articles"
    showing = [p.parent.name for p in pages.glob("*/index.html") if "第 2 篇" in p.read_text(encoding="utf-8")]
    assert len(showing) > 1  # a2's own page and its neighbours' related links
    a2 = root / "articles" / "a2.md"
    a2.write_text(a2.read_text(encoding="utf-8").replace("第 2 篇", "第二篇"), encoding="utf-8")
    build(root, preview=True)
    assert not [p for p in pages.glob("*/index.html") if "第 2 篇" in p.read_text(encoding="utf-8")]
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")


def test_many_edits_then_a_fresh_build_agree(root: Path, tmp_path: Path) -> None:
    """Drafts added, edited, retitled and removed between builds: the recycled, spliced site stays exact."""
    _numbered_drafts(root, 6)
    build(root, preview=True)
    steps = [
        lambda: (root / "articles" / "a1.md").unlink(),
        lambda: (root / "articles" / "a2.md").write_text(
            (root / "articles" / "a2.md").read_text(encoding="utf-8").replace("第 2 篇", "第二篇"), encoding="utf-8"
        ),
        lambda: (root / "articles" / "a7.md").write_text(
            DRAFT_ZH.replace("tags: [KV Cache, 存储加速, LMCache, vLLM]", "tags: [新标签]"), encoding="utf-8"
        ),
        lambda: (root / "articles" / "a3.md").write_text(  # new tags: its related articles and theirs change
            (root / "articles" / "a3.md")
            .read_text(encoding="utf-8")
            .replace("tags: [KV Cache, 存储加速, LMCache, vLLM]", "tags: [独立标签]"),
            encoding="utf-8",
        ),
        lambda: (root / "approvals" / f"{SLUG}.json").unlink(),
    ]
    for step in steps:
        step()
        build(root, preview=True)
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")
    assert (root / "public" / "tags" / "新标签" / "index.html").is_file()


def test_a_damaged_build_cache_is_rebuilt_not_trusted(root: Path, tmp_path: Path) -> None:
    """Build state, manifests and QC results are derived data: garbage in them costs a rebuild, never a wrong site."""
    build(root, preview=True)
    cache = root / ".publish" / "site"
    for name in ("state.marshal", "quick.marshal"):
        (cache / name).write_bytes(b"\x00garbage\xff" * 7)
    for path in [*(cache / "manifests").glob("*.json"), *(cache / "qc").glob("*.json")]:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])  # torn, as by a full disk
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n再补充一句。\n", encoding="utf-8")
    summary = build(root, preview=True)
    assert summary.written == 2  # both pages rendered again: nothing of the damaged state was reused
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")


def test_pages_read_qc_numbers_from_a_sidecar_and_survive_its_damage(root: Path, tmp_path: Path) -> None:
    import marshal

    build(root, preview=True)
    qc = root / ".publish" / "site" / "qc"
    sidecars = sorted(qc.glob("*.nums"))
    assert len(sidecars) == 2  # one per article, beside its QC result
    for path in sidecars:
        numbers = marshal.loads(path.read_bytes())
        result = json.loads(path.with_suffix(".json").read_bytes())
        assert numbers == result["numbers"]
        path.write_bytes(path.read_bytes()[:40])  # torn
    shutil.rmtree(root / ".publish" / "site" / "pages")
    shutil.rmtree(root / "public")
    summary = build(root, preview=True)
    assert summary.written == 2
    assert tree_bytes(root / "public") == _fresh(root, tmp_path / "fresh")
    for path in sidecars:  # rewritten whole from the JSON result
        assert marshal.loads(path.read_bytes()) == json.loads(path.with_suffix(".json").read_bytes())["numbers"]


def test_search_shards_keep_each_article_in_its_shard_as_others_come() -> None:
    from types import SimpleNamespace

    items: list[Any] = [SimpleNamespace(slug=f"article-{i}") for i in range(600)]
    shards = search_mod.search_shards(items)
    assert len(shards) == 4  # a power of two, ≤ 256 articles a shard on average
    assert sorted(it.slug for shard in shards for it in shard) == sorted(it.slug for it in items)
    assert max(map(len, shards)) < 2 * 600 / 4  # a hash spreads them evenly enough
    where = {it.slug: i for i, shard in enumerate(shards) for it in shard}
    grown = search_mod.search_shards([*items, *(SimpleNamespace(slug=f"new-{i}") for i in range(300))])
    assert len(grown) == 4
    assert all(where[it.slug] == i for i, shard in enumerate(grown) for it in shard if it.slug in where)
    assert [it.slug for it in grown[0] if it.slug in where] == [it.slug for it in shards[0]]  # order kept
