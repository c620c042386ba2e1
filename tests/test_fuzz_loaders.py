"""Fuzz the hand-edited formats: mutated drafts, briefs, registries and publish.toml load or fail with an InputError."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzz, mutated
from hypothesis import given
from hypothesis import strategies as st

from evidence.errors import InputError, InputErrors
from evidence.registry import load_registry
from evidence.yamlio import parse_yaml
from pipeline.brief import load_brief
from pipeline.config import load_config
from qc.draft import parse_draft

SITE = Path(__file__).resolve().parent.parent / "site"
BRIEF = (SITE / "articles" / "kv-cache-ttft.yaml").read_text(encoding="utf-8")
REGISTRY = (SITE / "reports" / "reports.yaml").read_text(encoding="utf-8")
CONFIG = (SITE / "publish.toml").read_text(encoding="utf-8") + (
    '\n[qc.severity]\nuncited = "warning"\n\n[limits]\nmax_pdf_pages = 50\nmax_article_bytes = 100000\n'
)
DRAFT = """---
title: 存储加速能把 TTFT 降低多少?
lang: zh
date: 2026-07-08
updated: 2026-07-09
tags: [KV Cache, 存储加速]
evidence: [R1, R2, R9]
answer: 长上下文冷恢复下 TTFT 降低 26–32%【出处:R2 实测】。
faq:
  - q: 并发 8 档 TTFT p50 是多少?
    a: 从 10.17s 降至 7.53s【出处:R2 实测】。
  - q: "Checkpoint?"
    a: 保存时间从 178s 降至 94s【出处:R1 实测】。
slug: kv-fuzz
drafted:
  drafter: offline
  inputs: abc
  output: def
---
## 长上下文冷恢复时 TTFT 降低多少?

并发 8 档下 TTFT p50 从 10.17s 降至 7.53s【出处:R2 实测】。
"""
TOML_SNIPPETS = [
    "[site",
    "[[site]]",
    "a = " + "[" * 3000 + "]" * 3000,
    "b = " + "9" * 5000,
    "c = 1979-13-27",
    'd = "\\uD800"',
    "e = nan",
    "max_pdf_pages = -1",
    "ingest_seconds_per_file = inf",
    "f = {g = {h = 1}}",
    "site = 3",
    '"" = 1',
    "x.y.z = 1",
    "[limits]\n[limits]",
    "output = '../..'",
]


def _assert_clean_error(e: InputError, text: str) -> None:
    """A deliberate error: it names the file, each problem on its own line, and its line exists in the file."""
    problems = e.problems if isinstance(e, InputErrors) else [e]
    assert problems
    # YAML also breaks lines at \r, U+0085, U+2028 and U+2029 (as splitlines does); the end may be one past the last.
    last = len(text.splitlines()) + 2
    for p in problems:
        assert p.path, f"error without a file: {p!r}"
        assert "\n" not in str(p), f"a problem must be one line: {str(p)!r}"
        assert p.line is None or 1 <= p.line <= last, f"line {p.line} outside the file ({last - 1} lines)"


def _loads_or_input_error(load: Callable[[], Any], text: str) -> Any:
    try:
        return load()
    except InputError as e:
        _assert_clean_error(e, text)
        return None


@fuzz()
@given(mutated(DRAFT))
def test_fuzz_front_matter(text: str) -> None:
    draft = _loads_or_input_error(lambda: parse_draft(text, "articles/kv-fuzz.md"), text)
    if draft is not None:
        assert draft.meta.lang in ("zh", "en")
        assert draft.body_line >= 2
        assert text.endswith(draft.body) or text.lstrip("\ufeff").endswith(draft.body)


@fuzz()
@given(st.text(max_size=400))
def test_fuzz_front_matter_random_text(text: str) -> None:
    whole = "---\n" + text + "\n---\nbody"
    _loads_or_input_error(lambda: parse_draft(whole, "articles/x.md"), whole)


@fuzz()
@given(mutated(BRIEF))
def test_fuzz_brief(text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "kv-cache-ttft.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        brief = _loads_or_input_error(lambda: load_brief(path, {"R1", "R2", "R9"}), text)
        if brief is not None:
            assert brief.slug == "kv-cache-ttft" and brief.evidence and set(brief.evidence) <= {"R1", "R2", "R9"}


@fuzz()
@given(mutated(REGISTRY))
def test_fuzz_registry(text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "reports.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
        entries = _loads_or_input_error(lambda: load_registry(Path(d)), text)
        for entry in entries or []:
            # Whatever gets through stays inside the reports folder.
            assert (Path(d) / entry.file).resolve().is_relative_to(Path(d).resolve())
            assert len({e.id for e in entries}) == len(entries)


@fuzz()
@given(mutated(CONFIG, TOML_SNIPPETS))
def test_fuzz_config(text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "publish.toml").write_text(text, encoding="utf-8", errors="surrogatepass")
        cfg = _loads_or_input_error(lambda: load_config(Path(d)), text)
        if cfg is not None:
            assert cfg.limits.max_pdf_pages > 0 and cfg.limits.ingest_seconds_per_file > 0


@fuzz()
@given(st.binary(max_size=300))
def test_fuzz_yaml_bytes(data: bytes) -> None:
    """Arbitrary bytes in a brief: not UTF-8, NULs, a BOM — still an InputError at worst."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "x.yaml"
        path.write_bytes(data)
        # The file's text as the loader reads it, so a reported line is checked against the lines it really has.
        _loads_or_input_error(lambda: load_brief(path), data.decode("utf-8", errors="replace"))


