"""QC output: compiler-style text, the JSON contract, and the reviewer's HTML with provenance on every number."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from qc.check import check_draft
from qc.draft import Draft, parse_draft
from qc.index import EvidenceIndex
from qc.models import CheckReport
from qc.report import render_html, render_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy

TEXT = """---
title: TTFT 从 10.17s 降至 7.53s
lang: zh
date: 2026-07-10
evidence: [R1, R2]
answer: 降幅约 26% <script>alert("x")</script>。
---
## 结果

并发 8 档下 TTFT p50 从 10.17s 降至 7.35s,缩短 2.64s【出处:R2 实测】。

吞吐从 4.1 tok/s 提升至 74.9 tok/s,为 18.27 倍【出处:R2 实测】。

| 配置 | 读带宽 (GB/s) |
|---|---|
| 并行读补丁 | 5.23 |
"""


@pytest.fixture(scope="module")
def index() -> EvidenceIndex:
    return qc_accuracy.load_index()


@pytest.fixture
def parts(index: EvidenceIndex) -> tuple[CheckReport, Draft]:
    draft = parse_draft(TEXT, "articles/kv.md")
    result = check_draft(draft, index)
    return CheckReport(ok=result.ok, files=[result]), draft


def test_text_is_compiler_style_with_a_summary(parts: tuple[CheckReport, Draft]) -> None:
    report, _ = parts
    text = render_text(report)
    first = text.splitlines()[0]
    assert re.match(r"articles/kv\.md:10:\d+: error: 7\.35s — R2 p\.2 says 7\.53 s \(", first), first
    assert "[mismatch, id " in first
    assert "articles/kv.md: " in text and "1 mismatch — FAIL" in text
    assert text.rstrip().endswith("QC failed: 2 errors in 1 of 1 file")  # 7.35s and the 2.64s it no longer gives
    assert "\x1b[" not in text and "\x1b[1;31m" in render_text(report, color=True)


def test_text_for_a_clean_report(index: EvidenceIndex) -> None:
    draft = parse_draft((qc_accuracy.CORPUS / "clean" / "kv-en.md").read_text(encoding="utf-8"), "kv-en.md")
    result = check_draft(draft, index)
    text = render_text(CheckReport(ok=True, files=[result]))
    assert "error" not in text and text.rstrip().endswith(f"QC passed: {len(result.numbers)} numbers in 1 file")


def test_json_shape_is_the_public_contract(parts: tuple[CheckReport, Draft]) -> None:
    report, _ = parts
    data = report.to_json()
    assert data["ok"] is False
    n = next(n for n in data["files"][0]["numbers"] if n["text"] == "7.35s")
    assert n["line"] == 10 and n["status"] == "mismatch" and n["cited"] == ["R2"]
    assert n["source"]["report"] == "R2" and n["source"]["value"] == 7.53 and n["source"]["page"] == 2
    assert "field" not in n and "sentence" not in n


def test_html_wraps_every_number_with_its_provenance(parts: tuple[CheckReport, Draft], index: EvidenceIndex) -> None:
    report, draft = parts
    html = render_html(report, {"articles/kv.md": draft}, index, pdf_base={"R1": "../reports", "R2": "../reports"})
    spans = re.findall(r'<span class="qc qc-(\w+)[^"]*" id="n-(\w+)" tabindex="0"', html)
    assert len(spans) == len(report.files[0].numbers)
    assert ("mismatch", report.files[0].numbers[[n.text for n in report.files[0].numbers].index("7.35s")].id) in spans
    assert 'href="../reports/R2.pdf#page=2"' in html  # opens the PDF at the page
    assert "<code>74.9/4.1 = 18.27 ≈ 18.27 倍</code>" in html  # the derivation in the tooltip
    assert "<script>alert" not in html and "&lt;script&gt;" in html  # article text is escaped
    assert 'role="tooltip"' in html and "表 4-1" in html  # labels and quote in the tooltip
    assert "<table>" in html and "5.23" in html
    assert html.count("<a ") == html.count("</a>") and html.count("<span") == html.count("</span>")
