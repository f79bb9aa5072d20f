"""Food for Thought (Grail Games, 2025) on the table: 1-4 players, six rounds, a receipt at the end.

The package: ``rules`` (the rulebook's numbers), ``data`` (the card data and its
schema), ``setup``, ``rounds`` (assistants, turns, clean-up, end), ``actions``,
``tokens`` (moving food on a diet board), ``boards`` (`board` inputs and the
slot-id scheme), ``scoring`` (receipt, sets, goals, winner), ``views``, plus
``cli`` (`tofu-table data check`) and ``web`` (the host's card entry form).
"""
from __future__ import annotations

from ..base import FIRST_SEAT, Game, Option, Quiet, RuleError, event, input_kind, player
from . import actions, boards, inference, physical, rounds, rules
from .setup import set_allergy, setup
from .views import view

#: Host actions besides acting for a seat.
HOST_ACTIONS = ("continue", "adjust", "watch_board", "accept_board", "correct_board", "assign_allergy")


def _host(state: dict, body: dict) -> list[dict]:
    action = body["action"]
    if action == "continue":
        return rounds.finish_cleanup(state)
    if action == "watch_board":
        return boards.watch(state, body.get("board"), body.get("watched", True))
    if action == "accept_board":
        return boards.accept(state, body.get("board"))
    if action == "correct_board":
        return boards.correct(state, body.get("board"), body.get("slots"))
    seat = body.get("seat")
    if not isinstance(seat, int) or str(seat) not in state["seats"]:
        raise RuleError("bad_seat", f"Name the seat this is for: \"seat\": 1 to {len(state['players'])}.")
    p = state["seats"][str(seat)]
    if action == "adjust":
        vp, reason = body.get("vp"), body.get("reason")
        if not isinstance(vp, int) or isinstance(vp, bool) or not isinstance(reason, str) or not reason.strip():
            raise RuleError("bad_adjust", "An adjustment needs whole-number \"vp\" and a \"reason\" "
                            "(it shows on the receipt).")
        p["adjustments"].append({"vp": vp, "reason": reason.strip()[:80]})
        player(state, seat)["score"] += vp
        return [event(state, "adjust", f"Host: {p['name']} {vp:+d} VP ({reason.strip()[:80]}).")]
    if action == "assign_allergy":
        if not state["options"]["food_allergy"]:
            raise RuleError("no_allergy_module", "The Food Allergy module is not in this game.")
        tile = body.get("tile")
        if not isinstance(tile, str) or tile not in state["cards"]["allergies"]:
            raise RuleError("unknown_tile", f"Allergy tiles: {', '.join(sorted(state['cards']['allergies']))}.")
        if any(p["body"][g["id"]] for g in p["groups"] if g.get("tile")) or state["round"] > 1:
            raise RuleError("too_late", "Allergy tiles are handed out before any food reaches a body.")
        set_allergy(state, p, tile)
        return [event(state, "allergy", f"{p['name']} has the {state['cards']['allergies'][tile]['name']} tile.")]
    return _seat_action(state, seat, body)


def _seat_action(state: dict, seat: int, body: dict) -> list[dict]:
    if body["action"] == "answer":
        return inference.answer(state, seat, body)
    state["question"] = None                  # an action from the phone settles the table's question
    return actions.take(state, seat, body)


def apply(state: dict, inp: dict) -> tuple[dict, list[dict]]:
    """Apply one input (seat action, host action, board snapshot, advance button)."""
    kind, body = input_kind(inp)
    if state["over"]:
        raise RuleError("game_over", "The game is over; start a new one from the host page.")
    if kind == "seat":
        if str(body["seat"]) not in state["seats"]:
            raise RuleError("empty_seat", f"Nobody sits at seat {body['seat']}.")
        if body["action"] in HOST_ACTIONS:
            raise RuleError("host_only", f"Only the host can {body['action'].replace('_', ' ')}.")
        return state, _seat_action(state, body["seat"], body)
    if kind == "host":
        return state, _host(state, body)
    if kind == "board":
        return state, boards.board_input(state, body)
    if kind == "tap":
        return state, physical.tap(state, body)
    if kind == "lift":
        raise Quiet()                          # a card taken off a reader means nothing here
    if kind == "button" and body["name"] == "advance":
        return state, rounds.finish_cleanup(state)
    raise RuleError("not_this_game", f"A {kind} input does nothing in Food for Thought; players act from "
                    "their seat page and the host from the host page.")


def camera_boards(state: dict) -> dict[str, dict]:
    """Every board of the game (a diet board per seat, the shop) with the slots the record fills."""
    return {board: boards.implied(state, board) for board in boards.board_ids(state)}


OPTIONS = (
    FIRST_SEAT,
    Option("diet", "Diet boards: auto (Standard; Cleanse when solo), one board id for everyone, or one id "
           "per seat separated by commas", "auto", type=str),
    Option("potluck", "Potluck module (not solo)", False),
    Option("goals", "Goals module: two goals at random (not solo)", False),
    Option("food_allergy", "Food Allergy module: a tile per player", False),
    Option("freezer", "Freezer module: freezer and thaw areas", False),
    Option("dice", "Shopping dice, from one place only: rolled by the table (digital), rolled by hand and "
           "entered on the phone (physical), or rolled by hand and read by the camera (camera)", "digital",
           choices=("digital", "physical", "camera")),
    Option("draws", "Decks, assistants, goals and the bag: dealt by the table, or drawn by the group "
           "(tagged cards tapped, dining-out tokens read by the camera)", "table", choices=("table", "physical")),
    Option("mode", "physical: the camera and readers drive the game and the phones only answer questions; "
           "guided: players enter every action on their phones", "guided", choices=("guided", "physical")),
    Option("data", "Card data: the owner's folder where it has a file, else the sample; or sample only",
           "owner", choices=("owner", "sample")),
)

GAME = Game(id=rules.GAME_ID, name="Food for Thought", min_players=1, max_players=4,
            setup=setup, legacy_apply=apply, show=view, options=OPTIONS, watch=camera_boards,
            cards=physical.cards,
            summary="Six rounds of shopping, cooking and working out; the table keeps every "
                    "board and writes each player's receipt.")
