"""`publish serve`: static files and the 404 page on 127.0.0.1, rebuilt when content changes."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

from site_support import build, make_root

from pipeline.config import open_root
from pipeline.serve import SiteServer


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def test_serves_the_site_and_rebuilds_on_change(example_root: Path, corpus: Path) -> None:
    root = make_root(example_root, corpus)
    build(root, preview=True)
    messages: list[str] = []
    server = SiteServer(
        open_root(root), port=0, echo=lambda m="", **_: messages.append(m), build=lambda: build(root, preview=True)
    )
    server.start()
    try:
        assert server.url.startswith("http://127.0.0.1:")
        status, html = get(server.url + "articles/kv-cache-ttft-en/")
        assert status == 200 and "How much does KV cache loading matter?" in html
        status, html = get(server.url + "no/such/page/")
        assert status == 404 and "页面不存在" in html
        assert server.poll() is False  # nothing changed, nothing rebuilt
        draft = root / "articles" / "kv-cache-ttft-en.md"
        draft.write_text(draft.read_text(encoding="utf-8").replace("How much does", "How much, really, does"), "utf-8")
        assert server.poll() is True
        assert "How much, really, does" in get(server.url + "articles/kv-cache-ttft-en/")[1]
        draft.write_text("---\nbroken", encoding="utf-8")  # a failed rebuild keeps the previous site up
        assert server.poll() is True
        assert any("build failed" in m and "kv-cache-ttft-en.md" in m for m in messages)
        assert get(server.url + "articles/kv-cache-ttft-en/")[0] == 200
    finally:
        server.stop()


def test_serve_preview_serves_the_preview_site_not_the_public_one(example_root: Path, corpus: Path) -> None:
    root = make_root(example_root, corpus)
    content = open_root(root)
    preview = content.preview_output
    preview.mkdir()
    (preview / "index.html").write_text("<p>the preview site</p>", encoding="utf-8")
    (preview / ".proofpress-build").write_text("x\n", encoding="utf-8")
    server = SiteServer(content, port=0, echo=lambda *a, **k: None, build=lambda: None, preview=True)
    server.start()
    try:
        assert server.folder == preview
        status, html = get(server.url)
        assert status == 200 and "the preview site" in html
    finally:
        server.stop()
