"""Card abilities as data: the format's checking, its words, and applying its effects.

A recipe's ``does`` (and each option of an assistant, in the assistant's ``does`` list)
is one ability (documented in docs/food-for-thought.md)::

    {"when": "during:cook", "often": "once", "choices": ["food"],
     "effects": [{"kind": "limit", "limit": "tokens_per_cook", "add": 1}]}

- ``when``: ``on_complete`` (applied by itself when the recipe is completed), ``own_turn``,
  ``during:<action>`` (used during the owner's turn; its effects serve that action),
  ``end_of_round`` (used at clean-up), ``end_of_game`` (scored on the receipt);
- ``often``: ``once`` (then the recipe flips), ``per_turn``, or ``choose_one_per_turn`` (an
  assistant: one of its options once per turn);
- ``choices``: what the player names when using it: ``food``, ``column`` (a kitchen
  column), ``space`` (a shopping list space), ``target`` (another player's seat), ``die``
  (1 or 2) and ``value`` (a die face);
- ``effects``: applied in order; every kind is in :data:`EFFECTS`.

Effects that last ("this turn") sit in the player's ``turn_effects`` and are read by the
actions through :func:`limit`, :func:`price_of`, :func:`take_wild` and :func:`relaxed`;
:func:`end_turn` clears them.  Pure functions over the game state.
"""
from __future__ import annotations

import copy
from collections import Counter

from ..base import RuleError, event, rng
from . import goals, rules, tokens
from .physical import physical_draws, physical_first
from .tokens import food_name

ACTIONS = ("shop", "market", "pizza", "buffet", "snack", "cook", "workout")
WHEN = ("on_complete", "own_turn", *(f"during:{a}" for a in ACTIONS), "end_of_round", "end_of_game")
OFTEN = ("once", "per_turn", "choose_one_per_turn")
CHOICES = ("food", "column", "space", "target", "die", "value")
#: The limits an effect (or the host's "allow once") may change, with the rulebook's value.
LIMITS = {"tokens_per_cook": rules.TOKENS_PER_COOK, "tokens_per_workout": rules.TOKENS_PER_WORKOUT,
          "shop_budget": rules.BUDGET, "recipes_taken": rules.RECIPES_PER_TAKE,
          "activities_taken": rules.ACTIVITIES_PER_TAKE, "market_visits": rules.MARKET_VISITS,
          "snacks": rules.SNACKS_PER_ROUND}
#: The most entries an action's list may hold before its limit (with abilities) is checked.
MOST = 12
#: Limits the host may lift once that are rules rather than numbers.
RULE_LIMITS = ("occupied_space", "wild_unique")
#: Where a token may come from or go to; ``target:<area>`` is the chosen player's.
AREAS = ("supply", "bag", "kitchen", "body", "trash", "freezer", "thaw", "pizza", "buffet")
TARGET_AREAS = ("kitchen", "body", "trash", "freezer")
#: Effect kinds: their fields (name -> what it must be) and what they mean, in words.
EFFECTS = {
    "limit": {"limit": "a limit", "add": "a whole number"},
    "price": {"price": "a price", "food": "a food, chosen or any", "space": "chosen"},
    "die": {"do": "reroll or set"},
    "move": {"from": "an area", "to": "an area", "count": "a count", "food": "a food or chosen"},
    "wild_token": {"count": "a count"},
    "wild_unique": {},
    "extra_action": {"count": "a count"},
    "occupied_space": {},
    "spoilage": {"do": "skip or undo"},
    "end_vp": {"measure": "a goal measure", "each": "VP per thing", "at_least": "a threshold", "vp": "VP"},
    "manual": {"text": "text"},
}
_OPTIONAL = {"price": ("food", "space"), "move": ("count", "food"), "wild_token": ("count",),
             "extra_action": ("count",), "end_vp": ("each", "at_least", "vp")}
#: Effects that only make sense in one action's context, with the ``when`` they need.
_NEEDS_WHEN = {"price": ("during:shop",), "die": ("during:shop",)}


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _one_of(value, names) -> bool:
    """``value`` is one of the strings ``names`` (any other JSON value is not, whatever its type)."""
    return isinstance(value, str) and value in names


def _area_ok(area) -> bool:
    if not isinstance(area, str):
        return False
    if area.startswith("target:"):
        return area[7:] in TARGET_AREAS
    return area in AREAS


