"""The recipe: ingest → draft → check → approval gate → build, for one article brief."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence.errors import InputError
from pipeline.config import ContentRoot, inside, open_root, output_dir
from pipeline.lock import root_lock
from qc.errors import AwaitingReview, QCFailed

if TYPE_CHECKING:  # each command imports what it runs: `publish build` with nothing to do needs no QC
    from pipeline.brief import Brief
    from qc.index import EvidenceIndex

Echo = Callable[..., None]


def _quiet(*_: Any, **__: Any) -> None:
    pass


@dataclass
class PublishResult:
    """What a full run produced: the article page on disk."""

    slug: str
    page: Path


def _brief(root: ContentRoot, article: Path) -> Brief:
    from evidence.registry import load_registry
    from pipeline.brief import load_brief

    article = inside(root.path, article, "article")
    if article.suffix not in (".yaml", ".yml"):
        raise InputError("expected a brief (articles/<slug>.yaml)", path=article)
    if not article.is_file():  # name the file the user typed before any other file it leads to
        raise InputError("file not found", path=article)
    ids = {r.id for r in load_registry(root.reports)}
    return load_brief(article, ids)


def _ingest(root: ContentRoot, echo: Echo) -> Any:
    """Parse whatever report PDFs changed since the last run (unchanged ones cost a hash each)."""
    from evidence.ingest import ingest

    return ingest(root.reports, root.store, limits=root.config.limits.to_ingest(), progress=echo)


def _evidence(root: ContentRoot, brief: Brief, echo: Echo) -> EvidenceIndex:
    """Ingest, insist the brief's reports read cleanly, and load their figures into memory."""
    from evidence.store import Store
    from qc.index import EvidenceIndex

    _ingest(root, echo).raise_for_errors(brief.evidence)
    with Store(root.store) as store:
        return EvidenceIndex.load(store, brief.evidence)


def publish(
    article: str | Path, *, redraft: bool = False, out: Path | None = None, echo: Echo = _quiet
) -> PublishResult:
    """Take one brief all the way to a built article page, or stop with the reason."""
    from pipeline.drafting.article import draft_article
    from pipeline.website.build import build_site
    from qc.check import check_draft
    from qc.review import approval_status
    from qc.scope import article_index

    root = open_root(article)
    target = output_dir(root, out)  # a dangerous --out fails before any work is done
    with root_lock(root.state, echo=echo):
        brief = _brief(root, Path(article))
        index = _evidence(root, brief, echo)
        outcome = draft_article(brief, root, index, redraft=redraft, echo=echo)
        if not outcome.ok:
            raise QCFailed(f"draft {outcome.path} fails QC; see {outcome.report_path}")
        scope = article_index(outcome.draft, index)  # the reports the draft names, as in review and build
        result = check_draft(outcome.draft, scope, severity=dict(root.config.qc.severity))
        status = approval_status(outcome.draft, result, scope, root.approvals)
        if status.unwaived_errors:
            raise QCFailed(status.summary())
        if not status.approved:
            raise AwaitingReview(status.summary())
        built = build_site(root, out=target, echo=echo)
    return PublishResult(brief.slug, built.page_for(brief.slug))


def draft_only(article: str | Path, *, redraft: bool = False, drafter: str | None = None, echo: Echo = _quiet) -> Any:
    """`publish draft`: ingest and draft, without the review gate or the build."""
    from pipeline.drafting.article import draft_article

    root = open_root(article)
    with root_lock(root.state, echo=echo):
        brief = _brief(root, Path(article))
        return draft_article(brief, root, _evidence(root, brief, echo), redraft=redraft, drafter=drafter, echo=echo)


def build_only(start: str | Path, *, out: Path | None = None, preview: bool = False, echo: Echo = _quiet) -> Any:
    """`publish build`: ingest what changed, then render every approved article (all of them with `preview`, into
    the preview folder)."""
    from pipeline.website.build import build_site

    root = open_root(start)
    target = output_dir(root, out, preview=preview)  # a preview is a site of its own (`[site] preview_output`)
    with root_lock(root.state, echo=echo):
        _ingest(root, echo)
        return build_site(root, out=target, preview=preview, echo=echo)
