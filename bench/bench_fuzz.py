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

Then ``--hypothesis`` inputs per game come from hypothesis: the contract suite's generator
(tests/test_game_contract.py), protocol-valid inputs of the game's own vocabulary from the first
states of every phase the scripts reach, each checked to be applied or refused with a catalogue
code, and a public refusal to name no secret of the state (every hidden card, role and answer,
not only card ids); hypothesis stops at the first failure and shrinks it.

Then ``--requests`` requests go to the real server (`tofu-table serve --simulate` in a subprocess,
tests/support/server.py): the same scripts and mutants, sent over HTTP (as JSON with the host
token, no token or a junk one; now and then as raw bytes or another content type) and over
Socket.IO (a host page and a TV), from source addresses 127.0.0.2..254 in turn (so the
per-device limits answer only a few of them 429).  Counted: **5xx** answers, **crashes**
(``internal_error`` answers, or a fault on the server's health), **changed** (after any
request, the served host view differs from a refold of a copy of the server's journal, so a
refused input changed the state or an accepted one was not journaled) and **public** (a refusal
answered to a no-token request, or any event or refusal the TV received, that names a secret of
that state by the contract suite's check, or a hidden card id).

Run from the repository root:  python3 bench/bench_fuzz.py [--inputs 100000] [--requests 20000] [--seed 1]
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections import deque
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


def hypothesis_game(game_id: str, count: int, seed: int) -> dict:
    """``count`` hypothesis examples of the contract suite's engine check for ``game_id``."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    from hypothesis import seed as with_seed

    from tests import test_game_contract as contract
    inner = contract.test_the_engine_raises_nothing_but_a_refusal_and_no_public_refusal_names_a_secret
    run = with_seed(seed)(settings(max_examples=count, deadline=None, database=None,
                                   suppress_health_check=list(HealthCheck))(
        given(data=st.data())(inner.hypothesis.inner_test)))
    try:
        run(game_id=game_id)
    except Exception as exc:   # the shrunk failing example, as hypothesis reports it
        return {"inputs": count, "failures": 1, "example": f"{type(exc).__name__}: {exc}"[:500]}
    return {"inputs": count, "failures": 0, "example": None}


def _public_leak(message: str, inp, tv_view: dict, cards: list[str]) -> bool:
    """True when a public refusal names a card id the TV does not show and the input did not name."""
    tv, sent = json.dumps(tv_view), json.dumps(inp, default=str)
    return any(card in message and card not in tv and card not in sent for card in cards)


def _comparable(view: dict) -> dict:
    """A view without what the server adds and without its audience, to compare with a refold's."""
    from tests.support.server import SERVER_ADDITIONS
    return {k: v for k, v in view.items() if k not in (*SERVER_ADDITIONS, "audience")}


class _Mirror:
    """The server's journal refolded in this process, refreshed whenever the journal moved on:
    the state every served view must match after every request, and the secrets to look for."""

    def __init__(self, srv):
        self.srv, self.table = srv, None
        self._folder = tempfile.TemporaryDirectory()

    def at(self, seq: int) -> Table:
        """A table refolded from a copy of the server's journal, unless the last one is at ``seq``."""
        if self.table is None or self.table.seq != seq:
            self._drop()
            copy = Path(self._folder.name) / "journal.sqlite"
            copy.unlink(missing_ok=True)
            with sqlite3.connect(self.srv.data_dir / "journal.sqlite") as live, sqlite3.connect(copy) as dst:
                live.backup(dst)
            self.table = Table(Journal(copy))
        return self.table

    def _drop(self) -> None:
        if self.table is not None:
            self.table.journal.close()
            self.table = None

    def close(self) -> None:
        self._drop()
        self._folder.cleanup()


class _Sender:
    """Sends one input to the server by a random way and returns (status, answer)."""

    def __init__(self, srv, rng: random.Random):
        from tests.support.server import Client
        self.srv, self.rng, self.n = srv, rng, 0
        self.tokens = [srv.host_token, None, "junk-" + "x" * 20]
        self.sockets = {"host": Client(srv.url, "host", srv.host_token), "table": Client(srv.url, "table", None)}

    def _addr(self) -> str:
        self.n += 1
        return f"127.0.0.{2 + self.n % 253}"

    def http(self, body: bytes, token: str | None, content_type: str = "application/json"):
        conn = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=30, source_address=(self._addr(), 0))
        headers = {"Content-Type": content_type, **({"Authorization": f"Bearer {token}"} if token else {})}
        conn.request("POST", "/api/input", body, headers)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, {"error": {"code": "?", "message": raw[:200].decode("latin-1")}}

    def send(self, inp) -> tuple[str, str | None, int, dict]:
        """(channel, token, status, answer) for ``inp`` sent a random way."""
        roll = self.rng.random()
        if roll < 0.1:
            who = self.rng.choice(["host", "table"])
            answer = self.sockets[who].send(inp)
            return f"socket-{who}", who, (200 if answer.get("ok") else 400), answer
        token = self.rng.choice(self.tokens)
        if roll < 0.15:
            body = self.rng.choice([json.dumps(inp).encode()[:self.rng.randrange(1, 40)], b"\xff\xfe{", b"[]" * 50])
            return "http-raw", token, *self.http(body, token)
        if roll < 0.18:
            return "http-form", token, *self.http(json.dumps(inp).encode(), token, "text/plain")
        return "http", token, *self.http(json.dumps(inp).encode(), token)

    def close(self) -> None:
        for client in self.sockets.values():
            client.sio.disconnect()


