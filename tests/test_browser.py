"""The built example in a real browser (Playwright driving Debian's Chromium): provenance, PDF links, JSON-LD, search."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from browser_support import ARGS, CHROMIUM, need_chromium, serve_dir
from site_support import DRAFT_EN, DRAFT_ZH

from evidence.ingest import ingest
from pipeline.config import open_root
from pipeline.website.build import build_site

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SLUG = "kv-cache-ttft"


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example content root with its real report PDFs, ingested, checked by the real QC and built in preview."""
    need_chromium()
    root = tmp_path_factory.mktemp("browser") / "site"
    shutil.copytree(REPO / "site", root, ignore=shutil.ignore_patterns("public", ".publish"))
    missing = [r for r in ("R1", "R2", "R9") if not (root / "reports" / f"{r}.pdf").is_file()]
    if missing:
        sys.path.insert(0, str(REPO / "tools"))
        from make_reports import DATA, build_report

        for rid in missing:
            build_report(DATA / f"{rid}.yaml", root / "reports")
    drafts = {f"{SLUG}.md": DRAFT_ZH, f"{SLUG}-en.md": DRAFT_EN}
    for name, text in drafts.items():
        if not (root / "articles" / name).is_file():  # the drafter's own example draft wins when it exists
            (root / "articles" / name).write_text(text, encoding="utf-8")
    # A table of checked numbers: their tooltips must not be clipped by the table's scroll box.
    zh = root / "articles" / f"{SLUG}.md"
    zh.write_text(
        zh.read_text(encoding="utf-8")
        + "\n## 数据一览\n\n| 指标 | 基线 | FX100 |\n|---|---|---|\n| TTFT p50(并发 8) | 10.17 s | 7.53 s |\n\n"
        "数据见上表【出处:R2 实测】。\n",
        encoding="utf-8",
    )
    content = open_root(root)
    ingest(content.reports, content.store).raise_for_errors(["R1", "R2", "R9"])
    summary = build_site(content, preview=True)
    assert SLUG in summary.articles
    with serve_dir(summary.out) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    context.close()


def test_article_numbers_show_provenance_and_link_to_the_pdf_page(site_url: str, page: Any) -> None:
    page.goto(f"{site_url}articles/{SLUG}/")
    assert page.locator("h1").count() == 1
    num = page.locator("a.num[href*='reports/R2.pdf#page=']").first
    tip = num.locator(".tip")
    assert not tip.is_visible()
    num.hover()
    assert tip.is_visible()
    text = tip.inner_text()
    assert "R2" in text and "第" in text and "页" in text and "原文" in text
    page.mouse.move(0, 0)
    assert not tip.is_visible()
    num.focus()  # keyboard users get the same tooltip
    assert tip.is_visible()
    href = num.get_attribute("href")
    response = page.request.get(urljoin(page.url, href))
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")
    ARTIFACTS.mkdir(exist_ok=True)
    num.hover()
    page.screenshot(path=str(ARTIFACTS / "article.png"), full_page=True)
    assert (ARTIFACTS / "article.png").stat().st_size > 10_000
    assert page.errors == []


def test_on_request_numbers_link_to_the_library_entry(site_url: str, page: Any) -> None:
    page.goto(f"{site_url}articles/{SLUG}/")
    num = page.locator("a.num[href*='evidence/R9/']").first
    num.click()
    page.wait_for_load_state()
    assert "/evidence/R9/" in page.url and "#fig-" in page.url
    assert page.locator(page.url[page.url.index("#") :]).count() == 1  # the cited figure's row
    response = page.request.get(f"{site_url}reports/R9.pdf")
    assert response.status == 404
    assert page.errors == []


def test_json_ld_parses_as_article_and_faq_page(site_url: str, page: Any) -> None:
    page.goto(f"{site_url}articles/{SLUG}/")
    blocks = [json.loads(t) for t in page.locator("script[type='application/ld+json']").all_text_contents()]
    faq = next(b for b in blocks if b["@type"] == "FAQPage")
    assert faq["@context"] == "https://schema.org" and faq["mainEntity"]
    for q in faq["mainEntity"]:
        assert q["@type"] == "Question" and q["name"] and q["acceptedAnswer"]["@type"] == "Answer"
        assert q["acceptedAnswer"]["text"]
    assert any(b["@type"] in ("Article", "TechArticle") and b["headline"] for b in blocks)


@pytest.mark.parametrize("query", ["存储加速", "cache ttft"])
def test_search_finds_the_article_in_chinese_and_english(site_url: str, page: Any, query: str) -> None:
    page.goto(f"{site_url}search/?q={query}")
    link = page.locator(f"#search-results a[href$='articles/{SLUG}/']")
    link.wait_for(timeout=5000)
    assert page.locator("#search-status").inner_text()
    page.fill("#q", "zzqqxx-无此词")
    page.locator("#search-results li").first.wait_for(state="detached", timeout=5000)
    assert page.errors == []


def test_tooltips_work_without_javascript(site_url: str, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.goto(f"{site_url}articles/{SLUG}/")
    num = pg.locator("a.num").first
    num.hover()
    assert num.locator(".tip").is_visible()
    context.close()


def test_tooltips_inside_a_table_are_not_clipped_by_its_scroll_box(site_url: str, page: Any) -> None:
    page.goto(f"{site_url}articles/{SLUG}/")
    num = page.locator(".table-wrap .num").first
    num.scroll_into_view_if_needed()
    num.hover()
    tip = num.locator(".tip")
    assert tip.is_visible()
    box = tip.bounding_box()
    wrap = page.locator(".table-wrap").first.bounding_box()
    assert box is not None and wrap is not None
    assert box["height"] > 40  # several rows: report, page, quote, check
    # Wholly inside the scroll box's visible area, and painted there: the element at its bottom-left is the tooltip.
    assert wrap["y"] <= box["y"] and box["y"] + box["height"] <= wrap["y"] + wrap["height"] + 1
    inside = page.evaluate(
        "([x, y]) => { const e = document.elementFromPoint(x, y); return !!(e && e.closest('.tip')); }",
        [box["x"] + 8, box["y"] + box["height"] - 4],
    )
    assert inside
    assert page.errors == []
