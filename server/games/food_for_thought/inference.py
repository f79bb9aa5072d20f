"""Physical-first play: work out a player's action from what the camera sees changed.

In the ``physical`` mode the boards are the truth.  Each diet board shows its
player's unused action markers (slots ``markers.<n>`` holding ``marker``): when
the active player's count drops by one, they have placed a marker and acted.

The camera reads each board when it lies still, one board at a time and in no
promised order (the diet board may be read before the main board the marker went
to).  So the table first waits for the marker to be seen where it went: on one of
the main board's action spaces (``action.<space>.<n>`` holding ``marker<seat>``)
or one of the diet board's own (``action.<space>.<n>`` holding ``marker``).  While
it is seen nowhere new (still in a hand, or on a board not read again yet), or
seen in more places than markers left the player's supply (a board read before
the marker moved on), nothing is decided and nothing is listed to put back.  A
camera that does not read the diet board's action spaces is taken at its word:
a marker not seen on the main board is on the diet board.

The engine then lists the actions that could explain the change (every open
space: Pizza To Go, each buffet row, a snack of each food that left the kitchen,
each open market stand with the wild foods that appeared, a shopping trip with
the dice from the one place the ``dice`` option names and the newly covered
spaces, an empty cook, a pass), plays each one on a copy of the state with the
same rules as the guided mode, and keeps those after which the record looks
exactly like what the camera sees:

- exactly one: it is applied, with no phone input, and its events are the TV's
  announcement;
- several: the active player answers one question on their phone (one tap:
  the ``answer`` seat action with the option's number);
- none: nothing is applied; the differences between the table and the record
  are listed (what to put back) until a later reading shows a legal state, or
  the host acts for the player.

With the ``dice`` option ``physical`` a shopping trip the camera sees waits for
the roll the shopper taps on their phone (``roll``); with ``digital`` the table
rolls when the marker lands.  A card whose food the camera sees on it, complete,
waits for the player to tap it again (or to move the food where it goes): the
tap completes it, and the table then waits to see the food moved.

A board is read as soon as it lies still, so one may be read before the rest of the move reaches it
(the freezer, a board of its own, before the kitchen).  The table keeps the action it applied by
itself with the record before it: until anything else happens, a board then showing more of that
same action (more bought on the trip, another token on the recipes) makes it one action again,
worked out from the record before it.

Everything here is pure: candidates are tried on deep copies of the state.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from itertools import combinations_with_replacement, product

from ..base import RuleError, event
from . import abilities, actions, boards, physical, rounds, rules
from .physical import physical_first
from .tokens import food_name

MARKER = boards.MARKER
#: The "column" of a token a cook or snack took from the Freezer module's thaw area.
THAW = "thaw"


def _seen(state: dict, board: str) -> dict:
    return state["boards"].get(board, {}).get("seen", {})


def _reported(state: dict, board: str) -> bool:
    return bool(state["boards"].get(board, {}).get("areas"))


def _markers_seen(state: dict, seat: int) -> int | None:
    info = state["boards"].get(f"diet-{seat}")
    if not info or not any(a.startswith("markers.") for a in info["areas"]):
        return None
    return sum(1 for s, t in info["seen"].items() if s.startswith("markers.") and t == MARKER)


def _tokens(slots: dict, prefix: str) -> Counter:
    return Counter(t for s, t in slots.items() if s.startswith(prefix) and t is not None)


def _markers_read(state: dict) -> bool:
    """Whether the camera reads the markers on the main board's action spaces."""
    return "action" in state["boards"].get(physical.MAIN, {}).get("areas", [])


def _count(seen: dict, prefix: str, token: str) -> int:
    return sum(1 for s, t in seen.items() if s.startswith(prefix) and t == token)


def _main_excess(state: dict, seat: int) -> dict[str, int] | None:
    """Per main board action space: how many more of ``seat``'s markers the camera sees there than
    the record has (fewer: negative); None when the camera has not read those spaces."""
    if not _markers_read(state):
        return None
    seen = _seen(state, physical.MAIN)
    record = physical.space_markers(state)
    token = physical.marker(seat)
    return {space: _count(seen, f"action.{space}.", token) - record[space].count(seat)
            for space in physical.MAIN_SPACES}


def _diet_excess(state: dict, seat: int) -> dict[str, int] | None:
    """The same for the action spaces of ``seat``'s own diet board; None when the camera does not
    read them."""
    board = f"diet-{seat}"
    if not any(a.startswith("action.") for a in state["boards"].get(board, {}).get("areas", [])):
        return None
    seen = _seen(state, board)
    placed = state["seats"][str(seat)].get("diet_markers", {})
    return {space: _count(seen, f"action.{space}.", MARKER) - placed.get(space, 0) for space in rules.DIET_SPACES}


def _new_marker_spaces(state: dict, seat: int) -> tuple[set[str], bool, bool]:
    """The spaces, main board or diet board, where the camera sees a new marker of ``seat``, and
    whether it reads the main board's and the diet board's action spaces at all."""
    main, diet = _main_excess(state, seat), _diet_excess(state, seat)
    spaces = {space for space, n in {**(main or {}), **(diet or {})}.items() if n > 0}
    return spaces, main is not None, diet is not None


def _settled(state: dict, seat: int) -> bool:
    """Whether the camera's boards agree on where ``seat``'s marker went: seen on one new space at
    least and on no more new spaces than markers left the supply (a pass sets the others aside).
    Without the diet board's action spaces the camera cannot say, and the table decides at once."""
    diet = _diet_excess(state, seat)
    if diet is None:
        return True
    main = _main_excess(state, seat)
    placed = sum(n for n in diet.values() if n > 0) + sum(n for n in (main or {}).values() if n > 0)
    if main is None and placed == 0:
        return True                 # on the main board, whose action spaces the camera does not read
    if state["phase"] == "pizza_extra":
        gone = 1                    # the Pizza To Go marker, moved on
    else:
        gone = abilities.row_markers(state["seats"][str(seat)]) - (_markers_seen(state, seat) or 0)
    return 1 <= placed <= max(gone, 1)        # none gone from the row: one further marker (an extra action)


