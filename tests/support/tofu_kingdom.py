"""Helpers for the Tofu Kingdom tests: inputs by name, a table in memory, deals and a leak finder.

A *deal* is what the players physically lay down in a round: ``{position: role}``
with positions ``"seat-N"`` and ``"center"`` (the names of the readers).
"""
from __future__ import annotations

import copy
import json
import re

from server.games import tofu_kingdom
from server.table import Table
from tests.support.tables import accept, host, table  # noqa: F401 (the tests import them from here)

ADVANCE = {"button": {"name": "advance"}}
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def card(role: str) -> str:
    return f"tofu-kingdom/{role}"


def tap(reader: str, role: str) -> dict:
    return {"tap": {"reader": reader, "card": card(role)}}


def lift(reader: str, role: str) -> dict:
    return {"lift": {"reader": reader, "card": card(role)}}


def held(reader: str, role: str, seconds: float = 3) -> dict:
    """The reader hub's word that the coaster lifted from ``reader`` is still away after ``seconds``."""
    return {"lift": {"reader": reader, "card": card(role), "held": seconds}}


def flip_by_lift(reader: str, role: str) -> list[dict]:
    """A flip with a reader per seat: the coaster lifted, and still away when the peek time is up."""
    return [lift(reader, role), held(reader, role)]


def new_game(count: int, seed: int = 1, **options) -> dict:
    return {"new_game": {"game": "tofu-kingdom", "players": PLAYERS[:count], "seed": seed,
                         "options": options}}


def ask(prince: int, to: int, question: str, about=None) -> dict:
    """The Prince's question from their own phone."""
    body = {"seat": prince, "action": "ask", "to": to, "question": question}
    if about is not None:
        body["about"] = about
    return {"seat": body}


def refuse(t: Table, inp: dict, code: str):
    """Apply ``inp``, expect the refusal ``code``, and check that nothing changed."""
    before = copy.deepcopy(t.state)
    views = {a: t.view(a) for a in ("table", "host", *(f"seat-{s}" for s in t.seats()))}
    rows = t.journal.count()
    outcome = t.handle(inp)
    assert not outcome.accepted, (inp, "was accepted")
    assert outcome.error.code == code, (inp, outcome.as_dict())
    assert t.state == before
    assert {a: t.view(a) for a in views} == views
    assert t.journal.count() == rows
    return outcome.error


def deal_inputs(deal: dict, readers: str, order: list[str] | None = None) -> list[dict]:
    """The taps that lay ``deal``: on each position's reader (in ``order``), or on the
    shared table reader in the order the table asks (``order`` then is the due order)."""
    order = order or list(deal)
    if readers == "seats":
        return [tap(pos, deal[pos]) for pos in order]
    return [tap("table", deal[pos]) for pos in order]


def flip_inputs(deal: dict, position: str, readers: str) -> list[dict]:
    """The Prince's flip (per-seat readers: the lift and the hub's timed lift), then everybody
    picking their coaster up."""
    if readers == "table":
        return [tap("table", deal[position])]
    return flip_by_lift(position, deal[position]) + [lift(p, r) for p, r in deal.items() if p != position]


def positions(view: dict) -> list[str]:
    """This round's positions in the order the table asks for them."""
    return list(view["positions"])


def role_words(role: str) -> list[str]:
    """The ways a role can be written: its id, its card id and the words of its name."""
    name = tofu_kingdom.COASTERS[role]["name"]
    words = {role, card(role)} | {w.lower() for w in name.split() if w.lower() != "tofu"}
    return sorted(words)


def leaks(payload, hidden_roles) -> list[str]:
    """Every mention of a hidden role in ``payload`` (any JSON-able object).

    The fixed question texts are public vocabulary (\"Where is Princess Tofu?\"),
    so they are blanked out before searching; anything else naming a hidden
    role (its id, card id or a word of its name, whole words, any case) is a leak.
    """
    text = json.dumps(payload, ensure_ascii=False)
    for label in tofu_kingdom.QUESTION_LABELS.values():
        text = text.replace(label, "")
    found = []
    for role in hidden_roles:
        for word in role_words(role):
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
                found.append(word)
    return found
