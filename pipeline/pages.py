"""The site's pages: UI strings, each template's typed context, the article page, and every other page's plan."""

from __future__ import annotations

import functools
import json
import marshal
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin, urlparse

from markupsafe import Markup

from evidence.models import Figure, Report, ReportEntry
from evidence.registry import report_file
from pipeline import build as B  # the build's helpers, looked up at call time (tests patch some)
from pipeline.build import tag_slug
from qc.index import EvidenceIndex
from qc.models import ERROR_STATUSES, OK_STATUSES, NumberCheck

if TYPE_CHECKING:
    from pipeline.build import _Cache, _Item, _Plan
    from pipeline.config import ContentRoot, SiteConfig
    from pipeline.render import Mark
    from qc.draft import Draft

FEED_ENTRIES = 50
_NUM_TOKEN = re.compile(r"\d+(?:[.,]\d+)*")
_CJK = re.compile(r"[\u2e80-\u9fff]")

UI: dict[str, dict[str, str]] = {
    "zh": {
        "skip": "跳到正文",
        "nav_articles": "文章",
        "nav_evidence": "证据库",
        "nav_search": "搜索",
        "search_label": "搜索文章",
        "search_placeholder": "搜索:如 冷恢复、TTFT",
        "search_button": "搜索",
        "answer": "直接答案",
        "published": "发布",
        "updated": "更新",
        "tags": "标签",
        "faq": "本文要点问答",
        "q": "问",
        "a": "答",
        "sources": "数据出处(可查证)",
        "download": "下载报告 PDF ↓",
        "request": "联系我们获取 →",
        "library_entry": "证据库条目",
        "related": "相关文章",
        "disclosure": "本文由{brand}内容引擎撰写,发布前经过自动质检:文中每个关键数字都已与所引实测报告逐一核对,并标明出处。"
        "将鼠标移到数字上或用键盘聚焦即可查看报告、页码与原文,点击可打开报告的对应页;全部报告收录在证据库中。"
        "如有疑问或发现错误,欢迎联系我们。",
        "contact": "联系我们",
        "preview_banner": "预览:本文尚未通过人工审核,不会出现在正式站点上。",
        "tip_source": "出处",
        "tip_page": "页码",
        "tip_quote": "原文",
        "tip_derivation": "推导",
        "tip_status": "核对",
        "status_verified": "与报告数值一致",
        "status_derived": "由报告数值推算",
        "status_exempt": "无需出处",
        "status_error": "未通过质检",
        "page_n": "第 {n} 页",
        "index_title": "最新文章",
        "tag_title": "标签:{tag}",
        "n_articles": "{n} 篇文章",
        "all_tags": "全部标签",
        "evidence_title": "证据库",
        "evidence_intro": "文章引用的每一份测试报告:元数据、SHA-256 校验值、可下载的 PDF,以及报告中可引用的数据。",
        "access_public": "公开下载",
        "access_on-request": "按需提供",
        "col_id": "编号",
        "col_report": "报告",
        "col_date": "日期",
        "col_pages": "页数",
        "col_access": "获取方式",
        "col_figures": "数据条目",
        "version": "版本",
        "sha256": "SHA-256",
        "figures": "报告中的数据",
        "figures_on_request": "本报告按需提供,不在本站公开;下表只列出已发布文章引用的数据。",
        "col_label": "指标",
        "col_value": "数值",
        "col_page": "页",
        "col_quote": "原文",
        "citing": "引用本报告的文章",
        "none": "暂无",
        "search_title": "搜索",
        "search_nojs": "站内搜索需要启用 JavaScript;也可以从首页或标签页浏览全部文章。",
        "search_none": "没有找到匹配的文章。",
        "search_count": "找到 {n} 篇文章",
        "search_failed": "搜索索引加载失败,请刷新重试。",
        "not_found": "页面不存在",
        "not_found_text": "您要找的页面不存在或已移动。",
        "home": "返回首页",
        "feed": "订阅(Atom)",
        "footer": "每个数字都注明出处,并链接到报告原页。",
        "chart_note": "图中数值即文中经核对的数字。",
    },
    "en": {
        "skip": "Skip to content",
        "nav_articles": "Articles",
        "nav_evidence": "Evidence",
        "nav_search": "Search",
        "search_label": "Search articles",
        "search_placeholder": "Search, e.g. TTFT",
        "search_button": "Search",
        "answer": "The short answer",
        "published": "Published",
        "updated": "Updated",
        "tags": "Tags",
        "faq": "Key points",
        "q": "Q",
        "a": "A",
        "sources": "Data sources",
        "download": "Download PDF",
        "request": "Request it",
        "library_entry": "Evidence entry",
        "related": "Related articles",
        "disclosure": "This article was written by the {brand} content engine and checked automatically before "
        "publication: every key number was compared with the test report it cites, and names its source. Hover over "
        "or focus a number to see the report, page and quote; click it to open that page. Every report is listed in "
        "the evidence library. Questions or corrections are welcome.",
        "contact": "Contact us",
        "preview_banner": "Preview: this article has not been approved by a reviewer and is not on the public site.",
        "tip_source": "Source",
        "tip_page": "Page",
        "tip_quote": "Quote",
        "tip_derivation": "Derivation",
        "tip_status": "Check",
        "status_verified": "matches the report",
        "status_derived": "derived from the report's figures",
        "status_exempt": "needs no source",
        "status_error": "failed QC",
        "page_n": "p. {n}",
        "index_title": "Latest articles",
        "tag_title": "Tag: {tag}",
        "n_articles": "{n} articles",
        "all_tags": "All tags",
        "evidence_title": "Evidence library",
        "evidence_intro": "Every test report the articles cite: metadata, SHA-256, the PDF where it is public, "
        "and the figures it contains.",
        "access_public": "Public",
        "access_on-request": "On request",
        "col_id": "ID",
        "col_report": "Report",
        "col_date": "Date",
        "col_pages": "Pages",
        "col_access": "Access",
        "col_figures": "Figures",
        "version": "Version",
        "sha256": "SHA-256",
        "figures": "Figures in this report",
        "figures_on_request": "This report is available on request and is not published here; the table lists only "
        "the figures published articles cite.",
        "col_label": "Measures",
        "col_value": "Value",
        "col_page": "Page",
        "col_quote": "Quote",
        "citing": "Articles citing this report",
        "none": "None yet",
        "search_title": "Search",
        "search_nojs": "Search needs JavaScript; every article is also listed on the home and tag pages.",
        "search_none": "No article matches.",
        "search_count": "{n} articles found",
        "search_failed": "The search index could not be loaded; reload the page to try again.",
        "not_found": "Page not found",
        "not_found_text": "The page you are looking for does not exist or has moved.",
        "home": "Back to the home page",
        "feed": "Feed (Atom)",
        "footer": "Every number names its source and links to the report page.",
        "chart_note": "The bars show the checked numbers of the text.",
    },
}


