"""pypdf speed-ups: one content-stream parse per page, decoded fonts cached, a regex content-stream tokeniser."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from evidence.pdf.fonts import fix_encoding_cmap
from evidence.pdf.runs import LayoutState, Runs, layout_runs, visitor_runs


class _SinglePass:
    """Plain text and positioned runs from one parse of a page's content stream.

    Plain extraction calls a visitor before and after every operation; the layout state machine rides on it, so
    the stream is parsed once. Operations of form XObjects (between a `Do`'s before and after calls) are skipped:
    the positions come from the page's own stream, as in `layout_runs`.
    """

    def __init__(self, fonts: dict[str, Any]) -> None:
        self.state: LayoutState | None = LayoutState(fonts)
        self.xform = 0

    def before(self, op: bytes, operands: Any, cm: Any, tm: Any) -> None:
        if self.xform == 0 and self.state is not None:
            try:
                self.state.operation(op, operands)
            except Exception:
                self.state = None  # fall back to visitor positions for this page, as when `layout_runs` fails
        if op == b"Do":
            self.xform += 1

    def after(self, op: bytes, operands: Any, cm: Any, tm: Any) -> None:
        if op == b"Do":
            self.xform -= 1


# One parse keeps a cache of decoded fonts (widths, encodings, ToUnicode CMaps) per font object: pypdf decodes
# them again on every page that uses them, which was a fifth of the ingest time on slide decks.
_FONT_CACHE: ContextVar[dict[int, tuple[Any, Any]] | None] = ContextVar("proofpress_font_cache", default=None)
_font_cache_ok: bool | None = None
# While a parse is active, fonts pypdf misreads are corrected as they are decoded (`fonts.fix_encoding_cmap`).
_FONT_FIX: ContextVar[bool] = ContextVar("proofpress_font_fix", default=False)
SINGLE_PASS = True  # tests turn this off to check that the two-pass fallback reads the same figures
FAST_STREAMS = True  # and this, to check the content-stream tokeniser against pypdf's own parser


def install_font_cache() -> bool:
    """Wrap pypdf's `Font.from_font_resource` (once) to reuse a font object's decoding while a cache is active, and
    to correct the fonts pypdf misreads while a parse is."""
    global _font_cache_ok
    if _font_cache_ok is None:
        try:
            from pypdf.generic._font import Font

            original = Font.__dict__["from_font_resource"].__func__

            def from_font_resource(cls: Any, pdf_font_dict: Any) -> Any:
                cache = _FONT_CACHE.get()
                if cls is not Font:
                    return original(cls, pdf_font_dict)
                if cache is None:
                    font = original(cls, pdf_font_dict)
                    return fix_encoding_cmap(font, pdf_font_dict) if _FONT_FIX.get() else font
                hit = cache.get(id(pdf_font_dict))
                if hit is None or hit[0] is not pdf_font_dict:  # the cache holds the dict, so its id stays unique
                    hit = (pdf_font_dict, fix_encoding_cmap(original(cls, pdf_font_dict), pdf_font_dict))
                    cache[id(pdf_font_dict)] = hit
                return hit[1]

            Font.from_font_resource = classmethod(from_font_resource)  # type: ignore[method-assign,assignment]
            _font_cache_ok = True
        except Exception:  # other pypdf internals: read every page the slow way
            _font_cache_ok = False
    return _font_cache_ok


# ---- content streams ---------------------------------------------------------------------------------------------

# pypdf reads content streams a byte at a time (a third of all ingest time). While a parse is active, streams are
# tokenised with one regex instead; whatever is not plain (dictionaries, escaped or nested strings, odd arrays,
# inline images) goes to pypdf's own readers at that position, and a stream with tokens near pypdf's length limits
# is left to pypdf whole, so the operations (and the errors) are the ones pypdf would give.
STREAMS_ACTIVE: ContextVar[bool] = ContextVar("proofpress_fast_streams", default=False)
_fast_streams_ok: bool | None = None
_WS = rb"[\x00\t\n\x0c\r ]*"  # pypdf's WHITESPACES (not \v)
_CS_TOKEN = (
    re.compile(  # groups by index: 1 number, 2 operator, 3 name, 4 string, 5 hex string, 6 `[`, 7 comment, 8 end
        _WS
        + rb"(?:([0-9+\-.][0-9+,\-.]*)"
        + rb"|([A-Za-z'\"][^\s()<>\[\]{}/%]*)"
        + rb"|(/[^\s()<>\[\]{}/%]*)"
        + rb"|\(([^()\\]*)\)"
        + rb"|<([0-9A-Fa-f\x00\t\n\x0c\r ]*)>"
        + rb"|(\[)"
        + rb"|(%[^\r\n]*[\r\n]?)"
        + rb"|(\Z))",
        re.S,
    )
)
_ARRAY_ITEM = re.compile(  # 1 number, 2 string, 3 hex string, 4 `]`
    rb"[\x00\t\n\x0b\x0c\r ]*(?:([0-9+\-.][0-9+,\-.]*)|\(([^()\\]*)\)|<([0-9A-Fa-f\x00\t\n\x0c\r ]*)>|(\]))"
)
_HEX_SPACE = re.compile(rb"[\x00\t\n\x0c\r ]")
_INDIRECT = re.compile(rb"[+-]?(\d+)\s+(\d+)\s+R[^a-zA-Z]")


def install_fast_streams() -> bool:
    """Swap in the regex tokeniser for `ContentStream._parse_content_stream` (once), active only inside a parse."""
    global _fast_streams_ok
    if _fast_streams_ok is None:
        try:
            from pypdf import get_configuration
            from pypdf.generic import ContentStream, FloatObject, NameObject, NumberObject
            from pypdf.generic._data_structures import ArrayObject, read_object
            from pypdf.generic._image_inline import read_inline_image
            from pypdf.generic._utils import StreamParsingBudget, create_string_object

            original = ContentStream.__dict__["_parse_content_stream"]

            def hex_string(tok: bytes, encoding: Any) -> Any:
                digits = _HEX_SPACE.sub(b"", tok)
                if len(digits) % 2:
                    digits += b"0"
                return create_string_object(bytes.fromhex(digits.decode("ascii")), encoding)

            def array(data: bytes, pos: int, encoding: Any, refs: bool) -> tuple[Any, int] | None:
                """A `[…]` of numbers and plain strings from `pos` (after `[`), or None for pypdf to read."""
                arr = ArrayObject()
                match = _ARRAY_ITEM.match
                while True:
                    m = match(data, pos)
                    if m is None:
                        return None
                    pos = m.end()
                    k = m.lastindex or 0
                    tok = m.group(k)
                    if k == 1:
                        if len(tok) >= 20 or (refs and _INDIRECT.match(data, m.start(1), m.start(1) + 20)):
                            return None
                        arr.append(FloatObject(tok) if b"." in tok else NumberObject(tok))
                    elif k == 2:
                        arr.append(create_string_object(tok, encoding))
                    elif k == 3:
                        arr.append(hex_string(tok, encoding))
                    else:
                        return arr, pos
                    if len(arr) >= 10_000:
                        return None  # pypdf counts elements against its limits

            def parse(self: Any, stream: Any) -> None:
                data = stream.getvalue() if hasattr(stream, "getvalue") else None
                limit = get_configuration().stream_parsing_work_maximum_count
                # Every token takes at least a byte, so a stream shorter than pypdf's token budget cannot exhaust it.
                if not STREAMS_ACTIVE.get() or data is None or len(data) >= limit:
                    return original(self, stream)
                budget = StreamParsingBudget(remaining_budget=limit)
                encoding = self.forced_encoding
                refs = _INDIRECT.search(data) is not None  # `1 0 R` makes pypdf's reader fail: let it
                ops: list[tuple[Any, bytes]] = []
                operands: list[Any] = []
                pos = 0
                match = _CS_TOKEN.match

                def pypdf_object(at: int) -> int:
                    stream.seek(at)
                    operands.append(read_object(stream, None, encoding, parsing_budget=budget))
                    return int(stream.tell())

                while True:
                    m = match(data, pos)
                    if m is None:  # anything else: pypdf reads one object here (or raises what it raises)
                        pos = pypdf_object(pos + _leading_ws(data, pos))
                        continue
                    pos = m.end()
                    k = m.lastindex or 0
                    tok = m.group(k)
                    if k == 1:
                        if len(tok) >= 20 or (refs and _INDIRECT.match(data, m.start(1), m.start(1) + 20)):
                            pos = pypdf_object(m.start(1))
                        else:
                            operands.append(FloatObject(tok) if b"." in tok else NumberObject(tok))
                    elif k == 2:
                        if len(tok) >= 100:
                            break  # near pypdf's operator length limit: let pypdf decide
                        if tok == b"BI":
                            assert operands == []
                            stream.seek(pos)
                            image = read_inline_image(content_stream=self, stream=stream, parsing_budget=budget)
                            ops.append((image, b"INLINE IMAGE"))
                            pos = stream.tell()
                        else:
                            ops.append((operands, tok))
                            operands = []
                    elif k == 3:
                        if len(tok) >= 4000 or b"#" in tok or not tok.isascii():
                            pos = pypdf_object(m.start(3))
                        else:
                            operands.append(NameObject(tok.decode("ascii")))
                    elif k == 4:
                        operands.append(create_string_object(tok, encoding))
                    elif k == 5:
                        operands.append(hex_string(tok, encoding))
                    elif k == 6:
                        got = array(data, pos, encoding, refs)
                        if got is None:
                            pos = pypdf_object(m.start(6))
                        else:
                            operands.append(got[0])
                            pos = got[1]
                    elif k == 8:
                        self._operations.extend(ops)
                        return None
                    # 7: comments are skipped
                # A token near pypdf's limits: pypdf parses the whole stream, as it would have.
                stream.seek(0)
                return original(self, stream)

            ContentStream._parse_content_stream = parse  # type: ignore[method-assign]
            _fast_streams_ok = True
        except Exception:
            _fast_streams_ok = False
    return _fast_streams_ok


def _leading_ws(data: bytes, pos: int) -> int:
    n = 0
    while pos + n < len(data) and data[pos + n] in b"\x00\t\n\x0c\r ":
        n += 1
    return n


def read_page(page: Any, caches: Caches | None) -> tuple[str, Runs]:
    """A page's plain text and positioned runs: one content-stream parse when pypdf's internals allow it."""
    if caches is None:
        plain = page.extract_text() or ""
        try:
            runs = layout_runs(page)
        except Exception:
            runs = visitor_runs(page)
        return plain, runs
    plain_fonts, layout_fonts = caches
    # Two caches: plain extraction adjusts a font's space width in place, and layout mode must not see that.
    token = _FONT_CACHE.set(layout_fonts)
    try:
        try:
            single: _SinglePass | None = _SinglePass(page._layout_mode_fonts())
        except Exception:
            single = None
        _FONT_CACHE.set(plain_fonts)
        if single is None:
            plain = page.extract_text() or ""
        else:
            plain = page.extract_text(visitor_operand_before=single.before, visitor_operand_after=single.after) or ""
        runs = single.state.runs if single is not None and single.state is not None else visitor_runs(page)
    finally:
        _FONT_CACHE.reset(token)
    return plain, runs


Caches = tuple[dict[int, Any], dict[int, Any]]


def page_caches() -> Caches | None:
    """Font caches for one file's pages (plain, layout), or None when the single pass is off or unavailable."""
    return ({}, {}) if SINGLE_PASS and install_font_cache() else None


@contextlib.contextmanager
def fast_streams() -> Iterator[None]:
    """The regex content-stream tokeniser, active while parsing one file (when FAST_STREAMS allows it), and the
    font corrections (always)."""
    token = STREAMS_ACTIVE.set(FAST_STREAMS and install_fast_streams())
    fix = _FONT_FIX.set(install_font_cache())
    try:
        yield
    finally:
        _FONT_FIX.reset(fix)
        STREAMS_ACTIVE.reset(token)
