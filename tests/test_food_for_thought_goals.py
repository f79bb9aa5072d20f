"""Food for Thought goal cards: the measure language (counts, sums, distinct values, thresholds)."""
import json

import pytest

from server.games.food_for_thought import data, goals
from server.cli import main as cli_main

CARDS = {
    "recipes": {"r1": {"id": "r1", "vp": 2, "penalty": 1, "end_game_vp": 0, "module": "base", "solo": True},
                "r2": {"id": "r2", "vp": 5, "penalty": 2, "end_game_vp": 3, "module": "potluck", "solo": False}},
    "activities": {"a1": {"id": "a1", "vp": 3, "penalty": 1, "icon": "racquet"},
                   "a2": {"id": "a2", "vp": 3, "penalty": 2, "icon": "water"},
                   "a3": {"id": "a3", "vp": 1, "penalty": 1, "icon": "racquet"}},
}
PLAYER = {"recipes_done": ["r1", "r2"], "activities_done": ["a1", "a2", "a3"],
          "body": {"water": ["water", None, "water"], "grains": ["grain"]},
          "kitchen": [["meat"], [], ["meat", "dairy"]], "trash": ["fruit", "fruit", "veg"]}


def _measure(spec, **goal):
    return goals.measure({"measure": spec, **goal}, PLAYER, CARDS)


def test_rulebook_example_goals_in_the_language():
    """rulebook (Goals Module): most VP from completed activities; most activities worth 3 VP;
    most completed recipes."""
    assert _measure({"of": "activities", "sum": "vp"}) == 7
    assert _measure({"of": "activities", "where": {"vp": 3}}) == 2
    assert _measure({"of": "recipes"}) == 2


def test_counts_sums_distinct_values_and_ranges_over_cards_and_tokens():
    assert _measure({"of": "activities", "distinct": "icon"}) == 2
    assert _measure({"of": "activities", "where": {"icon": "racquet"}}) == 2
    assert _measure({"of": "recipes", "sum": "end_game_vp"}) == 3
    assert _measure({"of": "recipes", "where": {"vp": {"min": 3}}}) == 1
    assert _measure({"of": "recipes", "where": {"module": ["potluck", "freezer"]}}) == 1
    assert _measure({"of": "body"}) == 3                       # an empty space left behind is no token
    assert _measure({"of": "body", "where": {"group": "water"}}) == 2
    assert _measure({"of": "body", "distinct": "group"}) == 2
    assert _measure({"of": "kitchen", "where": {"food": "meat"}}) == 2
    assert _measure({"of": "kitchen", "where": {"column": {"min": 3}}}) == 2
    assert _measure({"of": "trash", "distinct": "food"}) == 2


def test_a_threshold_leaves_a_player_below_it_out():
    """rulebook: a player must have at least one of something to take part; a goal's threshold
    raises that bar: below it the player scores 0 and so takes no part."""
    assert _measure({"of": "activities", "at_least": 3}) == 3
    assert _measure({"of": "activities", "at_least": 4}) == 0


def test_the_former_measure_names_still_mean_what_they_meant():
    assert _measure("activity_vp") == 7
    assert _measure("activities_worth", value=3) == 2
    assert _measure("recipes_completed") == 2
    assert _measure("recipe_vp") == 7
    assert _measure("body_tokens", value="water") == 2


@pytest.mark.parametrize("spec, says", [
    ({"of": "shelves"}, '"of" must be one of recipes, activities, body, kitchen, trash'),
    ({"of": "body", "sum": "vp"}, '"sum" adds up a card field'),
    ({"of": "activities", "where": {"group": "water"}}, "tests 'group', which activities do not have"),
    ({"of": "recipes", "where": {"vp": {"least": 2}}}, 'a range is {"min": n, "max": n}'),
    ({"of": "recipes", "at_least": -1}, '"at_least" must be a whole number'),
    ({"of": "recipes", "count": "vp"}, "unknown key 'count'"),
    ("vibes", "'vibes' is not a measure name"),
])
def test_data_check_refuses_a_bad_measure_and_says_what_to_write(tmp_path, capsys, spec, says):
    own = tmp_path / "own"
    own.mkdir()
    (own / "goals.jsonl").write_text(json.dumps({"id": "g1", "name": "G", "measure": spec,
                                                      "first": 5, "second": 2}) + "\n")
    assert cli_main(["data", "check", str(own)]) == 1
    out = capsys.readouterr().out
    assert f"{own / 'goals.jsonl'} line 1: field 'measure' " in out and says in out
