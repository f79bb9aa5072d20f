"""Whole games of Food for Thought from replay scripts (tests/scripts/food-for-thought-*.jsonl),
ending with the receipts worked out by hand.

All use the SAMPLE data.  Sample Standard Diet board, VP by number of tokens (zero value first):
  fats [3, 2, -1, -3] / -2     dairy [1, 3, 5, 2, -2] / -2     water [1, 2, 4, 6, 6, 3] / -4
  grain [1, 3, 5, 4, 0, -3] / -3   protein (meat, poultry, seafood) [2, 4, 5, 1, -3] / -3
  nuts [2, 5, 1, -2] / -3      alcohol [1, -2, -5] / +2        produce (fruit, veg) [1, 2, 4, 6, 7, 3] / -4
  The empty board scores -2 -2 -4 -3 -3 -3 +2 -4 = -19.
Sample Cleanse (solo) board: water [2, 4, 6, 8, 10, 12] / -6; every other group -1, -2, -3, ... / 0.
Allergy tiles replace a group: Dairy Sensitivity [1, 3, 5, 2, -2] / -2 (takes nuts, water),
  Gluten Free [1, 3, 5, 4, 0, -3] / -3 (fruit, veg), Nut Allergy [2, 5, 1, -2] / -3 (seafood, fruit),
  Seafood Allergy [2, 4, 5, 1, -3] / -3 (meat, poultry).
Kitchen: water, grain, nuts, alcohol, fats enter column 1; dairy, fruit, veg column 2; meat, poultry,
seafood column 3; four columns, so a token left in column 3 is trashed two clean-ups later.
"""
import json
import subprocess
import sys

import pytest

from tests.support.food_for_thought import SCRIPTS, replay
from tests.support.scripts import script_inputs


def _sections(receipt):
    out = {}
    for line in receipt["lines"]:
        out[line["section"]] = out.get(line["section"], 0) + line["vp"]
    return out


def _check(table, expected, winners):
    state = table.state
    assert state["over"] and state["round"] == 6
    got = {r["name"]: (_sections(r), r["total"]) for r in state["receipts"]}
    assert got == expected
    assert {p["name"]: p["score"] for p in state["players"]} == {n: t for n, (_s, t) in expected.items()}
    assert state["winners"] == winners
    assert [r["total"] for r in table.view("table")["receipts"]] == [expected[p["name"]][1] for p in state["players"]]


def test_two_players_no_modules():
    """Ann: Sushi +4 and Omelette +3 in play; body one token in fats 3, dairy 1, water 1, grain 1,
    protein 2, nuts 2, produce 1, empty alcohol +2 = 13; total 20.
    Ben: Rowing +3 (water + two meat on the double wild); body fats 1 token 3, dairy 1, produce 2
    tokens 2, empty water -4, grain -3, nuts -3, alcohol +2; protein held meat, seafood, meat, seafood
    and the two meats went to Rowing: the rulebook never slides tokens left, so the seafood stay on
    spaces 2 and 4 and the group scores space 4: 1; body -1; the two market dairy in his kitchen spoil
    (column 2 -> 3 -> 4 -> trash after round 3): -4; total -2."""
    table = replay("food-for-thought-2p-basic.jsonl")
    _check(table, {
        "Ann": ({"recipes": 7, "body": 13}, 20),
        "Ben": ({"activities": 3, "body": -1, "trash": -4}, -2),
    }, ["Ann"])


def test_two_players_all_modules():
    """Ann (Nut Allergy tile): Fish Pie +5 (seafood frozen, thawed, cooked), Soup +3; body dairy 1,
    water 2 tokens 2, grain 1, tile 1 seafood 2, produce 1, empty fats -2, protein -3, alcohol +2 = 4;
    goal "most water" (Ann 2, Ben 0 in the water group) first place +6; total 18.
    Ben (Dairy Sensitivity): pizza dairy goes to the supply, water to his tile; Tennis +2 with a tile
    token as dairy and fats on the wild; body fats 3, tile 2 tokens 3, grain 1, protein 2 tokens 4,
    empty water -4, nuts -3, alcohol +2, produce -4 = 2; goal "most activity VP" (Ben 2, Ann 0: only
    players with at least one take part) first place +7; total 11."""
    table = replay("food-for-thought-2p-modules.jsonl")
    _check(table, {
        "Ann": ({"recipes": 8, "body": 4, "goals": 6}, 18),
        "Ben": ({"activities": 2, "body": 2, "goals": 7}, 11),
    }, ["Ann"])


