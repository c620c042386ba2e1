"""QC accuracy: hand-made errors in hand-written articles over real reports, injected errors, and a chance control.

Three measurements, each over clean articles whose every number was checked by reading the PDF:

real      `tools/qc_corpus/real/`: articles written by hand over real reports of `tests/corpus/` (copied into a
          temporary content root and ingested), each with a `<slug>.mutations.yaml` of hand-made errors and their
          expected verdict. Kinds (REAL_KINDS): a plain wrong digit, the last digit ±1, a wrong unit; the hard ones
          (HARD_KINDS) take a real value of the report from another row, column group, percentile or system, swap
          two values, or derive from operands of different rows; then a wrong percent change, percent for
          percentage points and a stray-number coincidence. `correct` variants (a rounding, a unit conversion) must
          still pass.
synthetic `tools/qc_corpus/clean/` over the bundled example reports (site/reports): one injected error per copy
          of a clean article (SYN_KINDS), as before.
chance    for each clean article of both corpora, every verified or derived number mutated many times (CHANCE_KINDS:
          a digit changed, the last digit ±1, the unit swapped, two operands of a sentence swapped, a value from
          another row of the same table): the share of mutants that still pass is the false-verify rate per kind.

A mutant is caught when QC reports an error, on a line the change touched, that the clean article does not have; a
clean number that is neither verified, derived nor exempt is a false alarm. Only public names of `qc` and `evidence`
are used. Run: `python tools/qc_accuracy.py` (part of `make bench`; prints the tables and writes the section at the
end of docs/benchmarks.md) and exits 1 when the real corpus does worse than tools/qc_corpus/real/floor.json, which
tests/test_qc_accuracy.py checks and `make golden` re-records. `--root DIR` scores another content root laid out
like the real corpus (its PDFs in DIR/reports): the real measurement and its chance control, printed only.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from evidence.models import Figure, Page, Report  # noqa: E402
from evidence.units import parse_unit  # noqa: E402
from qc.draft import Draft, parse_draft  # noqa: E402
from qc.index import EvidenceIndex  # noqa: E402

try:  # QC's one public entry point, wherever the package keeps it
    from qc.check import check_draft
except ImportError:  # pragma: no cover - after a re-layout that exports it from the package
    from qc import check_draft  # type: ignore[attr-defined,no-redef]

CORPUS = Path(__file__).resolve().parent / "qc_corpus"
REAL = CORPUS / "real"
FLOOR = REAL / "floor.json"
CORPUS_PDFS = REPO / "tests" / "corpus"
DOC = REPO / "docs" / "benchmarks.md"
DOC_HEADING = "## QC accuracy on real reports (`tools/qc_accuracy.py`)"

SYN_KINDS = ("digit", "unit", "citation", "fabricated", "rounding", "range", "moved")
BASIC_KINDS = ("digit", "last_digit", "unit")
HARD_KINDS = ("other_row", "other_column", "other_percentile", "other_system", "swap", "cross_row_derivation")
REAL_KINDS = (*BASIC_KINDS, *HARD_KINDS, "wrong_change", "points", "coincidence")
CORRECT = "correct"  # a rewording that stays right: it must pass
CHANCE_KINDS = ("digit", "last_digit", "unit", "swap", "other_row")
OK_STATUSES = ("verified", "derived", "exempt")

# A number as printed: thousands separators, decimals, a sign. The tool's own reading, so that it measures QC's.
NUM = re.compile(r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
# Unit swaps for mutants: each unit to one of another size or kind (longest spelling first when matching).
UNIT_SWAP = {
    "MiB/s": "GiB/s", "GB/s": "Gbps", "Gbps": "GB/s", "Gb/s": "GB/s", "GbE": "GB", "tok/s": "GB/s",
    "GiB": "MiB", "GB": "MB", "MB": "GB", "KB": "MB", "TB": "GB", "ms/frame": "s/frame", "ms/帧": "s/帧",
    "ms": "s", "s": "ms", "秒": "毫秒", "毫秒": "秒", "min": "h", "h": "min", "%": " 倍", "倍": "%", "x": "%",
    "×": "%", "GHz": "MHz", "MHz": "GHz", "°C": "K", "亿元": "万元", "万元": "亿元", "百万元": "亿元", "元": "美元",
    "亿股": "万股", "GW": "MW", "weeks": "days", "周": "天", "token": "GB", "tokens": "GB",
}  # fmt: skip
_UNIT_AFTER = re.compile(r"\s?(" + "|".join(re.escape(u) for u in sorted(UNIT_SWAP, key=len, reverse=True)) + ")")
_MARKER = re.compile(r"【出处[::]([^】]*)】|\[source:\s*([^\]]*)\]")
_REPORT_ID = re.compile(r"[A-Z][A-Za-z0-9_-]*")


# ---------------------------------------------------------------------------------------------------------------
# Evidence.


def load_index(path: Path = CORPUS / "evidence.json") -> EvidenceIndex:
    """The example reports' figures and pages as dumped from the evidence store (fast, no PDF parsing)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return EvidenceIndex(
        reports={k: Report(**v) for k, v in data["reports"].items()},
        figures={k: [Figure(**f) for f in v] for k, v in data["figures"].items()},
        pages={k: [Page(**p) for p in v] for k, v in data["pages"].items()},
    )


