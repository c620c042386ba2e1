"""`make bench`: Proofpress vs MkDocs, Hugo and a bare Python loop on synthetic content, written to docs/benchmarks.md."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import importlib.metadata as md
import io
import json
import os
import platform
import pstats
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO))

import synth  # noqa: E402
from mkdocs_site import write_hugo, write_mkdocs  # noqa: E402

WORK = REPO / ".bench"
DOC = REPO / "docs" / "benchmarks.md"
PY = sys.executable
BIN = Path(sys.executable).parent
PUBLISH = [str(BIN / "publish")] if (BIN / "publish").exists() else [PY, "-m", "pipeline.cli"]
ENV = {**{k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}, "NO_MKDOCS_2_WARNING": "1"}


# --- measuring whole processes ----------------------------------------------------------------------


@dataclass
class Run:
    """One process: wall seconds, peak RSS (MiB, largest process of the tree) and exit code."""

    seconds: float
    rss_mb: float
    rc: int
    tail: str = ""


QUICK_REPEATS = 7  # runs of each sub-second measurement (no-op, one edit)
TIMEOUT = 600.0  # seconds: one process that runs longer is killed and reported as timed out


# A forked child starts with its parent's peak RSS (Linux keeps it across exec), so commands are started from a
# tiny launcher interpreter instead of this big one; it times the command and reports `os.wait4`'s rusage.
LAUNCHER = """
import os, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(out, "w") as f:
    f.write(f"{seconds} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run_process(
    cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = TIMEOUT
) -> Run:
    """Run `cmd` to completion: wall seconds, and peak RSS from `os.wait4`'s rusage (children's peaks included)."""
    with tempfile.TemporaryFile() as log, tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rusage"
        start = time.perf_counter()
        p = subprocess.Popen(
            [PY, "-S", "-c", LAUNCHER, str(report), *cmd],
            cwd=cwd,
            env=env or ENV,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        # The whole process group goes on timeout (the build's worker processes included).
        timer = threading.Timer(timeout, lambda: _kill_group(p.pid))
        timer.start()
        try:
            p.wait()
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        log.seek(0)
        lines = log.read().decode("utf-8", "replace").strip().splitlines()
        if report.exists():
            secs, rss_kb, code = report.read_text().split()
            return Run(float(secs), int(rss_kb) / 1024, int(code), lines[-1][:200] if lines else "")
    tail = (
        f"timed out after {timeout:.0f} s" if seconds >= timeout else (lines[-1][:200] if lines else "launcher failed")
    )
    return Run(seconds, 0.0, p.returncode if p.returncode is not None else -9, tail)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


@dataclass
class Measurement:
    """Several runs of one command: median, min–max and peak RSS; `failed` when an exit code was unexpected."""

    name: str
    n: int | None
    runs: list[Run] = field(default_factory=list)
    failed: str = ""
    note: str = ""
    unit: str = "s"  # "s" for processes; "ms" for in-process figures given directly
    value: float | None = None  # for in-process figures: the median of `values`
    values: list[float] = field(default_factory=list)

    @property
    def median(self) -> float | None:
        if self.value is not None:
            return self.value
        return statistics.median(r.seconds for r in self.runs) if self.runs and not self.failed else None

    @property
    def lo(self) -> float | None:
        if self.values:
            return min(self.values)
        return min(r.seconds for r in self.runs) if self.runs and not self.failed else None

    @property
    def hi(self) -> float | None:
        if self.values:
            return max(self.values)
        return max(r.seconds for r in self.runs) if self.runs and not self.failed else None

    @property
    def rss(self) -> float | None:
        return max(r.rss_mb for r in self.runs) if self.runs else None


def measure(
    name: str,
    n: int | None,
    cmd: Sequence[str] | Callable[[int], Sequence[str]],
    *,
    repeats: int,
    setup: Callable[[int], None] | None = None,
    ok_codes: Sequence[int] = (0,),
    cwd: Path | None = None,
    note: str = "",
    budget: float = 240.0,
    echo: Callable[[str], None] = print,
) -> Measurement:
    """Run `setup(i)` (untimed) then `cmd` up to `repeats` times; stop at the first unexpected exit code.

    Fewer runs are made when they would not fit in `budget` seconds, so slow builds keep `make bench` bounded.
    """
    m = Measurement(name, n, note=note)
    for i in range(repeats):
        if i and sum(r.seconds for r in m.runs) * (i + 1) / i > budget:
            break
        if setup:
            setup(i)
        run = run_process(cmd(i) if callable(cmd) else cmd, cwd=cwd)
        m.runs.append(run)
        if run.rc not in ok_codes:
            m.failed = f"exit {run.rc}: {run.tail}"
            break
    shown = f"{m.median:.3f} s" if m.median is not None else f"FAILED ({m.failed})"
    echo(f"  {name}{f' N={n}' if n else ''}: {shown}")
    return m


def rmtree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


# --- probes that run in their own process -----------------------------------------------------------


def probe_qc(root: Path, samples: int) -> dict[str, Any]:
    """In-process QC timing of `samples` articles: `check_draft` on a fresh index of the cited reports (what one
    `publish check` pays) and again on that same, already prepared index (what a long-lived process pays)."""
    from evidence.store import Store
    from pipeline.config import open_root
    from qc.check import check_draft
    from qc.draft import read_draft
    from qc.index import EvidenceIndex

    content = open_root(root)
    files = sorted(content.articles.glob("*.md"))[:samples]
    fresh, warm, loads, statuses = [], [], [], {}
    with Store(content.store, readonly=True) as store:
        first = read_draft(files[0])
        check_draft(first, EvidenceIndex.load(store, first.meta.evidence))  # first-call imports, regex compilation
        for f in files:
            t = time.perf_counter()
            draft = read_draft(f)
            index = EvidenceIndex.load(store, draft.meta.evidence)
            t1 = time.perf_counter()
            result = check_draft(draft, index)
            t2 = time.perf_counter()
            check_draft(draft, index)
            t3 = time.perf_counter()
            loads.append((t1 - t) * 1000)
            fresh.append((t2 - t1) * 1000)
            warm.append((t3 - t2) * 1000)
            for k, v in result.summary.items():
                statuses[k] = statuses.get(k, 0) + v
    return {
        "median_ms": statistics.median(fresh),
        "max_ms": max(fresh),
        "warm_ms": statistics.median(warm),
        "load_ms": statistics.median(loads),
        "statuses": statuses,
    }


def probe_langchain(article: Path) -> dict[str, Any]:
    """Run `publish check ARTICLE` in-process and list the LangChain modules it imported."""
    from pipeline.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        try:
            main(["check", str(article), "--format", "json", "--out", str(Path(tmp) / "r.json")])
        except SystemExit as e:
            code = e.code
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("langchain", "langchain_core", "langchain_openai"))
    return {"exit": code, "langchain_modules": loaded}


