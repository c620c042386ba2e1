"""Shared hypothesis settings and input mutators for the fuzz and hardening tests (not a test module)."""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# `make test` keeps the fuzzers quick and derandomized (the same examples every run: CI never fails on a new random
# find); `make fuzz` sets PROOFPRESS_FUZZ_EXAMPLES=2000 for a long random run, whose finds become plain tests.
EXAMPLES = int(os.environ.get("PROOFPRESS_FUZZ_EXAMPLES", "60"))
EXPLORE = "PROOFPRESS_FUZZ_EXAMPLES" in os.environ


def fuzz(scale: float = 1.0) -> settings:
    """Settings for one fuzz test: `scale` × the configured example count, no per-example deadline."""
    return settings(
        max_examples=max(5, int(EXAMPLES * scale)),
        deadline=None,  # the machine is shared; time bounds are asserted by the code under test, not by hypothesis
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
        print_blob=True,
        derandomize=not EXPLORE,
    )


# Characters that matter to YAML, Markdown, HTML and number syntax, plus a few that break naive code.
SPICY = [*list(":-[]{}&*!|>?%@`#'\"\n\t ,.0123456789"), "\x00", "\ufeff", "\u2028", "\r", "é", "中", "【", "】", "％"]

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
        # Hypothesis favours small integers; most edits skip the first line, or every draft would lose its `---`.
        lo = min(text.find("\n") + 1, max(n - 1, 0)) if draw(st.integers(0, 4)) else 0
        if kind in ("insert", "replace") or (kind == "delete" and n):
            at = draw(st.integers(lo, max(n - 1, lo)))
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
            first = 1 if lo and len(lines) > 1 else 0
            i = draw(st.integers(first, len(lines) - 1))
            j = draw(st.integers(first, len(lines) - 1))
            if kind == "line_drop":
                del lines[i]
            elif kind == "line_dup":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif kind == "snippet":
            lines = text.split("\n")
            i = draw(st.integers(1 if lo else 0, len(lines)))
            snippet = draw(st.sampled_from(snippets))
            # Either a value of an existing key, or a line of its own.
            if i < len(lines) and ":" in lines[i] and draw(st.booleans()):
                key = lines[i].split(":", 1)[0]
                lines[i] = f"{key}: {snippet}"
            else:
                lines.insert(i, snippet)
            text = "\n".join(lines)
        else:
            text = text[: draw(st.integers(lo, n))]
    return text


# --- is this HTML inert? ------------------------------------------------------------------------------------------

# Payloads that have run script in some renderer, for the injection tests. Each one that could run would call
# alert() or console.log() with "PWNED" (the browser test listens for both) or set window.__pwned.
XSS = [
    "<script>alert('PWNED')</script>",
    "<img src=x onerror=alert('PWNED')>",
    '"><svg onload=alert("PWNED")>',
    "'><iframe src=javascript:alert('PWNED')>",
    "[click](javascript:alert('PWNED'))",
    "[click](JaVaScRiPt:alert('PWNED'))",
    "[click](&#106;avascript:alert('PWNED'))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgnUFdORUQnKTwvc2NyaXB0Pg==)",
    "[click](vbscript:msgbox('PWNED'))",
    "<javascript:alert('PWNED')>",
    "<data:text/html,<script>alert('PWNED')</script>>",
    "![img](javascript:alert('PWNED'))",
    '[x](https://example.com "title\\" onmouseover=\\"alert(\'PWNED\')")',
    "&lt;script&gt;alert('PWNED')&lt;/script&gt;",
    "&#60;script&#62;alert('PWNED')&#60;/script&#62;",
    "</script><script>console.log('PWNED')</script>",
    "<!--<script>alert('PWNED')</script>-->",
    "<style>body{background:url(javascript:alert('PWNED'))}</style>",
    "<a href='javascript:alert(1)' onclick=\"window.__pwned=1\">x</a>",
    "<details open ontoggle=alert('PWNED')>",
    "`<script>alert('PWNED')</script>`",
    "\u2028\u2029</title><script>alert('PWNED')</script>",
    "{{ 7*7 }} {% raw %}",
]

_URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "background", "srcset", "ping"}
_NEVER = {"iframe", "object", "embed", "frame", "frameset", "applet", "base", "math", "template", "xmp", "plaintext"}


def _scheme(url: str) -> str:
    # What a browser does before reading the scheme: drop leading C0 controls and spaces, and tabs/newlines anywhere.
    cleaned = "".join(c for c in url.lstrip("".join(map(chr, range(33)))) if c not in "\t\n\r")
    head = cleaned.split(":", 1)[0].lower() if ":" in cleaned else ""
    return head if head.isalpha() else ""


def active_content(html: str, *, allow_site_chrome: bool = False) -> list[str]:
    """Everything in `html` that could run script: script/iframe/object elements, event-handler attributes,
    javascript:/data:/vbscript: URLs, inline styles with url()/expression(). `allow_site_chrome` admits what
    the site itself uses: JSON-LD blocks, its own external scripts from static/, inline SVG charts, its stylesheet."""
    from html.parser import HTMLParser

    problems: list[str] = []

    class Checker(HTMLParser):
        script_type: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = {k.lower(): v or "" for k, v in attrs}
            for k, v in a.items():
                if k.startswith("on"):
                    problems.append(f"<{tag} {k}=…>")
                if k in _URL_ATTRS and _scheme(v) in ("javascript", "vbscript", "data", "livescript"):
                    problems.append(f"<{tag} {k}={v[:40]!r}>")
                if k == "style" and re.search(r"url\s*\(|expression\s*\(|@import", v, re.I):
                    problems.append(f"<{tag} style={v[:40]!r}>")
            if tag in _NEVER:
                problems.append(f"<{tag}>")
            elif tag == "script":
                kind = a.get("type", "").lower()
                if allow_site_chrome and kind == "application/ld+json":
                    self.script_type = kind
                elif allow_site_chrome and "src" in a and not _scheme(a["src"]) and "static/" in a["src"]:
                    self.script_type = "src"
                else:
                    problems.append(f"<script {a}>")
            elif tag in ("svg", "style", "link", "meta", "form", "input", "button") and not allow_site_chrome:
                problems.append(f"<{tag}>")
            elif tag == "meta" and "refresh" in a.get("http-equiv", "").lower():
                problems.append("<meta http-equiv=refresh>")

        def handle_endtag(self, tag: str) -> None:
            if tag == "script":
                self.script_type = None

        def handle_data(self, data: str) -> None:
            if self.script_type == "src" and data.strip():
                problems.append("inline code in an external <script>")

    checker = Checker(convert_charrefs=True)
    checker.feed(html)
    checker.close()
    return problems
