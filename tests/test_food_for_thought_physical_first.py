"""Food for Thought played physical-first: the group moves tokens, markers and cards, the camera
reports the boards, and the table works out each action with no phone input; it asks one question
when two actions fit, and lists what to put back when none is legal."""
import copy

import pytest

from server.games.food_for_thought import inference, physical, rounds
from server.games.food_for_thought.boards import disagreements, implied
from tests.support.food_for_thought import every_slot, new_table, ok, pick_assistants, player, refused, seat


def _table(**options):
    table = new_table(["Ann", "Ben"], mode="physical", **options)
    pick_assistants(table)
    return table


def _as_people_do(table, seat_no, body):
    """The boards after ``seat_no`` does ``body`` by hand, following the rules (their physical tokens)."""
    trial = copy.deepcopy(table.state)
    inference.play(trial, seat_no, body)
    return {b: implied(trial, b) for b in (f"diet-{seat_no}", "shop")}


def _read(table, board, slots, before=None):
    """The camera's reading of ``board``: every slot it sees, empty ones (held before) as null."""
    held = {**(before or {}), **table.state["boards"].get(board, {}).get("seen", {})}
    empties = {s: None for s in held if s not in slots}
    return ok(table, {"board": {"board": board, "slots": {**empties, **slots}}})


def _lay(table, seat_no, boards):
    for board, slots in boards.items():
        _read(table, board, slots, implied(table.state, board))


def test_pizza_to_go_is_worked_out_from_the_tokens_with_no_phone_input():
    """rulebook Pizza To Go: every token of the brochure goes into the body; the marker used is one of
    the player's four.  The table sees Ann's markers drop to 3 and the brochure's tokens in her body."""
    table = _table()
    pizza = list(table.state["pizza"])
    seq_inputs = table.seq
    _lay(table, 1, _as_people_do(table, 1, {"action": "pizza"}))
    assert table.state["spaces"]["pizza"] == 1 and table.state["pizza"] == []
    assert sorted(f for g in player(table, 1)["body"].values() for f in g if f) == sorted(pizza)
    assert table.state["turn"] == 2 and player(table, 1)["actions_left"] == 3
    assert any("dines at Pizza To Go" in line for line in table.state["log"])
    assert table.seq > seq_inputs                     # camera readings only: no phone input at all


def test_a_snack_is_worked_out_and_an_illegal_one_is_shown_as_what_to_put_back():
    """rulebook Snack: one food from the kitchen to the body, once per round.  Ann moves two tokens:
    nothing is applied and the TV lists the difference; she puts one back and the snack is applied."""
    table = _table()
    player(table, 1)["kitchen"][0] = ["water", "grain"]
    start = {b: implied(table.state, b) for b in ("diet-1",)}
    wrong = dict(start["diet-1"])
    wrong.pop("kitchen.1.1"), wrong.pop("kitchen.1.2"), wrong.pop("markers.4")
    wrong.update({"body.water.1": "water", "body.grain.1": "grain"})
    _read(table, "diet-1", wrong, start["diet-1"])
    assert player(table, 1)["actions_left"] == 4 and player(table, 1)["body"]["water"] == []
    put_back = table.view("table")["put_back"]
    assert {d["slot"] for d in put_back} >= {"body.water.1", "body.grain.1"}
    right = dict(wrong)
    right.pop("body.grain.1")
    right["kitchen.1.1"] = "grain"
    _read(table, "diet-1", right, wrong)
    assert player(table, 1)["body"]["water"] == ["water"] and player(table, 1)["kitchen"][0] == ["grain"]
    assert player(table, 1)["snacks"] == 1 and table.view("table")["put_back"] == []


def test_shopping_is_checked_against_the_dice_read_on_the_board():
    """rulebook Grocery Shopping: on sale $1 (a die's row or column), other spaces $3, at most $6.
    Ann covers three spaces worth $7: refused and listed; she uncovers one and the $5 purchase is
    applied and announced with its prices."""
    table = _table()
    table.state["covered"] = {}
    ok(table, {"board": {"board": "main", "slots": {"die.row.2": "die", "die.col.5": "die"}}})
    body = {"action": "shop", "dice": [2, 5], "items": [{"space": "2.1"}, {"space": "2.2"}, {"space": "1.1"}]}
    boards = _as_people_do(table, 1, body)
    over = {**boards, "shop": {**boards["shop"], "shop.3.3": "covered"}}
    third = table.state["shopping"]["3.3"]
    column = table.state["diets"][player(table, 1)["diet"]]["kitchen"]["entry"][third]
    over["diet-1"] = {**boards["diet-1"], f"kitchen.{column}.9": third}
    _lay(table, 1, over)
    assert table.state["pending"] is None and player(table, 1)["actions_left"] == 4
    assert table.view("table")["put_back"]
    _lay(table, 1, boards)
    assert player(table, 1)["actions_left"] == 3 and {"2.1", "2.2", "1.1"} <= set(table.state["covered"])
    assert any("($5 of $6)" in line for line in table.state["log"])


def test_two_actions_that_fit_are_one_question_on_the_phone():
    """Two buffet rows with the same tokens: the table cannot tell which row Ann took, so her phone
    asks once; her one tap applies it (rulebook Chinese Buffet: all the tokens of one row)."""
    table = new_table(["Ann", "Ben", "Cat"], mode="physical")
    pick_assistants(table)
    table.state["buffet"] = [["veg", "dairy"], ["veg", "dairy"]]
    turn = table.state["turn"]
    _lay(table, turn, _as_people_do(table, turn, {"action": "buffet", "row": 2}))
    question = table.view(f"seat-{turn}")["me"]
    assert question["can"] == ["answer"] and question["answer"]["options"] == [
        "Chinese Buffet, row 1", "Chinese Buffet, row 2"]
    assert table.view(f"seat-{turn}")["prompt"].startswith("Your turn: tell the table which action you took")
    name = player(table, turn)["name"]
    assert table.view("table")["prompt"] == f"Round 1 of 6: {name}, which action was it? Answer on your phone."
    assert player(table, turn)["actions_left"] == 4                  # nothing applied yet
    other = turn % 3 + 1
    refused(table, {"seat": {"seat": other, "action": "answer", "choice": 1}}, "not_now")
    refused(table, {"seat": {"seat": turn, "action": "answer", "choice": 3}}, "bad_argument")
    seat(table, turn, "answer", choice=2)
    assert table.state["buffet"] == [["veg", "dairy"], []] and player(table, turn)["actions_left"] == 3


def test_cooking_is_worked_out_from_tokens_moved_onto_the_recipes():
    """rulebook Recipes & Cook: move up to 3 kitchen tokens onto incomplete recipes; a recipe whose
    spaces are all filled scores and its food goes to the body.  The table tracks the tokens lying on
    Ann's recipe cards until the recipe is complete."""
    table = _table()
    p = player(table, 1)
    p["recipes"], p["recipe_tokens"] = ["r01"], {"r01": [None, None]}        # Sample Toast: grain + dairy
    p["kitchen"][0], p["kitchen"][1] = ["grain"], ["dairy"]
    _lay(table, 1, _as_people_do(table, 1, {"action": "cook", "place": [{"recipe": "r01", "food": "grain"}]}))
    assert player(table, 1)["recipe_tokens"]["r01"] == ["grain", None]
    assert implied(table.state, "diet-1")["onrecipe.1"] == "grain"
    seat(table, 2, "pass")
    _lay(table, 1, _as_people_do(table, 1, {"action": "cook", "place": [{"recipe": "r01", "food": "dairy"}]}))
    p = player(table, 1)
    assert p["recipes_done"] == ["r01"] and p["body"]["grain"] == ["grain"] and p["body"]["dairy"] == ["dairy"]
    assert table.state["players"][0]["score"] == 2


