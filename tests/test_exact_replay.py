"""A refold replays the game exactly, or stops and says why (issue 11, item 13).

Food for Thought's setup reads the owner's card files; an undo or a restart used to run it
again on whatever the files held by then: after one recipe was added on the entry form, an
undo of an unrelated input left one recipe in the piles instead of sixteen, both players lost
their recipes, and two live inputs were dropped with only a log line.  Now the ``new_game``
row names a snapshot of the data (stored once in the journal, by its sha256), and a refold
that meets a live input it cannot apply halts the table and tells the host which one.
"""
import json
import sqlite3

import pytest
import requests

from server.games.food_for_thought import data
from server.journal import Journal
from server.table import HALTED_PROMPT, Table
from tests.support.browser import browser, screenshot
from tests.support.scripts import script_inputs
from tests.support.server import run_server

#: The 2-player script's opening on the owner's data (the owner's folder starts empty, so it is
#: the sample set until a card is entered): two assistant picks, a shop, a buy, a pizza.
OPENING = script_inputs("food-for-thought-2p-basic.jsonl")[:6]
OPENING[0] = {"new_game": {**OPENING[0]["new_game"], "options": {}}}
NEW_RECIPE = {"id": "owner-soup", "name": "Owner's Soup", "needs": ["veg", "water"], "vp": 2, "penalty": 1, "module": "base", "solo": True}
AUDIENCES = ("table", "host", "seat-1", "seat-2")


@pytest.fixture
def owner(tmp_path, monkeypatch):
    """The owner's data folder, empty (the sample set is used) until a card is entered."""
    monkeypatch.setattr(data, "_configured_owner_dir", None)
    data.configure(tmp_path)
    return tmp_path / data.OWNER_SUBDIR


def _views(table: Table) -> dict:
    return {a: table.view(a) for a in AUDIENCES}


def test_undo_and_restart_set_the_game_up_from_the_data_it_started_with(owner, tmp_path):
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    for inp in OPENING[:-1]:
        assert table.handle(inp).accepted, inp
    before = _views(table)
    assert len(sum(table.state["recipe_piles"], [])) == 16
    data.append_record("recipes", NEW_RECIPE)          # the host enters a recipe meanwhile
    data.mark_complete("recipes")                       # ... and marks the recipes complete
    assert table.handle(OPENING[-1]).accepted           # Ben's pizza, unrelated to the recipes
    assert table.handle({"host": {"action": "undo"}}).accepted
    assert _views(table) == before, "the undo refolded the game from the changed files"
    table.journal.close()
    restarted = Table(Journal(path))
    assert restarted.halted is None
    assert _views(restarted) == before
    # the journal keeps the data once, named by the new_game row
    with sqlite3.connect(path) as db:
        (row,), = db.execute("SELECT input FROM inputs ORDER BY id LIMIT 1").fetchall()
        ref = json.loads(row)["new_game"]["data"]
        blobs = db.execute("SELECT sha256 FROM blobs").fetchall()
    assert blobs == [(ref,)]
    # a new game takes the new data
    assert restarted.handle(OPENING[0]).accepted
    assert "owner-soup" in sum(restarted.state["recipe_piles"], [])


def test_a_client_cannot_name_a_snapshot_of_its_own(owner, tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite"))
    forged = {"new_game": {**OPENING[0]["new_game"], "data": "0" * 64}}
    outcome = table.handle(forged)
    assert not outcome.accepted and outcome.error.code == "bad_input" and "'data'" in outcome.error.message
    assert table.state is None


@pytest.fixture
def broken_journal(tmp_path):
    """A tiny game whose second row no longer applies (a card this version does not have), as a
    journal written by another version of the rules would hold."""
    journal = Journal(tmp_path / "journal.sqlite")
    journal.append({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 3, "options": {"rounds": 3}}})
    journal.append({"tap": {"reader": "seat-1", "card": "test/green"}})
    journal.append({"tap": {"reader": "seat-2", "card": "test/red"}})
    return journal


