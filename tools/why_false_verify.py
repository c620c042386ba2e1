"""Why mutants pass: for every chance-control mutant QC still lets through, what backs it, grouped by cause.

Replays the chance control of `tools/qc_accuracy.py` (same seed, same sample) and, for each mutant that still
passes, prints the article line, the change and the evidence QC gave the mutated number: the figure (id, labels,
quote), the derivation with its operands, a row key, a verbatim term, or an exemption. Then counts the passing
mutants by cause. Run: `python tools/why_false_verify.py [--corpus real|synthetic] [--kind digit] [--quiet]`.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qc_accuracy as acc

from qc.draft import Draft, parse_draft
from qc.index import EvidenceIndex


def _offset(text: str, line: int, column: int) -> int:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    return starts[line - 1] + column - 1


def mutated_number(mutant: acc.Mutant, result: Any) -> Any | None:
    """The number of the mutant's result that covers (or touches) the changed characters."""
    a = mutant.span[0]
    best = None
    for n in result.numbers:
        if n.line not in mutant.lines:
            continue
        s = _offset(mutant.text, n.line, n.column)
        e = s + len(n.text)
        # (a unit QC does not read, `3900 K`, stands just after the number it was swapped onto)
        if s <= a <= e + 1 and (best is None or n.status != "exempt"):
            best = n
    return best


def cause(mutant: acc.Mutant, n: Any | None, clean_n: Any | None) -> str:
    """One word-group naming why the mutant passed."""
    if n is None:
        return "no number read at the change"
    if n.status == "exempt":
        return f"exempt ({n.message.split(':')[0]})"
    if n.status not in ("verified", "derived"):
        return f"{n.status} but the clean line had the same error"
    strength = n.strength or "?"
    if n.status == "derived":
        return f"derived: {strength}"
    same = clean_n is not None and clean_n.source is not None and n.source is not None
    if same and n.source.figure and n.source.figure == clean_n.source.figure:
        return f"verified: {strength}, the clean number's own figure (rounding tolerance)"
    if n.source is not None and clean_n is not None and clean_n.source is not None:
        other = "same page" if n.source.page == clean_n.source.page else "another page"
        return f"verified: {strength}, another figure ({other})"
    return f"verified: {strength}"


def describe(n: Any | None) -> str:
    if n is None:
        return "(nothing)"
    parts = [f"{n.text} {n.status}/{n.strength or '-'}"]
    if n.source is not None:
        s = n.source
        parts.append(f"{s.report} p.{s.page} {s.figure or '-'} [{' | '.join(s.labels)[:120]}] q={s.quote[:60]!r}")
    if n.derivation:
        parts.append(f"derivation {n.derivation}")
    if n.message and n.source is None:
        parts.append(n.message[:120])
    return "; ".join(parts)


def run(index: EvidenceIndex, drafts: list[Draft], kinds: set[str], quiet: bool, seed: int = 7,
        cap: int = 80) -> Counter[tuple[str, str]]:  # fmt: skip
    """The passing mutants (as run_chance samples them), each printed unless `quiet`; counts by (kind, cause)."""
    counts: Counter[tuple[str, str]] = Counter()
    for i, draft in enumerate(drafts):
        rng = random.Random(f"{seed}:{i}")
        clean = acc.check_draft(parse_draft(draft.text, draft.path), index)
        by_kind: dict[str, list[acc.Mutant]] = {}
        for mutant in acc.chance_mutants(draft, clean, index, rng):
            by_kind.setdefault(mutant.kind, []).append(mutant)
        for kind, mutants in by_kind.items():
            for mutant in rng.sample(mutants, min(cap, len(mutants))):
                if kind not in kinds or acc.not_an_error(mutant, index) is not None:
                    continue  # (a mutant stating the same value is no false verify: the tool counts it apart)
                result = acc.check_draft(parse_draft(mutant.text, draft.path), index)
                if acc.blocked(clean, result, mutant.lines):
                    continue
                n = mutated_number(mutant, result)
                clean_n = next((c for c in clean.numbers if n is not None and c.line == n.line
                                and c.column == n.column), None)  # fmt: skip
                why = cause(mutant, n, clean_n)
                counts[(kind, why)] += 1
                if not quiet:
                    line = mutant.text.splitlines()[min(mutant.lines) - 1].strip()
                    print(f"[{kind}] {Path(draft.path).name}:{min(mutant.lines)}: {mutant.change}  — {why}")
                    print(f"    line: {line[:160]}")
                    print(f"    now:  {describe(n)}")
                    print(f"    was:  {describe(clean_n)}")
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", choices=("real", "synthetic", "both"), default="both")
    ap.add_argument("--kind", action="append", help="only these chance kinds (repeatable)")
    ap.add_argument("--quiet", action="store_true", help="print only the table of causes")
    args = ap.parse_args(argv)
    kinds = set(args.kind or acc.CHANCE_KINDS)
    total: Counter[tuple[str, str]] = Counter()
    if args.corpus in ("real", "both"):
        total += run(acc.real_index(), acc.real_articles(), kinds, args.quiet)
    if args.corpus in ("synthetic", "both"):
        total += run(acc.example_index(), acc.clean_articles(), kinds, args.quiet)
    print(f"\n{'kind':<12} {'count':>5}  cause")
    for (kind, why), c in sorted(total.items(), key=lambda kv: (acc.CHANCE_KINDS.index(kv[0][0]), -kv[1])):
        print(f"{kind:<12} {c:>5}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