def test_a_work_out_is_worked_out_from_body_tokens_moved_onto_an_activity():
    """rulebook Work Out: up to 3 body tokens onto incomplete activities; a completed activity scores
    and its tokens go back to the supply.  The token's space in the body stays empty (never slid)."""
    table = _table()
    p = player(table, 1)
    p["activities"], p["activity_tokens"] = ["a09"], {"a09": [None, None]}    # Sample Cycling: grain + fruit|veg
    p["body"].update(produce=["fruit", "veg", "fruit"], grain=["grain"])
    boards = _as_people_do(table, 1, {"action": "workout", "place": [
        {"activity": "a09", "food": "veg", "group": "produce", "position": 2}]})
    _lay(table, 1, boards)
    assert player(table, 1)["activity_tokens"]["a09"] == [None, ["veg"]]
    assert player(table, 1)["body"]["produce"] == ["fruit", None, "fruit"]
    seat(table, 2, "pass")
    _lay(table, 1, _as_people_do(table, 1, {"action": "workout", "place": [
        {"activity": "a09", "food": "grain", "group": "grain", "position": 1}]}))
    assert player(table, 1)["activities_done"] == ["a09"] and table.state["players"][0]["score"] == 2


def _with_markers(table, seat_no):
    """The camera's first look: ``seat_no``'s diet board and the main board's action spaces as recorded."""
    _read(table, f"diet-{seat_no}", {**every_slot(table.state, f"diet-{seat_no}"),
                                      **implied(table.state, f"diet-{seat_no}")})
    main = {f"action.{space}.{n}": None for space in physical.MAIN_SPACES for n in range(1, 6)}
    _read(table, "main", {**main, **implied(table.state, "main")})


def test_the_last_marker_placed_with_nothing_done_needs_no_question():
    """rulebook Place and Pass: a pass puts a marker on an open space, does nothing, and sets the
    remaining markers aside.  With one marker left there is nothing to set aside: the table takes it
    as an empty Recipes & Cook and asks nothing."""
    table = _table()
    player(table, 1)["actions_left"] = 1
    _read(table, "diet-1", {**every_slot(table.state, "diet-1"), **implied(table.state, "diet-1")})
    _lay(table, 1, _as_people_do(table, 1, {"action": "pass"}))
    assert table.view("seat-1")["me"]["can"] != ["answer"]
    assert player(table, 1)["actions_left"] == 0 and table.state["turn"] == 2


def test_a_purchase_into_the_freezer_and_a_thaw_are_worked_out():
    """rulebook Freezer module: meat, poultry and seafood may go into the freezer as they are acquired;
    a Recipes & Cook action may move up to 2 of them to the thaw area instead of cooking."""
    table = _table(freezer=True)
    table.state["covered"] = {}
    ok(table, {"board": {"board": "main", "slots": {"die.row.3": "die", "die.col.6": "die"}}})
    meat = next(s for s, f in sorted(table.state["shopping"].items()) if f in ("meat", "poultry", "seafood"))
    food = table.state["shopping"][meat]
    _lay(table, 1, _as_people_do(table, 1, {"action": "shop", "dice": [3, 6], "items": [{"space": meat}],
                                            "freeze": [food]}))
    assert player(table, 1)["freezer"] == [food] and player(table, 1)["actions_left"] == 3
    seat(table, 2, "pass")
    _lay(table, 1, _as_people_do(table, 1, {"action": "cook", "thaw": [food]}))
    assert player(table, 1)["freezer"] == [] and player(table, 1)["thaw"] == [food]
    assert player(table, 1)["actions_left"] == 2


def test_the_pizza_to_go_extra_action_is_seen_from_the_marker_moved_and_the_tokens():
    """rulebook Pizza To Go: at the end of the round its player may move that marker to another open
    space and take that action.  Ann moves it to the buffet and eats row 1: applied with no phone input."""
    table, turn = _extra_action_table()
    _with_markers(table, turn)
    row = list(table.state["buffet"][0])
    eaten = [f for g in player(table, turn)["body"].values() for f in g if f]
    boards = _as_people_do(table, turn, {"action": "buffet", "row": 1})
    trial = copy.deepcopy(table.state)
    inference.play(trial, turn, {"action": "buffet", "row": 1})
    _read(table, f"diet-{turn}", boards[f"diet-{turn}"])
    assert table.state["phase"] == "pizza_extra"            # the marker has not left Pizza To Go yet
    _read(table, "main", implied(trial, "main"))
    assert table.state["phase"] == "round_end" and table.state["buffet"][0] == []
    assert sorted(f for g in player(table, turn)["body"].values() for f in g if f) == sorted(eaten + row)


def test_taking_the_pizza_to_go_marker_back_skips_the_extra_action():
    """rulebook Pizza To Go: the extra action is optional; the player who takes the marker back to their
    board gives it up, and the round ends with nothing else applied."""
    table, turn = _extra_action_table()
    _with_markers(table, turn)
    before = copy.deepcopy(player(table, turn))
    _read(table, f"diet-{turn}", {**implied(table.state, f"diet-{turn}"), "markers.1": "marker"})
    assert table.state["phase"] == "round_end"
    assert player(table, turn)["body"] == before["body"] and player(table, turn)["kitchen"] == before["kitchen"]


def _tidied(table):
    """The boards as the people leave them after the clean-up steps (the engine's clean-up on a copy)."""
    trial = copy.deepcopy(table.state)
    rounds.end_round(trial)
    rounds.start_round(trial)
    return {b: implied(trial, b) for b in ["shop"] + [f"diet-{s}" for s in trial["seats"]]}


def test_the_clean_up_is_checked_on_the_boards_and_the_next_round_starts_by_itself():
    """rulebook end of the round: kitchens move one column right (the last column spoils into the
    trash), shopping tokens come off the list, markers go back.  The table starts round 2 only when
    the camera shows every board tidy, and until then lists what is still to do."""
    table = _table()
    player(table, 1)["kitchen"][-1] = ["water"]                          # spoils at the clean-up
    player(table, 2)["kitchen"][0] = ["grain"]
    for n in (1, 2):
        _read(table, f"diet-{n}", implied(table.state, f"diet-{n}"))
    while table.state["phase"] == "actions":
        seat(table, table.state["turn"], "pass")
    assert table.state["phase"] == "round_end"
    tidy = _tidied(table)
    _read(table, "diet-1", tidy["diet-1"])
    assert table.state["phase"] == "round_end" and table.state["round"] == 1
    assert any(d["board"] == "diet-2" and d["slot"].startswith("kitchen.") for d in table.view("table")["put_back"])
    _read(table, "diet-2", tidy["diet-2"])
    assert table.state["phase"] == "assistants" and table.state["round"] == 2
    assert player(table, 1)["trash"] == ["water"] and player(table, 2)["kitchen"][1] == ["grain"]
    assert table.view("table")["put_back"] == []


def _new_game_options(ctx, **options):
    outcome = ctx.table.handle({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"], "seed": 1,
                                             "options": {"data": "sample", **options}}})
    assert outcome.accepted, outcome.error.as_dict()
    (_row, journaled), = [r for r in ctx.table.journal.live_since_last_game()]
    return ctx.table.state["options"], journaled["new_game"]["options"]


def test_physical_first_is_the_default_where_a_camera_feeds_the_table(tmp_path):
    """A table whose camera puts its readings on the table starts Food for Thought physical-first unless
    the host chooses guided; the journal holds the mode, so a refold on a table without a camera replays
    the same game.  A camera that only watches (the simulated one by default) leaves the guided default,
    and so does a camera switched off in the configuration."""
    from server.context import TableContext
    from vision import camera

    watching = TableContext.open(tmp_path / "watching", simulate=True)
    camera.build(watching)
    assert _new_game_options(watching)[0]["mode"] == "guided"
    switched_off = TableContext.open(tmp_path / "off", simulate=True)
    camera.build(switched_off, {"source": "off", "commit": True})
    assert _new_game_options(switched_off)[0]["mode"] == "guided"
    feeding = TableContext.open(tmp_path / "feeding", simulate=True)
    camera.build(feeding, {"commit": True})
    state_options, journaled = _new_game_options(feeding)
    assert state_options["mode"] == journaled["mode"] == "physical"
    assert state_options["dice"] == journaled["dice"] == "camera"
    assert TableContext.open(tmp_path / "feeding", simulate=True).table.state["options"]["mode"] == "physical"
    assert _new_game_options(feeding, mode="guided")[0]["mode"] == "guided"


