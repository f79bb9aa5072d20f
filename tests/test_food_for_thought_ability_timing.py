"""When a Food for Thought ability may be used (issue 15): a ``during:<action>`` ability serves that
action and no other, and end-of-round abilities resolve in turn order.

Rulebook (completing recipes): a completed recipe's ability is used during its owner's turn; "if
multiple players are able to and want to use any recipe abilities at the same time (such as when
using end of round abilities), resolve them in turn order".  The sample cards have one end-of-round
ability and no ``during:`` ability for the market, a snack or dining out, so these tests add
TEST-ONLY cards (invented here, never shipped) to an owner's recipe file in a temporary folder.
"""
from __future__ import annotations

import copy
import json

import pytest

from server.games.food_for_thought import actions, cleanup, data, inference
from server.games.food_for_thought.boards import implied
from tests.support.food_for_thought import finish_actions, host, player, refused, seat
from tests.test_food_for_thought_abilities import (body, by_hand, camera_reads, complete, game, kitchen, stock,
                                                   turn_to, use, use_refused, with_assistant)

_GIVES_WATER = [{"kind": "move", "from": "supply", "to": "kitchen", "food": "water"}]
#: TEST-ONLY cards: two end-of-round abilities that compete for one token, a second extra-action card,
#: and one ``during:`` ability for each action the sample cards do not name (each puts a Water from the
#: supply in the kitchen).
TEST_CARDS = [
    {"id": "t-steal", "name": "Test Raid", "needs": ["veg", "water"], "vp": 2, "penalty": 1, "module": "base", "solo": True,
     "does": {"when": "end_of_round", "often": "once", "choices": ["food", "target"],
              "effects": [{"kind": "move", "from": "target:kitchen", "to": "kitchen"}]}},
    {"id": "t-eat", "name": "Test Supper", "needs": ["grain", "water"], "vp": 2, "penalty": 1, "module": "base", "solo": True,
     "does": {"when": "end_of_round", "often": "once", "choices": ["food"],
              "effects": [{"kind": "move", "from": "kitchen", "to": "body"}]}},
    {"id": "t-extra", "name": "Test Second Wind", "needs": ["fruit", "water"], "vp": 2, "penalty": 1, "module": "base", "solo": True,
     "does": {"when": "own_turn", "often": "once", "effects": [{"kind": "extra_action"}]}},
    *({"id": f"t-{action}", "name": f"Test {action.title()}", "needs": ["fruit", "water"], "vp": 2, "penalty": 1,
       "module": "base", "solo": True, "does": {"when": f"during:{action}", "often": "per_turn", "effects": _GIVES_WATER}}
      for action in ("market", "snack", "pizza", "buffet")),
]


@pytest.fixture
def owner_cards(tmp_path, monkeypatch):
    """An owner's recipe file: the sample recipes and the TEST-ONLY cards, marked complete."""
    monkeypatch.setattr(data, "_configured_owner_dir", None)
    data.configure(tmp_path)
    folder = tmp_path / data.OWNER_SUBDIR
    folder.mkdir()
    sample = (data.SAMPLE_DIR / "recipes.jsonl").read_text(encoding="utf-8")
    (folder / "recipes.jsonl").write_text(sample + "".join(json.dumps(c) + "\n" for c in TEST_CARDS), encoding="utf-8")
    (folder / data.COMPLETE_FILE).write_text(json.dumps({"complete": ["recipes"]}), encoding="utf-8")


def _visible(state) -> list[str]:
    return actions.visible_recipes(state)


