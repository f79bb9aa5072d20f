"""An answer about an input is the truth, and a retry never applies an input twice.

"busy" means the input was withdrawn and NOT applied; an input still being applied when
the answer is due is answered "queued" with a key to ask again; an input sent again with
the same idempotency key (HTTP ``Idempotency-Key`` header, Socket.IO ``{"input", "key"}``)
is applied once and the retry learns that first outcome, across a restart too.
"""
import threading

import pytest
import requests

from server import games, table as table_module
from server.journal import Journal
from server.table import Table
from tests.support import faulty_game
from tests.support.server import run_server

games.register(faulty_game.GAME)

NEW_GAME = {"new_game": {"game": "faulty", "players": ["Anna", "Ben"], "seed": 1}}
COUNT = {"host": {"action": "count"}}


@pytest.fixture
def held_table(tmp_path):
    """A running table whose applying thread can be held inside an input (by a listener)."""
    table = Table(Journal(tmp_path / "journal.sqlite"))
    release, holding = threading.Event(), threading.Event()

    def hold(outcome, inp):
        if inp == COUNT and not release.is_set():
            holding.set()
            release.wait(30)
    table.listeners.append(hold)
    table.start()
    assert table.submit(NEW_GAME).accepted
    table.release, table.holding = release, holding
    yield table
    release.set()
    table.stop()
    table.journal.close()


def test_busy_means_the_input_was_not_applied(held_table):
    first = threading.Thread(target=held_table.submit, args=(COUNT,))
    first.start()
    assert held_table.holding.wait(10)
    busy = held_table.submit({"host": {"action": "count"}, }, timeout=0.2, key="second-count")
    assert not busy.accepted and busy.error.code == "busy" and "NOT applied" in busy.error.message
    held_table.release.set()
    first.join(10)
    assert held_table.ping(10)                         # the queue has drained
    assert held_table.view("table")["count"] == 1      # the "busy" one never ran
    retry = held_table.submit(COUNT, key="second-count")   # sent again as told: applied now, once
    assert retry.accepted and not retry.duplicate and held_table.view("table")["count"] == 2


def test_an_input_already_being_applied_is_answered_queued_and_the_key_learns_its_outcome(
        held_table, monkeypatch):
    monkeypatch.setattr(table_module, "APPLY_WAIT", 0.2)
    answer = held_table.submit(COUNT, timeout=0.2)     # taken by the thread, then held there
    assert not answer.accepted and answer.error.code == "queued" and answer.key
    held_table.release.set()
    again = held_table.submit(COUNT, key=answer.key)
    assert again.accepted and again.duplicate
    assert held_table.view("table")["count"] == 1


def test_the_same_key_twice_applies_once_even_after_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    table.start()
    assert table.submit(NEW_GAME).accepted
    first = table.submit(COUNT, key="phone-7f3a-0001")
    second = table.submit(COUNT, key="phone-7f3a-0001")
    assert first.accepted and second.accepted and second.duplicate and second.seq == first.seq
    table.stop()
    table.journal.close()
    restarted = Table(Journal(path))
    restarted.start()
    third = restarted.submit(COUNT, key="phone-7f3a-0001")
    assert third.accepted and third.duplicate and third.seq == first.seq
    assert restarted.view("table")["count"] == 1
    restarted.stop()
    restarted.journal.close()


def test_over_http_and_socketio_a_retried_key_applies_once(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post(NEW_GAME).status_code == 200
        headers = {"Authorization": f"Bearer {srv.host_token}", "Idempotency-Key": "host-page-0001"}
        answers = [requests.post(srv.url + "/api/input", json=COUNT, headers=headers, timeout=10)
                   for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 200]
        assert [a.json().get("duplicate", False) for a in answers] == [False, True, True]
        assert len({a.json()["seq"] for a in answers}) == 1
        sio = srv.client("host", srv.host_token)
        try:
            sent = [sio.send({"input": COUNT, "key": "socket-key-0001"}) for _ in range(2)]
            assert sent[0]["ok"] and sent[1]["ok"] and sent[1]["duplicate"] and sent[0]["seq"] == sent[1]["seq"]
            bad = sio.send({"input": COUNT, "key": "x"})
            assert not bad["ok"] and bad["error"]["code"] == "bad_key"
        finally:
            sio.close()
        assert srv.state()["count"] == 2
        bad = requests.post(srv.url + "/api/input", json=COUNT, timeout=10,
                            headers={**headers, "Idempotency-Key": "no spaces allowed"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_key"

