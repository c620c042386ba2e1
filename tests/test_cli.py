"""The CLI surface: help with examples, exit codes, one-line errors, --debug tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import cli


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_every_command_has_help_with_an_example() -> None:
    def walk(group, prefix=()):  # type: ignore[no-untyped-def]
        for name, cmd in group.commands.items():
            if getattr(cmd, "commands", None):
                yield from walk(cmd, (*prefix, name))
            yield (*prefix, name), cmd

    for name, cmd in walk(cli):
        assert "Example" in (cmd.help or ""), f"{' '.join(name)} has no example in its help"


def test_missing_brief_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "publish.toml").write_text("")
    r = run(str(tmp_path / "articles" / "nope.yaml"))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0, r.stderr
    assert "nope.yaml" in r.stderr and "Traceback" not in r.stderr


def test_no_content_root_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("slug: a\n")
    r = run(str(tmp_path / "a.yaml"))
    assert r.returncode == 2 and "no publish.toml" in r.stderr


def test_malformed_brief_names_file_and_line(example_root: Path) -> None:
    brief = example_root / "articles" / "kv-cache-ttft.yaml"
    brief.write_text(brief.read_text(encoding="utf-8").replace("lang: zh", "lang: zh\ncolour: red"), encoding="utf-8")
    r = run(str(brief))
    assert r.returncode == 2
    assert "kv-cache-ttft.yaml:5: unknown key 'colour'" in r.stderr
    assert "Traceback" not in r.stderr


def test_debug_shows_traceback(tmp_path: Path) -> None:
    (tmp_path / "publish.toml").write_text("[site\n")
    r = run("--debug", str(tmp_path / "articles" / "x.yaml"))
    assert r.returncode == 2 and "Traceback" in r.stderr and "invalid TOML" in r.stderr


def test_unknown_command_is_usage_error() -> None:
    r = run("frobnicate")
    assert r.returncode == 2 and "No such command" in r.stderr


def test_bad_option_value_is_usage_error() -> None:
    r = run("check", "x.md", "--format", "pdf")
    assert r.returncode == 2


def test_init_refuses_non_empty_dir(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    r = run("init", str(tmp_path))
    assert r.returncode == 2 and "not an empty folder" in r.stderr
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_init_scaffolds_example(tmp_path: Path) -> None:
    target = tmp_path / "new-site"
    r = run("init", str(target))
    assert r.returncode == 0, r.stderr
    assert (target / "publish.toml").is_file()
    assert (target / "reports" / "reports.yaml").is_file()
    assert sorted(p.name for p in (target / "articles").glob("*.yaml"))
    assert not (target / "public").exists()


@pytest.mark.parametrize("args", [["--help"], ["evidence", "--help"], ["check", "--help"]])
def test_help_exits_0(args: list[str]) -> None:
    r = run(*args)
    assert r.returncode == 0 and "Usage" in r.stdout
