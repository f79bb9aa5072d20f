"""Restart: how long the table takes to refold a journal of 10,000 inputs.

A restart (or a power cut) opens the journal and folds its live inputs since the
newest ``new_game``: ``Table(Journal(path))``, which is what ``tofu-table serve``
does before it answers anyone.  The clock covers exactly that constructor.

Journals measured (each prepared once as a SQLite file on disk, then refolded
``--runs`` times; the median is reported):

  tiny, one game        one game of 10,000 inputs (taps, and an advance now and then):
                        every input goes through the fold, the table's worst case;
  <script>, evening     a real engine's replay script (tests/scripts/*.jsonl) played
                        again and again until the journal holds 10,000 inputs, as after
                        a long evening: only the last game is folded;
  <script>, per input   the same script's game alone, refolded, less its set-up alone
                        (the first line): that engine's cost per input, times 9,999,
                        plus the set-up (an extrapolation: no real game is that long;
                        informative only, the target is checked on measured journals).

Run from the repository root:  python3 bench/bench_refold.py [--inputs 10000] [--runs 5]
"""
from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server import games  # noqa: E402
from server.journal import Journal  # noqa: E402
from server.table import Table  # noqa: E402
from tests.support import tiny_game  # noqa: E402
from tests.support.scripts import script_inputs  # noqa: E402

DEFAULT_SCRIPTS = ["tofu-god-4p.jsonl", "tofu-kingdom-8p-table.jsonl", "food-for-thought-4p-modules.jsonl"]


def tiny_inputs(count: int) -> list[dict]:
    """One long tiny game: four seats tapping, a round scored every 110 inputs (90 of its 99)."""
    inputs = [{"new_game": {"game": "tiny", "players": ["Anna", "Ben", "Cleo", "Dan"], "seed": 1,
                            "options": {"rounds": 99}}}]
    while len(inputs) < count:
        k = len(inputs) - 1
        if k % 110 == 109:
            inputs.append({"button": {"name": "advance"}})
        else:
            inputs.append({"tap": {"reader": f"seat-{k % 4 + 1}", "card": f"test/{('red', 'blue')[k // 4 % 2]}"}})
    return inputs


def prepare(inputs: list[dict], path: Path) -> None:
    """Apply ``inputs`` to a table in memory (each must be accepted) and save its journal to ``path``."""
    table = Table(Journal(":memory:"))
    for n, inp in enumerate(inputs):
        outcome = table.handle(inp)
        if not outcome.accepted:
            raise SystemExit(f"input {n} was refused ({outcome.error.code}): {outcome.error.message}")
    target = sqlite3.connect(path)
    table.journal._db.backup(target)   # much faster than 10,000 fsync'ed appends
    target.close()
    Journal(path).close()               # as the server leaves it: WAL mode


def time_refold(path: Path, runs: int) -> tuple[float, int]:
    """Median seconds for ``Table(Journal(path))``, and how many inputs the journal holds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        table = Table(Journal(path))
        times.append(time.perf_counter() - start)
        count = table.journal.count()
        table.journal.close()
    return statistics.median(times), count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scripts", nargs="*", default=DEFAULT_SCRIPTS,
                        help="replay scripts under tests/scripts for the real engines")
    args = parser.parse_args(argv)
    games.register(tiny_game.GAME)

    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(dir=out) as tmp:   # on disk, not tmpfs
        tmp = Path(tmp)
        prepare(tiny_inputs(args.inputs), tmp / "tiny.sqlite")
        seconds, count = time_refold(tmp / "tiny.sqlite", args.runs)
        rows.append(("tiny, one game", count, seconds, None))
        for name in args.scripts:
            game = script_inputs(name)
            evening = (game * (args.inputs // len(game) + 1))[:args.inputs]
            evening = evening[:max(i for i, inp in enumerate(evening) if "new_game" in inp)] + game
            prepare(evening, tmp / "evening.sqlite")
            seconds, count = time_refold(tmp / "evening.sqlite", args.runs)
            rows.append((f"{name}, evening", count, seconds, None))
            prepare(game[:1], tmp / "setup.sqlite")
            setup, _ = time_refold(tmp / "setup.sqlite", args.runs)
            prepare(game, tmp / "one.sqlite")
            seconds, count = time_refold(tmp / "one.sqlite", args.runs)
            per_input = max(seconds - setup, 0) / (count - 1)
            rows.append((f"{name}, per input", count, seconds, setup + per_input * (args.inputs - 1)))
            for f in tmp.glob("*.sqlite*"):
                f.unlink()

    print(f"refold (Table(Journal(file))), median of {args.runs} runs:")
    worst = 0.0
    for label, count, seconds, extrapolated in rows:
        line = f"  {label:<46} {count:>6} inputs  {seconds * 1000:8.1f} ms"
        if extrapolated is not None:
            line += f"   -> {extrapolated * 1000:7.1f} ms for {args.inputs} (extrapolated)"
        print(line)
        worst = max(worst, seconds)
    print(f"target: under 2 s for a journal of {args.inputs} inputs: {'ok' if worst < 2 else 'MISSED'}")
    return 0 if worst < 2 else 1


if __name__ == "__main__":
    sys.exit(main())
