"""The actions a player takes with an action marker, and the free ones (ability, tile choice).

Each handler checks the rules, changes the state and returns its events;
:func:`take` is the entry point for a seat's action (from the phone or from
the host acting for that seat).
"""
from __future__ import annotations

from ..base import RuleError, event, player, rng
from . import abilities, physical, placement, rounds, rules, tokens
from .data import WILD, WILD_ONE_OR_TWO, WILD_PAIR
from .tokens import check_food, food_name

#: Actions that place an action marker (each on the space of the same name; pass on any open one).
MARKER_ACTIONS = ("shop", "market", "pizza", "buffet", "snack", "cook", "workout", "pass")
#: Spaces a passing player may put their marker on.
SPACES = ("shop", "market", "pizza", "buffet", "snack", "cook", "workout")


def _p(state, seat):
    return rounds.seat_record(state, seat)


def _name(state, seat):
    return _p(state, seat)["name"]


def _ints(value, what):
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RuleError("bad_argument", f"{what} must be a list of whole numbers.")
    return value


def _list(body, key, limit, what, of=None):
    """``body[key]`` as a list of at most ``limit`` entries (each of type ``of`` when given)."""
    value = body.get(key, [])
    if not isinstance(value, list) or (of is not None and not all(isinstance(v, of) for v in value)):
        raise RuleError("bad_argument", f"{key} must be a list ({what}).")
    if len(value) > limit:
        raise RuleError("bad_argument", f"At most {limit} {what} in one action.")
    return value


# ----------------------------------------------------------------------------- availability
def space_open(state: dict, seat: int, space: str, spend: bool = False) -> str | None:
    """Why ``seat`` may not put a marker on ``space`` now (None when it may).  An ability or the
    host's allowance may lift a limit or let the player use an occupied space; ``spend`` uses
    that up (when the marker really goes down)."""
    n = len(state["players"])
    p = _p(state, seat)
    spaces = state["spaces"]

    def counted(name, done, message):
        try:
            abilities.over_limit(p, name, done + 1, message, spend=spend)
        except RuleError as refusal:
            return refusal.message
        return None
    if space == "shop":
        if len(spaces["shop"]) >= rules.shop_spaces(n) and not abilities.relaxed(p, "occupied_space", spend):
            return f"All {rules.shop_spaces(n)} grocery shopping spaces are taken this round."
    elif space == "market":
        return counted("market_visits", p["market_visits"], "You have visited the farmers market "
                       f"{abilities.limit(p, 'market_visits')} times this round already.")
    elif space == "pizza":
        if n == 1:
            return "There is no dining out in the solo game."
        if spaces["pizza"] is not None and not abilities.relaxed(p, "occupied_space", spend):
            return f"{_name(state, spaces['pizza'])} has already dined at Pizza To Go this round."
    elif space == "buffet":
        if n == 1:
            return "There is no dining out in the solo game."
        if None not in spaces["buffet"] and not abilities.relaxed(p, "occupied_space", spend):
            return ("The Chinese Buffet space is taken this round" + (" (its 3+ space needs 3 or more players)."
                    if n < 3 else " (both spaces)."))
    elif space == "snack":
        return counted("snacks", p["snacks"], "You have already snacked this round "
                       f"({abilities.limit(p, 'snacks')} a round).")
    elif space not in ("cook", "workout"):
        return f"There is no action space {space!r}; spaces are {', '.join(SPACES)}."
    return None


def available(state: dict, seat: int) -> dict:
    """Each action space: None when ``seat`` may use it now, else why not (for the seat page)."""
    return {s: _serves_other(state, seat, s) or space_open(state, seat, s) for s in SPACES}


def _serves_other(state: dict, seat: int, action: str) -> str | None:
    """Why ``action`` may not follow the ``during:<action>`` ability ``seat`` used this turn (None: it may)."""
    served = abilities.serves(_p(state, seat))
    if served is None or served == action:
        return None
    return (f"You used an ability for a {abilities.action_words(served)} this turn: take that action "
            "(or undo the ability).")


