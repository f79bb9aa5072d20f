"""The table's players as people: a roster that lasts across games and evenings.

Each player has a stable ``id`` (never reused, kept through renames and merges),
a display ``name``, a ``colour`` and an ``avatar`` (an emoji or initials).  The
roster lives in ``players.sqlite`` in the data folder.

Games and the journal know players by the names typed at ``new_game``; the
roster keeps every name a player has been known by (``names``), so a renamed or
merged player still owns the games recorded under an old name.  Starting a game
with a name the roster does not know adds that player (:meth:`Roster.ensure`).
"""
from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .refusal import Refusal

#: Longest player name (the same limit as a name in ``new_game``).
MAX_NAME = 24
#: Longest avatar, in characters (an emoji with its joiners, or up to three initials).
MAX_AVATAR = 8
#: Colours given to new players in turn: distinct on the dark TV and on white paper.
PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
           "#f032e6", "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#800000")

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    colour      TEXT    NOT NULL,
    avatar      TEXT    NOT NULL,
    created_at  REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS names (
    key         TEXT    PRIMARY KEY,     -- the name casefolded: names compare without case
    name        TEXT    NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE
);
"""


class RosterError(Refusal):
    """A roster change that is not allowed (bad field, name taken, no such player)."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(code, message)
        self.status = status


@dataclass(frozen=True)
class Player:
    """One person in the roster."""

    id: int
    name: str
    colour: str
    avatar: str
    created_at: float
    names: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "colour": self.colour, "avatar": self.avatar,
                "created_at": self.created_at, "names": list(self.names)}


def clean_name(value) -> str:
    """A player name as the roster keeps it (trimmed), or RosterError saying what is wrong."""
    if not isinstance(value, str) or not value.strip():
        raise RosterError("bad_name", "A player needs a name: type one (at most "
                          f"{MAX_NAME} characters).")
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise RosterError("bad_name", f"{name[:MAX_NAME]}... is too long: a name has at most "
                          f"{MAX_NAME} characters.")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise RosterError("bad_name", "A name must not contain control characters.")
    return name


def initials(name: str) -> str:
    """The default avatar: the first letter of up to two words of ``name``, upper case."""
    return "".join(word[0] for word in name.split()[:2]).upper()


def _colour(value) -> str:
    if not isinstance(value, str) or not _COLOUR.match(value):
        raise RosterError("bad_colour", "A colour is written #rrggbb, for example #4363d8.")
    return value.lower()


def _avatar(value) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_AVATAR:
        raise RosterError("bad_avatar", f"An avatar is an emoji or up to {MAX_AVATAR} letters.")
    value = value.strip()
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in value) or "<" in value:
        raise RosterError("bad_avatar", "An avatar is an emoji or a few letters, nothing else.")
    return value


