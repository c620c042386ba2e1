"""QC rules on small hand-made reports: aliases a report defines, figures naming choices, units carried by labels,
derivations that follow the words. (Shapes taken from real reports outside the corpus, quoted in each test.)"""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import STRENGTHS


def _index(figures: list[tuple[float, str, str, list[str], str]], text: str) -> EvidenceIndex:
    """Report R3 with `(value, unit, raw, labels, quote)` cells (one row per quote) and one page of `text`."""
    figs = [
        Figure(id=f"f{i}", report="R3", page=1, value=v, unit=u, raw=raw, labels=labs, quote=quote,
               kind="cell" if quote else "prose")
        for i, (v, u, raw, labs, quote) in enumerate(figures)
    ]  # fmt: skip
    rep = Report(id="R3", title="t", date=dt.date(2026, 1, 1), access="public", file="r3.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R3": rep}, figures={"R3": figs},
                         pages={"R3": [Page(report="R3", version=1, page=1, text=text)]})  # fmt: skip


def _status(index: EvidenceIndex, sentence: str, text: str, lang: str = "en") -> tuple[str, str]:
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{sentence}\n"
    n = next(n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text.strip() == text)
    return n.status, n.message


# A Java queue benchmark: "ArrayBlockingQueue (ABQ) and LinkedBlockingQueue (LBQ)", then a table headed by the
# abbreviations only.
QUEUES = _index(
    [(8.1, "M ops/s", "8.1", ["Table 3 Throughput", "ABQ", "Throughput (M ops/s)"], "ABQ 8.1 12.5"),
     (12.5, "ms", "12.5", ["Table 3 Throughput", "ABQ", "p99 (ms)"], "ABQ 8.1 12.5"),
     (14.2, "M ops/s", "14.2", ["Table 3 Throughput", "LBQ", "Throughput (M ops/s)"], "LBQ 14.2 9.7"),
     (9.7, "ms", "9.7", ["Table 3 Throughput", "LBQ", "p99 (ms)"], "LBQ 14.2 9.7")],
    "We compare ArrayBlockingQueue (ABQ) with LinkedBlockingQueue (LBQ) under contention.",
)  # fmt: skip


def test_an_abbreviation_the_report_defines_is_its_full_name() -> None:
    assert _status(QUEUES, "ArrayBlockingQueue has a p99 latency of 12.5 ms [source: R3].", "12.5 ms")[0] == "verified"
    status, message = _status(QUEUES, "ArrayBlockingQueue has a p99 latency of 9.7 ms [source: R3].", "9.7 ms")
    assert status == "mismatch" and "12.5" in message  # 9.7 ms is LBQ's


def test_a_figure_naming_a_choice_backs_no_quantity() -> None:
    # "Option 2/3/4/5/7 were deployed" must not back "4 台"; a real count does.
    index = _index([(4.0, "", "4", ["部署方案"], ""), (6.0, "台", "6", ["服务器数量"], "")],
                   "部署方案 Option 2/3/4/5/7 均已验证。服务器数量 6 台。")  # fmt: skip
    index.figures["R3"][0].raw = "Option 2/3/4/5/7"
    index.figures["R3"][0].quote = "部署方案 Option 2/3/4/5/7 均已验证"
    assert _status(index, "部署方案使用 4 台服务器【出处:R3 实测】。", "4 台", "zh")[0] not in ("verified", "derived")
    assert _status(index, "服务器数量为 6 台【出处:R3 实测】。", "6 台", "zh")[0] == "verified"


def test_a_bare_figure_backs_a_unit_only_where_its_labels_carry_it() -> None:
    index = _index([(66.0, "", "66", ["Table 2 Network", "NIC", "Bandwidth (Gbps)"], "NIC 66 94"),
                    (94.0, "", "94", ["Table 2 Network", "NIC", "Recovery (s)"], "NIC 66 94")], "Table 2 Network")  # fmt: skip
    assert _status(index, "The NIC bandwidth is 66 Gbps [source: R3].", "66 Gbps")[0] == "verified"
    assert _status(index, "The NIC bandwidth is 66GB/s [source: R3].", "66GB/s")[0] != "verified"
    assert _status(index, "NIC recovery takes 94 s [source: R3].", "94 s")[0] == "verified"
    assert _status(index, "NIC recovery takes 94 ms [source: R3].", "94 ms")[0] != "verified"


