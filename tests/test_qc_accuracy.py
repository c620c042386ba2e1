"""The accuracy harness: its loading and scoring on hand-made cases, the real corpus' shape, and the floor (a ratchet)."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy

from evidence.models import Figure, Page, Report
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# Report families: the hard kinds must be represented in each (at least 5 hand-made hard errors per family).
FAMILIES = {"cachepilot": {"C1", "C2"}, "facerec": {"F1"}, "mooncake": {"M1"}, "finance": {"G1", "B1", "Y1"},
            "otsl": {"D1"}, "boiling": {"U1"}, "nvmeof": {"N1"}, "coro_rpc": {"L1"}, "caffe_hrt": {"H1"},
            "speech": {"S1"}, "yatha": {"V1"}, "office_unit_column": {"V4"}, "cvgesture": {"K1"},
            "objecttracker": {"T1", "T0"}, "curvefs": {"Q1"}}  # fmt: skip

TINY = """---
title: Tiny
lang: zh
date: 2026-01-01
evidence:
- T1
answer: 吞吐为 52.4 tok/s【出处:T1】。
---

TTFT 从 10.17 s 降至 7.53 s【出处:T1】。

带宽为 5.23 GB/s【出处:T1】。
"""

TINY_MUTATIONS = """mutations:
  - kind: digit
    at: 降至 7.53 s
    old: "7.53"
    new: "7.35"
  - kind: unit
    at: 5.23 GB/s
    old: GB/s
    new: Gbps
  - kind: other_row
    at: 吞吐为 52.4 tok/s
    old: "52.4"
    new: "61.3"
  - kind: correct
    at: 降至 7.53 s
    old: 7.53 s
    new: 约 7.5 s
    expect: ok
  - kind: swap
    at: 为 5.23 GB/s
    old: "5.23"
    new: "6.00"