# ---- page contexts (what each template receives as `page`) ------------------------------------------------


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


def _json_ld(data: Any) -> Markup:
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
    )


def _human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


_PLAIN_PATH = re.compile(r"(?:[A-Za-z0-9_~%-]+/)*[A-Za-z0-9_~%-]*\Z")
_PLAIN_BASE: dict[str, bool] = {}


def _abs(site: SiteCtx, path: str) -> str:
    """`urljoin(base_url, path)`; for the plain relative paths the site links to (a thousand per build), the
    concatenation it amounts to when the base URL itself needs no normalising."""
    base = site.base_url
    plain = _PLAIN_BASE.get(base)
    if plain is None:
        plain = _PLAIN_BASE[base] = urljoin(base, "a/b") == base + "a/b"
    if plain and _PLAIN_PATH.match(path):
        return base + path
    return urljoin(base, path)


def _allowed_tokens(figures: Iterable[tuple[str, list[str]]]) -> set[str]:
    out: set[str] = set()
    for raw, labels in figures:
        for s in (raw, *labels):
            out.update(t.replace(",", "") for t in _NUM_TOKEN.findall(s))
    return out


def _safe_quote(quote: str, labels: Sequence[str], raw: str, unit: str, allowed: set[str]) -> str:
    """An on-request report's quote, only if every number in it is one the site may show; else label: value."""
    if quote and all(t.replace(",", "") in allowed for t in _NUM_TOKEN.findall(quote)):
        return quote
    value = raw if (not unit or unit in raw) else f"{raw} {unit}"
    return (" · ".join(labels) + ": " if labels else "") + value


# ---- the article page (pure; runs in worker processes) ------------------------------------------------------


@dataclass(frozen=True)
class ReportInfo:
    """What an article page needs to know about a report it cites."""

    id: str
    title: str
    date: str
    access: str
    file: str


