"""Physical-first: the abilities whose effect no camera sees, worked out from the table (issue 15).

An extra action (sample r05) and using an occupied action space (sample f02, Restaurateur option 1)
change nothing on the boards by themselves; what the camera sees is the move they allow: a further
marker beside the player's row of four (rulebook: each player has 5 action markers, one on the score
track, four by the diet board) or a marker on a taken space.  The table then uses the ability by
itself, with no phone input, and asks one tap when two of the player's cards would allow it.
"""
from __future__ import annotations

import copy

from server.games.food_for_thought import abilities, actions, cleanup, inference
from server.games.food_for_thought.boards import implied
from server.journal import Journal
from server.table import Table
from tests.support.food_for_thought import finish_actions, host, new_table, ok, pick_assistants, player, seat
from tests.test_food_for_thought_abilities import (assert_replays_exactly, body, camera_reads, complete, game, stock,
                                                   turn_to, use)
from tests.test_food_for_thought_ability_timing import owner_cards  # noqa: F401 (a fixture)


def _boards(state) -> list[str]:
    """Every board the camera reads: each player's diet board, the shopping list and the main board."""
    return [f"diet-{s}" for s in state["seats"]] + ["shop", "main"]


def _all_read(table) -> None:
    """The camera reads every board as the record has it (the table is as the players left it)."""
    camera_reads(table, {b: implied(table.state, b) for b in _boards(table.state)})


def _done_by_hand(table, n: int, action: dict, use: dict | None = None, further: bool = False) -> dict:
    """The boards after seat ``n`` uses ability ``use`` (if any) and does ``action`` with the tokens
    (``further``: with a further marker, the row of unused markers left as it lies)."""
    trial = copy.deepcopy(table.state)
    if use:
        actions.use_ability(trial, n, {"action": "use_ability", **use})
    inference.play(trial, n, {**action, "further": True} if further else action)
    return {b: implied(trial, b) for b in _boards(trial)}


def test_a_further_marker_is_the_extra_action_of_the_card_that_grants_it():
    """Sample r05 (during your turn, once: an extra action this round).  Ann eats a Water from her
    kitchen and puts a further marker on her Snack space, her row of unused markers untouched: the table
    uses r05 by itself (the card flips) and takes the snack as that extra action, with no phone input;
    her row then still holds every marker of the round's normal actions."""
    table = game(["Ann"], "r05", mode="physical")
    complete(table, 1, "r05")
    stock(table, 1, ["water"])
    _all_read(table)
    left, row = player(table, 1)["actions_left"], abilities.row_markers(player(table, 1))
    water = body(table, 1).count("water")
    boards = _done_by_hand(table, 1, {"action": "snack", "food": "water"}, use={"recipe": "r05"}, further=True)
    assert sum(1 for s, t in boards["diet-1"].items() if s.startswith("markers.") and t) == row   # row untouched
    camera_reads(table, boards)
    assert table.state["question"] is None and table.view("table")["put_back"] == []
    assert "r05" in player(table, 1)["abilities_used"] and player(table, 1)["snacks"] == 1
    assert body(table, 1).count("water") == water + 1
    assert player(table, 1)["actions_left"] == left and abilities.row_markers(player(table, 1)) == row
    assert any("uses Sample Fish Bowl" in line for line in table.state["log"])


def test_without_an_extra_action_a_further_marker_is_not_an_action():
    """Rulebook: four actions a round.  With no extra-action ability, a marker put on the Snack space
    while the row of unused markers is untouched is no action: nothing is applied.  Taken from the row
    instead, the same snack is."""
    table = new_table(["Ann"], mode="physical")
    pick_assistants(table)
    stock(table, 1, ["water"])
    _all_read(table)
    trial = copy.deepcopy(table.state)
    inference.play(trial, 1, {"action": "snack", "food": "water"})
    from_row = implied(trial, "diet-1")
    camera_reads(table, {"diet-1": {**from_row, **{f"markers.{n}": "marker" for n in range(1, 5)}}})
    assert player(table, 1)["snacks"] == 0 and player(table, 1)["actions_left"] == 4
    camera_reads(table, {"diet-1": from_row})
    assert player(table, 1)["snacks"] == 1 and player(table, 1)["actions_left"] == 3


def _occupied_game(restaurateur: bool, f02: bool, space: str = "buffet"):
    """A 2-player physical-first game (Freezer module) where Ann may hold sample f02 (use an occupied
    space, completed with real cooks) and the Restaurateur (option 1: the same), and Ben has taken the
    one Chinese Buffet space (or Pizza To Go)."""
    for s in range(1, 300):
        table = new_table(["Ann", "Ben"], seed=s, mode="physical", freezer=True)
        if f02 and "f02" not in actions.visible_recipes(table.state):
            continue
        while table.state["phase"] == "assistants":
            n = table.state["assistant_queue"][0]
            free = table.state["assistants_free"]
            pick = "restaurateur" if n == 1 and restaurateur else next(a for a in free if a != "restaurateur")
            seat(table, n, "assistant", card=pick)
        if f02:
            complete(table, 1, "f02")
        turn_to(table, 2)
        seat(table, 2, space, **({"row": 1} if space == "buffet" else {}))
        turn_to(table, 1)
        if table.state["buffet"][1]:
            return table
    raise AssertionError("no seed deals it")


