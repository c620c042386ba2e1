"""Typed records of the evidence store: registry entries, report versions, pages and figures."""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evidence import limits

Access = Literal["public", "on-request"]
REPORT_ID = re.compile(r"^[A-Z][A-Za-z0-9_-]{0,31}$")


class ReportEntry(BaseModel):
    """One report as registered in `reports/reports.yaml`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str
    date: dt.date
    file: str
    access: Access = "public"

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not REPORT_ID.fullmatch(v):
            raise ValueError(f"report id {v!r} must start with a capital letter (e.g. R2)")
        return v

    @field_validator("file")
    @classmethod
    def _file(cls, v: str) -> str:
        # Registry files stay inside the reports folder: no absolute paths, no climbing out.
        parts = re.split(r"[\\/]", v)
        if v.startswith(("/", "\\")) or ".." in parts or not v.strip() or re.match(r"^[A-Za-z]:", v):
            raise ValueError(f"file {v!r} must be a path inside the reports folder")
        if any(ord(c) < 32 for c in v):  # a NUL would crash every os call later
            raise ValueError(f"file {v!r} contains a control character")
        return v


class Registry(BaseModel):
    """The whole `reports.yaml`."""

    model_config = ConfigDict(extra="forbid")

    reports: list[ReportEntry] = Field(default_factory=list)


class Report(BaseModel):
    """One ingested version of a report (a new PDF sha256 makes a new version)."""

    id: str
    title: str
    date: dt.date
    access: Access
    file: str
    sha256: str
    version: int
    pages: int
    page_labels: list[str] = Field(default_factory=list)
    error: str | None = None


class Page(BaseModel):
    """The text of one PDF page, kept so QC can verify terms verbatim."""

    report: str
    version: int
    page: int
    label: str | None = None
    text: str


class Figure(BaseModel):
    """One citable number of a report: what it measures, where it stands, how it was printed."""

    id: str
    report: str
    version: int = 1
    page: int
    page_label: str | None = None
    value: float
    unit: str = ""
    raw: str
    labels: list[str] = Field(default_factory=list)
    quote: str = ""
    # `name`: digits of an identifier the report prints (`Xeon 8280`, `Option 2/3`), kept for search and display
    # but never a quantity: `Store.figures` leaves them out unless asked, so QC cannot match a measurement to them.
    kind: Literal["cell", "kv", "prose", "name"] = "prose"


class IngestLimits(BaseModel):
    """Bounds for one PDF, so a hostile file ends in a clear error instead of a hang."""

    max_pdf_bytes: int = limits.MAX_PDF_BYTES
    max_pdf_pages: int = limits.MAX_PDF_PAGES
    seconds_per_file: float = limits.INGEST_SECONDS_PER_FILE