@dataclass
class ArticleJob:
    """Everything one article page depends on; its hash (with the code's) is the page's cache key."""

    draft: Draft | None  # parsed by whichever process renders the page, from `source`, when None
    numbers: list[Any] | None  # the QC result's numbers, loaded by whichever process renders the page
    site: SiteCtx
    reports: dict[str, ReportInfo]
    related: list[ArticleLink]
    approved: bool
    meta: dict[str, Any]  # the draft's metadata as the build lists it (for its search entry)
    source: tuple[Path, str, int] | None = None  # the draft's path, sha256 and size limit
    allowed: set[str] | None = None  # numbers on-request quotes may show, worked out when first needed


class _Record:
    """A JSON object with attribute access: QC's numbers as the page reads them, without pydantic validation
    (the result was validated when QC wrote it; validating it again costs a quarter of rendering its page)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)


def load_numbers(path: Path) -> list[Any]:
    """The numbers of a cached QC result (`FileResult` JSON), each with `NumberCheck`'s attributes.

    The first read of a result leaves its numbers beside it in marshal (`<key>.nums`, pruned with it), which
    loads in half the time of the JSON: a full re-render reads every article's result.
    """
    side = path.with_suffix(".nums")
    try:
        numbers = marshal.loads(side.read_bytes())
        if not isinstance(numbers, list):
            raise ValueError("not a list")
    except (OSError, ValueError, EOFError, TypeError):  # missing or damaged: the JSON result is the truth
        numbers = json.loads(path.read_bytes())["numbers"]
        B._cache_write(side, marshal.dumps(numbers))
    out: list[Any] = []
    for data in numbers:
        if data.get("source") is not None:
            data["source"] = _Record(data["source"])
        out.append(_Record(data))
    return out


def _allowed_in_quotes(job: ArticleJob) -> set[str]:
    """Numbers an on-request quote may show: those the article itself prints, and its cited figures' labels."""
    numbers = job.numbers or []
    pairs = [(n.text, n.source.labels if n.source and n.status in OK_STATUSES else []) for n in numbers]
    return _allowed_tokens(pairs)


def _marks(job: ArticleJob, text: str, numbers: list[NumberCheck], ui: dict[str, str], rel: str) -> list[Mark]:
    from pipeline.render import Mark

    marks: list[Mark] = []
    made: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # numbers resting on the same figure share their tooltip
    for n in numbers:
        if not (0 <= n.start < n.end <= len(text)) or text[n.start : n.end] != n.text:
            continue  # offsets that do not point at the number's text would wrap the wrong words
        failed = n.status in ERROR_STATUSES
        if n.source is None and not n.derivation and not failed:
            continue  # exempt numbers (years, model sizes) make no claim to link
        key = (n.source.figure if n.source else None, n.text, n.status, n.derivation, n.message)
        if key not in made:
            made[key] = _shared_tooltip(job, n, failed, ui, rel)
        marks.append(Mark(n.start, n.end, *made[key]))
    return marks


# Tooltips that show nothing particular to one article (a public report's figure, or no source), shared by the pages
# one process renders: a build's articles cite the same figures over and over.
_TIPS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_TIPS_MAX = 16_384


def _shared_tooltip(job: ArticleJob, n: NumberCheck, failed: bool, ui: dict[str, str], rel: str) -> tuple[Any, ...]:
    src = n.source
    info = job.reports.get(src.report) if src is not None else None
    lang = job.draft.meta.lang if job.draft is not None else ""
    if (src is not None and (info is None or info.access != "public")) or ui is not UI.get(lang):
        return _tooltip(job, n, failed, ui, rel)  # an on-request quote depends on what this article prints
    where = (src.report, src.figure, src.page, src.page_label, src.quote) if src is not None else None
    key = (lang, rel, info, where, n.derivation, n.status, n.message, failed)
    tip = _TIPS.get(key)
    if tip is None:
        if len(_TIPS) >= _TIPS_MAX:
            _TIPS.clear()
        tip = _TIPS[key] = _tooltip(job, n, failed, ui, rel)
    return tip


_quote = lru_cache(maxsize=4096)(quote)  # a page quotes the same few report files and ids for every number


