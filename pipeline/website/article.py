"""The article page: every checked number wrapped in its provenance (pure; runs in worker processes)."""

from __future__ import annotations

import json
import marshal
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pipeline.website import templates as T
from pipeline.website.cache import cache_write
from pipeline.website.charts import HEADING_LABEL
from pipeline.website.contexts import (
    ArticleLink,
    ArticlePage,
    QAItem,
    SiteCtx,
    SourceEntry,
    TagLink,
    abs_url,
    json_ld,
)
from pipeline.website.plan import tag_slug
from pipeline.website.ui import UI
from qc.models import ERROR_STATUSES, NumberCheck

if TYPE_CHECKING:
    from pipeline.website.render import Mark
    from qc.draft import Draft


def on_request_quote(labels: Sequence[str], printed: str, unit: str = "") -> str:
    """What the site says of an on-request report's figure instead of quoting its page: the cited figure's own
    labels (not the headings and captions above it, which are lines of the page) and the value as printed; a page
    line can name customers or figures no article prints, so none is ever shown."""
    value = printed if (not unit or unit in printed) else f"{printed} {unit}"
    own = own_labels(labels)
    return (" · ".join(own) + ": " if own else "") + value


def own_labels(labels: Sequence[str]) -> list[str]:
    """A figure's own labels (row, column, key), without the section headings and captions above it."""
    return [x for x in labels if not HEADING_LABEL.match(x)]


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
    waivers: dict[str, str] = field(default_factory=dict)  # finding id → the reviewer's reason for accepting it


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
        cache_write(side, marshal.dumps(numbers))
    out: list[Any] = []
    for data in numbers:
        if data.get("source") is not None:
            data["source"] = _Record(data["source"])
        out.append(_Record(data))
    return out


def _marks(job: ArticleJob, text: str, numbers: list[NumberCheck], ui: dict[str, str], rel: str) -> list[Mark]:
    from pipeline.website.render import Mark

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
    if (src is not None and (info is None or info.access != "public")) or ui is not UI.get(lang) or n.id in job.waivers:
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
        elif src.figure:
            quote_text = on_request_quote(src.labels, n.text)
        else:  # a verbatim match of a term: only the term, as the article prints it
            quote_text = n.text
        if quote_text:
            rows.append((ui["tip_quote"], f"“{quote_text}”"))
        if info is not None:
            href = (
                f"{rel}reports/{_quote(info.file)}#page={src.page}"
                if public
                else f"{rel}evidence/{_quote(src.report)}/" + (f"#fig-{src.figure}" if src.figure else "")
            )
        data = [("report", src.report), ("page", str(src.page)), ("figure", src.figure)]
    if n.derivation:
        rows.append((ui["tip_derivation"], n.derivation))
    reason = job.waivers.get(n.id) if failed else None
    if reason is not None:  # accepted by the reviewer: the reason is what readers see, not a QC failure
        status, note = "accepted", f"{ui['status_accepted']}: {reason}"
    else:
        status = "error" if failed else n.status
        note = ui.get(f"status_{status}", status)
        if failed and n.message and not confidential:
            note = f"{note}: {n.message}"
    rows.append((ui["tip_status"], note))
    return href, tuple(rows), status, tuple(data)


def render_article(job: ArticleJob) -> tuple[str, dict[str, str], str]:
    """The article page's HTML, its plain title and answer (for listings and feeds) and its search.json entry."""
    from pipeline.website.charts import section_charts
    from pipeline.website.render import render_field

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
    canonical = abs_url(site, f"articles/{draft.slug}/")
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
                **({"url": abs_url(site, f"reports/{quote(job.reports[s.id].file)}")} if s.pdf else {}),
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
        disclosure=dict(site.disclosure).get(lang) or ui["disclosure"].replace("{brand}", site.brand),
        jsonld_article=json_ld(article_ld),
        jsonld_faq=json_ld(faq_ld) if faq_ld else None,
    )
    html = T.render_template("article.html", site=site, page=page, ui=ui, rel=rel)
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
