"""Drill: power cuts during real games of every title (issue 8).

The real server plays the replay scripts of Tofu God, Tofu Kingdom and Food for Thought, sent
one input at a time over HTTP as the host page would, and is killed with SIGKILL at random
points: between inputs, while one is being applied, while it is being committed, after the
commit but before the answer.  After every cut:

- the journal passes SQLite's ``PRAGMA integrity_check``;
- it holds every acknowledged input, once, in order, under the row id the server answered;
  the input cut off in flight is either the last row or absent (never anything else);
- the restarted server shows exactly the state an independent replay of those inputs gives,
  so the game carries on from the last acknowledged input;
- the sender then carries on with the next input of the script (re-sending the cut-off one
  only when the journal does not have it), and every play-through still ends exactly as an
  uncut replay of the script does (whose scores the games' own tests check against the
  rulebook).

Restarts are shared and cheap: one server life covers the check of one cut and the run-up to the
next; the next server process is started ahead with its imports done and waits for the cut
(tests/support/warm_server.py), so a restart costs the journal refold and binding the port; the
three titles run side by side, each on its own server and data folder.
"""
from __future__ import annotations

import json
import random
import shutil
import sqlite3
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from server.journal import Journal
from server.table import Table
from tests.support.scripts import script_inputs
from tests.support.server import Server, appliance_data
from tests.support.warm_server import WarmServer

SCRIPTS = {"tofu-god": "tofu-god-4p.jsonl", "tofu-kingdom": "tofu-kingdom-5p-seats.jsonl",
           "food-for-thought": "food-for-thought-4p-basic.jsonl"}
CUTS_PER_TITLE = 17          # 51 SIGKILLs in all
# Run as the appliance does (tests.support.server.appliance_data: not in simulation), with no readers
# and the camera off: the simulated camera calibrates itself at every start, which costs seconds and
# is not what this drill is about. Inputs arrive over HTTP with the host token, as from the host page.


class Sender:
    """Posts a script's inputs in order from ``start`` until the server dies or the script ends."""

    def __init__(self, srv: Server, inputs: list[dict], start: int):
        self.srv, self.inputs, self.next = srv, inputs, start
        self.acked: list[tuple[int, int, bool]] = []   # (script index, row id, quiet)
        self.trips: list[float] = []                    # seconds from sending an input to its answer
        self.in_flight: int | None = None
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {self.srv.host_token}"
        while self.next < len(self.inputs):
            index = self.next
            self.in_flight = index
            self.started.set()
            sent = time.perf_counter()
            try:
                r = session.post(self.srv.url + "/api/input", json=self.inputs[index], timeout=10)
                answer = r.json()
            except (requests.RequestException, ValueError):
                return
            self.trips.append(time.perf_counter() - sent)
            assert r.status_code == 200, f"script input {index} refused: {answer}"
            self.acked.append((index, answer["seq"], answer["quiet"]))
            self.in_flight = None
            self.next += 1


def journal_rows(data_dir, scratch) -> list[tuple[int, dict]]:
    """The live journal rows, read from a copy so the restarted server does its own recovery."""
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir()
    for suffix in ("", "-wal"):
        src = data_dir / f"journal.sqlite{suffix}"
        if src.exists():
            shutil.copyfile(src, scratch / src.name)
    db = sqlite3.connect(scratch / "journal.sqlite")
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = []
        for i, s in db.execute("SELECT id, input FROM inputs WHERE undone IS NULL ORDER BY id").fetchall():
            inp = json.loads(s)
            ref = inp.get("new_game", {}).pop("data", None)   # the card data the game was set up from
            assert ref is None or db.execute("SELECT 1 FROM blobs WHERE sha256 = ?", (ref,)).fetchone(), \
                f"row {i} names a data snapshot the journal does not hold"
            rows.append((i, inp))
        return rows
    finally:
        db.close()


def served(srv: Server) -> dict:
    return {"table": srv.engine_view("table"), "host": srv.engine_view("host", srv.host_token)}


def replayed(table: Table) -> dict:
    return {"table": table.view("table"), "host": table.view("host")}


def as_json(views: dict) -> dict:
    """Views as a client receives them (tuples become lists)."""
    return json.loads(json.dumps(views))