def dump_index(index: EvidenceIndex, path: Path) -> None:
    """Write an index as the JSON fixture `load_index` reads (refresh it after the example PDFs change)."""
    data = {
        "reports": {k: json.loads(r.model_dump_json()) for k, r in index.reports.items()},
        "figures": {k: [json.loads(f.model_dump_json()) for f in v] for k, v in index.figures.items()},
        "pages": {k: [json.loads(p.model_dump_json()) for p in v] for k, v in index.pages.items()},
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _ingested(reports_dir: Path) -> EvidenceIndex:
    from evidence.ingest import ingest
    from evidence.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store_path = Path(tmp) / "evidence.sqlite"
        ingest(reports_dir, store_path).raise_for_errors([])
        with Store(store_path) as store:
            return EvidenceIndex.load(store)


def example_index() -> EvidenceIndex:
    """Ingest the bundled example reports (`site/reports`) into a temporary store and load every report."""
    return _ingested(REPO / "site" / "reports")


def registry(root: Path = REAL) -> list[dict[str, Any]]:
    """The entries of the real corpus' `reports/reports.yaml` (id, title, date, file)."""
    doc = yaml.safe_load((root / "reports" / "reports.yaml").read_text(encoding="utf-8"))
    return list(doc["reports"])


def pdf_folder(root: Path) -> Path:
    """Where the PDFs of a content root's registry sit: tests/corpus for the real corpus (kept once in the repo),
    the root's own reports/ folder for any other root (`--root`)."""
    return CORPUS_PDFS if root.resolve() == REAL.resolve() else root / "reports"


def real_index(root: Path = REAL) -> EvidenceIndex:
    """Copy the registry and the PDFs it names into a temporary reports folder, ingest it and load it."""
    with tempfile.TemporaryDirectory() as tmp:
        reports = Path(tmp) / "reports"
        reports.mkdir()
        shutil.copy(root / "reports" / "reports.yaml", reports / "reports.yaml")
        for entry in registry(root):
            (reports / entry["file"]).parent.mkdir(parents=True, exist_ok=True)  # office/… keeps its folder
            shutil.copy(pdf_folder(root) / entry["file"], reports / entry["file"])
        return _ingested(reports)


# ---------------------------------------------------------------------------------------------------------------
# Articles and hand-made mutations.


def _draft(path: Path) -> Draft:
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    return parse_draft(path.read_text(encoding="utf-8"), shown)


def clean_articles(folder: Path = CORPUS / "clean") -> list[Draft]:
    return [_draft(p) for p in sorted(folder.glob("*.md"))]


def real_articles(root: Path = REAL) -> list[Draft]:
    return [_draft(p) for p in sorted((root / "articles").glob("*.md"))]


@dataclass
class Mutation:
    """One hand-made change of an article: `old` inside the unique piece `at` becomes `new`."""

    kind: str
    at: str
    old: str
    new: str
    expect: str = "error"  # or "ok"
    line: int = 0  # in the mutations file

    def apply(self, text: str) -> tuple[str, tuple[int, int]]:
        start = text.index(self.at) + self.at.index(self.old)
        return text[:start] + self.new + text[start + len(self.old) :], (start, start + len(self.new))


class CorpusError(ValueError):
    """A mutations file that does not fit its article (a typo in `at`, an unknown kind)."""


def load_mutations(path: Path, text: str) -> list[Mutation]:
    """The mutations of one article, each validated against its text: every problem reported at once."""
    raw = yaml.compose(path.read_text(encoding="utf-8"))
    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    lines = [n.start_mark.line + 1 for n in raw.value[0][1].value] if raw is not None else []
    out, problems = [], []
    for i, item in enumerate(doc.get("mutations") or []):
        line = lines[i] if i < len(lines) else 0
        try:
            m = Mutation(**{k: str(v) for k, v in item.items()}, line=line)
        except TypeError as e:
            problems.append(f"{path}:{line}: {e}")
            continue
        if m.kind not in (*REAL_KINDS, CORRECT):
            problems.append(f"{path}:{line}: unknown kind {m.kind!r}")
        elif m.expect not in ("error", "ok") or (m.kind == CORRECT) != (m.expect == "ok"):
            problems.append(f"{path}:{line}: expect must be ok for `correct` and error for the others")
        elif text.count(m.at) != 1:
            problems.append(f"{path}:{line}: `at` {m.at!r} occurs {text.count(m.at)} times in the article")
        elif m.old not in m.at or m.old == m.new:
            problems.append(f"{path}:{line}: `old` {m.old!r} is not in `at` or equals `new`")
        else:
            out.append(m)
    if problems:
        raise CorpusError("\n".join(problems))
    return out


def mutations_for(draft: Draft) -> list[Mutation]:
    path = REPO / draft.path if not Path(draft.path).is_absolute() else Path(draft.path)
    return load_mutations(path.with_suffix(".mutations.yaml"), draft.text)


def cited_ids(draft: Draft) -> set[str]:
    """Every report id the draft names: its `evidence` list and its citation markers."""
    ids = set(draft.meta.evidence)
    for m in _MARKER.finditer(draft.text):
        ids.update(_REPORT_ID.findall(m.group(1) or m.group(2) or ""))
    return ids


# ---------------------------------------------------------------------------------------------------------------
# Scoring: an error that the change brought, on a line it touched.


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _offset(text: str, line: int, column: int) -> int:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    return starts[line - 1] + column - 1


def _errors(result: Any, lines: set[int]) -> Counter[tuple[int, str]]:
    return Counter((n.line, n.text) for n in result.numbers if n.severity == "error" and n.line in lines)


def blocked(clean: Any, mutant: Any, lines: set[int]) -> bool:
    """Whether the mutant has an error on one of `lines` that the clean article does not have."""
    return bool(_errors(mutant, lines) - _errors(clean, lines))


_VERSION = re.compile(r"v?\d+(?:\.\d+){2,}")


def _quantity(text: str) -> bool:
    """Whether an exempt text is a quantity after all: a decimal or grouped number, or a number with a unit."""
    m = NUM.match(text)
    if m is None or _VERSION.fullmatch(text):
        return False  # (`HBase 0.98.6.1`, `Hadoop 2.4.1`: a release's number, never a measured quantity)
    rest = text[m.end() :]
    return "." in m.group() or "," in m.group() or (bool(rest) and _UNIT_AFTER.fullmatch(rest) is not None)


_IN_TOKEN = re.compile(r"[A-Za-z0-9_]@$|[A-Za-z_]$")  # what glues a number into a part name (`1A72@1.99G`, `A800`)


def _part_of_name(n: Any) -> bool:
    """Whether an exempt number is a piece of a longer token of its sentence (a core `1A72@1.99G`: the clock in a
    part name, which QC exempts by design), not a quantity standing on its own."""
    sent: str = getattr(n, "sentence", "")
    i = sent.find(n.text)
    return i > 0 and _IN_TOKEN.search(sent, 0, i) is not None


def false_alarms(result: Any) -> list[Any]:
    """The numbers of a clean article that QC neither verifies nor derives: rejected ones, and quantities it exempts
    as if they were identifiers (`2,237.75`, `47GW`), which nothing checks; not a number inside a part's name."""
    return [n for n in result.numbers if n.status not in OK_STATUSES
            or (n.status == "exempt" and _quantity(n.text) and not _part_of_name(n))]  # fmt: skip


def _check(draft: Draft, index: EvidenceIndex, text: str, ms: list[float]) -> Any:
    mdraft = parse_draft(text, draft.path)
    t = time.process_time()
    result = check_draft(mdraft, index)
    ms.append((time.process_time() - t) * 1000)
    return result


@dataclass
class Tally:
    """Counts per kind: [tried, caught (or, for the chance control and `correct`, passed)]."""

    kinds: dict[str, list[int]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, hit: bool, example: str) -> None:
        k = self.kinds.setdefault(kind, [0, 0])
        k[0] += 1
        k[1] += hit
        seen = self.examples.setdefault(kind, [])
        if hit and not any(e.split(":", 1)[0] == example.split(":", 1)[0] for e in seen):
            seen.append(example)  # one example per article

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {k: {"tried": t, "hit": h, "rate": h / t if t else None} for k, (t, h) in self.kinds.items()}


@dataclass
class RealOutcome:
    caught: Tally = field(default_factory=Tally)  # hit = caught; examples = misses (filled below)
    correct: Tally = field(default_factory=Tally)  # hit = passed
    vacuous: Tally = field(default_factory=Tally)  # mutations of a number QC already rejects in the clean article
    misses: list[str] = field(default_factory=list)
    blocked_correct: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)
    numbers: int = 0  # non-exempt numbers of the clean articles
    exempt: int = 0
    articles: int = 0
    reports: int = 0
    ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        counts = {k: self.caught.kinds.get(k, [0, 0]) for k in REAL_KINDS}
        for k, (v, _) in self.vacuous.kinds.items():
            if k in counts:
                counts[k] = [counts[k][0] + v, counts[k][1]]  # injected, but not caught on its merits
        kinds = {k: {"injected": t, "caught": c, "vacuous": self.vacuous.kinds.get(k, [0, 0])[0]}
                 for k, (t, c) in counts.items() if t}  # fmt: skip
        hard = [counts[k] for k in HARD_KINDS]
        basic = [counts[k] for k in BASIC_KINDS]
        ok_t, ok_p = self.correct.kinds.get(CORRECT, [0, 0])
        return {
            "articles": self.articles,
            "reports": self.reports,
            "kinds": kinds,
            "basic": {"injected": sum(t for t, _ in basic), "caught": sum(c for _, c in basic)},
            "hard": {"injected": sum(t for t, _ in hard), "caught": sum(c for _, c in hard)},
            "correct_variants": {"tried": ok_t, "passed": ok_p, "vacuous": self.vacuous.kinds.get(CORRECT, [0, 0])[0]},
            "false_alarms": len(self.false_alarms),
            "clean_numbers": self.numbers,
            "exempt_numbers": self.exempt,
            "misses": self.misses,
            "blocked_correct": self.blocked_correct,
            "false_alarm_list": self.false_alarms,
        }


