"""The one unit table (evidence/units.py): canonical names, aliases, case rules; QC reads the same table."""

from __future__ import annotations

import pytest

import qc.units
from evidence import units
from evidence.pdf import find_numbers


@pytest.mark.parametrize(
    ("printed", "name"),
    [
        ("毫秒", "ms"), ("秒", "s"), ("天", "d"), ("us", "µs"), ("μs", "µs"), ("微秒", "µs"), ("Gbps", "Gb/s"),
        ("GBps", "GB/s"), ("GbE", "Gb/s"), ("ops/sec", "ops/s"), ("ops per sec", "ops/s"), ("MPPS", "MPPS"),
        ("Mpps", "MPPS"), ("tok/s", "tok/s"), ("tokens/s", "tok/s"), ("ms/frame", "ms/frame"), ("倍", "x"),
        ("Ghz", "GHz"), ("GHZ", "GHz"), ("MiB/s", "MiB/s"), ("个百分点", "pp"), ("℃", "°C"),
        # per-second rates of a counted thing, as Chinese reports print them (`640 行/秒`, `1.2 万次/秒`)
        ("行/秒", "lines/s"), ("lines/sec", "lines/s"), ("次/秒", "ops/s"), ("operations/second", "ops/s"),
        ("条/秒", "records/s"),
        # lengths (`about 0.5m` to the camera)
        ("m", "m"), ("米", "m"), ("metres", "m"), ("毫米", "mm"), ("cm", "cm"), ("公里", "km"), ("nm", "nm"),
    ],
)  # fmt: skip
def test_canonical_names(printed: str, name: str) -> None:
    assert units.canonical(printed) == name
    assert qc.units.parse_unit(printed).name == name  # QC reads the same table


def test_case_carries_meaning_where_two_units_share_a_lower_case() -> None:
    assert units.canonical("Gb") == "Gb" and units.canonical("GB") == "GB" and units.canonical("GiB") == "GiB"
    assert units.canonical("mb") is None  # MB or Mb: not guessed
    assert units.canonical("S") is None  # a short spelling in another case is no unit
    assert qc.units.parse_unit("GB").dim != qc.units.parse_unit("Gb").dim
    assert qc.units.parse_unit("GiB").factor != qc.units.parse_unit("GB").factor
    # a capital that is a magnitude (`2M`) is no metre, though `m` is
    assert qc.units.parse_unit("M").dim != "length" and qc.units.parse_unit("m").dim == "length"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("主频 2.8Ghz", [(2.8, "GHz")]),
        ("173Gbps (30.6MPPS)", [(173, "Gb/s"), (30.6, "MPPS")]),
        ("10GBps", [(10, "GB/s")]),
        ("12 毫秒", [(12, "ms")]),
        ("3 天", [(3, "d")]),
        ("52 ns", [(52, "ns")]),
        ("25.9 ops/sec", [(25.9, "ops/s")]),
        ("10 mb", [(10, "")]),
        ("5,925 行/秒", [(5925, "lines/s")]),  # not 5,925 s
        ("18000 operations/second", [(18000, "ops/s")]),
        ("从 640 行 / 秒 → 8,462 行 / 秒", [(640, "lines/s"), (8462, "lines/s")]),  # a slash spaced out
        ("3.2 GB / s", [(3.2, "GB/s")]),
        ("is about 0.5m.", [(0.5, "m")]),
        ("约 1.2 米", [(1.2, "m")]),
        ("使用双核 CPU、8G 内存机器测试", [(8, "GB")]),  # a size without its B before a memory word
        ("16G RAM, 1T 硬盘", [(16, "GB"), (1, "TB")]),
        ("5G 网络, 4G LTE", []),  # names of networks, no sizes
        ("200,000 事件, 50,000 行", [(200000, "事件"), (50000, "行")]),  # counts of events and of lines
        ("稳定在 170 万 Ops/sec 左右", [(1700000, "ops/s")]),  # a magnitude word before the value's own unit
        ("在 100 万条数据规模下", [(1000000, "条")]),
        ("营收 12.05万", [(12.05, "万")]),  # no unit after it: the figure keeps its magnitude word as its unit
        # a unit printed once after a list covers each member; a comma alone joins only three or more
        ("sizes 64, 128, 256 and 1024 bytes", [(64, "B"), (128, "B"), (256, "B"), (1024, "B")]),
        ("4、8 和 16 GB 内存", [(4, "GB"), (8, "GB"), (16, "GB")]),
        ("10, 20, 30 ms", [(10, "ms"), (20, "ms"), (30, "ms")]),
        ("In test 3, 500 ms", [(3, ""), (500, "ms")]),
    ],
)
def test_units_after_numbers(text: str, found: list[tuple[float, str]]) -> None:
    assert [(n.value, n.unit) for n in find_numbers(text)] == found


def test_qc_units_keeps_its_public_names() -> None:
    for name in ("NONE", "Unit", "COUNT_WORDS", "aliases", "is_latin", "parse_unit", "compatible", "display"):
        assert hasattr(qc.units, name)
    assert qc.units.Unit is units.Unit
    assert "万" not in qc.units.aliases()  # a magnitude in an article, read by QC's number reader
    assert qc.units.display(7.53, qc.units.parse_unit("秒")) == "7.53 s"


def test_a_size_without_its_b_reads_alike_in_reports_and_articles() -> None:
    # one rule for both readers (evidence.units.storage_size_at): an article's `16G 内存` is the report's 16 GB
    from qc.numbers import extract

    assert [(q.value, q.unit) for q in extract("四核 CPU、16G 内存")] == [(16.0, "GB")]
    assert [(q.value, q.unit) for q in extract("512M memory")] == [(512.0, "MB")]
    assert [q.exempt for q in extract("5G 网络")] == ["id"]
