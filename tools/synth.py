"""Synthetic content roots for `make bench`: N articles over generated report PDFs, deterministic per seed."""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".bench" / "reports"
# Bump when the report data or rendering changes, so cached PDFs are regenerated.
GEN_VERSION = 2

SCENES_ZH = [
    "长上下文冷恢复",
    "多轮对话续写",
    "检索增强问答",
    "代码补全",
    "批量摘要",
    "检查点保存",
    "模型加载",
    "向量检索",
]
SCENES_EN = [
    "long-context cold recovery",
    "multi-turn chat",
    "RAG question answering",
    "code completion",
    "batch summarization",
    "checkpoint saving",
    "model loading",
    "vector search",
]
DEPLOY = [("单机", "single node"), ("全机", "whole cluster"), ("双机", "two nodes")]


@dataclass(frozen=True)
class Family:
    """A kind of results table: what is measured, its unit, how values are drawn, and which way is better."""

    key: str
    zh: str
    en: str
    unit: str
    low: float
    high: float
    decimals: int
    factor: tuple[float, float]  # accelerated = baseline × factor
    lower_is_better: bool


FAMILIES = [
    Family("ttft", "TTFT", "TTFT", "s", 5, 60, 2, (0.62, 0.8), True),
    Family("tput", "吞吐", "throughput", "tok/s", 20, 200, 1, (1.2, 1.5), False),
    Family("bw", "读带宽", "read bandwidth", "GB/s", 0.5, 6, 2, (1.6, 5.0), False),
    Family("lat", "尾延迟", "tail latency", "ms", 1, 30, 2, (0.3, 0.8), True),
    Family("load", "加载时间", "load time", "s", 100, 1500, 0, (0.1, 0.6), True),
]
KV_POOL = [
    ("单盘容量", "capacity per drive", "TB", 1.92, 30.72, 2),
    ("测试时长", "test duration", "h", 12, 96, 0),
    ("单会话 KV Cache", "KV cache per session", "GB", 1, 16, 2),
    ("写带宽", "write bandwidth", "GB/s", 1, 12, 2),
    ("检查点大小", "checkpoint size", "GB", 20, 300, 1),
    ("平均功耗", "average power", "W", 300, 1800, 0),
    ("显存占用", "GPU memory in use", "GB", 20, 80, 1),
    ("网络时延", "network latency", "ms", 0.05, 2, 3),
]
TAGS = [
    "KV Cache",
    "存储加速",
    "LMCache",
    "vLLM",
    "TTFT",
    "吞吐",
    "长上下文",
    "多轮对话",
    "RAG",
    "Checkpoint",
    "模型加载",
    "NVMe-oF",
    "全闪存储",
    "RAID",
    "GPU",
    "显存",
    "推理服务",
    "训练",
    "LoRA",
    "FP8",
    "MoE",
    "TP8",
    "RDMA",
    "100GbE",
    "并发",
    "延迟",
    "带宽",
    "IOPS",
    "NFS",
    "对象存储",
    "分层缓存",
    "前缀缓存",
    "冷启动",
    "稳定性",
    "能耗",
    "成本",
    "容量规划",
    "基准测试",
    "压测",
    "调优",
    "inference",
    "storage",
    "latency",
    "throughput",
    "benchmark",
    "checkpointing",
    "caching",
    "cluster",
    "SLA",
    "capacity",
]
TOPICS_ZH = ["KV Cache 外置存储", "推理服务冷启动", "训练 Checkpoint", "模型加载", "长上下文推理", "分层缓存"]
TOPICS_EN = [
    "external KV cache storage",
    "inference cold start",
    "training checkpoints",
    "model loading",
    "long-context inference",
    "tiered caching",
]
FILLER_ZH = [
    "在 Transformer 推理中,历史轮次的 Key/Value 若不能复用,新请求就必须重新预填充整段上下文。",
    "存储层的读带宽与访问延迟决定了缓存命中后数据回到显存的速度,也决定了排队时间。",
    "对于负责部署的工程师,关键是把存储收益放到真实负载与并发档位下衡量,而不是只看单盘指标。",
    "vLLM 与 LMCache 通过前缀缓存把历史 KV 放到更大的存储层,命中时直接加载,跳过重复计算。",
    "冷恢复指服务重启或显存清空之后,会话状态必须从外部存储重新加载的过程。",
    "测试使用相同的请求序列与随机种子,保证基线与加速两组结果可以直接对比。",
    "并发越高,基线部署的排队越明显,外置存储带来的收益也越稳定。",
    "这些结果只对报告所列的测试环境与负载有效,迁移到其他集群前应重新验证。",
    "从运维角度看,存储加速减少了重算,也让 GPU 把更多时间花在真正的生成上。",
    "评估时建议同时关注中位数与尾部指标,因为用户感知往往由最慢的那部分请求决定。",
]
FILLER_EN = [
    "Without prefix reuse, every new turn has to prefill the whole conversation again, which costs GPU time.",
    "The read bandwidth and latency of the storage tier decide how fast cached state returns to GPU memory.",
    "Engineers should judge storage gains under the real workload and concurrency, not from drive datasheets.",
    "vLLM and LMCache keep earlier KV blocks in a larger tier and load them back when a prefix matches.",
    "Cold recovery is what happens after a restart or eviction, when session state must come back from storage.",
    "Both groups replay the same request sequence with the same random seed, so the results compare directly.",
    "The higher the concurrency, the more the baseline queues, and the steadier the gain of external storage.",
    "These results hold for the tested setup and workload only; validate them again before moving clusters.",
    "Less recomputation also means the accelerators spend more of their time on actual generation.",
    "Look at both the median and the tail, because users feel the slowest requests the most.",
]


