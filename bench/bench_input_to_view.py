"""Input to view: how long from an input to its `state` reaching every TV on the table.

The real server runs in a subprocess (`tofu-table serve --simulate`, with the tiny test
game registered) with its journal on disk (SQLite WAL, synchronous=FULL: every input is
fsync'ed before anyone is told).  Ten python-socketio clients sit in the `table` room.
For each input the clock starts just before it is sent and stops when the last of the
ten clients has received the `state` that includes it.  Inputs are sent one at a time.

Two paths:
  http    POST /api/input {"tap": {"reader": "seat-N", "card": ...}}, as the simulator
          page sends a tap;
  reader  a card is swapped on a simulated reader (POST /api/readers/seat-N/remove, then
          /place): the reader hub polls it, sends the lift and the tap, and the table
          applies both; the clock stops at the state holding the tap.

Run from the repository root:  python3 bench/bench_input_to_view.py [--inputs 1000] [--runs 3]
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from bench.watchers import Watcher, percentile  # noqa: E402
from tests.support.server import Server  # noqa: E402

SEATS = 4
COLOURS = ("red", "blue")


def one_run(inputs: int, clients: int, data_dir: Path) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Latencies per path, and for each the part until the table had applied the input
    (the journal row's time, taken just before its commit)."""
    srv = Server(data_dir).start()
    try:
        session = requests.Session()
        r = session.post(srv.url + "/api/input", timeout=10,
                         json={"new_game": {"game": "tiny", "players": [f"P{n}" for n in range(1, SEATS + 1)],
                                            "options": {"rounds": 99}}},
                         headers={"Authorization": f"Bearer {srv.host_token}"})
        seq = r.json()["seq"]
        tvs = [Watcher(srv.url) for _ in range(clients)]
        for tv in tvs:
            tv.reached(seq)
        latency: dict[str, list[float]] = {"http": [], "reader": []}
        sent: dict[str, list[tuple[int, float]]] = {"http": [], "reader": []}   # (seq, wall clock)

        for n in range(inputs):   # taps as the simulator page posts them
            tap = {"tap": {"reader": f"seat-{n % SEATS + 1}", "card": f"test/{COLOURS[n // SEATS % 2]}"}}
            wall, start = time.time(), time.perf_counter()
            answer = session.post(srv.url + "/api/input", json=tap, timeout=10).json()
            seq = answer["seq"]
            latency["http"].append(max(tv.reached(seq) for tv in tvs) - start)
            sent["http"].append((seq, wall))

        on_reader: dict[str, bool] = {}
        for n in range(inputs):   # cards swapped on simulated readers, through the hub
            reader = f"seat-{n % SEATS + 1}"
            card = f"test/{COLOURS[n // SEATS % 2]}"
            session.post(f"{srv.url}/api/readers/{reader}/remove", json={}, timeout=10)
            wall, start = time.time(), time.perf_counter()
            session.post(f"{srv.url}/api/readers/{reader}/place", json={"card": card}, timeout=10)
            seq += 2 if on_reader.get(reader) else 1   # the old card's lift, then the tap
            on_reader[reader] = True
            latency["reader"].append(max(tv.reached(seq) for tv in tvs) - start)
            sent["reader"].append((seq, wall))
    finally:
        srv.stop()   # which also ends the clients' connections
    journal = sqlite3.connect(data_dir / "journal.sqlite")
    at = dict(journal.execute("SELECT id, at FROM inputs"))
    journal.close()
    applied = {path: [at[seq] - wall for seq, wall in rows] for path, rows in sent.items()}
    return latency, applied


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1000, help="inputs per path per run")
    parser.add_argument("--runs", type=int, default=3, help="runs (the median of each figure is reported)")
    parser.add_argument("--clients", type=int, default=10, help="Socket.IO clients in the table room")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    runs = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(dir=out) as tmp:   # on disk, not tmpfs
            latency, applied = one_run(args.inputs, args.clients, Path(tmp) / "data")
        runs.append({path: {"p50": percentile(v, 50) * 1000, "p99": percentile(v, 99) * 1000,
                            "max": max(v) * 1000, "n": len(v),
                            "applied_p50": percentile(applied[path], 50) * 1000,
                            "applied_p99": percentile(applied[path], 99) * 1000}
                     for path, v in latency.items()})
        if not args.json:
            print(f"run {run + 1}: " + "; ".join(
                f"{path} p50 {r['p50']:.1f} ms p99 {r['p99']:.1f} ms max {r['max']:.1f} ms "
                f"(applied after p50 {r['applied_p50']:.1f} p99 {r['applied_p99']:.1f})"
                for path, r in runs[-1].items()), flush=True)
    summary = {path: {k: statistics.median(r[path][k] for r in runs)
                      for k in ("p50", "p99", "max", "applied_p50", "applied_p99")}
               for path in runs[0]}
    if args.json:
        print(json.dumps({"inputs": args.inputs, "runs": args.runs, "clients": args.clients,
                          "median_of_runs_ms": summary}, indent=2))
    else:
        print(f"median of {args.runs} runs, {args.inputs} inputs per path, {args.clients} clients:")
        for path, r in summary.items():
            verdict = "ok" if r["p99"] < 50 else "OVER the 50 ms target"
            print(f"  {path:<6} p50 {r['p50']:6.1f} ms   p99 {r['p99']:6.1f} ms   ({verdict}); "
                  f"applied by the table after p50 {r['applied_p50']:.1f} ms, p99 {r['applied_p99']:.1f} ms")
    return 0 if all(r["p99"] < 50 for r in summary.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
