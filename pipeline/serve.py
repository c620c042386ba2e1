"""`publish serve`: the built site on 127.0.0.1, rebuilt whenever a draft, report, approval or template changes."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evidence.errors import PublishError
from pipeline.config import CONFIG_NAME, ContentRoot, open_root

Echo = Callable[..., None]
POLL_SECONDS = 1.0


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from the output folder; unknown paths get the site's own 404 page."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _watched(root: ContentRoot) -> list[Path]:
    from pipeline.website.templates import SITE_TEMPLATES, STATIC

    return [root.articles, root.reports, root.approvals, root.path / CONFIG_NAME, SITE_TEMPLATES, STATIC]


def _snapshot(paths: list[Path]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file under the watched paths: a change anywhere means a rebuild."""
    out: dict[str, tuple[int, int]] = {}
    for p in paths:
        files = [p] if p.is_file() else (sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [])
        for f in files:
            try:
                st = f.stat()
            except FileNotFoundError:
                continue
            out[str(f)] = (st.st_mtime_ns, st.st_size)
    return out


class SiteServer:
    """An HTTP server over the output folder plus a change watcher that rebuilds (tests drive `poll` directly)."""

    def __init__(
        self, root: ContentRoot, *, port: int, echo: Echo, build: Callable[[], Any], preview: bool = False
    ) -> None:
        self.root = root
        self.echo = echo
        self.build = build
        self.watched = _watched(root)
        self.state = _snapshot(self.watched)
        self.folder = root.preview_output if preview else root.output
        handler = functools.partial(_Handler, directory=str(self.folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def start(self) -> None:
        self.thread.start()

    def poll(self) -> bool:
        """Rebuild if anything watched changed; a failed build is reported and the previous site keeps serving."""
        now = _snapshot(self.watched)
        if now == self.state:
            return False
        self.state = now
        try:
            self.echo(str(self.build()))
        except PublishError as e:
            self.echo(f"build failed (still serving the previous site): {e}", err=True)
        return True

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def serve(start: Path, *, port: int, preview: bool, echo: Echo) -> None:
    """Build, serve the output on 127.0.0.1:`port`, and rebuild on every change until Ctrl+C."""
    from pipeline.publish import build_only

    root = open_root(start)
    build = functools.partial(build_only, root.path, preview=preview, echo=echo)
    echo(str(build()))
    server = SiteServer(root, port=port, echo=echo, build=build, preview=preview)
    server.start()
    echo(f"serving {server.folder} at {server.url} (Ctrl+C to stop)")
    try:
        while True:
            time.sleep(POLL_SECONDS)
            server.poll()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
