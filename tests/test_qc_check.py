"""QC verdicts against the example reports' figures: statuses, scopes, derivations, context, positions (zh and en)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from evidence.errors import InputError
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult, NumberCheck

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import qc_accuracy


@pytest.fixture(scope="module")
def index() -> EvidenceIndex:
    return qc_accuracy.load_index()


def draft(body: str, *, lang: str = "zh", answer: str = "见正文。", faq: str = "", evidence: str = "[R1, R2, R9]",
          title: str = "KV Cache 与存储") -> str:  # fmt: skip
    return (
        f"---\ntitle: {title}\nlang: {lang}\ndate: 2026-07-10\nevidence: {evidence}\nanswer: {answer}\n{faq}---\n{body}"
    )


def check(text: str, index: EvidenceIndex, **kw: object) -> FileResult:
    return check_draft(parse_draft(text, "articles/t.md"), index, **kw)  # type: ignore[arg-type]


def find(result: FileResult, text: str, nth: int = 0) -> NumberCheck:
    hits = [n for n in result.numbers if n.text == text]
    assert len(hits) > nth, (text, [(n.text, n.status) for n in result.numbers])
    return hits[nth]


@pytest.mark.parametrize("path", sorted((qc_accuracy.CORPUS / "clean").glob("*.md")), ids=lambda p: p.name)
def test_clean_articles_check_clean(path: Path, index: EvidenceIndex) -> None:
    result = check_draft(parse_draft(path.read_text(encoding="utf-8"), path), index)
    assert result.ok, [(n.line, n.text, n.status, n.message) for n in result.errors()]
    assert result.summary["verified"] > 20
    assert sum(result.summary.values()) == len(result.numbers)


def test_reference_style_claims_verify_as_the_issue_requires(index: EvidenceIndex) -> None:
    text = (qc_accuracy.CORPUS / "clean" / "kv-zh.md").read_text(encoding="utf-8")
    r = check(text, index)
    rng = find(r, "26–32%", 2)  # the list item, cited through the intro paragraph
    assert rng.status == "verified" and rng.cited == ["R2"]
    assert "26.0%" in rng.message and "32.0%" in rng.message
    assert find(r, "约 18 倍").source.value == 18.3  # type: ignore[union-attr]
    assert find(r, "178s").status == find(r, "94s").status == find(r, "1.9 倍", 1).status == "verified"
    assert find(r, "6.2–9.3 倍").status == "verified"
    assert find(r, "约 10 周").status == find(r, "≥25%").status == find(r, "72h").status == "verified"
    assert find(r, "29.8K token", 1).source.value == 29800  # type: ignore[union-attr]
    term = find(r, "4 盘")
    assert term.status == "verified" and term.source and term.source.report == "R1"
    assert find(r, "32B", 1).status == "verified" and any(t.text == "DeepSeek-32B" for t in r.terms)
    assert find(r, "TP4×2").status == "exempt" and find(r, "R2").status == "exempt"


def test_statuses_and_messages(index: EvidenceIndex) -> None:
    body = (
        "FX100 将 TTFT p50 从 10.17s 降至 7.35s【出处:R2 实测】。\n\n"  # changed digits
        "DeepSeek-32B 从 691s 降至 112s【出处:R2 实测】。\n\n"  # cites the wrong report
        "FX100 将 P99 排队时延缩短了 57%【出处:R2 实测】。\n\n"  # no report has it
        "吞吐从 52.4 tok/s 提升至 67.6 tok/s,提升 29%【出处:R2 实测】。\n"
    )
    r = check(draft(body), index)
    assert not r.ok
    changed = find(r, "7.35s")
    assert changed.status == "mismatch" and changed.severity == "error"
    assert changed.message.startswith("R2 p.2 says 7.53 s") and "FX100 TTFT" in changed.message
    assert changed.source and changed.source.value == 7.53
    wrong = find(r, "691s")
    assert wrong.status == "uncited" and "R9" in wrong.message and wrong.cited == ["R2"]
    assert find(r, "57%").status in ("unsupported", "mismatch")
    assert find(r, "29%").status == "verified"
    assert find(r, "32B").status == "uncited"  # the model name is R9's text, not R2's
    assert r.summary["uncited"] == 3 and r.summary["exempt"] >= 4


def test_scope_sentence_then_paragraph_then_list_intro(index: EvidenceIndex) -> None:
    body = (
        "快照 65.6GB。保存时间从 178s 降至 94s【出处:R1 实测】。\n\n"  # paragraph scope reaches the first sentence
        "实测如下【出处:R9 实测】:\n\n- DeepSeek-32B 从 691s 降至 112s。\n- 加速 6.2 倍。\n\n"  # list inherits intro
        "| 模型 | NFS 加载 (s) |\n|---|---|\n| DeepSeek-70B | 1399 |\n\n表格没有出处。\n\n"  # a table with no citation
        "无出处的句子:吞吐 52.4 tok/s。\n"
    )
    r = check(draft(body), index)
    assert find(r, "65.6GB").cited == ["R1"] and find(r, "65.6GB").status == "verified"
    assert find(r, "691s").cited == ["R9"] and find(r, "6.2 倍").status == "verified"
    cell = find(r, "1399")
    assert cell.cited == [] and cell.status == "uncited" and "R9" in cell.message
    assert find(r, "52.4 tok/s").status == "uncited"


def test_table_or_list_without_a_source_takes_the_paragraph_right_after_it(index: EvidenceIndex) -> None:
    body = (
        "## 加载\n\n| 模型 | NFS 加载 (s) |\n|---|---|\n| DeepSeek-70B | 1399 |\n\n上表为 NFS 基线【出处:R9 实测】。\n\n"
        "## 保存\n\n- 基线 178s;\n- FX100 94s。\n\n以上为保存时间【出处:R1 实测】。\n\n"
        "## 其他\n\n| 模型 | NFS 加载 (s) |\n|---|---|\n| DeepSeek-32B | 691 |\n\n## 下一节\n\n见 R9【出处:R9 实测】。\n"
    )
    r = check(draft(body), index)
    assert find(r, "1399").cited == ["R9"] and find(r, "1399").status == "verified"
    assert find(r, "94s").cited == ["R1"] and find(r, "94s").status == "verified"
    assert find(r, "691").status == "uncited"  # a heading between: the next section's source is not the table's


def test_table_without_a_source_takes_the_reports_every_item_of_the_list_after_it_cites(index: EvidenceIndex) -> None:
    # A table under its heading, then bullets on its rows, each citing R9: the table's numbers are R9's.
    table = "| 模型 | NFS 加载 (s) |\n|---|---|\n| DeepSeek-70B | 1399 |\n\n"
    body = (
        f"## 加载\n\n{table}- DeepSeek-32B 从 691s 降至 112s【出处:R9 实测】。\n- 加速 6.2 倍【出处:R9 实测】。\n\n"
        f"## 混合\n\n{table}- DeepSeek-32B 从 691s 降至 112s【出处:R9 实测】。\n- 保存 94s【出处:R1 实测】。\n\n"
        f"## 部分\n\n{table}- DeepSeek-32B 从 691s 降至 112s【出处:R9 实测】。\n- 没有出处。\n"
    )
    r = check(draft(body), index)
    assert find(r, "1399").cited == ["R9"] and find(r, "1399").status == "verified"
    # items citing different reports, or one item citing none, name no source of the table
    assert find(r, "1399", 1).status == "uncited" and find(r, "1399", 2).status == "uncited"
    assert find(r, "94s").status == "verified" and find(r, "6.2 倍").status == "verified"


def test_front_matter_uses_the_evidence_list_unless_a_marker_decides(index: EvidenceIndex) -> None:
    faq = "faq:\n  - q: 会话多大?\n    a: 29.8K token 的会话约 7.15 GB。\n  - q: 加载?\n    a: 加速 6.2 倍【出处:R1 实测】。\n"
    r = check(draft("正文。\n", answer="TTFT 降低 26–32%,吞吐提升 29–40%。", faq=faq), index)
    assert find(r, "26–32%").cited == ["R1", "R2", "R9"] and find(r, "26–32%").status == "verified"
    assert find(r, "29.8K token").status == "verified"
    assert find(r, "6.2 倍").status == "uncited"  # its own marker names R1, which lacks it


def test_derivations_show_their_formula(index: EvidenceIndex) -> None:
    body = (
        "并发 8 档 p50 下 TTFT 从 10.17s 降至 7.53s,缩短 2.64s【出处:R2 实测】。\n\n"
        "DeepSeek-32B 的加载时间缩短 84%【出处:R9 实测】。\n\n"
        "吞吐从 4.1 tok/s 提升至 74.9 tok/s,约为 18.27 倍【出处:R2 实测】。\n"
    )
    r = check(draft(body), index)
    diff = find(r, "2.64s")
    assert diff.status == "derived" and diff.derivation == "10.17−7.53 = 2.64 ≈ 2.64s"
    pct = find(r, "84%")
    assert pct.status == "derived" and pct.derivation == "(691−112)/691 = 83.79% ≈ 84%"
    assert pct.source and pct.source.report == "R9"
    ratio = find(r, "约为 18.27 倍")
    assert ratio.status == "derived" and ratio.derivation.startswith("74.9/4.1 = 18.27")  # type: ignore[union-attr]


def test_english_article_checks_against_chinese_reports(index: EvidenceIndex) -> None:
    body = (
        "At concurrency 8, p50 TTFT fell from 10.17 s to 7.53 s (26% lower) [source: R2].\n\n"
        "Throughput rose 29% at concurrency 8 and 40% at concurrency 16 [source: R2].\n\n"
        "Saving took 94 s instead of 178 s, 1.9x faster, on 4 disks [source: R1].\n"
    )
    r = check(draft(body, lang="en", answer="Measured gains."), index)
    assert r.ok, [(n.text, n.message) for n in r.errors()]
    assert find(r, "26%").status == "verified" and find(r, "4 disks").status == "verified"


def test_values_moved_to_another_row_or_metric_are_mismatches(index: EvidenceIndex) -> None:
    body = (
        "并发 8 档下 TTFT p50 从 14.62s 降至 7.53s【出处:R2 实测】。\n\n"  # p90 baseline in a p50 sentence
        "吞吐提升:并发 8 档提升 40%,并发 16 档提升 29%【出处:R2 实测】。\n\n"  # rows swapped
        "DeepSeek-32B 从 1399s 降至 112s【出处:R9 实测】。\n\n"  # the 70B row's value
        "TTFT p50 从 10.17s 降至 7.53s(降低 31.5%)【出处:R2 实测】。\n"  # another row's percentage
    )
    r = check(draft(body), index)
    moved = find(r, "14.62s")
    assert moved.status == "mismatch" and "10.17" in moved.message and "p90" in moved.message
    assert find(r, "40%").status == "mismatch" and find(r, "29%").status == "mismatch"
    assert find(r, "1399s").status == "mismatch"
    change = find(r, "31.5%")
    assert change.status == "mismatch" and "26.0%" in change.message


def test_units_convert_but_never_cross(index: EvidenceIndex) -> None:
    body = "TTFT p50 从 10,170 ms 降至 7,530 ms;快照 65.6 GiB;读带宽 5.23 Gb/s;提升 26 倍【出处:R1/R2 实测】。\n"
    r = check(draft(body), index)
    assert find(r, "10,170 ms").status == "verified" and find(r, "7,530 ms").status == "verified"
    for text in ("65.6 GiB", "5.23 Gb/s", "26 倍"):
        assert find(r, text).status in ("mismatch", "unsupported"), text


def test_bounds_must_match_bounds(index: EvidenceIndex) -> None:
    r = check(draft("G3 主门禁要求 TTFT 降幅 ≥25%,实测降低 25%【出处:R2 实测】。\n"), index)
    assert find(r, "≥25%").status == "verified"
    assert find(r, "25%").status != "verified"  # the gate's bound is no measured 25%


def test_positions_ids_and_severity(index: EvidenceIndex) -> None:
    text = draft("## 结果\n\n并发 8 档下 TTFT p50 从 10.17s 降至 7.35s【出处:R2 实测】。\n", title="TTFT 7.53s 之谜")
    r = check(text, index)
    lines = text.split("\n")
    for n in r.numbers:
        assert lines[n.line - 1][n.column - 1 :].startswith(n.text), n
    title = find(r, "7.53s")
    assert (title.field, title.line, title.start) == ("title", 2, 5)
    body_n = find(r, "7.35s")
    assert body_n.field == "body" and text.split("---\n", 2)[2][body_n.start : body_n.end] == "7.35s"
    assert body_n.sentence == "并发 8 档下 TTFT p50 从 10.17s 降至 7.35s" and len(body_n.id) == 12
    again = check(text, index)
    assert [n.id for n in again.numbers] == [n.id for n in r.numbers]
    assert len({n.id for n in r.numbers}) == len(r.numbers)
    relaxed = check(text, index, severity={"mismatch": "warning"})
    assert relaxed.ok and find(relaxed, "7.35s").severity == "warning"


def test_unknown_report_ids_are_bad_input_with_their_line(index: EvidenceIndex) -> None:
    with pytest.raises(InputError) as e:
        check(draft("第一段。\n\n吞吐 4.1 tok/s【出处:R7 实测】。\n"), index)
    assert "R7" in str(e.value) and e.value.line == 10
    with pytest.raises(InputError) as e2:
        check(draft("正文。\n", evidence="[R2, R8]"), index)
    assert "R8" in str(e2.value) and e2.value.line == 5


def test_markdown_structure_is_respected(index: EvidenceIndex) -> None:
    body = (
        # (each item names its row: a cell of a row the claim does not name backs nothing)
        "## 4.1 冷恢复\n\n1. 重算基线吞吐 4.1 tok/s【出处:R2 实测】。\n2. 默认读路径读带宽 0.98 GB/s【出处:R1 实测】。\n\n"
        "```\nint32_t width = 11;\n```\n\n> 引用:7.15 GB【出处:R2 实测】\n"
    )
    r = check(draft(body), index)
    texts = [n.text for n in r.numbers if n.status != "exempt"]
    assert texts == ["4.1 tok/s", "0.98 GB/s", "7.15 GB"]  # no list markers, heading numbers or code
    assert r.ok