# ----------------------------------------------------------------------------- during:<action>
@pytest.mark.parametrize("mode", ["guided", "physical"])
def test_a_cook_ability_serves_only_a_cook(mode):
    """Sample r16 (during a cook: one token more) is used for a cook: the turn's action must then be a
    cook; a snack is refused with what to do (physical-first: a snack seen on the table is not taken as
    the action and the TV lists it to put back), and the cook is taken."""
    table = game(["Ann", "Ben"], "r16", mode=mode)
    complete(table, 1, "r16")
    stock(table, 1, ["water"])
    turn_to(table, 1)
    if mode == "physical":
        camera_reads(table, {"diet-1": implied(table.state, "diet-1")})
    use(table, 1, recipe="r16")
    assert table.view("seat-1")["me"]["why_not"]["snack"].startswith("You used an ability for a cook this turn")
    if mode == "guided":
        error = refused(table, {"seat": {"seat": 1, "action": "snack", "food": "water"}}, "wrong_action")
        assert "cook" in error.message
        refused(table, {"seat": {"seat": 1, "action": "pass"}}, "wrong_action")
        seat(table, 1, "cook")
    else:
        snacked = copy.deepcopy(table.state)              # the boards as a snack would leave them
        snacked["seats"]["1"]["turn_effects"]["serves"] = None
        inference.play(snacked, 1, {"action": "snack", "food": "water"})
        camera_reads(table, {"diet-1": implied(snacked, "diet-1")})
        assert player(table, 1)["snacks"] == 0 and table.view("table")["put_back"]
        camera_reads(table, {"diet-1": implied(table.state, "diet-1")})      # the water back, nothing done
        by_hand(table, 1, {"action": "cook"})
    assert table.state["turn"] == 2 and player(table, 1)["snacks"] == 0


@pytest.mark.parametrize("action", ["market", "snack", "pizza", "buffet"])
def test_a_during_ability_needs_its_action_open_and_serves_only_it(owner_cards, action):
    """TEST-ONLY cards ``during:<action>`` for the market, a snack and dining out: used when that action
    may not be taken (two market visits done, a snack done; no dining out solo) it is refused with the
    rule that closes the action, and nothing changes; used when it may, another action is refused and
    that action follows."""
    rid = f"t-{action}"
    table = game(["Ann"] if action in ("market", "snack") else ["Ann", "Ben"], rid, data="owner")
    complete(table, 1, rid)
    turn_to(table, 1)
    if action == "market":
        stand = table.state["market_up"][0]
        visit = {"card": stand, "wild": ["veg"] * table.state["cards"]["market"][stand]["foods"].count("wild")}
        use(table, 1, recipe=rid)
        refused(table, {"seat": {"seat": 1, "action": "cook"}}, "wrong_action")
        seat(table, 1, "market", **visit)
        seat(table, 1, "market", **visit)                                    # the rulebook's two visits
        error = use_refused(table, 1, "unavailable", recipe=rid)
        assert "farmers market 2 times" in error.message
    elif action == "snack":
        stock(table, 1, ["grain"])
        use(table, 1, recipe=rid)
        refused(table, {"seat": {"seat": 1, "action": "workout"}}, "wrong_action")
        seat(table, 1, "snack", food="grain")
        assert kitchen(table, 1) == ["water"] and "grain" in body(table, 1)
        error = use_refused(table, 1, "unavailable", recipe=rid)             # once a round
        assert "already snacked" in error.message
    else:
        turn_to(table, 2)
        seat(table, 2, action, **({"row": 1} if action == "buffet" else {}))  # Ben takes the only space
        turn_to(table, 1)
        error = use_refused(table, 1, "unavailable", recipe=rid)
        assert "Ben" in error.message or "taken" in error.message
        assert kitchen(table, 1) == []


@pytest.mark.parametrize("mode", ["guided", "physical"])
@pytest.mark.parametrize("declared", [("Ben", "Ann"), ("Ann", "Ben")])
def test_end_of_round_abilities_resolve_in_turn_order(owner_cards, mode, declared):
    """Rulebook: end-of-round abilities used at the same time resolve in turn order.  Ann (first this
    round) takes a kitchen token from another player's kitchen, Ben eats one of his own: both want Ben's
    one Meat.  Whoever says so first, Ann's comes first: she gets the Meat and Ben's does nothing (his
    card stays face up).  Declared in turn order, Ben's is refused at once (nothing left to eat)."""
    table = game(["Ann", "Ben"], "t-steal", also=lambda s: "t-eat" in _visible(s), mode=mode, data="owner")
    complete(table, 1, "t-steal")
    complete(table, 2, "t-eat")
    stock(table, 2, ["meat"])
    finish_actions(table)
    assert table.state["phase"] == ("round_end" if mode == "physical" else "cleanup")
    for name in declared:
        if name == "Ann":
            use(table, 1, recipe="t-steal", food="meat", target=2)
        elif declared[0] == "Ben":
            use(table, 2, recipe="t-eat", food="meat")
        else:
            error = use_refused(table, 2, "unavailable", recipe="t-eat", food="meat")
            assert "could not apply in turn order" in error.message
    assert "meat" in kitchen(table, 2)                   # nothing resolves before the clean-up is done
    assert table.view("table")["cleanup"][-1] == (
        "End-of-round abilities, resolved in this order when the clean-up is done: Ann: Test Raid"
        + ("; Ben: Test Supper." if declared[0] == "Ben" else "."))
    if mode == "physical":                               # the tidy table the camera waits for shows it
        assert "meat" in cleanup._tidy_boards(table.state)["diet-1"].values()
    host(table, "continue")
    assert kitchen(table, 1).count("meat") == 1 and "meat" not in kitchen(table, 2) + body(table, 2)
    assert "t-steal" in player(table, 1)["abilities_used"] and "t-eat" not in player(table, 2)["abilities_used"]
    assert table.state["round"] == 2


