"""The static site: every approved article with its numbers' provenance, rendered to a temp dir and swapped in."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, urljoin, urlparse

from markupsafe import Markup

from evidence.errors import BuildError, InputError, PublishError
from evidence.fsutil import atomic_write, recover_dir, replace_dir, sha256_bytes
from evidence.models import Figure, Report, ReportEntry
from evidence.registry import REGISTRY_NAME, load_registry, report_file
from pipeline.brief import SLUG
from pipeline.config import CONFIG_NAME, ContentRoot
from qc.draft import Draft, check_article_size, parse_draft
from qc.index import EvidenceIndex
from qc.models import ERROR_STATUSES, OK_STATUSES, FileResult, NumberCheck

if TYPE_CHECKING:  # Jinja2 and Markdown load only when something is rendered: a no-op build needs neither
    import jinja2

    from pipeline.render import Mark

Echo = Callable[..., None]
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SITE_TEMPLATES = TEMPLATES / "site"
STATIC = TEMPLATES / "static"
_CODE = [Path(__file__), Path(__file__).with_name("render.py"), Path(__file__).with_name("charts.py")]
_QC_CODE = Path(__file__).resolve().parent.parent / "qc"
MARKER = ".proofpress-build"  # in the output: the build key, and proof the folder is ours to replace
STATE_VERSION = "3"
_META_KEYS = {"title", "lang", "date", "updated", "tags", "evidence"}  # what listings, links and cache keys need
POOL_MIN = 24  # below this many renders, starting worker processes costs more than it saves
RELATED_K, RELATED_WINDOW = 4, 3
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


# ---- results ------------------------------------------------------------------------------------------------


@dataclass
class BuildSummary:
    """What a build produced: the output folder, how many article pages were rendered or reused, and where."""

    out: Path
    written: int
    reused: int
    articles: dict[str, Path] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # drafts left out because they are not approved
    files: int = 0
    seconds: float = 0.0

    def page_for(self, slug: str) -> Path:
        """The built page of an article; BuildError if it was not built (e.g. not approved)."""
        try:
            return self.articles[slug]
        except KeyError:
            raise BuildError(f"article {slug!r} was not built (not approved?)", path=self.out) from None

    def __str__(self) -> str:
        extra = f"; {len(self.skipped)} not approved ({', '.join(self.skipped[:5])})" if self.skipped else ""
        return (
            f"built {len(self.articles)} article(s) into {self.out} "
            f"({self.written} rendered, {self.reused} reused, {self.seconds:.2f}s){extra}"
        )


# ---- dependencies (injected so tests need neither PDFs nor the full QC) -------------------------------------


class Evidence(Protocol):
    def versions(self) -> dict[str, str]: ...
    def index(self) -> EvidenceIndex: ...


Check = Callable[[Draft, EvidenceIndex, dict[str, str]], FileResult]
Approve = Callable[[Draft, FileResult, EvidenceIndex, Path], bool]


class StoreEvidence:
    """The evidence store of a content root: cheap version lookups, the full index only when needed."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def versions(self) -> dict[str, str]:
        if not self.path.is_file():
            return {}
        from evidence.store import Store

        with Store(self.path, readonly=True) as store:
            return {r.id: f"{r.sha256}:{r.version}" for r in store.reports()}

    def index(self) -> EvidenceIndex:
        if not self.path.is_file():
            return EvidenceIndex()
        from evidence.store import Store

        with Store(self.path, readonly=True) as store:
            return EvidenceIndex.load(store)


class IndexEvidence:
    """Evidence from an index built in memory (tests, tools)."""

    def __init__(self, index: EvidenceIndex) -> None:
        self._index = index

    def versions(self) -> dict[str, str]:
        return {rid: f"{r.sha256}:{r.version}" for rid, r in self._index.reports.items()}

    def index(self) -> EvidenceIndex:
        return self._index


def default_check(draft: Draft, index: EvidenceIndex, severity: dict[str, str]) -> FileResult:
    from qc.check import check_draft

    return check_draft(draft, index, severity=severity or None)


def default_approve(draft: Draft, result: FileResult, index: EvidenceIndex, approvals: Path) -> bool:
    from qc.review import approval_status

    return approval_status(draft, result, index, approvals).approved


# ---- helpers ------------------------------------------------------------------------------------------------


def _h(*parts: Any) -> str:
    """A cache key: the hash of the parts' repr (built from str, int, tuple, list, dict and dataclass values)."""
    return sha256_bytes(repr(parts))[:32]


