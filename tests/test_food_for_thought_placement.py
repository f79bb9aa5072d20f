"""Food for Thought: where tokens lie.  Body spaces keep their gaps, a cook finds the recipe spaces
whatever the order of the list, each player may have their own alternate diet board, and a
camera reading is never applied on top of an action that already moved the same tokens."""
from server.games.food_for_thought import scoring
from tests.support.food_for_thought import host, new_table, ok, pick_assistants, player, refused, seat


def _receipt_line(table, n, group_name):
    p = player(table, n)
    lines = scoring.receipt(table.state, p)["lines"]
    return next(line for line in lines if line["section"] == "body" and line["label"].startswith(group_name))


# ----------------------------------------------------------------------------- body positions
def test_a_worked_out_token_leaves_its_space_empty_and_the_last_token_scores():
    """rulebook "The Body": tokens go in the first available space left to right and are never slid
    left; a group scores the space of its last token.  Fruit, veg, fruit, then the veg worked out:
    the second fruit still lies on space 3 (sample produce track 1, 2, 4, ...: 4 VP, not 2)."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    table.state["planner"][0] = "a09"                       # Sample Cycling: grain + fruit|veg
    p = player(table, 1)
    p["body"]["produce"] = ["fruit", "veg", "fruit"]
    p["body"]["grain"] = ["grain"]
    seat(table, 1, "workout", take=["a09"], place=[{"activity": "a09", "food": "veg"},
                                                    {"activity": "a09", "food": "grain"}])
    assert player(table, 1)["body"]["produce"] == ["fruit", None, "fruit"]
    line = _receipt_line(table, 1, "Fruit & Vegetables")
    assert line["vp"] == 4 and "2 tokens, last on space 3" in line["label"]
    # the next produce token fills the first empty space, the gap at space 2
    player(table, 1)["kitchen"][1] = ["veg"]
    seat(table, 2, "pass")
    seat(table, 1, "snack", food="veg")
    assert player(table, 1)["body"]["produce"] == ["fruit", "veg", "fruit"]


def test_working_out_the_last_token_scores_the_token_before_it():
    """rulebook: the group scores its last token; when the last one goes, the one before it is last."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    table.state["planner"][0] = "a09"
    player(table, 1)["body"].update(produce=["fruit", "veg", "veg"], grain=["grain"])
    seat(table, 1, "workout", take=["a09"], place=[{"activity": "a09", "food": "veg"},
                                                    {"activity": "a09", "food": "grain"}])
    assert player(table, 1)["body"]["produce"] == ["fruit", "veg"]
    assert _receipt_line(table, 1, "Fruit & Vegetables")["vp"] == 2


def test_a_player_may_name_which_body_token_they_work_out():
    """rulebook Work Out: any matching token of the body may go; naming its space keeps the record
    where the token really lay (here the first fruit, so the last fruit still scores space 3)."""
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    table.state["planner"][0] = "a09"
    player(table, 1)["body"].update(produce=["fruit", "veg", "fruit"], grain=["grain"])
    refused(table, {"seat": {"seat": 1, "action": "workout", "take": ["a09"], "place": [
        {"activity": "a09", "food": "fruit", "position": 2}]}}, "unavailable")     # space 2 holds veg
    seat(table, 1, "workout", take=["a09"], place=[{"activity": "a09", "food": "fruit", "position": 1},
                                                    {"activity": "a09", "food": "grain"}])
    assert player(table, 1)["body"]["produce"] == [None, "veg", "fruit"]


def test_board_slots_keep_the_gaps():
    """The record's slots name the space each body token lies on, so the camera's view of the same
    board agrees; a host correction may leave a gap too."""
    from server.games.food_for_thought.boards import implied
    table = new_table(["Ann", "Ben"])
    player(table, 1)["body"]["produce"] = ["fruit", None, "fruit"]
    slots = implied(table.state, "diet-1")
    assert slots["body.produce.1"] == "fruit" and slots["body.produce.3"] == "fruit"
    assert "body.produce.2" not in slots
    host(table, "correct_board", board="diet-1", slots={"body.produce.1": None})
    assert player(table, 1)["body"]["produce"] == [None, None, "fruit"]


# ----------------------------------------------------------------------------- cook placement
def _recipe_table(needs):
    table = new_table(["Ann", "Ben"])
    pick_assistants(table)
    table.state["cards"]["recipes"]["r01"]["needs"] = needs     # test set-up: this card's spaces
    for pile in table.state["recipe_piles"]:
        if "r01" in pile:
            pile.remove("r01")
    table.state["recipe_piles"][0].insert(0, "r01")
    return table


def test_cook_fills_the_spaces_whatever_the_order_of_the_list():
    """rulebook Cook: tokens go onto empty matching spaces; a wild space takes any food.  Dairy named
    before water still completes a recipe needing wild + dairy (dairy on its own space)."""
    table = _recipe_table(["wild", "dairy"])
    p = player(table, 1)
    p["kitchen"][0] = ["water"]
    p["kitchen"][1] = ["dairy"]
    seat(table, 1, "cook", take=["r01"], place=[{"recipe": "r01", "food": "dairy"},
                                                {"recipe": "r01", "food": "water"}])
    p = player(table, 1)
    assert p["recipes_done"] == ["r01"] and table.state["players"][0]["score"] == 2


def test_cook_keeps_the_wild_space_open_for_later():
    """One dairy onto wild + dairy goes on the dairy space, so any food can still fill the wild one."""
    table = _recipe_table(["wild", "dairy"])
    player(table, 1)["kitchen"][1] = ["dairy"]
    seat(table, 1, "cook", take=["r01"], place=[{"recipe": "r01", "food": "dairy"}])
    assert player(table, 1)["recipe_tokens"]["r01"] == [None, "dairy"]


