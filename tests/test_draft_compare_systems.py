"""The drafter answers the question asked: a question naming two systems the report's labels carry gets each one's
figure for the same metric and condition, side by side, then the winner; a throughput question gets throughputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import table_index

from pipeline.brief import Brief
from pipeline.config import open_root
from pipeline.drafting.article import draft_article
from pipeline.drafting.prompts import build_messages
from pipeline.drafting.verdict import judge
from qc.draft import parse_draft, read_draft
from qc.index import EvidenceIndex

LATENCY = [
    ["Workload", "HBase min (ms)", "HBase max (ms)", "Cassandra min (ms)", "Cassandra max (ms)"],
    ["Read", "7", "1669", "747", "8387"],
    ["Update", "3", "1099", "12", "2011"],
]
BLANK = [""] * 5


def _throughput(unit: str) -> list[list[str]]:
    # the second table of the page, under its own caption (no word of it says `throughput`: its unit does)
    rows = [["Table 2 YCSB load summary"], ["Workload", f"HBase ({unit})", f"Cassandra ({unit})"],
            ["Read", "1450", "980"], ["Update", "2210", "3120"]]  # fmt: skip
    return [r + [""] * (5 - len(r)) for r in rows]


def _report(path: Path, unit: str) -> EvidenceIndex:
    lines = ["4 Results", "Table 1 YCSB workload results"]
    return table_index(path, "R1", lines, [*LATENCY, BLANK, *_throughput(unit)], (60, 160, 260, 360, 460))


@pytest.fixture(scope="module")
def ycsb(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return _report(tmp_path_factory.mktemp("ycsb") / "ycsb.pdf", "trans/s")


def _draft(tmp_path: Path, index: EvidenceIndex, lang: str, questions: list[str]) -> tuple[str, dict[str, str]]:
    """The draft as the drafter writes it (its own QC verdict: 0 errors), and each section's text by question."""
    (tmp_path / "articles").mkdir()
    (tmp_path / "publish.toml").write_text('[drafter]\nmodel = "offline"\n', encoding="utf-8")
    brief = Brief(slug="t", title="t", lang=lang, tags=["t"], evidence=["R1"], audience="engineers",
                  brief="Answer from the report.", questions=questions, faq_count=0)  # fmt: skip
    outcome = draft_article(brief, open_root(tmp_path), index)
    assert outcome.result is not None and outcome.result.errors() == [], outcome.result
    draft = read_draft(outcome.path)
    body = outcome.path.read_text(encoding="utf-8").split("\n## ")[1:]
    sections = {part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in body}
    return draft.meta.answer, sections


@pytest.mark.parametrize(
    ("lang", "question"), [("en", "What throughput does HBase reach for reads?"), ("zh", "吞吐量是多少?")]
)
def test_a_throughput_question_is_answered_with_throughputs(
    tmp_path: Path, ycsb: EvidenceIndex, lang: str, question: str
) -> None:
    # `trans/s` is a count per second, a throughput though the glossary lists no such unit: the latency table (ms),
    # which shares more words with the question, answers another question.
    answer, sections = _draft(tmp_path, ycsb, lang, [question])
    assert "1450" in answer and "trans/s" in answer and " ms" not in answer, answer
    assert "1450 trans/s" in sections[question] and " ms" not in sections[question], sections[question]