# ----------------------------------------------------------------------------- readings in any order
def _boards_after(table, seat_no, body):
    """Every board ``seat_no``'s move changes, as the camera sees it once the move is done: the diet
    board (with its own action spaces), the shopping list and the main board (markers, dice, dining out)."""
    trial = copy.deepcopy(table.state)
    inference.play(trial, seat_no, body)
    return {b: implied(trial, b) for b in (f"diet-{seat_no}", "shop", "main")
            if implied(trial, b) != implied(table.state, b)}


def _first_look(table, seat_no, diet_spaces=True):
    """The camera's first look at ``seat_no``'s diet board and the main board's action spaces, as
    recorded (``diet_spaces``: whether this camera reads the diet board's own action spaces)."""
    diet = {**every_slot(table.state, f"diet-{seat_no}"), **implied(table.state, f"diet-{seat_no}")}
    if not diet_spaces:
        diet = {s: t for s, t in diet.items() if not s.startswith("action.")}
    _read(table, f"diet-{seat_no}", diet)
    main = {f"action.{space}.{n}": None for space in physical.MAIN_SPACES for n in range(1, 6)}
    _read(table, "main", {**main, **implied(table.state, "main")})


def _record(table):
    """What the table has recorded, leaving out its log, what the camera last saw and the action it keeps in
    case a board read later shows more of it (the record before that action, as it was left by the readings)."""
    return {k: v for k, v in table.state.items() if k not in ("log", "boards", "last_move")}


def _extra_action_table():
    """Three players; the first has dined at Pizza To Go and the round is at its extra action."""
    table = new_table(["Ann", "Ben", "Cat"], mode="physical")
    pick_assistants(table)
    turn = table.state["turn"]
    seat(table, turn, "pizza")
    while table.state["phase"] == "actions":
        seat(table, table.state["turn"], "cook")
    assert table.state["phase"] == "pizza_extra" and table.state["turn"] == turn
    return table, turn


def _extra_shopping(table, turn):
    table.state["covered"] = {}
    space = "1.1"
    return {"action": "shop", "dice": [1, 2], "items": [{"space": space}]}


def _read_in(table, boards, order, diet_spaces=True):
    """The camera reads ``boards`` one at a time in ``order``; what the TV listed to put back meanwhile."""
    listed = []
    for board in order:
        slots = boards[board]
        if not diet_spaces and board.startswith("diet"):
            slots = {s: t for s, t in slots.items() if not s.startswith("action.")}
        _read(table, board, slots)
        listed += table.state["put_back"]
    return listed


def test_the_extra_action_read_main_board_first_or_last_is_the_same_purchase():
    """rulebook Pizza To Go: at the round's end its player may move that marker to another open space
    and take that action; here grocery shopping, the fats on space 1.1 bought on sale.  The camera
    reads the main board (the marker moved, the dice) before or after the diet board (the fats in the
    kitchen) and the shopping list: either way nothing is recorded until the last board is read, and
    then the same purchase.  Read main board first, it was taken at once as shopping with nothing
    bought, before the fats were seen."""
    results = []
    for order in (["main", "shop", "diet"], ["diet", "shop", "main"]):
        table, turn = _extra_action_table()
        _first_look(table, turn, diet_spaces=False)
        boards = _boards_after(table, turn, _extra_shopping(table, turn))
        names = [{"main": "main", "shop": "shop", "diet": f"diet-{turn}"}[b] for b in order]
        for board in names[:-1]:
            _read_in(table, boards, [board], diet_spaces=False)
            assert table.state["phase"] == "pizza_extra" and player(table, turn)["kitchen"][0] == [], order
        _read_in(table, boards, names[-1:], diet_spaces=False)
        assert table.state["phase"] == "round_end" and table.state["question"] is None
        assert "1.1" in table.state["covered"] and player(table, turn)["kitchen"][0] == ["fats"]
        assert table.view("table")["put_back"] == []
        results.append(_record(table))
    assert results[0] == results[1]


def test_a_move_whose_boards_are_read_in_any_order_is_recorded_the_same():
    """rulebook Place and Pass: a pass puts the marker on any open space (here a grocery shopping space)
    and sets the other markers aside; rulebook Pizza To Go: the extra action may be a Snack (rulebook
    Snack: one kitchen token to the body), its marker moved from the main board to the diet board.
    Read in every order, each move is recorded the same, and until the camera sees the marker where
    it went the table decides nothing and lists nothing to put back (the diet board read first once
    made the pass a pass on Recipes & Cook, and the main board read first made the snack an empty
    Recipes & Cook)."""
    def passing():
        table = _table()
        _first_look(table, 1)
        return table, 1, {"action": "pass", "space": "shop"}

    def extra_snack():
        table, turn = _extra_action_table()
        player(table, turn)["kitchen"][0] = ["grain"]
        _first_look(table, turn)
        return table, turn, {"action": "snack", "food": "grain", "column": 1}

    for make in (passing, extra_snack):
        results = []
        for flip in (False, True):
            table, turn, body = make()
            boards = _boards_after(table, turn, body)
            assert set(boards) == {f"diet-{turn}", "main"}
            order = sorted(boards, reverse=flip)
            assert _read_in(table, boards, order) == [], (make.__name__, order)
            results.append(_record(table))
        assert results[0] == results[1], make.__name__
    assert results[0]["phase"] == "round_end" and results[0]["seats"]["1"]["diet_markers"]["snack"] == 1


def test_a_marker_on_a_taken_space_is_listed_to_take_back_and_nothing_is_applied():
    """rulebook: a marker goes on an available (empty) action space; Pizza To Go holds one.  Ben puts
    his marker on Pizza To Go, already Ann's: nothing is applied and the TV lists the extra marker on
    the main board; he moves it to his Snack space and snacks, and that is applied."""
    table = _table()
    seat(table, 1, "pizza")
    player(table, 2)["kitchen"][0] = ["water"]
    _first_look(table, 2)
    before = copy.deepcopy(table.state["seats"])
    wrong_main = {**implied(table.state, "main"), "action.pizza.2": "marker2"}
    wrong_diet = {s: t for s, t in implied(table.state, "diet-2").items() if s != "markers.4"}
    _read(table, "main", wrong_main)
    _read(table, "diet-2", wrong_diet)
    assert table.state["seats"] == before and table.state["turn"] == 2
    assert {"board": "main", "slot": "action.pizza", "recorded": ["marker1"],
            "seen": ["marker1", "marker2"]} in table.view("table")["put_back"]
    boards = _boards_after(table, 2, {"action": "snack", "food": "water", "column": 1})
    _read(table, "diet-2", boards["diet-2"])
    assert table.state["seats"] == before                  # the marker is still seen on Pizza To Go too
    _read(table, "main", implied(table.state, "main"))
    assert player(table, 2)["body"]["water"] == ["water"] and table.state["turn"] == 1
    assert table.view("table")["put_back"] == []


def test_a_question_asked_after_a_put_back_list_clears_it():
    """Two buffet rows alike (rulebook Chinese Buffet: all the tokens of one row).  The diet board is read
    first: the tokens in the body fit nothing the table knows yet, so it lists them; then the main board
    shows the marker on the buffet and the emptied row, the table asks which row, and once answered
    nothing is left listed (the old list stayed on the TV after the action was applied)."""
    table = new_table(["Ann", "Ben", "Cat"], mode="physical")
    pick_assistants(table)
    table.state["buffet"] = [["veg", "dairy"], ["veg", "dairy"]]
    turn = table.state["turn"]
    _first_look(table, turn, diet_spaces=False)
    boards = _boards_after(table, turn, {"action": "buffet", "row": 2})
    _read(table, f"diet-{turn}", {s: t for s, t in boards[f"diet-{turn}"].items() if not s.startswith("action.")})
    assert table.state["put_back"]
    _read(table, "main", boards["main"])
    assert table.view(f"seat-{turn}")["me"]["can"] == ["answer"] and table.view("table")["put_back"] == []
    seat(table, turn, "answer", choice=2)
    assert table.state["buffet"] == [["veg", "dairy"], []] and table.view("table")["put_back"] == []


