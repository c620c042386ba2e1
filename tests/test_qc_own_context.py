"""Each number's own context: the words of its clause are its own, and two numbers of one sentence (or of one row of
an article's table) whose own words fit each other's figures better than their own are swapped. (Shapes taken from
real reports of the accuracy corpus: a broker's key–value page, a paper's table, a vendor's baseline table.)"""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.claims import crossed
from qc.draft import parse_draft
from qc.index import EvidenceIndex


def _index(figures: list[tuple[float, str, list[str], str, str]]) -> EvidenceIndex:
    """Report R3 with `(value, unit, labels, quote, kind)` figures on one page."""
    figs = [Figure(id=f"f{i}", report="R3", page=1, value=v, unit=u, raw=f"{v:g}", labels=labs, quote=quote, kind=kind)
            for i, (v, u, labs, quote, kind) in enumerate(figures)]  # fmt: skip
    rep = Report(id="R3", title="t", date=dt.date(2026, 1, 1), access="public", file="r3.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    text = "\n".join(dict.fromkeys(q for _, _, _, q, _ in figures))
    return EvidenceIndex(reports={"R3": rep}, figures={"R3": figs},
                         pages={"R3": [Page(report="R3", version=1, page=1, text=text)]})  # fmt: skip


def _verdicts(index: EvidenceIndex, body: str, lang: str = "zh") -> dict[str, tuple[str, str]]:
    doc = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): (n.status, n.message) for n in check_draft(parse_draft(doc, "t.md"), index).numbers}


# A broker's report: two growth rates of one half-year, each printed after its own metric.
GROWTH = _index([(1.6, "%", ["业绩稳健增长", "2025年上半年营收同比增长"], "2025年上半年营收同比增长 1.6%,归母净利润同比增长 2.8%", "kv"),
                 (2.8, "%", ["业绩稳健增长", "归母净利润同比增长"], "2025年上半年营收同比增长 1.6%,归母净利润同比增长 2.8%", "kv")])  # fmt: skip


def test_each_clause_of_a_sentence_keys_its_own_number() -> None:
    ok = _verdicts(GROWTH, "2025 年上半年营收同比增长 1.6%,归母净利润同比增长 2.8%【出处:R3】。")
    assert ok["1.6%"][0] == ok["2.8%"][0] == "verified"
    swapped = _verdicts(GROWTH, "2025 年上半年营收同比增长 2.8%,归母净利润同比增长 1.6%【出处:R3】。")
    assert swapped["2.8%"][0] == swapped["1.6%"][0] == "mismatch"
    assert "says 1.6%" in swapped["2.8%"][1] and "swapped" in swapped["2.8%"][1]  # the figure its words name


# A paper's table: two systems' mAP and time per layer configuration, under a caption naming both systems.
_CAP = "Table 1. HPO performed in OTSL and HTML representation"
HPO = _index([(0.859, "", [_CAP, "2", "4", "OTSL", "mAP (0.75)"], "2 4 0.859 0.834 1.91 3.81", "cell"),
              (0.834, "", [_CAP, "2", "4", "HTML", "mAP (0.75)"], "2 4 0.859 0.834 1.91 3.81", "cell"),
              (1.91, "s", [_CAP, "2", "4", "OTSL", "Inference time (secs)"], "2 4 0.859 0.834 1.91 3.81", "cell"),
              (3.81, "s", [_CAP, "2", "4", "HTML", "Inference time (secs)"], "2 4 0.859 0.834 1.91 3.81", "cell")])  # fmt: skip
_TABLE = "Results [source: R3]:\n\n| Layers (enc, dec) | OTSL mAP | HTML mAP | OTSL time (s) | HTML time (s) |\n" \
         "|---|---|---|---|---|\n| 2, 4 | {} | {} | {} | {} |\n"  # fmt: skip


def test_an_article_tables_column_header_decides_between_its_cells() -> None:
    ok = _verdicts(HPO, _TABLE.format("0.859", "0.834", "1.91", "3.81"), "en")
    assert all(ok[t][0] == "verified" for t in ("0.859", "0.834", "1.91", "3.81"))
    swapped = _verdicts(HPO, _TABLE.format("0.834", "0.859", "1.91", "3.81"), "en")
    assert swapped["0.834"][0] == swapped["0.859"][0] == "mismatch"
    assert swapped["1.91"][0] == "verified"
    swapped = _verdicts(HPO, _TABLE.format("0.859", "0.834", "3.81", "1.91"), "en")
    assert swapped["3.81"][0] == swapped["1.91"][0] == "mismatch"


# A vendor's table: load times on NFS (the baseline) and on the new system.
LOAD = _index([(691.0, "s", ["表 2-1 模型加载时间", "DeepSeek-32B", "NFS 加载 (s)"], "DeepSeek-32B 691 112", "cell"),
               (112.0, "s", ["表 2-1 模型加载时间", "DeepSeek-32B", "FX100 加载 (s)"], "DeepSeek-32B 691 112", "cell")])  # fmt: skip


def test_the_baseline_a_sentence_names_is_the_number_it_is_compared_with() -> None:
    said = "Against an NFS baseline, DeepSeek-32B loaded in {} s instead of {} s [source: R3]."
    ok = _verdicts(LOAD, said.format(112, 691), "en")
    assert ok["112 s"][0] == ok["691 s"][0] == "verified"
    swapped = _verdicts(LOAD, said.format(691, 112), "en")
    assert swapped["691 s"][0] == swapped["112 s"][0] == "mismatch"