def test_yaml_error_at_the_end_of_a_two_line_brief_names_a_line_of_it(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\n{")  # found by test_fuzz_yaml_bytes: PyYAML places the error one past the last line
    _loads_or_input_error(lambda: load_brief(path), "\n{")


# --- the inputs the fuzzers found, or that are known to break YAML/TOML loaders, kept as plain tests ----------


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("date: 2026-13-45\n", "month must be in 1..12"),
        ("n: " + "9" * 5000 + "\n", "4300 digits"),
        ("a: &a [*a]\n", "refers to a value that contains it"),
        ("a: &a {b: *a}\n", "refers to a value that contains it"),
        ("a: !!int foo\n", "invalid literal"),
        ("a: !!timestamp nope\n", "cannot read value"),
        ("a: !!python/object/apply:os.system ['true']\n", "could not determine a constructor"),
        ("x: 1\ny: \x00\n", "U+0000"),
    ],
)
def test_yaml_bad_scalars_are_input_errors(text: str, needle: str) -> None:
    with pytest.raises(InputError) as e:
        parse_yaml(text, "f.yaml")
    assert needle in str(e.value) and "\n" not in str(e.value)
    assert e.value.path == "f.yaml"


def test_yaml_billion_laughs_is_refused_quickly() -> None:
    text = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    with pytest.raises(InputError, match="expands to more than"):
        parse_yaml(text, "bomb.yaml")


def test_yaml_deep_nesting_is_an_input_error() -> None:
    with pytest.raises(InputError, match="nesting depth"):
        parse_yaml("a: " + "[" * 5000 + "]" * 5000, "deep.yaml")


def test_yaml_aliases_without_cycles_still_work() -> None:
    doc = parse_yaml("a: &x [1]\nb: *x\nc: [*x, *x]\n", "ok.yaml")
    assert doc.data == {"a": [1], "b": [1], "c": [[1], [1]]}


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 3000 + "]" * 3000,
        "b = " + "9" * 5000,
        "[limits]\nmax_pdf_pages = 0",
        "[limits]\ningest_seconds_per_file = nan",
    ],
)
def test_toml_hostile_values_are_config_errors(tmp_path: Path, text: str) -> None:
    (tmp_path / "publish.toml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_config(tmp_path)
    assert "publish.toml" in str(e.value) and "\n" not in str(e.value)


def test_not_utf8_brief_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes("slug: a\ntitle: \u4e2d".encode("gbk"))
    with pytest.raises(InputError, match="not UTF-8 text"):
        load_brief(path)


@pytest.mark.parametrize("slug", ["../../etc/passwd", "a/b", "kv\n", "KV", "a b", ".hidden", ""])
def test_draft_slug_cannot_name_another_folder(slug: str) -> None:
    text = DRAFT.replace("slug: kv-fuzz", f"slug: {slug!r}".replace("'", '"') if "\n" in slug else f"slug: '{slug}'")
    with pytest.raises(InputError, match="slug"):
        parse_draft(text, "articles/kv-fuzz.md")


def test_brief_slug_with_trailing_newline_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(BRIEF.replace("slug: kv-cache-ttft", 'slug: "a\\n"'), encoding="utf-8")
    with pytest.raises(InputError, match="slug"):
        load_brief(path)
