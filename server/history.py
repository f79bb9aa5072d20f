"""Game nights remembered: a record of every finished game, derived from the journal.

A record is made by folding one game's journal rows (its ``new_game`` up to the
next one) on a scratch table: who sat where, the options, the final scores and
winners, the text that settled the game (a tie-break included), the scores
after every input that changed them (with the event that did it and the
journal's time), and Food for Thought's receipts.  The records live in
``history.sqlite``; they hold nothing the journal does not, so deleting that
file rebuilds them on the next start.

The live table keeps the records in step (:meth:`History.sync`): a game that
reaches its end is recorded, and an undo that takes the end back removes it.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

from . import games
from .games.base import Quiet, input_kind
from .journal import Journal
from .refusal import Refusal
from .table import Table

log = logging.getLogger(__name__)

#: Bump when a record's shape changes: the records are then rebuilt from the journal.
VERSION = "1"
#: Games further apart than this (seconds) belong to different evenings.
EVENING_GAP = 4 * 3600
#: The page cache of the records' connection, KiB.  The history page, the stats and the exports read
#: every record, and ``tonight`` scans them all: with SQLite's default (2 MiB) each such read kept the
#: pages of the file read, so the server grew with the records kept up to 2 MiB (issue 20; the file
#: outlives the evenings).  Older pages are read from the OS's cache, as the journal's are.
CACHE_KIB = 64

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,     -- the journal row of the game's new_game
    game        TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    ended_at    REAL    NOT NULL,
    record      TEXT    NOT NULL         -- the whole record as JSON
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _scores(state: dict) -> list[int]:
    return [p["score"] for p in state["players"]]


def derive(rows: list[tuple[int, float, dict]], snapshot_of=lambda key: None) -> dict | None:
    """The record of the game in ``rows`` (its journal rows from its ``new_game`` on), or None
    when the game did not reach its end; ``snapshot_of`` reads the data snapshots the rows name
    (the journal's ``blob``)."""
    table = Table(Journal(":memory:"))
    table.snapshot_of = snapshot_of
    first_id, started_at, start = rows[0]
    progression: list[dict] = []
    for row_id, at, inp in rows:
        try:
            events = table.fold(row_id, inp)
        except (Refusal, Quiet) as exc:   # the live table skips such a row in the same way
            log.warning("journal row %s does not apply to its game (%s); left out of the record", row_id, exc)
            continue
        state = table.state
        if state is None:   # the host ended it before the end
            return None
        if not progression or _scores(state) != progression[-1]["scores"]:
            texts = [e["text"] for e in events if "seat" not in e]
            progression.append({"seq": row_id, "at": at, "scores": _scores(state),
                                "label": texts[-1] if texts else ""})
        if state["over"]:
            ended_at = at
            result = next((e["text"] for e in events if e.get("kind") == "game_over"), "")
            break
    else:
        return None
    table.journal.close()
    body = input_kind(start)[1]
    winners = list(state["winners"])
    return {
        "id": first_id, "game": state["game"], "game_name": games.get(state["game"]).name,
        "started_at": started_at, "ended_at": ended_at, "duration": round(ended_at - started_at, 1),
        "seed": body.get("seed", 0), "options": state.get("options", body.get("options", {})),
        "players": [{"seat": p["seat"], "name": p["name"], "score": p["score"],
                     "winner": p["name"] in winners} for p in state["players"]],
        "winners": winners, "result": result,
        "tie_break": state.get("tie_break"),
        "progression": progression,
        "receipts": state.get("receipts") or [],
    }


def _derive_or_skip(rows: list[tuple[int, float, dict]], snapshot_of) -> dict | None:
    """``derive``, but a game whose rules fail on its own journal is left out (and logged), so
    one bad game never stops the table from starting."""
    try:
        return derive(rows, snapshot_of)
    except Exception:
        log.exception("the game started at journal row %s could not be recorded", rows[0][0])
        return None


def split_games(rows: list[tuple[int, float, dict]]) -> list[list[tuple[int, float, dict]]]:
    """The journal's live rows cut into games, each from its ``new_game`` on."""
    out: list[list] = []
    for row in rows:
        if input_kind(row[2])[0] == "new_game":
            out.append([row])
        elif out:
            out[-1].append(row)
    return out


class History:
    """The records of finished games in a SQLite file (thread-safe)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def current(self) -> bool:
        """True when the records were built by this version of the code."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return row is not None and row[0] == VERSION

    def _put(self, record: dict) -> None:
        self._db.execute("INSERT OR REPLACE INTO games (id, game, started_at, ended_at, record) "
                         "VALUES (?, ?, ?, ?, ?)", (record["id"], record["game"], record["started_at"],
                                                    record["ended_at"], json.dumps(record)))

    def rebuild(self, journal: Journal) -> int:
        """Throw the records away and derive them again from the whole journal; how many."""
        records = [r for r in (_derive_or_skip(g, journal.blob) for g in split_games(journal.live_rows())) if r]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM games")
            for record in records:
                self._put(record)
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('version', ?)", (VERSION,))
            self._db.execute("COMMIT")
        return len(records)

    def sync(self, journal: Journal, game_seq: int | None, over: bool | None) -> None:
        """Bring the record of the game started at ``game_seq`` in step with the table: there
        when the game is over, gone when it is not (an undo took its end back), left as it is
        for ``over=None`` (the host ended the game); no record outlives its game's ``new_game``."""
        with self._lock:   # reads first: most inputs change no record, and then nothing is written
            if self._db.execute("SELECT 1 FROM games WHERE id > ? LIMIT 1", (game_seq or 0,)).fetchone():
                self._db.execute("DELETE FROM games WHERE id > ?", (game_seq or 0,))
            recorded = self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_seq,)).fetchone()
        if game_seq is None or over is None or bool(recorded) == over:
            return
        record = derive(split_games(journal.live_rows(game_seq))[0], journal.blob) if over else None
        with self._lock:
            if record is None:
                self._db.execute("DELETE FROM games WHERE id = ?", (game_seq,))
            else:
                self._put(record)

    def records(self, game: str | None = None, player: str | None = None) -> list[dict]:
        """The records, newest first; only ``game``'s, or those ``player`` (a name) played in."""
        with self._lock:
            rows = self._db.execute("SELECT record FROM games WHERE ?1 IS NULL OR game = ?1 "
                                    "ORDER BY ended_at DESC, id DESC", (game,)).fetchall()
        out = [json.loads(r) for (r,) in rows]
        if player is not None:
            wanted = player.casefold()
            out = [r for r in out if any(p["name"].casefold() == wanted for p in r["players"])]
        return out

    def record(self, game_id: int) -> dict | None:
        """One game's record by its ``new_game`` journal row."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def tonight(self, now: float | None = None) -> list[dict]:
        """The evening's games: the newest game and those before it with no gap of more than
        :data:`EVENING_GAP`, provided the newest ended less than that ago (oldest first)."""
        now = time.time() if now is None else now
        with self._lock:   # only the last day's games can be tonight's: no need to read them all
            rows = self._db.execute("SELECT record FROM games WHERE ended_at > ? ORDER BY ended_at DESC, id DESC",
                                    (now - 24 * 3600,)).fetchall()
        games = [json.loads(r) for (r,) in rows]
        evening: list[dict] = []
        edge = now
        for record in games:
            if edge - record["ended_at"] > EVENING_GAP:
                break
            evening.append(record)
            edge = record["started_at"]
        return evening[::-1]
