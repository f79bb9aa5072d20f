"""The table: one session, one input queue, one thread that applies inputs in order.

Every input, whoever produced it (reader thread, camera thread, HTTP,
Socket.IO, replay), goes through :meth:`Table.submit` or :meth:`Table.put`.
The applying thread then, for each input in arrival order:

1. resolves it (a tag UID to a card id through the registry),
2. applies it to the game engine (or refuses it with a RuleError),
3. commits it to the journal (before anyone is told),
4. tells the listeners (the web app publishes the views).

The state is always the fold of the journal's live inputs since the newest
``new_game``; undo marks the newest input undone and refolds.
"""
from __future__ import annotations

import logging
import pickle
import queue
import threading
from dataclasses import dataclass, field
from typing import Callable

from . import games
from .games.base import Quiet, RuleError, input_kind
from .journal import Journal, JournalError
from .protocol import check
from .refusal import Refusal

log = logging.getLogger(__name__)

#: What the TV shows when no game is running.
LOBBY_PROMPT = "No game yet: start one from the host page."

_PING = object()   # a queue item that only proves the applying thread is taking items


@dataclass
class Outcome:
    """What became of one input: accepted (with the journal row) or refused (with why)."""

    accepted: bool
    seq: int | None = None
    events: list[dict] = field(default_factory=list)
    error: Refusal | None = None
    quiet: bool = False

    def as_dict(self, audience: str = "host") -> dict:
        if self.accepted:
            return {"ok": True, "seq": self.seq, "quiet": self.quiet}
        return {"ok": False, "error": self.error.as_dict(audience)}


def _copy(state: dict) -> dict:
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


