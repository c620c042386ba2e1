"""Key cells centred between two rows (`6 6` layers beside an OTSL and an HTML row) label both rows' figures.

Read from the page image of docling_otsl_tableformer_benchmark_p9.pdf p.1, Table 1 (# enc-layers, # dec-layers,
Language, TEDs simple/complex/all, mAP (0.75), Inference time (secs)): 6·6 OTSL mAP 0.88, HTML mAP 0.857; 4·4 OTSL mAP
0.853, HTML 3.77 s; 2·4 OTSL 1.91 s, HTML 3.81 s; 4·2 OTSL 1.22 s, HTML mAP 0.824.
"""

from __future__ import annotations

from real_support import CORPUS, OTSL, check_body

from evidence.pdf import parse_pdf


def _labels(value: float, language: str) -> list[str]:
    figs = parse_pdf(CORPUS / OTSL, report_id="D1").figures
    (f,) = [f for f in figs if f.value == value and language in f.labels]
    return f.labels


def test_each_row_takes_the_layer_keys_centred_beside_it() -> None:
    for value, language, enc, dec in [
        (0.88, "OTSL", 6, 6),
        (0.857, "HTML", 6, 6),
        (0.853, "OTSL", 4, 4),
        (3.77, "HTML", 4, 4),
        (1.91, "OTSL", 2, 4),
        (3.81, "HTML", 2, 4),
        (1.22, "OTSL", 4, 2),
        (0.824, "HTML", 4, 2),
    ]:
        labels = _labels(value, language)
        assert f"# enc-layers {enc}" in labels and f"# dec-layers {dec}" in labels, (value, labels)


def test_the_lent_keys_are_no_figures_of_the_rows_they_label() -> None:
    figs = parse_pdf(CORPUS / OTSL, report_id="D1").figures
    assert sum(f.value == 6 for f in figs if f.kind == "cell") == 2  # the `6 6` line's own two cells
    assert all(not f.quote.startswith("6 6 ") for f in figs)  # a row's quote is its own line


def test_a_value_of_another_layer_setting_is_caught() -> None:
    body = "In the 6-layer configuration HTML's mAP is {} [source: R3]."
    ok = {n.text: n.status for n in check_body(OTSL, body.format("0.857"), lang="en").numbers}
    assert ok["0.857"] == "verified"
    bad = {n.text: n.status for n in check_body(OTSL, body.format("0.853"), lang="en").numbers}  # the 4·4 OTSL row
    assert bad["0.853"] not in ("verified", "derived")


def test_an_article_table_row_keys_each_layer_setting_its_header_names() -> None:
    # `Layers (enc, dec) | 4, 4`: 1.91 s is the 2·4 OTSL row's time, 1.97 s the 4·4 one's
    table = "| Layers (enc, dec) | OTSL time (s) |\n|---|---|\n| 4, 4 | {} |\n"
    lead = "OTSL and HTML inference times by layer setting [source: R3]:\n\n"
    ok = {n.text: n.status for n in check_body(OTSL, lead + table.format("1.97"), lang="en").numbers}
    assert ok["1.97"] == "verified"
    bad = {n.text: n.status for n in check_body(OTSL, lead + table.format("1.91"), lang="en").numbers}
    assert bad["1.91"] not in ("verified", "derived")
