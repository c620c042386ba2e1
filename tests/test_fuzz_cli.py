"""Fuzz the commands end to end: a mutated draft through `publish check` and `publish build` ends in exit 0, 1 or 2
with a clear message, never an internal error (exit 70) or a traceback."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import XSS, YAML_SNIPPETS, fuzz, mutated
from hypothesis import event, given

from evidence.ingest import ingest
from pipeline.cli import main

REPO = Path(__file__).resolve().parent.parent
DRAFT = (
    (REPO / "site" / "articles" / "kv-cache-ttft.md")
    .read_text(encoding="utf-8")
    .replace("slug: kv-cache-ttft", "slug: fuzz")
)
SNIPPETS = [*YAML_SNIPPETS, *XSS, "【出处:R7 实测】", "[source: R2, ZZ]", "99.99%", "1e308 GB", "9" * 400, "---"]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("cli") / "site"
    shutil.copytree(REPO / "site", root, ignore=shutil.ignore_patterns("public", ".publish"))
    ingest(root / "reports", root / ".publish" / "evidence.sqlite").raise_for_errors(["R1", "R2", "R9"])
    yield root


def _exit(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI in-process: exit code, standard output, standard error."""
    with pytest.raises(SystemExit) as e:
        main(args)
    captured = capsys.readouterr()
    return int(e.value.code or 0), captured.out, captured.err


@fuzz(0.5)
@given(mutated(DRAFT, SNIPPETS))
def test_fuzz_check_command(root: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    draft = root / "articles" / "fuzz.md"
    draft.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, _, err = _exit(["check", str(draft), "--format", "json"], capsys)
    event(f"exit {code}" + (f": {err.split(': ')[-1][:30]}" if code == 2 else ""))
    assert code in (0, 1, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if code == 2:
        assert err.startswith("error: ") and "fuzz.md" in err, err


@fuzz(0.1)
@given(mutated(DRAFT, SNIPPETS))
def test_fuzz_build_command(root: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    draft = root / "articles" / "fuzz.md"
    draft.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, _, err = _exit(["build", "--root", str(root), "--preview"], capsys)
    event(f"exit {code}")
    assert code in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if code == 2:
        assert "fuzz.md" in err or "kv-cache-ttft" in err, err  # the message names the file at fault
    else:
        assert (root / "public-preview" / "index.html").is_file()  # a preview is a site of its own


def test_giant_number_is_an_error_in_valid_json(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzzer: a 400-digit number read as infinity crashed QC (and `Infinity` is not JSON)."""
    import json

    draft = root / "articles" / "fuzz.md"
    draft.write_text(DRAFT.replace("\n## ", "\n" + "9" * 400 + " tok/s【出处:R2 实测】\n\n## ", 1), encoding="utf-8")
    code, out, err = _exit(["check", str(draft), "--format", "json"], capsys)
    assert code == 1, err
    report = json.loads(out, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    numbers = report["files"][0]["numbers"]
    assert any(n["status"] == "unsupported" and n["value"] is None and n["text"].startswith("999") for n in numbers)
