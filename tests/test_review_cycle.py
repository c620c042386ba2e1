"""The review cycle on a copy of the example: check → review → approve → gate, edits, new report versions, waivers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from site_support import new_r2_version

from evidence.errors import InputError
from pipeline.reviewing import approve, impact, load_article, review
from qc.errors import AwaitingReview, QCFailed
from qc.review import load_approval

REPO = Path(__file__).resolve().parent.parent
SLUG = "kv-cache-ttft"

DRAFT = """---
title: 存储加速怎样缩短首 token 延迟
lang: zh
date: 2026-07-10
evidence: [R2]
answer: 长上下文冷恢复时,FX100 把单会话 KV Cache 的加载提速,TTFT p50 降至 7.53s。
---

## 长上下文冷恢复

FX100 的 TTFT p50 为 7.53s【出处:R2 实测】。

单会话 KV Cache 为 7.15GB【出处:R2 实测】。

FX100 分层加载的吞吐为 74.9 tok/s【出处:R2 实测】。
"""


class Log:
    """Collects what the commands echo."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, message: str = "", **_: Any) -> None:
        self.lines.extend(str(message).splitlines())

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
def root(example_root: Path) -> Path:
    (example_root / "articles" / f"{SLUG}.md").write_text(DRAFT, encoding="utf-8")
    (example_root / "approvals" / f"{SLUG}.json").unlink(missing_ok=True)  # the bundled one approves another draft
    return example_root


def _brief(root: Path) -> Path:
    return root / "articles" / f"{SLUG}.yaml"


def _draft(root: Path) -> Path:
    return root / "articles" / f"{SLUG}.md"


def _edit(root: Path, old: str, new: str) -> None:
    text = _draft(root).read_text(encoding="utf-8")
    assert text.count(old) == 1
    _draft(root).write_text(text.replace(old, new), encoding="utf-8")


def _answers(monkeypatch: pytest.MonkeyPatch, *answers: str) -> list[str]:
    """Feed click.prompt the given answers in order, recording the questions asked."""
    asked: list[str] = []
    queue = list(answers)

    def prompt(text: str, **kw: Any) -> str:
        asked.append(text)
        answer = queue.pop(0)
        choice = kw.get("type")
        if isinstance(choice, click.Choice):
            assert answer in choice.choices
        return answer

    monkeypatch.setattr(click, "prompt", prompt)
    return asked


def _new_r2_version(root: Path, old: str, new: str) -> None:
    before = (root / "reports" / "R2.pdf").read_bytes()
    new_r2_version(root, old, new)
    assert (root / "reports" / "R2.pdf").read_bytes() != before


