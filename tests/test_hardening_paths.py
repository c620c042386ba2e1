"""Paths: slugs, report files and --out that try `..`, absolute paths or symlinks out of the content root are refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidence.errors import EvidenceError, InputError
from evidence.ingest import ingest
from evidence.registry import load_registry
from pipeline.brief import load_brief
from pipeline.config import open_root, output_dir

REPO = Path(__file__).resolve().parent.parent


def publish(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, cwd=cwd or REPO, env=environ,
        timeout=600,
    )  # fmt: skip


def _tree(path: Path) -> dict[str, bytes]:
    """Every file under `path` with its bytes (symlinks not followed), to prove nothing was touched."""
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file() and not p.is_symlink()
    }


# --- slugs -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["../evil", "..", "a/b", "/etc/passwd", "a\\b", "x\n", "UPPER", "-lead", "a" * 101])
def test_brief_slug_cannot_leave_articles(tmp_path: Path, slug: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(
        f'slug: "{slug.encode("unicode_escape").decode()}"\ntitle: t\nlang: en\nevidence: [R1]\naudience: a\n'
        "brief: b\nquestions: [q]\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="slug"):
        load_brief(path)


def test_brief_outside_the_root_through_a_symlink_is_refused(tmp_path: Path, example_root: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    evil = outside / "evil.yaml"
    evil.write_text((example_root / "articles" / "kv-cache-ttft.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (example_root / "articles" / "evil.yaml").symlink_to(evil)
    r = publish("draft", str(example_root / "articles" / "evil.yaml"))
    assert r.returncode == 2, r.stderr
    # The link is followed before the root is looked for: the brief is in no content root at all.
    assert ("outside the content root" in r.stderr or "no publish.toml" in r.stderr) and "Traceback" not in r.stderr
    assert not list(outside.glob("*.md")) and not (example_root / "articles" / "evil.md").exists()


def test_draft_file_names_that_are_no_slug_stop_the_build(example_root: Path) -> None:
    """`articles/..md` would render into `articles/./`: the build refuses it with the file's name."""
    src = example_root / "articles" / "kv-cache-ttft.md"
    (example_root / "articles" / "..md").write_text(
        src.read_text(encoding="utf-8").replace("slug:", "x-slug:"), "utf-8"
    )
    r = publish("build", "--root", str(example_root), "--preview")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "..md" in r.stderr and "Traceback" not in r.stderr
    assert not (example_root / "public-preview").exists()