def probe_ingest(root: Path) -> dict[str, Any]:
    """In-process `ingest()` time of the content root's reports (whatever state its store is in)."""
    from evidence.ingest import ingest
    from pipeline.config import open_root

    content = open_root(root)
    t = time.perf_counter()
    summary = ingest(content.reports, content.store, limits=content.config.limits.to_ingest())
    seconds = time.perf_counter() - t
    if not summary.ok:
        raise SystemExit(f"ingest failed: {summary}")
    return {"seconds": seconds}


def probe_pdfplumber(folder: Path) -> dict[str, Any]:
    """`pdfplumber` `extract_text` of every page of every PDF in `folder`."""
    import pdfplumber

    pages = 0
    t = time.perf_counter()
    for pdf in sorted(folder.glob("*.pdf")):
        with pdfplumber.open(pdf) as doc:
            for page in doc.pages:
                page.extract_text()
                pages += 1
    return {"seconds": time.perf_counter() - t, "pages": pages}


def probe_bench_ingest(folder: Path) -> dict[str, Any]:
    """tools/bench_ingest.py's summary (cold, cached, one-worker ingest and pdfplumber) for the PDFs in `folder`."""
    from bench_ingest import bench_ingest

    return bench_ingest(sorted(folder.glob("*.pdf")), echo=lambda _: None)["summary"]


PROBES: dict[str, Callable[..., dict[str, Any]]] = {
    "qc": lambda root, samples="50": probe_qc(Path(root), int(samples)),
    "langchain": lambda article: probe_langchain(Path(article)),
    "ingest": lambda root: probe_ingest(Path(root)),
    "pdfplumber": lambda folder: probe_pdfplumber(Path(folder)),
    "bench_ingest": lambda folder: probe_bench_ingest(Path(folder)),
}


