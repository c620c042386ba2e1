"""Shared hypothesis settings and input mutators for the fuzz and hardening tests (not a test module)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# `make test` keeps the fuzzers quick; `make fuzz` sets PROOFPRESS_FUZZ_EXAMPLES=2000 for a long run.
EXAMPLES = int(os.environ.get("PROOFPRESS_FUZZ_EXAMPLES", "60"))


def fuzz(scale: float = 1.0) -> settings:
    """Settings for one fuzz test: `scale` × the configured example count, no per-example deadline."""
    return settings(
        max_examples=max(5, int(EXAMPLES * scale)),
        deadline=None,  # the machine is shared; time bounds are asserted by the code under test, not by hypothesis
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
        print_blob=True,
    )


# Characters that matter to YAML, Markdown, HTML and number syntax, plus a few that break naive code.
SPICY = list(":-[]{}&*!|>?%@`#'\"\n\t ,.0123456789") + ["\x00", "\ufeff", "\u2028", "\r", "é", "中", "【", "】", "％"]

# Whole snippets that have crashed or hung YAML loaders elsewhere (or should be refused as unsafe).
YAML_SNIPPETS = [
    "&a [*a]",
    "!!python/object/apply:os.system ['touch /tmp/proofpress-pwned']",
    "!!python/name:os.system",
    "2026-13-45",
    "2026-02-30",
    "9" * 5000,
    "!!int foo",
    "!!float bar",
    "!!binary '%%%'",
    "!!timestamp nope",
    "? [a, b]\n: c",
    "[" * 200 + "]" * 200,
    "{a: " * 60 + "1" + "}" * 60,
    "*undefined_alias",
    "<<: *nothing",
    "!custom tag",
    "|\n  block\n text",
    "'unterminated",
    '"\\xZZ"',
    ".nan",
    "-.inf",
    "0x" + "f" * 40,
    "1:30:00",
    "~",
    "[]",
    "{}",
    "- - - -",
    "\t\tx: y",
    "%YAML 1.1\n---",
    "--- a\n--- b",
    "...",
]


@st.composite
def mutated(draw: st.DrawFn, seed: str, snippets: list[str] = YAML_SNIPPETS) -> str:
    """`seed` changed by a few random edits: characters inserted, deleted or replaced, lines cut, doubled or
    swapped, hostile snippets pasted in, or the text cut short."""
    text = seed
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "line_drop", "line_dup", "swap", "snippet", "cut"]))
        n = len(text)
        if kind in ("insert", "replace") or (kind == "delete" and n):
            at = draw(st.integers(0, max(n - 1, 0)))
            char = draw(st.sampled_from(SPICY) | st.characters(codec="utf-8"))
            if kind == "insert":
                text = text[:at] + char + text[at:]
            elif kind == "replace":
                text = text[:at] + char + text[at + 1 :]
            else:
                span = draw(st.integers(1, 20))
                text = text[:at] + text[at + span :]
        elif kind in ("line_drop", "line_dup", "swap"):
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "line_drop":
                del lines[i]
            elif kind == "line_dup":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif kind == "snippet":
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines)))
            snippet = draw(st.sampled_from(snippets))
            # Either a value of an existing key, or a line of its own.
            if i < len(lines) and ":" in lines[i] and draw(st.booleans()):
                key = lines[i].split(":", 1)[0]
                lines[i] = f"{key}: {snippet}"
            else:
                lines.insert(i, snippet)
            text = "\n".join(lines)
        else:
            text = text[: draw(st.integers(0, n))]
    return text
