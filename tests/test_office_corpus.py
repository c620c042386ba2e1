"""Office-made reports (LibreOffice, Chromium): every expected figure found with value, unit and labels, no others."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from office_match import score

from evidence.pdf import ParsedPdf, parse_pdf
from evidence.store import Store

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"
OFFICE = CORPUS / "office"
SPECS = sorted((CORPUS / "expected").glob("office__*.yaml"))
SOURCE = yaml.safe_load((OFFICE / "reports.yaml").read_text(encoding="utf-8"))["reports"]


@cache
def parsed(pdf: str) -> ParsedPdf:
    return parse_pdf(CORPUS / pdf, report_id="T")


def spec(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_every_office_report_has_its_pdf_sources_and_expected_figures() -> None:
    names = {r["name"] for r in SOURCE}
    assert len(names) >= 6 and {r["lang"] for r in SOURCE} == {"zh", "en"}
    assert {r["via"] for r in SOURCE} == {"docx", "soffice-html", "chromium"}
    for r in SOURCE:
        assert (OFFICE / f"{r['name']}.pdf").is_file()
        assert (OFFICE / "src" / f"{r['name']}.{'docx' if r['via'] == 'docx' else 'html'}").is_file()
    assert {p.name for p in SPECS} == {f"office__{n}.yaml" for n in names}
    manifest = (CORPUS / "MANIFEST.md").read_text(encoding="utf-8")
    assert all(f"office/{n}.pdf" in manifest for n in names)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_office_report_figures(path: Path) -> None:
    expected = spec(path)
    quantities = [f for f in parsed(expected["pdf"]).figures if f.kind != "name"]
    got = score(expected, quantities)
    assert got.misses == [], f"{len(got.misses)} of {got.expected} expected figures not found"
    assert got.wrong == [], "figures in the expected tables that the PDF does not print there"
    assert len([e for e in expected["figures"] if e["kind"] != "cell"]) >= 10 or expected["tables"]


@pytest.mark.parametrize("report", SOURCE, ids=lambda r: r["name"])
def test_identifiers_and_axis_ticks_are_no_quantities(report: dict[str, Any]) -> None:
    figures = parsed(f"office/{report['name']}.pdf").figures
    for value in report.get("not_figures", []):
        hits = [f for f in figures if f.kind != "name" and abs(f.value - value) < 1e-9]
        assert hits == [], f"{value} is an identifier, version or axis tick, not a quantity"


def test_identifiers_are_kept_as_names_the_store_does_not_hand_to_qc(tmp_path: Path) -> None:
    p = parsed("office/platform_groups_en.pdf")
    names = {f.labels[0]: f for f in p.figures if f.kind == "name"}
    assert {"Xeon 8280", "6230N", "Option 2/3/4/5/7"} <= set(names)
    from evidence.models import Report

    with Store(tmp_path / "s.db") as store:
        report = Report(
            id="T", title="t", date="2026-01-01", access="public", file="t.pdf", sha256="x", version=1, pages=1
        )
        store.save_version(report, p.pages, p.figures, parser="test", seconds=0.0)
        assert all(f.kind != "name" for f in store.figures("T"))
        assert store.figure_count("T") == len(store.figures("T"))
        assert {f.labels[0] for f in store.figures("T", names=True) if f.kind == "name"} == set(names)
        assert all(f.kind != "name" for f in store.search("Xeon"))


def test_prose_figure_and_its_parenthesised_second_value_share_the_sentence() -> None:
    figures = parsed("office/ttft_zh.pdf").figures
    gbps = next(f for f in figures if f.value == 173 and f.unit == "Gb/s")
    mpps = next(f for f in figures if f.value == 30.6 and f.unit == "MPPS" and f.kind == "prose")
    assert gbps.quote == mpps.quote and "173Gbps (30.6MPPS)" in gbps.quote


@pytest.mark.parametrize("name", ["ttft_zh", "platform_groups_en", "continued_en"])
def test_speedups_on_and_off_read_the_same_figures(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pypdf speed-ups (one pass per page, font cache, regex tokeniser) change nothing that is read."""
    import evidence.pdf.speedups as speedups

    fast = parse_pdf(OFFICE / f"{name}.pdf", report_id="T")
    monkeypatch.setattr(speedups, "SINGLE_PASS", False)
    monkeypatch.setattr(speedups, "FAST_STREAMS", False)
    slow = parse_pdf(OFFICE / f"{name}.pdf", report_id="T")
    assert [p.text for p in fast.pages] == [p.text for p in slow.pages]
    assert [f.model_dump() for f in fast.figures] == [f.model_dump() for f in slow.figures]


def test_pdf_package_has_no_import_cycles_and_shares_only_public_names() -> None:
    package = REPO / "evidence" / "pdf"
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        mod = path.stem
        graph[mod] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("evidence.pdf"):
                target = (node.module or "").removeprefix("evidence.pdf").lstrip(".") or "__init__"
                names = [a.name for a in node.names]
                if target == "__init__":
                    target, names = names[0], []  # `from evidence.pdf import speedups`
                graph[mod].add(target)
                assert not [n for n in names if n.startswith("_")], f"{mod} imports private names from {target}"
    seen: set[str] = set()

    def visit(mod: str, stack: tuple[str, ...]) -> None:
        assert mod not in stack, f"import cycle: {' → '.join((*stack, mod))}"
        if mod in seen:
            return
        for dep in graph.get(mod, ()):
            if dep != "__init__":
                visit(dep, (*stack, mod))
        seen.add(mod)

    for mod in graph:
        visit(mod, ())
