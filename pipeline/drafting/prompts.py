"""The LLM prompts: the brief, the fenced figures of the cited reports, and QC findings for a repair round."""

from __future__ import annotations

import re

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from evidence.fsutil import sha256_bytes
from pipeline.brief import Brief
from pipeline.drafting.lang import PROMPTS
from pipeline.drafting.schema import marker
from pipeline.drafting.select import select
from pipeline.drafting.tables import KEYSEP
from qc.glossary import glossary_text
from qc.index import EvidenceIndex
from qc.models import FileResult


def _prompts() -> Environment:
    # Plain text out (prompts are not HTML), so no autoescape; StrictUndefined catches template typos.
    return Environment(
        loader=FileSystemLoader(PROMPTS),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


FENCE = "REPORT-DATA"
PROMPT_ROWS = 12  # rows of a table without a baseline the prompt carries (the rows the question names, else these)
PROMPT_COLUMNS = 3  # …and its columns: those that answer the question


def cell(text: str, limit: int = 300) -> str:
    """Report text made safe for the data fence: one line, no fence markers, no table separators."""
    text = re.sub(r"\s+", " ", text).replace(FENCE, "REPORT_DATA").replace("|", "/").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def figure_table(brief: Brief, index: EvidenceIndex) -> str:
    """The figures that answer each question (the offline drafter's selection), question by question:
    id | report | page | value | unit | as printed | labels | quote — not every figure of a 44-page deck; then, where
    the question compares systems, a `compare` line per condition naming each system's figure."""
    rows = []
    for qi, picks in enumerate(select(brief, index)):
        rows.append(f"# question {qi + 1}")
        rows.append("figure | report | page | value | unit | printed | labels | quote")
        for p in picks:
            g = p.group
            shown = [g.rows[i] for i in p.rows] if p.rows else g.rows[:PROMPT_ROWS]
            cols = set(p.columns[:PROMPT_COLUMNS])
            figures = [] if g.rows else list(g.facts)  # a table's facts are its cells: take those asked for
            figures += [c.fig for r in shown for c in r.cells if not cols or c.col in cols]
            figures += [f for c in g.comparisons for f in (c.before, c.after, c.change) if f is not None]
            figures += [f for v in p.versus for _, _, f in v.figures]
            for f in {f.id: f for f in figures}.values():
                labels = " / ".join(cell(lbl, 80) for lbl in f.labels)
                rows.append(
                    f"{f.id} | {f.report} | {f.page} | {f.value:g} | {cell(f.unit)} | {cell(f.raw)} | {labels} | "
                    f"{cell(f.quote)}"
                )
            for v in p.versus:  # the systems the question compares, as the offline draft sets them side by side
                at = f" at {cell(v.row.replace(KEYSEP, ', '), 80)}" if v.row else ""
                rows.append(f"compare{at}: " + " against ".join(f"{cell(s, 40)} {f.id}" for s, _, f in v.figures))
    return "\n".join(rows)


def build_messages(brief: Brief, index: EvidenceIndex) -> list[tuple[str, str]]:
    """(role, text) of the first request: the system rules, then the brief and the fenced figures."""
    env = _prompts()
    reports = [
        {"id": rid, "title": cell(index.reports[rid].title), "access": index.reports[rid].access}
        for rid in brief.evidence
    ]
    system = env.get_template("system.md.j2").render(lang=brief.lang, fence=FENCE)
    user = env.get_template("user.md.j2").render(
        brief=brief, reports=reports, table=figure_table(brief, index), fence=FENCE, marker=marker(["R2"], brief.lang)
    )
    return [("system", system), ("human", user)]


def repair_prompt(result: FileResult, index: EvidenceIndex, lang: str) -> str:
    """The QC error findings, each with the figure it should have used, for the next round."""
    findings = []
    for n in result.errors():
        fig = None
        if n.source is not None:
            fig = {
                "id": n.source.figure,
                "report": n.source.report,
                "page": n.source.page,
                "value": f"{n.source.value:g}",
                "unit": n.source.unit,
                "labels": " / ".join(cell(x, 80) for x in n.source.labels),
                "quote": cell(n.source.quote),
            }
        findings.append(
            {
                "text": n.text,
                "field": n.field,
                "status": n.status,
                "message": cell(n.message),
                "sentence": cell(n.sentence, 400),
                "cited": ", ".join(n.cited) or "none",
                "figure": fig,
            }
        )
    return _prompts().get_template("repair.md.j2").render(findings=findings, lang=lang, fence=FENCE)


def prompts_hash() -> str:
    """The prompt templates' contents: part of the cache key, so a changed template redrafts."""
    files = {
        p.relative_to(PROMPTS).as_posix(): p.read_text(encoding="utf-8") for p in PROMPTS.rglob("*") if p.is_file()
    }
    files["glossary.yaml"] = glossary_text()  # (it was one of the prompts; the key stays the same)
    return sha256_bytes("\0".join(f"{name}\0{text}" for name, text in sorted(files.items())))
