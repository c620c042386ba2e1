"""Extraction quality: specific figures (value, unit, labels, page) from the example reports and real PDFs."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from evidence.errors import EvidenceError
from evidence.models import Figure, IngestLimits
from evidence.pdf import ParsedPdf, find_numbers, header_unit, normalize, parse_pdf

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "site" / "reports"
CORPUS = REPO / "tests" / "corpus"
GOLDEN_PDFS = {
    "R1": REPORTS / "R1.pdf",
    "R2": REPORTS / "R2.pdf",
    "R9": REPORTS / "R9.pdf",
    "rk3399": CORPUS / "oaid_facerecognition_rk3399_perf_report.pdf",
    "mooncake": CORPUS / "mooncake_fast25_kvcache_serving_paper.pdf",
    "cachepilot_store": CORPUS / "cachepilot_mooncake_store_bench_zh.pdf",
    "small_table": CORPUS / "pymupdf_small_table_units.pdf",
    "chinese_tables": CORPUS / "pymupdf_chinese_tables_zh.pdf",
    "broker_metrics": CORPUS / "broker_report_metrics_table_zh.pdf",
    "docling_p9": CORPUS / "docling_otsl_tableformer_benchmark_p9.pdf",
}


@cache
def parsed(name: str) -> ParsedPdf:
    path = GOLDEN_PDFS.get(name) or CORPUS / name
    if not path.is_file():
        pytest.fail(f"missing test PDF {path}")
    return parse_pdf(path, report_id=name)


def one(name: str, value: float, *labels: str, unit: str | None = None, page: int | None = None) -> Figure:
    """The single figure of `name` with this value whose labels include every given label."""
    hits = [
        f
        for f in parsed(name).figures
        if abs(f.value - value) < 1e-9
        and all(lab in f.labels for lab in labels)
        and (unit is None or f.unit == unit)
        and (page is None or f.page == page)
    ]
    assert len(hits) == 1, f"{name}: {len(hits)} figures = {value} {unit} {labels}: {hits}"
    return hits[0]


# ---- the example reports ------------------------------------------------------------------------------------


def test_r2_ttft_table_cells_carry_row_column_caption_and_unit() -> None:
    f = one("R2", 7.53, "表 4-1 长上下文冷恢复 TTFT", "并发档位 8", "p50", "FX100 TTFT (s)", unit="s")
    assert f.page == 2 and f.page_label == "1" and f.raw == "7.53" and f.kind == "cell"
    assert f.labels[-1] == "4.1 长上下文冷恢复 TTFT"
    assert f.quote == "8 p50 10.17 7.53 26.0%"
    assert one("R2", 48.2, "并发档位 16", "p90", "基线 TTFT (s)", unit="s").raw == "48.20"
    assert one("R2", 26.0, "并发档位 8", "p50", "TTFT 降幅", unit="%").raw == "26.0"
    assert one("R2", 31.5, "并发档位 16", "p90", unit="%").page == 2


def test_r2_throughput_tables_and_kv_lines() -> None:
    one("R2", 160.5, "表 4-2 推理吞吐", "并发档位 16", "全机 TP4×2", "FX100 吞吐 (tok/s)", unit="tok/s", page=3)
    one("R2", 40.0, "并发档位 16", "TP8", "吞吐提升", unit="%")
    one("R2", 4.1, "表 4-3 对比无外存重算基线", "重算基线(无外存)", "吞吐 (tok/s)", unit="tok/s")
    speedup = one("R2", 18.3, "加速比", unit="x")
    assert speedup.kind == "kv" and speedup.quote == "加速比: 18.3 倍"
    session = one("R2", 29800, "会话长度", unit="token")
    assert session.raw == "29.8K" and session.page == 2
    one("R2", 256, "单 token KV 大小", unit="KB")
    one("R2", 7.15, "单会话 KV Cache", unit="GB")
    one("R2", 10, "联测周期", unit="周", page=4)
    gate = one("R2", 25, "G3 主门禁", unit="%")
    assert "TTFT 降幅" in gate.labels and "≥" in gate.quote
    one("R2", 72, "G4 稳定性测试", unit="h")
    one("R2", 100, "表 2-1 测试环境", "网络", unit="Gb/s", page=1)


def test_r1_figures() -> None:
    one("R1", 0.98, "表 3-1 LMCache 读带宽", "默认读路径", "读带宽 (GB/s)", unit="GB/s")
    one("R1", 3.08, "并行读补丁", "TTFT (s)", unit="s")
    one("R1", 4.1, "TTFT 改善", unit="x")
    save = one("R1", 94, "保存时间 (s)", "FX100", unit="s")  # the unit comes from the row label
    assert save.page == 3 and save.page_label == "2"
    one("R1", 1.9, "保存时间 (s)", "变化", unit="x")
    assert one("R1", 96, "持续写带宽 (GB/s)", "变化", unit="%").raw == "+96"
    one("R1", 4, "表 2-1 测试环境", "存储", unit="盘")
    one("R1", 100, "网络", unit="Gb/s")


def test_r9_load_times_including_the_row_no_article_cites() -> None:
    one("R9", 691, "表 2-1 模型加载时间", "DeepSeek-32B", "NFS 加载 (s)", unit="s")
    one("R9", 150, "DeepSeek-70B", "FX100 加载 (s)", unit="s", page=1)
    one("R9", 9.3, "DeepSeek-70B", "加速比", unit="x")
    one("R9", 4.0, "DeepSeek-7B", "加速比", unit="x")
    one("R9", 538.1, "DeepSeek-7B", "FX100 吞吐 (samples/s)", unit="samples/s")


def test_example_reports_hold_no_dates_ids_or_page_numbers_as_figures() -> None:
    for name in ("R1", "R2", "R9"):
        p = parsed(name)
        raws = {f.raw for f in p.figures}
        assert not raws & {"2026", "07", "05", "0705", "0703", "0530", "2026-07-05"}, raws
        for f in p.figures:
            assert f.value not in (2026, 703, 705, 530), f
            assert "第" not in f.quote or "页" not in f.quote, f  # footers like 第 2 页 / 共 3 页
            assert not re.search(r"表\s*\d+-?\d*$", f.raw)
        # Headings and captions give context, never figures: `表 5-1 …(8 卡 32B LoRA)` holds no 8 or 32B.
        assert not any(f.raw in ("32B",) for f in p.figures)


def test_example_page_texts_keep_verbatim_terms_and_labels() -> None:
    r1 = parsed("R1")
    assert "4 盘 RAID0" in r1.pages[0].text and "AMD MI308X ×8" in r1.pages[0].text
    assert r1.page_labels == ["封面", "1", "2"] and [p.label for p in r1.pages] == ["封面", "1", "2"]
    assert "DeepSeek-32B" in parsed("R9").pages[0].text
    assert parsed("R9").page_labels == [] and parsed("R9").figures[0].page_label is None


def test_model_and_product_names_are_not_bytes() -> None:
    for name in ("R2", "R9"):
        assert not [f for f in parsed(name).figures if f.unit == "B"], name
    # `Atlas 910B` is kept as a name (never a quantity QC could verify against), not as 910 bytes or billions.
    assert [(f.kind, f.labels[0]) for f in parsed("R9").figures if f.raw in ("910", "910B")] == [
        ("name", "Atlas 910B"),
        ("name", "Atlas 910B"),
    ]
    assert "华为 Atlas 910B" in parsed("R9").pages[0].text  # still there for verbatim checks
    # A parameter count labelled as such stays a figure, in billions.
    params = one("R2", 480e9, "表 2-1 测试环境", "模型", unit="", page=1)
    assert params.raw == "480B" and params.kind == "cell"
    assert [f.raw for f in parsed("R2").figures if f.raw.endswith("B")] == ["480B"]


def test_library_versions_are_not_figures() -> None:
    assert not [f for f in parsed("rk3399").figures if f.value == 17.12]
    assert "(ACL) 17.12/OpenBLAS" in parsed("rk3399").pages[3].text


def _table_pdf(path: Path, tables: list[tuple[str, list[str], list[list[str]]]]) -> Path:
    """A one-page PDF of small tables (caption, header, rows), cells placed by x-position like a real report."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("STSong-Light", 10)
    y = 760.0
    for caption, header, rows in tables:
        c.drawString(72, y, caption)
        y -= 20
        for line in [header, *rows]:
            for x, cell in zip((72, 200, 330, 460), line, strict=False):
                c.drawString(x, y, cell)
            y -= 16
        y -= 30
    c.showPage()
    c.save()
    return path


