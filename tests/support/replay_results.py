"""What every replay script under tests/scripts gives: which inputs were applied, taken quietly or refused, the final
scores and the winners.  ``tests/scripts/replay-results.json`` holds these results as recorded
before the engines moved to declared moves; the replay-equivalence test compares against it.

Regenerate (only when a script or a rule deliberately changes)::

    .venv/bin/python -m tests.support.replay_results > tests/scripts/replay-results.json
"""
from __future__ import annotations

import json

from server.journal import Journal
from server.table import Table
from tests.support.scripts import SCRIPTS, script_inputs

RESULTS = SCRIPTS / "replay-results.json"


def replay_result(name: str) -> dict:
    """Replay script ``name`` headless; each input applied, quiet or refused, then scores and winners."""
    table = Table(Journal(":memory:"))
    outcomes = [table.handle(inp, source="replay") for inp in script_inputs(name)]
    view = table.view("table")
    return {"outcomes": ["quiet" if o.quiet else "applied" if o.accepted else "refused" for o in outcomes],
            "scores": {p["name"]: p["score"] for p in view["players"]},
            "winners": list(view["winners"]), "over": view["over"]}


def all_results() -> dict:
    """``replay_result`` of every script in tests/scripts, by file name."""
    return {path.name: replay_result(path.name) for path in sorted(SCRIPTS.glob("*.jsonl"))}


if __name__ == "__main__":
    print(json.dumps(all_results(), indent=1, sort_keys=True))
