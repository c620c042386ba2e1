"""The drafter: brief + evidence → `articles/<slug>.md`, offline by default or any LangChain chat model, repaired by QC."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from pydantic import BaseModel, Field, ValidationError

from evidence.errors import PublishError
from evidence.fsutil import atomic_write, sha256_bytes
from pipeline.brief import Brief, DrafterChoice
from pipeline.config import ContentRoot, DrafterConfig
from pipeline.errors import DraftError
from pipeline.resources import templates_dir
from qc.draft import Draft, check_article_size, parse_draft
from qc.index import EvidenceIndex
from qc.models import ALL_STATUSES, FileResult

if TYPE_CHECKING:  # LangChain is imported lazily, only when an LLM drafter runs
    from langchain_core.language_models import BaseChatModel

Echo = Callable[..., None]
PROMPTS = templates_dir() / "prompts"
FORMAT_VERSION = "1"  # bump when the rendering changes, so cached drafts are redrafted
OUTPUT_LINE = re.compile(r"^(\s+output:)[ \t]*\S.*$", re.MULTILINE)
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


# --- the structured draft: what the offline drafter builds and what an LLM answers with ---------------------------


class Sentence(BaseModel):
    """One sentence (or list item); `reports` are the ids of the reports whose figures it states."""

    text: str = Field(description="The sentence, without any citation marker.")
    reports: list[str] = Field(
        description="Ids of the reports (e.g. R2) whose figures this sentence states; empty only if it has no numbers."
    )


class Section(BaseModel):
    """The answer to one question of the brief."""

    question: str = Field(description="The question, exactly as given in the brief.")
    intro: list[Sentence] = Field(description="One or two sentences answering the question directly.")
    items: list[Sentence] = Field(description="List items, each one comparison or fact with its figures.")
    outro: list[Sentence] = Field(description="At most one closing sentence; may be empty.")


class FAQItem(BaseModel):
    """A key-point question and its short answer."""

    q: str = Field(description="The question (no numbers that are not in the reports).")
    a: Sentence


class DraftSchema(BaseModel):
    """A whole article: the direct answer, one section per question, then key-point Q&A."""

    answer: list[Sentence] = Field(description="Two or three sentences: the direct answer, with the key figures.")
    sections: list[Section]
    faq: list[FAQItem]


# --- outcome --------------------------------------------------------------------------------------------------------


@dataclass
class DraftOutcome:
    """What `draft_article` did: the draft on disk, whether it passes QC and whether it was reused."""

    path: Path
    draft: Draft
    ok: bool
    reused: bool
    result: FileResult | None = None
    report_path: Path | None = None
    drafter: str = "offline"
    message: str = ""
    backup: Path | None = None

    def __str__(self) -> str:
        verb = ("kept" if self.message else "reused") if self.reused else ("drafted" if self.ok else "FAILED QC")
        parts = [f"{verb} {self.path} ({self.drafter})"]
        if self.result is not None:
            errors = len(self.result.errors())
            parts.append(f"{len(self.result.numbers)} numbers, {errors} error{'s' * (errors != 1)}")
        if self.message:
            parts.append(self.message)
        if self.backup:
            parts.append(f"previous draft kept as {self.backup.name}")
        if self.report_path:
            parts.append(f"QC report: {self.report_path}")
        return "; ".join(parts)


def _quiet(*_: Any, **__: Any) -> None:
    pass


# --- the public function ----------------------------------------------------------------------------------------------


def draft_article(
    brief: Brief,
    root: ContentRoot,
    index: EvidenceIndex,
    *,
    redraft: bool = False,
    drafter: str | None = None,
    echo: Echo | None = None,
) -> DraftOutcome:
    """Write (or reuse) `articles/<slug>.md` for `brief`; an LLM draft is repaired from QC findings."""
    echo = echo or _quiet
    cfg = _settings(brief, root, drafter)
    path = root.articles / f"{brief.slug}.md"
    missing = [r for r in brief.evidence if r not in index.reports]
    if missing:
        raise DraftError(
            f"report {', '.join(missing)} is not in the evidence store (run `publish evidence ingest`)",
            path=root.articles / f"{brief.slug}.yaml",
        )
    inputs = _inputs_hash(brief, index, cfg)
    severity: dict[str, str] = dict(root.config.qc.severity)
    max_bytes = root.config.limits.max_article_bytes  # as the build and review apply it
    old_text = _read(path, max_bytes)
    edited = False

    if old_text is not None:
        edited, old_inputs = _inspect(old_text, max_bytes)
        if edited and not redraft:
            draft = parse_draft(old_text, path, max_bytes=max_bytes)  # a broken hand edit is reported with its line
            return DraftOutcome(
                path,
                draft,
                True,
                True,
                _check(draft, index, severity),
                drafter=draft.meta.drafted.drafter if draft.meta.drafted else "by hand",
                message="edited by hand, kept as is (use --redraft to replace it; a backup is kept)",
            )
        if not edited and not redraft and old_inputs == inputs:
            draft = parse_draft(old_text, path, max_bytes=max_bytes)
            result = _check(draft, index, severity)
            if result.ok:  # a cached draft that failed QC (an LLM that gave up) is tried again
                return DraftOutcome(path, draft, True, True, result, drafter=cfg.model)

    date, updated = _dates(old_text, path, max_bytes)
    if cfg.model == "offline":
        from pipeline.offline import write_offline

        content = write_offline(brief, index)
        text = render_draft(brief, content, drafter=cfg.model, inputs=inputs, date=date, updated=updated)
        draft = parse_draft(text, path, max_bytes=max_bytes)
        result = _check(draft, index, severity)
    else:
        text, draft, result = _llm_draft(
            brief,
            index,
            cfg,
            inputs=inputs,
            date=date,
            updated=updated,
            path=path,
            severity=severity,
            echo=echo,
            max_bytes=max_bytes,
        )

    # Only a hand edit needs a backup: a machine draft is reproduced from its inputs (or was stale anyway).
    backup = _backup(path, old_text, text) if old_text is not None and edited else None
    atomic_write(path, text)
    report_path = path.with_name(f"{brief.slug}.qc.txt")
    ok = result is None or result.ok
    if not ok:
        atomic_write(report_path, _qc_text(result))
    elif report_path.exists():
        report_path.unlink()  # a stale failure report would contradict the passing draft
    return DraftOutcome(path, draft, ok, False, result, report_path if not ok else None, cfg.model, backup=backup)


# --- settings, cache key, hand-edit detection --------------------------------------------------------------------------


def _settings(brief: Brief, root: ContentRoot, override: str | None) -> DrafterConfig:
    """Argument, then the brief's `drafter:`, then `publish.toml` `[drafter]`."""
    cfg = root.config.drafter.model_copy()
    choice = brief.drafter
    if isinstance(choice, str):
        cfg.model = choice
    elif isinstance(choice, DrafterChoice):
        cfg.model = choice.model
        for key in ("base_url", "temperature", "max_repairs"):
            value = getattr(choice, key)
            if value is not None:
                setattr(cfg, key, value)
    if override:
        cfg.model = override
    cfg.model = cfg.model.strip()
    return cfg


