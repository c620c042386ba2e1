"""Integration: the real langchain-openai client over HTTP to a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from draft_support import ingested

from pipeline.brief import Brief, DrafterChoice, load_brief
from pipeline.config import open_root
from pipeline.drafting.article import draft_article
from pipeline.drafting.offline import write_offline
from pipeline.errors import DraftError
from qc.index import EvidenceIndex

SLUG = "kv-cache-ttft"


class Scripted:
    """What the fake server answers (in order; the last repeats) and what it was asked."""

    def __init__(self, answers: list[str], delay: float = 0.0) -> None:
        self.answers = answers
        self.delay = delay
        self.requests: list[dict[str, Any]] = []


def _server(script: Scripted) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            script.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
            if script.delay:
                time.sleep(script.delay)
            content = script.answers[min(len(script.requests) - 1, len(script.answers) - 1)]
            reply = {
                "id": f"chatcmpl-{len(script.requests)}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "m"),
                "choices": [
                    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }
            data = json.dumps(reply).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                pass

        def log_message(self, *args: Any) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[ThreadingHTTPServer] = []

    def start(script: Scripted) -> str:
        server = _server(script)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


@pytest.fixture
def index(example_root: Path) -> EvidenceIndex:
    for old in (example_root / "articles").glob("*.md"):  # start without the bundled example drafts
        old.unlink()
    return ingested(example_root)


@pytest.fixture
def brief(example_root: Path) -> Brief:
    return load_brief(example_root / "articles" / f"{SLUG}.yaml")


def _openai(brief: Brief, base_url: str) -> Brief:
    return brief.model_copy(update={"drafter": DrafterChoice(model="openai:gpt-4.1-mini", base_url=base_url)})


def test_repair_round_trip_through_langchain_openai(
    example_root: Path, brief: Brief, index: EvidenceIndex, serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    good = write_offline(brief, index).model_dump_json()
    wrong = good.replace("7.53 s", "7.35 s")
    assert wrong != good
    script = Scripted([wrong, good])
    url = serve(script)
    outcome = draft_article(_openai(brief, url), open_root(example_root), index)
    assert outcome.ok, outcome.report_path and outcome.report_path.read_text(encoding="utf-8")
    assert len(script.requests) == 2
    first, second = (r["body"] for r in script.requests)
    assert all(r["path"] == "/v1/chat/completions" and r["auth"] == "Bearer test" for r in script.requests)
    assert first["model"] == "gpt-4.1-mini"
    # The figures went out fenced as data, and the answer was asked for as structured output.
    assert "<<<REPORT-DATA" in first["messages"][-1]["content"]
    assert "response_format" in first or "tools" in first
    # The QC feedback — the wrong number and the figure it should have been — reached the server.
    feedback = second["messages"][-1]["content"]
    assert "7.35" in feedback and "7.53" in feedback
    assert second["messages"][-2]["role"] == "assistant" and "7.35" in second["messages"][-2]["content"]
    text = outcome.path.read_text(encoding="utf-8")
    assert "7.53" in text and "7.35" not in text and "drafter: openai:gpt-4.1-mini" in text


def test_timeout_is_a_clear_error(
    example_root: Path, brief: Brief, index: EvidenceIndex, serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    script = Scripted(["{}"], delay=3.0)
    url = serve(script)
    toml = example_root / "publish.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "timeout = 0.5\nmax_retries = 1\n", encoding="utf-8")
    with pytest.raises(DraftError, match=r"did not answer within 0.5s \(tried 2 times\)"):
        draft_article(_openai(brief, url), open_root(example_root), index)
    assert len(script.requests) == 2  # bounded: one try and one retry
    assert not (example_root / "articles" / f"{SLUG}.md").exists()


def test_unreachable_provider_is_a_clear_error(
    example_root: Path, brief: Brief, index: EvidenceIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    toml = example_root / "publish.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "max_retries = 0\n", encoding="utf-8")
    with pytest.raises(DraftError, match=f"cannot reach openai:gpt-4.1-mini at http://127.0.0.1:{port}/v1"):
        draft_article(_openai(brief, f"http://127.0.0.1:{port}/v1"), open_root(example_root), index)