def test_the_host_accepts_a_move_the_rules_refuse_and_the_record_follows_the_table():
    """rulebook Snack: one food from the kitchen to the body, once per round.  Ann's group lets her
    snack two tokens (a house rule): the table refuses to work it out and lists what to put back;
    the host presses "Accept camera view" on her board.  Both tokens count in her body, her marker is
    spent on the Snack space, and it is Ben's turn; her next move is worked out as usual."""
    table = _table()
    player(table, 1)["kitchen"][0] = ["water", "grain"]
    _first_look(table, 1)
    refused(table, {"host": {"action": "accept_board", "board": "diet-1"}}, "already_done")   # nothing to accept
    insisted = {s: t for s, t in implied(table.state, "diet-1").items()
                if s not in ("kitchen.1.1", "kitchen.1.2", "markers.4")}
    insisted.update({"body.water.1": "water", "body.grain.1": "grain", "action.snack.1": "marker"})
    _read(table, "diet-1", insisted)
    assert table.view("table")["put_back"] and player(table, 1)["actions_left"] == 4
    ok(table, {"host": {"action": "accept_board", "board": "diet-1"}})
    p = player(table, 1)
    assert p["body"]["water"] == ["water"] and p["body"]["grain"] == ["grain"] and p["kitchen"][0] == []
    assert p["actions_left"] == 3 and p["snacks"] == 1 and p["diet_markers"]["snack"] == 1
    assert table.state["turn"] == 2 and table.view("table")["put_back"] == []
    assert any("host accepted the table as Ann's move on snack" in line for line in table.state["log"])
    seat(table, 2, "pass")
    boards = _boards_after(table, 1, {"action": "cook"})            # an empty Recipes & Cook, seen as usual
    _read_in(table, boards, sorted(boards))
    assert player(table, 1)["actions_left"] == 2 and table.state["turn"] == 1 and not table.state["put_back"]


def test_the_host_cannot_accept_a_move_whose_marker_the_camera_does_not_see_placed():
    """Accepting needs the space the marker went to (it decides what was spent).  A camera that does not
    read the diet board's own action spaces sees Ann's marker leave her supply and land on no main board
    space: the host is told to put it where it was used first, and nothing changes."""
    table = _table()
    player(table, 1)["kitchen"][0] = ["water", "grain"]
    _first_look(table, 1, diet_spaces=False)
    wrong = {s: t for s, t in implied(table.state, "diet-1").items()
             if s not in ("kitchen.1.1", "kitchen.1.2", "markers.4") and not s.startswith("action.")}
    wrong.update({"body.water.1": "water", "body.grain.1": "grain"})
    _read(table, "diet-1", wrong)
    assert table.state["put_back"]
    refused(table, {"host": {"action": "accept_board", "board": "diet-1"}}, "unavailable")


# ----------------------------------------------------------------------------- out of stock and market cards
def _tap(table, card, reader="center"):
    return ok(table, {"tap": {"reader": reader, "card": f"food-for-thought/{card}"}})


def test_out_of_stock_cards_are_the_ones_the_group_reveals_and_taps():
    """rulebook, solo and 2-player games: at the start of each round reveal the top 2 out of stock cards
    and cover every space they mark; they are discarded at the round's end.  With physical draws the
    table covers nothing by itself: the two cards tapped decide, a third is refused, a card tapped again
    goes back, and once the round's first action is taken none may be revealed."""
    table = new_table(["Ann", "Ben"], draws="physical")
    assert table.state["covered"] == {} and table.state["oos_up"] == []
    _tap(table, "out_of_stock/o01")
    _tap(table, "out_of_stock/o04")
    assert table.state["covered"] == dict.fromkeys(["1.1", "2.2", "1.6", "6.1"], "out_of_stock")
    refused(table, {"tap": {"reader": "center", "card": "food-for-thought/out_of_stock/o02"}}, "breaks_rule")
    _tap(table, "out_of_stock/o04")                                     # put back: o02 may come instead
    _tap(table, "out_of_stock/o02")
    assert table.state["covered"] == dict.fromkeys(["1.1", "2.2", "3.3", "4.4"], "out_of_stock")
    assert table.state["oos_up"] == ["o01", "o02"]
    pick_assistants(table)
    seat(table, table.state["turn"], "pass")
    refused(table, {"tap": {"reader": "center", "card": "food-for-thought/out_of_stock/o03"}}, "too_late")
    finish = table.state["turn"]
    seat(table, finish, "pass")
    ok(table, {"host": {"action": "continue"}})
    assert table.state["round"] == 2 and table.state["covered"] == {}
    refused(table, {"tap": {"reader": "center", "card": "food-for-thought/out_of_stock/o01"}}, "already_done")
    _tap(table, "out_of_stock/o03")
    assert table.state["covered"] == dict.fromkeys(["5.5", "6.6"], "out_of_stock")


def test_the_two_player_market_stands_are_the_eight_the_group_draws():
    """rulebook, 2-player game: randomly select 8 farmers market cards for the whole game; each round the
    stands of that round's number are turned up.  With physical draws the 8 are tapped at set-up: those of
    round 1 are open at once, a ninth is refused, and after the first action no stand may join.  With 3 or
    4 players every stand is in the game, so a tap changes nothing."""
    table = new_table(["Ann", "Ben"], draws="physical")
    assert table.state["market_cards"] == [] and table.state["market_up"] == []
    drawn = ["m02", "m03", "m04", "m06", "m07", "m09", "m11", "m12"]
    for card in drawn:
        _tap(table, f"market/{card}")
    assert table.state["market_cards"] == drawn and table.state["market_up"] == ["m02"]
    refused(table, {"tap": {"reader": "center", "card": "food-for-thought/market/m01"}}, "breaks_rule")
    _tap(table, "market/m02")                                           # put back, and another drawn instead
    _tap(table, "market/m01")
    assert table.state["market_up"] == ["m01"] and len(table.state["market_cards"]) == 8
    pick_assistants(table)
    seat(table, table.state["turn"], "pass")
    refused(table, {"tap": {"reader": "center", "card": "food-for-thought/market/m05"}}, "too_late")
    three = new_table(["Ann", "Ben", "Cat"], draws="physical")
    before = copy.deepcopy(three.state)
    _tap(three, "market/m01")
    assert three.state == before and len(three.state["market_cards"]) == 12


def test_the_tv_says_which_drawn_cards_to_tap_until_they_are_tapped():
    """rulebook, Playing with 2 Players: 8 farmers market cards are drawn at set-up, and at the start of
    each round the top 2 out of stock cards are revealed and their spaces covered with shopping tokens.
    With physical draws the table learns them only from the taps, so the TV says what to tap, how many
    are tapped and which spaces to cover, until all are tapped: the stands once, the out of stock cards
    every round.  A 3-player game has nothing to tap, and once a round's first action is taken it is too
    late to ask."""
    table = new_table(["Ann", "Ben"], draws="physical")
    tv = lambda: table.view("table")["to_tap"]     # noqa: E731
    assert tv() == [{"kind": "market", "tapped": 0, "of": 8, "cover": []},
                    {"kind": "out_of_stock", "tapped": 0, "of": 2, "cover": []}]
    stands = ["m02", "m03", "m04", "m06", "m07", "m09", "m11", "m12"]
    for card in stands[:3]:
        _tap(table, f"market/{card}")
    _tap(table, "out_of_stock/o01")
    assert tv() == [{"kind": "market", "tapped": 3, "of": 8, "cover": []},
                    {"kind": "out_of_stock", "tapped": 1, "of": 2, "cover": ["1.1", "2.2"]}]
    for card in stands[3:]:
        _tap(table, f"market/{card}")
    _tap(table, "out_of_stock/o04")
    assert tv() == []
    pick_assistants(table)
    for _ in range(2):
        seat(table, table.state["turn"], "pass")
    ok(table, {"host": {"action": "continue"}})
    assert table.state["round"] == 2 and tv() == [{"kind": "out_of_stock", "tapped": 0, "of": 2, "cover": []}]
    late = new_table(["Ann", "Ben"], draws="physical")
    pick_assistants(late)
    seat(late, late.state["turn"], "pass")
    assert late.view("table")["to_tap"] == []
    assert new_table(["Ann", "Ben", "Cat"], draws="physical").view("table")["to_tap"] == []


