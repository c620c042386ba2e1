"""Inline SVG bar charts of the comparisons an article's sections make, drawn from QC'd figures and named by the
report's own labels (a chart never calls one side "improved": a rising cost would read as a gain)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipeline.website.render import html_escape as escape
from pipeline.website.render import section_starts
from qc.models import NumberCheck

# "从 10.17s 降至 7.53s", "from 178 s to 94 s", "691s → 112s": what may stand between a baseline and its result.
_CONNECTOR = re.compile(
    r"^[\s*_,，]*(?:降至|降到|降低至|降低到|缩短至|缩短到|减少至|减少到|减至|提升至|提升到|提高至|提高到|增至|增加至|增加到"
    r"|增长至|升至|上升至|至|到|→|->|—>|to|down to|up to|drops to|falls to|rises to|vs\.?|versus|对比)[\s*_]*$",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")

UI = {
    "zh": {"source": "数据来源", "page": "第 {p} 页", "unit": "单位"},
    "en": {"source": "Source", "page": "p. {p}", "unit": "unit"},
}
WIDTH, BAR_H, GAP, LABEL_H, GROUP_GAP, TOP = 640, 18, 4, 20, 14, 34
BAR_MAX = 500


@dataclass
class Pair:
    """One comparison stated in a sentence, both numbers checked against figures of one report whose labels differ
    in exactly one label each: those two labels name the series (e.g. `基线` / `FX100`, `batch 1` / `batch 16`)."""

    base: NumberCheck
    new: NumberCheck
    series: tuple[str, str]
    shared: tuple[str, ...]  # the labels both figures carry (what the pair measures)


def _series(a: NumberCheck, b: NumberCheck) -> tuple[tuple[str, str], tuple[str, ...]] | None:
    """The series names and shared labels of two figures the report's labels set side by side, else None."""
    if a.source is None or b.source is None or not a.source.figure or not b.source.figure:
        return None
    la, lb = list(a.source.labels), list(b.source.labels)
    only_a, only_b = [x for x in la if x not in lb], [x for x in lb if x not in la]
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    return (only_a[0], only_b[0]), tuple(x for x in la if x in lb)


def _pairs(body: str, numbers: Sequence[NumberCheck]) -> list[Pair]:
    usable = sorted(
        (n for n in numbers if n.field == "body" and n.source is not None and n.status == "verified" and n.value),
        key=lambda n: n.start,
    )
    out: list[Pair] = []
    i = 0
    while i + 1 < len(usable):
        a, b = usable[i], usable[i + 1]
        between = body[a.end : b.start]
        same_unit = a.unit == b.unit and a.unit != "%"
        assert a.source is not None and b.source is not None
        named = _series(a, b) if same_unit and a.source.report == b.source.report else None
        if named is not None and _CONNECTOR.match(between):
            out.append(Pair(a, b, *named))
            i += 2
        else:
            i += 1
    return out


# Table captions and section headings among a figure's labels ("表 2-1 模型加载时间", "2 模型推理加载", "4.2 推理吞吐"):
# they locate a figure but make poor bar labels, and on an on-request report they are lines of its pages.
HEADING_LABEL = re.compile(r"^\s*(?:(?:表|图|Table|Fig\.?|Figure)\s*[A-Z]?[\d.\-–]+|\d+(?:\.\d+)*\s)", re.IGNORECASE)


def _distinct_labels(pairs: list[Pair]) -> list[str]:
    """Per pair, the figure labels no other pair shares (e.g. `并发 8` vs `并发 16`), when that tells them apart."""
    sets = [{label for label in p.shared if not HEADING_LABEL.match(label)} for p in pairs]
    common = set.intersection(*sets) if sets else set()
    names = [" · ".join(sorted(s - common)) for s in sets]
    return names if all(names) and len(set(names)) == len(names) else []


def _text_width(s: str, size: float) -> float:
    return sum(size if _CJK.match(c) else size * 0.58 for c in s)


def _fmt_pages(pages: list[int], lang: str) -> str:
    ui = UI[lang]
    return (
        "、".join(ui["page"].format(p=p) for p in pages)
        if lang == "zh"
        else ", ".join(ui["page"].format(p=p) for p in pages)
    )


