"""Markdown → HTML with number provenance: exact spans, citation links, unsafe links and raw HTML neutralised."""

from __future__ import annotations

import re

import pytest

from pipeline.website.render import Mark, render_field, section_starts


def mark_all(text: str, pattern: str, href: str | None = "../../reports/R2.pdf#page=2") -> list[Mark]:
    return [
        Mark(m.start(), m.end(), href, (("出处", "R2"), ("页码", "第 2 页")), "verified", (("report", "R2"),))
        for m in re.finditer(pattern, text)
    ]


def wrapped(html: str) -> list[str]:
    return re.findall(r'<span class="num-v">(.*?)</span>', html)


def test_numbers_are_wrapped_exactly_at_their_offsets() -> None:
    text = "并发 8 档下 TTFT p50 从 10.17s 降至 7.53s【出处:R2 实测】。"
    marks = mark_all(text, r"\d+\.\d+s")
    out = render_field(text, marks, inline=True, cite_href=lambda r: f"#src-{r}")
    assert wrapped(out.html) == ["10.17s", "7.53s"]
    assert out.html.count('href="../../reports/R2.pdf#page=2"') == 2
    assert '<a href="#src-R2">R2</a>' in out.html
    assert out.text == "并发 8 档下 TTFT p50 从 10.17s 降至 7.53s。"  # citation markers dropped from plain text


def test_tooltip_is_a_child_element_referenced_by_aria() -> None:
    text = "吞吐 74.9 tok/s"
    out = render_field(text, mark_all(text, r"74\.9 tok/s"), inline=True, id_prefix="x")
    assert 'aria-describedby="x0"' in out.html
    assert '<span class="tip" role="tooltip" id="x0">' in out.html
    assert 'data-report="R2"' in out.html


def test_marks_with_wrong_offsets_or_inside_citations_are_skipped() -> None:
    text = "见【出处:R2 实测】 与 12s"
    inside = Mark(text.index("R2") + 1, text.index("R2") + 2, "x", ())
    out_of_range = Mark(100, 104, "x", ())
    good = Mark(text.index("12s"), text.index("12s") + 3, "x", ())
    html = render_field(text, [inside, out_of_range, good], inline=True).html
    assert wrapped(html) == ["12s"]


def test_raw_html_is_escaped_and_unsafe_links_neutralised() -> None:
    body = (
        "<script>alert(1)</script>\n\n"
        "[a](javascript:alert(1)) [b](data:text/html,hi) [c](vbscript:x) ![d](data:image/png;base64,AAAA) "
        "[ok](https://example.com/x) <javascript:alert(2)>"
    )
    html = render_field(body).html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html.lower()
    assert "data:" not in re.sub(r">[^<]*<", "><", html)  # not in any tag or attribute
    assert "vbscript:" not in re.sub(r">[^<]*<", "><", html)
    assert '<a href="https://example.com/x">ok</a>' in html


def test_number_inside_a_markdown_link_becomes_a_focusable_span() -> None:
    text = "see [the 7.53s result](https://example.com/7.53s)"
    start = text.index("7.53s")
    html = render_field(text, [Mark(start, start + 5, "../r.pdf#page=1", (("k", "v"),))], inline=True).html
    assert '<a href="https://example.com/7.53s">' in html  # the URL is untouched by the sentinels
    assert '<span class="num num-verified" tabindex="0"' in html
    assert html.count("<a ") == 1  # no nested links


def test_number_in_image_alt_leaves_the_attribute_clean() -> None:
    text = "![chart 7.53s](a.png)"
    start = text.index("7.53s")
    html = render_field(text, [Mark(start, start + 5, "x", ())]).html
    assert 'alt="chart 7.53s"' in html
    assert "\ue000" not in html and "\ue001" not in html


def test_a_number_split_by_emphasis_stays_well_formed() -> None:
    text = "about **7.5**3s"
    html = render_field(text, [Mark(8, 15, "x", ())], inline=True).html
    assert html.count("<a ") == html.count("</a>")
    assert "<strong>" in html and html.index("<strong>") < html.index("</strong>")


def test_foreign_private_use_characters_do_not_confuse_the_sentinels() -> None:
    text = "bullet \ue000\ue101 then 12s"
    start = text.index("12s")
    out = render_field(text, [Mark(start, start + 3, "x", ())], inline=True)
    assert wrapped(out.html) == ["12s"]
    assert "\ue000" not in out.html


def test_body_sections_get_ids_tables_wrap_and_charts_land_at_section_end() -> None:
    body = "intro\n\n## Q1\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Q2\n\nmore\n"
    out = render_field(body, after_section={1: "<figure>C1</figure>", 2: "<figure>C2</figure>"})
    html = str(out.html)
    assert '<h2 id="q1">Q1</h2>' in html and '<h2 id="q2">Q2</h2>' in html
    assert '<div class="table-wrap">' in html
    assert html.index("C1") < html.index('id="q2"') < html.index("C2")
    assert out.headings == ["Q1", "Q2"]
    assert section_starts(body) == [body.index("## Q1"), body.index("## Q2")]


@pytest.mark.parametrize(
    ("marker", "ids"),
    [("【出处:R1/R9 实测】", ["R1", "R9"]), ("[source: R1, R9]", ["R1", "R9"]), ("【来源:R2】", ["R2"])],
)
def test_every_report_of_a_citation_marker_links_to_its_source_entry(marker: str, ids: list[str]) -> None:
    html = render_field(f"x {marker}", inline=True, cite_href=lambda r: f"#src-{r}").html
    assert [m for m in re.findall(r'href="#src-(\w+)"', html)] == ids


def test_unknown_report_in_a_marker_stays_plain_text() -> None:
    html = render_field("x【出处:R7 实测】", inline=True, cite_href=lambda r: None if r == "R7" else f"#src-{r}").html
    assert "href" not in html and "R7" in html