@pytest.mark.browser
def test_the_tv_shows_the_cards_to_tap_in_letters_read_across_the_room(tmp_path):
    """The TV at 1920x1080 names the cards still to tap and the spaces to cover in letters at least
    36 px high (about 2 cm on a 50-inch TV, read from 3 m), above the players' boards; the count follows
    the taps and the box goes once everything is tapped."""
    from tests.support.browser import browser, screenshot
    from tests.support.server import Server
    srv = Server(tmp_path / "data").start()
    try:
        srv.post({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"], "seed": 3,
                               "options": {"data": "sample", "mode": "physical", "draws": "physical"}}}).raise_for_status()
        tap = lambda card: srv.post({"tap": {"reader": "center", "card": f"food-for-thought/{card}"}}).raise_for_status()  # noqa: E731
        for card in ("market/m02", "market/m03", "market/m04", "out_of_stock/o01"):
            tap(card)
        with browser() as b:
            page = b.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(srv.url + "/")
            page.wait_for_selector(".fttv-tap >> text=3 of 8 tapped")
            box = page.locator(".fttv-tap")
            text = box.inner_text()
            assert "farmers market cards" in text and "1 of 2 tapped" in text, text
            assert "cover row 1 \u00B7 column 1, row 2 \u00B7 column 2 with shopping tokens" in text, text
            sizes = page.evaluate("[...document.querySelectorAll('.fttv-tap, .fttv-tap *')]"
                                  ".map((e) => parseFloat(getComputedStyle(e).fontSize))")
            assert min(sizes) >= 32 and page.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('.fttv-tap')).fontSize)") >= 36, sizes
            # the players' boards are drawn after the tap box; both measured in one turn of the page, since
            # the TV draws itself anew on each state and an element measured apart may be gone (CI, load 3)
            tap_bottom, board_top = page.wait_for_function(
                """() => { const tap = document.querySelector('.fttv-tap'), board = document.querySelector('.fttv-player');
                           if (!tap || !board || !board.getClientRects().length) return null;
                           return [tap.getBoundingClientRect().bottom, board.getBoundingClientRect().top]; }""").json_value()
            assert tap_bottom <= board_top < 1080, (tap_bottom, board_top)
            screenshot(page, "food-for-thought-tv-cards-to-tap")
            for card in ("market/m06", "market/m07", "market/m09", "market/m11", "market/m12", "out_of_stock/o04"):
                tap(card)
            page.wait_for_selector(".fttv-tap", state="detached")
    finally:
        srv.stop()


def _misread(boards, board, food, read_as):
    """``boards`` with the token of ``food`` on ``board`` read by the camera as ``read_as``, where it lies."""
    slot = next(s for s, t in boards[board].items() if t == food and s.startswith(("kitchen.", "body.")))
    return {**boards, board: {**boards[board], slot: read_as}}


def test_a_wild_market_food_read_as_a_food_that_cannot_lie_there_is_not_taken():
    """rulebook Farmers Market: a stand's wild icon gives any food token, into the body or kitchen as the
    stand directs; Grocery Shopping: food goes onto the matching spaces of the kitchen (the sample boards'
    kitchen columns: meat, poultry and seafood enter column 3, fats column 1).  Ann visits the nut stand
    (nuts and a wild food, to the kitchen) and takes a meat; the camera reads the meat in column 3 as fats,
    which never enters column 3: the table does not record a wild fats, applies nothing and lists the
    column; the token straightened and read as meat, the visit is applied."""
    table = _table()
    table.state["market_up"] = ["m08"]
    body = {"action": "market", "card": "m08", "wild": ["meat"]}
    boards = _as_people_do(table, 1, body)
    _lay(table, 1, _misread(boards, "diet-1", "meat", "fats"))
    assert player(table, 1)["actions_left"] == 4 and not any(map(any, player(table, 1)["kitchen"]))
    assert any(d["slot"] == "kitchen.3" and d["seen"] == ["fats"] for d in table.view("table")["put_back"])
    _lay(table, 1, boards)
    assert player(table, 1)["actions_left"] == 3 and table.view("table")["put_back"] == []
    assert sorted(f for col in player(table, 1)["kitchen"] for f in col) == ["meat", "nuts"]


def test_a_special_order_read_as_a_food_the_list_still_offers_is_not_taken():
    """rulebook Grocery Shopping: a special order ($5, from the supply) is for a food that is unavailable on
    the shopping list.  Every meat space is covered; Ann buys row 2's first space ($1) and a meat by special
    order ($5).  The camera reads the meat as poultry (same kitchen column), but poultry is still on the
    list, so it cannot have been a special order: nothing is applied; read as meat, the $6 purchase is."""
    table = _table()
    meat = [s for s, f in table.state["shopping"].items() if f == "meat"]
    table.state["covered"] = dict.fromkeys(meat, "shopping")
    ok(table, {"board": {"board": "main", "slots": {"die.row.2": "die", "die.col.6": "die"}}})
    body = {"action": "shop", "dice": [2, 6], "items": [{"space": "2.1"}, {"special": "meat"}]}
    boards = _as_people_do(table, 1, body)
    assert "poultry" in table.state["shopping"].values() and "2.1" not in meat
    _lay(table, 1, _misread(boards, "diet-1", "meat", "poultry"))
    assert player(table, 1)["actions_left"] == 4 and "2.1" not in table.state["covered"]
    assert table.view("table")["put_back"]
    _lay(table, 1, boards)
    assert player(table, 1)["actions_left"] == 3 and any("($6 of $6)" in line for line in table.state["log"][-3:])


def test_a_special_order_alone_is_worked_out_from_the_kitchen_with_no_phone_input():
    """rulebook Grocery Shopping: a food no longer available on the shopping list may be bought from the
    supply for $5 (a special order), and then no shopping token is placed.  Every meat space is out of stock;
    Ann rolls, buys only a meat by special order and puts it in her kitchen: the shopping list does not change,
    so the camera sees her marker gone, the dice and a new meat, and the $5 purchase is applied with no
    question, the list's spaces as they were."""
    table = _table()
    meat = [s for s, f in table.state["shopping"].items() if f == "meat"]
    table.state["covered"] = dict.fromkeys(meat, "out_of_stock")
    ok(table, {"board": {"board": "main", "slots": {"die.row.2": "die", "die.col.6": "die"}}})
    boards = _as_people_do(table, 1, {"action": "shop", "dice": [2, 6], "items": [{"special": "meat"}]})
    assert boards["shop"] == implied(table.state, "shop")            # no shopping token placed
    _lay(table, 1, boards)
    assert table.state.get("question") is None and table.view("table")["put_back"] == []
    assert player(table, 1)["actions_left"] == 3 and table.state["turn"] == 2
    assert [f for col in player(table, 1)["kitchen"] for f in col] == ["meat"]
    assert table.state["covered"] == dict.fromkeys(meat, "out_of_stock")
    assert any("Meat $5 (special order) ($5 of $6)" in line for line in table.state["log"][-3:])


