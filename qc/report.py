"""QC output: compiler-style text for terminals and CI, and the reviewer's HTML page with every number's provenance."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.models import ALL_STATUSES, CheckReport, FileResult, NumberCheck

_ANSI = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "ok": "\x1b[32m", "dim": "\x1b[2m", "bold": "\x1b[1m"}
_RESET = "\x1b[0m"


def _c(text: str, style: str, color: bool) -> str:
    return f"{_ANSI[style]}{text}{_RESET}" if color else text


def _summary(result: FileResult) -> str:
    return ", ".join(f"{result.summary.get(s, 0)} {s}" for s in ALL_STATUSES)


def render_text(report: CheckReport, *, color: bool = False) -> str:
    """`file:line:col: error: 7.35s — R2 p.2 says 7.53 s (…)` for each finding, then a summary line per file."""
    out: list[str] = []
    errors = warnings = 0
    for f in report.files:
        for n in f.numbers:
            if n.severity not in ("error", "warning"):
                continue
            errors += n.severity == "error"
            warnings += n.severity == "warning"
            head = f"{f.file}:{n.line}:{n.column}: " + _c(f"{n.severity}:", n.severity, color)
            extra = f" [{n.status}, id {n.id}]" if n.id else f" [{n.status}]"
            out.append(f"{head} {n.text} — {n.message}" + _c(extra, "dim", color))
            if n.derivation:
                out.append(f"    {n.derivation}")
        verdict = _c("ok", "ok", color) if f.ok else _c("FAIL", "error", color)
        out.append(_c(f"{f.file}: ", "bold", color) + f"{_summary(f)} — {verdict}")
    files = len(report.files)
    if report.ok:
        checked = sum(len(f.numbers) for f in report.files)
        tail = f"QC passed: {checked} numbers in {files} file{'s' * (files != 1)}"
        out.append(_c(tail, "ok", color) + (f" ({warnings} warning{'s' * (warnings != 1)})" if warnings else ""))
    else:
        bad = sum(not f.ok for f in report.files)
        out.append(
            _c(
                f"QC failed: {errors} error{'s' * (errors != 1)} in {bad} of {files} file{'s' * (files != 1)}",
                "error",
                color,
            )
        )
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------------------------------------------
# HTML: the article as the reviewer reads it, each number wrapped in a provenance element.

_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}(\\d+){_MID}|{_CLOSE}")

_PAGE = """<!doctype html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>QC report{% if report.files|length == 1 %} — {{ report.files[0].file }}{% endif %}</title>
<style>
body { font: 16px/1.7 system-ui, -apple-system, "PingFang SC", "Noto Sans CJK SC", sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem; }
header.qc-head { background: #fff; border-bottom: 1px solid #dde1e7; padding: 1rem 1.5rem; position: sticky; top: 0; z-index: 5; }
.verdict { font-weight: 700; } .verdict.ok { color: #17733a; } .verdict.fail { color: #b42318; }
.counts span { display: inline-block; margin-right: .8rem; font-size: .9rem; }
article { background: #fff; border: 1px solid #dde1e7; border-radius: 8px; padding: 1.5rem 2rem; margin: 1.5rem 0; }
.field { color: #5b6475; font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; margin-top: 1rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #dde1e7; padding: .25rem .6rem; }
.qc { position: relative; border-radius: 3px; padding: 0 2px; outline-offset: 2px; cursor: help; }
.qc a { color: inherit; text-decoration: none; }
.qc-verified { background: #dcfae6; box-shadow: inset 0 -2px #17b26a; }
.qc-derived { background: #e0eaff; box-shadow: inset 0 -2px #2e90fa; }
.qc-exempt { background: #f2f4f7; }
.qc-uncited, .qc-unsupported, .qc-mismatch { background: #fee4e2; box-shadow: inset 0 -2px #d92d20; font-weight: 600; }
.qc-warning { background: #fef0c7; box-shadow: inset 0 -2px #dc6803; }
.qc .tip { display: none; position: absolute; left: 0; top: 1.6em; z-index: 10; width: 24rem; max-width: 80vw; background: #101828;
  color: #f9fafb; font-size: .8rem; line-height: 1.5; font-weight: 400; padding: .6rem .8rem; border-radius: 6px; white-space: normal; }
.qc:hover .tip, .qc:focus .tip, .qc:focus-within .tip { display: block; }
.tip b { color: #fff; } .tip q { color: #d0d5dd; } .tip code { color: #a6f4c5; }
ol.findings li { margin-bottom: .3rem; }
</style>
</head>
<body>
<header class="qc-head">
  <span class="verdict {{ 'ok' if report.ok else 'fail' }}">{{ 'QC passed' if report.ok else 'QC failed' }}</span>
  {% for f in report.files %}<div class="counts"><b>{{ f.file }}</b>:
    {% for s in statuses %}<span class="qc qc-{{ s }}">{{ f.summary.get(s, 0) }} {{ s }}</span>{% endfor %}</div>{% endfor %}
</header>
<main>
{% for f in files %}
<section>
  {% if f.findings %}<h2>Findings</h2>
  <ol class="findings">{% for n in f.findings %}
    <li><a href="#n-{{ n.id }}">{{ f.result.file }}:{{ n.line }}:{{ n.column }}</a> <b>{{ n.severity }}</b>
      {{ n.text }} — {{ n.message }}</li>{% endfor %}
  </ol>{% endif %}
  <article lang="{{ f.lang }}">
    <h1>{{ f.title }}</h1>
    <div class="field">answer</div><p>{{ f.answer }}</p>
    {% if f.faq %}<div class="field">faq</div><dl>{% for q, a in f.faq %}<dt>{{ q }}</dt><dd>{{ a }}</dd>{% endfor %}</dl>{% endif %}
    <div class="field">body</div>
    {{ f.body }}
  </article>
</section>
{% endfor %}
</main>
</body>
</html>
"""


def _tip(n: NumberCheck, index: EvidenceIndex) -> Markup:
    parts = [Markup("<b>{}</b> · {}").format(n.status, n.severity)]
    if n.strength:
        parts.append(Markup('<span class="qc-strength">evidence: {}</span>').format(n.strength))
    if n.message:
        parts.append(escape(n.message))
    if n.source:
        s = n.source
        page = f"p.{s.page}" + (f" (printed {s.page_label})" if s.page_label and s.page_label != str(s.page) else "")
        title = index.reports[s.report].title if s.report in index.reports else ""
        parts.append(Markup("{} {} {}").format(s.report, page, title))
        if s.labels:
            parts.append(escape(" · ".join(s.labels)))
        if s.quote:
            parts.append(Markup("<q>{}</q>").format(s.quote))
    if n.derivation:
        parts.append(Markup("<code>{}</code>").format(n.derivation))
    if n.cited:
        parts.append(escape("cited here: " + ", ".join(n.cited)))
    return Markup("<br>").join(parts)


def _href(n: NumberCheck, index: EvidenceIndex, pdf_base: dict[str, str] | str) -> str | None:
    if not n.source or n.source.report not in index.reports:
        return None
    base = pdf_base.get(n.source.report, "") if isinstance(pdf_base, dict) else pdf_base
    file = index.reports[n.source.report].file
    return f"{base.rstrip('/') + '/' if base else ''}{file}#page={n.source.page}"


def _wrap(text: str, numbers: list[NumberCheck]) -> tuple[str, list[NumberCheck]]:
    """Insert private-use markers around each number's span (from the end, so offsets stay valid)."""
    spans = sorted((n for n in numbers if 0 <= n.start < n.end <= len(text)), key=lambda n: n.start)
    kept: list[NumberCheck] = []
    last = -1
    for n in spans:  # drop overlaps rather than emit broken markup
        if n.start >= last:
            kept.append(n)
            last = n.end
    for k in range(len(kept) - 1, -1, -1):
        n = kept[k]
        text = text[: n.start] + f"{_OPEN}{k}{_MID}" + text[n.start : n.end] + _CLOSE + text[n.end :]
    return text, kept


def _elements(html: str, kept: list[NumberCheck], index: EvidenceIndex, pdf_base: dict[str, str] | str) -> Markup:
    def repl(m: re.Match[str]) -> str:
        if m.group(0) == _CLOSE:
            return "</span>"
        n = kept[int(m.group(1))]
        cls = f"qc qc-{n.status}" + (" qc-warning" if n.severity == "warning" else "")
        href = _href(n, index, pdf_base)
        tip = _tip(n, index)
        label = Markup(' aria-label="{}"').format(f"{n.status}: {n.message}")
        link = Markup('<a href="{}" target="_blank" rel="noopener">').format(href) if href else Markup("")
        # The number's own text follows; the link closes with the span (see the _CLOSE replacement below).
        return str(Markup('<span class="{}" id="n-{}" tabindex="0"{}><span class="tip" role="tooltip">{}</span>{}').format(
            cls, n.id, label, tip, link)) + ("\ue003" if href else "")  # fmt: skip

    out = _MARK.sub(repl, html)
    # Close the link before its span: "\ue003…</span>" → "…</a></span>".
    out = re.sub("\ue003(.*?)</span>", lambda m: m.group(1) + "</a></span>", out, flags=re.S)
    return Markup(out)


def _inline(text: str, numbers: list[NumberCheck], index: EvidenceIndex, pdf_base: dict[str, str] | str) -> Markup:
    wrapped, kept = _wrap(text, numbers)
    return _elements(str(escape(wrapped)), kept, index, pdf_base)


def render_html(
    report: CheckReport, drafts: dict[str, Draft], index: EvidenceIndex, *, pdf_base: dict[str, str] | str = ""
) -> str:
    """The reviewer's page: each article with every number highlighted by status, its source and derivation on
    hover or focus, and a link that opens the PDF at the page. `pdf_base` is where the PDFs are, per report id."""
    from jinja2 import Environment, StrictUndefined
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    files: list[dict[str, Any]] = []
    lang = "en"
    for result in report.files:
        draft = drafts.get(result.file)
        by_field: dict[str, list[NumberCheck]] = {}
        for n in result.numbers:
            by_field.setdefault(n.field, []).append(n)
        findings = [n for n in result.numbers if n.severity in ("error", "warning")]
        if draft is None:
            files.append({"result": result, "findings": findings, "title": result.file, "answer": "", "faq": [],
                          "body": Markup(""), "lang": "en"})  # fmt: skip
            continue
        meta = draft.meta
        lang = meta.lang

        def field(name: str, text: str, by_field: dict[str, list[NumberCheck]] = by_field) -> Markup:
            return _inline(text, by_field.get(name, []), index, pdf_base)

        body, kept = _wrap(draft.body, by_field.get("body", []))
        files.append({
            "result": result,
            "findings": findings,
            "title": field("title", meta.title),
            "answer": field("answer", meta.answer),
            "faq": [(field(f"faq.{i}.q", qa.q), field(f"faq.{i}.a", qa.a)) for i, qa in enumerate(meta.faq)],
            "body": _elements(md.render(body), kept, index, pdf_base),
            "lang": meta.lang,
        })  # fmt: skip
    env = Environment(autoescape=True, undefined=StrictUndefined)
    return env.from_string(_PAGE).render(report=report, files=files, statuses=ALL_STATUSES, lang=lang)