def test_glued_b_in_tables_counts_bytes_only_under_a_byte_column(tmp_path: Path) -> None:
    pdf = _table_pdf(
        tmp_path / "t.pdf",
        [
            (
                "表 1 消息负载与 QPS",
                ["消息负载", "coro_rpc QPS", "brpc QPS"],
                [["4B", "120000", "98000"], ["500B", "110000", "90000"]],
            ),
            (
                "表 2 测试平台",
                ["项目", "配置", "数量 (台)"],
                [["计算平台", "Atlas 910B", "4"], ["对照平台", "Atlas 800T", "2"]],
            ),
            ("表 3 模型", ["模型", "参数量", "层数"], [["LLaMA", "70B", "80"], ["Qwen", "32B", "64"]]),
        ],
    )
    figs = parse_pdf(pdf).figures
    sizes = [(f.value, f.unit) for f in figs if f.kind == "cell" and "消息负载" in " ".join(f.labels) and f.unit == "B"]
    assert sizes == [(4, "B"), (500, "B")]
    # Model names are kept as names, never as quantities.
    assert {f.kind for f in figs if f.raw.startswith("910") or f.raw.startswith("800")} == {"name"}
    assert [f.value for f in figs if "参数量" in f.labels] == [70e9, 32e9]
    assert [f.value for f in figs if "数量 (台)" in f.labels] == [4, 2]


