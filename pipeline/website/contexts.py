"""Every template's typed context: `site` on every page, and one `page` dataclass per page type.

| template | `page` | what it shows |
|---|---|---|
| `article.html` | `ArticlePage` | one article, every checked number wrapped in its provenance |
| `list.html` | `ListPage` | the index (newest first, with all tags) or one tag's articles |
| `library.html` | `LibraryPage` | every registered report (`ReportCard`s) |
| `report.html` | `ReportPage` | one report's card and figures (on-request: only cited ones) |
| `search.html`, `404.html` | `SimplePage` | the search box / not-found text |
| `feed.xml` | `FeedPage` | the newest articles as Atom entries |
| `sitemap.xml` | `SitemapPage` | every public URL |
| `robots.txt` | `RobotsPage` | crawl rules and the sitemap's URL |

Templates also receive `ui` (the strings of `ui.py` for the site's language) and `rel` (the path back to the root).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlparse

from markupsafe import Markup

if TYPE_CHECKING:
    from pipeline.config import SiteConfig

_CJK = re.compile(r"[\u2e80-\u9fff]")


@dataclass(frozen=True)
class SiteCtx:
    """Every template's `site`: the site's settings plus the static files' version (for cache busting)."""

    title: str
    brand: str
    description: str
    base_url: str
    base_path: str
    contact_url: str
    lang: str
    static_v: str
    preview: bool
    disclosure: tuple[tuple[str, str], ...] = ()  # (lang, text) from publish.toml, over the UI's default


@dataclass(frozen=True)
class TagLink:
    """A tag and the relative href of its page."""

    name: str
    slug: str
    href: str


@dataclass(frozen=True)
class ArticleLink:
    """An article as listed on index, tag, library and related sections."""

    slug: str
    title: str
    date: str
    href: str
    lang: str
    answer: str
    tags: tuple[TagLink, ...] = ()


@dataclass(frozen=True)
class SourceEntry:
    """One report of an article's data-sources list."""

    id: str
    title: str
    date: str
    access: str
    pdf: str | None  # relative href of the PDF (public reports only)
    library: str  # relative href of the report's evidence-library entry


@dataclass(frozen=True)
class QAItem:
    """One key-point question and its answer, numbers wrapped."""

    q: Markup
    a: Markup


@dataclass(frozen=True)
class ArticlePage:
    """Context of `article.html`: one article with every checked number wrapped in its provenance."""

    slug: str
    lang: str
    rel: str
    canonical: str
    title_html: Markup
    title_text: str
    description: str
    date: str
    updated: str | None
    tags: tuple[TagLink, ...]
    answer_html: Markup
    body_html: Markup
    faq: tuple[QAItem, ...]
    sources: tuple[SourceEntry, ...]
    related: tuple[ArticleLink, ...]
    approved: bool
    disclosure: str  # the note under the article: `[site] disclosure` for its language, else the UI's default
    jsonld_article: Markup
    jsonld_faq: Markup | None


@dataclass(frozen=True)
class ListPage:
    """Context of `list.html`: the index (newest first) or one tag's articles."""

    lang: str
    rel: str
    canonical: str
    heading: str
    intro: str
    articles: tuple[ArticleLink, ...]
    tags: tuple[tuple[TagLink, int], ...]  # all tags with their article counts (index only)
    is_index: bool


@dataclass(frozen=True)
class FigureRow:
    """One figure of a report as the library shows it."""

    id: str
    page: int
    page_label: str | None
    labels: str
    raw: str
    unit: str
    quote: str
    href: str | None


@dataclass(frozen=True)
class ReportCard:
    """One report of the evidence library."""

    id: str
    title: str
    date: str
    access: str
    sha256: str
    version: int | None
    pages: int | None
    pdf: str | None  # relative href from the page it is shown on
    size: str | None
    href: str  # the report's own library page
    figure_count: int
    citing: tuple[ArticleLink, ...]


@dataclass(frozen=True)
class LibraryPage:
    """Context of `library.html`: every registered report."""

    lang: str
    rel: str
    canonical: str
    reports: tuple[ReportCard, ...]


@dataclass(frozen=True)
class ReportPage:
    """Context of `report.html`: one report, its figures (cited ones only when on request) and its citers."""

    lang: str
    rel: str
    canonical: str
    report: ReportCard
    figures: tuple[FigureRow, ...]
    on_request: bool


@dataclass(frozen=True)
class SimplePage:
    """Context of `search.html` and `404.html`."""

    lang: str
    rel: str
    canonical: str


@dataclass(frozen=True)
class SearchPage:
    """Context of `search.html`: the page and the version of the shard list (a new list is a new URL)."""

    lang: str
    rel: str
    canonical: str
    index_v: str


@dataclass(frozen=True)
class FeedEntry:
    """One article of the Atom feed."""

    title: str
    url: str
    published: str
    updated: str
    summary: str
    lang: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class FeedPage:
    """Context of `feed.xml`: the newest articles and the feed's last update."""

    entries: tuple[FeedEntry, ...]
    updated: str


@dataclass(frozen=True)
class SitemapPage:
    """Context of `sitemap.xml`: (absolute URL, last-modified date or None) of every public page."""

    urls: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class RobotsPage:
    """Context of `robots.txt`: the sitemap's absolute URL (preview sites ask not to be crawled at all)."""

    sitemap: str


def json_ld(data: Any) -> Markup:
    """JSON-LD safe inside a <script> block."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    # Inside <script> only `</`, `<!--` and U+2028/9 can end or confuse the block; escape them all.
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(a, b)
    return Markup(text)


def _site_lang(title: str) -> str:
    return "zh" if _CJK.search(title) else "en"


def site_context(cfg: SiteConfig, preview: bool, static_v: str) -> SiteCtx:
    """Every template's `site`, from `publish.toml`'s [site] and the static files' version."""
    base_url = cfg.base_url if cfg.base_url.endswith("/") else cfg.base_url + "/"
    return SiteCtx(
        title=cfg.title,
        brand=cfg.brand,
        description=cfg.description,
        base_url=base_url,
        base_path=urlparse(base_url).path or "/",
        contact_url=cfg.contact_url,
        lang=_site_lang(cfg.title + cfg.brand),
        static_v=static_v,
        preview=preview,
        disclosure=tuple(sorted((lang, text.replace("{brand}", cfg.brand)) for lang, text in cfg.disclosure.items())),
    )


def human_size(n: int) -> str:
    """A file size as people read it (1.2 MB)."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


_PLAIN_PATH = re.compile(r"(?:[A-Za-z0-9_~%-]+/)*[A-Za-z0-9_~%-]*\Z")
_PLAIN_BASE: dict[str, bool] = {}


def abs_url(site: SiteCtx, path: str) -> str:
    """`urljoin(base_url, path)`; for the plain relative paths the site links to (a thousand per build), the
    concatenation it amounts to when the base URL itself needs no normalising."""
    base = site.base_url
    plain = _PLAIN_BASE.get(base)
    if plain is None:
        plain = _PLAIN_BASE[base] = urljoin(base, "a/b") == base + "a/b"
    if plain and _PLAIN_PATH.match(path):
        return base + path
    return urljoin(base, path)
