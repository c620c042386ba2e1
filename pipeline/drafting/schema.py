"""The structured draft: what the offline drafter builds and what an LLM answers with."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Sentence(BaseModel):
    """One sentence (or list item); `reports` are the ids of the reports whose figures it states."""

    text: str = Field(description="The sentence, without any citation marker.")
    reports: list[str] = Field(
        description="Ids of the reports (e.g. R2) whose figures this sentence states; empty only if it has no numbers."
    )


class Table(BaseModel):
    """A comparison over more rows than a list reads well: a lead sentence (citing), then a Markdown table."""

    lead: Sentence = Field(description="The sentence introducing the table, without numbers; `reports` it rests on.")
    columns: list[str] = Field(description="Column headers.")
    rows: list[list[str]] = Field(description="One list of cells per row, figures copied as printed.")


class Section(BaseModel):
    """The answer to one question of the brief."""

    question: str = Field(description="The question, exactly as given in the brief.")
    intro: list[Sentence] = Field(description="One or two sentences answering the question directly.")
    items: list[Sentence] = Field(description="List items, each one comparison or fact with its figures.")
    tables: list[Table] = Field(default_factory=list, description="Tables, for comparisons over more than four rows.")
    outro: list[Sentence] = Field(description="At most one closing sentence; may be empty.")


class FAQItem(BaseModel):
    """A key-point question and its short answer."""

    q: str = Field(description="The question (no numbers that are not in the reports).")
    a: Sentence


class DraftSchema(BaseModel):
    """A whole article: the direct answer, one section per question, then key-point Q&A."""

    answer: list[Sentence] = Field(description="Two or three sentences: the direct answer, with the key figures.")
    sections: list[Section]
    faq: list[FAQItem]


def marker(reports: list[str], lang: str) -> str:
    """The citation marker for a sentence resting on `reports`."""
    if lang == "zh":
        return f"【出处:{'/'.join(reports)} 实测】"
    return f"[source: {', '.join(reports)}]"