# ----------------------------------------------------------------------------- checking
def _effect_problems(e, i: int, ability: dict, foods: set) -> list[str]:
    where = f"effects[{i}]"
    if not isinstance(e, dict) or not _one_of(e.get("kind"), EFFECTS):
        return [f"{where} must be an object whose \"kind\" is one of {', '.join(EFFECTS)}"]
    kind, fields = e["kind"], EFFECTS[e["kind"]]
    out = []
    unknown = sorted(set(e) - set(fields) - {"kind"})
    if unknown:
        out.append(f"{where} ({kind}) has an unknown field {unknown[0]!r}; its fields are "
                   f"{', '.join(fields) or 'none'}")
    for name in fields:
        if name not in e and name not in _OPTIONAL.get(kind, ()):
            out.append(f"{where} ({kind}) needs {name!r} ({fields[name]})")
    choices = ability.get("choices", []) if isinstance(ability.get("choices"), list) else []

    def food_ok(value, field, words=("chosen", "any")):
        if value == "chosen" and "food" not in choices:
            out.append(f"{where}.{field} is \"chosen\": add \"food\" to the ability's choices")
        elif not _one_of(value, foods) and not _one_of(value, words):
            out.append(f"{where}.{field}: {value!r} is not a food id or " + " or ".join(f'"{w}"' for w in words))
    if kind == "limit":
        if not _one_of(e.get("limit"), LIMITS):
            out.append(f"{where}.limit must be one of {', '.join(LIMITS)}")
        if not _whole(e.get("add")) or e.get("add") == 0:
            out.append(f"{where}.add must be a whole number other than 0")
    elif kind == "price":
        if not _whole(e.get("price")) or e.get("price", -1) < 0:
            out.append(f"{where}.price must be a whole number of dollars, 0 or more")
        if ("food" in e) == ("space" in e):
            out.append(f"{where} (price) names \"food\" or \"space\": \"chosen\", not both or neither")
        elif "food" in e:
            food_ok(e["food"], "food")
        elif e["space"] != "chosen" or "space" not in choices:
            out.append(f"{where}.space must be \"chosen\", with \"space\" in the ability's choices")
    elif kind == "die":
        if not _one_of(e.get("do"), ("reroll", "set")):
            out.append(f"{where}.do must be reroll or set")
        if "die" not in choices or (e.get("do") == "set" and "value" not in choices):
            out.append(f"{where} (die) needs \"die\" in the ability's choices (and \"value\" to set it)")
    elif kind == "move":
        for side in ("from", "to"):
            if not _area_ok(e.get(side)):
                out.append(f"{where}.{side} must be one of {', '.join(AREAS)} or target:"
                           f"{'/'.join(TARGET_AREAS)}, not {e.get(side)!r}")
            elif str(e[side]).startswith("target:") and "target" not in choices:
                out.append(f"{where}.{side} is another player's: add \"target\" to the ability's choices")
        if e.get("from") == e.get("to"):
            out.append(f"{where} moves tokens from {e.get('from')!r} to the same place")
        if "count" in e and (not _whole(e["count"]) or not 1 <= e["count"] <= 6):
            out.append(f"{where}.count must be a whole number from 1 to 6")
        food_ok(e.get("food", "chosen"), "food", ("chosen",))
    elif kind in ("wild_token", "extra_action"):
        if "count" in e and (not _whole(e["count"]) or not 1 <= e["count"] <= 3):
            out.append(f"{where}.count must be a whole number from 1 to 3")
    elif kind == "spoilage":
        if not _one_of(e.get("do"), ("skip", "undo")):
            out.append(f"{where}.do must be skip (this round's kitchen shift) or undo (the one just done)")
        elif e["do"] == "undo" and ability.get("when") != "end_of_round":
            out.append(f"{where} (spoilage undo) needs \"when\": \"end_of_round\" (the move is undone at clean-up)")
        elif e["do"] == "skip" and ability.get("when") != "own_turn":
            out.append(f"{where} (spoilage skip) needs \"when\": \"own_turn\" (used before the round ends)")
    elif kind == "end_vp":
        out.extend(f"{where}.measure {p}" for p in goals.problems(e.get("measure")))
        if ("each" in e) == ("vp" in e):
            out.append(f"{where} (end_vp) gives \"each\" (VP per thing counted) or \"vp\" with \"at_least\"")
        if "vp" in e and (not _whole(e["vp"]) or not _whole(e.get("at_least"))):
            out.append(f"{where} (end_vp): \"vp\" and \"at_least\" must be whole numbers")
        if "each" in e and not _whole(e["each"]):
            out.append(f"{where}.each must be a whole number")
        if ability.get("when") != "end_of_game":
            out.append(f"{where} (end_vp) needs \"when\": \"end_of_game\"")
    elif kind == "manual":
        if not isinstance(e.get("text"), str) or not e["text"].strip() or len(e["text"]) > 400:
            out.append(f"{where}.text must say what the host does (at most 400 characters)")
    need = _NEEDS_WHEN.get(kind)
    if need and not _one_of(ability.get("when"), need):
        out.append(f"{where} ({kind}) needs \"when\": {' or '.join(need)}")
    return out


