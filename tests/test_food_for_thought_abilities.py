"""Food for Thought card abilities as data the engine applies (issue 15).

Rulebook: a completed recipe's ability may be used once, at any time during its owner's turn
(including the turn it is completed), then the card flips; end-of-round abilities resolve in
turn order at the end of the round; end-game abilities score at the end.  Each assistant has
two options and a player benefits from one option, once per turn.  The cards' texts are not in
the rulebook, so every effect here is one of the SAMPLE (invented) cards in
server/games/data/food_for_thought/: each test plays a real game up to the situation (setup,
assistants, real cook actions to complete the card) and then uses the ability.
"""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.games.food_for_thought import abilities, actions, cleanup, data, inference, rules, web
from server.games.food_for_thought.boards import implied
from server.journal import Journal
from server.table import Table
from tests.support.food_for_thought import (every_slot, finish_actions, host, new_table, next_round, ok,
                                            pick_assistants, player, refused, seat)

FILLER = "veg"          # the food put on a recipe's wild space


def _visible(table) -> list[str]:
    return actions.visible_recipes(table.state)


def game(players, rid: str, also=lambda state: True, **options):
    """A real game (the engine's own setup and deal) in which recipe ``rid`` is face-up in the Recipe
    Book at the start (and ``also`` holds): the first seed that deals it so."""
    for s in range(1, 300):
        table = new_table(players, seed=s, **options)
        if rid in _visible(table) and also(table.state):
            pick_assistants(table)
            return table
    raise AssertionError(f"no seed deals {rid} face-up")


def turn_to(table, n: int) -> None:
    """The other players take an empty cook (a real action) until it is seat ``n``'s turn."""
    while table.state["turn"] != n:
        seat(table, table.state["turn"], "cook")


def stock(table, n: int, foods: list[str], where: str = "kitchen") -> None:
    """The host's board correction puts ``foods`` in seat ``n``'s kitchen (each in its own column),
    body or trash, as if they had been bought or eaten earlier."""
    state = table.state
    p = player(table, n)
    slots = {}
    if where == "kitchen":
        entry = state["diets"][p["diet"]]["kitchen"]["entry"]
        rows = {c: len(col) for c, col in enumerate(p["kitchen"], 1)}
        for f in foods:
            rows[entry[f]] += 1
            slots[f"kitchen.{entry[f]}.{rows[entry[f]]}"] = f
    elif where == "trash":
        slots = {f"trash.{len(p['trash']) + i}": f for i, f in enumerate(foods, 1)}
    else:
        for f in foods:
            g = next(g for g in p["groups"] if f in g["foods"])
            filled = len(p["body"][g["id"]]) + sum(1 for s in slots if s.startswith(f"body.{g['id']}."))
            slots[f"body.{g['id']}.{filled + 1}"] = f
    host(table, "correct_board", board=f"diet-{n}", slots=slots)


def complete(table, n: int, rid: str) -> None:
    """Seat ``n`` takes face-up recipe ``rid`` and cooks it to completion with real cook actions."""
    needs = table.state["cards"]["recipes"][rid]["needs"]
    foods = [FILLER if need == "wild" else need.split("|")[0] for need in needs]
    stock(table, n, foods)
    turn_to(table, n)
    first, rest = foods[:rules.TOKENS_PER_COOK], foods[rules.TOKENS_PER_COOK:]
    seat(table, n, "cook", take=[rid], place=[{"recipe": rid, "food": f} for f in first])
    if rest:
        turn_to(table, n)
        seat(table, n, "cook", place=[{"recipe": rid, "food": f} for f in rest])
    assert rid in player(table, n)["recipes_done"]


def with_assistant(players, seed: int, card: str, **options):
    """A real game in which seat 1 picks assistant ``card`` (the others the first they may), to Ann's turn."""
    table = new_table(players, seed=seed, **options)
    while table.state["phase"] == "assistants":
        n = table.state["assistant_queue"][0]
        pick = card if n == 1 else next(a for a in table.state["assistants_free"] if a != card)
        seat(table, n, "assistant", card=pick)
    turn_to(table, 1)
    return table


def use(table, n: int, **body):
    return seat(table, n, "use_ability", **body)


def use_refused(table, n: int, code: str, **body):
    return refused(table, {"seat": {"seat": n, "action": "use_ability", **body}}, code)


def kitchen(table, n):
    return sorted(f for col in player(table, n)["kitchen"] for f in col)


def body(table, n):
    return sorted(t for ts in player(table, n)["body"].values() for t in ts if t)


# ----------------------------------------------------------------------------- the format
def test_every_effect_kind_and_when_is_in_the_sample_cards():
    """Issue 15: the sample cards exercise every effect kind (each one is played below)."""
    cat = data.load(sample_only=True)
    assert not cat.problems
    found = [a for r in cat.records["recipes"] if r["does"] for a in [r["does"]]]
    found += [a for c in cat.records["assistants"] for a in c["does"]]
    kinds = {e["kind"] for a in found for e in a["effects"]}
    assert kinds == set(abilities.EFFECTS)
    limits = {e["limit"] for a in found for e in a["effects"] if e["kind"] == "limit"}
    assert limits == set(abilities.LIMITS)
    whens = {a["when"] for a in found}
    assert {"on_complete", "own_turn", "during:cook", "during:shop", "during:workout", "end_of_round",
            "end_of_game"} <= whens


