"""A tiny game for testing the table, and the worked example of docs/adding-a-game.md.

Each player holds a secret colour, tapped on their own seat reader
(``test/red`` or ``test/blue``; taking it off again changes nothing) or chosen on their phone; ``advance`` scores a
point for every seat whose secret is red and moves to the next round; after
``rounds`` rounds the game is over.
"""
from server.games.base import (FIRST_SEAT, Audience, Game, Option, RuleError, common_view, event,
                               finish, new_state, player, reader_seat, top_scorers)
from server.games.moves import TAG_ARGS, Arg, Move, Phase

GAME_ID = "tiny"
COLOURS = ("red", "blue")


def setup(players, options, seed):
    """A new game: round 1, nobody has chosen."""
    state = new_state(GAME_ID, players, seed, "choosing")
    state.update(round=1, rounds=options["rounds"], secrets={}, first=options["first_seat"])
    return state


# ----- moves: each handler gets checked arguments and returns its events -----------------

def _choose(state, seat, colour):
    state["secrets"][str(seat)] = colour
    return [event(state, "chose", f"{player(state, seat)['name']} has chosen.")]


def tap(state, args):
    """A colour card on a seat reader: that seat's secret."""
    card, seat = args["card"], reader_seat(args["reader"])
    if not card.startswith("test/") or card[5:] not in COLOURS:
        raise RuleError("not_this_game", f"{card} is not a card of this game.")
    if seat is None:
        raise RuleError("wrong_reader", "Tap your colour on your own seat reader.")
    if seat > len(state["players"]):
        raise RuleError("empty_seat", f"Nobody sits at seat {seat}.")
    return _choose(state, seat, card[5:])


def lift(state, args):
    """A colour card taken off a reader: journaled, and the choice made with it stands."""
    return []


def choose(state, args):
    """The same choice made on the player's phone."""
    return _choose(state, args["seat"], args["colour"])


def advance(state, args):
    """Score the round once everyone has chosen; after the last round the game is over."""
    if len(state["secrets"]) < len(state["players"]):
        raise RuleError("waiting", "Not everyone has chosen a colour yet.")
    for seat, colour in state["secrets"].items():
        if colour == "red":
            player(state, int(seat))["score"] += 1
    state["secrets"] = {}
    events = [event(state, "scored", f"Round {state['round']} scored.")]
    state["round"] += 1
    if state["round"] > state["rounds"]:
        events.append(finish(state, top_scorers(state), "Game over."))
    return events


# ----- the two tables a reader checks first: phases and moves ---------------------------

PHASES = (
    Phase("choosing", "Everyone picks a colour in secret",
          prompt=lambda s: f"Round {s['round']}: everyone taps a colour.",
          you=lambda s, seat: (f"Round {s['round']}: tap red or blue on your reader, or choose here."
                               if str(seat) not in s["secrets"] else
                               f"Round {s['round']}: you have chosen; waiting for the others.")),
    Phase("over", "The game is over", prompt=lambda s: "Game over."),
)

MOVES = (
    Move("tap", None, tap, "Tap your colour card on your seat reader", who="any player",
         phases=("choosing",), args=TAG_ARGS),
    Move("lift", None, lift, "Take your colour card off (your choice stands)", who="any player",
         phases=("choosing",), args=TAG_ARGS),
    Move("seat", "choose", choose, "Choose your colour", who="any player", phases=("choosing",),
         args=(Arg("colour", "choice", "your secret colour", choices=COLOURS),)),
    Move("button", "advance", advance, "Score the round", who="anyone at the table",
         phases=("choosing",)),
)


# ----- views ------------------------------------------------------------------------------

def show(state, audience: Audience):
    """The TV sees who has chosen; a phone its own colour; the host every colour."""
    out = common_view(state)
    out["round"] = state["round"]
    out["chosen"] = sorted(int(s) for s in state["secrets"])
    if audience.is_host:
        out["secrets"] = dict(state["secrets"])
    elif audience.seat is not None:
        out["my_colour"] = state["secrets"].get(str(audience.seat))
    return out


GAME = Game(id=GAME_ID, name="Tiny Test Game", min_players=1, max_players=8,
            setup=setup, show=show, phases=PHASES, moves=MOVES,
            options=(Option("rounds", "Rounds to play", 2, type=int, minimum=1, maximum=99), FIRST_SEAT),
            cards=lambda: [f"test/{c}" for c in COLOURS],
            summary="A test game: tap red or blue.")