def problems(ability, foods: set, assistant: bool = False) -> list[str]:
    """What is wrong with one ability (empty when the engine can apply it); each says what to write."""
    if not isinstance(ability, dict):
        return ["must be an object with when, often and effects"]
    out = []
    unknown = sorted(set(ability) - {"when", "often", "choices", "effects"})
    if unknown:
        out.append(f"has an unknown key {unknown[0]!r}; keys are when, often, choices, effects")
    if not _one_of(ability.get("when"), WHEN):
        out.append(f"\"when\" must be one of {', '.join(WHEN)}, not {ability.get('when')!r}")
    if not _one_of(ability.get("often"), OFTEN):
        out.append(f"\"often\" must be one of {', '.join(OFTEN)}, not {ability.get('often')!r}")
    elif assistant != (ability["often"] == "choose_one_per_turn"):
        out.append("an assistant's option is \"often\": \"choose_one_per_turn\"" if assistant else
                   "\"choose_one_per_turn\" is for an assistant's options; a recipe is once or per_turn")
    choices = ability.get("choices", [])
    if not isinstance(choices, list) or not all(_one_of(c, CHOICES) for c in choices) \
            or len(set(choices)) != len(choices):
        out.append(f"\"choices\" must list different names from {', '.join(CHOICES)}")
    if _one_of(ability.get("when"), ("on_complete", "end_of_game")) and choices:
        out.append(f"an ability {ability['when']} applies by itself: it can have no choices")
    effects = ability.get("effects")
    if not isinstance(effects, list) or not effects:
        return out + ["\"effects\" must be a non-empty list of effects"]
    for i, e in enumerate(effects):
        out.extend(_effect_problems(e, i, ability, foods))
    scored = [isinstance(e, dict) and e.get("kind") == "end_vp" for e in effects]
    if ability.get("when") == "end_of_game" and not all(scored):
        out.append("an end_of_game ability holds only end_vp effects")
    return out


# ----------------------------------------------------------------------------- words
def _food(value, names: dict) -> str:
    return {"chosen": "a food of your choice", "any": "any food"}.get(value, names.get(value, value))


def _area(area: str) -> str:
    if area.startswith("target:"):
        return f"another player's {area[7:]}"
    return {"supply": "the supply", "bag": "the bag", "pizza": "Pizza To Go", "buffet": "the Chinese Buffet",
            "thaw": "your thaw area"}.get(area, f"your {area}")


#: Each limit in words: (one, more than one).
_LIMIT_WORDS = {"tokens_per_cook": ("token moved in a cook", "tokens moved in a cook"),
                "tokens_per_workout": ("token moved in a work out", "tokens moved in a work out"),
                "shop_budget": ("dollar to spend shopping", "dollars to spend shopping"),
                "recipes_taken": ("recipe taken in one action", "recipes taken in one action"),
                "activities_taken": ("activity taken in one action", "activities taken in one action"),
                "market_visits": ("farmers market visit this round", "farmers market visits this round"),
                "snacks": ("snack this round", "snacks this round")}
#: What ``during:<action>`` reads as.
_ACTION_WORDS = {"shop": "shopping", "market": "farmers market visit", "pizza": "meal at Pizza To Go",
                 "buffet": "meal at the Chinese Buffet", "snack": "snack", "cook": "cook", "workout": "work out"}


def _limit_words(e: dict) -> str:
    n = abs(e["add"])
    return f"{n} {'more' if e['add'] > 0 else 'fewer'} {_LIMIT_WORDS[e['limit']][n != 1]}"


def _effect_words(e: dict, names: dict) -> str:
    kind = e["kind"]
    if kind == "limit":
        return _limit_words(e)
    if kind == "price":
        what = f"{_food(e['food'], names)} costs" if "food" in e else "a shopping space of your choice costs"
        return f"{what} ${e['price']}"
    if kind == "die":
        return "re-roll a die" if e["do"] == "reroll" else "turn a die to the face you choose"
    if kind == "move":
        n, food = e.get("count", 1), e.get("food", "chosen")
        what = (("a token" if n == 1 else f"{n} tokens of one food") + " of your choice" if food == "chosen"
                else f"{n} {names.get(food, food)} token{'s' if n != 1 else ''}")
        return f"move {what} from {_area(e['from'])} to {_area(e['to'])}"
    if kind == "wild_token":
        n = e.get("count", 1)
        return f"{n} token{'s' if n != 1 else ''} you place on a recipe count{'s' if n == 1 else ''} as wild"
    if kind == "wild_unique":
        return "a wild activity space may take a food already on or shown on the card"
    if kind == "extra_action":
        n = e.get("count", 1)
        return f"take {n} extra action{'s' if n != 1 else ''} this round"
    if kind == "occupied_space":
        return "you may use an action space another player occupies"
    if kind == "spoilage":
        return ("your kitchen does not move right this round" if e["do"] == "skip" else
                "undo this round's kitchen move (spoiled tokens come back)")
    if kind == "end_vp":
        if "each" in e:
            return f"{e['each']:+d} VP per {_measure_words(e['measure'], names, False)}"
        return f"{e['vp']:+d} VP with at least {e['at_least']} {_measure_words(e['measure'], names, True)}"
    return e["text"]


_NOUNS = {"recipes": ("completed recipe", "completed recipes"),
          "activities": ("completed activity", "completed activities"),
          "body": ("token in your body", "tokens in your body"),
          "kitchen": ("token in your kitchen", "tokens in your kitchen"),
          "trash": ("token in your trash", "tokens in your trash")}


def _test_words(test, names: dict) -> str:
    if isinstance(test, dict):
        return f"{test.get('min', '')}-{test.get('max', '')}"
    if isinstance(test, list):
        return " or ".join(_test_words(t, names) for t in test)
    return str(names.get(test, test))


