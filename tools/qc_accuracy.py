"""QC accuracy benchmark: inject known errors into clean articles, count what QC catches and what it flags wrongly.

Kinds of injected error (each a copy of a clean article with one change):
  digit      a digit changed (7.53s → 7.35s)
  unit       a unit swapped (GB → MB, s → ms, % → 倍, 倍 → %)
  citation   a citation marker names another report (【出处:R2】 → 【出处:R1】)
  fabricated a sentence with invented numbers, citing a real report
  rounding   a percentage or speedup mis-rounded by one in its last digit (26% → 25%, 1.9 倍 → 1.8 倍)
  range      a range endpoint changed (26–32% → 26–35%)
  moved      a value replaced by another row's or metric's value of the same table (10.17s → 14.62s)
A mutant counts as caught when QC reports an error on the changed span (for `citation`: an error on a number now
scoped to the wrong report). False alarms are errors on the clean articles. Run: `python tools/qc_accuracy.py`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from evidence.models import Figure, Page, Report  # noqa: E402
from qc.check import check_draft  # noqa: E402
from qc.draft import Draft, citations, parse_draft  # noqa: E402
from qc.index import EvidenceIndex  # noqa: E402
from qc.models import FileResult, NumberCheck  # noqa: E402
from qc.numbers import NUM_RE  # noqa: E402
from qc.units import aliases, parse_unit  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "qc_corpus"
KINDS = ("digit", "unit", "citation", "fabricated", "rounding", "range", "moved")


# ---------------------------------------------------------------------------------------------------------------
# Evidence and clean articles.


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


def example_index() -> EvidenceIndex:
    """Ingest the bundled example reports (`site/reports`) into a temporary store and load every report."""
    from evidence.ingest import ingest
    from evidence.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store_path = Path(tmp) / "evidence.sqlite"
        ingest(REPO / "site" / "reports", store_path).raise_for_errors([])
        with Store(store_path) as store:
            return EvidenceIndex.load(store)


def clean_articles(folder: Path = CORPUS / "clean") -> list[Draft]:
    return [parse_draft(p.read_text(encoding="utf-8"), p.relative_to(REPO) if p.is_relative_to(REPO) else p)
            for p in sorted(folder.glob("*.md"))]  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# Mutants.


@dataclass
class Mutant:
    kind: str
    article: str
    change: str  # e.g. "7.53s → 7.35s"
    text: str  # the whole mutated file
    span: tuple[int, int]  # changed characters in `text`
    new_report: str | None = None  # for `citation`


def _offset(text: str, line: int, column: int) -> int:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    return starts[line - 1] + column - 1


def _located(draft: Draft, n: NumberCheck) -> int | None:
    off = _offset(draft.text, n.line, n.column)
    return off if draft.text[off : off + len(n.text)] == n.text else None


def _replace(draft: Draft, start: int, old: str, new: str, kind: str, tag: str | None = None) -> Mutant:
    text = draft.text[:start] + new + draft.text[start + len(old) :]
    return Mutant(kind, draft.path, f"{old} → {new}", text, (start, start + len(new)), tag)


_UNIT_SWAP = {"GB/s": "MB/s", "MB/s": "GB/s", "GB": "MB", "MB": "GB", "KB": "MB", "ms": "s", "s": "ms", "秒": "毫秒",
              "%": " 倍", "倍": "%", "x": "%", "×": "%", "tok/s": "GB/s", "h": " min", "周": "天", "weeks": "days",
              "token": "GB", "GbE": "GB"}  # fmt: skip
_UNIT_END = re.compile("(" + "|".join(re.escape(a) for a in aliases()) + r")$")


def _numbers(result: FileResult, ok_only: bool = True) -> list[NumberCheck]:
    return [n for n in result.numbers if n.status in ("verified", "derived") or (not ok_only and n.status != "exempt")]


def _digit(draft: Draft, result: FileResult) -> Iterator[Mutant]:
    for n in _numbers(result):
        off = _located(draft, n)
        m = NUM_RE.search(n.text)
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


def _unit(draft: Draft, result: FileResult) -> Iterator[Mutant]:
    for n in _numbers(result):
        off = _located(draft, n)
        m = _UNIT_END.search(n.text)
        if off is None or not m or m.group(1) not in _UNIT_SWAP:
            continue
        u = m.group(1)
        start = off + m.start(1)
        yield _replace(
            draft, start, u, _UNIT_SWAP[u].lstrip() if draft.text[start - 1 : start] == " " else _UNIT_SWAP[u], "unit"
        )


def _citation(draft: Draft, index: EvidenceIndex) -> Iterator[Mutant]:
    ids = list(index.reports)
    for start, end, cited in citations(draft.text):
        for rid in cited:
            other = next((r for r in ids if r not in cited), None)
            if other is None:
                continue
            pos = draft.text.index(rid, start, end)
            yield _replace(draft, pos, rid, other, "citation", other)


_FAB_ZH = ["此外,FX100 将 P99 排队时延缩短了 {p}%【出处:{r} 实测】。", "在 {n} 路并发下,读带宽可达 {g} GB/s【出处:{r} 实测】。",
           "单次冷恢复耗时仅 {s}s,比基线快 {x} 倍【出处:{r} 实测】。"]  # fmt: skip
_FAB_EN = ["FX100 also cut P99 queueing delay by {p}% [source: {r}].", "At {n}-way concurrency, read bandwidth reached {g} GB/s [source: {r}].",
           "One cold recovery took only {s} s, {x}x faster than the baseline [source: {r}]."]  # fmt: skip


def _fabricated(draft: Draft, index: EvidenceIndex, rng: random.Random) -> Iterator[Mutant]:
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
        yield Mutant("fabricated", draft.path, sentence, text, (at, at + len(sep + sentence)))


def _rounding(draft: Draft, result: FileResult) -> Iterator[Mutant]:
    for n in _numbers(result):
        off = _located(draft, n)
        m = NUM_RE.search(n.text)
        if off is None or not m or n.value is None or parse_unit(n.unit).dim not in ("%", "x"):
            continue
        num = m.group()
        last = int(num[-1])
        new = num[:-1] + str(last - 1 if last > 0 else last + 1)
        if new.lstrip("0.") == "":
            continue
        yield _replace(draft, off + m.start(), num, new, "rounding")


def _range(draft: Draft, result: FileResult, index: EvidenceIndex) -> Iterator[Mutant]:
    from qc.check import _matches, _prepare

    prep = _prepare(index)
    for n in _numbers(result):
        off = _located(draft, n)
        nums = list(NUM_RE.finditer(n.text))
        if off is None or n.value is not None or len(nums) != 2:
            continue
        unit = parse_unit(n.unit)
        for m in nums[::-1]:  # the high endpoint, then the low one
            old = m.group()
            decimals = len(old.split(".")[1]) if "." in old else 0
            step = 10.0**-decimals
            for delta in (3, -2, 5, 7, -4):
                value = float(old) + delta * step * (10 if decimals == 0 else 1)
                if value <= 0 or _matches(prep, value, step, unit, n.cited):
                    continue
                yield _replace(draft, off + m.start(), old, f"{value:.{decimals}f}", "range")
                break


def _moved(draft: Draft, result: FileResult, index: EvidenceIndex) -> Iterator[Mutant]:
    from qc.check import _prepare

    prep = _prepare(index)
    by_id = {x.f.id: x for x in prep.figs}
    for n in _numbers(result):
        off = _located(draft, n)
        m = NUM_RE.search(n.text)
        x = by_id.get(n.source.figure) if n.source else None
        if off is None or not m or x is None or x.table is None or n.value is None or n.status != "verified":
            continue
        siblings = [g for g in prep.by_table[x.table] if g.unit.dim == x.unit.dim and g is not x and g.unit.dim
                    and abs(g.f.value - x.f.value) > 1e-9 and g.raw_num not in n.sentence]  # fmt: skip
        row = [g for g in siblings if g.col == x.col and g.row != x.row]  # same metric, another row
        col = [g for g in siblings if g.row == x.row]  # same row, another metric
        for pick in (row[:1] + col[:1]) or siblings[:1]:
            yield _replace(draft, off + m.start(), m.group(), pick.raw_num, "moved")


def mutants(draft: Draft, result: FileResult, index: EvidenceIndex, rng: random.Random) -> Iterator[Mutant]:
    """Every mutant of one clean article, deterministic for a given `rng` seed."""
    yield from _digit(draft, result)
    yield from _unit(draft, result)
    yield from _citation(draft, index)
    yield from _fabricated(draft, index, rng)
    yield from _rounding(draft, result)
    yield from _range(draft, result, index)
    yield from _moved(draft, result, index)


# ---------------------------------------------------------------------------------------------------------------
# Scoring.


def caught(mutant: Mutant, draft: Draft, result: FileResult) -> bool:
    """Whether QC reports an error on the changed span (or, for a citation, on a number now scoped to it)."""
    errors = [n for n in result.numbers if n.severity == "error"]
    if mutant.kind == "citation":
        return any(mutant.new_report in n.cited for n in errors)
    a, b = mutant.span
    for n in errors:
        off = _offset(draft.text, n.line, n.column)
        if off < b and off + len(n.text) > a:
            return True
    return False


@dataclass
class Outcome:
    kinds: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in KINDS})  # injected, caught
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


def _inert(clean: FileResult, mutant: FileResult) -> bool:
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
        t = time.process_time()
        clean = check_draft(draft, index)
        out.ms.append((time.process_time() - t) * 1000)
        out.clean_numbers += len(clean.numbers)
        out.false_alarms += [f"{draft.path}:{n.line}:{n.column}: {n.text} — {n.message}" for n in clean.errors()]
        for i, mutant in enumerate(mutants(draft, clean, index, rng)):
            if i % every:
                continue
            mdraft = parse_draft(mutant.text, draft.path)
            t = time.process_time()
            result = check_draft(mdraft, index)
            out.ms.append((time.process_time() - t) * 1000)
            if mutant.kind == "citation" and _inert(clean, result):
                out.inert += 1  # the marker scoped no number (an intro whose list items carry their own): not an error
                continue
            out.kinds[mutant.kind][0] += 1
            if caught(mutant, mdraft, result):
                out.kinds[mutant.kind][1] += 1
            else:
                out.misses.append(mutant)
    return out


def report(out: Outcome) -> str:
    lines = [f"{'kind':<11} {'injected':>8} {'caught':>7} {'rate':>7}"]
    for kind, (i, c) in out.kinds.items():
        lines.append(f"{kind:<11} {i:>8} {c:>7} {(f'{c / i:.0%}' if i else '-'):>7}")
    total_i = sum(i for i, _ in out.kinds.values())
    total_c = sum(c for _, c in out.kinds.values())
    lines.append(f"{'all':<11} {total_i:>8} {total_c:>7} {(f'{total_c / total_i:.1%}' if total_i else '-'):>7}")
    lines.append(f"false alarms on clean articles: {len(out.false_alarms)} (of {out.clean_numbers} numbers)")
    if out.inert:
        lines.append(f"citation changes that leave every number with its source (not errors, not counted): {out.inert}")
    if out.ms:
        lines.append(f"QC per article (CPU time): median {statistics.median(out.ms):.1f} ms, max {max(out.ms):.1f} ms")
    for fa in out.false_alarms[:20]:
        lines.append(f"  false alarm: {fa}")
    for m in out.misses[:20]:
        lines.append(f"  missed {m.kind}: {m.article}: {m.change}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--fixture", action="store_true", help="use the JSON evidence fixture instead of ingesting site/reports"
    )
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    index = load_index() if args.fixture else example_index()
    out = run(index, clean_articles())
    print(json.dumps(out.as_dict(), ensure_ascii=False, indent=1) if args.json else report(out))
    return 0 if not out.false_alarms and not out.misses else 1


if __name__ == "__main__":
    sys.exit(main())