def _files_hash(paths: Iterable[Path]) -> str:
    return _h(*[(str(p.name), sha256_bytes(p.read_bytes())) for p in sorted(paths) if p.is_file()])


def _tree_files(root: Path, pattern: str = "*") -> list[Path]:
    # Bytecode caches are not sources: a fresh .pyc must not change a build key.
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts)


@lru_cache(maxsize=65536)
def tag_slug(tag: str) -> str:
    """A tag's folder name: NFKC, lower case, runs of anything but letters and digits → '-'."""
    s = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFKC", tag).lower()).strip("-")
    return s or "tag-" + sha256_bytes(tag)[:8]


def _json_ld(data: Any) -> Markup:
    text = json.dumps(data, ensure_ascii=False, indent=1)
    # Inside <script> only `</`, `<!--` and U+2028/9 can end or confuse the block; escape them all.
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(a, b)
    return Markup(text)


def _site_lang(title: str) -> str:
    return "zh" if _CJK.search(title) else "en"


def _human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


def _abs(site: SiteCtx, path: str) -> str:
    return urljoin(site.base_url, path)


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

    draft: Draft
    result: FileResult | None  # loaded from the QC cache by whichever process renders the page
    site: SiteCtx
    reports: dict[str, ReportInfo]
    related: list[ArticleLink]
    approved: bool
    allowed: set[str] | None = None  # numbers on-request quotes may show, worked out when first needed


def _allowed_in_quotes(job: ArticleJob) -> set[str]:
    """Numbers an on-request quote may show: those the article itself prints, and its cited figures' labels."""
    numbers = job.result.numbers if job.result else []
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
            made[key] = _tooltip(job, n, failed, ui, rel)
        marks.append(Mark(n.start, n.end, *made[key]))
    return marks


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
                f"{rel}reports/{quote(info.file)}#page={src.page}"
                if public
                else f"{rel}evidence/{quote(src.report)}/#fig-{src.figure}"
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


def _render_article(job: ArticleJob) -> tuple[str, dict[str, str]]:
    """The article page's HTML and its plain texts (title, answer, body) for search and feeds."""
    from pipeline.charts import section_charts
    from pipeline.render import render_field

    draft, meta, site = job.draft, job.draft.meta, job.site
    lang = meta.lang
    ui = UI[lang]
    rel = "../../"
    assert job.result is not None, "the QC result is loaded before rendering"
    by_field: dict[str, list[NumberCheck]] = {}
    for n in job.result.numbers:
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
    html = _render_template("article.html", site=site, page=page, ui=ui, rel=rel)
    return html, {"title": title.text, "answer": answer.text, "body": body.text}


def _cited_ids(draft: Draft) -> list[str]:
    from qc.draft import citations

    out: list[str] = []
    for text in (draft.meta.answer, draft.body, *(x for qa in draft.meta.faq for x in (qa.q, qa.a))):
        for _s, _e, ids in citations(text):
            out.extend(i for i in ids if i not in out)
    return out


# ---- templates ----------------------------------------------------------------------------------------------

_ENV: dict[str, jinja2.Environment] = {}