@pytest.mark.parametrize("mode", ["guided", "physical"])
def test_an_undone_kitchen_move_keeps_what_an_earlier_ability_took(owner_cards, mode):
    """Rulebook clean-up step 1 moves every kitchen right, the last column to the trash; sample r10
    (Ben's, end of round) undoes that move.  Ann's TEST-ONLY card resolves first (turn order) and takes
    Ben's Vegetables; Ben's undo then brings his spoiled Meat back to his last column, and the
    Vegetables stay Ann's (they are not put back in Ben's kitchen as well)."""
    table = game(["Ann", "Ben"], "t-steal", also=lambda s: "r10" in _visible(s), mode=mode, data="owner")
    complete(table, 1, "t-steal")
    complete(table, 2, "r10")
    cols = len(player(table, 2)["kitchen"])
    host(table, "correct_board", board="diet-2", slots={"kitchen.2.1": "veg", f"kitchen.{cols}.1": "meat"})
    kitchen_before = copy.deepcopy(player(table, 2)["kitchen"])
    trash = list(player(table, 2)["trash"])
    finish_actions(table)
    use(table, 2, recipe="r10")
    use(table, 1, recipe="t-steal", food="veg", target=2)
    host(table, "continue")
    assert kitchen(table, 1) == ["veg"]
    expected = copy.deepcopy(kitchen_before)
    expected[1].remove("veg")
    assert player(table, 2)["kitchen"] == expected
    assert player(table, 2)["trash"] == trash and "r10" in player(table, 2)["abilities_used"]


def test_an_assistants_declared_end_of_round_option_is_not_offered_again(tmp_path, monkeypatch):
    """Rulebook: an assistant helps once per turn, and end-of-round abilities resolve in turn order when
    the clean-up is done.  Once Ann has declared her assistant's end-of-round option (a TEST-ONLY
    Fitness Coach whose second option eats a kitchen token then), her phone no longer offers it: a
    second tap could only be refused."""
    monkeypatch.setattr(data, "_configured_owner_dir", None)
    data.configure(tmp_path)
    folder = tmp_path / data.OWNER_SUBDIR
    folder.mkdir()
    lines = [json.loads(line) for line in (data.SAMPLE_DIR / "assistants.jsonl").read_text(encoding="utf-8").splitlines()
             if line.startswith("{")]
    coach = next(a for a in lines if a["id"] == "fitness-coach")
    coach["does"][1] = {"when": "end_of_round", "often": "choose_one_per_turn", "choices": ["food"],
                        "effects": [{"kind": "move", "from": "kitchen", "to": "body"}]}
    (folder / "assistants.jsonl").write_text("".join(json.dumps(a) + "\n" for a in lines), encoding="utf-8")
    (folder / data.COMPLETE_FILE).write_text(json.dumps({"complete": ["assistants"]}), encoding="utf-8")
    table = with_assistant(["Ann", "Ben"], 3, "fitness-coach", data="owner")
    stock(table, 1, ["meat"])
    finish_actions(table)
    assert table.state["phase"] == "cleanup"

    def mine():   # Ann's Fitness Coach as her phone gets it
        ann = next(p for p in table.view("seat-1")["seats"] if p["seat"] == 1)
        return next(a for a in ann["assistants"] if a["id"] == "fitness-coach")
    assert mine()["declared"] is False
    use(table, 1, assistant="fitness-coach", option=2, food="meat")
    assert mine()["declared"] is True
    use_refused(table, 1, "already_done", assistant="fitness-coach", option=2, food="meat")
