"""The drafter answers the question asked: a question naming two systems the report's labels carry gets each one's
figure for the same metric and condition, side by side, then the winner; a throughput question gets throughputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import table_index

from pipeline.brief import Brief
from pipeline.config import open_root
from pipeline.drafting.article import draft_article
from qc.draft import read_draft
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