def _further(state: dict, seat: int) -> bool:
    """Whether the marker just placed is a further one, from outside the player's row of unused markers
    (the row still shows all the record expects): an extra action from an ability."""
    seen = _markers_seen(state, seat)
    return state["phase"] == "actions" and seen is not None and seen >= abilities.row_markers(state["seats"][str(seat)])


def _may_add(state: dict, seat: int) -> bool:
    """Whether ``seat`` may place a further marker: an extra action granted, or an ability the table may
    use by itself."""
    p = state["seats"][str(seat)]
    return p.get("extra_actions", 0) > 0 or bool(abilities.table_usable(state, p))


def candidates(state: dict, seat: int) -> list[dict]:
    """Actions ``seat`` may have taken, built from the change between the record and the camera;
    where the camera sees the player's new marker on an action space, only that space's."""
    out = _all_candidates(state, seat)
    spaces, main_read, diet_read = _new_marker_spaces(state, seat)
    if not main_read and not diet_read:
        return out
    if len(spaces) > 1:
        return []                             # two new markers at once: nothing fits
    if spaces:
        (space,) = spaces
        return [c for c in out if c["action"] == space] + [{"action": "pass", "space": space}]
    if not diet_read:                         # not on the main board: on the diet board
        return [c for c in out if c["action"] not in physical.MAIN_SPACES and c["action"] != "pass"] + [
            {"action": "pass"}]
    # on no diet board space: on the main board, whose action spaces the camera does not read
    open_ = [s for s in ("shop", "pizza", "buffet") if actions.space_open(state, seat, s) is None]
    return [c for c in out if c["action"] in physical.MAIN_SPACES] + [{"action": "pass", "space": s}
                                                                      for s in open_[:1]]


def _all_candidates(state: dict, seat: int) -> list[dict]:
    seen, rec = _seen(state, f"diet-{seat}"), boards.implied(state, f"diet-{seat}")
    gained = (_tokens(seen, "body.") + _tokens(seen, "kitchen.") + _tokens(seen, "freezer.")) - (
        _tokens(rec, "body.") + _tokens(rec, "kitchen.") + _tokens(rec, "freezer."))
    frozen = _tokens(seen, "freezer.") - _tokens(rec, "freezer.")
    freeze = {"freeze": sorted(frozen.elements())} if frozen else {}   # food bought straight into the freezer
    thawed = sorted((_tokens(rec, "freezer.") - _tokens(seen, "freezer.")).elements())
    gone = _left_kitchen(state, seat, seen, rec, thawed)
    out = _dining(state, _tokens(seen, "body.") - _tokens(rec, "body."))
    out += [{"action": "snack", "food": f, **_source(c)} for f, c in sorted(set(gone), key=str)]
    for card in state["market_up"]:
        out += [{"action": "market", "card": card, "wild": wild, **freeze} for wild in _wilds(state, card, gained)]
    dice = shopping_dice(state, seat)
    if dice is not None:
        covered = [s[5:] for s, t in _seen(state, "shop").items() if t == boards.COVERED and s[5:] not in state["covered"]]
        specials = gained - Counter(state["shopping"][s] for s in covered)
        out.append({"action": "shop", "dice": dice, "items": [{"space": s} for s in sorted(covered)]
                    + [{"special": f} for f in sorted(specials.elements())], **freeze})
    out += _cooks(state, seat, gone, thawed)
    out += _workouts(state, seat, seen, rec)
    out += [{"action": "cook"}, {"action": "workout"}, {"action": "pass"}]   # cards only taken, or nothing done
    return out


def _dining(state: dict, eaten: Counter) -> list[dict]:
    """Pizza To Go and each buffet row still laid; where the camera sees the space emptied and the body
    gained (``eaten``) as many tokens as the space held but other foods, the same space as laid with those
    foods (the lay-out read wrongly, see :func:`physical.relay`)."""
    spaces = [({"action": "pizza"}, state["pizza"], "pizza.")]
    spaces += [({"action": "buffet", "row": r}, row, f"buffet.{r}.") for r, row in enumerate(state["buffet"], 1) if row]
    main = _seen(state, physical.MAIN) if _reported(state, physical.MAIN) else None
    out = []
    for body, laid, prefix in spaces:
        out.append(body)
        missing, extra = Counter(laid) - eaten, eaten - Counter(laid)
        emptied = main is not None and not _tokens(main, prefix)
        if emptied and missing and sum(missing.values()) == sum(extra.values()):
            swap = iter(sorted(extra.elements()))
            left = Counter(laid) - missing
            fixed = []
            for food in laid:
                if left[food]:
                    left[food] -= 1
                    fixed.append(food)
                else:
                    fixed.append(next(swap))
            out.append({**body, "laid": fixed})
    return out


def _wilds(state: dict, card: str, gained: Counter) -> list[list[str]]:
    """The wild foods a visit to stand ``card`` could have given, from the tokens that appeared: a
    wild food the camera cannot see (sent to the supply: an allergy, a full group) may be any food."""
    stand = state["cards"]["market"][card]
    seen = sorted((gained - Counter(f for f in stand["foods"] if f != "wild")).elements())
    missing = stand["foods"].count("wild") - len(seen)
    if missing < 0:
        return []
    return [seen + list(more) for more in combinations_with_replacement(sorted(state["foods"]), missing)]


def _source(column) -> dict:
    """Where a token a cook or snack used came from: a kitchen column, or the thaw area."""
    return {"from": "thaw"} if column == THAW else {"column": column}