# ---- real PDFs -----------------------------------------------------------------------------------------------


def test_rk3399_latency_table_units_from_the_header_and_wrapped_row_labels() -> None:
    f = one("rk3399", 540, "480P 32*32 single face", "Detection (ms/frame)", unit="ms/frame", page=6)
    assert f.labels[0] == "Table 4.1 Performance of different part on Single A53"
    one("rk3399", 1715, "480P 32*32 single face", "Total (ms/frame)", unit="ms/frame", page=6)
    one("rk3399", 2625, "480P 64*64 two faces", "Total (ms/frame)", unit="ms/frame", page=6)
    one("rk3399", 800, "GPU", unit="MHz")
    # The table of contents (`4.1 Single A53 CPU @1.42GHz ….. 5`) and chart axes give no figures.
    assert not [f for f in parsed("rk3399").figures if f.page == 3]
    assert not [f for f in parsed("rk3399").figures if f.raw == "7000"]


def test_mooncake_parameter_table_in_a_two_column_page() -> None:
    f = one("mooncake", 128, "Bh2d", "Host-to-device bandwidth", "Value", unit="GB/s", page=3)
    assert f.labels[0].startswith("Table 1: Notations and parameters")
    one("mooncake", 800, "Bnic", "NIC bandwidth", unit="Gb/s", page=3)
    one("mooncake", 312, "GPU computation throughput", unit="TFLOPS")
    one("mooncake", 2, "Tensor element size", unit="B")
    one("mooncake", 40, "Table 2: Workload Statistics.", "Cache Ratio", "Conversation", unit="%", page=9)
    # `LLaMA3-70B`, `NVIDIA-A800-SXM4-80GB`, arXiv ids and `cpu:0` are names, not quantities.
    for f in parsed("mooncake").figures:
        assert f.value not in (-70, -80, -70e9) and not re.fullmatch(r"\d{4}\.\d{4,5}", f.raw), f


