"""Setting up a game: options, the data a game keeps, decks, boards and the first round.

The state (a JSON-able dict) holds, besides the common envelope:
``data`` (where each kind of data came from), ``cards`` (records by id),
``foods``, ``diets`` (the diet boards in play, by id), ``shopping`` (grid
"row.col" -> food), ``main``; the round, turn order, decks and face-up cards,
the main board's action spaces, and ``seats``: one record per player (see
:func:`_player`).
"""
from __future__ import annotations

import copy

from ..base import RuleError, new_state, rng
from . import data as data_mod
from . import abilities, rules
from .physical import new_drawn, physical_draws


def _player(name: str, seat: int, diet: str, groups: list[dict], columns: int) -> dict:
    """A player's record: their diet board and its contents, cards, and this round's counters."""
    return {
        "seat": seat, "name": name, "diet": diet,
        "groups": groups,                      # body food groups (an allergy tile replaces one)
        "body": {g["id"]: [] for g in groups},  # tokens per group, in fill order
        "kitchen": [[] for _ in range(columns)],
        "trash": [], "freezer": [], "thaw": [],
        "recipes": [], "recipe_tokens": {}, "recipes_done": [], "abilities_used": [],
        "activities": [], "activity_tokens": {}, "activities_done": [],
        "assistants": [], "last_assistants": [],
        "allergy": None, "tile_first": [],
        "actions_left": rules.ACTIONS_PER_ROUND, "passed": False, "snacks": 0, "market_visits": 0,
        "diet_markers": rules.no_diet_markers(),   # markers on the diet board's action spaces this round
        "pizza": False, "adjustments": [], "goal_vp": {},
        "turn_effects": abilities.fresh_turn(),   # what abilities used this turn change (see abilities.py)
        "allow_once": [],                          # limits the host lets the player break once
        "skip_spoil": False, "before_shift": None,  # spoilage control: skip this round's shift, or undo it
    }


def _by_id(records: list[dict]) -> dict:
    return {r["id"]: r for r in records}


def game_data(options: dict) -> dict:
    """The card data a game with ``options`` is set up from now, as JSON (the table journals it)."""
    return data_mod.load(sample_only=options["data"] == "sample").as_json()


def _catalog(options: dict, snapshot: dict | None):
    cat = data_mod.Catalog.from_json(snapshot if snapshot is not None else game_data(options))
    if cat.problems:
        raise RuleError("bad_data", f"The Food for Thought data has {len(cat.problems)} problem(s); "
                        f"run `tofu-table data check` to see them. First: {cat.problems[0]}")
    return cat


def _diets(cat, options: dict, count: int) -> list[dict]:
    """The diet board of each seat, in seat order, from the ``diet`` option: ``auto`` (Standard;
    Cleanse when solo), one board id for everyone, or one id per seat separated by commas.

    The rulebook lets each player pick their own board, but the whole table plays either
    the Standard Diet or alternate boards, never a mix; Cleanse is for solo play only.
    """
    boards = _by_id(cat.records["boards"])
    wanted = options["diet"]
    if wanted == "auto":
        kind = "solo" if count == 1 and any(b["kind"] == "solo" for b in boards.values()) else "standard"
        return [next(b for b in boards.values() if b["kind"] == kind)] * count
    ids = [w.strip() for w in wanted.split(",")]
    if len(ids) == 1:
        ids = ids * count
    if len(ids) != count:
        raise RuleError("bad_option", f"diet names {len(ids)} boards for {count} players: give one board for "
                        "everyone or one per seat, separated by commas.")
    unknown = [i for i in ids if i not in boards]
    if unknown:
        raise RuleError("bad_option", f"There is no diet board {unknown[0]!r}; boards: {', '.join(boards)}.")
    chosen = [boards[i] for i in ids]
    if count != 1 and any(b["kind"] == "solo" for b in chosen):
        raise RuleError("bad_option", f"The {next(b for b in chosen if b['kind'] == 'solo')['name']} board is "
                        "for solo play only.")
    if len({b["kind"] == "standard" for b in chosen}) > 1:
        raise RuleError("bad_option", "Everyone plays the Standard Diet, or everyone an alternate board: "
                        "the rulebook does not mix them.")
    return chosen


