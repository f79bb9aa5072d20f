"""A slow client never delays the table (issue 2): a TV whose connection stops reading does not
hold up the inputs or the other screens."""
import socket
import time

import requests
import websocket

from server.backlog import BEHIND_PACKETS
from tests.support.server import run_server


def _stalled_client(url: str, view: str = "table") -> websocket.WebSocket:
    """A Socket.IO client in ``view``'s room that never reads again, on a tiny receive buffer
    (``url`` may carry a ``?token=``)."""
    base, _, query = url.partition("?")
    ws = websocket.create_connection(base.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket"
                                     + (f"&{query}" if query else ""),
                                     sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)], timeout=10)
    assert ws.recv().startswith("0")          # Engine.IO open
    ws.send('40{"view": "%s"}' % view)         # Socket.IO connect to that room
    first = [ws.recv(), ws.recv()]             # the connect answer and the first state, either order
    assert any(m.startswith("40") for m in first) and any(m.startswith('42["state"') for m in first)
    return ws                                  # from here on nothing is read


def test_a_client_that_stops_reading_delays_neither_inputs_nor_other_clients(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 99}}}).ok
        stalled = _stalled_client(srv.url)
        quick = srv.client("table")
        try:
            seqs = []
            for n in range(400):   # far more state than the stalled socket's buffers hold
                r = srv.post({"tap": {"reader": f"seat-{1 + n % 2}", "card": f"test/{('red', 'blue')[n % 2]}"}})
                assert r.ok, r.text
                seqs.append(r.json()["seq"])
            assert seqs == sorted(seqs) and len(set(seqs)) == 400, "every input applied once, in order"
            last = quick.wait_for("state", lambda v: v["seq"] == seqs[-1], timeout=10)
            assert last["chosen"] == [1, 2]
            assert srv.state()["seq"] == seqs[-1]
        finally:
            srv.kill()   # quicker than python-socketio's clean disconnect
            stalled.close()


def _rss_kib(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _screens(srv) -> dict:
    """The server's health record of its screens (dropped, peak_waiting)."""
    return requests.get(srv.url + "/api/health", timeout=10).json()["screens"][0]


def _closed_by_the_server(ws: websocket.WebSocket, timeout: float) -> bool:
    """Read what the server had sent until it closes the connection (False if it stays open)."""
    ws.settimeout(timeout)
    try:
        while True:
            if not ws.recv():
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        return True
    except websocket.WebSocketTimeoutException:
        return False


def test_stalled_host_connections_are_dropped_and_memory_stays_bounded(tmp_path):
    """Issue 11, item 9: three host connections that never read used to make the server queue every
    state for them (19.6 MB in 90 s).  Now a client that falls behind gets only the newest state, and
    one that stays behind is dropped; the other screens keep getting every view.  The camera is off:
    the synthetic camera's pictures and drawn boards come and go by several MiB (the bigger diet
    boards' more), which is not what this measures."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "config.toml").write_text('[camera]\nsource = "off"\n')
    with run_server(tmp_path / "data") as srv:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 99}}}).ok
        url = srv.url + f"?token={srv.host_token}"
        stalled = [_stalled_client(url, "host") for _ in range(3)]
        quick = srv.client("table")
        try:
            for n in range(400):   # warm up the server's allocations before measuring (after 50 they still grew
                                   # 5-13 MiB by 1,300 inputs, and no more by 2,300: a level, not a pile-up)
                assert srv.post({"tap": {"reader": "seat-1", "card": "test/red"}}).ok
            rss_before = _rss_kib(srv.proc.pid)
            seqs = []

            def tap():
                n = len(seqs)
                r = srv.post({"tap": {"reader": f"seat-{1 + n % 2}", "card": f"test/{('red', 'blue')[n % 2]}"}})
                assert r.ok, r.text
                seqs.append(r.json()["seq"])
            while _screens(srv)["peak_waiting"] <= BEHIND_PACKETS:   # until the kernel's buffers are full
                assert len(seqs) < 8000, "the stalled connections never fell behind"
                for _ in range(100):
                    tap()
            for _ in range(300):   # more states while they are behind: none of them may pile up
                tap()
            quick.wait_for("state", lambda v: v["seq"] == seqs[-1], timeout=20)
            growth_mib = (_rss_kib(srv.proc.pid) - rss_before) / 1024
            assert growth_mib < 8, f"the server grew {growth_mib:.1f} MiB for three stalled clients"
            # a state and its events go out after the check: a few packets over the mark at most
            assert _screens(srv)["peak_waiting"] <= BEHIND_PACKETS + 4
            deadline = time.monotonic() + 30
            while _screens(srv)["dropped"] < 3:
                assert time.monotonic() < deadline, "the stalled connections were never dropped"
                time.sleep(0.2)
            assert all(_closed_by_the_server(ws, 10) for ws in stalled)
            r = srv.post({"tap": {"reader": "seat-1", "card": "test/red"}})
            quick.wait_for("state", lambda v: v["seq"] == r.json()["seq"], timeout=10)
        finally:
            srv.kill()
            for ws in stalled:
                ws.close()