def fuzz_server(count: int, mutants: int, rng: random.Random) -> dict:
    """Send ``count`` requests (mutants between each script's real inputs) to a real server.

    After every request the served host view must be the refold of the server's journal (so a
    refused request changed nothing and an accepted one was journaled), and every refusal
    answered to a public device and every message the TV received must name no secret of that
    state (the contract suite's check: every hidden card, role and answer)."""
    import requests

    from tests.support.server import run_server
    from tests.test_game_contract import secret_leak
    found = {"requests": 0, "accepted": 0, "refused": 0, "throttled": 0, "5xx": 0, "crashes": 0,
             "changed": 0, "public": 0, "checks": 0, "tv_messages": 0, "examples": []}
    scripts = {g: [script_inputs(p.name) for p in sorted(SCRIPTS.glob(f"{g}-*.jsonl"))] for g in GAMES}
    with tempfile.TemporaryDirectory() as tmp, run_server(Path(tmp) / "data") as srv:
        sender, mirror = _Sender(srv, rng), _Mirror(srv)
        tv_seen, recent = 0, deque(maxlen=5)   # the states after the last five requests

        def check(label, inp, token=None, error=None) -> None:
            """The state after a request against the journal's refold; public messages against it."""
            nonlocal tv_seen
            served = srv.state("host", srv.host_token)
            table = mirror.at(served["seq"])
            found["checks"] += 1
            if _comparable(served) != _comparable(table.view("host")):
                found["changed"] += 1
                found["examples"].append(("changed", label, inp))
            state = table.state
            recent.append(state)
            public_answer = error and (token in (None, "table") or token.startswith("junk-"))
            leaks = []
            if public_answer:   # the answer to this request: this state's secrets
                message = error.get("message", "")
                if state and secret_leak(state, message):
                    leaks.append((message, secret_leak(state, message)))
                if _public_leak(message, inp, table.view("table"), games.get(state["game"]).cards() if state else []):
                    leaks.append((message, "a hidden card id"))
            # what the TV received meanwhile arrives in its own time: a secret it names must have
            # stayed hidden through the recent states (so it was hidden when the message was made)
            log = sender.sockets["table"].log
            news, tv_seen = log[tv_seen:], len(log)
            found["tv_messages"] += len(news)
            for name, data in news:
                message = (data.get("text") or data.get("message") or "") if isinstance(data, dict) else ""
                named = [secret_leak(s, message) if s else None for s in recent]
                if name in ("event", "refused") and all(named):
                    leaks.append((message, named[-1]))
            found["public"] += len(leaks)
            found["examples"] += [("public", label, inp, m, leak) for m, leak in leaks]

        try:
            while found["requests"] < count:
                game_id = GAMES[found["checks"] % len(GAMES)]
                cards = games.get(game_id).cards()
                actions = sorted({b["action"] for sc in scripts[game_id] for i in sc for b in i.values()
                                  if isinstance(b, dict) and "action" in b})
                for real in rng.choice(scripts[game_id]):
                    for _ in range(mutants):
                        inp = mutate(real, rng, cards, actions)
                        channel, token, status, answer = sender.send(inp)
                        found["requests"] += 1
                        error = answer.get("error") or {}
                        if status >= 500:
                            found["5xx"] += 1
                            found["examples"].append(("5xx", channel, inp, status, error))
                        if error.get("code") == "internal_error":
                            found["crashes"] += 1
                            found["examples"].append(("crash", channel, inp, error))
                        if status == 429 or error.get("code") in ("too_many_refusals", "too_many_tries"):
                            found["throttled"] += 1
                        elif answer.get("ok"):
                            found["accepted"] += 1
                        else:
                            found["refused"] += 1
                        check(channel, inp, token, error)
                    status, answer = sender.http(json.dumps(real).encode(), srv.host_token)
                    found["requests"] += 1
                    check("script", real)
                    if not answer.get("ok") or srv.state()["over"]:
                        break   # off its script (a mutant was accepted) or over
                health = requests.get(srv.url + "/api/health", timeout=10).json()
                if any(r["status"] != "ok" for r in health["table"]):
                    found["crashes"] += 1
                    found["examples"].append(("health", health["table"]))
        finally:
            sender.close()
            mirror.close()
        if srv.proc.poll() is not None:
            found["crashes"] += 1
            found["examples"].append(("server exited", srv.proc.returncode))
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="mutated inputs per game")
    parser.add_argument("--mutants", type=int, default=3, help="mutants before each real input")
    parser.add_argument("--hypothesis", type=int, default=10_000, help="hypothesis inputs per game (0: none)")
    parser.add_argument("--requests", type=int, default=20_000, help="requests to the real server (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bad = 0
    print(f"{'game':<18}{'inputs':>9}{'refused':>9}{'crashes':>9}{'changed':>9}{'public':>8}{'inputs/s':>10}")
    for game_id in GAMES if args.inputs else ():
        start = time.perf_counter()
        found = fuzz_game(game_id, args.inputs, args.mutants, rng)
        rate = found["inputs"] / (time.perf_counter() - start)
        print(f"{game_id:<18}{found['inputs']:>9}{found['refused']:>9}{found['crashes']:>9}"
              f"{found['changed']:>9}{found['public']:>8}{rate:>10.0f}", flush=True)
        for example in found["examples"][:5]:
            print("   ", json.dumps(example, default=str)[:300])
        bad += found["crashes"] + found["changed"] + found["public"]
    for game_id in GAMES if args.hypothesis else ():
        start = time.perf_counter()
        found = hypothesis_game(game_id, args.hypothesis, args.seed)
        rate = found["inputs"] / (time.perf_counter() - start)
        print(f"hypothesis {game_id:<18}{found['inputs']:>9} inputs{found['failures']:>4} failures"
              f"{rate:>8.0f} inputs/s", flush=True)
        if found["example"]:
            print("   ", found["example"])
        bad += found["failures"]
    if args.requests:
        start = time.perf_counter()
        found = fuzz_server(args.requests, args.mutants, rng)
        rate = found["requests"] / (time.perf_counter() - start)
        print(f"\nreal server: {found['requests']} requests ({found['accepted']} accepted, {found['refused']} "
              f"refused, {found['throttled']} answered 429 by the per-device limits), {found['checks']} "
              f"state checks, {found['tv_messages']} TV messages, {rate:.0f} requests/s")
        print(f"  5xx {found['5xx']}  crashes {found['crashes']}  changed {found['changed']}  "
              f"public {found['public']}", flush=True)
        for example in found["examples"][:5]:
            print("   ", json.dumps(example, default=str)[:300])
        bad += found["5xx"] + found["crashes"] + found["changed"] + found["public"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