def _svg(pairs: list[Pair], labels: list[str], title: str, chart_id: str) -> str:
    first, second = pairs[0].series
    peak = max(max(p.base.value or 0, p.new.value or 0) for p in pairs) or 1.0
    rows: list[str] = []
    y = TOP
    desc = []
    for p, label in zip(pairs, labels, strict=True):
        rows.append(f'<text class="c-label" x="0" y="{y + 13}">{escape(label)}</text>')
        y += LABEL_H
        for cls, n in (("c-base", p.base), ("c-new", p.new)):
            w = max(2.0, BAR_MAX * (n.value or 0) / peak)
            rows.append(f'<rect class="{cls}" x="0" y="{y}" width="{w:.1f}" height="{BAR_H}" rx="2"/>')
            rows.append(f'<text class="c-value" x="{w + 6:.1f}" y="{y + 13}">{escape(n.text)}</text>')
            y += BAR_H + GAP
        y += GROUP_GAP
        desc.append(f"{label}: {first} {p.base.text}, {second} {p.new.text}")
    height = y
    bw = _text_width(first, 12)
    legend = (
        f'<rect class="c-base" x="0" y="4" width="12" height="12" rx="2"/>'
        f'<text class="c-legend" x="18" y="14">{escape(first)}</text>'
        f'<rect class="c-new" x="{bw + 36:.1f}" y="4" width="12" height="12" rx="2"/>'
        f'<text class="c-legend" x="{bw + 54:.1f}" y="14">{escape(second)}</text>'
    )
    return (
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{chart_id}-t">{escape(title)}</title><desc id="{chart_id}-d">{escape("; ".join(desc))}</desc>'
        f"{legend}{''.join(rows)}</svg>"
    )


def section_charts(
    body: str,
    numbers: Sequence[NumberCheck],
    *,
    lang: str,
    report_titles: Mapping[str, str],
    id_prefix: str = "chart",
) -> dict[int, str]:
    """SVG figures per body section (0 = before the first `##`), one per (report, unit) of its comparisons.

    A comparison is two checked numbers of one report with the same unit joined by "降至"/"to"/"→" in one
    sentence, resting on two figures whose labels differ in one label each; the series are named by those labels,
    the bars and their labels are the numbers as QC verified them, nothing typed by hand.
    """
    starts = section_starts(body)
    groups: dict[tuple[int, str, str, tuple[str, str]], list[Pair]] = {}
    for pair in _pairs(body, numbers):
        section = sum(1 for s in starts if s <= pair.base.start)
        assert pair.base.source is not None
        groups.setdefault((section, pair.base.source.report, pair.base.unit, pair.series), []).append(pair)
    out: dict[int, list[str]] = {}
    ui = UI[lang if lang in UI else "en"]
    for n, ((section, report, unit, series), pairs) in enumerate(groups.items()):
        labels = _distinct_labels(pairs) if len(pairs) > 1 else []
        if not labels:
            labels = [
                " · ".join(x for x in p.shared if not HEADING_LABEL.match(x)) or f"#{i + 1}"
                for i, p in enumerate(pairs)
            ]
        common = [x for x in pairs[0].shared if not HEADING_LABEL.match(x) and all(x in p.shared for p in pairs)]
        pages = sorted({q.source.page for p in pairs for q in (p.base, p.new) if q.source is not None})
        title = (" · ".join(common) or " / ".join(series)) + (f" ({ui['unit']}: {unit})" if unit else "")
        rtitle = report_titles.get(report, "")
        caption = f"{ui['source']}: {report}" + (f" {rtitle}" if rtitle else "") + f", {_fmt_pages(pages, lang)}"
        if lang == "zh":
            caption = f"{ui['source']}:{report}" + (f"《{rtitle}》" if rtitle else "") + _fmt_pages(pages, lang)
        cid = f"{id_prefix}{n + 1}"
        svg = _svg(pairs, labels, title, cid)
        unit_note = f" · {ui['unit']}:{unit}" if lang == "zh" and unit else (f" · {ui['unit']}: {unit}" if unit else "")
        fig = f'<figure class="chart" id="{cid}">{svg}<figcaption>{escape(caption)}{escape(unit_note)}</figcaption></figure>\n'
        out.setdefault(section, []).append(fig)
    return {k: "".join(v) for k, v in out.items()}
