"""Fuzz: mutated inputs thrown at every game in-process; the table must neither crash nor change.

Each game's replay scripts (tests/scripts/<game>-*.jsonl) are played from the start; before
every real input, ``--mutants`` mutated copies of it are applied first (a field's value
swapped for random JSON, a field dropped or added, another card, reader, seat or action).
The real input then carries the game on, so mutants reach every phase of the game.
Whenever a game ends (or a mutant took it off its script) the script starts again.

Counted, per game:
  inputs      mutants applied through ``Table.handle`` (the same path as the server's)
  crashes     inputs answered ``internal_error`` (a fault inside the rules program)
  changed     refused inputs after which any view (TV, host, any seat) differs
  public      refusals whose TV message names a card id that is not in the TV's own view
              (the crude secret check: an id the TV cannot see must not appear in its refusal)

Run from the repository root:  python3 bench/bench_fuzz.py [--inputs 100000] [--seed 1]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server import games  # noqa: E402
from server.journal import Journal  # noqa: E402
from server.protocol import READERS  # noqa: E402
from server.table import Table  # noqa: E402
from tests.support.scripts import SCRIPTS, script_inputs  # noqa: E402

GAMES = ("tofu-god", "tofu-kingdom", "food-for-thought")


def random_json(rng: random.Random, depth: int = 0):
    """A random JSON value: numbers (huge ones too), strings, lists, objects."""
    makers = [lambda: None, lambda: True, lambda: rng.randint(-3, 12),
              lambda: rng.choice([10**30, -1, 0.5, 1e308]),
              lambda: rng.choice(["", "x", "where", "seat-1", "tofu-god/set-1/elephant", "é" * 5]),
              lambda: rng.choice(["ask", "choice", "guess", "answer"]), lambda: rng.randint(1, 8),
              lambda: [random_json(rng, depth + 1) for _ in range(rng.randrange(3))],
              lambda: {rng.choice(["a", "seat", "card", "to"]): random_json(rng, depth + 1)}]
    return makers[rng.randrange(len(makers) if depth < 3 else 7)]()


def mutate(inp: dict, rng: random.Random, cards: list[str], actions: list[str]) -> dict:
    """A mutated copy of protocol object ``inp``."""
    (kind, body), = json.loads(json.dumps(inp)).items()
    if not isinstance(body, dict) or rng.random() < 0.1:
        return {kind: random_json(rng)}
    roll = rng.random()
    if roll < 0.2 and cards:
        return {rng.choice(["tap", "lift"]): {"reader": rng.choice(READERS), "card": rng.choice(cards)}}
    if roll < 0.3 and actions:
        body["action"] = rng.choice(actions)
    elif roll < 0.45 and body:
        body.pop(rng.choice(sorted(body)))
    elif roll < 0.55:
        body[rng.choice(["seat", "card", "to", "question", "choice", "extra"])] = random_json(rng)
    elif body:
        body[rng.choice(sorted(body))] = random_json(rng)
    if "seat" in body and rng.random() < 0.3:
        body["seat"] = rng.randint(1, 8)
    return {kind: body}


def views(table: Table) -> str:
    return json.dumps({a: table.view(a) for a in ["table", "host"] + [f"seat-{s}" for s in table.seats()]},
                      sort_keys=True, default=str)


def fuzz_game(game_id: str, count: int, mutants: int, rng: random.Random) -> dict:
    """Apply ``count`` mutated inputs to ``game_id``; the counts of what went wrong."""
    scripts = [script_inputs(p.name) for p in sorted(SCRIPTS.glob(f"{game_id}-*.jsonl"))]
    cards = games.get(game_id).cards()
    actions = sorted({body["action"] for s in scripts for inp in s for body in inp.values()
                      if isinstance(body, dict) and "action" in body})
    found = {"inputs": 0, "crashes": 0, "changed": 0, "public": 0, "refused": 0, "examples": []}
    table = Table(Journal(":memory:"))
    while found["inputs"] < count:
        script = rng.choice(scripts)
        for real in script:
            for _ in range(mutants):
                inp = mutate(real, rng, cards, actions)
                before = views(table)
                outcome = table.handle(inp, source="fuzz")
                found["inputs"] += 1
                if outcome.accepted:
                    continue
                found["refused"] += 1
                if outcome.error.code == "internal_error":
                    found["crashes"] += 1
                    found["examples"].append(("crash", inp, outcome.error.as_dict("host")))
                elif views(table) != before:
                    found["changed"] += 1
                    found["examples"].append(("changed", inp, outcome.error.code))
                public = outcome.error.as_dict("table")["message"]
                tv = json.dumps(table.view("table"))
                if any(card in public and card not in tv and card not in json.dumps(inp) for card in cards):
                    found["public"] += 1
                    found["examples"].append(("public", inp, public))
            if not table.handle(real, source="fuzz").accepted or (table.state or {}).get("over"):
                break   # off its script (a mutant was accepted) or over: start a script again
    table.journal.close()
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="mutated inputs per game")
    parser.add_argument("--mutants", type=int, default=3, help="mutants before each real input")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bad = 0
    print(f"{'game':<18}{'inputs':>9}{'refused':>9}{'crashes':>9}{'changed':>9}{'public':>8}{'inputs/s':>10}")
    for game_id in GAMES:
        start = time.perf_counter()
        found = fuzz_game(game_id, args.inputs, args.mutants, rng)
        rate = found["inputs"] / (time.perf_counter() - start)
        print(f"{game_id:<18}{found['inputs']:>9}{found['refused']:>9}{found['crashes']:>9}"
              f"{found['changed']:>9}{found['public']:>8}{rate:>10.0f}", flush=True)
        for example in found["examples"][:5]:
            print("   ", json.dumps(example, default=str)[:300])
        bad += found["crashes"] + found["changed"] + found["public"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
