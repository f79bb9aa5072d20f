"""A tiny game for testing the table before (and besides) the real games.

Each player holds a secret colour, tapped on their own seat reader
(``test/red`` or ``test/blue``); ``advance`` scores a point for every seat
whose secret is red and moves to the next round; after ``rounds`` rounds the
game is over.
"""
from server.games.base import (FIRST_SEAT, Game, Option, RuleError, audience_seat, common_view,
                               event, finish, input_kind, new_state, player, top_scorers)

COLOURS = ("red", "blue")


def setup(players, options, seed):
    state = new_state("tiny", players, seed, "choosing")
    state.update(round=1, rounds=options["rounds"], secrets={}, first=options["first_seat"])
    return state


def apply(state, inp):
    kind, body = input_kind(inp)
    if state["over"]:
        raise RuleError("game_over", "The game is over.")
    if kind == "tap":
        card = body["card"]
        if not card.startswith("test/") or card[5:] not in COLOURS:
            raise RuleError("not_this_game", f"{card} is not a card of this game.")
        if not body["reader"].startswith("seat-"):
            raise RuleError("wrong_reader", "Tap your colour on your own seat reader.")
        seat = int(body["reader"][5:])
        if seat > len(state["players"]):
            raise RuleError("empty_seat", f"Nobody sits at seat {seat}.")
        state["secrets"][str(seat)] = card[5:]
        return state, [event(state, "chose", f"{player(state, seat)['name']} has chosen.")]
    if kind == "lift":
        return state, []
    if kind == "button" and body["name"] == "advance":
        if len(state["secrets"]) < len(state["players"]):
            raise RuleError("not_everyone", "Not everyone has chosen a colour yet.")
        for seat, colour in state["secrets"].items():
            if colour == "red":
                player(state, int(seat))["score"] += 1
        state["secrets"] = {}
        events = [event(state, "scored", f"Round {state['round']} scored.")]
        state["round"] += 1
        if state["round"] > state["rounds"]:
            events.append(finish(state, top_scorers(state), "Game over."))
        return state, events
    raise RuleError("not_now", f"{kind} does nothing in this game.")


def view(state, audience):
    prompt = "Game over." if state["over"] else f"Round {state['round']}: everyone taps a colour."
    out = common_view(state, prompt)
    out["round"] = state["round"]
    out["chosen"] = sorted(int(s) for s in state["secrets"])
    seat = audience_seat(audience)
    if audience == "host":
        out["secrets"] = dict(state["secrets"])
    elif seat is not None:
        out["my_colour"] = state["secrets"].get(str(seat))
    return out


GAME = Game(id="tiny", name="Tiny Test Game", min_players=1, max_players=8,
            setup=setup, apply=apply, view=view,
            options=(Option("rounds", "Rounds to play", 2, type=int, minimum=1, maximum=99), FIRST_SEAT),
            cards=lambda: [f"test/{c}" for c in COLOURS],
            summary="A test game: tap red or blue.")
