"""Declared phases and moves: which input a game takes, from whom, when, with which arguments.

A game lists its phases (:class:`Phase`, each with the prompt the TV shows and
the one a player's phone shows) and its moves (:class:`Move`) in one table
each; :func:`dispatch` does what every game needs before a move's handler runs:

1. find the move for the input (``tap``, ``lift``, ``board``, a ``button`` by
   name, a ``host`` or ``seat`` action by name), else refuse ``unknown_move``
   (a ``lift`` a game does not declare is ignored quietly: picking a card up
   from a reader is never a mistake);
2. a seat action from a seat nobody sits at: ``empty_seat``;
3. the phase: a move outside its phases is refused ``game_over`` once the
   game is over, else ``not_now`` (with the move's own message when it has one);
4. who: a seat move's ``may`` names the seats allowed now, else ``not_your_turn``;
5. the arguments, each against its :class:`Arg` schema, else ``bad_argument``;

and then calls ``move.run(state, args)``, which returns the events (or raises
a :class:`~server.games.base.RuleError` from the catalogue, or ``Quiet``).
The handler never sees a value of the wrong type: a list where a question id
belongs is refused before any game code runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .base import Quiet, RuleError, input_kind

#: The input kinds a move can be declared for (new_game and undo are the table's).
INPUTS = ("tap", "lift", "button", "board", "host", "seat")
#: ``Move.phases`` value for a move taken in every phase, the end of the game included.
ALWAYS = ("*",)
_MISSING = object()


@dataclass(frozen=True)
class Phase:
    """One phase of a game: its id (kept in ``state["phase"]``) and its prompts.

    ``prompt(state)`` is the third-person line for the TV and the host;
    ``you(state, seat)`` the second-person line for that player's phone (None,
    or a ``you`` that returns None: the phone shows the TV's line).
    """

    id: str
    help: str
    prompt: Callable[[dict], str]
    you: Callable[[dict, int], str | None] | None = None

    def prompt_for(self, state: dict, seat: int | None) -> str:
        """The prompt for the TV (``seat`` None) or for the player at ``seat``."""
        if seat is not None and self.you is not None:
            line = self.you(state, seat)
            if line:
                return line
        return self.prompt(state)


@dataclass(frozen=True)
class Arg:
    """One argument of a move and its schema.

    ``kind`` is one of ``int``, ``bool``, ``str``, ``choice`` (one of
    ``choices``), ``seat`` (a seat number of this game, or one of ``choices``
    such as ``"center"``), ``list`` (of ``items``, each a kind, at most
    ``max_items``), ``object`` (a JSON object) or ``any`` (the protocol's JSON).
    An ``optional`` argument may be absent (it is then ``default``); a
    ``nullable`` one may be null.
    """

    name: str
    kind: str
    help: str
    optional: bool = False
    default: Any = None
    nullable: bool = False
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    items: str | None = None
    max_items: int | None = None
    max_length: int = 200

    def check(self, value: Any, state: dict) -> Any:
        """``value`` if it fits this schema, else a ``bad_argument`` refusal that says what fits."""
        if value is _MISSING:
            if self.optional:
                return self.default
            raise RuleError("bad_argument", f"{self.name} is missing: {self._wants(state)}.")
        if value is None and self.nullable:
            return None
        if not self._fits(self.kind, value, state):
            raise RuleError("bad_argument", f"{self.name} must be {self._wants(state)}.")
        if self.kind == "list":
            if self.max_items is not None and len(value) > self.max_items:
                raise RuleError("bad_argument", f"{self.name} takes at most {self.max_items} entries.")
            if self.items and not all(self._fits(self.items, v, state) for v in value):
                raise RuleError("bad_argument", f"{self.name} must be {self._wants(state)}.")
        return value

    def _fits(self, kind: str, value: Any, state: dict) -> bool:
        if kind == "int":
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (self.minimum is None or value >= self.minimum)
                    and (self.maximum is None or value <= self.maximum))
        if kind == "bool":
            return isinstance(value, bool)
        if kind == "str":
            return isinstance(value, str) and 0 < len(value) <= self.max_length
        if kind == "choice":
            return isinstance(value, (str, int)) and not isinstance(value, bool) and value in self.choices
        if kind == "seat":
            return (isinstance(value, str) and value in self.choices) or (
                isinstance(value, int) and not isinstance(value, bool)
                and 1 <= value <= len(state["players"]))
        if kind == "list":
            return isinstance(value, list)
        if kind == "object":
            return isinstance(value, dict)
        return kind == "any"

    def _wants(self, state: dict | None) -> str:
        kinds = {"int": "a whole number", "bool": "true or false", "str": "a non-empty text",
                 "object": "an object", "any": "a value", "list": "a list"}
        if self.kind == "choice":
            text = "one of " + ", ".join(str(c) for c in self.choices)
        elif self.kind == "seat":
            top = len(state["players"]) if state else 8
            text = f"a seat number from 1 to {top}" + "".join(f" or {c!r}" for c in self.choices)
        else:
            text = kinds[self.kind]
            if self.minimum is not None or self.maximum is not None:
                text += f" from {self.minimum if self.minimum is not None else 'any'}"
                text += f" to {self.maximum}" if self.maximum is not None else " up"
            if self.kind == "list" and self.items:
                text += f" of {kinds.get(self.items, self.items)} values"
        if self.nullable:
            text += ", or empty (null)"
        return f"{text} ({self.help})"

    def describe(self) -> dict:
        """The schema as JSON for ``GET /api/games``."""
        return {"name": self.name, "kind": self.kind, "help": self.help, "optional": self.optional,
                "default": self.default, "nullable": self.nullable, "choices": list(self.choices),
                "minimum": self.minimum, "maximum": self.maximum, "items": self.items,
                "max_items": self.max_items}


@dataclass(frozen=True)
class Move:
    """One input a game takes: which, from whom, in which phases, with which arguments.

    ``input`` is the protocol kind; ``name`` the button name or the host/seat
    action (None for tap, lift and board).  ``phases`` lists the phase ids in
    which the move is legal (None: every phase but ``over``; :data:`ALWAYS`:
    every phase).  ``early(state)`` is the ``not_now`` message (default: the
    move's help and the phases it belongs to).  For a seat action, ``may(state,
    seat)`` returns why that seat may not make it now (None when it may);
    ``who`` says the same in words for the pages.  ``run(state, args)`` gets
    the checked arguments (a seat action also gets ``seat``; a tap or lift
    ``reader`` and ``card``; a board ``board`` and ``slots``) and returns the
    events.
    """

    input: str
    name: str | None
    run: Callable[[dict, dict], list[dict]]
    help: str
    who: str
    phases: tuple[str, ...] | None = None
    args: tuple[Arg, ...] = ()
    may: Callable[[dict, int], str | None] | None = None
    early: Callable[[dict], str] | None = None

    def legal_in(self, phase: str) -> bool:
        """Whether the move is legal in ``phase``."""
        if self.phases is None:
            return phase != "over"
        return self.phases == ALWAYS or phase in self.phases

    def describe(self) -> dict:
        """The move as JSON for ``GET /api/games``."""
        return {"input": self.input, "name": self.name, "help": self.help, "who": self.who,
                "phases": None if self.phases is None or self.phases == ALWAYS else list(self.phases),
                "after_the_end": self.phases == ALWAYS or "over" in (self.phases or ()),
                "args": [a.describe() for a in self.args]}


#: What a tap, lift or board input carries after the protocol check (for the descriptions).
TAG_ARGS = (Arg("reader", "str", "the reader: seat-1..seat-8, center or table"),
            Arg("card", "str", "the card id, resolved from the tag's UID by the table"))
BOARD_ARGS = (Arg("board", "str", "the board id"),
              Arg("slots", "object", "slot id to token type, or null for an empty slot"))


def move_name(kind: str, body: dict) -> str | None:
    """The name that picks a move: the button's name, the action, or None for tap, lift, board."""
    if kind == "button":
        return body.get("name")
    if kind in ("host", "seat"):
        return body.get("action")
    return None


def moves_table(moves: tuple[Move, ...]) -> dict[tuple[str, str | None], Move]:
    """The moves by ``(input, name)``; a ValueError on a duplicate or an unknown input kind."""
    table: dict[tuple[str, str | None], Move] = {}
    for move in moves:
        if move.input not in INPUTS:
            raise ValueError(f"move {move.name!r}: input {move.input!r} is not one of {INPUTS}")
        key = (move.input, move.name)
        if key in table:
            raise ValueError(f"move {key} is declared twice")
        table[key] = move
    return table


def _unknown(game_name: str, kind: str, name: str | None, table: dict) -> RuleError:
    names = sorted(n for (k, n) in table if k == kind and n)
    if kind in ("host", "seat", "button") and names:
        what = {"host": "host action", "seat": "seat action", "button": "button"}[kind]
        extra = ", undo, end_game" if kind == "host" else ", undo" if kind == "button" else ""
        return RuleError("unknown_move", f"{game_name} has no {what} {str(name)[:32]!r}; "
                         f"{what}s: {', '.join(names)}{extra}.")
    return RuleError("unknown_move", f"{game_name} takes no {kind} inputs.")


def dispatch(game_name: str, table: dict, state: dict, inp: dict) -> list[dict]:
    """Check ``inp`` against the declared moves in ``table`` and run its handler; returns events."""
    kind, body = input_kind(inp)
    name = move_name(kind, body)
    move = table.get((kind, name))
    if move is None:
        if kind == "lift":
            raise Quiet()
        raise _unknown(game_name, kind, name, table)
    args: dict = {}
    if kind == "seat":
        seat = body["seat"]
        if seat > len(state["players"]):
            raise RuleError("empty_seat", f"Nobody sits at seat {seat} in this game.")
        args["seat"] = seat
    if not move.legal_in(state["phase"]):
        if state["over"]:
            raise RuleError("game_over", "The game is over; start a new one from the host page.")
        raise RuleError("not_now", move.early(state) if move.early else
                        f"Not now: {move.help[0].lower() + move.help[1:]} is for the "
                        f"{' or '.join(p.replace('_', ' ') for p in move.phases)} phase.")
    if kind == "seat" and move.may is not None:
        why = move.may(state, args["seat"])
        if why:
            raise RuleError("not_your_turn", why)
    if kind in ("tap", "lift", "board"):
        args.update(body)
    for arg in move.args:
        args[arg.name] = arg.check(body.get(arg.name, _MISSING), state)
    return move.run(state, args)
