"""The bundled example's approvals match its committed drafts and reports (else `publish` would stop at review)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.reviewing import load_article
from qc.review import load_approval

EXAMPLE = Path(__file__).resolve().parent.parent / "site"
SLUGS = sorted(p.stem for p in (EXAMPLE / "articles").glob("*.yaml"))


@pytest.mark.parametrize("slug", SLUGS)
def test_example_article_is_approved(example_root: Path, slug: str) -> None:
    approval = load_approval(example_root / "approvals" / f"{slug}.json")
    assert approval is not None, f"site/approvals/{slug}.json is missing"
    assert approval.reviewer and not approval.waivers  # the example needs no waiver: it checks clean
    status = load_article(example_root / "articles" / f"{slug}.yaml").status
    assert status.approved, (
        f"site/approvals/{slug}.json is stale; after checking the diff, refresh it with "
        f"`publish approve site/articles/{slug}.yaml --reviewer NAME`:\n{status.summary()}"
    )
    # The approval stores the approved draft so the next review can show a text diff.
    assert approval.draft_text == (example_root / "articles" / f"{slug}.md").read_text(encoding="utf-8")
