"""`publish review`, `publish approve` and `publish evidence impact`: the reviewer's side of the approval gate."""

from __future__ import annotations

import datetime as dt
import difflib
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from jinja2 import Environment, StrictUndefined

from evidence.errors import InputError
from evidence.fsutil import atomic_write
from evidence.ingest import ingest
from evidence.models import Figure
from evidence.registry import load_registry
from evidence.store import Store
from pipeline.brief import load_brief
from pipeline.config import ContentRoot, inside, open_root
from pipeline.lock import root_lock
from qc.check import check_draft
from qc.draft import Draft, read_draft
from qc.errors import QCFailed
from qc.index import EvidenceIndex
from qc.models import CheckReport, FileResult, NumberCheck
from qc.report import render_html
from qc.review import (
    Approval,
    ApprovalStatus,
    Claim,
    FigureRef,
    ReportRef,
    Waiver,
    approval_status,
    cited_reports,
    load_approval,
    text_diff,
    write_approval,
)
from qc.scope import article_reports, require_known

Echo = Callable[..., None]
CHOICES = {"a": "accept", "r": "reject", "s": "skip", "e": "each"}


@dataclass
class Article:
    """One article as the reviewer sees it: draft, QC result, evidence and approval status."""

    root: ContentRoot
    slug: str
    arg: Path  # what the user named (brief or draft)
    draft: Draft
    result: FileResult
    index: EvidenceIndex
    status: ApprovalStatus

    @property
    def approval_path(self) -> Path:
        return self.root.approvals / f"{self.slug}.json"


def load_article(article: Path) -> Article:
    """Resolve ARTICLE (brief or draft), ingest what changed, check the draft and compute its approval status."""
    root = open_root(article)
    path = inside(root.path, Path(article), "article")
    if not path.is_file():
        raise InputError("file not found", path=article)
    registry = {r.id for r in load_registry(root.reports)}
    if path.suffix in (".yaml", ".yml"):
        brief = load_brief(path, registry)
        draft_path = path.with_name(f"{brief.slug}.md")
        if not draft_path.is_file():
            raise InputError(f"no draft yet ({draft_path.name}); run: publish draft {article}", path=path)
    elif path.suffix == ".md":
        draft_path = path
    else:
        raise InputError("expected a brief (articles/<slug>.yaml) or a draft (articles/<slug>.md)", path=article)
    draft = read_draft(draft_path, max_bytes=root.config.limits.max_article_bytes)
    require_known(draft, registry)
    ids = article_reports(draft)
    with root_lock(root.state):
        summary = ingest(root.reports, root.store, limits=root.config.limits.to_ingest())
        summary.raise_for_errors(ids)
        with Store(root.store) as store:
            index = EvidenceIndex.load(store, ids)
    result = check_draft(draft, index, severity=dict(root.config.qc.severity))
    status = approval_status(draft, result, index, root.approvals)
    return Article(root, draft.slug, Path(article), draft, result, index, status)


def review(article: Path, *, yes: bool, fmt: str, reviewer: str | None, note: str | None, echo: Echo) -> None:
    """Show the QC diff against the last approval, ask accept / reject / skip, and write the approval on accept."""
    art = load_article(article)
    page = write_html(art)
    if fmt == "json":
        echo(json.dumps(diff_json(art), ensure_ascii=False, indent=2, sort_keys=True))
    else:
        show_diff(art, echo)
        echo(f"HTML diff: {page}", fg="cyan")
    if art.status.approved:
        if fmt != "json":
            echo(f"nothing to review: {art.status.summary()}", fg="green")
        return
    if yes:
        if art.status.unwaived_errors:
            raise QCFailed(art.status.summary())
        path = _write(art, reviewer=reviewer, note=note, new_waivers=[])
        if fmt != "json":
            echo(f"approved: {path}", fg="green")
        return
    if fmt == "json":
        return  # tools read the diff; deciding is for --yes or a person
    _interactive(art, reviewer=reviewer, note=note, echo=echo)


def approve(
    article: Path, *, reviewer: str | None, note: str | None, waive: list[str], reasons: list[str], echo: Echo
) -> Path:
    """Approve the current snapshot, waiving the named error findings with their reasons."""
    if len(waive) != len(reasons):
        raise InputError(f"each --waive needs its own --reason (got {len(waive)} --waive, {len(reasons)} --reason)")
    art = load_article(article)
    new = []
    for finding, reason in zip(waive, reasons, strict=True):
        n = _finding(art, finding)
        if not reason.strip():
            raise InputError(f"--reason for {finding} is empty")
        new.append(Waiver(finding=n.id, reason=reason.strip(), text=n.text, sentence=n.sentence))
    path = _write(art, reviewer=reviewer, note=note, new_waivers=new, echo=echo)
    claims = len(art.status.snapshot.claims)
    echo(f"{art.slug}: {claims} claims approved" + (f", {len(new)} findings waived" if new else ""), fg="green")
    return path


