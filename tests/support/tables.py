"""Helpers shared by the game tests: a table in memory or on disk, and inputs it must accept."""
from __future__ import annotations

from server.journal import Journal
from server.table import Table


def host(action: str, **fields) -> dict:
    return {"host": {"action": action, **fields}}


def table(tmp_path=None) -> Table:
    """A Table over a journal in ``tmp_path`` (or in memory)."""
    return Table(Journal(tmp_path / "journal.sqlite" if tmp_path else ":memory:"))


def accept(t: Table, inp: dict):
    """Apply ``inp`` and fail loudly if the table refused it."""
    outcome = t.handle(inp)
    assert outcome.accepted, (inp, outcome.as_dict())
    return outcome
