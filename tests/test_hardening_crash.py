"""Crash safety: SIGKILL at any point of a build leaves the previous site whole and the next build succeeds;
drafts, approvals and the store are written atomically."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evidence.fsutil import atomic_write, recover_dir

REPO = Path(__file__).resolve().parent.parent

# Runs `publish ARGS…` under a profiler that counts Python and C calls and SIGKILLs the process at call number N
# (`count`: count only and report the total), or at the K-th call of a named function (`rename#2`, `_exchange#1`).
# A `/fallback` suffix disables the one-call folder exchange, to kill between the two renames that replace it.
KILLER = r"""
import os, signal, sys
mode, args = sys.argv[1], sys.argv[2:]
mode, _, variant = mode.partition("/")
if variant == "fallback":
    import evidence.fsutil
    evidence.fsutil._exchange = lambda a, b: False
target_name, _, target_n = mode.partition("#")
at = int(mode) if mode.isdigit() else 0
calls = named = 0
main_pid = os.getpid()

def profile(frame, event, arg):
    global calls, named
    if event not in ("call", "c_call") or os.getpid() != main_pid:  # forked workers inherit the profiler
        return
    calls += 1
    if at and calls == at:
        os.kill(os.getpid(), signal.SIGKILL)
    name = frame.f_code.co_name if event == "call" else getattr(arg, "__name__", "")
    if target_n and name == target_name:
        named += 1
        if named == int(target_n):
            os.kill(os.getpid(), signal.SIGKILL)

from pipeline.cli import main
sys.setprofile(profile)
try:
    main(args)
finally:
    sys.setprofile(None)
    if mode == "count":
        print(f"CALLS {calls}", file=sys.stderr)
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONHASHSEED"] = "0"  # the same call count from run to run, so kill points land where intended
    return env


