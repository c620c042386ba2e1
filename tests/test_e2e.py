"""End to end: the bundled example goes from report PDFs to a built site with one command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PUBLISH = [sys.executable, "-m", "pipeline.cli"]


def publish(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}  # offline, always
    return subprocess.run([*PUBLISH, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_example_publishes_end_to_end(example_root: Path) -> None:
    r = publish(str(example_root / "articles" / "kv-cache-ttft.yaml"))
    assert r.returncode == 0, r.stderr
    page = Path(r.stdout.strip().splitlines()[-1])
    assert page.is_file() and page.name == "index.html"
    assert page.is_relative_to(example_root / "public")
    html = page.read_text(encoding="utf-8")
    # Every number carries its source and links to the report's page.
    assert "R2.pdf#page=" in html
    assert "10.17" in html and "7.53" in html
    # Public reports are downloadable; the on-request one never leaves the content root.
    out = example_root / "public"
    assert (out / "reports" / "R2.pdf").read_bytes() == (example_root / "reports" / "R2.pdf").read_bytes()
    assert (out / "reports" / "R1.pdf").is_file()
    assert not list(out.rglob("R9.pdf"))


def test_rerun_is_stable_and_reuses_the_draft(example_root: Path) -> None:
    brief = str(example_root / "articles" / "kv-cache-ttft.yaml")
    first = publish(brief)
    assert first.returncode == 0, first.stderr
    draft = example_root / "articles" / "kv-cache-ttft.md"
    before = draft.read_bytes()
    second = publish(brief)
    assert second.returncode == 0, second.stderr
    assert draft.read_bytes() == before


def test_edited_number_waits_for_review(example_root: Path) -> None:
    draft = example_root / "articles" / "kv-cache-ttft.md"
    text = draft.read_text(encoding="utf-8")
    assert "7.53" in text
    # A hand edit that keeps the number true (same figure, other wording) still needs a reviewer.
    draft.write_text(text.replace("7.53", "7.53", 1) + "\n", encoding="utf-8")
    r = publish(str(example_root / "articles" / "kv-cache-ttft.yaml"))
    assert r.returncode == 3, r.stdout + r.stderr
    assert "publish review" in r.stderr


def test_wrong_number_fails_qc(example_root: Path) -> None:
    draft = example_root / "articles" / "kv-cache-ttft.md"
    text = draft.read_text(encoding="utf-8")
    draft.write_text(text.replace("7.53", "7.35", 1), encoding="utf-8")
    r = publish(str(example_root / "articles" / "kv-cache-ttft.yaml"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "7.35" in r.stderr