# A vendor's table: read bandwidth on the default path (the baseline) and with the patch.
READ = _index([(0.98, "GB/s", ["表 3-1 LMCache 读带宽", "默认读路径", "读带宽 (GB/s)"], "默认读路径 0.98", "cell"),
               (5.23, "GB/s", ["表 3-1 LMCache 读带宽", "并行读补丁", "读带宽 (GB/s)"], "并行读补丁 5.23", "cell")])  # fmt: skip


def test_from_and_to_take_the_sides_of_the_sentences_versus() -> None:
    said = "- LMCache: parallel-read patch vs. default read path: read bandwidth from {} GB/s to {} GB/s [source: R3]."
    ok = _verdicts(READ, said.format("0.98", "5.23"), "en")
    assert ok["0.98 GB/s"][0] == ok["5.23 GB/s"][0] == "verified"
    swapped = _verdicts(READ, said.format("5.23", "0.98"), "en")
    assert swapped["5.23 GB/s"][0] == swapped["0.98 GB/s"][0] == "mismatch"


def test_a_clauses_shared_lead_and_a_figure_naming_both_decide_nothing() -> None:
    # (the clause's lead before two numbers is both numbers' subject: it must not key the first alone)
    ok = _verdicts(READ, "在 LMCache 并行读补丁下把读带宽从 0.98 GB/s 提升至 5.23 GB/s【出处:R3】。")
    assert ok["0.98 GB/s"][0] == ok["5.23 GB/s"][0] == "verified"
    both = frozenset({"营收", "归母"})
    # a figure whose words are both numbers' (a sentence or a chart legend printing both) fits either equally
    assert crossed([(frozenset({"营收"}), [(both, frozenset())]), (frozenset({"归母"}), [(both, frozenset())])]) == []
    assert crossed([(frozenset({"营收"}), [(frozenset({"归母"}), frozenset())]),
                    (frozenset({"归母"}), [(frozenset({"营收"}), frozenset())])]) == [(0, 1)]  # fmt: skip


# A table of boiling points per group: min, max and average columns.
BOIL = _index([(-269.0, "°C", ["Noble gases", "min"], "Noble gases -269 -62 -170.5", "cell"),
               (-62.0, "°C", ["Noble gases", "max"], "Noble gases -269 -62 -170.5", "cell"),
               (-170.5, "°C", ["Noble gases", "avg"], "Noble gases -269 -62 -170.5", "cell")])  # fmt: skip


def test_between_names_the_lowest_then_the_highest_and_average_the_mean() -> None:
    said = "Noble gases boil between {} °C and {} °C, at {} °C on average [source: R3]."
    ok = _verdicts(BOIL, said.format(-269, -62, -170.5), "en")
    assert all(ok[t][0] == "verified" for t in ("-269 °C", "-62 °C", "-170.5 °C"))
    swapped = _verdicts(BOIL, said.format(-62, -269, -170.5), "en")
    assert swapped["-62 °C"][0] == swapped["-269 °C"][0] == "mismatch"
    swapped = _verdicts(BOIL, said.format(-269, -170.5, -62), "en")
    assert swapped["-170.5 °C"][0] == swapped["-62 °C"][0] == "mismatch"


# A broker's forecast table: one column per year.
EPS = _index([(6.02, "元", ["EPS(元)", "2025E"], "EPS(元) 5.87 6.02 6.26 6.52", "cell"),
              (6.26, "元", ["EPS(元)", "2026E"], "EPS(元) 5.87 6.02 6.26 6.52", "cell"),
              (6.52, "元", ["EPS(元)", "2027E"], "EPS(元) 5.87 6.02 6.26 6.52", "cell")])  # fmt: skip


def test_a_list_of_as_many_numbers_as_years_gives_each_its_year() -> None:
    said = "预计 2025-2027 年 EPS 分别为 {}/{}/{} 元【出处:R3】。"
    ok = _verdicts(EPS, said.format("6.02", "6.26", "6.52"))
    assert all(ok[t][0] == "verified" for t in ("6.02", "6.26", "6.52 元"))
    swapped = _verdicts(EPS, said.format("6.26", "6.02", "6.52"))
    assert swapped["6.26"][0] == swapped["6.02"][0] == "mismatch" and swapped["6.52 元"][0] == "verified"


def test_a_value_of_another_kinds_column_is_a_mismatch_naming_the_cell_of_its_kind() -> None:
    said = "Noble gases boil between -269 °C and {} °C, at -170.5 °C on average [source: R3]."
    moved = check_draft(parse_draft(f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n"
                                    f"{said.format(-170.5)}\n", "t.md"), BOIL).numbers  # fmt: skip
    highest = next(n for n in moved if n.text.strip() == "-170.5 °C")  # the first: the highest, by its words
    assert highest.status == "mismatch" and "says -62" in highest.message
    assert [n.status for n in moved if n.text.strip() == "-170.5 °C"][1] == "verified"  # the average is right


def test_a_bare_count_and_a_table_score_are_never_swapped() -> None:
    # The paper's prose says "6 layers"; its table scores OTSL 0.934 TEDs. A layer count and a score share no
    # dimension but "unitless": only two cells of one table are one kind of quantity.
    idx = _index([(6, "", ["5.2 Quantitative Results"], "we use 6 encoder and 6 decoder layers for OTSL and HTML", "prose"),
                  (0.934, "", [_CAP, "6", "6", "OTSL", "TEDs complex"], "6 6 0.934 0.927", "cell"),
                  (0.927, "", [_CAP, "6", "6", "HTML", "TEDs complex"], "6 6 0.934 0.927", "cell")])  # fmt: skip
    ok = _verdicts(idx, "In the 6-layer configuration OTSL scores 0.934 TEDs on complex tables, above HTML's 0.927 "
                        "[source: R3].", "en")  # fmt: skip
    assert ok["0.934"][0] == ok["0.927"][0] == "verified", ok