class Table:
    """The session: current game state, its journal, and the listeners to tell.

    ``resolve_uid`` maps a tag UID to a card id (None when unknown); the
    hardware registry provides it, simulation gives every card a virtual tag.
    """

    def __init__(self, journal: Journal, resolve_uid: Callable[[str], str | None] = lambda uid: None):
        self.journal = journal
        self.resolve_uid = resolve_uid
        self.state: dict | None = None
        self.game_seq: int | None = None   # journal row of the running game's new_game
        self.seq = 0                        # journal row of the newest live input
        self.ended_note: str | None = None
        self.listeners: list[Callable[[Outcome, dict], None]] = []
        self.faults = 0                     # inputs that failed inside the table (internal_error)
        self.last_fault: str | None = None
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self.refold()

    # ----- folding -------------------------------------------------------
    def refold(self) -> None:
        """Rebuild the state from the journal (on start, and after undo)."""
        self.state, self.game_seq, self.ended_note = None, None, None
        rows = self.journal.live_since_last_game()
        self.seq = rows[-1][0] if rows else 0
        for row_id, inp in rows:
            try:
                self._fold_one(row_id, inp, copy=False)
            except (RuleError, Quiet) as exc:   # a journal written by another version
                log.error("journal row %s no longer applies (%s); skipped", row_id, exc)

    def fold(self, row_id: int, inp: dict) -> list[dict]:
        """Apply one journaled input as a refold does (no checks, no journal, no listeners).

        For records derived from the journal on a scratch table (server.history).
        """
        return self._fold_one(row_id, inp, copy=False)

    def _fold_one(self, row_id: int, inp: dict, copy: bool) -> list[dict]:
        kind, body = input_kind(inp)
        if kind == "new_game":
            game = games.get(body["game"])
            count = len(body["players"])
            if not game.min_players <= count <= game.max_players:
                raise RuleError("player_count", f"{game.name} is for {game.min_players} to "
                                f"{game.max_players} players, not {count}.")
            options = game.resolve_options(body.get("options"), count)
            self.state = game.setup(list(body["players"]), options, body.get("seed", 0))
            self.game_seq, self.ended_note = row_id, None
            return [{"kind": "new_game", "text": f"New game of {game.name} for {count} players."}]
        if kind == "host" and body.get("action") == "end_game":
            if self.state is None:
                raise RuleError("no_game", "There is no game to end.")
            name = games.get(self.state["game"]).name
            self.state, self.ended_note = None, f"The host ended the game of {name}."
            return [{"kind": "game_ended", "text": self.ended_note}]
        if self.state is None:
            raise RuleError("no_game", "No game is running: start one from the host page.")
        game = games.get(self.state["game"])
        state, events = game.apply(_copy(self.state) if copy else self.state, inp)
        self.state = state
        return events

    # ----- one input -------------------------------------------------------
    def _resolve(self, inp: dict) -> dict:
        kind, body = input_kind(inp)
        if kind in ("tap", "lift") and "uid" in body:
            card = self.resolve_uid(body["uid"])
            if card is None:
                if kind == "lift":
                    raise Quiet()
                raise RuleError("unknown_tag", f"Tag {body['uid']} is not enrolled to any card. "
                                "Enrol it on the /enrol page or with `tofu-table enrol`.")
            return {kind: {**body, "card": card}}
        return inp

    def _undo(self) -> list[dict]:
        if self.journal.undo_last() is None:
            raise RuleError("nothing_to_undo", "There is nothing to undo.")
        self.refold()
        return [{"kind": "undo", "text": "Undid the last input."}]

    def handle(self, inp, source: str = "") -> Outcome:
        """Check, resolve, apply and journal one input, now, on the calling thread.

        Only the applying thread (or a headless replay) calls this; everyone
        else uses :meth:`submit` or :meth:`put`.
        """
        before = (self.state, self.game_seq, self.ended_note)
        try:
            inp = check(inp)
            kind, body = input_kind(inp)
            if (kind, body.get("name") or body.get("action")) in (("button", "undo"), ("host", "undo")):
                events = self._undo()
                outcome = Outcome(True, seq=self.seq, events=events)
            else:
                inp = self._resolve(inp)
                events = self._fold_one(None, inp, copy=True)
                row = self.journal.append(inp, source)     # durable before anyone is told
                if kind == "new_game":
                    self.game_seq = row
                self.seq = row
                outcome = Outcome(True, seq=row, events=events)
        except Quiet:
            outcome = Outcome(True, seq=self.seq, quiet=True)
        except Refusal as exc:
            self.state, self.game_seq, self.ended_note = before
            outcome = Outcome(False, error=exc)
            detail = getattr(exc, "detail", None)
            try:
                self.journal.refuse(inp, exc.code, f"{exc.message} ({detail})" if detail else exc.message,
                                    source)
            except JournalError as jerr:
                log.error("%s", jerr)
        except JournalError as exc:
            self.state, self.game_seq, self.ended_note = before
            outcome = Outcome(False, error=RuleError(
                "journal_failed", f"{exc} The input was NOT applied; free disk space or fix the "
                "data folder, then try again."))
        except Exception as exc:   # a fault in an engine must not stop the table
            self.state, self.game_seq, self.ended_note = before
            outcome = Outcome(False, error=self._internal_error(inp, source, exc))
        if not outcome.quiet:
            for listener in self.listeners:
                try:
                    listener(outcome, inp if isinstance(inp, dict) else {})
                except Exception:   # a broken listener must not stop the table
                    log.exception("a table listener failed")
        return outcome

    def _internal_error(self, inp, source: str, exc: Exception) -> RuleError:
        """Log, list and count an input the table failed on; the refusal to answer with."""
        log.error("input %.500r from %s failed inside the table", inp, source or "?", exc_info=exc)
        fault = f"{type(exc).__name__}: {exc}"[:300]
        self.faults += 1
        self.last_fault = fault
        error = RuleError("internal_error", "The table could not apply this input (a fault in its "
                          "rules program); nothing changed. Play on, or undo; the host page lists it.",
                          detail=fault)
        try:
            self.journal.refuse(inp, error.code, f"{error.message} ({fault})", source)
        except JournalError as jerr:
            log.error("%s", jerr)
        return error

    def health(self) -> list[dict]:
        """The applying thread's health record: ``degraded`` once an input failed inside it."""
        if self._thread is not None and not self._thread.is_alive():
            return [{"name": "applying thread", "status": "down", "last_seen": None,
                     "detail": "The thread that applies inputs has stopped; restart the table."}]
        if self.faults:
            return [{"name": "applying thread", "status": "degraded", "last_seen": None,
                     "detail": f"{self.faults} input(s) failed inside the table and were refused; "
                               f"last: {self.last_fault}"}]
        return [{"name": "applying thread", "status": "ok", "detail": "", "last_seen": None}]

    # ----- the queue ---------------------------------------------------------
    def start(self) -> None:
        """Start the applying thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="table-apply", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Apply what is queued, then stop the applying thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            inp, source, done = item
            if inp is _PING:
                done.put(True)
                continue
            outcome = self.handle(inp, source)
            if done is not None:
                done.put(outcome)

    def ping(self, timeout: float) -> bool:
        """True if the applying thread runs and takes a no-op off its queue within ``timeout`` s.

        The systemd watchdog asks this: a hung or dead applying thread answers False.
        """
        if self._thread is None or not self._thread.is_alive():
            return False
        done: queue.Queue = queue.Queue(maxsize=1)
        self._queue.put((_PING, "", done))
        try:
            return done.get(timeout=timeout)
        except queue.Empty:
            return False

    def put(self, inp, source: str = "") -> None:
        """Queue an input without waiting (hardware and camera threads use this)."""
        self._queue.put((inp, source, None))

    def submit(self, inp, source: str = "", timeout: float = 10.0) -> Outcome:
        """Queue an input and wait for its outcome (HTTP and Socket.IO use this)."""
        if self._thread is None:
            return self.handle(inp, source)
        done: queue.Queue = queue.Queue(maxsize=1)
        self._queue.put((inp, source, done))
        try:
            return done.get(timeout=timeout)
        except queue.Empty:
            return Outcome(False, error=RuleError("busy", "The table is busy; try again in a moment."))

    # ----- views -------------------------------------------------------------
    def seats(self) -> list[int]:
        """Seat numbers of the running game's players."""
        return [p["seat"] for p in self.state["players"]] if self.state else []

    def view(self, audience: str) -> dict:
        """The view for ``table``, ``host`` or ``seat-N`` (a lobby view when no game runs)."""
        if self.state is None:
            view = {"game": None, "phase": "lobby", "prompt": LOBBY_PROMPT, "players": [],
                    "over": False, "winners": [],
                    "last_events": [self.ended_note] if self.ended_note else []}
        else:
            game = games.get(self.state["game"])
            view = game.view(self.state, audience)
            view["game_name"] = game.name
        view["seq"] = self.seq
        view["audience"] = audience
        return view