def _where(draft: Draft, n: Any) -> str:
    return f"{Path(draft.path).name}:{n.line}: {n.text} ({n.status}) {n.message}".strip()


def run_real(index: EvidenceIndex, drafts: list[Draft]) -> RealOutcome:
    """Check each clean article (false alarms) and each of its hand-made mutations (caught per kind)."""
    out = RealOutcome(articles=len(drafts), reports=len({r for d in drafts for r in cited_ids(d)}))
    for draft in drafts:
        clean = _check(draft, index, draft.text, out.ms)
        out.numbers += sum(n.status != "exempt" for n in clean.numbers)
        out.exempt += sum(n.status == "exempt" for n in clean.numbers)
        out.false_alarms += [_where(draft, n) for n in false_alarms(clean)]
        rejected = [(o, o + len(n.text)) for n in false_alarms(clean) if (o := _located(draft, n)) is not None]
        for m in mutations_for(draft):
            text, (a, b) = m.apply(draft.text)
            lines = set(range(_line(text, a), _line(text, b) + 1))
            hit = blocked(clean, _check(draft, index, text, out.ms), lines)
            change = f"{Path(draft.path).name}: {m.old} → {m.new} (mutations line {m.line})"
            start = draft.text.index(m.at) + m.at.index(m.old)
            if any(x < start + len(m.old) and start < y for x, y in rejected):
                # QC already rejects the clean number here: an error on the mutant shows nothing about the change.
                out.vacuous.add(m.kind, True, change)
                continue
            if m.expect == "ok":
                out.correct.add(CORRECT, not hit, change)
                if hit:
                    out.blocked_correct.append(change)
            else:
                out.caught.add(m.kind, hit, change)
                if not hit:
                    out.misses.append(f"{m.kind}: {change}")
    return out


# ---------------------------------------------------------------------------------------------------------------
# Chance control: mutate every verified or derived number of a clean article many ways; count what still passes.


