"""Helpers for the Food for Thought tests: a table with a game on it, inputs that must
be accepted, and refusals that must leave the state exactly as it was."""
from __future__ import annotations

import copy
import json

from server.journal import Journal
from server.table import Table
from tests.support.scripts import SCRIPTS


def new_table(players, seed=1, **options) -> Table:
    """A table running Food for Thought on the sample data (never the developer's own folder); a
    physical-first one has a camera feeding it, whose defaults fill the options not given (dice: camera)."""
    table = Table(Journal(":memory:"))
    if options.get("mode") == "physical":
        table.equipment = {"camera"}
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


def _sample_diet_capacity() -> tuple[int, int]:
    """Slots per kitchen column and trash spaces on the sample diet board layout (vision/data/layouts)."""
    from vision.layout import sample_layouts
    ids = [s.id for s in sample_layouts()["diet-1"].slots]
    return sum(i.startswith("kitchen.1.") for i in ids), sum(i.startswith("trash.") for i in ids)


KITCHEN_ROWS, TRASH_SPACES = _sample_diet_capacity()


def every_slot(state: dict, board: str) -> dict:
    """Every slot the camera reads on a diet board, empty: each body space of the player's own
    groups, the kitchen columns and trash as the sample layouts have them, the freezer and thaw
    areas with the Freezer module, and in the physical-first mode the four unused action marker
    spaces and the board's own action spaces (Snack, Recipes & Cook, Work Out; room for four
    markers each)."""
    from server.games.food_for_thought import rules
    p = state["seats"][board.split("-")[1]]
    slots = [f"body.{g['id']}.{n}" for g in p["groups"] for n in range(1, len(g["spaces"]) + 1)]
    slots += [f"kitchen.{c}.{r}" for c in range(1, len(p["kitchen"]) + 1) for r in range(1, KITCHEN_ROWS + 1)]
    slots += [f"trash.{n}" for n in range(1, TRASH_SPACES + 1)]
    if state["options"]["freezer"]:
        slots += [f"freezer.{n}" for n in range(1, rules.FREEZER_SPACES + 1)]
        slots += [f"thaw.{n}" for n in range(1, rules.THAW_SPACES + 1)]
    if state["options"]["mode"] == "physical":
        slots += [f"markers.{n}" for n in range(1, rules.ACTIONS_PER_ROUND + 1)]
        slots += [f"action.{space}.{n}" for space in rules.DIET_SPACES for n in range(1, rules.ACTIONS_PER_ROUND + 1)]
    return dict.fromkeys(slots)