def _measure_words(measure, names: dict, plural: bool) -> str:
    """What a measure counts, in words: "tokens in your body (food: Vegetables)"."""
    spec = goals.spell({"measure": measure})
    one, many = _NOUNS[spec["of"]]
    where = spec.get("where", {})
    only = " (" + ", ".join(f"{k}: {_test_words(v, names)}" for k, v in where.items()) + ")" if where else ""
    if "distinct" in spec:
        return f"different {spec['distinct']}{'s' if plural else ''} among your {many}{only}"
    if "sum" in spec:
        return f"point{'s' if plural else ''} of {spec['sum']} on your {many}{only}"
    return (many if plural else one) + only


_WHEN_WORDS = {"on_complete": "When you complete it", "own_turn": "During your turn",
               "end_of_round": "At the end of the round", "end_of_game": "At the end of the game"}
_OFTEN_WORDS = {"once": "once (then the card flips)", "per_turn": "once per turn",
                "choose_one_per_turn": "once per turn (one of the card's options)"}


def describe(ability: dict, names: dict | None = None) -> str:
    """The ability as one sentence (``names``: food id -> name), for the TV, phones and the entry form."""
    names = names or {}
    when = ability["when"]
    head = _WHEN_WORDS.get(when) or f"During your {_ACTION_WORDS[when.split(':', 1)[1]]}"
    effects = "; ".join(_effect_words(e, names).rstrip(".") for e in ability["effects"])
    often = "" if when in ("on_complete", "end_of_game") else f", {_OFTEN_WORDS[ability['often']]}"
    return f"{head}{often}: {effects}."


# ----------------------------------------------------------------------------- state
def fresh_turn() -> dict:
    """A player's effects that last for the current turn: none."""
    return {"limits": {}, "prices": [], "wild_tokens": 0, "wild_unique": False, "occupied_space": False, "used": [],
            "serves": None}


def serves(p: dict) -> str | None:
    """The action a ``during:<action>`` ability used this turn serves (the turn's action must be it), or None."""
    return p["turn_effects"]["serves"]


def action_words(action: str) -> str:
    """A marker action in words: "cook", "farmers market visit"."""
    return _ACTION_WORDS[action]


def end_turn(p: dict) -> None:
    """The player's turn is over: what lasted for it ends."""
    p["turn_effects"] = fresh_turn()


def limit(p: dict, name: str) -> int:
    """The player's ``name`` limit now: the rulebook's value plus this turn's effects."""
    return LIMITS[name] + p["turn_effects"]["limits"].get(name, 0)


def over_limit(p: dict, name: str, value: int, message: str, code: str = "bad_argument",
               spend: bool = True) -> None:
    """Refuse ``value`` above the player's ``name`` limit with ``message`` (and ``code``), unless the
    host allowed it once (that allowance is then used up when ``spend``)."""
    if value <= limit(p, name):
        return
    if name in p["allow_once"]:
        if spend:
            p["allow_once"].remove(name)
        return
    raise RuleError(code, message)


def relaxed(p: dict, rule: str, spend: bool) -> bool:
    """Whether ``rule`` (one of :data:`RULE_LIMITS`) is lifted for the player now: by an effect of
    this turn (an occupied space: for one marker), or by the host's allowance once; ``spend`` uses
    it up."""
    if p["turn_effects"][rule]:
        if spend and rule == "occupied_space":
            p["turn_effects"][rule] = False
        return True
    if rule in p["allow_once"]:
        if spend:
            p["allow_once"].remove(rule)
        return True
    return False


def price_of(p: dict, space: str, food: str, base: int) -> int:
    """A shopping space's price for this player: the lowest an effect of this turn sets, else ``base``."""
    set_to = [e["price"] for e in p["turn_effects"]["prices"] if e.get("food") in (food, "any")
              or e.get("space") == space]
    return min([base, *set_to])


def take_wild(p: dict, count: int) -> None:
    """Use ``count`` of this turn's "counts as wild" tokens (refused when there are not that many)."""
    if count > p["turn_effects"]["wild_tokens"]:
        raise RuleError("breaks_rule", "A token counts as wild only through an ability used this turn "
                        f"(you have {p['turn_effects']['wild_tokens']} left).")
    p["turn_effects"]["wild_tokens"] -= count


def allow_once(state: dict, seat: int, name: str) -> list[dict]:
    """The host lets ``seat`` break limit ``name`` once (the next time it would refuse)."""
    if name not in LIMITS and name not in RULE_LIMITS:
        raise RuleError("bad_argument", f"There is no limit {name!r}; limits: "
                        f"{', '.join((*LIMITS, *RULE_LIMITS))}.")
    p = state["seats"][str(seat)]
    if name in p["allow_once"]:
        raise RuleError("already_done", f"{p['name']} may already break {name} once.")
    p["allow_once"].append(name)
    return [event(state, "allow_once", f"Host: {p['name']} may break the {name.replace('_', ' ')} limit once.")]


