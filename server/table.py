"""The table: one session, one input queue, one thread that applies inputs in order.

Every input, whoever produced it (reader thread, camera thread, HTTP,
Socket.IO, replay), goes through :meth:`Table.submit` or :meth:`Table.put`.
The applying thread then, for each input in arrival order:

1. resolves it (a tag UID to a card id through the registry),
2. applies it to the game engine (or refuses it with a RuleError),
3. commits it to the journal (before anyone is told),
4. tells the listeners (the web app publishes the views).

The state is always the fold of the journal's live inputs since the newest
``new_game``; undo marks the newest input undone and refolds.  A game that reads
data at setup is set up from the snapshot its ``new_game`` row names.  Should a
refold meet a live row that no longer applies, the table halts there: it takes
only the host's way out (skip that input, undo, a new game) until then.
"""
from __future__ import annotations

import json
import logging
import pickle
import queue
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Callable

from . import games
from .games.base import Quiet, RuleError, input_kind
from .journal import Journal, JournalError
from .protocol import check
from .refusal import Refusal

log = logging.getLogger(__name__)

#: What the TV shows when no game is running.
LOBBY_PROMPT = "No game yet: start one from the host page."
#: What every screen shows while the table is halted.
HALTED_PROMPT = ("The table needs the host: an earlier input no longer applies. "
                 "The host page says which, and how to go on.")

_PING = object()   # a queue item that only proves the applying thread is taking items

#: How many idempotency keys of accepted inputs are remembered in memory (the journal
#: keeps those of journaled inputs for good).
KEYS_REMEMBERED = 4096
#: How long an answer waits for an input the applying thread has already taken, in seconds.
APPLY_WAIT = 30.0


@dataclass
class Outcome:
    """What became of one input: accepted (with the journal row) or refused (with why)."""

    accepted: bool
    seq: int | None = None
    events: list[dict] = field(default_factory=list)
    error: Refusal | None = None
    quiet: bool = False
    duplicate: bool = False     # the answer to a retry: the input was applied once, before
    key: str | None = None      # for a ``queued`` answer: the key to send again with

    def as_dict(self, audience: str = "host") -> dict:
        if self.accepted:
            return {"ok": True, "seq": self.seq, "quiet": self.quiet,
                    **({"duplicate": True} if self.duplicate else {})}
        return {"ok": False, "error": self.error.as_dict(audience),
                **({"key": self.key} if self.key else {})}


