"""Joining the table on the real server: who may see the codes, remembered phones, paired TVs.

Issue 11 item 5: a seat's code (and the join and host codes) goes only to the host and
to displays the host paired.  Issue 16: a phone that joined stays joined across games
and restarts until the host forgets it.
"""
import sqlite3

import pytest
import requests

from tests.support.server import run_server
from tests.test_http_api import scan

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 3}}}
CODES = ["/qr/seat/1.svg", "/qr/join.svg", "/qr/host.svg"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("joining") / "data") as running:
        yield running


@pytest.fixture
def srv(server):
    assert server.post(GAME).status_code == 200
    return server


def call(srv, method: str, path: str, token: str | None = None, headers=(), **kwargs) -> requests.Response:
    headers = {**dict(headers), **({"Authorization": f"Bearer {token}"} if token else {})}
    return requests.request(method, srv.url + path, headers=headers, timeout=10, **kwargs)


def pair_display(srv) -> str:
    """Pair a TV as the host would: the TV asks, the host types its code, the TV collects its token."""
    asked = call(srv, "POST", "/api/displays/request", json={}).json()
    assert call(srv, "GET", f"/api/displays/request/{asked['request']}").json() == {"paired": False}
    r = call(srv, "POST", "/api/displays/pair", srv.host_token, json={"code": asked["code"], "label": "Lounge"})
    assert r.status_code == 200, r.text
    collected = call(srv, "GET", f"/api/displays/request/{asked['request']}").json()
    assert collected["paired"] is True
    # the token is handed out once: a second poll learns nothing
    assert call(srv, "GET", f"/api/displays/request/{asked['request']}").status_code == 404
    return collected["token"]


def join_with_code(srv) -> str:
    code = call(srv, "GET", "/api/join", srv.host_token).json()["code"]
    r = call(srv, "POST", "/api/devices/join", json={"code": code})
    assert r.status_code == 200, r.text
    return r.json()["token"]


# ----- issue 11 item 5: the codes are not public ------------------------------------------

def test_a_screen_nobody_paired_learns_it_shows_no_codes(srv):
    for token in (None, "not-a-token", srv.seat_token(1), join_with_code(srv)):
        r = call(srv, "GET", "/api/join", token)
        assert r.status_code == 200 and r.json()["paired"] is False, (token, r.text)
        assert "code" not in r.json() and "qr" not in r.json() and "seat_qr" not in r.json()
    assert call(srv, "GET", "/api/join", srv.host_token).json()["paired"] is True


@pytest.mark.parametrize("path", CODES)
def test_codes_are_refused_without_the_host_or_a_paired_displays_token(srv, path):
    for token in (None, "not-a-token", srv.seat_token(1), join_with_code(srv)):
        r = call(srv, "GET", path, token)
        assert r.status_code == 403, (path, token, r.text)
        assert r.json()["error"]["code"] == "display_token_needed"
        assert "pair" in r.json()["error"]["message"]


@pytest.mark.parametrize("path", CODES)
def test_the_host_and_a_paired_display_get_the_codes(srv, path):
    display = pair_display(srv)
    for token in (srv.host_token, display):
        assert call(srv, "GET", path, token).status_code == 200, (path, token)


def test_a_seat_code_scans_to_the_join_page_with_that_seats_token(srv):
    url = scan(call(srv, "GET", "/qr/seat/2.svg", srv.host_token).text)
    assert url.startswith(f"{srv.url}/join?token=")
    token = url.split("token=")[1]
    assert srv.state("seat-2", token)["audience"] == "seat-2"


def test_the_join_code_and_host_code_scan_to_their_pages(srv):
    info = call(srv, "GET", "/api/join", srv.host_token).json()
    assert scan(call(srv, "GET", "/qr/join.svg", srv.host_token).text) == info["url"]
    assert info["url"] == f"{srv.url}/join?code={info['code']}" and len(info["code"]) == 6
    assert scan(call(srv, "GET", "/qr/host.svg", srv.host_token).text).startswith(f"{srv.url}/host/code#")