def row_markers(p: dict) -> int:
    """How many unused action markers lie on the player's diet board (physical-first): an extra action
    from an ability is taken with a further marker, from outside that row."""
    return p["actions_left"] - min(p.get("extra_actions", 0), p["actions_left"])


#: The effects the camera cannot see, for which the table uses an ability by itself (physical-first).
UNSEEN = ("extra_action", "occupied_space")


def table_usable(state: dict, p: dict) -> list[dict]:
    """The ``use_ability`` bodies of ``p``'s abilities the table may use by itself when the camera shows
    a move only they allow (a further marker, a marker on an occupied space): those that ask for no
    choice and have an effect of :data:`UNSEEN` (whether they may be used now is checked on using)."""
    cards = state["cards"]
    out = [{"recipe": r} for r in p["recipes_done"] if r not in p["abilities_used"]
           and _unseen(cards["recipes"][r].get("does"))]
    return out + [{"assistant": a, "option": i} for a in p["assistants"]
                  for i, d in enumerate(cards["assistants"][a].get("does") or [], 1) if _unseen(d)]


def _unseen(ability: dict | None) -> bool:
    return bool(ability) and not ability.get("choices") and ability["when"] != "end_of_round" and any(
        e["kind"] in UNSEEN for e in ability["effects"])


def end_of_round_left(state: dict) -> list[str]:
    """Names of the players who still hold an end-of-round ability they may use now."""
    def waiting(p):
        cards = state["cards"]
        recipes = [cards["recipes"][r].get("does") for r in p["recipes_done"] if r not in p["abilities_used"]]
        options = [d for a in p["assistants"] for d in cards["assistants"][a].get("does") or []]
        return any(a and a["when"] == "end_of_round" for a in recipes + options)
    return [p["name"] for p in state["seats"].values() if waiting(p)]


# ----------------------------------------------------------------------------- end of game
def end_vp(ability: dict, p: dict, cards: dict) -> int:
    """VP an end_of_game ability scores for player ``p``."""
    total = 0
    for e in ability["effects"]:
        n = goals.measure({"measure": e["measure"]}, p, cards)
        total += n * e["each"] if "each" in e else (e["vp"] if n >= e["at_least"] else 0)
    return total


# ----------------------------------------------------------------------------- using one
def _source(state: dict, p: dict, body: dict) -> tuple[dict, str, str, bool]:
    """(the ability, its key for once-per-turn, the card's name, is it a recipe) named by ``body``."""
    if body.get("assistant") is not None:
        aid = body["assistant"]
        if aid not in p["assistants"]:
            raise RuleError("breaks_rule", f"You do not have the assistant {aid!r} this round.")
        card = state["cards"]["assistants"][aid]
        option = body.get("option")
        does = card.get("does") or []
        if not _whole(option) or not 1 <= option <= len(card["options"]):
            raise RuleError("bad_argument", f"Name the option of {card['name']}: 1 to {len(card['options'])}.")
        ability = does[option - 1] if does else {"when": "own_turn", "often": "choose_one_per_turn",
                                                 "effects": [{"kind": "manual", "text": card["options"][option - 1]}]}
        return ability, f"assistant:{aid}", f"{card['name']} (option {option})", False
    rid = body.get("recipe")
    if rid not in p["recipes_done"]:
        raise RuleError("breaks_rule", "Only a recipe you have completed has an ability to use.")
    if rid in p["abilities_used"]:
        raise RuleError("already_done", "That recipe's ability is used up (its card is face down).")
    r = state["cards"]["recipes"][rid]
    if r["end_game_vp"] or (r.get("does") or {}).get("when") == "end_of_game":
        raise RuleError("breaks_rule", f"{r['name']} scores at the end of the game; it is not used during play.")
    ability = r.get("does") or ({"when": "own_turn", "often": "once",
                                 "effects": [{"kind": "manual", "text": r["ability"]}]} if r["ability"] else None)
    if ability is None:
        raise RuleError("breaks_rule", f"{r['name']} has no ability to use.")
    if ability["when"] == "on_complete":
        raise RuleError("already_done", f"{r['name']}'s ability applied by itself when it was completed.")
    return ability, f"recipe:{rid}", r["name"], True


def _check_when(state: dict, seat: int, ability: dict, what: str) -> None:
    when, phase = ability["when"], state["phase"]
    pend = state["pending"]
    if when == "end_of_round":
        if phase not in ("cleanup", "round_end"):
            raise RuleError("not_now", f"{what} is used at the end of the round, at clean-up.")
        return
    if phase not in ("actions", "pizza_extra") or state["turn"] != seat:
        raise RuleError("not_your_turn", f"{what} is used during your own turn.")
    if when == "during:shop":
        shopping = pend and pend["seat"] == seat and pend["action"] == "buy"
        if not shopping and (pend or not physical_first(state)):
            raise RuleError("not_now", f"{what} is used while you shop, after the dice are rolled"
                            + (" (physical-first: before the camera sees your purchase)."
                               if physical_first(state) else "."))
    elif pend:
        raise RuleError("waiting", "Finish your shopping first: choose what to buy (or buy nothing).")
    served = state["seats"][str(seat)]["turn_effects"]["serves"]
    if when.startswith("during:") and served not in (None, when[7:]):
        raise RuleError("wrong_action", f"{what} serves a {_ACTION_WORDS[when[7:]]}, but you used an ability for "
                        f"a {_ACTION_WORDS[served]} this turn: one action a turn.")


