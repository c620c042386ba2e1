"""Test-bed (key–value) tables whose text cells wrap over lines (issue #14, outside trial): every row is read, the
counts a cell prints are figures of its row, a product's version in a cell is a name, and the cell's own words
name its figures."""

from __future__ import annotations

import pytest
from pdf_support import prose_index, table_index

from qc.check import check_draft
from qc.draft import parse_draft
from qc.index import EvidenceIndex

# A right-aligned configuration column, its first cell wrapped onto a line of its own (Word's tight test-bed table).
BED = [
    ["Component", "Setup"],
    ["Web tier", "6 × m7g.xlarge (4 vCPU, 8 GiB), Temurin 17,"],
    ["", "Quarkus 3.8"],
    ["Database", "MariaDB 11.2 on m7g.4xlarge (16 vCPU, 64 GiB)"],
    ["Queue", "RabbitMQ 3.13, mq.m5.large, 3 nodes"],
    ["Load drivers", "2 × m7g.2xlarge, Gatling 3.10.5 in cluster"],
    ["Users", "800 sessions, ramp-up 120 s"],
]


@pytest.fixture(scope="module")
def bed(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("bed") / "bed.pdf"
    lines = ["2 Environment", "Table 1. Test environment"]
    return table_index(path, "R3", lines, BED, (60, 540), pitch=11, right=(1,))


def _verdicts(index: EvidenceIndex, body: str, lang: str = "en") -> dict[str, str]:
    text = f"---\ntitle: t\nlang: {lang}\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\n---\n\n{body}\n"
    return {n.text.strip(): n.status for n in check_draft(parse_draft(text, path="a.md"), index).numbers}


def test_counts_of_a_wrapped_configuration_cell_are_its_rows(bed: EvidenceIndex) -> None:
    said = "We drove 800 sessions from {} load drivers against {} web instances of 4 vCPU and 8 GiB each [source: R3]."
    got = _verdicts(bed, said.format(2, 6))
    assert [got[n] for n in ("2", "6", "8 GiB")] == ["verified"] * 3
    wrong = _verdicts(bed, said.format(3, 5))
    assert wrong["3"] != "verified"
    assert wrong["5"] != "verified"
    # the database's 64 GiB is no web instance's
    assert _verdicts(bed, said.format(2, 6).replace("8 GiB", "64 GiB"))["64 GiB"] == "mismatch"


def test_a_version_in_a_configuration_cell_is_no_quantity(bed: EvidenceIndex) -> None:
    figures = [(f.value, f.unit) for f in bed.figures["R3"] if f.kind == "cell"]
    for version in (17.0, 3.8, 11.2, 3.13):
        assert (version, "") not in figures
    assert (3.0, "nodes") in figures


NODES = [
    ["项目", "配置"],
    ["服务器", "华为 TaiShan 200,共 4 台"],
    ["内存", "256 GB DDR4-2933"],
    ["系统盘", "2 × 480 GB SATA SSD"],
    ["数据盘", "6 × 1.92 TB NVMe SSD"],
    ["网络", "2 × 100 Gb/s"],
]


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("nodes") / "nodes.pdf"
    lines = ["二、测试环境", "表 1 节点配置"]
    return table_index(path, "R3", lines, NODES, (60, 200))


def test_a_configuration_cells_own_words_name_its_figures(nodes: EvidenceIndex) -> None:
    said = "集群共 4 台服务器,每台配 256 GB 内存和 6 块 {} NVMe SSD【出处:R3】。"
    assert _verdicts(nodes, said.format("1.92 TB"), "zh")["1.92 TB"] == "verified"
    # 480 GB is the SATA system disks', no NVMe disk
    assert _verdicts(nodes, said.format("480 GB"), "zh")["480 GB"] == "mismatch"
    # the row's name still decides where the cell's words say nothing of it
    assert _verdicts(nodes, "集群每台配 1.92 TB 内存【出处:R3】。", "zh")["1.92 TB"] == "mismatch"


@pytest.fixture(scope="module")
def note(tmp_path_factory: pytest.TempPathFactory) -> EvidenceIndex:
    path = tmp_path_factory.mktemp("note") / "note.pdf"
    lines = ["二、测试环境", "表 1 数据集", "项目      配置", "记录      20 亿条,每条 512 B", "",
             "注:导入后数据总量约 2 TB(单副本),三副本合计约 6 TB。每轮预热 10 分钟,采样 30 分钟。"]  # fmt: skip
    return prose_index(path, "R3", lines)


def test_a_notes_remark_after_a_figure_names_it(note: EvidenceIndex) -> None:
    said = "数据集为 20 亿条记录、每条 512 B,{}约 {} TB;每轮预热 10 分钟【出处:R3】。"
    assert _verdicts(note, said.format("单副本", 2), "zh")["约 2 TB"] == "verified"
    assert _verdicts(note, said.format("三副本合计", 6), "zh")["约 6 TB"] == "verified"
    # the single copy is 2 TB, not the three copies' 6 TB, and the other way round
    assert _verdicts(note, said.format("单副本", 6), "zh")["约 6 TB"] == "mismatch"
    assert _verdicts(note, said.format("三副本合计", 2), "zh")["约 2 TB"] == "mismatch"
