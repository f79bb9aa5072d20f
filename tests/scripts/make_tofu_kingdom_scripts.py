"""Write the Tofu Kingdom replay scripts (tests/scripts/tofu-kingdom-*.jsonl) from readable plans.

Run from the repository root: ``python3 -m tests.scripts.make_tofu_kingdom_scripts``.
A plan lists, per round, who was dealt which coaster (``"c"`` is the centre) and
which coaster the Prince flips.  Each plan is written twice, once per reader
set-up: ``seats`` (a reader per seat, flip = lift) and ``table`` (one shared
reader, flip = tapping the flipped coaster).  Questions, a coaster picked up
during the deal, host corrections and the quiet lifts after the flip are mixed
in so the scripts read like real game nights.  The expected soybeans are worked
out by hand in tests/test_tofu_kingdom_games.py.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.support.tofu_kingdom import (ADVANCE, accept, ask, deal_inputs, flip_inputs, host, lift,
                                        new_game, positions, table, tap)

HERE = Path(__file__).parent

#: 3 players, 9 rounds; rounds as (deal by seat with "c" for the centre, flipped position).
THREE = [
    ({2: "princess", 3: "queen", "c": "maid"}, 2),
    ({3: "princess", 1: "maid", "c": "queen"}, "c"),
    ({1: "queen", 2: "maid", "c": "princess"}, 1),
    ({2: "maid", 3: "princess", "c": "queen"}, 3),
    ({3: "maid", 1: "queen", "c": "princess"}, 3),
    ({1: "princess", 2: "queen", "c": "maid"}, 2),
    ({2: "queen", 3: "maid", "c": "princess"}, 2),
    ({3: "queen", 1: "princess", "c": "maid"}, 1),
    ({1: "maid", 2: "princess", "c": "queen"}, "c"),
]
#: 5 players, 10 rounds, Cat (seat 3) is the first Prince.
FIVE = [
    ({4: "princess", 5: "queen", 1: "maid", 2: "guard", "c": "chef"}, 4),
    ({5: "chef", 1: "princess", 2: "queen", 3: "maid", "c": "guard"}, 2),
    ({1: "guard", 2: "chef", 3: "princess", 4: "queen", "c": "maid"}, 3),
    ({2: "maid", 3: "guard", 4: "chef", 5: "princess", "c": "queen"}, 3),
    ({3: "queen", 4: "maid", 5: "guard", 1: "chef", "c": "princess"}, "c"),
    ({4: "guard", 5: "princess", 1: "queen", 2: "chef", "c": "maid"}, 1),
    ({5: "maid", 1: "chef", 2: "princess", 3: "guard", "c": "queen"}, 2),
    ({1: "princess", 2: "guard", 3: "maid", 4: "chef", "c": "queen"}, 4),
    ({2: "queen", 3: "chef", 4: "maid", 5: "guard", "c": "princess"}, 5),
    ({3: "princess", 4: "guard", 5: "chef", 1: "maid", "c": "queen"}, 3),
]
#: 8 players, 8 rounds, no centre coaster.
EIGHT = [
    ({2: "princess", 3: "queen", 4: "maid", 5: "guard", 6: "chef", 7: "minister", 8: "spy"}, 2),
    ({3: "spy", 4: "princess", 5: "queen", 6: "maid", 7: "guard", 8: "chef", 1: "minister"}, 5),
    ({4: "minister", 5: "spy", 6: "princess", 7: "queen", 8: "maid", 1: "guard", 2: "chef"}, 8),
    ({5: "chef", 6: "minister", 7: "spy", 8: "princess", 1: "queen", 2: "maid", 3: "guard"}, 8),
    ({6: "guard", 7: "chef", 8: "minister", 1: "spy", 2: "princess", 3: "queen", 4: "maid"}, 3),
    ({7: "maid", 8: "guard", 1: "chef", 2: "minister", 3: "spy", 4: "princess", 5: "queen"}, 1),
    ({8: "queen", 1: "maid", 2: "guard", 3: "chef", 4: "minister", 5: "spy", 6: "princess"}, 6),
    ({1: "princess", 2: "queen", 3: "maid", 4: "guard", 5: "chef", 6: "minister", 7: "spy"}, 4),
]


def _position(key) -> str:
    return "center" if key == "c" else f"seat-{key}"


def _questions(view: dict, prince: int, number: int, by_host: bool) -> list[dict]:
    """One question to every other player (the first one about the next), then the extra."""
    order = [int(p[5:]) for p in positions(view) if p != "center"]
    inputs = []
    for i, seat in enumerate(order):
        if i == 0:
            about = order[1] if len(order) > 1 else "center"
            inputs.append(("who_is", seat, about))
        else:
            inputs.append(("where" if (number + i) % 2 else "who_are_you", seat, None))
    inputs.append(("who_are_you", order[-1], None))     # the extra question
    if by_host:
        return [host("ask", to=to, question=q, **({} if about is None else {"about": about}))
                for q, to, about in inputs]
    return [ask(prince, to, q, about) for q, to, about in inputs]


def write(name: str, start: dict, plan, comments: list[str], asks=lambda number: None,
          extras=lambda number, deal, inputs: inputs):
    """Play ``plan`` on a real table while writing it down; every line must be accepted.

    ``asks(number)`` says how round ``number``'s questions are entered: "seat",
    "host" or None (no questions recorded).
    """
    readers = start["new_game"]["options"].get("readers", "seats")
    t = table()
    lines = [f"# {c}" for c in comments] + [json.dumps(start)]
    accept(t, start)
    for number, (by_seat, flipped) in enumerate(plan, 1):
        view = t.view("host")
        prince = view["prince"]["seat"]
        deal = {_position(k): role for k, role in by_seat.items()}
        assert sorted(deal) == sorted(positions(view)), (name, number, "the plan deals the wrong seats")
        order = positions(view) if readers == "table" else list(deal)
        inputs = deal_inputs(deal, readers, order)
        how = asks(number)
        if how:
            inputs += _questions(view, prince, number, how == "host")
        inputs += flip_inputs(deal, _position(flipped), readers)
        inputs = extras(number, deal, inputs)
        if number < len(plan):
            inputs.append(ADVANCE)
        lines.append(f"# round {number}: {view['prince']['name']} is the Prince")
        for inp in inputs:
            accept(t, inp)
            lines.append(json.dumps(inp))
    assert t.state["over"], name
    (HERE / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def three_players():
    comments = ["3 players (Princess, Queen, Maid; one in the centre), 9 rounds: each is Prince 3 times.",
                "Expected: Ann 4, Ben 4, Cat 2; Ann and Ben share the victory."]

    def seats_extras(number, deal, inputs):
        if number == 1:   # Ben picks his coaster up again during the deal and lays it back
            inputs[1:1] = [lift("seat-2", deal["seat-2"]), tap("seat-2", deal["seat-2"])]
        flip = next(i for i, inp in enumerate(inputs) if "lift" in inp and i > 1)
        if number == 2:   # a player peeks at their coaster during the questions: nothing changes
            peeker = next(p for p in deal if p.startswith("seat-") and p != inputs[flip]["lift"]["reader"])
            inputs[flip:flip] = [lift(peeker, deal[peeker]), tap(peeker, deal[peeker])]
        if number == 5:   # the Prince confirms the flip on the phone instead of waiting
            target = inputs[flip]["lift"]["reader"]
            prince = next(s for s in (1, 2, 3) if f"seat-{s}" not in deal)
            inputs[flip + 1] = {"seat": {"seat": prince, "action": "flip", "target": int(target[5:])}}
        return inputs

    write("tofu-kingdom-3p-seats.jsonl", new_game(3), THREE, comments + [
              "A reader per seat: a flip is a coaster lifted and still away after the peek time",
              "(the hub's timed lift); in round 2 a player peeks at their coaster and puts it back,",
              "which changes nothing; in round 5 the Prince confirms the flip on the phone."],
          asks=lambda n: "seat" if n in (1, 4) else None, extras=seats_extras)

    def table_extras(number, deal, inputs):
        if number == 6:   # the host shows the round's roles once it is scored
            inputs.append(host("reveal_all"))
        return inputs

    write("tofu-kingdom-3p-table.jsonl", new_game(3, readers="table", reveal="host"), THREE,
          comments + ["One shared table reader; the host reveals the roles after round 6."],
          asks=lambda n: "host" if n == 2 else None, extras=table_extras)


def five_players():
    comments = ["5 players (Princess, Queen, Maid, Guard, Chef; one in the centre), 10 rounds:",
                "each is Prince twice, Cat first.",
                "Expected: Ann 3, Ben 6, Cat 4, Dan 4, Eve 2; Ben wins."]

    def seats_extras(number, deal, inputs):
        if number == 2:   # the centre reader misses its coaster: the host records it by hand
            i = next(i for i, inp in enumerate(inputs) if inp.get("tap", {}).get("reader") == "center")
            inputs[i] = host("place", target="center", role=deal["center"])
        if number == 3:   # the flip's lift is not seen: the host sets the flip by hand
            i = next(i for i, inp in enumerate(inputs) if "lift" in inp)
            inputs[i:i + 2] = [host("flip", target=int(inputs[i]["lift"]["reader"][5:]))]
        return inputs

    write("tofu-kingdom-5p-seats.jsonl", new_game(5, first_seat=3), FIVE,
          comments + ["A reader per seat; the host records a missed centre coaster (round 2)",
                      "and a missed flip (round 3)."],
          asks=lambda n: "seat" if n % 3 == 0 else None, extras=seats_extras)

    def table_extras(number, deal, inputs):
        if number == 10:   # a soybean given by mistake and taken back
            inputs[-1:-1] = [host("adjust_soybeans", seat=5, delta=1),
                             host("adjust_soybeans", seat=5, delta=-1)]
        return inputs

    write("tofu-kingdom-5p-table.jsonl", new_game(5, first_seat=3, readers="table"), FIVE,
          comments + ["One shared table reader; the host gives Eve a soybean by mistake and",
                      "takes it back before the last flip."],
          asks=lambda n: "host" if n == 1 else None, extras=table_extras)


def eight_players():
    comments = ["8 players (all seven character coasters, no centre), 8 rounds: each is Prince once.",
                "Expected: Ann 2, Ben 1, Cat 4, Dan 1, Eve 3, Fay 3, Gus 4, Hal 3;",
                "Cat and Gus share the victory."]
    write("tofu-kingdom-8p-seats.jsonl", new_game(8, reveal="auto"), EIGHT,
          comments + ["A reader per seat; roles are shown on the TV after every flip."],
          asks=lambda n: "seat" if n == 8 else None)
    write("tofu-kingdom-8p-table.jsonl", new_game(8, readers="table", questions="required"), EIGHT,
          comments + ["One shared table reader; questions are required, entered from the",
                      "Prince's phone (odd rounds) or the host page (even rounds)."],
          asks=lambda n: "seat" if n % 2 else "host")


if __name__ == "__main__":
    three_players()
    five_players()
    eight_players()