def test_cachepilot_store_tables_with_units_after_a_slash() -> None:
    f = one(
        "cachepilot_store",
        1399.08,
        "表 7: 真实 read_perf 16 组完整结果",
        "value size 1MB",
        "batch 4",
        "MiB/s",
        unit="MiB/s",
    )
    assert f.page == 6
    one("cachepilot_store", 5.956, "表 6: 真实 read_perf 代表性结果", "value size 1MB", "batch 4", "p99/ms", unit="ms")
    one("cachepilot_store", 0.106, "表 6: 真实 read_perf 代表性结果", "value size 4KB", "batch 1", "p50/ms", unit="ms")
    prose = [f for f in parsed("cachepilot_store").figures if f.kind == "prose" and f.value == 1399.08]
    assert prose and prose[0].page == 5 and prose[0].unit == "MiB/s" and "峰值" in prose[0].quote
    # CLI option listings use U+2011 hyphens; the page text holds plain ones.
    assert "--value-sizes" in "".join(p.text for p in parsed("cachepilot_store").pages)


def test_small_table_unit_in_the_corner_cell_and_negative_values() -> None:
    one("small_table", -269, "Noble gases", "min", unit="°C")
    one("small_table", 5000, "Metals", "max", unit="°C")
    one("small_table", 2755.9, "Metals", "avg", unit="°C")
    assert len(parsed("small_table").figures) == 12


def test_chinese_tables_table_level_unit_line() -> None:
    f = one("chinese_tables", 330435.30, "工商银行", "授信总额", unit="万元")
    assert f.raw == "330,435.30" and "序号 1" in f.labels and f.labels[0].startswith("表 7-2")
    one("chinese_tables", 95585.30, "工商银行", "剩余额度", unit="万元")
    one("chinese_tables", 0.0, "中信银行盐城分行", "剩余额度", unit="万元")
    one("chinese_tables", 372.53, unit="亿元")
    # A row's serial number (`序号 1`) labels the row and is no figure (nor does it take the table's unit).
    assert not [f for f in parsed("chinese_tables").figures if f.kind == "cell" and f.labels[1:2] == ["序号"]]


def test_broker_metrics_units_in_fullwidth_brackets_of_row_labels() -> None:
    one("broker_metrics", 3374.88, "营业收入(亿元)", "2024A", unit="亿元")
    one("broker_metrics", 6.2, "PE(倍)", "2024A", unit="x")
    one("broker_metrics", 1.22, "净利润增速(%)", "2024A", unit="%")
    slash_list = [f for f in parsed("broker_metrics").figures if f.kind == "prose" and f.unit == "亿元"]
    assert {f.value for f in slash_list} >= {1521, 1582, 1646}


def test_docling_benchmark_table_and_ligatures() -> None:
    one("docling_p9", 2.73, "OTSL", "Inference time (secs)", unit="s")
    one("docling_p9", 0.965, "OTSL", "simple")
    text = parsed("docling_p9").pages[0].text
    assert "\ufb01" not in text and "\ufb00" not in text and "fi" in text


def test_cff_cjk_file_reads_without_nul_characters() -> None:
    p = parse_pdf(CORPUS / "generated_cff_cjk_encoding_cmap_zh.pdf")
    assert len(p.pages) == 50
    text = "".join(pg.text for pg in p.pages)
    assert "\x00" not in text and "测试" in text
    assert any(f.value == 219.5 for f in p.figures)


def test_slides_kpi_card_and_chart_title_units() -> None:
    card = one("cachepilot_bench_slides_zh.pdf", 1399.08, "峰值带宽", page=1)
    assert card.unit == "MiB/s"  # the unit line sits under the value on the card
    bars = [f for f in parsed("yalantinglibs_struct_pack_bench_slides_zh.pdf").figures if f.value == 782]
    assert bars and bars[0].unit == "ns" and bars[0].page == 36  # from the title `20 rects(nanoseconds)`
    # `int32_t width = 11;` and other code on the slides give no figures.
    assert not [
        f for f in parsed("yalantinglibs_struct_pack_bench_slides_zh.pdf").figures if "=" in f.quote and ";" in f.quote
    ]


