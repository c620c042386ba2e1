"""The SQLite evidence store: report versions, page texts and figures, with full-text search over figures."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import time
import unicodedata
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

from evidence.errors import EvidenceError
from evidence.models import Figure, Page, Report

SCHEMA_VERSION = "1"
# The extractor's version (evidence/pdf/): bump it when extraction changes, and ingest re-reads unchanged PDFs into
# their existing versions. It lives here so that checking an up-to-date store never imports the extractor.
PARSER_VERSION = "pdf-13"
_CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])")
_WORD = re.compile(r"\w+")


def fts_text(text: str) -> str:
    """Text as the FTS index sees it: NFKC, lower case, every CJK character its own token."""
    return _CJK.sub(r" \1 ", unicodedata.normalize("NFKC", text).lower())


def fts_query(query: str) -> str:
    """A user query as an FTS5 expression: each whitespace-separated term a phrase, all terms required."""
    phrases = []
    for term in query.split():
        tokens = _WORD.findall(fts_text(term))
        if tokens:
            phrases.append('"' + " ".join(tokens) + '"')
    return " AND ".join(phrases)


def _schema() -> str:
    return resources.files("evidence").joinpath("schema.sql").read_text(encoding="utf-8")


_TIMEOUT = 30.0  # seconds a writer waits for another one


class Store:
    """The evidence store at `path`; opening it creates the schema when missing (unless read-only)."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        try:
            if readonly:
                if not self.path.is_file():
                    raise EvidenceError("no evidence store yet; run `publish evidence ingest`", path=self.path)
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=_TIMEOUT)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(self.path, timeout=_TIMEOUT, isolation_level=None)
                self._wal()
                self.db.execute("PRAGMA synchronous=NORMAL")
                self._migrate()
        except sqlite3.DatabaseError as e:
            raise EvidenceError(f"cannot open the evidence store: {e} (delete it to rebuild)", path=self.path) from e
        self.db.row_factory = sqlite3.Row

    def _wal(self) -> None:
        # Switching to WAL takes a lock SQLite does not wait for (its busy handler is skipped there, to rule out
        # deadlock): two processes opening a new store at once would see "database is locked". Wait for it here.
        deadline = time.monotonic() + _TIMEOUT
        delay = 0.005
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.2)

    def _migrate(self) -> None:
        # The store is derived data: an older schema is dropped and rebuilt from the PDFs, never migrated. One
        # transaction from the check to the schema row, so a second process opening the store at the same time
        # never sees a half-made schema (and drops it).
        self.db.execute("BEGIN IMMEDIATE")
        try:
            has_meta = self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
            if has_meta:
                row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row and row[0] == SCHEMA_VERSION:
                    self.db.execute("COMMIT")
                    return
                tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                for name in tables:
                    if not name.startswith(("sqlite_", "figures_fts_")):
                        self.db.execute(f'DROP TABLE IF EXISTS "{name}"')
            statement = ""
            for line in _schema().splitlines(keepends=True):  # (executescript would commit first)
                statement += line
                if sqlite3.complete_statement(statement):
                    self.db.execute(statement)
                    statement = ""
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
        if isinstance(exc, sqlite3.DatabaseError):  # damaged mid-file: found by a query, not by opening it
            raise EvidenceError(
                f"the evidence store is damaged ({exc}); delete it and run `publish evidence ingest` to rebuild it "
                "from the report PDFs",
                path=self.path,
            ) from exc

    def close(self) -> None:
        self.db.close()

    # ---- reading -------------------------------------------------------------------------------------------

    @staticmethod
    def _report(row: sqlite3.Row, error: str | None = None) -> Report:
        return Report(
            id=row["id"],
            title=row["title"],
            date=dt.date.fromisoformat(row["date"]),
            access=row["access"],
            file=row["file"],
            sha256=row["sha256"],
            version=row["version"],
            pages=row["pages"],
            page_labels=json.loads(row["page_labels"]),
            error=error if error is not None else row["error"],
        )

    @staticmethod
    def _figure(row: sqlite3.Row) -> Figure:
        return Figure(
            id=row["id"],
            report=row["report"],
            version=row["version"],
            page=row["page"],
            page_label=row["page_label"],
            value=row["value"],
            unit=row["unit"],
            raw=row["raw"],
            labels=json.loads(row["labels"]),
            quote=row["quote"],
            kind=row["kind"],
        )

    def reports(self) -> list[Report]:
        """The latest version of every report, by id (with the last ingest's error, if any)."""
        errors = self.errors()
        rows = self.db.execute(
            "SELECT r.* FROM reports r JOIN (SELECT id, MAX(version) AS v FROM reports GROUP BY id) m "
            "ON r.id = m.id AND r.version = m.v ORDER BY r.id"
        ).fetchall()
        return [self._report(r, errors.get(r["id"])) for r in rows]

    def report(self, report_id: str, version: int | None = None) -> Report | None:
        """One version of a report (the latest by default), or None."""
        if version is None:
            row = self.db.execute(
                "SELECT * FROM reports WHERE id = ? ORDER BY version DESC LIMIT 1", (report_id,)
            ).fetchone()
        else:
            row = self.db.execute("SELECT * FROM reports WHERE id = ? AND version = ?", (report_id, version)).fetchone()
        return self._report(row) if row else None

    def versions(self, report_id: str) -> list[Report]:
        """Every ingested version of a report, oldest first."""
        rows = self.db.execute("SELECT * FROM reports WHERE id = ? ORDER BY version", (report_id,)).fetchall()
        return [self._report(r) for r in rows]

    def _version(self, report_id: str, version: int | None) -> int | None:
        if version is not None:
            return version
        row = self.db.execute("SELECT MAX(version) FROM reports WHERE id = ?", (report_id,)).fetchone()
        return row[0] if row else None

    def figures(self, report_id: str, version: int | None = None, *, names: bool = False) -> list[Figure]:
        """A report version's quantities in page and position order (latest version by default); `names=True` adds
        the identifiers it prints (kind `name`, e.g. `Xeon 8280`), which are never quantities."""
        v = self._version(report_id, version)
        if v is None:
            return []
        rows = self.db.execute(
            "SELECT * FROM figures WHERE report = ? AND version = ? AND (? OR kind != 'name') ORDER BY seq",
            (report_id, v, names),
        ).fetchall()
        return [self._figure(r) for r in rows]

    def pages(self, report_id: str, version: int | None = None) -> list[Page]:
        """A report version's page texts, in page order (latest version by default)."""
        v = self._version(report_id, version)
        if v is None:
            return []
        rows = self.db.execute(
            "SELECT * FROM pages WHERE report = ? AND version = ? ORDER BY page", (report_id, v)
        ).fetchall()
        return [
            Page(report=r["report"], version=r["version"], page=r["page"], label=r["label"], text=r["text"])
            for r in rows
        ]

    def figure(self, figure_id: str) -> Figure | None:
        """A figure by id (the newest version holding it, should a PDF's bytes come back)."""
        row = self.db.execute(
            "SELECT * FROM figures WHERE id = ? ORDER BY version DESC LIMIT 1", (figure_id,)
        ).fetchone()
        return self._figure(row) if row else None

    def search(self, query: str, limit: int = 50) -> list[Figure]:
        """Full-text search over the labels and quotes of the latest versions' figures, best first."""
        expr = fts_query(query)
        if not expr:
            return []
        try:
            rows = self.db.execute(
                "SELECT f.* FROM figures_fts JOIN figures f ON f.rowid = figures_fts.rowid "
                "JOIN (SELECT id, MAX(version) AS v FROM reports GROUP BY id) m ON f.report = m.id AND f.version = m.v "
                "WHERE figures_fts MATCH ? AND f.kind != 'name' ORDER BY bm25(figures_fts), f.report, f.seq LIMIT ?",
                (expr, limit),
            ).fetchall()
        except sqlite3.OperationalError as e:  # a query FTS5 cannot parse is the user's input, not a crash
            raise EvidenceError(f"cannot search for {query!r}: {e}") from e
        return [self._figure(r) for r in rows]

    def errors(self) -> dict[str, str]:
        """The last ingest's error message per report id."""
        return {r["report"]: r["message"] for r in self.db.execute("SELECT report, message FROM ingest_errors")}

    # ---- writing (used by evidence.ingest) -------------------------------------------------------------------

    def state(self, report_id: str) -> tuple[str, int, str] | None:
        """(sha256, version, parser) of a report's latest version, or None when it was never ingested."""
        row = self.db.execute(
            "SELECT sha256, version, parser FROM reports WHERE id = ? ORDER BY version DESC LIMIT 1", (report_id,)
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def save_version(
        self, report: Report, pages: list[Page], figures: list[Figure], *, parser: str, seconds: float
    ) -> None:
        """Write one report version with its pages and figures in one transaction (replacing that version)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            self._delete_version(report.id, report.version)
            db.execute(
                "INSERT INTO reports (id, version, sha256, title, date, access, file, pages, page_labels, error, parser, seconds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    report.id,
                    report.version,
                    report.sha256,
                    report.title,
                    report.date.isoformat(),
                    report.access,
                    report.file,
                    report.pages,
                    json.dumps(report.page_labels, ensure_ascii=False),
                    report.error,
                    parser,
                    seconds,
                ),
            )
            db.executemany(
                "INSERT INTO pages (report, version, page, label, text) VALUES (?, ?, ?, ?, ?)",
                [(report.id, report.version, p.page, p.label, p.text) for p in pages],
            )
            for seq, f in enumerate(figures):
                labels = json.dumps(f.labels, ensure_ascii=False)
                cur = db.execute(
                    "INSERT INTO figures (id, report, version, seq, page, page_label, value, unit, raw, labels, quote, kind)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        f.id,
                        report.id,
                        report.version,
                        seq,
                        f.page,
                        f.page_label,
                        f.value,
                        f.unit,
                        f.raw,
                        labels,
                        f.quote,
                        f.kind,
                    ),
                )
                db.execute(
                    "INSERT INTO figures_fts (rowid, labels, quote) VALUES (?, ?, ?)",
                    (cur.lastrowid, fts_text(" ".join(f.labels)), fts_text(f.quote)),
                )
            db.execute("DELETE FROM ingest_errors WHERE report = ?", (report.id,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _delete_version(self, report_id: str, version: int) -> None:
        self.db.execute(
            "DELETE FROM figures_fts WHERE rowid IN (SELECT rowid FROM figures WHERE report = ? AND version = ?)",
            (report_id, version),
        )
        for table, key in (("figures", "report"), ("pages", "report"), ("reports", "id")):
            self.db.execute(f"DELETE FROM {table} WHERE {key} = ? AND version = ?", (report_id, version))

    def refresh(self, report_id: str, version: int, **fields: Any) -> Report | None:
        """An unchanged PDF's version, with registry edits (title, date, access, file) applied in place.

        Writes only what changed, so re-checking an up-to-date store stays a handful of reads.
        """
        report = self.report(report_id, version)
        if report is None:
            return None
        allowed = {"title", "date", "access", "file"}
        changed = {k: v for k, v in fields.items() if k in allowed and getattr(report, k) != v}
        if changed:
            sets = {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in changed.items()}
            cols = ", ".join(f"{k} = ?" for k in sets)
            self.db.execute(
                f"UPDATE reports SET {cols} WHERE id = ? AND version = ?", (*sets.values(), report_id, version)
            )
            report = report.model_copy(update=changed)
        if self.db.execute("SELECT 1 FROM ingest_errors WHERE report = ?", (report_id,)).fetchone():
            self.db.execute("DELETE FROM ingest_errors WHERE report = ?", (report_id,))
        return report

    def figure_count(self, report_id: str, version: int | None = None) -> int:
        """How many figures a report version has (latest version by default)."""
        v = self._version(report_id, version)
        if v is None:
            return 0
        row = self.db.execute(
            "SELECT COUNT(*) FROM figures WHERE report = ? AND version = ? AND kind != 'name'", (report_id, v)
        ).fetchone()
        return int(row[0])

    def set_error(self, report_id: str, file: str, message: str) -> None:
        """Remember why a report's last ingest failed (its earlier versions stay as they were)."""
        self.db.execute(
            "INSERT OR REPLACE INTO ingest_errors (report, file, message) VALUES (?, ?, ?)", (report_id, file, message)
        )
