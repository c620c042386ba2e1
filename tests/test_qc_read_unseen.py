"""Correct sentences of shapes seen over unseen reports (issue #14), over hand-made reports: a possessive that names
its number's own section (`the load test's 567 ms`), two subjects each `to` a value (no from→to pair), a rounding to
the article's printed digits."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import prose_index, table_index
from real_support import check_body

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# a stress test's report sentence names the load test it is compared with: its words are no 567 ms's own
RUNS = ["4.1 Load test", "With 200 users the average response time was 567 ms.", "4.2 Stress test",
        "With 800 users the response time rose to 1,782 ms, 3.1 times that of the load test."]  # fmt: skip


def _doc(body: str, lang: str = "zh") -> str:
    return f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"


def _verdicts(index: EvidenceIndex, body: str, lang: str = "en") -> dict[str, str]:
    text = _doc(body, lang)
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("runs") / "runs.pdf", "R3", RUNS)


def test_a_possessive_names_its_numbers_own_section(runs: EvidenceIndex) -> None:
    said = "The average response time rose to 1,782 ms, about 3.1 times the load test's 567 ms [source: R3]."
    got = _verdicts(runs, said)
    assert got["1,782 ms"] == got["567 ms"] == "verified"
    # the two times given to the other run's names are still a swap
    swapped = "The load test's average response time was 1,782 ms and the stress test's 567 ms [source: R3]."
    got = _verdicts(runs, swapped)
    assert got["1,782 ms"] == got["567 ms"] == "mismatch"


HEAD = ["Step", "Steady (s)", "Ramp-up (s)", "Change"]
STEPS = [
    ["Login", "0.702", "0.787", "12.10797%"],
    ["Search", "2.261", "2.455", "8.58027%"],
    ["Total", "3.764", "4.137", "9.92008%"],
]


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["5 Ramp-up load", "Table 5-1 Step time against the benchmark"]
    return table_index(tmp_path_factory.mktemp("steps") / "steps.pdf", "R3", lines, [HEAD, *STEPS], (60, 160, 260, 360))


SUBJECTS = ("Under the ramp-up load, Login rises to 0.787 s and the total to 4.137 s, +9.92% against the benchmark "
            "[source: R3].")  # fmt: skip


def test_two_subjects_each_to_a_value_are_no_from_to_pair(steps: EvidenceIndex) -> None:
    got = _verdicts(steps, SUBJECTS)
    assert got["+9.92%"] == "verified"  # the report's printed change of the total, not 0.787 → 4.137 (425.67 %)
    assert _verdicts(steps, SUBJECTS.replace("9.92", "9.94"))["+9.94%"] == "mismatch"
    # a real from→to pair still states its change
    pair = "Under the ramp-up load the total rises from 3.764 s to 4.137 s, +9.92% [source: R3]."
    assert _verdicts(steps, pair)["+9.92%"] in ("verified", "derived")
    assert _verdicts(steps, pair.replace("9.92", "19.92"))["+19.92%"] == "mismatch"


UNIT_ROW = "office/unit_row_zh.pdf"  # Chromium load-test tables: `注册页面` 468.31 under `Transaction rate`, unit row


def test_a_stated_rounding_of_a_bare_integer_rests_on_the_figure() -> None:
    def got(body: str) -> str:
        return {n.text.strip(): n.status for n in check_body(UNIT_ROW, body).numbers}[body.split("Transaction rate ")[1]
                                                                                      .split("【")[0]]  # fmt: skip

    assert got("注册页面 Transaction rate 约 468【出处:R3】。") == "verified"  # 468.31 rounded, as `约` says
    assert got("注册页面 Transaction rate 约 469【出处:R3】。") != "verified"  # no rounding of 468.31
    assert got("注册页面 Transaction rate 468【出处:R3】。") != "verified"  # unrounded words: the printed value only


def test_a_count_each_second_is_the_rate_of_a_per_second_column() -> None:
    def got(body: str) -> tuple[str, str]:
        n = next(n for n in check_body(UNIT_ROW, body).numbers if "次" in n.text)
        return n.status, n.unit

    # `每秒处理 N 次事务` is N trans/sec, the unit of the report's `Transaction rate` column
    assert got("注册页面每秒处理 468.31 次事务【出处:R3】。") == ("verified", "trans/s")
    assert got("注册页面每秒 468.31 次事务【出处:R3】。") == ("verified", "trans/s")
    assert got("注册页面每秒处理 468.81 次事务【出处:R3】。")[0] == "mismatch"
    # a count with no `每秒` stays a count
    assert got("注册页面处理 468.31 次事务【出处:R3】。")[1] == "次"


HEIGHTS = [["Tree", "Keys", "h"], ["AVL", "1000000", "22"], ["BST", "1000000", "164"], ["AVL", "100", "8"]]


@pytest.fixture(scope="module")
def heights(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = ["3 Results", "Table 1 Final trees"]
    return table_index(tmp_path_factory.mktemp("heights") / "heights.pdf", "R3", lines, HEIGHTS, (60, 200, 340))


def test_a_ratio_of_two_whole_cells_of_one_column(heights: EvidenceIndex) -> None:
    # (the sentence names no row: the ratio rests on its own two whole numbers, which one column holds)
    said = (
        "The balanced tree stays at a height of 22 while the plain one reaches 164, about {} times taller [source: R3]."
    )
    assert _verdicts(heights, said.format("7.5"))["about 7.5 times"] == "derived"  # 164/22 = 7.45
    assert _verdicts(heights, said.format("7.1"))["about 7.1 times"] != "derived"
    # two whole numbers of different columns (keys and a height) measure no one thing
    other = "A tree of 100 keys has a height of 22, about 4.5 times [source: R3]."
    assert _verdicts(heights, other)["about 4.5 times"] != "derived"


TERMS = ["5.2 输出项", "Availability: 成功率", "Response time: 平均响应时间", "Transaction rate: 每秒事务处理量"]
LOAD = [["Page", "Availability", "Response time", "Transaction rate"], ["单位", "%", "sec", "trans/sec"],
        ["Login", "99.91", "0.24", "401.93"],
        ["Register", "99.96", "0.20", "485.86"], ["Search", "98.40", "12.90", "7.26"]]  # fmt: skip


@pytest.fixture(scope="module")
def load(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    lines = [*TERMS, "5.3 压力测试结果"]
    return table_index(tmp_path_factory.mktemp("load") / "load.pdf", "R3", lines, LOAD, (60, 160, 260, 360), 780, 16)


def test_terms_the_report_defines_in_both_languages_are_one(load: EvidenceIndex) -> None:
    # `Transaction rate: 每秒事务处理量` on the report's list of output items: the Chinese words name that column
    got = _verdicts(load, "Register 的事务处理量比 Login 高约 20.9%【出处:R3】。", lang="zh")
    assert got["约 20.9%"] == "derived"  # (485.86 − 401.93) / 401.93
    assert _verdicts(load, "Register 的事务处理量比 Login 高约 17.3%【出处:R3】。", lang="zh")["约 17.3%"] != "derived"
    got = _verdicts(load, "Search 的成功率为 98.40%,比 Register 低 1.56 个百分点【出处:R3】。", lang="zh")
    assert got["1.56 个百分点"] == "derived"  # 99.96 − 98.40 in the Availability (成功率) column


# a report that gives a count once, for the table under it; the article says it for each of the table's systems
FRAMES = ["3.2.2 Single A53 CPU performance", "On CPU1 A53 480P 160ms/frame 155ms/frame",
          "The average frame ratio (100 frames) on ONE A53 as following:", "On CPU1 A53 480P 185ms/frame 217ms/frame"]  # fmt: skip


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("frames") / "frames.pdf", "R3", FRAMES)


def test_one_count_said_twice_rests_on_its_one_figure(frames: EvidenceIndex) -> None:
    said = ("在 A53 上,TrackerTLD 的耗时从 160ms/frame 增加到 185ms/frame 的 100 帧平均值,DSST 的 100 帧平均比单次测量"
            "高 40%【出处:R3】。")  # fmt: skip
    got = [(n.text, n.status) for n in check_draft(parse_draft(_doc(said), path="a.md"), frames).numbers]
    assert [s for t, s in got if t == "100"] == ["verified", "verified"]


# a report that quotes a command and says in words what its options set (the command's numbers are no figures)
SIEGE = [
    "5.2 控制",
    "工具为 siege,例如:siege -c 200 -r 10",
    "http://localhost:8000/auth/login/表示的是对后端的登录页面进行并发量为200,重复次数为10次的压力测试:",
]


@pytest.fixture(scope="module")
def siege(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("siege") / "siege.pdf", "R3", SIEGE)


def test_an_option_value_restated_in_words_is_one_setting(siege: EvidenceIndex) -> None:
    said = "例如 siege -c 200 -r 10 表示并发量 200、重复 10 次【出处:R3】。"
    got = [(n.text.strip(), n.status) for n in check_draft(parse_draft(_doc(said), path="a.md"), siege).numbers]
    assert [s for t, s in got if t == "200"] == ["verified", "verified"]
    # a value the words give to two things is still one figure measuring two things
    said = "工具 siege 的用户数 200,并发量 200【出处:R3】。"
    got = [(n.text.strip(), n.status) for n in check_draft(parse_draft(_doc(said), path="a.md"), siege).numbers]
    assert "mismatch" in [s for t, s in got if t == "200"]


def test_a_length_is_a_measure_not_an_identifier(tmp_path: Path) -> None:
    index = prose_index(
        tmp_path / "cup.pdf", "R3", ["Test object: This distance from a paper cup to the camera is about 0.5m."]
    )
    assert _verdicts(index, "被跟踪的纸杯距摄像头约 0.5m【出处:R3】。", lang="zh")["约 0.5m"] == "verified"
    assert _verdicts(index, "被跟踪的纸杯距摄像头约 50 厘米【出处:R3】。", lang="zh")["约 50 厘米"] == "verified"
    assert _verdicts(index, "被跟踪的纸杯距摄像头约 0.5 秒【出处:R3】。", lang="zh")["约 0.5 秒"] != "verified"


# a report that gives what was asked for and what is left, never the part taken away
KEYS = ["3. Results", "Note: for random insertions with n = 1,000,000 the generator produced duplicate keys.",
        "The program ignored these, resulting in a final tree size of 742,827 nodes."]  # fmt: skip


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    return prose_index(tmp_path_factory.mktemp("keys") / "keys.pdf", "R3", KEYS)


def test_a_part_taken_away_is_the_whole_less_what_is_left(keys: EvidenceIndex) -> None:
    said = "The generator dropped {} duplicate keys of the intended 1,000,000, leaving 742,827 nodes [source: R3]."
    assert _verdicts(keys, said.format("257,173"))["257,173"] == "derived"  # 1,000,000 − 742,827
    assert _verdicts(keys, said.format("257,137"))["257,137"] != "derived"
    # what is left is never the part: `leaving` says which number is the rest
    said = "The generator left 257,173 duplicate keys of the intended 1,000,000 and 742,827 nodes [source: R3]."
    assert _verdicts(keys, said)["257,173"] != "derived"


# a report that gives each CPU's bound and, in a parenthesis, its real frequency
SOC = ["2.1 Hardware SoC : Rockchip RK3399", "CPU: Dual-core Cortex-A72 up to 2.0GHz (real frequency is 1.8GHz); Quad-core",
       "Cortex-A53 up to 1.5GHz (real frequency is 1.4GHz)", "Camera:1080P USB Camera"]  # fmt: skip


def test_the_words_after_a_numbers_parenthesis_lead_the_next_one(tmp_path: Path) -> None:
    index = prose_index(tmp_path / "soc.pdf", "R3", SOC)
    said = "RK3399 有两个 Cortex-A72(最高 2.0GHz,实际 1.8GHz)和四个 Cortex-A53(最高 1.5GHz,实际 1.4GHz)【出处:R3】。"
    got = _verdicts(index, said, lang="zh")
    assert got["1.8GHz"] == got["1.4GHz"] == got["最高 2.0GHz"] == got["最高 1.5GHz"] == "verified"


# a load report names its test machines by their memory without the B (`8G 内存`)
MACHINES = ["一、机器配置对性能的影响", "使用双核 CPU、8G 内存机器测试:", "使用四核 CPU、16G 内存机器测试:"]


def test_a_memory_size_without_its_b_is_bytes(tmp_path: Path) -> None:
    index = prose_index(tmp_path / "machines.pdf", "R3", MACHINES)
    body = "A quad-core machine with {} memory serves about twice the requests of a dual-core {} one [source: R3]."
    got = _verdicts(index, body.format("16 GB", "8 GB"))
    assert got["16 GB"] == got["8 GB"] == "verified"
    assert _verdicts(index, body.format("32 GB", "8 GB"))["32 GB"] != "verified"


# a results table whose columns are the two systems and whose rows are the metrics (outside trial W1, p.2)
SYSTEMS = [["指标", "纯算法核心", "全链路系统"], ["总耗时", "0.2002s", "2.8847s"], ["内存峰值", "36.75 MB", "86.15 MB"]]


@pytest.fixture(scope="module")
def systems(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("systems") / "systems.pdf"
    return table_index(path, "R3", ["三、实验结果"], SYSTEMS, (60, 200, 360), gap=30)


def test_a_difference_the_words_state_is_derived_from_the_row_they_name(systems: EvidenceIndex) -> None:
    # 86.15 − 36.75 = 49.4 MB of the 内存峰值 row; the words `比…高` make the number a difference, no figure of its own
    body = "全链路系统的内存峰值比纯算法核心高 {} MB【出处:R3】。"
    assert _verdicts(systems, body.format("49.4"), lang="zh")["49.4 MB"] == "derived"
    assert _verdicts(systems, body.format("48.4"), lang="zh")["48.4 MB"] != "derived"
    # the side after 比 is the base: the full system's 86.15 MB is no 49.4 MB lower than the core's 36.75 MB
    assert _verdicts(systems, body.replace("高", "低").format("49.4"), lang="zh")["49.4 MB"] != "derived"
    # without the words of a difference it is a level: the report has no 49.4 MB
    assert _verdicts(systems, "全链路系统的内存峰值为 49.4 MB【出处:R3】。", lang="zh")["49.4 MB"] not in (
        "verified",
        "derived",
    )