def _check_turn(state: dict, seat: int, action: str) -> dict:
    p = _p(state, seat)
    phase = state["phase"]
    if phase == "assistants":
        raise RuleError("not_now", "Everyone picks an assistant before actions begin.")
    if phase == "cleanup":
        raise RuleError("not_now", "The round is being cleaned up; the host continues when the table is ready.")
    if phase not in ("actions", "pizza_extra"):
        raise RuleError("not_now", "No actions are taken now.")
    if state["pending"] is not None:
        pend = state["pending"]
        if pend["seat"] != seat:
            raise RuleError("not_your_turn", f"{_name(state, pend['seat'])} is still shopping.")
        raise RuleError("waiting", "Finish your shopping first: choose what to buy (or buy nothing).")
    if state["turn"] != seat:
        raise RuleError("not_your_turn", f"It is {_name(state, state['turn'])}'s turn, not yours.")
    if phase == "pizza_extra" and action == "pass":
        raise RuleError("breaks_rule", "To give up the extra Pizza To Go action, skip it.")
    if p["passed"]:
        raise RuleError("already_done", "You passed: no more actions for you this round.")
    return p


# ----------------------------------------------------------------------------- shopping
def shop(state, seat, p, body):
    camera = state["options"]["dice"] == "camera"
    if "dice" in body and camera:
        raise RuleError("option_off", "The camera reads the dice in this game: roll them and put them on "
                        "their spaces beside the shopping list.")
    if camera:
        state["spaces"]["shop"].append(seat)
        state["dice"], state["pending"] = None, {"action": "dice", "seat": seat}
        if state["phase"] == "actions":
            p["actions_left"] -= 1
        return [event(state, "shop", f"{p['name']} goes shopping: roll the dice and put them on their spaces.")]
    if "dice" in body:
        dice, how = entered_dice(body["dice"]), "entered"
    elif state["options"]["dice"] == "digital":
        dice, how = table_roll(state), "rolled"
    else:
        raise RuleError("bad_argument", "Roll the two dice and enter them: {\"dice\": [a, b]}.")
    return start_shopping(state, seat, p, dice, how)


def entered_dice(value) -> list[int]:
    """The two dice a player rolled by hand and entered (dice: physical), checked: each a die's face."""
    dice = _ints(value, "dice")
    if len(dice) != 2 or not all(1 <= d <= rules.DIE_FACES for d in dice):
        raise RuleError("bad_argument", f"Enter the two dice you rolled, each 1 to {rules.DIE_FACES}.")
    return dice


def table_roll(state: dict) -> list[int]:
    """The table rolls the two dice (dice: digital)."""
    r = rng(state)
    return [r.randint(1, rules.DIE_FACES), r.randint(1, rules.DIE_FACES)]


def leave_pizza(state: dict) -> None:
    """The Pizza To Go extra action: the marker moves from Pizza To Go to the space now used."""
    if state["phase"] == "pizza_extra":
        state["spaces"]["pizza"] = None


def start_shopping(state: dict, seat: int, p: dict, dice: list[int], how: str | None) -> list[dict]:
    """A marker on a shopping space with the dice known: the player buys next (``how`` the dice became
    known, for the TV; None: the roll was announced when it came)."""
    leave_pizza(state)
    state["spaces"]["shop"].append(seat)
    state["dice"] = dice
    state["pending"] = {"action": "buy", "seat": seat}
    if state["phase"] == "actions":
        p["actions_left"] -= 1
    return [] if how is None else [dice_event(state, p["name"], how, dice)]


def dice_event(state: dict, name: str, how: str, dice: list[int]) -> dict:
    """The TV's line for a shopping trip's roll (``how``: entered, rolled, read by the camera ...)."""
    return event(state, "dice", f"{name} goes shopping: dice {how}, {dice[0]} and {dice[1]}.", dice=list(dice))


def price(state: dict, space: str) -> int:
    """Price of a shopping list space under the current dice (on sale in a die's row or column),
    or lower where an ability of the shopper's sets it."""
    row, col = (int(x) for x in space.split("."))
    base = rules.PRICE_ON_SALE if row in state["dice"] or col in state["dice"] else rules.PRICE_REGULAR
    shopper = state["pending"]["seat"] if state["pending"] else None
    return abilities.price_of(_p(state, shopper), space, state["shopping"][space], base) if shopper else base


