"""A sentence's first word is capitalised, a product name never recased: `vLLM 0.6.3 ranges over …`, not `VLLM`."""

from __future__ import annotations

from pathlib import Path

from pdf_support import table_index
from test_draft_compare_systems import _draft

from pipeline.drafting.lang import sentence

THROUGHPUT = [
    ["Batch size", "vLLM 0.6.3 (tok/s)", "TensorRT-LLM 0.13.0 (tok/s)"],
    ["1", "142.6", "168.3"],
    ["8", "968.4", "1,187.2"],
    ["128", "5,126.7", "6,704.2"],
]


def test_a_name_with_capitals_after_its_first_letter_keeps_its_case() -> None:
    assert sentence("vLLM 0.6.3 ranges over 142.6–5,126.7 tok/s", [], "en").text.startswith("vLLM 0.6.3 ranges")
    assert sentence("iPhone 15 lasts 21 h", [], "en").text.startswith("iPhone 15")
    assert sentence("throughput ranges over 1–2 tok/s", [], "en").text.startswith("Throughput ranges")


def test_the_drafted_article_prints_vllm_as_the_report_does(tmp_path: Path) -> None:
    lines = ["2 Offline throughput", "Table 1: Output throughput by batch size"]
    index = table_index(tmp_path / "tput.pdf", "R1", lines, THROUGHPUT, (60, 200, 340))
    (tmp_path / "root").mkdir()
    answer, sections = _draft(tmp_path / "root", index, "en", ["What output throughput does vLLM reach?"])
    text = answer + "".join(sections.values())
    assert "vLLM 0.6.3" in text and "VLLM" not in text, text