def run_probe(name: str, *args: str) -> tuple[dict[str, Any] | None, Run]:
    """Run a probe in a fresh interpreter; it writes its result as JSON to a temporary file."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run = run_process([PY, __file__, "--probe", name, "--probe-out", out.name, *args])
        data = Path(out.name).read_text(encoding="utf-8")
    return (json.loads(data) if run.rc == 0 and data else None), run


# --- the benchmark ------------------------------------------------------------------------------------


@dataclass
class Results:
    rows: list[Measurement] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    hotspots: str = ""

    def add(self, m: Measurement) -> Measurement:
        self.rows.append(m)
        return m

    def get(self, name: str, n: int | None = None) -> Measurement | None:
        return next((m for m in self.rows if m.name == name and m.n == n), None)


def bench_sites(res: Results, root: Path, n: int, repeats: int, echo: Callable[[str], None]) -> None:
    """Full builds: Proofpress cold and warm, the bare loop, MkDocs plain and Material, Hugo; then rebuilds."""
    out = WORK / f"out-{n}" / "publish"

    def clean_all(_: int) -> None:
        rmtree(out)
        rmtree(root / ".publish")

    build = [*PUBLISH, "build", "--root", str(root), "--preview", "--out", str(out)]
    cold = res.add(
        measure("publish build (cold)", n, build, repeats=repeats, setup=clean_all, note="no .publish cache", echo=echo)
    )
    if cold.failed:  # the rebuild rows need a finished build first; don't spend the budget on more timeouts
        for name in ("publish build (warm)", "publish build (no-op)", "publish build (1 edit)"):
            res.add(Measurement(name, n, failed="skipped: the cold build did not finish"))
    else:
        bench_rebuilds(res, root, n, repeats, build, out, echo)
    bench_others(res, root, n, repeats, echo)


def bench_rebuilds(
    res: Results, root: Path, n: int, repeats: int, build: list[str], out: Path, echo: Callable[[str], None]
) -> None:
    """Proofpress warm build (caches kept, output clean), no-op rebuild, and rebuild after one edited article."""
    articles = root / "articles"

    def clean_out(_: int) -> None:
        rmtree(out)

    def clean_pages(_: int) -> None:
        rmtree(out)
        rmtree(root / ".publish" / "site" / "pages")

    res.add(
        measure(
            "publish build (re-render)",
            n,
            build,
            repeats=repeats,
            setup=clean_pages,
            note="output clean; evidence and QC results cached, every page rendered",
            echo=echo,
        )
    )
    res.add(
        measure(
            "publish build (warm)",
            n,
            build,
            repeats=repeats,
            setup=clean_out,
            note="output clean; evidence, QC results and rendered pages cached",
            echo=echo,
        )
    )
    built = (out / "index.html").exists()
    # Sub-second rows take more runs: on a shared 2-core machine one run can be slowed by a neighbour.
    quick = max(repeats, QUICK_REPEATS)
    res.add(measure("publish build (no-op)", n, build, repeats=quick, note="nothing changed", echo=echo))

    target = sorted(articles.glob("*.md"))[n // 2]
    original = target.read_text(encoding="utf-8")

    def edit(i: int) -> None:
        # A new sentence in one article (atomic replace, so hard-linked copies elsewhere keep the old bytes).
        tmp = target.with_suffix(".tmp")
        tmp.write_text(original + f"\nEdited paragraph number {i + 1}.\n", encoding="utf-8")
        os.replace(tmp, target)

    res.add(
        measure(
            "publish build (1 edit)",
            n,
            build,
            repeats=quick,
            setup=edit,
            note="one article edited: QC, its page, its shard of the search index, listings",
            echo=echo,
        )
    )
    tmp = target.with_suffix(".tmp")
    tmp.write_text(original, encoding="utf-8")
    os.replace(tmp, target)
    if built:
        res.facts[f"pages_{n}"] = sum(1 for _ in out.rglob("*.html"))
    res.add(serve_edits(root, n, target, max(repeats, QUICK_REPEATS), echo))


SERVE_BUILT = re.compile(r"built \d+ article\(s\) into .* \((\d+) rendered, \d+ reused, ([0-9.]+)s\)")


def serve_edits(root: Path, n: int, target: Path, repeats: int, echo: Callable[[str], None]) -> Measurement:
    """The writer's edit loop: `publish serve` running, one article edited at a time; each rebuild's own time
    (imports and caches already warm), as the server reports it."""
    name = "publish serve: 1 edit rebuilt"
    original = target.read_text(encoding="utf-8")
    cmd = [*PUBLISH, "serve", "--root", str(root), "--port", "0", "--preview"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**ENV, "PYTHONUNBUFFERED": "1"}
    )
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        lines.extend(iter(proc.stdout.readline, ""))

    threading.Thread(target=read, daemon=True).start()

    def wait_for(pred: Callable[[str], bool], start: int, timeout: float = 120.0) -> str | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            for line in lines[start:]:
                if pred(line):
                    return line
            time.sleep(0.05)
        return None

    values: list[float] = []
    failed = ""
    try:
        if wait_for(lambda line: line.startswith("serving "), 0) is None:
            failed = "publish serve did not start: " + "".join(lines[-3:]).strip()[:200]
        for i in range(repeats + 1 if not failed else 0):  # the first edit warms the server's imports: not counted
            seen = len(lines)
            time.sleep(1.1)  # a new mtime tick, so the watcher sees the change
            tmp = target.with_suffix(".tmp")
            tmp.write_text(original + f"\nEdited in the server, number {i + 1}.\n", encoding="utf-8")
            os.replace(tmp, target)
            line = wait_for(lambda ln: SERVE_BUILT.search(ln) is not None or "build failed" in ln, seen)
            m = SERVE_BUILT.search(line or "")
            if m is None:
                failed = f"no rebuild seen: {(line or '').strip()[:200]}"
                break
            if i:
                values.append(float(m.group(2)))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        tmp = target.with_suffix(".tmp")
        tmp.write_text(original, encoding="utf-8")
        os.replace(tmp, target)
    if failed or not values:
        return Measurement(name, n, failed=failed or "no rebuild measured")
    note = "the rebuild's own time in the running server (after one warm-up edit; as `publish serve` reports it)"
    result = Measurement(name, n, unit="s", value=statistics.median(values), values=values, note=note)
    echo(f"  {name} N={n}: {result.median:.3f} s")
    return result


def bench_others(res: Results, root: Path, n: int, repeats: int, echo: Callable[[str], None]) -> None:
    """The same Markdown through the bare loop, MkDocs (plain and Material, explicit nav) and Hugo."""
    work = WORK / f"out-{n}"
    articles = root / "articles"
    bare = work / "bare"
    res.add(
        measure(
            "bare loop (markdown-it + Jinja2)",
            n,
            [PY, str(REPO / "tools" / "bare_loop.py"), str(root), str(bare)],
            repeats=repeats,
            setup=lambda _: rmtree(bare),
            note="1 process, no QC",
            echo=echo,
        )
    )
    for theme, label in (("mkdocs", "MkDocs (plain theme, nav)"), ("material", "MkDocs Material (nav)")):
        cfg = write_mkdocs(articles, work / theme, theme)
        site_dir = work / f"{theme}-site"
        res.add(
            measure(
                label,
                n,
                [str(BIN / "mkdocs"), "build", "-q", "-f", str(cfg), "-d", str(site_dir)],
                repeats=repeats,
                setup=lambda _, d=site_dir: rmtree(d),
                echo=echo,
            )
        )
        if theme == "material":
            res.add(
                measure(
                    "MkDocs Material --dirty (no-op)",
                    n,
                    [str(BIN / "mkdocs"), "build", "-q", "--dirty", "-f", str(cfg), "-d", str(site_dir)],
                    repeats=repeats,
                    echo=echo,
                )
            )
    hugo = shutil.which("hugo")
    if hugo:
        project = write_hugo(articles, work / "hugo")
        hout = work / "hugo-site"
        res.add(
            measure(
                "Hugo",
                n,
                [hugo, "--quiet", "-s", str(project), "-d", str(hout)],
                repeats=repeats,
                setup=lambda _: rmtree(hout),
                echo=echo,
            )
        )
    else:
        res.add(Measurement("Hugo", n, failed="not installed (apt-get install hugo)"))


def bench_check(res: Results, root: Path, n: int, repeats: int, echo: Callable[[str], None]) -> None:
    """`publish check` of one article and of all N (evidence ingested by the builds before)."""
    files = sorted((root / "articles").glob("*.md"))
    report = WORK / f"check-{n}.json"
    one = [*PUBLISH, "check", str(files[0]), "--format", "json", "--out", str(report)]
    res.add(measure("publish check (1 article)", n, one, repeats=max(repeats, 5), ok_codes=(0, 1), echo=echo))
    every = [*PUBLISH, "check", *map(str, files), "--format", "json", "--out", str(report)]
    # Samples of 10 and 20 first: `publish check` of all N must fit in the timeout and in memory on a shared
    # machine. Each costs a fixed part (start-up, the reports' figures) and a part per file: scaled from both.
    k = min(20, n)
    small = run_process([*PUBLISH, "check", *map(str, files[: k // 2]), "--format", "json", "--out", str(report)])
    sample = run_process([*PUBLISH, "check", *map(str, files[:k]), "--format", "json", "--out", str(report)])
    per_s = max(0.0, sample.seconds - small.seconds) / max(1, k - k // 2)
    per_mb = max(0.0, sample.rss_mb - small.rss_mb) / max(1, k - k // 2)
    guess_s, guess_mb = sample.seconds + per_s * (n - k), sample.rss_mb + per_mb * (n - k)
    res.facts[f"check_sample_{n}"] = f"{k} articles: {sample.seconds:.2f} s, peak RSS {sample.rss_mb:.0f} MiB"
    if guess_s > TIMEOUT or guess_mb > _available_mb() / 2:
        why = f"skipped: scaled from {k} articles it would take ~{guess_s:.0f} s and ~{guess_mb / 1024:.1f} GiB"
        res.add(Measurement("publish check (all)", n, failed=why))
        echo(f"  publish check (all) N={n}: {why}")
        return
    m = res.add(
        measure("publish check (all)", n, every, repeats=1 if n > 2000 else repeats, ok_codes=(0, 1), echo=echo)
    )
    if not m.failed and report.exists():
        data = json.loads(report.read_text(encoding="utf-8"))
        totals: dict[str, int] = {}
        for f in data.get("files", []):
            for k, v in f.get("summary", {}).items():
                totals[k] = totals.get(k, 0) + v
        res.facts[f"check_statuses_{n}"] = totals
        res.facts[f"check_files_ok_{n}"] = sum(1 for f in data.get("files", []) if f.get("ok"))


def _available_mb() -> float:
    with open("/proc/meminfo", encoding="utf-8") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("MemAvailable")) / 1024


def bench_once(res: Results, root: Path, repeats: int, echo: Callable[[str], None]) -> None:
    """Start-up, in-process QC, LangChain import, ingest vs pdfplumber (independent of N)."""
    res.add(
        measure(
            "publish check --help (start-up)", None, [*PUBLISH, "check", "--help"], repeats=max(repeats, 5), echo=echo
        )
    )
    article = sorted((root / "articles").glob("*.md"))[0]
    data, run = run_probe("langchain", str(article))
    if data and data["exit"] in (0, 1):
        res.facts["langchain_modules"] = data["langchain_modules"]
    else:
        res.facts["langchain_modules"] = f"probe failed: {data['exit'] if data else run.tail}"
    echo(f"  LangChain modules imported by publish check: {res.facts['langchain_modules'] or 'none'}")
    runs = [run_probe("qc", str(root), "50") for _ in range(repeats)]
    ok = [d for d, _ in runs if d]
    if ok:
        m = in_process("QC of one article, in-process", [d["median_ms"] for d in ok], [r for _, r in runs], unit="ms")
        m.note = (
            f"check_draft, fresh index of the cited reports, median of 50 articles (slowest "
            f"{max(d['max_ms'] for d in ok):.1f} ms); on an already prepared index "
            f"{statistics.median(d['warm_ms'] for d in ok):.2f} ms; reading the draft + loading the index "
            f"{statistics.median(d['load_ms'] for d in ok):.1f} ms more"
        )
        res.add(m)
        res.facts["qc_statuses_50_articles"] = ok[0]["statuses"]
        echo(f"  QC in-process: {m.median:.2f} ms median; statuses of 50 articles: {ok[0]['statuses']}")
    else:
        res.add(Measurement("QC of one article, in-process", None, unit="ms", failed=runs[0][1].tail))
    bench_ingest(res, root, repeats, echo)


def in_process(name: str, values: list[float], runs: list[Run], unit: str = "s", note: str = "") -> Measurement:
    """A figure timed inside a probe process (`values`, one per run); RSS comes from the probes' processes."""
    return Measurement(name, None, runs=runs, unit=unit, value=statistics.median(values), values=values, note=note)