def _finding(art: Article, finding: str) -> NumberCheck:
    """The error finding a --waive names: its exact id, or an unambiguous prefix of it."""
    exact = [n for n in art.result.numbers if n.id == finding]
    found = exact or [n for n in art.result.numbers if finding and n.id.startswith(finding)]
    if not found:
        raise InputError(f"no finding {finding!r} in this draft (see `publish review {art.arg}`)", path=art.draft.path)
    if len({n.id for n in found}) > 1:
        raise InputError(f"finding id {finding!r} is ambiguous; give more of it", path=art.draft.path)
    n = found[0]
    if n.severity != "error":
        raise InputError(
            f"finding {finding!r} ({n.text}) is {n.status}, not an error: nothing to waive", path=art.draft.path
        )
    return n


def _write(
    art: Article, *, reviewer: str | None, note: str | None, new_waivers: list[Waiver], echo: Echo | None = None
) -> Path:
    """Write the approval of the current snapshot; refuses while an error is not waived."""
    name = (reviewer if reviewer is not None else git_user_name(art.root.path)).strip()
    if not name:
        raise InputError("no reviewer name: pass --reviewer NAME or set `git config user.name`")
    errors = art.result.errors()
    waived = {w.finding for w in new_waivers}
    # Waivers of the last approval still bound to an unchanged finding stay; a changed number needs a new one.
    old = art.status.approval.waivers if art.status.approval else []
    kept = [w for w in old if w.finding not in waived and any(w.covers(n) for n in errors)]
    if echo:
        for w in kept:
            echo(f"keeping waiver {w.finding} ({w.text}): {w.reason}", fg="yellow")
    waivers = sorted([*kept, *new_waivers], key=lambda w: w.finding)
    unwaived = [n for n in errors if not any(w.covers(n) for w in waivers)]
    if unwaived:
        lines = [f"{len(unwaived)} QC errors in {art.draft.path} need a waiver with a reason to be approved:"]
        lines += [f"  --waive {n.id}  # {n.text} ({n.status}) {n.message}".rstrip() for n in unwaived]
        raise QCFailed("\n".join(lines))
    approval = Approval(
        reviewer=name,
        time=dt.datetime.now(dt.UTC).astimezone().isoformat(timespec="seconds"),
        note=note or None,
        waivers=waivers,
        snapshot=art.status.snapshot,
        draft_text=art.draft.text,
    )
    write_approval(art.approval_path, approval)
    return art.approval_path


