"""The one scope rule: which reports a draft, and each of its numbers, is checked against."""

from __future__ import annotations

from collections.abc import Container

from evidence.errors import InputError
from qc.blocks import Block, Item
from qc.claims import Sentence
from qc.draft import Draft, citations
from qc.index import EvidenceIndex


def article_reports(draft: Draft) -> list[str]:
    """Every report the draft names, in order: its front matter's `evidence`, then each citation marker's reports.
    Check, review, the build's gate and the pages all load and list exactly these."""
    ids = list(dict.fromkeys(draft.meta.evidence))
    for _, _, found in citations(draft.text):
        ids.extend(i for i in found if i not in ids)
    return ids


def article_index(draft: Draft, index: EvidenceIndex) -> EvidenceIndex:
    """The part of `index` the draft names, in the draft's order. QC verdicts depend on which reports are loaded
    (a number found only in another report is `uncited`, else `unsupported`) and in which order (ties), so
    `check_draft` checks every draft against exactly this, whatever index a stage hands it."""
    return index.subset(article_reports(draft))


def require_known(draft: Draft, known: Container[str]) -> None:
    """Every report the draft names must be registered (and so loadable): one message, with the line, everywhere."""
    for rid in dict.fromkeys(draft.meta.evidence):
        if rid not in known:
            raise InputError(f"unknown report id {rid!r} in evidence (not in reports.yaml)", path=draft.path,
                             line=draft.front_lines.get("evidence"))  # fmt: skip
    for start, _, ids in citations(draft.text):
        for rid in ids:
            if rid not in known:
                line = draft.text.count("\n", 0, start) + 1
                raise InputError(
                    f"unknown report id {rid!r} in citation (not in reports.yaml)", path=draft.path, line=line
                )


def number_scope(block: Block, sent: Sentence, evidence: list[str]) -> list[str]:
    """The reports one number is checked against: a marker in its sentence decides (in the front matter too), then
    the full sentence's markers, then the block's (a list item's, up its parents and the paragraph introducing the
    list; a table's, or the paragraph before it); the front matter and headings take the draft's `evidence`."""
    if sent.cites:
        return sent.cites
    if sent.full_cites:
        return sent.full_cites
    if block.kind in ("front", "heading"):
        return list(evidence)
    if block.kind == "item" and block.item is not None:
        item: Item | None = block.item
        while item is not None:
            if item.cites:
                return item.cites
            if item.intro:
                return item.intro
            item = item.parent
        return []
    if block.cites:
        return block.cites
    return block.intro