@dataclass
class Row:
    """One measured row of a results table."""

    scene: int  # index into SCENES_*
    deploy: int
    base: str
    accel: str
    change: str  # printed percent change, e.g. "26.0%"


@dataclass
class Table:
    family: Family
    caption: str
    page: int
    rows: list[Row]


@dataclass
class KV:
    label: int  # index into KV_POOL
    value: str


@dataclass
class ReportSpec:
    """Everything a generated report prints that articles may cite."""

    id: str
    title: str
    date: dt.date
    access: str
    pages: int
    tables: list[Table] = field(default_factory=list)
    kvs: list[KV] = field(default_factory=list)

    @property
    def file(self) -> str:
        return f"{self.id}.pdf"


def _fmt(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def report_specs(n_reports: int = 20, seed: int = 0) -> list[ReportSpec]:
    """The generated reports' contents (no PDF work): 10–50 pages each, one results table per page."""
    specs = []
    for i in range(1, n_reports + 1):
        rng = random.Random(f"report-{seed}-{i}")
        pages = rng.randint(10, 50)
        product = f"FX{100 + 10 * i}"
        spec = ReportSpec(
            id=f"R{i}",
            title=f"铭信 {product} {rng.choice(TOPICS_ZH)}性能测试报告",
            date=dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 540)),
            access="on-request" if i % 7 == 0 else "public",
            pages=pages,
        )
        # Cover + purpose/environment page, then one results page each, then the conclusion page.
        for k in range(1, pages - 2):
            fam = rng.choice(FAMILIES)
            rows = []
            for scene in rng.sample(range(len(SCENES_ZH)), rng.randint(3, 5)):
                base = round(rng.uniform(fam.low, fam.high), fam.decimals)
                accel = round(base * rng.uniform(*fam.factor), fam.decimals)
                if accel == base or accel <= 0:
                    accel = round(base * 0.7, fam.decimals) or base / 2
                change = abs(accel - base) / base * 100
                rows.append(
                    Row(
                        scene,
                        rng.randrange(len(DEPLOY)),
                        _fmt(base, fam.decimals),
                        _fmt(accel, fam.decimals),
                        f"{change:.1f}%",
                    )
                )
            spec.tables.append(Table(fam, f"表 3-{k} {fam.zh}实测结果", k + 2, rows))
            for label in rng.sample(range(len(KV_POOL)), 2):
                _, _, _, lo, hi, dec = KV_POOL[label]
                spec.kvs.append(KV(label, _fmt(rng.uniform(lo, hi), dec)))
        specs.append(spec)
    return specs