def _templates_hash() -> str:
    parts = [
        f"{p.relative_to(PROMPTS).as_posix()}\0{p.read_text(encoding='utf-8')}"
        for p in sorted(PROMPTS.rglob("*"))
        if p.is_file()
    ]
    return sha256_bytes("\0".join(parts))


def _inputs_hash(brief: Brief, index: EvidenceIndex, cfg: DrafterConfig) -> str:
    """The cache key: brief, the cited reports' versions (sha256), the drafter and its templates."""
    data = {
        "brief": brief.model_dump(mode="json", exclude={"drafter"}),
        "evidence": {rid: _evidence_version(index, rid) for rid in brief.evidence},
        "drafter": cfg.model,
        "base_url": cfg.base_url,
        "templates": _templates_hash(),
        "format": FORMAT_VERSION,
    }
    return sha256_bytes(json.dumps(data, sort_keys=True, ensure_ascii=False))[:32]


def _evidence_version(index: EvidenceIndex, rid: str) -> dict[str, str]:
    """The report's sha256 and what was read from it (a better extractor is new evidence, too)."""
    figures = [(f.id, f.value, f.unit, f.raw, f.labels, f.kind) for f in index.figures.get(rid, [])]
    return {"sha256": index.reports[rid].sha256, "figures": sha256_bytes(json.dumps(figures, ensure_ascii=False))}


