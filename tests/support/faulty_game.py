"""A test game with a deliberate fault in its rules program.

A host ``count`` adds one to a counter; a host ``crash`` raises a TypeError the
way a buggy engine would (an unhashable value used as a key).  The table must
survive it, refuse that input and carry on.
"""
from server.games.base import FIRST_SEAT, Game, common_view, new_state
from server.games.moves import Move, Phase


def setup(players, options, seed):
    state = new_state("faulty", players, seed, "counting")
    state["count"] = 0
    return state


def count(state, args):
    state["count"] += 1
    return []


def crash(state, args):
    state["count"] += 100          # changed before the fault: the table must not keep it
    return [{}[["crash"]]]         # TypeError: unhashable type: 'list'


def show(state, audience):
    out = common_view(state)
    out["count"] = state["count"]
    return out


GAME = Game(id="faulty", name="Faulty Test Game", min_players=1, max_players=8,
            setup=setup, show=show,
            phases=(Phase("counting", "Counting", prompt=lambda s: f"Counted {s['count']}."),),
            moves=(Move("host", "count", count, "Add one", who="host"),
                   Move("host", "crash", crash, "Crash the rules program", who="host")),
            options=(FIRST_SEAT,), summary="A test game whose rules crash on demand.")