@pytest.fixture(scope="module")
def ycsb_ops(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return _report(tmp_path_factory.mktemp("ycsb-ops") / "ycsb.pdf", "ops/s")


def _line(text: str, *parts: str) -> str:
    """The one line of `text` stating every part, in their order."""
    found = [ln for ln in text.splitlines() if all(p in ln for p in parts)]
    assert len(found) == 1, (parts, text)
    at = [found[0].index(p) for p in parts]
    assert at == sorted(at), (parts, found[0])
    return found[0]


@pytest.mark.parametrize(
    ("lang", "question", "winner"),
    [
        ("en", "Which is faster for reads, HBase or Cassandra?", "lower for HBase"),
        ("zh", "HBase 和 Cassandra 谁的读延迟更低?", "HBase 更低"),
    ],
)
def test_a_question_comparing_two_systems_states_both_then_the_winner(
    tmp_path: Path, ycsb_ops: EvidenceIndex, lang: str, question: str, winner: str
) -> None:
    # Read: HBase min 7 / max 1669 ms, Cassandra min 747 / max 8387 ms (the report's row); lower latency wins.
    answer, sections = _draft(tmp_path, ycsb_ops, lang, [question, "What throughput does Cassandra reach?"])
    section = sections[question]
    _line(section, "Read", "HBase min", "7 ms", "Cassandra min", "747 ms", winner)
    _line(section, "Read", "HBase max", "1669 ms", "Cassandra max", "8387 ms", winner)
    _line(answer, "HBase", "Cassandra", winner)
    assert "1099" not in section and "2011" not in section  # the update row answers no question about reads


@pytest.mark.parametrize(
    ("lang", "question"),
    [("en", "Which has the higher throughput, HBase or Cassandra?"), ("zh", "HBase 和 Cassandra 谁的吞吐更高?")],
)
def test_the_winner_follows_each_conditions_figures(
    tmp_path: Path, ycsb_ops: EvidenceIndex, lang: str, question: str
) -> None:
    # Read: HBase 1450 against Cassandra 980 ops/s; Update: HBase 2210 against Cassandra 3120: higher throughput wins,
    # and each condition has its own winner.
    higher = "higher for {}" if lang == "en" else "{} 更高"
    answer, sections = _draft(tmp_path, ycsb_ops, lang, [question])
    section = sections[question]
    _line(section, "Read", "HBase", "1450 ops/s", "Cassandra", "980 ops/s", higher.format("HBase"))
    _line(section, "Update", "HBase", "2210 ops/s", "Cassandra", "3120 ops/s", higher.format("Cassandra"))
    assert " ms" not in section and " ms" not in answer


SYSTEMS = [["System", "Read p99 (ms)", "Update p99 (ms)", "Throughput (ops/s)"],
           ["HBase", "1669", "1099", "1450"], ["Cassandra", "8387", "2011", "980"]]  # fmt: skip


def test_systems_down_the_rows_are_compared_by_the_column_asked(tmp_path: Path) -> None:
    index = table_index(tmp_path / "rows.pdf", "R1", ["4 Results", "Table 1 Results"], SYSTEMS, (60, 160, 260, 360))
    question = "Which has the lower read latency, Cassandra or HBase?"
    (tmp_path / "root").mkdir()
    answer, sections = _draft(tmp_path / "root", index, "en", [question])
    _line(answer, "8387 ms", "1669 ms", "lower for HBase")
    _line(sections[question], "Cassandra Read p99", "8387 ms", "HBase Read p99", "1669 ms", "lower for HBase")
    assert "1450" not in sections[question]  # a throughput answers no question about latency


def test_a_figure_of_the_other_system_in_its_place_fails_qc(tmp_path: Path, ycsb_ops: EvidenceIndex) -> None:
    question = "Which is faster for reads, HBase or Cassandra?"
    _draft(tmp_path, ycsb_ops, "en", [question])
    text = (tmp_path / "articles" / "t.md").read_text(encoding="utf-8")
    said = "HBase max 1669 ms, against Cassandra max 8387 ms"
    assert said in text
    swapped = text.replace(said, "HBase max 8387 ms, against Cassandra max 1669 ms")
    errors = judge(parse_draft(swapped, Path("t.md")), ycsb_ops, {}).errors()
    assert {n.text for n in errors} >= {"8387 ms", "1669 ms"}, errors


def test_the_direct_answer_states_a_figure_once(tmp_path: Path, ycsb_ops: EvidenceIndex) -> None:
    # The second question's side-by-side answer holds the first's (HBase's 1669 ms): the answer states it once.
    questions = [
        "What is HBase's maximum read latency?",
        "Which has the lower maximum read latency, HBase or Cassandra?",
    ]
    answer, sections = _draft(tmp_path, ycsb_ops, "en", questions)
    _line(sections[questions[1]], "HBase max", "1669 ms", "Cassandra max", "8387 ms", "lower for HBase")
    assert answer.count("1669") == 1, answer


def test_the_model_is_given_the_systems_side_by_side(ycsb_ops: EvidenceIndex) -> None:
    # The LLM path gets the offline drafter's selection: for a question comparing systems, each system's figure of
    # the same row, named together (Read: HBase max 1669 ms against Cassandra max 8387 ms), not the update row.
    brief = Brief(slug="t", title="t", lang="en", tags=["t"], evidence=["R1"], audience="engineers",
                  brief="Answer from the report.", questions=["Which is faster for reads, HBase or Cassandra?"],
                  faq_count=0)  # fmt: skip
    (_, _), (_, user) = build_messages(brief, ycsb_ops)
    ids = {f.value: f.id for f in ycsb_ops.figures["R1"] if f.kind == "cell"}
    compares = [ln for ln in user.splitlines() if ln.startswith("compare")]
    assert f"compare at Read: HBase {ids[1669]} against Cassandra {ids[8387]}" in compares, compares
    assert all(ids[2011] not in ln for ln in compares)
    rows = {ln.split(" | ")[0] for ln in user.splitlines() if ln.count(" | ") >= 7}
    assert {ids[1669], ids[8387], ids[7], ids[747]} <= rows
