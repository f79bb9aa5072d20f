"""Food for Thought engine: setup variants, assistants, action spaces, Pizza To Go, passing,
cooking and working out, modules, `board` inputs, and refusals that change nothing."""
import json

import pytest

from server.games.food_for_thought import rules
from tests.support.food_for_thought import (finish_actions, host, new_table, next_round, ok, pick_assistants,
                                            player, refused, seat)


# ----------------------------------------------------------------------------- setup variants
def test_two_player_setup_changes():
    """rulebook 2 players: 8 random farmers market cards, no Life Coach, out of stock cards."""
    table = new_table(["Ann", "Ben"], seed=5)
    s = table.state
    assert len(s["market_cards"]) == rules.TWO_PLAYER_MARKET_CARDS
    assert "life-coach" not in s["assistants_in_play"] and len(s["assistants_in_play"]) == 5
    assert len(s["oos_up"]) == rules.OUT_OF_STOCK_PER_ROUND
    covered = {sp for c in s["oos_up"] for sp in s["cards"]["out_of_stock"][c]["spaces"]}
    assert set(s["covered"]) == covered


def test_solo_setup_changes():
    """rulebook solo: Cleanse board, no Restaurateur, no asterisk recipes, no dining out, out of stock."""
    table = new_table(["Sol"])
    s = table.state
    assert [d["kind"] for d in s["diets"].values()] == ["solo"]
    assert "restaurateur" not in s["assistants_in_play"]
    in_deck = [r for pile in s["recipe_piles"] for r in pile]
    assert in_deck and all(s["cards"]["recipes"][r]["solo"] for r in in_deck)
    assert s["pizza"] == [] and all(row == [] for row in s["buffet"])
    assert s["oos_up"]
    pick_assistants(table)
    me = table.view("seat-1")["me"]
    assert "pizza" not in me["can"] and "buffet" not in me["can"]
    assert "solo" in me["why_not"]["pizza"]


def test_three_and_four_players_use_all_cards_and_no_out_of_stock():
    table = new_table(["A", "B", "C", "D"])
    s = table.state
    assert len(s["market_cards"]) == 12 and len(s["assistants_in_play"]) == 6
    assert s["oos_up"] == [] and s["covered"] == {}
    assert len(s["pizza"]) == s["main"]["pizza_spaces"] and s["pizza"][0] == "fats"
    assert all(len(r) == s["main"]["buffet_row_spaces"] for r in s["buffet"])


def test_solo_refuses_potluck_and_goals():
    table = new_table(["A", "B"])
    outcome = table.handle({"new_game": {"game": "food-for-thought", "players": ["Sol"],
                                         "options": {"data": "sample", "goals": True}}})
    assert not outcome.accepted and "not for the solo game" in outcome.error.message


def test_modules_change_the_recipe_deck():
    """rulebook: Potluck and Freezer each take 8 random base recipes out and shuffle theirs in."""
    table = new_table(["A", "B"], potluck=True, freezer=True, goals=True, food_allergy=True)
    s = table.state
    deck = [r for pile in s["recipe_piles"] for r in pile]
    modules = [s["cards"]["recipes"][r]["module"] for r in deck]
    assert modules.count("potluck") == 4 and modules.count("freezer") == 4   # the sample has 4 of each
    assert len(deck) == 16 - 8 + 8                                           # 16 base in the sample
    assert len(s["goals"]) == rules.GOALS_IN_PLAY
    assert all(player(table, n)["allergy"] for n in (1, 2))
    assert player(table, 1)["allergy"] != player(table, 2)["allergy"]