def test_a_change_is_computed_the_way_its_words_say() -> None:
    index = _index([(178.0, "s", "178", ["保存时间 (s)", "基线"], "保存时间 178 94"),
                    (94.0, "s", "94", ["保存时间 (s)", "FX100"], "保存时间 178 94")], "保存时间 178 94")  # fmt: skip
    fell = "保存时间从 178 s 缩短到 94 s,缩短 {}【出处:R3 实测】。"
    assert _status(index, fell.format("47%"), "47%", "zh")[0] == "derived"  # (178 − 94) / 178
    status, message = _status(index, fell.format("89%"), "89%", "zh")  # (178 − 94) / 94 is a rise's figure
    assert status == "mismatch" and "from 178 s to 94 s is 47.19%, not 89%" in message
    rose = "基线 94 s 时,改进后为 178 s,提升 {}【出处:R3 实测】。"
    assert _status(index, rose.format("89%"), "89%", "zh")[0] == "derived"
    assert _status(index, "保存时间 178 s 比基线 94 s 多了 84 s【出处:R3 实测】。", "84 s", "zh")[0] == "derived"
    assert _status(index, "保存时间为 178 s 和 94 s,另需 84 s 预热【出处:R3 实测】。", "84 s", "zh")[0] != "derived"


def test_every_strength_is_named_once_and_ordered() -> None:
    assert len(set(STRENGTHS)) == len(STRENGTHS) and STRENGTHS[0] == "figure in context" and STRENGTHS[-1] == ""


def test_a_percentile_row_label_is_a_row_key() -> None:
    # A latency distribution: "99% observations less than 175,567 ns" (row label 99%, value in the ns column).
    index = _index([(29.0, "ns", "29", ["Table 4 Latency", "50%", "ns"], "50% 29"),
                    (175567.0, "ns", "175,567", ["Table 4 Latency", "99%", "ns"], "99% 175,567")], "Table 4 Latency")  # fmt: skip
    body = "In the latency test, 99% of observations are less than 175,567 ns [source: R3]."
    assert _status(index, body, "99%")[0] == "verified"
    assert _status(index, body, "less than 175,567 ns")[0] == "verified"
    assert (
        _status(index, "In the latency test, 98% of observations are less than 175,567 ns [source: R3].", "98%")[0]
        != "verified"
    )


def test_a_min_max_range_is_two_cells_of_its_row() -> None:
    index = _index([(29.0, "ns", "29", ["Table 4 Latency", "ABQ", "min (ns)"], "ABQ 29 175,567"),
                    (175567.0, "ns", "175,567", ["Table 4 Latency", "ABQ", "max (ns)"], "ABQ 29 175,567"),
                    (31.0, "ns", "31", ["Table 4 Latency", "LBQ", "min (ns)"], "LBQ 31 99,120"),
                    (99120.0, "ns", "99,120", ["Table 4 Latency", "LBQ", "max (ns)"], "LBQ 31 99,120")],
                   "ArrayBlockingQueue (ABQ) and LinkedBlockingQueue (LBQ), Table 4 Latency")  # fmt: skip
    ok = "ArrayBlockingQueue latency spans 29–175,567 ns (min–max) [source: R3]."
    assert _status(index, ok, "29–175,567 ns")[0] == "verified"
    status, message = _status(index, ok.replace("29–", "31–"), "31–175,567 ns")  # LBQ's minimum
    assert status == "mismatch" and message.startswith("31:")


def test_faster_n_times_is_read_both_ways_and_flagged() -> None:
    index = _index([(5.23, "GB/s", "5.23", ["读带宽 (GB/s)", "并行读补丁"], "并行读补丁 5.23"),
                    (0.98, "GB/s", "0.98", ["读带宽 (GB/s)", "默认读路径"], "默认读路径 0.98")], "读带宽")  # fmt: skip
    body = "并行读补丁的读带宽为 5.23 GB/s,默认读路径为 0.98 GB/s,{}【出处:R3 实测】。"
    doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body.format('快 4.3 倍')}\n"
    n = next(n for n in check_draft(parse_draft(doc, "t.md"), index).numbers if n.text == "4.3 倍")
    assert n.status == "derived" and "ambiguous" in (n.derivation or "")  # 5.23/0.98 − 1 = 4.34
    assert _status(index, body.format("是其 5.3 倍"), "5.3 倍", "zh")[0] == "derived"
    assert _status(index, body.format("是其 4.3 倍"), "4.3 倍", "zh")[0] != "derived"  # no `快`: a ratio only
