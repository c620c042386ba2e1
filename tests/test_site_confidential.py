"""On-request reports on the real example: no output file of the site carries a figure no published article cites, nor
a line of their pages — with and without waived errors resting near them."""

from __future__ import annotations

import html
import re
from pathlib import Path

from evidence.store import Store
from pipeline.publish import build_only
from pipeline.reviewing import approve, load_article
from pipeline.website.charts import HEADING_LABEL

SLUG = "kv-cache-ttft"


def _quiet(*_: object, **__: object) -> None:
    pass


def _outputs(public: Path) -> dict[str, str]:
    """Every file the site publishes but the public PDFs, as text (HTML entities resolved)."""
    out = {}
    for p in sorted(public.rglob("*")):
        if p.is_file() and p.suffix != ".pdf":
            out[p.relative_to(public).as_posix()] = html.unescape(p.read_text(encoding="utf-8", errors="replace"))
    return out


def _secrets(root: Path) -> tuple[list[str], list[tuple[str, re.Pattern[str]]]]:
    """(page lines, figure patterns) of on-request reports that no published article prints or cites."""
    drafts = "\n".join(p.read_text(encoding="utf-8") for p in (root / "articles").glob("*.md"))
    cited: set[str] = set()
    labels: set[str] = set()  # a cited figure's own labels (its row and column names) describe what the article prints
    for brief in (root / "articles").glob("*.yaml"):
        art = load_article(brief)
        for n in art.result.numbers:
            if n.source and n.status in ("verified", "derived"):
                cited.add(n.source.figure)
                labels.update(x for x in n.source.labels if not HEADING_LABEL.match(x))
    registry = (root / "reports" / "reports.yaml").read_text(encoding="utf-8")
    lines: list[str] = []
    figures: list[tuple[str, re.Pattern[str]]] = []
    with Store(root / ".publish" / "evidence.sqlite", readonly=True) as store:
        for rep in store.reports():
            if rep.access == "public":
                continue
            for page in store.pages(rep.id):
                for line in page.text.splitlines():
                    line = line.strip()
                    if len(line) >= 8 and line not in drafts and line not in registry and line not in labels:
                        lines.append(line)
            for f in store.figures(rep.id):
                if f.id in cited:
                    continue
                token = re.search(r"\d+(?:\.\d+)?", f.raw)
                if token is None or len(token.group(0).replace(".", "")) < 3:
                    continue  # "8", "16": too short to tell a leak from any other number
                value = token.group(0)
                if re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", drafts):
                    continue  # the article prints this number itself (e.g. from a public report)
                # Not inside an attribute value such as an SVG coordinate (y="245").
                figures.append((f.id, re.compile(rf'(?<![0-9A-Za-z.,"]){re.escape(value)}(?![0-9A-Za-z,"])')))
    assert lines and figures, "the example's on-request report has text and uncited figures to keep"
    return lines, figures


def _assert_nothing_leaks(root: Path) -> None:
    public = root / "public"
    assert not list(public.rglob("R9.pdf"))
    lines, figures = _secrets(root)
    outputs = _outputs(public)
    kinds = {k.rsplit(".", 1)[-1] for k in outputs}
    assert {"html", "xml", "json", "txt"} <= kinds  # pages, feed and sitemap, search shards, robots
    for rel, text in outputs.items():
        for line in lines:
            assert line not in text, (rel, line)
        for fid, pattern in figures:
            assert fid not in text, (rel, fid)
            m = pattern.search(text)
            assert m is None, (rel, fid, text[max(0, m.start() - 80) : m.end() + 80])


def test_no_output_names_what_no_article_prints_of_an_on_request_report(example_root: Path) -> None:
    build_only(example_root)
    _assert_nothing_leaks(example_root)
    # A term found verbatim on an on-request page (the platform's model number) quotes only the term.
    draft = example_root / "articles" / f"{SLUG}.md"
    draft.write_text(
        draft.read_text(encoding="utf-8") + "\n加载测试的平台为华为 Atlas 910B【出处:R9 实测】。\n", "utf-8"
    )
    brief = example_root / "articles" / f"{SLUG}.yaml"
    numbers = [n for n in load_article(brief).result.numbers if "910" in n.text]
    assert numbers and all(n.status == "verified" and n.source and not n.source.figure for n in numbers), numbers
    approve(brief, reviewer="Li Wei", note=None, waive=[], reasons=[], echo=_quiet)
    build_only(example_root)
    page = (example_root / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")
    assert f"“{numbers[0].text}”" in page  # the tooltip's quote is the term itself
    _assert_nothing_leaks(example_root)


def test_a_waived_error_near_an_uncited_on_request_figure_shows_only_the_reason(example_root: Path) -> None:
    draft = example_root / "articles" / f"{SLUG}.md"
    draft.write_text(
        draft.read_text(encoding="utf-8") + "\nDeepSeek-7B 服务加载约为 246 s【出处:R9 实测】。\n", encoding="utf-8"
    )
    brief = example_root / "articles" / f"{SLUG}.yaml"
    errors = load_article(brief).result.errors()
    wrong = [n for n in errors if "246 s" in n.text]
    assert len(wrong) == 1, [(n.text, n.status) for n in errors]
    assert {n.text for n in errors} - {wrong[0].text} <= {"6.2–9.3 倍"}, [(n.text, n.status) for n in errors]
    # Naming DeepSeek-7B also makes the article's `模型加载加速 6.2–9.3 倍` a range that leaves out a model it speaks of
    # (R9: 7B 4.0×): QC flags that too; both are waived here, with one reason each.
    reason = "实验室复测值,见工单 12"
    approve(brief, reviewer="Li Wei", note=None, waive=[n.id for n in errors], reasons=[reason] * len(errors),
            echo=_quiet)  # fmt: skip
    build_only(example_root)
    page = (example_root / "public" / "articles" / SLUG / "index.html").read_text(encoding="utf-8")
    waived = [w.group(0) for w in re.finditer(r'<span class="num num-accepted"[^>]*>.*?</span></span>', page, re.S)]
    assert any(wrong[0].text in w and reason in w for w in waived), waived
    assert "num-error" not in page and "未通过质检" not in page  # not shown to readers as a failure
    _assert_nothing_leaks(example_root)