def bench_ingest(res: Results, root: Path, repeats: int, echo: Callable[[str], None]) -> None:
    """Evidence ingest of the 20 reports, cold and cached, as processes and in-process, next to pdfplumber."""
    from pypdf import PdfReader

    reports = root / "reports"
    pages = sum(len(PdfReader(p).pages) for p in reports.glob("*.pdf"))
    res.facts["ingest_pages"] = pages
    res.facts["ingest_reports"] = len(list(reports.glob("*.pdf")))
    cmd = [*PUBLISH, "evidence", "ingest", "--root", str(root)]
    clean = lambda _: rmtree(root / ".publish")  # noqa: E731
    res.add(
        measure("evidence ingest (cold)", None, cmd, repeats=repeats, setup=clean, note=f"{pages} pages", echo=echo)
    )
    res.add(measure("evidence ingest (unchanged)", None, cmd, repeats=repeats, echo=echo))
    if (REPO / "tools" / "bench_ingest.py").exists():
        ingest_tool(res, root, repeats, echo)
        return
    cold: list[tuple[dict[str, Any] | None, Run]] = []
    warm: list[tuple[dict[str, Any] | None, Run]] = []
    for _ in range(repeats):
        rmtree(root / ".publish")
        cold.append(run_probe("ingest", str(root)))
        warm.append(run_probe("ingest", str(root)))
    for name, probes in (("ingest() cold, in-process", cold), ("ingest() unchanged, in-process", warm)):
        values = [d["seconds"] for d, _ in probes if d]
        if values:
            res.add(in_process(name, values, [r for _, r in probes]))
        else:
            res.add(Measurement(name, None, failed=probes[0][1].tail))
    plumber = [run_probe("pdfplumber", str(reports)) for _ in range(repeats)]
    values = [d["seconds"] for d, _ in plumber if d]
    if values:
        res.add(in_process("pdfplumber extract_text, in-process", values, [r for _, r in plumber]))
    else:
        res.add(Measurement("pdfplumber extract_text, in-process", None, failed=plumber[0][1].tail))