def _report_data(spec: ReportSpec) -> dict[str, Any]:
    """`spec` in tools/make_reports.py's data format, so the evidence parser reads it like the example reports."""
    sections: list[dict[str, Any]] = [
        {"heading": "1 测试目的", "blocks": [{"p": FILLER_ZH[1] + FILLER_ZH[5]}, {"p": FILLER_ZH[7]}]},
        {
            "heading": "2 测试环境",
            "blocks": [
                {
                    "table": {
                        "caption": "表 2-1 测试环境",
                        "columns": ["项目", "配置"],
                        "widths": [0.3, 0.7],
                        "rows": [["推理框架", "vLLM + LMCache"], ["存储", "全闪阵列 NVMe-oF"], ["网络", "100 GbE"]],
                    }
                }
            ],
        },
    ]
    kvs = iter(spec.kvs)
    for k, table in enumerate(spec.tables, 1):
        fam = table.family
        unit = f" ({fam.unit})"
        change = "降幅" if fam.lower_is_better else "提升"
        blocks: list[dict[str, Any]] = [
            {"h2": f"3.{k} {fam.zh}"},
            {
                "table": {
                    "caption": table.caption,
                    "columns": ["场景", "部署", f"基线{fam.zh}{unit}", f"加速{fam.zh}{unit}", f"{fam.zh}{change}"],
                    "widths": [0.28, 0.12, 0.22, 0.22, 0.16],
                    "rows": [[SCENES_ZH[r.scene], DEPLOY[r.deploy][0], r.base, r.accel, r.change] for r in table.rows],
                }
            },
            # Prose between the table and the `label: value` lines: the parser reads lines that follow a table
            # directly as part of its last row.
            {"p": FILLER_ZH[(k * 3) % len(FILLER_ZH)] + FILLER_ZH[(k * 3 + 1) % len(FILLER_ZH)]},
            {"kv": [[KV_POOL[kv.label][0], f"{kv.value} {KV_POOL[kv.label][2]}"] for kv in (next(kvs), next(kvs))]},
        ]
        sections.append({"pagebreak": True})
        sections.append({"heading": "3 测试结果" if k == 1 else None, "blocks": blocks})
    sections.append({"pagebreak": True})
    sections.append(
        {"heading": "4 结论", "blocks": [{"p": FILLER_ZH[6] + FILLER_ZH[8]}, {"sign": ["测试:王 工", "审核:李 工"]}]}
    )
    return {
        "id": spec.id,
        "file": spec.file,
        "report_no": f"XYY-TR-BENCH-{spec.id}",
        "title": spec.title,
        "subtitle": "基准测试合成报告",
        "date": spec.date,
        "vendor": "芯元一",
        "product": spec.title.split()[1],
        "access": spec.access,
        "page_labels": "cover",
        "meta": [
            ["报告编号", f"XYY-TR-BENCH-{spec.id}"],
            ["报告日期", spec.date.isoformat()],
            ["密级", "公开" if spec.access == "public" else "保密"],
        ],
        "sections": sections,
    }


def ensure_pdfs(specs: list[ReportSpec], seed: int = 0, cache: Path = CACHE) -> Path:
    """Render the reports' PDFs once into `cache/<key>/` (reused across runs); returns that folder."""
    key = hashlib.sha256(json.dumps([GEN_VERSION, seed, len(specs)]).encode()).hexdigest()[:12]
    folder = cache / f"seed{seed}-n{len(specs)}-{key}"
    missing = [s for s in specs if not (folder / s.file).is_file()]
    if missing:
        sys.path.insert(0, str(REPO / "tools"))
        from make_reports import build_report  # the example reports' renderer, so parsing behaves the same

        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            for spec in missing:
                data_file = Path(tmp) / f"{spec.id}.yaml"
                data_file.write_text(yaml.safe_dump(_report_data(spec), allow_unicode=True), encoding="utf-8")
                part = Path(tmp) / "out"
                build_report(data_file, part)
                shutil.move(str(part / spec.file), folder / spec.file)  # complete files only land in the cache
    return folder


# --- articles -------------------------------------------------------------------------------------


