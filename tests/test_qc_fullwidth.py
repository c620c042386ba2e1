"""QC reads Chinese as it is typed: full-width `，` `；` `：` end a number's clause as their ASCII forms do, and a
parenthesis that holds the next number (`2.64 s（标准差 0.10 s）`) gives its words to that number."""

from __future__ import annotations

import datetime as dt

from evidence.models import Figure, Page, Report
from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# A run-stability table: total and user time over five runs (mean, standard deviation).
ROWS = [("总耗时", 3.78, 0.35, 9.3), ("用户态时间", 3.15, 0.06, 1.9)]


def _index() -> EvidenceIndex:
    figs = [
        Figure(id=f"f{i}{col}", report="R6", page=1, value=v, unit=unit, raw=f"{v}", kind="cell",
               labels=["表 4 运行稳定性", row, col], quote=f"{row} {mean} {sd} {cv}%")
        for i, (row, mean, sd, cv) in enumerate(ROWS)
        for col, v, unit in (("平均值", mean, "s"), ("标准差", sd, "s"), ("变异系数", cv, "%"))
    ]  # fmt: skip
    figs.append(Figure(id="p1", report="R6", page=1, value=2.64, unit="s", raw="2.64", kind="prose",
                       labels=["空文件处理耗时 2.64 秒,全部是词典加载的开销"], quote="空文件处理耗时 2.64 秒"))  # fmt: skip
    rep = Report(id="R6", title="t", date=dt.date(2026, 1, 1), access="public", file="r6.pdf", sha256="0", version=1,
                 pages=1)  # fmt: skip
    return EvidenceIndex(reports={"R6": rep}, figures={"R6": figs},
                         pages={"R6": [Page(report="R6", version=1, page=1, text="表 4 运行稳定性")]})  # fmt: skip


def _statuses(sentence: str) -> dict[str, str]:
    doc = f"---\ntitle: t\nlang: zh\ndate: 2026-07-10\nevidence: [R6]\nanswer: a\n---\n\n{sentence}\n"
    numbers = check_draft(parse_draft(doc, "t.md"), _index()).numbers
    return {n.text.strip(): n.status for n in numbers if n.status != "exempt"}


def test_a_full_width_comma_ends_a_numbers_clause() -> None:
    typed = "总耗时平均 3.78 s，用户态时间标准差仅 0.06 s【出处:R6 实测】。"
    assert _statuses(typed) == {"3.78 s": "verified", "0.06 s": "verified"}
    assert _statuses(typed.replace("，", ";")) == {"3.78 s": "verified", "0.06 s": "verified"}
    # the rows really are told apart: each number under the other's row is a mismatch
    assert _statuses("总耗时平均 3.15 s，用户态时间平均 3.78 s【出处:R6 实测】。") == {
        "3.15 s": "mismatch",
        "3.78 s": "mismatch",
    }


def test_a_parenthesis_holding_the_next_number_is_that_numbers() -> None:
    for opened, closed in (("（", "）"), ("(", ")")):
        typed = f"空文件测试中，程序平均耗时 2.64 s{opened}用户态时间标准差 0.06 s{closed}【出处:R6 实测】。"
        assert _statuses(typed) == {"2.64 s": "verified", "0.06 s": "verified"}
        # the aside names its own row: it is no better row for the number before it (both were mismatches)
        typed = f"总耗时平均 3.78 s{opened}用户态时间 3.15 s{closed}【出处:R6 实测】。"
        assert _statuses(typed) == {"3.78 s": "verified", "3.15 s": "verified"}
        typed = f"用户态时间平均 3.15 s{opened}总耗时 3.78 s{closed}【出处:R6 实测】。"
        assert _statuses(typed) == {"3.15 s": "verified", "3.78 s": "verified"}
        typed = f"总耗时平均 3.78 s{opened}标准差 0.35 s{closed}，用户态时间平均 3.15 s{opened}标准差 0.06 s{closed}【出处:R6 实测】。"
        assert set(_statuses(typed).values()) == {"verified"}
        # and the rows are still told apart: swapped, both are wrong (3.15 s passed before)
        typed = f"总耗时平均 3.15 s{opened}用户态时间 3.78 s{closed}【出处:R6 实测】。"
        assert _statuses(typed) == {"3.15 s": "mismatch", "3.78 s": "mismatch"}


def test_a_later_clauses_row_is_its_own_numbers_not_a_rival() -> None:
    # 用户态时间 names the row of 0.06 s, not a better cell for the 9.3% of the total time
    typed = "总耗时平均 3.78 s，变异系数 9.3%；用户态时间标准差仅 0.06 s【出处:R6 实测】。"
    assert _statuses(typed) == {"3.78 s": "verified", "9.3%": "verified", "0.06 s": "verified"}
    assert (
        _statuses(typed.replace("9.3%", "1.9%").replace("总耗时平均 3.78 s", "总耗时平均 3.15 s"))["3.15 s"]
        == "mismatch"
    )