def ingest_tool(res: Results, root: Path, repeats: int, echo: Callable[[str], None]) -> None:
    """In-process ingest figures from the evidence owner's tools/bench_ingest.py, on the same generated reports."""
    probes = [run_probe("bench_ingest", str(root / "reports")) for _ in range(repeats)]
    ok = [d for d, _ in probes if d]
    runs = [r for _, r in probes]
    rows = (
        ("ingest() cold, in-process", "cold_seconds", "worker pool"),
        ("ingest() cold, one worker", "serial_seconds", "workers=1"),
        ("ingest() unchanged, in-process", "cached_seconds", ""),
        ("pdfplumber extract_text, in-process", "plumber_seconds", ""),
    )
    for name, key, note in rows:
        values = [d[key] for d in ok if d.get(key) is not None]
        if values:
            res.add(in_process(name, values, runs, note=note))
        else:
            res.add(Measurement(name, None, failed=runs[0].tail if runs else "no run"))
    if ok:
        res.facts["ingest_figures"] = ok[0].get("figures")
    echo(f"  ingest (tools/bench_ingest.py): {ok[0] if ok else runs[0].tail}")


def bench_accuracy(res: Results, echo: Callable[[str], None]) -> None:
    """QC accuracy by error injection, from tools/qc_accuracy.py when it exists."""
    tool = REPO / "tools" / "qc_accuracy.py"
    if not tool.exists():
        res.facts["qc_accuracy"] = "tools/qc_accuracy.py is not there yet"
        return
    proc = subprocess.run([PY, str(tool), "--json"], capture_output=True, text=True, env=ENV, cwd=REPO, timeout=900)
    try:
        res.facts["qc_accuracy"] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        res.facts["qc_accuracy"] = (proc.stdout.strip() or proc.stderr.strip())[-2000:]
    echo("  QC accuracy: done")


PROFILE_SCRIPT = """
import evidence.ingest, pipeline.website.build
# Keep ingest, QC and rendering in this one process (no worker pools), so the profile sees them.
if hasattr(pipeline.website.build, "POOL_MIN"):
    pipeline.website.build.POOL_MIN = 10**9
if hasattr(evidence.ingest, "_workers"):
    evidence.ingest._workers = lambda requested, jobs: 1
from pipeline.cli import main
main(["build", "--root", {root!r}, "--preview", "--out", {out!r}])
"""


