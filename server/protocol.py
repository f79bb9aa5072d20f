"""The table protocol: check one input object and refuse anything malformed.

One JSON object per input, the same shape everywhere (journal rows, HTTP,
Socket.IO, replay scripts)::

    {"new_game": {"game": "tofu-god", "players": ["Anna", "Ben"], "seed": 7, "options": {}}}
    {"tap":    {"reader": "seat-2", "card": "tofu-god/set-2/elephant"}}
    {"tap":    {"reader": "seat-2", "uid": "04A224C2B31190"}}
    {"lift":   {"reader": "seat-2", "uid": "04A224C2B31190"}}
    {"lift":   {"reader": "seat-2", "card": "...", "held": 3}}  still away after 3 s (the hub's timer)
    {"button": {"name": "advance"}}
    {"board":  {"board": "diet-1", "slots": {"body.dairy.3": "dairy", "kitchen.2.1": null}}}
    {"host":   {"action": "undo"}}
    {"seat":   {"seat": 2, "action": "ask", ...}}       a player's own action from their phone

:func:`check` returns a normalised copy or raises :class:`ProtocolError`.
"""
from __future__ import annotations

import json
import re

from .refusal import Refusal

#: Largest accepted input, in bytes of JSON.
MAX_INPUT_BYTES = 64 * 1024
#: Largest Socket.IO message read at all: one up to this size is answered (refused when it is over
#: MAX_INPUT_BYTES); a longer one closes the connection (the client may connect again).
MAX_SOCKET_MESSAGE_BYTES = 16 * MAX_INPUT_BYTES
#: Most characters of a JSON integer (as Socket.IO's own decoder allows); no number the table
#: uses is longer.
MAX_INT_CHARS = 100
MAX_PLAYERS = 8
READERS = tuple(f"seat-{n}" for n in range(1, MAX_PLAYERS + 1)) + ("center", "table")
KINDS = ("new_game", "tap", "lift", "button", "board", "host", "seat")
#: Kinds a sensor produces; outside simulation they need the host token over the network.
HARDWARE_KINDS = ("tap", "lift", "button", "board")

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_CARD = re.compile(r"^[a-z0-9][a-z0-9\-]*(/[a-z0-9][a-z0-9\-_]*){1,3}$")
_UID = re.compile(r"^([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")
_CARD_GAME = re.compile(r"^[a-z][a-z0-9\-]{0,31}$")
_SLOT = re.compile(r"^[a-z0-9][a-z0-9_\-.]{0,63}$")
_MAX_DEPTH = 6
_KEY = re.compile(r"^[A-Za-z0-9_.:\-]{8,80}$")


class ProtocolError(Refusal):
    """A malformed input: nothing was applied."""


class HugeNumber(str):
    """A JSON integer longer than MAX_INT_CHARS, kept as its digits so the input is refused with
    a clear message (Socket.IO's decoder would drop the whole message unanswered)."""


def _parse_int(digits: str):
    return HugeNumber(digits) if len(digits) > MAX_INT_CHARS else int(digits)


class NestedTooDeeply:
    """The arguments of a Socket.IO event nested too deeply to decode (only the event's name was
    read), so the sender is answered with a refusal rather than nothing."""


#: The event name at the start of a Socket.IO event's JSON array.
_EVENT = re.compile(r'\s*\[\s*("(?:[^"\\]|\\.){1,64}")\s*,')


class SocketJSON:
    """The JSON module for Socket.IO packets: integers too long to use arrive as HugeNumber, and
    arguments nested too deeply to decode as one NestedTooDeeply."""

    dumps = staticmethod(json.dumps)

    @staticmethod
    def loads(text, **kwargs):
        try:
            return json.loads(text, parse_int=_parse_int, **kwargs)
        except RecursionError:
            event = _EVENT.match(text) if isinstance(text, str) else None
            if event is None:
                raise ValueError("The message is nested too deeply to read.") from None
            return [json.loads(event.group(1)), NestedTooDeeply()]


def _fail(message: str, code: str = "bad_input"):
    raise ProtocolError(code, message)


def _fields(body, kind: str, required: set, optional: set = frozenset()) -> dict:
    if not isinstance(body, dict):
        _fail(f"{kind} must be an object with {', '.join(sorted(required))}.")
    unknown = set(body) - required - optional
    if unknown:
        _fail(f"{kind} has an unknown field {sorted(unknown)[0]!r}; "
              f"allowed: {', '.join(sorted(required | optional))}.")
    missing = required - set(body)
    if missing:
        _fail(f"{kind} is missing {sorted(missing)[0]!r}.")
    return body


def _string(value, what: str, pattern: re.Pattern | None = None, limit: int = 64) -> str:
    if not isinstance(value, str) or isinstance(value, HugeNumber) or not value or len(value) > limit:
        _fail(f"{what} must be a non-empty string of at most {limit} characters.")
    if pattern is not None and not pattern.match(value):
        _fail(f"{what} {value[:40]!r} is not well formed.")
    return value


