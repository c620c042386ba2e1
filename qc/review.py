"""Review snapshots and approvals: a reviewer's decision bound to the draft, its QC verdicts and the cited reports."""

from __future__ import annotations

import difflib
import json
import os
import shlex
import stat
from collections import defaultdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from evidence.errors import InputError
from evidence.fsutil import atomic_write
from evidence.limits import MAX_APPROVAL_BYTES
from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.models import FileResult, NumberCheck
from qc.scope import article_index, article_reports  # noqa: F401  # article_index: importable here as before

APPROVAL_FORMAT = 1
# Two sentences this similar are taken as the same sentence edited (pairs a changed number with its old self).
SIMILAR = 0.6


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FigureRef(_Frozen):
    """The report figure a claim rests on, as approved (labels kept so `impact` survives a rebuilt store)."""

    report: str
    version: int
    figure: str
    value: float
    unit: str = ""
    page: int
    labels: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        return f"{self.report} v{self.version} p.{self.page} {_num(self.value)}{_sp(self.unit)}"


class Claim(_Frozen):
    """One number of the article in line-number-free form; `key` is its identity across snapshots."""

    key: str  # finding id, plus `#n` when the same text stands twice in one sentence
    finding: str  # NumberCheck.id (what a waiver names)
    field: str
    sentence: str
    text: str
    value: float | None
    unit: str = ""
    status: str
    severity: str
    source: FigureRef | None = None
    derivation: str | None = None

    def verdict(self) -> tuple[object, ...]:
        """What a reviewer judges: the number and its verdict, not where it stands nor which ingest of the report."""
        src = self.source
        where = (src.report, src.value, src.unit, src.page, tuple(src.labels)) if src else None
        return (self.text, self.value, self.unit, self.status, self.severity, where, self.derivation)

    def describe(self) -> str:
        src = f" ← {self.source.describe()}" if self.source else ""
        der = f" [{self.derivation}]" if self.derivation else ""
        return f"{self.text} ({self.status}){src}{der}"


class ReportRef(_Frozen):
    """A cited report's version and content hash (version 0 and an empty hash: not in the evidence store)."""

    id: str
    version: int
    sha256: str

    def describe(self) -> str:
        return f"v{self.version} {self.sha256[:12]}" if self.sha256 else "missing"


class Snapshot(_Frozen):
    """The article as QC saw it: draft hash, cited reports' hashes and every claim."""

    draft_sha256: str
    reports: dict[str, ReportRef]
    claims: list[Claim]

    def binding(self) -> dict[str, object]:
        """What an approval is bound to: the snapshot by content, without the store's version numbers (the same
        bytes ingested again get a new version: restoring a report's approved bytes restores the approval)."""
        return self.model_dump(
            exclude={"reports": {"__all__": {"version"}}, "claims": {"__all__": {"source": {"version"}}}}
        )

    def matches(self, other: Snapshot) -> bool:
        return self.binding() == other.binding()


class ClaimChange(_Frozen):
    """A claim present in both snapshots whose number, verdict or source changed."""

    old: Claim
    new: Claim

    def describe(self) -> str:
        parts = []
        if self.old.text != self.new.text:
            parts.append(f"{self.old.text} → {self.new.text}")
        if self.old.status != self.new.status:
            parts.append(f"status {self.old.status} → {self.new.status}")
        if self.old.source != self.new.source:
            old = self.old.source.describe() if self.old.source else "none"
            new = self.new.source.describe() if self.new.source else "none"
            if old == new and self.old.source and self.new.source:  # same value and page, other row or column
                old, new = ", ".join(self.old.source.labels), ", ".join(self.new.source.labels)
            parts.append(f"source {old} → {new}")
        if self.old.derivation != self.new.derivation:
            parts.append(f"derivation {self.old.derivation or 'none'} → {self.new.derivation or 'none'}")
        if not parts:
            parts.append(f"{self.old.describe()} → {self.new.describe()}")
        return f"{self.new.text}: " + "; ".join(parts)


class ReportChange(_Frozen):
    """A cited report whose version or hash changed, or which is newly cited or no longer cited."""

    id: str
    old: ReportRef | None
    new: ReportRef | None

    def describe(self) -> str:
        old = self.old.describe() if self.old else "not cited"
        new = self.new.describe() if self.new else "not cited"
        return f"report {self.id}: {old} → {new}"


