"""Test support for the site: a small evidence index, a fake QC that finds figures verbatim, and a ready content root."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evidence.models import Figure, Page, Report
from pipeline.config import open_root
from qc.draft import Draft
from qc.index import EvidenceIndex
from qc.models import FileResult, NumberCheck, Source

# (report, page, labels, raw, value, unit, quote) — R9's DeepSeek-7B row (245/61) is never cited by the draft.
FIGURES: list[tuple[str, int, list[str], str, float, str, str]] = [
    ("R2", 2, ["并发 8", "TTFT p50", "基线"], "10.17s", 10.17, "s", "并发 8 TTFT p50 基线 10.17s FX100 7.53s"),
    ("R2", 2, ["并发 8", "TTFT p50", "FX100"], "7.53s", 7.53, "s", "并发 8 TTFT p50 基线 10.17s FX100 7.53s"),
    ("R2", 2, ["并发 16", "TTFT p50", "基线"], "35.73s", 35.73, "s", "并发 16 TTFT p50 基线 35.73s FX100 26.35s"),
    ("R2", 2, ["并发 16", "TTFT p50", "FX100"], "26.35s", 26.35, "s", "并发 16 TTFT p50 基线 35.73s FX100 26.35s"),
    ("R2", 3, ["无外存重算", "吞吐"], "4.1 tok/s", 4.1, "tok/s", "无外存重算 吞吐 4.1 tok/s"),
    ("R2", 3, ["FX100", "吞吐"], "74.9 tok/s", 74.9, "tok/s", "FX100 吞吐 74.9 tok/s"),
    ("R1", 4, ["Checkpoint 保存", "本地盘"], "178s", 178, "s", "Checkpoint 保存时间 本地盘 178s FX100 94s"),
    ("R1", 4, ["Checkpoint 保存", "FX100"], "94s", 94, "s", "Checkpoint 保存时间 本地盘 178s FX100 94s"),
    ("R9", 2, ["DeepSeek-32B", "NFS 加载"], "691s", 691, "s", "DeepSeek-32B 691 112 6.2 倍"),
    ("R9", 2, ["DeepSeek-32B", "FX100 加载"], "112s", 112, "s", "DeepSeek-32B 691 112 6.2 倍"),
    ("R9", 2, ["DeepSeek-70B", "NFS 加载"], "1399s", 1399, "s", "DeepSeek-70B 1399 150 9.3 倍"),
    ("R9", 2, ["DeepSeek-70B", "FX100 加载"], "150s", 150, "s", "DeepSeek-70B 1399 150 9.3 倍"),
    ("R9", 2, ["DeepSeek-7B", "NFS 加载"], "245s", 245, "s", "DeepSeek-7B 245 61 4.0 倍"),
    ("R9", 2, ["DeepSeek-7B", "FX100 加载"], "61s", 61, "s", "DeepSeek-7B 245 61 4.0 倍"),
]
R9_SECRET_TEXT = "本节数据为内部评估口径,未经客户现场复核,不得对外引用。"
TITLES = {
    "R1": "FX100 大模型推理与训练 综合性能测试报告(AMD MI308X ×8)",
    "R2": "FX100 KV Cache 性能测试报告(480B·TP8 长上下文·正式版)",
    "R9": "芯元一 FX100-HBMM 与华为 910B 模型推理与训练性能测试(vs NFS 基线)",
}
ACCESS = {"R1": "public", "R2": "public", "R9": "on-request"}

DRAFT_ZH = """---
title: 多轮对话的 KV Cache 存到哪里?存储加速怎样缩短首 token 延迟
lang: zh
date: 2026-07-08
tags: [KV Cache, 存储加速, LMCache, vLLM]
evidence: [R1, R2, R9]
answer: 长上下文冷恢复下,并发 8 档 TTFT p50 从 10.17s 降至 7.53s【出处:R2 实测】。
faq:
  - q: 冷恢复时首 token 延迟降低多少?
    a: 并发 16 档下 TTFT p50 从 35.73s 降至 26.35s【出处:R2 实测】。
  - q: 模型加载快多少?
    a: DeepSeek-32B 服务加载从 691s 降至 112s【出处:R9 实测】。
