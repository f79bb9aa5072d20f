"""The tag registry: which card each NFC tag is stuck to, kept in ``tags.sqlite`` in the data dir.

One tag belongs to one card and one card has one tag: enrolling a new tag for
a card replaces its old one, and moving a tag that belongs to another card
needs ``move=True`` (the enrolment screens ask first).

In simulation every card of every registered game also has a virtual tag
(:func:`virtual_uid`), so a fresh install plays with no enrolment; enrolled
tags win over virtual ones.
"""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
import time
from pathlib import Path

from server import games

FILE_NAME = "tags.sqlite"
EXPORT_FORMAT = "tofu-table-tags"
_UID = re.compile(r"^([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")
#: First byte of every virtual UID (no card maker uses it), so they never look like real tags.
VIRTUAL_PREFIX = "F7"


class RegistryError(ValueError):
    """A registry change that was refused; ``message`` says what to do."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class TagTaken(RegistryError):
    """The tag is enrolled to another card; enrol again with ``move=True`` to move it."""

    def __init__(self, uid: str, card: str):
        super().__init__("tag_taken", f"Tag {uid} is already enrolled to {card}. Move it to the new card?")
        self.uid, self.card = uid, card


def normalise_uid(uid: str) -> str:
    """Upper-case hex without separators; RegistryError if it is not 4, 7 or 10 bytes."""
    text = str(uid).replace(":", "").replace(" ", "").replace("-", "").upper()
    if not _UID.match(text):
        raise RegistryError("bad_uid", f"{str(uid)[:40]!r} is not a tag UID: 4, 7 or 10 bytes in hex "
                            "(8, 14 or 20 digits).")
    return text


def virtual_uid(card: str) -> str:
    """The 7-byte virtual tag of ``card`` in simulation (the same on every install)."""
    return VIRTUAL_PREFIX + hashlib.sha256(card.encode()).hexdigest()[:12].upper()


def all_cards() -> list[str]:
    """Every card id of every registered game."""
    return [card for game in games.all_games() for card in game.cards()]


class TagRegistry:
    """UID -> card id in a SQLite file; ``simulate`` adds the virtual tags."""

    def __init__(self, path: str | Path, simulate: bool = False):
        self.path = Path(path)
        self.simulate = simulate
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS tags (uid TEXT PRIMARY KEY, card TEXT NOT NULL UNIQUE,"
                         " enrolled REAL NOT NULL)")
        self._virtual: dict[str, str] = {}

    @classmethod
    def in_data_dir(cls, data_dir: str | Path, simulate: bool = False) -> "TagRegistry":
        return cls(Path(data_dir) / FILE_NAME, simulate)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ----- looking up --------------------------------------------------------
    def card_of(self, uid: str) -> str | None:
        """The card a tag is enrolled to (virtual tags not counted), else None."""
        with self._lock:
            row = self._db.execute("SELECT card FROM tags WHERE uid = ?", (normalise_uid(uid),)).fetchone()
        return row[0] if row else None

    def resolve_uid(self, uid: str) -> str | None:
        """The card a tag is enrolled to (or, in simulation, whose virtual tag it is), else None.

        This is ``Table.resolve_uid``.
        """
        try:
            uid = normalise_uid(uid)
        except RegistryError:
            return None
        card = self.card_of(uid)
        if card is not None:
            return card
        if self.simulate and uid.startswith(VIRTUAL_PREFIX):
            if uid not in self._virtual:
                self._virtual = {virtual_uid(card): card for card in all_cards()}
            return self._virtual.get(uid)
        return None

    def uid_of(self, card: str) -> str | None:
        """The tag enrolled to ``card``, if any."""
        with self._lock:
            row = self._db.execute("SELECT uid FROM tags WHERE card = ?", (card,)).fetchone()
        return row[0] if row else None

    def entries(self) -> list[dict]:
        """Every enrolled tag as ``{"uid", "card", "enrolled"}``, by card id."""
        with self._lock:
            rows = self._db.execute("SELECT uid, card, enrolled FROM tags ORDER BY card").fetchall()
        return [{"uid": u, "card": c, "enrolled": t} for u, c, t in rows]

    # ----- changing ------------------------------------------------------------
    def enrol(self, uid: str, card: str, move: bool = False) -> str:
        """Enrol tag ``uid`` to ``card``; returns what happened in words.

        Raises TagTaken when the tag belongs to another card and ``move`` is
        False, RegistryError for a malformed UID or an unknown card.
        """
        uid = normalise_uid(uid)
        if card not in all_cards():
            raise RegistryError("unknown_card", f"{card} is not a card of any game here.")
        with self._lock:
            row = self._db.execute("SELECT card FROM tags WHERE uid = ?", (uid,)).fetchone()
            if row and row[0] == card:
                return f"Tag {uid} was already enrolled to {card}."
            if row and not move:
                raise TagTaken(uid, row[0])
            old = self._db.execute("SELECT uid FROM tags WHERE card = ?", (card,)).fetchone()
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM tags WHERE uid = ? OR card = ?", (uid, card))
            self._db.execute("INSERT INTO tags (uid, card, enrolled) VALUES (?, ?, ?)", (uid, card, time.time()))
            self._db.execute("COMMIT")
        words = f"Tag {uid} is now {card}"
        if row:
            words += f" (it was {row[0]}, which has no tag now)"
        if old and old[0] != uid:
            words += f"; its old tag {old[0]} is forgotten"
        return words + "."

    def forget(self, uid: str) -> bool:
        """Remove one tag; True if it was enrolled."""
        uid = normalise_uid(uid)
        with self._lock:
            return self._db.execute("DELETE FROM tags WHERE uid = ?", (uid,)).rowcount > 0

    # ----- files -----------------------------------------------------------------
    def export(self) -> dict:
        """The registry as a JSON-able document (what ``import_`` reads back)."""
        return {"format": EXPORT_FORMAT, "version": 1,
                "tags": [{"uid": e["uid"], "card": e["card"]} for e in self.entries()]}

    def import_(self, document: dict | str) -> int:
        """Enrol every tag of an exported document (moving tags as it says); returns the count.

        The whole document is checked first: nothing changes if any entry is wrong.
        """
        if isinstance(document, (str, bytes)):
            try:
                document = json.loads(document)
            except ValueError as exc:
                raise RegistryError("bad_file", f"The file is not JSON ({exc}).") from None
            except RecursionError:
                raise RegistryError("bad_file", "The file is nested too deeply to be a tag export.") from None
        if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
            raise RegistryError("bad_file", "This is not a Tofu Table tag export "
                                f"(it needs \"format\": \"{EXPORT_FORMAT}\").")
        tags = document.get("tags")
        if not isinstance(tags, list):
            raise RegistryError("bad_file", "The export has no list of tags.")
        known = set(all_cards())
        checked, seen_uids, seen_cards = [], set(), set()
        for number, entry in enumerate(tags, 1):
            if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
                raise RegistryError("bad_file", f"Entry {number} needs a uid and a card.")
            uid, card = normalise_uid(entry.get("uid", "")), entry["card"]
            if card not in known:
                raise RegistryError("unknown_card", f"Entry {number}: {card} is not a card of any game here.")
            if uid in seen_uids or card in seen_cards:
                raise RegistryError("bad_file", f"Entry {number}: {uid} or {card} appears twice.")
            seen_uids.add(uid)
            seen_cards.add(card)
            checked.append((uid, card))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            for uid, card in checked:
                self._db.execute("DELETE FROM tags WHERE uid = ? OR card = ?", (uid, card))
                self._db.execute("INSERT INTO tags (uid, card, enrolled) VALUES (?, ?, ?)",
                                 (uid, card, time.time()))
            self._db.execute("COMMIT")
        return len(checked)
