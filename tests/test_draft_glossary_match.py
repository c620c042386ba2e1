"""An English question meets Chinese row names (and the reverse) through the glossary's web/load-test terms (#16)."""

from __future__ import annotations

from pipeline.drafting.select import ask, both_terms
from qc.glossary import glossary_terms


def test_english_question_meets_chinese_login_row() -> None:
    pairs = glossary_terms()
    q = ask("How fast does the login page respond?", pairs)
    login, home = both_terms("登录页面", pairs), both_terms("首页", pairs)
    assert len(q.terms & login) > len(q.terms & home)
    assert {"登录", "页面"} <= q.terms  # the question's words in Chinese
    assert "响应" in q.terms  # `respond` is the report's 响应(时间)
    # without the glossary the English question shares nothing with the Chinese row
    assert not ask("How fast does the login page respond?", {}).terms & both_terms("登录页面", {})


def test_chinese_question_meets_english_labels() -> None:
    pairs = glossary_terms()
    q = ask("首页的吞吐量和错误率是多少?", pairs)
    assert {"home", "throughput", "error", "rate"} <= q.terms
    assert "home" in both_terms("Home page", pairs)
