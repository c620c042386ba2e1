"""Fuzz the Markdown renderer with hostile text and number marks: whatever goes in, nothing that can run comes out."""

from __future__ import annotations

from fuzzing import XSS, active_content, fuzz
from hypothesis import given
from hypothesis import strategies as st

from pipeline.website.render import Mark, render_field

PIECES = [
    *XSS,
    "<", ">", "&", '"', "'", "`", "[", "]", "(", ")", "!", "*", "_", "#", "## ", "- ", "1. ", "> ", "|", "\n", "\n\n",
    "javascript:", "data:", "vbscript:", "JAVASCRIPT:", " ", "\t", "\x00", "\u00a0", "&#", "&#x", ";", "&colon;",
    "7.53s", "26–32%", "【出处:R2 实测】", "[source: R1, R9]", "http://example.com/", "<https://x.test/>",
    "onerror=", "onload=", "=", "svg", "img", "script", "\ue000", "\ue001", "\ue100",
]  # fmt: skip


@st.composite
def hostile(draw: st.DrawFn) -> tuple[str, list[Mark]]:
    text = "".join(draw(st.lists(st.sampled_from(PIECES) | st.text(max_size=5), max_size=25)))
    marks = []
    for _ in range(draw(st.integers(0, 6))):
        if not text:
            break
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, min(len(text), start + 12)))
        tip = tuple((draw(st.sampled_from(["出处", "Quote", "<b>"])), draw(st.sampled_from(XSS))) for _ in range(2))
        data = (
            (
                "report",
                draw(st.sampled_from(["R2", '"><script>alert(1)</script>'])),
            ),
            ("page", "2"),
        )
        href = draw(st.sampled_from([None, "../../reports/R2.pdf#page=2", "../../evidence/R9/#fig-x"]))
        marks.append(
            Mark(start, end, href, tip, draw(st.sampled_from(["verified", "error", '" onmouseover="x'])), data)
        )
    return text, marks


@fuzz(2)
@given(hostile(), st.booleans())
def test_fuzz_render_is_inert(case: tuple[str, list[Mark]], inline: bool) -> None:
    text, marks = case
    out = render_field(text, marks, inline=inline, cite_href=lambda rid: f"#src-{rid}")
    assert active_content(str(out.html)) == [], (text, str(out.html))
    assert "\ue000" not in out.html and "\ue001" not in out.html  # no sentinel leaks into the page


def test_every_payload_is_inert_and_still_visible() -> None:
    """Each known payload, rendered as body and inline: nothing active, and its text is shown, not dropped."""
    for payload in XSS:
        for inline in (False, True):
            html = str(render_field(f"前文 {payload} 后文", inline=inline).html)
            assert active_content(html) == [], (payload, html)
            assert "前文" in html and "后文" in html
    html = str(render_field("<script>alert('PWNED')</script>").html)
    assert "&lt;script&gt;" in html  # shown as text