@pytest.mark.parametrize("pdf", sorted(CORPUS.glob("*.pdf")), ids=lambda p: p.stem)
def test_every_corpus_pdf_parses_and_every_figure_is_printed_verbatim(pdf: Path) -> None:
    p = parsed(pdf.name)
    assert p.pages and all("\x00" not in pg.text for pg in p.pages)
    texts = {pg.page: re.sub(r"\s+", "", pg.text) for pg in p.pages}
    for f in p.figures:
        # Never a glued number (`73.874.6`): every raw figure stands in its page's text as a whole token.
        assert re.sub(r"\s+", "", f.raw) in texts[f.page], f
        assert f.id and len(f.id) == 16 and f.page >= 1
    assert len({f.id for f in p.figures}) == len(p.figures)


def test_deepseek_chart_never_yields_fused_labels() -> None:
    raws = {f.raw for f in parsed("deepseek_v3_benchmark_chart.pdf").figures}
    assert not raws & {"73.874.6", "24.825.3", "24.825.323.6", "23.323.3"}
    assert {"74.7", "74.6", "23.6"} <= raws


@pytest.mark.parametrize("name", sorted(GOLDEN_PDFS))
def test_golden_figures(name: str, golden: Callable[[str, Any], None]) -> None:
    figures = [f.model_dump(exclude={"report", "version"}) for f in parsed(name).figures]
    golden(f"figures/{name}.json", figures)


# ---- units and numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("从 10.17s 降至 7.53s", [("10.17", 10.17, "s"), ("7.53", 7.53, "s")]),
        ("TTFT 降低 26–32%", [("26", 26, "%"), ("32", 32, "%")]),
        ("加速 6.2 倍", [("6.2", 6.2, "x")]),
        ("2.22x higher", [("2.22", 2.22, "x")]),
        ("29.8K token", [("29.8K", 29800, "token")]),
        ("480B 参数", [("480B", 480e9, "")]),
        ("1,521/1,582/1,646亿元", [("1,521", 1521, "亿元"), ("1,582", 1582, "亿元"), ("1,646", 1646, "亿元")]),
        ("100 Gbps", [("100", 100, "Gb/s")]),
        ("延迟 3 毫秒", [("3", 3, "ms")]),
        ("温度 25 ℃", [("25", 25, "°C")]),
        ("-269", [("-269", -269, "")]),
        ("TP8 FP8 MI308X A800 LLaMA3-70B DeepSeek-32B", []),
        # A glued `B` names a model or product unless bytes or parameters are meant.
        ("华为 Atlas 910B 平台", []),
        ("性能测试报告480B·TP8 长上下文", []),
        ("在 480B 模型 TP8 部署", []),
        ("70B params", [("70B", 70e9, "")]),
        ("4B 500B 1KB 5KB", [("4", 4, "B"), ("500", 500, "B"), ("1", 1, "KB"), ("5", 5, "KB")]),
        ("ping-pong 测试(负载4B)", [("4", 4, "B")]),
        ("Tensor element size 2 B (BFloat16)", [("2", 2, "B")]),
        # Versions of named libraries are no figures; a unit after the same shape keeps it one.
        ("Arm Compute Library(ACL) 17.12/OpenBLAS.", []),
        ("ACL 17.12/OpenBLAS", []),
        ("CANN version 8.0.1, 版本：2.3", []),
        # an OS name before a number with a unit glued on is a row label, not a version (a tracker's `MultiCPU Linux`)
        ("Ubuntu 16.04 SMP, Linux 4.4", []),
        ("MultiCPU Linux 60ms/frame 80ms/frame", [("60", 60, "ms/frame"), ("80", 80, "ms/frame")]),
        ("吞吐(QPS) 12.05万", [("12.05", 12.05, "万")]),
        ("TTFT 10.12 s", [("10.12", 10.12, "s")]),
        ("Average Processing Speed: 231.39 tokens/second", [("231.39", 231.39, "tok/s")]),  # an Ollama benchmark
        ("2026-07-05 2022.4.29 2023 年 3 月 v0.1.3 5.4.2 127.0.0.1 10:30 第 2 页 / 共 4 页 表 4-1 Table 2 [12]", []),
        # references to several tables or figures are no figures (`3 load generators` is no `Tables 3 and 4`)
        ("Tables 3 and 4 are the Aggregate Report of each run", []),
        ("see Figures 2, 5 and 7 at 30 ms", [("30", 30, "ms")]),
        ("Test window: 3–6 November 2026, 12 Mar 2025; 2 Decode steps", [("2", 2, "")]),  # days before their month
        (
            "int32_t width = 11;",
            [("11", 11, "")],
        ),  # find_numbers is text-level; code lines are dropped by the page pass
    ],
)
def test_find_numbers(text: str, expected: list[tuple[str, float, str]]) -> None:
    assert [(n.raw, n.value, n.unit) for n in find_numbers(text)] == expected


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("基线 TTFT (s)", "s"),
        ("p50/ms", "ms"),
        ("MiB/s", "MiB/s"),
        ("Detection (ms/frame)", "ms/frame"),
        ("营业收入(亿元)", "亿元"),
        ("Boiling Points °C", "°C"),
        ("延迟时间(毫秒)", "ms"),
        ("Inference time (secs)", "s"),
        ("20 rects(nanoseconds)", "ns"),
        ("min", None),
        ("Min", None),  # JMeter's summary columns `Min`/`Max`: the minimum, never minutes
        ("MAX", None),
        ("Time (min)", "min"),
        ("mAP (0.75)", None),
        ("并发档位", None),
    ],
)
def test_header_units(header: str, unit: str | None) -> None:
    assert header_unit(normalize(header)) == unit


