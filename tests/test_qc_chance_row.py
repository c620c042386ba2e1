"""Chance control, other_row (issue 14): a number replaced by another row's value of its report table must fail.

Expected figures read from the PDFs (pypdf page text): oaid_cvgesture_rk3399_perf_report.pdf p.6, `4.1 Simple
background`, FPS on different cores: 1xA53@1.42G 6, 1xA72@1.80G 14.3, 2xA72@1.80G 27.1, 4xA53@1.42G 15.5,
2xA72@1.80G+4xA53@1.42G 14.1.
"""

from __future__ import annotations

from real_support import verdicts

GESTURE = "oaid_cvgesture_rk3399_perf_report.pdf"
OK = ("verified", "derived")


def test_a_range_across_rows_of_a_column_is_its_span_even_where_both_rows_are_named() -> None:
    # the earlier sentences name the one-core rows; the range's own sentence speaks of all five core sets
    body = ("On a plain wall, one A72 core reaches 14.3 FPS and one A53 core 6 FPS [source: R3]. Across the five core "
            "sets the frame rate spans {} FPS [source: R3].")  # fmt: skip
    assert verdicts(GESTURE, body.format("6–27.1"), lang="en")["6–27.1 FPS"] in OK
    for wrong in ("14.1–27.1", "14.3–27.1", "6–14.1", "6–15.5"):  # ends of other rows, not the column's lowest/highest
        assert verdicts(GESTURE, body.format(wrong), lang="en")[f"{wrong} FPS"] not in OK, wrong
