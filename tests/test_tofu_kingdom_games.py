"""Whole Tofu Kingdom games from the replay scripts in tests/scripts/, in both reader set-ups.

The expected soybeans were worked out by hand from the round plans in
tests/scripts/make_tofu_kingdom_scripts.py with the rulebook's award table
(heart: Prince, Princess, Chef; crown: Queen, Minister, Guard; mask: Maid, Spy)
and the default winning symbols (Princess heart, Queen crown, the rest mask).
"""
import json

import pytest

from server import cli
from tests.support.scripts import SCRIPTS, script_inputs
from tests.support.tofu_kingdom import accept, table

#: Round by round (Prince; flipped coaster -> symbol -> who scores), 3 players:
#: 1 Ann; Ben's Princess, heart: Ann, Ben.   2 Ben; centre Queen, crown: nobody.
#: 3 Cat; Ann's Queen, crown: Ann.           4 Ann; Cat's Princess, heart: Ann, Cat.
#: 5 Ben; Cat's Maid, mask: Cat.             6 Cat; Ben's Queen, crown: Ben.
#: 7 Ann; Ben's Queen, crown: Ben.           8 Ben; Ann's Princess, heart: Ben, Ann.
#: 9 Cat; centre Queen, crown: nobody.       => Ann 4, Ben 4, Cat 2.
THREE = ({"Ann": 4, "Ben": 4, "Cat": 2}, ["Ann", "Ben"])
#: 5 players, Cat first:
#: 1 Cat; Dan's Princess, heart: Cat, Dan (Chef in the centre).  2 Dan; Ben's Queen, crown: Ben.
#: 3 Eve; Cat's Princess, heart: Eve, Cat, Ben (Chef).           4 Ann; Cat's Guard, mask: Ben (Maid).
#: 5 Ben; centre Princess, heart: Ben, Ann (Chef).               6 Cat; Ann's Queen, crown: Ann, Dan (Guard).
#: 7 Dan; Ben's Princess, heart: Dan, Ben, Ann (Chef).           8 Eve; Dan's Chef, mask: Cat (Maid).
#: 9 Ann; Eve's Guard, mask: Dan (Maid).                         10 Ben; Cat's Princess, heart: Ben, Cat, Eve (Chef).
#: => Ann 3, Ben 6, Cat 4, Dan 4, Eve 2.
FIVE = ({"Ann": 3, "Ben": 6, "Cat": 4, "Dan": 4, "Eve": 2}, ["Ben"])
#: 8 players:
#: 1 Ann; Ben's Princess, heart: Ann, Ben, Fay (Chef).     2 Ben; Eve's Queen, crown: Eve, Gus, Ann.
#: 3 Cat; Hal's Maid, mask: Hal, Eve (Spy).                4 Dan; Hal's Princess, heart: Dan, Hal, Eve (Chef).
#: 5 Eve; Cat's Queen, crown: Cat, Fay (Guard), Hal (Min). 6 Fay; Ann's Chef, mask: Gus (Maid), Cat (Spy).
#: 7 Gus; Fay's Princess, heart: Gus, Fay, Cat (Chef).     8 Hal; Dan's Guard, mask: Cat (Maid), Gus (Spy).
#: => Ann 2, Ben 1, Cat 4, Dan 1, Eve 3, Fay 3, Gus 4, Hal 3.
EIGHT = ({"Ann": 2, "Ben": 1, "Cat": 4, "Dan": 1, "Eve": 3, "Fay": 3, "Gus": 4, "Hal": 3},
         ["Cat", "Gus"])

GAMES = {
    "tofu-kingdom-3p-seats.jsonl": THREE, "tofu-kingdom-3p-table.jsonl": THREE,
    "tofu-kingdom-5p-seats.jsonl": FIVE, "tofu-kingdom-5p-table.jsonl": FIVE,
    "tofu-kingdom-8p-seats.jsonl": EIGHT, "tofu-kingdom-8p-table.jsonl": EIGHT,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_whole_game_ends_with_the_right_soybeans_and_winners(name):
    """rulebook: soybeans are kept from round to round; most soybeans wins, ties share."""
    scores, winners = GAMES[name]
    t = table()
    for inp in script_inputs(name):
        accept(t, inp)
    view = t.view("table")
    assert {p["name"]: p["score"] for p in view["players"]} == scores
    assert view["over"] and view["winners"] == winners
    assert view["phase"] == "over"
    assert len(view["history"]) == view["rounds"]


@pytest.mark.parametrize("count", [3, 5, 8])
def test_both_reader_set_ups_record_the_same_rounds(count):
    """The shared table reader and the per-seat readers are two ways to play the same game."""
    histories = []
    for readers in ("seats", "table"):
        t = table()
        for inp in script_inputs(f"tofu-kingdom-{count}p-{readers}.jsonl"):
            accept(t, inp)
        histories.append([(h["prince"], h["position"], h["role"], h["symbol"], h["scorers"])
                          for h in t.view("table")["history"]])
    assert histories[0] == histories[1]


def test_replay_command_prints_the_final_table(capsys):
    """`tofu-table replay` plays a script headless and names the winners."""
    status = cli.main(["replay", str(SCRIPTS / "tofu-kingdom-8p-seats.jsonl"), "--json"])
    view = json.loads(capsys.readouterr().out)
    assert status == 0
    assert view["winners"] == ["Cat", "Gus"]
    assert view["game"] == "tofu-kingdom" and view["audience"] == "table"


def test_replaying_the_journal_after_a_restart_gives_the_same_game(tmp_path):
    """The journal is the truth: a new Table over the same file refolds to the same state."""
    t = table(tmp_path)
    for inp in script_inputs("tofu-kingdom-5p-seats.jsonl")[:60]:
        accept(t, inp)
    before = t.view("host")
    t.journal.close()
    again = table(tmp_path)
    assert again.view("host") == before