def test_the_host_code_opens_the_host_page_once_even_across_a_restart(tmp_path):
    """A host code left on the lobby TV gave host rights to anyone in the room who scanned it: it
    now works once, and stays used through a power cut until the host shows a new one."""
    with run_server(tmp_path / "data") as srv:
        info = call(srv, "GET", "/api/join", srv.host_token).json()
        url = scan(call(srv, "GET", info["host_qr"], srv.host_token).text)
        code = url.split("#", 1)[1]
        assert url == f"{srv.url}/host/code#{code}" and srv.host_token not in url
        assert call(srv, "GET", "/host/code").status_code == 200
        first = call(srv, "POST", "/api/host/code/use", json={"code": code})
        assert first.status_code == 200 and first.json() == {"token": srv.host_token}
        second = call(srv, "POST", "/api/host/code/use", json={"code": code})
        assert second.status_code == 403 and second.json()["error"]["code"] == "bad_host_code"
        assert srv.host_token not in second.text and "ask the host" in second.json()["error"]["message"]
        assert call(srv, "GET", "/api/join", srv.host_token).json()["host_qr"] is None
        assert call(srv, "GET", "/qr/host.svg", srv.host_token).json()["error"]["code"] == "host_code_used"

        srv.kill()
        srv.start()
        assert call(srv, "GET", "/api/join", srv.host_token).json()["host_qr"] is None
        assert call(srv, "POST", "/api/host/code/use", json={"code": code}).status_code == 403
        renew = call(srv, "POST", "/api/host/code/renew", pair_display(srv))
        assert renew.status_code == 403 and renew.json()["error"]["code"] == "host_token_needed"

        assert call(srv, "POST", "/api/host/code/renew", srv.host_token).json() == {"ok": True}
        fresh = scan(call(srv, "GET", "/qr/host.svg", srv.host_token).text).split("#", 1)[1]
        assert fresh != code
        for bad in (None, 7, "", "é", code):
            assert call(srv, "POST", "/api/host/code/use", json={"code": bad}).status_code == 403
        assert call(srv, "POST", "/api/host/code/use", json={"code": fresh}).json() == {"token": srv.host_token}


def test_a_forgotten_display_loses_the_codes_at_once(srv):
    display = pair_display(srv)
    listed = call(srv, "GET", "/api/devices", srv.host_token).json()["devices"]
    lounge = [d for d in listed if d["kind"] == "display" and d["label"] == "Lounge"][-1]
    assert call(srv, "POST", f"/api/devices/{lounge['id']}/forget", srv.host_token).status_code == 200
    assert call(srv, "GET", "/qr/seat/1.svg", display).status_code == 403


