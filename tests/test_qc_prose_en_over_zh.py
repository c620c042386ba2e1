"""An English article over a Chinese report's prose: a round value (`5 seconds`) of a report printing many times is
backed by its own sentence where the claim's other measures are printed there too (`100 threads within 5 seconds` is
`在 5 秒内产生 100 个线程`), or where the glossary links their words (`recommendation` is `推荐`); never by another
sentence's same round value."""

from __future__ import annotations

import pytest
from pdf_support import prose_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

PROSE = [
    "1. 衣柜接口测试",
    "用户编辑衣物信息后停顿 1 秒,再上传图片,每次上传等待约 3 秒。",
    "当在 5 秒内产生 100 个线程来对服务器进行访问时,各项请求均正常。",
    "2. 推荐接口测试",
    "推荐算法的响应时长在 0.5 秒左右。",
    "当 5 个线程同时请求时,平均响应时长会来到 2 秒左右。",
    "3. 社区接口测试",
    "每个线程持续浏览 2 分钟,平均响应时长在 2 秒左右,95% 的响应时长在 2.5 秒左右。",
    "帖子列表接口的首屏加载约 1.5 秒,详情页约 1 秒,图片上传约 4 秒。",
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("prose") / "prose.pdf", "R5", PROSE, size=10, left=60)


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R5]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_the_report_prints_many_times(index: EvidenceIndex) -> None:
    assert sum(f.unit == "s" for f in index.figures["R5"]) >= 10  # (the round-value rule applies)


def test_a_round_value_is_backed_by_the_sentence_printing_the_claims_other_measures(index: EvidenceIndex) -> None:
    assert _verdicts(index, "The test started 100 threads within 5 seconds [source: R5].")["5 seconds"] == "verified"
    # 3 s is printed, in another sentence: no evidence for this one
    assert _verdicts(index, "The test started 100 threads within 3 seconds [source: R5].")["3 seconds"] != "verified"


def test_a_glossary_word_links_the_claim_to_its_sentence(index: EvidenceIndex) -> None:
    said = "A single recommendation takes about 0.5 seconds [source: R5]."
    assert _verdicts(index, said)["about 0.5 seconds"] == "verified"
