"""The zh↔en glossary (qc/glossary.yaml): one file that QC's context words and the drafter's labels both read."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import Any

import yaml


@cache
def _text() -> str:
    return files("qc").joinpath("glossary.yaml").read_text(encoding="utf-8")


@cache
def glossary() -> dict[str, Any]:
    """`terms` (zh → en), `words` (en → zh, QC's context words), `synonyms`, `kinds` (question words), `dims`."""
    data: dict[str, Any] = yaml.safe_load(_text())
    return data


_QC_ONLY = "# QC's context words:"  # the last section of the file: words the drafter never reads


def glossary_text() -> str:
    """The file as the drafter reads it, without QC's context words (part of the drafter's cache key: a new QC word
    redrafts nothing)."""
    text = _text()
    return text[: text.find(_QC_ONLY)] if _QC_ONLY in text else text


def glossary_terms() -> dict[str, str]:
    """Report label terms in Chinese → English."""
    return {str(k): str(v) for k, v in (glossary().get("terms") or {}).items()}


@cache
def english_words() -> dict[str, str]:
    """English words → the Chinese term they stand for: `words`, then each one-word translation of `terms` (the
    longest Chinese term of a word is kept: `throughput` → `吞吐`, not `推理吞吐`'s two words)."""
    out = {str(k).lower(): str(v) for k, v in (glossary().get("words") or {}).items()}
    for zh, en in glossary_terms().items():
        word = en.lower()
        if word.isascii() and word.isalpha() and word not in out:
            out[word] = zh
    # a word's inflections stand for the same term (`caching`, `cached` are `cache`: 缓存)
    for word, zh in list(out.items()):
        if word.isascii() and word.isalpha() and len(word) > 3:
            base = word[:-1] if word.endswith("e") else word
            for form in (word + "s", base + "ing", base + "ed"):
                out.setdefault(form, zh)
    return out


@cache
def english_phrases() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """The multi-word English translations of `terms` (`total time` → `总耗时`, `time to first token` → `首 token
    延迟`) as one pattern over lower-case text, and each phrase's Chinese term: a phrase names its term where its
    words alone name another (`time` is 时间, which 用户态时间 has and 总耗时 lacks)."""
    out: dict[str, str] = {}
    for zh, en in glossary_terms().items():
        phrase = " ".join(en.lower().split())
        if " " in phrase and phrase.replace(" ", "").replace("-", "").isalpha() and phrase.isascii():
            out.setdefault(phrase, zh)
    if not out:
        return None, out
    alts = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in sorted(out, key=len, reverse=True))
    return re.compile(rf"\b(?:{alts})\b"), out
