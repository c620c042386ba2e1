"""qc.review on hand-built drafts, QC results and evidence: snapshots, diffs, approvals and the gate."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from evidence.errors import InputError
from evidence.models import Figure, Report
from qc.draft import Draft, parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult, NumberCheck, Source
from qc.review import (
    Approval,
    ApprovalStatus,
    Waiver,
    approval_status,
    diff_snapshots,
    is_approved,
    load_approval,
    snapshot,
    write_approval,
)

DRAFT = """---
title: 存储加速缩短首 token 延迟
lang: zh
date: 2026-07-10
evidence: [R2]
answer: TTFT p50 从 10.17s 降至 7.53s。
---

并发 8 时 TTFT p50 从 10.17s 降至 7.53s【出处:R2 实测】。

吞吐提升 29%【出处:R2 实测】。
"""


def _index(version: int = 1, sha: str = "a" * 64, ttft: float = 7.53) -> EvidenceIndex:
    rep = Report(
        id="R2",
        title="R2",
        date=dt.date(2026, 7, 5),
        access="public",
        file="R2.pdf",
        sha256=sha,
        version=version,
        pages=3,
    )
    figs = [
        Figure(
            id=f"f-base-{version}",
            report="R2",
            version=version,
            page=2,
            value=10.17,
            unit="s",
            raw="10.17",
            labels=["表 4-1", "并发档位 8", "p50", "基线 TTFT (s)"],
        ),
        Figure(
            id=f"f-fx-{version}",
            report="R2",
            version=version,
            page=2,
            value=ttft,
            unit="s",
            raw=str(ttft),
            labels=["表 4-1", "并发档位 8", "p50", "FX100 TTFT (s)"],
        ),
        Figure(
            id=f"f-tp-{version}",
            report="R2",
            version=version,
            page=3,
            value=29.0,
            unit="%",
            raw="29.0%",
            labels=["表 4-2", "并发档位 8", "吞吐提升"],
        ),
    ]
    return EvidenceIndex(reports={"R2": rep}, figures={"R2": figs}, pages={"R2": []})


def _check(draft, index: EvidenceIndex) -> FileResult:
    """A stand-in for qc.check: every number in the body/answer matched by value against the index."""
    numbers = []
    for field, text in (("answer", draft.meta.answer), ("body", draft.body)):
        for tok in ("10.17s", "7.53s", "7.35s", "29%", "31%"):
            start = text.find(tok)
            while start != -1:
                value = float(tok.rstrip("s%"))
                unit = "%" if tok.endswith("%") else "s"
                fig = next((f for f in index.all_figures() if f.value == value), None)
                sentence = text[text.rfind("\n", 0, start) + 1 : text.find("\n", start) % (len(text) + 1)]
                sentence = sentence.split("【")[0]
                numbers.append(
                    NumberCheck(
                        text=tok,
                        line=1,
                        column=start + 1,
                        value=value,
                        unit=unit,
                        status="verified" if fig else "unsupported",
                        severity="ok" if fig else "error",
                        cited=["R2"],
                        source=Source(
                            report="R2",
                            figure=fig.id,
                            page=fig.page,
                            value=fig.value,
                            unit=fig.unit,
                            quote=fig.raw,
                            version=fig.version,
                            labels=fig.labels,
                        )
                        if fig
                        else None,
                        field=field,
                        start=start,
                        end=start + len(tok),
                        sentence=sentence,
                        id=f"{field}|{sentence}|{tok}"[:60],
                    )
                )
                start = text.find(tok, start + 1)
    return FileResult(file=draft.path, ok=not any(n.severity == "error" for n in numbers), numbers=numbers)


def _approve(draft, result, index, path: Path, waivers: list[Waiver] | None = None) -> Approval:
    approval = Approval(
        reviewer="Li Wei",
        time="2026-07-10T10:00:00+08:00",
        snapshot=snapshot(draft, result, index),
        waivers=waivers or [],
        draft_text=draft.text,
    )
    write_approval(path, approval)
    return approval


@pytest.fixture
def drafts(tmp_path: Path) -> Path:
    d = tmp_path / "articles"
    d.mkdir()
    (d / "kv.md").write_text(DRAFT, encoding="utf-8")
    return tmp_path


def test_snapshot_is_line_free_and_binds_hashes(drafts: Path) -> None:
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    index = _index()
    snap = snapshot(draft, _check(draft, index), index)
    assert snap.draft_sha256 == draft.sha256
    assert snap.reports["R2"].sha256 == "a" * 64 and snap.reports["R2"].version == 1
    texts = [(c.field, c.text) for c in snap.claims]
    assert texts == [("answer", "10.17s"), ("answer", "7.53s"), ("body", "10.17s"), ("body", "7.53s"), ("body", "29%")]
    fx = snap.claims[3]
    assert fx.source is not None and fx.source.figure == "f-fx-1" and fx.source.page == 2
    assert "FX100 TTFT (s)" in fx.source.labels
    # Moving the text down a line changes nothing but the draft hash: claims carry no line numbers.
    shifted = parse_draft(DRAFT.replace("---\n\n", "---\n\n\n"), drafts / "articles/kv.md")
    assert snapshot(shifted, _check(shifted, index), index).claims == snap.claims


def _status(draft: Draft, result: FileResult, index: EvidenceIndex, approvals: Path) -> ApprovalStatus:
    """approval_status, checked against the build's cheaper is_approved (the same verdict, without the diff)."""
    status = approval_status(draft, result, index, approvals)
    assert is_approved(draft, result, index, approvals) == status.approved
    return status


