"""Extraction accuracy on the corpus: every expected figure is found unless a known limit says why (a ratchet)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import extraction_score as xs  # noqa: E402

from evidence.pdf import parse_pdf  # noqa: E402

EXPECTED = xs.load_expected()


@cache
def figures(pdf: str) -> tuple[xs.Fig, ...]:
    return tuple(xs.from_store(parse_pdf(xs.CORPUS / pdf).figures))


def test_every_corpus_pdf_has_an_expected_file() -> None:
    pdfs = {p.relative_to(xs.CORPUS).as_posix() for p in xs.CORPUS.rglob("*.pdf")}
    missing = pdfs - {e.pdf for e in EXPECTED}
    assert not missing, f"no expected file in tests/corpus/expected/ for {sorted(missing)}"


@pytest.mark.parametrize("expected", EXPECTED, ids=[e.pdf for e in EXPECTED])
def test_expected_figures_are_found(expected: xs.Expected, update_golden: bool) -> None:
    assert expected.pdf_path.is_file(), f"{expected.path.name}: {expected.pdf} is not in tests/corpus"
    found = xs.found_indices(expected, figures(expected.pdf))
    if update_golden:  # `make golden`: known limits that are found now are cleared (a new miss never is)
        xs.clear_known_limits(expected, found)
        expected = xs.load_one(expected.path)
    missed = [
        f"#{i} p{w.page} {w.value:g} {w.unit!r} {list(w.labels)}"
        for i, w in enumerate(expected.figures)
        if i not in found and i not in expected.known_limits
    ]
    fixed = sorted(i for i in expected.known_limits if i in found)
    assert not missed, f"{expected.path.name}: not found: " + "; ".join(missed)
    assert not fixed, (
        f"{expected.path.name}: known_limits {fixed} are found now: remove it from known_limits (`make golden` does)"
    )


# --- the scorer itself, on a hand-made case ---------------------------------------------------------------


def _case(tmp_path: Path) -> xs.Expected:
    (tmp_path / "x.yaml").write_text(
        """pdf: x.pdf
tables:
  - {id: t1, page: 2, caption: "Table 3"}
figures:
  - {page: 2, value: 10.17, unit: "s", labels: ["基线", "TTFT"], kind: cell, table: t1}
  - {page: 2, value: 7.53, unit: "s", labels: ["FX100", "TTFT"], kind: cell, table: t1}
  - {page: 2, value: 26, unit: "%", labels: ["降幅"], kind: cell, table: t1}
  - {page: 3, value: 2.8, unit: "GHz", labels: ["CPU"], kind: prose}
  - {page: 3, value: 1567, unit: "ms", labels: ["p99"], kind: kv}
known_limits:
  - {index: 4, why: "unit only in the caption"}
""",
        encoding="utf-8",
    )
    return xs.load_one(tmp_path / "x.yaml")


def test_scorer_counts_by_hand(tmp_path: Path) -> None:
    e = _case(tmp_path)
    cap = "Table 3 TTFT"
    stored = [
        xs.Fig(2, 10.17, "秒", ("基线", "TTFT (s)", cap)),  # right: 秒 ≡ s, labels fold case/space
        xs.Fig(2, 7.53, "ms", ("FX100", "TTFT", cap)),  # wrong unit
        xs.Fig(2, 26, "%", ("TTFT", cap)),  # missing label 降幅
        xs.Fig(2, 99, "", ("noise", cap)),  # a cell of the table that is no expected figure
        xs.Fig(2, 5, "", ("other", "Table 4")),  # another table's cell: outside precision
        xs.Fig(4, 2.8, "GHz", ("CPU",), "prose"),  # wrong page
        xs.Fig(3, 1567.0, "毫秒", ("latency p99",), "kv"),  # found, though listed in known_limits
    ]
    s = xs.score(e, stored)
    assert (s.expected, s.found, s.limits, s.limits_found) == (5, 2, 1, 1)
    assert s.missed == [1, 2, 3]
    assert s.recall == pytest.approx(2 / 5)
    assert s.recall_outside_limits == pytest.approx(1 / 4)
    assert (s.in_tables, s.right) == (4, 1)
    assert s.precision == pytest.approx(1 / 4)
    # a cell without the caption that prints a value of the table counts for it (here: wrong label)
    assert xs.score(e, [*stored, xs.Fig(2, 7.53, "s", ("TTFT",))]).in_tables == 5
    # without captions (pdfplumber) every cell on the page counts for the table
    assert xs.score(e, stored, captions=False).in_tables == 5


def test_scorer_value_tolerance_and_units() -> None:
    want = xs.Want(1, 0.1 + 0.2, "Gbps", ("x",), "prose")
    assert xs.matches(xs.Fig(1, 0.3, "Gb/s", ("X",)), want)
    assert not xs.matches(xs.Fig(1, 0.3001, "Gb/s", ("x",)), want)
    assert not xs.matches(xs.Fig(1, 0.3, "GB/s", ("x",)), want)  # bytes are not bits


def test_plumber_cells_take_units_from_cell_or_header() -> None:
    tables = [(1, [[["", "TTFT (s)", "吞吐"], ["并发 8", "10.17", "30.6 MPPS"], ["并发 16", "—", "N/A"]]])]
    figs = xs.plumber_figures(tables)
    assert figs == [
        xs.Fig(1, 10.17, "s", ("并发 8", "TTFT (s)")),
        xs.Fig(1, 30.6, "MPPS", ("并发 8", "吞吐")),
    ]
    # a header over two rows is joined per column; every text cell of a row labels it
    two = [(3, [[["序号", "机构", "授信总额"], [None, None, "(万元)"], ["1", "工商银行", "330,435.30"]]])]
    assert xs.plumber_figures(two) == [
        xs.Fig(3, 1, "", ("工商银行", "序号")),
        xs.Fig(3, 330435.3, "万元", ("工商银行", "授信总额 (万元)")),
    ]


def test_bad_expected_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "y.yaml").write_text("pdf: y.pdf\nfigures:\n  - {page: 1, value: 3, kind: chart}\n", encoding="utf-8")
    with pytest.raises(xs.ExpectedError, match=r"y\.yaml: figures\[0\]\.kind"):
        xs.load_one(tmp_path / "y.yaml")