def _plain(value, what: str, depth: int = 0):
    """Only JSON values, nested at most a few levels."""
    if depth > _MAX_DEPTH:
        _fail(f"{what} is nested too deeply.")
    if isinstance(value, HugeNumber):
        _fail(f"{what} holds a number of {len(value)} characters; numbers here have at most {MAX_INT_CHARS}.")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            _fail(f"{what} holds a number that is not finite.")
        return value
    if isinstance(value, list):
        return [_plain(v, what, depth + 1) for v in value]
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                _fail(f"{what} has a key that is not a string.")
        return {k: _plain(v, what, depth + 1) for k, v in value.items()}
    _fail(f"{what} holds a value that is not JSON.")


def _new_game(body) -> dict:
    _fields(body, "new_game", {"game", "players"}, {"seed", "options"})
    game = _string(body["game"], "new_game.game", _CARD_GAME)
    players = body["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        _fail(f"new_game.players must be a list of 1 to {MAX_PLAYERS} names.")
    names = [_string(p, "a player name", limit=24).strip() for p in players]
    if any(not n for n in names):
        _fail("A player name must not be blank.")
    if len({n.casefold() for n in names}) != len(names):
        _fail("Two players have the same name; give each player a different name.")
    seed = body.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        _fail("new_game.seed must be a whole number from 0.")
    options = body.get("options", {})
    if not isinstance(options, dict):
        _fail("new_game.options must be an object.")
    return {"game": game, "players": names, "seed": seed, "options": _plain(options, "new_game.options")}



def _tag(body, kind: str) -> dict:
    _fields(body, kind, {"reader"}, {"card", "uid", "held"} if kind == "lift" else {"card", "uid"})
    held = body.get("held")
    if kind == "lift" and "held" in body and (not isinstance(held, (int, float)) or isinstance(held, bool)
                                              or not 0 <= held <= 3600):
        _fail("lift.held must be the seconds the tag has been away, from 0 to 3600.")
    reader = _string(body["reader"], f"{kind}.reader")
    if reader not in READERS:
        _fail(f"There is no reader {reader[:20]!r}; readers are seat-1..seat-8, center and table.",
              "unknown_reader")
    if ("card" in body) == ("uid" in body):
        _fail(f"{kind} needs exactly one of card (a card id) or uid (the tag's hex UID).")
    timed = {"held": held} if "held" in body else {}
    if "card" in body:
        return {"reader": reader, "card": _string(body["card"], f"{kind}.card", _CARD, 96), **timed}
    uid = body["uid"]
    if isinstance(uid, str):
        uid = uid.replace(":", "").replace(" ", "").upper()
    return {"reader": reader, "uid": _string(uid, f"{kind}.uid (4, 7 or 10 bytes in hex)", _UID), **timed}


def _button(body) -> dict:
    _fields(body, "button", {"name"})
    return {"name": _string(body["name"], "button.name", _NAME)}


def _board(body) -> dict:
    _fields(body, "board", {"board", "slots"})
    board = _string(body["board"], "board.board", _SLOT)
    slots = body["slots"]
    if not isinstance(slots, dict) or len(slots) > 512:
        _fail("board.slots must be an object of at most 512 slots.")
    out = {}
    for slot, token in slots.items():
        _string(slot, "a slot id", _SLOT)
        if token is not None:
            _string(token, f"the token in {slot}", _NAME)
        out[slot] = token
    return {"board": board, "slots": out}


def _action(body, kind: str) -> dict:
    if not isinstance(body, dict):
        _fail(f"{kind} must be an object with an action.")
    _string(body.get("action"), f"{kind}.action", _NAME)
    out = _plain(body, kind)
    if kind == "seat":
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= MAX_PLAYERS:
            _fail(f"seat.seat must be a seat number from 1 to {MAX_PLAYERS}.")
    return out


def check(obj) -> dict:
    """Validate one protocol object; return a normalised copy or raise ProtocolError."""
    if not isinstance(obj, dict) or len(obj) != 1:
        _fail(f"An input is an object with exactly one of: {', '.join(KINDS)}.")
    (kind, body), = obj.items()
    if kind not in KINDS:
        _fail(f"Unknown input kind {str(kind)[:20]!r}; use one of: {', '.join(KINDS)}.", "unknown_kind")
    if kind == "new_game":
        return {kind: _new_game(body)}
    if kind in ("tap", "lift"):
        return {kind: _tag(body, kind)}
    if kind == "button":
        return {kind: _button(body)}
    if kind == "board":
        return {kind: _board(body)}
    return {kind: _action(body, kind)}


def check_key(key) -> str | None:
    """An idempotency key as sent (None when there is none), or ProtocolError."""
    if key is None:
        return None
    if not isinstance(key, str) or not _KEY.match(key):
        _fail("The idempotency key must be 8 to 80 letters, digits or _ . : - (a UUID is ideal).",
              "bad_key")
    return key
