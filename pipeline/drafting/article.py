"""`draft_article`: write (or reuse) `articles/<slug>.md` for a brief, offline or with a chat model."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence.fsutil import atomic_write
from pipeline.brief import Brief
from pipeline.config import ContentRoot
from pipeline.drafting import fileformat
from pipeline.drafting.offline import ITEM_NUMBERS, Avoid, avoided, write_offline
from pipeline.drafting.verdict import judge
from pipeline.errors import DraftError
from qc.draft import Draft, parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult

Echo = Callable[..., None]
SELF_CHECKS = 4  # rounds of the offline drafter's own QC (each leaves out what the previous could not back)


@dataclass
class DraftOutcome:
    """What `draft_article` did: the draft on disk, whether it passes QC and whether it was reused."""

    path: Path
    draft: Draft
    ok: bool
    reused: bool
    result: FileResult | None = None
    report_path: Path | None = None
    drafter: str = "offline"
    message: str = ""
    backup: Path | None = None

    def __str__(self) -> str:
        verb = ("kept" if self.message else "reused") if self.reused else ("drafted" if self.ok else "FAILED QC")
        parts = [f"{verb} {self.path} ({self.drafter})"]
        if self.result is not None:
            errors = len(self.result.errors())
            parts.append(f"{len(self.result.numbers)} numbers, {errors} error{'s' * (errors != 1)}")
        if self.message:
            parts.append(self.message)
        if self.backup:
            parts.append(f"previous draft kept as {self.backup.name}")
        if self.report_path:
            parts.append(f"QC report: {self.report_path}")
        return "; ".join(parts)


def _quiet(*_: Any, **__: Any) -> None:
    pass


def draft_article(
    brief: Brief,
    root: ContentRoot,
    index: EvidenceIndex,
    *,
    redraft: bool = False,
    drafter: str | None = None,
    echo: Echo | None = None,
) -> DraftOutcome:
    """Write (or reuse) `articles/<slug>.md` for `brief`; an LLM draft is repaired from QC findings."""
    echo = echo or _quiet
    cfg = fileformat.settings(brief, root, drafter)
    path = root.articles / f"{brief.slug}.md"
    missing = [r for r in brief.evidence if r not in index.reports]
    if missing:
        raise DraftError(
            f"report {', '.join(missing)} is not in the evidence store (run `publish evidence ingest`)",
            path=root.articles / f"{brief.slug}.yaml",
        )
    inputs = fileformat.inputs_hash(brief, index, cfg)
    severity: dict[str, str] = dict(root.config.qc.severity)
    max_bytes = root.config.limits.max_article_bytes  # as the build and review apply it
    old_text = fileformat.read_existing(path, max_bytes)
    edited = False

    if old_text is not None:
        edited, old_inputs = fileformat.inspect(old_text, max_bytes)
        if edited and not redraft:
            draft = parse_draft(old_text, path, max_bytes=max_bytes)  # a broken hand edit is reported with its line
            return DraftOutcome(
                path,
                draft,
                True,
                True,
                judge(draft, index, severity),
                drafter=draft.meta.drafted.drafter if draft.meta.drafted else "by hand",
                message="edited by hand, kept as is (use --redraft to replace it; a backup is kept)",
            )
        if not edited and not redraft and old_inputs == inputs:
            draft = parse_draft(old_text, path, max_bytes=max_bytes)
            result = judge(draft, index, severity)
            if result.ok:  # a cached draft that failed QC (an LLM that gave up) is tried again
                return DraftOutcome(path, draft, True, True, result, drafter=cfg.model)

    date, updated = fileformat.dates(old_text, path, max_bytes)
    if cfg.model == "offline":
        # The drafter's own QC, the reviewer's verdict: what it cannot back is left out and the draft written again.
        avoid: Avoid = frozenset()
        for _ in range(SELF_CHECKS):
            content = write_offline(brief, index, avoid)
            text = fileformat.render_draft(brief, content, drafter=cfg.model, inputs=inputs, date=date, updated=updated)
            draft = parse_draft(text, path, max_bytes=max_bytes)
            result = judge(draft, index, severity)
            # A sentence QC reads with more numbers than a list item may state is left out too (reference density).
            per_sentence: dict[tuple[str, str], list[str]] = defaultdict(list)
            for n in result.numbers:
                if n.status != "exempt":  # a version, a percentile's name or a citation is no figure of the item
                    per_sentence[(n.field, n.sentence)].append(n.text)
            dense = {(avoided(f, s), texts[0]) for (f, s), texts in per_sentence.items() if len(texts) > ITEM_NUMBERS}
            found = avoid | dense | {(avoided(n.field, n.sentence), n.text) for n in result.errors()}
            if found == avoid:
                break
            avoid = found
    else:
        from pipeline.drafting.llm import llm_draft  # LangChain is imported only when a model drafts

        text, draft, result = llm_draft(
            brief,
            index,
            cfg,
            inputs=inputs,
            date=date,
            updated=updated,
            path=path,
            severity=severity,
            echo=echo,
            max_bytes=max_bytes,
        )

    # Only a hand edit needs a backup: a machine draft is reproduced from its inputs (or was stale anyway).
    backup = fileformat.backup(path, old_text, text) if old_text is not None and edited else None
    atomic_write(path, text)
    report_path = path.with_name(f"{brief.slug}.qc.txt")
    ok = result is None or result.ok
    if not ok:
        atomic_write(report_path, _qc_text(result))
    elif report_path.exists():
        report_path.unlink()  # a stale failure report would contradict the passing draft
    return DraftOutcome(path, draft, ok, False, result, report_path if not ok else None, cfg.model, backup=backup)


def _qc_text(result: FileResult | None) -> str:
    from qc.models import CheckReport
    from qc.report import render_text

    assert result is not None
    return render_text(CheckReport(ok=result.ok, files=[result]))
