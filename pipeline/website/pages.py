"""Every page of the site but the articles: listings, tags, the evidence library, search, feed, sitemap."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from evidence.errors import InputError
from evidence.fsutil import sha256_bytes
from evidence.models import Figure, Report, ReportEntry
from evidence.registry import report_file
from pipeline.website import templates as T
from pipeline.website.article import on_request_quote, own_labels
from pipeline.website.cache import cache_key, cache_write, tree_files
from pipeline.website.contexts import (
    ArticleLink,
    FeedEntry,
    FeedPage,
    FigureRow,
    LibraryPage,
    ListPage,
    ReportCard,
    ReportPage,
    RobotsPage,
    SearchPage,
    SimplePage,
    SiteCtx,
    SitemapPage,
    TagLink,
    abs_url,
    human_size,
)
from pipeline.website.inputs import read_regular
from pipeline.website.plan import tag_slug
from pipeline.website.search import SearchShards, search_shards, splice_search
from pipeline.website.ui import UI

if TYPE_CHECKING:
    from pipeline.config import ContentRoot
    from pipeline.website.cache import BuildCache
    from pipeline.website.plan import DraftItem, SitePlan
    from qc.index import EvidenceIndex

FEED_ENTRIES = 50
# Characters XML 1.0 does not allow at all (a control character in a title would make feed.xml ill-formed).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_text(s: str) -> str:
    return _NOT_XML.sub("", s)


def article_link(it: DraftItem, rel: str, *, with_answer: bool = True) -> ArticleLink:
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
    plan: SitePlan,
    root: ContentRoot,
    site: SiteCtx,
    items: list[DraftItem],
    registry: list[ReportEntry],
    get_index: Callable[[], EvidenceIndex],
    versions: dict[str, str],
    cache: BuildCache,
    code: str,
    site_key: str,
    old_shards: SearchShards,
    present: set[str],
    checked: dict[str, tuple[str, int]],
) -> tuple[set[str], list[str]]:
    """Plan every file of the site but the article pages, rendering only pages whose inputs changed.

    Each listing's cache key is a hash of what its entries show, worked out before (and instead of) building its
    context; returns the generated pages' cache keys and the keys of the search shards (whose entries the next
    build splices, as this one does from `old_shards`). `present` lists the page cache's files; `checked` holds the
    content hash and size of each report file whose bytes are the ones QC read (only those are published).
    """
    keys: set[str] = set()

    def emit_as(key: str, rel_path: str, template: str, make: Callable[[], dict[str, Any]]) -> None:
        """Link the page an earlier build rendered under `key`, or render it from the context `make()` returns."""
        keys.add(key)
        cached = cache.page_path(key)
        if f"{key}.html" not in present:
            cache_write(cached, T.render_template(template, **make()))
        plan.link(rel_path, cached, key)

    def emit(rel_path: str, template: str, **ctx: Any) -> None:
        """A small page, keyed by its whole context."""
        emit_as(cache_key("gen", code, template, rel_path, sorted(ctx.items())), rel_path, template, lambda: ctx)

    ui = UI[site.lang]
    for p in tree_files(T.STATIC):
        plan.copy(f"static/{p.relative_to(T.STATIC).as_posix()}", p)
    # Public PDFs only, as the very bytes that were checked (a content-addressed copy, verified when made);
    # on-request reports never leave the content root.
    pdfs: dict[str, int] = {}
    for e in registry:
        if e.access != "public" or e.id not in checked:
            continue
        sha, size = checked[e.id]
        cached = cache.pdf_path(sha)
        if f"{sha}.pdf" not in present or cached.stat().st_size != size:
            src = report_file(root.reports, e)
            raw = read_regular(src, max(size, 1), f"report {e.id}")
            if sha256_bytes(raw) != sha:
                raise InputError(f"report {e.id} changed while the site was being built; build again", path=src)
            cache_write(cached, raw)
        keys.add(sha)
        pdfs[e.id] = size
        plan.link(f"reports/{e.file}", cached, f"pdf:{sha}")

    links: dict[tuple[str, str], ArticleLink] = {}

    def listing(rel: str, subset: Iterable[DraftItem]) -> tuple[ArticleLink, ...]:
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

    def sigs(subset: Iterable[DraftItem]) -> str:
        return sha256_bytes("\n".join(sig[it.slug] for it in subset))

    tag_items: dict[str, list[DraftItem]] = {}
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

    emit_as(cache_key("index", code, site_key, sigs(items)), "index.html", "list.html", index_ctx)

    def tag_ctx(s: str, its: list[DraftItem]) -> dict[str, Any]:
        page = ListPage(
            site.lang,
            "../../",
            abs_url(site, f"tags/{quote(s)}/"),
            ui["tag_title"].format(tag=tag_names[s]),
            ui["n_articles"].format(n=len(its)),
            listing("../../", its),
            (),
            False,
        )
        return {"site": site, "ui": ui, "rel": "../../", "page": page}

    for s, its in tag_items.items():
        key = cache_key("tag", code, site_key, s, tag_names[s], sigs(its))
        emit_as(key, f"tags/{s}/index.html", "list.html", functools.partial(tag_ctx, s, its))

    # Evidence library: what each report is, and which articles cite it.
    citing: dict[str, list[DraftItem]] = {}
    for it in items:
        for rid in dict.fromkeys([*it.evidence, *it.cited_reports]):
            citing.setdefault(rid, []).append(it)
    # The library's pages depend on the reports' versions, the cited figures and the citing drafts (what their
    # links show, and the figures they cite): when none of those changed, link last build's pages without loading
    # the evidence index at all.
    cite_sig = {it.slug: sha256_bytes(f"{sig[it.slug]}\n{it.cited}")[:16] for it in items}
    lib_key = cache_key(
        "library",
        code,
        site_key,
        [
            (
                repr(e),
                versions.get(e.id),
                [cite_sig[x.slug] for x in citing.get(e.id, [])],
                checked.get(e.id),
            )
            for e in registry
        ],
    )
    lib_pages = ["evidence/index.html", *(f"evidence/{e.id}/index.html" for e in registry)]
    if all(f"{cache_key(lib_key, lp)}.html" in present for lp in lib_pages):
        for lp in lib_pages:
            emit_as(cache_key(lib_key, lp), lp, "", dict)
        lib_pages = []
    else:
        _plan_library(emit_as, lib_key, site, ui, registry, pdfs, citing, get_index(), listing, cache)

    # Search: search.json names the shards holding the articles' entries. An edit rewrites one shard, not the whole
    # index, and a reader's browser shows results as shards arrive. Shard file names carry their content key, so a
    # browser never mixes shards of two builds.
    search_keys: list[str] = []
    shard_files: list[str] = []
    for i, members in enumerate(search_shards(items)):
        key = cache_key("search", code, i, [(it.slug, it.page_key) for it in members])
        keys.add(key)
        search_keys.append(key)
        if f"{key}.html" not in present:
            text, offsets = splice_search(members, old_shards)
            cache_write(cache.offsets_path(key), json.dumps(offsets))
            cache_write(cache.page_path(key), text)
        shard_files.append(f"search/{i}-{key[:12]}.json")
        plan.link(shard_files[-1], cache.page_path(key), key)
    manifest = json.dumps({"articles": len(items), "shards": shard_files}, ensure_ascii=False)
    manifest_key = cache_key("search-manifest", manifest)
    keys.add(manifest_key)
    if f"{manifest_key}.html" not in present:
        cache_write(cache.page_path(manifest_key), manifest + "\n")
    plan.link("search.json", cache.page_path(manifest_key), manifest_key)
    emit(
        "search/index.html",
        "search.html",
        site=site,
        ui=ui,
        rel="../",
        # A new list of shards is a new URL: no browser keeps last build's list.
        page=SearchPage(site.lang, "../", abs_url(site, "search/"), manifest_key[:10]),
    )
    emit(
        "404.html",
        "404.html",
        site=site,
        ui=ui,
        rel=site.base_path,
        page=SimplePage(site.lang, site.base_path, abs_url(site, "404.html")),
    )
    entries = tuple(
        FeedEntry(
            title=_xml_text(it.texts.get("title", it.meta["title"])),
            url=abs_url(site, f"articles/{it.slug}/"),
            published=f"{it.date}T00:00:00Z",
            updated=f"{it.meta.get('updated') or it.date}T00:00:00Z",
            summary=_xml_text(it.texts.get("answer", "")),
            lang=it.meta.get("lang", "zh"),
            tags=tuple(_xml_text(t) for t in it.tags),
        )
        for it in items[:FEED_ENTRIES]
    )
    feed_updated = max((f.updated for f in entries), default="1970-01-01T00:00:00Z")
    feed_site = replace(
        site, title=_xml_text(site.title), brand=_xml_text(site.brand), description=_xml_text(site.description)
    )
    emit("feed.xml", "feed.xml", site=feed_site, ui=ui, page=FeedPage(entries, feed_updated))
    urls: list[tuple[str, str | None]] = [(site.base_url, None)]
    urls += [(abs_url(site, f"articles/{it.slug}/"), str(it.meta.get("updated") or it.date)) for it in items]
    urls += [(abs_url(site, f"tags/{quote(s)}/"), None) for s in tag_items]
    urls += [(abs_url(site, "evidence/"), None)] + [(abs_url(site, f"evidence/{quote(e.id)}/"), None) for e in registry]
    emit("sitemap.xml", "sitemap.xml", site=site, page=SitemapPage(tuple(urls)))
    emit("robots.txt", "robots.txt", site=site, page=RobotsPage(abs_url(site, "sitemap.xml")))
    return keys, search_keys


def _plan_library(
    emit_as: Callable[..., None],
    lib_key: str,
    site: SiteCtx,
    ui: dict[str, str],
    registry: list[ReportEntry],
    pdfs: dict[str, int],
    citing: dict[str, list[DraftItem]],
    index: EvidenceIndex,
    listing: Callable[[str, Iterable[DraftItem]], tuple[ArticleLink, ...]],
    cache: BuildCache,
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
        pdf_size = pdfs.get(e.id) if e.access == "public" else None
        card_args = dict(
            id=e.id,
            title=e.title,
            date=e.date.isoformat(),
            access=e.access,
            sha256=rep.sha256 if rep else "",
            version=rep.version if rep else None,
            pages=rep.pages if rep else None,
            size=human_size(pdf_size) if pdf_size is not None else None,
            figure_count=len(figs),
        )
        cards[e.id] = (
            ReportCard(
                **card_args,  # type: ignore[arg-type]
                pdf=f"../reports/{quote(e.file)}" if pdf_size is not None else None,
                href=f"{quote(e.id)}/",
                citing=listing("../", citing.get(e.id, [])),
            ),
            figs,
        )
    lib = LibraryPage(site.lang, "../", abs_url(site, "evidence/"), tuple(c for c, _ in cards.values()))
    first = "evidence/index.html"
    emit_as(
        cache_key(lib_key, first), first, "library.html", lambda: {"site": site, "ui": ui, "rel": "../", "page": lib}
    )
    for e in registry:
        card, figs = cards[e.id]
        public = e.access == "public" and card.pdf is not None
        rows = tuple(
            FigureRow(
                id=f.id,
                page=f.page,
                page_label=f.page_label,
                labels=" · ".join(f.labels if public else own_labels(f.labels)),
                raw=f.raw,
                unit=f.unit,
                quote=f.quote if public else on_request_quote(f.labels, f.raw, f.unit),
                href=f"../../reports/{quote(e.file)}#page={f.page}" if public else None,
            )
            for f in figs
        )
        deep = _rebase_card(card, "../../", listing("../../", citing.get(e.id, [])), e.file)
        rpage = ReportPage(site.lang, "../../", abs_url(site, f"evidence/{quote(e.id)}/"), deep, rows, not public)
        path = f"evidence/{e.id}/index.html"
        ctx = {"site": site, "ui": ui, "rel": "../../", "page": rpage}
        emit_as(cache_key(lib_key, path), path, "report.html", lambda ctx=ctx: ctx)


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
