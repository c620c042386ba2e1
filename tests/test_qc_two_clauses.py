"""A Chinese sentence of two clauses over two runs of a load test, as a course report words them in prose: the
first run's 200 threads and the second's 100 threads (and `2 分钟` beside `2 秒`) are no swap, and the first clause's
`约 1 秒` is not the second run's sentence's free figure."""

from __future__ import annotations

import pytest
from pdf_support import prose_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

PROSE = [
    "1. 衣柜接口测试",
    "用户编辑衣物信息后停顿 1-2 秒,再上传图片。当在 5 秒内产生 100 个线程来对服务器进行访问时,结果如下:",
    "各项请求的响应时长的最大值都在 0.5 秒以内。",
    "3. 社区接口测试",
    "模拟用户创建帖子并浏览,随机停顿 1-4 秒。当在 5 秒内产生 200 个线程来对服务器进行访问时,结果如下:",
    "可见,各项请求的平均响应时长在 1 秒左右,最大响应时长在 2 秒左右。",
    "接下来打开 100 个线程,每个线程重复浏览贴文,持续 2 分钟,此时服务的平均响应时长在 2 秒左右,95% 的响应时长在 2.5 秒左右。",
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("runs") / "runs.pdf", "R7", PROSE, size=9, left=40)


def _verdicts(index: EvidenceIndex, body: str) -> dict[str, str]:
    text = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R7]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers
            if n.status != "exempt"}  # fmt: skip


def test_two_runs_in_two_clauses_are_no_swap(index: EvidenceIndex) -> None:
    said = "社区接口在 200 个线程下平均响应时长约 1 秒,100 个线程持续浏览 2 分钟时约 2 秒【出处:R7 实测】。"
    assert set(_verdicts(index, said).values()) == {"verified"}


def test_the_runs_swapped_are_still_caught(index: EvidenceIndex) -> None:
    said = "社区接口在 200 个线程下平均响应时长约 2 秒,100 个线程持续浏览 2 分钟时约 1 秒【出处:R7 实测】。"
    assert "mismatch" in _verdicts(index, said).values()
