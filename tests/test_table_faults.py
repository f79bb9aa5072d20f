"""A fault inside a game's rules program never stops the table.

The faulty test game (tests/support/faulty_game.py) raises a TypeError on a host
``crash``, the way an engine bug does.  The table refuses that one input as
``internal_error``, lists it for the host with the input, reports itself degraded in
the health records, and goes on applying every later input.
"""
import requests

from server import games
from server.journal import Journal
from server.table import Table
from tests.support import faulty_game
from tests.support.server import run_server

games.register(faulty_game.GAME)

NEW_GAME = {"new_game": {"game": "faulty", "players": ["Anna", "Ben"], "seed": 1}}
COUNT = {"host": {"action": "count"}}
CRASH = {"host": {"action": "crash"}}


def test_an_engine_fault_is_refused_and_the_applying_thread_carries_on(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite"))
    table.start()
    try:
        assert table.submit(NEW_GAME).accepted and table.submit(COUNT).accepted
        before = table.view("host")
        outcome = table.submit(CRASH, source="http")
        assert not outcome.accepted and outcome.error.code == "internal_error"
        assert table.view("host") == before                      # the half-applied change is gone
        assert "TypeError" not in outcome.error.as_dict("table")["message"]
        assert "TypeError" in outcome.error.as_dict("host")["detail"]
        listed = table.journal.recent()["refusals"][0]
        assert (listed["code"], listed["source"]) == ("internal_error", "http")
        assert '"crash"' in listed["input"] and "TypeError" in listed["detail"] and "TypeError" not in listed["message"]
        assert table.health()[0]["status"] == "degraded"
        assert table.submit(COUNT).accepted                       # still applying, in order
        assert table.view("table")["count"] == 2
        assert table.ping(5)
    finally:
        table.stop()
        table.journal.close()


def test_over_http_the_fault_answers_internal_error_and_health_says_degraded(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post(NEW_GAME).status_code == 200
        health = requests.get(srv.url + "/api/health", timeout=10).json()
        assert health["ok"] and health["table"][0]["status"] == "ok"
        r = srv.post(CRASH)
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"
        health = requests.get(srv.url + "/api/health", timeout=10).json()
        assert not health["ok"] and health["table"][0]["status"] == "degraded"
        r = srv.post(COUNT, timeout=5)                            # answered at once, not "busy"
        assert r.status_code == 200, r.text
        assert srv.state()["count"] == 1
        assert "Traceback" in "".join(srv.output) and "'action': 'crash'" in "".join(srv.output)
