"""The round cycle: assistant selection, whose action it is, clean-up and the end of the game."""
from __future__ import annotations

from collections import Counter

from ..base import RuleError, event, finish
from . import abilities, goals, rules, scoring, tokens
from .physical import physical_draws, physical_first


def order(state: dict) -> list[int]:
    """Seats in turn order this round, the first player first (clockwise = rising seat numbers)."""
    n = len(state["players"])
    first = state["first_seat"]
    return [(first - 1 + i) % n + 1 for i in range(n)]


def seat_record(state: dict, seat: int) -> dict:
    return state["seats"][str(seat)]


# ----------------------------------------------------------------------------- round start
def start_round(state: dict, refill_dining: bool = False) -> list[dict]:
    """Begin the current round: out-of-stock cards, market stands, then assistant selection."""
    events = []
    rnd = state["round"]
    state["market_up"] = [m for m in state["market_cards"] if state["cards"]["market"][m]["round"] == rnd]
    if refill_dining:
        refill_dining_out(state)
    if (state["oos_deck"] or state["oos_up"]) and not physical_draws(state):   # physical: the cards are tapped
        state["oos_up"] = state["oos_deck"][:rules.OUT_OF_STOCK_PER_ROUND]
        state["oos_deck"] = state["oos_deck"][rules.OUT_OF_STOCK_PER_ROUND:]
        for card in state["oos_up"]:
            for space in state["cards"]["out_of_stock"][card]["spaces"]:
                if space in state["shopping"]:
                    state["covered"][space] = "out_of_stock"
        if state["oos_up"]:
            events.append(event(state, "out_of_stock", f"Out of stock this round: shopping spaces "
                                f"{', '.join(sorted(s for s, why in state['covered'].items() if why == 'out_of_stock'))}."))
    state["phase"] = "assistants"
    state["spaces"] = {"shop": [], "pizza": None, "buffet": [None] * rules.buffet_spaces(len(state["players"]))}
    state["assistant_queue"] = list(reversed(order(state)))
    for p in state["seats"].values():
        p["last_assistants"], p["assistants"] = p["assistants"], []
    state["assistants_free"] = list(state["assistants_in_play"])
    for p in state["seats"].values():
        p["before_shift"] = None             # last round's kitchen move can no longer be undone
    events.extend(_auto_assistants(state))
    return events


def refill_dining_out(state: dict) -> None:
    """Pizza To Go gets its fixed Fats & Oils plus tokens from the bag; the buffet rows from the bag."""
    state["laying_out"] = True            # until the round's first action (physical draws: the camera reads them)
    if len(state["players"]) == 1 or physical_draws(state):
        used = Counter(state.get("bag_used", {})) + Counter(state.get("laid_out", {}))   # drawn from the bag so far
        state["bag_used"], state["laid_out"], state["dining_unsure"] = dict(sorted(used.items())), {}, None
        state["pizza"], state["buffet"] = [], [[] for _ in state["buffet"]]
        return
    main = state["main"]
    bag = state["bag"]

    def draw(n):
        taken, bag[:] = bag[:n], bag[n:]
        return taken
    state["pizza"] = [main["pizza_fixed"]] + draw(main["pizza_spaces"] - 1)
    state["buffet"] = [draw(main["buffet_row_spaces"]) for _ in range(main["buffet_rows"])]


# ----------------------------------------------------------------------------- assistants
def solo_choice(state: dict) -> tuple[int, list[str]]:
    """Solo pattern: (how many to pick now, which are allowed), from the round number."""
    p = seat_record(state, 1)
    rnd = state["round"]
    allowed = [a for a in state["assistants_in_play"] if a not in p["last_assistants"]]
    if rnd == 1:
        return 2, allowed
    return (1, allowed) if rnd % 2 == 0 else (0, allowed)


def _auto_assistants(state: dict) -> list[dict]:
    """Solo rounds 3 and 5 take the two assistants not used in the two rounds before."""
    if len(state["players"]) != 1 or state["round"] in (1,) or state["round"] % 2 == 0:
        return []
    p = seat_record(state, 1)
    p["assistants"] = [a for a in state["assistants_in_play"] if a not in p["last_assistants"]]
    return _assistants_done(state, [event(state, "assistants", f"{p['name']} takes the remaining assistants: "
                                          f"{_names(state, p['assistants'])}.")])


def _names(state: dict, ids: list[str]) -> str:
    return ", ".join(state["cards"]["assistants"][a]["name"] for a in ids)