def use(state: dict, seat: int, body: dict) -> list[dict]:
    """``seat`` uses a completed recipe's ability or one option of their assistant, with their choices
    (an end-of-round one is declared now and resolved in turn order: :func:`declare`)."""
    p = state["seats"][str(seat)]
    ability, key, what, recipe = _source(state, p, body)
    _check_when(state, seat, ability, what)
    if ability["when"] == "end_of_round":
        return declare(state, seat, key, body, what)
    if ability["often"] != "once" and key in p["turn_effects"]["used"]:
        raise RuleError("already_done", f"{what.split(' (')[0]} has already helped you this turn (once per turn).")
    if ability["when"].startswith("during:"):
        p["turn_effects"]["serves"] = ability["when"][7:]
    events = apply(state, p, ability, body, what)
    if ability["often"] == "once" and recipe:
        p["abilities_used"].append(key.split(":", 1)[1])
    else:
        p["turn_effects"]["used"].append(key)
    return events


# ----------------------------------------------------------------------------- end of round
def ended_round_order(state: dict) -> list[int]:
    """Seats in the turn order of the round that is ending (at guided clean-up the first player token
    has already moved on, so the round's first player is the seat before it)."""
    n, first = len(state["players"]), state["first_seat"]
    if state["phase"] == "cleanup" and not state["final_cleanup"]:
        first = (first - 2) % n + 1
    return [(first - 1 + i) % n + 1 for i in range(n)]


def declared(state: dict) -> list[dict]:
    """The end-of-round abilities declared at this clean-up, in the order they were declared."""
    return state.get("end_of_round", [])


def declare(state: dict, seat: int, key: str, body: dict, what: str) -> list[dict]:
    """``seat`` says they use an end-of-round ability.  The rulebook (completed recipe abilities): when
    several players use abilities at the same time, such as end-of-round ones, they resolve in turn
    order; so the ability waits until the clean-up is done and :func:`resolve_end_of_round` applies
    every one declared, in the round's turn order, whatever order the players declared them in.
    Refused (changing nothing) when it could not apply at its place in that order with what has been
    declared so far."""
    p = state["seats"][str(seat)]
    if any(d["seat"] == seat and d["key"] == key for d in declared(state)):
        raise RuleError("already_done", f"You already use {what.split(' (')[0]} at this clean-up.")
    entry = {"seat": seat, "key": key, "body": {k: v for k, v in body.items() if k not in ("action", "seat")},
             "rank": ended_round_order(state).index(seat)}
    trial = copy.deepcopy(state)
    trial["end_of_round"] = declared(state) + [entry]
    if trial["phase"] == "round_end":            # physical-first: the record's kitchens have not moved yet
        from .rounds import spoil
        for tp in trial["seats"].values():
            spoil(tp)
    failed = [f for f in _resolve(trial)[1] if f["seat"] == seat and f["key"] == key]
    if failed:
        raise RuleError(failed[0]["code"], f"{what} could not apply in turn order: {failed[0]['message']}")
    state["end_of_round"] = declared(state) + [entry]
    first = [state["seats"][str(s)]["name"] for s in ended_round_order(state)]
    names = {d["key"]: _source(state, state["seats"][str(d["seat"])], d["body"])[2] for d in declared(state)}
    waiting = "; ".join(f"{state['seats'][str(d['seat'])]['name']}: {names[d['key']]}"
                        for d in sorted(declared(state), key=lambda d: d["rank"]))
    state["cleanup"] = [line for line in state["cleanup"] if not line.startswith(_DECLARED)] + [
        f"{_DECLARED} {waiting}."]
    return [event(state, "declared", f"{p['name']} uses {what} at the end of the round; end-of-round abilities "
                  f"resolve in turn order ({', '.join(first)}) once the clean-up is done.")]


#: The clean-up step (on the TV) that lists the end-of-round abilities declared, in turn order.
_DECLARED = "End-of-round abilities, resolved in this order when the clean-up is done:"


def resolve_end_of_round(state: dict) -> list[dict]:
    """Apply the end-of-round abilities declared at this clean-up, in the round's turn order (a player's
    own in the order they declared them).  One that no longer applies (an earlier player took the
    token it needed) is left out with the reason, and its card stays face up."""
    return _resolve(state)[0]