def test_a_marker_on_an_occupied_space_uses_the_card_that_allows_it():
    """Rulebook Chinese Buffet: with 2 players one space, and Ben's marker is on it.  Ann holds sample
    f02 (use an occupied space): she puts her marker beside Ben's and eats buffet row 2; the table uses
    f02 by itself and takes the meal, with no phone input."""
    table = _occupied_game(restaurateur=False, f02=True)
    _all_read(table)
    row = list(table.state["buffet"][1])
    camera_reads(table, _done_by_hand(table, 1, {"action": "buffet", "row": 2}, use={"recipe": "f02"}))
    assert table.state["question"] is None and table.view("table")["put_back"] == []
    assert "f02" in player(table, 1)["abilities_used"] and table.state["spaces"]["buffet"] == [2, 1]
    assert table.state["buffet"][1] == [] and all(f in body(table, 1) for f in row)


def test_a_marker_beside_the_pizza_to_go_diner_uses_the_card_that_allows_it():
    """Rulebook Pizza To Go: one diner a round, who may move that marker on at the round's end.  Ben
    dined there; Ann, holding sample f02, puts her marker beside his: the table uses f02 by itself and
    takes her meal (what is left on the brochure: nothing); Ben keeps the space and its extra action."""
    table = _occupied_game(restaurateur=False, f02=True, space="pizza")
    _all_read(table)
    left = player(table, 1)["actions_left"]
    camera_reads(table, _done_by_hand(table, 1, {"action": "pizza"}, use={"recipe": "f02"}))
    assert table.state["question"] is None and table.view("table")["put_back"] == []
    assert "f02" in player(table, 1)["abilities_used"] and player(table, 1)["actions_left"] == left - 1
    assert table.state["spaces"]["pizza"] == 2 and table.state["spaces"]["pizza_beside"] == [1]
    assert player(table, 2)["pizza"] and not player(table, 1)["pizza"]


def test_two_cards_that_allow_an_occupied_space_are_one_question():
    """Ann holds both f02 and the Restaurateur (option 1): either allows her marker on Ben's buffet
    space, so her phone asks which card she used (one tap), and only that one is spent."""
    table = _occupied_game(restaurateur=True, f02=True)
    _all_read(table)
    camera_reads(table, _done_by_hand(table, 1, {"action": "buffet", "row": 2}, use={"recipe": "f02"}))
    question = table.view("seat-1")["me"]
    assert question["can"] == ["answer"]
    assert question["answer"]["options"] == ["Chinese Buffet, row 2 (using Sample Freezer Chili)",
                                             "Chinese Buffet, row 2 (using Restaurateur, option 1)"]
    seat(table, 1, "answer", choice=2)
    assert "f02" not in player(table, 1)["abilities_used"] and table.state["spaces"]["buffet"] == [2, 1]


def test_a_marker_on_an_occupied_space_without_a_card_is_listed_to_put_back():
    """Without a card that allows it, Ann's marker beside Ben's on the buffet is no legal move: nothing
    is applied and the TV lists the buffet space's markers (and her board) to put back."""
    table = _occupied_game(restaurateur=False, f02=False)
    _all_read(table)
    trial = copy.deepcopy(table.state)
    abilities.allow_once(trial, 1, "occupied_space")          # the boards as the move would leave them
    inference.play(trial, 1, {"action": "buffet", "row": 2})
    camera_reads(table, {b: implied(trial, b) for b in ("diet-1", "main")})
    put_back = table.view("table")["put_back"]
    assert {"board": "main", "slot": "action.buffet", "recorded": ["marker2"],
            "seen": ["marker1", "marker2"]} in put_back
    assert table.state["spaces"]["buffet"] == [2] and table.state["buffet"][1] and table.state["turn"] == 1