def test_normalize_joins_the_utf16_halves_pypdf_returns() -> None:
    # A WPS report's math-bold `unittest` as pypdf reads it: surrogate pairs and lone halves, which SQLite refused
    # (`surrogates not allowed`), so the whole ingest failed.
    text = normalize("模块\ud835\udc2e\ud835\udc27\udc27\udc22\ud835\udc27\n（1）")
    assert text.encode("utf-8") and text.startswith("模块un") and text.endswith("\n(1)")


def test_normalize_handles_corpus_characters() -> None:
    assert normalize("ﬁle\u2011name：（３０％）\x00") == "file-name:(30%)"


def test_time_limit_is_a_clear_error() -> None:
    with pytest.raises(EvidenceError, match="longer than"):
        parse_pdf(CORPUS / "mooncake_fast25_kvcache_serving_paper.pdf", IngestLimits(seconds_per_file=0.01))


def test_visitor_text_positions_are_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    import evidence.pdf.speedups as pdf_mod

    def broken(page: Any) -> Any:
        raise KeyError("layout internals unavailable")

    monkeypatch.setattr(pdf_mod, "layout_runs", broken)
    p = parse_pdf(REPORTS / "R2.pdf")
    cell = [f for f in p.figures if f.value == 7.53 and f.kind == "cell"]
    assert cell and cell[0].unit == "s" and "并发档位 8" in cell[0].labels and "FX100 TTFT (s)" in cell[0].labels