def _resolve(state: dict) -> tuple[list[dict], list[dict]]:
    """:func:`resolve_end_of_round`'s events, and the declarations that did not apply (with why)."""
    events, failed = [], []
    for d in sorted(declared(state), key=lambda d: d["rank"]):
        trial = copy.deepcopy(state)
        p = trial["seats"][str(d["seat"])]
        try:
            ability, key, what, recipe = _source(trial, p, d["body"])
            done = apply(trial, p, ability, d["body"], what)
        except RuleError as refusal:
            failed.append({**d, "code": refusal.code, "message": refusal.message})
            events.append(event(state, "not_applied", f"{p['name']}'s end-of-round ability does not apply after "
                                f"the players before them in turn order: {refusal.message} (the card stays face up)"))
            continue
        if recipe and ability["often"] == "once":
            p["abilities_used"].append(key.split(":", 1)[1])
        state.clear()
        state.update(trial)
        events += done
    state["end_of_round"] = []
    return events, failed


def on_complete(state: dict, p: dict, rid: str) -> list[dict]:
    """A recipe just completed: an ``on_complete`` ability applies at once (then the card flips)."""
    ability = state["cards"]["recipes"][rid].get("does")
    if not ability or ability["when"] != "on_complete":
        return []
    p["abilities_used"].append(rid)
    return apply(state, p, ability, {}, state["cards"]["recipes"][rid]["name"])


def _chosen(state: dict, body: dict, name: str):
    value = body.get(name)
    if value is None:
        raise RuleError("bad_argument", f"This ability needs your choice of {name}: add \"{name}\".")
    return value


def apply(state: dict, p: dict, ability: dict, body: dict, what: str) -> list[dict]:
    """Apply ``ability``'s effects for player ``p`` with the choices in ``body``; its events."""
    for name in ability.get("choices", []):
        _chosen(state, body, name)
    done = []
    for e in ability["effects"]:
        done.append(_EFFECT[e["kind"]](state, p, e, body))
    names = {f: state["foods"][f]["name"] for f in state["foods"]}
    text = "; ".join(d for d in done if d)
    return [event(state, "ability", f"{p['name']} uses {what}: {text}.",
                  does=describe(ability, names), manual=[e["text"] for e in ability["effects"]
                                                        if e["kind"] == "manual"])]


def _limit(state, p, e, body):
    lim = p["turn_effects"]["limits"]
    lim[e["limit"]] = lim.get(e["limit"], 0) + e["add"]
    return f"{_limit_words(e)} this turn"


def _price(state, p, e, body):
    entry = {"price": e["price"]}
    if "food" in e:
        entry["food"] = tokens.check_food(state, body.get("food"), "price") if e["food"] == "chosen" else e["food"]
    else:
        space = body.get("space")
        if space not in state["shopping"]:
            raise RuleError("bad_argument", f"The shopping list has no space {space!r} (use \"row.col\").")
        entry["space"] = space
    p["turn_effects"]["prices"].append(entry)
    return (f"{food_name(state, entry['food']) if 'food' in entry else 'space ' + entry['space']} "
            f"costs ${e['price']} this turn")


def _die(state, p, e, body):
    die = body.get("die")
    if die not in (1, 2) or isinstance(die, bool):
        raise RuleError("bad_argument", "Name the die: 1 or 2.")
    if physical_first(state) and state["options"]["dice"] != "camera":
        from .inference import shopping_dice
        if shopping_dice(state, p["seat"]) is None:   # the dice of an earlier trip are not this one's
            raise RuleError("not_now", "Roll first: put your marker on a shopping space; the die is changed once "
                            "the roll is known.")
    elif state["dice"] is None:               # physical-first: the camera reads the dice as they lie
        return f"{'re-roll' if e['do'] == 'reroll' else 'turn'} die {die} by hand: the camera reads the dice"
    if e["do"] == "set":
        value = body.get("value")
        if not _whole(value) or not 1 <= value <= rules.DIE_FACES:
            raise RuleError("bad_argument", f"Name the face to turn the die to: 1 to {rules.DIE_FACES}.")
    elif state["options"]["dice"] == "digital":
        value = rng(state).randint(1, rules.DIE_FACES)
    else:
        value = body.get("value")
        if not _whole(value) or not 1 <= value <= rules.DIE_FACES:
            raise RuleError("bad_argument", "Re-roll the die by hand and enter it as \"value\".")
    state["dice"] = list(state["dice"])
    state["dice"][die - 1] = value
    return f"die {die} now shows {value}"


def _target(state, p, body):
    target = body.get("target")
    others = [s for s in state["seats"] if s != str(p["seat"])]
    if str(target) not in others or not _whole(target):
        raise RuleError("bad_argument", f"Name another player's seat as \"target\" ({', '.join(others) or 'none'}).")
    return state["seats"][str(target)]


def _take(state, p, area, food, body):
    """Take one ``food`` token out of ``area`` (of player ``p``), or refuse."""
    if area == "supply":
        return
    if area == "bag":
        if food in state["bag"]:
            state["bag"].remove(food)
        elif not physical_draws(state):         # physical draws: the table does not know the bag
            raise RuleError("unavailable", f"There is no {food_name(state, food)} in the bag.")
        return
    if area == "kitchen":
        tokens.take_from_kitchen(state, p, food, body.get("column"))
    elif area == "body":
        tokens.take_from_body(state, p, food)
    elif area == "thaw":
        tokens.take_from_thaw(state, p, food)
    elif area in ("trash", "freezer"):
        if food not in p[area]:
            raise RuleError("unavailable", f"There is no {food_name(state, food)} in {p['name']}'s {area}.")
        p[area].remove(food)
    elif area == "pizza":
        if food not in state["pizza"]:
            raise RuleError("unavailable", f"There is no {food_name(state, food)} at Pizza To Go.")
        state["pizza"].remove(food)
    else:
        row = next((r for r in state["buffet"] if food in r), None)
        if row is None:
            raise RuleError("unavailable", f"There is no {food_name(state, food)} at the Chinese Buffet.")
        row.remove(food)


