"""The same Markdown as a MkDocs project (explicit nav, plain or Material theme) and as a Hugo site."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import yaml


def _title(path: Path) -> str:
    """The draft's title, read from its front matter's `title:` line (cheap: no YAML parse per file)."""
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("title:"):
                value = line.split(":", 1)[1].strip()
                return yaml.safe_load(value) if value[:1] in "'\"" else value
    return path.stem


def _link_docs(articles: Path, docs: Path) -> list[Path]:
    """Hard-link (or copy) the drafts into `docs`, so every tool reads identical bytes."""
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    files = sorted(articles.glob("*.md"))
    for f in files:
        try:
            os.link(f, docs / f.name)
        except OSError:
            shutil.copyfile(f, docs / f.name)
    return files


def write_mkdocs(articles: Path, project: Path, theme: str = "mkdocs") -> Path:
    """Write `project/mkdocs.yml` + `project/docs/` for `theme` ("mkdocs" or "material"); returns mkdocs.yml.

    The nav is explicit and short (home and an article listing), as a site of thousands of articles would have it:
    without one MkDocs puts every page into every page's navigation, which is several times slower.
    """
    project.mkdir(parents=True, exist_ok=True)
    docs = project / "docs"
    files = _link_docs(articles, docs / "articles")
    (docs / "index.md").write_text("# Bench\n\nSynthetic articles: see [the list](list.md).\n", encoding="utf-8")
    listing = ["# Articles", ""] + [f"- [{_title(f)}](articles/{f.name})" for f in files]
    (docs / "list.md").write_text("\n".join(listing) + "\n", encoding="utf-8")
    config = {
        "site_name": "Proofpress bench",
        "site_url": "https://bench.example.com/",
        "theme": {"name": theme},
        "markdown_extensions": ["tables"],
        "nav": [{"Home": "index.md"}, {"Articles": "list.md"}],
    }
    path = project / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


HUGO_SINGLE = """<!doctype html><html lang="{{ .Params.lang }}"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><article><h1>{{ .Title }}</h1><p>{{ .Date.Format "2006-01-02" }} {{ range .Params.tags }}<a href="{{ "tags/" | relURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}</p>
<section>{{ .Params.answer }}</section>{{ .Content }}
<section>{{ range .Params.faq }}<h3>{{ .q }}</h3><p>{{ .a }}</p>{{ end }}</section></article></body></html>
"""
HUGO_LIST = """<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>
"""


def write_hugo(articles: Path, project: Path) -> Path:
    """Write a minimal Hugo site (one single and one list layout) over the same drafts; returns the site folder."""
    project.mkdir(parents=True, exist_ok=True)
    _link_docs(articles, project / "content" / "articles")
    (project / "hugo.toml").write_text(
        'baseURL = "https://bench.example.com/"\ntitle = "Proofpress bench"\n'
        'disableKinds = ["RSS", "sitemap", "robotsTXT"]\n',
        encoding="utf-8",
    )
    layouts = project / "layouts" / "_default"
    layouts.mkdir(parents=True, exist_ok=True)
    (layouts / "single.html").write_text(HUGO_SINGLE, encoding="utf-8")
    (layouts / "list.html").write_text(HUGO_LIST, encoding="utf-8")
    return project


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path, help="content root (its articles/*.md are used)")
    parser.add_argument("project", type=Path)
    parser.add_argument("--theme", default="mkdocs", choices=["mkdocs", "material", "hugo"])
    args = parser.parse_args(argv)
    if args.theme == "hugo":
        print(write_hugo(args.root / "articles", args.project))
    else:
        print(write_mkdocs(args.root / "articles", args.project, args.theme))
    return 0


if __name__ == "__main__":
    sys.exit(main())