def test_a_purchase_whose_shopping_token_the_camera_does_not_see_lists_the_spaces_to_cover():
    """rulebook Grocery Shopping: a shopping token goes on each space bought from; a special order ($5) is only
    for a food the list no longer offers.  Ann buys spaces 2.1 and 6.4 (both on sale) but the camera does not
    see 6.4's shopping token: the food in her kitchen is not taken for a special order, nothing is applied, and
    besides what differs from the record the TV lists the open spaces offering that food, to cover (not only
    her kitchen's food to take out).  Once the camera sees 6.4 covered, the $2 purchase is applied."""
    table = _table()
    table.state["covered"] = {}
    ok(table, {"board": {"board": "main", "slots": {"die.row.2": "die", "die.col.6": "die"}}})
    boards = _as_people_do(table, 1, {"action": "shop", "dice": [2, 6], "items": [{"space": "2.1"}, {"space": "6.4"}]})
    food = table.state["shopping"]["6.4"]
    unseen = {**boards, "shop": {s: t for s, t in boards["shop"].items() if s != "shop.6.4"}}
    _lay(table, 1, unseen)
    assert player(table, 1)["actions_left"] == 4 and "6.4" not in table.state["covered"]
    to_cover = {d["slot"] for d in table.view("table")["put_back"] if d["board"] == "shop" and d["recorded"] == "covered"}
    assert "shop.6.4" in to_cover and all(table.state["shopping"][s[5:]] == food for s in to_cover)
    assert "that the shopping list still offers" in table.state["log"][-1]
    _lay(table, 1, boards)
    assert player(table, 1)["actions_left"] == 3 and {"2.1", "6.4"} <= set(table.state["covered"])
    assert table.view("table")["put_back"] == [] and any("($2 of $6)" in line for line in table.state["log"][-3:])


def test_a_marker_the_camera_cannot_see_land_is_named_on_the_tv_headline():
    """rulebook Actions: each action is one of the player's markers placed on an action space.  The camera
    sees Ann's marker leave her row but on no action space (read unsure, or still in her hand): the table
    applies nothing and does not sit silent: the TV's headline tells her to set the marker squarely on one
    space.  Once the camera sees it on Pizza To Go, the action is worked out and the headline moves on."""
    table = _table()
    ok(table, {"board": {"board": "main", "slots": {"action.pizza.1": None}}})   # the main board's spaces are read
    start = implied(table.state, "diet-1")
    lifted = {s: t for s, t in start.items() if s != "markers.4"}
    _read(table, "diet-1", {**lifted, "action.cook.1": None}, start)
    headline = table.view("table")["prompt"]
    assert headline == ("Round 1 of 6: Ann, the table cannot see where your marker went: set it squarely on one "
                        "action space.")
    assert player(table, 1)["actions_left"] == 4 and table.view("table")["put_back"] == []
    assert sum("cannot see where your marker went" in line for line in table.state["log"]) == 1
    assert table.view("seat-1")["prompt"] == ("Your turn: the table cannot see where your marker went: set it "
                                              "squarely on one action space.")
    dined = _as_people_do(table, 1, {"action": "pizza"})["diet-1"]
    _read(table, "diet-1", dined, lifted)                                          # the food in her body: still waiting
    assert table.view("table")["prompt"] == headline
    assert sum("cannot see where your marker went" in line for line in table.state["log"]) == 1, "said once"
    ok(table, {"board": {"board": "main", "slots": {"action.pizza.1": physical.marker(1)}}})
    assert player(table, 1)["actions_left"] == 3 and table.state["turn"] == 2
    assert "marker went" not in table.view("table")["prompt"]


# ----------------------------------------------------------------------------- the dice option
def _marker_on_shop(table, dice_lying=("6", "6")):
    """Ann's marker leaves her row for the shopping space; two dice lie on the main board's tracks (a
    previous roll nobody moved): what the camera sees."""
    diet = implied(table.state, "diet-1")
    diet.pop("markers.4")
    _read(table, "diet-1", diet)
    _read(table, "main", {**implied(table.state, "main"), "action.shop.1": "marker1",
                          f"die.row.{dice_lying[0]}": "die", f"die.col.{dice_lying[1]}": "die"})


def _buy(table, body):
    """Ann's purchase made by hand: the kitchen and the shopping list as the camera then sees them."""
    boards = _boards_after(table, 1, body)
    for board in ("shop", "diet-1"):
        _read(table, board, boards[board])


def test_dice_entered_on_the_phone_are_the_roll_whatever_lies_on_the_tracks():
    """rulebook Grocery Shopping: the shopper rolls both dice; the spaces in the rows and columns they show
    are on sale ($1), the others cost $3, up to $6 in all.  With dice: physical the roll is one tap on the
    shopper's phone once the camera sees her marker on the shopping space; dice lying on the main board's
    tracks are never asked for, never listed and never change it; a roll out of turn, out of range or with
    no shopping trip waiting is refused with nothing changed."""
    table = _table(dice="physical")
    table.state["covered"] = {}
    _first_look(table, 1)
    refused(table, {"seat": {"seat": 1, "action": "roll", "dice": [2, 5]}}, "not_now")      # no trip waits
    _marker_on_shop(table)
    me = table.view("seat-1")["me"]
    assert me["can"] == ["roll"] and me["roll"] == {"faces": 6}
    assert table.view("table")["prompt"] == "Round 1 of 6: Ann goes shopping: roll the two dice and tap the roll on your phone."
    assert table.view("table")["put_back"] == [] and player(table, 1)["actions_left"] == 4
    refused(table, {"seat": {"seat": 2, "action": "roll", "dice": [2, 5]}}, "not_your_turn")
    for bad in ([0, 5], [2, 7], [2], [2.5, 5]):
        refused(table, {"seat": {"seat": 1, "action": "roll", "dice": bad}}, "bad_argument")
    seat(table, 1, "roll", dice=[5, 2])
    guided = new_table(["Ann", "Ben"], dice="physical")
    pick_assistants(guided)
    refused(guided, {"seat": {"seat": 1, "action": "roll", "dice": [2, 5]}}, "option_off")   # guided: with the shop
    assert table.view("table")["dice"] == [2, 5]
    assert "Ann goes shopping: dice entered on the phone, 2 and 5." in table.state["log"]
    assert player(table, 1)["actions_left"] == 4          # nothing bought yet: not taken as a trip buying nothing
    _buy(table, {"action": "shop", "dice": [2, 5], "items": [{"space": "2.1"}, {"space": "2.2"}, {"space": "1.1"}]})
    assert player(table, 1)["actions_left"] == 3 and {"2.1", "2.2", "1.1"} <= set(table.state["covered"])
    assert any("($5 of $6)" in line for line in table.state["log"]) and table.state["dice"] == [2, 5]
    assert table.state["turn"] == 2 and table.view("table")["put_back"] == []


def test_the_table_rolls_when_the_marker_lands_on_the_shopping_space():
    """rulebook Grocery Shopping (dice: digital): the table rolls for the shopper as soon as the camera sees
    her marker on the shopping space, the TV shows the roll and the prices under it, and the purchase is
    checked against that roll; the dice lying on the tracks and a roll typed on the phone are not used."""
    table = _table(dice="digital")
    table.state["covered"] = {}
    _first_look(table, 1)
    _marker_on_shop(table)
    roll = table.view("table")["dice"]
    assert roll and any("Ann goes shopping: dice rolled by the table" in line for line in table.state["log"])
    assert table.view("seat-1")["me"]["can"] != ["roll"] and player(table, 1)["actions_left"] == 4
    refused(table, {"seat": {"seat": 1, "action": "roll", "dice": [6, 6]}}, "option_off")
    on_sale = f"{roll[0]}.{roll[0]}"
    assert next(s["price"] for s in table.view("table")["shopping"] if s["space"] == on_sale) == 1
    _buy(table, {"action": "shop", "dice": roll, "items": [{"space": on_sale}]})
    assert on_sale in table.state["covered"] and any("($1 of $6)" in line for line in table.state["log"])
    assert table.state["dice"] == roll and player(table, 1)["actions_left"] == 3