def _put(state, p, area, food) -> str:
    """Put one ``food`` token in ``area`` of player ``p``; where it went."""
    if area == "kitchen":
        tokens.to_kitchen(state, p, food)
    elif area == "body":
        return tokens.to_body(state, p, food)
    elif area == "freezer":
        tokens.to_freezer(state, p, food)
    elif area == "thaw":
        if len(p["thaw"]) >= rules.THAW_SPACES:
            raise RuleError("unavailable", f"The thaw area holds at most {rules.THAW_SPACES} tokens.")
        p["thaw"].append(food)
    elif area == "trash":
        p["trash"].append(food)
    elif area == "bag":
        state["bag"].append(food)
    elif area == "pizza":
        state["pizza"].append(food)
    elif area == "buffet":
        min(state["buffet"], key=len).append(food)
    return area


def _move(state, p, e, body):
    food = e.get("food", "chosen")
    food = tokens.check_food(state, body.get("food"), "move") if food == "chosen" else food
    other = _target(state, p, body) if "target:" in e["from"] + e["to"] else None
    src = (other, e["from"][7:]) if e["from"].startswith("target:") else (p, e["from"])
    dst = (other, e["to"][7:]) if e["to"].startswith("target:") else (p, e["to"])
    where = []
    for _ in range(e.get("count", 1)):
        _take(state, src[0], src[1], food, body)
        where.append(_put(state, dst[0], dst[1], food))
    owner = f"{other['name']}'s " if other is not None else ""
    return (f"{len(where)} {food_name(state, food)} from {owner if src[0] is other else ''}{src[1]} to "
            f"{owner if dst[0] is other else ''}{', '.join(dict.fromkeys(where))}")


def _wild_token(state, p, e, body):
    p["turn_effects"]["wild_tokens"] += e.get("count", 1)
    return f"{e.get('count', 1)} token(s) count as wild on a recipe this turn"


def _wild_unique(state, p, e, body):
    p["turn_effects"]["wild_unique"] = True
    return "wild activity spaces take any food this turn"


def _extra_action(state, p, e, body):
    p["actions_left"] += e.get("count", 1)
    p["extra_actions"] = p.get("extra_actions", 0) + e.get("count", 1)   # physical-first: a further marker each
    return f"{e.get('count', 1)} extra action(s) this round"


def _occupied(state, p, e, body):
    p["turn_effects"]["occupied_space"] = True
    return "may use an occupied action space this turn"


def _spoilage(state, p, e, body):
    if e["do"] == "skip":
        p["skip_spoil"] = True
        return "the kitchen stays put at the end of this round"
    if p["before_shift"] is None:
        raise RuleError("not_now", "There is no kitchen move of this round to undo.")
    _undo_shift(p)
    p["before_shift"] = None
    return "this round's kitchen move is undone"


def _undo_shift(p: dict) -> None:
    """Move the kitchen back one column and the spoiled tokens still in the trash back to the last
    column and the thaw area, keeping what changed since the move (an earlier player's end-of-round
    ability took a token: it stays gone; a token put in since stays where it was put)."""
    before, after, now = p["before_shift"]["kitchen"], p["before_shift"]["after"], p["kitchen"]
    back = (Counter(before[-1]) + Counter(p["before_shift"]["thaw"])) & Counter(p["trash"])
    for f in back.elements():                                   # the latest of that food in the trash
        del p["trash"][len(p["trash"]) - 1 - p["trash"][::-1].index(f)]
    kept = [_less(before[i], Counter(after[i + 1]) - Counter(now[i + 1])) for i in range(len(before) - 1)]
    last = _less(before[-1], Counter(before[-1]) - back)
    p["kitchen"] = [col + sorted((Counter(now[i]) - Counter(after[i])).elements())
                    for i, col in enumerate(kept + [last])]
    p["thaw"] = sorted((back - Counter(last)).elements())


def _less(tokens_: list, gone: Counter) -> list:
    """``tokens_`` without the tokens in ``gone`` (a multiset)."""
    out = []
    for f in tokens_:
        if gone[f] > 0:
            gone[f] -= 1
        else:
            out.append(f)
    return out


def _manual(state, p, e, body):
    return f"the host applies: {e['text']}"


_EFFECT = {"limit": _limit, "price": _price, "die": _die, "move": _move, "wild_token": _wild_token,
           "wild_unique": _wild_unique, "extra_action": _extra_action, "occupied_space": _occupied,
           "spoilage": _spoilage, "manual": _manual}