"""


def _fake_check(bad: set[str]) -> Any:
    """A stand-in for QC: every number of the file is verified, except those whose text is in `bad` (a mismatch)."""

    def check(draft: Any, index: Any) -> Any:
        numbers = []
        for i, line in enumerate(draft.text.splitlines(), start=1):
            if line.startswith("date:"):
                continue
            for m in qc_accuracy.NUM.finditer(line):
                before = line[max(0, m.start() - 1) : m.start()]
                if before.isalpha() and before.isascii():  # T1 in a marker: an identifier
                    continue
                text = m.group()
                status = "mismatch" if text in bad else "verified"
                numbers.append(SimpleNamespace(line=i, column=m.start() + 1, text=text, status=status, unit="",
                                               severity="error" if text in bad else "ok", sentence=line, field="body",
                                               source=None, cited=["T1"], value=float(text), message=""))  # fmt: skip
        return SimpleNamespace(numbers=numbers)

    return check


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    (tmp_path / "tiny.md").write_text(TINY, encoding="utf-8")
    (tmp_path / "tiny.mutations.yaml").write_text(TINY_MUTATIONS, encoding="utf-8")
    return tmp_path / "tiny.md"


def test_a_tiny_case_is_scored_as_computed_by_hand(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fake QC rejects 7.35 (the digit error), 61.3 (the other row) and, in the clean article, 5.23: so the digit
    # and the other-row errors are caught; the unit error is missed (the fake's number is `5.23` without its unit, so
    # the change brings no new error and touches no rejected number); the swap of 5.23 is vacuous (QC already rejects
    # the clean number); the correct variant `约 7.5` passes; and 5.23 is the one false alarm.
    monkeypatch.setattr(qc_accuracy, "check_draft", _fake_check({"7.35", "61.3", "5.23"}))
    draft = parse_draft(TINY, tiny)
    out = qc_accuracy.run_real(EvidenceIndex(), [draft])
    s = out.summary()
    assert s["kinds"] == {"digit": {"injected": 1, "caught": 1, "vacuous": 0},
                          "unit": {"injected": 1, "caught": 0, "vacuous": 0},
                          "other_row": {"injected": 1, "caught": 1, "vacuous": 0},
                          "swap": {"injected": 1, "caught": 0, "vacuous": 1}}  # fmt: skip
    assert s["basic"] == {"injected": 2, "caught": 1} and s["hard"] == {"injected": 2, "caught": 1}
    assert s["correct_variants"] == {"tried": 1, "passed": 1, "vacuous": 0}
    assert s["false_alarms"] == 1 and "5.23" in s["false_alarm_list"][0]
    assert s["clean_numbers"] == 4  # 52.4, 10.17, 7.53, 5.23
    assert s["misses"] == ["unit: tiny.md: GB/s → Gbps (mutations line 6)"] and s["blocked_correct"] == []


def test_a_miss_and_a_blocked_correct_variant_are_reported(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Now QC rejects nothing but the rounded 7.5: the digit and other-row errors pass (missed), `约 7.5` is blocked.
    monkeypatch.setattr(qc_accuracy, "check_draft", _fake_check({"7.5"}))
    out = qc_accuracy.run_real(EvidenceIndex(), [parse_draft(TINY, tiny)])
    s = out.summary()
    assert [k for k, v in s["kinds"].items() if v["caught"]] == []
    assert len(s["misses"]) == 4 and s["misses"][0].startswith("digit: tiny.md: 7.53 → 7.35")
    assert s["correct_variants"]["passed"] == 0 and "约 7.5" in s["blocked_correct"][0]


def test_blocked_counts_only_new_errors_on_the_changed_lines() -> None:
    def res(*errs: tuple[int, str]) -> Any:
        return SimpleNamespace(numbers=[SimpleNamespace(line=ln, text=t, severity="error") for ln, t in errs])

    clean = res((3, "5.23"))
    assert not qc_accuracy.blocked(clean, res((3, "5.23")), {3})  # the old false alarm again
    assert qc_accuracy.blocked(clean, res((3, "5.23"), (3, "6.00")), {3})
    assert not qc_accuracy.blocked(clean, res((3, "5.23"), (9, "6.00")), {3})  # another line: not this change


def test_exempt_quantities_count_as_false_alarms() -> None:
    nums = [SimpleNamespace(text=t, status=s) for t, s in [("2,237.75", "exempt"), ("47GW", "exempt"),
            ("A800", "exempt"), ("2025 年", "exempt"), ("7.53 s", "verified"), ("12", "unsupported")]]  # fmt: skip
    assert [n.text for n in qc_accuracy.false_alarms(SimpleNamespace(numbers=nums))] == ["2,237.75", "47GW", "12"]


def test_a_clock_inside_a_part_name_is_no_exempted_quantity() -> None:
    # `1A72@1.99G` names a core (QC exempts the number after `@` by design); `1.99 GHz` on its own is a quantity
    nums = [SimpleNamespace(text="1.99G", status="exempt", sentence="1A72@1.99G   0.71"),
            SimpleNamespace(text="1.99G", status="exempt", sentence="the core runs at 1.99G here"),
            SimpleNamespace(text="2.5GHz", status="exempt", sentence="A53@2.5GHz")]  # fmt: skip
    assert [n.sentence for n in qc_accuracy.false_alarms(SimpleNamespace(numbers=nums))] == [
        "the core runs at 1.99G here"
    ]


def test_mutation_files_are_validated_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.mutations.yaml"
    path.write_text("mutations:\n  - kind: digit\n    at: nowhere\n    old: x\n    new: y\n"
                    "  - kind: typo\n    at: 7.53\n    old: '7.53'\n    new: '7.35'\n", encoding="utf-8")  # fmt: skip
    with pytest.raises(qc_accuracy.CorpusError) as e:
        qc_accuracy.load_mutations(path, "TTFT 7.53 s")
    assert f"{path}:2: `at` 'nowhere' occurs 0 times" in str(e.value)
    assert f"{path}:6: unknown kind 'typo'" in str(e.value)
    m = qc_accuracy.Mutation("swap", "从 1 升至 2", "1 升至 2", "2 升至 1")
    assert m.apply("TTFT 从 1 升至 2。") == ("TTFT 从 2 升至 1。", (7, 13))


def test_chance_mutants_of_every_kind_change_the_article() -> None:
    fig = {"report": "T1", "page": 1, "unit": "s", "kind": "cell", "version": 1}
    figures = [Figure(id="a", value=10.17, raw="10.17", labels=["表 1", "并发 8", "p50"], **fig),
               Figure(id="b", value=14.62, raw="14.62", labels=["表 1", "并发 8", "p90"], **fig),
               Figure(id="c", value=7.53, raw="7.53", labels=["表 1", "并发 8", "p50 新"], **fig)]  # fmt: skip
    index = EvidenceIndex(reports={"T1": Report(id="T1", version=1, title="t", date="2026-01-01", file="t.pdf", access="public",
                                                sha256="0" * 64, pages=1)},
                          figures={"T1": figures}, pages={"T1": [Page(report="T1", version=1, page=1, text="")]})  # fmt: skip
    text = "---\ntitle: t\nlang: zh\ndate: 2026-01-01\nevidence: [T1]\nanswer: a\n---\n\nTTFT 从 10.17 s 降至 7.53 s【出处:T1】。\n"
    draft = parse_draft(text, "t.md")
    sentence = "TTFT 从 10.17 s 降至 7.53 s。"
    src = SimpleNamespace(figure="a")
    result = SimpleNamespace(numbers=[
        SimpleNamespace(line=9, column=8, text="10.17 s", status="verified", unit="s", sentence=sentence, field="body",
                        source=src),
        SimpleNamespace(line=9, column=19, text="7.53 s", status="verified", unit="s", sentence=sentence, field="body",
                        source=None)])  # fmt: skip
    assert text[text.index("10.17") :].startswith("10.17 s") and text.index("10.17") == qc_accuracy._offset(text, 9, 8)
    mutants = list(qc_accuracy.chance_mutants(draft, result, index, random.Random(1)))
    kinds = {m.kind for m in mutants}
    assert kinds == set(qc_accuracy.CHANCE_KINDS)
    assert all(m.text != text and m.lines == {9} for m in mutants)
    assert [m.change for m in mutants if m.kind == "other_row"] == ["10.17 → 14.62"]  # one label apart: p90
    assert [m.change for m in mutants if m.kind == "swap"] == ["10.17 ⇄ 7.53"]
    assert "降至 7.53 ms" in next(m.text for m in mutants if m.kind == "unit" and "7.53 ms" in m.text)


def test_a_chance_mutant_stating_the_same_value_is_no_false_verify() -> None:
    # A table with 35.2 and 36.1 (%) and a rival 32.0 / 32.4 pair; the article prints `35–36%` and `26–32%`.
    fig = {"report": "T1", "page": 1, "unit": "%", "kind": "cell", "version": 1}
    figures = [Figure(id="a", value=35.2, raw="35.2", labels=["表 2", "并发 8", "吞吐提升"], **fig),
               Figure(id="b", value=36.1, raw="36.1", labels=["表 2", "并发 16", "吞吐提升"], **fig),
               Figure(id="c", value=32.0, raw="32.0", labels=["表 1", "并发 8", "降幅"], **fig),
               Figure(id="d", value=32.4, raw="32.4", labels=["表 1", "并发 16", "降幅"], **fig)]  # fmt: skip
    index = EvidenceIndex(reports={}, figures={"T1": figures}, pages={})

    def mutant(text: str, old: str, new: str, fid: str) -> qc_accuracy.Mutant:
        n = SimpleNamespace(text=text, unit="%", source=SimpleNamespace(figure=fid))
        return qc_accuracy.Mutant("other_row", "t.md", f"{old} → {new}", "", (0, 0), old=old, new=new, number=n)

    assert qc_accuracy.not_an_error(mutant("26–32%", "32", "32.0", "c"), index) == "the same value"
    assert qc_accuracy.not_an_error(mutant("35–36%", "36", "36.1", "a"), index) is not None  # the one figure near 36
    # errors: another value, and a range end that two figures of the table round to (which one it printed is unknown)
    assert qc_accuracy.not_an_error(mutant("26–32%", "32", "31", "c"), index) is None
    assert qc_accuracy.not_an_error(mutant("26–32%", "32", "32.4", "c"), index) is None
    assert qc_accuracy.not_an_error(mutant("36%", "36", "36.1", "a"), index) is None  # not a range: 36 was 35.2's


def test_worse_than_floor_names_each_regression() -> None:
    floor = {"caught": {"digit": 3, "swap": 1}, "correct_passed": 2, "false_alarms": 5}
    assert qc_accuracy.worse_than_floor({"caught": {"digit": 4, "swap": 1}, "correct_passed": 3, "false_alarms": 0},
                                        floor) == []  # fmt: skip
    worse = qc_accuracy.worse_than_floor({"caught": {"digit": 2}, "correct_passed": 1, "false_alarms": 6}, floor)
    assert worse == ["digit: 2 caught, floor 3", "swap: 0 caught, floor 1", "correct variants passed: 1, floor 2",
                     "false alarms: 6, floor 5"]  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------
# The hand-written real corpus.


def test_real_articles_parse_and_cite_only_registered_reports() -> None:
    entries = {e["id"]: e for e in qc_accuracy.registry()}
    drafts = qc_accuracy.real_articles()
    assert len(drafts) >= 12
    assert {d.meta.lang for d in drafts} == {"zh", "en"}
    cited = set()
    for d in drafts:
        ids = qc_accuracy.cited_ids(d)
        assert ids <= set(entries), f"{d.path} cites unregistered {ids - set(entries)}"
        assert set(d.meta.evidence) == ids, f"{d.path}: markers and evidence list differ"
        cited |= ids
    assert len(cited) >= 8
    for rid in cited:
        assert (qc_accuracy.CORPUS_PDFS / entries[rid]["file"]).is_file(), entries[rid]["file"]


def test_real_articles_have_10_to_25_quantities_and_every_kind_of_error() -> None:
    kinds: dict[str, int] = {}
    for d in qc_accuracy.real_articles():
        prose = qc_accuracy._MARKER.sub("", d.meta.answer + " ".join(q.a for q in d.meta.faq) + d.body)
        quantities = [m for m in qc_accuracy.NUM.finditer(prose) if not prose[max(0, m.start() - 1)].isalpha()]
        assert len(quantities) >= 10, d.path
        muts = qc_accuracy.mutations_for(d)  # validates `at`, `old` and the kind
        assert sum(m.kind in qc_accuracy.BASIC_KINDS for m in muts) >= 3, d.path
        for m in muts:
            kinds[m.kind] = kinds.get(m.kind, 0) + 1
    assert set(kinds) == {*qc_accuracy.REAL_KINDS, qc_accuracy.CORRECT}


def test_every_report_family_has_five_hard_errors() -> None:
    by_family = dict.fromkeys(FAMILIES, 0)
    for d in qc_accuracy.real_articles():
        (family,) = [f for f, ids in FAMILIES.items() if set(d.meta.evidence) & ids]
        by_family[family] += sum(m.kind in qc_accuracy.HARD_KINDS for m in qc_accuracy.mutations_for(d))
    assert all(n >= 5 for n in by_family.values()), by_family


def test_the_registry_is_a_valid_content_root() -> None:
    from evidence.registry import load_registry

    entries = load_registry(qc_accuracy.REAL / "reports")
    assert [e.id for e in entries] == [e["id"] for e in qc_accuracy.registry()]
    assert (qc_accuracy.REAL / "publish.toml").is_file()


# ---------------------------------------------------------------------------------------------------------------
# The floor: today's measured accuracy, which may only get better (`make golden` re-records it).


@pytest.fixture(scope="module")
def real_outcome() -> qc_accuracy.RealOutcome:
    return qc_accuracy.run_real(qc_accuracy.real_index(), qc_accuracy.real_articles())


def _synthetic_subset() -> qc_accuracy.Outcome:
    drafts = [d for d in qc_accuracy.clean_articles() if Path(d.path).name in ("kv-zh.md", "kv-en.md", "derived-zh.md")]
    return qc_accuracy.run(qc_accuracy.load_index(), drafts, every=3)


def test_accuracy_is_no_worse_than_the_floor(real_outcome: qc_accuracy.RealOutcome, update_golden: bool) -> None:
    syn = _synthetic_subset()
    now = {"real": qc_accuracy.floor_of(real_outcome), "synthetic_subset": qc_accuracy.synthetic_floor_of(syn)}
    if update_golden or not qc_accuracy.FLOOR.exists():
        qc_accuracy.FLOOR.write_text(json.dumps(now, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                                     encoding="utf-8")  # fmt: skip
        if not update_golden:
            pytest.fail(f"wrote {qc_accuracy.FLOOR}; run again")
    floor = json.loads(qc_accuracy.FLOOR.read_text(encoding="utf-8"))
    worse = qc_accuracy.worse_than_floor(now["real"], floor["real"])
    worse += [
        f"synthetic {w}" for w in qc_accuracy.worse_than_floor(now["synthetic_subset"], floor["synthetic_subset"])
    ]
    assert worse == [], "QC accuracy fell below tools/qc_corpus/real/floor.json: " + "; ".join(worse)
    for kind, n in floor["real"]["injected"].items():
        assert now["real"]["injected"].get(kind) == n, f"{kind}: the corpus changed; `make golden` re-records it"


def test_the_synthetic_corpus_injects_every_kind_without_false_alarms() -> None:
    syn = _synthetic_subset()
    assert all(injected >= 3 for injected, _ in syn.kinds.values()), syn.kinds
    assert syn.clean_numbers > 100 and syn.false_alarms == []


def test_the_evidence_fixture_matches_the_example_reports() -> None:
    """The JSON fixture mirrors what ingesting `site/reports` yields (refresh with `dump_index` when it changes)."""
    fixture = qc_accuracy.load_index()
    assert set(fixture.reports) == {"R1", "R2", "R9"}
    values = {(f.report, f.page, f.value, f.unit) for figs in fixture.figures.values() for f in figs}
    for fact in [("R2", 2, 7.53, "s"), ("R2", 2, 29800.0, "token"), ("R2", 3, 18.3, "x"), ("R1", 3, 96.0, "%"),
                 ("R9", 1, 6.2, "x"), ("R2", 4, 25.0, "%")]:  # fmt: skip
        assert fact in values, fact


def test_the_registry_names_every_pdf_once() -> None:
    files = [e["file"] for e in yaml.safe_load((qc_accuracy.REAL / "reports" / "reports.yaml").read_text())["reports"]]
    assert len(files) == len(set(files))


def test_a_release_number_is_no_quantity_the_harness_counts_as_a_false_alarm() -> None:
    assert not qc_accuracy._quantity("0.98.6.1") and not qc_accuracy._quantity("2.4.1")
    assert qc_accuracy._quantity("2,237.75") and qc_accuracy._quantity("47GW") and qc_accuracy._quantity("0.98")


# ---------------------------------------------------------------------------------------------------------------
# `--root DIR`: another content root, its PDFs in DIR/reports, scored by the real corpus' code path.

ROOT_ARTICLE = """---
title: How hot do nonmetals boil?
lang: en
date: 2026-01-01
evidence:
- U1
answer: 'Nonmetals span the widest range of the four groups [source: U1].'
slug: nonmetals-en
---

