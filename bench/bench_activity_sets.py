"""Food for Thought end-of-game scoring: the best split of completed activities into icon sets.

Each case is one player's completed activities: ``icons`` different icons, ``cards`` cards in
all, dealt round-robin (so the counts per icon differ by at most one), or in the uneven counts
given (the slowest shape found for the search).  The clock covers one
``scoring.activity_sets`` call; the median of ``--runs`` runs is printed.

``--baseline COMMIT`` also times the scoring module of that commit (read with ``git show``),
on the cases of at most ``--baseline-limit`` cards (the former search was exponential in the
number of icons and slow on many cards), and prints the ratio.

Run from the repository root:  python3 bench/bench_activity_sets.py [--runs 5] [--baseline 517a3b3]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.games.food_for_thought import scoring  # noqa: E402

#: Cards per icon: a real game has a few icons and at most a couple of dozen completed
#: activities per player; the rest are the absurd cases the data check still allows (96 cards).
CASES = [(2,) * 6, (2,) * 8, (3,) * 8, (1,) * 12, (2,) * 12, (1,) * 16, (3,) * 16, (2,) * 24, (1,) * 48,
         (20, 18, 16, 14, 12, 10, 4, 2)]


def load_baseline(commit: str) -> types.ModuleType:
    """The scoring module as it was at ``commit``, imported beside today's (same package)."""
    source = subprocess.check_output(["git", "show", f"{commit}:server/games/food_for_thought/scoring.py"],
                                     cwd=ROOT, text=True)
    module = types.ModuleType("server.games.food_for_thought._baseline_scoring")
    module.__package__ = "server.games.food_for_thought"
    exec(compile(source, f"{commit}:scoring.py", "exec"), module.__dict__)
    return module


def time_once(module, icons: list[str]) -> float:
    """Seconds one call takes (the module's own caches cleared first, so every run starts cold)."""
    cached = getattr(module, "_best_sets", None)
    if hasattr(cached, "cache_clear"):
        cached.cache_clear()
    start = time.perf_counter()
    module.activity_sets(icons)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", help="commit whose scoring.py to time as well")
    parser.add_argument("--baseline-limit", type=int, default=24, help="most cards to time the baseline on")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline) if args.baseline else None
    print("| icons | cards | bonus VP | now ms | baseline ms | ratio |")
    print("|---|---|---|---|---|---|")
    for counts in CASES:
        icons = [f"icon{i}" for i, count in enumerate(counts) for _ in range(count)]
        n_icons, n_cards = len(counts), len(icons)
        now = statistics.median(time_once(scoring, icons) for _ in range(args.runs)) * 1000
        bonus = scoring.activity_sets(icons)[0]
        before = ratio = "-"
        if baseline is not None and n_cards <= args.baseline_limit:
            if baseline.activity_sets(icons)[0] != bonus:
                raise SystemExit(f"baseline scores {n_icons} icons / {n_cards} cards differently")
            ms = statistics.median(time_once(baseline, icons) for _ in range(args.runs)) * 1000
            before, ratio = f"{ms:.1f}", f"{ms / now:.0f}x"
        print(f"| {n_icons} | {n_cards} | {bonus} | {now:.2f} | {before} | {ratio} |")


if __name__ == "__main__":
    main()