@dataclass
class Mutant:
    kind: str
    article: str
    change: str  # e.g. "7.53s → 7.35s"
    text: str  # the whole mutated file
    span: tuple[int, int]  # changed characters in `text` (the first of them for a swap)
    new_report: str | None = None  # for `citation`
    lines: set[int] = field(default_factory=set)
    old: str = ""  # the chance control's numeral replaced (digit, last_digit, other_row) and its replacement
    new: str = ""
    number: Any = None  # the clean article's verdict on the mutated number


def _located(draft: Draft, n: Any) -> int | None:
    off = _offset(draft.text, n.line, n.column)
    return off if draft.text[off : off + len(n.text)] == n.text else None


def _ok_numbers(result: Any) -> list[Any]:
    return [n for n in result.numbers if n.status in ("verified", "derived")]


def _replace(draft: Draft, start: int, old: str, new: str, kind: str, tag: str | None = None, n: Any = None) -> Mutant:
    text = draft.text[:start] + new + draft.text[start + len(old) :]
    line = _line(text, start)
    return Mutant(kind, draft.path, f"{old} → {new}", text, (start, start + len(new)), tag, {line}, old, new, n)


def _digit_variants(num: str, rng: random.Random, per_number: int) -> list[str]:
    positions = [i for i, c in enumerate(num) if c.isdigit()]
    out: list[str] = []
    for i in rng.sample(positions, min(per_number, len(positions))):
        choices = [d for d in "0123456789" if d != num[i] and not (d == "0" and i == positions[0] and len(positions) > 1
                   and (i + 1 >= len(num) or num[i + 1] != "."))]  # fmt: skip
        out.append(num[:i] + rng.choice(choices) + num[i + 1 :])
    return out


def _last_digit_variants(num: str) -> list[str]:
    i = max(i for i, c in enumerate(num) if c.isdigit())
    d = int(num[i])
    return [num[:i] + str(v) + num[i + 1 :] for v in (d - 1, d + 1) if 0 <= v <= 9]


_NUMERAL = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?")


def _other_rows(index: EvidenceIndex, n: Any, sentence: str, rng: random.Random, k: int) -> list[str]:
    """Numerals of other figures of the same table (same report, page and unit, sharing all labels but one): each
    replaces a numeral of the article, so a magnitude a figure prints after it (`712万`) is the article's own."""
    src = getattr(n, "source", None)
    f = index.figure(src.figure) if src is not None else None
    if f is None:
        return []
    labels = set(f.labels)
    near: set[str] = set()
    for g in index.figures.get(f.report, []):
        num = _NUMERAL.match(g.raw)
        if (num and g.page == f.page and g.unit == f.unit and g.id != f.id and num.group() not in sentence
                and abs(g.value - f.value) > 1e-9 * max(1.0, abs(f.value)) and len(labels ^ set(g.labels)) == 2):  # fmt: skip
            near.add(num.group())
    pool = sorted(near)
    return rng.sample(pool, min(k, len(pool)))


def chance_mutants(draft: Draft, clean: Any, index: EvidenceIndex, rng: random.Random) -> Iterator[Mutant]:
    """Many mutants of every verified or derived number (CHANCE_KINDS), deterministic for a given `rng`."""
    numbers = [(n, off) for n in _ok_numbers(clean) if (off := _located(draft, n)) is not None]
    for n, off in numbers:
        for m in NUM.finditer(n.text):
            start, num = off + m.start(), m.group()
            for new in _digit_variants(num, rng, 3):
                yield _replace(draft, start, num, new, "digit", n=n)
            for new in _last_digit_variants(num):
                yield _replace(draft, start, num, new, "last_digit", n=n)
            for new in _other_rows(index, n, n.sentence, rng, 3):
                yield _replace(draft, start, num, new, "other_row", n=n)
        last = list(NUM.finditer(n.text))
        u = _UNIT_AFTER.match(n.text, last[-1].end()) if last else None
        if u is not None and u.end() == len(n.text.rstrip()):
            new = UNIT_SWAP[u.group(1)]
            yield _replace(
                draft, off + u.start(1), u.group(1), new.lstrip() if u.group(0)[0].isspace() else new, "unit"
            )
    # Two numbers of one sentence with the same unit and different values, exchanged.
    for (n1, o1), (n2, o2) in pairwise(numbers):
        if n1.sentence != n2.sentence or n1.field != n2.field or n1.unit != n2.unit or n1.line != n2.line:
            continue
        a, b = NUM.search(n1.text), NUM.search(n2.text)
        if a is None or b is None or a.group() == b.group():
            continue
        s1, s2 = o1 + a.start(), o2 + b.start()
        text = draft.text[:s1] + b.group() + draft.text[s1 + len(a.group()) : s2] + a.group()
        text += draft.text[s2 + len(b.group()) :]
        yield Mutant("swap", draft.path, f"{a.group()} ⇄ {b.group()}", text, (s1, s1 + 1), None, {n1.line})


def _num_value(num: str) -> float | None:
    """A plain printed number's value; None for anything else (`50M`, `>5000`: another reading, never equal)."""
    return float(num.replace(",", "").replace("−", "-")) if NUM.fullmatch(num) else None


def _same_at(num: str, value: float) -> bool:
    """Whether `value` prints as `num` at `num`'s own precision (half its last place either side)."""
    v = _num_value(num)
    step = 10.0 ** -len(num.split(".")[1]) if "." in num else 1.0
    return v is not None and abs(v - value) <= step / 2 + 1e-9 * max(1.0, abs(value))


def _in_unit(f: Figure, unit: str) -> float | None:
    """The figure's value in the article number's unit (its printed value for a bare number); None when the two
    units do not convert."""
    a, b = parse_unit(unit), parse_unit(f.unit)
    if not unit or not f.unit or a.name == b.name:
        return f.value
    return f.value * b.factor / a.factor if a.dim and a.dim == b.dim else None


