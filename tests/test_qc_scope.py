"""One scope rule: check, approve and build agree on a marker citing a report beyond the front matter's evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence.errors import InputError
from pipeline.checking import check_files
from pipeline.publish import build_only
from pipeline.reviewing import approve, load_article
from qc.draft import parse_draft
from qc.review import article_index as review_article_index
from qc.review import cited_reports
from qc.scope import article_index, article_reports

SLUG = "scope-case"
# R1 is registered but not in `evidence`: its marker brings it into the draft's scope. (R1 p.2, table 5-1 prints
# 保存时间 178 s for the baseline and 94 s for FX100; R2 p.2 prints TTFT p50 7.53 s for FX100.)
DRAFT = """---
title: 范围规则
lang: zh
date: 2026-07-10
evidence: [R2]
answer: FX100 的 TTFT p50 为 7.53s。
---

FX100 的 TTFT p50 为 7.53s【出处:R2 实测】。

FX100 的 Checkpoint 保存时间为 94 s【出处:R1 实测】。
"""


def _quiet(*_: object, **__: object) -> None:
    return None


@pytest.fixture
def root(example_root: Path) -> Path:
    for old in (example_root / "articles").glob("*"):
        old.unlink()
    for old in (example_root / "approvals").glob("*.json"):
        old.unlink()
    (example_root / "articles" / f"{SLUG}.md").write_text(DRAFT, encoding="utf-8")
    return example_root


def test_article_reports_is_evidence_then_markers_and_review_delegates() -> None:
    draft = parse_draft(DRAFT, path="x.md")
    assert article_reports(draft) == ["R2", "R1"]
    assert cited_reports(draft) == {"R1", "R2"}
    assert review_article_index is article_index


def test_marker_beyond_evidence_passes_check_approve_and_build_alike(root: Path) -> None:
    draft = root / "articles" / f"{SLUG}.md"
    assert check_files([draft], evidence_dir=None, fmt="text", out=None, echo=_quiet)
    art = load_article(draft)
    assert art.result.ok, [(n.text, n.status, n.message) for n in art.result.errors()]
    assert sorted(art.index.reports) == ["R1", "R2"]
    approve(draft, reviewer="tester", note=None, waive=[], reasons=[], echo=_quiet)
    assert load_article(draft).status.approved
    built = build_only(root, out=None, preview=False, echo=_quiet)  # before: aborted, "R1 not in the evidence registry"
    assert SLUG in built.articles
    page = built.articles[SLUG].read_text(encoding="utf-8")
    assert "94" in page and "R1" in page


def test_unknown_marker_is_the_same_bad_input_in_check_approve_and_build(root: Path) -> None:
    draft = root / "articles" / f"{SLUG}.md"
    draft.write_text(DRAFT.replace("【出处:R1 实测】", "【出处:R7 实测】"), encoding="utf-8")
    messages = []
    for run in (
        lambda: check_files([draft], evidence_dir=None, fmt="text", out=None, echo=_quiet),
        lambda: load_article(draft),
        lambda: build_only(root, out=None, preview=False, echo=_quiet),
    ):
        with pytest.raises(InputError) as err:
            run()
        messages.append(str(err.value))
    assert all("unknown report id 'R7' in citation" in m for m in messages), messages
    assert all(f"{SLUG}.md" in m and ":11" in m for m in messages), messages