def buy(state, seat, body):
    pend = state["pending"]
    if pend is None or pend["action"] not in ("buy", "dice"):
        raise RuleError("not_now", "Buying comes after placing a marker on a shopping space and rolling.")
    if pend["seat"] != seat:
        raise RuleError("not_your_turn", f"{_name(state, pend['seat'])} is shopping, not you.")
    if pend["action"] == "dice":
        raise RuleError("waiting", "Roll the dice and put them on their spaces first: the camera reads them.")
    p = _p(state, seat)
    items = body.get("items", [])
    if not isinstance(items, list):
        raise RuleError("bad_argument", "items must be a list of {\"space\": \"row.col\"} or {\"special\": food}.")
    total, foods, spaces, lines = 0, [], [], []
    for item in items:
        if isinstance(item, dict) and "space" in item:
            space = item["space"]
            if not isinstance(space, str) or space not in state["shopping"]:
                raise RuleError("bad_argument", f"The shopping list has no space {space!r} (use \"row.col\").")
            if space in state["covered"] or space in spaces:
                raise RuleError("unavailable", f"Shopping space {space} "
                                f"({food_name(state, state['shopping'][space])}) is not available this round.")
            cost = price(state, space)
            spaces.append(space)
            foods.append(state["shopping"][space])
            lines.append(f"{food_name(state, foods[-1])} ${cost}")
        elif isinstance(item, dict) and "special" in item:
            food = check_food(state, item["special"], "special order")
            still = [s for s, f in state["shopping"].items() if f == food and s not in state["covered"]
                     and s not in spaces]
            if still:
                raise RuleError("breaks_rule", f"{food_name(state, food)} is still on the shopping list "
                                f"(space {still[0]}); special orders are for food that is not.")
            cost = rules.PRICE_SPECIAL_ORDER
            foods.append(food)
            lines.append(f"{food_name(state, food)} ${cost} (special order)")
        else:
            raise RuleError("bad_argument", "Each item is {\"space\": \"row.col\"} or {\"special\": food}.")
        total += cost
    budget = abilities.limit(p, "shop_budget")
    abilities.over_limit(p, "shop_budget", total, f"That costs ${total}; you may spend at most ${budget}.",
                         "breaks_rule")
    tokens.acquire_to_kitchen(state, p, foods, _list(body, "freeze", 99, "tokens to freeze", str))
    for s in spaces:
        state["covered"][s] = "shopping"
    state["pending"] = None
    events = [event(state, "bought", f"{p['name']} buys " + (", ".join(lines) if lines else "nothing")
                    + f" (${total} of ${budget}).")]
    if state["phase"] == "pizza_extra":
        p["pizza"] = False
        return events + rounds.round_over(state)
    return events + rounds.next_turn(state, seat)


# ----------------------------------------------------------------------------- market and dining out
def market(state, seat, p, body):
    card = body.get("card")
    if card not in state["market_up"]:
        up = ", ".join(f"{c} ({state['cards']['market'][c]['name']})" for c in state["market_up"]) or "none"
        raise RuleError("unavailable", f"Stand {card!r} is not open this round; open stands: {up}.")
    c = state["cards"]["market"][card]
    wild = _list(body, "wild", 99, "wild choices", str)
    n_wild = c["foods"].count(WILD)
    if len(wild) != n_wild:
        raise RuleError("bad_argument", f"{c['name']} has {n_wild} wild food{'s' if n_wild != 1 else ''}: "
                        f"name {'them' if n_wild != 1 else 'it'} in \"wild\".")
    foods = [f for f in c["foods"] if f != WILD] + [check_food(state, f, "wild space") for f in wild]
    p["market_visits"] += 1
    if c["to"] == "body":
        where = [tokens.to_body(state, p, f) for f in foods]
        text = ", ".join(f"{food_name(state, f)} to {w}" for f, w in zip(foods, where))
    else:
        tokens.acquire_to_kitchen(state, p, foods, _list(body, "freeze", 99, "tokens to freeze", str))
        text = ", ".join(food_name(state, f) for f in foods) + " to the kitchen"
    return [event(state, "market", f"{p['name']} visits {c['stand_name']}: {c['name']} ({text}).")]


def pizza(state, seat, p, body):
    physical.check_dining_settled(state)
    foods, state["pizza"] = state["pizza"], []
    if _on_pizza(state, seat):
        p["pizza"] = True
    where = [tokens.to_body(state, p, f) for f in foods]
    return [event(state, "pizza", f"{p['name']} dines at Pizza To Go: "
                  + ", ".join(f"{food_name(state, f)} to {w}" for f, w in zip(foods, where)) + ".")]