def test_full_cycle_review_approve_edit(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    art = load_article(_brief(root))
    assert art.result.ok, [(n.text, n.status, n.message) for n in art.result.errors()]
    assert not art.status.approved and art.status.diff is not None and art.status.diff.first

    # review shows every claim as added, then the reviewer accepts the whole article.
    log = Log()
    asked = _answers(monkeypatch, "a")
    review(_brief(root), yes=False, fmt="text", reviewer="Li Wei", note="first review", echo=log)
    assert "claims added" in log.text and "7.53s" in log.text and "7.15GB" in log.text
    assert len(asked) == 1 and "accept / reject / skip" in asked[0]
    approval = load_approval(root / "approvals" / f"{SLUG}.json")
    assert approval is not None and approval.reviewer == "Li Wei" and approval.note == "first review"
    assert (root / ".publish" / "review" / f"{SLUG}.html").is_file()

    # The gate passes; a second review has nothing to show.
    art = load_article(_brief(root))
    assert art.status.approved and art.status.diff is None
    log = Log()
    review(_brief(root), yes=False, fmt="text", reviewer=None, note=None, echo=log)
    assert "nothing to review" in log.text

    # Edit one number: not approved, and the diff names exactly that claim.
    _edit(root, "吞吐为 74.9 tok/s", "吞吐为 75 tok/s")
    art = load_article(_draft(root))
    assert not art.status.approved
    diff = art.status.diff
    assert diff is not None and diff.draft_changed and not diff.added and not diff.removed and not diff.reports
    assert [(c.old.text, c.new.text) for c in diff.changed] == [("74.9 tok/s", "75 tok/s")]
    assert "74.9 tok/s → 75 tok/s" in art.status.summary()
    assert f"publish review {art.status.article}" in art.status.summary()

    # The text review shows the claim and the draft's unified diff; rejecting writes nothing.
    log = Log()
    _answers(monkeypatch, "reject")
    review(_draft(root), yes=False, fmt="text", reviewer="Li Wei", note=None, echo=log)
    assert "claims changed (1)" in log.text
    assert "-FX100 分层加载的吞吐为 74.9 tok/s【出处:R2 实测】。" in log.lines
    assert "+FX100 分层加载的吞吐为 75 tok/s【出处:R2 实测】。" in log.lines
    assert "rejected" in log.text
    page = (root / ".publish" / "review" / f"{SLUG}.html").read_text(encoding="utf-8")
    assert "<del>74.9 tok/s" in page and "<ins>75 tok/s" in page and 'href="kv-cache-ttft.qc.html"' in page
    assert (root / ".publish" / "review" / f"{SLUG}.qc.html").is_file()
    assert load_approval(root / "approvals" / f"{SLUG}.json") == approval

    # --format json prints the same diff for tools, and decides nothing.
    log = Log()
    review(_draft(root), yes=False, fmt="json", reviewer=None, note=None, echo=log)
    data = json.loads(log.text)
    assert data["approved"] is False
    assert [(c["old"]["text"], c["new"]["text"]) for c in data["diff"]["changed"]] == [("74.9 tok/s", "75 tok/s")]
    assert any(line.startswith("+") and "75 tok/s" in line for line in data["diff"]["text_diff"])

    # Accepting with --yes records the new snapshot.
    review(_draft(root), yes=True, fmt="text", reviewer="Wang Fang", note=None, echo=Log())
    art = load_article(_draft(root))
    assert art.status.approved and art.status.approval is not None and art.status.approval.reviewer == "Wang Fang"


def test_skip_leaves_the_article_unapproved(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    review(_brief(root), yes=True, fmt="text", reviewer="Li Wei", note=None, echo=Log())
    _edit(root, "吞吐为 74.9 tok/s", "吞吐为 75 tok/s")
    _edit(root, "为 7.15GB", "约为 7.2GB")
    log = Log()
    asked = _answers(monkeypatch, "each", "a", "s", "a")
    review(_brief(root), yes=False, fmt="text", reviewer="Li Wei", note=None, echo=log)
    assert len(asked) == 4  # the whole-article question, then one per item (draft text + 2 claims)
    assert "approval not written" in log.text
    assert not load_article(_brief(root)).status.approved


def test_errors_need_an_explicit_waiver(root: Path) -> None:
    _edit(root, "为 7.53s", "为 7.35s")
    art = load_article(_brief(root))
    (err,) = art.result.errors()
    assert err.text == "7.35s"
    assert art.status.unwaived_errors == [err]

    with pytest.raises(QCFailed) as e:
        approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())
    assert err.id in str(e.value)
    with pytest.raises(QCFailed):
        review(_brief(root), yes=True, fmt="text", reviewer="Li Wei", note=None, echo=Log())
    with pytest.raises(InputError, match="no finding"):
        approve(_brief(root), reviewer="Li Wei", note=None, waive=["nope"], reasons=["x"], echo=Log())
    with pytest.raises(InputError, match="--reason"):
        approve(_brief(root), reviewer="Li Wei", note=None, waive=[err.id], reasons=[], echo=Log())
    ok = next(n for n in art.result.numbers if n.severity == "ok")
    with pytest.raises(InputError, match="not an error"):
        approve(_brief(root), reviewer="Li Wei", note=None, waive=[ok.id], reasons=["x"], echo=Log())
    assert not (root / "approvals" / f"{SLUG}.json").exists()

    path = approve(
        _brief(root), reviewer="Li Wei", note=None, waive=[err.id], reasons=["lab re-run, see ticket 12"], echo=Log()
    )
    approval = load_approval(path)
    assert approval is not None
    assert [(w.finding, w.text, w.reason) for w in approval.waivers] == [(err.id, "7.35s", "lab re-run, see ticket 12")]
    art = load_article(_brief(root))
    assert art.status.approved and not art.status.unwaived_errors

    # A waiver does not carry over to a changed number.
    _edit(root, "为 7.35s", "为 7.36s")
    art = load_article(_brief(root))
    assert [n.text for n in art.status.unwaived_errors] == ["7.36s"]
    with pytest.raises(QCFailed):
        approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())

    # An unrelated edit keeps a waiver whose finding is unchanged.
    _edit(root, "为 7.36s", "为 7.35s")
    _edit(root, "为 7.15GB", "为 7.15 GB")
    approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())
    assert load_article(_brief(root)).status.approved