def _tooltip(job: ArticleJob, n: NumberCheck, failed: bool, ui: dict[str, str], rel: str) -> tuple[Any, ...]:
    """(href, tip rows, kind, data attributes) of one checked number."""
    rows: list[tuple[str, str]] = []
    data: list[tuple[str, str]] = []
    href = None
    info = job.reports.get(n.source.report) if n.source is not None else None
    confidential = n.source is not None and (info is None or info.access != "public")
    if n.source is not None and not (failed and confidential):
        # A failed number's nearest figure of an on-request report is not cited: nothing of it is shown.
        src = n.source
        rows.append((ui["tip_source"], f"{src.report} · {info.title}" if info else src.report))
        page = ui["page_n"].format(n=src.page) + (
            f" ({src.page_label})" if src.page_label and src.page_label != str(src.page) else ""
        )
        rows.append((ui["tip_page"], page))
        public = info is not None and info.access == "public"
        if public:
            quote_text = src.quote
        else:
            if job.allowed is None:
                job.allowed = _allowed_in_quotes(job)
            quote_text = _safe_quote(src.quote, src.labels, n.text, src.unit, job.allowed)
        if quote_text:
            rows.append((ui["tip_quote"], f"“{quote_text}”"))
        if info is not None:
            href = (
                f"{rel}reports/{_quote(info.file)}#page={src.page}"
                if public
                else f"{rel}evidence/{_quote(src.report)}/#fig-{src.figure}"
            )
        data = [("report", src.report), ("page", str(src.page)), ("figure", src.figure)]
    if n.derivation:
        rows.append((ui["tip_derivation"], n.derivation))
    status = "error" if failed else n.status
    note = ui.get(f"status_{status}", status)
    if failed and n.message and not confidential:
        note = f"{note}: {n.message}"
    rows.append((ui["tip_status"], note))
    return href, tuple(rows), status, tuple(data)


def render_article(job: ArticleJob) -> tuple[str, dict[str, str], str]:
    """The article page's HTML, its plain title and answer (for listings and feeds) and its search.json entry."""
    from pipeline.charts import section_charts
    from pipeline.render import render_field

    assert job.draft is not None, "the draft is parsed before rendering"
    draft, meta, site = job.draft, job.draft.meta, job.site
    lang = meta.lang
    ui = UI[lang]
    rel = "../../"
    assert job.numbers is not None, "the QC result is loaded before rendering"
    by_field: dict[str, list[NumberCheck]] = {}
    for n in job.numbers:
        by_field.setdefault(n.field, []).append(n)
    ids = list(dict.fromkeys(meta.evidence))

    def cite_href(rid: str) -> str | None:
        return f"#src-{rid}" if rid in job.reports else None

    def field_html(name: str, text: str, *, inline: bool, prefix: str, after: dict[int, str] | None = None) -> Any:
        marks = _marks(job, text, by_field.get(name, []), ui, rel)
        return render_field(text, marks, inline=inline, cite_href=cite_href, id_prefix=prefix, after_section=after)

    title = field_html("title", meta.title, inline=True, prefix="nt")
    answer = field_html("answer", meta.answer, inline=True, prefix="na")
    charts = section_charts(
        draft.body,
        by_field.get("body", []),
        lang=lang,
        report_titles={rid: r.title for rid, r in job.reports.items()},
    )
    body = field_html("body", draft.body, inline=False, prefix="nb", after=charts)
    faq = []
    faq_plain = []
    for i, qa in enumerate(meta.faq):
        q = field_html(f"faq.{i}.q", qa.q, inline=True, prefix=f"nq{i}-")
        a = field_html(f"faq.{i}.a", qa.a, inline=True, prefix=f"nf{i}-")
        faq.append(QAItem(q.html, a.html))
        faq_plain.append((q.text, a.text))
    cited = ids + [r for r in _cited_ids(draft) if r not in ids]
    sources = tuple(
        SourceEntry(
            id=rid,
            title=job.reports[rid].title,
            date=job.reports[rid].date,
            access=job.reports[rid].access,
            pdf=f"{rel}reports/{quote(job.reports[rid].file)}" if job.reports[rid].access == "public" else None,
            library=f"{rel}evidence/{quote(rid)}/",
        )
        for rid in cited
        if rid in job.reports
    )
    canonical = _abs(site, f"articles/{draft.slug}/")
    date = meta.date.isoformat()
    updated = meta.updated.isoformat() if meta.updated else None
    tags = tuple(TagLink(t, tag_slug(t), f"{rel}tags/{quote(tag_slug(t))}/") for t in meta.tags)
    org = {"@type": "Organization", "name": site.brand, "url": site.base_url}
    article_ld = {
        "@context": "https://schema.org",
        "@type": "TechArticle",
        "headline": title.text,
        "description": answer.text,
        "inLanguage": "zh-CN" if lang == "zh" else "en",
        "datePublished": date,
        "dateModified": updated or date,
        "keywords": list(meta.tags),
        "author": org,
        "publisher": org,
        "mainEntityOfPage": {"@type": "WebPage", "@id": canonical},
        "url": canonical,
        "citation": [
            {
                "@type": "Report",
                "name": s.title,
                "datePublished": s.date,
                **({"url": _abs(site, f"reports/{quote(job.reports[s.id].file)}")} if s.pdf else {}),
            }
            for s in sources
        ],
    }
    faq_ld = (
        {
            "@context": "https://schema.org",
            "@type": "FAQPage",
            "inLanguage": article_ld["inLanguage"],
            "mainEntity": [
                {"@type": "Question", "name": q, "acceptedAnswer": {"@type": "Answer", "text": a}} for q, a in faq_plain
            ],
        }
        if faq_plain
        else None
    )
    page = ArticlePage(
        slug=draft.slug,
        lang=lang,
        rel=rel,
        canonical=canonical,
        title_html=title.html,
        title_text=title.text,
        description=answer.text,
        date=date,
        updated=updated,
        tags=tags,
        answer_html=answer.html,
        body_html=body.html,
        faq=tuple(faq),
        sources=sources,
        related=tuple(job.related),
        approved=job.approved,
        jsonld_article=_json_ld(article_ld),
        jsonld_faq=_json_ld(faq_ld) if faq_ld else None,
    )
    html = B._render_template("article.html", site=site, page=page, ui=ui, rel=rel)
    entry = {
        "u": f"articles/{draft.slug}/",
        "t": title.text,
        "a": answer.text,
        "b": body.text,
        "g": list(job.meta.get("tags") or []),
        "d": str(job.meta["date"]),
        "l": job.meta.get("lang", "zh"),
    }
    fragment = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
    return html, {"title": title.text, "answer": answer.text}, fragment


