"""The bench tools: the synthetic content root is valid and cites real figures; the harness measures and reports."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import bare_loop  # noqa: E402
import bench  # noqa: E402
import synth  # noqa: E402
from mkdocs_site import write_hugo, write_mkdocs  # noqa: E402

from evidence.registry import load_registry  # noqa: E402
from pipeline.config import open_root  # noqa: E402
from qc.draft import citations, parse_draft  # noqa: E402

NUMBER = re.compile(r"\d+(?:\.\d+)?%?")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("bench")
    return synth.make_root(tmp / "root", 5, n_reports=2, seed=3, cache=tmp / "cache")


def test_root_is_a_valid_content_root(root: Path) -> None:
    content = open_root(root)
    ids = {r.id for r in load_registry(content.reports)}
    assert ids == {"R1", "R2"}
    for pdf in content.reports.glob("*.pdf"):
        assert 10 <= len(PdfReader(pdf).pages) <= 50
    drafts = sorted(content.articles.glob("*.md"))
    assert len(drafts) == 5
    for path in drafts:
        draft = parse_draft(path.read_text(encoding="utf-8"), path)
        assert set(draft.meta.evidence) <= ids and draft.meta.evidence
        assert 3 <= len(draft.meta.tags) <= 5 and len(draft.meta.faq) == 3
        assert draft.body.count("\n## ") + draft.body.startswith("## ") == 5
        assert "\n- " in draft.body and "|---|" in draft.body
        cited = [c for c in citations(draft.body) if set(c[2]) <= ids]
        assert len(cited) >= 20
        assert len(NUMBER.findall(draft.body)) >= 30


def test_article_numbers_are_printed_in_the_cited_reports(root: Path) -> None:
    # Every "from A to B, C%" claim must be found verbatim in the text of the report it cites.
    texts = {
        pdf.stem: "\n".join(p.extract_text() for p in PdfReader(pdf).pages) for pdf in (root / "reports").glob("*.pdf")
    }
    claim = re.compile(r"(?:从|from) (\d+(?:\.\d+)?) ?\S* (?:降至|提升至|to) (\d+(?:\.\d+)?).*?(\d+\.\d%)")
    checked = 0
    for path in (root / "articles").glob("*.md"):
        for line in path.read_text(encoding="utf-8").splitlines():
            for sentence in re.split(r"(?<=。)|(?<=\.)\s+(?=[A-Z])", line):
                m = claim.search(sentence)
                cites = citations(sentence)
                if not m or not cites:
                    continue
                text = "\n".join(texts[r] for r in cites[0][2])
                assert all(v in text for v in m.groups()), (path.name, sentence)
                checked += 1
    assert checked >= 50


def test_generation_is_deterministic_and_pdfs_are_cached(tmp_path: Path, root: Path) -> None:
    cache = root.parent / "cache"
    before = {p: p.stat().st_mtime_ns for p in cache.rglob("*.pdf")}
    again = synth.make_root(tmp_path / "again", 5, n_reports=2, seed=3, cache=cache)
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*.pdf")} == before  # reused, not re-rendered
    for f in (root / "articles").glob("*.md"):
        assert (again / "articles" / f.name).read_bytes() == f.read_bytes()
    other = synth.make_article(0, synth.report_specs(2, seed=4), seed=4)
    assert other != synth.make_article(0, synth.report_specs(2, seed=3), seed=3)


def test_bare_loop_renders_every_article(root: Path, tmp_path: Path) -> None:
    assert bare_loop.build(root / "articles", tmp_path / "out") == 5
    pages = list((tmp_path / "out").glob("*/index.html"))
    assert len(pages) == 5
    html = pages[0].read_text(encoding="utf-8")
    assert "<table>" in html and "<h2>" in html
    assert (tmp_path / "out" / "index.html").is_file() and (tmp_path / "out" / "tags").is_dir()


def test_mkdocs_and_hugo_projects(root: Path, tmp_path: Path) -> None:
    cfg = yaml.safe_load(write_mkdocs(root / "articles", tmp_path / "mk", "material").read_text(encoding="utf-8"))
    assert cfg["theme"]["name"] == "material" and cfg["nav"] == [{"Home": "index.md"}, {"Articles": "list.md"}]
    links = re.findall(
        r"^- \[(.+)\]\((articles/.+\.md)\)$", (tmp_path / "mk" / "docs" / "list.md").read_text("utf-8"), re.M
    )
    assert len(links) == 5 and all((tmp_path / "mk" / "docs" / path).is_file() for _, path in links)
    assert all(title and not title.startswith(("'", '"')) for title, _ in links)
    hugo = write_hugo(root / "articles", tmp_path / "hugo")
    assert len(list((hugo / "content" / "articles").glob("*.md"))) == 5
    assert (hugo / "layouts" / "_default" / "single.html").is_file()


def test_measure_reports_median_spread_and_rss() -> None:
    m = bench.measure("noop", 5, [sys.executable, "-c", "pass"], repeats=3, echo=lambda _: None)
    assert len(m.runs) == 3 and not m.failed
    assert m.lo is not None and m.hi is not None and m.median is not None
    assert m.lo <= m.median <= m.hi
    ballast = bytearray(300 * 1024 * 1024)  # a big parent must not inflate a small child's figure
    ballast[::4096] = b"1" * len(ballast[::4096])
    small = bench.run_process([sys.executable, "-c", "pass"])
    assert small.rc == 0 and 0 < small.rss_mb < 100
    del ballast
    big = bench.run_process(
        [sys.executable, "-c", "x = bytearray(150 * 1024 * 1024); x[::4096] = b'1' * len(x[::4096])"]
    )
    assert big.rc == 0 and big.rss_mb >= 150


def test_measure_stops_at_a_failure() -> None:
    calls = []
    m = bench.measure(
        "fails",
        5,
        [sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"],
        repeats=3,
        setup=calls.append,
        echo=lambda _: None,
    )
    assert m.failed == "exit 3: boom" and len(m.runs) == 1 and calls == [0]
    assert m.median is None
    ok = bench.measure("qc", 5, [sys.executable, "-c", "raise SystemExit(1)"], repeats=2, ok_codes=(0, 1), echo=print)
    assert not ok.failed and len(ok.runs) == 2


def test_timeout_kills_the_process_group_and_budget_limits_runs() -> None:
    slow = bench.run_process([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    assert slow.rc < 0 and slow.tail == "timed out after 0 s"
    m = bench.measure(
        "sleepy", 5, [sys.executable, "-c", "import time; time.sleep(0.3)"], repeats=5, budget=0.5, echo=lambda _: None
    )
    assert 1 <= len(m.runs) < 5 and not m.failed


def fake(name: str, n: int | None, seconds: float, unit: str = "s") -> bench.Measurement:
    return bench.Measurement(name, n, unit=unit, value=seconds, values=[seconds])


def test_targets_table_and_markdown() -> None:
    res = bench.Results()
    for n, scale in ((5, 1), (25, 6)):
        res.add(fake("publish build (cold)", n, 2.0 * scale))
        res.add(fake("publish build (warm)", n, 1.0 * min(scale, 5)))
        res.add(fake("publish build (no-op)", n, 0.2))
        res.add(fake("publish build (1 edit)", n, 0.6))
        res.add(fake("bare loop (markdown-it + Jinja2)", n, 1.5 * scale))
        res.add(fake("MkDocs Material (nav)", n, 3.0 * scale))
    res.add(fake("QC of one article, in-process", None, 12.0, unit="ms"))
    res.add(bench.Measurement("publish check --help (start-up)", None, failed="exit 70: internal error"))
    res.add(fake("ingest() cold, in-process", None, 2.0))
    res.add(fake("ingest() unchanged, in-process", None, 0.05))
    res.add(fake("pdfplumber extract_text, in-process", None, 4.0))
    res.facts.update(langchain_modules=[], ingest_pages=400)
    verdicts = {t.what: t.met for t in bench.targets(res, [5, 25], 25)}
    assert verdicts["full build (cold) ≤ bare loop, N=5"] is False
    assert verdicts["full build (warm) ≤ bare loop, N=5"] is True
    assert verdicts["full build (warm) ≥ 2× faster than MkDocs Material w/ nav, N=5"] is True
    assert verdicts["full build (cold) ≥ 2× faster than MkDocs Material w/ nav, N=5"] is False
    assert verdicts["no-op rebuild < 0.3 s, N=5"] is True
    assert verdicts["one edit rebuilt < 0.5 s, N=25"] is False
    assert verdicts["QC of one article < 20 ms"] is True
    assert verdicts["`publish check` start-up < 0.3 s"] is None
    assert verdicts["`publish check` imports no LangChain"] is True
    assert verdicts["ingest ≥ 1.5× pdfplumber (pages/s)"] is True
    assert verdicts["25 build (warm) ≤ 5.5× the 5 build"] is True
    assert verdicts["25 build (cold) ≤ 5.5× the 5 build"] is False
    row = bench._fmt_row(res.get("publish build (warm)", 5), res)
    assert row[2] == "1.000 s" and "0.67× bare" in row[5] and "3.0× faster than Material" in row[5]
    assert "200 pages/s" in bench._fmt_row(res.get("ingest() cold, in-process"), res)[5]
    args = argparse.Namespace(n=[5, 25], repeats=1, quick=True, seed=0)
    text = bench.render_markdown(res, bench.targets(res, [5, 25], 25), args, 60.0)
    assert "## Machine" in text and "## Targets" in text and "| publish build (warm) | 5 | 1.000 s |" in text
    assert "**missed**" in text and "**met**" in text and "not measured" in text
    assert re.search(r"\*\*CPU\*\*: .+\(\d+ cores\)", text)


def test_harness_end_to_end_on_n5(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The real site measurements on N=5 (Proofpress rows may fail while the build is unfinished; they must not crash).
    monkeypatch.setattr(bench, "WORK", tmp_path)
    res = bench.Results()
    bench.bench_sites(res, root, 5, 1, echo=lambda _: None)
    names = [m.name for m in res.rows]
    assert "bare loop (markdown-it + Jinja2)" in names and "MkDocs Material (nav)" in names
    bare = res.get("bare loop (markdown-it + Jinja2)", 5)
    assert bare is not None and not bare.failed and bare.rss and bare.rss > 10
    if importlib.util.find_spec("material") is not None:  # the bench extra is installed (make bench)
        assert (tmp_path / "out-5" / "material-site" / "index.html").is_file()
    else:  # make test installs no bench extra: the row must say it failed, not crash the harness
        material = res.get("MkDocs Material (nav)", 5)
        assert material is not None and material.failed
    assert (root / "articles").is_dir() and len(list((root / "articles").glob("*.md"))) == 5


def test_bench_drafts_measures_the_density_rules() -> None:
    import bench_drafts

    said = ["GoogleNet 从 1388 ms 降至 498 ms。", "变化最大的是:GoogleNet 从 1388 ms 降至 498 ms。", "AlexNet 为 60。"]
    assert bench_drafts.repeats(said) == [(said[0], said[1])]
    row = {
        "brief": "b", "lang": "zh", "reports": "R1", "errors": 0, "checked": 7, "per_section": [7], "max_sentence": 4,
        "answered": 1, "sections": 1, "answer_figures": 1, "max_item": 7, "max_faq": 2, "longest_list": 5,
        "repeats": 0, "faq_repeats": 1,
    }  # fmt: skip
    assert bench_drafts.breaks(row) == ["answer figures", "list item", "list", "repeats"]
    text = bench_drafts.section([row])
    assert "The density rules of issue 16" in text and "| longest list |" in text and "0/1 hold 2–4" in text
