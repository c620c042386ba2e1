"""Bad input around the site build ends in one line naming the file and exit 2: never exit 70, a hang or a read
without bound."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _publish(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def _one_error_line(r: subprocess.CompletedProcess[str], name: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and name in lines[0], r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "folder"])
def test_an_article_that_is_not_a_regular_file_is_named(example_root: Path, kind: str) -> None:
    path = example_root / "articles" / "zero.md"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    _one_error_line(_publish("build", "--root", str(example_root)), "zero.md")


def test_an_approval_nested_deep_is_named(example_root: Path) -> None:
    (example_root / "approvals" / "kv-cache-ttft.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    _one_error_line(_publish("build", "--root", str(example_root)), "kv-cache-ttft.json")


def test_state_folder_and_lock_of_the_wrong_kind_are_named(example_root: Path, tmp_path: Path) -> None:
    (example_root / ".publish").write_text("not a folder", encoding="utf-8")
    _one_error_line(_publish("build", "--root", str(example_root)), ".publish")
    (example_root / ".publish").unlink()
    (example_root / ".publish" / "publish.lock").mkdir(parents=True)
    _one_error_line(_publish("build", "--root", str(example_root)), "publish.lock")


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,<script>x</script>", " JavaScript:alert(1)"])
def test_script_links_in_the_config_are_refused(example_root: Path, url: str) -> None:
    toml = example_root / "publish.toml"
    text = toml.read_text(encoding="utf-8")
    lines = [f"contact_url = {url!r}" if line.startswith("contact_url") else line for line in text.splitlines()]
    toml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = _publish("build", "--root", str(example_root))
    _one_error_line(r, "publish.toml")
    assert "contact_url" in r.stderr


def test_a_damaged_store_says_how_to_rebuild_it(example_root: Path) -> None:
    assert _publish("build", "--root", str(example_root)).returncode == 0
    store = example_root / ".publish" / "evidence.sqlite"
    raw = bytearray(store.read_bytes())
    raw[4096:12288] = b"\xff" * 8192  # pages in the middle of the file, the header intact
    store.write_bytes(bytes(raw))
    for wal in store.parent.glob("evidence.sqlite-*"):
        wal.unlink()
    (example_root / "articles" / "kv-cache-ttft-en.md").write_text("---\n", encoding="utf-8")  # not a no-op build
    r = _publish("build", "--root", str(example_root))
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "evidence.sqlite" in r.stderr and "rebuild" in r.stderr and "Traceback" not in r.stderr


def test_a_control_character_in_a_title_keeps_the_feed_well_formed(example_root: Path, corpus: Path) -> None:
    from site_support import build, make_root

    root = make_root(example_root, corpus)
    draft = root / "articles" / "kv-cache-ttft.md"
    draft.write_text(
        draft.read_text(encoding="utf-8")
        .replace("title: 多轮", 'title: "多\\x01轮', 1)
        .replace("首 token 延迟\n", '首 token 延迟"\n', 1),
        encoding="utf-8",
    )
    build(root)
    ET.fromstring((root / "public" / "feed.xml").read_bytes())  # parses: no control character left in it


def test_a_full_disk_names_the_path(example_root: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from site_support import build, make_root

    from pipeline.errors import BuildError

    root = make_root(example_root, corpus)
    real = Path.write_bytes

    def full(self: Path, data: bytes) -> int:
        if ".publish" in self.parts:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(BuildError) as e:
        build(root)
    assert e.value.exit_code == 2 and ".publish" in str(e.value) and "No space left" in str(e.value)
    assert not (root / "public").exists()  # nothing half-written


def test_a_draft_whose_file_name_is_no_slug_is_refused_before_approval(example_root: Path) -> None:
    """The one slug rule holds for approve as for the build: no approval is written for a page that can't exist."""
    articles = example_root / "articles"
    bad = articles / "KV Cache.md"
    text = (articles / "kv-cache-ttft.md").read_text(encoding="utf-8").replace("slug: kv-cache-ttft\n", "")
    assert "slug:" not in text.split("---")[1]
    bad.write_text(text, encoding="utf-8")
    before = sorted(p.name for p in (example_root / "approvals").iterdir())
    r = _publish("approve", str(bad), "--reviewer", "x")
    _one_error_line(r, "KV Cache.md")
    assert "rename" in r.stderr
    assert sorted(p.name for p in (example_root / "approvals").iterdir()) == before
    _one_error_line(_publish("build", "--root", str(example_root)), "KV Cache.md")


def test_private_use_characters_in_code_spans_render_in_every_report(example_root: Path) -> None:
    """Private-use and plane-15/16 characters (icon fonts put them in titles and code) are text like any other."""
    pua = "\ue000\uf8ff\U000f0000\U0010fffd"
    draft = example_root / "articles" / "kv-cache-ttft.md"
    text = draft.read_text(encoding="utf-8").replace("title: ", f"title: {pua} ", 1)
    text = text.replace(
        "\n## ", f"\n| 列 `{pua}` | 值 |\n|---|---|\n| `{pua}` | `x{pua}` |\n\n## `{pua}` 标题\n\n## ", 1
    )
    draft.write_text(text, encoding="utf-8")
    html = _publish("check", str(draft), "--format", "html")
    assert html.returncode == 0, html.stderr
    assert pua in html.stdout
    review = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "review", str(draft)],
        capture_output=True, text=True, timeout=120, cwd=REPO, input="",
    )  # fmt: skip
    assert "Traceback" not in review.stderr and review.returncode in (0, 2, 3), review.stderr
    page = example_root / ".publish" / "review" / "kv-cache-ttft.html"
    assert pua in page.read_text(encoding="utf-8")