def _workouts(state: dict, seat: int, seen: dict, rec: dict) -> list[dict]:
    """Work outs moving the body tokens that left (from the spaces they left) onto the player's
    incomplete activities, the ones tapped this turn included: every way of sharing them out, and
    the same with two tokens of one food on one activity as a pair (a double wild space)."""
    gone = []
    for slot, food in sorted(rec.items()):
        if slot.startswith("body.") and seen.get(slot) != food:
            _, group, position = slot.split(".")
            gone.append((food, group, int(position)))
    out = []
    for choice in _shares(state, seat, "activities", gone):
        out.append({"action": "workout", "place": [{"activity": a, "food": f, "group": g, "position": n}
                                                   for a, (f, g, n) in zip(choice, gone)]})
        pairs = Counter((a, f) for a, (f, _g, _n) in zip(choice, gone))
        if any(c == 2 for c in pairs.values()):
            out.append({"action": "workout", "place": [{"activity": a, "food": f, "count": c}
                                                       for (a, f), c in pairs.items()]})
    return out


def _left_kitchen(state: dict, seat: int, seen: dict, rec: dict, thawed: list[str]) -> list[tuple[str, object]]:
    """(food, column) of each token the record has in the kitchen and the camera no longer sees, and
    (food, THAW) of each token gone from the thaw area (counting those a cook thaws as they move)."""
    gone = []
    for col in range(1, len(state["seats"][str(seat)]["kitchen"]) + 1):
        lost = _tokens(rec, f"kitchen.{col}.") - _tokens(seen, f"kitchen.{col}.")
        gone += [(f, col) for f in sorted(lost.elements())]
    lost = _tokens(rec, "thaw.") + Counter(thawed) - _tokens(seen, "thaw.")
    return gone + [(f, THAW) for f in sorted(lost.elements())]


def _cooks(state: dict, seat: int, gone: list[tuple[str, object]], thawed: list[str]) -> list[dict]:
    """Cooks moving the kitchen (and thaw area) tokens that left onto the player's incomplete
    recipes, the ones tapped this turn included: every way of sharing them out; the frozen tokens
    that moved to the thaw area are thawed by the same cook."""
    thaw = {"thaw": thawed} if thawed else {}
    out = [{"action": "cook", "place": [{"recipe": r, "food": f, **_source(c)} for r, (f, c) in zip(choice, gone)],
            **thaw} for choice in _shares(state, seat, "recipes", gone)]
    return out + ([{"action": "cook", **thaw}] if thawed else [])


def _shares(state: dict, seat: int, kind: str, gone: list) -> list[tuple[str, ...]]:
    """Every way of giving each of the ``gone`` tokens (at most one action's worth, abilities
    included) to one of ``seat``'s incomplete cards of ``kind``, those tapped this turn included."""
    drawn = state["drawn"][kind] if state["drawn"]["seat"] == seat else []
    cards = list(state["seats"][str(seat)][kind]) + list(drawn)
    most = abilities.limit(state["seats"][str(seat)], "tokens_per_cook" if kind == "recipes" else "tokens_per_workout")
    if not gone or not cards or len(gone) > most:
        return []
    return list(product(cards, repeat=len(gone)))


def play(state: dict, seat: int, body: dict) -> list[dict]:
    """Apply one candidate action of ``seat`` to ``state`` (the same rules as the phone's): first the
    ability the table uses by itself (``use``), and with ``further`` the action is an ability's extra
    action, taken with a further marker."""
    events = actions.use_ability(state, seat, {"action": "use_ability", **body["use"]}) if "use" in body else []
    if "laid" in body:
        events += physical.relay(state, body)
    if body.get("further"):
        p = state["seats"][str(seat)]
        if not p.get("extra_actions"):
            raise RuleError("breaks_rule", "A further marker is for an extra action from an ability.")
        p["extra_actions"] -= 1
    body = _bare(body)
    if body["action"] != "shop":
        return events + actions.take(state, seat, body)
    p = actions._check_turn(state, seat, "shop")
    why = actions.space_open(state, seat, "shop", spend=True)
    if why:
        raise RuleError("unavailable", why)
    how = HOW_ROLLED["camera"] if state["options"]["dice"] == "camera" else None   # a roll was announced as it came
    events += actions.start_shopping(state, seat, p, body["dice"], how)
    state["rolled_for"] = None
    return events + actions.buy(state, seat, {"items": body["items"], "freeze": body.get("freeze", [])})


#: How the dice of a shopping trip became known, by the ``dice`` option (the TV's words).
HOW_ROLLED = {"camera": "read by the camera", "physical": "entered on the phone", "digital": "rolled by the table"}


def shopping_dice(state: dict, seat: int) -> list[int] | None:
    """The dice of ``seat``'s shopping trip now, from the one place the ``dice`` option names: the main
    board's two tracks as the camera reads them (``camera``), else the roll the table made or the player
    entered for this very action, as a die ability may have changed it since (None: not known yet)."""
    if state["options"]["dice"] == "camera":
        return physical.dice_seen(_seen(state, physical.MAIN))
    now = state.get("rolled_for") == _action_now(state, seat)
    return list(state["dice"]) if now and state["dice"] else None


def _trip_waits(state: dict, seat: int) -> bool:
    """Whether the camera shows ``seat`` gone shopping and the table has not applied it: the marker on the
    shopping space (where the camera does not read the main board's action spaces: gone from the row and
    on no diet board space), the space open to them."""
    if state["phase"] not in ("actions", "pizza_extra") or state["pending"] is not None or state["turn"] != seat:
        return False
    if not _acted(state, seat) or not _settled(state, seat):
        return False
    spaces, main_read, _diet_read = _new_marker_spaces(state, seat)
    on_shop = "shop" in spaces if main_read else not spaces & set(rules.DIET_SPACES)
    return on_shop and actions.space_open(state, seat, "shop") is None


def _rolled(state: dict, seat: int, dice: list[int]) -> list[dict]:
    """Record the roll of ``seat``'s shopping trip now (dice: physical or digital): the TV shows it, with
    the shopping list's prices under it."""
    state["rolled_for"], state["dice"] = _action_now(state, seat), sorted(dice)
    return [actions.dice_event(state, state["seats"][str(seat)]["name"], HOW_ROLLED[state["options"]["dice"]],
                               state["dice"])]


