"""What each screen sees: the table (TV, public), a seat (the player's options), the host.

Everything on the table in Food for Thought is open information except the
order of the decks and the bag, so the public view lists the face-up cards and
every player's board, built field by field (an allow-list).
"""
from __future__ import annotations

from ..base import audience_seat, common_view
from . import abilities, actions, boards, inference, physical, rules
from .rounds import order, seat_record, solo_choice


def prompt(state: dict) -> str:
    phase = state["phase"]
    if state["over"]:
        return "Game over: the receipts are on the table."
    rnd = f"Round {state['round']} of {rules.ROUNDS}"
    if phase == "assistants":
        s = state["assistant_queue"][0]
        if len(state["players"]) == 1:
            n, _ = solo_choice(state)
            return f"{rnd}: {seat_record(state, s)['name']} picks {n} assistant{'s' if n != 1 else ''}."
        return f"{rnd}: {seat_record(state, s)['name']} picks an assistant."
    if phase == "cleanup" and state["final_cleanup"]:
        return "The last round is over: end-of-round abilities, then continue to the scoring."
    if phase == "cleanup":
        return f"Clean-up before round {state['round']}: do the steps shown, then continue."
    if phase == "round_end":
        return (f"End of round {state['round']}: tidy the boards as shown; the next round starts when the "
                "camera sees them tidy.")
    if state["pending"]:
        who = seat_record(state, state["pending"]["seat"])["name"]
        if state["dice"] is None:
            return f"{rnd}: {who} goes shopping: roll the dice and put them on their spaces."
        return f"{rnd}: {who} is shopping (dice {state['dice'][0]} and {state['dice'][1]})."
    if state.get("question"):         # physical-first: the table saw more than one legal action
        who = seat_record(state, state["question"]["seat"])["name"]
        return f"{rnd}: {who}, which action was it? Answer on your phone."
    if state["turn"] is not None and inference.roll_awaited(state, state["turn"]):
        who = seat_record(state, state["turn"])["name"]
        return f"{rnd}: {who} goes shopping: roll the two dice and tap the roll on your phone."
    unseen = inference.waiting_for_marker(state)      # only ever set in the actions or the Pizza To Go phase
    if unseen:
        return f"{rnd}: {unseen}, the table cannot see where your marker went: set it squarely on one action space."
    if phase == "pizza_extra":
        return f"{rnd}: {seat_record(state, state['turn'])['name']} may take an extra action from Pizza To Go, or skip."
    p = seat_record(state, state["turn"])
    return f"{rnd}: {p['name']}'s action ({rules.ACTIONS_PER_ROUND - p['actions_left'] + 1} of {rules.ACTIONS_PER_ROUND})."


def _card(state, kind, cid):
    c = state["cards"][kind][cid]
    out = {k: c[k] for k in c if k != "does"}          # an ability shows in words (its data names areas)
    if kind == "recipes" and c.get("does"):
        out["does_text"] = abilities.describe(c["does"], _names(state))
    return out


def _names(state: dict) -> dict:
    return {f: state["foods"][f]["name"] for f in state["foods"]}


def _usable(state: dict, p: dict, rid: str) -> dict | None:
    """A completed recipe's ability its owner may still use during play: its words and the choices
    it asks for (None when there is none, it is used, or it works by itself)."""
    r = state["cards"]["recipes"][rid]
    does = r.get("does")
    if rid in p["abilities_used"] or r["end_game_vp"] or (does and does["when"] in ("on_complete", "end_of_game")):
        return None
    if any(d["seat"] == p["seat"] and d["key"] == f"recipe:{rid}" for d in abilities.declared(state)):
        return None                                     # declared at this clean-up: it resolves in turn order
    if not does and not r["ability"]:
        return None
    return {"text": abilities.describe(does, _names(state)) if does else r["ability"],
            "choices": list(does.get("choices", [])) if does else [], "when": does["when"] if does else "own_turn"}


def _assistant(state: dict, aid: str, owner: dict | None = None) -> dict:
    """An assistant: its options in words and, for its ``owner``, whether one is declared at this
    clean-up (it then resolves in turn order and is not offered again)."""
    a = state["cards"]["assistants"][aid]
    does = a.get("does") or []
    return {"id": aid, "name": a["name"], "options": a["options"],
            "does": [{"text": abilities.describe(d, _names(state)), "choices": list(d.get("choices", [])),
                      "when": d["when"]} for d in does],
            "declared": bool(owner) and any(d["seat"] == owner["seat"] and d["key"] == f"assistant:{aid}"
                                            for d in abilities.declared(state))}