def test_gate_round_trip_and_edit_one_number(drafts: Path) -> None:
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    index = _index()
    result = _check(draft, index)
    approvals = drafts / "approvals"
    status = _status(draft, result, index, approvals)
    assert not status.approved and status.diff is not None and status.diff.first
    assert "publish review" in status.summary()

    _approve(draft, result, index, approvals / "kv.json")
    status = _status(draft, result, index, approvals)
    assert status.approved and status.diff is None and not status.unwaived_errors

    # Change the body's 7.53s into 7.35s: exactly that claim is reported changed.
    edited = parse_draft(DRAFT.replace("降至 7.53s【", "降至 7.35s【"), drafts / "articles/kv.md")
    status = _status(edited, _check(edited, index), index, approvals)
    assert not status.approved
    diff = status.diff
    assert diff is not None and diff.draft_changed and not diff.added and not diff.removed and not diff.reports
    assert [(c.old.text, c.new.text) for c in diff.changed] == [("7.53s", "7.35s")]
    assert diff.changed[0].new.status == "unsupported"
    assert diff.moved == 1  # 10.17s stands in an edited sentence but its verdict is the same
    assert "7.53s → 7.35s" in diff.summary()


def test_report_new_version_is_a_diff(drafts: Path) -> None:
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    index = _index()
    _approve(draft, _check(draft, index), index, drafts / "approvals/kv.json")
    index2 = _index(version=2, sha="b" * 64)
    status = _status(draft, _check(draft, index2), index2, drafts / "approvals")
    assert not status.approved
    assert status.diff is not None and not status.diff.draft_changed
    assert [r.id for r in status.diff.reports] == ["R2"]
    assert "report R2: v1 aaaaaaaaaaaa → v2 bbbbbbbbbbbb" in status.diff.items()
    # The same figures in the new version (new ids) are not claim changes; a changed figure is.
    assert status.diff.changed == [] and status.diff.moved == 5
    index3 = _index(version=3, sha="d" * 64, ttft=7.45)
    status = _status(draft, _check(draft, index3), index3, drafts / "approvals")
    assert status.diff is not None
    assert [(c.new.text, c.new.status) for c in status.diff.changed] == [("7.53s", "unsupported")] * 2