def without_seq(views: dict) -> dict:
    """Views minus the journal positions (of the input, of the game's start), which depend on how
    many games came before."""
    return {audience: {k: v for k, v in view.items() if k not in ("seq", "game_seq")}
            for audience, view in as_json(views).items()}


def drill(title: str, data, scratch, rng: random.Random) -> tuple[int, int, int]:
    """Play ``title``'s script on its own server, cut the power CUTS_PER_TITLE times, check each.

    Returns (cuts, in-flight inputs found committed, in-flight inputs found absent).
    """
    inputs, position = script_inputs(SCRIPTS[title]), 0
    srv = WarmServer(appliance_data(data), simulate=False).start()
    journal: list[tuple[int, dict]] = []     # what the journal must hold, as the test knows it
    mirror = Table(Journal(":memory:"))      # the same inputs, applied in this process
    cuts = kept_in_flight = lost_in_flight = 0
    # how long an input takes from sending to its answer here (the last server life's median): the cut
    # comes a random moment into that, so that it lands before and after the commit on a fast machine
    # and a slow or loaded one alike (a fixed 6 ms window landed after the commit 4 times in 51 on a
    # slow VM under CI's load, and the check below that both happen failed)
    trip = 0.006
    finals = []
    try:
        while cuts < CUTS_PER_TITLE or position < len(inputs):
            if position == len(inputs):          # finished before its cuts were used: play again
                finals.append(without_seq(replayed(mirror)))
                position = 0
            sender = Sender(srv, inputs, position)
            if cuts < CUTS_PER_TITLE:
                # a random point: after a random number of inputs, a random moment into the next
                target = position + rng.randrange(0, max(1, min(12, len(inputs) - position)))
                while sender.next < target and sender.thread.is_alive():
                    time.sleep(0.0005)
                time.sleep(rng.uniform(0, trip))
                srv.kill()
                cuts += 1
            sender.thread.join(15)
            assert not sender.thread.is_alive()
            if sender.trips:
                trip = statistics.median(sender.trips)

            for index, seq, quiet in sender.acked:
                if not quiet:
                    journal.append((seq, inputs[index]))
                assert mirror.handle(inputs[index]).accepted
            position = sender.next
            rows = journal_rows(data, scratch)
            extra = rows[len(journal):]
            if sender.in_flight is not None and extra:
                # committed but never answered: it counts, and is not sent again
                assert len(extra) == 1 and extra[0][1] == inputs[sender.in_flight], extra
                journal.append(extra[0])
                assert mirror.handle(inputs[sender.in_flight]).accepted
                position += 1
                kept_in_flight += 1
            elif sender.in_flight is not None:
                lost_in_flight += 1
            assert rows == journal, f"{title}, cut {cuts}: the journal is not what was acknowledged"
            if srv.proc.poll() is not None:
                srv.start()
            assert served(srv) == as_json(replayed(mirror)), f"{title}, cut {cuts}: restarted state differs"
    finally:
        srv.stop()
    finals.append(without_seq(replayed(mirror)))
    # however it was cut, every play-through of the script ended as an uncut replay does
    uncut = Table(Journal(":memory:"))
    for inp in inputs:
        assert uncut.handle(inp).accepted
    assert all(f == without_seq(replayed(uncut)) for f in finals), title
    assert replayed(uncut)["table"]["over"]
    return cuts, kept_in_flight, lost_in_flight


def test_power_cuts_during_games_of_every_title_lose_nothing_acknowledged(tmp_path):
    """At least 50 SIGKILLs in all, spread over the three titles (each on its own server, in parallel)."""
    rng = random.Random(8_2026)
    with ThreadPoolExecutor(len(SCRIPTS)) as pool:
        runs = {title: pool.submit(drill, title, tmp_path / title / "data", tmp_path / title / "check",
                                   random.Random(rng.random()))
                for title in SCRIPTS}
        results = {title: run.result() for title, run in runs.items()}
    assert sum(cuts for cuts, _, _ in results.values()) >= 50
    # cuts really landed mid-input, both before and after the commit
    assert sum(kept for _, kept, _ in results.values()) >= 5, results
    assert sum(lost for _, _, lost in results.values()) >= 5, results
