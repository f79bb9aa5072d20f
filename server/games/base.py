"""The contract every game engine follows, and the small helpers they share.

A game is data plus pure functions (no Flask, no threads, no I/O, no wall clock,
no global random): its phases and moves are declared in one table each
(:mod:`server.games.moves`), and the table calls::

    state = game.setup(players, options, seed)       # a JSON-able dict
    state, events = game.apply(state, inp)           # or raises RuleError / Quiet
    view = game.view(state, audience)                # "table", "seat-N" or "host"
    boards = game.boards(state)                      # what the camera may watch

``apply`` receives a private deep copy of the state, so a move may change it
in place.  ``inp`` is one protocol object after the table has resolved it:
taps and lifts carry a ``card`` id (and the ``uid`` when a real reader sent
it), host and seat actions carry their fields as sent.  The ``new_game`` input
and the ``undo`` button/host action never reach an engine; the table handles
them.  docs/adding-a-game.md walks through a whole game.

Every state has the common envelope built by :func:`new_state` so the table
and the views can rely on it: ``game``, ``players`` (list of ``{name, seat,
score}``), ``phase``, ``over``, ``winners``, ``log`` (recent public event
texts), ``rng``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..refusal import Refusal

if TYPE_CHECKING:
    from .moves import Move, Phase

#: How many public event texts a state keeps for ``last_events``.
LOG_LENGTH = 8


class RuleError(Refusal):
    """A refusal: the input is not allowed now, and nothing changed.

    ``code`` is stable snake_case for programs; ``message`` is one sentence a
    player understands and is safe for the public TV.  When the precise reason
    would give a secret away (a player's own hidden choice), put it in
    ``detail`` and name the ``seat`` that may see it; it goes to that seat's
    page and the host page only.
    """

    def __init__(self, code: str, message: str, *, detail: str | None = None,
                 seat: int | None = None):
        super().__init__(code, message)
        self.detail = detail
        self.seat = seat

    def as_dict(self, audience: str = "table") -> dict:
        """The refusal as sent to ``audience`` (detail only to its seat and the host;
        a detail with no seat goes to the host alone)."""
        out = {"code": self.code, "message": self.message}
        if self.detail and (audience == "host" or audience == f"seat-{self.seat}"):
            out["detail"] = self.detail
        return out


class Quiet(Exception):
    """An input that is fine but changes nothing (say, a coaster picked up after
    the round is scored): it is not journaled and nobody is told."""


@dataclass(frozen=True)
class Option:
    """One game option: its default, and either a set of choices or a type.

    ``default`` may be a callable taking the player count (for options whose
    rulebook default depends on it, like turns per player); ``with_camera``,
    when set, is the default instead on a table whose camera feeds it
    (written into the new game's input, so the journal replays the same game).
    """

    name: str
    description: str
    default: Any
    choices: tuple | None = None
    type: type | None = None
    minimum: int | None = None
    maximum: int | None = None
    with_camera: Any = None

    def default_for(self, player_count: int) -> Any:
        return self.default(player_count) if callable(self.default) else self.default

    def check(self, value: Any) -> Any:
        """Return ``value`` if valid for this option, else raise RuleError."""
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise RuleError("bad_option", f"Option {self.name} must be one of: {allowed}.")
            return value
        kind = self.type or type(self.default_for(0) if not callable(self.default) else 0)
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise RuleError("bad_option", f"Option {self.name} must be a {kind.__name__}.")
        if self.minimum is not None and value < self.minimum:
            raise RuleError("bad_option", f"Option {self.name} must be at least {self.minimum}.")
        if self.maximum is not None and value > self.maximum:
            raise RuleError("bad_option", f"Option {self.name} must be at most {self.maximum}.")
        return value

    def describe(self) -> dict:
        return {"name": self.name, "description": self.description,
                "default": None if callable(self.default) else self.default,
                "default_by_players": callable(self.default),
                "choices": list(self.choices) if self.choices else None,
                "type": (self.type.__name__ if self.type else
                         "int" if callable(self.default) else type(self.default).__name__),
                "minimum": self.minimum, "maximum": self.maximum, "with_camera": self.with_camera}


@dataclass(frozen=True)
class Game:
    """A registered game: identity, player counts, options, phases, moves and views.

    ``phases`` and ``moves`` are the game's declared tables (see
    :mod:`server.games.moves`); ``show(state, audience)`` builds a view
    without its prompt (the phase gives it); ``cards()`` lists every card id
    the game uses (the simulator shows them as pads and gives each a virtual
    tag); ``awaiting(state)`` lists the lifted cards the game waits to see put back,
    as ``(reader, card, seconds)`` (the table's put-back timers report each one
    still away after its seconds); ``watch(state)`` gives, per board the camera may watch, the slots the
    game's record has filled (``{board: {slot: token}}``); ``tokens(data_dir)``
    names the sets of token types the camera learns to tell apart
    (``{"foods": ("fats", ...)}``), read from the owner's data in ``data_dir``
    when given, so vision/ never imports a game's modules.  A game whose setup
    reads data that may change (the owner's card files) gives ``data(options)``:
    that data as JSON.  The table keeps it in the journal with the game's start
    and calls ``setup(players, options, seed, data)`` with it, so a refold sets the
    game up from the same data even after the files changed.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    setup: Callable[[list[str], dict, int], dict]
    show: Callable[[dict, "Audience"], dict]
    phases: tuple["Phase", ...] = ()
    moves: tuple["Move", ...] = ()
    options: tuple[Option, ...] = ()
    cards: Callable[[], list[str]] = field(default=lambda: [])
    watch: Callable[[dict], dict[str, dict]] = field(default=lambda state: {})
    awaiting: Callable[[dict], list[tuple[str, str, float]]] = field(default=lambda state: [])
    tokens: Callable[[Path | None], dict[str, tuple[str, ...]]] = field(default=lambda data_dir: {})
    summary: str = ""
    data: Callable[[dict], dict] | None = None

    def __post_init__(self):
        from .moves import moves_table
        table = moves_table(self.moves)
        phases = {p.id for p in self.phases}
        for move in self.moves:
            unknown = sorted(set(move.phases or ()) - phases - {"*"})
            if unknown:
                raise ValueError(f"{self.id}: move {move.input} {move.name} names an undeclared "
                                 f"phase {unknown[0]!r}")
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_phases", {p.id: p for p in self.phases})

    def apply(self, state: dict, inp: dict) -> tuple[dict, list[dict]]:
        """Apply one resolved input through the declared moves; the new state and its events."""
        from .moves import dispatch
        return state, dispatch(self.name, self._table, state, inp)

    def phase(self, state: dict) -> "Phase":
        """The declared phase the game is in."""
        return self._phases[state["phase"]]

    def view(self, state: dict, audience: str) -> dict:
        """The view for ``audience``, with the phase's prompt (in the second person on a phone)."""
        audience = Audience(audience)
        out = self.show(state, audience)
        seat = audience.seat if audience.seat is not None and audience.seat <= len(state["players"]) else None
        out["prompt"] = self.phase(state).prompt_for(state, seat)
        return out

    def boards(self, state: dict) -> dict[str, dict]:
        """The boards the camera may watch in ``state``, each with the slots the game has filled."""
        return self.watch(state)

    def resolve_options(self, given: dict | None, player_count: int) -> dict:
        """Fill defaults and validate ``given``; unknown names are refused."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise RuleError("bad_option", f"{self.name} has no option {unknown[0]!r}; "
                            f"known options: {', '.join(known) or 'none'}.")
        return {name: (opt.check(given[name]) if name in given else opt.default_for(player_count))
                for name, opt in known.items()}

    def equipped_options(self, given: dict | None, equipment: set[str]) -> dict:
        """``given`` with the defaults of the table's ``equipment`` (``"camera"``) for options not given."""
        given = dict(given or {})
        if "camera" in equipment:
            given.update({o.name: o.with_camera for o in self.options
                          if o.with_camera is not None and o.name not in given})
        return given

    def describe(self) -> dict:
        """The game for ``GET /api/games``: options, phases, moves (docs/adding-a-game.md)."""
        return {"id": self.id, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "summary": self.summary,
                "options": [o.describe() for o in self.options], "cards": self.cards(),
                "phases": [{"id": p.id, "help": p.help} for p in self.phases],
                "moves": [m.describe() for m in self.moves]}


#: The host picks who starts; every game offers this option.
FIRST_SEAT = Option("first_seat", "Seat number of the player who starts", 1, type=int,
                    minimum=1, maximum=8)


def new_state(game_id: str, players: list[str], seed: int, phase: str) -> dict:
    """The common envelope every engine state starts from."""
    return {
        "game": game_id,
        "players": [{"name": n, "seat": i + 1, "score": 0} for i, n in enumerate(players)],
        "phase": phase,
        "over": False,
        "winners": [],
        "log": [],
        "rng": {"seed": seed, "draws": 0},
    }


def rng(state: dict) -> random.Random:
    """A generator for one draw, seeded from the state; advances the state's counter.

    Replaying the same inputs makes the same draws, so the journal reproduces
    every shuffle and roll exactly.
    """
    r = state["rng"]
    r["draws"] += 1
    return random.Random(f"{r['seed']}:{r['draws']}")


def event(state: dict, kind: str, text: str, seat: int | None = None, **data) -> dict:
    """Make an event; public ones (no ``seat``) are also kept in the state's log."""
    ev = {"kind": kind, "text": text, **data}
    if seat is None:
        state["log"] = (state["log"] + [text])[-LOG_LENGTH:]
    else:
        ev["seat"] = seat
    return ev


def player(state: dict, seat: int) -> dict:
    """The player record sitting at ``seat`` (1-based)."""
    return state["players"][seat - 1]


def common_view(state: dict, prompt: str | None = None) -> dict:
    """The fields every view has, copied by allow-list from the envelope (the prompt is the
    phase's, added by :meth:`Game.view`)."""
    return {
        "game": state["game"],
        "phase": state["phase"],
        "prompt": prompt,
        "players": [{"name": p["name"], "seat": p["seat"], "score": p["score"]}
                    for p in state["players"]],
        "over": state["over"],
        "winners": list(state["winners"]) if state["over"] else [],
        "last_events": list(state["log"]),
    }


def audience_seat(audience: str) -> int | None:
    """The seat number of a ``seat-N`` audience, else None (until every engine takes Audience)."""
    return reader_seat(audience)


class Audience(str):
    """Who a view or a refusal is for: ``"table"`` (the public TV), ``"host"``, or ``"seat-N"``.

    A plain string (so ``audience == "host"`` works), with the seat parsed once.
    """

    @property
    def seat(self) -> int | None:
        """The seat number of a ``seat-N`` audience, else None."""
        return reader_seat(self)

    @property
    def is_host(self) -> bool:
        return self == "host"


def seat_reader(seat: int) -> str:
    """The reader (and audience) name of ``seat``: ``"seat-N"``."""
    return f"seat-{seat}"


def reader_seat(name: str) -> int | None:
    """The seat number in a ``seat-N`` reader or audience name, else None."""
    if isinstance(name, str) and name.startswith("seat-") and name[5:].isdigit():
        return int(name[5:])
    return None


def seat_after(state: dict, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places to the left of ``seat`` (seat numbers go round to the left)."""
    return (seat - 1 + steps) % len(state["players"]) + 1


def seats_from(state: dict, seat: int) -> list[int]:
    """Every seat in playing order starting at ``seat``."""
    return [seat_after(state, seat, i) for i in range(len(state["players"]))]


def input_kind(inp: dict) -> tuple[str, dict]:
    """Split a protocol object ``{"kind": {...}}`` into its kind and body."""
    (kind, body), = inp.items()
    return kind, body


def finish(state: dict, winners: list[str], text: str) -> dict:
    """Mark the game over with ``winners``; returns the public event."""
    state["over"] = True
    state["phase"] = "over"
    state["winners"] = winners
    return event(state, "game_over", text)


def top_scorers(state: dict) -> list[str]:
    """Names of the players with the highest score (several when tied)."""
    best = max(p["score"] for p in state["players"])
    return [p["name"] for p in state["players"] if p["score"] == best]
