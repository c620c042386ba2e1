"""The evidence store and ingest: versions keyed by sha256, search, bad inputs, and the `publish evidence` commands."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfWriter
from reportlab.pdfgen import canvas

import evidence.ingest as ingest_mod
from evidence.errors import EvidenceError
from evidence.ingest import ingest
from evidence.models import IngestLimits
from evidence.store import Store, fts_query

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "site" / "reports"


def write_registry(folder: Path, entries: list[tuple[str, str]], access: str = "public") -> None:
    lines = ["reports:"]
    for rid, file in entries:
        lines += [
            f"  - id: {rid}",
            f"    title: Report {rid}",
            "    date: 2026-07-01",
            f"    file: {file}",
            f"    access: {access}",
        ]
    (folder / "reports.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def reports_dir(tmp_path: Path) -> Path:
    d = tmp_path / "reports"
    d.mkdir()
    for rid in ("R1", "R2"):
        shutil.copy(REPORTS / f"{rid}.pdf", d / f"{rid}.pdf")
    write_registry(d, [("R1", "R1.pdf"), ("R2", "R2.pdf")])
    return d


def test_ingest_example_content_root(example_root: Path, tmp_path: Path) -> None:
    store_path = tmp_path / "e.sqlite"
    summary = ingest(example_root / "reports", store_path)
    assert summary.ok and [r.id for r in summary.results] == ["R1", "R2", "R9"]
    assert all(r.parsed and r.version == 1 and r.figures > 10 for r in summary.results)
    with Store(store_path, readonly=True) as store:
        assert [r.id for r in store.reports()] == ["R1", "R2", "R9"]
        r2 = store.report("R2")
        assert r2 is not None and r2.pages == 4 and r2.access == "public" and r2.page_labels == ["封面", "1", "2", "3"]
        assert store.report("R9").access == "on-request"  # type: ignore[union-attr]
        figs = store.figures("R2")
        assert [f.page for f in figs] == sorted(f.page for f in figs)
        one = figs[5]
        assert store.figure(one.id) == one
        pages = store.pages("R1")
        assert len(pages) == 3 and "4 盘 RAID0" in pages[0].text and pages[1].label == "1"


def test_figure_ids_are_stable_across_runs(reports_dir: Path, tmp_path: Path) -> None:
    ingest(reports_dir, tmp_path / "a.sqlite")
    ingest(reports_dir, tmp_path / "b.sqlite")
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        ids = [f.id for f in a.figures("R2")]
        assert ids == [f.id for f in b.figures("R2")]
        assert len(set(ids)) == len(ids)


def test_unchanged_reports_are_not_parsed_again(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = ingest_mod.parse_pdf

    def counting(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ingest_mod, "parse_pdf", counting)
    store = tmp_path / "e.sqlite"
    first = ingest(reports_dir, store, workers=1)  # in this process, so the calls can be counted
    assert sorted(calls) == ["R1.pdf", "R2.pdf"] and all(r.parsed for r in first.results)
    calls.clear()
    again = ingest(reports_dir, store)
    assert calls == [] and not any(r.parsed for r in again.results)
    assert [r.figures for r in again.results] == [r.figures for r in first.results]


def test_registry_edit_without_pdf_change_updates_metadata_in_place(reports_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "e.sqlite"
    ingest(reports_dir, store)
    text = (reports_dir / "reports.yaml").read_text(encoding="utf-8").replace("Report R1", "Renamed R1")
    (reports_dir / "reports.yaml").write_text(text, encoding="utf-8")
    summary = ingest(reports_dir, store)
    assert not summary.result("R1").parsed  # type: ignore[union-attr]
    with Store(store) as s:
        assert s.report("R1").title == "Renamed R1" and s.report("R1").version == 1  # type: ignore[union-attr]


def test_changed_pdf_becomes_version_2_and_keeps_version_1(reports_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "e.sqlite"
    ingest(reports_dir, store)
    with Store(store) as s:
        v1_ids = {f.id for f in s.figures("R1")}
    shutil.copy(REPORTS / "R9.pdf", reports_dir / "R1.pdf")  # new bytes under the same id
    summary = ingest(reports_dir, store)
    r1 = summary.result("R1")
    assert r1 is not None and r1.parsed and r1.version == 2
    with Store(store) as s:
        assert [v.version for v in s.versions("R1")] == [1, 2]
        assert s.report("R1").version == 2  # type: ignore[union-attr]
        assert {f.id for f in s.figures("R1", 1)} == v1_ids
        assert any(f.value == 691 for f in s.figures("R1"))
        assert not any(f.value == 691 for f in s.figures("R1", 1))
        assert len(s.pages("R1", 1)) == 3
        # Search sees the latest version only.
        assert {f.report for f in s.search("DeepSeek")} == {"R1"}
        assert not s.search("默认读路径")


def test_search_finds_chinese_substrings_and_latin_terms(example_root: Path, tmp_path: Path) -> None:
    store = tmp_path / "e.sqlite"
    ingest(example_root / "reports", store)
    with Store(store) as s:
        hits = s.search("冷恢复 p50")
        assert hits and all(f.report == "R2" and "p50" in f.labels for f in hits)
        assert {f.value for f in s.search("FX100 TTFT 并发档位 8")} >= {7.53, 9.94}
        assert {f.value for f in s.search("读带宽")} >= {0.98, 5.23}
        assert s.search("") == [] and s.search("不存在的词语") == []
        assert isinstance(s.search('"quote" AND ( NEAR'), list)  # odd input never raises an SQL error
    assert fts_query("TTFT 冷恢复") == '"ttft" AND "冷 恢 复"'


def _encrypted(src: Path, dst: Path) -> None:
    writer = PdfWriter(clone_from=src)
    # RC4 needs no optional crypto package, so the test runs on a bare install; AES files take the same path.
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    with open(dst, "wb") as f:
        writer.write(f)


def _scan(dst: Path) -> None:
    c = canvas.Canvas(str(dst))
    c.rect(100, 100, 300, 500, fill=1)
    c.showPage()
    c.save()


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("encrypted", "encrypted PDF"),
        ("truncated", "truncated PDF"),
        ("corrupt", "corrupt or truncated PDF"),
        ("scan", "no text layer"),
        ("missing", "file not found"),
        ("not-pdf", "not a PDF file"),
    ],
)
def test_each_bad_pdf_is_one_clear_error_and_the_others_still_ingest(
    reports_dir: Path, tmp_path: Path, kind: str, message: str
) -> None:
    bad = reports_dir / "BAD.pdf"
    if kind == "encrypted":
        _encrypted(REPORTS / "R1.pdf", bad)
    elif kind == "truncated":
        data = (REPORTS / "R1.pdf").read_bytes()
        bad.write_bytes(data[: len(data) // 2])
    elif kind == "corrupt":
        bad.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40 + b"\n%%EOF\n")
    elif kind == "scan":
        _scan(bad)
    elif kind == "not-pdf":
        bad.write_text("<html>not a report</html>\n%%EOF", encoding="utf-8")
    write_registry(reports_dir, [("R1", "R1.pdf"), ("BAD", "BAD.pdf"), ("R2", "R2.pdf")])
    summary = ingest(reports_dir, tmp_path / "e.sqlite")
    assert [r.id for r in summary.results if not r.error] == ["R1", "R2"]
    assert len(summary.errors) == 1
    err = summary.errors[0]
    assert isinstance(err, EvidenceError) and message in str(err) and "BAD.pdf" in str(err)
    assert "\n" not in str(err)
    with pytest.raises(EvidenceError, match=message):
        summary.raise_for_errors(["R2", "BAD"])
    summary.raise_for_errors(["R1", "R2"])  # an article citing only good reports is not held up
    with Store(tmp_path / "e.sqlite") as s:
        assert s.report("BAD") is None and s.errors()["BAD"].endswith(str(err).split(": ", 1)[1])


def test_duplicate_report_id_is_an_error_naming_the_registry_line(reports_dir: Path, tmp_path: Path) -> None:
    write_registry(reports_dir, [("R1", "R1.pdf"), ("R2", "R2.pdf"), ("R1", "R2.pdf")])
    summary = ingest(reports_dir, tmp_path / "e.sqlite")
    assert [r.id for r in summary.results if not r.error] == ["R1", "R2"]
    assert len(summary.errors) == 1
    assert "reports.yaml:12: duplicate report id 'R1'" in str(summary.errors[0])


def test_limits_give_clear_errors(reports_dir: Path, tmp_path: Path) -> None:
    summary = ingest(reports_dir, tmp_path / "e.sqlite", limits=IngestLimits(max_pdf_pages=3))
    assert [r.id for r in summary.results if not r.error] == ["R1"]
    assert "4 pages, over the 3-page limit" in str(summary.errors[0])
    summary = ingest(reports_dir, tmp_path / "f.sqlite", limits=IngestLimits(max_pdf_bytes=1000))
    assert len(summary.errors) == 2 and "byte limit" in str(summary.errors[0])


def test_progress_sink_gets_pages_and_lines(reports_dir: Path, tmp_path: Path) -> None:
    events: list[tuple[str, ...]] = []

    class Sink:
        def __call__(self, message: str = "", **kw: object) -> None:
            events.append(("line", message))

        def page(self, rid: str, page: int, pages: int) -> None:
            events.append(("page", rid, str(page), str(pages)))

    ingest(reports_dir, tmp_path / "e.sqlite", progress=Sink())
    assert ("page", "R2", "4", "4") in events
    assert any(e[0] == "line" and e[1].startswith("R2 v1: 4 pages") for e in events)


def test_old_schema_is_rebuilt(tmp_path: Path, reports_dir: Path) -> None:
    path = tmp_path / "e.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema', '0');"
        "CREATE TABLE reports (x);"
    )
    db.close()
    assert ingest(reports_dir, path).ok
    with Store(path) as s:
        assert s.report("R1") is not None


def test_readonly_store_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EvidenceError, match="run `publish evidence ingest`"):
        Store(tmp_path / "none.sqlite", readonly=True)


# ---- parallel ingest -------------------------------------------------------------------------------------------


def _snapshot(path: Path) -> dict[str, object]:
    with Store(path, readonly=True) as s:
        return {
            r.id: (r.model_dump(), [f.model_dump() for f in s.figures(r.id)], [p.text for p in s.pages(r.id)])
            for r in s.reports()
        }


def test_parallel_ingest_stores_exactly_what_serial_ingest_stores(
    example_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    pids = tmp_path / "pids"
    pids.mkdir()
    real = ingest_mod.parse_pdf

    def recording(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        (pids / f"{Path(path).stem}.{os.getpid()}").touch()  # forked workers inherit this patch
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ingest_mod, "parse_pdf", recording)
    events: list[tuple[object, ...]] = []

    class Sink:
        def __call__(self, message: str = "", **kw: object) -> None:
            events.append(("line", message))

        def report_start(self, rid: str, index: int, total: int) -> None:
            events.append(("start", rid))

        def page(self, rid: str, page: int, pages: int) -> None:
            events.append(("page", rid, page, pages))

        def report_end(self, rid: str, result: object) -> None:
            events.append(("end", rid))

    reports = example_root / "reports"
    par = ingest(reports, tmp_path / "p.sqlite", workers=2, progress=Sink())
    ser = ingest(reports, tmp_path / "s.sqlite", workers=1)
    assert par.ok and [r.id for r in par.results] == ["R1", "R2", "R9"] and all(r.parsed for r in par.results)
    assert [(r.id, r.version, r.pages, r.figures) for r in par.results] == [
        (r.id, r.version, r.pages, r.figures) for r in ser.results
    ]
    assert _snapshot(tmp_path / "p.sqlite") == _snapshot(tmp_path / "s.sqlite")
    parallel_pids = {int(p.suffix[1:]) for p in pids.iterdir() if p.name.count(".") == 1} - {os.getpid()}
    assert len(parallel_pids) >= 1  # the parallel run parsed in worker processes
    for rid in ("R1", "R2", "R9"):
        assert events.count(("start", rid)) == 1 and events.count(("end", rid)) == 1
    assert ("page", "R2", 4, 4) in events
    assert events.index(("page", "R2", 4, 4)) < events.index(("end", "R2"))


def test_parallel_ingest_keeps_the_per_file_time_limit_and_other_errors(reports_dir: Path, tmp_path: Path) -> None:
    (reports_dir / "BAD.pdf").write_text("not a pdf", encoding="utf-8")
    write_registry(reports_dir, [("R1", "R1.pdf"), ("BAD", "BAD.pdf"), ("R2", "R2.pdf")])
    summary = ingest(reports_dir, tmp_path / "e.sqlite", limits=IngestLimits(seconds_per_file=0.001), workers=2)
    assert [r.id for r in summary.results] == ["R1", "BAD", "R2"]
    messages = {rid: str(e) for rid, e in zip(summary.error_ids, summary.errors, strict=True)}
    assert "not a PDF file" in messages["BAD"]
    assert "longer than 0.001 s" in messages["R1"] and "R1.pdf" in messages["R1"]
    assert "longer than 0.001 s" in messages["R2"]


def test_a_worker_stuck_past_its_limit_is_killed_and_the_rest_still_ingest(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal
    import time

    real = ingest_mod.parse_pdf

    def stuck_on_r1(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(path).name == "R1.pdf":
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as if stuck in C code: no alarm lands
            time.sleep(60)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ingest_mod, "parse_pdf", stuck_on_r1)
    monkeypatch.setattr(ingest_mod, "_GRACE_SECONDS", 0.5)
    shutil.copy(REPORTS / "R9.pdf", reports_dir / "R9.pdf")
    write_registry(reports_dir, [("R1", "R1.pdf"), ("R2", "R2.pdf"), ("R9", "R9.pdf")])
    # The limit is wall time: it must leave the honest reports room to parse on a loaded machine (R2 took 1.4 s of
    # wall time for 0.2 s of CPU at a load of 12), while the stuck one sleeps far past it.
    limits = IngestLimits(seconds_per_file=6)
    summary = ingest(reports_dir, tmp_path / "e.sqlite", limits=limits, workers=2)
    assert summary.error_ids == ["R1"] and "longer than 6 s" in str(summary.errors[0])
    assert [r.id for r in summary.results if r.parsed] == ["R2", "R9"]


# ---- the CLI -------------------------------------------------------------------------------------------------


def publish(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, env=full_env, timeout=120
    )


def test_cli_ingest_list_show_search(example_root: Path) -> None:
    r = publish("evidence", "ingest", "--root", str(example_root))
    assert r.returncode == 0, r.stderr
    assert "R2" in r.stdout and "4 pages" in r.stdout and "parsed" in r.stdout
    r = publish("evidence", "ingest", "--root", str(example_root))
    assert r.stdout.count("unchanged") == 3
    r = publish("evidence", "list", "--root", str(example_root))
    assert r.returncode == 0 and "on-request" in r.stdout and "R9" in r.stdout
    r = publish("evidence", "show", "R1", "--root", str(example_root))
    assert r.returncode == 0 and "5.23 GB/s" in r.stdout and "读带宽 (GB/s)" in r.stdout
    r = publish("evidence", "search", "加载 DeepSeek-70B", "--root", str(example_root))
    assert r.returncode == 0 and "1399 s" in r.stdout


def test_cli_show_json_has_exactly_the_documented_shape(example_root: Path) -> None:
    r = publish("evidence", "show", "R2", "--root", str(example_root), "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc) == {"report", "figures"}
    assert set(doc["report"]) == {"id", "title", "date", "access", "sha256", "pages"}
    assert doc["report"]["id"] == "R2" and doc["report"]["date"] == "2026-07-05" and doc["report"]["pages"] == 4
    assert all(set(f) == {"id", "page", "value", "unit", "raw", "labels", "quote"} for f in doc["figures"])
    f = next(f for f in doc["figures"] if f["value"] == 7.53)
    assert f["page"] == 2 and f["unit"] == "s" and f["raw"] == "7.53"
    assert f["labels"][:3] == ["表 4-1 长上下文冷恢复 TTFT", "并发档位 8", "p50"] and "FX100 TTFT (s)" in f["labels"]


def test_cli_evidence_dir_works_outside_any_content_root(reports_dir: Path, tmp_path: Path) -> None:
    env = {"PROOFPRESS_CACHE_DIR": str(tmp_path / "cache")}
    r = publish("evidence", "show", "R1", "--evidence", str(reports_dir), "--root", str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    assert "0.98 GB/s" in r.stdout
    assert list((tmp_path / "cache" / "evidence").glob("*/evidence.sqlite"))


def test_cli_bad_pdf_exits_2_naming_the_file(reports_dir: Path, tmp_path: Path) -> None:
    (reports_dir / "BAD.pdf").write_bytes(b"GIF89a not a pdf")
    write_registry(reports_dir, [("R1", "R1.pdf"), ("BAD", "BAD.pdf")])
    env = {"PROOFPRESS_CACHE_DIR": str(tmp_path / "cache")}
    r = publish("evidence", "ingest", "--evidence", str(reports_dir), env=env)
    assert r.returncode == 2
    assert "BAD.pdf: not a PDF file" in r.stderr and "Traceback" not in r.stderr
    assert "R1" in r.stdout
    r = publish("evidence", "show", "NOPE", "--evidence", str(reports_dir), env=env)
    assert r.returncode == 2 and "no report 'NOPE'" in r.stderr
