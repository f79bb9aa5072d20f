"""Helpers for the Food for Thought tests: a table with a game on it, inputs that must
be accepted, and refusals that must leave the state exactly as it was."""
from __future__ import annotations

import copy
import json

from server.journal import Journal
from server.table import Table
from tests.support.scripts import SCRIPTS


def new_table(players, seed=1, **options) -> Table:
    """A table running Food for Thought on the sample data (never the developer's own folder)."""
    table = Table(Journal(":memory:"))
    options.setdefault("data", "sample")
    ok(table, {"new_game": {"game": "food-for-thought", "players": list(players), "seed": seed,
                            "options": options}})
    return table


def ok(table: Table, inp: dict):
    """Apply ``inp``; fail the test with the engine's message if it is refused."""
    outcome = table.handle(inp)
    assert outcome.accepted, f"refused {inp}: {outcome.error.as_dict()}"
    return outcome


def refused(table: Table, inp: dict, code: str):
    """Apply ``inp``, expect a refusal with ``code``, and check the state did not change."""
    before = copy.deepcopy(table.state)
    outcome = table.handle(inp)
    assert not outcome.accepted, f"accepted {inp} but expected {code}"
    assert outcome.error.code == code, outcome.error.as_dict()
    assert outcome.error.message and len(outcome.error.message) > 10
    assert table.state == before, "a refusal changed the state"
    return outcome.error


def seat(table: Table, n: int, action: str, **fields):
    return ok(table, {"seat": {"seat": n, "action": action, **fields}})


def host(table: Table, action: str, **fields):
    return ok(table, {"host": {"action": action, **fields}})


def player(table: Table, n: int) -> dict:
    return table.state["seats"][str(n)]


def pick_assistants(table: Table) -> None:
    """Everyone picks the first assistant the rules allow them (solo: the pattern's count)."""
    while table.state["phase"] == "assistants":
        me = table.view(f"seat-{table.state['assistant_queue'][0]}")["me"]
        choice = me["assistant"]
        ids = [c["id"] for c in choice["choices"]][:choice["pick"]]
        body = {"cards": ids} if len(table.state["players"]) == 1 else {"card": ids[0]}
        seat(table, me["seat"], "assistant", **body)


def replay(name: str) -> Table:
    """Play tests/scripts/<name> through a table; every line must be accepted."""
    table = Table(Journal(":memory:"))
    for number, line in enumerate((SCRIPTS / name).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        outcome = table.handle(json.loads(line))
        assert outcome.accepted, f"{name}:{number} refused: {outcome.error.as_dict()}"
    return table


def finish_actions(table: Table) -> None:
    """Everyone still holding markers passes (and the Pizza To Go player skips), ending the round."""
    while table.state["phase"] in ("actions", "pizza_extra") and not table.state["over"]:
        turn = table.state["turn"]
        seat(table, turn, "skip" if table.state["phase"] == "pizza_extra" else "pass")


def next_round(table: Table) -> None:
    """Finish the current round by passing and confirm the clean-up."""
    pick_assistants(table)
    finish_actions(table)
    if not table.state["over"]:
        host(table, "continue")