def profile_build(root: Path, n: int, top: int = 18) -> str:
    """cProfile one cold `publish build`, a no-op rebuild and a one-edit rebuild, each in a fresh process."""
    out = WORK / f"out-{n}" / "profile-site"
    rmtree(out)
    rmtree(root / ".publish")
    script = WORK / "profile_build.py"
    script.write_text(PROFILE_SCRIPT.format(root=str(root), out=str(out)), encoding="utf-8")
    parts = []
    for kind, views in (
        ("cold build", (("tottime", ()), ("cumulative", ("(evidence|qc|pipeline)/",)))),
        ("no-op rebuild", (("cumulative", ("(evidence|qc|pipeline)/",)),)),
        ("one-edit rebuild", (("cumulative", ("(evidence|qc|pipeline)/",)),)),
    ):
        prof = WORK / f"build-{n}-{kind.split()[0]}.prof"
        prof.unlink(missing_ok=True)
        if kind == "one-edit rebuild":
            target = sorted((root / "articles").glob("*.md"))[n // 2]
            target.write_text(target.read_text(encoding="utf-8") + "\nEdited for the profile.\n", encoding="utf-8")
        run_process([PY, "-m", "cProfile", "-o", str(prof), str(script)], cwd=REPO)
        if not prof.exists():
            parts.append(f"# {kind}: profile failed")
            continue
        for order, restrict in views:
            buf = io.StringIO()
            pstats.Stats(str(prof), stream=buf).sort_stats(order).print_stats(*restrict, top)
            text = buf.getvalue()
            head = "by own time, all code" if order == "tottime" else "by cumulative time, Proofpress code"
            body = text[text.find("   ncalls") :] if "   ncalls" in text else text
            parts.append(f"# {kind}, {head}\n" + body.strip())
    return "\n\n".join(parts)


# --- targets, table and report ------------------------------------------------------------------------


@dataclass
class Target:
    what: str
    measured: str
    met: bool | None  # None: could not be measured
    why: str = ""


def _s(m: Measurement | None) -> float | None:
    return m.median if m and not m.failed else None


def targets(res: Results, ns: list[int], big: int | None) -> list[Target]:
    """Each target of issue #8 with its verdict and, when missed, the measured reason."""
    out: list[Target] = []

    def add(what: str, value: float | None, ok: Callable[[float], bool], shown: str, why: str = "") -> None:
        if value is None:
            out.append(Target(what, "not measured", None, "the command failed or does not exist yet"))
        else:
            met = ok(value)
            out.append(Target(what, shown.format(value), met, "" if met else why))

    ingest_cold = _s(res.get("ingest() cold, in-process"))
    startup = _s(res.get("publish check --help (start-up)"))
    pages = res.facts.get("ingest_pages", 0)
    for n in ns:
        bare, mat = _s(res.get("bare loop (markdown-it + Jinja2)", n)), _s(res.get("MkDocs Material (nav)", n))
        rerender = _s(res.get("publish build (re-render)", n))
        for kind in ("cold", "re-render", "warm"):
            b = _s(res.get(f"publish build ({kind})", n))
            why = "see Hot spots"
            if b and bare:
                why = f"{b - bare:.1f} s more than the bare loop"
                if kind == "cold" and rerender and ingest_cold:
                    why += (
                        f"; with nothing cached it also parses {pages} PDF pages (ingest alone {ingest_cold:.1f} s) "
                        f"and QCs every article (re-render alone {rerender:.1f} s)"
                    )
                elif kind == "re-render":
                    why += (
                        f"; every page renders ~9 Markdown fields with each of its ~90 numbers wrapped in its "
                        f"provenance (tooltip, link), charts, JSON-LD and a search entry: {2000 * b / n:.1f} core-ms "
                        f"per page (wall time × 2 cores) vs the bare loop's {1000 * bare / n:.1f} ms for Markdown and "
                        "one template"
                    )
                else:
                    why += "; see Hot spots"
            add(
                f"full build ({kind}) ≤ bare loop, N={n}",
                b / bare if b and bare else None,
                lambda r: r <= 1.0,
                "{:.2f}× the bare loop",
                why,
            )
            add(
                f"full build ({kind}) ≥ 2× faster than MkDocs Material w/ nav, N={n}",
                mat / b if b and mat else None,
                lambda r: r >= 2.0,
                "{:.2f}× faster",
                f"Material takes {mat or 0:.1f} s, Proofpress {b or 0:.1f} s",
            )
    small = min(ns)
    fixed = "Python start-up and imports (click, pydantic, Jinja2, markdown-it, QC) are most of it: see Hot spots"
    add(
        f"no-op rebuild < 0.3 s, N={small}",
        _s(res.get("publish build (no-op)", small)),
        lambda v: v < 0.3,
        "{:.3f} s",
        fixed,
    )
    for n in ns:
        edit, edit_small = _s(res.get("publish build (1 edit)", n)), _s(res.get("publish build (1 edit)", small))
        why = fixed
        if n != small and edit and edit_small:
            why = (
                f"beyond the issue's N={small}: {edit - edit_small:.2f} s more than at N={small}, the per-article "
                "part of an edit (stat, state, listings' keys, sitemap) over the extra articles"
            )
        add(f"one edit rebuilt < 0.5 s, N={n}", edit, lambda v: v < 0.5, "{:.3f} s", why)
    qc = res.get("QC of one article, in-process")
    add("QC of one article < 20 ms", qc.value if qc else None, lambda v: v < 20, "{:.2f} ms", "see qc/check.py")
    add("`publish check` start-up < 0.3 s", startup, lambda v: v < 0.3, "{:.3f} s", "imports at start-up")
    lc = res.facts.get("langchain_modules")
    found = isinstance(lc, list)
    out.append(
        Target(
            "`publish check` imports no LangChain",
            ("none" if not lc else ", ".join(lc)[:80]) if found else "not measured",
            (not lc) if found else None,
            "" if not lc or not found else "LangChain imported",
        )
    )
    plumber = _s(res.get("pdfplumber extract_text, in-process"))
    add(
        "ingest ≥ 1.5× pdfplumber (pages/s)",
        plumber / ingest_cold if ingest_cold and plumber else None,
        lambda r: r >= 1.5,
        "{:.2f}×",
        f"ingest {pages / (ingest_cold or 1):.0f} pages/s, pdfplumber {pages / (plumber or 1):.0f} pages/s",
    )
    add(
        "second ingest of unchanged reports < 0.1 s (in-process)",
        _s(res.get("ingest() unchanged, in-process")),
        lambda v: v < 0.1,
        "{:.3f} s",
        "unchanged reports are hashed and looked up; see evidence/ingest.py",
    )
    if big:
        for kind in ("cold", "re-render", "warm"):
            a, b = _s(res.get(f"publish build ({kind})", small)), _s(res.get(f"publish build ({kind})", big))
            add(
                f"{big} build ({kind}) ≤ {1.1 * big / small:.1f}× the {small} build",
                b / a if a and b else None,
                lambda r: r <= 1.1 * big / small,
                "{:.2f}×",
                f"{big / small:.0f}× the articles cost {(b or 0) / (a or 1):.1f}× the time: superlinear work",
            )
    return out


def _fmt_row(m: Measurement, res: Results) -> list[str]:
    rss = f"{m.rss:.0f}" if m.rss else ""
    if m.failed:
        return [m.name, str(m.n or ""), "—", "—", rss, m.failed[:90]]
    med = m.median or 0.0
    value = f"{med:.2f} ms" if m.unit == "ms" else f"{med:.3f} s"
    spread = (
        f"{m.lo:.3f}–{m.hi:.3f}" if m.lo is not None and m.hi is not None and len(m.values or m.runs) > 1 else "(1 run)"
    )
    ratio = []
    bare = _s(res.get("bare loop (markdown-it + Jinja2)", m.n)) if m.n else None
    mat = _s(res.get("MkDocs Material (nav)", m.n)) if m.n else None
    if m.name in FULL_BUILDS:
        if bare and not m.name.startswith("bare"):
            ratio.append(f"{med / bare:.2f}× bare")
        if mat and m.name != "MkDocs Material (nav)":
            ratio.append(f"{mat / med:.1f}× faster than Material" if med < mat else f"{med / mat:.1f}× Material")
    pages = res.facts.get("ingest_pages")
    if pages and ("ingest" in m.name or "pdfplumber" in m.name) and "unchanged" not in m.name:
        ratio.append(f"{pages / med:.0f} pages/s")
    return [m.name, str(m.n or ""), value, spread, rss, "; ".join([*ratio, m.note] if m.note else ratio)]


FULL_BUILDS = {
    "publish build (cold)",
    "publish build (re-render)",
    "publish build (warm)",
    "bare loop (markdown-it + Jinja2)",
    "MkDocs (plain theme, nav)",
    "MkDocs Material (nav)",
    "Hugo",
}
HEADERS = ["measurement", "N", "median", "min–max", "peak RSS (MiB)", "ratios / notes"]


START_LOAD = os.getloadavg()


def _load(avg: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in avg)


def machine() -> dict[str, str]:
    cpu = "unknown"
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo", encoding="utf-8") as f:
        mem_kb = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
    versions = []
    for pkg in (
        "proofpress",
        "pypdf",
        "jinja2",
        "markdown-it-py",
        "pydantic",
        "mkdocs",
        "mkdocs-material",
        "pdfplumber",
        "reportlab",
    ):
        try:
            versions.append(f"{pkg} {md.version(pkg)}")
        except md.PackageNotFoundError:
            versions.append(f"{pkg} (not installed)")
    hugo = shutil.which("hugo")
    if hugo:
        v = subprocess.run([hugo, "version"], capture_output=True, text=True).stdout.split()
        versions.append(f"hugo {v[1] if len(v) > 1 else '?'}")
    else:
        versions.append("hugo (not installed)")
    return {
        "CPU": f"{cpu} ({os.cpu_count()} cores)",
        "RAM": f"{mem_kb / 1024 / 1024:.1f} GiB",
        "OS": platform.platform(),
        "Python": platform.python_version(),
        "load average (1/5/15 min)": f"{_load(START_LOAD)} at the start, {_load(os.getloadavg())} at the end "
        "(other processes on the machine slow every row alike)",
        "packages": ", ".join(versions),
    }


def render_markdown(res: Results, tgts: list[Target], args: argparse.Namespace, elapsed: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`tools/bench.py`); do not edit by hand. Whole processes are timed (median of "
        f"{args.repeats} runs, {max(args.repeats, QUICK_REPEATS)} for the no-op and one-edit rebuilds, min–max shown); "
        "peak RSS is `ru_maxrss` from `os.wait4` (the largest process of the tree).",
        "",
        f"Run {dt.datetime.now().strftime('%Y-%m-%d %H:%M')}, N = {', '.join(map(str, args.n))}, "
        f"{'quick' if args.quick else 'full'} run, {elapsed / 60:.1f} min in all; {res.facts.get('source', '')}; "
        f"{res.facts.get('bytecode', 'bytecode not compiled')}.",
        "",
        "## Machine",
        "",
        *[f"- **{k}**: {v}" for k, v in machine().items()],
        "",
        "## Content",
        "",
        f"`tools/synth.py` (seed {args.seed}): {res.facts.get('ingest_reports', 20)} generated report PDFs "
        f"({res.facts.get('ingest_pages', '?')} pages, 10–50 each, rendered by `tools/make_reports.py`) and N drafts of "
        "~1,200 words: 5 question sections, lists, a Markdown table, ~90 cited numbers, 70 % zh / 30 % en, tags from a pool of 50.",
        "",
        "## Results",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
        *["| " + " | ".join(c.replace("|", "/") for c in _fmt_row(m, res)) + " |" for m in res.rows],
        "",
    ]
    acc = res.facts.get("qc_accuracy")
    if isinstance(acc, dict):
        lines += [
            "## QC accuracy (`tools/qc_accuracy.py`: one injected error per copy of a clean article)",
            "",
            "| kind | injected | caught | rate |",
            "|---|---|---|---|",
        ]
        for kind, k in acc.get("kinds", {}).items():
            rate = f"{k['rate']:.0%}" if k.get("rate") is not None else "—"
            lines.append(f"| {kind} | {k['injected']} | {k['caught']} | {rate} |")
        total = acc.get("injected") or 0
        lines.append(
            f"| all | {total} | {acc.get('caught')} | {(acc.get('caught') or 0) / total:.1%} |" if total else ""
        )
        lines += [
            "",
            f"False alarms on the clean articles: {acc.get('false_alarms')} of {acc.get('clean_numbers')} numbers.",
            "",
        ]
        lines += [f"- missed: {m}" for m in acc.get("misses", [])[:10]]
        lines.append("")
    facts = {
        k: v
        for k, v in res.facts.items()
        if k not in ("ingest_pages", "ingest_reports", "qc_accuracy", "source", "bytecode")
    }
    if isinstance(acc, str):
        facts["qc_accuracy"] = acc
    if facts:
        lines += ["Other facts:", ""]
        lines += [
            f"- `{k}`: {json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}" for k, v in facts.items()
        ]
        lines.append("")
    lines += ["## Targets", "", "| target | measured | verdict | why |", "|---|---|---|---|"]
    for t in tgts:
        verdict = "not measured" if t.met is None else ("**met**" if t.met else "**missed**")
        lines.append(f"| {t.what} | {t.measured} | {verdict} | {t.why} |")
    lines.append("")
    if res.hotspots:
        lines += [
            f"## Hot spots (cProfile of `publish build`: cold, no-op and one edit, N={args.profile_n or min(args.n)})",
            "",
            "Profiled in one process (the worker pools of ingest and build switched off), so parsing, QC and rendering "
            "show up; cProfile roughly doubles the times.",
            "",
            "```",
            res.hotspots.rstrip(),
            "```",
            "",
        ]
    return "\n".join(lines)


def print_table(res: Results, tgts: list[Target]) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    table = RichTable(title="Proofpress bench")
    for h in HEADERS:
        table.add_column(h, overflow="fold")
    for m in res.rows:
        table.add_row(*_fmt_row(m, res))
    console = Console(width=max(shutil.get_terminal_size().columns, 150))
    console.print(table)
    tt = RichTable(title="Targets")
    for h in ("target", "measured", "verdict"):
        tt.add_column(h)
    for t in tgts:
        tt.add_row(t.what, t.measured, "n/a" if t.met is None else ("[green]met" if t.met else "[red]missed"))
    console.print(tt)


def source_hash() -> str:
    """A hash of the code and templates under test, to tell when they changed while the bench ran."""
    h = hashlib.sha256()
    for folder in ("evidence", "qc", "pipeline", "templates"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def fresh_root(n: int, args: argparse.Namespace) -> Path:
    root = WORK / f"root-{n}"
    rmtree(root)
    return synth.make_root(root, n, args.reports, args.seed)


def compile_bytecode() -> str:
    """Compile Proofpress's modules to bytecode, as installing a package does: the other tools run from
    site-packages, where pip compiled them, while an editable install on a machine that sets
    PYTHONDONTWRITEBYTECODE would otherwise compile every module from source in every process."""
    import compileall

    ok = all(compileall.compile_dir(REPO / pkg, quiet=1) for pkg in ("evidence", "qc", "pipeline"))
    flag = os.environ.get("PYTHONDONTWRITEBYTECODE")
    return (
        f"Proofpress's modules compiled to bytecode before the run{'' if ok else ' (some failed)'}"
        f"{'; PYTHONDONTWRITEBYTECODE is set on this machine' if flag else ''}"
    )


def stage(res: Results, name: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Run one part of the bench; a crash is recorded (and printed) instead of losing the whole run."""
    try:
        return fn(*args)
    except Exception as e:
        res.facts[f"error in {name}"] = f"{type(e).__name__}: {e}"
        traceback.print_exc()
        return None


def run(args: argparse.Namespace, echo: Callable[[str], None] = print) -> tuple[Results, list[Target]]:
    """The whole benchmark; returns the measurements and the target verdicts."""
    global START_LOAD
    START_LOAD = os.getloadavg()
    code_at_start = source_hash()
    started = time.perf_counter()
    res = Results()
    res.facts["bytecode"] = compile_bytecode()
    roots: dict[int, Path] = {}
    for n in args.n:
        t = time.perf_counter()
        roots[n] = root = fresh_root(n, args)
        echo(f"N={n}: generated {root} in {time.perf_counter() - t:.1f} s")
        stage(res, f"sites N={n}", bench_sites, res, root, n, args.repeats, echo)
        stage(res, f"check N={n}", bench_check, res, root, n, args.repeats, echo)
    small = roots[min(args.n)]
    stage(res, "start-up, QC and ingest", bench_once, res, small, args.repeats, echo)
    if not args.no_accuracy:
        stage(res, "QC accuracy", bench_accuracy, res, echo)
    if not args.no_profile:
        pn = args.profile_n or min(args.n)
        proot = roots.get(pn) or fresh_root(pn, args)
        res.hotspots = stage(res, "profile", profile_build, proot, pn) or ""
    code_at_end = source_hash()
    res.facts["source"] = (
        f"code and templates {code_at_start}, unchanged during the run"
        if code_at_start == code_at_end
        else f"WARNING: code or templates changed during the run ({code_at_start} → {code_at_end}); rows mix versions"
    )
    big = max(args.n) if len(args.n) > 1 else None
    tgts = targets(res, sorted(args.n), big)
    if args.write:
        from evidence.fsutil import atomic_write

        atomic_write(args.doc, render_markdown(res, tgts, args, time.perf_counter() - started))
        echo(f"wrote {args.doc}")
    return res, tgts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="N=200 and 2 repeats (a smoke run; still writes the doc)")
    parser.add_argument("-n", type=int, action="append", help="article counts (default 1000 and 5000)")
    parser.add_argument("--repeats", type=int, default=None, help="runs per measurement (default 3)")
    parser.add_argument("--reports", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--doc", type=Path, default=DOC, help="where to write the Markdown report")
    parser.add_argument("--no-write", dest="write", action="store_false")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--profile-n", type=int, default=200, help="articles in the profiled build (default 200)")
    parser.add_argument("--no-accuracy", action="store_true")
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    parser.add_argument("--probe-out", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.probe:
        result = PROBES[args.probe](*rest)
        Path(args.probe_out).write_text(json.dumps(result), encoding="utf-8")
        return 0
    args.n = args.n or ([200] if args.quick else [1000, 5000])
    args.repeats = args.repeats or (2 if args.quick else 3)
    WORK.mkdir(exist_ok=True)
    res, tgts = run(args)
    print_table(res, tgts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
