"""A reader with no hardware: tags are put on and taken off it by code.

The hub polls it like any other reader, so a simulated table goes through the
same debounce, lift timing and health reporting as a real one.  ``place`` and
``remove`` are safe to call from any thread; ``unplug`` makes it stop
answering, as a real reader would.
"""
from __future__ import annotations

import threading

from .reader import COLLISION, NOTHING, TAG, Poll, ReaderDown, TagReader


class SimulatedReader(TagReader):
    """A reader whose tags are whatever UIDs were last placed on it."""

    kind = "simulated"

    def __init__(self, name: str):
        super().__init__(name)
        self._lock = threading.Lock()
        self._uids: list[str] = []
        self.plugged = True

    def describe(self) -> str:
        return "simulated reader"

    def place(self, uid: str) -> None:
        """Put a tag (by its hex UID) on the reader."""
        with self._lock:
            self._uids.append(uid.upper())

    def remove(self, uid: str | None = None) -> None:
        """Take one tag (or every tag) off the reader."""
        with self._lock:
            self._uids = [u for u in self._uids if uid is not None and u != uid.upper()]

    def tags(self) -> list[str]:
        """The UIDs lying on the reader now."""
        with self._lock:
            return list(self._uids)

    def unplug(self) -> None:
        self.plugged = False

    def plug(self) -> None:
        self.plugged = True

    def open(self) -> None:
        if not self.plugged:
            raise ReaderDown("the simulated reader is unplugged")

    def poll(self) -> Poll:
        if not self.plugged:
            raise ReaderDown("the simulated reader is unplugged")
        with self._lock:
            uids = list(self._uids)
        if not uids:
            return NOTHING
        if len(uids) > 1:
            return Poll(COLLISION, detail="two or more tags are on the reader at once")
        return Poll(TAG, uid=uids[0])