def git_user_name(cwd: Path) -> str:
    """`git config user.name`, or "" when git or the setting is missing."""
    try:
        out = subprocess.run(
            ["git", "config", "user.name"], cwd=cwd, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


# --- showing the diff ------------------------------------------------------------------------------------------


def _claim_line(c: Claim) -> str:
    return f"{c.describe()}  «{_short(c.sentence)}»"


def _short(s: str, n: int = 70) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def show_diff(art: Article, echo: Echo) -> None:
    """The terminal view: what changed since the last approval, claim by claim, then the draft's text diff."""
    st, d = art.status, art.status.diff
    echo(f"review {art.slug} ({art.draft.path})", bold=True)
    if st.approval:
        echo(f"last approved by {st.approval.reviewer} at {st.approval.time}")
    if d is None:
        echo("the approved snapshot matches the current one")
    else:
        if d.first:
            echo(f"no approval yet: {len(d.added)} claims, {len(d.reports)} cited reports")
        elif d.draft_changed:
            echo("draft text changed since the approval", fg="yellow")
        for r in d.reports:
            echo(f"  ~ {r.describe()}", fg="yellow")
        if d.changed:
            echo(f"claims changed ({len(d.changed)}):", bold=True)
            for ch in d.changed:
                echo(f"  ~ {ch.describe()}", fg="yellow")
                echo(f"      «{_short(ch.new.sentence, 100)}»")
        if d.added:
            # On a first review, identifiers, dates and citation ids would drown the numbers that matter.
            shown = [c for c in d.added if not (d.first and c.status == "exempt")]
            hidden = len(d.added) - len(shown)
            echo(f"claims added ({len(d.added)}{f', {hidden} exempt not shown' if hidden else ''}):", bold=True)
            for c in shown:
                echo(f"  + {_claim_line(c)}", fg="red" if c.severity == "error" else "green")
        if d.removed:
            echo(f"claims removed ({len(d.removed)}):", bold=True)
            for c in d.removed:
                echo(f"  - {_claim_line(c)}", fg="red")
        if d.moved:
            echo(d.restated())
        if st.approval and d.draft_changed:
            echo("draft text diff:", bold=True)
            for line in text_diff(st.approval.draft_text, art.draft.text, art.draft.path):
                echo(line, fg="green" if line.startswith("+") else "red" if line.startswith("-") else None)
    if st.unwaived_errors:
        echo(f"QC errors not waived ({len(st.unwaived_errors)}):", fg="red", bold=True)
        for n in st.unwaived_errors:
            echo(f"  {n.id}  {n.line}:{n.column} {n.text} ({n.status}) {n.message}".rstrip(), fg="red")


def diff_json(art: Article) -> dict[str, Any]:
    """The diff for tools: status, items, claims added/removed/changed, reports, text diff and unwaived errors."""
    st, d = art.status, art.status.diff
    return {
        "article": art.slug,
        "draft": art.draft.path,
        "approved": st.approved,
        "approval": {"reviewer": st.approval.reviewer, "time": st.approval.time} if st.approval else None,
        "diff": None
        if d is None
        else {
            **d.model_dump(mode="json"),
            "items": d.items(),
            "restated": d.restated(),
            "text_diff": text_diff(st.approval.draft_text, art.draft.text) if st.approval and d.draft_changed else [],
        },
        "unwaived_errors": [
            {"id": n.id, "text": n.text, "status": n.status, "sentence": n.sentence, "message": n.message}
            for n in st.unwaived_errors
        ],
        "command": f"publish review {st.article}",
    }


# --- deciding --------------------------------------------------------------------------------------------------


def _ask(question: str, *, each: bool = False) -> str:
    keys = "a/r/s/e" if each else "a/r/s"
    words = "accept / reject / skip" + (" / each" if each else "")
    allowed = [k for k in CHOICES if each or k != "e"] + [CHOICES[k] for k in CHOICES if each or k != "e"]
    answer = click.prompt(f"{question} — {words} [{keys}]", type=click.Choice(allowed), show_choices=False)
    return CHOICES.get(answer, answer)


def _interactive(art: Article, *, reviewer: str | None, note: str | None, echo: Echo) -> None:
    """Ask per error (waive?), then for the whole article or per item; write the approval only if all is accepted."""
    d = art.status.diff
    new_waivers: list[Waiver] = []
    for n in art.status.unwaived_errors:
        echo(f"error {n.id}: {n.text} ({n.status}) {n.message}  «{_short(n.sentence)}»", fg="red")
        answer = click.prompt(
            "waive this error / reject the article / skip [w/r/s]",
            type=click.Choice(["w", "waive", "r", "reject", "s", "skip"]),
            show_choices=False,
        )[0]
        if answer == "r":
            echo("rejected: not approved; fix the draft and review again", fg="red")
            return
        if answer == "s":
            echo("skipped an unwaived error: approval not written", fg="yellow")
            return
        reason = click.prompt("reason for the waiver").strip()
        if not reason:
            raise InputError("a waiver needs a reason")
        new_waivers.append(Waiver(finding=n.id, reason=reason, text=n.text, sentence=n.sentence))
    # Something must be decided even when only ids moved or only waivers are new.
    items = (d.items() if d else []) or [d.restated() if d and d.moved else "waivers of the QC errors"]
    decisions: list[str] = []
    whole = _ask(f"{art.slug}: {len(items)} changes", each=True) if len(items) > 1 else "each"
    if whole == "each":
        for item in items:
            decisions.append(_ask(f"  {item}"))
            if decisions[-1] == "reject":
                break
    else:
        decisions = [whole] * len(items)
    if "reject" in decisions:
        echo("rejected: not approved; fix the draft (or the report) and review again", fg="red")
    elif "skip" in decisions:
        echo(
            f"skipped {decisions.count('skip')} of {len(items)}: approval not written (it covers the whole article)",
            fg="yellow",
        )
    else:
        path = _write(art, reviewer=reviewer, note=note, new_waivers=new_waivers, echo=echo)
        echo(f"approved: {path}", fg="green")


# --- the HTML diff page ----------------------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8"><title>Review {{ slug }}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem} .ok{color:#0a7a3b} .wait{color:#a15c00} .err{color:#b3261e}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem} td,th{border:1px solid #d5dae3;padding:.3rem .5rem;
vertical-align:top;text-align:left} th{background:#f2f4f8} del{background:#fde2e1} ins{background:#dcf5e4}
table.diff td{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap} .diff_add{background:#dcf5e4}
.diff_sub{background:#fde2e1} .diff_chg{background:#fff3c4}
</style></head><body>
<h1>Review: {{ slug }}</h1>
<p>{{ draft }}{% if qc %} · <a href="{{ qc }}">QC report</a>{% endif %}</p>
<p class="{{ 'ok' if approved else 'wait' }}">{{ headline }}</p>
{% if command %}<p>Run <code>{{ command }}</code> to decide.</p>{% endif %}
{% if errors %}<h2 class="err">QC errors not waived</h2><table><tr><th>finding</th><th>number</th><th>status</th>
<th>message</th><th>sentence</th></tr>{% for n in errors %}<tr><td><code>{{ n.id }}</code></td><td>{{ n.text }}</td>
<td>{{ n.status }}</td><td>{{ n.message }}</td><td>{{ n.sentence }}</td></tr>{% endfor %}</table>{% endif %}
{% if reports %}<h2>Reports changed</h2><ul>{% for r in reports %}<li>{{ r }}</li>{% endfor %}</ul>{% endif %}
{% if changed %}<h2>Claims changed</h2><table><tr><th>approved</th><th>now</th><th>sentence</th></tr>
{% for c in changed %}<tr><td><del>{{ c.old.describe() }}</del></td><td><ins>{{ c.new.describe() }}</ins></td>
<td>{{ c.new.sentence }}</td></tr>{% endfor %}</table>{% endif %}
{% for title, rows, tag in [("Claims added", added, "ins"), ("Claims removed", removed, "del")] %}{% if rows %}
<h2>{{ title }}</h2><table><tr><th>claim</th><th>sentence</th></tr>{% for c in rows %}
<tr><td><{{ tag }}>{{ c.describe() }}</{{ tag }}></td><td>{{ c.sentence }}</td></tr>{% endfor %}</table>
{% endif %}{% endfor %}
{% if text_diff %}<h2>Draft text</h2>{{ text_diff | safe }}{% endif %}
</body></html>
"""


def write_html(art: Article) -> Path:
    """Write `<root>/.publish/review/<slug>.html` (and the QC report beside it when qc.report is available)."""
    out = art.root.state / "review"
    # The QC report (every number with its source) sits next to the diff page, for reviewers reading in a browser.
    qc_name = f"{art.slug}.qc.html"
    report = CheckReport(ok=art.result.ok, files=[art.result])
    atomic_write(out / qc_name, render_html(report, {art.result.file: art.draft}, art.index))
    st, d = art.status, art.status.diff
    table = ""
    if st.approval and d is not None and d.draft_changed:
        # stdlib HtmlDiff escapes its input; only its markup reaches the page unescaped.
        table = difflib.HtmlDiff(wrapcolumn=90).make_table(
            st.approval.draft_text.splitlines(), art.draft.text.splitlines(), "approved", "current", context=True
        )
    env = Environment(autoescape=True, undefined=StrictUndefined)
    html = env.from_string(PAGE).render(
        lang=art.draft.meta.lang,
        slug=art.slug,
        draft=art.draft.path,
        qc=qc_name,
        approved=st.approved,
        headline=st.summary().splitlines()[0],
        command=None if st.approved else f"publish review {st.article}",
        errors=st.unwaived_errors,
        reports=[r.describe() for r in d.reports] if d else [],
        changed=d.changed if d else [],
        added=d.added if d else [],
        removed=d.removed if d else [],
        text_diff=table,
    )
    page = out / f"{art.slug}.html"
    atomic_write(page, html)
    return page


# --- impact of a changed report --------------------------------------------------------------------------------


@dataclass
class ClaimImpact:
    """An approved claim whose source figure changed value or disappeared in the report's current version."""

    claim: Claim
    old: FigureRef
    new: Figure | None  # None: no figure of the current version is the same measurement

    def describe(self) -> str:
        where = f"«{_short(self.claim.sentence)}»"
        if self.new is None:
            return f"{self.claim.text}: figure {self.old.describe()} disappeared {where}"
        return (
            f"{self.claim.text}: {self.old.describe()} → {self.new.report} p.{self.new.page} {self.new.raw}"
            f"{' ' + self.new.unit if self.new.unit else ''} ({', '.join(self.old.labels[-3:])}) {where}"
        )


@dataclass
class ArticleImpact:
    """One article citing the report: whether its approval predates the current version, and what changed."""

    slug: str
    draft: str
    approved: ReportRef | None  # the version the approval was made against (None: not in an approval)
    current: ReportRef
    has_approval: bool = False
    claims: list[ClaimImpact] = field(default_factory=list)

    @property
    def needs_review(self) -> bool:
        return self.approved != self.current


def find_impact(report_id: str, root: ContentRoot, store: Store) -> list[ArticleImpact]:
    """Articles citing `report_id`, each with its approved claims whose figure changed or disappeared."""
    report = store.report(report_id)
    if report is None:
        raise InputError(f"report {report_id} is not in the evidence store", path=root.reports / "reports.yaml")
    current = ReportRef(id=report_id, version=report.version, sha256=report.sha256)
    figures = store.figures(report_id, report.version)
    pages = {p.page: p.text for p in store.pages(report_id, report.version)}
    out = []
    for path in sorted(root.articles.glob("*.md")):
        draft = read_draft(path, max_bytes=root.config.limits.max_article_bytes)
        if report_id not in cited_reports(draft):
            continue
        approval = load_approval(root.approvals / f"{draft.slug}.json")
        item = ArticleImpact(
            draft.slug,
            str(path),
            approval.snapshot.reports.get(report_id) if approval else None,
            current,
            has_approval=approval is not None,
        )
        if approval and item.needs_review:
            for c in approval.snapshot.claims:
                if c.source is None or c.source.report != report_id:
                    continue
                if not c.source.figure:  # a row key or term QC found in the text: is it still there?
                    if not _in_pages(c.source, pages):
                        item.claims.append(ClaimImpact(c, c.source, None))
                    continue
                new = _same_figure(c.source, figures, store)
                if new is None or new.value != c.source.value or new.unit != c.source.unit:
                    item.claims.append(ClaimImpact(c, c.source, new))
        out.append(item)
    return out


def _in_pages(old: FigureRef, pages: dict[int, str]) -> bool:
    """Whether every word of a figure-less source's labels still stands on its page."""
    words = [w for label in old.labels for w in label.split()]
    text = pages.get(old.page, "")
    return bool(words) and all(w in text for w in words)


def _same_figure(old: FigureRef, figures: list[Figure], store: Store) -> Figure | None:
    """The current version's figure measuring what `old` measured: same labels (table, row, column), else closest."""
    for f in figures:
        if f.id == old.figure:
            return f
    labels = old.labels
    if not labels:
        prev = store.figure(old.figure)
        labels = prev.labels if prev else []
    if not labels:
        return None
    exact = [f for f in figures if f.labels == labels]
    if exact:
        return min(exact, key=lambda f: (f.page != old.page, abs(f.value - old.value)))
    # Prose figures are labelled by their sentence, which holds the changed number itself: compare loosely.
    key = " ".join(labels)
    scored = [
        (difflib.SequenceMatcher(None, key, " ".join(f.labels), autojunk=False).ratio(), f)
        for f in figures
        if f.unit == old.unit and f.page == old.page
    ]
    best = max(scored, key=lambda t: t[0], default=None)
    return best[1] if best and best[0] >= 0.85 else None


def impact(report_id: str, *, root: Path, echo: Echo) -> None:
    """`publish evidence impact ID`: which articles cite the report and which approved claims it changed."""
    content = open_root(root)
    if report_id not in {r.id for r in load_registry(content.reports)}:
        raise InputError(f"unknown report id {report_id!r}", path=content.reports / "reports.yaml")
    with root_lock(content.state):
        ingest(content.reports, content.store, limits=content.config.limits.to_ingest())
        with Store(content.store) as store:
            items = find_impact(report_id, content, store)
    if not items:
        echo(f"no article cites {report_id}")
        return
    for it in items:
        if it.approved is None:
            why = "its approval predates citing it" if it.has_approval else "not approved yet"
            echo(f"{it.slug}: cites {report_id} {it.current.describe()}; {why}", fg="yellow")
        elif not it.needs_review:
            echo(f"{it.slug}: approved against the current {report_id} {it.current.describe()}", fg="green")
        else:
            echo(
                f"{it.slug}: approved against {report_id} {it.approved.describe()}, now {it.current.describe()}"
                f" — needs review: publish review {it.draft}",
                fg="yellow",
                bold=True,
            )
            for c in it.claims:
                echo(f"  {c.describe()}", fg="red" if c.new is None else "yellow")
            if not it.claims:
                echo("  no approved claim's figure changed")