@pytest.mark.parametrize("ability, expected", [
    ({"when": "later", "often": "once", "effects": [{"kind": "manual", "text": "x"}]}, '"when" must be one of'),
    ({"when": "own_turn", "often": "twice", "effects": [{"kind": "manual", "text": "x"}]}, '"often" must be one of'),
    ({"when": "own_turn", "often": "once", "effects": []}, '"effects" must be a non-empty list'),
    ({"when": "own_turn", "often": "once", "effects": [{"kind": "teleport"}]}, '"kind" is one of limit'),
    ({"when": "own_turn", "often": "once", "effects": [{"kind": "limit", "limit": "naps", "add": 1}]},
     "limit must be one of tokens_per_cook"),
    ({"when": "own_turn", "often": "once", "effects": [{"kind": "move", "from": "kitchen", "to": "body"}]},
     'add "food" to the ability\'s choices'),
    ({"when": "own_turn", "often": "once", "choices": ["food"],
      "effects": [{"kind": "move", "from": "target:kitchen", "to": "kitchen"}]}, 'add "target"'),
    ({"when": "own_turn", "often": "once", "choices": ["food"],
      "effects": [{"kind": "move", "from": "garden", "to": "kitchen"}]}, "from must be one of supply"),
    ({"when": "own_turn", "often": "once", "choices": ["food"],
      "effects": [{"kind": "move", "from": "supply", "to": "body", "food": "any"}]}, 'not a food id or "chosen"'),
    ({"when": "own_turn", "often": "once", "effects": [{"kind": "price", "price": 1, "food": "meat"}]},
     'needs "when": during:shop'),
    ({"when": "during:shop", "often": "once", "effects": [{"kind": "die", "do": "set"}]},
     'needs "die" in the ability\'s choices'),
    ({"when": "own_turn", "often": "once", "effects": [{"kind": "spoilage", "do": "undo"}]},
     'needs "when": "end_of_round"'),
    ({"when": "end_of_game", "often": "once", "effects": [{"kind": "end_vp", "measure": {"of": "moon"}, "each": 1}]},
     '"of" must be one of'),
    ({"when": "end_of_game", "often": "once", "effects": [{"kind": "end_vp", "measure": {"of": "trash"}}]},
     'gives "each"'),
    ({"when": "own_turn", "often": "choose_one_per_turn", "effects": [{"kind": "extra_action"}]},
     "is for an assistant's options"),
    ({"when": "on_complete", "often": "once", "choices": ["food"],
      "effects": [{"kind": "move", "from": "supply", "to": "kitchen"}]}, "it can have no choices"),
])
def test_data_check_refuses_an_ability_it_cannot_apply(ability, expected):
    """Issue 15: every effect kind is validated by data check with a clear message."""
    record = {"id": "x1", "name": "X", "needs": ["veg"], "vp": 1, "penalty": 1, "module": "base", "solo": True, "does": ability}
    found = data.check_record("recipes", record, {"veg", "meat", "water"}, "recipes.jsonl line 3")
    assert found and any(expected in p for p in found), found
    assert all(p.startswith("recipes.jsonl line 3: field 'does'") for p in found)


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.sampled_from(
    ["kitchen", "chosen", "veg", "once", "own_turn", "move", "limit", "end_vp", "food", "target:body"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["when", "often", "choices", "effects", "kind", "from", "to", "food", "limit", "add", "measure", "do"]),
        inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(ability=_JSON | st.fixed_dictionaries({"when": _JSON, "often": _JSON, "choices": _JSON,
                                              "effects": st.lists(st.dictionaries(st.sampled_from(
                                                  ["kind", "from", "to", "food", "limit", "add", "measure", "do",
                                                   "count", "price", "space", "each", "vp", "at_least"]),
                                                  _JSON, max_size=5), max_size=3)}))
def test_data_check_never_fails_on_any_json(ability):
    """Whatever JSON the owner writes in "does", data check answers with problems (or none): it
    never crashes, and what it passes can be put in words."""
    found = abilities.problems(ability, {"veg", "meat"})
    if not found:
        assert abilities.describe(ability).endswith(".")


def test_assistant_abilities_need_one_per_option():
    record = {"id": "coach", "name": "Coach", "helps": "x", "options": ["a", "b"], "left_out_with": [],
              "does": [{"when": "own_turn", "often": "choose_one_per_turn", "effects": [{"kind": "extra_action"}]}]}
    found = data.check_record("assistants", record, {"veg"}, "assistants.jsonl line 4")
    assert any("1 abilities for 2 options" in p for p in found)


def test_an_ability_reads_as_one_sentence():
    """The TV, the phone and the entry form show an ability in words."""
    names = {"veg": "Vegetables", "meat": "Meat"}
    assert abilities.describe({"when": "during:cook", "often": "once",
                               "effects": [{"kind": "limit", "limit": "tokens_per_cook", "add": 1}]}, names) == \
        "During your cook, once (then the card flips): 1 more token moved in a cook."
    assert abilities.describe({"when": "own_turn", "often": "once", "choices": ["food", "target"],
                               "effects": [{"kind": "move", "from": "kitchen", "to": "target:kitchen"}]}, names) == \
        "During your turn, once (then the card flips): move a token of your choice from your kitchen " \
        "to another player's kitchen."
    assert abilities.describe({"when": "end_of_game", "often": "once", "effects": [
        {"kind": "end_vp", "measure": {"of": "body", "where": {"food": "veg"}}, "at_least": 3, "vp": 4}]}, names) == \
        "At the end of the game: +4 VP with at least 3 tokens in your body (food: Vegetables)."
    assert abilities.describe({"when": "end_of_game", "often": "once", "effects": [
        {"kind": "end_vp", "measure": {"of": "activities", "distinct": "icon"}, "each": 1}]}) == \
        "At the end of the game: +1 VP per different icon among your completed activities."


# ----------------------------------------------------------------------------- limits
def test_a_cook_limit_raised_for_one_cook():
    """Sample r16 (during a cook, once): +1 token moved; rulebook: a cook moves at most 3 tokens."""
    table = game(["Ann", "Ben"], "r16")
    complete(table, 1, "r16")
    soup = next(r for r in _visible(table) if len(table.state["cards"]["recipes"][r]["needs"]) >= 3)
    needs = [FILLER if n == "wild" else n.split("|")[0] for n in table.state["cards"]["recipes"][soup]["needs"]]
    stock(table, 1, needs + ["water"])
    turn_to(table, 1)
    other = next(r for r in _visible(table) if r != soup)
    first = table.state["cards"]["recipes"][other]["needs"][0].split("|")[0]
    four = [{"recipe": soup, "food": f} for f in needs[:3]] + [{"recipe": other, "food": first}]
    stock(table, 1, [four[3]["food"]])
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": [soup, other], "place": four}}, "bad_argument")
    use(table, 1, recipe="r16")
    assert "r16" in player(table, 1)["abilities_used"]                  # the card flips
    seat(table, 1, "cook", take=[soup, other], place=four)
    use_refused(table, 1, "already_done", recipe="r16")


def test_assistant_options_once_per_turn_and_their_limits():
    """Rulebook: an assistant offers two options and a player benefits from one option, once per turn.
    Sample Personal Shopper option 1: +$2 to spend; rulebook: up to $6."""
    table = with_assistant(["Ann", "Ben"], 3, "personal-shopper", dice="physical")
    seat(table, 1, "shop", dice=[6, 6])
    regular = [s for s in sorted(table.state["shopping"]) if "6" not in s and s not in table.state["covered"]][:3]
    assert all(actions.price(table.state, s) == rules.PRICE_REGULAR for s in regular)   # $9 in all
    refused(table, {"seat": {"seat": 1, "action": "buy", "items": [{"space": s} for s in regular]}}, "breaks_rule")
    use(table, 1, assistant="personal-shopper", option=1)
    use_refused(table, 1, "already_done", assistant="personal-shopper", option=2, die=1, value=3)
    refused(table, {"seat": {"seat": 1, "action": "buy", "items": [{"space": s} for s in regular]}}, "breaks_rule")
    on_sale = next(s for s in sorted(table.state["shopping"]) if s.startswith("6.") and s not in table.state["covered"])
    seat(table, 1, "buy", items=[{"space": s} for s in regular[:2]] + [{"space": on_sale}])
    assert table.state["log"][-1].endswith("($7 of $8).")
    use_refused(table, 2, "breaks_rule", assistant="personal-shopper", option=1)   # not Ben's assistant


def _stand(table) -> dict:
    """A visit to this round's first open farmers market stand (wild spaces: Vegetables)."""
    stand = table.state["market_up"][0]
    return {"card": stand, "wild": ["veg"] * table.state["cards"]["market"][stand]["foods"].count("wild")}


def test_market_visits_limit_per_turn_recipe_and_host_allow_once():
    """Rulebook: at most two farmers market visits a round.  Sample f04 (per turn, never flips): +1
    visit; the host's "allow once" lifts a named limit for one use."""
    table = game(["Ann"], "f04", freezer=True)
    complete(table, 1, "f04")
    visit = _stand(table)
    seat(table, 1, "market", **visit)
    seat(table, 1, "market", **visit)
    refused(table, {"seat": {"seat": 1, "action": "market", **visit}}, "unavailable")
    host(table, "allow_once", seat=1, limit="market_visits")
    refused(table, {"host": {"action": "allow_once", "seat": 1, "limit": "market_visits"}}, "already_done")
    refused(table, {"host": {"action": "allow_once", "seat": 1, "limit": "naps"}}, "bad_argument")
    assert table.view("seat-1")["me"]["can"].count("market") == 1
    seat(table, 1, "market", **visit)                                  # the third visit, allowed once
    assert player(table, 1)["allow_once"] == [] and player(table, 1)["market_visits"] == 3
    host(table, "continue")                                             # that was the 4th action
    pick_assistants(table)
    visit = _stand(table)
    seat(table, 1, "market", **visit)
    seat(table, 1, "market", **visit)
    refused(table, {"seat": {"seat": 1, "action": "market", **visit}}, "unavailable")
    use(table, 1, recipe="f04")                                         # a third, through the card
    use_refused(table, 1, "already_done", recipe="f04")                 # once per turn
    seat(table, 1, "market", **visit)
    assert "f04" not in player(table, 1)["abilities_used"]              # per turn: it never flips
    refused(table, {"seat": {"seat": 1, "action": "market", **visit}}, "unavailable")
    use(table, 1, recipe="f04")                                         # the next turn: again, +1 on 2
    refused(table, {"seat": {"seat": 1, "action": "market", **visit}}, "unavailable")


def test_fitness_coach_moves_a_fourth_token_and_takes_a_third_activity():
    """Rulebook: a work out takes up to 2 activities and moves up to 3 body tokens.  Sample Fitness
    Coach: option 1 +1 token, option 2 +1 activity taken (one option per turn)."""
    table = with_assistant(["Ann", "Ben"], 2, "fitness-coach")
    three = list(table.state["planner"])
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": three}}, "bad_argument")
    use(table, 1, assistant="fitness-coach", option=2)
    seat(table, 1, "workout", take=three)
    assert set(three) <= set(player(table, 1)["activities"])
    turn_to(table, 1)                                                  # a new turn: an option again
    use(table, 1, assistant="fitness-coach", option=1)
    assert abilities.limit(player(table, 1), "tokens_per_workout") == rules.TOKENS_PER_WORKOUT + 1


# ----------------------------------------------------------------------------- moving tokens
def test_kitchen_to_body_and_trash_to_supply():
    """Sample r03: eat a kitchen token of your choice; sample r04: a trash token back to the supply
    (rulebook: -2 VP per trash token at the end)."""
    table = game(["Ann", "Ben"], "r03")
    complete(table, 1, "r03")
    stock(table, 1, ["dairy"])
    stock(table, 1, ["meat"], where="trash")
    turn_to(table, 1)
    use_refused(table, 1, "bad_argument", recipe="r03")                       # no food named
    use_refused(table, 1, "unavailable", recipe="r03", food="alcohol")         # none in the kitchen
    before = body(table, 1).count("dairy")
    use(table, 1, recipe="r03", food="dairy")
    assert "dairy" not in kitchen(table, 1) and body(table, 1).count("dairy") == before + 1
    use_refused(table, 1, "breaks_rule", recipe="r04")                        # not completed


def test_trash_to_supply_changes_the_trash_score():
    table = game(["Ann"], "r04")
    complete(table, 1, "r04")
    stock(table, 1, ["meat", "meat"], where="trash")
    turn_to(table, 1)
    use(table, 1, recipe="r04", food="meat")
    assert player(table, 1)["trash"] == ["meat"]


def test_potluck_moves_tokens_between_players_boards():
    """Potluck cards are interactive: sample p01 gives a kitchen token to another player's kitchen,
    p02 takes one from another player's kitchen."""
    table = game(["Ann", "Ben", "Cat"], "p01", potluck=True)
    complete(table, 1, "p01")
    stock(table, 1, ["water"])
    turn_to(table, 1)
    use_refused(table, 1, "bad_argument", recipe="p01", food="water", target=1)   # not yourself
    use_refused(table, 1, "bad_argument", recipe="p01", food="water", target=9)
    use(table, 1, recipe="p01", food="water", target=3)
    assert "water" not in kitchen(table, 1) and kitchen(table, 3) == ["water"]
    assert kitchen(table, 2) == []


def test_potluck_takes_from_another_players_kitchen():
    table = game(["Ann", "Ben"], "p02", potluck=True)
    complete(table, 1, "p02")
    stock(table, 2, ["grain"])
    turn_to(table, 1)
    use_refused(table, 1, "unavailable", recipe="p02", food="meat", target=2)
    use(table, 1, recipe="p02", food="grain", target=2)
    assert kitchen(table, 2) == [] and kitchen(table, 1) == ["grain"]


def test_bag_and_buffet_moves():
    """Sample p03: a token of your choice from the bag to your kitchen; p04: one from the Chinese
    Buffet to your body (the bag and the buffet as the engine dealt them)."""
    table = game(["Ann", "Ben"], "p03", potluck=True)
    complete(table, 1, "p03")
    turn_to(table, 1)
    food = table.state["bag"][0]
    bag = table.state["bag"].count(food)
    use(table, 1, recipe="p03", food=food)
    assert table.state["bag"].count(food) == bag - 1 and food in kitchen(table, 1)
    table = game(["Ann", "Ben"], "p04", potluck=True)
    complete(table, 1, "p04")
    turn_to(table, 1)
    food = table.state["buffet"][0][0]
    missing = next(f for f in table.state["foods"] if all(f not in r for r in table.state["buffet"]))
    use_refused(table, 1, "unavailable", recipe="p04", food=missing)
    before = sum(r.count(food) for r in table.state["buffet"])
    use(table, 1, recipe="p04", food=food)
    assert sum(r.count(food) for r in table.state["buffet"]) == before - 1


def test_freezer_moves_and_an_on_complete_ability():
    """Freezer module: sample f01 moves a kitchen token into the freezer, f02 one from the freezer to
    the thaw area; f03 applies by itself when completed (a Poultry token into the freezer)."""
    table = game(["Ann"], "f03", freezer=True)
    complete(table, 1, "f03")
    assert player(table, 1)["freezer"] == ["poultry"] and "f03" in player(table, 1)["abilities_used"]
    use_refused(table, 1, "already_done", recipe="f03")
    table = game(["Ann"], "f01", freezer=True)
    complete(table, 1, "f01")
    stock(table, 1, ["meat", "grain"])
    turn_to(table, 1)
    use_refused(table, 1, "breaks_rule", recipe="f01", food="grain")          # grain does not freeze
    use(table, 1, recipe="f01", food="meat")
    assert player(table, 1)["freezer"] == ["meat"]


# ----------------------------------------------------------------------------- placement and actions
def test_a_token_counts_as_wild_on_a_recipe():
    """Sample r07 (during a cook): one token placed on a recipe counts as wild; a placement marks it
    with "wild": true."""
    table = game(["Ann", "Ben"], "r07")
    complete(table, 1, "r07")
    target = next(r for r in _visible(table) if "alcohol" not in table.state["cards"]["recipes"][r]["needs"])
    stock(table, 1, ["alcohol"])
    turn_to(table, 1)
    place = [{"recipe": target, "food": "alcohol", "wild": True}]
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": [target], "place": place}}, "breaks_rule")
    use(table, 1, recipe="r07")
    seat(table, 1, "cook", take=[target], place=place)
    assert "alcohol" in player(table, 1)["recipe_tokens"][target]


@pytest.mark.parametrize("mode", ["guided", "physical"])
def test_wild_uniqueness_lifted_for_a_work_out(mode):
    """Rulebook: a wild activity space takes a food neither shown on the card nor already on it.
    Sample r02 (during a work out) lifts that: a second token of the food the card shows goes on its
    wild space (physical-first: worked out from the two tokens the camera sees on the card)."""
    def wild_activity(state):
        return next((a for a in state["planner"] if "wild" in state["cards"]["activities"][a]["needs"]
                     and any("wild" not in n for n in state["cards"]["activities"][a]["needs"])), None)
    table = game(["Ann"], "r02", also=wild_activity, mode=mode)
    act = wild_activity(table.state)
    complete(table, 1, "r02")
    needs = table.state["cards"]["activities"][act]["needs"]
    shown = next(n.split("|")[0] for n in needs if "wild" not in n)
    seat(table, 1, "workout", take=[act])
    stock(table, 1, [shown, shown], where="body")
    place = [{"activity": act, "food": shown}, {"activity": act, "food": shown}]
    refused(table, {"seat": {"seat": 1, "action": "workout", "place": place}}, "unavailable")
    had = body(table, 1).count(shown)
    use(table, 1, recipe="r02")
    if mode == "physical":
        by_hand(table, 1, {"action": "workout", "place": place})
    else:
        seat(table, 1, "workout", place=place)
    assert body(table, 1).count(shown) == had - 2, table.view("table")["put_back"]
    done = act in player(table, 1)["activities_done"]
    assert done == (len(needs) == 2)                      # a two-space card is complete
    assert done or player(table, 1)["activity_tokens"][act][needs.index("wild")] == [shown]


def test_extra_action_this_round():
    """Rulebook: four action markers a round; sample r05 grants one more."""
    table = game(["Ann"], "r05")
    complete(table, 1, "r05")
    left = player(table, 1)["actions_left"]
    use(table, 1, recipe="r05")
    assert player(table, 1)["actions_left"] == left + 1
    for _ in range(left + 1):
        seat(table, 1, "cook")
    assert table.state["phase"] == "cleanup"


def test_using_an_occupied_space():
    """Rulebook: one player a round dines at Pizza To Go; sample f02 lets its owner use an occupied space."""
    table = game(["Ann", "Ben"], "f02", freezer=True)
    complete(table, 1, "f02")
    turn_to(table, 2)
    seat(table, 2, "pizza")
    turn_to(table, 1)
    refused(table, {"seat": {"seat": 1, "action": "pizza"}}, "unavailable")
    use(table, 1, recipe="f02")
    seat(table, 1, "pizza")
    assert "f02" in player(table, 1)["abilities_used"] and player(table, 1)["actions_left"] == 2
    # Ben dined first: his marker stays on the space with its extra action at the round's end
    assert table.state["spaces"]["pizza"] == 2 and player(table, 2)["pizza"] and not player(table, 1)["pizza"]


def test_restaurateur_takes_a_pizza_token_to_the_kitchen():
    """Sample Restaurateur option 2: a Pizza To Go token of your choice into your kitchen."""
    table = with_assistant(["Ann", "Ben"], 4, "restaurateur")
    food = table.state["pizza"][-1]
    use(table, 1, assistant="restaurateur", option=2, food=food)
    assert food in kitchen(table, 1)


# ----------------------------------------------------------------------------- shopping
def test_set_a_die_and_a_price_while_shopping():
    """Rulebook: a space is on sale ($1) in a die's row or column, else $3.  Sample r11 turns a die to
    the face chosen; r12 makes a chosen food cost $1, both used while shopping."""
    table = game(["Ann"], "r11", dice="physical")
    complete(table, 1, "r11")
    turn_to(table, 1)
    use_refused(table, 1, "not_now", recipe="r11", die=1, value=4)            # only while shopping
    seat(table, 1, "shop", dice=[1, 1])
    space = next(s for s in sorted(table.state["shopping"]) if s.startswith("4.") and "1" not in s
                 and s not in table.state["covered"])
    assert actions.price(table.state, space) == rules.PRICE_REGULAR
    use_refused(table, 1, "bad_argument", recipe="r11", die=3, value=4)
    use(table, 1, recipe="r11", die=1, value=4)
    assert table.state["dice"] == [4, 1] and actions.price(table.state, space) == rules.PRICE_ON_SALE


def test_a_chosen_food_costs_one_dollar():
    table = game(["Ann"], "r12", dice="physical")
    complete(table, 1, "r12")
    turn_to(table, 1)
    seat(table, 1, "shop", dice=[1, 1])
    space = next(s for s in sorted(table.state["shopping"]) if "1" not in s and s not in table.state["covered"])
    food = table.state["shopping"][space]
    use(table, 1, recipe="r12", food=food)
    assert actions.price(table.state, space) == 1
    seat(table, 1, "buy", items=[{"space": space}])
    assert food in kitchen(table, 1)


# ----------------------------------------------------------------------------- spoilage
def test_skip_and_undo_the_kitchen_move():
    """Rulebook: at the end of each round every kitchen token moves one space right and the last
    column goes to the trash.  Sample r09 (during your turn) skips that for its owner this round;
    r10 (at the end of the round) undoes it."""
    table = game(["Ann", "Ben"], "r10")
    complete(table, 1, "r10")
    cols, last = len(player(table, 1)["kitchen"]), "meat"
    host(table, "correct_board", board="diet-1", slots={f"kitchen.{cols}.1": last})    # about to spoil
    before = copy.deepcopy(player(table, 1)["kitchen"])
    finish_actions(table)
    assert last in player(table, 1)["trash"]
    use(table, 1, recipe="r10")
    use_refused(table, 1, "already_done", recipe="r10")             # declared once
    host(table, "continue")                                          # it resolves as the clean-up ends
    assert player(table, 1)["kitchen"] == before and last not in player(table, 1)["trash"]
    assert "r10" in player(table, 1)["abilities_used"]


def test_skip_the_kitchen_move():
    table = game(["Ann"], "r09")
    complete(table, 1, "r09")
    stock(table, 1, ["water", "meat"])
    turn_to(table, 1)
    use(table, 1, recipe="r09")
    before = copy.deepcopy(player(table, 1)["kitchen"])
    finish_actions(table)
    assert player(table, 1)["kitchen"] == before and any(before)
    host(table, "continue")
    next_round(table)
    assert player(table, 1)["kitchen"] == [[]] + before[:-1]             # the next round moves again


# ----------------------------------------------------------------------------- manual and end of game
@pytest.mark.parametrize("mode", ["guided", "physical"])
def test_a_manual_effect_is_text_the_host_applies(mode):
    """Sample r08 (kind manual): its text is announced for the host to apply, and the card flips like
    any once-only ability (rulebook: a used recipe is turned face down)."""
    table = game(["Ann"], "r08", mode=mode)
    complete(table, 1, "r08")
    outcome = use(table, 1, recipe="r08")
    texts = [e.get("text", "") for e in outcome.events]
    assert any("the host applies" in t for t in texts)
    assert "r08" in player(table, 1)["abilities_used"]


def _end_line(table, name):
    while not table.state["over"]:
        next_round(table)
    return next(l for l in table.state["receipts"][0]["lines"] if l["label"].startswith(name + ":"))


@pytest.mark.parametrize("veg, vp, mode", [(3, 4, "guided"), (2, 0, "guided"), (3, 4, "physical")])
def test_end_of_game_vp_threshold_on_the_receipt(veg, vp, mode):
    """Rulebook: completed recipes with the end-game icon score at the end.  Sample r13: +4 VP with at
    least 3 Vegetables in the body, nothing with 2 (physical-first: the same receipt, the rounds ended
    at the host's continue)."""
    table = game(["Ann", "Ben"], "r13", mode=mode)
    complete(table, 1, "r13")
    use_refused(table, 1, "breaks_rule", recipe="r13")                      # not used during play
    stock(table, 1, ["veg"] * veg, where="body")
    line = _end_line(table, "Sample Pasta")
    assert body(table, 1).count("veg") == veg and line["section"] == "end_game" and line["vp"] == vp


def test_end_of_game_vp_per_icon_on_the_receipt():
    """Sample r15: +1 VP per different icon among the completed activities."""
    table = game(["Ann", "Ben"], "r15")
    complete(table, 1, "r15")
    turn_to(table, 1)
    act = table.state["planner"][0]
    needs = table.state["cards"]["activities"][act]["needs"]
    wilds = iter(f for f in table.state["foods"] if all(f not in n for n in needs))
    foods = [next(wilds) if "wild" in n else n.split("|")[0] for n in needs]
    counts = [2 if n == "wild2" else 1 for n in needs]
    stock(table, 1, [f for f, c in zip(foods, counts) for _ in range(c)], where="body")
    seat(table, 1, "workout", take=[act],
         place=[{"activity": act, "food": f, "count": c} for f, c in zip(foods, counts)])
    assert act in player(table, 1)["activities_done"]
    line = _end_line(table, "Sample Wine Night")
    assert line["vp"] == 1


# ----------------------------------------------------------------------------- replay
def test_a_four_player_game_with_abilities_replays_exactly(tmp_path):
    """Issue 15, done when: a 4-player game with abilities in play replays exactly (a restart refolds
    the journal to the same views, seat by seat)."""
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    for s in range(1, 300):
        ok(table, {"new_game": {"game": "food-for-thought", "players": ["A", "B", "C", "D"], "seed": s,
                                "options": {"data": "sample", "potluck": True}}})
        if "p01" in _visible(table):
            break
    pick_assistants(table)
    complete(table, 1, "p01")
    stock(table, 1, ["water"])
    turn_to(table, 1)
    used = [use(table, 1, recipe="p01", food="water", target=4)]
    for n in (2, 3, 4):                      # each uses an assistant option that asks for nothing
        turn_to(table, n)
        mine = player(table, n)["assistants"][0]
        options = table.state["cards"]["assistants"][mine]["does"]
        i = next(i for i, a in enumerate(options, 1) if a["when"] != "during:shop" and not a.get("choices"))
        used.append(use(table, n, assistant=mine, option=i))
        seat(table, n, abilities.serves(player(table, n)) or "cook")    # the action a during: option serves
    host(table, "allow_once", seat=2, limit="snacks")
    next_round(table)
    shopper = table.state["assistant_queue"][0]  # round 2: the Personal Shopper re-rolls a die (the table's dice)
    seat(table, shopper, "assistant", card="personal-shopper")
    pick_assistants(table)
    turn_to(table, shopper)
    seat(table, shopper, "shop")
    rolled = list(table.state["dice"])
    used.append(use(table, shopper, assistant="personal-shopper", option=2, die=1))
    assert table.state["dice"][1] == rolled[1]
    seat(table, shopper, "buy", items=[])
    assert len(used) == 5
    assert_replays_exactly(table, path)


def assert_replays_exactly(table, path) -> None:
    """A restart refolds the journal at ``path`` to the same state and views, seat by seat."""
    audiences = ("table", "host", *(f"seat-{n}" for n in table.state["seats"]))
    before = {a: table.view(a) for a in audiences}
    table.journal.close()
    again = Table(Journal(path))
    assert again.halted is None
    assert {a: again.view(a) for a in audiences} == before
    assert json.dumps(again.state, sort_keys=True) == json.dumps(table.state, sort_keys=True)


# ----------------------------------------------------------------------------- physical-first
def camera_reads(table, boards: dict) -> None:
    """The camera reports each diet board as ``boards`` gives its slots, every other slot empty."""
    for board, slots in boards.items():
        empty = every_slot(table.state, board) if board.startswith("diet-") else {}
        held = {**empty, **implied(table.state, board), **table.state["boards"].get(board, {}).get("seen", {})}
        ok(table, {"board": {"board": board, "slots": {**{s: None for s in held if s not in slots}, **slots}}})


def by_hand(table, n: int, body: dict, boards=("diet-1",)) -> None:
    """Seat ``n`` does ``body`` with the tokens (as the rules would move them) and the camera reads it."""
    trial = copy.deepcopy(table.state)
    inference.play(trial, n, body)
    camera_reads(table, {b: implied(trial, b) for b in boards})


def test_physical_first_an_abilitys_move_is_checked_against_the_camera():
    """Physical-first mode: the ability moves the record's token (sample r03: a kitchen Dairy into the
    body); until the camera sees the token moved the TV lists the difference, and once it does the
    boards agree with no action worked out from the move (no snack, no marker used)."""
    table = game(["Ann", "Ben"], "r03", mode="physical")
    complete(table, 1, "r03")
    stock(table, 1, ["dairy"])
    turn_to(table, 1)
    camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    left = player(table, 1)["actions_left"]
    use(table, 1, recipe="r03", food="dairy")
    assert {d["slot"] for d in table.view("table")["disagreements"]["diet-1"]} == {"kitchen.2", "body.dairy.1"}
    camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    assert table.view("table")["disagreements"] == {} and table.state["question"] is None
    assert player(table, 1)["actions_left"] == left and player(table, 1)["snacks"] == 0
    assert table.state["turn"] == 1


# ----------------------------------------------------------------------------- the entry form
def test_the_entry_form_previews_an_ability_in_words(tmp_path, monkeypatch):
    """The owner's entry form shows how an ability will behave, or what is wrong with it."""
    monkeypatch.setattr(data, "_configured_owner_dir", None)
    data.configure(tmp_path)
    does = {"when": "during:shop", "often": "once", "choices": ["food"],
            "effects": [{"kind": "price", "price": 1, "food": "chosen"}]}
    assert web.preview("recipes", does) == {
        "text": ["During your shopping, once (then the card flips): a food of your choice costs $1."]}
    assert "choose_one_per_turn" in web.preview("assistants", [does])["problems"][0]
    assert web.preview("assistants", does)["problems"][0].startswith("an assistant's \"does\" is a list")


def test_physical_first_an_undo_at_the_round_end_keeps_the_kitchen():
    """Physical-first: the record moves the kitchens once the people have tidied; sample r10 used at
    the round's end keeps its owner's kitchen where it is, and the tidy table the camera waits for
    says so."""
    table = game(["Ann", "Ben"], "r10", mode="physical")
    complete(table, 1, "r10")
    cols = len(player(table, 1)["kitchen"])
    host(table, "correct_board", board="diet-1", slots={f"kitchen.{cols}.1": "meat"})
    before = copy.deepcopy(player(table, 1)["kitchen"])
    finish_actions(table)
    assert table.state["phase"] == "round_end"
    use(table, 1, recipe="r10")
    assert cleanup._tidy_boards(table.state)["diet-1"][f"kitchen.{cols}.1"] == "meat"
    host(table, "continue")
    assert player(table, 1)["kitchen"] == before and "meat" not in player(table, 1)["trash"]


def test_physical_first_a_raised_cook_limit_is_worked_out_from_the_tokens():
    """Physical-first: after sample r16 (+1 token in a cook) the table works out a cook of four tokens
    seen moving from the kitchen onto the recipes (rulebook: a cook moves at most 3)."""
    table = game(["Ann", "Ben"], "r16", mode="physical")
    complete(table, 1, "r16")
    turn_to(table, 1)
    taken = [r for r in _visible(table) if len(table.state["cards"]["recipes"][r]["needs"]) >= 2][:2]
    seat(table, 1, "cook", take=taken)
    four = [{"recipe": r, "food": n.split("|")[0] if n != "wild" else FILLER}
            for r in taken for n in table.state["cards"]["recipes"][r]["needs"][:2]]
    stock(table, 1, [item["food"] for item in four])
    turn_to(table, 1)
    camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    use(table, 1, recipe="r16")
    left = player(table, 1)["actions_left"]
    by_hand(table, 1, {"action": "cook", "place": four})
    question = table.view("seat-1")["me"]                 # the camera cannot tell which card a token is on
    assert question["can"] == ["answer"] and all(o.count(" on ") == 4 for o in question["answer"]["options"])
    seat(table, 1, "answer", choice=1)
    assert player(table, 1)["actions_left"] == left - 1
    assert table.view("table")["put_back"] == [] and any("cooks (4 tokens" in line for line in table.state["log"])


def test_a_token_that_fits_only_as_wild_uses_the_wild_token_by_itself():
    """Sample r07: the placement need not be marked; a token that fits no space counts as wild when
    the player has a wild token from this turn (and only then)."""
    table = game(["Ann", "Ben"], "r07")
    complete(table, 1, "r07")
    target = next(r for r in _visible(table) if "alcohol" not in table.state["cards"]["recipes"][r]["needs"]
                  and "wild" not in table.state["cards"]["recipes"][r]["needs"])
    stock(table, 1, ["alcohol"])
    turn_to(table, 1)
    place = [{"recipe": target, "food": "alcohol"}]
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": [target], "place": place}}, "unavailable")
    use(table, 1, recipe="r07")
    seat(table, 1, "cook", take=[target], place=place)
    assert "alcohol" in player(table, 1)["recipe_tokens"][target]
    assert player(table, 1)["turn_effects"]["wild_tokens"] == 0


def test_physical_first_a_price_ability_applies_to_the_shop_the_camera_sees():
    """Physical-first: the shop is worked out from the dice and the covered spaces at once, so sample
    r12 ($1 for a chosen food) is used before; a $3 space then costs $1 in the purchase."""
    table = game(["Ann", "Ben"], "r12", mode="physical")
    complete(table, 1, "r12")
    turn_to(table, 1)
    free = [s for s in sorted(table.state["shopping"]) if s not in table.state["covered"]]
    space = next(s for s in free if "2" not in s and "5" not in s)
    on_sale = next(s for s in free if "2" in s and table.state["shopping"][s] != table.state["shopping"][space])
    food = table.state["shopping"][space]
    use(table, 1, recipe="r12", food=food)
    ok(table, {"board": {"board": "main", "slots": {"die.row.2": "die", "die.col.5": "die"}}})
    by_hand(table, 1, {"action": "shop", "dice": [2, 5], "items": [{"space": space}, {"space": on_sale}]},
            ("diet-1", "shop"))
    assert space in table.state["covered"], table.view("table")["put_back"]
    assert any("($2 of $6)" in line for line in table.state["log"])


def test_physical_first_a_wild_token_and_a_die_by_hand():
    """Physical-first: after sample r07 a token the camera sees on a recipe it does not fit counts as
    wild; sample r11 (turn a die) is used before the camera reads the dice, which stay the truth."""
    table = game(["Ann", "Ben"], "r07", mode="physical")
    complete(table, 1, "r07")
    turn_to(table, 1)
    target = next(r for r in _visible(table) if "alcohol" not in table.state["cards"]["recipes"][r]["needs"]
                  and "wild" not in table.state["cards"]["recipes"][r]["needs"])
    seat(table, 1, "cook", take=[target])
    stock(table, 1, ["alcohol"])
    turn_to(table, 1)
    camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    use(table, 1, recipe="r07")
    by_hand(table, 1, {"action": "cook", "place": [{"recipe": target, "food": "alcohol"}]})
    assert player(table, 1)["recipe_tokens"][target].count("alcohol") == 1, table.view("table")["put_back"]
    table = game(["Ann"], "r11", mode="physical")
    complete(table, 1, "r11")
    turn_to(table, 1)
    camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    outcome = use(table, 1, recipe="r11", die=1, value=6)
    assert any("by hand: the camera reads the dice" in e["text"] for e in outcome.events)
    assert table.state["dice"] is None and "r11" in player(table, 1)["abilities_used"]
    ok(table, {"board": {"board": "main", "slots": {"die.row.6": "die", "die.col.1": "die"}}})   # one die turned to 6
    space = next(s for s in sorted(table.state["shopping"]) if s.startswith("6.") and "1" not in s
                 and s not in table.state["covered"])          # on sale only through the 6
    by_hand(table, 1, {"action": "shop", "dice": [1, 6], "items": [{"space": space}]}, ("diet-1", "shop"))
    assert space in table.state["covered"], table.view("table")["put_back"]
    assert any("($1 of $6)" in line for line in table.state["log"])


# ----------------------------------------------------------------------------- the other assistants
def test_life_coach_a_second_snack_and_a_body_token_to_the_supply():
    """Rulebook: each player may snack once per round.  Sample Life Coach: option 2 one more snack
    this turn; option 1 a body token of your choice back to the supply (3+ players: 2 leave it out)."""
    table = with_assistant(["Ann", "Ben", "Cat"], 1, "life-coach")
    stock(table, 1, ["water", "grain"])
    seat(table, 1, "snack", food="water")
    turn_to(table, 1)
    refused(table, {"seat": {"seat": 1, "action": "snack", "food": "grain"}}, "unavailable")
    use(table, 1, assistant="life-coach", option=2)
    seat(table, 1, "snack", food="grain")
    assert player(table, 1)["snacks"] == 2 and body(table, 1) == ["grain", "water"]
    turn_to(table, 1)
    use(table, 1, assistant="life-coach", option=1, food="water")
    assert body(table, 1) == ["grain"]


def test_executive_chef_a_fourth_recipe_taken():
    """Rulebook: a cook takes up to 3 face-up recipes.  Sample Executive Chef option 1: one more."""
    table = with_assistant(["Ann", "Ben"], 1, "executive-chef")
    four = _visible(table)
    assert len(four) == 4
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": four}}, "bad_argument")
    use(table, 1, assistant="executive-chef", option=1)
    seat(table, 1, "cook", take=four)
    assert set(four) <= set(player(table, 1)["recipes"])


def test_fitness_coach_a_work_out_of_four_tokens():
    """Rulebook: a work out moves up to 3 tokens from the body.  Sample Fitness Coach option 1: 4."""
    table = with_assistant(["Ann", "Ben"], 2, "fitness-coach")
    plain = [a for a in table.state["planner"]
             if all("wild" not in n for n in table.state["cards"]["activities"][a]["needs"])][:2]
    place = [{"activity": a, "food": n.split("|")[0]}
             for a in plain for n in table.state["cards"]["activities"][a]["needs"]]
    assert len(place) >= 4
    place = place[:4]
    stock(table, 1, [item["food"] for item in place], where="body")
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": plain, "place": place}}, "bad_argument")
    use(table, 1, assistant="fitness-coach", option=1)
    seat(table, 1, "workout", take=plain, place=place)
    assert body(table, 1) == []


def test_kitchen_assistant_eats_from_a_named_column():
    """Sample Kitchen Assistant option 2: a kitchen token of your choice, from the column you name,
    into your body."""
    table = with_assistant(["Ann", "Ben"], 1, "kitchen-assistant")
    stock(table, 1, ["meat"])
    column = next(c for c, col in enumerate(player(table, 1)["kitchen"], 1) if "meat" in col)
    use_refused(table, 1, "unavailable", assistant="kitchen-assistant", option=2, food="meat", column=column % 4 + 1)
    use(table, 1, assistant="kitchen-assistant", option=2, food="meat", column=column)
    assert kitchen(table, 1) == [] and body(table, 1) == ["meat"]


def test_host_allows_an_occupied_space_once():
    """The host's "allow once" for a rule: Ann dines at an occupied Pizza To Go, once."""
    table = new_table(["Ann", "Ben", "Cat"], seed=1)
    pick_assistants(table)
    turn_to(table, 2)
    seat(table, 2, "pizza")
    turn_to(table, 1)
    refused(table, {"seat": {"seat": 1, "action": "pizza"}}, "unavailable")
    host(table, "allow_once", seat=1, limit="occupied_space")
    seat(table, 1, "pizza")
    assert player(table, 1)["allow_once"] == [] and table.state["spaces"]["pizza"] == 2     # Ben dined first


def test_physical_first_the_extra_action_may_also_be_taken_on_the_phone():
    """Physical-first: sample r05's fifth action may also be entered on the phone (or by the host for
    the player); the round then ends as usual.  (Worked out from a further marker on the table:
    tests/test_food_for_thought_abilities_physical.py.)"""
    table = game(["Ann"], "r05", mode="physical")
    complete(table, 1, "r05")                                # the first of the round's actions
    use(table, 1, recipe="r05")
    assert player(table, 1)["actions_left"] == rules.ACTIONS_PER_ROUND
    for _ in range(rules.ACTIONS_PER_ROUND):
        assert table.state["phase"] == "actions"
        seat(table, 1, "cook")
    assert table.state["phase"] == "round_end" and player(table, 1)["actions_left"] == 0


def test_an_end_of_round_ability_in_the_last_round_comes_before_the_scoring():
    """Rulebook: the kitchens move at the end of every round, the last one included, and end-of-round
    abilities are used then; only after that is the game scored.  Sample r10 undoes the last move,
    so the token about to spoil costs no trash VP."""
    table = game(["Ann", "Ben"], "r10")
    complete(table, 1, "r10")
    while table.state["round"] < rules.ROUNDS:
        next_round(table)
    pick_assistants(table)
    cols = len(player(table, 1)["kitchen"])
    host(table, "correct_board", board="diet-1", slots={f"kitchen.{cols}.1": "meat"})
    trash = len(player(table, 1)["trash"])
    finish_actions(table)
    assert not table.state["over"] and table.state["phase"] == "cleanup"
    assert table.view("table")["prompt"].startswith("The last round is over")
    assert len(player(table, 1)["trash"]) == trash + 1
    use(table, 1, recipe="r10")
    host(table, "continue")
    assert len(player(table, 1)["trash"]) == trash
    assert table.state["over"]
    lines = table.state["receipts"][0]["lines"]
    assert sum(line["vp"] for line in lines if line["section"] == "trash") == rules.TRASH_VP * trash


def test_with_the_end_of_round_ability_used_up_the_last_round_scores_at_once():
    """Sample r10 used at an earlier clean-up (the card flipped): nothing waits after the last round."""
    table = game(["Ann", "Ben"], "r10")
    complete(table, 1, "r10")
    finish_actions(table)
    use(table, 1, recipe="r10")
    host(table, "continue")
    while table.state["round"] < rules.ROUNDS:
        next_round(table)
    pick_assistants(table)
    finish_actions(table)
    assert table.state["over"] and table.state["receipts"]


def test_physical_first_a_potluck_move_is_checked_on_both_boards():
    """Physical-first: sample p01 gives Ben a Water from Ann's kitchen; the TV lists the difference on
    both boards until the camera sees the token on Ben's, and neither player's action is worked out."""
    table = game(["Ann", "Ben"], "p01", potluck=True, mode="physical")
    complete(table, 1, "p01")
    stock(table, 1, ["water"])
    turn_to(table, 1)
    camera_reads(table, {b: implied(table.state, b) for b in ("diet-1", "diet-2")})
    use(table, 1, recipe="p01", food="water", target=2)
    assert set(table.view("table")["disagreements"]) == {"diet-1", "diet-2"}
    camera_reads(table, {b: implied(table.state, b) for b in ("diet-1", "diet-2")})
    assert table.view("table")["disagreements"] == {} and table.state["question"] is None
    assert kitchen(table, 2) == ["water"] and table.state["turn"] == 1
