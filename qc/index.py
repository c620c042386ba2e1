"""The cited reports' figures and page texts, loaded once into memory for checking and drafting."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from evidence.models import Figure, Page, Report

if TYPE_CHECKING:  # the store is only needed to load; tests build an index from records directly
    from evidence.store import Store


@dataclass
class EvidenceIndex:
    """Reports (latest versions), their figures and their pages, keyed by report id."""

    reports: dict[str, Report] = field(default_factory=dict)
    figures: dict[str, list[Figure]] = field(default_factory=dict)
    pages: dict[str, list[Page]] = field(default_factory=dict)

    @classmethod
    def load(cls, store: Store, report_ids: Iterable[str] | None = None) -> EvidenceIndex:
        """Load the latest version of each named report (all reports when `report_ids` is None)."""
        wanted = list(report_ids) if report_ids is not None else [r.id for r in store.reports()]
        index = cls()
        for rid in wanted:
            report = store.report(rid)
            if report is None:
                continue
            index.reports[rid] = report
            index.figures[rid] = store.figures(rid, report.version)
            index.pages[rid] = store.pages(rid, report.version)
        return index

    def subset(self, report_ids: Iterable[str]) -> EvidenceIndex:
        """The named reports this index holds, in the order named, sharing its figure and page lists (so QC's
        prepared reports, cached by list identity, carry over)."""
        wanted = [rid for rid in dict.fromkeys(report_ids) if rid in self.reports]
        return EvidenceIndex(
            reports={rid: self.reports[rid] for rid in wanted},
            figures={rid: self.figures[rid] for rid in wanted if rid in self.figures},
            pages={rid: self.pages[rid] for rid in wanted if rid in self.pages},
        )

    def add(self, other: EvidenceIndex) -> None:
        """Take in `other`'s reports (replacing those with the same id)."""
        self.reports.update(other.reports)
        self.figures.update(other.figures)
        self.pages.update(other.pages)

    def all_figures(self) -> list[Figure]:
        return [f for figs in self.figures.values() for f in figs]

    def figure(self, figure_id: str) -> Figure | None:
        """The figure with this id (the first, in report order), via a map made once per content of `figures`."""
        sig = tuple((rid, id(figs), len(figs)) for rid, figs in self.figures.items())
        cached = self.__dict__.get("_by_id")
        if cached is None or cached[0] != sig:
            by_id: dict[str, Figure] = {}
            for figs in self.figures.values():
                for f in figs:
                    by_id.setdefault(f.id, f)
            cached = self.__dict__["_by_id"] = (sig, by_id)
        return cached[1].get(figure_id)