@dataclass(eq=False)
class _Request:
    """One queued input, whether the applying thread took it, and its outcome."""

    inp: object
    source: str
    key: str | None = None
    status: str = "queued"      # queued -> taken, or queued -> cancelled (answered "busy")
    outcome: Outcome | None = None
    done: threading.Event = field(default_factory=threading.Event)


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
        self.last_game: dict | None = None   # the ended game's public view, shown until the next game
        self.listeners: list[Callable[[Outcome, dict], None]] = []
        self.equipment: set[str] = set()    # "camera" once a camera feeds the table (games' defaults)
        self.faults = 0                     # inputs that failed inside the table (internal_error)
        self.last_fault: str | None = None
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()       # guards request status and the two key maps
        self._pending: dict[str, _Request] = {}
        self._answered: OrderedDict[str, Outcome] = OrderedDict()
        self._thread: threading.Thread | None = None
        #: Where the data snapshots named by ``new_game`` rows are read (history folds on a scratch table)
        self.snapshot_of: Callable[[str], str | None] = journal.blob
        #: The live row a refold could not apply: ``{"row", "input", "code", "message"}``, or None
        self.halted: dict | None = None
        self.refold()

    # ----- folding -------------------------------------------------------
    def refold(self) -> None:
        """Rebuild the state from the journal (on start, and after undo)."""
        self.state, self.game_seq, self.ended_note, self.last_game = None, None, None, None
        self.halted = None
        rows = self.journal.live_since_last_game()
        self.seq = rows[-1][0] if rows else 0
        self.newest = rows[-1][1] if rows else None   # what an undo would take back
        for row_id, inp in rows:
            try:
                self._fold_one(row_id, inp, copy=False)
            except Exception as exc:   # never skip a live input silently: stop and ask the host
                self.halted = {"row": row_id, "input": inp,
                               "code": getattr(exc, "code", "internal_error"),
                               "message": getattr(exc, "message", f"{type(exc).__name__}: {exc}"[:300])}
                log.error("journal row %s no longer applies (%s); the table halts until the host "
                          "skips it, undoes or starts a new game", row_id, self.halted["message"])
                break

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
            if game.data is None:
                self.state = game.setup(list(body["players"]), options, body.get("seed", 0))
            else:
                self.state = game.setup(list(body["players"]), options, body.get("seed", 0),
                                        self._game_data(game, body, options))
            self.game_seq, self.ended_note, self.last_game, self.halted = row_id, None, None, None
            return [{"kind": "new_game", "text": f"New game of {game.name} for {count} players."}]
        if kind == "host" and body.get("action") == "end_game":
            if self.state is None:
                raise RuleError("no_game", "There is no game to end.")
            game = games.get(self.state["game"])
            self.last_game = {**game.view(self.state, "table"), "game_name": game.name}
            self.state, self.ended_note = None, f"The host ended the game of {game.name}."
            return [{"kind": "game_ended", "text": self.ended_note}]
        if self.state is None:
            raise RuleError("no_game", "No game is running: start one from the host page.")
        game = games.get(self.state["game"])
        state, events = game.apply(_copy(self.state) if copy else self.state, inp)
        self.state = state
        return events

    def _game_data(self, game, body: dict, options: dict) -> dict:
        """The data ``new_game`` ``body`` sets its game up from: the snapshot its row names, else
        (a row from before snapshots) the game's data now."""
        ref = body.get("data")
        if ref is None:
            return game.data(options)
        text = self.snapshot_of(ref)
        if text is None:
            raise RuleError("bad_data", f"The journal has lost the card data this game was set up "
                            f"from (snapshot {str(ref)[:12]}).")
        return json.loads(text)

    def _with_snapshot(self, inp: dict) -> dict:
        """A live ``new_game`` naming the snapshot of the data its game is set up from (stored
        once in the journal), so every refold sets it up the same way."""
        body = inp["new_game"]
        game = games.get(body["game"])
        if game.data is None:
            return inp
        snapshot = game.data(game.resolve_options(body.get("options"), len(body["players"])))
        ref = self.journal.keep_blob(json.dumps(snapshot, sort_keys=True, separators=(",", ":")))
        return {"new_game": {**body, "data": ref}}

    def _skip_halted(self) -> list[dict]:
        """The host's choice: take back the live input the table halted at, and go on."""
        if self.halted is None:
            raise RuleError("not_now", "The table is not halted: there is no input to skip.")
        row = self.halted["row"]
        self.journal.undo_row(row)
        self.refold()
        return [{"kind": "undo", "text": f"The host took back journal row {row}, which no longer applied."}]

    def _refuse_while_halted(self, kind: str, body: dict) -> None:
        """While halted, only the host's ways out are taken: skip, undo, a new game."""
        if self.halted is None or kind == "new_game":
            return
        halted = self.halted
        raise RuleError("halted", "The table is stopped until the host deals with an earlier input "
                        "that no longer applies; see the host page.",
                        detail=f"Journal row {halted['row']} "
                               f"{json.dumps(halted['input'], separators=(',', ':'))[:300]} no longer "
                               f"applies: {halted['message']} Skip that input (host action skip_input), "
                               "undo, or start a new game.")

    # ----- one input -------------------------------------------------------
    def _resolve(self, inp: dict) -> dict:
        kind, body = input_kind(inp)
        if kind == "new_game" and self.equipment:
            return {kind: {**body, "options": games.get(body["game"]).equipped_options(body["options"], self.equipment)}}
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

    def handle(self, inp, source: str = "", key: str | None = None) -> Outcome:
        """Check, resolve, apply and journal one input, now, on the calling thread.

        Only the applying thread (or a headless replay) calls this; everyone
        else uses :meth:`submit` or :meth:`put`.
        """
        before = self._fold_fields()
        try:
            inp = check(inp)
            kind, body = input_kind(inp)
            what = (kind, body.get("name") or body.get("action"))
            if what in (("button", "undo"), ("host", "undo")):
                events = self._undo()
                outcome = Outcome(True, seq=self.seq, events=events)
            elif what == ("host", "skip_input"):
                events = self._skip_halted()
                outcome = Outcome(True, seq=self.seq, events=events)
            else:
                self._refuse_while_halted(kind, body)
                if kind == "new_game":
                    inp = self._with_snapshot(inp)
                inp = self._resolve(inp)
                events = self._fold_one(None, inp, copy=True)
                row = self.journal.append(inp, source, key=key)   # durable before anyone is told
                if kind == "new_game":
                    self.game_seq = row
                self.seq, self.newest = row, inp
                outcome = Outcome(True, seq=row, events=events)
        except Quiet:
            outcome = Outcome(True, seq=self.seq, quiet=True)
        except Refusal as exc:
            self._restore(before)
            outcome = Outcome(False, error=exc)
            self._list_refusal(inp, exc.code, exc.message, source, getattr(exc, "detail", None))
        except JournalError as exc:
            self._restore(before)
            outcome = Outcome(False, error=RuleError(
                "journal_failed", f"{exc} The input was NOT applied; free disk space or fix the "
                "data folder, then try again."))
        except Exception as exc:   # a fault in an engine must not stop the table
            self._restore(before)
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
        self._list_refusal(inp, error.code, error.message, source, fault)
        return error

    def _fold_fields(self) -> tuple:
        """What applying one input may change, kept so a refused input can put it back."""
        return self.state, self.game_seq, self.ended_note, self.last_game, self.halted

    def _restore(self, kept: tuple) -> None:
        self.state, self.game_seq, self.ended_note, self.last_game, self.halted = kept

    def _list_refusal(self, inp, code: str, message: str, source: str, detail: str | None = None) -> None:
        """Add a refusal to the host's list; a journal that cannot take it only logs why."""
        try:
            self.journal.refuse(inp, code, message, source, detail)
        except JournalError as jerr:
            log.error("%s", jerr)

    def health(self) -> list[dict]:
        """The applying thread's health record: ``degraded`` once an input failed inside it."""
        if self.halted is not None:
            return [{"name": "applying thread", "status": "halted", "last_seen": None,
                     "detail": f"Journal row {self.halted['row']} no longer applies "
                               f"({self.halted['message']}); the table takes no input until the host "
                               "skips it, undoes or starts a new game."}]
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
            request = self._queue.get()
            if request is None:
                return
            with self._lock:
                if request.status == "cancelled":   # its sender was told "busy, not applied"
                    continue
                request.status = "taken"
            if request.inp is _PING:
                self._finish(request, None)
                continue
            try:
                outcome = self.handle(request.inp, request.source, request.key)
            except Exception as exc:   # even a fault in the refusal path must not stop the table
                outcome = Outcome(False, error=self._internal_error(request.inp, request.source, exc))
            self._finish(request, outcome)

    def _finish(self, request: "_Request", outcome: Outcome | None) -> None:
        with self._lock:
            request.outcome = outcome
            if request.key is not None:
                self._pending.pop(request.key, None)
                if outcome is not None and outcome.accepted:
                    self._answered[request.key] = outcome
                    while len(self._answered) > KEYS_REMEMBERED:
                        self._answered.popitem(last=False)
        request.done.set()

    def ping(self, timeout: float) -> bool:
        """True if the applying thread runs and takes a no-op off its queue within ``timeout`` s.

        The systemd watchdog asks this: a hung or dead applying thread answers False.
        """
        if self._thread is None or not self._thread.is_alive():
            return False
        request = _Request(_PING, "")
        self._queue.put(request)
        return request.done.wait(timeout)

    def put(self, inp, source: str = "") -> None:
        """Queue an input without waiting (hardware and camera threads use this)."""
        self._queue.put(_Request(inp, source))

    def _earlier(self, key: str) -> "Outcome | _Request | None":
        """What became of the input sent before with ``key``: its outcome, its queued request, or None."""
        if key in self._answered:
            return replace(self._answered[key], duplicate=True)
        if key in self._pending:
            return self._pending[key]
        row = self.journal.row_for_key(key)
        return None if row is None else Outcome(True, seq=row, duplicate=True)

    @staticmethod
    def _told(request: "_Request", joined: bool) -> Outcome:
        """A finished request's outcome; a retry that joined it learns it was applied once."""
        outcome = request.outcome
        return replace(outcome, duplicate=True) if joined and outcome.accepted else outcome

    def submit(self, inp, source: str = "", timeout: float = 10.0, key: str | None = None) -> Outcome:
        """Queue an input and wait for its outcome (HTTP and Socket.IO use this).

        ``key`` (an idempotency key chosen by the sender) makes a retry safe: an input
        sent again with the same key is applied at most once, and the retry learns the
        first one's outcome.  If the table is too busy to take the input within
        ``timeout`` s, it is withdrawn and refused as ``busy`` (NOT applied).  If it was
        already being applied, the answer waits for it; should that take very long, the
        answer is ``queued`` with a key to send again to learn the outcome.
        """
        if self._thread is None:
            with self._lock:
                earlier = self._earlier(key) if key is not None else None
            if isinstance(earlier, Outcome):
                return earlier
            outcome = self.handle(inp, source, key)
            if key is not None and outcome.accepted:
                self._answered[key] = outcome
            return outcome
        with self._lock:
            earlier = self._earlier(key) if key is not None else None
            if isinstance(earlier, Outcome):
                return earlier
            request = earlier or _Request(inp, source, key)
            if earlier is None:
                if key is not None:
                    self._pending[key] = request
                self._queue.put(request)
        if request.done.wait(timeout):
            return self._told(request, joined=earlier is not None)
        with self._lock:
            if request.status == "queued":   # not started: withdraw it, so "busy" is the truth
                request.status = "cancelled"
                request.outcome = Outcome(False, error=RuleError(
                    "busy", "The table is busy: the input was NOT applied. Send it again in a moment."))
                if request.key is not None:
                    self._pending.pop(request.key, None)
                request.done.set()
                return request.outcome
            if request.key is None:           # so the sender can ask again
                request.key = f"auto-{uuid.uuid4().hex}"
                self._pending[request.key] = request
        if request.done.wait(APPLY_WAIT):
            return self._told(request, joined=earlier is not None)
        return Outcome(False, key=request.key, error=RuleError(
            "queued", "The table is still applying this input. Send it again with the same key "
            "to learn whether it was applied; it will not be applied twice."))

    # ----- views -------------------------------------------------------------
    def seats(self) -> list[int]:
        """Seat numbers of the running game's players."""
        return [p["seat"] for p in self.state["players"]] if self.state else []

    def view(self, audience: str) -> dict:
        """The view for ``table``, ``host`` or ``seat-N`` (a lobby view when no game runs)."""
        if self.state is None:
            view = {"game": None, "phase": "lobby", "prompt": LOBBY_PROMPT, "players": [],
                    "over": False, "winners": [],
                    "last_events": [self.ended_note] if self.ended_note else [],
                    "last_game": self.last_game}
        else:
            game = games.get(self.state["game"])
            view = game.view(self.state, audience)
            view["game_name"] = game.name
        if self.halted is not None:
            view["prompt"] = HALTED_PROMPT
            if audience == "host":
                view["halted"] = dict(self.halted)
        view["seq"] = self.seq
        view["game_seq"] = self.game_seq   # journal row of the running game's start: which game this is
        view["audience"] = audience
        return view