def not_an_error(mutant: Mutant, index: EvidenceIndex) -> str | None:
    """Why a chance mutant states nothing false, or None when it does (then, if it passes, it is a false verify).

    Two cases only, both about the replaced numeral: it is the same value (`32 → 32.0`); or, for an end of a range,
    it prints at more (or less) precision the one figure of the clean number's table that the clean end printed
    (`35–36%` → `35–36.1%` where the table has 36.1 and nothing else near 36). Any other change, however small,
    is an error: a mutant that makes a false statement and passes is a false verify."""
    old, new, n = mutant.old, mutant.new, mutant.number
    if not old or not new or n is None:
        return None
    if (v := _num_value(old)) is not None and v == _num_value(new):
        return "the same value"
    src = n.source
    f = index.figure(src.figure) if src is not None and src.figure else None
    if f is None or len(NUM.findall(n.text)) < 2:
        return None
    near = [v for g in index.figures.get(f.report, []) if g.page == f.page and g.unit == f.unit
            and (v := _in_unit(g, n.unit)) is not None and _same_at(old, v)]  # fmt: skip
    if len(near) == 1 and _same_at(new, near[0]):
        return "the same figure at another precision"
    return None


@dataclass
class ChanceOutcome:
    passed: Tally = field(default_factory=Tally)  # hit = the mutant still passes (a false verify)
    inert: Tally = field(default_factory=Tally)  # mutants that state nothing false (`not_an_error`), counted apart
    ms: list[float] = field(default_factory=list)

    def rate(self, kind: str) -> tuple[int, int, int]:
        """(mutants, not an error, passing errors) of one kind; the false-verify rate is the last over the first
        less the second."""
        t, h = self.passed.kinds.get(kind, [0, 0])
        return t + self.inert.kinds.get(kind, [0, 0])[0], self.inert.kinds.get(kind, [0, 0])[0], h


def run_chance(index: EvidenceIndex, drafts: list[Draft], *, seed: int = 7, cap: int = 80) -> ChanceOutcome:
    """For each article, up to `cap` mutants per kind (a seeded sample), each checked; count those that pass."""
    out = ChanceOutcome()
    for i, draft in enumerate(drafts):
        rng = random.Random(f"{seed}:{i}")
        clean = _check(draft, index, draft.text, out.ms)
        by_kind: dict[str, list[Mutant]] = {}
        for mutant in chance_mutants(draft, clean, index, rng):
            by_kind.setdefault(mutant.kind, []).append(mutant)
        for kind, mutants in by_kind.items():
            for mutant in rng.sample(mutants, min(cap, len(mutants))):
                why = not_an_error(mutant, index)
                if why is not None:
                    out.inert.add(kind, True, f"{Path(draft.path).name}: {mutant.change} ({why})")
                    continue
                result = _check(draft, index, mutant.text, out.ms)
                out.passed.add(
                    kind, not blocked(clean, result, mutant.lines), f"{Path(draft.path).name}: {mutant.change}"
                )
    return out


# ---------------------------------------------------------------------------------------------------------------
# Synthetic injection (the example reports): one generated error per copy of a clean article.


def _unit_swap(draft: Draft, result: Any) -> Iterator[Mutant]:
    for n in _ok_numbers(result):
        off = _located(draft, n)
        nums = list(NUM.finditer(n.text))
        u = _UNIT_AFTER.match(n.text, nums[-1].end()) if off is not None and nums else None
        if off is None or u is None or u.end() != len(n.text):
            continue
        new = UNIT_SWAP[u.group(1)]
        yield _replace(draft, off + u.start(1), u.group(1), new.lstrip() if u.group(0)[0].isspace() else new, "unit")


def _digit(draft: Draft, result: Any) -> Iterator[Mutant]:
    for n in _ok_numbers(result):
        off = _located(draft, n)
        m = NUM.search(n.text)
        if off is None or not m or n.value is None:
            continue
        digits = [i for i, c in enumerate(m.group()) if c.isdigit()]
        num = list(m.group())
        if len(digits) >= 2 and num[digits[-1]] != num[digits[-2]]:
            num[digits[-1]], num[digits[-2]] = num[digits[-2]], num[digits[-1]]  # 7.53 → 7.35
        else:
            num[digits[0]] = str((int(num[digits[0]]) + 1) % 10) if num[digits[0]] != "9" else "7"
        new = "".join(num)
        if new.lstrip("0") == "" or (new.startswith("0") and not new.startswith("0.")):
            continue
        yield _replace(draft, off + m.start(), m.group(), new, "digit")


def _citation(draft: Draft, index: EvidenceIndex) -> Iterator[Mutant]:
    ids = list(index.reports)
    for marker in _MARKER.finditer(draft.text):
        g = 1 if marker.group(1) is not None else 2
        cited = _REPORT_ID.findall(marker.group(g))
        for rid in cited:
            other = next((r for r in ids if r not in cited), None)
            if other is None:
                continue
            pos = draft.text.index(rid, marker.start(g), marker.end(g))
            yield _replace(draft, pos, rid, other, "citation", other)


_FAB_ZH = ["此外,FX100 将 P99 排队时延缩短了 {p}%【出处:{r} 实测】。", "在 {n} 路并发下,读带宽可达 {g} GB/s【出处:{r} 实测】。",
           "单次冷恢复耗时仅 {s}s,比基线快 {x} 倍【出处:{r} 实测】。"]  # fmt: skip
_FAB_EN = ["FX100 also cut P99 queueing delay by {p}% [source: {r}].", "At {n}-way concurrency, read bandwidth reached {g} GB/s [source: {r}].",
           "One cold recovery took only {s} s, {x}x faster than the baseline [source: {r}]."]  # fmt: skip