class SnapshotDiff(_Frozen):
    """What changed between the approved snapshot (None: never approved) and the current one."""

    first: bool
    draft_changed: bool
    old_draft_sha256: str | None
    new_draft_sha256: str
    reports: list[ReportChange] = Field(default_factory=list)
    added: list[Claim] = Field(default_factory=list)
    removed: list[Claim] = Field(default_factory=list)
    changed: list[ClaimChange] = Field(default_factory=list)
    moved: int = 0  # claims with an unchanged verdict in an edited sentence or from a new ingest of the same figure

    @property
    def empty(self) -> bool:
        return not (
            self.first or self.draft_changed or self.reports or self.added or self.removed or self.changed or self.moved
        )

    def items(self) -> list[str]:
        """One line per difference, in the order a reviewer goes through them."""
        out = []
        if self.first:
            out.append("no approval yet")
        elif self.draft_changed:
            out.append(
                f"draft text changed (hash approved {(self.old_draft_sha256 or '')[:12]}…, now {self.new_draft_sha256[:12]}…)"
            )
        out += [r.describe() for r in self.reports]
        out += [f"claim changed: {c.describe()}" for c in self.changed]
        out += [f"claim added: {c.describe()}" for c in self.added]
        out += [f"claim removed: {c.describe()}" for c in self.removed]
        return out

    def restated(self) -> str:
        """Claims that differ only in wording or ids: nothing to decide, but the snapshot changed."""
        if not self.moved:
            return ""
        return f"{self.moved} claims restated with the same verdicts (sentence, finding id or figure id changed)"

    def summary(self) -> str:
        if self.first:
            return f"no approval yet ({len(self.added)} claims to review)"
        if self.empty:
            return "no changes"
        counts = [
            f"{n} {what}"
            for n, what in (
                (len(self.changed), "claims changed"),
                (len(self.added), "added"),
                (len(self.removed), "removed"),
                (len(self.reports), "reports changed"),
            )
            if n
        ]
        if counts:
            head = ", ".join(counts)
        elif self.draft_changed:
            head = "draft text changed, no claim changed"
        else:
            head = "no number or verdict changed, but the snapshot did"
        lines = self.items()[:8] + ([self.restated()] if self.moved else [])
        return head + "".join(f"\n  {line}" for line in lines)


