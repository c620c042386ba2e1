"""A side-by-side comparison sets one metric of one condition against itself across the systems a table's column
groups name (`vLLM 0.6.3 | TTFT p50 (ms)`, `TensorRT-LLM 0.13.0 | TTFT p50 (ms)`), never two metrics of one system."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import table_index
from test_draft_compare_systems import _draft, _line

from pipeline.drafting.verdict import judge
from qc.draft import parse_draft
from qc.index import EvidenceIndex

LATENCY = [
    ["Batch", "vLLM 0.6.3", "", "", "TensorRT-LLM 0.13.0", "", ""],
    ["", "TTFT p50 (ms)", "TTFT p99 (ms)", "TPOT p50 (ms)", "TTFT p50 (ms)", "TTFT p99 (ms)", "TPOT p50 (ms)"],
    ["1", "78", "96", "7.0", "64", "81", "5.9"],
    ["8", "215", "348", "8.3", "172", "263", "6.7"],
    ["128", "2,906", "5,134", "25.0", "2,213", "3,689", "19.1"],
]
QUESTION = "How do TTFT and TPOT compare as the batch grows?"


@pytest.fixture(scope="module")
def latency(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("groups") / "latency.pdf"
    lines = ["3 Latency", "Table 2: TTFT and TPOT by batch size"]
    return table_index(path, "R1", lines, LATENCY, (60, 130, 200, 270, 340, 410, 480))


def test_two_metrics_of_one_system_are_never_set_against_each_other(tmp_path: Path, latency: EvidenceIndex) -> None:
    _, sections = _draft(tmp_path, latency, "en", [QUESTION])
    section = sections[QUESTION]
    for line in section.splitlines():
        assert not ("vLLM 0.6.3 TTFT" in line and "vLLM 0.6.3 TPOT" in line), line
        assert "lower for TPOT" not in line and "lower for TTFT" not in line, line


def test_each_metric_asked_is_given_for_both_systems_at_the_first_and_last_batch(
    tmp_path: Path, latency: EvidenceIndex
) -> None:
    # Batch 1: TTFT p50 78 ms (vLLM) against 64 ms (TensorRT-LLM), TPOT p50 7.0 against 5.9 ms; batch 128: TTFT p50
    # 2,906 against 2,213 ms, TPOT p50 25.0 against 19.1 ms: TensorRT-LLM is lower throughout.
    _, sections = _draft(tmp_path, latency, "en", [QUESTION])
    section = sections[QUESTION]
    win = "lower for TensorRT-LLM 0.13.0"
    _line(section, "Batch 1", "vLLM 0.6.3 TTFT p50", "78 ms", "TensorRT-LLM 0.13.0 TTFT p50", "64 ms", win)
    _line(section, "Batch 1", "vLLM 0.6.3 TPOT p50", "7.0 ms", "TensorRT-LLM 0.13.0 TPOT p50", "5.9 ms", win)
    _line(section, "Batch 128", "vLLM 0.6.3 TTFT p50", "2,906 ms", "TensorRT-LLM 0.13.0 TTFT p50", "2,213 ms", win)
    _line(section, "Batch 128", "vLLM 0.6.3 TPOT p50", "25.0 ms", "TensorRT-LLM 0.13.0 TPOT p50", "19.1 ms", win)


def test_the_other_systems_figure_in_a_side_by_side_fails_qc(tmp_path: Path, latency: EvidenceIndex) -> None:
    _draft(tmp_path, latency, "en", [QUESTION])
    text = (tmp_path / "articles" / "t.md").read_text(encoding="utf-8")
    said = "vLLM 0.6.3 TPOT p50 7.0 ms, against TensorRT-LLM 0.13.0 TPOT p50 5.9 ms"
    assert said in text
    swapped = text.replace(said, "vLLM 0.6.3 TPOT p50 5.9 ms, against TensorRT-LLM 0.13.0 TPOT p50 7.0 ms")
    errors = judge(parse_draft(swapped, Path("t.md")), latency, {}).errors()
    assert {n.text for n in errors} >= {"5.9 ms", "7.0 ms"}, errors
