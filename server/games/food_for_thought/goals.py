"""Goal cards' measure language: what a goal counts or adds up for each player (most wins).

A measure is an object (documented in docs/food-for-thought.md)::

    {"of": "activities", "sum": "vp", "where": {"icon": "racquet"}, "at_least": 3}

- ``of``: what is looked at: ``recipes`` or ``activities`` (the player's completed cards),
  ``body``, ``kitchen`` or ``trash`` (the food tokens there);
- ``sum``: a card field to add up (``vp``, ``penalty``, ``end_game_vp``); without it, things
  are counted; ``distinct``: count the different values of a field instead (``icon``, ``food``);
- ``where``: conditions every counted thing meets, field -> a value, a list of values, or
  ``{"min": a, "max": b}``; cards are checked on their own fields, tokens on ``food`` and
  (in the body) ``group``;
- ``at_least``: a threshold: a player below it scores 0 for the goal (takes no part).

The former fixed measures (``recipes_completed``, ``activity_vp``, ``body_tokens`` and the
others) are still accepted as names: :data:`NAMED` spells each in the language.  Pure functions.
"""
from __future__ import annotations

OF = ("recipes", "activities", "body", "kitchen", "trash")
CARD_SUMS = ("vp", "penalty", "end_game_vp")
#: Fields a condition may test, by what is looked at.
CARD_FIELDS = {"recipes": ("vp", "penalty", "end_game_vp", "module", "solo", "id"),
               "activities": ("vp", "penalty", "icon", "id")}
TOKEN_FIELDS = {"body": ("food", "group"), "kitchen": ("food", "column"), "trash": ("food",)}

#: The fixed measures of earlier data files, each as a measure of the language (``value``
#: is the goal's ``value`` field).
NAMED = {
    "recipes_completed": lambda value: {"of": "recipes"},
    "activities_completed": lambda value: {"of": "activities"},
    "recipe_vp": lambda value: {"of": "recipes", "sum": "vp"},
    "activity_vp": lambda value: {"of": "activities", "sum": "vp"},
    "activities_worth": lambda value: {"of": "activities", "where": {"vp": value}},
    "recipes_worth": lambda value: {"of": "recipes", "where": {"vp": value}},
    "body_tokens": lambda value: {"of": "body", "where": {"group": value}},
}


def spell(goal: dict) -> dict:
    """The goal's measure in the language (a name of :data:`NAMED` spelled out)."""
    measure = goal["measure"]
    return NAMED[measure](goal.get("value")) if isinstance(measure, str) else measure


def problems(measure) -> list[str]:
    """What is wrong with a measure (empty when it can be evaluated); each says what to write."""
    if isinstance(measure, str):
        return [] if measure in NAMED else [
            f"{measure!r} is not a measure name ({', '.join(NAMED)}); or write an object such as "
            '{"of": "activities", "sum": "vp"}']
    if not isinstance(measure, dict):
        return ["must be a measure name or an object with \"of\""]
    out = []
    unknown = sorted(set(measure) - {"of", "sum", "distinct", "where", "at_least"})
    if unknown:
        out.append(f"has an unknown key {unknown[0]!r}; keys are of, sum, distinct, where, at_least")
    of = measure.get("of")
    if of not in OF:
        return out + [f"\"of\" must be one of {', '.join(OF)}, not {of!r}"]
    fields = CARD_FIELDS.get(of) or TOKEN_FIELDS[of]
    if "sum" in measure and "distinct" in measure:
        out.append("give \"sum\" or \"distinct\", not both")
    if "sum" in measure and (of not in CARD_FIELDS or measure["sum"] not in CARD_SUMS):
        out.append(f"\"sum\" adds up a card field ({', '.join(CARD_SUMS)}) of recipes or activities")
    if "distinct" in measure and measure["distinct"] not in fields:
        out.append(f"\"distinct\" for {of} must be one of {', '.join(fields)}")
    where = measure.get("where", {})
    if not isinstance(where, dict):
        out.append("\"where\" must be an object: field -> value, list of values, or {\"min\", \"max\"}")
        where = {}
    for field, test in where.items():
        if field not in fields:
            out.append(f"\"where\" tests {field!r}, which {of} do not have; use {', '.join(fields)}")
        elif isinstance(test, dict) and (not test or set(test) - {"min", "max"} or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in test.values())):
            out.append(f"\"where\".{field}: a range is {{\"min\": n, \"max\": n}} with whole numbers")
    at_least = measure.get("at_least", 0)
    if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 0:
        out.append("\"at_least\" must be a whole number, 0 or more")
    return out


def _meets(thing: dict, where: dict) -> bool:
    for field, test in where.items():
        value = thing.get(field)
        if isinstance(test, dict):
            if not isinstance(value, int) or value < test.get("min", value) or value > test.get("max", value):
                return False
        elif isinstance(test, list):
            if value not in test:
                return False
        elif value != test:
            return False
    return True


def _things(of: str, p: dict, cards: dict) -> list[dict]:
    """What a measure looks at for player ``p``, each as a dict of testable fields."""
    if of == "recipes":
        return [cards["recipes"][r] for r in p["recipes_done"]]
    if of == "activities":
        return [cards["activities"][a] for a in p["activities_done"]]
    if of == "body":
        return [{"food": t, "group": g} for g, tokens in p["body"].items() for t in tokens if t is not None]
    if of == "kitchen":
        return [{"food": t, "column": c} for c, tokens in enumerate(p["kitchen"], 1) for t in tokens]
    return [{"food": t} for t in p["trash"]]


def measure(goal: dict, p: dict, cards: dict) -> int:
    """How far player ``p`` got towards ``goal`` (0 below its threshold; bigger is better)."""
    spec = spell(goal)
    things = [t for t in _things(spec["of"], p, cards) if _meets(t, spec.get("where", {}))]
    if "sum" in spec:
        total = sum(t[spec["sum"]] for t in things)
    elif "distinct" in spec:
        total = len({t.get(spec["distinct"]) for t in things})
    else:
        total = len(things)
    return total if total >= spec.get("at_least", 0) else 0