def _cite(lang: str, ids: list[str]) -> str:
    return f"【出处:{'/'.join(ids)} 实测】" if lang == "zh" else f" [source: {', '.join(ids)}]"


def _num(lang: str, value: str, unit: str, rng: random.Random) -> str:
    # zh writers often glue units to numbers ("7.53s"); en writers put a space.
    if lang == "zh" and unit in ("s", "ms", "GB", "TB", "h", "W") and rng.random() < 0.6:
        return f"{value}{unit}"
    return f"{value} {unit}"


def _row_sentence(lang: str, rid: str, t: Table, r: Row, rng: random.Random) -> str:
    fam = t.family
    b, a = _num(lang, r.base, fam.unit, rng), _num(lang, r.accel, fam.unit, rng)
    if lang == "zh":
        verb = "降至" if fam.lower_is_better else "提升至"
        what = "降幅" if fam.lower_is_better else "提升"
        return f"在{SCENES_ZH[r.scene]}场景下,{fam.zh}从 {b} {verb} {a},{what} {r.change}{_cite(lang, [rid])}。"
    verb = "drops" if fam.lower_is_better else "rises"
    return f"In {SCENES_EN[r.scene]}, {fam.en} {verb} from {b} to {a}, a change of {r.change}{_cite(lang, [rid])}."


def _kv_sentence(lang: str, rid: str, kv: KV, rng: random.Random) -> str:
    zh, en, unit, *_ = KV_POOL[kv.label]
    if lang == "zh":
        return f"测试中{zh}为 {_num(lang, kv.value, unit, rng)}{_cite(lang, [rid])}。"
    return f"During the test the {en} was {kv.value} {unit}{_cite(lang, [rid])}."


def _filler(lang: str, rng: random.Random, n: int) -> str:
    pool = FILLER_ZH if lang == "zh" else FILLER_EN
    return ("" if lang == "zh" else " ").join(rng.sample(pool, n))


QUESTIONS_ZH = [
    "{topic}在{scene}场景下解决什么问题?",
    "{scene}场景中{metric}能改善多少?",
    "不同部署方式下收益是否一致?",
    "如何在自己的集群上验证这些收益?",
    "还有哪些指标值得一起关注?",
    "{topic}对运维成本有什么影响?",
]
QUESTIONS_EN = [
    "What problem does {topic} solve in {scene}?",
    "How much does {metric} improve in {scene}?",
    "Is the gain the same across deployments?",
    "How do you verify these gains on your own cluster?",
    "Which other metrics are worth watching?",
    "What does {topic} change for operations cost?",
]