def test_an_assistant_re_rolls_a_die_of_the_tables_roll_and_the_purchase_is_priced_by_the_new_roll():
    """Sample Personal Shopper, option 2 (during a shopping trip): re-roll one die; rulebook Grocery Shopping
    prices the list by the dice.  With dice: digital, before the table has rolled for this trip there is
    nothing to re-roll (refused, nothing changed); after it, the table re-rolls the chosen die and the
    purchase seen on the boards is priced by the new roll."""
    table = new_table(["Ann", "Ben"], seed=4, mode="physical", dice="digital")
    while table.state["phase"] == "assistants":
        n = table.state["assistant_queue"][0]
        pick = "personal-shopper" if n == 1 else next(a for a in table.state["assistants_free"] if a != "personal-shopper")
        seat(table, n, "assistant", card=pick)
    table.state["covered"] = {}
    _first_look(table, 1)
    reroll = {"seat": {"seat": 1, "action": "use_ability", "assistant": "personal-shopper", "option": 2, "die": 1}}
    refused(table, reroll, "not_now")
    _marker_on_shop(table)
    rolled = table.view("table")["dice"]
    ok(table, reroll)
    dice = table.state["dice"]
    space = next(s for s in sorted(table.state["shopping"]) if dice[0] in (int(s[0]), int(s[2]))
                 and not set(rolled) & {int(s[0]), int(s[2])})
    _buy(table, {"action": "shop", "dice": dice, "items": [{"space": space}]})
    assert dice[0] != rolled[0] and space in table.state["covered"] and table.state["log"][-2].endswith("($1 of $6).")


def test_the_camera_is_the_dice_default_where_it_feeds_the_table():
    """The dice come from one place: with a camera feeding the table it reads them (dice: camera), whichever
    mode the host picks; without one the table rolls (dice: digital); the host may choose either."""
    assert new_table(["Ann", "Ben"], mode="physical").state["options"]["dice"] == "camera"
    assert new_table(["Ann", "Ben"]).state["options"]["dice"] == "digital"
    assert new_table(["Ann", "Ben"], mode="physical", dice="physical").state["options"]["dice"] == "physical"


# ----------------------------------------------------------------------------- a card tapped again
def _held(table, kind, card, tokens):
    p = player(table, 1)
    p[kind], p["recipe_tokens" if kind == "recipes" else "activity_tokens"] = [card], {card: tokens}


def _on_card(table, space, moved, prefix):
    """Ann's marker on her own ``space`` and the ``moved`` slots' food now on her cards (``prefix``
    ``onrecipe`` or ``onactivity``), as the camera sees the board."""
    diet = implied(table.state, "diet-1")
    lying = sorted([t for s, t in diet.items() if s.startswith(prefix + ".")] + [diet.pop(s) for s in moved])
    diet = {s: t for s, t in diet.items() if not s.startswith(prefix + ".") and s != "markers.4"}
    return {**diet, f"action.{space}.1": "marker", **{f"{prefix}.{n}": t for n, t in enumerate(lying, 1)}}


def test_a_recipe_tapped_again_with_its_food_on_it_completes_and_the_camera_sees_the_food_moved():
    """rulebook Recipes & Cook: a recipe whose spaces are all filled is complete; it scores its VP and its
    food goes to the body.  Ann lays her dairy on Sample Toast (grain already on it): the table waits, listing
    nothing; her second tap completes it once (2 VP), the TV lists the food to move to her body until the
    camera sees it there, and that reading applies nothing again."""
    table = _table(draws="physical")
    _held(table, "recipes", "r01", ["grain", None])                  # Sample Toast: grain + dairy
    player(table, 1)["kitchen"][1] = ["dairy"]
    _first_look(table, 1)
    _read(table, "diet-1", _on_card(table, "cook", ["kitchen.2.1"], "onrecipe"))
    assert player(table, 1)["actions_left"] == 4 and table.view("table")["put_back"] == []
    assert "Sample Toast is full: tap it again to complete it, or move its food to the body" in table.state["log"][-1]
    _tap(table, "recipes/r01", reader="seat-1")
    assert player(table, 1)["recipes_done"] == ["r01"] and table.state["players"][0]["score"] == 2
    assert table.state["turn"] == 2
    to_move = table.view("table")["to_confirm"]
    assert to_move["words"] == "move the food of Sample Toast to the body" and to_move["seat"] == 1
    assert {d["slot"] for d in to_move["lines"]} >= {"body.grain.1", "body.dairy.1", "onrecipe"}
    ann = copy.deepcopy(player(table, 1))
    _read(table, "diet-1", implied(table.state, "diet-1"))             # the food now in her body
    assert table.view("table")["to_confirm"] is None and table.view("table")["put_back"] == []
    assert player(table, 1) == ann and table.state["players"][0]["score"] == 2 and table.state["turn"] == 2


def test_food_that_fills_one_recipe_or_half_fills_another_is_asked_and_the_tap_answers():
    """rulebook Recipes & Cook: each token goes onto one recipe.  Ann's dairy, laid on a card, would complete
    Sample Toast or start Sample Omelette; the camera cannot tell which card it lies on, so her phone asks,
    the completing answer among them; tapping Sample Toast again answers it: complete, 2 VP."""
    table = _table(draws="physical")
    p = player(table, 1)
    p["recipes"], p["recipe_tokens"] = ["r01", "r04"], {"r01": ["grain", None], "r04": [None, None, None]}
    p["kitchen"][1] = ["dairy"]
    _first_look(table, 1)
    _read(table, "diet-1", _on_card(table, "cook", ["kitchen.2.1"], "onrecipe"))
    assert table.view("seat-1")["me"]["answer"]["options"] == [
        "Cook: Dairy on Sample Omelette", "Cook: Dairy on Sample Toast, completing it"]
    _tap(table, "recipes/r01", reader="seat-1")
    assert player(table, 1)["recipes_done"] == ["r01"] and player(table, 1)["recipe_tokens"] == {"r04": [None, None, None]}
    assert table.state["players"][0]["score"] == 2 and table.state["question"] is None and table.state["turn"] == 2


def test_a_full_recipe_nobody_taps_completes_when_its_food_reaches_the_body():
    """rulebook Recipes & Cook, completion from the tokens alone (no tap, no phone): Ann leaves Sample Toast
    full and untapped, then moves its food to her body; the cook that completes it is applied from that."""
    table = _table(draws="physical")
    _held(table, "recipes", "r01", ["grain", None])
    player(table, 1)["kitchen"][1] = ["dairy"]
    _first_look(table, 1)
    _read(table, "diet-1", _on_card(table, "cook", ["kitchen.2.1"], "onrecipe"))
    _read(table, "diet-1", _boards_after(table, 1, {"action": "cook", "place": [{"recipe": "r01", "food": "dairy"}]})["diet-1"])
    assert player(table, 1)["recipes_done"] == ["r01"] and table.state["players"][0]["score"] == 2
    assert table.state.get("to_confirm") is None and table.view("table")["put_back"] == []


def test_a_card_tapped_again_with_nothing_new_on_it_goes_back_or_waits():
    """A recipe drawn this turn and tapped again with no food laid on any card goes back to the deck (the
    rulebook's Recipes & Cook takes cards face up; a card not taken is not the player's); a card held from
    an earlier action, tapped with nothing new on it, is refused with what to do."""
    table = _table(draws="physical")
    _held(table, "recipes", "r01", ["grain", None])
    _first_look(table, 1)
    _tap(table, "recipes/r02", reader="seat-1")
    assert table.state["drawn"]["recipes"] == ["r02"]
    _tap(table, "recipes/r02", reader="seat-1")
    assert table.state["drawn"]["recipes"] == [] and "puts" in table.state["log"][-1]
    error = refused(table, {"tap": {"reader": "seat-1", "card": "food-for-thought/recipes/r01"}}, "waiting")
    assert "then tap it again" in error.message