# ----------------------------------------------------------------------------- assistants
@pytest.mark.parametrize("count", [2, 3, 4])
def test_assistant_selection_over_six_rounds(count):
    """rulebook: last player picks first, in reverse turn order; nobody has the same assistant twice running."""
    table = new_table([f"P{i}" for i in range(1, count + 1)], seed=count)
    history = {s: [] for s in range(1, count + 1)}
    for rnd in range(1, rules.ROUNDS + 1):
        order = table.view("table")["order"]
        picked = []
        while table.state["phase"] == "assistants":
            s = table.state["assistant_queue"][0]
            picked.append(s)
            last = history[s][-1] if history[s] else None
            if last:   # trying last round's assistant again is refused
                refused(table, {"seat": {"seat": s, "action": "assistant", "card": last}}, "breaks_rule")
            other = next(x for x in range(1, count + 1) if x != s)
            refused(table, {"seat": {"seat": other, "action": "assistant", "card": "fitness-coach"}}, "not_your_turn")
            choice = table.view(f"seat-{s}")["me"]["assistant"]["choices"]
            card = choice[-1]["id"]
            seat(table, s, "assistant", card=card)
            history[s].append(card)
        assert picked == list(reversed(order))
        this_round = [history[s][-1] for s in history]
        assert len(set(this_round)) == count
        finish_actions(table)
        if rnd < rules.ROUNDS:
            host(table, "continue")
    for s, cards in history.items():
        assert all(a != b for a, b in zip(cards, cards[1:])), cards
    if count == 2:
        assert "life-coach" not in {c for cards in history.values() for c in cards}


def test_solo_assistant_pattern():
    """rulebook solo: R1 two; R2 keep them plus one of the other three; R3 the two never used;
    R4 keep plus one of the three not used in R3; R5 the remaining two; R6 keep plus one."""
    table = new_table(["Sol"])
    five = table.state["assistants_in_play"]
    assert len(five) == 5
    rounds = []
    refused(table, {"seat": {"seat": 1, "action": "assistant", "card": five[0]}}, "breaks_rule")
    seat(table, 1, "assistant", cards=five[:2])
    rounds.append(list(player(table, 1)["assistants"]))
    for rnd in range(2, 7):
        finish_actions(table)
        host(table, "continue")
        if rnd % 2 == 0:
            refused(table, {"seat": {"seat": 1, "action": "assistant", "cards": [rounds[-1][0]]}}, "breaks_rule")
            allowed = [c["id"] for c in table.view("seat-1")["me"]["assistant"]["choices"]]
            assert sorted(allowed) == sorted(set(five) - set(rounds[-1]))
            seat(table, 1, "assistant", cards=[allowed[0]])
        else:
            assert table.state["phase"] == "actions"      # taken automatically
        rounds.append(list(player(table, 1)["assistants"]))
    assert [len(r) for r in rounds] == [2, 3, 2, 3, 2, 3]
    assert rounds[1][:2] == rounds[0] and rounds[3][:2] == rounds[2] and rounds[5][:2] == rounds[4]
    assert set(rounds[2]) == set(five) - set(rounds[1])
    assert set(rounds[4]) == set(five) - set(rounds[3])


# ----------------------------------------------------------------------------- action spaces
@pytest.mark.parametrize("count,buffet", [(2, 1), (3, 2), (4, 2)])
def test_dining_out_spaces_by_player_count(count, buffet):
    """rulebook: Pizza To Go is one space; the buffet's "3+" space exists only with 3 or more players."""
    table = new_table([f"P{i}" for i in range(1, count + 1)])
    pick_assistants(table)
    s = table.state["turn"]
    pizza = list(table.state["pizza"])
    seat(table, s, "pizza")
    assert sorted(f for g in player(table, s)["body"].values() for f in g) == sorted(
        f for f in pizza if f in sum((g["foods"] for g in player(table, s)["groups"]), []))
    refused(table, {"seat": {"seat": table.state["turn"], "action": "pizza"}}, "unavailable")
    for row in range(1, buffet + 1):
        seat(table, table.state["turn"], "buffet", row=row)
    err = refused(table, {"seat": {"seat": table.state["turn"], "action": "buffet", "row": 1}}, "unavailable")
    if count < 3:
        assert "3 or more players" in err.message


