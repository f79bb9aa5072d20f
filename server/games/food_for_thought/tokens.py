"""Moving food tokens on a player's diet board: kitchen, body, trash, freezer.

Each function changes the player record it is given; the callers check the
rules first, so these raise RuleError only for things the caller cannot see
in advance (which column holds a token, an allergy).
"""
from __future__ import annotations

from ..base import RuleError
from . import rules


def food_name(state: dict, food: str) -> str:
    return state["foods"][food]["name"] if food in state["foods"] else food


def check_food(state: dict, food, what: str = "food") -> str:
    """``food`` if it is a known food id, else a refusal listing them."""
    if not isinstance(food, str) or food not in state["foods"]:
        raise RuleError("unknown_card", f"{food!r} is not a food token; use one of: "
                        f"{', '.join(sorted(state['foods']))} (for the {what}).")
    return food


def forbidden(state: dict, p: dict) -> list[str]:
    """Foods ``p`` may never put in their body (their allergy tile)."""
    return list(state["cards"]["allergies"][p["allergy"]]["forbidden"]) if p["allergy"] else []


def body_count(tokens: list) -> int:
    """How many tokens lie in a body group (its list holds None for an empty space left behind)."""
    return sum(1 for t in tokens if t is not None)


def _free_space(g: dict, tokens: list) -> int | None:
    """The 0-based index of the first empty space of group ``g`` (left to right, top to bottom)."""
    if None in tokens:
        return tokens.index(None)
    return len(tokens) if len(tokens) < len(g["spaces"]) else None


def _lift(tokens: list, index: int) -> None:
    """Take the token at ``index`` off a body group, leaving its space empty.

    The rulebook never slides the other tokens left (a group scores the space of
    its last token), so the list keeps a None there; trailing empties are dropped,
    so the list's length is always the position of the group's last token.
    """
    tokens[index] = None
    while tokens and tokens[-1] is None:
        tokens.pop()


def body_group(state: dict, p: dict, food: str) -> dict | None:
    """The group a ``food`` token goes to in ``p``'s body (None: allergic or nowhere).

    With an allergy tile, a food the tile accepts goes to the tile while the
    player has it in ``tile_first`` and the tile has room (the rulebook leaves
    this choice to the player); otherwise to the group that lists the food.
    """
    if food in forbidden(state, p):
        return None
    candidates = [g for g in p["groups"] if food in g["foods"]]
    tile = [g for g in candidates if g.get("tile")]
    if tile and food in p["tile_first"] and _free_space(tile[0], p["body"][tile[0]["id"]]) is not None:
        return tile[0]
    own = [g for g in candidates if not g.get("tile")]
    return own[0] if own else (tile[0] if tile else None)


def to_body(state: dict, p: dict, food: str) -> str:
    """Put one token in the body: the first empty space of its group (an earlier space left
    empty by a work out comes first); a full group or an allergy sends it back to the
    supply.  Returns where it went, for the event text."""
    g = body_group(state, p, food)
    if g is None:
        return "supply (allergy)" if food in forbidden(state, p) else "supply"
    tokens = p["body"][g["id"]]
    space = _free_space(g, tokens)
    if space is None:
        return "supply (group full)"
    if space == len(tokens):
        tokens.append(food)
    else:
        tokens[space] = food
    return f"body ({g['name']})"


def to_kitchen(state: dict, p: dict, food: str) -> None:
    """Put one token in the kitchen column marked with its icon."""
    column = state["diets"][p["diet"]]["kitchen"]["entry"][food]
    p["kitchen"][column - 1].append(food)


def to_freezer(state: dict, p: dict, food: str) -> None:
    if not state["options"]["freezer"]:
        raise RuleError("option_off", "The Freezer module is not in this game.")
    if not state["foods"][food]["freezable"]:
        raise RuleError("breaks_rule", f"{food_name(state, food)} cannot go in the freezer.")
    if len(p["freezer"]) >= rules.FREEZER_SPACES:
        raise RuleError("unavailable", f"Your freezer holds at most {rules.FREEZER_SPACES} tokens.")
    p["freezer"].append(food)