def _on_pizza(state: dict, seat: int) -> bool:
    """``seat``'s marker goes on Pizza To Go: True when it holds the space (and so its extra action);
    False beside another player's, through an ability (that player keeps the space)."""
    spaces = state["spaces"]
    if spaces["pizza"] is None:
        spaces["pizza"] = seat
        return True
    spaces.setdefault("pizza_beside", []).append(seat)
    return False


def buffet(state, seat, p, body):
    physical.check_dining_settled(state)
    row = body.get("row")
    rows = state["buffet"]
    if not isinstance(row, int) or isinstance(row, bool) or not 1 <= row <= len(rows):
        raise RuleError("bad_argument", f"Choose a buffet row from 1 to {len(rows)}.")
    if not rows[row - 1]:
        raise RuleError("unavailable", f"Buffet row {row} is empty; take another row.")
    foods, rows[row - 1] = rows[row - 1], []
    _on_buffet(state, seat)
    where = [tokens.to_body(state, p, f) for f in foods]
    return [event(state, "buffet", f"{p['name']} dines at the Chinese Buffet (row {row}): "
                  + ", ".join(f"{food_name(state, f)} to {w}" for f, w in zip(foods, where)) + ".")]


def _on_buffet(state: dict, seat: int) -> None:
    """``seat``'s marker goes on the first open Chinese Buffet space (or beside a taken one, through an
    ability or the host's allowance)."""
    spaces = state["spaces"]["buffet"]
    if None in spaces:
        spaces[spaces.index(None)] = seat
    else:
        spaces.append(seat)


# ----------------------------------------------------------------------------- personal spaces
def snack(state, seat, p, body):
    food = check_food(state, body.get("food"), "snack")
    if food in tokens.forbidden(state, p):
        raise RuleError("breaks_rule", f"You are allergic to {food_name(state, food)}: it may never go in your body.")
    if body.get("from", "kitchen") == "thaw":           # the thaw area counts as kitchen (Freezer module)
        tokens.take_from_thaw(state, p, food)
    else:
        tokens.take_from_kitchen(state, p, food, body.get("column"))
    where = tokens.to_body(state, p, food)
    p["snacks"] += 1
    return [event(state, "snack", f"{p['name']} snacks on {food_name(state, food)} ({where}).")]


def visible_recipes(state: dict) -> list[str]:
    """The four face-up recipes: the top card of each pile and the card in the space below it."""
    return [r for pile in state["recipe_piles"] for r in pile[:rules.RECIPES_SHOWN_PER_PILE]]


def _recipe_spaces(state, p, place: list, placed: list) -> list[int]:
    """The 0-based recipe space each placement fills: one valid assignment per recipe, whatever
    the order the tokens are listed in (a refusal when none exists)."""
    out: list[int] = [0] * len(place)
    for rid in dict.fromkeys(r for r, _ in placed):
        mine = [i for i, (r, _) in enumerate(placed) if r == rid]
        card = state["cards"]["recipes"][rid]
        chosen = []
        for i in mine:
            space = place[i].get("space")
            if space is not None and (not isinstance(space, int) or isinstance(space, bool)):
                raise RuleError("unavailable", f"A recipe space is a number from 1 to {len(card['needs'])}.")
            chosen.append(None if space is None else space - 1)
        foods = [placement.ANY if place[i].get("wild") else placed[i][1] for i in mine]
        spaces, as_wild = placement.assign_with_wild(card["needs"], p["recipe_tokens"][rid], foods, chosen,
                                                     p["turn_effects"]["wild_tokens"])
        if spaces is None:
            raise RuleError("unavailable", f"{card['name']} has no empty spaces for "
                            + " and ".join(food_name(state, placed[i][1]) for i in mine) + " (it needs "
                            + ", ".join(card["needs"]) + ").")
        abilities.take_wild(p, as_wild)        # tokens that fit only as wild use this turn's wild tokens
        for i, space in zip(mine, spaces):
            out[i] = space
    return out


def _placement(state, p, item, kind: str, kinds: str) -> tuple[str, str]:
    """The card id and food of one placement ``{kind: id, "food": food}`` on one of ``p``'s
    incomplete ``kinds`` (recipes or activities); a refusal if it is not that."""
    if not isinstance(item, dict):
        raise RuleError("bad_argument", f"Each placement is {{\"{kind}\": id, \"food\": food}}.")
    card_id, food = item.get(kind), check_food(state, item.get("food"), kind)
    if card_id not in p[kinds]:
        raise RuleError("unavailable", f"{card_id!r} is not one of your incomplete {kinds}.")
    return card_id, food


