"""Another site cannot drive the table from a visitor's browser (issue 11, item 7).

A ``text/plain`` or form post is refused before it is parsed (browsers send those cross-site
without asking); a request whose Host is not one of the table's own names (DNS rebinding)
or whose Origin is another site is refused, the Socket.IO handshake included; every answer
carries the security headers that stop framing and keep tokens out of Referer headers.
"""
import json

import pytest
import requests
import socketio

from tests.support.server import run_server

ADVANCE = json.dumps({"button": {"name": "advance"}})


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("cross") / "data") as server:
        assert server.post({"new_game": {"game": "tiny", "players": ["Anna"]}}).status_code == 200
        yield server


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_an_input_that_is_not_sent_as_json_is_refused_and_changes_nothing(srv, content_type):
    seq = srv.state()["seq"]
    headers = {"Authorization": f"Bearer {srv.host_token}"}
    if content_type:
        headers["Content-Type"] = content_type
    r = requests.post(srv.url + "/api/input", data=ADVANCE, headers=headers, timeout=10)
    assert r.status_code == 415 and r.json()["error"]["code"] == "bad_content_type"
    assert srv.state()["seq"] == seq


@pytest.mark.parametrize("headers, code", [
    ({"Host": "attacker.example:8000"}, "foreign_host"),
    ({"Origin": "http://attacker.example"}, "foreign_origin"),
    ({"Origin": "http://127.0.0.1:1"}, "foreign_origin"),
])
def test_a_foreign_host_or_origin_is_refused(srv, headers, code):
    seq = srv.state()["seq"]
    r = requests.post(srv.url + "/api/input", data=ADVANCE, timeout=10,
                      headers={"Authorization": f"Bearer {srv.host_token}",
                               "Content-Type": "application/json", **headers})
    assert r.status_code == 403 and r.json()["error"]["code"] == code
    assert requests.get(srv.url + "/api/state", headers=headers, timeout=10).status_code == 403
    assert srv.state()["seq"] == seq


def test_the_table_itself_as_origin_and_its_addresses_as_host_are_served(srv):
    port = srv.url.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        r = requests.get(srv.url + "/api/state", timeout=10,
                         headers={"Host": host, "Origin": f"http://{host}"})
        assert r.status_code == 200, host


def test_a_rebound_socketio_handshake_is_refused(srv):
    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(srv.url, transports=["websocket"], wait_timeout=5,
                       headers={"Host": "attacker.example", "Origin": "http://attacker.example"})
    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(srv.url, transports=["polling"], wait_timeout=5,
                       headers={"Origin": "http://attacker.example"})
    ok = srv.client("table")       # the table's own clients still connect
    ok.close()


@pytest.mark.parametrize("path", ["/", "/host", "/api/state", "/web/common.js"])
def test_pages_and_answers_carry_the_security_headers(srv, path):
    r = requests.get(srv.url + path, timeout=10)
    assert r.status_code == 200
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["Referrer-Policy"] == "no-referrer"
