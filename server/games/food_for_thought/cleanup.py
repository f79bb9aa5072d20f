"""Physical-first clean-up: the table checks the end-of-round steps on the boards.

When a round's last marker is down the record waits (phase ``round_end``) while the people
tidy the table.  Each camera reading is compared with the boards as the clean-up leaves them,
worked out by running the engine's own clean-up on a copy of the state: every kitchen moved one
column right with the spoiled tokens in the trash (and the thaw area emptied into it), every
action marker back on its diet board, the shopping tokens taken off the shopping list and no
marker left on the main board's action spaces.  Once every board shows that, the next round
starts with no input.  The steps no sensor sees (the round marker, the first player token,
the cards put under their decks) change nothing the table records, and the new dining-out
tokens are read from the main board as the next round begins.  Until then the TV lists, board
by board, what is still to tidy; the host's continue (or the advance button) remains for a
table whose camera does not watch every board.
"""
from __future__ import annotations

import copy

from ..base import event
from . import boards, physical, rounds, rules


def _tidy_boards(state: dict) -> dict[str, dict]:
    """Each board's slots once the people have done the clean-up (only the areas it changes)."""
    after = copy.deepcopy(state)
    rounds.end_round(after)
    last = state["round"] >= rules.ROUNDS
    out = {}
    for p in after["seats"].values():
        board = f"diet-{p['seat']}"
        slots = {s: t for s, t in boards.implied(after, board).items() if not s.startswith("markers.")}
        if not last:                              # markers go back to the board for the next round
            slots.update({f"markers.{n}": boards.MARKER for n in range(1, rules.ACTIONS_PER_ROUND + 1)})
        out[board] = slots
    out["shop"] = {f"shop.{s}": boards.COVERED for s, why in state["covered"].items() if why != "shopping"}
    return out


def _untidy(state: dict) -> list[dict] | None:
    """What the camera still shows differently from a tidied table (None when it does not watch
    every diet board, so it cannot tell)."""
    left = []
    for board, wanted in _tidy_boards(state).items():
        info = state["boards"].get(board)
        if not info or not info["watched"] or not info["areas"]:
            if board == "shop":
                continue
            return None
        if board == "shop":                       # only this round's purchases must come off
            info = {**info, "areas": [a for a in info["areas"] if state["covered"].get(a[5:]) == "shopping"]}
        elif state["round"] >= rules.ROUNDS:           # the game is over: markers may stay where they are
            info = {**info, "areas": [a for a in info["areas"] if not a.startswith(("markers.", "action."))]}
        left += [{"board": board, **d} for d in boards.compare(info, wanted)]
    main = state["boards"].get(physical.MAIN, {})
    if "action" in main.get("areas", []):
        left += [{"board": physical.MAIN, "slot": s, "recorded": None, "seen": t}
                 for s, t in sorted(main["seen"].items()) if s.startswith("action.") and t]
    return left


def after_reading(state: dict) -> list[dict]:
    """After a camera reading at the round's end: start the next round once the boards are tidy."""
    left = _untidy(state)
    if left is None:
        return []
    state["put_back"] = left
    if left:
        return []
    events = [event(state, "tidied", f"The table is tidy: round {state['round']} is cleaned up.")]
    return events + rounds.finish_cleanup(state)