def test_an_activity_tapped_again_with_its_food_on_it_completes_and_its_tokens_go_to_the_supply():
    """rulebook Activities & Work Out: an activity whose spaces are all filled is complete; it scores and its
    tokens go back to the supply.  Ann moves her grain onto Sample Cycling (veg already on it) and taps it:
    2 VP; the TV lists the tokens on the card until the camera sees them gone."""
    table = _table(draws="physical")
    _held(table, "activities", "a09", [None, ["veg"]])               # Sample Cycling: grain + fruit|veg
    player(table, 1)["body"]["grain"] = ["grain"]
    _first_look(table, 1)
    _read(table, "diet-1", _on_card(table, "workout", ["body.grain.1"], "onactivity"))
    assert player(table, 1)["actions_left"] == 4 and table.view("table")["put_back"] == []
    _tap(table, "activities/a09", reader="seat-1")
    assert player(table, 1)["activities_done"] == ["a09"] and table.state["players"][0]["score"] == 2
    assert {d["slot"] for d in table.view("table")["to_confirm"]["lines"]} == {"onactivity"}
    _read(table, "diet-1", implied(table.state, "diet-1"))
    assert table.view("table")["to_confirm"] is None and table.state["players"][0]["score"] == 2


# ----------------------------------------------------------------------------- one move over two boards
def _trip_into_freezer_and_special_order(table):
    """Ann's trip (dice: physical): a meat on sale ($1) straight into her freezer and a grain by special order
    ($5, every grain space out of stock) into her kitchen; her marker already seen on the shopping space and
    her roll tapped.  The boards as the camera then sees them."""
    grain = [s for s, f in table.state["shopping"].items() if f == "grain"]
    table.state["covered"] = dict.fromkeys(grain, "out_of_stock")
    meat = next(s for s, f in sorted(table.state["shopping"].items()) if f == "meat")
    _first_look(table, 1)
    _marker_on_shop(table)
    roll = sorted([int(meat[0]), int(meat[2])])
    seat(table, 1, "roll", dice=roll)
    body = {"action": "shop", "dice": roll, "items": [{"space": meat}, {"special": "grain"}], "freeze": ["meat"]}
    return _boards_after(table, 1, body), meat


def test_a_trip_whose_freezer_board_is_read_before_its_kitchen_is_one_purchase():
    """rulebook Grocery Shopping: one trip buys up to the dice's $6, on sale $1, and a food gone from the list
    by special order for $5, with no shopping token; Freezer module: meat may go straight into the freezer.
    The freezer is a physical board of its own, read on its own: the camera shows the meat in the freezer
    before the grain in the kitchen, and the table takes the $1 meat purchase as the trip.  When the kitchen
    is read, the same trip is worked out again from before it: one $6 purchase, recorded exactly as when the
    kitchen is read first, nothing bought twice and the next player's turn as it was (this stalled the
    4-player camera bench); the TV announces the roll once."""
    whole = _table(dice="physical", freezer=True)
    boards, meat = _trip_into_freezer_and_special_order(whole)
    _read_in(whole, boards, ["shop", "diet-1"])
    assert player(whole, 1)["freezer"] == ["meat"] and "grain" in sum(player(whole, 1)["kitchen"], [])

    table = _table(dice="physical", freezer=True)
    boards, meat = _trip_into_freezer_and_special_order(table)
    _read(table, "shop", boards["shop"])
    freezer = {s: t for s, t in boards["diet-1"].items() if s.startswith(("freezer.", "thaw."))}
    ok(table, {"board": {"board": "diet-1", "slots": freezer}})          # the freezer board's own commit
    assert player(table, 1)["freezer"] == ["meat"] and table.state["turn"] == 2
    assert "grain" not in sum(player(table, 1)["kitchen"], []) and player(table, 1)["actions_left"] == 3
    _read(table, "diet-1", boards["diet-1"])
    assert table.view("table")["put_back"] == [] and table.state["turn"] == 2
    assert player(table, 1)["actions_left"] == 3 and sum(player(table, 1)["kitchen"], []) == ["grain"]
    assert meat in table.state["covered"] and any("($6 of $6)" in line for line in table.state["log"][-3:])
    assert _record(table) == _record(whole)
    assert sum("Ann goes shopping: dice" in line for line in table.state["log"]) == 1      # the roll's own line


def test_a_token_seen_after_the_next_player_acted_is_not_added_to_the_earlier_trip():
    """The same trip, its freezer read first; before the camera sees the grain in Ann's kitchen, Ben takes his
    action (a pass, his marker on Recipes & Cook): Ann's trip stands as applied ($1), and the grain stays a
    difference between her board and the record (rulebook: an action is taken in its own turn), never bought
    after the fact."""
    table = _table(dice="physical", freezer=True)
    boards, _meat = _trip_into_freezer_and_special_order(table)
    _read(table, "shop", boards["shop"])
    ok(table, {"board": {"board": "diet-1", "slots": {s: t for s, t in boards["diet-1"].items()
                                                      if s.startswith(("freezer.", "thaw."))}}})
    _first_look(table, 2)
    _read_in(table, _boards_after(table, 2, {"action": "pass", "space": "cook"}), ["diet-2"])
    assert table.state["turn"] == 1 and player(table, 2)["actions_left"] == 0
    _read(table, "diet-1", boards["diet-1"])
    assert sum(player(table, 1)["kitchen"], []) == [] and any("($1 of $6)" in line for line in table.state["log"])
    assert not any("($6 of $6)" in line for line in table.state["log"])
    assert [d["seen"] for d in disagreements(table.state, "diet-1") if d["slot"].startswith("kitchen.")] == [["grain"]]


def test_a_cook_read_one_token_at_a_time_is_one_cook():
    """rulebook Recipes & Cook: one action moves up to 3 kitchen tokens onto incomplete recipes.  Ann moves
    the veg onto Sample Salad (veg, fruit, fats), the camera reads her board still, and the table applies a
    cook of the veg; she then moves the fruit too: read before anything else happens, it is the same cook
    with both tokens (her actions left drop once), recorded as when both are read at once."""
    def start():
        table = _table()
        p = player(table, 1)
        p["recipes"], p["recipe_tokens"] = ["r02"], {"r02": [None, None, None]}
        p["kitchen"][0], p["kitchen"][1] = ["veg"], ["fruit"]
        _first_look(table, 1)
        return table

    both = {"action": "cook", "place": [{"recipe": "r02", "food": "veg", "column": 1},
                                        {"recipe": "r02", "food": "fruit", "column": 2}]}
    whole = start()
    done = _boards_after(whole, 1, both)["diet-1"]
    _read(whole, "diet-1", done)
    table = start()
    _read(table, "diet-1", _boards_after(table, 1, {"action": "cook", "place": both["place"][:1]})["diet-1"])
    assert player(table, 1)["recipe_tokens"]["r02"].count(None) == 2 and player(table, 1)["actions_left"] == 3
    _read(table, "diet-1", done)
    assert player(table, 1)["recipe_tokens"]["r02"].count(None) == 1 and player(table, 1)["actions_left"] == 3
    assert table.view("table")["put_back"] == [] and table.state["turn"] == 2
    assert _record(table) == _record(whole)


def test_an_empty_cook_read_before_its_token_moved_becomes_that_cook():
    """rulebook Recipes & Cook (one action, up to 3 kitchen tokens onto recipes) and Place and Pass (the last
    marker has nothing to set aside): Ann's last marker goes on Recipes & Cook and the camera reads her board
    before she moves the veg onto Sample Salad, so the table takes an empty cook; the veg seen on the card
    next, before anything else happens, is that cook's, recorded as when read at once."""
    def start():
        table = _table()
        p = player(table, 1)
        p["actions_left"], p["recipes"], p["recipe_tokens"] = 1, ["r02"], {"r02": [None, None, None]}
        p["kitchen"][0] = ["veg"]
        _first_look(table, 1)
        return table

    cook = {"action": "cook", "place": [{"recipe": "r02", "food": "veg", "column": 1}]}
    whole = start()
    done = _boards_after(whole, 1, cook)["diet-1"]
    _read(whole, "diet-1", done)
    table = start()
    _read(table, "diet-1", _boards_after(table, 1, {"action": "cook"})["diet-1"])
    assert player(table, 1)["actions_left"] == 0 and player(table, 1)["recipe_tokens"]["r02"] == [None] * 3
    _read(table, "diet-1", done)
    assert player(table, 1)["recipe_tokens"]["r02"].count("veg") == 1 and player(table, 1)["kitchen"][0] == []
    assert table.view("table")["put_back"] == [] and _record(table) == _record(whole)