def test_hand_edited_approval_says_which_claim_differs(drafts: Path) -> None:
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    index = _index()
    result = _check(draft, index)
    path = drafts / "approvals/kv.json"
    _approve(draft, result, index, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["snapshot"]["claims"][4]["status"] = "derived"
    path.write_text(json.dumps(data), encoding="utf-8")
    status = _status(draft, result, index, drafts / "approvals")
    assert not status.approved
    assert status.diff is not None and not status.diff.draft_changed
    assert status.diff.items() == ["claim changed: 29%: status derived → verified"]

    data["snapshot"]["reports"]["R2"]["sha256"] = "c" * 64
    data["snapshot"]["claims"][4]["status"] = "verified"
    path.write_text(json.dumps(data), encoding="utf-8")
    status = _status(draft, result, index, drafts / "approvals")
    assert not status.approved and status.diff is not None
    assert status.diff.items() == ["report R2: v1 cccccccccccc → v1 aaaaaaaaaaaa"]


def test_errors_need_a_waiver_bound_to_the_number(drafts: Path) -> None:
    bad = DRAFT.replace("吞吐提升 29%", "吞吐提升 31%")
    draft = parse_draft(bad, drafts / "articles/kv.md")
    index = _index()
    result = _check(draft, index)
    (err,) = result.errors()
    approvals = drafts / "approvals"
    _approve(draft, result, index, approvals / "kv.json")
    status = _status(draft, result, index, approvals)
    assert not status.approved and status.unwaived_errors == [err]
    assert err.id in status.summary() and "--waive" in status.summary()

    waiver = Waiver(finding=err.id, reason="confirmed with the lab", text=err.text, sentence=err.sentence)
    _approve(draft, result, index, approvals / "kv.json", [waiver])
    assert _status(draft, result, index, approvals).approved

    # A waiver does not carry over to a changed number (different text, same finding id forged).
    forged = Waiver(finding=err.id, reason="x", text="29%", sentence=err.sentence)
    assert not forged.covers(err)
    with pytest.raises(ValueError):
        Waiver(finding=err.id, reason="  ", text=err.text, sentence=err.sentence)


def test_approval_file_is_stable_json(drafts: Path) -> None:
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    index = _index()
    path = drafts / "approvals/kv.json"
    approval = _approve(draft, _check(draft, index), index, path)
    raw = path.read_text(encoding="utf-8")
    assert raw.endswith("}\n") and "存储加速" in raw  # UTF-8, not \u escapes
    assert list(json.loads(raw)) == sorted(json.loads(raw))
    assert load_approval(path) == approval
    write_approval(path, approval)
    assert path.read_text(encoding="utf-8") == raw
    assert load_approval(drafts / "approvals/none.json") is None


@pytest.mark.parametrize(
    ("content", "line"),
    [('{"reviewer": "x",\n  oops', 2), ("[1, 2]", None), ('{"reviewer": "", "time": "t", "snapshot": {}}', None)],
)
def test_corrupt_approval_names_the_file(drafts: Path, content: str, line: int | None) -> None:
    path = drafts / "approvals/kv.json"
    path.parent.mkdir()
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_approval(path)
    assert e.value.path == str(path) and e.value.line == line
    assert "corrupt approval" in str(e.value)
    draft = parse_draft(DRAFT, drafts / "articles/kv.md")
    with pytest.raises(InputError):
        _status(draft, _check(draft, _index()), _index(), path.parent)
    assert path.read_text(encoding="utf-8") == content


def test_first_diff_lists_everything() -> None:
    draft = parse_draft(DRAFT, "articles/kv.md")
    index = _index()
    snap = snapshot(draft, _check(draft, index), index)
    diff = diff_snapshots(None, snap)
    assert diff.first and len(diff.added) == 5 and not diff.empty
    assert diff_snapshots(snap, snap).empty