# --- report files ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "file", ["../R1.pdf", "/etc/passwd", "sub/../../R1.pdf", "..\\R1.pdf", "C:\\Windows\\x.pdf", "a\x00.pdf", " "]
)
def test_registry_file_cannot_leave_reports(tmp_path: Path, file: str) -> None:
    (tmp_path / "reports.yaml").write_text(
        f'reports:\n  - id: R1\n    title: t\n    date: 2026-07-03\n    file: "{file.encode("unicode_escape").decode()}"\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as e:
        load_registry(tmp_path)
    assert (e.value.line == 5 and "reports folder" in str(e.value)) or "control character" in str(e.value)


def _symlink_r1_outside(tmp_path: Path, root: Path) -> Path:
    """Replace reports/R1.pdf with a symlink to a copy outside the reports folder (say, someone's private file)."""
    secret = tmp_path / "private" / "secret.pdf"
    secret.parent.mkdir()
    secret.write_bytes((root / "reports" / "R1.pdf").read_bytes())
    (root / "reports" / "R1.pdf").unlink()
    (root / "reports" / "R1.pdf").symlink_to(secret)
    return secret


def test_symlinked_report_pdf_is_not_ingested(tmp_path: Path, example_root: Path) -> None:
    _symlink_r1_outside(tmp_path, example_root)
    summary = ingest(example_root / "reports", tmp_path / "e.sqlite")
    errors = [str(e) for e in summary.errors]
    assert len(errors) == 1 and "leads outside the reports folder" in errors[0] and "R1" in errors[0]
    assert {r.id for r in summary.results if r.error is None} == {"R2", "R9"}  # the others still ingest


def test_symlinked_folder_in_reports_is_not_ingested(tmp_path: Path, example_root: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "R1.pdf").write_bytes((example_root / "reports" / "R1.pdf").read_bytes())
    (example_root / "reports" / "sub").symlink_to(outside)
    reg = example_root / "reports" / "reports.yaml"
    reg.write_text(reg.read_text(encoding="utf-8").replace("file: R1.pdf", "file: sub/R1.pdf"), encoding="utf-8")
    summary = ingest(example_root / "reports", tmp_path / "e.sqlite")
    with pytest.raises(EvidenceError, match="leads outside the reports folder"):
        summary.raise_for_errors(["R1"])


def test_symlinked_report_pdf_is_never_published(tmp_path: Path, example_root: Path) -> None:
    secret = _symlink_r1_outside(tmp_path, example_root)
    r = publish("build", "--root", str(example_root), "--preview")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "leads outside the reports folder" in r.stderr
    out = example_root / "public-preview"
    published = [p for p in out.rglob("*.pdf")] if out.exists() else []
    assert all(p.read_bytes() != secret.read_bytes() for p in published)


# --- --out ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "where",
    ["root", "parent", "slash", "home", "articles", "reports", "approvals", "state", "deep-in-articles", "git-repo"],
)
def test_out_that_would_replace_content_is_refused(tmp_path: Path, example_root: Path, where: str) -> None:
    git_repo = tmp_path / "repo"
    (git_repo / ".git").mkdir(parents=True)
    out = {
        "root": example_root,
        "parent": example_root.parent,
        "slash": Path("/"),
        "home": Path.home(),
        "articles": example_root / "articles",
        "reports": example_root / "reports",
        "approvals": example_root / "approvals",
        "state": example_root / ".publish",
        "deep-in-articles": example_root / "articles" / "public",
        "git-repo": git_repo,
    }[where]
    before = _tree(example_root)
    with pytest.raises(InputError, match="site output folder"):
        output_dir(open_root(example_root), out)
    r = publish("build", "--root", str(example_root), "--out", str(out))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "output folder" in r.stderr and "Traceback" not in r.stderr
    assert _tree(example_root) == before
    assert (git_repo / ".git").is_dir()


def test_out_symlink_to_the_root_is_refused(tmp_path: Path, example_root: Path) -> None:
    link = tmp_path / "innocent-looking"
    link.symlink_to(example_root)
    before = _tree(example_root)
    r = publish("build", "--root", str(example_root), "--out", str(link))
    assert r.returncode == 2 and "output folder" in r.stderr, r.stderr
    assert _tree(example_root) == before


def test_out_holding_someone_elses_files_is_refused(tmp_path: Path, example_root: Path) -> None:
    """A non-empty folder the build did not make is not replaced (the swap would delete its files)."""
    mine = tmp_path / "my-documents"
    mine.mkdir()
    (mine / "thesis.txt").write_text("years of work", encoding="utf-8")
    r = publish("build", "--root", str(example_root), "--out", str(mine), "--preview")
    assert r.returncode == 2, r.stdout + r.stderr
    assert (mine / "thesis.txt").read_text(encoding="utf-8") == "years of work"


@pytest.mark.parametrize("key", ["output", "preview_output"])
def test_configured_output_cannot_climb_out(example_root: Path, key: str) -> None:
    cfg = example_root / "publish.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("[site]", f'[site]\n{key} = ".."'), encoding="utf-8")
    before = _tree(example_root)
    r = publish("build", "--root", str(example_root), *(["--preview"] if key == "preview_output" else []))
    assert r.returncode == 2 and "output folder" in r.stderr, r.stderr
    assert _tree(example_root) == before


def test_a_good_out_and_a_rebuild_into_it_work(tmp_path: Path, example_root: Path) -> None:
    out = tmp_path / "www"
    for _ in range(2):  # the second build replaces a folder the first one made
        r = publish("build", "--root", str(example_root), "--out", str(out), "--preview")
        assert r.returncode == 0, r.stderr
        assert (out / "index.html").is_file()
