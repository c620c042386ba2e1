"""Markdown → HTML where every checked number becomes an element carrying its provenance."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from qc.draft import citations

# Private-use sentinels mark spans in the source text; Markdown passes them through untouched, so the
# rendered HTML still knows where each checked number stands. Each opener is followed by one index char.
NUM_OPEN, NUM_CLOSE, CITE_OPEN, CITE_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
IDX_BASE, IDX_MAX = 0xE100, 0xF7FF - 0xE100
_OURS = re.compile("[\ue000-\ue003\ue100-\uf7ff]")
# The same characters after markdown-it percent-encoded them inside a URL.
_OURS_ENCODED = re.compile(
    r"%EE%80%8[0-3]|%EE%(?:8[4-9A-F]|[9AB][0-9A-F])%[89AB][0-9A-F]|%EF%[89][0-9A-F]%[89AB][0-9A-F]"
)
_TAG_SPLIT = re.compile(r"(<[^>]*>)")
_UNSAFE_SCHEME = re.compile(r"^\s*(?:javascript|vbscript|data|file)\s*:", re.IGNORECASE)


class Mark(NamedTuple):
    """A checked number to wrap: its span in the source string and what its tooltip says (a tuple: a page makes
    some ninety, and a frozen dataclass costs five times as much to build)."""

    start: int
    end: int
    href: str | None  # the PDF page (or library entry); None renders a focusable span
    tip: tuple[tuple[str, str], ...]  # (label, text) rows: report, page, quote, derivation
    kind: str = "verified"  # CSS modifier: verified, derived, exempt or error
    data: tuple[tuple[str, str], ...] = ()  # extra data-* attributes (report, page, figure)


@dataclass
class Rendered:
    """One field rendered: safe HTML, its plain text (citation markers removed) and its h2 headings."""

    html: Markup
    text: str
    headings: list[str] = field(default_factory=list)


def _validate_link(url: str) -> bool:
    # markdown-it lets `data:image/...` through; the site allows no data:, javascript:, vbscript: or file: links.
    # Sentinels are removed from tags later, so judge the URL without them: `\ue001javascript:` is javascript:.
    return not _UNSAFE_SCHEME.match(_OURS_ENCODED.sub("", _OURS.sub("", url)))


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.validateLink = _validate_link  # type: ignore[method-assign]
    return md


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_H2 = re.compile(r"^ {0,3}##(?:[ \t]|$)")


def section_starts(body: str) -> list[int]:
    """Character offsets in `body` where each `## ` section heading line begins (fenced code skipped).

    A line scan rather than a second Markdown parse: charts need the sections before the body is rendered.
    """
    out: list[int] = []
    offset = 0
    fence: str | None = None
    for line in body.split("\n"):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
        elif m:
            fence = m.group(1)
        elif _H2.match(line):
            out.append(offset)
        offset += len(line) + 1
    return out


def _insert_sentinels(text: str, marks: Sequence[Mark], cites: list[tuple[int, int, list[str]]]) -> str:
    spans = [(s, e, CITE_OPEN + chr(IDX_BASE + i), CITE_CLOSE) for i, (s, e, _) in enumerate(cites[:IDX_MAX])]
    cite_spans = sorted((s, e) for s, e, _ in cites[:IDX_MAX])
    order = sorted(range(min(len(marks), IDX_MAX)), key=lambda i: (marks[i].start, i))
    last_end, c = 0, 0
    for i in order:
        m = marks[i]
        while c < len(cite_spans) and cite_spans[c][1] <= m.start:
            c += 1
        # A number inside a citation marker or overlapping an earlier number is not wrapped again.
        inside_cite = c < len(cite_spans) and cite_spans[c][0] < m.end
        if not (0 <= m.start < m.end <= len(text)) or m.start < last_end or inside_cite:
            continue
        spans.append((m.start, m.end, NUM_OPEN + chr(IDX_BASE + i), NUM_CLOSE))
        last_end = m.end
    inserts: list[tuple[int, int, str]] = []  # (offset, order, text): closers before openers at one offset
    for s, e, opener, closer in spans:
        inserts.append((s, 1, opener))
        inserts.append((e, 0, closer))
    inserts.sort(key=lambda x: (x[0], x[1]))
    out, pos = [], 0
    for off, _, piece in inserts:
        out.append(text[pos:off])
        out.append(piece)
        pos = off
    out.append(text[pos:])
    return "".join(out)


def html_escape(s: str) -> str:
    """`markupsafe.escape` of a str as a plain str (the same five entities), without a Markup per call: a page
    escapes some two thousand tooltip strings."""
    return s.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;").replace('"', "&#34;")


# Escaped tooltip rows and data-* attributes by content: numbers resting on the same figure share them, within a page
# and across the pages one process renders (three in four numbers of a typical build reuse rows built before).
@lru_cache(maxsize=16_384)
def _rows_html(tip: tuple[tuple[str, str], ...]) -> str:
    # One line per row, its label in <b>: the lightest markup that reads right (a page holds ~90 tooltips).
    return "<br>".join(f"<b>{html_escape(k)}</b> {html_escape(v)}" for k, v in tip)


@lru_cache(maxsize=16_384)
def _data_html(data: tuple[tuple[str, str], ...]) -> str:
    return "".join(f' data-{html_escape(k)}="{html_escape(v)}"' for k, v in data)


def _open_num(mark: Mark, tip_id: str, in_link: bool) -> tuple[str, str]:
    data = _data_html(mark.data) if mark.data else ""
    cls = f"num num-{html_escape(mark.kind)}"
    tail = f'</span><span class="tip" role="tooltip" id="{tip_id}">{_rows_html(mark.tip)}</span>'
    if mark.href and not in_link:
        head = (
            f'<a class="{cls}" href="{html_escape(mark.href)}"{data} aria-describedby="{tip_id}"><span class="num-v">'
        )
        return head, tail + "</a>"
    # Inside a Markdown link (or without a target) a focusable span keeps the tooltip without nesting links.
    head = f'<span class="{cls}" tabindex="0"{data} aria-describedby="{tip_id}"><span class="num-v">'
    return head, tail + "</span>"


def _cite_html(source: str, ids: list[str], cite_href: Callable[[str], str | None]) -> str:
    html = html_escape(source)
    for rid in sorted(set(ids), key=len, reverse=True):
        href = cite_href(rid)
        if href:
            link = f'<a href="{html_escape(href)}">{html_escape(rid)}</a>'.replace("\\", "\\\\")  # literal replacement
            html = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(rid)}(?![A-Za-z0-9_-])", link, html)
    return f'<span class="cite">{html}</span>'


# One pass over the rendered HTML. Only link tags (to avoid nesting links) and tags holding sentinels (percent-encoded
# in a URL, or in an alt text) are visited; a number element closes at its closing sentinel or before the next tag.
# Every match starts at `<` or a sentinel: `_FIRST` finds those candidates at C speed and `_SCAN` is tried only there
# (an alternation of groups gets no such first-character scan from `re` itself: 3x slower as one `sub`).
_IDX = "\\ue100-\\uf7ff"
_SCAN = re.compile(
    r"(<a\b[^>]*>|</a>)"
    f"|(<[^>]*[\\ue000-\\ue003{_IDX}%][^>]*>)"
    f"|{CITE_OPEN}([{_IDX}])[^{CITE_CLOSE}<]*{CITE_CLOSE}"
    f"|{NUM_OPEN}([{_IDX}])([^<{NUM_CLOSE}]*){NUM_CLOSE}?"
    f"|[{NUM_OPEN}{NUM_CLOSE}{CITE_OPEN}{CITE_CLOSE}{_IDX}]"
)
# A candidate is a sentinel, or a `<` that opens a link tag or a tag holding a sentinel or `%` (the lookbehind keeps
# the one-character-class prefix that lets `re` scan at C speed; most tags, `<p>`, `<li>`, `<td>`, are skipped there).
_OURS_CLASS = f"{NUM_OPEN}{NUM_CLOSE}{CITE_OPEN}{CITE_CLOSE}{_IDX}"
_FIRST = re.compile(f"[<{_OURS_CLASS}](?:(?<=<)(?=a\\b|/a>|[^>]*[{_OURS_CLASS}%])|(?<!<))")


def _clean_tag(tag: str) -> str:
    if _OURS.search(tag) or "%E" in tag:
        return _OURS.sub("", _OURS_ENCODED.sub("", tag))
    return tag


def _finish(
    html: str,
    text: str,
    marks: Sequence[Mark],
    cites: list[tuple[int, int, list[str]]],
    cite_href: Callable[[str], str | None],
    id_prefix: str,
) -> str:
    links = 0

    def sub(m: re.Match[str]) -> str:
        nonlocal links
        link = m.group(1)
        if link is not None:
            links = max(0, links - 1) if link == "</a>" else links + 1
            return _clean_tag(link)
        if m.group(2) is not None:
            return _clean_tag(m.group(2))
        if m.group(3) is not None:
            k = ord(m.group(3)) - IDX_BASE
            if k < len(cites):
                s, e, ids = cites[k]
                return _cite_html(text[s:e], ids, cite_href)
            return ""
        if m.group(4) is not None:
            k = ord(m.group(4)) - IDX_BASE
            if k < len(marks):
                head, tail = _open_num(marks[k], f"{id_prefix}{k}", links > 0)
                return head + m.group(5) + tail
            return m.group(5)
        return ""

    # `_SCAN.sub(sub, html)`, trying `_SCAN` only where a match can start.
    out: list[str] = []
    pos = 0
    match = _SCAN.match
    for cand in _FIRST.finditer(html):
        i = cand.start()
        if i < pos:
            continue
        m = match(html, i)
        if m is not None:
            out.append(html[pos:i])
            out.append(sub(m))
            pos = m.end()
    out.append(html[pos:])
    return "".join(out)


def _plain(tokens: Sequence[Token]) -> tuple[str, list[str]]:
    """Plain text of a token stream (citation markers dropped) and the text of each h2."""
    blocks: list[str] = []
    headings: list[str] = []
    in_h2 = False
    for t in tokens:
        if t.type == "heading_open":
            in_h2 = t.tag == "h2"
        elif t.type == "heading_close":
            in_h2 = False
        if t.type != "inline" or not t.children:
            continue
        pieces = []
        for c in t.children:
            if c.type in ("text", "code_inline"):
                pieces.append(c.content)
            elif c.type in ("softbreak", "hardbreak"):
                pieces.append(" ")
        line = re.sub(rf"\s*{CITE_OPEN}[^{CITE_CLOSE}]*{CITE_CLOSE}", "", "".join(pieces))
        line = _OURS.sub("", line).strip()
        if line:
            blocks.append(line)
            if in_h2:
                headings.append(line)
    return "\n".join(blocks), headings


def render_field(
    text: str,
    marks: Sequence[Mark] = (),
    *,
    inline: bool = False,
    cite_href: Callable[[str], str | None] = lambda _rid: None,
    id_prefix: str = "n",
    after_section: Mapping[int, str] | None = None,
) -> Rendered:
    """Render one field (`inline` for title/answer/FAQ strings, block for the body) with its numbers wrapped.

    `marks` carry character offsets into `text` (a QC `NumberCheck`'s `start`/`end`); citation markers become
    links from `cite_href(report_id)`; `after_section[k]` is raw HTML (charts) placed at the end of section k,
    where section 0 is the text before the first `##` heading.
    """
    text = _OURS.sub("\ufffd", text)  # foreign private-use chars in our range would read as sentinels
    cites = citations(text)
    source = _insert_sentinels(text, marks, cites)
    md = _md()
    env: dict[str, object] = {}
    if inline:
        tokens = md.parseInline(source, env)
        html = md.renderer.render(tokens[0].children or [], md.options, env) if tokens else ""
    else:
        tokens = _decorate(md.parse(source, env), after_section or {})
        html = md.renderer.render(tokens, md.options, env)
    plain, headings = _plain(tokens)
    return Rendered(Markup(_finish(html, text, marks, cites, cite_href, id_prefix)), plain, headings)


def _html_token(content: str) -> Token:
    t = Token("html_block", "", 0)
    t.content = content
    return t


def _decorate(tokens: list[Token], after_section: Mapping[int, str]) -> list[Token]:
    """Give h2 headings ids, wrap tables for narrow screens, and place charts at the end of their section."""
    out: list[Token] = []
    section = 0
    for t in tokens:
        if t.type == "heading_open" and t.tag == "h2":
            if after_section.get(section):
                out.append(_html_token(after_section[section]))
            section += 1
            t.attrSet("id", f"q{section}")
        if t.type == "table_open":
            out.append(_html_token('<div class="table-wrap">\n'))
        out.append(t)
        if t.type == "table_close":
            out.append(_html_token("</div>\n"))
    if after_section.get(section):
        out.append(_html_token(after_section[section]))
    return out