def _env() -> jinja2.Environment:
    import jinja2

    key = str(SITE_TEMPLATES)  # read at call time, so a test can point the build at other templates
    if key not in _ENV:
        _ENV[key] = jinja2.Environment(
            loader=jinja2.FileSystemLoader(key),
            undefined=jinja2.StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
    return _ENV[key]


def _template_error(e: Exception) -> BuildError:
    """A Jinja error as a BuildError naming the template file and line."""
    import jinja2

    if isinstance(e, jinja2.TemplateSyntaxError):
        return BuildError(f"template error: {e.message}", path=e.filename or e.name, line=e.lineno)
    tb = e.__traceback__
    where: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if fn.startswith(str(TEMPLATES)) or fn.endswith((".html", ".xml", ".txt")):
            where = (fn, tb.tb_lineno)
        tb = tb.tb_next
    return BuildError(f"template error: {e}", path=where[0], line=where[1])


def _render_template(name: str, **ctx: Any) -> str:
    import jinja2

    try:
        return _env().get_template(name).render(**ctx)
    except jinja2.TemplateError as e:
        raise _template_error(e) from e


# ---- worker processes ---------------------------------------------------------------------------------------

# What forked workers inherit: the tasks and their shared inputs. Tasks travel as indexes, so no draft, index or
# QC result is ever pickled (unpickling a large pydantic result costs more than rendering its page).
_W: dict[str, Any] = {}


@dataclass
class _GateTask:
    """QC (unless its result is cached) and the approval gate of one draft."""

    draft: Draft
    qc_path: Path
    need_qc: bool


def _gate_task(i: int) -> tuple[list[list[str]], bool]:
    task: _GateTask = _W["gate"][i]
    sub = _sub_index(_W["index"], task.draft.meta.evidence)
    if task.need_qc:
        result = _W["check"](task.draft, sub, _W["severity"])
        _cache_write(task.qc_path, result.model_dump_json())
    else:
        result = FileResult.model_validate_json(task.qc_path.read_text(encoding="utf-8"))
    # Only figures a number rests on count as cited; a failed number's nearest figure is not cited.
    cited = [[n.source.report, n.source.figure] for n in result.numbers if n.source and n.status in OK_STATUSES]
    return cited, bool(_W["approve"](task.draft, result, sub, _W["approvals"]))


def _render_task(i: int) -> dict[str, str]:
    job, qc_path, page_path, body_path = _W["render"][i]
    if job.result is None:
        job.result = FileResult.model_validate_json(qc_path.read_text(encoding="utf-8"))
    html, texts = _render_article(job)
    _cache_write(page_path, html)
    _cache_write(body_path, texts.pop("body"))
    return texts


def _sub_index(index: EvidenceIndex, ids: Iterable[str]) -> EvidenceIndex:
    wanted = [i for i in dict.fromkeys(ids) if i in index.reports]
    return EvidenceIndex(
        reports={i: index.reports[i] for i in wanted},
        figures={i: index.figures.get(i, []) for i in wanted},
        pages={i: index.pages.get(i, []) for i in wanted},
    )


def _run(fn: Callable[[int], Any], n: int) -> list[Any]:
    """fn(0..n-1), on both cores when there are enough tasks and forking is safe, else in this process."""
    fork = "fork" in multiprocessing.get_all_start_methods()
    # With other threads alive (publish serve's HTTP server) forking is unsafe: such builds stay in-process.
    if n < POOL_MIN or (os.cpu_count() or 1) < 2 or not fork or threading.active_count() > 1:
        return [fn(i) for i in range(n)]
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(fn, range(n), chunksize=max(1, n // 32)))


# ---- the build ----------------------------------------------------------------------------------------------


@dataclass
class _Item:
    """One draft as the build tracks it (metadata as plain JSON data, so unchanged drafts need no parsing)."""

    name: str
    path: Path
    sha: str
    meta: dict[str, Any]
    slug: str
    draft: Draft | None = None
    qc_key: str = ""
    cited: list[list[str]] = field(default_factory=list)  # [report, figure] of every sourced number
    approval_key: str = ""
    approved: bool = False
    page_key: str = ""
    texts: dict[str, str] = field(default_factory=dict)

    @property
    def date(self) -> str:
        return str(self.meta["date"])

    @property
    def tags(self) -> list[str]:
        return list(self.meta.get("tags") or [])

    @property
    def evidence(self) -> list[str]:
        return list(self.meta.get("evidence") or [])


class _Cache:
    """Derived build state under `.publish/site/`: per-draft metadata and keys, QC results, rendered pages."""

    def __init__(self, root: ContentRoot) -> None:
        self.dir = root.state / "site"
        self.state_path = self.dir / "state.json"
        self.last_path = self.dir / "last.json"  # small, so a no-op build never reads the big state file

    @staticmethod
    def _read(path: Path) -> dict[str, Any]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError, OSError):
            return {}
        return data if isinstance(data, dict) and data.get("version") == STATE_VERSION else {}

    def load(self) -> dict[str, Any]:
        return self._read(self.state_path)

    def last(self) -> dict[str, Any]:
        return self._read(self.last_path)

    def save(self, drafts: dict[str, Any], last: dict[str, Any]) -> None:
        atomic_write(self.state_path, json.dumps({"version": STATE_VERSION, "drafts": drafts}, ensure_ascii=False))
        atomic_write(self.last_path, json.dumps({"version": STATE_VERSION, **last}, ensure_ascii=False))

    def result_path(self, key: str) -> Path:
        return self.dir / "qc" / f"{key}.json"

    def page_path(self, key: str) -> Path:
        return self.dir / "pages" / f"{key}.html"

    def manifest_path(self, build_key: str) -> Path:
        return self.dir / "manifests" / f"{build_key}.json"

    def manifest(self, build_key: str) -> dict[str, str] | None:
        try:
            data = json.loads(self.manifest_path(build_key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def save_manifest(self, build_key: str, files: dict[str, str]) -> None:
        _cache_write(self.manifest_path(build_key), json.dumps(files, ensure_ascii=False))

    def keep_manifests(self, keep: set[str]) -> None:
        folder = self.dir / "manifests"
        for p in folder.glob("*.json") if folder.is_dir() else []:
            if p.stem not in keep:
                p.unlink(missing_ok=True)

    def body_path(self, key: str) -> Path:
        """The plain body text of an article page (for search.json), beside the page itself."""
        return self.dir / "pages" / f"{key}.txt"

    def prune(self, keep_results: set[str], keep_pages: set[str]) -> None:
        for sub, keep in (("qc", keep_results), ("pages", keep_pages)):
            folder = self.dir / sub
            if folder.is_dir():
                for p in folder.iterdir():
                    if p.stem not in keep and not p.name.startswith("."):
                        p.unlink(missing_ok=True)


def _guard_out(root: ContentRoot, out: Path) -> None:
    src = root.path.resolve()
    for p in (src, root.reports.resolve(), root.articles.resolve(), root.approvals.resolve(), root.state.resolve()):
        if out == p or p.is_relative_to(out) or (out.is_relative_to(p) and p != src):
            raise InputError(
                "the output folder would replace the content root's own files; choose another --out", path=out
            )
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise InputError(f"{out} exists and was not built by Proofpress; remove it or choose another --out", path=out)


def _cache_write(path: Path, data: str) -> None:
    """Replace a cache file whole (no fsync: the cache is derived data, rebuilt if ever lost)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(data, encoding="utf-8")
    os.replace(tmp, path)


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def _link_or_copy(src: Path, dst: Path, *, mkdir: bool = True) -> None:
    if mkdir:
        dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)  # cached pages are immutable (content-addressed), so sharing their inode is safe
    except OSError:
        shutil.copyfile(src, dst)


def build_site(
    root: ContentRoot, *, out: Path | None = None, preview: bool = False, echo: Callable[..., None] | None = None
) -> BuildSummary:
    """Check, gate and render the content root into `out` (default `<root>/public`), atomically and incrementally.

    Every draft, the registry, the evidence and each approval are read and validated before anything is
    written; only approved articles are built (all of them with `preview`, unapproved ones under a banner).
    """
    return _build(
        root,
        out=out,
        preview=preview,
        echo=echo,
        evidence=StoreEvidence(root.store),
        check=default_check,
        approve=default_approve,
    )


def _build(
    root: ContentRoot,
    *,
    out: Path | None,
    preview: bool,
    echo: Echo | None,
    evidence: Evidence,
    check: Check,
    approve: Approve,
) -> BuildSummary:
    t0 = time.perf_counter()
    say: Echo = echo or (lambda *_a, **_k: None)
    out = Path(out or root.output).resolve()
    _guard_out(root, out)
    recover_dir(out)  # a build killed mid-way left a half-written folder (or the live site moved aside)
    registry = load_registry(root.reports)
    versions = evidence.versions()
    paths = sorted(root.articles.glob("*.md"))
    max_bytes = root.config.limits.max_article_bytes
    for p in paths:
        check_article_size(p, max_bytes)  # before reading: a runaway file must not fill memory
    raw = {p: p.read_bytes() for p in paths}
    shas = {p: sha256_bytes(b) for p, b in raw.items()}
    approvals = {p.name: sha256_bytes(p.read_bytes()) for p in sorted(root.approvals.glob("*.json"))}
    pdfs = []
    for e in registry:
        f = root.reports / e.file
        st = f.stat() if f.is_file() else None
        pdfs.append((e.id, e.file, st.st_size if st else None, st.st_mtime_ns if st else None))
    code = _files_hash([*_CODE, *_tree_files(SITE_TEMPLATES), *_tree_files(STATIC)])
    qc_code = _files_hash(_tree_files(_QC_CODE, "*.py"))  # sources only: .pyc files change on first import
    config_bytes = (root.path / CONFIG_NAME).read_bytes() if (root.path / CONFIG_NAME).is_file() else b""
    build_key = _h(
        STATE_VERSION,
        code,
        qc_code,
        preview,
        sha256_bytes(config_bytes),
        sha256_bytes((root.reports / REGISTRY_NAME).read_bytes()),
        versions,
        [(p.name, shas[p]) for p in paths],
        approvals,
        pdfs,
    )
    cache = _Cache(root)
    last = cache.last()
    marker = out / MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8").strip() == build_key and last.get("key") == build_key:
        built = {s: out / "articles" / s / "index.html" for s in last.get("articles", [])}
        summary = BuildSummary(out, 0, len(built), built, list(last.get("skipped", [])), 0, time.perf_counter() - t0)
        say(f"build: nothing changed since the last build ({len(built)} articles)")
        return summary

    # 1. Every draft, parsed (or its metadata reused when its bytes are unchanged) and validated.
    old = cache.load().get("drafts") or {}
    items: list[_Item] = []
    for p in paths:
        prev = old.get(p.name)
        if prev and prev.get("sha") == shas[p]:
            items.append(_Item(p.name, p, shas[p], prev["meta"], prev["slug"]))
            continue
        try:
            text = raw[p].decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text: {e}", path=p) from e
        draft = parse_draft(text, p, max_bytes=max_bytes)
        meta = draft.meta.model_dump(mode="json", include=_META_KEYS)
        items.append(_Item(p.name, p, shas[p], meta, draft.slug, draft=draft))
    seen: dict[str, Path] = {}
    for it in items:
        if not SLUG.match(it.slug):
            raise InputError(f"slug {it.slug!r} must be lower-case letters, digits and dashes", path=it.path)
        if it.slug in seen:
            raise InputError(f"slug {it.slug!r} is also used by {seen[it.slug].name}", path=it.path)
        seen[it.slug] = it.path

    def draft_of(it: _Item) -> Draft:
        if it.draft is None:
            it.draft = parse_draft(raw[it.path].decode("utf-8"), it.path, max_bytes=max_bytes)
        return it.draft

    # 2. QC, reused when the draft, its reports' versions, the severity settings and QC's code are unchanged.
    severity: dict[str, str] = dict(root.config.qc.severity)
    index: EvidenceIndex | None = None

    def get_index() -> EvidenceIndex:
        nonlocal index
        if index is None:
            index = evidence.index()
        return index

    # 3. The approval gate, reused when QC's result and the approval file are unchanged.
    gate: list[tuple[_Item, _GateTask]] = []
    n_qc = 0
    for it in items:
        ev = sorted(set(it.evidence))
        it.qc_key = _h("qc", it.sha, [(r, versions.get(r)) for r in ev], severity, qc_code)
        it.approval_key = _h("approval", it.qc_key, approvals.get(f"{it.slug}.json"))
        prev = old.get(it.name) or {}
        qc_cached = prev.get("qc") == it.qc_key and cache.result_path(it.qc_key).is_file()
        if qc_cached and prev.get("approval") == it.approval_key:
            it.cited, it.approved = prev.get("cited", []), bool(prev.get("approved"))
        else:
            gate.append((it, _GateTask(draft_of(it), cache.result_path(it.qc_key), not qc_cached)))
            n_qc += not qc_cached
    if gate:
        say(f"build: checking {n_qc} draft(s), gating {len(gate)}")
        t_qc = time.perf_counter()
        _W.update(
            gate=[t for _, t in gate],
            index=get_index(),
            check=check,
            approve=approve,
            severity=severity,
            approvals=root.approvals,
        )
        try:
            outcomes = _run(_gate_task, len(gate))
        finally:
            _W.clear()
        for (it, _), (cited, approved) in zip(gate, outcomes, strict=True):
            it.cited, it.approved = cited, approved
        say(f"build: checked {n_qc} draft(s) in {time.perf_counter() - t_qc:.2f}s")
    built_items = [it for it in items if it.approved or preview]
    skipped = sorted(it.slug for it in items if not (it.approved or preview))
    # Newest first; ties by slug so the order never depends on the file system.
    built_items.sort(key=lambda it: it.slug)
    built_items.sort(key=lambda it: it.date, reverse=True)

    # 4. Site-wide context.
    cfg = root.config.site
    base_url = cfg.base_url if cfg.base_url.endswith("/") else cfg.base_url + "/"
    static_files = _tree_files(STATIC)
    site = SiteCtx(
        title=cfg.title,
        brand=cfg.brand,
        description=cfg.description,
        base_url=base_url,
        base_path=urlparse(base_url).path or "/",
        contact_url=cfg.contact_url,
        lang=_site_lang(cfg.title + cfg.brand),
        static_v=_files_hash(static_files)[:10],
        preview=preview,
    )
    report_infos = {e.id: ReportInfo(e.id, e.title, e.date.isoformat(), e.access, e.file) for e in registry}
    site_key = _h(asdict(site))
    info_keys = {rid: repr(info) for rid, info in report_infos.items()}
    related = _related(built_items)
    # Related links carry no answer text: it is known only after rendering, and the page key must not wait for it.
    links = {it.slug: _article_link(it, "../../", with_answer=False) for it in built_items}

    # 5. Article pages, reused when everything they show is unchanged.
    jobs: list[tuple[_Item, ArticleJob | None]] = []
    for it in built_items:
        rel_links = [links[s] for s in related[it.slug]]
        infos = {r: report_infos[r] for r in sorted(set(it.evidence) | {c[0] for c in it.cited}) if r in report_infos}
        it.page_key = _h(
            "page",
            code,
            it.qc_key,
            it.approved,
            site_key,
            [info_keys[r] for r in infos],
            [(x.slug, x.title, x.date, x.lang) for x in rel_links],
        )
        prev = old.get(it.name)
        if (
            prev
            and prev.get("page") == it.page_key
            and prev.get("texts")
            and cache.page_path(it.page_key).is_file()
            and cache.body_path(it.page_key).is_file()
        ):
            it.texts = prev["texts"]
            jobs.append((it, None))
        else:
            jobs.append((it, ArticleJob(draft_of(it), None, site, infos, rel_links, it.approved)))
    todo = [(it, job) for it, job in jobs if job is not None]
    if todo:
        say(f"build: rendering {len(todo)} article page(s)")
        t_render = time.perf_counter()
        _W["render"] = [
            (job, cache.result_path(it.qc_key), cache.page_path(it.page_key), cache.body_path(it.page_key))
            for it, job in todo
        ]
        try:
            texts = _run(_render_task, len(todo))  # a template error is a BuildError, also from a worker
        finally:
            _W.clear()
        for (it, _), t in zip(todo, texts, strict=True):
            it.texts = t
        say(f"build: rendered {len(todo)} page(s) in {time.perf_counter() - t_render:.2f}s")

    # 6. Everything else; then the new site is written next to the output and swapped in. The folder swapped out
    # is kept as `.<out>.stage` and brought up to date next time, so a build rewrites only the files that changed.
    plan = _Plan()
    generated = _write_site(plan, root, site, built_items, registry, get_index, versions, cache, code)
    manifest = plan.manifest()
    stage = out.parent / f".{out.name}.stage"
    old = _stage_manifest(stage, cache)
    target = stage if old is not None else out.parent / f".{out.name}.new-{uuid.uuid4().hex[:8]}"
    try:
        if old is None:
            shutil.rmtree(stage, ignore_errors=True)  # unknown contents (a build died while updating it)
        else:
            (stage / MARKER).unlink()  # until the marker is back, this folder counts as half-written
        files = _apply(plan, target, old)
        _write(target / MARKER, build_key + "\n")
    except BaseException as e:
        if old is None:
            shutil.rmtree(target, ignore_errors=True)
        if isinstance(e, PublishError):
            raise
        if isinstance(e, OSError):
            raise BuildError(f"cannot write the site: {e}", path=getattr(e, "filename", None) or target) from e
        raise
    cache.save_manifest(build_key, manifest)
    _swap(target, out, stage)
    cache.keep_manifests({build_key, str(last.get("key", ""))})

    new_state = {
        it.name: {
            "sha": it.sha,
            "meta": it.meta,
            "slug": it.slug,
            "qc": it.qc_key,
            "cited": it.cited,
            "approval": it.approval_key,
            "approved": it.approved,
            **({"page": it.page_key, "texts": it.texts} if it.page_key else {}),
        }
        for it in items
    }
    articles = {it.slug: out / "articles" / it.slug / "index.html" for it in built_items}
    cache.save(new_state, {"key": build_key, "articles": list(articles), "skipped": skipped})
    cache.prune({it.qc_key for it in items}, {it.page_key for it in built_items} | generated)
    written = len(todo)
    summary = BuildSummary(out, written, len(built_items) - written, articles, skipped, files, time.perf_counter() - t0)
    return summary


def _swap(new: Path, out: Path, stage: Path) -> None:
    """Put the new site in place in one atomic exchange where the OS has it (a crash leaves one of them whole);
    the site it replaces becomes `stage`, the starting point of the next build."""
    try:
        replace_dir(new, out, keep_old=stage)
    except OSError as e:
        if new != stage:
            shutil.rmtree(new, ignore_errors=True)
        raise BuildError(f"cannot move the new site into place: {e}", path=out) from e


def _stage_manifest(stage: Path, cache: _Cache) -> dict[str, str] | None:
    """What the recycled site folder holds (path → fingerprint), or None when it cannot be trusted."""
    try:
        key = (stage / MARKER).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return cache.manifest(key)


def _article_link(it: _Item, rel: str, *, with_answer: bool = True) -> ArticleLink:
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


def _related(items: list[_Item]) -> dict[str, list[str]]:
    """Up to RELATED_K articles sharing tags or reports, from each shared tag's/report's nearest neighbours in
    date order — linear in the number of articles, and an edit only touches its neighbours' pages."""
    keys = {it.slug: {("t", tag_slug(t)) for t in it.tags} | {("r", r) for r in it.evidence} for it in items}
    order = {it.slug: i for i, it in enumerate(items)}
    buckets: dict[tuple[str, str], list[str]] = {}
    pos: dict[tuple[str, tuple[str, str]], int] = {}
    for it in items:
        for k in sorted(keys[it.slug]):
            bucket = buckets.setdefault(k, [])
            pos[(it.slug, k)] = len(bucket)
            bucket.append(it.slug)
    out: dict[str, list[str]] = {}
    for it in items:
        cands: set[str] = set()
        for k in keys[it.slug]:
            b, p = buckets[k], pos[(it.slug, k)]
            start = max(0, min(p - RELATED_WINDOW, len(b) - 2 * RELATED_WINDOW - 1))  # full window at the ends too
            cands.update(b[start : start + 2 * RELATED_WINDOW + 1])
        cands.discard(it.slug)
        mine = keys[it.slug]
        ranked = sorted(cands, key=lambda s: (-len(mine & keys[s]), abs(order[s] - order[it.slug]), s))
        out[it.slug] = ranked[:RELATED_K]
    return out


class _Plan:
    """Every file of the new site: its path, a fingerprint of its content, and how to write it."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[str, Callable[[Path], object]]] = {}

    def link(self, rel: str, src: Path, fingerprint: str) -> None:
        self.files[rel] = (fingerprint, lambda dst: _link_or_copy(src, dst, mkdir=False))

    def copy(self, rel: str, src: Path) -> None:
        st = src.stat()
        self.files[rel] = (f"copy:{src}:{st.st_size}:{st.st_mtime_ns}", lambda dst: shutil.copyfile(src, dst))

    def data(self, rel: str, data: str | bytes) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self.files[rel] = (f"data:{sha256_bytes(raw)}", lambda dst: dst.write_bytes(raw))

    def manifest(self) -> dict[str, str]:
        return {rel: fp for rel, (fp, _) in self.files.items()}


def _apply(plan: _Plan, dest: Path, old: dict[str, str] | None) -> int:
    """Write the plan into a fresh folder (`old` None), or bring a recycled site folder whose files `old`
    describes up to date by touching only what differs. Returns how many files were written."""
    made: set[Path] = set()

    def parent_of(path: Path) -> None:
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)

    written = 0
    if old is None:
        dest.mkdir(parents=True)
        made.add(dest)
        for rel, (_, write) in plan.files.items():
            path = dest / rel
            parent_of(path)
            write(path)
            written += 1
        return written
    for rel in old.keys() - plan.files.keys():
        path = dest / rel
        path.unlink(missing_ok=True)
        for parent in path.parents:  # an article or tag that is gone leaves no empty folder behind
            if parent == dest or any(parent.iterdir()):
                break
            parent.rmdir()
    for rel, (fp, write) in plan.files.items():
        if old.get(rel) == fp:
            continue
        path = dest / rel
        parent_of(path)
        part = path.with_name(f".{path.name}.part")
        part.unlink(missing_ok=True)
        write(part)
        os.replace(part, path)
        written += 1
    return written


def _write_site(
    plan: _Plan,
    root: ContentRoot,
    site: SiteCtx,
    items: list[_Item],
    registry: list[ReportEntry],
    get_index: Callable[[], EvidenceIndex],
    versions: dict[str, str],
    cache: _Cache,
    code: str,
) -> set[str]:
    """Plan every file of the site (rendering what the cache lacks); returns the generated pages' cache keys."""
    keys: set[str] = set()

    def emit_as(key: str, rel_path: str, template: str, **ctx: Any) -> None:
        keys.add(key)
        cached = cache.page_path(key)
        if not cached.is_file():
            _cache_write(cached, _render_template(template, **ctx))
        plan.link(rel_path, cached, key)

    def emit(rel_path: str, template: str, **ctx: Any) -> None:
        """Render a page, or link the page an earlier build rendered from exactly the same context."""
        emit_as(_h("gen", code, template, rel_path, sorted(ctx.items())), rel_path, template, **ctx)

    ui = UI[site.lang]
    for it in items:
        plan.link(f"articles/{it.slug}/index.html", cache.page_path(it.page_key), it.page_key)
    for p in _tree_files(STATIC):
        plan.copy(f"static/{p.relative_to(STATIC).as_posix()}", p)
    # Public PDFs only; on-request reports never leave the content root.
    for e in registry:
        src = report_file(root.reports, e)  # a symlink out of reports/ is refused, never copied into the site
        if e.access == "public" and src.is_file():
            plan.copy(f"reports/{e.file}", src)

    links: dict[tuple[str, str], ArticleLink] = {}

    def listing(rel: str, subset: Iterable[_Item]) -> tuple[ArticleLink, ...]:
        out = []
        for it in subset:
            link = links.get((it.slug, rel))
            if link is None:
                link = links[(it.slug, rel)] = _article_link(it, rel)
            out.append(link)
        return tuple(out)

    tag_items: dict[str, list[_Item]] = {}
    tag_names: dict[str, str] = {}
    for it in items:
        for t in it.tags:
            s = tag_slug(t)
            tag_names.setdefault(s, t)
            if not tag_items.get(s) or tag_items[s][-1] is not it:
                tag_items.setdefault(s, []).append(it)
    tag_counts = tuple(
        (TagLink(tag_names[s], s, f"tags/{quote(s)}/"), len(v))
        for s, v in sorted(tag_items.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    )
    emit(
        "index.html",
        "list.html",
        site=site,
        ui=ui,
        rel="",
        page=ListPage(
            site.lang, "", site.base_url, ui["index_title"], site.description, listing("", items), tag_counts, True
        ),
    )
    for s, its in tag_items.items():
        heading = ui["tag_title"].format(tag=tag_names[s])
        canonical = _abs(site, f"tags/{quote(s)}/")
        page = ListPage(
            site.lang,
            "../../",
            canonical,
            heading,
            ui["n_articles"].format(n=len(its)),
            listing("../../", its),
            (),
            False,
        )
        emit(f"tags/{s}/index.html", "list.html", site=site, ui=ui, rel="../../", page=page)

    # Evidence library: what each report is, and which articles cite it.
    citing: dict[str, list[_Item]] = {}
    cited_figures: dict[str, set[str]] = {}
    for it in items:
        for rid in dict.fromkeys([*it.evidence, *(c[0] for c in it.cited)]):
            citing.setdefault(rid, []).append(it)
        for rid, fid in it.cited:
            cited_figures.setdefault(rid, set()).add(fid)
    # The library's pages depend on the reports' versions, the cited figures and the citing drafts: when none of
    # those changed, link last build's pages without loading the evidence index at all.
    files = {e.id: report_file(root.reports, e) for e in registry}
    lib_key = _h(
        "library",
        code,
        site,
        [
            (
                e,
                versions.get(e.id),
                sorted(cited_figures.get(e.id, ())),
                [(x.slug, x.meta, x.texts.get("answer")) for x in citing.get(e.id, [])],  # what its links show
                files[e.id].stat().st_size if files[e.id].is_file() else None,
            )
            for e in registry
        ],
    )
    lib_pages = ["evidence/index.html", *(f"evidence/{e.id}/index.html" for e in registry)]
    if all(cache.page_path(_h(lib_key, lp)).is_file() for lp in lib_pages):
        for lp in lib_pages:
            emit_as(_h(lib_key, lp), lp, "")
        lib_pages = []
    index = get_index() if lib_pages else EvidenceIndex()
    cards: dict[str, tuple[ReportCard, list[Figure]]] = {}
    for e in registry if lib_pages else []:
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
    if lib_pages:
        emit_as(_h(lib_key, lib_pages[0]), lib_pages[0], "library.html", site=site, ui=ui, rel="../", page=lib)
    for e in registry if lib_pages else []:
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
        emit_as(_h(lib_key, path), path, "report.html", site=site, ui=ui, rel="../../", page=rpage)

    # Search, feeds, sitemap and the rest of the web's conventions.
    search_key = _h("search", code, [(it.slug, it.page_key) for it in items])
    keys.add(search_key)
    search_file = cache.page_path(search_key)
    if not search_file.is_file():
        search = [
            {
                "u": f"articles/{it.slug}/",
                "t": it.texts.get("title", it.meta["title"]),
                "a": it.texts.get("answer", ""),
                "b": cache.body_path(it.page_key).read_text(encoding="utf-8"),
                "g": it.tags,
                "d": it.date,
                "l": it.meta.get("lang", "zh"),
            }
            for it in items
        ]
        _cache_write(search_file, json.dumps(search, ensure_ascii=False, separators=(",", ":")))
    plan.link("search.json", search_file, search_key)
    emit(
        "search/index.html",
        "search.html",
        site=site,
        ui=ui,
        rel="../",
        page=SimplePage(site.lang, "../", _abs(site, "search/")),
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
    return keys


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
