"""Test and bench support: the corpus PDFs as a content root with one brief each (tests/corpus/briefs/)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"
BRIEFS = CORPUS / "briefs"


@dataclass
class CorpusRoot:
    """A content root over the corpus: `path`, its evidence index, and the briefs' paths."""

    path: Path
    index: object
    briefs: list[Path]


def corpus_briefs() -> list[Path]:
    return sorted(p for p in BRIEFS.glob("*.yaml") if p.name != "reports.yaml")


def corpus_root(where: Path) -> CorpusRoot:
    """Copy the corpus PDFs, registry and briefs into `where`, ingest them, and load every report's figures."""
    from evidence.ingest import ingest
    from evidence.store import Store
    from qc.index import EvidenceIndex

    registry = yaml.safe_load((BRIEFS / "reports.yaml").read_text(encoding="utf-8"))
    (where / "reports").mkdir(parents=True, exist_ok=True)
    (where / "articles").mkdir(exist_ok=True)
    (where / "publish.toml").write_text('[drafter]\nmodel = "offline"\n', encoding="utf-8")
    for entry in registry["reports"]:
        target = where / "reports" / entry["file"]
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CORPUS / entry["file"], target)
    shutil.copyfile(BRIEFS / "reports.yaml", where / "reports" / "reports.yaml")
    briefs = []
    for brief in corpus_briefs():
        shutil.copyfile(brief, where / "articles" / brief.name)
        briefs.append(where / "articles" / brief.name)
    ids = [e["id"] for e in registry["reports"]]
    store = where / ".publish" / "evidence.sqlite"
    ingest(where / "reports", store).raise_for_errors(ids)
    with Store(store) as s:
        index = EvidenceIndex.load(s, ids)
    return CorpusRoot(where, index, briefs)
