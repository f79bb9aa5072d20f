"""Socket.IO rooms end to end: the real server and real python-socketio clients.

The TV (room ``table``), the host page (``host``) and two phones (``seat-1``,
``seat-2``) each get the view for their own audience; the TV never receives a
secret or a token; a seat's token opens only that seat.
"""
import json
import socket
import time

import pytest
import socketio
import websocket

from tests.support.server import run_server

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 3}}}


def tap(seat, colour):
    return {"tap": {"reader": f"seat-{seat}", "card": f"test/{colour}"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("rooms") / "data") as running:
        yield running


@pytest.fixture
def srv(server):
    """The module's server with a fresh game (so fresh seat tokens) for each test."""
    assert server.post(GAME).status_code == 200
    return server


@pytest.fixture
def clients(srv):
    """The TV, the host page and two phones."""
    opened = {"table": srv.client("table"), "host": srv.client("host", srv.host_token),
              "seat-1": srv.client("seat-1", srv.seat_token(1)),
              "seat-2": srv.client("seat-2", srv.seat_token(2))}
    yield opened
    for client in opened.values():
        if client.sio.connected:
            drop(client)


def drop(client) -> None:
    """Cut a client's connection without a goodbye, as a phone leaving the Wi-Fi does."""
    client.sio.eio.ws.sock.shutdown(socket.SHUT_RDWR)
    deadline = time.monotonic() + 5
    while client.sio.connected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not client.sio.connected


def post_ok(srv, inp) -> int:
    r = srv.post(inp)
    assert r.status_code == 200, r.text
    return r.json()["seq"]


def state_at(client, seq) -> dict:
    return client.wait_for("state", lambda v: v["seq"] == seq)


def refused_connection(url, view, token) -> dict:
    """Ask to join ``view`` with ``token`` at the protocol level; the server's refusal {code, message}.

    (A python-socketio client raises ConnectionError here, then takes seconds to tidy up;
    the raw handshake shows the same CONNECT_ERROR packet a browser gets, at once.)
    """
    ws = websocket.create_connection(url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
                                     timeout=10)
    try:
        assert ws.recv().startswith("0{")   # Engine.IO open
        ws.send("40" + json.dumps({"view": view, "token": token}))
        reply = ws.recv()
    finally:
        ws.close()
    assert reply.startswith("44"), reply    # Socket.IO CONNECT_ERROR, and no state before it
    return json.loads(reply[2:])["data"]


def test_each_client_gets_the_view_of_its_own_room(srv, clients):
    post_ok(srv, tap(1, "red"))
    seq = post_ok(srv, tap(2, "blue"))
    got = {room: state_at(client, seq) for room, client in clients.items()}
    for room, view in got.items():
        assert view["audience"] == room
        assert view["chosen"] == [1, 2] and [p["name"] for p in view["players"]] == ["Anna", "Ben"]
    assert got["seat-1"]["my_colour"] == "red"
    assert got["seat-2"]["my_colour"] == "blue"
    assert got["host"]["secrets"] == {"1": "red", "2": "blue"}
    assert "my_colour" not in got["table"] and "secrets" not in got["table"]
    assert "secrets" not in got["seat-1"] and "secrets" not in got["seat-2"]


def test_no_seat_ever_receives_another_seats_view(srv, clients):
    for inp in (tap(1, "red"), tap(2, "blue"), tap(1, "blue"), {"button": {"name": "advance"}}):
        seq = post_ok(srv, inp)
    for seat in (1, 2):
        state_at(clients[f"seat-{seat}"], seq)
        states = [data for name, data in clients[f"seat-{seat}"].log if name == "state"]
        assert len(states) >= 2
        assert {s["audience"] for s in states} == {f"seat-{seat}"}
    mine = [s["my_colour"] for name, s in clients["seat-2"].log if name == "state"]
    assert "red" not in mine   # Ben never chose red, so Anna's red never reached his phone


def test_the_tv_never_receives_a_secret_or_a_token(srv, clients):
    secrets = ['"red"', '"blue"', "secrets", "my_colour", "seat_links", "detail",
               srv.host_token, srv.seat_token(1), srv.seat_token(2)]
    assert srv.post({"button": {"name": "advance"}}).status_code == 409
    for inp in (tap(1, "red"), tap(2, "blue"), {"button": {"name": "advance"}}, tap(1, "blue"),
                {"button": {"name": "undo"}}):
        seq = post_ok(srv, inp)
    state_at(clients["table"], seq)
    kinds = {name for name, _ in clients["table"].log}
    assert kinds == {"state", "event", "refused"}
    for name, payload in clients["table"].log:
        text = json.dumps(payload)
        for secret in secrets:
            assert secret not in text, (name, payload)


def test_a_seat_token_opens_only_its_own_seat(srv):
    seat_1 = srv.seat_token(1)
    phone = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        phone.connect(srv.url, auth={"view": "seat-2", "token": seat_1}, transports=["websocket"],
                      wait_timeout=10)
    assert not phone.connected
    reason = refused_connection(srv.url, "seat-2", seat_1)
    assert reason["code"] == "seat_token_needed" and "QR code" in reason["message"]
    assert refused_connection(srv.url, "host", seat_1)["code"] == "host_token_needed"
    assert refused_connection(srv.url, "seat-1", None)["code"] == "seat_token_needed"
    assert refused_connection(srv.url, "host", "not-the-token")["code"] == "host_token_needed"
    assert refused_connection(srv.url, "host", "jeton-é")["code"] == "host_token_needed"


def test_a_seat_may_act_only_for_itself(srv, clients):
    answer = clients["seat-1"].send({"seat": {"seat": 2, "action": "ask"}})
    assert answer["ok"] is False and answer["error"]["code"] == "seat_token_needed"
    answer = clients["seat-1"].send({"seat": {"seat": 1, "action": "ask"}})   # reaches the game
    assert answer["error"] == {"code": "unknown_move", "message": "Tiny Test Game has no seat action "
                               "'ask'; seat actions: choose."}
    answer = clients["table"].send({"host": {"action": "end_game"}})
    assert answer["error"]["code"] == "host_token_needed"
    assert srv.state()["game"] == "tiny"


def test_a_client_that_reconnects_gets_a_snapshot_at_once(srv, clients):
    drop(clients["seat-1"])
    drop(clients["table"])
    post_ok(srv, tap(1, "red"))
    seq = post_ok(srv, tap(2, "red"))   # both missed while away
    phone, tv = srv.client("seat-1", srv.seat_token(1)), srv.client("table")
    first_seat, first_tv = phone.wait_for("state", timeout=5), tv.wait_for("state", timeout=5)
    assert first_seat["seq"] == seq and first_seat["my_colour"] == "red"
    assert first_tv["seq"] == seq and first_tv["chosen"] == [1, 2]
    assert first_tv == srv.state()
    assert state_at(clients["seat-2"], seq)["my_colour"] == "red"   # the others never noticed


def test_refusals_reach_the_tv_briefly_and_the_host_in_full(srv, clients):
    r = srv.post({"button": {"name": "advance"}})
    assert r.status_code == 409
    message = "Not everyone has chosen a colour yet."
    assert clients["table"].wait_for("refused") == {"code": "waiting", "message": message}
    host = clients["host"].wait_for("refused")
    assert host == {"code": "waiting", "message": message, "input": {"button": {"name": "advance"}}}
    seq = post_ok(srv, tap(1, "red"))   # the seats were not bothered with it
    for seat in ("seat-1", "seat-2"):
        state_at(clients[seat], seq)
        assert not any(name == "refused" for name, _ in clients[seat].log)


def test_an_input_over_socketio_is_answered_and_published(srv, clients):
    answer = clients["host"].send(tap(2, "blue"))
    assert answer["ok"] is True
    assert state_at(clients["seat-2"], answer["seq"])["my_colour"] == "blue"
    assert clients["table"].wait_for("event") == {"kind": "chose", "text": "Ben has chosen."}


def test_a_new_game_asks_the_phones_to_scan_again(srv, clients):
    old_token = srv.seat_token(1)
    seq = post_ok(srv, {"new_game": {"game": "tiny", "players": ["Cleo", "Dan"]}})
    for seat in ("seat-1", "seat-2"):
        assert "scan" in clients[seat].wait_for("reauth")["message"]
    assert state_at(clients["table"], seq)["players"][0]["name"] == "Cleo"
    assert state_at(clients["host"], seq)["players"][0]["name"] == "Cleo"
    # the old phones are out of the room: the new game's private views do not reach them
    post_ok(srv, tap(1, "red"))
    assert not any(name == "state" and data["seq"] >= seq for name, data in clients["seat-1"].log)
    assert refused_connection(srv.url, "seat-1", old_token)["code"] == "seat_token_needed"
    answer = clients["seat-1"].send({"seat": {"seat": 1, "action": "ask"}})   # the old phone, still connected
    assert answer["error"]["code"] == "seat_token_needed"
    assert srv.client("seat-1", srv.seat_token(1)).wait_for("state")["my_colour"] == "red"


def test_when_the_host_ends_the_game_the_phones_are_told_too(srv, clients):
    post_ok(srv, tap(1, "red"))
    seq = post_ok(srv, {"host": {"action": "end_game"}})
    for room, client in clients.items():
        view = state_at(client, seq)
        assert view["game"] is None and view["phase"] == "lobby", room
        assert view["audience"] == room and "my_colour" not in view
    seq = post_ok(srv, {"button": {"name": "undo"}})   # and back again
    assert state_at(clients["seat-1"], seq)["my_colour"] == "red"


def test_a_screen_joining_a_room_no_one_was_in_gets_the_newest_view(srv):
    """Rooms with no one in them are sent nothing; the host page and a phone that join afterwards
    get the views of the newest input at once, the host's with the devices' health."""
    tv = srv.client("table")
    try:
        post_ok(srv, tap(1, "red"))
        seq = post_ok(srv, tap(2, "blue"))
        state_at(tv, seq)
        host, phone = srv.client("host", srv.host_token), srv.client("seat-2", srv.seat_token(2))
        try:
            got_host, got_phone = state_at(host, seq), state_at(phone, seq)
        finally:
            drop(host)
            drop(phone)
    finally:
        drop(tv)
    assert got_host["secrets"] == {"1": "red", "2": "blue"} and "journal" in got_host["health"]
    assert got_phone["my_colour"] == "blue" and got_phone["chosen"] == [1, 2]
