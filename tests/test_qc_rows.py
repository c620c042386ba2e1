"""QC's row and system rule over real corpus PDFs (issue 14, part R): a table cell backs a claim only when the claim
names its row (or it is the span or extreme the claim states), and a system named only in a report's section
heading conflicts with another one the claim names.

Expected figures read with `pdftotext -layout`: pymupdf_small_table_units.pdf p.1 (Boiling Points °C, min / max /
avg): Noble gases -269 / -62 / -170.5; Nonmetals -253 / 4827 / 414.1; Metalloids 335 / 3900 / 741.5; Metals 357 /
>5000 / 2755.9. oaid_facerecognition_rk3399_perf_report.pdf: section 4 is `Performance with Arm Compute Library
(ACL)`, section 5 `Performance with OpenBLAS`; Table 4.2 (single A72, ACL) 480P 64*64 single face total 650 ms/frame,
Table 5.2 (single A72, OpenBLAS) the same case 225; Table 4.3 (two A72, ACL) 480P 32*32 single face total 756,
Table 4.4 (four A53, ACL) the same case 890. cachepilot_bench_slides_zh.pdf p.10: value 1MB, batch 1: 901.03 MiB/s;
the peak 1399.08 MiB/s is 1MB batch=4.
"""

from __future__ import annotations

from real_support import FACE, check_body, corpus_index, verdicts

from qc.check import check_draft
from qc.draft import parse_draft

UNITS = "pymupdf_small_table_units.pdf"
SLIDES = "cachepilot_bench_slides_zh.pdf"


def test_a_cell_of_a_row_the_heading_does_not_name_is_a_mismatch() -> None:
    body = "## Noble gases\n\nThey boil between -269 °C and {} °C [source: R3]."
    assert check_body(UNITS, body.format("-62"), lang="en").numbers[0].status == "verified"
    wrong = check_body(UNITS, body.format("4827"), lang="en").numbers[0]  # Nonmetals' max
    assert wrong.status == "mismatch"
    assert "Nonmetals" in wrong.message


def test_an_faq_answer_stands_under_its_question() -> None:
    text = ("---\ntitle: t\nlang: en\ndate: 2026-07-10\nevidence: [R3]\nanswer: a\nfaq:\n- q: How hot do metalloids "
            "boil?\n  a: 'At {} °C on average [source: R3].'\n---\n\nBody.\n")  # fmt: skip
    index = corpus_index(UNITS)
    for value, status in (("741.5", "verified"), ("414.1", "mismatch")):  # 414.1 is the nonmetals' average
        result = check_draft(parse_draft(text.format(value), path="faq.md"), index)
        assert {n.text: n.status for n in result.numbers}[f"{value} °C"] == status


def test_the_lowest_names_the_smallest_cell_of_its_column() -> None:
    body = "## Boiling points\n\nThe lowest minimum is {} °C [source: R3]."
    assert verdicts(UNITS, body.format("-269"), lang="en")["-269 °C"] == "verified"
    assert verdicts(UNITS, body.format("-253"), lang="en")["-253 °C"] == "mismatch"  # Nonmetals, not the lowest


def test_a_range_across_rows_is_the_span_of_its_column() -> None:
    body = "Average boiling points span {}–2755.9 °C across the four groups [source: R3]."
    assert verdicts(UNITS, body.format("-170.5"), lang="en")["-170.5–2755.9 °C"] == "verified"
    assert verdicts(UNITS, body.format("414.1"), lang="en")["414.1–2755.9 °C"] == "mismatch"  # not the smallest


def test_a_system_named_only_in_the_section_heading_conflicts() -> None:
    body = "单个 A72 核、64*64 单人脸场景下,OpenBLAS 每帧 {} ms【出处:R3 实测】。"
    assert verdicts(FACE, body.format("225"))["225 ms"] == "verified"
    assert verdicts(FACE, body.format("650"))["650 ms"] == "mismatch"  # ACL's (section 4), not OpenBLAS's


def test_an_article_tables_stub_header_names_the_platform() -> None:
    table = "| Two A72, test case | Total (ms/frame) |\n|---|---|\n| 480P 32*32 single face | {} |\n"
    text = "With ACL [source: R3]:\n\n" + table
    assert verdicts(FACE, text.format("756"), lang="en")["756"] == "verified"
    assert verdicts(FACE, text.format("890"), lang="en")["890"] == "mismatch"  # four A53's


def test_a_key_inside_a_label_conflicts() -> None:
    body = "1MB、batch=1 的带宽为 {} MiB/s【出处:R3 实测】。"
    assert verdicts(SLIDES, body.format("901.03"))["901.03 MiB/s"] == "verified"
    assert verdicts(SLIDES, body.format("1399.08"))["1399.08 MiB/s"] == "mismatch"  # the peak is 1MB batch=4


def test_between_two_cells_of_one_row_is_its_lowest_and_highest() -> None:
    body = "Noble gases boil between -269 °C and {} °C [source: R3]."
    right = verdicts(UNITS, body.format("-62"), lang="en")
    assert right["-269 °C"] == right["-62 °C"] == "verified"
    assert "mismatch" in verdicts(UNITS, body.format("-170.5"), lang="en").values()  # their average, not their max