def cook(state, seat, p, body):
    most, taken = abilities.limit(p, "tokens_per_cook"), abilities.limit(p, "recipes_taken")
    take = _list(body, "take", abilities.MOST, "recipes taken", str)
    place = _list(body, "place", abilities.MOST, "tokens moved onto recipes")
    thaw = _list(body, "thaw", rules.THAWS_PER_COOK, "tokens thawed", str)
    abilities.over_limit(p, "tokens_per_cook", len(place) + len(thaw),
                         f"A cook moves at most {most} tokens (thawing counts).")
    events = []
    take = physical.take_drawn(state, seat, "cook", "recipes", take)
    abilities.over_limit(p, "recipes_taken", len(take), f"At most {taken} recipes taken in one action.")
    shown = physical.takeable(state, "recipes") if physical.physical_draws(state) else visible_recipes(state)
    if len(set(take)) != len(take):
        raise RuleError("bad_argument", "Name each recipe once.")
    for rid in take:
        if rid not in shown:
            raise RuleError("unavailable", f"Recipe {rid!r} is not face-up in the Recipe Book; "
                            f"face-up: {', '.join(shown) or 'none'}.")
    for rid in take:
        for pile in state["recipe_piles"]:
            if rid in pile:
                pile.remove(rid)
        p["recipes"].append(rid)
        p["recipe_tokens"][rid] = [None] * len(state["cards"]["recipes"][rid]["needs"])
    if take:
        events.append(event(state, "recipes", f"{p['name']} takes "
                            + ", ".join(state["cards"]["recipes"][r]["name"] for r in take) + "."))
    if thaw and not state["options"]["freezer"]:
        raise RuleError("option_off", "The Freezer module is not in this game.")
    for food in thaw:
        if food not in p["freezer"]:
            raise RuleError("unavailable", f"There is no {food_name(state, food)} in your freezer.")
        if len(p["thaw"]) >= rules.THAW_SPACES:
            raise RuleError("unavailable", f"Your thaw area holds at most {rules.THAW_SPACES} tokens.")
        p["freezer"].remove(food)
        p["thaw"].append(food)
    placed = [_placement(state, p, item, "recipe", "recipes") for item in place]
    abilities.take_wild(p, sum(1 for item in place if item.get("wild")))
    spaces = _recipe_spaces(state, p, place, placed)
    for item, (rid, food), space in zip(place, placed, spaces):
        if item.get("from", "kitchen") == "thaw":
            tokens.take_from_thaw(state, p, food)
        else:
            tokens.take_from_kitchen(state, p, food, item.get("column"))
        p["recipe_tokens"][rid][space] = food
    for rid in list(p["recipes"]):
        if all(t is not None for t in p["recipe_tokens"][rid]):
            events.extend(_complete_recipe(state, p, rid))
    if place or thaw:
        events.append(event(state, "cook", f"{p['name']} cooks ({len(place)} token{'s' if len(place) != 1 else ''}"
                            + (f", {len(thaw)} thawed" if thaw else "") + ")."))
    return events


def _complete_recipe(state, p, rid):
    r = state["cards"]["recipes"][rid]
    foods = p["recipe_tokens"].pop(rid)
    p["recipes"].remove(rid)
    p["recipes_done"].append(rid)
    player(state, p["seat"])["score"] += r["vp"]
    where = [tokens.to_body(state, p, f) for f in foods]
    return [event(state, "recipe_done", f"{p['name']} completes {r['name']}: +{r['vp']} VP; eaten: "
                  + ", ".join(f"{food_name(state, f)} to {w}" for f, w in zip(foods, where)) + ".")
            ] + abilities.on_complete(state, p, rid)


def _activity_icons(need_list: list[str]) -> set:
    return {f for n in need_list if n not in (WILD, WILD_PAIR, WILD_ONE_OR_TWO) for f in n.split("|")}


