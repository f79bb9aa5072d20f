"""The journal: every accepted input, in order, in a SQLite file (the source of truth).

Rows are committed durably (WAL, ``synchronous=FULL``) before anyone is told.  The WAL is copied
back into the database file (a checkpoint) by a thread of the journal's own, once no row has been
written for ``CHECKPOINT_QUIET_S`` (or ``CHECKPOINT_LATEST_S`` after the first row it waits to copy),
not by SQLite inside whichever commit filled the WAL's thousandth page: that commit waited for the
copy and its fsync (issue 20).  A checkpoint is SQLite's own crash-safe step; a row is durable
once its commit returns, checkpointed or not.

Undo does not delete: it marks the newest live row undone, so the host can
still read the whole history.  Refused inputs go to their own table and never
change the game.  Blobs hold what a row refers to by its sha256, stored once
(the card data a game was set up from, so a replay sets it up the same way).
"""
from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    id      INTEGER PRIMARY KEY,
    at      REAL    NOT NULL,
    source  TEXT    NOT NULL,
    input   TEXT    NOT NULL,
    undone  REAL
);
CREATE TABLE IF NOT EXISTS refusals (
    id      INTEGER PRIMARY KEY,
    at      REAL    NOT NULL,
    source  TEXT    NOT NULL,
    input   TEXT    NOT NULL,
    code    TEXT    NOT NULL,
    message TEXT    NOT NULL,
    detail  TEXT
);
CREATE TABLE IF NOT EXISTS input_keys (
    key      TEXT    PRIMARY KEY,
    input_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS refusal_counts (
    code    TEXT    NOT NULL,
    source  TEXT    NOT NULL,
    count   INTEGER NOT NULL,
    last_at REAL    NOT NULL,
    PRIMARY KEY (code, source)
);
CREATE TABLE IF NOT EXISTS blobs (
    sha256  TEXT    PRIMARY KEY,
    body    TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

log = logging.getLogger(__name__)

#: The checkpointing thread copies the WAL back once no row was written for this long, seconds...
CHECKPOINT_QUIET_S = 0.5
#: ... or this long after the first row it waits to copy, while the table never falls quiet.
CHECKPOINT_LATEST_S = 30.0

#: The page cache of the journal's connection, KiB.  It fills with the pages of a growing journal up to
#: this bound: with SQLite's default (2 MiB) the server grew about 130 bytes an input, 2.3 MiB over a
#: 30-minute bench run's 10,800 inputs; with 256 KiB it still filled for the first 8 minutes of play
#: (about 34 KiB a minute, issue 20).  This much holds what an input touches (the newest leaf of each
#: table, the key index's inner pages) and is full within the first minute; older pages are read from
#: the OS's cache (no slower a commit measured: CPU p50 177-226 against 175-210 us, with its fsync).
CACHE_KIB = 64

#: The layout of the journal this code writes, kept in ``meta`` as ``schema_version``.
SCHEMA_VERSION = 4


def _add_missing_tables(db: sqlite3.Connection) -> None:
    """The schema script creates the tables an older journal lacks and keeps every row."""
    db.executescript(_SCHEMA)


def _add_refusal_detail(db: sqlite3.Connection) -> None:
    """A refusal's private detail gets its own column (it was part of the message)."""
    if "detail" not in {row[1] for row in db.execute("PRAGMA table_info(refusals)")}:
        db.execute("ALTER TABLE refusals ADD COLUMN detail TEXT")


#: For each older version, the step that brings a journal to the next one: version 1 (from
#: before the version was written) lacks the idempotency keys and refusal counts, version 2
#: the blobs, version 3 the refusals' detail.
MIGRATIONS = {1: _add_missing_tables, 2: _add_missing_tables, 3: _add_refusal_detail}

#: How many refusals the list keeps (older ones live on only in the counts per reason and source).
REFUSALS_KEPT = 1000
#: How much of a refused input is kept, in characters.
REFUSED_INPUT_CHARS = 1024


class JournalError(RuntimeError):
    """The journal could not be written (disk full, read-only data dir, ...)."""


class Journal:
    """Append-only record of accepted inputs, with undo marks and refusals."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = self._connect()
        self._wrote = threading.Event()         # a row waits to be checkpointed
        self._closing = threading.Event()
        self._last_write = time.monotonic()
        self._checkpointer: threading.Thread | None = None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA wal_autocheckpoint=0")     # the checkpointing thread does it (module docstring)
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        try:
            old = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'inputs'").fetchone() is not None
            db.executescript(_SCHEMA)
            self._check_version(db, old)
        except sqlite3.OperationalError:
            # a read-only data folder: an existing journal still reads; writes wait for the folder
            db.execute("SELECT 1 FROM inputs LIMIT 1")
        return db

    def _check_version(self, db: sqlite3.Connection, existed: bool) -> None:
        """Bring an older journal to :data:`SCHEMA_VERSION`; refuse one written by a newer table."""
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row else (1 if existed else SCHEMA_VERSION)
        if version > SCHEMA_VERSION:
            db.close()
            raise JournalError(f"The journal at {self.path} was written by a newer Tofu Table (journal "
                               f"version {version}; this one reads up to {SCHEMA_VERSION}): update the "
                               "table's software, or move the journal aside to start a new one.")
        while version < SCHEMA_VERSION:
            MIGRATIONS[version](db)
            version += 1
        if row is None or int(row[0]) != version:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                       (str(version),))

    def close(self) -> None:
        """Stop the checkpointing thread and close the file (its last connection checkpoints it)."""
        self._closing.set()
        self._wrote.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock:
            self._db.close()

    def _written(self) -> None:
        """Note a row written; the first one starts the checkpointing thread (none for ``:memory:``)."""
        self._last_write = time.monotonic()
        self._wrote.set()
        if self._checkpointer is None and str(self.path) != ":memory:":
            self._checkpointer = threading.Thread(target=self._checkpoint_when_quiet, name="journal-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()

    def _checkpoint_when_quiet(self) -> None:
        """The checkpointing thread: after rows were written, wait for a quiet moment (or the latest
        time), then copy the WAL back from a connection of its own, so a writer does not wait for it."""
        db = sqlite3.connect(str(self.path), isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")
        try:
            while self._wrote.wait() and not self._closing.is_set():
                latest = time.monotonic() + CHECKPOINT_LATEST_S
                while (wait := min(self._last_write + CHECKPOINT_QUIET_S, latest) - time.monotonic()) > 0:
                    if self._closing.wait(wait):
                        return          # closing: the last connection's close checkpoints
                self._wrote.clear()     # a row written from here on waits for the next checkpoint
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:    # a read-only or missing folder: the next write tries again
                    log.warning("journal checkpoint failed: %s", exc)
        finally:
            db.close()

    def _writing(self, work):
        """Run ``work(db)`` under the lock; a database opened read-only (the data folder was
        read-only) is opened again once, so the table recovers when the folder is writable."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    done = work(self._db)
                    self._written()
                    return done
                except sqlite3.Error as exc:
                    if attempt == 1 and "readonly" in str(exc):
                        # close first: SQLite would hand a new connection the same read-only file
                        self._db.close()
                        try:
                            self._db = self._connect()
                        except sqlite3.Error as again:
                            raise JournalError(f"The journal at {self.path} could not be opened "
                                               f"again: {again}.") from again
                        continue
                    raise JournalError(f"The journal at {self.path} could not be written: {exc}.") from exc

    def _write(self, sql: str, args: tuple) -> int:
        return self._writing(lambda db: db.execute(sql, args).lastrowid)

    def append(self, inp: dict, source: str = "", at: float | None = None, key: str | None = None) -> int:
        """Commit one accepted input (and its sender's idempotency ``key``); returns its row id."""
        row = (at or time.time(), source, json.dumps(inp, separators=(",", ":")))
        if key is None:
            return self._write("INSERT INTO inputs (at, source, input) VALUES (?, ?, ?)", row)

        def both(db):
            with db:   # one transaction: the input and its key, or neither
                db.execute("BEGIN IMMEDIATE")
                row_id = db.execute("INSERT INTO inputs (at, source, input) VALUES (?, ?, ?)", row).lastrowid
                db.execute("INSERT INTO input_keys (key, input_id) VALUES (?, ?)", (key, row_id))
            return row_id
        return self._writing(both)

    def _first(self, sql: str, args: tuple):
        """The first column of the row ``sql`` finds, or None (also when its table is missing from
        a read-only journal written before that table existed)."""
        with self._lock:
            try:
                row = self._db.execute(sql, args).fetchone()
            except sqlite3.OperationalError:
                return None
        return row[0] if row else None

    def row_for_key(self, key: str) -> int | None:
        """The row of the input journaled with idempotency ``key``, or None."""
        return self._first("SELECT input_id FROM input_keys WHERE key = ?", (key,))

    def keep_blob(self, body: str) -> str:
        """Store ``body`` once, keyed by its sha256 (hex), and return the key."""
        key = hashlib.sha256(body.encode()).hexdigest()
        self._write("INSERT OR IGNORE INTO blobs (sha256, body) VALUES (?, ?)", (key, body))
        return key

    def blob(self, key: str) -> str | None:
        """The body stored under ``key``, or None."""
        return self._first("SELECT body FROM blobs WHERE sha256 = ?", (key,))

    def undo_row(self, row_id: int) -> None:
        """Mark live row ``row_id`` undone (the host chose to take back that one input)."""
        self._write("UPDATE inputs SET undone = ? WHERE id = ? AND undone IS NULL", (time.time(), row_id))

    def undo_last(self) -> dict | None:
        """Mark the newest live input undone; returns it, or None if there is none."""
        row = self._db.execute(
            "SELECT id, input FROM inputs WHERE undone IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        self._write("UPDATE inputs SET undone = ? WHERE id = ?", (time.time(), row[0]))
        return json.loads(row[1])

    def live(self) -> list[tuple[int, dict]]:
        """Every input not undone, oldest first, as ``(id, input)``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, input FROM inputs WHERE undone IS NULL ORDER BY id").fetchall()
        return [(i, json.loads(s)) for i, s in rows]

    def live_rows(self, since: int = 0) -> list[tuple[int, float, dict]]:
        """Every input not undone from row ``since`` on, oldest first, as ``(id, at, input)``."""
        with self._lock:
            rows = self._db.execute("SELECT id, at, input FROM inputs WHERE undone IS NULL AND id >= ? "
                                    "ORDER BY id", (since,)).fetchall()
        return [(i, at, json.loads(s)) for i, at, s in rows]

    def live_since_last_game(self) -> list[tuple[int, dict]]:
        """The live inputs from the newest live ``new_game`` on (all that matters to the state)."""
        with self._lock:
            start = self._db.execute(
                "SELECT max(id) FROM inputs WHERE undone IS NULL AND input LIKE '{\"new_game\":%'"
            ).fetchone()[0] or 0
            rows = self._db.execute(
                "SELECT id, input FROM inputs WHERE undone IS NULL AND id >= ? ORDER BY id",
                (start,)).fetchall()
        return [(i, json.loads(s)) for i, s in rows]

    def refuse(self, inp, code: str, message: str, source: str = "", detail: str | None = None) -> None:
        """Record a refused input (what and why, with the reason's private ``detail``) for the host page."""
        try:
            text = json.dumps(inp, separators=(",", ":"))[:REFUSED_INPUT_CHARS]
        except (TypeError, ValueError, RecursionError):
            text = repr(inp)[:REFUSED_INPUT_CHARS]
        now = time.time()

        def record(db):   # the list is capped; the counts per reason and source keep the rest
            with db:
                db.execute("BEGIN IMMEDIATE")
                row = db.execute("INSERT INTO refusals (at, source, input, code, message, detail) "
                                 "VALUES (?, ?, ?, ?, ?, ?)",
                                 (now, source, text, code, message[:1000], detail and detail[:1000])).lastrowid
                db.execute("DELETE FROM refusals WHERE id <= ?", (row - REFUSALS_KEPT,))
                db.execute("INSERT INTO refusal_counts (code, source, count, last_at) VALUES (?, ?, 1, ?) "
                           "ON CONFLICT (code, source) DO UPDATE SET count = count + 1, last_at = ?",
                           (code, source, now, now))
        self._writing(record)

    def recent(self, limit: int = 50) -> dict:
        """The newest inputs (with undo marks) and refusals, newest first, for the host."""
        with self._lock:
            inputs = self._db.execute(
                "SELECT id, at, source, input, undone FROM inputs ORDER BY id DESC LIMIT ?",
                (limit,)).fetchall()
            try:
                refusals = self._db.execute("SELECT id, at, source, input, code, message, detail FROM refusals "
                                            "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
            except sqlite3.OperationalError:   # a read-only journal from before the detail had a column
                refusals = self._db.execute("SELECT id, at, source, input, code, message, NULL FROM refusals "
                                            "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
            try:
                counts = self._db.execute("SELECT code, source, count, last_at FROM refusal_counts "
                                          "ORDER BY count DESC LIMIT 100").fetchall()
            except sqlite3.OperationalError:   # a read-only journal from before the counts existed
                counts = []
        return {
            "inputs": [{"id": i, "at": at, "source": src, "input": json.loads(s), "undone": u is not None}
                       for i, at, src, s, u in inputs],
            "refusals": [{"id": i, "at": at, "source": src, "input": s, "code": c, "message": m, "detail": d}
                         for i, at, src, s, c, m, d in refusals],
            "refusal_counts": [{"code": c, "source": src, "count": n, "last_at": at}
                               for c, src, n, at in counts],
        }

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM inputs").fetchone()[0]

    def meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