def acquire_to_kitchen(state: dict, p: dict, foods: list[str], freeze: list[str]) -> None:
    """Put bought or gathered ``foods`` in the kitchen, or the ones listed in ``freeze`` in the freezer."""
    freeze = list(freeze)
    for f in freeze:
        if f not in foods or freeze.count(f) > foods.count(f):
            raise RuleError("bad_argument", f"You can only freeze tokens you are getting now; "
                            f"{food_name(state, f)} is not among them.")
    for f in foods:
        if f in freeze:
            freeze.remove(f)
            to_freezer(state, p, f)
        else:
            to_kitchen(state, p, f)


def take_from_kitchen(state: dict, p: dict, food: str, column: int | None = None) -> None:
    """Remove one ``food`` token from the kitchen (by default from the column nearest to spoiling)."""
    cols = p["kitchen"]
    if column is not None:
        if not isinstance(column, int) or not 1 <= column <= len(cols):
            raise RuleError("bad_argument", f"Kitchen columns are 1 to {len(cols)}.")
        if food not in cols[column - 1]:
            raise RuleError("unavailable", f"There is no {food_name(state, food)} in kitchen column {column}.")
        cols[column - 1].remove(food)
        return
    for col in reversed(cols):
        if food in col:
            col.remove(food)
            return
    raise RuleError("unavailable", f"You have no {food_name(state, food)} in your kitchen.")


def take_from_thaw(state: dict, p: dict, food: str) -> None:
    if food not in p["thaw"]:
        raise RuleError("unavailable", f"There is no {food_name(state, food)} in your thaw area.")
    p["thaw"].remove(food)


def _last(tokens: list, match) -> int | None:
    return next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i] is not None and match(tokens[i])), None)


def take_from_body(state: dict, p: dict, food: str, group: str | None = None, position: int | None = None) -> str:
    """Remove one token from the body for a work out; returns the food it counts as.

    By default the group's last ``food`` token goes; ``position`` (1-based) names the
    space instead, as a player may take any of them.  Its space stays empty.
    ``group`` names an allergy tile to take any of its tokens as the tile's
    forbidden food (the rulebook's work-out exception).
    """
    if group is None:
        g = next((g for g in p["groups"] if food in p["body"][g["id"]]), None)
        if g is None:
            raise RuleError("unavailable", f"You have no {food_name(state, food)} in your body.")
    else:
        g = next((g for g in p["groups"] if g["id"] == group), None)
        if g is None:
            raise RuleError("unknown_card", f"Your body has no food group {group!r}.")
    tokens = p["body"][g["id"]]
    as_tile = bool(g.get("tile")) and food in forbidden(state, p)
    match = (lambda t: True) if as_tile else (lambda t: t == food)
    if position is None:
        index = _last(tokens, match)
    elif isinstance(position, int) and not isinstance(position, bool) and 1 <= position <= len(tokens) \
            and tokens[position - 1] is not None and match(tokens[position - 1]):
        index = position - 1
    else:
        raise RuleError("unavailable", f"Space {position!r} of your {g['name']} group holds no "
                        f"{food_name(state, food)}.")
    if index is None:
        raise RuleError("unavailable", f"Your {g['name']} tile is empty." if as_tile else
                        f"There is no {food_name(state, food)} in your {g['name']} group.")
    _lift(tokens, index)
    return food


def shift_kitchen(p: dict) -> int:
    """End of round: every kitchen token moves one column right; the last column and the
    thaw area go to the trash.  Returns how many tokens were trashed."""
    cols = p["kitchen"]
    spoiled = cols[-1] + p["thaw"]
    p["trash"].extend(spoiled)
    p["kitchen"] = [[]] + [list(c) for c in cols[:-1]]
    p["thaw"] = []
    return len(spoiled)