def test_interactive_waiver(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit(root, "为 7.53s", "为 7.35s")
    _answers(monkeypatch, "w", "confirmed by the lab", "a")
    review(_brief(root), yes=False, fmt="text", reviewer="Li Wei", note=None, echo=Log())
    approval = load_approval(root / "approvals" / f"{SLUG}.json")
    assert approval is not None and [w.reason for w in approval.waivers] == ["confirmed by the lab"]
    assert load_article(_brief(root)).status.approved


def test_new_report_version_impact(root: Path) -> None:
    approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())
    _new_r2_version(root, "'7.53'", "'7.45'")
    log = Log()
    impact("R2", root=root, echo=log)
    assert f"{SLUG}: approved against R2 v1" in log.text and "now v2" in log.text and "needs review" in log.text
    start = next(i for i, line in enumerate(log.lines) if line.startswith(f"{SLUG}:"))
    claims = []
    for line in log.lines[start + 1 :]:
        if not line.startswith("  "):
            break
        claims.append(line.strip())
    # Both sentences citing 7.53 s are listed, each with the figure's new value; 7.15GB and 74.9 are not.
    assert len(claims) == 2 and all(c.startswith("7.53s: R2 v1 p.") and "7.45" in c for c in claims)
    assert "7.15" not in "\n".join(claims) and "74.9" not in "\n".join(claims)

    art = load_article(_brief(root))
    assert not art.status.approved
    assert art.status.diff is not None and [r.id for r in art.status.diff.reports] == ["R2"]
    assert art.status.diff.items()[0].startswith("report R2: v1 ")
    # The changed figure turns the approved 7.53s into errors: the gate stops at QC before the approval.
    assert {n.text for n in art.status.unwaived_errors} == {"7.53s"}

    with pytest.raises(InputError, match="unknown report id"):
        impact("R7", root=root, echo=Log())


def test_impact_without_changes(root: Path) -> None:
    log = Log()
    impact("R2", root=root, echo=log)
    assert f"{SLUG}: cites R2" in log.text and "not approved yet" in log.text
    approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())
    log = Log()
    impact("R2", root=root, echo=log)
    assert "approved against the current R2" in log.text
    for other in (root / "articles").glob("*.md"):
        if other.stem != SLUG:
            other.unlink()
    log = Log()
    impact("R1", root=root, echo=log)
    assert log.text == "no article cites R1"


def test_corrupt_approval_is_named_and_kept(root: Path) -> None:
    path = root / "approvals" / f"{SLUG}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text('{"reviewer": "Li Wei",\n "snapshot": ', encoding="utf-8")
    for call in (
        lambda: load_article(_brief(root)),
        lambda: approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log()),
        lambda: review(_brief(root), yes=True, fmt="text", reviewer="Li Wei", note=None, echo=Log()),
    ):
        with pytest.raises(InputError) as e:
            call()
        assert e.value.path == str(path) and "corrupt approval" in str(e.value)
    assert path.read_text(encoding="utf-8") == '{"reviewer": "Li Wei",\n "snapshot": '


def test_hand_edited_approval_is_not_approved(root: Path) -> None:
    path = approve(_brief(root), reviewer="Li Wei", note=None, waive=[], reasons=[], echo=Log())
    data = json.loads(path.read_text(encoding="utf-8"))
    data["snapshot"]["reports"]["R2"]["sha256"] = "0" * 64
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    art = load_article(_brief(root))
    assert not art.status.approved
    assert art.status.diff is not None and art.status.diff.items()[0].startswith("report R2: v1 000000000000 → v1 ")