def make_article(i: int, specs: list[ReportSpec], seed: int = 0) -> tuple[str, str]:
    """Article number `i` as (slug, draft text): 5 question sections, lists, a table, 30+ cited numbers."""
    rng = random.Random(f"article-{seed}-{i}")
    lang = "zh" if rng.random() < 0.7 else "en"
    cited = sorted(rng.sample(specs, min(3, len(specs))), key=lambda s: int(s.id[1:]))[: rng.randint(2, 3)]
    by_id = {s.id: s for s in cited}
    topics, scenes = (TOPICS_ZH, SCENES_ZH) if lang == "zh" else (TOPICS_EN, SCENES_EN)
    topic_i = rng.randrange(len(topics))
    main = rng.choice(cited)
    main_table = rng.choice(main.tables)
    main_row = main_table.rows[0]
    fam = main_table.family
    fmt = {"topic": topics[topic_i], "scene": scenes[main_row.scene], "metric": fam.zh if lang == "zh" else fam.en}
    qs = [q.format(**fmt) for q in rng.sample(QUESTIONS_ZH if lang == "zh" else QUESTIONS_EN, 5)]
    title = (
        f"{fmt['topic']}:{fmt['scene']}场景的{fmt['metric']}能改善多少?"
        if lang == "zh"
        else f"{fmt['topic'].capitalize()}: how much does {fmt['metric']} improve in {fmt['scene']}?"
    )

    def pick() -> tuple[str, Table, Row]:
        rep = rng.choice(cited)
        t = rng.choice(rep.tables)
        return rep.id, t, rng.choice(t.rows)

    body: list[str] = []
    for k, q in enumerate(qs):
        body += [f"## {q}", "", _filler(lang, rng, 3), ""]
        rid, t, r = (main.id, main_table, main_row) if k == 0 else pick()
        sep = "" if lang == "zh" else " "
        body += [_row_sentence(lang, rid, t, r, rng) + sep + _filler(lang, rng, 1), ""]
        for _ in range(3):
            rid, t, r = pick()
            body.append("- " + _row_sentence(lang, rid, t, r, rng))
        rid = rng.choice(cited).id
        body += ["", _kv_sentence(lang, rid, rng.choice(by_id[rid].kvs), rng) + sep + _filler(lang, rng, 2), ""]
        if k == 2:
            rid, t, _ = pick()
            name, base, accel = ("场景", "基线", "加速") if lang == "zh" else ("Scenario", "Baseline", "Accelerated")
            what = t.family.zh if lang == "zh" else t.family.en
            intro = (
                f"{t.caption.split(' ', 2)[2]}的部分结果如下表{_cite(lang, [rid])}:"
                if lang == "zh"
                else f"Part of the {what} results are in the table below{_cite(lang, [rid])}:"
            )
            body += [
                intro,
                "",
                f"| {name} | {base} {what} ({t.family.unit}) | {accel} {what} ({t.family.unit}) | Δ |",
                "|---|---:|---:|---:|",
            ]
            body += [f"| {scenes[r.scene]} | {r.base} | {r.accel} | {r.change} |" for r in t.rows[:3]]
            body.append("")
        body += [_filler(lang, rng, 3), ""]

    r1 = (main.id, main_table, main_row)
    faq = []
    for _ in range(3):
        rid, t, r = pick()
        q = (
            f"{SCENES_ZH[r.scene]}场景的{t.family.zh}变化多大?"
            if lang == "zh"
            else f"How much does {t.family.en} change in {SCENES_EN[r.scene]}?"
        )
        faq.append({"q": q, "a": _row_sentence(lang, rid, t, r, rng)})
    front = {
        "title": title,
        "lang": lang,
        "date": dt.date(2024, 1, 1) + dt.timedelta(days=(i * 37 + seed) % 900),
        "tags": rng.sample(TAGS, rng.randint(3, 5)),
        "evidence": [s.id for s in cited],
        "answer": _row_sentence(lang, *r1, rng),
        "faq": faq,
    }
    slug = f"{lang}-{TOPICS_EN[topic_i].lower().replace(' ', '-')}-{i:05d}"
    text = "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n" + "\n".join(body)
    return slug, text


PUBLISH_TOML = """# A synthetic content root made by tools/synth.py for `make bench`.
[site]
title = "Proofpress bench"
brand = "芯元一"
description = "synthetic articles for benchmarks"
base_url = "https://bench.example.com/"
"""


def make_root(dest: Path, n_articles: int, n_reports: int = 20, seed: int = 0, cache: Path = CACHE) -> Path:
    """Write a content root of `n_articles` drafts citing `n_reports` generated reports into `dest`."""
    specs = report_specs(n_reports, seed)
    pdfs = ensure_pdfs(specs, seed, cache)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "publish.toml").write_text(PUBLISH_TOML, encoding="utf-8")
    reports = dest / "reports"
    reports.mkdir(exist_ok=True)
    registry = {
        "reports": [{"id": s.id, "title": s.title, "date": s.date, "file": s.file, "access": s.access} for s in specs]
    }
    (reports / "reports.yaml").write_text(
        yaml.safe_dump(registry, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    for s in specs:
        shutil.copyfile(pdfs / s.file, reports / s.file)
    articles = dest / "articles"
    articles.mkdir(exist_ok=True)
    (dest / "approvals").mkdir(exist_ok=True)
    for i in range(n_articles):
        slug, text = make_article(i, specs, seed)
        (articles / f"{slug}.md").write_text(text, encoding="utf-8")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dest", type=Path)
    parser.add_argument("-n", "--articles", type=int, default=1000)
    parser.add_argument("--reports", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    make_root(args.dest, args.articles, args.reports, args.seed)
    print(args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
