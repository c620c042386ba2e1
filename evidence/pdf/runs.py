"""Positioned text runs of a page from pypdf's layout-mode text state (or, as a fallback, its text visitor)."""

from __future__ import annotations

from typing import Any


class LayoutState:
    """pypdf's layout-mode text state machine driven one content-stream operation at a time.

    pypdf keeps this machinery private and its own grouping neither advances the pen after `Tj` (so runs after a
    font switch land at the line start) nor keeps neighbouring cells apart (`330,435.30234,850.00`); this class
    uses its text state and font metrics but tracks the pen itself. It is fed either from its own parse of the
    content stream (`layout_runs`) or, in the single pass, from plain extraction's operator visitor.
    """

    def __init__(self, fonts: dict[str, Any]) -> None:
        from pypdf._text_extraction._layout_mode._fixed_width_page import set_font_operation
        from pypdf._text_extraction._layout_mode._text_state_manager import TextStateManager
        from pypdf.generic import ArrayObject

        self._set_font = set_font_operation
        self._array = ArrayObject
        self.fonts = fonts
        self.mgr = TextStateManager()
        self.runs: list[tuple[float, float, float, float, str]] = []
        self.depth = 0

    def _show(self, value: Any) -> Any:
        mgr = self.mgr
        params = mgr.text_state_params(value)
        if not params.rotated and params.font.interpretable and params.text:
            y = params.ty * (-1 if params.flip_vertical else 1)
            self.runs.append((params.tx, params.displaced_tx, y, max(params.font_height, 1.0), params.text))
        mgr.add_trm(params.displacement_matrix())
        return params

    def operation(self, op: bytes, operands: Any) -> None:
        mgr = self.mgr
        if op == b"q":
            mgr.add_q()
            self.depth += 1
        elif op == b"Q":
            if self.depth:
                mgr.remove_q()
                self.depth -= 1
        elif op == b"cm" and len(operands) >= 6:
            mgr.add_cm(*operands)
        elif op in (b"BT", b"ET"):
            mgr.reset_tm()
        elif op == b"Tf":
            self._set_font(mgr, self.fonts, operands)
        elif op in (b"Tj", b"TJ", b"'", b'"') and mgr.font is None:
            return  # text before any Tf: nothing pypdf can decode
        elif op == b"Tj" and operands and isinstance(operands[0], (str, bytes)):
            self._show(operands[0])
        elif op == b"TJ" and operands and isinstance(operands[0], self._array):
            last = None
            for item in operands[0]:
                if isinstance(item, (str, bytes)):
                    last = self._show(item)
                elif isinstance(item, (int, float)) and last is not None:
                    mgr.add_trm(last.displacement_matrix(word="", td_offset=float(item)))
        elif op in (b"'", b'"'):
            mgr.reset_trm()
            if op == b'"' and len(operands) >= 3:
                mgr.set_state_param(b"Tw", operands[0])
                mgr.set_state_param(b"Tc", operands[1])
            mgr.add_tm([0, -mgr.TL])
            text = operands[-1] if operands else None
            if isinstance(text, (str, bytes)):
                self._show(text)
        elif op in (b"Td", b"Tm", b"TD", b"T*"):
            mgr.reset_trm()
            if op == b"Tm":
                mgr.reset_tm()
            elif op == b"TD" and len(operands) >= 2 and isinstance(operands[1], (int, float)):
                mgr.set_state_param(b"TL", -operands[1])
            elif op == b"T*":
                operands = [0, -mgr.TL]
            mgr.add_tm(operands)
        elif op in (b"Tc", b"Tw", b"Tz", b"TL", b"Ts"):
            mgr.set_state_param(op, operands)


def layout_runs(page: Any) -> list[tuple[float, float, float, float, str]]:
    """(x0, x1, y, size, text) for every text-show operation, from a parse of the page's own content stream."""
    from pypdf.generic import ArrayObject, ContentStream, StreamObject

    contents = page.get("/Contents")
    if contents is not None:
        contents = contents.get_object()
    if not isinstance(contents, (ArrayObject, StreamObject)):
        return []
    state = LayoutState(page._layout_mode_fonts())
    for operands, op in ContentStream(contents, page.pdf, "bytes").operations:
        state.operation(op, operands)
    return state.runs


Runs = list[tuple[float, float, float, float, str]]


def visitor_runs(page: Any) -> list[tuple[float, float, float, float, str]]:
    """Fallback positions from `visitor_text` (one run per flushed line of text, widths estimated)."""
    runs: list[tuple[float, float, float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = abs(tm[0] * cm[0]) or 1.0
        h = max(size * scale, 1.0)
        for part in text.split("\n"):
            if part.strip():
                runs.append((x, x + 0.55 * h * len(part), y, h, part))

    page.extract_text(visitor_text=visit)
    return runs
