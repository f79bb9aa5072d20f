"""History: how long rebuilding every game record from the journal takes (the first start with
this version, or after ``history.sqlite`` is deleted), and what keeping it in step costs an input.

Journals measured: the replay scripts in tests/scripts (Tofu God 2 and 4 players, Tofu Kingdom
3 players, Food for Thought 2 players), each played to its end through the table, one after the
other, ``--games`` games in all, as months of game nights would leave them.  The rebuild folds every game again
on a scratch table; the clock covers ``History.rebuild(journal)``.  The per-input figure is
``History.sync`` when no record changes (what every input pays).

Run from the repository root:  python3 bench/bench_history.py [--games 100] [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.history import History  # noqa: E402
from server.journal import Journal  # noqa: E402
from server.table import Table  # noqa: E402
from tests.support.scripts import script_inputs  # noqa: E402

SCRIPTS = ("tofu-god-2p.jsonl", "tofu-god-4p.jsonl", "tofu-kingdom-3p-table.jsonl",
           "food-for-thought-2p-basic.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal(Path(scratch) / "journal.sqlite")
        table = Table(journal)   # the table journals what it accepts, as at a real game night
        scripts = [script_inputs(name) for name in SCRIPTS]
        for n in range(args.games):
            for inp in scripts[n % len(scripts)]:
                table.handle(inp, "bench")
        history = History(Path(scratch) / "history.sqlite")
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            count = history.rebuild(journal)
            times.append(time.perf_counter() - start)
        last_game = max(i for i, inp in journal.live() if "new_game" in inp)
        sync = []
        for _ in range(2000):
            start = time.perf_counter()
            history.sync(journal, last_game, True)
            sync.append(time.perf_counter() - start)
        print(f"{journal.count()} journal rows, {count} games recorded")
        print(f"rebuild: median {statistics.median(times):.2f} s of {args.runs} runs "
              f"({statistics.median(times) / count * 1000:.1f} ms per game)")
        print(f"sync when nothing changes: median {statistics.median(sync) * 1e6:.0f} us per input")
    return 0


if __name__ == "__main__":
    sys.exit(main())
