"""Food for Thought: every number the rulebook gives, checked through the engine."""
import pytest

from server.games.food_for_thought import rules
from tests.support.food_for_thought import (finish_actions, new_table, next_round, ok, pick_assistants,
                                            player, refused, seat)


@pytest.mark.parametrize("players,spaces", [(1, 3), (2, 3), (3, 4), (4, 5)])
def test_grocery_shopping_spaces_by_player_count(players, spaces):
    """rulebook: 3 shopping spaces with 1-2 players, 4 with 3, 5 with 4; full spaces close shopping."""
    table = new_table([f"P{i}" for i in range(1, players + 1)])
    pick_assistants(table)
    for _ in range(spaces):
        turn = table.state["turn"]
        seat(table, turn, "shop", dice=[1, 1])
        seat(table, turn, "buy", items=[])
    turn = table.state["turn"]
    err = refused(table, {"seat": {"seat": turn, "action": "shop", "dice": [1, 1]}}, "unavailable")
    assert f"All {spaces} grocery shopping spaces" in err.message
    assert table.view(f"seat-{turn}")["me"]["why_not"]["shop"] == err.message


def _shopping_table(**options):
    table = new_table(["Ann", "Ben"], **options)
    pick_assistants(table)
    return table, table.state["turn"]


def test_shopping_prices_and_budget():
    """rulebook: on sale (a die's row or column) $1, other spaces $3, special order $5, at most $6."""
    table, s = _shopping_table()
    grid = table.state["shopping"]
    table.state["covered"] = {}          # no out-of-stock cards in the way of this check
    table.state["oos_up"] = []
    seat(table, s, "shop", dice=[2, 5])
    prices = {e["space"]: e.get("price") for e in table.view("table")["shopping"]}
    assert prices["2.3"] == 1 and prices["3.2"] == 1 and prices["5.1"] == 1 and prices["1.5"] == 1
    assert prices["1.1"] == 3 and prices["3.4"] == 3
    # $1 + $1 + $1 + $3 = $6 (the rulebook's example shape: three on sale, one elsewhere)
    before = [list(c) for c in player(table, s)["kitchen"]]
    refused(table, {"seat": {"seat": s, "action": "buy", "items": [
        {"space": "2.1"}, {"space": "1.1"}, {"space": "3.3"}]}}, "breaks_rule")      # 1 + 3 + 3 = 7
    ok(table, {"seat": {"seat": s, "action": "buy", "items": [
        {"space": "2.1"}, {"space": "2.2"}, {"space": "5.5"}, {"space": "1.1"}]}})
    bought = [grid[x] for x in ("2.1", "2.2", "5.5", "1.1")]
    after = [f for c in player(table, s)["kitchen"] for f in c]
    assert sorted(after) == sorted([f for c in before for f in c] + bought)
    assert {"2.1", "2.2", "5.5", "1.1"} <= set(table.state["covered"])
    assert any("($6 of $6)" in line for line in table.state["log"])


def test_special_order_costs_5_and_only_for_food_off_the_list():
    """rulebook: food no longer available on the shopping list may be special ordered for $5."""
    table, s = _shopping_table()
    grid = table.state["shopping"]
    food = grid["1.1"]
    table.state["covered"] = {sp: "shopping" for sp, f in grid.items() if f == food}
    seat(table, s, "shop", dice=[6, 6])
    refused(table, {"seat": {"seat": s, "action": "buy", "items": [{"special": "dairy"}]}}, "breaks_rule")
    refused(table, {"seat": {"seat": s, "action": "buy", "items": [{"special": food}, {"space": "2.2"}]}},
            "breaks_rule")                                    # 5 + 3 = 8
    refused(table, {"seat": {"seat": s, "action": "buy", "items": [{"space": "1.1"}]}}, "unavailable")
    ok(table, {"seat": {"seat": s, "action": "buy", "items": [{"special": food}, {"space": "6.1"}]}})  # 5 + 1


def test_four_actions_each_per_round_in_turn_order():
    """rulebook: starting with the first player, players alternate one action at a time until each took 4."""
    table = new_table(["Ann", "Ben", "Cat"], first_seat=2)
    pick_assistants(table)
    turns = []
    while table.state["phase"] == "actions":
        turns.append(table.state["turn"])
        seat(table, table.state["turn"], "cook")
    assert turns == [2, 3, 1] * rules.ACTIONS_PER_ROUND
    assert table.state["phase"] == "cleanup"