def roll(state: dict, seat: int, body: dict) -> list[dict]:
    """The active player's one tap entering the two dice they rolled for the shopping trip the camera
    sees (physical-first, dice: physical); entered again before the purchase is taken, it replaces the
    first (a slip of the finger).  Rulebook, Grocery Shopping: the player rolls both dice, and the row
    and column they show are on sale."""
    dice = state["options"]["dice"]
    if not physical_first(state) or dice != "physical":
        raise RuleError("option_off", "In this game the dice are " + (
            "entered with Grocery shopping on the phone." if not physical_first(state) else
            "read by the camera: put them on their spaces beside the shopping list." if dice == "camera" else
            "rolled by the table: the TV shows the roll."))
    if state["turn"] != seat:
        raise RuleError("not_your_turn", f"It is {state['seats'][str(state['turn'])]['name']}'s turn: they enter "
                        "their own roll.")
    faces = actions.entered_dice(body.get("dice"))
    if state.get("question"):
        raise RuleError("not_now", "Answer the table's question on your phone first.")
    if not _trip_waits(state, seat):
        raise RuleError("not_now", "No shopping trip waits for a roll: put your marker on a shopping space first "
                        "(your phone offers the roll once the camera sees it there).")
    return _rolled(state, seat, faces) + after_reading(state)


def _roll_wanted(state: dict, seat: int) -> list[dict]:
    """A shopping trip waits for the roll the player enters on their phone: announced once per action,
    nothing decided and nothing listed to put back meanwhile."""
    state["put_back"] = []
    return _once_per_action(state, seat, "roll_wanted", f"{state['seats'][str(seat)]['name']} goes shopping: roll "
                            "the two dice and tap the roll on your phone.")


def roll_awaited(state: dict, seat: int) -> bool:
    """Whether ``seat``'s phone offers the roll now: a shopping trip the camera sees waits for it."""
    return physical_first(state) and state["options"]["dice"] == "physical" and _trip_waits(state, seat) \
        and not state.get("question")


def _bare(body: dict) -> dict:
    """A candidate's action alone, without the ability the table uses for it or its further marker."""
    return {k: v for k, v in body.items() if k not in ("use", "further", "laid", "complete")}


def _main_markers_differ(state: dict) -> list[dict]:
    """The main board's action spaces whose markers the camera sees otherwise than the record has
    them (each as a put-back line: the space, the markers recorded and seen there)."""
    if not _markers_read(state):
        return []
    seen, record = _seen(state, physical.MAIN), physical.main_slots(state)
    out = []
    for space in physical.MAIN_SPACES:
        prefix = f"action.{space}."
        want = sorted(t for s, t in record.items() if s.startswith(prefix))
        got = sorted(t for s, t in seen.items() if s.startswith(prefix))
        if want != got:
            out.append({"board": physical.MAIN, "slot": f"action.{space}", "recorded": want, "seen": got})
    return out


def _dice_missing(state: dict) -> list[dict]:
    """The dice tracks that do not show exactly one die, as put-back lines (a shopping trip waits for them)."""
    return [{"board": physical.MAIN, "slot": f"die.{track}", "recorded": [physical.DIE], "seen": [physical.DIE] * len(faces)}
            for track, faces in physical.dice_on_tracks(_seen(state, physical.MAIN)).items() if len(faces) != 1]


def _agrees(state: dict, seat: int, diet: dict | None = None) -> bool:
    """Whether the record now looks like what the camera has reported, on every board it read (``diet``:
    the slots to compare ``seat``'s diet board with instead of the record's)."""
    for board, wanted in ((f"diet-{seat}", diet), ("shop", None)):
        if _reported(state, board) and boards.disagreements(state, board, wanted):
            return False
    return not _main_markers_differ(state)


def _completed(before: dict, after: dict) -> dict[str, list[str]]:
    """The recipes and activities a player completed between their records ``before`` and ``after``, by kind."""
    return {kind: [c for c in after[f"{kind}_done"] if c not in before[f"{kind}_done"]] for kind in ("recipes", "activities")}


def food_on_card(state: dict, trial: dict, seat: int, body: dict) -> dict | None:
    """``seat``'s diet board after ``body`` as it lies while the food of the cards it completed is still on
    them, before it goes to the body (a recipe's) or the supply (an activity's); None: it completed none."""
    done = _completed(state["seats"][str(seat)], trial["seats"][str(seat)])
    if not done["recipes"] and not done["activities"]:
        return None
    p, board, placed = state["seats"][str(seat)], f"diet-{seat}", body.get("place") or []
    before, after = boards.implied(state, board), boards.implied(trial, board)
    on = {"recipes": [f for r in done["recipes"] for f in p["recipe_tokens"].get(r, []) if f]
          + [i["food"] for i in placed if i.get("recipe") in done["recipes"]],
          "activities": [f for a in done["activities"] for t in p["activity_tokens"].get(a, []) if t for f in t]
          + [i["food"] for i in placed if i.get("activity") in done["activities"] for _ in range(i.get("count", 1))]}
    view = {s: f for s, f in after.items() if not s.startswith(("onrecipe.", "onactivity."))
            and not (s.startswith("body.") and done["recipes"] and before.get(s) != f)}   # not yet in the body
    for kind, prefix in (("recipes", "onrecipe"), ("activities", "onactivity")):
        lying = sorted([f for s, f in after.items() if s.startswith(prefix + ".")] + on[kind])
        view.update({f"{prefix}.{n}": f for n, f in enumerate(lying, 1)})
    return view


Outcome = tuple[dict, dict, list[dict]]


def _outcomes(state: dict, seat: int) -> tuple[list[Outcome], list[Outcome]]:
    """The candidates after which the record agrees with the boards, one per distinct outcome; a
    further marker's as an extra action.  When none fits, the same with each ability the table may
    use by itself (an extra action, an occupied space: the camera cannot see those), so a card is
    used only when the move needs it.  Second, those that complete a card and agree with the boards
    while its food still lies on it (each body marked ``complete``)."""
    further = {"further": True} if _further(state, seat) else {}
    bodies = [{**body, **further} for body in candidates(state, seat)]
    found, full = _fitting(state, seat, bodies)
    if not found and not full:
        uses = abilities.table_usable(state, state["seats"][str(seat)])
        found, full = _fitting(state, seat, [{**body, "use": use} for use in uses for body in bodies])
    return found, full