def _public_player(state: dict, p: dict) -> dict:
    cards = state["cards"]
    return {
        "seat": p["seat"], "name": p["name"], "diet": state["diets"][p["diet"]]["name"],
        "groups": [{"id": g["id"], "name": g["name"], "spaces": list(g["spaces"]), "zero_vp": g["zero_vp"],
                    "tokens": list(p["body"][g["id"]]), "tile": bool(g.get("tile"))} for g in p["groups"]],
        "kitchen": [list(c) for c in p["kitchen"]], "trash": list(p["trash"]),
        "freezer": list(p["freezer"]), "thaw": list(p["thaw"]),
        "recipes": [{**_card(state, "recipes", r), "tokens": list(p["recipe_tokens"][r])} for r in p["recipes"]],
        "recipes_done": [{**_card(state, "recipes", r), "ability_used": r in p["abilities_used"],
                          "usable": _usable(state, p, r)} for r in p["recipes_done"]],
        "activities": [{**_card(state, "activities", a), "tokens": p["activity_tokens"][a]} for a in p["activities"]],
        "activities_done": [_card(state, "activities", a) for a in p["activities_done"]],
        "assistants": [_assistant(state, a, p) for a in p["assistants"]],
        "allow_once": list(p["allow_once"]),
        "allergy": cards["allergies"][p["allergy"]]["name"] if p["allergy"] else None,
        "actions_left": p["actions_left"], "passed": p["passed"], "market_visits": p["market_visits"],
        "snacked": p["snacks"] >= rules.SNACKS_PER_ROUND,
    }


def _shopping(state: dict) -> list[dict]:
    out = []
    for space, food in sorted(state["shopping"].items()):
        entry = {"space": space, "food": food, "covered": state["covered"].get(space)}
        if state["dice"] and not entry["covered"]:
            entry["price"] = actions.price(state, space)
        out.append(entry)
    return out


def table_view(state: dict) -> dict:
    """The public view (TV): allow-listed fields only."""
    out = common_view(state, prompt(state))
    n = len(state["players"])
    out.update({
        "round": state["round"], "rounds": rules.ROUNDS, "turn": state["turn"],
        "first_seat": state["first_seat"], "order": order(state),
        "sample_data": bool(state["data"]["sample"]), "sample_kinds": list(state["data"]["sample"]),
        "data_label": "SAMPLE DATA" if state["data"]["sample"] else "",
        "options": {k: state["options"][k] for k in ("potluck", "goals", "food_allergy", "freezer", "dice", "diet",
                                                      "data", "draws")},
        "question": ({"seat": state["question"]["seat"], "options": list(state["question"]["options"])}
                     if state["question"] else None),
        "put_back": [dict(d) for d in state["put_back"]],
        "to_confirm": {**state["to_confirm"], "lines": inference.food_to_move(state)} if state.get("to_confirm") else None,
        "dining_unsure": list(state["dining_unsure"]["problems"]) if state.get("dining_unsure") else None,
        "drawn": {k: list(v) if isinstance(v, list) else v for k, v in state["drawn"].items()},
        "board_name": " / ".join(d["name"] for d in state["diets"].values()),
        "foods": {f: state["foods"][f]["name"] for f in state["foods"]},
        "dice": list(state["dice"]) if state["dice"] else None,
        "shopping": _shopping(state),
        "shopping_spaces": {"total": rules.shop_spaces(n), "used": len(state["spaces"]["shop"])},
        "budget": rules.BUDGET,
        "market": [_card(state, "market", m) for m in state["market_up"]],
        "pizza": list(state["pizza"]) if n > 1 else None,
        "buffet": [list(r) for r in state["buffet"]] if n > 1 else None,
        "recipe_book": [_card(state, "recipes", r) for r in actions.visible_recipes(state)],
        "planner": [_card(state, "activities", a) for a in state["planner"]],
        "goals": [_card(state, "goals", g) for g in state["goals"]],
        "out_of_stock": list(state["oos_up"]),
        "to_tap": physical.to_tap(state),
        "assistants_free": [{"id": a, "name": state["cards"]["assistants"][a]["name"]}
                            for a in state.get("assistants_free", [])] if state["phase"] == "assistants" else [],
        "seats": [_public_player(state, p) for p in state["seats"].values()],
        "cleanup": list(state["cleanup"]),
        "pending": dict(state["pending"]) if state["pending"] else None,
        "disagreements": {b: boards.disagreements(state, b) for b in state["boards"]
                          if boards.disagreements(state, b)},
        "watched": sorted(b for b, i in state["boards"].items() if i["watched"]),
        "receipts": list(state["receipts"]) if state["over"] else [],
        "rating": state["rating"],
    })
    return out