def test_six_rounds_then_the_game_ends():
    """rulebook: the game lasts six rounds; the first player token passes on each round."""
    table = new_table(["Ann", "Ben"])
    firsts = []
    for _ in range(rules.ROUNDS):
        assert not table.state["over"]
        firsts.append(table.state["first_seat"])
        next_round(table)
    assert table.state["over"] and table.state["round"] == 6
    assert firsts == [1, 2, 1, 2, 1, 2]


def test_trash_costs_2_vp_per_token():
    """rulebook: -2 VP for each food token in the trash at the end of the game."""
    table = new_table(["Ann"], diet="standard")
    pick_assistants(table)
    player(table, 1)["kitchen"][-1] = ["meat", "water", "dairy"]   # about to spoil
    for _ in range(rules.ROUNDS):
        next_round(table)
    receipt = table.state["receipts"][0]
    trash = [l for l in receipt["lines"] if l["section"] == "trash"]
    assert trash == [{"section": "trash", "label": "Trash: 3 tokens x -2", "vp": -6}]


def test_kitchen_tokens_move_right_and_spoil_into_the_trash():
    """rulebook clean-up step 1: kitchen tokens move one space right; the last space goes to the trash."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    p = player(table, 1)
    p["kitchen"] = [["water"], ["dairy"], [], ["meat"]]
    finish_actions(table)
    p = player(table, 1)
    assert p["kitchen"] == [[], ["water"], ["dairy"], []]
    assert p["trash"] == ["meat"]
    assert table.state["phase"] == "cleanup" and table.view("table")["cleanup"]


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_market_at_most_twice_per_player_per_round_and_open_to_all(count):
    """rulebook: farmers market spaces never block, but each player visits at most twice a round."""
    table = new_table([f"P{i}" for i in range(1, count + 1)])
    pick_assistants(table)
    card = table.state["market_up"][0]
    wild = ["water"] * table.state["cards"]["market"][card]["foods"].count("wild")
    for _ in range(2 * count):                    # everyone visits the same stand twice
        seat(table, table.state["turn"], "market", card=card, wild=wild)
    turn = table.state["turn"]
    err = refused(table, {"seat": {"seat": turn, "action": "market", "card": card, "wild": wild}}, "unavailable")
    assert "2 times" in err.message


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_snack_once_per_round(count):
    """rulebook: each player may snack only once per round."""
    table = new_table([f"P{i}" for i in range(1, count + 1)])
    pick_assistants(table)
    for n in range(1, count + 1):
        player(table, n)["kitchen"][0] = ["water", "water"]
    for _ in range(count):
        seat(table, table.state["turn"], "snack", food="water")
    turn = table.state["turn"]
    refused(table, {"seat": {"seat": turn, "action": "snack", "food": "water"}}, "unavailable")
    assert player(table, turn)["body"]["water"] == ["water"]
    assert "snack" in table.view(f"seat-{turn}")["me"]["why_not"]


def test_recipes_take_at_most_3_and_cook_at_most_3_tokens():
    """rulebook: Recipes & Cook takes up to 3 face-up recipes and moves up to 3 kitchen tokens."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    book = [r["id"] for r in table.view("table")["recipe_book"]]
    assert len(book) == rules.RECIPE_BOOK_SIZE
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": book}}, "bad_argument")
    refused(table, {"seat": {"seat": 1, "action": "cook", "place": [{"recipe": "x", "food": "water"}] * 4}},
            "bad_argument")
    seat(table, 1, "cook", take=book[:3])
    assert player(table, 1)["recipes"] == book[:3]
    assert len(table.view("table")["recipe_book"]) == rules.RECIPE_BOOK_SIZE   # refilled


def test_activities_take_at_most_2_and_work_out_at_most_3_tokens():
    """rulebook: Activities & Work Out takes up to 2 activities and moves up to 3 body tokens."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    planner = list(table.state["planner"])
    assert len(planner) == rules.DAILY_PLANNER_SIZE
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": planner}}, "bad_argument")
    seat(table, 1, "workout", take=planner[:2])
    assert player(table, 1)["activities"] == planner[:2]
    assert len(table.state["planner"]) == rules.DAILY_PLANNER_SIZE              # refilled
