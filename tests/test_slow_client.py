"""A slow client never delays the table (issue 2): a TV whose connection stops reading does not
hold up the inputs or the other screens."""
import socket

import websocket

from tests.support.server import run_server


def _stalled_table_client(url: str) -> websocket.WebSocket:
    """A Socket.IO client in the table room that never reads again, on a tiny receive buffer."""
    ws = websocket.create_connection(url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
                                     sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)], timeout=10)
    assert ws.recv().startswith("0")          # Engine.IO open
    ws.send('40{"view": "table"}')             # Socket.IO connect to the table room
    first = [ws.recv(), ws.recv()]             # the connect answer and the first state, either order
    assert any(m.startswith("40") for m in first) and any(m.startswith('42["state"') for m in first)
    return ws                                  # from here on nothing is read


def test_a_client_that_stops_reading_delays_neither_inputs_nor_other_clients(tmp_path):
    with run_server(tmp_path / "data") as srv:
        assert srv.post({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "options": {"rounds": 99}}}).ok
        stalled = _stalled_table_client(srv.url)
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
