"""Test support for the drafter: an EvidenceIndex built from the example reports' data files, no PDF parsing."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from pathlib import Path
from typing import Any

import yaml

from evidence.models import Figure, Page, Report
from qc.index import EvidenceIndex

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tools" / "report_data"
VALUE = re.compile(r"^(?P<q>约\s*|≥\s*)?(?P<n>[-+]?\d[\d,]*(?:\.\d+)?)(?P<m>[KM])?\s*(?P<u>.*)$")
UNITS = {
    "倍": "x",
    "%": "%",
    "s": "s",
    "GB": "GB",
    "GB/s": "GB/s",
    "tok/s": "tok/s",
    "KB": "KB",
    "token": "token",
    "周": "周",
    "h": "h",
    "samples/s": "samples/s",
}


def _parse(raw: str, header_unit: str = "") -> tuple[float, str] | None:
    m = VALUE.match(raw.strip())
    if not m:
        return None
    value = float(m.group("n").replace(",", ""))
    value *= {"K": 1e3, "M": 1e6}.get(m.group("m") or "", 1)
    unit = m.group("u").strip()
    if unit and unit not in UNITS:
        if unit.startswith("%"):
            unit = "%"
        else:
            return None
    return value, UNITS.get(unit, "") or header_unit


def _header_unit(header: str) -> str:
    m = re.search(r"\(([^)]+)\)\s*$", header)
    return UNITS.get(m.group(1), m.group(1)) if m else ""


def _fid(*parts: Any) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:16]


def _add(
    figs: list[Figure],
    rid: str,
    sha: str,
    page: int,
    raw: str,
    labels: list[str],
    quote: str,
    kind: str,
    unit_hint: str = "",
) -> None:
    parsed = _parse(raw, unit_hint)
    if parsed is not None:
        figs.append(
            Figure(
                id=_fid(sha, page, len(figs), raw),
                report=rid,
                page=page,
                value=parsed[0],
                unit=parsed[1],
                raw=raw,
                labels=labels,
                quote=quote,
                kind=kind,
            )
        )  # type: ignore[arg-type]


def report_index(
    ids: tuple[str, ...] = ("R1", "R2", "R9"), *, extra_prose: dict[str, str] | None = None
) -> EvidenceIndex:
    """Figures as the store labels them: cells (row labels, column header, caption, section), kv lines, prose."""
    index = EvidenceIndex()
    for rid in ids:
        data = yaml.safe_load((DATA / f"{rid}.yaml").read_text(encoding="utf-8"))
        sha = hashlib.sha256(yaml.safe_dump(data).encode()).hexdigest()
        figs: list[Figure] = []
        texts: dict[int, list[str]] = {1: [data["title"], data.get("subtitle", "")]}
        page, section, sub = 1, "", ""

        for sec in data["sections"]:
            if sec.get("pagebreak"):
                page += 1
                continue
            section = sec.get("heading", section)
            texts.setdefault(page, []).append(section)
            sub = ""
            for block in sec.get("blocks", []):
                if "h2" in block:
                    sub = block["h2"]
                    texts[page].append(sub)
                elif "p" in block:
                    texts[page].append(block["p"])
                elif "kv" in block:
                    for k, v in block["kv"]:
                        quote = f"{k}: {v}"
                        texts[page].append(quote)
                        _add(figs, rid, sha, page, v, [k, sub or section], quote, "kv")
                elif "table" in block:
                    t = block["table"]
                    cols = t["columns"]
                    texts[page].append(t["caption"] + "\n" + " ".join(cols))
                    for row in t["rows"]:
                        quote = " ".join(row)
                        texts[page].append(quote)
                        keys = []
                        for c, cell in zip(cols, row, strict=True):
                            if cell != "-" and (_parse(cell) is None or cell is row[0]):
                                keys.append(f"{c} {cell}" if _parse(cell) else cell)
                        for c, cell in zip(cols, row, strict=True):
                            if cell is row[0] or _parse(cell) is None:
                                continue
                            unit = _header_unit(c) or _header_unit(row[0])  # `保存时间 (s)` as a row label
                            labels = [*keys, c, t["caption"], sub or section]
                            _add(figs, rid, sha, page, cell, labels, quote, "cell", unit)
        for rid_, prose in (extra_prose or {}).items():
            if rid_ == rid:
                texts[page].append(prose)
                for m in re.finditer(r"\d+(?:\.\d+)?%", prose):
                    _add(figs, rid, sha, page, m.group(0), [prose], prose, "prose")
        pages = [Page(report=rid, version=1, page=p, text="\n".join(t)) for p, t in sorted(texts.items())]
        index.reports[rid] = Report(
            id=rid,
            title=f"{data['title']}({data.get('subtitle', '')})",
            date=dt.date.fromisoformat(str(data["date"])),
            access=data["access"],
            file=data["file"],
            sha256=sha,
            version=1,
            pages=page,
        )
        index.figures[rid] = figs
        index.pages[rid] = pages
    return index


# --- LLM fakes --------------------------------------------------------------------------------------------------------

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402


class FakeStructuredModel(FakeMessagesListChatModel):
    """A fake chat model that supports `with_structured_output` (tool calls) and records what it was sent.

    `responses` may hold AIMessages or exceptions (raised when their turn comes); the last one repeats.
    """

    seen: list[list[BaseMessage]] = []  # noqa: RUF012 - a pydantic field: each instance gets its own copy

    def model_post_init(self, __context: Any) -> None:
        self.seen = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # tool choice is implied: the fake always calls it
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        self.seen.append(list(messages))
        i = min(len(self.seen) - 1, len(self.responses) - 1)
        response = self.responses[i]
        if isinstance(response, AIMessage) and response.additional_kwargs.get("raise"):
            raise response.additional_kwargs["raise"]
        from langchain_core.outputs import ChatGeneration, ChatResult

        return ChatResult(generations=[ChatGeneration(message=response)])


def tool_answer(args: dict[str, Any]) -> AIMessage:
    """An AIMessage calling the DraftSchema tool with `args` (what with_structured_output parses)."""
    return AIMessage(
        content="", tool_calls=[{"name": "DraftSchema", "args": args, "id": "call_1", "type": "tool_call"}]
    )


def failing(exc: BaseException) -> AIMessage:
    """A scripted turn that raises `exc` instead of answering."""
    return AIMessage(content="", additional_kwargs={"raise": exc})


def ingested(root: Path) -> EvidenceIndex:
    """The example root's reports, ingested for real (pypdf → store) into the root's `.publish/`."""
    from evidence.ingest import ingest
    from evidence.store import Store

    store = root / ".publish" / "evidence.sqlite"
    ingest(root / "reports", store).raise_for_errors(["R1", "R2", "R9"])
    with Store(store) as s:
        return EvidenceIndex.load(s, ["R1", "R2", "R9"])


def with_injection(index: EvidenceIndex, prose: str, *, as_figure: bool = True) -> EvidenceIndex:
    """R2 with a sentence that gives orders: in its page text and (as the store extracts prose) as a 99% figure."""
    pages = [p.model_copy(update={"text": p.text + "\n" + prose}) if p.page == 2 else p for p in index.pages["R2"]]
    r2 = list(index.figures["R2"])
    if as_figure:
        r2.append(
            Figure(
                id="inject0000000001",
                report="R2",
                page=2,
                value=99,
                unit="%",
                raw="99%",
                labels=[prose],
                quote=prose,
                kind="prose",
            )
        )
    return EvidenceIndex(
        reports=dict(index.reports), figures={**index.figures, "R2": r2}, pages={**index.pages, "R2": pages}
    )