def setup(players: list[str], options: dict, seed: int, snapshot: dict | None = None) -> dict:
    """A new game for ``players`` with the resolved ``options``, from the card data ``snapshot``
    (:func:`game_data`; read now when None); round 1 starts with assistants."""
    count = len(players)
    if count == 1 and (options["potluck"] or options["goals"]):
        raise RuleError("bad_option", "The Potluck and Goals modules are not for the solo game; "
                        "switch them off to play alone.")
    if options["first_seat"] > count:
        raise RuleError("bad_option", f"first_seat must be a seat from 1 to {count}.")
    cat = _catalog(options, snapshot)
    state = new_state(rules.GAME_ID, players, seed, "assistants")
    diets = _diets(cat, options, count)
    cards = {k: _by_id(cat.records[k]) for k in
             ("recipes", "activities", "market", "out_of_stock", "goals", "assistants", "allergies")}
    state.update({
        "options": dict(options), "data": {"sources": dict(cat.sources), "sample": cat.sample_kinds(),
                                           "fingerprint": cat.fingerprint()},
        "cards": cards, "foods": _by_id(cat.records["foods"]), "diets": {b["id"]: b for b in diets},
        "shopping": {f"{s['row']}.{s['col']}": s["food"] for s in cat.records["shopping"]},
        "main": cat.records["main_board"][0], "round": 1, "first_seat": options["first_seat"],
        "turn": None, "pending": None, "dice": None, "covered": {}, "goals": [], "cleanup": [],
        "boards": {}, "receipts": [], "rating": None, "drawn": new_drawn(), "laying_out": True,
        "question": None, "put_back": [], "final_cleanup": False,
    })
    r = rng(state)
    # Recipes: base deck, solo without asterisk cards; modules swap 8 base cards for theirs.
    recipes = [c for c in cards["recipes"].values() if c["module"] == "base" and (count > 1 or c["solo"])]
    r.shuffle(recipes)
    for module in ("potluck", "freezer"):
        if options[module]:
            extra = [c for c in cards["recipes"].values() if c["module"] == module]
            base = [c for c in recipes if c["module"] == "base"]
            out = {c["id"] for c in base[:min(rules.MODULE_RECIPE_SWAP, len(extra), len(base))]}
            recipes = [c for c in recipes if c["id"] not in out] + extra
            r.shuffle(recipes)
    ids = [c["id"] for c in recipes]
    half = (len(ids) + 1) // 2
    state["recipe_piles"] = [ids[:half], ids[half:]]     # the deck split in two halves
    activities = sorted(cards["activities"])
    r.shuffle(activities)
    state["planner"], state["activity_deck"] = activities[:rules.DAILY_PLANNER_SIZE], activities[rules.DAILY_PLANNER_SIZE:]
    # Farmers market: decks by stand, lowest round on top; 2 players use 8 random cards.
    market = sorted(cards["market"])
    if count == 2:
        r.shuffle(market)
        market = sorted(market[:rules.TWO_PLAYER_MARKET_CARDS])
    state["market_cards"] = sorted(market, key=lambda m: (cards["market"][m]["round"], m))
    # Out of stock cards for 1-2 players.
    oos = sorted(cards["out_of_stock"]) if count <= 2 else []
    r.shuffle(oos)
    state["oos_deck"], state["oos_up"] = oos, []
    # Assistants in play.
    state["assistants_in_play"] = [a for a in sorted(cards["assistants"])
                                   if count not in cards["assistants"][a]["left_out_with"]]
    # Goals.
    if options["goals"]:
        goals = sorted(cards["goals"])
        r.shuffle(goals)
        state["goals"] = sorted(goals[:rules.GOALS_IN_PLAY])
    # Bag and dining out.
    main = state["main"]
    bag = [f for f in sorted(state["foods"]) for _ in range(main["bag_per_food"])]
    r.shuffle(bag)
    state["bag"] = bag
    state["pizza"], state["buffet"] = [], [[] for _ in range(main["buffet_rows"])]
    # Players and their boards (allergy tiles at random, the host may reassign them).
    tiles = sorted(cards["allergies"])
    r.shuffle(tiles)
    state["seats"] = {}
    for i, name in enumerate(players):
        seat = i + 1
        diet = diets[i]
        p = _player(name, seat, diet["id"], copy.deepcopy(diet["groups"]), diet["kitchen"]["columns"])
        state["seats"][str(seat)] = p
        if options["food_allergy"] and tiles:
            set_allergy(state, p, tiles[i % len(tiles)])
    if physical_draws(state):         # the group shuffles and deals; taps and the camera tell the table
        state["recipe_piles"], state["planner"], state["activity_deck"], state["bag"] = [[], []], [], [], []
        state["goals"] = []
        state["oos_deck"] = sorted(state["oos_deck"])     # the cards still in the deck, in no known order
        if count == 2:
            state["market_cards"] = []                    # the 8 stands drawn are tapped at set-up
    from .rounds import start_round
    start_round(state, refill_dining=True)
    return state


def set_allergy(state: dict, p: dict, tile_id: str) -> None:
    """Put allergy tile ``tile_id`` on player ``p``'s board over the group it replaces."""
    tile = state["cards"]["allergies"][tile_id]
    base = copy.deepcopy(state["diets"][p["diet"]]["groups"])
    groups = [dict(id=g["id"], name=tile["name"], foods=list(tile["foods"]), zero_vp=tile["zero_vp"],
                   spaces=list(tile["spaces"]), tile=True)
              if g["id"] == tile["replaces"] else g for g in base]
    p["groups"], p["allergy"], p["tile_first"] = groups, tile_id, list(tile["foods"])
    p["body"] = {g["id"]: p["body"].get(g["id"], []) for g in groups}
