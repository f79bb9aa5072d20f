"""Timed lift confirmations: the clock the pure engines do not have.

A game that waits to see whether a lifted card comes back (Tofu Kingdom: a peek
at a coaster is not a flip) lists those cards in ``Game.awaiting(state)`` as
``(reader, card, seconds)``.  After every input the table applies (an undo
included) and once at start-up (a restart while a coaster is up), this listener
makes its timers match that list: a card no longer awaited loses its timer, a
newly awaited one gets one.  When a timer runs out the table gets
``{"lift": {"reader": ..., "card": ..., "held": seconds}}``.  That input goes
through the journal like any other, so a replay makes the same decision without
a clock.  Listed in the ``tofu_table.pages`` entry points (it registers no page,
only the listener).
"""
from __future__ import annotations

import logging
import threading
from typing import Callable

from . import games

log = logging.getLogger(__name__)

Awaited = tuple[str, str, float]


class PutBackTimers:
    """One timer per awaited lifted card, kept in step with ``awaited()``."""

    def __init__(self, put: Callable[[dict, str], None], awaited: Callable[[], list[Awaited]]):
        self._put = put
        self._awaited = awaited
        self._timers: dict[tuple[str, str], threading.Timer] = {}
        self._lock = threading.Lock()

    def __call__(self, outcome, inp: dict) -> None:
        """The table's listener: after an applied input, match the timers to the game."""
        if outcome.accepted:
            self.sync()

    def sync(self) -> None:
        """Start a timer for each card the game now awaits; cancel those it no longer does."""
        wanted = {(reader, card): seconds for reader, card, seconds in self._awaited()}
        with self._lock:
            gone = [key for key in self._timers if key not in wanted]
            stopped = [self._timers.pop(key) for key in gone]
            for key, seconds in wanted.items():
                if key not in self._timers:
                    timer = threading.Timer(seconds, self._fire, (*key, seconds))
                    timer.daemon = True
                    self._timers[key] = timer
                    timer.start()
        for timer in stopped:
            timer.cancel()

    def _fire(self, reader: str, card: str, seconds: float) -> None:
        with self._lock:
            if self._timers.get((reader, card)) is None:
                return
            del self._timers[(reader, card)]
        self._put({"lift": {"reader": reader, "card": card, "held": seconds}}, "put-back timer")


def awaited_by(table) -> Callable[[], list[Awaited]]:
    """What the game running on ``table`` awaits now (nothing without a game)."""
    def awaited() -> list[Awaited]:
        state = table.state
        if not state:
            return []
        try:
            return list(games.get(state["game"]).awaiting(state))
        except Exception:       # a game's fault must not stop the listener
            log.exception("could not read which lifted cards the game awaits")
            return []
    return awaited


def register(app, socketio, ctx) -> None:
    """Listen to the table for lifts a game waits on (re-armed for a game left waiting)."""
    timers = PutBackTimers(ctx.table.put, awaited_by(ctx.table))
    ctx.plugins["put_back"] = timers
    ctx.table.listeners.append(timers)
    timers.sync()
