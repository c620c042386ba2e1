"""QC verdicts of every check the accuracy tool runs, dumped to compare two versions of QC (a speed-up changes none).

Runs what `tools/qc_accuracy.py` runs (the synthetic injection, the real corpus with its hand-made mutations, the
chance control of both corpora) and records each `check_draft` result in full (statuses, figure ids, messages,
derivations, strengths, terms), one JSON line per check in run order. Run on the old version with `--out old.jsonl.gz`,
on the new one with `--compare old.jsonl.gz`: it prints the first differences and exits 1 when there are any.
`--quick` checks the clean articles only (a few seconds).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qc_accuracy


def _record(draft: Any, text: str, result: Any) -> str:
    return json.dumps(
        {"file": str(draft.path), "text": hashlib.sha256(text.encode()).hexdigest()[:16],
         "result": result.model_dump(mode="json")},
        ensure_ascii=False, sort_keys=True,
    )  # fmt: skip


def collect(quick: bool) -> tuple[list[str], list[float]]:
    """Every check's record, in the accuracy tool's order, and the CPU ms of each check."""
    records: list[str] = []
    ms: list[float] = []
    original = qc_accuracy._check

    def check(draft: Any, index: Any, text: str, times: list[float]) -> Any:
        result = original(draft, index, text, times)
        ms.append(times[-1])
        records.append(_record(draft, text, result))
        return result

    qc_accuracy._check = check  # type: ignore[assignment]
    try:
        syn_index, syn_drafts = qc_accuracy.example_index(), qc_accuracy.clean_articles()
        index, drafts = qc_accuracy.real_index(), qc_accuracy.real_articles()
        if quick:
            for d in syn_drafts:
                check(d, syn_index, d.text, [])
            for d in drafts:
                check(d, index, d.text, [])
        else:
            qc_accuracy.run(syn_index, syn_drafts)
            qc_accuracy.run_real(index, drafts)
            qc_accuracy.run_chance(index, drafts)
            qc_accuracy.run_chance(syn_index, syn_drafts)
    finally:
        qc_accuracy._check = original  # type: ignore[assignment]
    return records, ms


def _diff(old: str, new: str) -> str:
    a, b = json.loads(old), json.loads(new)
    na, nb = a["result"]["numbers"], b["result"]["numbers"]
    for x, y in zip(na, nb, strict=False):
        if x != y:
            keys = sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k))
            return f"{a['file']} ({a['text']}) line {x['line']} {x['text']!r}: " + "; ".join(
                f"{k}: {x.get(k)!r} → {y.get(k)!r}" for k in keys
            )
    return f"{a['file']} ({a['text']}): {len(na)} → {len(nb)} numbers, or the terms/summary differ"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="write the records here (.jsonl.gz)")
    ap.add_argument("--compare", type=Path, help="compare with the records of an earlier --out")
    ap.add_argument("--quick", action="store_true", help="the clean articles only")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    records, ms = collect(args.quick)
    ms.sort()
    print(f"{len(records)} checks in {time.perf_counter() - started:.0f} s; QC CPU ms per check: median "
          f"{ms[len(ms) // 2]:.1f}, p90 {ms[int(len(ms) * 0.9)]:.1f}, max {ms[-1]:.1f}")  # fmt: skip
    if args.out:
        with gzip.open(args.out, "wt", encoding="utf-8") as f:
            f.writelines(r + "\n" for r in records)
    if args.compare:
        with gzip.open(args.compare, "rt", encoding="utf-8") as f:
            old = [line.rstrip("\n") for line in f]
        diffs = [i for i, (a, b) in enumerate(zip(old, records, strict=False)) if a != b]
        if len(old) != len(records):
            print(f"{len(old)} checks before, {len(records)} now")
        for i in diffs[:20]:
            print("differs:", _diff(old[i], records[i]))
        print(f"{len(diffs)} of {min(len(old), len(records))} checks differ")
        return 1 if diffs or len(old) != len(records) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