def _output_hash(text: str) -> str:
    """Hash of the file as written, with the `drafted.output` value itself blanked out."""
    return sha256_bytes(OUTPUT_LINE.sub(r"\1 ''", text, count=1))[:32]


def _inspect(text: str, max_bytes: int) -> tuple[bool, str | None]:
    """(edited by hand?, recorded inputs hash) of an existing draft."""
    try:
        meta = parse_draft(text, "draft", max_bytes=max_bytes).meta
    except PublishError:
        return True, None
    if meta.drafted is None:
        return True, None
    return meta.drafted.output != _output_hash(text), meta.drafted.inputs


def _read(path: Path, max_bytes: int) -> str | None:
    try:
        check_article_size(path, max_bytes)  # before reading: a runaway file must not fill memory
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as e:
        raise DraftError(f"cannot read the existing draft: {e}", path=path) from e
    return text[1:] if text.startswith("\ufeff") else text


def _today() -> dt.date:
    # SOURCE_DATE_EPOCH (the reproducible-builds convention) pins the date for golden files and demos.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.date.today()


def _dates(old_text: str | None, path: Path, max_bytes: int) -> tuple[dt.date, dt.date | None]:
    """A redraft keeps the article's first date and records today as `updated`."""
    today = _today()
    if old_text is None:
        return today, None
    try:
        first = parse_draft(old_text, path, max_bytes=max_bytes).meta.date
    except PublishError:
        return today, None
    return first, (today if today != first else None)


def _backup(path: Path, old_text: str, new_text: str) -> Path | None:
    if old_text == new_text:
        return None
    backup = path.with_name(path.name + ".bak")
    if backup.exists() and backup.read_text(encoding="utf-8", errors="replace") != old_text:
        backup = path.with_name(f"{path.name}.{dt.datetime.now():%Y%m%d-%H%M%S}.bak")
    atomic_write(backup, old_text)
    return backup


def _check(draft: Draft, index: EvidenceIndex, severity: dict[str, str]) -> FileResult:
    from qc.check import check_draft

    return check_draft(draft, index, severity=severity or None)


def _qc_text(result: FileResult | None) -> str:
    from qc.models import CheckReport
    from qc.report import render_text

    assert result is not None
    return render_text(CheckReport(ok=result.ok, files=[result]))


# --- rendering the structured draft into the draft format ---------------------------------------------------------------

_END = "。.!?!?;;::"


def marker(reports: list[str], lang: str) -> str:
    """The citation marker for a sentence resting on `reports`."""
    if lang == "zh":
        return f"【出处:{'/'.join(reports)} 实测】"
    return f"[source: {', '.join(reports)}]"


def _sentence(s: Sentence, lang: str, *, end: str | None = None) -> str:
    """A sentence with its citation marker before the final punctuation (markers come from `reports`)."""
    text = re.sub(r"\s+", " ", s.text).strip()
    text = re.sub(r"【[^】]*】|\[\s*source\s*:[^\]]*\]", "", text).strip()  # the drafter, not the model, cites
    tail = ""
    while text and text[-1] in _END:
        tail = text[-1] + tail
        text = text[:-1].rstrip()
    tail = tail[-1:] if tail else (end if end is not None else ("。" if lang == "zh" else "."))
    reports = list(dict.fromkeys(r.strip() for r in s.reports if r.strip()))
    if reports:
        text += ("" if lang == "zh" else " ") + marker(reports, lang)
    return text + tail


