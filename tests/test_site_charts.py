"""SVG charts drawn from the numbers QC verified: comparisons found in sentences, labelled, captioned with the source."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pipeline.website.charts import section_charts
from qc.models import NumberCheck, Source


def num(
    body: str,
    text: str,
    value: float,
    unit: str,
    report: str = "R2",
    page: int = 2,
    labels=(),
    nth: int = 0,
    status: str = "verified",
) -> NumberCheck:
    start = [m.start() for m in re.finditer(re.escape(text), body)][nth]
    return NumberCheck(
        text=text,
        line=1,
        column=1,
        value=value,
        unit=unit,
        status=status,
        severity="ok",
        cited=[report],  # type: ignore[arg-type]
        source=Source(
            report=report, figure=f"f{value}", page=page, value=value, unit=unit, quote="", labels=list(labels)
        ),
        field="body",
        start=start,
        end=start + len(text),
    )


BODY = """## 冷恢复

- 并发 8 档下 TTFT p50 从 10.17s 降至 7.53s;并发 16 档下从 35.73s 降至 26.35s【出处:R2 实测】。

## 加载

DeepSeek-32B 服务加载从 691s 降至 112s【出处:R9 实测】,共 3 个模型。
"""


def numbers() -> list[NumberCheck]:
    return [
        num(BODY, "10.17s", 10.17, "s", labels=["并发 8", "基线"]),
        num(BODY, "7.53s", 7.53, "s", labels=["并发 8", "FX100"]),
        num(BODY, "35.73s", 35.73, "s", labels=["并发 16", "基线"]),
        num(BODY, "26.35s", 26.35, "s", labels=["并发 16", "FX100"]),
        num(BODY, "691s", 691, "s", report="R9", page=3, labels=["DeepSeek-32B", "NFS 加载"]),
        num(BODY, "112s", 112, "s", report="R9", page=3, labels=["DeepSeek-32B", "FX100 加载"]),
    ]


def svg_of(fig: str) -> ET.Element:
    return ET.fromstring(re.search(r"<svg.*</svg>", fig, re.S).group(0))  # type: ignore[union-attr]


def test_comparisons_become_one_chart_per_section_and_report() -> None:
    charts = section_charts(BODY, numbers(), lang="zh", report_titles={"R2": "KV 报告", "R9": "加载报告"})
    assert set(charts) == {1, 2}
    ttft = charts[1]
    texts = [t.text for t in svg_of(ttft).iter("{http://www.w3.org/2000/svg}text")]
    for value in ("10.17s", "7.53s", "35.73s", "26.35s"):
        assert value in texts  # every bar is labelled with the number as the article prints it
    assert "并发 8" in texts and "并发 16" in texts  # groups told apart by the figures' own labels
    assert "数据来源:R2《KV 报告》第 2 页" in ttft
    assert "R9" in charts[2] and "第 3 页" in charts[2] and "DeepSeek-32B" in charts[2]
    legend = [t.text for t in svg_of(charts[2]).iter("{http://www.w3.org/2000/svg}text")][:2]
    assert legend == ["NFS 加载", "FX100 加载"]  # the series are the report's own labels


def test_bar_lengths_follow_the_verified_values() -> None:
    chart = section_charts(BODY, numbers(), lang="zh", report_titles={})[1]
    widths = [float(r.get("width")) for r in svg_of(chart).iter("{http://www.w3.org/2000/svg}rect")][2:]  # skip legend
    assert max(widths) == widths[2]  # 35.73 s is the longest bar
    assert abs(widths[0] / widths[2] - 10.17 / 35.73) < 0.01


def test_no_chart_without_a_stated_comparison_or_with_unverified_numbers() -> None:
    body = "吞吐 74.9 tok/s,时延 10.17s 与 7.53s。"
    ns = [num(body, "10.17s", 10.17, "s"), num(body, "7.53s", 7.53, "s")]
    assert section_charts(body, ns, lang="zh", report_titles={}) == {}
    bad = numbers()
    bad[1] = bad[1].model_copy(update={"status": "mismatch"})
    charts = section_charts(BODY, bad, lang="zh", report_titles={})
    assert "10.17s" not in charts.get(1, "")


def test_english_comparison_and_mixed_reports_are_not_paired() -> None:
    body = "TTFT falls from 10.17 s to 7.53 s; load time from 691 s to 112 s."
    ns = [
        num(body, "10.17 s", 10.17, "s", labels=["TTFT p50", "baseline"]),
        num(body, "7.53 s", 7.53, "s", labels=["TTFT p50", "FX100"]),
        num(body, "691 s", 691, "s", report="R9", labels=["load", "NFS"]),
        num(body, "112 s", 112, "s", report="R2", labels=["load", "FX100"]),
    ]
    charts = section_charts(body, ns, lang="en", report_titles={"R2": "KV report"})
    assert list(charts) == [0]
    assert "10.17 s" in charts[0] and "691 s" not in charts[0]
    assert "Source: R2 KV report, p. 2" in charts[0]


def test_series_are_named_by_the_reports_labels_and_a_rising_cost_is_no_improvement() -> None:
    body = "## 批量\n\nbatch 1 → 16 时,p99 时延从 12ms 升至 48ms,而带宽反而从 3.2GB/s 降至 2.9GB/s。\n"
    ns = [
        num(body, "12ms", 12, "ms", labels=["p99 时延", "batch 1"]),
        num(body, "48ms", 48, "ms", labels=["p99 时延", "batch 16"]),
        num(body, "3.2GB/s", 3.2, "GB/s", labels=["带宽", "读取"]),  # labels that name no comparison: no chart
        num(body, "2.9GB/s", 2.9, "GB/s", labels=["带宽", "写入", "峰值"]),
    ]
    ns = [n.model_copy(update={"start": body.index(n.text), "end": body.index(n.text) + len(n.text)}) for n in ns]
    charts = section_charts(body, ns, lang="zh", report_titles={})
    assert list(charts) == [1]
    svg = svg_of(charts[1])
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[:2] == ["batch 1", "batch 16"]
    title = svg.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "p99 时延 (单位: ms)"
    for word in ("基线", "改进后", "Improved", "Baseline", "而带宽反而", "2.9GB/s"):
        assert word not in charts[1]


def test_numbers_without_figures_or_labels_make_no_chart() -> None:
    body = "加载从 691s 降至 112s。"
    ns = [num(body, "691s", 691, "s"), num(body, "112s", 112, "s")]
    assert section_charts(body, ns, lang="zh", report_titles={}) == {}