def _fitting(state: dict, seat: int, bodies: list[dict]) -> tuple[list[Outcome], list[Outcome]]:
    """The ``bodies`` after which the record agrees with the boards, one per distinct outcome (where
    the camera does not read the diet board's action spaces, which of them a marker stands on makes
    no outcome of its own); and those that agree with the food of a card they complete still on it."""
    found, full, outcomes = [], [], set()
    blind = _diet_excess(state, seat) is None
    for body in bodies:
        trial = copy.deepcopy(state)
        try:
            events = play(trial, seat, body)
        except RuleError:
            continue
        shown = {k: v for k, v in trial.items() if k not in ("log", "last_move")}
        if blind:
            shown["seats"] = {s: {k: v for k, v in p.items() if k != "diet_markers"} for s, p in trial["seats"].items()}
        key = json.dumps(shown, sort_keys=True)
        if key in outcomes:
            continue
        if _agrees(trial, seat):
            outcomes.add(key)
            found.append((body, trial, events))
            continue
        lying = food_on_card(state, trial, seat, body)
        if lying is not None and _agrees(trial, seat, lying):
            outcomes.add(key)
            full.append(({**body, "complete": True}, trial, events))
    return found, full


def _acted(state: dict, seat: int) -> bool | None:
    """Whether the camera shows that ``seat`` has placed a marker (True), taken the Pizza To Go marker
    back to their board to skip the extra action (None), or neither yet (False)."""
    p = state["seats"][str(seat)]
    seen = _markers_seen(state, seat)
    if state["phase"] == "actions":
        return seen is not None and (seen < abilities.row_markers(p) or (
            _may_add(state, seat) and bool(_new_marker_spaces(state, seat)[0])))   # a further marker
    if seen is not None and seen > p["actions_left"]:
        return None
    on_pizza = sum(1 for s, t in _seen(state, physical.MAIN).items()
                   if s.startswith("action.pizza.") and t == physical.marker(seat))
    return _markers_read(state) and on_pizza == 0                   # the marker left Pizza To Go


def after_reading(state: dict) -> list[dict]:
    """Called after each camera reading in the physical mode: infer the active player's action
    (the Pizza To Go player's extra one too), or check the people's clean-up at the round's end; and
    see the food of a card completed by a tap moved off it."""
    return _food_moved(state) + _reading(state)


def _reading(state: dict) -> list[dict]:
    extended = _extend_move(state)
    if extended:
        return extended + _reading(state)
    if state["phase"] == "round_end":
        from .cleanup import after_reading as cleanup_reading
        return cleanup_reading(state)
    if state["phase"] not in ("actions", "pizza_extra") or state["pending"] is not None:
        return []
    asked = state.get("question")
    if asked:                     # the table changed while the question was open: ask again from what it shows
        state["question"] = None
        events = after_reading(state)
        if state["question"] and state["question"]["bodies"] == asked["bodies"]:
            return []             # the same question still stands
        return events
    seat = state["turn"]
    p = state["seats"][str(seat)]
    acted = _acted(state, seat)
    if acted is None:
        state["put_back"] = []
        return [event(state, "inferred", f"{p['name']} took the Pizza To Go marker back.")] + actions.take(
            state, seat, {"action": "skip"})
    if not acted:
        state["put_back"] = []
        return []
    if not _settled(state, seat):
        return _marker_unseen(state, seat)   # the marker is not seen where it went yet: say so, and wait
    state["marker_unseen"] = None
    spaces = _new_marker_spaces(state, seat)[0]
    if state.get("dining_unsure") and spaces & {"pizza", "buffet"}:
        state["put_back"] = []    # dining out before the table took its tokens: the TV asks about them first
        return []
    if state["options"]["dice"] != "camera" and shopping_dice(state, seat) is None and _trip_waits(state, seat):
        if state["options"]["dice"] == "physical":
            return _roll_wanted(state, seat)
        return _rolled(state, seat, actions.table_roll(state)) + _infer(state, seat, spaces)
    return _infer(state, seat, spaces)


def _mark(state: dict, seat: int) -> str:
    """What an action, a phase's change or a host's correction would change, with ``seat``'s boards as recorded."""
    return json.dumps([state["round"], state["phase"], state["turn"], state["pending"], state["spaces"],
                       {s: p["actions_left"] for s, p in state["seats"].items()},
                       boards.implied(state, f"diet-{seat}"), boards.implied(state, "shop")], sort_keys=True)


def _keep_move(state: dict, seat: int, body: dict, before: str) -> None:
    """Keep the action the table just applied by itself, with the record before it (``before``: as JSON, which
    each copy of the state copies for nothing; without the log, the card data and the boards), so a board
    read later can show the rest of the same action."""
    plain = not any(k in body for k in ("complete", "laid"))
    state["last_move"] = {"seat": seat, "body": body, "before": before, "mark": _mark(state, seat)} if plain else None


#: The parts of an action a board read later may show more of: purchases, placements, frozen, thawed and wild foods.
MORE = ("items", "place", "freeze", "thaw", "wild")


def _extends(old: dict, new: dict) -> bool:
    """Whether action ``new`` is ``old`` with more done in it: the same action, space, card and dice, and each
    of ``old``'s purchases, placements and frozen, thawed or wild foods among ``new``'s (an empty Recipes &
    Cook then a cook)."""
    if new == old or any(new.get(k) != old.get(k) for k in set(old) | set(new) if k not in MORE):
        return False

    def counted(body, key):
        return Counter(json.dumps(v, sort_keys=True) for v in body.get(key, []))
    return not any(counted(old, key) - counted(new, key) for key in MORE)


