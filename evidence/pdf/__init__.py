"""PDF → page texts and citable figures; the layers are modules of this package (reading, layout, tables, …)."""

from evidence.pdf.numbers import Number, find_numbers, header_unit
from evidence.pdf.reading import ParsedPdf, parse_pdf
from evidence.pdf.text import normalize

__all__ = ["Number", "ParsedPdf", "find_numbers", "header_unit", "normalize", "parse_pdf"]
