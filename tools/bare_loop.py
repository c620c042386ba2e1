"""The floor for a Python site build: markdown-it-py + one Jinja2 template per page, one process, no QC."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment, StrictUndefined
from markdown_it import MarkdownIt

ARTICLE = """<!doctype html>
<html lang="{{ meta.lang }}"><head><meta charset="utf-8"><title>{{ meta.title }}</title></head>
<body><header><a href="../">{{ site }}</a></header>
<article><h1>{{ meta.title }}</h1>
<p class="meta">{{ meta.date }} · {% for t in meta.tags %}<a href="../tags/{{ t|urlencode }}/">{{ t }}</a> {% endfor %}</p>
<section class="answer">{{ meta.answer }}</section>
{{ body|safe }}
<section class="faq">{% for qa in meta.faq %}<h3>{{ qa.q }}</h3><p>{{ qa.a }}</p>{% endfor %}</section>
</article></body></html>
"""
LISTING = """<!doctype html>
<html><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><h1>{{ title }}</h1><ul>
{% for slug, meta in items %}<li><a href="{{ prefix }}{{ slug }}/">{{ meta.title }}</a> {{ meta.date }}</li>
{% endfor %}</ul></body></html>
"""


def split(text: str) -> tuple[dict[str, Any], str]:
    """Front matter and body of a draft."""
    _, front, body = text.split("---\n", 2)
    return yaml.load(front, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), body


def build(articles: Path, out: Path, site: str = "bench") -> int:
    """Render every `articles/*.md` to `out/<slug>/index.html`, plus an index and one page per tag."""
    md = MarkdownIt("commonmark").enable("table")
    env = Environment(autoescape=True, undefined=StrictUndefined)
    article_t, listing_t = env.from_string(ARTICLE), env.from_string(LISTING)
    items: list[tuple[str, dict[str, Any]]] = []
    tags: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for path in sorted(articles.glob("*.md")):
        meta, body = split(path.read_text(encoding="utf-8"))
        slug = path.stem
        page = out / slug / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(article_t.render(meta=meta, body=md.render(body), site=site), encoding="utf-8")
        items.append((slug, meta))
        for t in meta.get("tags", []):
            tags[t].append((slug, meta))
    items.sort(key=lambda x: str(x[1]["date"]), reverse=True)
    (out / "index.html").write_text(listing_t.render(title=site, items=items, prefix=""), encoding="utf-8")
    for tag, tagged in tags.items():
        page = out / "tags" / tag / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(listing_t.render(title=tag, items=tagged, prefix="../../"), encoding="utf-8")
    return len(items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path, help="content root (its articles/*.md are rendered)")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    n = build(args.root / "articles", args.out)
    print(f"{n} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
