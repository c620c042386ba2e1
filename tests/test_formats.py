"""The content formats: publish.toml, reports.yaml, briefs and drafts, good and bad."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence.errors import ConfigError, InputError, InputErrors
from evidence.registry import load_registry
from pipeline.brief import load_brief
from pipeline.config import find_root, load_config, open_root
from qc.draft import citations, parse_draft


def write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


# --- publish.toml -------------------------------------------------------------------------------


def test_example_config_loads() -> None:
    root = open_root(Path(__file__).parent.parent / "site" / "articles" / "kv-cache-ttft.yaml")
    assert root.path.name == "site"
    assert root.config.site.brand == "芯元一"
    assert root.config.drafter.model == "offline"
    assert root.store == root.path / ".publish" / "evidence.sqlite"


def test_config_every_key_optional(tmp_path: Path) -> None:
    write(tmp_path / "publish.toml", "")
    cfg = load_config(tmp_path)
    assert cfg.drafter.max_repairs == 2 and cfg.site.output == "public"


def test_config_unknown_key_names_line(tmp_path: Path) -> None:
    write(tmp_path / "publish.toml", '[site]\ntitle = "x"\ncolour = "red"\n')
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path)
    assert "unknown key 'site.colour'" in str(e.value)
    assert e.value.line == 3


def test_config_bad_toml(tmp_path: Path) -> None:
    write(tmp_path / "publish.toml", "[site\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(tmp_path)


def test_find_root_walks_up(tmp_path: Path) -> None:
    write(tmp_path / "publish.toml", "")
    deep = tmp_path / "articles" / "x"
    deep.mkdir(parents=True)
    assert find_root(deep / "a.yaml") == tmp_path.resolve()


def test_find_root_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no publish\.toml"):
        find_root(tmp_path)


# --- reports.yaml -------------------------------------------------------------------------------

REG = """reports:
  - id: R1
    title: One
    date: 2026-07-03
    file: R1.pdf
  - id: R2
    title: Two
    date: 2026-07-05
    file: R2.pdf
    access: on-request
"""


def test_registry_good(tmp_path: Path) -> None:
    write(tmp_path / "reports.yaml", REG)
    reports = load_registry(tmp_path)
    assert [r.id for r in reports] == ["R1", "R2"]
    assert reports[0].access == "public" and reports[1].access == "on-request"
    assert str(reports[1].date) == "2026-07-05"


def test_registry_duplicate_id_names_line(tmp_path: Path) -> None:
    write(tmp_path / "reports.yaml", REG.replace("id: R2", "id: R1"))
    with pytest.raises(InputError) as e:
        load_registry(tmp_path)
    assert "duplicate report id 'R1'" in str(e.value)
    assert e.value.line == 6


def test_registry_every_problem_at_once(tmp_path: Path) -> None:
    bad = REG.replace("    title: One\n", "").replace("access: on-request", "access: secret")
    write(tmp_path / "reports.yaml", bad)
    with pytest.raises(InputErrors) as e:
        load_registry(tmp_path)
    lines = str(e.value).splitlines()
    assert len(lines) == 2
    assert "missing key 'reports.0.title'" in lines[0] and ":2:" in lines[0]
    assert "reports.1.access" in lines[1] and ":9:" in lines[1]


@pytest.mark.parametrize("file", ["../etc/passwd", "/etc/passwd", "a/../../x.pdf"])
def test_registry_rejects_paths_out_of_reports(tmp_path: Path, file: str) -> None:
    write(tmp_path / "reports.yaml", REG.replace("file: R1.pdf", f"file: {file}"))
    with pytest.raises(InputError, match="inside the reports folder"):
        load_registry(tmp_path)


def test_registry_missing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        load_registry(tmp_path)


# --- briefs -------------------------------------------------------------------------------------

BRIEF = """slug: demo
title: Demo
lang: en
tags: [a]
evidence: [R1]
audience: engineers
brief: say things
questions:
  - Why?
faq_count: 2
"""


def test_brief_good(tmp_path: Path) -> None:
    b = load_brief(write(tmp_path / "demo.yaml", BRIEF), {"R1"})
    assert b.slug == "demo" and b.questions == ["Why?"] and b.drafter is None


def test_brief_unknown_key_and_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        load_brief(write(tmp_path / "demo.yaml", BRIEF + "colour: red\n"), {"R1"})
    assert "unknown key 'colour'" in str(e.value) and e.value.line == 11


def test_brief_missing_key(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing key 'audience'"):
        load_brief(write(tmp_path / "demo.yaml", BRIEF.replace("audience: engineers\n", "")), {"R1"})


def test_brief_unknown_report(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        load_brief(write(tmp_path / "demo.yaml", BRIEF.replace("[R1]", "[R1, R7]")), {"R1"})
    assert "unknown report id R7" in str(e.value) and e.value.line == 5


def test_brief_malformed_yaml_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        load_brief(write(tmp_path / "demo.yaml", BRIEF.replace("tags: [a]", "tags: [a")), {"R1"})
    assert "invalid YAML" in str(e.value) and e.value.line is not None


def test_brief_slug_must_match_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not match the file name"):
        load_brief(write(tmp_path / "other.yaml", BRIEF), {"R1"})


def test_brief_drafter_choice(tmp_path: Path) -> None:
    text = BRIEF + "drafter:\n  model: openai:gpt-4.1\n  base_url: http://127.0.0.1:9/v1\n"
    b = load_brief(write(tmp_path / "demo.yaml", text), {"R1"})
    assert b.drafter is not None and not isinstance(b.drafter, str) and b.drafter.model == "openai:gpt-4.1"


def test_example_briefs_load() -> None:
    site = Path(__file__).parent.parent / "site"
    ids = {r.id for r in load_registry(site / "reports")}
    for p in sorted((site / "articles").glob("*.yaml")):
        b = load_brief(p, ids)
        assert b.evidence and b.questions


# --- drafts -------------------------------------------------------------------------------------

DRAFT = """---
title: T
lang: zh
date: 2026-07-08
tags: [KV Cache]
evidence: [R2]
answer: TTFT 降低 26%【出处:R2 实测】。
faq:
  - q: 多少?
    a: 26%【出处:R2 实测】
---
## 问题一

正文 7.53s【出处:R2 实测】。
"""


def test_draft_parses_with_body_line() -> None:
    d = parse_draft(DRAFT, "a.md")
    assert d.meta.title == "T" and d.meta.faq[0].a.startswith("26%")
    assert d.body_line == 12
    assert d.body.splitlines()[0] == "## 问题一"
    assert d.front_lines["answer"] == 7 and d.front_lines["faq.0.a"] == 10


def test_draft_front_matter_errors_have_file_lines() -> None:
    with pytest.raises(InputError) as e:
        parse_draft(DRAFT.replace("lang: zh", "lang: fr"), "a.md")
    assert e.value.line == 3 and "lang" in str(e.value)


def test_draft_without_front_matter() -> None:
    with pytest.raises(InputError, match="must start with '---'"):
        parse_draft("# hello\n", "a.md")


def test_draft_unclosed_front_matter() -> None:
    with pytest.raises(InputError, match="not closed"):
        parse_draft("---\ntitle: x\n", "a.md")


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("【出处:R2 实测】", ["R2"]),
        ("【出处:R1/R9 实测】", ["R1", "R9"]),
        ("【出处：R1、R9】", ["R1", "R9"]),
        ("[source: R2]", ["R2"]),
        ("[source: R1, R9]", ["R1", "R9"]),
    ],
)
def test_citation_markers(text: str, ids: list[str]) -> None:
    assert [c[2] for c in citations(f"x {text} y")] == [ids]