def test_cook_refuses_when_no_assignment_exists_and_changes_nothing():
    table = _recipe_table(["dairy", "grain|water"])
    player(table, 1)["kitchen"][1] = ["dairy", "dairy"]
    err = refused(table, {"seat": {"seat": 1, "action": "cook", "take": ["r01"], "place": [
        {"recipe": "r01", "food": "dairy"}, {"recipe": "r01", "food": "dairy"}]}}, "unavailable")
    assert "Dairy" in err.message
    refused(table, {"seat": {"seat": 1, "action": "cook", "take": ["r01"], "place": [
        {"recipe": "r01", "food": "dairy", "space": 2}]}}, "unavailable")


# ----------------------------------------------------------------------------- no double counting
def _pizza_table(watched):
    table = new_table(["Ann", "Ben"])
    if watched:
        host(table, "watch_board", board="diet-1")
        host(table, "watch_board", board="shop")
    pick_assistants(table)
    table.state["pizza"] = ["fats", "meat", "meat", "meat", "veg", "water"]
    return table


def _reading(board, slots):
    return {"board": {"board": board, "slots": slots}}


def test_a_reading_before_the_phone_does_not_count_pizza_to_go_twice():
    """rulebook Pizza To Go: all the brochure's tokens go to the body, once.  The camera sees them in
    Ann's body before her phone records the action: 3 meat stay 3, with the board watched or not."""
    for watched in (False, True):
        table = _pizza_table(watched)
        ok(table, _reading("diet-1", {"body.fats.1": "fats", "body.protein.1": "meat", "body.protein.2": "meat",
                                      "body.protein.3": "meat", "body.produce.1": "veg", "body.water.1": "water"}))
        seat(table, 1, "pizza")
        p = player(table, 1)
        assert p["body"]["protein"] == ["meat", "meat", "meat"], watched
        assert p["body"]["fats"] == ["fats"] and p["body"]["water"] == ["water"]
        if watched:
            assert "diet-1" not in table.view("table")["disagreements"]


def test_a_reading_before_the_phone_does_not_block_the_purchase_or_the_cook():
    """The camera sees the shopping tokens and the kitchen before the phone's purchase, and the recipe's
    tokens gone from the kitchen before the phone's cook: both actions still apply, once."""
    for watched in (False, True):
        table = _pizza_table(watched)
        table.state["covered"] = {}
        space = next(sp for sp, f in table.state["shopping"].items() if f == "dairy")
        ok(table, _reading("shop", {f"shop.{space}": "covered"}))
        ok(table, _reading("diet-1", {"kitchen.2.1": "dairy"}))
        seat(table, 1, "shop", dice=[int(space[0]), 1])
        seat(table, 1, "buy", items=[{"space": space}])
        assert player(table, 1)["kitchen"][1] == ["dairy"] and space in table.state["covered"]
        seat(table, 2, "pass")
        for pile in table.state["recipe_piles"]:
            if "r01" in pile:
                pile.remove("r01")
        table.state["recipe_piles"][0].insert(0, "r01")
        ok(table, _reading("diet-1", {"kitchen.2.1": None}))
        seat(table, 1, "cook", take=["r01"], place=[{"recipe": "r01", "food": "dairy"}])
        assert player(table, 1)["recipe_tokens"]["r01"] == [None, "dairy"]


# ----------------------------------------------------------------------------- diet boards
def test_each_player_may_play_their_own_alternate_diet_board():
    """rulebook "Playing with the Alternate Diet Boards": players select the board they wish to use;
    each board scores by its own tracks and kitchen.  Ann plays Plant Based, Ben High Protein (sample
    boards): the same three meat score -4 for Ann and +5 for Ben, and Ben's meat enters kitchen
    column 2 where Ann's enters column 3."""
    table = new_table(["Ann", "Ben"], diet="plant-based, high-protein")
    assert [player(table, n)["diet"] for n in (1, 2)] == ["plant-based", "high-protein"]
    assert [s["diet"] for s in table.view("table")["seats"]] == ["Plant Based (sample)", "High Protein (sample)"]
    for n in (1, 2):
        player(table, n)["body"]["protein"] = ["meat", "meat", "meat"]
    assert _receipt_line(table, 1, "Meat")["vp"] == -4 and _receipt_line(table, 2, "Meat")["vp"] == 5
    pick_assistants(table)
    table.state["pizza"] = []
    for n in (1, 2):
        table.state["covered"] = {}
        meat = next(sp for sp, f in table.state["shopping"].items() if f == "meat")
        seat(table, n, "shop", dice=[int(meat[0]), 1])
        seat(table, n, "buy", items=[{"space": meat}])
    assert player(table, 1)["kitchen"][2] == ["meat"] and player(table, 2)["kitchen"][1] == ["meat"]


def test_diet_boards_are_all_standard_or_all_alternate():
    """rulebook: do not play with some players on the Standard Diet and some on alternate boards;
    the Cleanse board is for solo play."""
    table = new_table(["Ann", "Ben"])
    for diet, words in (("standard,plant-based", "does not mix"), ("plant-based", None),
                        ("plant-based,high-protein,standard", "one per seat"), ("cleanse", "solo play only"),
                        ("nope,standard", "no diet board 'nope'")):
        outcome = table.handle({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"],
                                             "options": {"data": "sample", "diet": diet}}})
        if words is None:
            assert outcome.accepted
        else:
            assert not outcome.accepted and outcome.error.code == "bad_option", diet
            assert words in outcome.error.message, outcome.error.message
