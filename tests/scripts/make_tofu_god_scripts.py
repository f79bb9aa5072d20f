"""Write the Tofu God replay scripts (tests/scripts/tofu-god-*.jsonl) from readable plans.

Run from the repository root: ``python3 -m tests.scripts.make_tofu_god_scripts``.
Each plan says, per turn and question, which guesser hits the active player's
best or worst answer (everyone else misses).  The table itself is run while
writing, so digitally drawn set-aside cards are known and never used.  The
expected scores are worked out by hand in tests/test_tofu_god_games.py.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.support.tofu_god import accept, host, new_game, table, turn_inputs

HERE = Path(__file__).parent
MISS = "miss"


def _plan(guessers, hits):
    """One question's outcomes: ``hits`` maps a seat to best/worst, the other guessers miss."""
    return {s: hits.get(s, MISS) for s in guessers}


def write(name: str, start: dict, turn_plan, comments: list[str], extras=lambda n, view, inputs: inputs):
    t = table()
    lines = [f"# {c}" for c in comments] + [json.dumps(start)]
    accept(t, start)
    number = 1
    while not t.state["over"] and t.state["phase"] != "tie_break":
        view = t.view("host")
        active = view["turn"]["active"]
        guessers = view["turn"]["guessers"]
        plan, set_aside = turn_plan(number, active, guessers)
        lines.append(f"# turn {number}: {view['players'][active - 1]['name']} answers"
                     + (f"; the table set aside {' and '.join(view['turn']['set_aside'])}"
                        if view['turn']['set_aside'] else ""))
        inputs = extras(number, view, turn_inputs(view, plan, set_aside))
        for inp in inputs:
            accept(t, inp)
            lines.append(json.dumps(inp))
        number += 1
    (HERE / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def two_players():
    pairs = [["rat", "pig"], ["tofu", "human"], ["spider", "beetle"]]

    def plan(number, active, guessers):
        if active == 1:
            hits = [{2: "best"}, {2: "best"}, {}]
        else:
            hits = [{1: "worst"}, {1: "best"}, {}]
        return [_plan(guessers, h) for h in hits], pairs[(number - 1) % 3]
    write("tofu-god-2p.jsonl", new_game(["Anna", "Ben"], seed=2, set_aside="physical"), plan,
          ["2 players, 3 turns each (rulebook default), cards set aside physically.",
           "Anna's turns: Ben guesses her best answer twice. Ben's turns: Anna hits his worst",
           "answer, then his best. Expected: Anna 6, Ben 9; Ben wins."])


def four_players():
    def plan(number, active, guessers):
        nxt, prev = active % 4 + 1, (active - 2) % 4 + 1
        q3 = {s: "best" for s in guessers} if active == 3 else {}
        return [_plan(guessers, h) for h in ({nxt: "best"}, {prev: "worst"}, q3)], ["meditator", "tenth"]

    def extras(number, view, inputs):
        inputs = [host("conundrum", number=40 + number)] + inputs
        if number == 1:   # while Cindy is still choosing, Dax guesses the elephant, then changes his mind
            inputs.insert(3, {"tap": {"reader": "seat-4", "card": "tofu-god/set-3/elephant"}})
        if number == 2:   # Anna guesses from her phone; a card lifted off a reader changes nothing
            i = next(i for i, inp in enumerate(inputs)
                     if inp.get("tap", {}).get("card", "").startswith("tofu-god/set-2/"))
            card = inputs[i]["tap"]["card"].rsplit("/", 1)[1]
            inputs[i] = {"seat": {"seat": 1, "action": "card", "card": card}}
            inputs.insert(i + 1, {"lift": {"reader": "seat-1", "card": "tofu-god/set-2/" + card}})
        return inputs
    write("tofu-god-4p.jsonl",
          new_game(["Anna", "Ben", "Cindy", "Dax"], seed=4, first_seat=3, set_aside="physical",
                   sets="2,1,4,3", below_zero=True),
          plan, ["4 players, 2 turns each, Cindy starts, sets bound as Anna 2, Ben 1, Cindy 4, Dax 3,",
                 "scores may go below zero. In every turn the next player hits the best answer to",
                 "question 1, the previous player hits the worst answer to question 2; in Cindy's",
                 "turns everyone hits the best answer to question 3.",
                 "Expected: Anna 4, Ben 4, Cindy 8, Dax 4; Cindy wins."], extras)


def six_players():
    def plan(number, active, guessers):
        return [_plan(guessers, h) for h in ({1: "best"}, {6: "worst"}, {})], None
    write("tofu-god-6p.jsonl", new_game(["Anna", "Ben", "Cindy", "Dax", "Eve", "Fay"], seed=6), plan,
          ["6 players, 1 turn each (rulebook default), the table sets cards aside.",
           "Anna hits the best answer to question 1 in every other player's turn; Fay hits the",
           "worst answer to question 2 (her score stays at zero: no scores below zero).",
           "Expected: Anna 5, every other player 1; Anna wins."])


def tie():
    def plan(number, active, guessers):
        return [_plan(guessers, h) for h in ({3 - active: "best"}, {}, {})], None
    write("tofu-god-tie.jsonl", new_game(["Anna", "Ben"], seed=11, turns=1), plan,
          ["2 players, 1 turn each: each hits the other's best answer once, so both end on 2",
           "points and the table draws for the tofu (seeded: replaying gives the same winner)."])


if __name__ == "__main__":
    two_players()
    four_players()
    six_players()
    tie()
