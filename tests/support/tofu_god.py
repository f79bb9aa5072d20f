"""Helpers for the Tofu God tests: inputs by name, a table in memory, and a turn player.

``play_turn`` plays one whole turn from a plan of guess outcomes per question,
reading only what a person at the table knows (the set-aside cards from the
view) plus the active player's own answers, which it picks itself.
"""
from __future__ import annotations

from server.games import tofu_god
from tests.support.tables import accept, host, table  # noqa: F401 (the tests import them from here)

ADVANCE = {"button": {"name": "advance"}}


def tap(set_number: int, silhouette: str, reader: str = "table") -> dict:
    return {"tap": {"reader": reader, "card": tofu_god.card_id(set_number, silhouette)}}


def new_game(players: list[str], seed: int = 1, **options) -> dict:
    return {"new_game": {"game": "tofu-god", "players": players, "seed": seed, "options": options}}


def set_of(view: dict, seat: int) -> int:
    return view["sets"][str(seat)]


def pick_answers(view: dict) -> list[str]:
    """Six different silhouettes not set aside, in data order: best 1, worst 1, ... worst 3."""
    return [s for s in tofu_god.SILHOUETTES["ids"] if s not in view["turn"]["set_aside"]][:6]


def guess_for(outcome: str, answers: list[str], question: int, unavailable: list[str]) -> str:
    """The card a guesser taps to get ``outcome`` ("best", "worst" or "miss") on ``question``."""
    if outcome == "best":
        return answers[2 * question - 2]
    if outcome == "worst":
        return answers[2 * question - 1]
    this_question = answers[2 * question - 2: 2 * question]
    return next(s for s in tofu_god.SILHOUETTES["ids"] if s not in unavailable and s not in this_question)


def turn_inputs(view: dict, plan: list[dict], set_aside: list[str] | None = None) -> list[dict]:
    """The inputs of one whole turn, from a view at its start.

    ``plan`` has one dict per question mapping a guesser's seat to "best",
    "worst" or "miss"; ``set_aside`` is given for physical set-aside.
    """
    active = view["turn"]["active"]
    inputs = []
    if set_aside:
        inputs += [tap(set_of(view, active), s) for s in set_aside]
        view = {**view, "turn": {**view["turn"], "set_aside": set_aside}}
    answers = pick_answers(view)
    inputs += [tap(set_of(view, active), s) for s in answers]
    unavailable = list(view["turn"]["set_aside"])
    for q, outcomes in enumerate(plan, 1):
        for seat, outcome in outcomes.items():
            inputs.append(tap(set_of(view, seat), guess_for(outcome, answers, q, unavailable)))
        inputs += [ADVANCE, ADVANCE, ADVANCE]   # reveal the guesses, the best, the worst
        unavailable += answers[2 * q - 2: 2 * q]
    return inputs