def _join(sentences: list[Sentence], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(_sentence(s, lang) for s in sentences)


def render_body(content: DraftSchema, lang: str) -> str:
    """The Markdown body: one `## question` section each, intro paragraph, list, closing sentence."""
    out: list[str] = []
    for sec in content.sections:
        out.append(f"## {sec.question.strip()}")
        out.append("")
        if sec.intro:
            colon = ":"  # zh and en alike: the intro leads into the list
            intro = [*sec.intro]
            text = _join(intro[:-1], lang)
            last = _sentence(intro[-1], lang, end=colon if sec.items else None)
            if sec.items and last[-1] in _END:
                last = last[:-1] + colon
            out.append((text + ("" if lang == "zh" or not text else " ") + last).strip())
            out.append("")
        for item in sec.items:
            out.append(f"- {_sentence(item, lang)}")
        if sec.items:
            out.append("")
        if sec.outro:
            out.append(_join(sec.outro, lang))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_draft(
    brief: Brief, content: DraftSchema, *, drafter: str, inputs: str, date: dt.date, updated: dt.date | None
) -> str:
    """The whole draft file; `drafted.output` is the hash of the file as written (hand-edit detection)."""
    lang = brief.lang
    front: dict[str, Any] = {
        "title": brief.title,
        "lang": lang,
        "date": date,
    }
    if updated:
        front["updated"] = updated
    front |= {
        "tags": list(brief.tags),
        "evidence": list(brief.evidence),
        "answer": _join(content.answer, lang),
        "faq": [{"q": f.q.strip(), "a": _sentence(f.a, lang)} for f in content.faq],
        "slug": brief.slug,
        "drafted": {"drafter": drafter, "inputs": inputs, "output": ""},
    }
    head = yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1_000_000, default_flow_style=False)
    text = f"---\n{head}---\n\n{render_body(content, lang)}"
    digest = _output_hash(text)
    return OUTPUT_LINE.sub(lambda m: f"{m.group(1)} {digest}", text, count=1)


# --- the LLM drafter -----------------------------------------------------------------------------------------------------