---
## 多轮对话中 KV Cache 前缀复用是如何工作的?

vLLM 与 LMCache 通过前缀缓存把历史 KV 存入显存或高速存储,新请求命中前缀时直接加载,跳过重复计算。

## 长上下文冷恢复时,KV Cache 加载对 TTFT 和吞吐影响多大?

冷启动时所有 KV 需从存储重新加载【出处:R2 实测】:

- 并发 8 档下 TTFT p50 从 10.17s 降至 7.53s;并发 16 档下从 35.73s 降至 26.35s。
- 对比无外存重算基线:吞吐从 4.1 tok/s 提升至 74.9 tok/s。

## 存储加速能否延伸到训练 Checkpoint 与模型加载?

- 训练 Checkpoint 保存时间从 178s 降至 94s【出处:R1 实测】。
- DeepSeek-32B 服务加载从 691s 降至 112s;DeepSeek-70B 从 1399s 降至 150s【出处:R9 实测】。
"""

DRAFT_EN = """---
title: How faster storage cuts time to first token
lang: en
date: 2026-07-09
tags: [KV Cache, storage acceleration]
evidence: [R2]
answer: "On long-context cold recovery, TTFT p50 at concurrency 8 falls from 10.17s to 7.53s [source: R2]."
faq:
  - q: What about concurrency 16?
    a: "TTFT p50 falls from 35.73s to 26.35s [source: R2]."
---
## How much does KV cache loading matter?

