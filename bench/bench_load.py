"""Load: 20 seat and TV clients connected while taps arrive at 20 per second for minutes.

The real server runs in a subprocess (`tofu-table serve --simulate`, with the tiny test game
registered, so the simulated readers and camera run too) with its journal on disk.  Eight
players each have a seat page open (python-socketio clients in their `seat-N` rooms, with their
seat tokens) and twelve more clients sit in the `table` room (TVs, the simulator, idle phones).
Taps arrive on a fixed schedule, 20 per second, whatever the server is doing (open loop:
a slow answer does not slow the taps down), over HTTP as the simulator page sends them.

For every tap the clock starts when it is sent and stops when the last of the 20 clients has
received the `state` holding it: that is input-to-view.  Input-to-answer (the HTTP answer,
which comes once the tap is applied and journaled) is reported too, to tell the table's part
from the publishing's.  At the end every tap must have been
answered 200 with its own journal row, the journal must hold exactly those rows, and every
client must have received every one of those states (nothing lost on the way).  The server's
resident memory (RSS) is sampled every few seconds: the report gives it at the start (after a
warm-up) and at the end.

Run from the repository root:  python3 bench/bench_load.py [--minutes 5] [--rate 20]
Exit status 0 when nothing was lost and p99 input-to-view is under --p99-ms (default 100).
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from bench.watchers import Watcher, new_tiny_game, percentile, post_input, screens  # noqa: E402
from tests.support.server import Server  # noqa: E402

SEATS = 8
COLOURS = ("red", "blue")


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    """KiB of ``pid``'s resident memory (``field`` of /proc/<pid>/status: VmRSS, RssAnon or RssFile)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field}")


def run(seconds: float, rate: float = 20.0, tvs: int = 12, warmup: float = 2.0, progress=None) -> dict:
    """Run the load against a fresh server and return the figures (see the module docstring)."""
    with tempfile.TemporaryDirectory(dir=ROOT / "bench" / "out") as tmp:
        data = Path(tmp) / "data"
        srv = Server(data).start()
        watchers: list[Watcher] = []
        try:
            session = requests.Session()
            session.headers["Authorization"] = f"Bearer {srv.host_token}"
            assert session.post(srv.url + "/api/input", json=new_tiny_game(SEATS), timeout=10).status_code == 200
            watchers = screens(srv, SEATS, tvs)
            time.sleep(warmup)
            rss = [(0.0, rss_kib(srv.proc.pid))]

            sent: dict[int, tuple[float, int | None, float]] = {}   # tap number -> (sent at, seq, answered at)
            lock = threading.Lock()

            def tap(n: int) -> None:
                body = {"tap": {"reader": f"seat-{n % SEATS + 1}", "card": f"test/{COLOURS[n // SEATS % 2]}"}}
                answer = post_input(session, srv.url, body)
                with lock:
                    sent[n] = answer

            total = int(seconds * rate)
            began = time.perf_counter()
            next_sample = 5.0
            with ThreadPoolExecutor(max_workers=16) as pool:
                for n in range(total):
                    due = began + n / rate
                    while (now := time.perf_counter()) < due:
                        time.sleep(min(due - now, 0.01))
                    pool.submit(tap, n)
                    now = time.perf_counter()
                    if now - began >= next_sample:
                        rss.append((now - began, rss_kib(srv.proc.pid)))
                        next_sample += 5.0
                        if progress:
                            progress(n, total)
            duration = time.perf_counter() - began
            rss.append((duration, rss_kib(srv.proc.pid)))

            seqs = [s for _, s, _ in sent.values() if s is not None]
            latencies, answers, not_seen = [], [], 0
            for start, seq, answered in sent.values():
                if seq is None:
                    continue
                answers.append(answered - start)
                arrivals = [w.arrival(seq, timeout=10) for w in watchers]
                if any(a is None for a in arrivals):
                    not_seen += 1
                    continue
                latencies.append(max(arrivals) - start)
        finally:
            srv.stop()             # first: a client disconnecting from a live server waits ~3 s
            for w in watchers:
                w.close()
        db = sqlite3.connect(data / "journal.sqlite")
        journal_rows = [i for (i,) in db.execute("SELECT id FROM inputs WHERE input LIKE '{\"tap\"%' ORDER BY id")]
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        db.close()
    return {
        "seconds": round(duration, 1), "rate": rate, "clients": len(watchers), "taps": total,
        "answered_200": len(seqs), "refused_or_failed": total - len(seqs),
        "distinct_rows": len(set(seqs)), "journal_matches": sorted(seqs) == journal_rows,
        "journal_integrity": integrity, "not_seen_by_every_client": not_seen,
        "lost": total - len(seqs) + not_seen + (0 if sorted(seqs) == journal_rows
                                                 else max(1, abs(len(journal_rows) - len(seqs)))),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1), "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
        "answer_p50_ms": round(percentile(answers, 50) * 1000, 1),
        "answer_p99_ms": round(percentile(answers, 99) * 1000, 1),
        "rss_start_kib": rss[0][1], "rss_end_kib": rss[-1][1], "rss_max_kib": max(k for _, k in rss),
        "rss_samples": rss,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long the taps go on")
    parser.add_argument("--rate", type=float, default=20.0, help="taps per second")
    parser.add_argument("--tvs", type=int, default=12, help="table-room clients besides the 8 seat pages")
    parser.add_argument("--p99-ms", type=float, default=100.0, help="the target for p99 input-to-view")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)

    def progress(n, total):
        if not args.json:
            print(f"  {n}/{total} taps sent", file=sys.stderr, flush=True)

    r = run(args.minutes * 60, args.rate, args.tvs, progress=progress)
    ok = r["lost"] == 0 and r["p99_ms"] < args.p99_ms
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print(f"{r['taps']} taps at {r['rate']:g}/s over {r['seconds']} s to {r['clients']} clients "
              f"({SEATS} seat pages, {r['clients'] - SEATS} TVs)\n"
              f"  lost: {r['lost']} (answered 200: {r['answered_200']}, journal rows match: "
              f"{r['journal_matches']}, taps not seen by every client: {r['not_seen_by_every_client']}, "
              f"integrity_check: {r['journal_integrity']})\n"
              f"  input to view: p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms "
              f"({'ok' if r['p99_ms'] < args.p99_ms else 'OVER'} the {args.p99_ms:g} ms target)\n"
              f"  input to HTTP answer (applied and journaled): p50 {r['answer_p50_ms']} ms, "
              f"p99 {r['answer_p99_ms']} ms\n"
              f"  server RSS: {r['rss_start_kib'] / 1024:.1f} MiB at start, {r['rss_end_kib'] / 1024:.1f} MiB "
              f"at the end, {r['rss_max_kib'] / 1024:.1f} MiB at most")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
