"""The brief `articles/<slug>.yaml`: what marketing asks the drafter to write."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from evidence.errors import InputError
from evidence.yamlio import read_yaml, validate
from qc.draft import SLUG, citations


class DrafterChoice(BaseModel):
    """A brief's own drafter setting, overriding `publish.toml`'s."""

    model_config = ConfigDict(extra="forbid")

    model: str
    base_url: str | None = None
    temperature: float | None = None
    max_repairs: int | None = None


class Brief(BaseModel):
    """One article to write: its questions, the reports it may cite, its audience."""

    model_config = ConfigDict(extra="forbid")

    slug: str
    title: str
    lang: Literal["zh", "en"]
    tags: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(min_length=1)
    audience: str
    brief: str
    questions: list[str] = Field(min_length=1)
    faq_count: int = Field(default=3, ge=0, le=20)
    # Background paragraphs keyed to a question (its text, or its number from 1): the section's explanatory text.
    # Their numbers are checked like any other, so a note with a number must carry a citation marker.
    notes: dict[str, str] = Field(default_factory=dict)
    drafter: str | DrafterChoice | None = None

    def note_for(self, question: str, index: int) -> str:
        """The note for the question at `index` (0-based), or ""."""
        return self.notes.get(question) or self.notes.get(str(index + 1)) or ""

    @field_validator("slug")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not SLUG.fullmatch(v):  # fullmatch: `$` would let a trailing newline through
            raise ValueError(f"slug {v!r} must be lower-case letters, digits and dashes")
        return v

    @field_validator("notes", mode="before")
    @classmethod
    def _note_keys(cls, v: object) -> object:
        return {str(k): val for k, val in v.items()} if isinstance(v, dict) else v

    @model_validator(mode="after")
    def _notes(self) -> Brief:
        problems = []
        for key, text in self.notes.items():
            if key not in self.questions and not (key.isdigit() and 1 <= int(key) <= len(self.questions)):
                problems.append(f"note {key!r} names no question (use the question's text or its number from 1)")
            elif re.search(r"\d", text) and not citations(text):
                problems.append(f"note {key!r} states numbers without a citation marker such as 【出处:R2 实测】")
            else:
                cited = {i for _, _, ids in citations(text) for i in ids}
                unknown = sorted(cited - set(self.evidence))
                if unknown:
                    problems.append(f"note {key!r} cites {', '.join(unknown)}, which is not in evidence")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @field_validator("evidence")
    @classmethod
    def _evidence(cls, v: list[str], info: ValidationInfo) -> list[str]:
        known = (info.context or {}).get("report_ids")
        if known is not None:
            unknown = [r for r in v if r not in known]
            if unknown:
                raise ValueError(f"unknown report id {', '.join(unknown)} (not in reports/reports.yaml)")
        return v


def load_brief(path: str | Path, report_ids: set[str] | None = None) -> Brief:
    """Read and validate a brief; its file name must be `<slug>.yaml`."""
    path = Path(path)
    doc = read_yaml(path)
    brief = validate(Brief, doc, context={"report_ids": report_ids} if report_ids is not None else None)
    if path.stem != brief.slug:
        raise InputError(
            f"slug {brief.slug!r} does not match the file name {path.name}", path=path, line=doc.line_of(("slug",))
        )
    return brief