def choose_assistant(state: dict, seat: int, body: dict) -> list[dict]:
    """A player picks their assistant (solo: the pattern's number of them)."""
    if state["phase"] != "assistants":
        raise RuleError("not_now", "Assistants are chosen at the start of a round, not now.")
    queue = state["assistant_queue"]
    if not queue or queue[0] != seat:
        raise RuleError("not_your_turn", f"It is {seat_record(state, queue[0])['name']}'s turn to pick an "
                        "assistant (last player first, in reverse turn order).")
    p = seat_record(state, seat)
    picks = body.get("cards") if "cards" in body else [body.get("card")]
    if not isinstance(picks, list) or not all(isinstance(c, str) for c in picks):
        raise RuleError("bad_argument", "Name the assistant card: {\"card\": \"<assistant id>\"}.")
    if len(state["players"]) == 1:
        wanted, allowed = solo_choice(state)
        if len(picks) != wanted:
            raise RuleError("breaks_rule", f"Solo round {state['round']}: pick {wanted} assistant"
                            f"{'s' if wanted != 1 else ''} (use \"cards\": [...]).")
        keep = p["last_assistants"] if state["round"] % 2 == 0 else []
    else:
        if len(picks) != 1:
            raise RuleError("breaks_rule", "Pick exactly one assistant.")
        allowed, keep = state["assistants_free"], []
    for card in picks:
        if card not in state["cards"]["assistants"] or card not in state["assistants_in_play"]:
            raise RuleError("unknown_card", f"{card!r} is not an assistant in this game; "
                            f"choose from: {_names(state, state['assistants_free'])}.")
        if card in p["last_assistants"]:
            raise RuleError("breaks_rule", f"You had {_names(state, [card])} last round; "
                            "nobody keeps the same assistant two rounds running.")
        if card not in allowed:
            raise RuleError("unavailable", f"{_names(state, [card])} is already taken this round.")
    if len(set(picks)) != len(picks):
        raise RuleError("bad_argument", "Pick different assistants.")
    p["assistants"] = keep + picks
    state["assistants_free"] = [a for a in state["assistants_free"] if a not in picks]
    queue.pop(0)
    events = [event(state, "assistant", f"{p['name']} picks {_names(state, picks)}.")]
    if not queue:
        events = _assistants_done(state, events)
    return events


def _assistants_done(state: dict, events: list[dict]) -> list[dict]:
    state["assistant_queue"] = []
    state["phase"] = "actions"
    for p in state["seats"].values():
        p.update(actions_left=rules.ACTIONS_PER_ROUND, passed=False, snacks=0, market_visits=0, pizza=False,
                 diet_markers=rules.no_diet_markers(), extra_actions=0)
    state["turn"] = order(state)[0]
    events.append(event(state, "actions", f"Round {state['round']}: actions begin with "
                        f"{seat_record(state, state['turn'])['name']}."))
    return events


# ----------------------------------------------------------------------------- turns
def next_turn(state: dict, after: int) -> list[dict]:
    """After ``after``'s action: the next player in turn order with markers left, or the round ends."""
    abilities.end_turn(seat_record(state, after))
    seats = order(state)
    i = seats.index(after)
    for k in range(1, len(seats) + 1):
        s = seats[(i + k) % len(seats)]
        p = seat_record(state, s)
        if p["actions_left"] > 0 and not p["passed"]:
            state["turn"] = s
            return []
    holder = next((p for p in state["seats"].values() if p["pizza"] and not p["passed"]), None)
    if state["phase"] == "actions" and holder is not None:
        state["phase"], state["turn"] = "pizza_extra", holder["seat"]
        return [event(state, "pizza_extra", f"{holder['name']} may move their Pizza To Go marker to "
                      "another open action space and take that action, or skip.")]
    return round_over(state)


# ----------------------------------------------------------------------------- clean-up
def round_over(state: dict) -> list[dict]:
    """The last marker is down.  Guided: the engine does its clean-up steps at once.  Physical-first:
    the record waits for the people to tidy the boards (the camera saw the round's last action on
    boards not yet cleaned up); once the camera sees them tidy (``cleanup``), or the host continues,
    the record does its clean-up and the next round starts."""
    for p in state["seats"].values():
        abilities.end_turn(p)
    if not physical_first(state):
        return end_round(state)
    state["phase"], state["turn"] = "round_end", None
    state["cleanup"] = _people_steps(state, state["first_seat"] % len(state["players"]) + 1)
    return [event(state, "round_end", f"Round {state['round']} is over: do the clean-up steps on the table; the "
                  "next round starts when the camera sees every board tidy (or the host continues).")]



#: What the people at the table do by hand at clean-up (the engine has done the rest).
def _people_steps(state: dict, first: int | None = None) -> list[str]:
    steps = ["Move every kitchen token one space right; the last column goes to the trash"
             + (" (and empty each thaw area into the trash)" if state["options"]["freezer"] else "") + ".",
             "Move the round marker on; take back your action markers.",
             "Take all shopping tokens off the shopping list."]
    physical = physical_draws(state)
    if len(state["players"]) > 1 and physical:
        steps.append("Return the Pizza To Go and Chinese Buffet tokens to the supply and lay out new ones "
                     "from the bag (a Fats & Oils token on its Pizza To Go space); the camera reads them.")
    elif len(state["players"]) > 1:
        steps.append("Return the Pizza To Go and Chinese Buffet tokens to the supply and lay out the "
                     f"new ones shown on the screen (Pizza To Go: {', '.join(state['pizza'])}; buffet rows: "
                     + "; ".join(", ".join(r) or "empty" for r in state["buffet"]) + ").")
    steps.append("Take away this round's farmers market stands and turn up the next round's.")
    steps.append("Put the face-up recipes under their piles and the face-up activities under the "
                 "activity deck, then lay out " + ("new ones from the decks." if physical else
                                                   "the new ones shown on the screen."))
    if state["oos_up"]:
        steps.append("Put this round's out of stock cards back in the box"
                     + ("; reveal the next two, tap them on a reader and cover their spaces." if physical else "."))
    first = state["first_seat"] if first is None else first
    steps.append(f"Pass the first player token to {seat_record(state, first)['name']}.")
    return steps


