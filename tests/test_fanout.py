"""server/fanout.py hooks Engine.IO's own driver table (issue 20): it must take effect on the
Engine.IO this project installs, and a changed Engine.IO must leave the server working as before."""
import logging
import socket
import struct
import threading
import time
from types import SimpleNamespace

import engineio
from engineio import packet

from server import fanout


def test_the_installed_engineio_writes_every_websocket_through_the_one_writer():
    eio = engineio.Server(async_mode="threading")
    assert isinstance(fanout.install(eio), fanout.Fanout)
    assert eio._async["websocket"] is fanout.FanoutWebSocket
    assert isinstance(eio._async["queue"](), fanout.FanoutQueue)


def test_a_driver_table_it_does_not_know_is_left_as_it_is_and_said(caplog):
    unknown = SimpleNamespace(async_mode="threading", _async={"thread": object})
    with caplog.at_level(logging.WARNING, logger="server.fanout"):
        assert fanout.install(unknown) is None
    assert unknown._async == {"thread": object}
    assert "each screen keeps a writer thread of its own" in caplog.text


def _tcp_pair(sndbuf: int | None = None) -> tuple[socket.socket, socket.socket]:
    """A connected pair over loopback: (the server's end, the screen's end)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        screen = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    if sndbuf:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    return server, screen


def _connection(sock: socket.socket, fail_at: int | None = None) -> fanout._Connection:
    """A fanout connection on ``sock`` whose frames are the packets' text, one a line; its framing fails
    from packet ``fail_at`` on (a fault of the writer's own, not of the socket)."""
    def frame(event):
        if fail_at is not None and event.data.startswith(f"4{fail_at}:"):
            raise RuntimeError("framing failed")
        return (event.data + "\n").encode()
    return fanout._Connection(SimpleNamespace(ws=SimpleNamespace(send=frame), sock=sock))


def _read_lines(sock: socket.socket, count: int, out: list) -> None:
    buf = b""
    sock.settimeout(20)
    while len(out) < count:
        data = sock.recv(65536)
        if not data:
            return
        buf += data
        *lines, buf = buf.split(b"\n")
        out.extend(line.decode() for line in lines)


def _wait(condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_screen_that_dies_mid_send_or_fails_stops_neither_the_writer_nor_the_other_screens(caplog):
    """Issue 20: one thread writes every screen, so one screen's fault must stay its own.  A screen
    whose connection is reset while a state is half written (its peer stopped reading, then went),
    and one whose packet cannot be framed, are forgotten; three others get all 200 states, each
    once, in order."""
    states = [packet.Packet(packet.MESSAGE, data=f"{n}:" + "x" * 2000) for n in range(200)]
    fan = fanout.Fanout()
    healthy = [_tcp_pair() for _ in range(3)]
    dying_server, dying_screen = _tcp_pair(sndbuf=4096)
    dying_screen.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    failing_server, failing_screen = _tcp_pair()
    conns = [_connection(server) for server, _ in healthy]
    dying, failing = _connection(dying_server), _connection(failing_server, fail_at=50)
    received = [[] for _ in healthy]
    readers = [threading.Thread(target=_read_lines, args=(screen, len(states), out))
               for (_, screen), out in zip(healthy, received)]
    for reader in readers:
        reader.start()
    try:
        with caplog.at_level(logging.ERROR, logger="server.fanout"):
            for n, state in enumerate(states):
                for conn in conns + [dying, failing]:
                    fan.send(conn, state)
                if n == 100:   # by now the dying screen's buffers are full and a state half written
                    _wait(lambda: fan.waiting(dying) > 50)
                    dying_screen.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    dying_screen.close()   # a reset, not a goodbye
            for reader in readers:
                reader.join(30)
        assert all(out == [state.encode() for state in states] for out in received), \
            "every other screen got every state once, in order"
        _wait(lambda: dying.dead and failing.dead)
        assert fan.waiting(dying) == 0 and fan.waiting(failing) == 0, "nothing kept for the screens gone"
        assert "writing to a screen failed" in caplog.text   # the framing fault is said, not hidden
        fan.send(conns[0], states[0])                         # and the writer still writes
        late = []
        _read_lines(healthy[0][1], 1, late)
        assert late == [states[0].encode()]
    finally:
        for server, screen in healthy + [(dying_server, dying_screen), (failing_server, failing_screen)]:
            server.close()
            screen.close()