def seat_options(state: dict, seat: int) -> dict:
    """What the rules allow ``seat`` now, each refusal explained (for their phone); the player whose
    turn it is may also confirm the dining-out tokens the camera could not take."""
    mine = _seat_options(state, seat)
    unsure = state.get("dining_unsure")
    if unsure and seat == state["turn"] and state["phase"] in ("assistants", "actions", "pizza_extra"):
        mine["can"] = [*mine["can"], "dining_as_seen"]
        mine["dining_unsure"] = list(unsure["problems"])
    return mine


def _seat_options(state: dict, seat: int) -> dict:
    phase = state["phase"]
    mine = {"seat": seat, "can": [], "why_not": {}}
    if state["over"]:
        mine["why_not"]["all"] = "The game is over."
        return mine
    if phase == "assistants":
        if state["assistant_queue"][0] == seat:
            p = seat_record(state, seat)
            if len(state["players"]) == 1:
                n, allowed = solo_choice(state)
            else:
                n, allowed = 1, [a for a in state["assistants_free"] if a not in p["last_assistants"]]
            mine["can"] = ["assistant"]
            mine["assistant"] = {"pick": n, "choices": [_assistant(state, a) for a in allowed],
                                 "not_again": list(p["last_assistants"])}
        else:
            mine["why_not"]["assistant"] = f"{seat_record(state, state['assistant_queue'][0])['name']} picks first."
        return mine
    if phase in ("cleanup", "round_end"):
        mine["why_not"]["all"] = "Clean-up: tidy your board as the TV shows; the next round follows."
        return mine
    if state["question"] and state["question"]["seat"] == seat:
        mine["can"] = ["answer"]
        mine["answer"] = {"options": list(state["question"]["options"])}
        return mine
    if inference.roll_awaited(state, seat):   # physical-first, dice: physical: the roll is the one thing to tap
        mine["can"] = ["roll"]
        mine["roll"] = {"faces": rules.DIE_FACES}
        return mine
    if state["pending"]:
        if state["pending"]["action"] == "dice":
            mine["why_not"]["all"] = "Waiting for the dice: roll them and put them on their spaces."
        elif state["pending"]["seat"] == seat:
            mine["can"] = ["buy"]
            mine["buy"] = {"dice": state["dice"], "budget": abilities.limit(seat_record(state, seat), "shop_budget"),
                           "prices": {"on_sale": rules.PRICE_ON_SALE, "regular": rules.PRICE_REGULAR,
                                      "special_order": rules.PRICE_SPECIAL_ORDER}}
        else:
            mine["why_not"]["all"] = f"{seat_record(state, state['pending']['seat'])['name']} is shopping."
        return mine
    if state["turn"] != seat:
        mine["why_not"]["all"] = f"It is {seat_record(state, state['turn'])['name']}'s turn."
        return mine
    for space, why in actions.available(state, seat).items():
        if why:
            mine["why_not"][space] = why
        else:
            mine["can"].append(space)
    mine["can"].append("skip" if phase == "pizza_extra" else "pass")
    return mine


def _tile(state: dict, seat: int) -> dict | None:
    """``seat``'s allergy tile: its name, its body group, the foods it takes, those that go on it
    first (the player's choice, action ``tile_first``) and the forbidden foods its tokens count as
    in a work out (a placement's ``group``); None without a tile."""
    p = seat_record(state, seat)
    if not p["allergy"]:
        return None
    tile = state["cards"]["allergies"][p["allergy"]]
    group = next(g["id"] for g in p["groups"] if g.get("tile"))
    return {"name": tile["name"], "group": group, "foods": list(tile["foods"]), "first": list(p["tile_first"]),
            "forbidden": list(tile["forbidden"])}


def view(state: dict, audience: str) -> dict:
    """The view for ``table``, ``seat-N`` or ``host``."""
    out = table_view(state)
    seat = audience_seat(audience)
    if seat is not None and str(seat) in state["seats"]:
        out["me"] = seat_options(state, seat)
        out["me"]["tile"] = _tile(state, seat)
    if audience == "host":
        out["host"] = {
            "data_sources": dict(state["data"]["sources"]),
            "data_fingerprint": state["data"]["fingerprint"],
            "recipe_piles": [list(p) for p in state["recipe_piles"]],
            "activity_deck": list(state["activity_deck"]),
            "market_cards": list(state["market_cards"]),
            "bag_left": len(state["bag"]),
            "boards": boards.board_ids(state),
            "allergy_tiles": sorted(state["cards"]["allergies"]),
            "options_by_seat": {s: {**seat_options(state, int(s)), "tile": _tile(state, int(s))} for s in state["seats"]},
        }
    return out
