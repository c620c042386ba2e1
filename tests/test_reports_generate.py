"""The bundled example reports: generated from data files, byte-for-byte reproducible, readable by pypdf."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from evidence.registry import load_registry

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "site" / "reports"
DATA = REPO / "tools" / "report_data"


def _generate(out: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(REPO / "tools" / "make_reports.py"), "--out", str(out)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr


def test_generator_is_deterministic_and_matches_committed_pdfs(tmp_path: Path) -> None:
    _generate(tmp_path / "a")
    _generate(tmp_path / "b")
    for rid in ("R1", "R2", "R9"):
        a = (tmp_path / "a" / f"{rid}.pdf").read_bytes()
        assert a == (tmp_path / "b" / f"{rid}.pdf").read_bytes(), f"{rid}: two runs differ"
        assert a == (REPORTS / f"{rid}.pdf").read_bytes(), f"{rid}.pdf is stale: run `make reports` and commit it"


def test_registry_matches_the_data_files() -> None:
    entries = {e.id: e for e in load_registry(REPORTS)}
    for data_file in sorted(DATA.glob("*.yaml")):
        data = yaml.safe_load(data_file.read_text(encoding="utf-8"))
        entry = entries[data["id"]]
        assert entry.file == data["file"]
        assert entry.date == data["date"]
        assert entry.access == data["access"]
        assert entry.title == f"{data['title']}({data['subtitle']})"


@pytest.mark.parametrize("rid", ["R1", "R2", "R9"])
def test_reports_look_like_vendor_reports(rid: str) -> None:
    reader = PdfReader(REPORTS / f"{rid}.pdf")
    pages = [p.extract_text() for p in reader.pages]
    assert 3 <= len(pages) <= 5
    assert (REPORTS / f"{rid}.pdf").stat().st_size < 120_000  # fonts are subset
    text = "\n".join(pages)
    assert "芯元一" in text and "铭信 FX100" in text and "报告编号 XYY-TR-" in text
    total = len(pages) - (1 if rid != "R9" else 0)
    assert f"第 2 页 / 共 {total} 页" in text
    assert "测试环境" in text and "表 " in text


def test_chinese_text_round_trips_through_pypdf() -> None:
    text = "\n".join(p.extract_text() for p in PdfReader(REPORTS / "R2.pdf").pages)
    for phrase in (
        "长上下文冷恢复",
        "单 token KV 大小: 256 KB",
        "会话长度: 29.8K token",
        "G3 主门禁: TTFT 降幅 ≥ 25%",
        "联测周期: 约 10 周",
        "全机 TP4×2",
        "重算基线(无外存)",
    ):
        assert phrase in text, phrase
    assert "\x00" not in text and "\ufffd" not in text
    r1 = "\n".join(p.extract_text() for p in PdfReader(REPORTS / "R1.pdf").pages)
    assert "4 盘 RAID0" in r1 and "单口 100 GbE" in r1 and "AMD MI308X ×8" in r1
    r9 = "\n".join(p.extract_text() for p in PdfReader(REPORTS / "R9.pdf").pages)
    assert "DeepSeek-32B" in r9 and "华为 Atlas 910B" in r9


def test_r1_has_printed_page_labels_after_an_unnumbered_cover() -> None:
    reader = PdfReader(REPORTS / "R1.pdf")
    assert reader.page_labels == ["封面", "1", "2"]
    assert "第 1 页 / 共 2 页" in reader.pages[1].extract_text()
