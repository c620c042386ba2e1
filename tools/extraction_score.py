"""Extraction accuracy: expected figures read off the corpus PDFs, matched against what an extractor stored."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from evidence.units import parse_unit

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"
EXPECTED = CORPUS / "expected"
KINDS = ("cell", "kv", "prose")


@dataclass(frozen=True)
class Fig:
    """A figure as an extractor stored it, reduced to what matching looks at."""

    page: int
    value: float
    unit: str = ""
    labels: tuple[str, ...] = ()
    kind: str = "cell"


@dataclass(frozen=True)
class Want:
    """One expected figure of an expected file."""

    page: int
    value: float
    unit: str
    labels: tuple[str, ...]
    kind: str
    table: str | None = None


@dataclass(frozen=True)
class Table:
    """A table whose every numeric cell is listed among the expected figures (the precision scope)."""

    id: str
    page: int
    caption: str


@dataclass
class Expected:
    """One expected-figure file: the PDF it describes, its tables, figures and known limits."""

    path: Path
    pdf: str
    producer: str
    tables: list[Table]
    figures: list[Want]
    known_limits: dict[int, str]

    @property
    def pdf_path(self) -> Path:
        return CORPUS / self.pdf


@dataclass
class Score:
    """How one extractor did on one PDF (or, summed, on all)."""

    expected: int = 0
    found: int = 0
    limits: int = 0  # expected figures listed in known_limits
    limits_found: int = 0
    in_tables: int = 0  # stored figures placed in a listed table
    right: int = 0  # of those, how many match an expected figure of that table
    pages: int = 0
    seconds: float = 0.0
    missed: list[int] = field(default_factory=list)  # indices into Expected.figures

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def recall_outside_limits(self) -> float:
        n = self.expected - self.limits
        return (self.found - self.limits_found) / n if n else 1.0

    @property
    def precision(self) -> float:
        return self.right / self.in_tables if self.in_tables else 1.0

    def __iadd__(self, other: Score) -> Score:
        for name in ("expected", "found", "limits", "limits_found", "in_tables", "right", "pages"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        return self


class ExpectedError(ValueError):
    """An expected-figure file that does not follow docs/EXPECTED_FORMAT (names the file and the entry)."""


def stem_for(pdf: str) -> str:
    """`office/kv_bench_zh.pdf` → `office__kv_bench_zh` (the expected file's name)."""
    return pdf.removesuffix(".pdf").replace("/", "__")


def load_expected(directory: Path = EXPECTED) -> list[Expected]:
    """Every `*.yaml` in the folder, validated; sorted by PDF path."""
    return sorted((load_one(p) for p in directory.glob("*.yaml")), key=lambda e: e.pdf)


def load_one(path: Path) -> Expected:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    where = path.name

    def need(cond: bool, what: str) -> None:
        if not cond:
            raise ExpectedError(f"{where}: {what}")

    need(
        isinstance(data, dict) and isinstance(data.get("pdf"), str),
        "`pdf` (a path relative to tests/corpus) is required",
    )
    need(stem_for(data["pdf"]) == path.stem, f"file name must be {stem_for(data['pdf'])}.yaml")
    tables = []
    for i, t in enumerate(data.get("tables") or []):
        need(isinstance(t, dict) and {"id", "page"} <= set(t), f"tables[{i}] needs id and page")
        tables.append(Table(str(t["id"]), int(t["page"]), str(t.get("caption") or "")))
    ids = {t.id for t in tables}
    need(len(ids) == len(tables), "table ids must be unique")
    figures = []
    for i, f in enumerate(data.get("figures") or []):
        need(isinstance(f, dict) and {"page", "value"} <= set(f), f"figures[{i}] needs page and value")
        kind = str(f.get("kind", "cell"))
        need(kind in KINDS, f"figures[{i}].kind must be one of {', '.join(KINDS)}")
        table = f.get("table")
        need(table is None or str(table) in ids, f"figures[{i}].table {table!r} is not a listed table")
        labels = f.get("labels") or []
        need(isinstance(labels, list), f"figures[{i}].labels must be a list")
        figures.append(
            Want(
                int(f["page"]),
                float(f["value"]),
                str(f.get("unit") or ""),
                tuple(str(x) for x in labels),
                kind,
                None if table is None else str(table),
            )
        )
    limits: dict[int, str] = {}
    for i, k in enumerate(data.get("known_limits") or []):
        need(isinstance(k, dict) and "index" in k and k.get("why"), f"known_limits[{i}] needs index and why")
        idx = int(k["index"])
        need(0 <= idx < len(figures), f"known_limits[{i}].index {idx} is not a figure index")
        need(idx not in limits, f"known_limits[{i}].index {idx} is listed twice")
        limits[idx] = str(k["why"])
    return Expected(path, data["pdf"], str(data.get("producer") or ""), tables, figures, limits)


def fold(text: str) -> str:
    """Case-insensitive form without white space, used for label containment: a label wrapped over two lines is
    joined with or without a space (`1MB 顺序` + `大块读取`), and either must match; widths fold (NFKC), as the
    store keeps labels (`（基线）` is `(基线)`)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).casefold()


def same_unit(a: str, b: str) -> bool:
    """Equal after canonicalisation by the product's unit table (`ms` ≡ `毫秒`, `Gbps` ≡ `Gb/s`)."""
    ua, ub = parse_unit(a), parse_unit(b)
    if ua.name == ub.name:
        return True
    return bool(ua.dim) and ua.dim == ub.dim and math.isclose(ua.factor, ub.factor, rel_tol=1e-12)


def matches(fig: Fig, want: Want) -> bool:
    """The rule of EXPECTED_FORMAT.md: page, value (1e-9 relative), unit, every label a substring."""
    if fig.page != want.page or abs(fig.value - want.value) > 1e-9 * max(1.0, abs(want.value)):
        return False
    if not same_unit(fig.unit, want.unit):
        return False
    joined = fold(" | ".join(fig.labels))
    return all(fold(label) in joined for label in want.labels)


def in_table(fig: Fig, table: Table) -> bool:
    """A stored cell that the table's page and caption place in it (an empty caption: any cell of the page)."""
    if fig.kind != "cell" or fig.page != table.page:
        return False
    return not table.caption or fold(table.caption) in fold(" | ".join(fig.labels))


def score(expected: Expected, figures: Sequence[Fig], *, captions: bool = True) -> Score:
    """Recall over the expected figures and precision over the listed tables' cells.

    A stored cell belongs to a listed table when its labels carry the table's caption, or, carrying no listed
    table's caption, when it prints one of the table's values on the table's page (so a cell with shifted labels
    still counts against precision). `captions=False` is for extractors that know no captions (pdfplumber): every cell on a listed
    table's page counts for that table."""
    s = Score(expected=len(expected.figures), limits=len(expected.known_limits))
    by_page: dict[int, list[Fig]] = {}
    for f in figures:
        by_page.setdefault(f.page, []).append(f)
    for i, want in enumerate(expected.figures):
        if any(matches(f, want) for f in by_page.get(want.page, ())):
            s.found += 1
            s.limits_found += i in expected.known_limits
        else:
            s.missed.append(i)
    for f in figures:
        if captions:
            tables = [t for t in expected.tables if in_table(f, t)]
            if not tables and f.kind == "cell":  # no caption on it, but it prints a value of a table on its page
                tables = [t for t in expected.tables if t.page == f.page and _holds_value(expected, t, f.value)]
        else:
            tables = [t for t in expected.tables if f.kind == "cell" and f.page == t.page]
        if not tables:
            continue
        s.in_tables += 1
        ids = {t.id for t in tables}
        s.right += any(w.table in ids and matches(f, w) for w in expected.figures)
    return s


def _holds_value(expected: Expected, table: Table, value: float) -> bool:
    return any(w.table == table.id and abs(value - w.value) <= 1e-9 * max(1.0, abs(w.value)) for w in expected.figures)


def found_indices(expected: Expected, figures: Iterable[Fig]) -> set[int]:
    """Indices of the expected figures that some stored figure matches."""
    figs = list(figures)
    return {i for i, w in enumerate(expected.figures) if any(matches(f, w) for f in figs)}


def from_store(figures: Iterable[Any]) -> list[Fig]:
    """Proofpress `evidence.models.Figure`s (from `parse_pdf` or the store) as `Fig`s."""
    return [Fig(int(f.page), float(f.value), f.unit or "", tuple(f.labels), f.kind) for f in figures]


# --- pdfplumber's extract_tables(), read as figures by the same rule -----------------------------------

_CELL = re.compile(r"^[<>≤≥~≈]?\s*([-−]?\d[\d,]*(?:\.\d+)?)\s*([^\d\s].*)?$")
_PAREN = re.compile(r"[(（]([^()（）]{1,20})[)）]\s*$")
_SLASH = re.compile(r"^[^/]*[A-Za-z\d_\u4e00-\u9fff]\s*/\s*([A-Za-zµμ%]+)$")


def cell_number(text: str) -> tuple[float, str] | None:
    """`12.5 ms` → (12.5, "ms"); `1,567` → (1567, ""); anything else → None."""
    m = _CELL.match(re.sub(r"\s+", " ", text).strip())
    if not m:
        return None
    try:
        value = float(m.group(1).replace(",", "").replace("−", "-"))
    except ValueError:
        return None
    unit = (m.group(2) or "").strip().rstrip("*¹²³")
    return value, unit


def header_unit(text: str) -> str:
    """The unit a column header prints: `TTFT (s)` → s, `p50/ms` → ms."""
    t = re.sub(r"\s+", " ", text).strip()
    m = _PAREN.search(t) or _SLASH.match(t)
    return m.group(1).strip() if m else ""


def plumber_figures(tables_by_page: Iterable[tuple[int, list[list[list[str | None]]]]]) -> list[Fig]:
    """Cells of pdfplumber tables, read as a reader would: the first row and the rows after it without a number are
    the header (joined per column), a row's text cells are its label; the unit comes from the cell or its header."""
    out: list[Fig] = []
    for page, tables in tables_by_page:
        for table in tables:
            rows = [[re.sub(r"\s+", " ", c or "").strip() for c in row] for row in table if row]
            n_head = 1  # the first row, and the rows after it without a number (`2024A` heads a column too)
            while n_head < len(rows) and not any(cell_number(c) for c in rows[n_head]):
                n_head += 1
            if n_head == len(rows):
                continue
            width = max(len(r) for r in rows)
            header = [" ".join(r[c] for r in rows[:n_head] if c < len(r) and r[c]) for c in range(width)]
            for row in rows[n_head:]:
                key = " ".join(c for c in row if c and not cell_number(c))
                for c, cell in enumerate(row):
                    got = cell_number(cell) if cell else None
                    if got is None:
                        continue
                    unit = got[1] or header_unit(header[c]) or header_unit(key)
                    out.append(Fig(page, got[0], unit, (key, header[c]), "cell"))
    return out


def clear_known_limits(expected: Expected, found: set[int]) -> list[int]:
    """Drop from `expected`'s file the known limits that are found now (the ratchet's one way); return them.

    Only whole `- {index: N, why: …}` lines are removed, so the file's comments and layout stay as written. A miss
    is never added here: a new known limit needs its reason written by hand.
    """
    fixed = sorted(i for i in expected.known_limits if i in found)
    if not fixed:
        return []
    drop = re.compile(r"^\s*-\s*\{\s*index:\s*(" + "|".join(map(str, fixed)) + r")\s*,.*\}\s*$")
    lines = expected.path.read_text(encoding="utf-8").split("\n")
    kept = [line for line in lines if not drop.match(line)]
    assert len(lines) - len(kept) == len(fixed), f"{expected.path.name}: known_limits not one line each"
    text = "\n".join(kept)
    text = re.sub(r"^known_limits:\s*\n(?![ \t]*-)", "known_limits: []\n", text, flags=re.M)
    expected.path.write_text(text, encoding="utf-8")
    return fixed