def test_a_skipped_kitchen_move_is_the_tidy_table_the_camera_waits_for():
    """Rulebook clean-up step 1: every kitchen token moves one space right, the last column to the trash.
    Sample r09 (during your turn: your kitchen does not move this round): at the round's end the table
    expects Ann's kitchen as it lies and Ben's moved; once the camera sees both boards so, the next round
    starts with no input, Ann's Meat still in its column."""
    table = game(["Ann", "Ben"], "r09", mode="physical")
    complete(table, 1, "r09")
    stock(table, 1, ["meat"])
    stock(table, 2, ["meat"])
    turn_to(table, 1)
    use(table, 1, recipe="r09")
    seat(table, 1, "cook")
    kitchens = {n: copy.deepcopy(player(table, n)["kitchen"]) for n in (1, 2)}
    finish_actions(table)
    assert table.state["phase"] == "round_end"
    tidy = cleanup._tidy_boards(table.state)
    camera_reads(table, {"diet-1": tidy["diet-1"]})
    assert table.state["phase"] == "round_end"                   # Ben's board not seen tidy yet
    camera_reads(table, {"diet-2": tidy["diet-2"]})
    assert table.state["round"] == 2 and table.state["phase"] == "assistants"
    assert player(table, 1)["kitchen"] == kitchens[1] and player(table, 2)["kitchen"] == [[]] + kitchens[2][:-1]


def test_a_four_player_physical_first_game_with_an_ability_used_by_the_table_replays_exactly(tmp_path):
    """Issue 15, done when: a game with abilities in play replays exactly, here a 4-player physical-first
    one where the table used sample f02 by itself from camera readings (Ann's marker beside Ben's and
    Cat's on the Chinese Buffet, rulebook: 2 buffet spaces with 3-4 players): a restart refolds the journal,
    readings included, to the same state and views."""
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    for s in range(1, 300):
        ok(table, {"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben", "Cat", "Dan"], "seed": s,
                                "options": {"data": "sample", "freezer": True, "mode": "physical"}}})
        if "f02" in actions.visible_recipes(table.state) and all(table.state["buffet"]):
            break
    pick_assistants(table)
    complete(table, 1, "f02")
    turn_to(table, 2)
    seat(table, 2, "buffet", row=1)
    turn_to(table, 3)
    seat(table, 3, "pass", space="buffet")                  # Cat's marker on the second space
    turn_to(table, 1)
    _all_read(table)
    camera_reads(table, _done_by_hand(table, 1, {"action": "buffet", "row": 2}, use={"recipe": "f02"}))
    assert "f02" in player(table, 1)["abilities_used"] and table.state["spaces"]["buffet"] == [2, 3, 1]
    assert_replays_exactly(table, path)


def test_the_host_accepts_a_further_marker_as_the_extra_action():
    """Sample r05 used on the phone (an extra action).  Ann puts a further marker on her Snack space but
    eats two kitchen tokens (rulebook: a snack is one token): listed to put back; the group insists and
    the host accepts the camera's view: that is her extra action, her row of unused markers stays the
    record's, and nothing is left to put back."""
    table = game(["Ann"], "r05", mode="physical")
    complete(table, 1, "r05")
    stock(table, 1, ["water", "grain"])
    turn_to(table, 1)
    use(table, 1, recipe="r05")
    _all_read(table)
    row, left = abilities.row_markers(player(table, 1)), player(table, 1)["actions_left"]
    boards = _done_by_hand(table, 1, {"action": "snack", "food": "water"}, further=True)
    moved = dict(boards["diet-1"])                              # the Grain eaten too
    moved.pop(next(s for s, t in moved.items() if s.startswith("kitchen.") and t == "grain"))
    group = next(g for g in player(table, 1)["groups"] if "grain" in g["foods"])["id"]
    moved[f"body.{group}.{sum(1 for s in moved if s.startswith(f'body.{group}.')) + 1}"] = "grain"
    camera_reads(table, {"diet-1": moved})
    assert table.view("table")["put_back"] and player(table, 1)["snacks"] == 0
    host(table, "accept_board", board="diet-1")
    p = player(table, 1)
    assert p["actions_left"] == left - 1 and p["extra_actions"] == 0 and abilities.row_markers(p) == row
    assert table.view("table")["put_back"] == [] and table.view("table")["disagreements"] == {}


def test_two_cards_that_grant_the_extra_action_are_one_question(owner_cards):
    """Ann holds sample r05 and a TEST-ONLY card that also grants an extra action: her further marker
    on the Snack space could be either card's, so her phone asks which (one tap), and only that card
    flips."""
    table = game(["Ann"], "r05", also=lambda s: "t-extra" in actions.visible_recipes(s), mode="physical",
                 data="owner")
    complete(table, 1, "r05")
    complete(table, 1, "t-extra")
    stock(table, 1, ["water"])
    turn_to(table, 1)
    _all_read(table)
    camera_reads(table, _done_by_hand(table, 1, {"action": "snack", "food": "water"}, use={"recipe": "r05"},
                                      further=True))
    question = table.view("seat-1")["me"]
    assert question["can"] == ["answer"] and question["answer"]["options"] == [
        "Snack: Water (using Sample Fish Bowl), an extra action", "Snack: Water (using Test Second Wind), an extra action"]
    seat(table, 1, "answer", choice=2)
    assert "t-extra" in player(table, 1)["abilities_used"] and "r05" not in player(table, 1)["abilities_used"]
    assert player(table, 1)["snacks"] == 1 and table.view("table")["put_back"] == []