At concurrency 8, TTFT p50 falls from 10.17s to 7.53s; at concurrency 16 from 35.73s to 26.35s [source: R2].
"""


def _fid(*parts: Any) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:16]


def make_index(ids: Iterable[str] = ("R1", "R2", "R9"), sha: dict[str, str] | None = None) -> EvidenceIndex:
    """An index of the few figures the test drafts use (plus R9's uncited DeepSeek-7B row and a confidential note)."""
    index = EvidenceIndex()
    for rid in ids:
        index.reports[rid] = Report(
            id=rid,
            title=TITLES[rid],
            date=dt.date(2026, 7, 1),
            access=ACCESS[rid],  # type: ignore[arg-type]
            file=f"{rid}.pdf",
            sha256=(sha or {}).get(rid, hashlib.sha256(rid.encode()).hexdigest()),
            version=1,
            pages=4,
        )
        figs = [
            Figure(
                id=_fid(r, p, raw, *labels),
                report=r,
                page=p,
                value=v,
                unit=u,
                raw=raw,
                labels=labels,
                quote=q,
                kind="cell",
            )
            for r, p, labels, raw, v, u, q in FIGURES
            if r == rid
        ]
        index.figures[rid] = figs
        text = "\n".join(f.quote for f in figs) + ("\n" + R9_SECRET_TEXT if rid == "R9" else "")
        index.pages[rid] = [Page(report=rid, version=1, page=2, text=text)]
    return index


def _fields(draft: Draft) -> list[tuple[str, str]]:
    out = [("title", draft.meta.title), ("answer", draft.meta.answer), ("body", draft.body)]
    for i, qa in enumerate(draft.meta.faq):
        out += [(f"faq.{i}.q", qa.q), (f"faq.{i}.a", qa.a)]
    return out


def fake_check(draft: Draft, index: EvidenceIndex, severity: dict[str, str] | None = None) -> FileResult:
    """Every figure of a cited report whose printed form appears verbatim becomes a verified NumberCheck."""
    numbers: list[NumberCheck] = []
    for name, text in _fields(draft):
        for figs in index.figures.values():
            for f in figs:
                for m in re.finditer(rf"(?<![\d.]){re.escape(f.raw)}(?![\d.])", text):
                    numbers.append(
                        NumberCheck(
                            text=f.raw,
                            line=1,
                            column=m.start() + 1,
                            value=f.value,
                            unit=f.unit,
                            status="verified",
                            severity="ok",
                            cited=[f.report],
                            source=Source(
                                report=f.report,
                                figure=f.id,
                                page=f.page,
                                value=f.value,
                                unit=f.unit,
                                quote=f.quote,
                                labels=f.labels,
                            ),
                            field=name,
                            start=m.start(),
                            end=m.end(),
                        )
                    )
    numbers.sort(key=lambda n: (n.field, n.start))
    return FileResult(file=draft.path, ok=True, numbers=numbers, summary={"verified": len(numbers)})


def fake_approve(draft: Draft, result: FileResult, index: EvidenceIndex, approvals: Path) -> bool:
    """Approved when `approvals/<slug>.json` exists (the real gate compares snapshots)."""
    return (approvals / f"{draft.slug}.json").is_file()


def make_root(example_root: Path, corpus: Path, *, approve: Iterable[str] = ("kv-cache-ttft",)) -> Path:
    """The example root with the two test drafts, small stand-in PDFs and approvals for `approve`."""
    (example_root / "articles" / "kv-cache-ttft.md").write_text(DRAFT_ZH, encoding="utf-8")
    (example_root / "articles" / "kv-cache-ttft-en.md").write_text(DRAFT_EN, encoding="utf-8")
    for rid in ("R1", "R2", "R9"):
        shutil.copyfile(corpus / "pymupdf_small_table_units.pdf", example_root / "reports" / f"{rid}.pdf")
    (example_root / "approvals").mkdir(exist_ok=True)
    for old in (example_root / "approvals").glob("*.json"):  # the example's real approvals bind the real drafts
        old.unlink()
    for slug in approve:
        (example_root / "approvals" / f"{slug}.json").write_text(json.dumps({"slug": slug}), encoding="utf-8")
    return example_root


def build(root: Path, *, index: EvidenceIndex | None = None, **kw: Any) -> Any:
    """Build with the fake QC and approvals (the real ones are exercised by the end-to-end tests)."""
    from pipeline.website.build import IndexEvidence, _build

    return _build(
        open_root(root),
        out=kw.pop("out", None),
        preview=kw.pop("preview", False),
        echo=kw.pop("echo", None),
        evidence=IndexEvidence(index or make_index()),
        check=kw.pop("check", fake_check),
        approve=kw.pop("approve", fake_approve),
    )


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (for byte-identical comparisons)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def search_entries(public: Path) -> list[dict[str, Any]]:
    """Every article's search entry, read through search.json's list of shards (checking each is listed once)."""
    manifest = json.loads((public / "search.json").read_text(encoding="utf-8"))
    assert len(set(manifest["shards"])) == len(manifest["shards"])
    entries = [e for s in manifest["shards"] for e in json.loads((public / s).read_text(encoding="utf-8"))]
    assert len(entries) == manifest["articles"]
    return entries


def search_text(public: Path) -> str:
    """The search index's shards as one text (for asserting what the search index never carries). search.json
    itself only lists the shards' content-addressed names, whose hex digits could spell any number."""
    manifest = json.loads((public / "search.json").read_text(encoding="utf-8"))
    assert set(manifest) == {"articles", "shards"}
    return "\n".join((public / rel).read_text(encoding="utf-8") for rel in manifest["shards"])


def record_renders(monkeypatch: Any) -> list[str]:
    """The names of the templates the build renders from now on (cached pages are linked, not rendered)."""
    import pipeline.website.templates as templates_mod

    rendered: list[str] = []
    real = templates_mod.render_template

    def recording(name: str, **ctx: Any) -> str:
        rendered.append(name)
        return real(name, **ctx)

    monkeypatch.setattr(templates_mod, "render_template", recording)
    return rendered


def new_r2_version(root: Path, old: str, new: str) -> None:
    """Regenerate R2.pdf from the generator's data with one figure changed (a new, readable version of the report)."""
    import importlib.util

    repo = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("make_reports", repo / "tools" / "make_reports.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    data = (repo / "tools" / "report_data" / "R2.yaml").read_text(encoding="utf-8")
    assert data.count(old) == 1
    changed = root / "R2.yaml"
    changed.write_text(data.replace(old, new), encoding="utf-8")
    mod.build_report(changed, root / "reports")
