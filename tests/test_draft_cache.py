"""Draft caching and hand-edit protection: reuse on same inputs, never overwrite an edit without --redraft."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from draft_support import ingested

from pipeline.brief import load_brief
from pipeline.config import open_root
from pipeline.drafting.article import DraftOutcome, draft_article
from qc.draft import read_draft
from qc.index import EvidenceIndex

SLUG = "kv-cache-ttft"


@pytest.fixture
def index(example_root: Path) -> EvidenceIndex:
    for old in (example_root / "articles").glob("*.md"):  # start without the bundled example drafts
        old.unlink()
    return ingested(example_root)


def _run(root: Path, index: EvidenceIndex, **kw: object) -> DraftOutcome:
    brief = load_brief(root / "articles" / f"{SLUG}.yaml")
    return draft_article(brief, open_root(root), index, **kw)  # type: ignore[arg-type]


def _md(root: Path) -> Path:
    return root / "articles" / f"{SLUG}.md"


def _fresh(root: Path) -> None:
    for p in (root / "articles").glob(f"{SLUG}.md*"):
        p.unlink()


def test_same_inputs_reuse_the_draft(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    first = _run(example_root, index)
    assert not first.reused and first.ok
    before = _md(example_root).read_bytes()
    second = _run(example_root, index)
    assert second.reused and second.ok and not second.message
    assert _md(example_root).read_bytes() == before
    assert "reused" in str(second)


def test_changed_brief_redrafts(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    first = _run(example_root, index)
    brief_path = example_root / "articles" / f"{SLUG}.yaml"
    data = yaml.safe_load(brief_path.read_text(encoding="utf-8"))
    data["faq_count"] = 2
    brief_path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    second = _run(example_root, index)
    assert not second.reused
    assert second.draft.meta.drafted.inputs != first.draft.meta.drafted.inputs  # type: ignore[union-attr]
    assert len(second.draft.meta.faq) == 2
    assert second.backup is None  # a machine draft that went stale is simply replaced


def test_changed_report_redrafts(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    first = _run(example_root, index)
    r2 = index.reports["R2"].model_copy(update={"sha256": "0" * 64, "version": 2})
    newer = EvidenceIndex(reports={**index.reports, "R2": r2}, figures=index.figures, pages=index.pages)
    second = _run(example_root, newer)
    assert not second.reused
    assert second.draft.meta.drafted.inputs != first.draft.meta.drafted.inputs  # type: ignore[union-attr]


def test_hand_edit_is_kept(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    _run(example_root, index)
    edited = _md(example_root).read_text(encoding="utf-8").replace("## ", "## (edited) ", 1)
    _md(example_root).write_text(edited, encoding="utf-8")
    outcome = _run(example_root, index)
    assert outcome.reused and "edited by hand" in outcome.message and "--redraft" in str(outcome)
    assert _md(example_root).read_text(encoding="utf-8") == edited
    # Even when the inputs change, an edit is not overwritten.
    r2 = index.reports["R2"].model_copy(update={"sha256": "1" * 64})
    outcome = _run(
        example_root, EvidenceIndex(reports={**index.reports, "R2": r2}, figures=index.figures, pages=index.pages)
    )
    assert outcome.reused and _md(example_root).read_text(encoding="utf-8") == edited


def test_redraft_backs_up_the_edit(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    _run(example_root, index)
    edited = _md(example_root).read_text(encoding="utf-8") + "\n手写的补充段落。\n"
    _md(example_root).write_text(edited, encoding="utf-8")
    outcome = _run(example_root, index, redraft=True)
    assert not outcome.reused and outcome.ok
    assert outcome.backup == example_root / "articles" / f"{SLUG}.md.bak"
    assert outcome.backup.read_text(encoding="utf-8") == edited
    assert "手写的补充段落" not in _md(example_root).read_text(encoding="utf-8")
    # A second, different edit does not clobber the first backup.
    _md(example_root).write_text(edited + "再改一次。\n", encoding="utf-8")
    again = _run(example_root, index, redraft=True)
    assert again.backup is not None and again.backup != outcome.backup
    assert outcome.backup.read_text(encoding="utf-8") == edited


def test_backups_within_one_second_never_overwrite_each_other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt

    from pipeline.drafting import fileformat

    class _Frozen(dt.datetime):
        @classmethod
        def now(cls, tz: dt.tzinfo | None = None) -> _Frozen:
            return cls(2026, 12, 1, 12, 0, 0)

    monkeypatch.setattr(fileformat.dt, "datetime", _Frozen)
    draft = tmp_path / "a.md"
    kept = [fileformat.backup(draft, f"edit {n}\n", "machine draft\n") for n in range(4)]
    assert len({p for p in kept if p}) == 4
    assert [p.read_text(encoding="utf-8") for p in kept if p] == [f"edit {n}\n" for n in range(4)]
    # The same text twice is kept once.
    assert fileformat.backup(draft, "edit 2\n", "machine draft\n") == kept[2]


def test_draft_records_its_hashes(example_root: Path, index: EvidenceIndex) -> None:
    _fresh(example_root)
    outcome = _run(example_root, index)
    meta = read_draft(_md(example_root)).meta
    assert meta.drafted is not None and meta.drafted.drafter == "offline"
    assert len(meta.drafted.inputs) == 32 and len(meta.drafted.output) == 32
    assert meta.slug == SLUG and meta.evidence == ["R1", "R2", "R9"] and meta.date == outcome.draft.meta.date


def test_source_date_epoch_pins_the_date(
    example_root: Path, index: EvidenceIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh(example_root)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1783296000")  # 2026-07-06
    outcome = _run(example_root, index)
    assert str(outcome.draft.meta.date) == "2026-07-06"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, env=env, timeout=300
    )


def test_publish_draft_cli(example_root: Path) -> None:
    for old in (example_root / "articles").glob("*.md"):
        old.unlink()
    for slug in ("kv-cache-ttft", "kv-cache-ttft-en"):
        brief = example_root / "articles" / f"{slug}.yaml"
        r = _cli("draft", str(brief))
        assert r.returncode == 0, r.stdout + r.stderr
        assert "drafted" in r.stdout
        check = _cli("check", str(example_root / "articles" / f"{slug}.md"))
        assert check.returncode == 0, check.stdout + check.stderr
        again = _cli("draft", str(brief))
        assert again.returncode == 0 and "reused" in again.stdout
    # --redraft of an unedited draft rewrites the same bytes and needs no backup.
    before = _md(example_root).read_bytes()
    r = _cli("draft", str(example_root / "articles" / f"{SLUG}.yaml"), "--redraft")
    assert r.returncode == 0, r.stderr
    assert _md(example_root).read_bytes() == before
    assert not (example_root / "articles" / f"{SLUG}.md.bak").exists()