def test_reviewer_defaults_to_git_user_name(root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gitconfig = tmp_path / "gitconfig"
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    gitconfig.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="no reviewer name"):
        approve(_brief(root), reviewer=None, note=None, waive=[], reasons=[], echo=Log())
    with pytest.raises(InputError, match="no reviewer name"):
        approve(_brief(root), reviewer="  ", note=None, waive=[], reasons=[], echo=Log())
    gitconfig.write_text("[user]\n\tname = Zhang San\n", encoding="utf-8")
    path = approve(_brief(root), reviewer=None, note=None, waive=[], reasons=[], echo=Log())
    approval = load_approval(path)
    assert approval is not None and approval.reviewer == "Zhang San"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, timeout=300, cwd=REPO
    )


def test_cli_exit_codes(root: Path) -> None:
    brief = str(_brief(root))
    r = _cli("review", brief, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["diff"]["first"] is True
    r = _cli("approve", brief, "--reviewer", "Li Wei", "--waive", "nope", "--reason", "x")
    assert r.returncode == 2 and "no finding 'nope'" in r.stderr
    r = _cli("approve", brief, "--reviewer", "Li Wei")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith(f"approved: {root / 'approvals' / (SLUG + '.json')}")
    (root / "approvals" / f"{SLUG}.json").write_text("not json", encoding="utf-8")
    r = _cli("review", brief, "--yes")
    assert r.returncode == 2 and f"{SLUG}.json:1: corrupt approval" in r.stderr
    r = _cli("evidence", "impact", "R2", "--root", str(root))
    assert r.returncode == 2 and "corrupt approval" in r.stderr
    r = _cli("review", str(root / "articles" / "nope.yaml"))
    assert r.returncode == 2 and r.stderr.strip() == f"error: {root / 'articles' / 'nope.yaml'}: file not found"


def test_publish_gate_and_waiver_never_reach_the_site(root: Path) -> None:
    from pipeline.publish import publish

    brief = _brief(root)
    with pytest.raises(AwaitingReview) as e:
        publish(brief)
    assert f"publish review {load_article(brief).status.article}" in str(e.value)
    approve(brief, reviewer="Li Wei", note="NOTE-NOT-PUBLIC", waive=[], reasons=[], echo=Log())
    assert publish(brief, out=root.parent / "first").page.is_file()

    # An edited number stops the gate (exit 3) with the claim named; an error stops it earlier (exit 1).
    _edit(root, "吞吐为 74.9 tok/s", "吞吐为 75 tok/s")
    with pytest.raises(AwaitingReview) as e:
        publish(brief)
    assert "74.9 tok/s → 75 tok/s" in str(e.value)
    _edit(root, "为 7.53s", "为 7.35s")
    with pytest.raises(QCFailed) as e:
        publish(brief)
    (err,) = load_article(brief).status.unwaived_errors
    assert err.id in str(e.value)

    # Published only with a waiver; readers see the reviewer's reason on the number, nothing else of the review.
    reason = "WAIVER-REASON-lab-rerun-ticket-12"
    approve(brief, reviewer="Li Wei", note="NOTE-NOT-PUBLIC", waive=[err.id], reasons=[reason], echo=Log())
    out = root.parent / "public"
    page = publish(brief, out=out).page
    html = page.read_text(encoding="utf-8")
    assert "7.35" in html and html.count(reason) == 1 and "num-accepted" in html and "num-error" not in html
    for f in out.rglob("*"):
        if f.is_file() and f.suffix != ".pdf":
            text = f.read_text(encoding="utf-8", errors="replace")
            for secret in (err.id, "NOTE-NOT-PUBLIC", "Li Wei", "waive", "Waive"):
                assert secret not in text, (f, secret)
    assert not list(out.rglob("*.json.*")) and not list(out.rglob("approvals"))


def test_gate_checks_in_the_drafts_own_scope(root: Path) -> None:
    """The brief lists R1/R2/R9 but the draft names only R2: review and publish must judge it alike."""
    from pipeline.publish import publish

    text = _draft(root).read_text(encoding="utf-8") + "\n模型加载时间为 150 s【出处:R2 实测】。\n"
    _draft(root).write_text(text, encoding="utf-8")
    (err,) = load_article(_brief(root)).result.errors()
    assert err.text == "150 s" and err.status == "unsupported"  # R9 has 150 s, but this draft does not name R9
    approve(_brief(root), reviewer="Li Wei", note=None, waive=[err.id], reasons=["typo, fixed in v2"], echo=Log())
    assert publish(_brief(root), out=root.parent / "out").page.is_file()