def _fabricated(draft: Draft, rng: random.Random) -> Iterator[Mutant]:
    body_start = _offset(draft.text, draft.body_line, 1)
    paras = [m.end() for m in re.finditer(r"[^\n]\n(?=\n)", draft.text[body_start:])]
    templates = _FAB_ZH if draft.meta.lang == "zh" else _FAB_EN
    for i, cut in enumerate(paras[:6]):
        tpl = templates[i % len(templates)]
        rid = draft.meta.evidence[i % len(draft.meta.evidence)]
        sentence = tpl.format(p=rng.randint(41, 88), n=rng.choice([3, 5, 7, 12]), g=f"{rng.uniform(6.5, 9.9):.2f}",
                              s=f"{rng.uniform(1.1, 2.9):.1f}", x=f"{rng.uniform(11, 15):.1f}", r=rid)  # fmt: skip
        at = body_start + cut - 1
        sep = "" if draft.meta.lang == "zh" else " "
        text = draft.text[:at] + sep + sentence + draft.text[at:]
        yield Mutant("fabricated", draft.path, sentence, text, (at, at + len(sep + sentence)), None, {_line(text, at)})


def _rounding(draft: Draft, result: Any) -> Iterator[Mutant]:
    for n in _ok_numbers(result):
        off = _located(draft, n)
        m = NUM.search(n.text)
        if off is None or not m or n.value is None or n.unit not in ("%", "x"):
            continue
        num = m.group()
        last = int(num[-1])
        new = num[:-1] + str(last - 1 if last > 0 else last + 1)
        if new.lstrip("0.") == "":
            continue
        yield _replace(draft, off + m.start(), num, new, "rounding")


def _near_figure(index: EvidenceIndex, value: float, step: float, reports: Iterable[str]) -> bool:
    return any(abs(f.value - value) <= step / 2 + 1e-9 for r in reports for f in index.figures.get(r, []))


def _range(draft: Draft, result: Any, index: EvidenceIndex) -> Iterator[Mutant]:
    for n in _ok_numbers(result):
        off = _located(draft, n)
        nums = list(NUM.finditer(n.text))
        if off is None or n.value is not None or len(nums) != 2:
            continue
        for m in nums[::-1]:  # the high endpoint, then the low one
            old = m.group()
            decimals = len(old.split(".")[1]) if "." in old else 0
            step = 10.0**-decimals
            for delta in (3, -2, 5, 7, -4):
                value = float(old) + delta * step * (10 if decimals == 0 else 1)
                if value <= 0 or _near_figure(index, value, step, n.cited):
                    continue
                yield _replace(draft, off + m.start(), old, f"{value:.{decimals}f}", "range")
                break


def _moved(draft: Draft, result: Any, index: EvidenceIndex) -> Iterator[Mutant]:
    for n in _ok_numbers(result):
        off = _located(draft, n)
        m = NUM.search(n.text)
        if off is None or not m or n.value is None or n.status != "verified":
            continue
        for raw in _other_rows(index, n, n.sentence, random.Random(n.text), 2):
            yield _replace(draft, off + m.start(), m.group(), raw, "moved")


def mutants(draft: Draft, result: Any, index: EvidenceIndex, rng: random.Random) -> Iterator[Mutant]:
    """Every synthetic mutant of one clean article, deterministic for a given `rng` seed."""
    yield from _digit(draft, result)
    yield from _unit_swap(draft, result)
    yield from _citation(draft, index)
    yield from _fabricated(draft, rng)
    yield from _rounding(draft, result)
    yield from _range(draft, result, index)
    yield from _moved(draft, result, index)


def caught(mutant: Mutant, clean: Any, result: Any) -> bool:
    """Whether QC reports a new error on the changed lines (for a citation: on a number now scoped to it)."""
    if mutant.kind == "citation":
        return any(mutant.new_report in n.cited for n in result.numbers if n.severity == "error")
    return blocked(clean, result, mutant.lines)


@dataclass
class Outcome:
    kinds: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in SYN_KINDS})  # injected, caught
    false_alarms: list[str] = field(default_factory=list)
    clean_numbers: int = 0
    misses: list[Mutant] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    inert: int = 0  # citation changes that leave every number with its supporting report

    def as_dict(self) -> dict[str, Any]:
        return {
            "kinds": {
                k: {"injected": i, "caught": c, "rate": (c / i if i else None)} for k, (i, c) in self.kinds.items()
            },
            "injected": sum(i for i, _ in self.kinds.values()),
            "caught": sum(c for _, c in self.kinds.values()),
            "false_alarms": len(self.false_alarms),
            "clean_numbers": self.clean_numbers,
            "inert_citation_changes": self.inert,
            "qc_ms_median": statistics.median(self.ms) if self.ms else None,
            "misses": [f"{m.kind} {m.article}: {m.change}" for m in self.misses],
        }


def _inert(clean: Any, mutant: Any) -> bool:
    """A citation change that leaves every number it scopes with the report that supports it is no error."""
    before = [n for n in clean.numbers if n.status != "exempt"]
    after = [n for n in mutant.numbers if n.status != "exempt"]
    if len(before) != len(after):
        return False
    return all(
        a.cited == b.cited or (b.source is not None and b.source.report in a.cited)
        for b, a in zip(before, after, strict=True)
    )