def workout(state, seat, p, body):
    most, taken = abilities.limit(p, "tokens_per_workout"), abilities.limit(p, "activities_taken")
    take = _list(body, "take", abilities.MOST, "activities taken", str)
    place = _list(body, "place", abilities.MOST, "placements")
    events = []
    take = physical.take_drawn(state, seat, "workout", "activities", take)
    abilities.over_limit(p, "activities_taken", len(take), f"At most {taken} activities taken in one action.")
    shown = physical.takeable(state, "activities") if physical.physical_draws(state) else state["planner"]
    if len(set(take)) != len(take):
        raise RuleError("bad_argument", "Name each activity once.")
    for aid in take:
        if aid not in shown:
            raise RuleError("unavailable", f"Activity {aid!r} is not face-up in the Daily Planner; "
                            f"face-up: {', '.join(state['planner']) or 'none'}.")
    for aid in take:
        if aid in state["planner"]:
            state["planner"].remove(aid)
        p["activities"].append(aid)
        p["activity_tokens"][aid] = [None] * len(state["cards"]["activities"][aid]["needs"])
    if take:
        events.append(event(state, "activities", f"{p['name']} takes "
                            + ", ".join(state["cards"]["activities"][a]["name"] for a in take) + "."))
    used = 0
    for item in place:
        aid, food = _placement(state, p, item, "activity", "activities")
        card = state["cards"]["activities"][aid]
        needs, got = card["needs"], p["activity_tokens"][aid]
        count = item.get("count")
        present = {f for t in got if t for f in t}
        icons = _activity_icons(needs)

        def accepts(i):
            n = needs[i]
            if got[i] is not None:
                return False
            if n in (WILD, WILD_PAIR, WILD_ONE_OR_TWO):
                return (food not in icons and food not in present) or abilities.relaxed(p, "wild_unique", False)
            return food in n.split("|")
        space = item.get("space")
        if space is None:
            plain = [i for i, n in enumerate(needs) if n not in (WILD, WILD_PAIR, WILD_ONE_OR_TWO) and accepts(i)]
            wild = [i for i, n in enumerate(needs) if n in (WILD, WILD_PAIR, WILD_ONE_OR_TWO) and accepts(i)]
            space = (plain + wild)[0] + 1 if plain + wild else None
        if space is None or not isinstance(space, int) or not 1 <= space <= len(needs) or not accepts(space - 1):
            why = (f"{food_name(state, food)} is already on {card['name']} or shown on it"
                   if food in present or food in icons else f"no empty space of {card['name']} takes "
                   f"{food_name(state, food)}")
            raise RuleError("unavailable", f"Cannot work out with that: {why} (wild spaces need a food "
                            "that is neither shown on the card nor already on it).")
        need = needs[space - 1]
        if need == WILD_PAIR:
            if count not in (None, 2):
                raise RuleError("bad_argument", "This double wild space takes exactly 2 tokens of one type, at once.")
            count = 2
        elif need == WILD_ONE_OR_TWO:
            count = 1 if count is None else count
            if count not in (1, 2):
                raise RuleError("bad_argument", "This space takes 1 or 2 tokens of one type, at once.")
        else:
            if count not in (None, 1):
                raise RuleError("bad_argument", "This space takes one token.")
            count = 1
        used += count
        if needs[space - 1] in (WILD, WILD_PAIR, WILD_ONE_OR_TWO) and (food in icons or food in present):
            abilities.relaxed(p, "wild_unique", True)       # the relaxation (or the host's allowance) is used
        abilities.over_limit(p, "tokens_per_workout", used, f"A work out moves at most {most} tokens from your body.")
        position = item.get("position")          # which body space the token leaves (default: the last)
        if position is not None and count != 1:
            raise RuleError("bad_argument", "Name a body \"position\" only for a single token.")
        got[space - 1] = [tokens.take_from_body(state, p, food, item.get("group"), position) for _ in range(count)]
    for aid in list(p["activities"]):
        if all(t is not None for t in p["activity_tokens"][aid]):
            a = state["cards"]["activities"][aid]
            p["activity_tokens"].pop(aid)
            p["activities"].remove(aid)
            p["activities_done"].append(aid)
            player(state, p["seat"])["score"] += a["vp"]
            events.append(event(state, "activity_done", f"{p['name']} completes {a['name']}: +{a['vp']} VP "
                                f"(icon {a['icon']})."))
    if place:
        events.append(event(state, "workout", f"{p['name']} works out ({used} token{'s' if used != 1 else ''})."))
    return events


def _refill_planner(state):
    while len(state["planner"]) < rules.DAILY_PLANNER_SIZE and state["activity_deck"]:
        state["planner"].append(state["activity_deck"].pop(0))


