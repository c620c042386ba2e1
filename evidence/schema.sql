-- The evidence store: derived data, always rebuildable from the report PDFs (see evidence/store.py).
-- One row per ingested version of a report; a new PDF sha256 makes version N+1, old versions stay.
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS reports (
    id          TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    sha256      TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    date        TEXT    NOT NULL,
    access      TEXT    NOT NULL,
    file        TEXT    NOT NULL,
    pages       INTEGER NOT NULL,
    page_labels TEXT    NOT NULL DEFAULT '[]',  -- JSON list, one printed label per PDF page
    error       TEXT,
    parser      TEXT    NOT NULL,               -- parser version: a newer parser re-reads unchanged PDFs
    seconds     REAL    NOT NULL DEFAULT 0,
    PRIMARY KEY (id, version)
);
CREATE INDEX IF NOT EXISTS reports_sha ON reports (id, sha256);

CREATE TABLE IF NOT EXISTS pages (
    report  TEXT    NOT NULL,
    version INTEGER NOT NULL,
    page    INTEGER NOT NULL,                   -- 1-based PDF page index
    label   TEXT,
    text    TEXT    NOT NULL,
    PRIMARY KEY (report, version, page)
);

CREATE TABLE IF NOT EXISTS figures (
    rowid      INTEGER PRIMARY KEY,
    id         TEXT    NOT NULL,                -- content-addressed: sha256(pdf sha256, page, position, raw)
    report     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    seq        INTEGER NOT NULL,                -- order within the report version (page, then position)
    page       INTEGER NOT NULL,
    page_label TEXT,
    value      REAL    NOT NULL,
    unit       TEXT    NOT NULL,
    raw        TEXT    NOT NULL,
    labels     TEXT    NOT NULL,                -- JSON list
    quote      TEXT    NOT NULL,
    kind       TEXT    NOT NULL,                -- cell | kv | prose | name (an identifier, never a quantity)
    UNIQUE (report, version, id)
);
CREATE INDEX IF NOT EXISTS figures_id ON figures (id);
CREATE INDEX IF NOT EXISTS figures_report ON figures (report, version, seq);

-- Labels and quotes, pre-tokenised (CJK characters split apart) so unicode61 matches Chinese substrings.
CREATE VIRTUAL TABLE IF NOT EXISTS figures_fts USING fts5 (labels, quote, tokenize = 'unicode61');

-- The last ingest's error per report id (a failed PDF never becomes a version).
CREATE TABLE IF NOT EXISTS ingest_errors (
    report  TEXT PRIMARY KEY,
    file    TEXT NOT NULL,
    message TEXT NOT NULL
);
