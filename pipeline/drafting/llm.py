"""The LLM drafter: any LangChain chat model (the only LangChain import, lazy), structured output, QC repair rounds."""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from evidence.errors import PublishError
from pipeline.brief import Brief
from pipeline.config import DrafterConfig
from pipeline.drafting import fileformat
from pipeline.drafting.prompts import build_messages, repair_prompt
from pipeline.drafting.schema import DraftSchema
from pipeline.drafting.verdict import judge
from pipeline.errors import DraftError
from qc.draft import Draft, parse_draft
from qc.index import EvidenceIndex
from qc.models import FileResult

if TYPE_CHECKING:  # LangChain is imported lazily, only when an LLM drafter runs
    from langchain_core.language_models import BaseChatModel

Echo = Callable[..., None]
# Where each LangChain provider reads its key; a missing key is named before any network call.
API_KEYS = {
    "openai": "OPENAI_API_KEY",
    "azure_openai": "AZURE_OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "together": "TOGETHER_API_KEY",
    "fireworks": "FIREWORKS_API_KEY",
    "xai": "XAI_API_KEY",
    "cohere": "COHERE_API_KEY",
    "perplexity": "PPLX_API_KEY",
}
# Test and plug-in seam: provider name → factory building a chat model from the drafter settings.
PROVIDERS: dict[str, Callable[[DrafterConfig], BaseChatModel]] = {}


def _chat_model(cfg: DrafterConfig) -> BaseChatModel:
    provider, sep, name = cfg.model.partition(":")
    if not sep or not provider or not name:
        raise DraftError(
            f"drafter {cfg.model!r} must be 'offline' or a LangChain 'provider:model' "
            "such as openai:gpt-4.1 or ollama:qwen2.5:14b"
        )
    if provider in PROVIDERS:
        return PROVIDERS[provider](cfg)
    env = API_KEYS.get(provider)
    if env and not os.environ.get(env):
        hint = " (any value works for a local OpenAI-compatible server)" if cfg.base_url else ""
        raise DraftError(f"the {cfg.model} drafter needs an API key: set the environment variable {env}{hint}")
    kwargs: dict[str, Any] = {"temperature": cfg.temperature, "timeout": cfg.timeout, "max_retries": cfg.max_retries}
    if cfg.base_url:
        kwargs["base_url"] = cfg.base_url
    try:
        from langchain.chat_models import init_chat_model

        return init_chat_model(name, model_provider=provider, **kwargs)
    except ImportError as e:
        raise DraftError(
            f"the {provider} provider is not installed: pip install langchain-{provider.replace('_', '-')} ({e})"
        ) from e
    except (ValueError, TypeError) as e:
        raise DraftError(f"cannot set up the {cfg.model} drafter: {e}") from e


def _transport_error(e: Exception, cfg: DrafterConfig) -> DraftError:
    """A provider failure as one clear line (the client already retried what is retryable)."""
    kind = type(e).__name__
    where = cfg.base_url or "its default endpoint"
    detail = str(e).strip().splitlines()[0][:200] if str(e).strip() else kind
    if isinstance(e, TimeoutError) or "Timeout" in kind:
        msg = f"{cfg.model} did not answer within {cfg.timeout:g}s (tried {cfg.max_retries + 1} times)"
    elif isinstance(e, ConnectionError) or "Connection" in kind or "Connect" in kind:
        msg = f"cannot reach {cfg.model} at {where} after {cfg.max_retries + 1} attempts: {detail}"
    elif "Authentication" in kind or "PermissionDenied" in kind:
        env = API_KEYS.get(cfg.model.partition(":")[0], "the provider's API key variable")
        msg = f"{cfg.model} rejected the API key; check {env}: {detail}"
    elif "RateLimit" in kind:
        msg = f"{cfg.model} is rate-limiting requests (tried {cfg.max_retries + 1} times): {detail}"
    elif "NotFound" in kind:
        msg = f"{cfg.model}: model or endpoint not found at {where}: {detail}"
    else:
        msg = f"{cfg.model} failed ({kind}): {detail}"
    return DraftError(msg)