def test_pairing_needs_the_host_and_a_code_that_a_screen_shows(srv):
    asked = call(srv, "POST", "/api/displays/request", json={}).json()
    r = call(srv, "POST", "/api/displays/pair", json={"code": asked["code"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "host_token_needed"
    wrong = "000000" if asked["code"] != "000000" else "111111"
    r = call(srv, "POST", "/api/displays/pair", srv.host_token, json={"code": wrong})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_pairing"
    assert call(srv, "GET", f"/api/displays/request/{asked['request']}").json() == {"paired": False}
    # a refused pairing leaves no display behind
    assert all(d["kind"] == "phone" or d["label"] == "Lounge"
               for d in call(srv, "GET", "/api/devices", srv.host_token).json()["devices"])


def test_the_local_display_flag_lets_the_pis_own_screen_show_the_codes(tmp_path):
    with run_server(tmp_path / "data", extra_args=["--local-display"]) as local:
        assert local.post(GAME).status_code == 200
        for path in CODES:   # the test talks to the server over 127.0.0.1, as the kiosk does
            assert call(local, "GET", path).status_code == 200, path
        # what a proxy forwards is not the local screen
        r = call(local, "GET", "/qr/seat/1.svg", headers={"X-Forwarded-For": "192.0.2.7"})
        assert r.status_code == 403


# ----- phones that stay joined ---------------------------------------------------------------

def test_a_wrong_join_code_is_refused_and_remembers_nothing(srv):
    before = call(srv, "GET", "/api/devices", srv.host_token).json()["devices"]
    r = call(srv, "POST", "/api/devices/join", json={"code": "NOPE42"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_join_code"
    assert "TV" in r.json()["error"]["message"]
    assert call(srv, "GET", "/api/devices", srv.host_token).json()["devices"] == before


def test_a_renewed_join_code_replaces_the_old_one(srv):
    old = call(srv, "GET", "/api/join", srv.host_token).json()["code"]
    assert call(srv, "POST", "/api/join/renew").status_code == 403
    new = call(srv, "POST", "/api/join/renew", srv.host_token).json()["code"]
    assert new != old
    assert call(srv, "POST", "/api/devices/join", json={"code": old}).status_code == 403
    assert call(srv, "POST", "/api/devices/join", json={"code": new.lower()}).status_code == 200


def test_a_phone_picks_a_player_of_the_running_game(srv):
    phone = join_with_code(srv)
    r = call(srv, "POST", "/api/devices/me", phone, json={"player": "Zed", "seat": None})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_in_game"
    assert "Anna" in r.json()["error"]["message"]
    for bad in ({"player": ""}, {"player": "x" * 25}, {"player": "Ben", "seat": 9}, {"player": "Ben", "seat": True}):
        assert call(srv, "POST", "/api/devices/me", phone, json=bad).status_code == 400, bad
    r = call(srv, "POST", "/api/devices/me", phone, json={"player": "ben", "seat": None})
    assert r.status_code == 200 and r.json()["seat"] == 2
    assert srv.state("seat", phone)["audience"] == "seat-2"
    # the phone now acts for Ben's seat, and only for it
    assert srv.post({"seat": {"seat": 2, "action": "ask"}}, token=phone).status_code == 409   # the rules, not the token
    assert srv.post({"seat": {"seat": 1, "action": "ask"}}, token=phone).status_code == 403


def test_a_phone_stays_joined_through_new_games_without_rescanning(srv):
    seat_code = scan(call(srv, "GET", "/qr/seat/1.svg", srv.host_token).text).split("token=")[1]
    phone = call(srv, "POST", "/api/devices/join", seat_code, json={}).json()
    assert phone["device"]["player"] == "Anna" and phone["seat"] == 1
    client = srv.client("seat", phone["token"])
    try:
        assert client.wait_for("state")["audience"] == "seat-1"
        # the next game seats Anna at seat 3: the open page follows her there, and is not asked to rescan
        r = srv.post({"new_game": {"game": "tiny", "players": ["Cleo", "Ben", "Anna"]}})
        seq = r.json()["seq"]
        view = client.wait_for("state", lambda v: v["seq"] >= seq and v["audience"] == "seat-3")
        assert view["players"][2]["name"] == "Anna"
        srv.post({"tap": {"reader": "seat-3", "card": "test/blue"}})
        assert client.wait_for("state", lambda v: v.get("my_colour") == "blue")["audience"] == "seat-3"
        assert not any(name == "reauth" for name, _ in client.log)
        # a game without Anna: the phone sees the table, not someone else's seat
        seq = srv.post({"new_game": {"game": "tiny", "players": ["Cleo", "Ben"]}}).json()["seq"]
        assert client.wait_for("state", lambda v: v["seq"] >= seq)["audience"] == "table"
        assert srv.post({"seat": {"seat": 1, "action": "ask"}}, token=phone["token"]).status_code == 403
    finally:
        client.close()


def test_a_phone_is_remembered_across_restarts_until_the_host_forgets_it(tmp_path):
    data = tmp_path / "data"
    with run_server(data) as first:
        first.post(GAME)
        phone = join_with_code(first)
        call(first, "POST", "/api/devices/me", phone, json={"player": "Ben", "seat": 2})
    stored = sqlite3.connect(data / "devices.sqlite").execute("SELECT token_hash, player FROM devices").fetchall()
    assert [p for _, p in stored] == ["Ben"] and phone not in repr(stored)   # only the token's hash is kept
    with run_server(data) as evening:   # another evening: the same phone, no scanning
        assert evening.state("seat", phone)["audience"] == "seat-2"
        me = call(evening, "GET", "/api/devices/me", phone).json()
        assert me["device"]["player"] == "Ben" and me["seat"] == 2
        client = evening.client("seat", phone)
        try:
            client.wait_for("state", lambda v: v["audience"] == "seat-2")
            assert call(evening, "POST", f"/api/devices/{me['device']['id']}/forget").status_code == 403
            assert call(evening, "POST", f"/api/devices/{me['device']['id']}/forget",
                        evening.host_token).status_code == 200
            # the open page leaves Ben's seat at once; the token opens nothing any more
            client.wait_for("state", lambda v: v["audience"] == "table")
            assert evening.state("seat", phone)["audience"] == "table"
            assert call(evening, "GET", "/api/devices/me", phone).status_code == 403
            assert evening.post({"seat": {"seat": 2, "action": "ask"}}, token=phone).status_code == 403
        finally:
            client.close()


def test_the_host_sees_the_remembered_phones_and_only_the_host(srv):
    phone = join_with_code(srv)
    call(srv, "POST", "/api/devices/me", phone, json={"player": "Anna", "seat": 1})
    assert call(srv, "GET", "/api/devices", phone).status_code == 403
    listed = call(srv, "GET", "/api/devices", srv.host_token).json()["devices"]
    assert any(d["kind"] == "phone" and d["player"] == "Anna" for d in listed)
    assert all("token" not in d and "token_hash" not in d for d in listed)
