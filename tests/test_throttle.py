"""Limits per device (issue 11, items 7 and 8): repeated wrong host tokens lock that device's
tokens out for a while, and a device whose inputs keep being refused is answered 429 before its
inputs reach the table or the journal.  Other devices, the host's among them, are not slowed.

Each test speaks from its own loopback address (127.0.0.N), as separate devices would.
"""
import http.client
import json
import socket

import pytest
import socketio

from server import throttle
from tests.support.server import run_server

GAME = {"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 99}}}
#: The test server's refusal budget, small enough to reach with a few dozen inputs on any machine.
BURST, PER_SECOND = 40, 0.5


class Device:
    """HTTP from one source address."""

    def __init__(self, srv, addr: str):
        self.srv, self.addr = srv, addr

    def request(self, method: str, path: str, body=None, token: str | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=10, source_address=(self.addr, 0))
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        answer = (response.status, response.getheader("Retry-After"), json.loads(response.read() or b"null"))
        conn.close()
        return answer


def sio_from(srv, addr: str, token: str, refusals: list | None = None) -> socketio.Client:
    """A python-socketio client connecting to the host room from source address ``addr``
    (a refused connection's data is added to ``refusals``)."""
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=10, source_address=(addr, 0))
    sio = socketio.Client(reconnection=False, websocket_extra_options={"socket": sock})
    sio.on("connect_error", lambda data: (refusals if refusals is not None else []).append(data))
    sio.connect(srv.url, auth={"view": "host", "token": token}, transports=["websocket"], wait_timeout=10)
    return sio


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with run_server(tmp_path_factory.mktemp("throttle") / "data",
                    env={"TOFU_TEST_REFUSAL_BURST": str(BURST), "TOFU_TEST_REFUSALS_PER_SECOND": str(PER_SECOND)}) as server:
        assert server.post(GAME).ok
        yield server


def test_repeated_wrong_host_tokens_lock_that_device_out_but_not_the_host(srv):
    guesser, host = Device(srv, "127.0.0.2"), Device(srv, "127.0.0.3")
    for n in range(throttle.WRONG_TOKENS_ALLOWED):
        status, _, body = guesser.request("GET", "/api/state?view=host", token=f"guess-{n}")
        assert status == 403 and body["error"]["code"] == "host_token_needed"
    status, retry_after, body = guesser.request("GET", "/api/state?view=host", token="guess-x")
    assert status == 429 and body["error"]["code"] == "too_many_tries"
    assert 0 < int(retry_after) <= throttle.LOCKOUT_FIRST and f"wait {retry_after} s" in body["error"]["message"]
    # locked out, its tokens are not even compared: the right one waits too, so guessing gains nothing
    assert guesser.request("GET", "/api/state?view=host", token=srv.host_token)[0] == 429
    assert guesser.request("POST", "/api/input", {"button": {"name": "advance"}}, token="guess-y")[0] == 429
    # ... over Socket.IO too
    refusals = []
    with pytest.raises(socketio.exceptions.ConnectionError):
        sio_from(srv, "127.0.0.2", "guess-z", refusals)
    assert [r["data"]["code"] for r in refusals] == ["too_many_tries"]
    # the host at another address is served at once, and the TV (no token) at the guesser's too
    status, _, view = host.request("GET", "/api/state?view=host", token=srv.host_token)
    assert status == 200 and view["audience"] == "host"
    assert guesser.request("GET", "/api/state")[0] == 200


def test_a_seat_page_with_an_old_token_is_not_taken_for_a_guesser(srv):
    phone = Device(srv, "127.0.0.4")
    for _ in range(3 * throttle.WRONG_TOKENS_ALLOWED):
        status, _, body = phone.request("GET", "/api/state?view=seat-1", token="last-games-seat-token")
        assert status == 403 and body["error"]["code"] == "seat_token_needed"


def test_a_flood_of_refused_inputs_is_cut_off_before_the_journal_and_others_play_on(srv):
    flooder, player = Device(srv, "127.0.0.5"), Device(srv, "127.0.0.6")
    refused_before = _refusals_counted(srv)
    statuses = [flooder.request("POST", "/api/input", {"button": {"name": "no_such_button"}}, token=srv.host_token)[0]
                for _ in range(BURST + 20)]
    assert statuses[:BURST] == [409] * BURST and statuses[-1] == 429
    assert _refusals_counted(srv) - refused_before == statuses.count(409), \
        "the inputs past the budget never reached the journal"
    status, retry_after, body = flooder.request("POST", "/api/input", {"button": {"name": "no_such_button"}},
                                                token=srv.host_token)
    assert status == 429 and body["error"]["code"] == "too_many_refusals" and int(retry_after) >= 1
    sio = sio_from(srv, "127.0.0.5", srv.host_token)
    try:
        answer = sio.call("input", {"button": {"name": "advance"}}, timeout=10)
    finally:
        sio.disconnect()
    assert answer["error"]["code"] == "too_many_refusals"
    # another device plays on, and the flooder's good input waits only its Retry-After
    status, _, body = player.request("POST", "/api/input", {"tap": {"reader": "seat-1", "card": "test/red"}},
                                     token=srv.host_token)
    assert status == 200 and body["ok"]


def _refusals_counted(srv) -> int:
    status, _, journal = Device(srv, "127.0.0.1").request("GET", "/api/journal?limit=1", token=srv.host_token)
    assert status == 200
    return sum(c["count"] for c in journal["refusal_counts"])


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_lockouts_grow_up_to_the_longest_and_only_wrong_tokens_within_the_window_count():
    clock = Clock()
    limits = throttle.Throttle(clock)
    for _ in range(throttle.WRONG_TOKENS_ALLOWED - 1):
        limits.wrong_host_token("a")
    clock.now += throttle.WRONG_TOKEN_WINDOW + 1   # the first ones are too old to count with the next
    limits.wrong_host_token("a")
    assert limits.token_wait("a") == 0
    waits = []
    for _ in range(7):
        for _ in range(throttle.WRONG_TOKENS_ALLOWED):
            limits.wrong_host_token("a")
        waits.append(limits.token_wait("a"))
        clock.now += waits[-1]
    assert waits == [10, 20, 40, 80, 160, 300, 300]
    assert limits.token_wait("b") == 0


def test_the_refusal_budget_refills_over_time_and_devices_are_remembered_in_bounds(monkeypatch):
    clock = Clock()
    limits = throttle.Throttle(clock)
    for _ in range(throttle.REFUSAL_BURST):
        assert limits.refusal_wait("a") == 0
        limits.refused("a")
    assert limits.refusal_wait("a") == pytest.approx(1 / throttle.REFUSALS_PER_SECOND)
    clock.now += 1
    assert limits.refusal_wait("a") == 0
    monkeypatch.setattr(throttle, "DEVICES_REMEMBERED", 10)
    for n in range(50):
        limits.refused(f"10.0.0.{n}")
    assert len(limits._devices) == 10