def _on_diet_board(p: dict, space: str) -> None:
    """The marker lies on ``space`` of the player's own diet board (the camera sees it there)."""
    p.setdefault("diet_markers", rules.no_diet_markers())[space] += 1


def pass_turn(state, seat, p, body):
    space = body.get("space", "cook")
    why = space_open(state, seat, space)
    if why:
        raise RuleError("unavailable", why)
    if space == "shop":
        state["spaces"]["shop"].append(seat)
    elif space == "pizza":
        _on_pizza(state, seat)
    elif space == "buffet":
        _on_buffet(state, seat)
    elif space in rules.DIET_SPACES:
        _on_diet_board(p, space)
    p["passed"] = True
    p["actions_left"] = 0
    return [event(state, "pass", f"{p['name']} passes for the rest of the round.")]


HANDLERS = {"shop": shop, "market": market, "pizza": pizza, "buffet": buffet, "snack": snack,
            "cook": cook, "workout": workout, "pass": pass_turn}


def take(state: dict, seat: int, body: dict) -> list[dict]:
    """Apply one of ``seat``'s actions (``body["action"]``) and move the game on."""
    action = body["action"]
    if action == "assistant":
        return rounds.choose_assistant(state, seat, body)
    if action == "buy":
        return buy(state, seat, body)
    if action == "use_ability":
        return use_ability(state, seat, body)
    if action == "tile_first":
        return tile_first(state, seat, body)
    if action == "skip":
        if state["phase"] != "pizza_extra" or state["turn"] != seat or state["pending"]:
            raise RuleError("not_now", "Only the Pizza To Go player skips, at the end of the round.")
        if _serves_other(state, seat, action):
            raise RuleError("wrong_action", _serves_other(state, seat, action))
        physical.check_nothing_drawn(state, seat, action)
        _p(state, seat)["pizza"] = False
        return [event(state, "skip", f"{_name(state, seat)} skips the extra action.")] + rounds.round_over(state)
    if action not in HANDLERS:
        raise RuleError("unknown_move", f"There is no action {action!r}; actions are "
                        f"{', '.join(MARKER_ACTIONS)}, buy, assistant, use_ability, tile_first, skip.")
    p = _check_turn(state, seat, action)
    physical.check_nothing_drawn(state, seat, action)
    why = _serves_other(state, seat, action)
    if why:
        raise RuleError("wrong_action", why)
    state["laying_out"] = False               # dining out is laid out once a round's first action is taken
    if action != "pass":
        why = space_open(state, seat, action, spend=True)
        if why:
            raise RuleError("unavailable", why)
    leave_pizza(state)
    events = HANDLERS[action](state, seat, p, body)
    if action in rules.DIET_SPACES:
        _on_diet_board(p, action)
    if action == "shop":
        return events                     # the turn goes on once the player has bought
    _refill_planner(state)                # the Daily Planner refills at the end of each turn
    if state["phase"] == "pizza_extra":
        p["pizza"] = False
        return events + rounds.round_over(state)
    if action != "pass":
        p["actions_left"] -= 1
    return events + rounds.next_turn(state, seat)


def use_ability(state, seat, body):
    """A completed recipe's ability or an assistant's option, with the player's choices (see ``abilities``);
    a ``during:<action>`` one only when the player may take that action now, the ability's effects counted."""
    events = abilities.use(state, seat, body)
    served = abilities.serves(_p(state, seat))
    why = space_open(state, seat, served) if served and served != "shop" and not state["pending"] else None
    if why:
        raise RuleError("unavailable", f"That ability serves a {abilities.action_words(served)}, which you cannot "
                        f"take now: {why}")
    return events


def tile_first(state, seat, body):
    p = _p(state, seat)
    if not p["allergy"]:
        raise RuleError("breaks_rule", "You have no food allergy tile.")
    tile = state["cards"]["allergies"][p["allergy"]]
    foods = body.get("foods")
    if not isinstance(foods, list) or any(f not in tile["foods"] for f in foods):
        raise RuleError("bad_argument", f"List the foods to put on your tile first, from: {', '.join(tile['foods'])}.")
    p["tile_first"] = list(foods)
    return [event(state, "tile_first", f"{p['name']} now puts {', '.join(foods) or 'nothing'} on their "
                  "allergy tile first.", seat=seat)]
