"""A test game with a deliberate fault in its rules program.

A host ``count`` adds one to a counter; a host ``crash`` raises a TypeError the
way a buggy engine would (an unhashable value used as a key).  The table must
survive it, refuse that input and carry on.
"""
from server.games.base import FIRST_SEAT, Game, RuleError, common_view, input_kind, new_state


def setup(players, options, seed):
    state = new_state("faulty", players, seed, "counting")
    state["count"] = 0
    return state


def apply(state, inp):
    kind, body = input_kind(inp)
    if kind == "host" and body["action"] == "count":
        state["count"] += 1
        return state, []
    if kind == "host" and body["action"] == "crash":
        state["count"] += 100          # changed before the fault: the table must not keep it
        return state, [{}[[body["action"]]]]   # TypeError: unhashable type: 'list'
    raise RuleError("not_now", f"{kind} does nothing in this game.")


def view(state, audience):
    out = common_view(state, f"Counted {state['count']}.")
    out["count"] = state["count"]
    return out


GAME = Game(id="faulty", name="Faulty Test Game", min_players=1, max_players=8,
            setup=setup, apply=apply, view=view, options=(FIRST_SEAT,), summary="A test game whose rules crash on demand.")