class Waiver(_Frozen):
    """A reviewer's explicit acceptance of one error finding, bound to its exact text and sentence."""

    finding: str
    reason: str
    text: str
    sentence: str

    @field_validator("reason")
    @classmethod
    def _reason(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("a waiver needs a non-empty reason")
        return v

    def covers(self, n: NumberCheck) -> bool:
        return self.finding == n.id and self.text == n.text and self.sentence == n.sentence


class Approval(BaseModel):
    """`approvals/<slug>.json`: who approved which snapshot, when, and which errors they waived."""

    model_config = ConfigDict(extra="forbid")

    format: int = APPROVAL_FORMAT
    reviewer: str
    time: str  # ISO 8601
    note: str | None = None
    waivers: list[Waiver] = Field(default_factory=list)
    snapshot: Snapshot
    draft_text: str = ""  # the approved draft, so the next review can show a text diff

    @field_validator("reviewer")
    @classmethod
    def _reviewer(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("reviewer may not be empty")
        return v.strip()


class ApprovalStatus(BaseModel):
    """The gate's verdict for one article."""

    approved: bool
    unwaived_errors: list[NumberCheck] = Field(default_factory=list)
    diff: SnapshotDiff | None = None
    approval: Approval | None = None
    snapshot: Snapshot
    article: str  # what to pass to `publish review`

    def summary(self) -> str:
        if self.unwaived_errors:
            lines = [f"{len(self.unwaived_errors)} QC errors not waived in {self.article}:"]
            lines += [
                f"  {n.line}:{n.column}: {n.text} ({n.status}) {n.message}".rstrip() for n in self.unwaived_errors
            ]
            lines.append(
                f"fix the draft, or waive each with: publish approve {_q(self.article)} --waive ID --reason TEXT"
            )
            lines += [f"  ID {n.id}: {n.text}" for n in self.unwaived_errors]
            return "\n".join(lines)
        if self.approved:
            assert self.approval is not None
            return f"approved by {self.approval.reviewer} at {self.approval.time}"
        diff = self.diff.summary() if self.diff else "snapshot changed"
        return f"waiting for review: {diff}\nrun: publish review {_q(self.article)}"


def snapshot(draft: Draft, result: FileResult, index: EvidenceIndex) -> Snapshot:
    """The article's claims, draft hash and cited reports' hashes, free of line numbers."""
    claims = []
    seen: dict[str, int] = defaultdict(int)
    for n in sorted(result.numbers, key=lambda n: (_field_order(n.field), n.start, n.end)):
        seen[n.id] += 1
        key = n.id if seen[n.id] == 1 else f"{n.id}#{seen[n.id]}"
        claims.append(
            Claim(
                key=key,
                finding=n.id,
                field=n.field,
                sentence=n.sentence,
                text=n.text,
                value=n.value,
                unit=n.unit,
                status=n.status,
                severity=n.severity,
                source=_ref(n, index),
                derivation=n.derivation,
            )
        )
    reports = {}
    for rid in sorted(cited_reports(draft)):
        rep = index.reports.get(rid)
        reports[rid] = (
            ReportRef(id=rid, version=rep.version, sha256=rep.sha256)
            if rep
            else ReportRef(id=rid, version=0, sha256="")
        )
    return Snapshot(draft_sha256=draft.sha256, reports=reports, claims=claims)


def cited_reports(draft: Draft) -> set[str]:
    """Every report the draft names (`qc.scope.article_reports`, as a set)."""
    return set(article_reports(draft))


def diff_snapshots(old: Snapshot | None, new: Snapshot) -> SnapshotDiff:
    """Claims added, removed and changed, reports changed, and whether the draft changed."""
    if old is None:
        return SnapshotDiff(
            first=True,
            draft_changed=True,
            old_draft_sha256=None,
            new_draft_sha256=new.draft_sha256,
            reports=[ReportChange(id=r.id, old=None, new=r) for r in new.reports.values()],
            added=list(new.claims),
        )
    reports = [
        ReportChange(id=rid, old=old.reports.get(rid), new=new.reports.get(rid))
        for rid in sorted(set(old.reports) | set(new.reports))
        if old.reports.get(rid) != new.reports.get(rid)
    ]
    changed, added, removed, moved = _pair_claims(old.claims, new.claims)
    return SnapshotDiff(
        first=False,
        draft_changed=old.draft_sha256 != new.draft_sha256,
        old_draft_sha256=old.draft_sha256,
        new_draft_sha256=new.draft_sha256,
        reports=reports,
        added=added,
        removed=removed,
        changed=changed,
        moved=moved,
    )


def text_diff(old: str, new: str, name: str = "draft") -> list[str]:
    """Unified diff of two draft texts (lines without trailing newlines)."""
    return list(
        difflib.unified_diff(
            old.splitlines(), new.splitlines(), f"{name} (approved)", f"{name} (current)", lineterm="", n=2
        )
    )


def load_approval(path: Path) -> Approval | None:
    """Read an approval file; None if absent, InputError naming the file (and line) if it is corrupt."""
    path = Path(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise InputError("an approval must be a regular file (this is a folder, device or FIFO)", path=path)
        if st.st_size > MAX_APPROVAL_BYTES:
            raise InputError(f"approval is {st.st_size:,} bytes, over the limit of {MAX_APPROVAL_BYTES:,}", path=path)
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read approval: {e}", path=path) from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"corrupt approval (invalid JSON: {e.msg}); fix or delete it", path=path, line=e.lineno) from e
    except RecursionError as e:  # `[[[[…` 100,000 deep
        raise InputError("corrupt approval (nested too deep); fix or delete it", path=path) from e
    try:
        return Approval.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "top level"
        raise InputError(f"corrupt approval ({where}: {err['msg']}); fix or delete it", path=path) from e


def write_approval(path: Path, approval: Approval) -> None:
    """Write the approval atomically, as stable git-friendly JSON (sorted keys, indented, final newline)."""
    data = approval.model_dump(mode="json")
    atomic_write(path, json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n")


def approval_status(draft: Draft, result: FileResult, index: EvidenceIndex, approvals_dir: Path) -> ApprovalStatus:
    """Approved ⇔ an approval exists whose snapshot equals the current one and every error is waived."""
    approval = load_approval(Path(approvals_dir) / f"{draft.slug}.json")
    current = snapshot(draft, result, index)
    waivers = approval.waivers if approval else []
    unwaived = [n for n in result.errors() if not any(w.covers(n) for w in waivers)]
    same = approval is not None and approval.snapshot.matches(current)
    return ApprovalStatus(
        approved=same and not unwaived,
        unwaived_errors=unwaived,
        diff=None if same else diff_snapshots(approval.snapshot if approval else None, current),
        approval=approval,
        snapshot=current,
        article=_article_arg(draft),
    )


def is_approved(draft: Draft, result: FileResult, index: EvidenceIndex, approvals_dir: Path) -> bool:
    """`approval_status(...).approved`, without the diff a reviewer reads: what a build asks of every article."""
    approval = load_approval(Path(approvals_dir) / f"{draft.slug}.json")
    if approval is None or not approval.snapshot.matches(snapshot(draft, result, index)):
        return False
    return all(any(w.covers(n) for w in approval.waivers) for n in result.errors())


def _pair_claims(old: list[Claim], new: list[Claim]) -> tuple[list[ClaimChange], list[Claim], list[Claim], int]:
    """Match claims by identity, then by same text in an edited sentence, then by an edited number in place."""
    changed: list[ClaimChange] = []
    moved = 0
    new_by_key = {c.key: c for c in new}
    rest_old = []
    matched: set[str] = set()
    for c in old:
        n = new_by_key.get(c.key)
        if n is None:
            rest_old.append(c)
            continue
        matched.add(n.key)
        if n.verdict() != c.verdict():
            changed.append(ClaimChange(old=c, new=n))
        elif n != c:
            moved += 1
    rest_new = [c for c in new if c.key not in matched]

    def best(c: Claim, pool: list[Claim], same_text: bool) -> Claim | None:
        scored = []
        for n in pool:
            if n.field != c.field or (same_text and n.text != c.text):
                continue
            a = c.sentence.replace(c.text, "\0", 1)
            b = n.sentence.replace(n.text, "\0", 1)
            ratio = 1.0 if a == b else difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
            if ratio >= SIMILAR:
                scored.append((ratio, -pool.index(n), n))
        return max(scored, key=lambda t: (t[0], t[1]))[2] if scored else None

    for same_text in (True, False):
        left = []
        for c in rest_old:
            n = best(c, rest_new, same_text)
            if n is None:
                left.append(c)
                continue
            rest_new.remove(n)
            if n.verdict() == c.verdict():
                moved += 1
            else:
                changed.append(ClaimChange(old=c, new=n))
        rest_old = left
    return changed, rest_new, rest_old, moved


def _ref(n: NumberCheck, index: EvidenceIndex) -> FigureRef | None:
    s = n.source
    if s is None:
        return None
    labels = list(s.labels)
    if not labels:
        fig = index.figure(s.figure)
        labels = list(fig.labels) if fig else []
    return FigureRef(
        report=s.report, version=s.version, figure=s.figure, value=s.value, unit=s.unit, page=s.page, labels=labels
    )


def _field_order(field: str) -> tuple[int, str]:
    order = {"title": 0, "answer": 1, "body": 3}
    return (order.get(field, 2), field)


def _article_arg(draft: Draft) -> str:
    """The path to give `publish review`: the brief next to the draft if there is one, relative to the cwd."""
    p = Path(draft.path)
    brief = p.with_suffix(".yaml")
    p = brief if brief.is_file() else p
    try:
        rel = os.path.relpath(p)
    except ValueError:  # another drive on Windows
        return str(p)
    return str(p.resolve()) if rel.startswith("..") else rel


def _q(s: str) -> str:
    return shlex.quote(s)


def _num(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e15 else str(v)


def _sp(unit: str) -> str:
    return f" {unit}" if unit else ""