def test_buffet_takes_a_whole_row_into_the_body():
    table = new_table(["A", "B", "C"])
    pick_assistants(table)
    row = list(table.state["buffet"][1])
    seat(table, 1, "buffet", row=2)
    assert table.state["buffet"][1] == []
    body = [f for g in player(table, 1)["body"].values() for f in g]
    assert sorted(body) == sorted(row)
    refused(table, {"seat": {"seat": 2, "action": "buffet", "row": 2}}, "unavailable")


def _table_at_pizza_extra():
    """Two players; Ann takes Pizza To Go, then both cook until the round's actions are over."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    seat(table, 1, "pizza")
    while table.state["phase"] == "actions":
        seat(table, table.state["turn"], "cook")
    return table


def test_pizza_to_go_gives_an_extra_action_at_the_end_of_the_round():
    """rulebook: the Pizza To Go player moves that marker to another open space at round end and acts."""
    table = _table_at_pizza_extra()
    assert table.state["phase"] == "pizza_extra" and table.state["turn"] == 1
    refused(table, {"seat": {"seat": 2, "action": "cook"}}, "not_your_turn")
    refused(table, {"seat": {"seat": 1, "action": "pizza"}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "pass"}}, "breaks_rule")
    card = table.state["market_up"][0]
    wild = ["water"] * table.state["cards"]["market"][card]["foods"].count("wild")
    seat(table, 1, "market", card=card, wild=wild)
    assert table.state["phase"] == "cleanup"


def test_pizza_extra_may_be_skipped_and_passing_players_lose_it():
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    seat(table, 1, "pizza")
    seat(table, 2, "pass")
    seat(table, 1, "cook")
    seat(table, 1, "cook")
    seat(table, 1, "cook")
    assert table.state["phase"] == "pizza_extra"
    seat(table, 1, "skip")
    assert table.state["phase"] == "cleanup"
    host(table, "continue")
    pick_assistants(table)
    seat(table, table.state["turn"], "pizza")
    s = table.state["spaces"]["pizza"]
    seat(table, table.state["turn"], "pass")
    seat(table, s, "pass")
    assert table.state["phase"] == "cleanup"      # the passer's Pizza To Go marker gives nothing


def test_passing_ends_your_round_and_the_others_go_on():
    """rulebook: a passing player puts a marker on an open space and takes no more actions this round."""
    table = new_table(["Ann", "Ben", "Cat"])
    pick_assistants(table)
    seat(table, 1, "pass", space="shop")
    assert table.state["spaces"]["shop"] == [1]          # the marker blocks a shopping space
    seen = []
    while table.state["phase"] == "actions":
        seen.append(table.state["turn"])
        refused(table, {"seat": {"seat": 1, "action": "cook"}}, "not_your_turn" if table.state["turn"] != 1 else "already_done")
        seat(table, table.state["turn"], "cook")
    assert seen == [2, 3] * 4


def test_action_availability_is_shown_to_the_player():
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    me = table.view("seat-1")["me"]
    assert set(me["can"]) == {"shop", "market", "pizza", "buffet", "snack", "cook", "workout", "pass"}
    other = table.view("seat-2")["me"]
    assert other["can"] == [] and "Ann's turn" in other["why_not"]["all"]
    seat(table, 1, "shop", dice=[3, 4])
    assert table.view("seat-1")["me"]["can"] == ["buy"]
    refused(table, {"seat": {"seat": 1, "action": "cook"}}, "waiting")
    refused(table, {"seat": {"seat": 2, "action": "cook"}}, "not_your_turn")


def test_digital_and_physical_dice():
    table = new_table(["Ann", "Ben"], seed=9)
    pick_assistants(table)
    seat(table, 1, "shop")
    dice = table.view("table")["dice"]
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    physical = new_table(["Ann", "Ben"], dice="physical")
    pick_assistants(physical)
    refused(physical, {"seat": {"seat": 1, "action": "shop"}}, "bad_argument")
    refused(physical, {"seat": {"seat": 1, "action": "shop", "dice": [0, 7]}}, "bad_argument")
    seat(physical, 1, "shop", dice=[6, 1])
    assert physical.view("table")["dice"] == [6, 1]


# ----------------------------------------------------------------------------- cooking and working out
def _cook_table():
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    return table


def _show_recipe(table, rid):
    """Put recipe ``rid`` face-up on top of the first recipe pile (test set-up)."""
    for pile in table.state["recipe_piles"]:
        if rid in pile:
            pile.remove(rid)
    table.state["recipe_piles"][0].insert(0, rid)


def test_completing_a_recipe_scores_and_moves_its_food_to_the_body():
    """rulebook: a filled recipe scores its VP at once and its tokens go into the body."""
    table = _cook_table()
    p = player(table, 1)
    _show_recipe(table, "r01")                              # Sample Toast: grain + dairy, 2 VP
    p["kitchen"][0] = ["grain"]
    p["kitchen"][1] = ["dairy"]
    seat(table, 1, "cook", take=["r01"], place=[{"recipe": "r01", "food": "grain"},
                                                {"recipe": "r01", "food": "dairy"}])
    p = player(table, 1)
    assert p["recipes_done"] == ["r01"] and p["recipes"] == []
    assert table.state["players"][0]["score"] == 2
    assert p["body"]["grain"] == ["grain"] and p["body"]["dairy"] == ["dairy"]
    assert p["kitchen"] == [[], [], [], []]


def test_cook_refusals_change_nothing():
    table = _cook_table()
    _show_recipe(table, "r01")                              # grain + dairy
    hidden = table.state["recipe_piles"][0][2]
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": [hidden]}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": ["r01"],
                             "place": [{"recipe": "r01", "food": "alcohol"}]}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": ["r01"],
                             "place": [{"recipe": "r01", "food": "grain"}]}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "cook", "place": [{"recipe": "r01", "food": "grain"}]}},
            "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "cook", "thaw": ["meat"]}}, "option_off")


def _activity_table(card):
    table = _cook_table()
    table.state["planner"][0] = card
    return table


def test_work_out_wild_spaces_rulebook():
    """rulebook: a wild space takes a food neither shown on the card nor already on it; a double wild
    takes 2 of one type at once; "1 or 2" takes 1 or 2 of one type at once."""
    table = _activity_table("a04")                # Rowing: water + double wild, 3 VP
    p = player(table, 1)
    p["body"]["water"] = ["water", "water"]
    p["body"]["grain"] = ["grain", "grain"]
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": ["a04"],
                             "place": [{"activity": "a04", "food": "water", "space": 2, "count": 2}]}},
            "unavailable")                  # water is shown on the card
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": ["a04"],
                             "place": [{"activity": "a04", "food": "grain", "space": 2, "count": 1}]}},
            "bad_argument")
    seat(table, 1, "workout", take=["a04"], place=[{"activity": "a04", "food": "water"},
                                                    {"activity": "a04", "food": "grain", "count": 2}])
    p = player(table, 1)
    assert p["activities_done"] == ["a04"] and p["body"]["grain"] == [] and p["body"]["water"] == ["water"]
    assert table.state["players"][0]["score"] == 3


def test_one_or_two_wild_space_is_filled_by_one_token():
    table = _activity_table("a08")                # Marathon: grain, water, 1-or-2 wild; 4 VP
    p = player(table, 1)
    p["body"].update(grain=["grain"], water=["water"], dairy=["dairy", "dairy"])
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": ["a08"],
                             "place": [{"activity": "a08", "food": "dairy", "count": 3}]}}, "bad_argument")
    seat(table, 1, "workout", take=["a08"], place=[{"activity": "a08", "food": "dairy", "count": 1}])
    seat(table, 2, "pass")
    seat(table, 1, "workout", place=[{"activity": "a08", "food": "grain"}, {"activity": "a08", "food": "water"}])
    assert player(table, 1)["activities_done"] == ["a08"]
    assert player(table, 1)["body"]["dairy"] == ["dairy"]


def test_workout_takes_at_most_3_tokens_counting_pairs():
    table = _activity_table("a04")
    table.state["planner"][1] = "a02"
    p = player(table, 1)
    p["body"].update(water=["water"], grain=["grain", "grain"], dairy=["dairy"], fats=["fats"])
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": ["a04", "a02"], "place": [
        {"activity": "a04", "food": "water"}, {"activity": "a04", "food": "grain", "count": 2},
        {"activity": "a02", "food": "dairy"}]}}, "bad_argument")


# ----------------------------------------------------------------------------- modules
def test_freezer_module():
    """rulebook Freezer: freezable tokens may go to the freezer (4 spaces); thaw at most 2 per cook into
    the thaw area (2 spaces), used like the kitchen; the thaw area goes to the trash at round end."""
    table = new_table(["Ann", "Ben"], freezer=True)
    pick_assistants(table)
    table.state["covered"] = {}
    meat = next(sp for sp, f in table.state["shopping"].items() if f == "meat")
    seat(table, 1, "shop", dice=[int(meat[0]), int(meat[2])])
    refused(table, {"seat": {"seat": 1, "action": "buy", "items": [{"space": "1.2"}], "freeze": ["dairy"]}},
            "breaks_rule")
    seat(table, 1, "buy", items=[{"space": meat}], freeze=["meat"])
    assert player(table, 1)["freezer"] == ["meat"]
    seat(table, 2, "pass")
    player(table, 1)["freezer"] += ["seafood", "poultry"]
    refused(table, {"seat": {"seat": 1, "action": "cook", "thaw": ["meat", "seafood", "poultry"]}}, "bad_argument")
    seat(table, 1, "cook", thaw=["meat", "seafood"])
    assert player(table, 1)["thaw"] == ["meat", "seafood"] and player(table, 1)["freezer"] == ["poultry"]
    seat(table, 1, "snack", food="seafood", **{"from": "thaw"})     # thawed food counts as kitchen food
    assert player(table, 1)["body"]["protein"] == ["seafood"]
    finish_actions(table)
    assert player(table, 1)["thaw"] == [] and sorted(player(table, 1)["trash"]) == ["meat"]


def test_food_allergy_module():
    """rulebook Food Allergy: allergic food never enters the body; the tile takes only its foods; a tile
    token may be worked out as the food it replaces."""
    table = new_table(["Ann", "Ben"], food_allergy=True)
    host(table, "assign_allergy", seat=1, tile="gluten-free")
    pick_assistants(table)
    p = player(table, 1)
    p["kitchen"][0] = ["grain"]
    err = refused(table, {"seat": {"seat": 1, "action": "snack", "food": "grain"}}, "breaks_rule")
    assert "allergic" in err.message
    p["kitchen"][1] = ["fruit"]
    seat(table, 1, "snack", food="fruit")
    assert player(table, 1)["body"]["grain"] == ["fruit"]            # on the Gluten Free tile
    seat(table, 2, "pass")
    table.state["planner"][0] = "a01"                                 # Badminton: fats + grain
    player(table, 1)["body"]["fats"] = ["fats"]
    seat(table, 1, "workout", take=["a01"], place=[{"activity": "a01", "food": "fats"},
                                                    {"activity": "a01", "food": "grain", "group": "grain"}])
    assert player(table, 1)["activities_done"] == ["a01"] and player(table, 1)["body"]["grain"] == []


def test_goals_module_awards_at_the_end():
    """rulebook Goals: 1st and 2nd place VP at the end; nobody with none of something takes part."""
    table = new_table(["Ann", "Ben"], goals=True, seed=2)
    assert len(table.state["goals"]) == rules.GOALS_IN_PLAY
    table.state["goals"] = ["g01", "g03"]             # test set-up: most activity VP, most recipes
    player(table, 1)["recipes_done"] = ["r01", "r02"]
    player(table, 2)["recipes_done"] = ["r03"]
    for _ in range(rules.ROUNDS):
        next_round(table)
    lines = {r["seat"]: [l for l in r["lines"] if l["section"] == "goals"] for r in table.state["receipts"]}
    assert lines[1] == [{"section": "goals", "label": "Goal: Sample: most recipes", "vp": 7}]
    assert lines[2] == [{"section": "goals", "label": "Goal: Sample: most recipes", "vp": 5}]


# ----------------------------------------------------------------------------- board inputs
def _correct(board, slots):
    return {"host": {"action": "correct_board", "board": board, "slots": slots}}


def test_the_host_corrects_a_board():
    table = new_table(["Ann", "Ben"])
    ok(table, _correct("diet-1", {"body.dairy.1": "dairy", "kitchen.2.1": "fruit", "trash.1": "meat"}))
    p = player(table, 1)
    assert p["body"]["dairy"] == ["dairy"] and p["kitchen"][1] == ["fruit"] and p["trash"] == ["meat"]
    ok(table, _correct("diet-1", {"kitchen.2.1": None}))
    assert player(table, 1)["kitchen"][1] == []
    refused(table, _correct("diet-1", {"body.dairy.1": "water"}), "breaks_rule")
    refused(table, _correct("diet-1", {"body.dairy.9": "dairy"}), "unknown_card")
    refused(table, _correct("diet-7", {"body.dairy.1": "dairy"}), "unknown_card")
    refused(table, _correct("diet-1", {"freezer.1": "meat"}), "unknown_card")
    refused(table, _correct("diet-1", {}), "bad_argument")
    ok(table, _correct("shop", {"shop.1.1": "covered"}))
    assert "1.1" in table.state["covered"]


def test_a_reading_of_an_unwatched_board_changes_nothing():
    """A camera reading is never a correction: it is checked, then left out of the record."""
    table = new_table(["Ann", "Ben"])
    before = table.seq
    out = ok(table, {"board": {"board": "diet-1", "slots": {"body.dairy.1": "dairy"}}})
    assert out.quiet and table.seq == before and player(table, 1)["body"]["dairy"] == []
    refused(table, {"board": {"board": "diet-1", "slots": {"body.dairy.9": "dairy"}}}, "unknown_card")
    refused(table, {"board": {"board": "diet-7", "slots": {}}}, "unknown_card")


def test_watched_board_shows_disagreements_until_accepted():
    table = new_table(["Ann", "Ben"])
    player(table, 2)["kitchen"][1] = ["dairy"]
    player(table, 2)["freezer"] = []
    host(table, "watch_board", board="diet-2")
    ok(table, {"board": {"board": "diet-2", "slots": {"body.water.1": "water", "body.water.2": None,
                                                      "kitchen.1.1": "grain", "kitchen.2.1": None,
                                                      "kitchen.2.3": "dairy"}}})
    assert player(table, 2)["body"]["water"] == []                # the record is not changed by a snapshot
    diff = table.view("table")["disagreements"]["diet-2"]
    # the dairy lies lower in column 2 than the record packs it: same column, so no difference;
    # areas the camera has not reported (the trash here) are not compared
    assert diff == [{"slot": "body.water.1", "recorded": None, "seen": "water"},
                    {"slot": "kitchen.1", "recorded": [], "seen": ["grain"]}]
    seq = table.seq
    again = ok(table, {"board": {"board": "diet-2", "slots": {"body.water.1": "water"}}})
    assert again.quiet and table.seq == seq          # a snapshot with nothing new is not journaled
    host(table, "accept_board", board="diet-2")
    p = player(table, 2)
    assert p["body"]["water"] == ["water"] and p["kitchen"][0] == ["grain"] and p["kitchen"][1] == ["dairy"]
    assert table.view("table")["disagreements"] == {}
    refused(table, {"host": {"action": "accept_board", "board": "diet-2"}}, "already_done")
    refused(table, {"host": {"action": "accept_board", "board": "diet-1"}}, "unavailable")


def test_camera_sees_a_token_taken_off_the_kitchen():
    table = new_table(["Ann", "Ben"])
    player(table, 1)["kitchen"][0] = ["water", "grain"]
    host(table, "watch_board", board="diet-1")
    ok(table, {"board": {"board": "diet-1", "slots": {"kitchen.1.1": None, "kitchen.1.2": "grain"}}})
    assert table.view("host")["disagreements"]["diet-1"] == [
        {"slot": "kitchen.1", "recorded": ["grain", "water"], "seen": ["grain"]}]
    host(table, "accept_board", board="diet-1")
    assert player(table, 1)["kitchen"][0] == ["grain"]


# ----------------------------------------------------------------------------- other refusals
def test_refusals_change_nothing():
    table = new_table(["Ann", "Ben"])
    refused(table, {"seat": {"seat": 1, "action": "cook"}}, "not_now")
    refused(table, {"seat": {"seat": 3, "action": "cook"}}, "empty_seat")
    refused(table, {"seat": {"seat": 2, "action": "assistant", "card": "life-coach"}}, "unknown_card")
    refused(table, {"seat": {"seat": 2, "action": "fly"}}, "unknown_move")
    refused(table, {"seat": {"seat": 2, "action": "continue"}}, "unknown_move")
    refused(table, {"tap": {"reader": "seat-1", "card": "tofu-god/set-1/rat"}}, "not_this_game")
    refused(table, {"host": {"action": "continue"}}, "not_now")
    refused(table, {"host": {"action": "adjust", "seat": 1, "vp": 3}}, "bad_argument")
    pick_assistants(table)
    refused(table, {"seat": {"seat": 1, "action": "buy", "items": []}}, "not_now")
    refused(table, {"seat": {"seat": 1, "action": "market", "card": "nope"}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "snack", "food": "water"}}, "unavailable")
    refused(table, {"seat": {"seat": 1, "action": "snack", "food": "cake"}}, "unknown_card")
    refused(table, {"seat": {"seat": 1, "action": "use_ability", "recipe": "r01"}}, "breaks_rule")
    refused(table, {"seat": {"seat": 1, "action": "skip"}}, "not_now")


def test_host_acts_for_a_seat_and_adjusts_scores():
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    host(table, "cook", seat=1)
    assert table.state["turn"] == 2
    host(table, "adjust", seat=2, vp=3, reason="Restaurateur bonus")
    assert table.state["players"][1]["score"] == 3


def test_public_views_hide_deck_and_bag_order():
    """Everything on the table is open except the order of the decks and the bag: the TV and the
    phones see face-up cards only; the host also sees the decks."""
    table = new_table(["Ann", "Ben"], potluck=True)
    pick_assistants(table)
    hidden_recipe = table.state["recipe_piles"][0][2]
    hidden_activity = table.state["activity_deck"][0]
    for audience in ("table", "seat-1", "seat-2"):
        text = json.dumps(table.view(audience))
        assert "recipe_piles" not in text and "activity_deck" not in text and '"bag' not in text
        assert f'"{hidden_recipe}"' not in text and f'"{hidden_activity}"' not in text
    host_view = table.view("host")["host"]
    assert host_view["recipe_piles"][0][2] == hidden_recipe and host_view["activity_deck"][0] == hidden_activity
    assert "me" not in table.view("table") and table.view("seat-2")["me"]["seat"] == 2


def test_pizza_extra_action_can_be_shopping():
    table = _table_at_pizza_extra()
    assert table.state["phase"] == "pizza_extra"
    table.state["covered"] = {}
    seat(table, 1, "shop", dice=[1, 1])
    assert table.state["phase"] == "pizza_extra" and table.view("seat-1")["me"]["can"] == ["buy"]
    seat(table, 1, "buy", items=[{"space": "1.3"}])
    assert table.state["phase"] == "cleanup"
    assert player(table, 1)["kitchen"][1] == ["water"]     # bought, then moved right at clean-up


# ----------------------------------------------------------------------------- robustness
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_ATOMS = st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.sampled_from(
    ["water", "dairy", "grain", "meat", "wild", "r01", "a01", "m01", "1.1", "2.5", "diet-1", "shop",
     "kitchen", "thaw", "nuts", "gluten-free", "executive-chef", "", "x"]))
_VALUES = st.recursive(_ATOMS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.sampled_from(
                                                          ["recipe", "activity", "food", "space", "count", "group",
                                                           "column", "from", "special"]), inner, max_size=3)),
                       max_leaves=8)
_FIELDS = st.dictionaries(st.sampled_from(["card", "cards", "dice", "items", "freeze", "wild", "row", "food", "column",
                                           "take", "place", "thaw", "space", "recipe", "foods", "board", "watched",
                                           "vp", "reason", "tile"]), _VALUES, max_size=4)
_ACTIONS = st.sampled_from(["assistant", "shop", "buy", "market", "pizza", "buffet", "snack", "cook", "workout",
                            "pass", "skip", "use_ability", "tile_first", "continue", "adjust", "watch_board",
                            "accept_board", "assign_allergy", "fly"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["seat", "host"]), st.integers(1, 3), _ACTIONS, _FIELDS), max_size=6))
def test_any_input_is_applied_or_refused_cleanly(inputs):
    """Whatever a phone or the host sends, the engine either applies it or refuses it with a
    message, and a refusal changes nothing."""
    table = new_table(["Ann", "Ben"], food_allergy=True, freezer=True)
    player(table, 1)["kitchen"][0] = ["water", "grain"]
    player(table, 1)["body"]["dairy"] = ["dairy"]
    for kind, n, action, fields in inputs:
        inp = {kind: {**fields, "action": action, "seat": n}}
        before = json.dumps(table.state, sort_keys=True)
        outcome = table.handle(inp)
        if not outcome.accepted:
            assert outcome.error.message
            assert json.dumps(table.state, sort_keys=True) == before
        if table.state["phase"] == "assistants" and not outcome.accepted:
            pick_assistants(table)


def test_recipe_abilities_are_used_once_on_your_turn():
    """rulebook: a completed recipe's ability is used once, during its owner's turn (then flipped);
    end-game abilities are not used during play."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    player(table, 1)["recipes_done"] = ["r08", "r06"]       # r08 has an ability; r06 scores at the end
    refused(table, {"seat": {"seat": 2, "action": "use_ability", "recipe": "r08"}}, "breaks_rule")
    seat(table, 1, "use_ability", recipe="r08")
    assert player(table, 1)["abilities_used"] == ["r08"] and table.state["turn"] == 1   # no marker used
    refused(table, {"seat": {"seat": 1, "action": "use_ability", "recipe": "r08"}}, "already_done")
    refused(table, {"seat": {"seat": 1, "action": "use_ability", "recipe": "r06"}}, "breaks_rule")
    refused(table, {"seat": {"seat": 1, "action": "use_ability", "recipe": "r01"}}, "breaks_rule")
    player(table, 2)["recipes_done"] = ["r08", "r01"]
    refused(table, {"seat": {"seat": 2, "action": "use_ability", "recipe": "r08"}}, "not_your_turn")
    refused(table, {"seat": {"seat": 2, "action": "use_ability", "recipe": "r01"}}, "breaks_rule")
