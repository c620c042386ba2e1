"""`publish check` end to end: real ingest of the example reports, exit codes, text/json/html output, --evidence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evidence.ingest import ingest
from evidence.store import Store
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

CLEAN = Path(__file__).resolve().parent.parent / "tools" / "qc_corpus" / "clean"


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, **(env or {})})  # fmt: skip


@pytest.fixture
def root(example_root: Path) -> Path:
    shutil.copy(CLEAN / "kv-zh.md", example_root / "articles" / "kv-cache-ttft.md")
    return example_root


def test_real_ingest_then_check_the_example_article(root: Path, tmp_path: Path) -> None:
    summary = ingest(root / "reports", tmp_path / "e.sqlite")
    summary.raise_for_errors(["R1", "R2", "R9"])
    with Store(tmp_path / "e.sqlite") as store:
        index = EvidenceIndex.load(store, ["R1", "R2", "R9"])
    for name in ("kv-zh.md", "kv-en.md", "derived-zh.md"):
        draft = parse_draft((CLEAN / name).read_text(encoding="utf-8"), name)
        result = check_draft(draft, index)
        assert result.ok, [(n.line, n.text, n.message) for n in result.errors()]
    draft = parse_draft((CLEAN / "kv-zh.md").read_text(encoding="utf-8").replace("7.53s", "7.35s"), "x.md")
    bad = check_draft(draft, index).errors()
    assert [n.text for n in bad] == ["7.35s"] and bad[0].message.startswith("R2 p.2 says 7.53")


def test_check_text_exit_codes_and_brief(root: Path) -> None:
    article = root / "articles" / "kv-cache-ttft.md"
    ok = run("check", str(article))
    assert ok.returncode == 0, ok.stderr + ok.stdout
    assert "QC passed" in ok.stdout and "0 mismatch" in ok.stdout
    via_brief = run("check", str(root / "articles" / "kv-cache-ttft.yaml"))
    assert via_brief.returncode == 0 and "kv-cache-ttft.md" in via_brief.stdout
    article.write_text(
        article.read_text(encoding="utf-8").replace("从 178s 降至 94s", "从 178s 降至 49s"), encoding="utf-8"
    )
    bad = run("check", str(article))
    assert bad.returncode == 1
    line = next(ln for ln in bad.stdout.splitlines() if ": error: " in ln)
    lineno = int(line.split(":")[1])
    assert "49s" in article.read_text(encoding="utf-8").split("\n")[lineno - 1]
    assert "49s — " in line and "R1 p.3 says 94" in line
    assert "from 178s to 49s is 3.63×, not 1.9 倍" in bad.stdout and "QC failed: 2 errors" in bad.stdout


def test_check_json_shape(root: Path) -> None:
    r = run("check", str(root / "articles" / "kv-cache-ttft.md"), "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data) == {"ok", "files"} and data["ok"] is True
    (f,) = data["files"]
    assert set(f) == {"file", "ok", "numbers", "summary"}
    assert set(f["summary"]) == {"verified", "derived", "exempt", "uncited", "unsupported", "mismatch"}
    n = next(n for n in f["numbers"] if n["text"] == "178s")
    assert set(n) == {"text", "line", "column", "value", "unit", "status", "severity", "cited", "source", "derivation",
                      "message", "strength"}  # fmt: skip
    assert n["strength"] == "figure in context"  # the sentence names its row (保存时间) and the baseline
    assert all(m["strength"] for m in f["numbers"] if m["status"] in ("verified", "derived"))
    assert not any(m["strength"] for m in f["numbers"] if m["status"] == "exempt")
    assert n["source"] == {"report": "R1", "figure": n["source"]["figure"], "page": 3, "value": 178.0, "unit": "s",
                           "quote": n["source"]["quote"]}  # fmt: skip


def test_check_html_report_links_pdf_pages(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "qc" / "report.html"
    r = run("check", str(root / "articles" / "kv-cache-ttft.md"), "--format", "html", "--out", str(out))
    assert r.returncode == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    assert html.count('class="qc qc-verified"') > 40
    assert "R1.pdf#page=3" in html and 'role="tooltip"' in html and "QC passed" in html
    assert "evidence: figure in context" in html and "evidence: row key" in html  # each number's strength
    href = html.split('href="', 2)[1].split("#", 1)[0]
    assert (out.parent / href).resolve().is_file()  # the link opens the real PDF


def test_unknown_report_id_is_bad_input_with_line(root: Path) -> None:
    article = root / "articles" / "kv-cache-ttft.md"
    text = article.read_text(encoding="utf-8").replace("【出处:R1 实测】", "【出处:R7 实测】", 1)
    article.write_text(text, encoding="utf-8")
    r = run("check", str(article))
    line = text[: text.index("R7")].count("\n") + 1
    assert r.returncode == 2 and f"kv-cache-ttft.md:{line}:" in r.stderr and "R7" in r.stderr
    missing = run("check", str(root / "articles" / "nope.md"))
    assert missing.returncode == 2 and "nope.md" in missing.stderr


def test_evidence_dir_works_without_a_content_root(root: Path, tmp_path: Path) -> None:
    loose = tmp_path / "elsewhere" / "post.md"
    loose.parent.mkdir()
    shutil.copy(CLEAN / "kv-en.md", loose)
    env = {"PROOFPRESS_CACHE_DIR": str(tmp_path / "cache")}
    r = run("check", str(loose), "--evidence", str(root / "reports"), "--format", "json", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr + r.stdout
    assert json.loads(r.stdout)["files"][0]["summary"]["verified"] > 40
    assert any((tmp_path / "cache").rglob("*.sqlite"))


def test_check_does_not_import_langchain(root: Path) -> None:
    code = ("import sys; from pipeline.cli import main\ntry: main(['check', sys.argv[1]])\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('langchain', 'openai'))))")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code, str(root / "articles" / "kv-cache-ttft.md")], capture_output=True,
                       text=True, timeout=120)  # fmt: skip
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout + r.stderr