def _run(mode: str, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`publish ARGS` (default: a preview build of `root`) under the killer."""
    args = args or ("build", "--root", str(root), "--preview")
    return subprocess.run(
        [sys.executable, "-c", KILLER, mode, *args], capture_output=True, text=True, env=_env(), cwd=REPO, timeout=900
    )


def _build(root: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "build", "--root", str(root), "--preview"],
        capture_output=True, text=True, env=_env(), cwd=REPO, timeout=900,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr


def _tree(path: Path) -> dict[str, bytes]:
    # The build marker holds a hash of the code too; the pages are what must be whole.
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.name != ".proofpress-build"
    }


def _integrity(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


@pytest.fixture(scope="module")
def stages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A root with a built site (v1), then edited so the next build changes pages and re-ingests into a fresh store;
    the site that next build makes (v2, built on a copy); and how many calls that build takes."""
    base = tmp_path_factory.mktemp("crash")
    root = base / "before"
    shutil.copytree(REPO / "site", root, ignore=shutil.ignore_patterns("public", ".publish"))
    _build(root)
    old_site = _tree(root / "public-preview")
    # Change what the next build shows, and drop the store so the killed build also writes SQLite.
    draft = root / "articles" / "kv-cache-ttft.md"
    draft.write_text(draft.read_text(encoding="utf-8").replace("## ", "## 问:", 1), encoding="utf-8")
    (root / ".publish" / "evidence.sqlite").unlink()
    for extra in ("-wal", "-shm"):
        (root / ".publish" / f"evidence.sqlite{extra}").unlink(missing_ok=True)
    ref = base / "reference"
    shutil.copytree(root, ref, symlinks=True)
    _build(ref)
    new_site = _tree(ref / "public-preview")
    assert new_site != old_site
    counter = base / "count"
    shutil.copytree(root, counter, symlinks=True)
    r = _run("count", counter)
    assert r.returncode == 0, r.stderr
    total = int(r.stderr.rsplit("CALLS ", 1)[1].split()[0])
    return {"root": root, "old": old_site, "new": new_site, "total": total, "base": base}


def _points(total: int) -> list[str]:
    """Several kill points spread over the build (seeded, so a failure names a point that reproduces), plus the
    moments between the renames that swap the new site in."""
    rng = random.Random(9)
    # Over the first 80%: the call count varies a little from run to run (imports, hash order).
    spread = [str(int(0.8 * total * (i + rng.random()) / 4)) for i in range(4)]
    # Just before the one-call exchange, just after it (the old site is being deleted), and in the fallback
    # without it: before and between the two renames.
    return [*spread, "_exchange#1", "rmtree#1", "rename#1/fallback", "rename#2/fallback"]


@pytest.mark.slow
def test_sigkill_during_build_keeps_the_previous_site(stages: dict[str, object]) -> None:
    root, base = Path(str(stages["root"])), Path(str(stages["base"]))
    old, new, total = stages["old"], stages["new"], int(str(stages["total"]))
    assert total > 1000
    outcomes = []
    for i, point in enumerate(_points(total)):
        victim = base / f"kill-{i}"
        shutil.copytree(root, victim, symlinks=True)
        r = _run(point, victim)
        killed = r.returncode == -signal.SIGKILL
        outcomes.append((point, killed, r.returncode, r.stderr.strip()[-300:]))
        if not (victim / "public-preview").is_dir():
            # Only without the one-call exchange, killed between its two renames: the live site was moved aside
            # whole, and the next run's recovery puts it back before anything else.
            assert point.endswith("/fallback"), f"killed at {point}: the site is gone"
            recover_dir(victim / "public-preview")
        site = _tree(victim / "public-preview")
        assert site in (old, new), f"killed at {point}: the site is neither the old nor the new one, but torn"
        db = victim / ".publish" / "evidence.sqlite"
        if db.exists():
            assert _integrity(db) == "ok", f"killed at {point}: store corrupt"
        _build(victim)  # the next build succeeds, and makes exactly the new site
        assert _tree(victim / "public-preview") == new, f"after a kill at {point}, the next build differs"
        # `.public-preview.stage` is the previous site (a preview build writes public-preview/), kept on purpose for the next incremental build; nothing else stays.
        leftovers = [
            p.name
            for p in victim.iterdir()
            if p.name.startswith(".public-preview.") and p.name != ".public-preview.stage"
        ]
        assert not leftovers, f"after a kill at {point} and a rebuild, temp folders remain: {leftovers}"
        shutil.rmtree(victim)
    assert all(o[1] for o in outcomes), outcomes  # every point really did kill the build mid-way


def _kill_runs(
    root: Path, *args: str, n: int = 4, reset: Callable[[], None] = lambda: None
) -> Iterator[subprocess.CompletedProcess[str]]:
    """`publish ARGS` killed at `n` seeded points of its run; each result is yielded before the next run starts, so
    the caller can inspect what the killed run left. `reset` restores the starting state before every run."""
    for _ in range(2):  # the first run also ingests the reports; count the calls of the second, warm one
        reset()
        r = _run("count", root, *args)
        assert r.returncode == 0, r.stderr
    total = int(r.stderr.rsplit("CALLS ", 1)[1].split()[0])
    rng = random.Random(5)
    for i in range(n):
        reset()
        yield _run(str(int(0.8 * total * (i + rng.random()) / n)), root, *args)


@pytest.mark.slow
def test_sigkill_during_redraft_leaves_a_whole_draft(example_root: Path) -> None:
    """`publish draft --redraft` killed anywhere: the draft is always a whole draft that parses (old or new)."""
    from qc.draft import read_draft

    brief = example_root / "articles" / "kv-cache-ttft.yaml"
    draft = example_root / "articles" / "kv-cache-ttft.md"
    seen = set()
    for r in _kill_runs(example_root, "draft", str(brief), "--redraft"):
        assert r.returncode == -signal.SIGKILL, r.stdout + r.stderr
        assert read_draft(draft).meta.title  # parses: never torn
        seen.add(draft.read_bytes())
    assert len(seen) == 1  # every redraft writes the same deterministic draft; a kill never leaves anything else


@pytest.mark.slow
def test_sigkill_during_approve_leaves_no_torn_approval(example_root: Path) -> None:
    from qc.review import load_approval

    approval = example_root / "approvals" / "kv-cache-ttft.json"
    args = ("approve", str(example_root / "articles" / "kv-cache-ttft.md"), "--reviewer", "Li Wei", "--note", "ok")
    for r in _kill_runs(example_root, *args, reset=lambda: approval.unlink(missing_ok=True)):
        assert r.returncode == -signal.SIGKILL, r.stdout + r.stderr
        if approval.exists():  # written whole or not at all; a torn file would fail to load here
            loaded = load_approval(approval)
            assert loaded is not None and loaded.reviewer == "Li Wei"


WRITER = r"""
import sys
from evidence.fsutil import atomic_write, recover_dir
path = sys.argv[1]
a, b = "A" * 3_000_000, "B" * 3_000_000
i = 0
while True:
    atomic_write(path, a if i % 2 else b)
    i += 1
"""


def test_atomic_write_is_never_torn_by_sigkill(tmp_path: Path) -> None:
    """A writer killed at random moments leaves the file wholly old or wholly new, never a mix or empty."""
    target = tmp_path / "draft.md"
    atomic_write(target, "A" * 3_000_000)
    rng = random.Random(3)
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], env=_env(), cwd=REPO)
        try:
            proc.wait(timeout=0.2 + rng.random() * 0.8)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
        data = target.read_bytes()
        assert len(data) == 3_000_000 and data in (b"A" * 3_000_000, b"B" * 3_000_000)


def test_atomic_write_failure_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "approval.json"
    atomic_write(target, '{"ok": true}\n')

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        atomic_write(target, '{"ok": false}\n')
    assert target.read_text(encoding="utf-8") == '{"ok": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["approval.json"]  # no temp file left behind
