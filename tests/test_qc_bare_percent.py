"""A bare number is never backed by a percentage: `a WER of 20` where the report prints 20 %.

Read from oaid_speechrecognition_perf_report.pdf p.5 (pypdf text): the table `Speaker | Words Error Rate (%)` with
A003 20, A012 7.27, B002 1.36; the conclusion `the WERs changed from 1.4% to 20%.`
"""

from __future__ import annotations

from real_support import SPEECH, check_body, verdicts

from qc.models import NumberCheck


def _number(body: str, text: str) -> NumberCheck:
    return next(n for n in check_body(SPEECH, body, lang="en").numbers if n.text.strip() == text)


def test_a_percentage_with_its_unit_is_verified() -> None:
    assert (
        verdicts(SPEECH, "Speaker A012 has a word error rate of 7.27% [source: R3].", lang="en")["7.27%"] == "verified"
    )
    assert verdicts(SPEECH, "The WER changed from 1.4% to 20% across speakers [source: R3].", lang="en")["20%"] in (
        "verified",
        "derived",
    )


def test_a_percentage_without_its_unit_is_a_mismatch_naming_the_figure() -> None:
    n = _number("Speaker A012 has a word error rate of 7.27 [source: R3].", "7.27")
    assert n.status == "mismatch"
    assert "7.27%" in n.message and "drops its unit" in n.message


def test_a_sentence_of_the_report_does_not_back_the_number_without_its_percent_sign() -> None:
    # `to 20` stands in the report's text only as `to 20%`
    n = _number("Across speakers the WER ranges from 1.4 to 20 [source: R3].", "20")
    assert n.status not in ("verified", "derived")