class Roster:
    """The roster in a SQLite file (thread-safe); every change is committed at once."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.created = not self.path.exists()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self):
        """Hold the lock and make the statements inside one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ----- reading -------------------------------------------------------------
    def _player(self, row) -> Player:
        names = tuple(n for (n,) in self._db.execute(
            "SELECT name FROM names WHERE player_id = ? ORDER BY rowid", (row[0],)))
        return Player(*row, names=names)

    def all(self) -> list[Player]:
        """Every player, by name."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, colour, avatar, created_at FROM players").fetchall()
            players = [self._player(r) for r in rows]
        return sorted(players, key=lambda p: p.name.casefold())

    def get(self, player_id: int) -> Player:
        """The player with ``player_id``, or RosterError (404)."""
        with self._lock:
            row = self._db.execute("SELECT id, name, colour, avatar, created_at FROM players WHERE id = ?",
                                   (player_id,)).fetchone()
            if row is None:
                raise RosterError("no_such_player", f"There is no player {player_id} in the roster "
                                  "(forgotten, or merged into another).", 404)
            return self._player(row)

    def find(self, name: str) -> Player | None:
        """The player known by ``name`` now or before (without case), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT p.id, p.name, p.colour, p.avatar, p.created_at FROM names n "
                "JOIN players p ON p.id = n.player_id WHERE n.key = ?", (name.casefold(),)).fetchone()
            return self._player(row) if row else None

    def ids_by_name(self) -> dict[str, int]:
        """Every name the roster knows (casefolded) -> its player's id."""
        with self._lock:
            return dict(self._db.execute("SELECT key, player_id FROM names"))

    # ----- changes -------------------------------------------------------------
    def _owner(self, name: str) -> int | None:
        row = self._db.execute("SELECT player_id FROM names WHERE key = ?", (name.casefold(),)).fetchone()
        return row[0] if row else None

    def _next_colour(self) -> str:
        used = {c for (c,) in self._db.execute("SELECT colour FROM players")}
        count = self._db.execute("SELECT count(*) FROM players").fetchone()[0]
        return next((c for c in PALETTE if c not in used), PALETTE[count % len(PALETTE)])

    def add(self, name, colour=None, avatar=None) -> Player:
        """Add a player; RosterError (409) when the name is already someone's."""
        name = clean_name(name)
        colour = _colour(colour) if colour is not None else None
        avatar = _avatar(avatar) if avatar is not None else initials(name)
        with self._transaction():
            if self._owner(name) is not None:
                raise RosterError("name_taken", f"{name} is already in the roster; pick them "
                                  "instead, or give the new player another name.", 409)
            cur = self._db.execute("INSERT INTO players (name, colour, avatar, created_at) "
                                   "VALUES (?, ?, ?, ?)",
                                   (name, colour or self._next_colour(), avatar, time.time()))
            self._db.execute("INSERT INTO names (key, name, player_id) VALUES (?, ?, ?)",
                             (name.casefold(), name, cur.lastrowid))
        return self.get(cur.lastrowid)

    def ensure(self, names: list[str]) -> list[Player]:
        """The players for ``names`` (a new game's), adding any the roster does not know."""
        out = []
        for name in names:
            try:
                out.append(self.find(name) or self.add(name))
            except RosterError:   # a name added by another thread just now
                out.append(self.find(name))
        return out

    def update(self, player_id: int, name=None, colour=None, avatar=None) -> Player:
        """Rename a player and/or change their colour or avatar; old names stay theirs."""
        player = self.get(player_id)
        changes = {}
        if name is not None:
            name = clean_name(name)
            changes["name"] = name
        if colour is not None:
            changes["colour"] = _colour(colour)
        if avatar is not None:
            changes["avatar"] = _avatar(avatar)
        if not changes:
            raise RosterError("nothing_to_change", "Send a new name, colour or avatar.")
        with self._transaction():
            if name is not None:
                owner = self._owner(name)
                if owner not in (None, player_id):
                    other = self._db.execute("SELECT name FROM players WHERE id = ?", (owner,)).fetchone()[0]
                    raise RosterError("name_taken", f"{name} is {other}'s name; to make them one "
                                      "player, merge them instead.", 409)
            for column, value in changes.items():
                self._db.execute(f"UPDATE players SET {column} = ? WHERE id = ?", (value, player.id))
            if name is not None:
                self._db.execute("INSERT OR REPLACE INTO names (key, name, player_id) VALUES (?, ?, ?)",
                                 (name.casefold(), name, player.id))
        return self.get(player_id)

    def merge(self, player_id: int, into_id: int) -> Player:
        """Make ``player_id`` part of ``into_id``: their names (and so their games) move over."""
        if player_id == into_id:
            raise RosterError("same_player", "A player cannot be merged into themselves; pick two players.")
        self.get(player_id)
        self.get(into_id)
        with self._transaction():
            self._db.execute("UPDATE names SET player_id = ? WHERE player_id = ?", (into_id, player_id))
            self._db.execute("DELETE FROM players WHERE id = ?", (player_id,))
        return self.get(into_id)

    def forget(self, player_id: int) -> Player:
        """Remove a player and every name they were known by; returns what was removed."""
        player = self.get(player_id)
        with self._transaction():
            self._db.execute("DELETE FROM players WHERE id = ?", (player_id,))
        return player
