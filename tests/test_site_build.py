"""The site build: pages and conventions, approval gate, atomic swap, incremental reuse, confidentiality, golden HTML."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from site_support import (
    DRAFT_ZH,
    FIGURES,
    R9_SECRET_TEXT,
    build,
    fake_check,
    make_index,
    make_root,
    record_renders,
    search_entries,
    search_text,
    tree_bytes,
)

import pipeline.website.build as build_mod
import pipeline.website.templates as templates_mod
from evidence.errors import InputError
from pipeline.errors import BuildError
from qc.models import NumberCheck, Source

SLUG = "kv-cache-ttft"


@pytest.fixture
def root(example_root: Path, corpus: Path) -> Path:
    return make_root(example_root, corpus)


def page(root: Path, rel: str) -> str:
    return (root / "public" / rel).read_text(encoding="utf-8")


def json_ld(html: str) -> list[dict[str, Any]]:
    return [json.loads(m) for m in re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)]


def test_only_approved_articles_are_built(root: Path) -> None:
    summary = build(root)
    assert list(summary.articles) == [SLUG]
    assert summary.skipped == ["kv-cache-ttft-en"]
    assert summary.page_for(SLUG) == root / "public" / "articles" / SLUG / "index.html"
    assert not (root / "public" / "articles" / "kv-cache-ttft-en").exists()
    with pytest.raises(BuildError):
        summary.page_for("kv-cache-ttft-en")
    assert "not approved" in str(summary)
    html = page(root, f"articles/{SLUG}/index.html")
    assert 'class="banner"' not in html
    assert "kv-cache-ttft-en" not in page(root, "index.html") + search_text(root / "public") + page(root, "sitemap.xml")


def test_preview_builds_all_with_a_banner_on_unapproved_pages(root: Path) -> None:
    build(root, preview=True)
    en = page(root, "articles/kv-cache-ttft-en/index.html")
    zh = page(root, f"articles/{SLUG}/index.html")
    assert 'class="banner"' in en and "not been approved" in en
    assert 'class="banner"' not in zh
    assert '<html lang="en">' in en and '<html lang="zh-CN">' in zh
    assert "Download PDF" in en and "下载报告 PDF ↓" in zh
    assert "noindex" in en and "Disallow: /" in page(root, "robots.txt")


def test_article_page_offers_what_the_reference_article_offers(root: Path) -> None:
    build(root)
    html = page(root, f"articles/{SLUG}/index.html")
    assert html.count("<h1") == 1
    assert '<section class="answer"' in html and "直接答案" in html
    assert "发布 <time" in html and "更新 <time" in html
    assert 'href="../../tags/kv-cache/"' in html
    assert html.count('<h2 id="q') == 3  # the question sections
    assert "本文要点问答" in html and "模型加载快多少?" in html
    # data sources: public reports download their PDF, the on-request one is requested via the contact link
    assert re.search(r'id="src-R2">.*?href="../../reports/R2.pdf"', html, re.S)
    assert re.search(r'id="src-R9">.*?href="mailto:contact@example.com"[^>]*>联系我们获取 →', html, re.S)
    assert '<a href="#src-R2">R2</a>' in html  # citation markers link to the data-sources entry
    assert "内容引擎" in html and "自动质检" in html  # the disclosure
    # every checked number links to its report page (public) or the library entry (on request)
    assert 'href="../../reports/R2.pdf#page=2"' in html
    assert re.search(r'href="../../evidence/R9/#fig-[0-9a-f]+"', html)
    assert "reports/R9.pdf" not in html
    assert html.count('class="chart"') == 4 and "<svg" in html


def test_json_ld_and_open_graph(root: Path) -> None:
    build(root)
    html = page(root, f"articles/{SLUG}/index.html")
    article, faq = json_ld(html)
    assert article["@type"] == "TechArticle" and article["headline"].startswith("多轮对话")
    assert article["mainEntityOfPage"]["@id"] == "https://www.example.com/articles/kv-cache-ttft/"
    assert faq["@type"] == "FAQPage"
    assert [q["name"] for q in faq["mainEntity"]] == ["冷恢复时首 token 延迟降低多少?", "模型加载快多少?"]
    assert faq["mainEntity"][1]["acceptedAnswer"]["text"] == "DeepSeek-32B 服务加载从 691s 降至 112s。"
    assert '<link rel="canonical" href="https://www.example.com/articles/kv-cache-ttft/">' in html
    assert '<meta property="og:type" content="article">' in html


def test_json_ld_cannot_close_its_script(example_root: Path, corpus: Path) -> None:
    make_root(example_root, corpus)
    draft = example_root / "articles" / f"{SLUG}.md"
    draft.write_text(
        DRAFT_ZH.replace("模型加载快多少?", "模型加载</script><script>alert(1)</script>?"), encoding="utf-8"
    )
    build(example_root)
    html = page(example_root, f"articles/{SLUG}/index.html")
    assert "<script>alert(1)" not in html
    faq = json_ld(html)[1]
    assert faq["mainEntity"][1]["name"] == "模型加载</script><script>alert(1)</script>?"


def test_listings_library_and_conventions(root: Path) -> None:
    build(root, preview=True)
    index = page(root, "index.html")
    assert index.index("How faster storage") < index.index("多轮对话")  # newest first
    assert "多轮对话" in page(root, "tags/kv-cache/index.html") and "How faster" in page(
        root, "tags/kv-cache/index.html"
    )
    assert "How faster" not in page(root, "tags/lmcache/index.html")
    lib = page(root, "evidence/index.html")
    for rid in ("R1", "R2", "R9"):
        assert f'id="{rid}"' in lib
    assert 'href="../reports/R2.pdf"' in lib and "reports/R9.pdf" not in lib
    assert make_index().reports["R2"].sha256 in lib
    r2 = page(root, "evidence/R2/index.html")
    assert r2.count('<tr id="fig-') == sum(1 for f in FIGURES if f[0] == "R2")
    assert "How faster storage" in r2 and "多轮对话" in r2  # the articles citing it
    related = page(root, f"articles/{SLUG}/index.html")
    assert re.search(r'class="related".*?href="../../articles/kv-cache-ttft-en/"', related, re.S)
    feed = ET.fromstring(page(root, "feed.xml"))
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert [e.findtext("a:id", namespaces=ns) for e in feed.findall("a:entry", ns)] == [
        "https://www.example.com/articles/kv-cache-ttft-en/",
        "https://www.example.com/articles/kv-cache-ttft/",
    ]
    sitemap = ET.fromstring(page(root, "sitemap.xml"))
    locs = [u.findtext("{http://www.sitemaps.org/schemas/sitemap/0.9}loc") for u in sitemap]
    assert "https://www.example.com/evidence/R9/" in locs and "https://www.example.com/" in locs
    assert "Sitemap: https://www.example.com/sitemap.xml" in page(root, "robots.txt")
    search = search_entries(root / "public")
    assert {d["u"] for d in search} == {f"articles/{SLUG}/", "articles/kv-cache-ttft-en/"}
    assert "冷启动时所有 KV 需从存储重新加载" in next(d["b"] for d in search if d["l"] == "zh")
    assert "【" not in json.dumps(search, ensure_ascii=False)  # citation markers are not searchable text
    assert (root / "public" / "404.html").is_file() and (root / "public" / "static" / "search.js").is_file()


def test_on_request_reports_stay_confidential(root: Path) -> None:
    build(root, preview=True)
    out = root / "public"
    files = tree_bytes(out)
    assert not any(name.endswith("R9.pdf") for name in files)
    assert (out / "reports" / "R2.pdf").read_bytes() == (root / "reports" / "R2.pdf").read_bytes()
    r9_pdf = (root / "reports" / "R9.pdf").read_bytes()
    assert all(b != r9_pdf for n, b in files.items() if not n.startswith("reports/"))
    generated = [b.decode("utf-8") for n, b in files.items() if not n.startswith(("reports/", "static/"))]
    text = re.sub(r"[0-9a-f]{8,}", "#", "\n".join(generated))  # hashes and figure ids are not figures
    assert R9_SECRET_TEXT not in text  # R9 page text
    assert "DeepSeek-7B" not in text  # the uncited row: neither its label…
    for value in ("245", "61", "4.0"):  # …nor its values, in pages, search index or feed
        assert not re.search(rf"(?<![\d.]){re.escape(value)}(?![\d.])", text), value
    r9 = page(root, "evidence/R9/index.html")
    assert r9.count('<tr id="fig-') == 4 and "按需提供" in r9
    assert "6.2" not in r9  # a quote carrying an uncited number is replaced by label and value


def test_failed_build_leaves_the_previous_site_byte_identical(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    build(root)
    before = tree_bytes(root / "public")
    (root / "articles" / f"{SLUG}.md").write_text(DRAFT_ZH.replace("模型加载快多少", "加载快多少"), encoding="utf-8")
    broken = tmp_path / "templates"
    shutil.copytree(templates_mod.SITE_TEMPLATES, broken)
    art = broken / "article.html"
    art.write_text(
        art.read_text(encoding="utf-8").replace("{{ page.title_html }}", "{{ page.no_such_field }}"), encoding="utf-8"
    )
    monkeypatch.setattr(templates_mod, "SITE_TEMPLATES", broken)
    with pytest.raises(BuildError) as err:
        build(root)
    assert "no_such_field" in str(err.value) and "article.html" in str(err.value)
    assert tree_bytes(root / "public") == before
    assert not [p for p in root.iterdir() if p.name.startswith(".public.")]  # no temp folders left behind
    art.write_text(
        (Path(build_mod.__file__).parent.parent.parent / "templates/site/article.html").read_text("utf-8"), "utf-8"
    )
    (broken / "list.html").write_text("\n{% for x in %}", encoding="utf-8")  # a syntax error, reported with its line
    with pytest.raises(BuildError) as err:
        build(root)
    assert str(err.value.path).endswith("list.html") and err.value.line == 2
    assert tree_bytes(root / "public") == before


def test_bad_draft_stops_the_build_before_anything_is_written(root: Path) -> None:
    build(root)
    before = tree_bytes(root / "public")
    (root / "articles" / "broken.md").write_text("---\ntitle: x\nlang: fr\n---\nbody\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        build(root)
    assert "broken.md" in str(err.value)
    assert tree_bytes(root / "public") == before


def test_refuses_to_replace_a_folder_it_did_not_build(root: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "docs"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError):
        build(root, out=foreign)
    with pytest.raises(InputError):
        build(root, out=root)
    assert (foreign / "keep.txt").read_text(encoding="utf-8") == "mine"
    summary = build(root, out=tmp_path / "elsewhere")
    assert summary.page_for(SLUG).is_file()


def test_incremental_builds_reuse_unchanged_articles(root: Path) -> None:
    calls: list[str] = []

    def counting_check(draft: Any, index: Any, severity: Any) -> Any:
        from site_support import fake_check

        calls.append(draft.slug)
        return fake_check(draft, index, severity)

    first = build(root, preview=True, check=counting_check)
    assert (first.written, first.reused) == (2, 0) and sorted(calls) == ["kv-cache-ttft", "kv-cache-ttft-en"]
    before = tree_bytes(root / "public")
    calls.clear()
    again = build(root, preview=True, check=counting_check)
    assert (again.written, again.reused, calls) == (0, 2, [])
    assert tree_bytes(root / "public") == before
    en = root / "articles" / "kv-cache-ttft-en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("How much does", "How much, really, does"), encoding="utf-8")
    edited = build(root, preview=True, check=counting_check)
    assert (edited.written, edited.reused, calls) == (1, 1, ["kv-cache-ttft-en"])
    assert "How much, really, does" in page(root, "articles/kv-cache-ttft-en/index.html")
    # approving an article changes only the gate (its banner), not QC
    calls.clear()
    (root / "approvals" / "kv-cache-ttft-en.json").write_text("{}", encoding="utf-8")
    approved = build(root, preview=True, check=counting_check)
    assert calls == [] and approved.written == 1
    assert 'class="banner"' not in page(root, "articles/kv-cache-ttft-en/index.html")
    # a new evidence version re-checks the drafts citing that report
    build(root, preview=True, check=counting_check, index=make_index(sha={"R1": "0" * 64}))
    assert calls == ["kv-cache-ttft"]


def test_deleting_the_cache_rebuilds_the_same_site(root: Path) -> None:
    build(root, preview=True)
    before = tree_bytes(root / "public")
    shutil.rmtree(root / ".publish")
    build(root, preview=True)
    assert tree_bytes(root / "public") == before


def test_many_articles_render_in_worker_processes(root: Path) -> None:
    for i in range(build_mod.POOL_MIN + 2):
        text = DRAFT_ZH.replace("title: 多轮对话", f"title: 第 {i} 篇 多轮对话").replace(
            "2026-07-08", f"2026-06-{i % 28 + 1:02d}"
        )
        (root / "articles" / f"a{i:03d}.md").write_text(text, encoding="utf-8")
    summary = build(root, preview=True)
    assert summary.written == build_mod.POOL_MIN + 4
    aside = re.search(r'<aside class="related".*?</aside>', page(root, "articles/a000/index.html"), re.S)
    assert aside and aside.group(0).count("<li ") == build_mod.RELATED_K


def test_related_articles_stay_linear(root: Path) -> None:
    items = [
        build_mod.DraftItem(
            f"{i}.md",
            Path(f"{i}.md"),
            "",
            {"date": f"2026-01-{i % 28 + 1:02d}", "tags": ["t"], "evidence": ["R2"]},
            f"s{i}",
        )
        for i in range(300)
    ]
    related = build_mod._related(items)
    assert all(len(v) == build_mod.RELATED_K and k not in v for k, v in related.items())
    # each article is related only to its neighbours, so one edit touches a bounded number of pages
    appearances: dict[str, int] = {}
    for v in related.values():
        for s in v:
            appearances[s] = appearances.get(s, 0) + 1
    assert max(appearances.values()) <= 2 * build_mod.RELATED_WINDOW + 1


def test_golden_html(root: Path, golden: Callable[[str, Any], None]) -> None:
    build(root, preview=True)
    for rel, name in [
        (f"articles/{SLUG}/index.html", "site/article-zh.html"),
        ("articles/kv-cache-ttft-en/index.html", "site/article-en.html"),
        ("index.html", "site/index.html"),
        ("evidence/R9/index.html", "site/evidence-R9.html"),
        ("feed.xml", "site/feed.xml"),
    ]:
        golden(name, page(root, rel))


def test_recycled_site_folder_matches_a_fresh_build(root: Path, tmp_path: Path) -> None:
    en = root / "articles" / "kv-cache-ttft-en.md"
    for i in range(4):  # from the third build on, the folder swapped out last time is updated in place
        en.write_text(en.read_text(encoding="utf-8").replace("How much", f"How much ({i})", 1), encoding="utf-8")
        build(root, preview=True)
    stage = root / ".public.stage"
    assert stage.is_dir() and (stage / ".proofpress-build").is_file()
    (root / "approvals" / "kv-cache-ttft.json").unlink()  # drops an article: its page and folder must go
    build(root)
    fresh = tmp_path / "fresh"
    build(root, out=fresh)
    assert tree_bytes(root / "public") == tree_bytes(fresh)
    assert not (root / "public" / "articles" / SLUG).exists()


def test_a_half_updated_recycled_folder_is_not_trusted(root: Path, tmp_path: Path) -> None:
    build(root, preview=True)
    build(root)  # a different build, so the first one's folder is swapped out and kept
    stage = root / ".public.stage"
    (stage / ".proofpress-build").unlink()  # as if a build died while updating it
    (stage / "index.html").write_text("garbage", encoding="utf-8")
    (root / "articles" / "kv-cache-ttft-en.md").write_text(DRAFT_ZH.replace("多轮对话", "三轮对话"), encoding="utf-8")
    build(root, preview=True)
    fresh = tmp_path / "fresh"
    build(root, preview=True, out=fresh)
    assert tree_bytes(root / "public") == tree_bytes(fresh)


def test_unchanged_library_pages_are_reused_not_rendered(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(root, preview=True)
    lib = page(root, "evidence/R2/index.html")
    rendered = record_renders(monkeypatch)
    en = root / "articles" / "kv-cache-ttft-en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("How much does", "How much, really, does"), encoding="utf-8")
    assert build(root, preview=True).written == 1
    assert "article.html" in rendered  # the edited article…
    assert "report.html" not in rendered and "library.html" not in rendered  # …but not the evidence library
    assert page(root, "evidence/R2/index.html") == lib


def test_a_failed_number_never_reveals_its_nearest_on_request_figure(root: Path) -> None:
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(DRAFT_ZH + "\n小模型加载约 250s【出处:R9 实测】。\n", encoding="utf-8")
    seven_b = next(f for f in make_index().figures["R9"] if f.labels[0] == "DeepSeek-7B" and f.raw == "245s")

    def check_with_mismatch(d: Any, index: Any, severity: Any) -> Any:
        result = fake_check(d, index, severity)
        if "250s" not in d.body:
            return result
        start = d.body.index("250s")
        wrong = NumberCheck(
            text="250s", line=1, column=1, value=250, unit="s", status="mismatch", severity="error", cited=["R9"],
            source=Source(report="R9", figure=seven_b.id, page=2, value=245, unit="s", quote=seven_b.quote,
                          labels=seven_b.labels),
            message="R9 says 245s (DeepSeek-7B)", field="body", start=start, end=start + 4,
        )  # fmt: skip
        return result.model_copy(update={"numbers": [*result.numbers, wrong], "ok": False})

    build(root, preview=True, check=check_with_mismatch)
    html = page(root, f"articles/{SLUG}/index.html")
    assert re.search(r'class="num num-error"[^>]*><span class="num-v">250s', html)  # still flagged in preview…
    everything = html + page(root, "evidence/R9/index.html") + search_text(root / "public")
    assert "245" not in everything and "DeepSeek-7B" not in everything  # …without the figure it missed
    assert seven_b.id not in page(root, "evidence/R9/index.html")