def _extend_move(state: dict) -> list[dict]:
    """A board read after the table applied an action by itself shows more of that same action (a special
    order's food in the kitchen after the freezer board showed the trip's other food, a second token on a
    recipe): while nothing has happened since, the action is worked out again from the record before it,
    as one action (rulebook: one marker, one action; nothing counted twice), when exactly one action of that
    kind, extending it, explains the boards now."""
    last = state.get("last_move")
    if not last:
        return []
    seat = last["seat"]
    if last["mark"] != _mark(state, seat):
        state["last_move"] = None                 # something happened since: the action stands as applied
        return []
    if not any(_reported(state, b) and boards.disagreements(state, b) for b in (f"diet-{seat}", "shop")):
        return []
    before = {**json.loads(last["before"]), "log": state["log"], "cards": state["cards"],
              "boards": copy.deepcopy(state["boards"])}
    found, _full = _outcomes(before, seat)
    found = [f for f in found if _extends(last["body"], f[0])]
    if len(found) != 1:
        return []
    body, trial, events = found[0]
    name = state["seats"][str(seat)]["name"]
    state.clear()
    state.update(trial)
    state["put_back"] = []
    state["last_move"] = {**last, "body": body, "mark": _mark(state, seat)}
    return [event(state, "inferred", f"The table sees more of {name}'s action: {_label(state, body)}, "
                  "taken as one action.")] + events


def _infer(state: dict, seat: int, spaces: set[str]) -> list[dict]:
    """The action ``seat``'s settled marker on ``spaces`` and the boards show: applied, asked or listed."""
    p = state["seats"][str(seat)]
    found, full = _outcomes(state, seat)
    if full:
        found = _with_full_cards(state, seat, found, full)
        if found is None:
            return _tap_wanted(state, seat, full)
    if len(found) > 1 and any(_bare(body) in ({"action": "cook"}, {"action": "workout"}) for body, _t, _e in found):
        # the last marker placed with nothing done: an empty Recipes & Cook (or Work Out), the same as a
        # pass that sets no marker aside (and the Pizza To Go holder keeps their extra action)
        found = [f for f in found if f[0]["action"] != "pass"]
    if len(found) == 1 and _nothing_seen_moved(state, seat, found[0]):
        body = found[0][0]
        state["put_back"] = []
        state["question"] = {"seat": seat, "options": [_label(state, body) + ", nothing taken"], "bodies": [body]}
        return [event(state, "question", f"{p['name']}: the table sees your marker moved but nothing on your "
                      "board yet; confirm on your phone, or finish the move.")]
    if len(found) == 1 and "laid" in found[0][0]:
        body = found[0][0]
        state["put_back"] = []
        state["question"] = {"seat": seat, "options": [_label(state, body)], "bodies": [body]}
        return [event(state, "question", f"{p['name']}: your body shows other food from "
                      f"{physical.dining_place(state, body)} than the camera read when it was laid out; confirm "
                      "what you ate on your phone, or put the tokens right.")]
    if len(found) == 1:
        body, trial, events = found[0]
        before = json.dumps({k: v for k, v in state.items() if k not in ("log", "cards", "boards", "last_move")})
        state.clear()
        state.update(trial)
        state["put_back"] = []
        _keep_move(state, seat, body, before)
        return [event(state, "inferred", f"The table saw {p['name']}'s action.")] + events + _await_food(state, seat, body, p)
    if not found and _further(state, seat) and not boards.disagreements(state, f"diet-{seat}"):
        return []                 # a marker seen on the main board, the diet board not read again yet
    if not found and "shop" in spaces and state["options"]["dice"] == "camera" and shopping_dice(state, seat) is None:
        state["put_back"] = _dice_missing(state)       # a shopping trip waits for its roll, nothing else is listed
        return [event(state, "put_back", f"{p['name']}: the camera does not see the dice on their tracks (one on the "
                      "row spaces, one on the column spaces); put them there.")]
    if not found:
        offered = _still_offered(state, seat)
        state["put_back"] = [{"board": b, **d} for b in (f"diet-{seat}", "shop")
                             for d in boards.disagreements(state, b)] + _main_markers_differ(state) + [
            {"board": "shop", "slot": f"shop.{space}", "recorded": boards.COVERED, "seen": None} for space in offered]
        if offered:
            foods = sorted({food_name(state, state["shopping"][space]) for space in offered})
            return [event(state, "put_back", f"{p['name']}: the kitchen holds {', '.join(foods)} that the shopping "
                          f"list still offers ({', '.join(offered)}), and the camera sees no shopping token there: "
                          "cover the space bought from (a special order is only for food the list no longer offers).")]
        return [event(state, "put_back", f"{p['name']}: the table shows no legal action; put back what the "
                      "TV lists, or the host acts for you.")]
    state["put_back"] = []                    # legal actions fit: nothing to put back
    state["question"] = {"seat": seat, "options": [_label(state, body) for body, _t, _e in found],
                         "bodies": [body for body, _t, _e in found]}
    return [event(state, "question", f"{p['name']}: which action was it? Answer on your phone.")]


def _with_full_cards(state: dict, seat: int, found: list[Outcome], full: list[Outcome]) -> list[Outcome] | None:
    """The outcomes to choose from when some complete a card whose food still lies on it (``full``): with a
    card tapped again this action, those that complete it; else, beside other actions that fit (``found``),
    all of them, for the player to say which; None: only such outcomes fit and no card was tapped (the table
    waits for the tap, or for the food to move off the card)."""
    tap = state.get("completing")
    if tap and tap["action"] == _action_now(state, seat):
        p = state["seats"][str(seat)]
        chosen = [f for f in full if tap["card"] in sum(_completed(p, f[1]["seats"][str(seat)]).values(), [])]
        if chosen:
            return chosen
    return found + full if found else None


#: Where a completed card's food goes (rulebook, Recipes & Cook and Activities & Work Out).
FOOD_GOES = {"recipes": "to the body", "activities": "back to the supply"}


def _full_names(state: dict, seat: int, full: list[Outcome]) -> dict[str, list[str]]:
    """The names of the cards the ``full`` outcomes complete, by kind."""
    p = state["seats"][str(seat)]
    out = {"recipes": set(), "activities": set()}
    for _body, trial, _events in full:
        for kind, cards in _completed(p, trial["seats"][str(seat)]).items():
            out[kind] |= {state["cards"][kind][c]["name"] for c in cards}
    return {k: sorted(v) for k, v in out.items() if v}


