"""Food for Thought: the end-of-game receipt, line by line, and the TV's receipts."""
from server.games.food_for_thought import rules
from tests.support.food_for_thought import host, new_table, next_round, player


def test_receipt_line_by_line():
    """rulebook end of game: each food group (last token's space, or the zero value), end-game recipe
    VP, activity sets, -2 per trash token, incomplete cards' penalties; plus the VP scored in play.

    Sample Standard Diet board.  Seat 1 ends with:
      Nuts & Seeds 2 tokens: second space = 5 VP (the rulebook's example value); Dairy 3 -> 5;
      Water 4 -> 6; empty: Fats -2, Grain -3, Protein -3, Alcohol +2, Produce -4  => body +6
      completed recipes r01 (2) and r06 (2, end game +2)                          => 4 + 2
      completed activities 2+3+2+2+2+3+2 = 16; icons racquet x2, water-sport x2, team-sport x2,
      running x1: best split {4 icons} 7 + {3 icons} 5 = 12 (the rulebook's example)
      trash 2 tokens: -4; incomplete r03 (-2) and a09 (-1)
      total 6 + 4 + 2 + 16 + 12 - 4 - 2 - 1 = 33
    Seat 2 has nothing: only empty groups, -2 -2 -4 -3 -3 -3 +2 -4 = -19.
    """
    table = new_table(["Ann", "Ben"], diet="standard")
    p = player(table, 1)
    p["body"].update(nuts=["nuts", "nuts"], dairy=["dairy"] * 3, water=["water"] * 4)
    p["recipes_done"] = ["r01", "r06"]
    p["activities_done"] = ["a01", "a03", "a05", "a07", "a02", "a04", "a06"]
    p["trash"] = ["meat", "fruit"]
    p["recipes"], p["recipe_tokens"] = ["r03"], {"r03": [None, None, None]}
    p["activities"], p["activity_tokens"] = ["a09"], {"a09": [None, None]}
    for _ in range(rules.ROUNDS):
        next_round(table)
    r1, r2 = table.state["receipts"]
    by = {(l["section"], l["label"]): l["vp"] for l in r1["lines"]}
    assert by[("body", "Nuts & Seeds: 2 tokens, last on space 2, a +5 VP space")] == 5
    assert by[("body", "Alcohol: empty, zero value")] == 2
    assert by[("body", "Fats & Oils: empty, zero value")] == -2
    assert sum(l["vp"] for l in r1["lines"] if l["section"] == "body") == 6
    assert by[("end_game", "Sample Trail Mix: end game bonus")] == 2
    assert sorted(l["vp"] for l in r1["lines"] if l["section"] == "sets") == [5, 7]
    assert by[("trash", "Trash: 2 tokens x -2")] == -4
    assert by[("incomplete", "Sample Stew (incomplete recipe)")] == -2
    assert by[("incomplete", "Sample Cycling (incomplete activity)")] == -1
    assert sum(l["vp"] for l in r1["lines"] if l["section"] == "activities") == 16
    assert r1["total"] == 33
    assert r2["total"] == -19 and all(l["section"] == "body" for l in r2["lines"])
    assert [p["score"] for p in table.state["players"]] == [33, -19]
    assert table.state["winners"] == ["Ann"]
    tv = table.view("table")
    assert [r["total"] for r in tv["receipts"]] == [33, -19]
    assert tv["over"] and tv["winners"] == ["Ann"]


def test_host_adjustments_show_on_the_receipt():
    table = new_table(["Sol"])
    host(table, "adjust", seat=1, vp=4, reason="Executive Chef option")
    assert table.state["players"][0]["score"] == 4
    for _ in range(rules.ROUNDS):
        next_round(table)
    receipt = table.state["receipts"][0]
    assert {"section": "host", "label": "Host: Executive Chef option", "vp": 4} in receipt["lines"]
    assert table.state["rating"] == rules.solo_rating(receipt["total"])
    assert table.view("table")["rating"] == table.state["rating"]