def _ask(structured: Any, messages: list[Any], cfg: DrafterConfig, echo: Echo, label: str) -> DraftSchema:
    """One structured answer; a malformed answer is asked again (bounded), transport errors end the run."""
    from langchain_core.messages import HumanMessage

    attempts = cfg.max_retries + 1
    problem = ""
    for attempt in range(1, attempts + 1):
        echo(
            f"  {label}: asking {cfg.model}" + (f" (attempt {attempt}/{attempts})" if attempt > 1 else "") + " …",
            err=True,
        )
        started = time.monotonic()
        try:
            out = structured.invoke(messages)
        except PublishError:
            raise
        except Exception as e:  # provider clients raise their own classes; classify by name
            if "OutputParser" in type(e).__name__ or isinstance(e, ValidationError | json.JSONDecodeError):
                out = {"parsed": None, "parsing_error": e}
            else:
                raise _transport_error(e, cfg) from e
        echo(f"  {label}: answered in {time.monotonic() - started:.1f}s", err=True)
        parsed = out.get("parsed") if isinstance(out, dict) else out
        error = out.get("parsing_error") if isinstance(out, dict) else None
        if isinstance(parsed, dict):
            try:
                parsed = DraftSchema.model_validate(parsed)
            except ValidationError as e:
                parsed, error = None, e
        if isinstance(parsed, DraftSchema) and not error:
            return parsed
        problem = str(error or "no structured answer").strip().splitlines()[0][:300]
        messages = [
            *messages,
            HumanMessage(
                f"Your previous answer could not be read as the required structured output ({problem}). "
                "Answer again with the complete draft in exactly that structure."
            ),
        ]
    raise DraftError(f"{cfg.model} returned a malformed answer {attempts} times: {problem}")


def llm_draft(
    brief: Brief,
    index: EvidenceIndex,
    cfg: DrafterConfig,
    *,
    inputs: str,
    date: dt.date,
    updated: dt.date | None,
    path: Path,
    severity: dict[str, str],
    echo: Echo,
    max_bytes: int,
) -> tuple[str, Draft, FileResult]:
    """Draft with the model, check, feed the error findings back; at most `max_repairs` repair rounds."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    model = _chat_model(cfg)
    try:
        structured = model.with_structured_output(DraftSchema, include_raw=True)
    except NotImplementedError as e:
        raise DraftError(f"{cfg.model} does not support structured output (tool calling or JSON schema)") from e
    (_, system), (_, user) = build_messages(brief, index)
    messages: list[Any] = [SystemMessage(system), HumanMessage(user)]
    rounds = cfg.max_repairs + 1
    for n in range(1, rounds + 1):
        label = "draft" if n == 1 else f"repair {n - 1}/{cfg.max_repairs}"
        content = _ask(structured, messages, cfg, echo, label)
        content = _align(content, brief)
        text = fileformat.render_draft(brief, content, drafter=cfg.model, inputs=inputs, date=date, updated=updated)
        try:
            draft = parse_draft(text, path, max_bytes=max_bytes)
        except PublishError as e:  # e.g. the model wrote YAML-breaking text; rendering should prevent it
            raise DraftError(f"{cfg.model} produced a draft that cannot be read back: {e}") from e
        result = judge(draft, index, severity)
        errors = result.errors()
        echo(f"  {label}: QC {len(result.numbers)} numbers, {len(errors)} error{'s' * (len(errors) != 1)}", err=True)
        if result.ok or n == rounds:
            return text, draft, result
        messages += [AIMessage(content.model_dump_json()), HumanMessage(repair_prompt(result, index, brief.lang))]
    raise AssertionError("unreachable")  # pragma: no cover


def _align(content: DraftSchema, brief: Brief) -> DraftSchema:
    """Keep the brief's questions as headings, in order, even if the model rephrased them."""
    sections = list(content.sections)
    for i, q in enumerate(brief.questions):
        if i < len(sections):
            sections[i] = sections[i].model_copy(update={"question": q})
    return content.model_copy(update={"sections": sections[: len(brief.questions)]})