@pytest.mark.parametrize("name", ["R2", "mooncake"])
def test_single_pass_reads_what_the_two_pass_fallback_reads(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One content-stream parse per page (layout positions ride on plain extraction) changes nothing read."""
    import evidence.pdf.speedups as pdf_mod

    fast = parse_pdf(GOLDEN_PDFS[name], report_id=name)
    monkeypatch.setattr(pdf_mod, "SINGLE_PASS", False)
    slow = parse_pdf(GOLDEN_PDFS[name], report_id=name)
    assert [p.text for p in fast.pages] == [p.text for p in slow.pages]
    assert [f.model_dump() for f in fast.figures] == [f.model_dump() for f in slow.figures]


def test_fonts_are_decoded_once_per_font_object_not_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import pypdf.generic._font as font_mod

    import evidence.pdf.speedups as pdf_mod

    calls: list[int] = []
    real = font_mod.get_encoding

    def counting(font: Any) -> Any:
        calls.append(id(font))
        return real(font)

    monkeypatch.setattr(font_mod, "get_encoding", counting)
    slides = CORPUS / "yalantinglibs_struct_pack_bench_slides_zh.pdf"
    cached = parse_pdf(slides)
    fonts = len(set(calls))
    assert len(calls) <= 2 * fonts  # one decoding for plain text and one for layout positions, per font
    calls.clear()
    monkeypatch.setattr(pdf_mod, "SINGLE_PASS", False)
    uncached = parse_pdf(slides)
    assert len(calls) > 4 * fonts  # without the cache every page decodes its fonts again
    assert [f.model_dump() for f in cached.figures] == [f.model_dump() for f in uncached.figures]


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same pypdf types, all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _operations(data: bytes, fast: bool) -> tuple[Any, str | None]:
    from pypdf.generic import ContentStream, DecodedStreamObject

    import evidence.pdf.speedups as pdf_mod

    assert pdf_mod.install_fast_streams()
    obj = DecodedStreamObject()
    obj.set_data(data)
    token = pdf_mod.STREAMS_ACTIVE.set(fast)
    try:
        return ContentStream(obj, None, "bytes").operations, None
    except Exception as e:  # the same failure either way is part of the contract
        return None, f"{type(e).__name__}: {e}"
    finally:
        pdf_mod.STREAMS_ACTIVE.reset(token)


@pytest.mark.parametrize(
    "data",
    [
        b"BT /F1 12 Tf 72 712.5 Td (Hello) Tj [(A) -250 (B) 3.5] TJ T* (x) ' 1 2 (y) \" ET",
        b"/P <</MCID 0>> BDC (x) Tj EMC /Span<</ActualText(a)>>BDC EMC",
        b"(esc\\(aped\\) \\101 \\n) Tj (nested (paren) s) Tj (line\\\ncont) Tj",
        b"<48 65 6C6C6F> Tj <4> Tj <> Tj [<0102> 5 <03>] TJ",
        b"% a comment\n1 0 0 1 0 0 cm q Q %last",
        b"/Name#20With#23 gs /\xe4\xb8\xad Tf /A-b_c.d Do",
        b"q BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q",
        b"12 0 R Tj 1 0 Rg",
        b"12345678901234567890123 Tw 1,5 -.5 +3 .5. 3- Tc",
        b"[1 [2] /N null] TJ [%c\n1] TJ [1 2",
        b"true false null Tj \x00\t\x0c\r\n 5 Tz",
        b"{ } Tj",
        b"\x0b5 Tj",
        b"(unterminated",
        b"A" * 150 + b" Tj",
        b"[" + b"1 " * 12000 + b"] TJ",
        b"",
        b"<4G> Tj",
        b"5 /" + b"n" * 5000 + b" Tf",
    ],
)
def test_content_stream_tokeniser_gives_pypdfs_operations(data: bytes) -> None:
    fast, fast_err = _operations(data, True)
    slow, slow_err = _operations(data, False)
    assert fast_err == slow_err
    assert _same(fast, slow)


@pytest.mark.parametrize("name", ["R2", "mooncake", "generated_cff_cjk_encoding_cmap_zh.pdf"])
def test_content_stream_tokeniser_on_real_pages(name: str) -> None:
    from pypdf import PdfReader

    reader = PdfReader(GOLDEN_PDFS.get(name) or CORPUS / name)
    streams = 0
    for page in reader.pages:
        data = page["/Contents"].get_object().get_data() if "/Contents" in page else b""
        xobjects = page["/Resources"].get_object().get("/XObject") or {}
        forms = [x.get_object().get_data() for x in xobjects.values() if x.get_object().get("/Subtype") == "/Form"]
        for raw in [data, *forms]:
            fast, fast_err = _operations(raw, True)
            slow, slow_err = _operations(raw, False)
            assert fast_err is None and slow_err is None and _same(fast, slow)
            streams += 1
    assert streams >= len(reader.pages)