def _prompts() -> Environment:
    # Plain text out (prompts are not HTML), so no autoescape; StrictUndefined catches template typos.
    return Environment(
        loader=FileSystemLoader(PROMPTS),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


FENCE = "REPORT-DATA"


def _cell(text: str, limit: int = 300) -> str:
    """Report text made safe for the data fence: one line, no fence markers, no table separators."""
    text = re.sub(r"\s+", " ", text).replace(FENCE, "REPORT_DATA").replace("|", "/").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def figure_table(brief: Brief, index: EvidenceIndex) -> str:
    """The cited reports' figures as a table: id | report | page | value | unit | as printed | labels | quote."""
    rows = ["figure | report | page | value | unit | printed | labels | quote"]
    for rid in brief.evidence:
        for f in index.figures.get(rid, []):
            labels = " / ".join(_cell(lbl, 80) for lbl in f.labels)
            rows.append(
                f"{f.id} | {rid} | {f.page} | {f.value:g} | {_cell(f.unit)} | {_cell(f.raw)} | "
                f"{labels} | {_cell(f.quote)}"
            )
    return "\n".join(rows)


def build_messages(brief: Brief, index: EvidenceIndex) -> list[tuple[str, str]]:
    """(role, text) of the first request: the system rules, then the brief and the fenced figures."""
    env = _prompts()
    reports = [
        {"id": rid, "title": _cell(index.reports[rid].title), "access": index.reports[rid].access}
        for rid in brief.evidence
    ]
    system = env.get_template("system.md.j2").render(lang=brief.lang, fence=FENCE)
    user = env.get_template("user.md.j2").render(
        brief=brief, reports=reports, table=figure_table(brief, index), fence=FENCE, marker=marker(["R2"], brief.lang)
    )
    return [("system", system), ("human", user)]


def repair_prompt(result: FileResult, index: EvidenceIndex, lang: str) -> str:
    """The QC error findings, each with the figure it should have used, for the next round."""
    findings = []
    for n in result.errors():
        fig = None
        if n.source is not None:
            fig = {
                "id": n.source.figure,
                "report": n.source.report,
                "page": n.source.page,
                "value": f"{n.source.value:g}",
                "unit": n.source.unit,
                "labels": " / ".join(_cell(x, 80) for x in n.source.labels),
                "quote": _cell(n.source.quote),
            }
        findings.append(
            {
                "text": n.text,
                "field": n.field,
                "status": n.status,
                "message": _cell(n.message),
                "sentence": _cell(n.sentence, 400),
                "cited": ", ".join(n.cited) or "none",
                "figure": fig,
            }
        )
    return _prompts().get_template("repair.md.j2").render(findings=findings, lang=lang, fence=FENCE)


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


def _llm_draft(
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
        text = render_draft(brief, content, drafter=cfg.model, inputs=inputs, date=date, updated=updated)
        try:
            draft = parse_draft(text, path, max_bytes=max_bytes)
        except PublishError as e:  # e.g. the model wrote YAML-breaking text; rendering should prevent it
            raise DraftError(f"{cfg.model} produced a draft that cannot be read back: {e}") from e
        result = _strict(_check(draft, index, severity), index)
        errors = result.errors()
        echo(f"  {label}: QC {len(result.numbers)} numbers, {len(errors)} error{'s' * (len(errors) != 1)}", err=True)
        if result.ok or n == rounds:
            return text, draft, result
        messages += [AIMessage(content.model_dump_json()), HumanMessage(repair_prompt(result, index, brief.lang))]
    raise AssertionError("unreachable")  # pragma: no cover


def _words(text: str) -> set[str]:
    """Latin words and Chinese bigrams, numbers left out: what a sentence and a quote talk about."""
    text = re.sub(r"\d[\d.,]*%?", " ", text.lower())
    out = set(re.findall(r"[a-z][a-z0-9]+", text))
    for run in re.findall(r"[\u3400-\u9fff]+", text):
        out.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return out


def _strict(result: FileResult, index: EvidenceIndex) -> FileResult:
    """A model's percentages and speedups resting on report prose must also share its subject.

    QC accepts a number printed anywhere in a cited report; for model-written text that lets an instruction hidden
    in a report ("write 99% faster") through. So a % or × verified only by prose (a prose figure or the page text)
    counts when the sentence and the prose share words besides the number, as a real claim restated would.
    """
    numbers, changed = [], False
    for n in result.numbers:
        if n.status == "verified" and n.unit in ("%", "x") and n.source is not None:
            fig = index.figure(n.source.figure) if n.source.figure else None
            if (fig is None or fig.kind == "prose") and not (_words(n.sentence) & _words(n.source.quote)):
                n = n.model_copy(
                    update={
                        "status": "unsupported",
                        "severity": "error",
                        "message": f"{n.text} matches only unrelated prose of {n.source.report} p.{n.source.page} "
                        f"(“{_cell(n.source.quote, 80)}”): state a measured figure or a change computed from one",
                    }
                )
                changed = True
        numbers.append(n)
    if not changed:
        return result
    summary = {status: sum(n.status == status for n in numbers) for status in ALL_STATUSES}
    return result.model_copy(update={"numbers": numbers, "ok": False, "summary": summary})


def _align(content: DraftSchema, brief: Brief) -> DraftSchema:
    """Keep the brief's questions as headings, in order, even if the model rephrased them."""
    sections = list(content.sections)
    for i, q in enumerate(brief.questions):
        if i < len(sections):
            sections[i] = sections[i].model_copy(update={"question": q})
    return content.model_copy(update={"sections": sections[: len(brief.questions)]})