def _tap_wanted(state: dict, seat: int, full: list[Outcome]) -> list[dict]:
    """A card's food lies on it, complete, and nobody tapped it: nothing is decided and nothing listed; the
    TV says (once per action) to tap the card again, or move the food where it goes."""
    state["put_back"] = []
    words = "; ".join(f"{' or '.join(n)} is full: tap it again to complete it, or move its food {FOOD_GOES[k]}"
                      for k, n in _full_names(state, seat, full).items())
    return _once_per_action(state, seat, "tap_wanted", f"{state['seats'][str(seat)]['name']}: {words}.")


def _await_food(state: dict, seat: int, body: dict, before: dict) -> list[dict]:
    """A card completed while its food still lies on it (a ``complete`` body; ``before``: the player's record
    before): the table waits for the camera to see the food gone where it goes, listing it meanwhile."""
    if not body.get("complete"):
        return []
    done = _completed(before, state["seats"][str(seat)])
    names = {k: [state["cards"][k][c]["name"] for c in cards] for k, cards in done.items() if cards}
    words = "; ".join(f"move the food of {' and '.join(n)} {FOOD_GOES[k]}" for k, n in names.items())
    state["to_confirm"] = {"seat": seat, "cards": sorted(sum(names.values(), [])), "words": words}
    return [event(state, "food_on_card", f"{state['seats'][str(seat)]['name']}: {words}.")]


def food_to_move(state: dict) -> list[dict]:
    """While a card completed by a tap still has its food on it: the player's diet board slots to put right
    (lines like the put-back list's), else empty."""
    wait = state.get("to_confirm")
    if not wait:
        return []
    board = f"diet-{wait['seat']}"
    return [{"board": board, **d} for d in boards.disagreements(state, board)]


def _food_moved(state: dict) -> list[dict]:
    """The camera sees the food of the cards completed by a tap gone where it goes: the table says so."""
    wait = state.get("to_confirm")
    if not wait or food_to_move(state):
        return []
    state["to_confirm"] = None
    name = state["seats"][str(wait["seat"])]["name"]
    return [event(state, "food_moved", f"The camera sees the food of {' and '.join(wait['cards'])} moved off "
                  f"{name}'s card{'s' if len(wait['cards']) > 1 else ''}.")]


def complete_by_tap(state: dict, seat: int, kind: str, cid: str) -> list[dict] | None:
    """``seat``'s card ``cid`` (of ``kind``), taken, tapped again during their turn: when the camera sees more
    food on their cards of that kind than the record has, the player says the card is complete, and the
    table applies the action that completes it (rulebook, Recipes & Cook / Activities & Work Out: a card whose
    spaces are all filled is complete; its food goes to the body, an activity's to the supply).  None when
    no new food lies on their cards: the tap means what it did before (a card drawn this turn goes back)."""
    board = f"diet-{seat}"
    prefix = "onrecipe." if kind == "recipes" else "onactivity."
    if sum(_tokens(_seen(state, board), prefix).values()) <= sum(_tokens(boards.implied(state, board), prefix).values()):
        return None
    state["completing"] = {"card": cid, "action": _action_now(state, seat)}
    p, name = state["seats"][str(seat)], state["cards"][kind][cid]["name"]
    events = after_reading(state)
    done = cid in state["seats"][str(seat)][f"{kind}_done"]
    return [event(state, "completing", f"{p['name']} taps {name} again: " + (
        "complete." if done else "the table completes it once the camera sees its food on it."))] + events


def _still_offered(state: dict, seat: int) -> list[str]:
    """The open shopping list spaces offering a food the camera sees bought beyond the newly covered spaces' foods:
    a shopping token it does not see there, or a special order of a food the list still offers (refused).  Empty
    while the camera sees the player's marker on another space than shopping."""
    shop = next((c for c in candidates(state, seat) if c["action"] == "shop"), None)
    specials = {item["special"] for item in shop["items"] if "special" in item} if shop else set()
    return sorted(space for space, food in state["shopping"].items()
                  if food in specials and space not in state["covered"])


def _marker_unseen(state: dict, seat: int) -> list[dict]:
    """The camera sees a marker gone from ``seat``'s row but on no action space (one read unsure, or still in
    the player's hand), or on more spaces than left the row: the TV's headline says so (see
    :func:`waiting_for_marker`), announced once per action, while the table waits for the camera to see it."""
    return _once_per_action(state, seat, "marker_unseen", f"{state['seats'][str(seat)]['name']}: the table cannot "
                            "see where your marker went; set it squarely on one action space.")


def _once_per_action(state: dict, seat: int, kind: str, text: str) -> list[dict]:
    """The event ``kind`` saying ``text``, once per action of ``seat`` (``state[kind]`` keeps which action)."""
    now = _action_now(state, seat)
    if state.get(kind) == now:
        return []
    state[kind] = now
    return [event(state, kind, text)]


def _action_now(state: dict, seat: int) -> dict:
    """Which action of the game ``seat``'s is: its round, phase and the player's actions left."""
    return {"seat": seat, "round": state["round"], "phase": state["phase"],
            "actions_left": state["seats"][str(seat)]["actions_left"]}


def waiting_for_marker(state: dict) -> str | None:
    """The name of the player whose marker the camera has not seen land, for the action now open (None)."""
    seat = state["turn"]
    if seat is None or state.get("marker_unseen") != _action_now(state, seat):
        return None
    return state["seats"][str(seat)]["name"]


def _nothing_seen_moved(state: dict, seat: int, outcome: tuple) -> bool:
    """Whether ``outcome`` is the Pizza To Go extra action on a main board space that moved nothing
    onto the player's diet board, or a shopping trip that bought nothing.  The camera sees that extra
    action on the main board first, and the diet board, where its food goes, may simply not be read
    again yet; the dice are known (read, entered or rolled by the table) before the shopper moves a
    token: such an action is not taken as done with nothing until the player says so."""
    body, trial, _events = outcome
    board = f"diet-{seat}"
    if body["action"] == "shop" and not body["items"]:
        return True
    return ((state["phase"] == "pizza_extra" or body.get("further")) and body["action"] in physical.MAIN_SPACES
            and boards.implied(trial, board) == boards.implied(state, board))


