"""An input in words for the host: what Undo will take back, and the journal as sentences.

``describe(inp, state)`` gives ``{"text", "secret"}``: ``text`` says who did what and
never names a card; ``secret`` is the card or value it carried (shown only when the host
reveals secrets), or None.
"""
from __future__ import annotations

import json

from . import games


def _name_at(state: dict | None, seat) -> str | None:
    if not state or not isinstance(seat, int):
        return None
    return next((p["name"] for p in state["players"] if p["seat"] == seat), None)


def _reader(state: dict | None, reader: str) -> str:
    if reader.startswith("seat-") and reader[5:].isdigit():
        name = _name_at(state, int(reader[5:]))
        return f"{name}'s" if name else f"seat {reader[5:]}'s"
    return {"center": "the centre reader's", "table": "the table reader's"}.get(reader, reader + "'s")


def _card(card: str) -> str:
    return card.rsplit("/", 1)[-1].replace("-", " ").replace("_", " ")


def _words(action: str) -> str:
    return action.replace("_", " ")


def _values(body: dict, skip: tuple[str, ...]) -> str | None:
    """The plain values an action carried, for the host's eyes only."""
    parts = []
    for key, value in body.items():
        if key in skip or value is None:
            continue
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        parts.append(f"{_words(key)} {_card(value) if isinstance(value, str) and '/' in value else value}")
    return "; ".join(parts) or None


def describe(inp: dict, state: dict | None) -> dict:
    """``inp`` (a checked protocol object) in words, with players named from ``state``."""
    try:
        return _describe(inp, state)
    except (KeyError, TypeError, ValueError, AttributeError):   # a row of an older shape
        return {"text": "an input the host page cannot put into words", "secret": None}


def _describe(inp: dict, state: dict | None) -> dict:
    (kind, body), = inp.items()
    if kind == "new_game":
        game = next((g for g in games.all_games() if g.id == body["game"]), None)
        return {"text": f"the start of the game of {game.name if game else body['game']} "
                        f"({', '.join(body['players'])})", "secret": None}
    if kind in ("tap", "lift"):
        what = "card" if kind == "tap" else "lift"
        card = _card(body["card"]) if "card" in body else f"tag {body.get('uid')}"
        return {"text": f"{_reader(state, body['reader'])} {what}", "secret": card}
    if kind == "button":
        return {"text": f"the {_words(body['name'])} button", "secret": None}
    if kind == "board":
        return {"text": f"the camera's reading of board {body['board']}", "secret": None}
    if kind == "host" and body["action"] == "end_game":
        return {"text": "the end of the game", "secret": None}
    who = _name_at(state, body.get("seat"))
    if kind == "seat":
        text = f"{who or 'seat ' + str(body['seat'])}'s {_words(body['action'])}"
    else:
        text = f"the host's {_words(body['action'])}" + (f" for {who}" if who else "")
    return {"text": text, "secret": _values(body, ("action", "seat"))}


def describe_journal(recent: dict, state: dict | None) -> dict:
    """``Journal.recent()`` with each input in words (``described``), its players named as
    in the game it belonged to (the running game's names for rows older than the window), and
    each refused input too (named as in the running game; kept as text, it may be cut or no JSON)."""
    seated = state
    for row in reversed(recent["inputs"]):   # oldest first, so each new_game seats those after it
        inp = row["input"]
        if isinstance(inp, dict) and isinstance(inp.get("new_game"), dict):
            names = inp["new_game"].get("players") or []
            seated = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(names)]}
        row["described"] = describe(inp, seated)
    for row in recent["refusals"]:
        try:
            inp = json.loads(row["input"])
        except (ValueError, RecursionError):
            inp = None
        row["described"] = describe(inp, state)
    return recent