def run(index: EvidenceIndex, drafts: list[Draft], *, seed: int = 7, every: int = 1) -> Outcome:
    """Check every clean article (false alarms) and every `every`-th mutant of each (catch rate per kind)."""
    rng = random.Random(seed)
    out = Outcome()
    for draft in drafts:
        clean = _check(draft, index, draft.text, out.ms)
        out.clean_numbers += len(clean.numbers)
        out.false_alarms += [_where(draft, n) for n in false_alarms(clean)]
        for i, mutant in enumerate(mutants(draft, clean, index, rng)):
            if i % every:
                continue
            result = _check(draft, index, mutant.text, out.ms)
            if mutant.kind == "citation" and _inert(clean, result):
                out.inert += 1  # the marker scoped no number (an intro whose list items carry their own): not an error
                continue
            out.kinds[mutant.kind][0] += 1
            if caught(mutant, clean, result):
                out.kinds[mutant.kind][1] += 1
            else:
                out.misses.append(mutant)
    return out


# ---------------------------------------------------------------------------------------------------------------
# The floor (a ratchet) and the reports.


def floor_of(real: RealOutcome) -> dict[str, Any]:
    """What the floor file records of the real corpus: caught per kind, correct variants passed, false alarms."""
    s = real.summary()
    return {
        "caught": {k: v["caught"] for k, v in s["kinds"].items()},
        "injected": {k: v["injected"] for k, v in s["kinds"].items()},
        "correct_passed": s["correct_variants"]["passed"],
        "false_alarms": s["false_alarms"],
        "clean_numbers": s["clean_numbers"],
    }


def synthetic_floor_of(out: Outcome) -> dict[str, Any]:
    """What the floor file records of a synthetic run: caught and injected per kind, false alarms."""
    return {
        "caught": {k: c for k, (_, c) in out.kinds.items()},
        "injected": {k: i for k, (i, _) in out.kinds.items()},
        "false_alarms": len(out.false_alarms),
    }


def worse_than_floor(now: dict[str, Any], floor: dict[str, Any]) -> list[str]:
    """Every way the figures `now` (as `floor_of` makes them) are worse than the recorded `floor`: fewer caught in a
    kind, fewer correct variants passed, more false alarms. Empty when they hold or improve."""
    out = [f"{k}: {now['caught'].get(k, 0)} caught, floor {c}" for k, c in floor["caught"].items()
           if now["caught"].get(k, 0) < c]  # fmt: skip
    if now.get("correct_passed", 0) < floor.get("correct_passed", 0):
        out.append(f"correct variants passed: {now['correct_passed']}, floor {floor['correct_passed']}")
    if now["false_alarms"] > floor["false_alarms"]:
        out.append(f"false alarms: {now['false_alarms']}, floor {floor['false_alarms']}")
    return out


def _pct(hit: int, tried: int) -> str:
    return f"{hit / tried:.1%}" if tried else "—"


def text_report(real: RealOutcome | None, chance: dict[str, ChanceOutcome], syn: Outcome | None) -> str:
    lines: list[str] = []
    if real is not None:
        s = real.summary()
        lines.append(f"REAL corpus: {s['articles']} hand-written articles over {s['reports']} real reports")
        lines.append(f"{'kind':<22} {'injected':>8} {'caught':>7} {'rate':>7} {'vacuous':>8}")
        for k, v in s["kinds"].items():
            lines.append(f"{k:<22} {v['injected']:>8} {v['caught']:>7} {_pct(v['caught'], v['injected']):>7} "
                         f"{v['vacuous']:>8}")  # fmt: skip
        for name in ("basic", "hard"):
            v = s[name]
            lines.append(
                f"{'all ' + name:<22} {v['injected']:>8} {v['caught']:>7} {_pct(v['caught'], v['injected']):>7}"
            )
        c = s["correct_variants"]
        lines.append(
            f"correct variants that pass: {c['passed']} of {c['tried']} ({c['vacuous']} more on rejected numbers)"
        )
        lines.append(
            "vacuous: the error lands on a number QC already rejects in the clean article (not counted caught)"
        )
        lines.append(f"false alarms on clean articles: {s['false_alarms']} of {s['clean_numbers']} numbers "
                     f"({s['exempt_numbers']} more exempt)")  # fmt: skip
        lines += [f"  false alarm: {fa}" for fa in s["false_alarm_list"]]
        lines += [f"  missed {m}" for m in s["misses"]]
        lines += [f"  correct variant blocked: {b}" for b in s["blocked_correct"]]
    for name, ch in chance.items():
        lines.append(f"CHANCE control ({name}): share of mutants of verified/derived numbers that still pass")
        lines.append(f"{'kind':<22} {'mutants':>8} {'no error':>8} {'pass':>7} {'rate':>7}")
        for k in CHANCE_KINDS:
            t, i, h = ch.rate(k)
            lines.append(f"{k:<22} {t:>8} {i:>8} {h:>7} {_pct(h, t - i):>7}")
        lines.append("no error: the mutant states the same value (`not_an_error`), not counted in the rate")
        for k in CHANCE_KINDS:
            lines += [f"  passes ({k}): {e}" for e in ch.passed.examples.get(k, [])[:4]]
            lines += [f"  no error ({k}): {e}" for e in ch.inert.examples.get(k, [])[:2]]
    if syn is not None:
        d = syn.as_dict()
        lines.append("SYNTHETIC injection (example reports)")
        lines.append(f"{'kind':<22} {'injected':>8} {'caught':>7} {'rate':>7}")
        for k, v in d["kinds"].items():
            lines.append(f"{k:<22} {v['injected']:>8} {v['caught']:>7} {_pct(v['caught'], v['injected']):>7}")
        lines.append(f"{'all':<22} {d['injected']:>8} {d['caught']:>7} {_pct(d['caught'], d['injected']):>7}")
        lines.append(f"false alarms on clean articles: {d['false_alarms']} of {d['clean_numbers']} numbers")
        lines += [f"  missed {m}" for m in d["misses"][:10]]
    ms = [x for o in (real, syn, *chance.values()) if o is not None for x in o.ms]
    if ms:
        lines.append(f"QC per article (CPU time): median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms, "
                     f"{len(ms)} checks")  # fmt: skip
    return "\n".join(lines)