def end_round(state: dict) -> list[dict]:
    """The nine clean-up steps the engine keeps track of; people do theirs by hand."""
    events = []
    trashed = {p["seat"]: spoil(p) for p in state["seats"].values()}
    lost = [f"{seat_record(state, s)['name']} {n}" for s, n in trashed.items() if n]
    events.append(event(state, "kitchen", f"Round {state['round']} over: kitchens move right"
                        + (f"; spoiled to trash: {', '.join(lost)}." if lost else "; nothing spoiled.")))
    events += abilities.resolve_end_of_round(state)   # physical-first: declared while the people tidied
    state["pending"], state["dice"], state["turn"] = None, None, None
    if state["round"] >= rules.ROUNDS:
        waiting = abilities.end_of_round_left(state)
        if not waiting:
            return events + end_game(state)
        state["phase"], state["final_cleanup"] = "cleanup", True     # the rulebook scores after the round's end
        state["cleanup"] = [f"{', '.join(waiting)}: use your end-of-round abilities now; then continue to the scoring."]
        return events + [event(state, "cleanup", "The last round is over: end-of-round abilities first, then the "
                               "host (or the advance button) continues to the scoring.")]
    state["round"] += 1
    state["covered"] = {}
    refill_dining_out(state)
    state["market_cards"] = [m for m in state["market_cards"] if m not in state["market_up"]]
    state["market_up"] = []
    shown = rules.RECIPES_SHOWN_PER_PILE
    state["recipe_piles"] = [pile[shown:] + pile[:shown] for pile in state["recipe_piles"]]
    state["activity_deck"] = state["activity_deck"] + state["planner"]
    state["planner"], state["activity_deck"] = (state["activity_deck"][:rules.DAILY_PLANNER_SIZE],
                                                state["activity_deck"][rules.DAILY_PLANNER_SIZE:])
    state["oos_up"] = []
    n = len(state["players"])
    state["first_seat"] = state["first_seat"] % n + 1
    state["phase"] = "cleanup"
    state["cleanup"] = _people_steps(state)
    events.append(event(state, "cleanup", f"Clean-up for round {state['round']}: the table does its steps, "
                        "then the host (or the advance button) continues."))
    return events


def spoil(p: dict) -> int:
    """The player's kitchen moves right (unless an ability skips it this round); what it was is kept
    until the next round starts, for an ability that undoes the move.  Returns how many were trashed."""
    if p["skip_spoil"]:
        p["skip_spoil"] = False
        return 0
    before = {"kitchen": [list(c) for c in p["kitchen"]], "thaw": list(p["thaw"])}
    spoiled = tokens.shift_kitchen(p)
    p["before_shift"] = {**before, "after": [list(c) for c in p["kitchen"]]}
    return spoiled


def finish_cleanup(state: dict) -> list[dict]:
    """People have done their clean-up steps: the next round starts."""
    if state["phase"] == "round_end":
        events = end_round(state)
        if state["over"] or state["final_cleanup"]:
            return events
        state["cleanup"] = []
        return events + start_round(state)
    if state["phase"] != "cleanup":
        raise RuleError("not_now", "There is no clean-up waiting to be confirmed.")
    state["cleanup"] = []
    events = abilities.resolve_end_of_round(state)
    if state["final_cleanup"]:
        return events + end_game(state)
    return events + start_round(state)


# ----------------------------------------------------------------------------- end of game
def end_game(state: dict) -> list[dict]:
    """Goals, receipts, scores and the winner (solo: the rating)."""
    cards = state["cards"]
    for gid in state["goals"]:
        goal = cards["goals"][gid]
        measures = {p["seat"]: goals.measure(goal, p, cards) for p in state["seats"].values()}
        for seat, vp in scoring.goal_awards(goal, measures).items():
            seat_record(state, seat)["goal_vp"][gid] = vp
    state["receipts"] = [scoring.receipt(state, p) for p in state["seats"].values()]
    totals = {r["seat"]: r["total"] for r in state["receipts"]}
    for pl in state["players"]:
        pl["score"] = totals[pl["seat"]]
    wins = scoring.winners(state, totals)
    names = [seat_record(state, s)["name"] for s in wins]
    if len(state["players"]) == 1:
        state["rating"] = rules.solo_rating(totals[1])
        text = f"Game over: {names[0]} scores {totals[1]} VP ({state['rating']})."
    elif len(wins) == 1:
        text = f"Game over: {names[0]} wins with {totals[wins[0]]} VP."
    else:
        text = f"Game over: {' and '.join(names)} share the victory with {totals[wins[0]]} VP."
    return [finish(state, names, text)]
