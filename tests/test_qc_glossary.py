"""One zh↔en glossary (qc/glossary.yaml): QC's context words and the drafter's labels read the same file."""

from __future__ import annotations

from test_qc_fullwidth import _statuses

from pipeline.drafting import lang, prompts, select
from qc import glossary
from qc.context import context_tokens


def test_the_drafter_and_qc_read_one_glossary() -> None:
    assert lang.glossary_terms is glossary.glossary_terms and select.glossary is glossary.glossary
    assert glossary.glossary_terms()["吞吐"] == "throughput"
    # QC's own words are no input of drafting: the drafter's cache key reads the file without them
    assert "words:" not in glossary.glossary_text() and "words" in glossary.glossary()
    assert prompts.prompts_hash()  # (still made from the prompts and the glossary)


def test_an_english_word_of_a_glossary_term_names_the_chinese_label() -> None:
    words = glossary.english_words()
    assert words["throughput"] == "吞吐" and words["concurrency"] == "并发"
    # a one-word translation of `terms` bridges too: `core` ↔ `核心`, `metric` ↔ `指标`
    assert "核心" in context_tokens("two A72 cores: core frequency") and "指标" in context_tokens("each metric")
    assert "核心" not in context_tokens("two A72 processors")


def test_an_english_words_inflections_stand_for_its_chinese_term() -> None:
    # `prefix caching` must share 缓存 with a Chinese claim as `Cache Ratio` does, or a swap check weighs them unevenly
    assert "缓存" in context_tokens("enhances effective caching capacity by 42%")
    assert "缓存" in context_tokens("the cached blocks")
    assert "缓存" in context_tokens("Cache Ratio")


def test_english_memory_names_the_chinese_memory_label() -> None:
    # O1's test bed prints `内存 | 512 GB DDR4` (表 1-1); an English draft says `memory 512 GB DDR4` (c25)
    assert "内存" in context_tokens("CPU Intel Xeon 8280 @ 2.7GHz, memory 512 GB DDR4")


def test_a_glossary_phrase_names_its_term_where_its_words_name_another() -> None:
    # English over a Chinese run-stability table: `time` alone is 时间, which only 用户态时间 has; `total time` is 总耗时
    assert _statuses("The total time averages 3.78 s, the user time 3.15 s【出处:R6 实测】。") == {
        "3.78 s": "verified",
        "3.15 s": "verified",
    }
    assert _statuses("The total time averages 3.15 s【出处:R6 实测】。") == {"3.15 s": "mismatch"}