def markdown(real: RealOutcome, chance: dict[str, ChanceOutcome], syn: Outcome, seconds: float) -> str:
    """The section `tools/qc_accuracy.py` writes at the end of docs/benchmarks.md."""
    s = real.summary()
    d = syn.as_dict()
    out = [DOC_HEADING, "",
           f"Hand-written: {s['articles']} articles over {s['reports']} real reports of `tests/corpus/` "
           "(`tools/qc_corpus/real/`), every number checked by reading the PDF; hand-made errors of each kind in "
           "`<slug>.mutations.yaml`. Synthetic: the generated injection corpus over the example reports, beside it. "
           "A mutant is caught when QC reports a new error on a line the change touched; *vacuous* counts the "
           "mutants of numbers QC already rejects in the clean article (an error there shows nothing, so they are "
           "injected but not caught).", "",
           "| kind | real: injected | real: caught | rate | vacuous |", "|---|---|---|---|---|"]  # fmt: skip
    for k, v in s["kinds"].items():
        out.append(f"| {k} | {v['injected']} | {v['caught']} | {_pct(v['caught'], v['injected'])} | {v['vacuous']} |")
    for name in ("basic", "hard"):
        v = s[name]
        out.append(f"| **all {name}** | {v['injected']} | {v['caught']} | {_pct(v['caught'], v['injected'])} | |")
    c = s["correct_variants"]
    out += ["",
            f"False alarms on the clean real articles: **{s['false_alarms']} of {s['clean_numbers']}** correct "
            f"numbers ({s['exempt_numbers']} more exempt); correct rewordings that pass: {c['passed']} of "
            f"{c['tried']}. Synthetic: {d['caught']} of {d['injected']} injected errors caught, "
            f"{d['false_alarms']} false alarms over {d['clean_numbers']} numbers.", "",
            "Chance control: every verified or derived number of each clean article mutated (a seeded sample of at "
            "most 80 mutants per kind and article); the share of the mutants that state an error and still pass is "
            "the false-verify rate (goal ≤ 0.5 %). *No error*: mutants that state the same value (`32 → 32.0`, or "
            "a range end printed at another precision of its one figure), counted apart.", "",
            "| kind | real: mutants | real: no error | real: pass | real: rate | synthetic: mutants | "
            "synthetic: no error | synthetic: pass | synthetic: rate |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for k in CHANCE_KINDS:
        rt, ri, rh = chance["real"].rate(k)
        st, si, sh = chance["synthetic"].rate(k)
        out.append(f"| {k} | {rt} | {ri} | {rh} | {_pct(rh, rt - ri)} | {st} | {si} | {sh} | {_pct(sh, st - si)} |")
    out += ["", "Mutants that still pass, for example (one per article):", ""]
    for name, ch in chance.items():
        for k in CHANCE_KINDS:
            out += [f"- {name}, {k}: {e}" for e in ch.passed.examples.get(k, [])[:3]]
    out += ["", "Missed on the real corpus:", ""] + ([f"- {m}" for m in s["misses"]] or ["- none"])
    out += ["", "False alarms on the real corpus:", ""] + ([f"- {fa}" for fa in s["false_alarm_list"]] or ["- none"])
    if s["blocked_correct"]:
        out += ["", "Correct rewordings blocked:", ""] + [f"- {b}" for b in s["blocked_correct"]]
    ms = real.ms + syn.ms + [x for ch in chance.values() for x in ch.ms]
    out += ["", f"{len(ms)} QC runs, median {statistics.median(ms):.1f} ms CPU each; whole tool {seconds:.0f} s.", ""]
    return "\n".join(out)


def write_section(section: str, doc: Path = DOC) -> None:
    """Replace this tool's section of `doc`, leaving the other tools' sections alone."""
    from doc_sections import replace_section

    replace_section(section, doc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixture", action="store_true", help="synthetic: the JSON evidence fixture, not site/reports")
    ap.add_argument("--json", action="store_true", help="print only the synthetic injection figures as JSON")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cap", type=int, default=80, help="chance control: mutants per kind and article (sampled)")
    ap.add_argument("--no-doc", dest="doc", action="store_false", help="do not write docs/benchmarks.md")
    ap.add_argument("--root", type=Path, help="score this content root (laid out like tools/qc_corpus/real, its "
                    "PDFs in DIR/reports): the real measurement and its chance control only, no floor, no doc")  # fmt: skip
    args = ap.parse_args(argv)
    if args.root is not None:
        root = args.root.resolve()
        index, drafts = real_index(root), real_articles(root)
        chance = {"real": run_chance(index, drafts, seed=args.seed, cap=args.cap)}
        print(f"content root: {root}")
        print(text_report(run_real(index, drafts), chance, None))
        return 0
    started = time.perf_counter()
    syn_index = load_index() if args.fixture else example_index()
    syn_drafts = clean_articles()
    syn = run(syn_index, syn_drafts, seed=args.seed)
    if args.json:
        print(json.dumps(syn.as_dict(), ensure_ascii=False, indent=1))
        return 0
    index = real_index()
    drafts = real_articles()
    real = run_real(index, drafts)
    chance = {"real": run_chance(index, drafts, seed=args.seed, cap=args.cap),
              "synthetic": run_chance(syn_index, syn_drafts, seed=args.seed, cap=args.cap)}  # fmt: skip
    print(text_report(real, chance, syn))
    if args.doc:
        write_section(markdown(real, chance, syn, time.perf_counter() - started))
    worse = (
        worse_than_floor(floor_of(real), json.loads(FLOOR.read_text(encoding="utf-8"))["real"])
        if FLOOR.exists()
        else []
    )
    for w in worse:
        print(f"worse than the floor ({FLOOR.relative_to(REPO)}): {w}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
