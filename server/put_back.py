"""Timed lift confirmations: the clock the pure engines do not have.

A game that waits to see whether a lifted card comes back (Tofu Kingdom: a peek
at a coaster is not a flip) answers the ``lift`` with an event carrying
``await_put_back`` (seconds) and ``position`` (the reader).  This listener
starts a timer; unless the same card is laid on that reader again first, the
table gets ``{"lift": {"reader": ..., "card": ..., "held": seconds}}`` when the
time is up.  That input goes through the journal like any other, so a replay
makes the same decision without a clock.  Listed in the ``tofu_table.pages``
entry points (it registers no page, only the listener).
"""
from __future__ import annotations

import threading

from .games.base import input_kind


class PutBackTimers:
    """One timer per lifted card; a card laid back on its reader cancels its timer."""

    def __init__(self, put):
        self._put = put
        self._timers: dict[tuple[str, str], threading.Timer] = {}
        self._lock = threading.Lock()

    def __call__(self, outcome, inp: dict) -> None:
        """The table's listener: start or cancel timers from an applied input."""
        if not outcome.accepted or not inp:
            return
        kind, body = input_kind(inp)
        if kind == "tap":
            self.cancel(body.get("reader"), body.get("card"))
        for ev in outcome.events or []:
            if ev.get("await_put_back") and kind == "lift" and "held" not in body:
                self.start(body["reader"], body["card"], ev["await_put_back"])

    def start(self, reader: str, card: str, seconds: float) -> None:
        """After ``seconds``, tell the table that ``card`` is still away from ``reader``."""
        timer = threading.Timer(seconds, self._fire, (reader, card, seconds))
        timer.daemon = True
        with self._lock:
            old = self._timers.pop((reader, card), None)
            self._timers[(reader, card)] = timer
        if old:
            old.cancel()
        timer.start()

    def cancel(self, reader, card) -> None:
        """The card is back on the reader: no confirmation."""
        with self._lock:
            timer = self._timers.pop((reader, card), None)
        if timer:
            timer.cancel()

    def _fire(self, reader: str, card: str, seconds: float) -> None:
        with self._lock:
            if self._timers.get((reader, card)) is None:
                return
            del self._timers[(reader, card)]
        self._put({"lift": {"reader": reader, "card": card, "held": seconds}}, "put-back timer")


def register(app, socketio, ctx) -> None:
    """Listen to the table for lifts a game waits on."""
    timers = PutBackTimers(ctx.table.put)
    ctx.plugins["put_back"] = timers
    ctx.table.listeners.append(timers)
