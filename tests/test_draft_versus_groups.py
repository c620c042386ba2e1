"""A side-by-side sets one metric against itself across the systems (column groups, named ones), never two metrics."""

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


GROUP = ["并发数", "TideKV 3.2", "", "", "TiKV 7.5.1", "", ""]
POINT_READ = [
    GROUP,
    ["", "QPS", "p50 (ms)", "p99 (ms)", "QPS", "p50 (ms)", "p99 (ms)"],
    ["64", "182,350", "0.34", "1.12", "131,480", "0.47", "1.86"],
    ["256", "412,060", "0.59", "2.37", "286,240", "0.85", "4.42"],
    ["512", "438,920", "1.12", "5.86", "301,570", "1.63", "9.74"],
]
MIXED = [
    ["3.2 读写混合性能(YCSB-A)", *[""] * 6],
    ["表 3 YCSB-A 读写混合性能对比", *[""] * 6],
    GROUP,
    ["", "吞吐 (QPS)", "读 p99 (ms)", "写 p99 (ms)", "吞吐 (QPS)", "读 p99 (ms)", "写 p99 (ms)"],
    ["64", "98,420", "1.46", "2.83", "71,260", "2.12", "4.37"],
    ["256", "187,640", "3.08", "5.92", "121,380", "4.85", "10.63"],
    ["512", "194,270", "6.41", "12.37", "123,910", "9.72", "21.58"],
]
POINT_QUESTION = "点读负载下 TideKV 和 TiKV 谁的 QPS 更高?"


@pytest.fixture(scope="module")
def ycsb(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    # The point-read table under its section heading (its caption printed on the page before), then the mixed one.
    path = tmp_path_factory.mktemp("ycsb-groups") / "ycsb.pdf"
    lines = ["三、测试结果", "3.1 点读性能(YCSB-C,100% 读)"]
    return table_index(path, "R1", lines, [*POINT_READ, [""] * 7, *MIXED], (60, 130, 200, 270, 340, 410, 480))


def test_systems_versioned_differently_are_set_side_by_side_from_the_table_asked(
    tmp_path: Path, ycsb: EvidenceIndex
) -> None:
    # 点读 (YCSB-C) at 64 concurrent clients: TideKV 3.2 182,350 QPS against TiKV 7.5.1 131,480; higher wins.
    _, sections = _draft(tmp_path, ycsb, "zh", [POINT_QUESTION, "读写混合负载下写 p99 延迟降低了多少?"])
    section = sections[POINT_QUESTION]
    _line(section, "并发数 64", "TideKV 3.2", "182,350 req/s", "TiKV 7.5.1", "131,480 req/s", "TideKV 3.2 更高")
    _line(section, "并发数 512", "TideKV 3.2", "438,920 req/s", "TiKV 7.5.1", "301,570 req/s", "TideKV 3.2 更高")
    assert "98,420" not in section and "71,260" not in section, section  # the mixed load's throughput


def test_the_point_read_figures_swapped_fail_qc(tmp_path: Path, ycsb: EvidenceIndex) -> None:
    _draft(tmp_path, ycsb, "zh", [POINT_QUESTION])
    text = (tmp_path / "articles" / "t.md").read_text(encoding="utf-8")
    said = "TideKV 3.2 为 182,350 req/s,TiKV 7.5.1 为 131,480 req/s"
    assert said in text
    swapped = text.replace(said, "TideKV 3.2 为 131,480 req/s,TiKV 7.5.1 为 182,350 req/s")
    errors = judge(parse_draft(swapped, Path("t.md")), ycsb, {}).errors()
    assert {n.text for n in errors} >= {"182,350 req/s", "131,480 req/s"}, errors


def test_metrics_of_a_table_of_one_system_are_no_systems(tmp_path: Path) -> None:
    # One system's TTFT and TPOT columns: the question names two metrics, not two systems to set side by side.
    rows = [
        ["Batch", "TTFT p50 (ms)", "TPOT p50 (ms)"],
        ["1", "78", "7.0"],
        ["8", "215", "8.3"],
        ["128", "2,906", "25.0"],
    ]
    index = table_index(
        tmp_path / "one.pdf", "R1", ["3 Latency", "Table 2: vLLM latency by batch size"], rows, (60, 200, 340)
    )
    (tmp_path / "root").mkdir()
    answer, sections = _draft(tmp_path / "root", index, "en", [QUESTION])
    for line in [answer, *sections[QUESTION].splitlines()]:
        assert "against" not in line and "lower for" not in line, line


def test_the_systems_a_question_names_come_before_the_column_groups(tmp_path: Path) -> None:
    # Platforms are the column groups, the queues the columns under each: the question compares the queues.
    rows = [
        ["Threads", "Platform A", "", "Platform B", ""],
        ["", "ABQ (ops/s)", "Disruptor (ops/s)", "ABQ (ops/s)", "Disruptor (ops/s)"],
        ["1", "5,321,004", "25,914,530", "4,870,112", "22,401,873"],
        ["2", "3,112,870", "20,335,417", "2,904,551", "18,220,694"],
    ]
    index = table_index(
        tmp_path / "q.pdf", "R1", ["4 Results", "Table 2 Queue throughput"], rows, (60, 160, 260, 360, 460)
    )
    (tmp_path / "root").mkdir()
    question = "Which queue has the higher throughput, the Disruptor or the ABQ?"
    _, sections = _draft(tmp_path / "root", index, "en", [question])
    section = sections[question]
    _line(section, "Threads 1", "Disruptor", "25,914,530 ops/s", "ABQ", "5,321,004 ops/s", "higher for Disruptor")
    assert "higher for Platform" not in section, section


def test_systems_under_each_metric_are_set_side_by_side(tmp_path: Path) -> None:
    # `TTFT (ms)` over `vLLM | SGLang`, `TPOT (ms)` over the same: the metric heads the group, the systems are the
    # columns under it (QC's reading of the column groups, `qc.prepare.column_ways`). Batch 1: TTFT 78 ms (vLLM)
    # against 64 ms (SGLang), TPOT 7.0 against 5.9 ms; SGLang is lower.
    rows = [
        ["Batch", "TTFT (ms)", "", "TPOT (ms)", ""],
        ["", "vLLM", "SGLang", "vLLM", "SGLang"],
        ["1", "78", "64", "7.0", "5.9"],
        ["8", "215", "172", "8.3", "6.7"],
        ["128", "2,906", "2,213", "25.0", "19.1"],
    ]
    index = table_index(
        tmp_path / "m.pdf", "R1", ["3 Latency", "Table 2: TTFT and TPOT by batch size"], rows, (60, 160, 260, 360, 460)
    )
    (tmp_path / "root").mkdir()
    _, sections = _draft(tmp_path / "root", index, "en", [QUESTION])
    section = sections[QUESTION]
    _line(section, "Batch 1", "TTFT (ms) vLLM", "78 ms", "TTFT (ms) SGLang", "64 ms", "lower for SGLang")
    _line(section, "Batch 128", "TPOT (ms) vLLM", "25.0 ms", "TPOT (ms) SGLang", "19.1 ms", "lower for SGLang")
    text = (tmp_path / "root" / "articles" / "t.md").read_text(encoding="utf-8")
    said = "TTFT (ms) vLLM 78 ms, against TTFT (ms) SGLang 64 ms"
    swapped = text.replace(said, "TTFT (ms) vLLM 64 ms, against TTFT (ms) SGLang 78 ms")
    assert swapped != text
    errors = judge(parse_draft(swapped, Path("t.md")), index, {}).errors()
    assert {n.text for n in errors} >= {"64 ms", "78 ms"}, errors