def _cited_ids(draft: Draft) -> list[str]:
    from qc.draft import citations

    out: list[str] = []
    for text in (draft.meta.answer, draft.body, *(x for qa in draft.meta.faq for x in (qa.q, qa.a))):
        for _s, _e, ids in citations(text):
            out.extend(i for i in ids if i not in out)
    return out


def article_link(it: _Item, rel: str, *, with_answer: bool = True) -> ArticleLink:
    tags = tuple(TagLink(t, tag_slug(t), f"{rel}tags/{quote(tag_slug(t))}/") for t in it.tags)
    answer = it.texts.get("answer") if it.texts and with_answer else None
    return ArticleLink(
        slug=it.slug,
        title=str(it.meta["title"]),
        date=it.date,
        href=f"{rel}articles/{it.slug}/",
        lang=str(it.meta.get("lang", "zh")),
        answer=answer or "",
        tags=tags,
    )


def plan_site(
    plan: _Plan,
    root: ContentRoot,
    site: SiteCtx,
    items: list[_Item],
    registry: list[ReportEntry],
    get_index: Callable[[], EvidenceIndex],
    versions: dict[str, str],
    cache: _Cache,
    code: str,
    site_key: str,
    old_shards: SearchShards,
    present: set[str],
) -> tuple[set[str], list[str]]:
    """Plan every file of the site but the article pages, rendering only pages whose inputs changed.

    Each listing's cache key is a hash of what its entries show, worked out before (and instead of) building its
    context; returns the generated pages' cache keys and the keys of the search shards (whose entries the next
    build splices, as this one does from `old_shards`). `present` lists the page cache's files.
    """
    keys: set[str] = set()

    def emit_as(key: str, rel_path: str, template: str, make: Callable[[], dict[str, Any]]) -> None:
        """Link the page an earlier build rendered under `key`, or render it from the context `make()` returns."""
        keys.add(key)
        cached = cache.page_path(key)
        if f"{key}.html" not in present:
            B._cache_write(cached, B._render_template(template, **make()))
        plan.link(rel_path, cached, key)

    def emit(rel_path: str, template: str, **ctx: Any) -> None:
        """A small page, keyed by its whole context."""
        emit_as(B._h("gen", code, template, rel_path, sorted(ctx.items())), rel_path, template, lambda: ctx)

    ui = UI[site.lang]
    for p in B._tree_files(B.STATIC):
        plan.copy(f"static/{p.relative_to(B.STATIC).as_posix()}", p)
    # Public PDFs only; on-request reports never leave the content root.
    files = {e.id: report_file(root.reports, e) for e in registry}  # a symlink out of reports/ is refused
    for e in registry:
        if e.access == "public" and files[e.id].is_file():
            plan.copy(f"reports/{e.file}", files[e.id])

    links: dict[tuple[str, str], ArticleLink] = {}

    def listing(rel: str, subset: Iterable[_Item]) -> tuple[ArticleLink, ...]:
        out = []
        for it in subset:
            link = links.get((it.slug, rel))
            if link is None:
                link = links[(it.slug, rel)] = article_link(it, rel)
            out.append(link)
        return tuple(out)

    # What an article's entry in a listing shows, once per article: listings are keyed by these.
    sig = {
        it.slug: repr((it.slug, it.meta["title"], it.date, it.meta.get("lang"), it.texts.get("answer"), it.tags))
        for it in items
    }

    def sigs(subset: Iterable[_Item]) -> str:
        return B.sha256_bytes("\n".join(sig[it.slug] for it in subset))

    tag_items: dict[str, list[_Item]] = {}
    tag_names: dict[str, str] = {}
    for it in items:
        for t in it.tags:
            s = tag_slug(t)
            tag_names.setdefault(s, t)
            if not tag_items.get(s) or tag_items[s][-1] is not it:
                tag_items.setdefault(s, []).append(it)

    def index_ctx() -> dict[str, Any]:
        tag_counts = tuple(
            (TagLink(tag_names[s], s, f"tags/{quote(s)}/"), len(v))
            for s, v in sorted(tag_items.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        )
        page = ListPage(
            site.lang, "", site.base_url, ui["index_title"], site.description, listing("", items), tag_counts, True
        )
        return {"site": site, "ui": ui, "rel": "", "page": page}

    emit_as(B._h("index", code, site_key, sigs(items)), "index.html", "list.html", index_ctx)

    def tag_ctx(s: str, its: list[_Item]) -> dict[str, Any]:
        page = ListPage(
            site.lang,
            "../../",
            _abs(site, f"tags/{quote(s)}/"),
            ui["tag_title"].format(tag=tag_names[s]),
            ui["n_articles"].format(n=len(its)),
            listing("../../", its),
            (),
            False,
        )
        return {"site": site, "ui": ui, "rel": "../../", "page": page}

    for s, its in tag_items.items():
        key = B._h("tag", code, site_key, s, tag_names[s], sigs(its))
        emit_as(key, f"tags/{s}/index.html", "list.html", functools.partial(tag_ctx, s, its))

    # Evidence library: what each report is, and which articles cite it.
    citing: dict[str, list[_Item]] = {}
    for it in items:
        for rid in dict.fromkeys([*it.evidence, *it.cited_reports]):
            citing.setdefault(rid, []).append(it)
    # The library's pages depend on the reports' versions, the cited figures and the citing drafts (what their
    # links show, and the figures they cite): when none of those changed, link last build's pages without loading
    # the evidence index at all.
    cite_sig = {it.slug: B.sha256_bytes(f"{sig[it.slug]}\n{it.cited}")[:16] for it in items}
    lib_key = B._h(
        "library",
        code,
        site_key,
        [
            (
                repr(e),
                versions.get(e.id),
                [cite_sig[x.slug] for x in citing.get(e.id, [])],
                files[e.id].stat().st_size if files[e.id].is_file() else None,
            )
            for e in registry
        ],
    )
    lib_pages = ["evidence/index.html", *(f"evidence/{e.id}/index.html" for e in registry)]
    if all(f"{B._h(lib_key, lp)}.html" in present for lp in lib_pages):
        for lp in lib_pages:
            emit_as(B._h(lib_key, lp), lp, "", dict)
        lib_pages = []
    else:
        _plan_library(emit_as, lib_key, site, ui, registry, files, citing, get_index(), listing, cache)

    # Search: search.json names the shards holding the articles' entries. An edit rewrites one shard, not the whole
    # index, and a reader's browser shows results as shards arrive. Shard file names carry their content key, so a
    # browser never mixes shards of two builds.
    search_keys: list[str] = []
    shard_files: list[str] = []
    for i, members in enumerate(search_shards(items)):
        key = B._h("search", code, i, [(it.slug, it.page_key) for it in members])
        keys.add(key)
        search_keys.append(key)
        if f"{key}.html" not in present:
            text, offsets = _splice_search(members, old_shards)
            B._cache_write(cache.offsets_path(key), json.dumps(offsets))
            B._cache_write(cache.page_path(key), text)
        shard_files.append(f"search/{i}-{key[:12]}.json")
        plan.link(shard_files[-1], cache.page_path(key), key)
    manifest = json.dumps({"articles": len(items), "shards": shard_files}, ensure_ascii=False)
    manifest_key = B._h("search-manifest", manifest)
    keys.add(manifest_key)
    if f"{manifest_key}.html" not in present:
        B._cache_write(cache.page_path(manifest_key), manifest + "\n")
    plan.link("search.json", cache.page_path(manifest_key), manifest_key)
    emit(
        "search/index.html",
        "search.html",
        site=site,
        ui=ui,
        rel="../",
        page=SimplePage(site.lang, "../", _abs(site, "search/")),
        index_v=manifest_key[:10],  # a new list of shards is a new URL: no browser keeps last build's list
    )
    emit(
        "404.html",
        "404.html",
        site=site,
        ui=ui,
        rel=site.base_path,
        page=SimplePage(site.lang, site.base_path, _abs(site, "404.html")),
    )
    feed_items = [
        {
            "title": it.texts.get("title", it.meta["title"]),
            "url": _abs(site, f"articles/{it.slug}/"),
            "published": f"{it.date}T00:00:00Z",
            "updated": f"{it.meta.get('updated') or it.date}T00:00:00Z",
            "summary": it.texts.get("answer", ""),
            "lang": it.meta.get("lang", "zh"),
            "tags": it.tags,
        }
        for it in items[:FEED_ENTRIES]
    ]
    feed_updated = max((f["updated"] for f in feed_items), default="1970-01-01T00:00:00Z")
    emit("feed.xml", "feed.xml", site=site, ui=ui, entries=feed_items, updated=feed_updated)
    urls: list[tuple[str, str | None]] = [(site.base_url, None)]
    urls += [(_abs(site, f"articles/{it.slug}/"), str(it.meta.get("updated") or it.date)) for it in items]
    urls += [(_abs(site, f"tags/{quote(s)}/"), None) for s in tag_items]
    urls += [(_abs(site, "evidence/"), None)] + [(_abs(site, f"evidence/{quote(e.id)}/"), None) for e in registry]
    emit("sitemap.xml", "sitemap.xml", site=site, urls=urls)
    emit("robots.txt", "robots.txt", site=site, sitemap=_abs(site, "sitemap.xml"))
    return keys, search_keys


def _plan_library(
    emit_as: Callable[..., None],
    lib_key: str,
    site: SiteCtx,
    ui: dict[str, str],
    registry: list[ReportEntry],
    files: dict[str, Path],
    citing: dict[str, list[_Item]],
    index: EvidenceIndex,
    listing: Callable[[str, Iterable[_Item]], tuple[ArticleLink, ...]],
    cache: _Cache,
) -> None:
    """The evidence library's index and one page per report (on-request reports: only their cited figures)."""
    cited_figures: dict[str, set[str]] = {}
    for it in {id(it): it for its in citing.values() for it in its}.values():
        for rid, fid in cache.cited(it.qc_key):
            cited_figures.setdefault(rid, set()).add(fid)
    cards: dict[str, tuple[ReportCard, list[Figure]]] = {}
    for e in registry:
        rep: Report | None = index.reports.get(e.id)
        figs = index.figures.get(e.id, [])
        if e.access != "public":
            figs = [f for f in figs if f.id in cited_figures.get(e.id, set())]
        src = files[e.id]
        card_args = dict(
            id=e.id,
            title=e.title,
            date=e.date.isoformat(),
            access=e.access,
            sha256=rep.sha256 if rep else "",
            version=rep.version if rep else None,
            pages=rep.pages if rep else None,
            size=_human_size(src.stat().st_size) if e.access == "public" and src.is_file() else None,
            figure_count=len(figs),
        )
        cards[e.id] = (
            ReportCard(
                **card_args,  # type: ignore[arg-type]
                pdf=f"../reports/{quote(e.file)}" if e.access == "public" and src.is_file() else None,
                href=f"{quote(e.id)}/",
                citing=listing("../", citing.get(e.id, [])),
            ),
            figs,
        )
    lib = LibraryPage(site.lang, "../", _abs(site, "evidence/"), tuple(c for c, _ in cards.values()))
    first = "evidence/index.html"
    emit_as(B._h(lib_key, first), first, "library.html", lambda: {"site": site, "ui": ui, "rel": "../", "page": lib})
    for e in registry:
        card, figs = cards[e.id]
        public = e.access == "public" and card.pdf is not None
        allowed = _allowed_tokens((f.raw, f.labels) for f in figs)
        rows = tuple(
            FigureRow(
                id=f.id,
                page=f.page,
                page_label=f.page_label,
                labels=" · ".join(f.labels),
                raw=f.raw,
                unit=f.unit,
                quote=f.quote if public else _safe_quote(f.quote, f.labels, f.raw, f.unit, allowed),
                href=f"../../reports/{quote(e.file)}#page={f.page}" if public else None,
            )
            for f in figs
        )
        deep = _rebase_card(card, "../../", listing("../../", citing.get(e.id, [])), e.file)
        rpage = ReportPage(site.lang, "../../", _abs(site, f"evidence/{quote(e.id)}/"), deep, rows, not public)
        path = f"evidence/{e.id}/index.html"
        ctx = {"site": site, "ui": ui, "rel": "../../", "page": rpage}
        emit_as(B._h(lib_key, path), path, "report.html", lambda ctx=ctx: ctx)


SEARCH_SHARD = 256  # articles per search shard, at most on average


def search_shards(items: list[_Item]) -> list[list[_Item]]:
    """The articles split into a power of two of shards by a hash of their slug, so an article stays in its shard
    while others come and go (all move only when the count of shards doubles); order within a shard is kept."""
    k = 1
    while len(items) > k * SEARCH_SHARD:
        k *= 2
    shards: list[list[_Item]] = [[] for _ in range(k)]
    for it in items:
        shards[zlib.crc32(it.slug.encode("utf-8")) % k].append(it)
    return shards


class SearchShards:
    """The last build's search shards: where each article's entry lies in them, and their bytes once read.

    Only shards whose file is in the page cache (`present`) and long enough for their offsets count: a page whose
    entry is not found here is rendered again, which makes its entry anew."""

    def __init__(self, cache: _Cache, keys: list[str] | None, present: set[str]) -> None:
        self.cache = cache
        self.where: dict[str, tuple[str, int, int]] = {}
        self._data: dict[str, bytes | None] = {}
        for key in keys if isinstance(keys, list) else []:
            if f"{key}.html" not in present:
                continue
            try:
                spans = json.loads(cache.offsets_path(key).read_bytes())
                size = cache.page_path(key).stat().st_size
                where = {k: (key, a, b) for k, a, b in spans}
            except (OSError, ValueError, TypeError):
                continue
            if all(isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= size for _, a, b in where.values()):
                self.where.update(where)

    def has(self, page_key: str) -> bool:
        return page_key in self.where

    def entry(self, page_key: str) -> bytes | None:
        """An article's entry as the last build wrote it, or None."""
        span = self.where.get(page_key)
        if span is None:
            return None
        key, a, b = span
        if key not in self._data:
            try:
                self._data[key] = self.cache.page_path(key).read_bytes()
            except OSError:
                self._data[key] = None
        data = self._data[key]
        return data[a:b] if data is not None and b <= len(data) else None


def _splice_search(items: list[_Item], old: SearchShards) -> tuple[bytes, list[list[Any]]]:
    """One search shard: every article's entry, as this build rendered it or cut from the last build's shards;
    with each entry's byte offsets, for the next build."""
    parts = [b"["]
    offsets: list[list[Any]] = []
    pos = 1
    for i, it in enumerate(items):
        if i:
            parts.append(b",")
            pos += 1
        entry = it.entry or old.entry(it.page_key)
        if entry is None:  # the build reused this page because its entry was there: gone since, mid-build
            raise B.BuildError(f"the search cache changed during the build; run it again (article {it.slug})")
        parts.append(entry)
        offsets.append([it.page_key, pos, pos + len(entry)])
        pos += len(entry)
    parts.append(b"]")
    return b"".join(parts), offsets


def _rebase_card(card: ReportCard, rel: str, citing: tuple[ArticleLink, ...], file: str) -> ReportCard:
    """The same card as seen from a report's own page, one folder deeper."""
    return ReportCard(
        id=card.id,
        title=card.title,
        date=card.date,
        access=card.access,
        sha256=card.sha256,
        version=card.version,
        pages=card.pages,
        pdf=f"{rel}reports/{quote(file)}" if card.pdf else None,
        size=card.size,
        href="./",
        figure_count=card.figure_count,
        citing=citing,
    )
