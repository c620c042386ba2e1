"""Concurrency: one publish run per content root (a second waits or says why it stops); the store survives two writers."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evidence.errors import LockedError
from pipeline.lock import root_lock

REPO = Path(__file__).resolve().parent.parent

# A stand-in for a long publish run: take the root's lock, say so, hold it until told to stop (or 60 s pass).
HOLDER = """
import sys, time
from pathlib import Path
from pipeline.lock import root_lock
state, ready, release = map(Path, sys.argv[1:4])
with root_lock(state, wait=0):
    ready.write_text("held")
    for _ in range(600):
        if release.exists():
            break
        time.sleep(0.1)
"""


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), **extra}
    env.pop("PROOFPRESS_REQUIRE_BROWSER", None)
    return env


def _wait_for(path: Path, proc: subprocess.Popen[bytes] | None = None, limit: float = 60.0) -> None:
    """Wait until a subprocess has created `path` (a readiness signal, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not path.exists():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"helper process exited early: {proc.returncode}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.05)


def _hold(tmp_path: Path, state: Path) -> tuple[subprocess.Popen[bytes], Path]:
    ready, release = tmp_path / "ready", tmp_path / "release"
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(state), str(ready), str(release)], env=_env(), cwd=REPO)
    _wait_for(ready, proc)
    return proc, release


def test_second_run_gives_up_with_a_clear_message(tmp_path: Path) -> None:
    state = tmp_path / ".publish"
    holder, release = _hold(tmp_path, state)
    try:
        messages: list[str] = []
        with pytest.raises(LockedError) as e, root_lock(state, wait=0.3, echo=lambda m, **_: messages.append(m)):
            pytest.fail("the lock was taken twice")
        assert "another publish run holds" in str(e.value) and "publish.lock" in str(e.value)
        assert messages and "waiting" in messages[0]
    finally:
        release.write_text("go")
        holder.wait(timeout=60)
    assert holder.returncode == 0


def test_second_run_waits_and_then_runs(tmp_path: Path) -> None:
    state = tmp_path / ".publish"
    holder, release = _hold(tmp_path, state)
    messages: list[str] = []

    def echo(message: str, **_: object) -> None:
        messages.append(message)
        release.write_text("go")  # the first run ends while the second one waits

    with root_lock(state, wait=60, echo=echo):
        assert holder.wait(timeout=60) == 0  # the holder has finished: we got the lock after it
    assert messages and "waiting" in messages[0]


def test_a_killed_run_leaves_no_stale_lock(tmp_path: Path) -> None:
    state = tmp_path / ".publish"
    holder, _ = _hold(tmp_path, state)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=60)
    with root_lock(state, wait=10):
        pass  # the OS dropped the dead process's lock; nobody has to delete a lock file by hand


def test_cli_second_publish_exits_with_one_clear_line(tmp_path: Path, example_root: Path) -> None:
    """Through the real CLI: `publish draft` while another run holds the root → exit 2 and a clear message."""
    holder, release = _hold(tmp_path, example_root / ".publish")
    try:
        r = subprocess.run(
            [sys.executable, "-m", "pipeline.cli", "draft", str(example_root / "articles" / "kv-cache-ttft.yaml")],
            capture_output=True,
            text=True,
            env=_env(PROOFPRESS_LOCK_WAIT="0.5"),
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        release.write_text("go")
        holder.wait(timeout=60)
    assert r.returncode == 2, r.stderr
    assert "another publish run holds" in r.stderr and "Traceback" not in r.stderr
    assert "waiting up to" in r.stderr
    assert not (example_root / "articles" / "kv-cache-ttft.md").exists() or r.stdout == ""


def test_two_builds_at_once_both_succeed(example_root: Path) -> None:
    """Two real `publish build` runs on one root: the second waits for the first; both end well, the site is whole."""
    cmd = [sys.executable, "-m", "pipeline.cli", "build", "--root", str(example_root), "--preview"]
    procs = [
        subprocess.Popen(cmd, env=_env(), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, out + err
    assert (example_root / "public-preview" / "articles" / "kv-cache-ttft" / "index.html").is_file()
    # No half-built folder left (`.public.stage`, the previous site kept for incremental builds, is meant to stay).
    assert not [p for p in example_root.iterdir() if p.name.startswith(".public.") and p.name != ".public.stage"]
    assert _integrity(example_root / ".publish" / "evidence.sqlite") == "ok"


def _integrity(db: Path) -> str:
    con = sqlite3.connect(db)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


INGEST = """
import sys
from pathlib import Path
from evidence.ingest import ingest
s = ingest(Path(sys.argv[1]), Path(sys.argv[2]))
print(sum(r.figures for r in s.results), len(s.errors))
"""


def test_two_ingests_at_once_never_corrupt_the_store(tmp_path: Path, example_root: Path) -> None:
    """Two writers without the publish lock (e.g. `evidence ingest` next to `publish`): WAL + one writer at a time."""
    db = tmp_path / "store" / "evidence.sqlite"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", INGEST, str(example_root / "reports"), str(db)],
            env=_env(),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert out.split()[1] == "0", out  # no ingest errors
    assert _integrity(db) == "ok"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # Each report is stored once (one version): the loser of the race saw the winner's rows, not a duplicate.
    versions = con.execute("SELECT id, COUNT(*) FROM reports GROUP BY id").fetchall()
    con.close()
    assert sorted(versions) == [("R1", 1), ("R2", 1), ("R9", 1)]
    # And a third, sequential ingest agrees with what both racers reported.
    r = subprocess.run(
        [sys.executable, "-c", INGEST, str(example_root / "reports"), str(db)],
        env=_env(),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0 and r.stdout.split()[0] == outs[0][0].split()[0] == outs[1][0].split()[0]


def test_a_store_opened_while_another_switches_it_to_wal_waits_instead_of_failing(tmp_path: Path) -> None:
    """SQLite answers "database is locked" at once, without waiting, when two processes switch a new store to WAL
    together (it refuses to wait where waiting could deadlock): opening retries until the other one is done."""
    from evidence.store import Store

    store = Store(tmp_path / "evidence.sqlite")
    real = store.db
    refusals = []

    class Busy:
        def execute(self, sql: str, *args: object) -> object:
            if sql.startswith("PRAGMA journal_mode") and len(refusals) < 3:
                refusals.append(sql)
                raise sqlite3.OperationalError("database is locked")
            return real.execute(sql, *args)

    store.db = Busy()  # type: ignore[assignment]
    store._wal()
    assert len(refusals) == 3
    assert real.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.db = real
    store.close()