def test_a_refold_that_meets_an_input_it_cannot_apply_halts_and_names_it(broken_journal):
    table = Table(broken_journal)
    assert table.halted["row"] == 2 and table.halted["input"]["tap"]["card"] == "test/green"
    assert [row for row, _ in broken_journal.live()] == [1, 2, 3], "no live input was dropped"
    health, = table.health()
    assert health["status"] == "halted" and "row 2" in health["detail"]
    assert all(table.view(a)["prompt"] == HALTED_PROMPT for a in AUDIENCES)
    assert table.view("host")["halted"]["row"] == 2 and "halted" not in table.view("table")
    outcome = table.handle({"tap": {"reader": "seat-1", "card": "test/blue"}})
    assert not outcome.accepted and outcome.error.code == "halted"
    assert "test/green" in outcome.error.as_dict("host")["detail"]
    assert "green" not in json.dumps(outcome.error.as_dict("table")), "the TV gets no detail"
    assert [row for row, _ in broken_journal.live()] == [1, 2, 3]


def test_the_host_skips_the_input_that_no_longer_applies_and_the_table_goes_on(broken_journal):
    table = Table(broken_journal)
    assert table.handle({"host": {"action": "skip_input"}}).accepted
    assert table.halted is None and table.health()[0]["status"] == "ok"
    assert [row for row, _ in broken_journal.live()] == [1, 3], "only the row the host skipped is gone"
    assert table.state["secrets"] == {"2": "red"}, "the rows after it apply again"
    assert table.handle({"tap": {"reader": "seat-1", "card": "test/blue"}}).accepted
    outcome = table.handle({"host": {"action": "skip_input"}})
    assert not outcome.accepted and outcome.error.code == "not_now"


def test_a_new_game_ends_the_halt(broken_journal):
    table = Table(broken_journal)
    assert table.handle({"new_game": {"game": "tiny", "players": ["Cleo", "Dan"], "options": {}}}).accepted
    assert table.halted is None and table.view("table")["prompt"] != HALTED_PROMPT


def test_through_the_server_a_recipe_entered_mid_game_changes_nothing_on_undo(tmp_path):
    """The issue's scenario on the real server: enter a recipe on the host's form, undo an
    unrelated input: the piles and the players' recipes are as before, and nothing halts."""
    with run_server(tmp_path / "data") as srv:
        for inp in OPENING[:-1]:
            assert srv.post(inp).ok, inp
        token = srv.host_token
        before = {a: srv.engine_view(a, token) for a in AUDIENCES}
        r = requests.post(srv.url + "/api/food-for-thought/cards", json={"kind": "recipes", "record": NEW_RECIPE},
                          headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert r.ok, r.text
        assert srv.post(OPENING[-1]).ok
        assert srv.post({"host": {"action": "undo"}}).ok
        assert {a: srv.engine_view(a, token) for a in AUDIENCES} == before
        health = requests.get(srv.url + "/api/health", timeout=10).json()
        assert health["ok"], health


def test_the_host_page_and_the_tv_show_the_halt_and_the_host_skips_the_input(tmp_path):
    broken = Journal(tmp_path / "data" / "journal.sqlite")
    broken.append({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 3, "options": {"rounds": 3}}})
    broken.append({"tap": {"reader": "seat-1", "card": "test/green"}})
    broken.close()
    with run_server(tmp_path / "data") as srv, browser() as b:
        health = requests.get(srv.url + "/api/health", timeout=10).json()
        assert not health["ok"] and any(r["status"] == "halted" for r in health["table"])
        tv = b.new_page(viewport={"width": 1280, "height": 720})
        tv.goto(srv.url + "/")
        tv.get_by_text(HALTED_PROMPT).first.wait_for()
        screenshot(tv, "halted-tv-1280x720")
        host = b.new_page(viewport={"width": 390, "height": 844})
        errors = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{srv.url}/host?token={srv.host_token}")
        host.locator("#halted").wait_for()
        assert "test/green" in host.locator("#halted").inner_text()
        screenshot(host, "halted-host-390x844")
        host.click("#skip-input")
        host.locator("#halted").wait_for(state="hidden")
        assert srv.state()["prompt"] != HALTED_PROMPT
        assert errors == []
