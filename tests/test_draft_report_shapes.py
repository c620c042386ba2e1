"""Drafter over report shapes met in reports the project had not seen: contents lists, bullet glyphs, labels."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from pipeline.brief import Brief
from pipeline.drafting.offline import write_offline
from pipeline.drafting.tables import report_groups
from qc.index import EvidenceIndex


def _index(figs: list[tuple[str, float, str, list[str], str, str]]) -> EvidenceIndex:
    """A one-report index (`T1`) from (raw, value, unit, labels, quote, kind) rows; the page text is the quotes."""
    figures = [
        Figure(id=f"t1fig{i:011d}", report="T1", page=1, value=v, unit=u, raw=raw, labels=lbl, quote=q, kind=k)  # type: ignore[arg-type]
        for i, (raw, v, u, lbl, q, k) in enumerate(figs)
    ]
    text = "\n".join(dict.fromkeys(q for *_, q, _ in figs))
    report = Report(id="T1", title="Test report", date=dt.date(2026, 1, 1), access="public", file="T1.pdf",  # type: ignore[arg-type]
                    sha256="a" * 64, version=1, pages=1)  # fmt: skip
    return EvidenceIndex(
        reports={"T1": report}, figures={"T1": figures}, pages={"T1": [Page(report="T1", version=1, page=1, text=text)]}
    )


def _brief(lang: str, *questions: str) -> Brief:
    return Brief(slug="t", title="Measured", lang=lang, evidence=["T1"], audience="engineers",
                 brief="What the report measured.", questions=list(questions), faq_count=len(questions))  # fmt: skip


def test_a_list_of_figures_is_no_table_of_results() -> None:
    # The last page of a report lists its figures: number, title, dot leader, page (`… (w/ robinhood) . . 10`).
    # Those numbers are figure and page numbers: never stated as `ops/sec … 11 10`.
    sec = "1.10.3 Summary"
    lines = [
        ("2", "ops/sec 8B k&v fillrandom MT engines (w/ robinhood) . . . . .", "6"),
        ("11", "ops/sec 8B k&v readwhilewriting MT engines (w/ robinhood) . .", "10"),
        ("12", "Latency P99.9 8B k&v fillrandom MT engines (w/ robinhood) .", "11"),
        ("16", "ops/sec 8B keys fillrandom Single Thread . . . . . . . . . . . . .", "13"),
    ]
    figs = []
    for num, title, page in lines:
        quote = f"{num} {title} {page}"
        figs.append((page, float(page), "", [title, sec], quote, "cell"))
        figs.append((num, float(num), "", [num, title, sec], quote, "cell"))
    # …beside a real result of the same report, which the section still states.
    figs.append(("2.1", 2.1, "Mops/s", ["robinhood readrandom throughput", "1.8 MT engines"],
                 "robinhood readrandom throughput: 2.1 Mops/s", "kv"))  # fmt: skip
    idx = _index(figs)
    assert [g.section for g in report_groups(idx, "T1")] == ["1.8 MT engines"]
    content = write_offline(_brief("en", "Which engine performs best?"), idx)
    said = " ".join(s.text for sec_ in content.sections for s in [*sec_.intro, *sec_.items])
    assert "2.1 Mops/s" in said and " 11 10" not in said and ". ." not in said, said


def test_a_bullet_glyph_is_no_part_of_a_label() -> None:
    # A symbol font's bullet comes out of the PDF as U+007F (or a private-use code point, or `➢`): the label is
    # the words after it, as the reader sees them.
    figs = [
        ("12.70", 12.70, "s", ["\x7f Average Response Time"], "\x7f Average Response Time: 12.70 seconds", "kv"),
        ("0.23", 0.23, "MB", ["\uf0b7 Average Memory Usage"], "\uf0b7 Average Memory Usage: 0.23 MB", "kv"),
        ("24.46", 24.46, "s", ["➢ Longest Response Time"], "➢ Longest Response Time: 24.46 seconds", "kv"),
    ]
    content = write_offline(_brief("en", "How fast does the model respond?"), _index(figs))
    said = [s.text for sec in content.sections for s in [*sec.intro, *sec.items]] + [s.text for s in content.answer]
    assert any("Average Response Time" in t for t in said), said
    assert not any(c in t for t in said for c in "\x7f\uf0b7➢"), said


def test_a_column_without_or_before_the_feature_is_the_baseline() -> None:
    # `缓存前 | 缓存后` and `无负载均衡 | 负载均衡` (an ApacheBench report's tables): the first column is what the
    # second improves on, named by the table's own words; `无形资产` beside `营业收入` names no baseline.
    def table(cols: tuple[str, str], sec: str, rows: list[tuple[str, str, str, str]]) -> list:
        out = []
        for metric, unit, a, b in rows:
            quote = f"{metric} {a} {b}"
            out += [(v, float(v), unit, [metric, col, sec], quote, "cell") for col, v in zip(cols, (a, b), strict=True)]
        return out

    figs = table(("缓存前", "缓存后"), "二、缓存后的性能", [("Times per request(ms)", "ms", "1131.065", "646.037")])
    figs += table(
        ("无负载均衡", "负载均衡"), "三、服务器数量", [("Transfer rate(Kb/s)", "Kb/s", "14365.72", "26161.85")]
    )
    figs += table(("营业收入", "无形资产"), "四、财务", [("2022E(百万元)", "百万元", "3684", "56")])
    groups = {g.section: g for g in report_groups(_index(figs), "T1")}
    (cache,) = groups["二、缓存后的性能"].comparisons
    assert (cache.before.raw, cache.after.raw) == ("1131.065", "646.037")
    (balanced,) = groups["三、服务器数量"].comparisons
    assert (balanced.before.raw, balanced.after.raw) == ("14365.72", "26161.85")
    assert groups["四、财务"].comparisons == []


def test_a_test_bed_of_part_counts_answers_the_hardware_question() -> None:
    # Intel's pmemkv report lists its platform as counts (`Cores per CPU 28`, `Total CPU Threads 112`): the
    # hardware question is answered with them, not with "no measurement".
    sec = "1.4 Test Setup"
    figs = [
        ("28", 28.0, "", ["Cores per CPU", sec], "Cores per CPU 28", "cell"),
        ("112", 112.0, "", ["Total CPU Threads", sec], "Total CPU Threads 112", "cell"),
        ("3", 3.0, "", ["Runs", sec], "Runs 3", "cell"),  # a count of no part: no spec of the test bed
        (
            "2.1",
            2.1,
            "Mops/s",
            ["robinhood readrandom throughput", "1.8 Results"],
            "robinhood readrandom throughput: 2.1 Mops/s",
            "kv",
        ),
    ]
    content = write_offline(_brief("en", "What hardware was the test run on?"), _index(figs))
    said = " ".join(s.text for s in [*content.sections[0].intro, *content.sections[0].items])
    assert "Cores per CPU 28" in said and "Total CPU Threads 112" in said and "Runs" not in said, said


def test_a_date_is_no_figure() -> None:
    # `Testing date: 04/01/2021` is read as the figures 04 and 01: a date, never stated as `Testing date 04`.
    figs = [
        ("04", 4.0, "", ["Testing date"], "Testing date: 04/01/2021", "kv"),
        ("01", 1.0, "", ["Testing date"], "Testing date: 04/01/2021", "kv"),
        (
            "2.1",
            2.1,
            "Mops/s",
            ["robinhood readrandom throughput"],
            "robinhood readrandom throughput: 2.1 Mops/s",
            "kv",
        ),
    ]
    (g,) = report_groups(_index(figs), "T1")
    assert [f.raw for f in g.facts] == ["2.1"]


def test_a_table_goes_to_the_question_sharing_its_words_not_only_its_kind() -> None:
    # An airline-dataset benchmark: the ingest table (PostgreSQL | MongoDB) and the query table (PG | Neo4j), both
    # of times. "How much faster is MongoDB at loading?" asks for a time, yet shares no word with the query table:
    # that table answers "When does Neo4j beat PostgreSQL?".
    from pipeline.drafting.select import select

    def cells(sec: str, cols: tuple[str, str], rows: list[tuple[str, str, str]]) -> list:
        out = []
        for name, a, b in rows:
            out += [
                (v, float(v), "s", [name, col, sec], f"{name} {a} s {b} s", "cell")
                for col, v in zip(cols, (a, b), strict=True)
            ]
        return out

    figs = cells("3.2 Ingesta", ("PostgreSQL", "MongoDB"), [("Global", "8.647", "0.368"), ("2023", "4.283", "0.201")])
    figs += cells(
        "5.5 Consultas", ("PG (s)", "Neo4j (s)"), [("C5 shortestPath", "300", "0.017"), ("C6 paths", "29.376", "2.761")]
    )
    brief = _brief(
        "en", "How much faster is MongoDB than PostgreSQL at loading the data?", "When does Neo4j beat PostgreSQL?"
    )
    picks = select(brief, _index(figs))
    assert [p.group.section for p in picks[0]] == ["3.2 Ingesta"]
    assert "5.5 Consultas" in [p.group.section for p in picks[1]]


def test_a_ratio_column_keeps_its_denominator() -> None:
    # `PG/BQ` (PostgreSQL's time over BigQuery's) is no metric `PG` in a unit `BQ`: the item says `PG/BQ 0.01x`.
    from pipeline.drafting.tables import _strip_unit

    assert _strip_unit("PG/BQ") == "PG/BQ"
    assert _strip_unit("延迟/ms") == "延迟" and _strip_unit("Latency (ms)") == "Latency"
    sec = "4.5 Resultados de consultas"
    figs = [
        (raw, float(raw), unit, ["Q1", "Boletos por mes", col, sec], "Q1 Boletos por mes 0.023 s 1.552 s 0.01×", "cell")
        for raw, unit, col in [("0.023", "s", "PG óptimo"), ("1.552", "s", "BigQuery"), ("0.01", "x", "PG/BQ")]
    ]
    content = write_offline(_brief("en", "Is PostgreSQL or BigQuery faster on the aggregate queries?"), _index(figs))
    said = " ".join(s.text for sec_ in content.sections for s in [*sec_.intro, *sec_.items])
    assert "PG 0.01x" not in said, said


def test_a_quoted_markdown_list_item_is_no_heading() -> None:
    # A benchmark report quoting a model's answer: `4. **Exam Date: April 10, 2025 (Online)**` is a line of that
    # answer, never the heading a section's list is introduced by (`**Exam Date…**的实测数据如下`).
    from pipeline.drafting.tables import HEADING

    assert not HEADING.match("4. **Exam Date: April 10, 2025 (Online)**")
    assert HEADING.match("4.1 Results") and HEADING.match("二、缓存后的性能")
    item = "4. **Exam Date: April 10, 2025 (Online)**"
    figs = [("0.10", 0.10, "MB", ["Average Memory Usage", item], "Average Memory Usage: 0.10 MB", "kv")]
    (g,) = report_groups(_index(figs), "T1")
    assert g.section == ""


def test_a_question_about_caching_finds_the_cache_table() -> None:
    # `caching` (stemmed `cach`) is the labels' `cache`: the cache table answers, not every table of times.
    from pipeline.drafting.select import ask, select

    assert "cache" in ask("How much does caching cut the time per request?", {}).terms
    figs = []
    for sec, cols, (a, b) in [
        ("2 Page cache", ("without cache", "cache"), ("1131.065", "646.037")),
        ("3 Load balance", ("one server", "two servers"), ("1071.595", "524.43")),
    ]:
        quote = f"Times per request (ms) {a} {b}"
        figs += [
            (v, float(v), "ms", ["Times per request (ms)", c, sec], quote, "cell")
            for c, v in zip(cols, (a, b), strict=True)
        ]
    picks = select(_brief("en", "How much does caching cut the time per request?"), _index(figs))
    assert [p.group.section for p in picks[0]] == ["2 Page cache"]


def test_an_article_is_no_baseline() -> None:
    # "…than a dual-core 8 GB one": the baseline is the dual-core machine, never a system called `a`.
    from pipeline.drafting.select import ask

    q = "How much more requests per second does a quad-core 16 GB machine handle than a dual-core 8 GB one?"
    assert ask(q, {}).baseline == "dual-core"
    assert ask("Is platform B faster than A?", {}).baseline == "A"  # (a one-letter name stays one)
    assert ask("How much faster is it than an NFS mount?", {}).baseline == "NFS"
