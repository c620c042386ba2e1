"""The article's language: sentence templates, the zh↔en glossary, typesetting, and the words questions are matched by."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import yaml
from jinja2 import Environment, StrictUndefined

from pipeline.drafting.schema import Sentence
from pipeline.resources import templates_dir
from qc.glossary import glossary_terms  # (the drafter's glossary is QC's: one file)

PROMPTS = templates_dir() / "prompts"  # prompt templates and sentence templates (the glossary is qc/glossary.yaml)
CJK = re.compile(r"[\u3400-\u9fff]")
CJK_RUN = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]+")
RANKED = re.compile(r"\b(top|rank)[\s_-]?(\d+)\b")
COUNTED = re.compile(r"(\d+)x([a-z]+\d*)")
CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z][a-z])")
RATIO_UNITS = frozenset({"x", "倍", "×"})
UNIT_NOTE = re.compile(r"\s*[((]\s*单位\s*[::][^))]*[))]")
# `A 与 B` between two terms the glossary left in Latin (a CJK run around it is untranslated text): `A and B`, or
# `A vs B` in a label that compares (`v1.8 与 v2.0 指标对比`).
CONNECTIVE = re.compile(r"(?<=[A-Za-z0-9)）])\s*(?:以及|与|和|及|跟)\s*(?=[A-Za-z0-9(（])")
COMPARES = re.compile(r"对比|比较|相比|\bvs\.?(?!\w)", re.IGNORECASE)
KEEP = ("\x02", "\x03")  # brackets around report labels inside generated text (removed before output)


@cache
def _templates(lang: str) -> dict[str, Any]:
    data = yaml.safe_load((PROMPTS / f"offline.{lang}.yaml").read_text(encoding="utf-8"))
    glossary = glossary_terms()
    stop = frozenset(str(data.pop("stopwords", "")).split())
    env = Environment(undefined=StrictUndefined, autoescape=False)  # Markdown text out, not HTML
    compiled = {k: env.from_string(v) for k, v in data.items()}
    return {"t": compiled, "glossary": sorted(glossary.items(), key=lambda kv: -len(kv[0])), "stop": stop}


class Lang:
    """Sentence templates and label translation for one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        data = _templates(lang)
        self._t = data["t"]
        self._glossary = data["glossary"]

    def __call__(self, key: str, **kw: Any) -> str:
        return self._t[key].render(**kw)

    def label(self, text: str) -> str:
        """A report label in the article's language (en: glossary, longest match first)."""
        text = re.sub(r"\s+", " ", text).strip()
        if self.lang == "zh" or not CJK.search(text):
            return text
        text = UNIT_NOTE.sub("", text)  # `(单位:秒)`: each number carries its unit
        joiner = " vs " if COMPARES.search(text) else " and "
        for zh, en in self._glossary:
            if zh in text:
                text = text.replace(zh, f" {en} ")
        text = CONNECTIVE.sub(joiner, text)
        if CJK.search(text) and LATIN_WORD.search(CJK_RUN.sub(" ", text)):
            # A bilingual label (`待机功耗 Standby power`) or one the glossary half translated: its English words.
            text = CJK_RUN.sub(" ", text)
        text = re.sub(r"\s+", " ", re.sub(r",\s*", ", ", text))
        text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
        return re.sub(r"\s+([),.;:])", r"\1", re.sub(r"([(])\s+", r"\1", text)).strip(" ,;:·-")

    def name(self, text: str) -> str:
        """A label for output; zh marks it so typesetting never changes its inside (verbatim terms stay verbatim)."""
        text = self.label(text)
        return f"{KEEP[0]}{text}{KEEP[1]}" if self.lang == "zh" and text else text

    def unit(self, unit: str) -> str:
        if unit in RATIO_UNITS:
            return " 倍" if self.lang == "zh" else "x"
        if unit == "%":
            return "%"
        if self.lang == "en" and CJK.search(unit):
            return " " + self.label(unit)
        return f" {unit}" if unit else ""


def terms(text: str, lang: str) -> list[str]:
    """Words to match questions with: Chinese bigrams, Latin words (en: stop words dropped, crudely stemmed)."""
    out: list[str] = []
    text = CAMEL.sub(" ", text)  # `AvgLat` (a console table's header) is `avg lat`
    text = RANKED.sub(r"\1\2", text.lower())  # `top-1`, `Top 1` and `Acc-top1` name the same accuracy
    for w in WORD.findall(text):
        if CJK.match(w):
            out.extend(w[i : i + 2] for i in range(max(1, len(w) - 1)))
        elif w in _templates(lang)["stop"]:
            continue
        else:
            if lang == "en" and len(w) > 5 and w.endswith("ing"):
                w = w[:-3]
            elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
                w = w[:-1]
            out.append(w)
            count = COUNTED.fullmatch(w)  # `1xa53` (one A53 core) is also `1x` and `a53`
            if count:
                out.extend((f"{count.group(1)}x", count.group(2)))
    return out


def spaced(text: str, lang: str) -> str:
    """zh: a space between Chinese and Latin letters or digits, as technical Chinese is typeset — except inside
    report labels, which keep their printed form."""
    chars: list[tuple[str, int]] = []  # (char, label number or 0)
    label, n = 0, 0
    for ch in text:
        if ch == KEEP[0]:
            n += 1
            label = n
        elif ch == KEEP[1]:
            label = 0
        else:
            chars.append((ch, label))
    if lang != "zh":
        return "".join(c for c, _ in chars)
    out = []
    for i, (ch, lab) in enumerate(chars):
        if i and not (lab and lab == chars[i - 1][1]):
            prev = chars[i - 1][0]
            if (CJK.match(prev) and re.match(r"[A-Za-z0-9]", ch)) or (
                re.match(r"[A-Za-z0-9%]", prev) and CJK.match(ch)
            ):
                out.append(" ")
        out.append(ch)
    return "".join(out)


_MARKER = re.compile(r"【[^】]*】|\[\s*source\s*:[^\]]*\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[A-Za-z]+|[\u3400-\u9fff]")


def gist(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """What a sentence says, for telling a repeat: its numbers (in order of size) and its words."""
    plain = _MARKER.sub("", text.replace(KEEP[0], "").replace(KEEP[1], ""))
    nums = tuple(sorted(_NUMBER.findall(plain)))
    return nums, frozenset(_WORD.findall(plain.lower()))


def restates(a: tuple[tuple[str, ...], frozenset[str]], b: tuple[tuple[str, ...], frozenset[str]]) -> bool:
    """Does one sentence repeat the other: the same numbers (at least one), the words of one all among the other's
    (`GoogleNet 从 1388 ms 降至 498 ms` and `变化最大的是:GoogleNet 从 1388 ms 降至 498 ms`)."""
    return bool(a[0]) and a[0] == b[0] and (a[1] <= b[1] or b[1] <= a[1])


def sentence(text: str, reports: list[str], lang: str) -> Sentence:
    """Generated text as a schema sentence: typeset, capitalised (en), citing `reports`."""
    text = spaced(text, lang)
    first = text.split(" ", 1)[0]
    # (a name with capitals after its first letter, `vLLM`, `iPhone`, is printed as its maker prints it)
    if lang == "en" and text[:1].islower() and first[1:] == first[1:].lower():
        text = text[0].upper() + text[1:]
    return Sentence(text=text, reports=reports)