## Nonmetals

The lowest nonmetal boiling point is -253 °C, the highest 4827 °C and the average 414.1 °C [source: U1].
"""

# Read from the PDF (one table: Nonmetals -253 min, 4827 max, 414.1 avg): 4837 is no figure of it, so the digit error
# must be caught; 414 is 414.1 at the precision printed, so the rounding must pass.
ROOT_MUTATIONS = """mutations:
  - kind: digit
    at: highest 4827 °C
    old: "4827"
    new: "4837"
  - kind: correct
    at: average 414.1 °C
    old: 414.1 °C
    new: about 414 °C
    expect: ok
"""


def test_root_scores_another_content_root_with_its_own_pdfs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "trial"
    (root / "reports").mkdir(parents=True)
    (root / "articles").mkdir()
    # A name that is in no tests/corpus listing: the PDF can only come from the root's own reports/ folder.
    (root / "reports" / "boiling.pdf").write_bytes(
        (qc_accuracy.CORPUS_PDFS / "pymupdf_small_table_units.pdf").read_bytes()
    )
    (root / "reports" / "reports.yaml").write_text(
        "reports:\n  - id: U1\n    title: Boiling points\n    date: 2024-01-01\n    file: boiling.pdf\n",
        encoding="utf-8",
    )
    (root / "publish.toml").write_text('[site]\ntitle = "trial"\n', encoding="utf-8")
    (root / "articles" / "nonmetals-en.md").write_text(ROOT_ARTICLE, encoding="utf-8")
    (root / "articles" / "nonmetals-en.mutations.yaml").write_text(ROOT_MUTATIONS, encoding="utf-8")
    assert qc_accuracy.main(["--root", str(root), "--cap", "5"]) == 0
    out = capsys.readouterr().out
    assert "false alarms on clean articles: 0 of 3 numbers" in out
    assert re.search(r"^digit\s+1\s+1\s+100\.0%", out, re.M) and "correct variants that pass: 1 of 1" in out
    assert re.search(r"^all basic\s+1\s+1", out, re.M) and re.search(r"^all hard\s+0\s+0", out, re.M)
    assert "CHANCE control (real)" in out and "SYNTHETIC" not in out  # the root alone: no example reports
    assert not (root / "floor.json").exists()
