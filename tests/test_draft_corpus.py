"""The offline drafter over every PDF of the test corpus, one brief each (tests/corpus/briefs/): QC-clean and dense.

A failure here is a drafter bug: the draft must pass its own QC with 0 errors, state enough checked figures, and keep
the reference's density (tools/bench_drafts.py measures the same drafts for docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from corpus_support import corpus_briefs, corpus_root

from pipeline.brief import load_brief
from pipeline.config import open_root
from pipeline.drafting.article import draft_article
from pipeline.drafting.lang import gist, restates
from pipeline.drafting.tables import report_groups
from qc.draft import read_draft

CHECKED = {"verified", "derived"}
MIN_FIGURES = 6
SENTENCE = re.compile(r"[^。!?!?]+[。!?!?]?|[^.!?]+(?:[.!?](?=\s|$))?")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return corpus_root(tmp_path_factory.mktemp("corpus-root"))


def _labelled(index: Any, ids: list[str]) -> int:
    """Figures the drafter may state: table cells and `label: value` lines that words name, outside the test bed."""
    seen = set()
    for rid in ids:
        for g in report_groups(index, rid):
            for f in [*g.facts, *(c.fig for r in g.rows for c in r.cells)]:
                seen.add(f.id)
    return len(seen)


@pytest.mark.parametrize("name", [p.stem for p in corpus_briefs()])
def test_corpus_draft_passes_its_own_qc_and_reads_like_the_reference(corpus: Any, name: str) -> None:
    brief_path = corpus.path / "articles" / f"{name}.yaml"
    brief = load_brief(brief_path)
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    result = outcome.result
    assert result is not None
    assert result.errors() == [], [(n.text, n.status, n.sentence[:80], n.message[:120]) for n in result.errors()]
    checked = [n for n in result.numbers if n.status in CHECKED]
    available = _labelled(corpus.index, list(brief.evidence))
    # Six checked figures, or (a report that prints fewer nameable figures) at least half of what it has.
    assert len(checked) >= min(MIN_FIGURES, available // 2), (len(checked), available)
    _assert_density(read_draft(outcome.path), result)


def _assert_density(draft: Any, result: Any) -> None:
    # The direct answer: two to four key figures (or none when the reports hold none); a row's keys (`batch 4`,
    # `Count 4735`) name where a figure was measured, they are no key figures (as tools/bench_drafts.py counts).
    answer = [n for n in result.numbers if n.field == "answer" and n.status in CHECKED and n.strength != "row key"]
    assert len(answer) <= 4, [n.text for n in answer]
    # No sentence (list item, table row) states more than six figures: one comparison each. Names QC exempts (a
    # version `v2.0`, a percentile `p50`, the citation's report id) are no figures, as in tools/bench_drafts.py.
    per_sentence = Counter((n.field, n.sentence) for n in result.numbers if n.status != "exempt")
    assert max(per_sentence.values(), default=0) <= 6, per_sentence.most_common(1)
    # A key-point answer is at most three sentences.
    for item in draft.meta.faq:
        assert len([s for s in SENTENCE.findall(item.a) if s.strip(" 。.")]) <= 3, item.a
    # A comparison over more than four rows is a table, not a list: no list runs longer than eight items,
    # and a table shows at most ten rows.
    runs = re.findall(r"(?:^- .*\n)+", draft.body, re.MULTILINE)
    assert all(run.count("\n") <= 8 for run in runs), max(runs, key=len)
    for table in re.findall(r"(?:^\|.*\|\n)+", draft.body, re.MULTILINE):
        assert table.count("\n") - 2 <= 10
    # No sentence repeats another.
    sentences = [
        re.sub(r"【[^】]*】|\[source:[^\]]*\]|\s+", "", s)
        for text in [draft.meta.answer, *(i.a for i in draft.meta.faq), draft.body]
        for line in text.splitlines()
        if not line.startswith(("#", "|"))
        for s in SENTENCE.findall(line.removeprefix("- "))
    ]
    counts = Counter(t for s in sentences if len(t := re.sub(r"[。.:: ]+$", "", s)) > 8)
    assert max(counts.values(), default=1) == 1, counts.most_common(2)
    # Nor in other words: the body never states the same numbers again with no word of its own (`GoogleNet 从
    # 1388 ms 降至 498 ms` and `变化最大的是:GoogleNet 从 1388 ms 降至 498 ms`, C16).
    body = [
        s
        for line in draft.body.splitlines()
        if line.strip() and not line.startswith(("#", "|"))
        for s in SENTENCE.findall(re.sub(r"【[^】]*】|\[source:[^\]]*\]", "", line.removeprefix("- ")))
    ]
    told: list[Any] = []
    for s in body:
        mine = gist(s)
        assert not any(restates(mine, theirs) for theirs in told), s
        told.append(mine)


@pytest.mark.parametrize(
    "name, printed",
    [
        # O5 (office/kv_list_en.pdf p.1): the peak bandwidth and the random-read IOPS the two questions ask.
        ("c29-office-flash-array", ["5.23 GB/s", "1,250,000 IOPS"]),
        # C1 (p.5, table 6): the read_perf peak and the p99 span the second question asks (one sentence held one).
        ("c1-store-read-bandwidth", ["1399.08 MiB/s", "0.380–93.267 ms"]),
        # O4 (office/continued_en.pdf): batch 16's p99 (Table 5, p.1) and the restore time of Table 6 (12.5 → 4.1 s,
        # last page); `p99` names the figure, it is none (the answer held the first only).
        ("c28-office-decode-en", ["23.22 ms", "12.5 s", "4.1 s"]),
    ],
)
def test_the_direct_answer_carries_the_questions_key_figures(corpus: Any, name: str, printed: list[str]) -> None:
    brief = load_brief(corpus.path / "articles" / f"{name}.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    answer = outcome.draft.meta.answer
    assert all(p in answer for p in printed), answer
    keys = [n for n in outcome.result.numbers if n.field == "answer" and n.status in CHECKED]
    assert 2 <= len([n for n in keys if n.strength != "row key"]) <= 4, [n.text for n in keys]


def test_the_failing_case_of_issue_16_answers_with_the_bandwidth(corpus: Any) -> None:
    """`峰值读带宽出现在什么配置?` over the Mooncake Store report: the read_perf peak, never the GPU's 24 GB."""
    brief = load_brief(corpus.path / "articles" / "c1-store-read-bandwidth.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    section = outcome.draft.body.split("## 峰值读带宽出现在什么配置?")[1].split("\n## ")[0]
    assert "1399.08 MiB/s" in section and "1MB" in section  # the peak and where it occurs (table 6 of the PDF)
    assert "24 GB" not in outcome.path.read_text(encoding="utf-8")


def test_english_brief_over_a_chinese_report_states_its_figures(corpus: Any) -> None:
    """English questions meet Chinese labels through the glossary: `non-performing loan ratio` ↔ `不良贷款率`."""
    brief = load_brief(corpus.path / "articles" / "c8-bank-metrics-en.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    section = outcome.draft.body.split("## How does the non-performing loan ratio develop?")[1].split("\n## ")[0]
    assert "0.95%" in section and "0.92%" in section  # 不良贷款率 2024A and 2026E as the PDF prints them


def test_every_corpus_pdf_has_a_brief() -> None:
    import yaml
    from corpus_support import BRIEFS, CORPUS

    registry = yaml.safe_load((BRIEFS / "reports.yaml").read_text(encoding="utf-8"))["reports"]
    # Every PDF of the corpus, the office-made ones (tests/corpus/office/) included.
    pdfs = [*CORPUS.glob("*.pdf"), *(CORPUS / "office").glob("*.pdf")]
    assert sorted(e["file"] for e in registry) == sorted(p.relative_to(CORPUS).as_posix() for p in pdfs)
    cited = {rid for p in corpus_briefs() for rid in load_brief(p).evidence}
    assert cited == {e["id"] for e in registry}
    assert any(load_brief(p).lang == "en" for p in corpus_briefs()) and any(
        load_brief(p).lang == "zh" for p in corpus_briefs()
    )


def test_llm_prompt_over_a_large_report_carries_the_selected_figures_only(corpus: Any) -> None:
    """The 50-page device test report holds thousands of figures; the prompt carries those chosen per question."""
    from pipeline.drafting.prompts import build_messages

    brief = load_brief(corpus.path / "articles" / "c13-device-test-en.yaml")
    (_, _), (_, user) = build_messages(brief, corpus.index)
    lines = [ln for ln in user.splitlines() if ln.count(" | ") >= 7 and not ln.startswith("figure |")]
    total = len(corpus.index.figures["C13"])
    assert 0 < len(lines) < total / 10, (len(lines), total)
    assert all(f"# question {i}" in user for i in range(1, len(brief.questions) + 1))


def _section(corpus: Any, slug: str, question: str) -> str:
    brief = load_brief(corpus.path / "articles" / f"{slug}.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    assert outcome.ok, outcome
    return outcome.draft.body.split(f"## {question}")[1].split("\n## ")[0]


def test_a_test_bed_question_is_answered_from_the_spec_list(corpus: Any) -> None:
    """`测试环境是什么配置?` over O10: the `1 Test setup` list (p.1 of the PDF), never a results table."""
    section = _section(corpus, "c35-office-landscape-columns", "测试环境是什么配置?")
    for printed in ("96 GB", "1.5 TB", "2 × 200 Gb/s", "4 × 3.84 TB"):
        assert printed in section, section
    assert "tok/s" not in section and "ms" not in section
    # An English brief over a Chinese report: O9's `1. 测试环境` list, its labels in English.
    section = _section(corpus, "c34-office-merged-header-en", "What hardware was tested?")
    assert "256 GB" in section and "7.68 TB" in section and "Cache" in section, section
    assert "MB/s" not in section and "µs" not in section
    # A console-made report (C25, iText): the CPU line of its hardware table (p.3), not dbench's AvgLat.
    section = _section(corpus, "c33-curvefs-iozone", "测试用了什么硬件?")
    assert "2.40GHz" in section and "AvgLat" not in section, section


def test_a_console_table_answers_by_its_own_headers(corpus: Any) -> None:
    """C25: dbench prints latencies bare under `AvgLat`, iozone its throughput in kB/sec (pp. 6, 8–9 of the PDF)."""
    section = _section(corpus, "c33-curvefs-iozone", "dbench 中哪些元数据操作延迟最高?")
    assert "Rename" in section and "422.706" in section, section  # the highest AvgLat
    assert "0.000001" not in section  # iozone's timer resolution is no latency
    section = _section(corpus, "c33-curvefs-iozone", "iozone 测试中 CurveFS 的读写吞吐是多少?")
    assert "91503.61 KB/s" in section and "167221.64 KB/s" in section, section  # initial writers, readers
    assert "1048576.00" not in section  # `Min xfer` is a size, not a throughput
    assert section.count("91503.61") == 1  # Min/Max/Avg per process repeat the same reading: told once


def test_a_question_naming_a_section_system_reads_that_section(corpus: Any) -> None:
    """C3: section 4 is ACL, section 5 OpenBLAS; the lowest OpenBLAS total is Table 5.3's 168 ms/frame (p.11)."""
    section = _section(corpus, "c3-rk3399-face-en", "What is the lowest total time per frame with OpenBLAS?")
    lead = section.strip().splitlines()[0]
    assert "168 ms/frame" in lead and "Two A72" in lead, lead
    assert "1110 ms/frame" not in section  # Table 4.1 is ACL's


def test_a_comparison_question_gives_the_change_and_its_support(corpus: Any) -> None:
    """O10 Table 2: v2.0 against v1.2, throughput 10,480 → 15,120 tok/s (+44.3%), with the table's TTFT beside it."""
    section = _section(corpus, "c35-office-landscape-columns", "v2.0 相比 v1.2 吞吐提升了多少?")
    lead = section.strip().splitlines()[0]
    assert "10,480" in lead and "15,120" in lead and "44.3%" in lead, lead
    assert "1,410" in section and "948" in section  # TTFT p99 of the same comparison
    assert section.count("15,120") == 1  # the report's prose sentence restating it is not told again


def test_a_section_shows_the_table_holding_its_answer_not_every_table(corpus: Any) -> None:
    """C3 prints one table per core set (section 5, OpenBLAS, pp. 10–12): the lowest total is Table 5.3's 168
    ms/frame; Table 5.1's Single A53 totals (1205 ms/frame, p.10) answer no question asked here."""
    section = _section(corpus, "c3-rk3399-face-en", "What is the lowest total time per frame with OpenBLAS?")
    assert "168 ms/frame" in section and "317 ms/frame" in section, section  # Table 5.3, p.12
    assert "1205 ms/frame" not in section and section.count("\n|---") == 1, section


def test_a_question_naming_a_row_gets_that_row_not_the_continued_table(corpus: Any) -> None:
    """O4 (office/continued_en.pdf): Table 5 runs over pages; `batch 16` is p99 23.22 ms, p50 16.80 ms (p.1). The
    table's rows continued on the next page (batch 22 to 29) are no answer to a question about batch 16."""
    section = _section(corpus, "c28-office-decode-en", "What is the p99 latency at batch 16?")
    assert "23.22 ms" in section and "16.80 ms" in section, section
    assert "Batch 22" not in section and "|---|" not in section, section


def test_what_the_direct_answer_cannot_state_stays_in_its_section(corpus: Any) -> None:
    """C9 表 7-2 (p.1): 剩余额度 runs from 0.00 (中信银行 …) to 192,000.00 万元 (兴业银行盐城分行). QC could not back the
    span beside another question's bank in the direct answer; that leaves it out of the answer, not out of the
    section that states it under its own question."""
    section = _section(corpus, "c9-credit-lines", "各银行的剩余额度是多少?")
    assert "0.00–192,000.00 万元" in section.strip().splitlines()[0], section


def test_a_table_lead_qc_cannot_back_is_left_out_by_the_self_check(corpus: Any, monkeypatch: Any) -> None:
    """The self-check leaves out any sentence QC rejects, a table's lead too. C26 (p.2 `不同负载下的性能测试`) is
    led by its columns (its caption leads another question's table); a figure the report does not hold, put into
    that lead, must leave the lead (and its table) out, not fail QC (a trial draft failed on a section number)."""
    from pipeline.drafting.lang import Lang

    real = Lang.__call__
    planted = "123.45 GB/s"  # not in C26 (a hot-word counter's report, times in seconds and lines per second)

    def call(self: Lang, key: str, **kw: Any) -> str:
        text = real(self, key, **kw)
        return f"{text} at {planted}" if key == "table_lead_cols" and kw.get("topic") else text

    monkeypatch.setattr(Lang, "__call__", call)
    brief = load_brief(corpus.path / "articles" / "c36-yatha-throughput-en.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    assert outcome.result is not None
    assert outcome.result.errors() == [], [(n.text, n.sentence[:80]) for n in outcome.result.errors()]
    assert planted not in outcome.draft.body
    checked = [n for n in outcome.result.numbers if n.status in CHECKED]
    assert len(checked) >= MIN_FIGURES  # the rest of the draft stands


def test_a_condition_the_question_names_picks_the_rows_measured_under_it(corpus: Any) -> None:
    """C26 p.7 (`B. 吞吐量分析`): the row of 59,656 行 is `input3_x4 (4x)`, 7.05s in total, 13,527 行/秒 of real
    throughput; not the range over every load of p.6's table (`2.94–7.05 s`), nor the TopK or window sweeps."""
    section = _section(corpus, "c38-yatha-load-sizes", "处理 59,656 行数据的总耗时是多少?")
    assert "7.05s" in section and "–" not in section and "TopK" not in section, section
    section = _section(corpus, "c38-yatha-load-sizes", "4 倍数据集的实际吞吐量是多少?")
    assert "13,527" in section and "5,925" not in section, section  # not the 1/8 load's 5,925 行/秒


def test_a_question_asking_how_many_times_gets_a_factor(corpus: Any) -> None:
    """O7 (office/grid_tables_zh.pdf, 表 2-1): 64K 首字延迟 14.80 s → 3.96 s with the external cache, 3.7 times as
    fast (14.80 / 3.96 = 3.74); the table prints `降幅 73.2%`, which does not tell `几倍`."""
    import yaml

    brief = {
        "slug": "o7-how-many-times",
        "title": "外存缓存让首字延迟快了几倍?",
        "lang": "zh",
        "tags": ["KV cache"],
        "evidence": ["O7"],
        "audience": "推理平台工程师",
        "brief": "用 O7 的实测说明外存缓存对长上下文首字延迟的加速。",
        "questions": ["开启外存缓存后 64K 上下文的首字延迟快了几倍?"],
        "faq_count": 1,
    }
    (corpus.path / "articles" / "o7-how-many-times.yaml").write_text(yaml.safe_dump(brief, allow_unicode=True))
    section = _section(corpus, "o7-how-many-times", brief["questions"][0])
    assert "14.80 s" in section and "3.96 s" in section and "3.7 倍" in section, section
    assert "73.2%" not in section, section
    outcome = draft_article(
        load_brief(corpus.path / "articles" / "o7-how-many-times.yaml"), open_root(corpus.path), corpus.index
    )
    factor = [n for n in outcome.result.numbers if n.text.startswith("3.7")]
    assert factor and all(n.status in CHECKED for n in factor), [(n.text, n.status) for n in factor]


def test_an_item_joining_comparisons_said_already_is_not_listed_again(corpus: Any) -> None:
    """C21: the third question's table states AlexNet's and GoogleNet's times, which the first section told (lead and
    item): a scenario's item joining them (`AlexNet from 577.30 ms …; GoogleNet from 566.70 ms …`) says nothing new."""
    brief = load_brief(corpus.path / "articles" / "c21-mxnet-hrt-en.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    told: list[Any] = []
    for line in outcome.draft.body.splitlines():
        if not line.strip() or line.startswith(("#", "|")):
            continue
        plain = re.sub(r"【[^】]*】|\[source:[^\]]*\]", "", line.removeprefix("- "))
        clauses = [gist(c) for c in plain.split("; ")] if line.startswith("- ") else []
        assert not (len(clauses) > 1 and all(any(restates(c, t) for t in told) for c in clauses)), line
        told += [gist(s) for s in SENTENCE.findall(plain)] + clauses


def test_a_key_point_answer_with_room_for_one_comparison_takes_a_scenarios_first(corpus: Any) -> None:
    """O12: the version question's item joins TPS and response time (six numbers); the key-point answer, with room
    for one comparison beside its headline, states the TPS one with its change (`45.6% higher`, 5,020 → 7,310)."""
    brief = load_brief(corpus.path / "articles" / "c44-nx-proxy-versions-en.yaml")
    outcome = draft_article(brief, open_root(corpus.path), corpus.index, redraft=True)
    assert "45.6%" in outcome.draft.meta.faq[0].a, outcome.draft.meta.faq[0].a
