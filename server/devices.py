"""Remembered devices: phones that joined as a player, and TVs the host paired.

A device holds a random token (kept in its browser's localStorage); the data
folder's ``devices.sqlite`` keeps only the token's SHA-256, so a copy of the
folder gives nobody a working token.  A phone is remembered as a player (by
name) and takes that player's seat in whatever game is running, so it never
rescans between games or evenings; the host forgets a device to end that.
"""
from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT    NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN ('phone', 'display')),
    label       TEXT    NOT NULL DEFAULT '',
    player      TEXT,               -- the player this phone is (a name; the roster's link)
    seat        INTEGER,            -- the seat it asked for in the lobby, if any
    created_at  REAL    NOT NULL,
    last_seen   REAL    NOT NULL
);
"""

#: How often a device's ``last_seen`` is written at most (seconds): not on every request.
_SEEN_EVERY = 60.0


@dataclass(frozen=True)
class Device:
    """One remembered phone or display."""

    id: int
    kind: str
    label: str
    player: str | None
    seat: int | None
    created_at: float
    last_seen: float

    def as_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "label": self.label, "player": self.player,
                "seat": self.seat, "created_at": self.created_at, "last_seen": self.last_seen}


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class DeviceStore:
    """The remembered devices in a SQLite file (thread-safe)."""

    def __init__(self, path: str | Path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _row(self, sql: str, args: tuple) -> Device | None:
        row = self._db.execute(sql, args).fetchone()
        return Device(*row) if row else None

    def add(self, kind: str, label: str = "", player: str | None = None) -> tuple[str, Device]:
        """Remember a new device; its token (shown once) and its record."""
        token = secrets.token_urlsafe(18)
        now = time.time()
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO devices (token_hash, kind, label, player, created_at, last_seen) "
                "VALUES (?, ?, ?, ?, ?, ?)", (_hash(token), kind, label, player, now, now))
            device = self._row("SELECT id, kind, label, player, seat, created_at, last_seen "
                               "FROM devices WHERE id = ?", (cur.lastrowid,))
        return token, device

    def find(self, token: str | None) -> Device | None:
        """The device holding ``token`` (None for no token or a forgotten one)."""
        if not token or len(token) > 128:
            return None
        with self._lock:
            device = self._row("SELECT id, kind, label, player, seat, created_at, last_seen "
                               "FROM devices WHERE token_hash = ?", (_hash(token),))
            if device is not None and time.time() - device.last_seen > _SEEN_EVERY:
                try:
                    self._db.execute("UPDATE devices SET last_seen = ? WHERE id = ?", (time.time(), device.id))
                except sqlite3.Error:   # a read-only data folder: the device still counts
                    pass
        return device

    def set_player(self, device_id: int, player: str | None, seat: int | None) -> None:
        """Remember the phone as ``player`` (and the seat it asked for)."""
        with self._lock:
            self._db.execute("UPDATE devices SET player = ?, seat = ? WHERE id = ?", (player, seat, device_id))

    def forget(self, device_id: int) -> bool:
        """Forget a device: its token stops working. False if there was no such device."""
        with self._lock:
            return self._db.execute("DELETE FROM devices WHERE id = ?", (device_id,)).rowcount > 0

    def all(self) -> list[Device]:
        """Every remembered device, displays first, then phones by player."""
        with self._lock:
            rows = self._db.execute("SELECT id, kind, label, player, seat, created_at, last_seen FROM devices "
                                    "ORDER BY kind DESC, player, id").fetchall()
        return [Device(*row) for row in rows]


def seat_of(player: str | None, state: dict | None) -> int | None:
    """The seat ``player`` has in the running game (names compare without case), or None."""
    if not player or not state:
        return None
    wanted = player.casefold()
    return next((p["seat"] for p in state["players"] if p["name"].casefold() == wanted), None)