def test_four_players_no_modules():
    """Ann: pizza (fats x2 -> 2, alcohol x2 -> -2, poultry 2, veg 1) and a dairy snack 1, empty water
    -4, grain -3, nuts -3 = -6; one market dairy spoils: -2; total -8.
    Ben: buffet row 1 then grain onto Cycling; body nuts 2, protein 2, empty fats -2, dairy -2, water
    -4, grain -3, alcohol +2, produce -4 = -9; Climbing and Cycling incomplete -1 -1; total -11.
    Cat: buffet 3+ row; grain and seafood onto Marathon; body produce 1, the rest empty
    -2 -2 -4 -3 -3 -3 +2 = -14; Marathon incomplete -2; total -16.
    Dan: Roast +6; body fats 3, water 1, protein 2, produce 1, empty dairy -2, grain -3, nuts -3,
    alcohol +2 = 1; seafood and dairy left in his kitchen spoil: -4; total 3."""
    table = replay("food-for-thought-4p-basic.jsonl")
    _check(table, {
        "Ann": ({"body": -6, "trash": -2}, -8),
        "Ben": ({"body": -9, "incomplete": -2}, -11),
        "Cat": ({"body": -14, "incomplete": -2}, -16),
        "Dan": ({"recipes": 6, "body": 1, "trash": -4}, 3),
    }, ["Dan"])


def test_four_players_all_modules():
    """Ann (Seafood Allergy): Climbing +3; body fats 2 tokens 2, tile 1 poultry 2, empty dairy -2,
    water -4, grain -3, nuts -3, alcohol +2, produce -4 = -10; "most activity VP" 1st +7; total 0.
    Ben (Gluten Free): body water 1, tile 1 veg 1, protein 2, empty fats -2, dairy -2, nuts -3,
    alcohol +2, produce -4 = -5; "most water" 1st (only he has any) +6; total 1.
    Cat (Nut Allergy): body fats 3, tile 1 fruit 2, alcohol 1 token 1, empty dairy -2, water -4,
    grain -3, protein -3, produce -4 = -10; total -10.
    Dan (Dairy Sensitivity): Jogging +2; empty board -19; Cycling incomplete -1; a water and a fats
    spoil -4; "most activity VP" 2nd +4; total -18."""
    table = replay("food-for-thought-4p-modules.jsonl")
    _check(table, {
        "Ann": ({"activities": 3, "body": -10, "goals": 7}, 0),
        "Ben": ({"body": -5, "goals": 6}, 1),
        "Cat": ({"body": -10}, -10),
        "Dan": ({"activities": 2, "body": -19, "trash": -4, "incomplete": -1, "goals": 4}, -18),
    }, ["Ben"])


def test_solo_no_modules():
    """Cleanse board.  Stew +4, Smoothie +3, Swimming +3 (water, grain, meat from the body); body dairy
    1 token -1, water 1 token 2, produce 2 tokens -2, the rest empty (0) = -1; total 9: lowest band."""
    table = replay("food-for-thought-1p-basic.jsonl")
    _check(table, {"Sol": ({"recipes": 7, "activities": 3, "body": -1}, 9)}, ["Sol"])
    assert table.view("table")["rating"] == "lowest band: a game to learn from"


def test_solo_with_allergy_and_freezer():
    """Cleanse board with the Dairy Sensitivity tile; Sol puts only nuts on the tile first.
    Freezer Chili +4 (meat frozen and thawed), Lentils +2, Yoga +2; body tile 1 nut 1, water 1 token 2,
    protein 1 token -1, produce 1 token -1 = 1; total 9."""
    table = replay("food-for-thought-1p-modules.jsonl")
    _check(table, {"Sol": ({"recipes": 6, "activities": 2, "body": 1}, 9)}, ["Sol"])


def test_replay_command_plays_a_script():
    out = subprocess.run([sys.executable, "-m", "server.cli", "replay", str(SCRIPTS / "food-for-thought-2p-basic.jsonl"),
                          "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["winners"] == ["Ann"] and [p["score"] for p in view["players"]] == [20, -2]


@pytest.mark.parametrize("name", ["food-for-thought-2p-modules.jsonl", "food-for-thought-4p-basic.jsonl"])
def test_undo_at_every_step_refolds_to_the_same_state(name):
    """The journal is the truth: undoing the last input and applying it again gives the same state."""
    from server.journal import Journal
    from server.table import Table
    lines = script_inputs(name)
    table = Table(Journal(":memory:"))
    for inp in lines[:40]:
        assert table.handle(inp).accepted
        before = json.dumps(table.state, sort_keys=True)
        assert table.handle({"host": {"action": "undo"}}).accepted
        assert table.handle(inp).accepted
        assert json.dumps(table.state, sort_keys=True) == before