def accept_move(state: dict) -> list[dict]:
    """The host accepts the table as the camera shows it as the active player's move, though no legal
    action explains it (the group insists: a house rule, a card the table does not know).  Each board
    listed to put back takes the camera's view (the tokens on cards aside: the record cannot tell which
    card they lie on), the dining-out tokens are the ones the main board shows, the marker counts as
    placed on the one new space the camera sees it on, and the turn moves on.  Nothing is checked
    against the rules: the receipt scores the boards as they lie."""
    seat, listed = state["turn"], state["put_back"]
    if state["phase"] not in ("actions", "pizza_extra") or state["pending"] is not None or not listed:
        raise RuleError("not_now", "The table lists nothing to put back: there is no move to accept.")
    spaces = _new_marker_spaces(state, seat)[0]
    if len(spaces) != 1:
        raise RuleError("unavailable", "The camera sees " + (f"new markers on {', '.join(sorted(spaces))}" if spaces
                        else "no marker placed") + ": put the marker on the space used, then accept.")
    space = spaces.pop()
    if space == "pizza" and state["spaces"]["pizza"] not in (None, seat):
        raise RuleError("unavailable", "Pizza To Go holds one player's marker: it cannot be accepted there twice; "
                        "the host acts for the player instead.")
    p = state["seats"][str(seat)]
    for board in sorted({d["board"] for d in listed} - {physical.MAIN}):
        if boards.disagreements(state, board):
            boards.take_view(state, board)
    if _reported(state, physical.MAIN):
        state["pizza"], state["buffet"] = physical.dining_seen(state, _seen(state, physical.MAIN))
    if _further(state, seat):                 # a further marker: the row of unused markers stays as it lies
        if p.get("extra_actions"):
            p["extra_actions"] -= 1           # the extra action an ability granted
        else:
            p["actions_left"] += 1            # one the group allows beyond the rules
    actions.leave_pizza(state)
    _spend_marker(state, seat, p, space)
    state["put_back"], state["question"], state["laying_out"] = [], None, False
    events = [event(state, "accepted", f"The host accepted the table as {p['name']}'s move on {space}, as the "
                    f"camera sees it ({len(listed)} difference(s) from the rules' moves).")]
    if state["phase"] == "pizza_extra":
        p["pizza"] = False
        return events + rounds.round_over(state)
    p["actions_left"] -= 1
    return events + rounds.next_turn(state, seat)


def _spend_marker(state: dict, seat: int, p: dict, space: str) -> None:
    """Record ``seat``'s marker on ``space`` (a taken space too: the host accepted it there)."""
    spaces = state["spaces"]
    if space in rules.DIET_SPACES:
        actions._on_diet_board(p, space)
        p["snacks"] += space == "snack"
    elif space == "market":
        p["market_visits"] += 1
    elif space == "pizza":
        spaces["pizza"], p["pizza"] = seat, True
    elif space == "buffet" and None in spaces["buffet"]:
        spaces["buffet"][spaces["buffet"].index(None)] = seat
    else:                                                  # a shopping space, or a buffet space already taken
        spaces[space].append(seat)


def answer(state: dict, seat: int, body: dict) -> list[dict]:
    """The active player's one tap answering the table's question."""
    q = state.get("question")
    if not q or q["seat"] != seat:
        raise RuleError("not_now", "The table has no question for you now.")
    choice = body.get("choice")
    if not isinstance(choice, int) or isinstance(choice, bool) or not 1 <= choice <= len(q["bodies"]):
        raise RuleError("bad_argument", f"Answer with a choice from 1 to {len(q['bodies'])}.")
    state["question"] = None
    body = q["bodies"][choice - 1]
    p = state["seats"][str(seat)]
    before = {f"{kind}_done": list(p[f"{kind}_done"]) for kind in ("recipes", "activities")}   # what _completed reads
    return play(state, seat, body) + _await_food(state, seat, body, before)


def _label(state: dict, body: dict) -> str:
    """The answer's words for a candidate: the action, and the ability the table would use for it."""
    text = _action_label(state, body)
    if "use" in body:
        use = body["use"]
        cards = state["cards"]
        text += " (using " + (cards["recipes"][use["recipe"]]["name"] if "recipe" in use else
                              f"{cards['assistants'][use['assistant']]['name']}, option {use['option']}") + ")"
    if "laid" in body:
        text += " (it held " + ", ".join(food_name(state, f) for f in body["laid"]) + ")"
    return text + (", an extra action" if body.get("further") else "") + (", completing it" if body.get("complete") else "")


def _action_label(state: dict, body: dict) -> str:
    a = body["action"]
    if a == "buffet":
        return f"Chinese Buffet, row {body['row']}"
    if a == "snack":
        return f"Snack: {food_name(state, body['food'])}"
    if a == "market":
        return f"Farmers market: {state['cards']['market'][body['card']]['name']}"
    if a == "workout" and body.get("place"):
        return "Work out: " + ", ".join(f"{food_name(state, i['food'])} on "
                                        f"{state['cards']['activities'][i['activity']]['name']}" for i in body["place"])
    if a == "cook" and body.get("place"):
        return "Cook: " + ", ".join(f"{food_name(state, i['food'])} on {state['cards']['recipes'][i['recipe']]['name']}"
                                    for i in body["place"])
    if a == "shop" and body["dice"][0] == body["dice"][1]:
        return f"Grocery shopping, a double {body['dice'][0]}"
    return {"pizza": "Pizza To Go", "shop": "Grocery shopping", "cook": "Recipes & Cook, nothing cooked",
            "workout": "Activities & Work Out, no work out",
            "pass": "Pass for the rest of the round"}[a]
