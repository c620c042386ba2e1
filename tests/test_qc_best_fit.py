"""QC: the figure a claim's words fit best decides; when they name a mate of it better (another column of its row),
a figure of the same value elsewhere that fits them less does not rescue the claim."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

CMP = "Table 1 Inference time comparison"
CORES = "Table 4 ResNet time per core"


def _index() -> EvidenceIndex:
    cells = [  # (value, unit, labels, row quote): a framework comparison, and a per-core table holding 0.8121 s
        (812.1, "ms", [CMP, "ResNet", "Stock Torch (ms)"], "ResNet 812.10 402.60"),
        (402.6, "ms", [CMP, "ResNet", "Torch-Fast (ms)"], "ResNet 812.10 402.60"),
        (0.8121, "s", [CORES, "ResNet", "2xA55", "OpenMP (s)"], "2xA55 0.8121 0.6410"),
        (0.641, "s", [CORES, "ResNet", "2xA55", "Pinned (s)"], "2xA55 0.8121 0.6410"),
    ]
    figs = [Figure(id=f"f{i}", report="R6", page=1, value=v, unit=u, raw=f"{v}", labels=labs, quote=quote, kind="cell")
            for i, (v, u, labs, quote) in enumerate(cells)]  # fmt: skip
    rep = Report(id="R6", title="t", date=dt.date(2026, 1, 1), access="public", file="r6.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R6": rep}, figures={"R6": figs},
                         pages={"R6": [Page(report="R6", version=1, page=1, text=CMP)]})  # fmt: skip


def _cells(row: str) -> list[tuple[str, str]]:
    body = f"| Network | Stock Torch (ms) | Torch-Fast (ms) |\n|---|---|---|\n{row}\n\nSee R6 [source: R6]."
    doc = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R6]\nanswer: a\n---\n\n{body}\n"
    return [(n.text.strip(), n.status) for n in check_draft(parse_draft(doc, "t.md"), _index()).numbers
            if n.status != "exempt"]  # fmt: skip


def test_a_value_of_another_column_is_not_rescued_by_a_weaker_figure() -> None:
    assert _cells("| ResNet | 812.10 | 402.60 |") == [("812.10", "verified"), ("402.60", "verified")]
    # 812.10 under Torch-Fast: its row's Torch-Fast cell is 402.60 (0.8121 s of the per-core table shares less)
    assert _cells("| ResNet | 812.10 | 812.10 |") == [("812.10", "verified"), ("812.10", "mismatch")]


def test_a_row_label_carries_the_unit_of_its_cells() -> None:
    # A broker's forecast table: `| PB(倍) | 0.95 |` is 0.95 倍; the 0.93% of another row is no PB
    npl, pb = "不良贷款率(%) 0.95 0.93 0.92", "PB(倍) 0.98 0.95 0.92"
    cells = [(v, u, [row, year], quote) for row, u, quote in (("不良贷款率(%)", "%", npl), ("PB(倍)", "x", pb))
             for year, v in zip(("2024A", "2025E", "2026E"), map(float, quote.split()[1:]), strict=True)]  # fmt: skip
    figs = [Figure(id=f"g{i}", report="R6", page=1, value=v, unit=u, raw=f"{v}", labels=lab, quote=quote, kind="cell")
            for i, (v, u, lab, quote) in enumerate(cells)]  # fmt: skip
    rep = Report(id="R6", title="t", date=dt.date(2026, 1, 1), access="public", file="r6.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    index = EvidenceIndex(reports={"R6": rep}, figures={"R6": figs},
                          pages={"R6": [Page(report="R6", version=1, page=1, text="盈利预测")]})  # fmt: skip

    def cell(value: str) -> tuple[str, str]:
        body = f"| 指标 | 2025E | 2026E |\n|---|---|---|\n| PB(倍) | {value} | 0.92 |\n\n见 R6【出处:R6】。"
        doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R6]\nanswer: a\n---\n\n{body}\n"
        n = next(n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text.strip() == value)
        return n.status, n.unit

    assert cell("0.95") == ("verified", "x")
    assert cell("0.93")[0] != "verified"


def test_a_number_among_cells_of_one_row_stands_for_that_rows_cell() -> None:
    # A bond prospectus' credit table; the second bank's row was read on a line of its own (its name alone).
    cap = "表 7-1:发行人授信情况"
    rows = [("序号 1", "甲银行", (500.0, 320.0, 180.0), "1 甲银行 500.00 320.00 180.00"),
            ("序号 2", "乙银行南京支行", (260.0, 140.0, 120.0), "2 乙银行南京支行")]  # fmt: skip
    figs = [Figure(id=f"c{i}{j}", report="R6", page=1, value=v, unit="万元", raw=f"{v:.2f}", kind="cell",
                   labels=[cap, no, bank, col], quote=quote if i == 0 or j == 1 else "260.00 120.00")
            for i, (no, bank, values, quote) in enumerate(rows)
            for j, (col, v) in enumerate(zip(("授信总额", "已使用情况", "剩余额度"), values, strict=True))]  # fmt: skip
    rep = Report(id="R6", title="t", date=dt.date(2026, 1, 1), access="public", file="r6.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    index = EvidenceIndex(reports={"R6": rep}, figures={"R6": figs},
                          pages={"R6": [Page(report="R6", version=1, page=1, text=cap)]})  # fmt: skip

    def used(value: str) -> str:
        body = f"甲银行授信总额 500.00 万元,已使用 {value} 万元,剩余 180.00 万元【出处:R6】。"
        doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R6]\nanswer: a\n---\n\n{body}\n"
        return next(n.status for n in check_draft(parse_draft(doc, "t.md"), index).numbers if value in n.text)

    assert used("320.00") == "verified"
    assert used("140.00") == "mismatch"  # the second bank's used amount


def test_a_number_among_cells_of_one_row_of_another_table_stands_for_that_rows_cell() -> None:
    # A store's write and read benchmarks share their keys; the sentence's other numbers are the write row's.
    tabs = [("表 2: write_bench 结果", (1510.4, 23.6, 0.842)), ("表 4: read_bench 结果", (2730.9, 42.7, 0.611))]
    figs = [Figure(id=f"w{i}{j}", report="R6", page=i + 1, value=v, unit=u, raw=f"{v}", kind="cell",
                   labels=[cap, "value size 8KB", "batch 2", col], quote=f"8KB 2 {vals[0]} {vals[1]} {vals[2]}")
            for i, (cap, vals) in enumerate(tabs)
            for j, (col, u, v) in enumerate(zip(("req/s", "MiB/s", "p99/ms"), ("req/s", "MiB/s", "ms"), vals,
                                               strict=True))]  # fmt: skip
    rep = Report(id="R6", title="t", date=dt.date(2026, 1, 1), access="public", file="r6.pdf", sha256="0", version=1,
                 pages=2)  # fmt: skip
    pages = [Page(report="R6", version=1, page=i + 1, text=cap) for i, (cap, _) in enumerate(tabs)]
    index = EvidenceIndex(reports={"R6": rep}, figures={"R6": figs}, pages={"R6": pages})

    def bandwidth(value: str, lead: str = "") -> str:
        body = f"write_bench 在 8KB、batch=2 下达到 1510.4 req/s、{lead}{value} MiB/s,p99 延迟 0.842 ms【出处:R6】。"
        doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R6]\nanswer: a\n---\n\n{body}\n"
        return next(n.status for n in check_draft(parse_draft(doc, "t.md"), index).numbers if value in n.text)

    assert bandwidth("23.6") == "verified"
    assert bandwidth("42.7") == "mismatch"  # the read benchmark's bandwidth
    assert bandwidth("42.7", "而 read_bench 读带宽 ") == "verified"  # its own clause names the read table
