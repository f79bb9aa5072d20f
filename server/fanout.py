"""One writer for every screen's websocket.

In Engine.IO's threading mode each websocket has a writer thread waiting on its socket's queue:
after an input, twenty of them wake to write one packet each, and each waits its turn for the
interpreter behind the readers and the camera.  Inside the Pi 4 quota at a load of 8 the twenty
writes of one state spread over 11 ms at the median and 120 ms at p99 (issue 20).  Here, once a
socket has upgraded to a websocket, what is sent to it goes to one writer thread instead, which
writes every connection's packets in the order they were sent, without blocking: a connection that
takes no more keeps its packets waiting (they count in :meth:`FanoutQueue.qsize`, which the
backlog reads, server/backlog.py) and the others go on.

:func:`install` hooks it into an Engine.IO server through the two classes its threading mode
takes from its driver table: the socket's queue and the websocket.  The socket's own writer
thread still starts, then only waits for the end of the connection to close it.
"""
from __future__ import annotations

import collections
import ctypes
import errno
import logging
import os
import queue
import socket
import threading
from functools import partial

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from wsproto.events import BytesMessage, TextMessage
from wsproto.utilities import LocalProtocolError

log = logging.getLogger(__name__)

#: While a connection has bytes it could not take, it is tried again this often.
RETRY_SECONDS = 0.02
#: How long a closing connection may take to be sent what was queued before its close (a reading
#: screen takes it within milliseconds); after this it is cut.  By then the client has left its
#: room, so the backlog no longer sees it (server/backlog.py drops one closed with packets waiting).
CLOSE_WAIT_SECONDS = 5.0


def _libc_send():
    """libc's ``send``, called without letting go of the interpreter (ctypes.PyDLL), or None."""
    try:
        libc = ctypes.PyDLL(None, use_errno=True)
        send = libc.send
    except (OSError, AttributeError):
        return None
    send.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int)
    send.restype = ctypes.c_ssize_t
    return send


_SEND = _libc_send()
_FLAGS = socket.MSG_DONTWAIT | getattr(socket, "MSG_NOSIGNAL", 0)


def _send_now(sock, data: bytes) -> int:
    """Send what ``sock`` takes of ``data`` at once; the bytes sent.  Python's ``send`` gives the
    interpreter up for the system call, and the writer then waited to get it back from the readers
    or the camera, once a screen (the 20 writes of a state spread over 25-40 ms at p99, against
    12-18 without: issue 20, bench/README.md); a call that cannot block need not give it up."""
    if _SEND is None:
        try:
            return sock.send(data, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return 0
    sent = _SEND(sock.fileno(), data, len(data), _FLAGS)
    if sent >= 0:
        return sent
    err = ctypes.get_errno()
    if err in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR):
        return 0
    raise OSError(err, os.strerror(err))


class _Connection:
    """One websocket's packets waiting for the writer, and the bytes of the one being written."""

    def __init__(self, ws):
        self.ws = ws              # a simple_websocket.Server
        self.packets: collections.deque = collections.deque()
        self.out = b""
        self.dead = False

    def waiting(self) -> int:
        return len(self.packets) + (1 if self.out else 0)


class Fanout:
    """The one writer thread and the connections it writes to."""

    def __init__(self):
        self._cond = threading.Condition()
        self._ready: dict[_Connection, None] = {}   # connections with packets, in the order they got them
        self._stuck: set[_Connection] = set()       # connections that took only part of their bytes
        self._thread: threading.Thread | None = None

    def send(self, conn: _Connection, pkt) -> None:
        """Queue Engine.IO packet ``pkt`` for ``conn`` (written in the order queued)."""
        with self._cond:
            if conn.dead:
                return
            conn.packets.append(pkt)
            self._ready[conn] = None
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="screens-writer", daemon=True)
                self._thread.start()
            self._cond.notify()

    def waiting(self, conn: _Connection) -> int:
        """Packets queued for ``conn`` and not yet written whole."""
        with self._cond:
            return conn.waiting()

    def finish(self, conn: _Connection, timeout: float = CLOSE_WAIT_SECONDS) -> None:
        """Wait (at most ``timeout``) until ``conn``'s packets are written, then forget it (cutting
        its connection if they were not)."""
        with self._cond:
            written = self._cond.wait_for(lambda: conn.dead or not conn.waiting(), timeout)
            conn.dead = True
            conn.packets.clear()
            self._ready.pop(conn, None)
            self._stuck.discard(conn)
        if not written:
            try:
                conn.ws.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._ready and not self._stuck:
                    self._cond.wait()
                if not self._ready:
                    self._cond.wait(RETRY_SECONDS)
                turn = list(self._ready) + [c for c in self._stuck if c not in self._ready]
                self._ready.clear()
                self._stuck.clear()
            for conn in turn:
                self._write(conn)
            with self._cond:
                self._cond.notify_all()       # for finish()

    def _forget(self, conn: _Connection) -> None:
        with self._cond:
            conn.dead = True
            conn.packets.clear()
            conn.out = b""

    def _write(self, conn: _Connection) -> None:
        """Write what ``conn`` will take now; note it as stuck when it takes no more."""
        while True:
            try:
                with self._cond:
                    if conn.dead:
                        return
                    if not conn.out:
                        if not conn.packets:
                            return
                        data = conn.packets.popleft().encode()
                        conn.out = conn.ws.ws.send(BytesMessage(data=data) if isinstance(data, bytes)
                                                   else TextMessage(data=data))
                sent = _send_now(conn.ws.sock, conn.out)
            except (OSError, LocalProtocolError):   # the connection is gone (or was dropped: backlog.py)
                self._forget(conn)
                return
            except Exception:   # a fault here must not stop every screen: this one reconnects instead
                log.exception("writing to a screen failed; its connection is closed")
                self._forget(conn)
                try:
                    conn.ws.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return
            with self._cond:
                conn.out = conn.out[sent:]
                if conn.out:
                    self._stuck.add(conn)
                    return


class FanoutQueue(queue.Queue):
    """An Engine.IO socket's queue: an ordinary queue until the socket's websocket writer asks
    for its first packet, then a door to the fanout (all but the ``None`` that ends the socket's
    writer, which waits for it)."""

    def __init__(self, fanout: Fanout, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._fanout = fanout
        self._switch = threading.Lock()
        self._socket = None         # the Engine.IO socket and its websocket, once that is open
        self._ws = None
        self._conn: _Connection | None = None   # once the fanout writes for it

    def open_websocket(self, eio_socket, ws) -> None:
        """Called when ``eio_socket``'s websocket ``ws`` is open (before its upgrade completes)."""
        self._socket, self._ws = eio_socket, ws

    def put(self, item, block=True, timeout=None):
        with self._switch:
            if item is not None and self._conn is not None:
                self._fanout.send(self._conn, item)
                return
            super().put(item, block, timeout)

    def get(self, block=True, timeout=None):
        if self._conn is None and self._socket is not None and self._socket.upgraded:
            self._attach()
        if self._conn is not None:
            return super().get()      # only the None that ends the connection comes here now
        return super().get(block, timeout)

    def qsize(self) -> int:
        conn = self._conn
        return super().qsize() + (self._fanout.waiting(conn) if conn is not None else 0)

    def _attach(self) -> None:
        """Hand the fanout what is queued, in order, and everything after it (on the socket's
        writer thread, before it took anything: so nothing is in flight)."""
        with self._switch:
            conn = _Connection(self._ws)
            keep = []
            while True:
                try:
                    item = super().get(block=False)
                except queue.Empty:
                    break
                self.task_done()
                if item is None:
                    keep.append(item)
                else:
                    self._fanout.send(conn, item)
            for item in keep:
                super().put(item)
            self._conn = conn

    def finish(self) -> None:
        """Let the fanout write what it has for this socket (at most CLOSE_WAIT_SECONDS), then forget it."""
        if self._conn is not None:
            self._fanout.finish(self._conn)


class FanoutWebSocket(SimpleWebSocketWSGI):
    """Engine.IO's threading websocket, telling its socket's queue when it is open, and closing
    only once the fanout has written what was queued before."""

    def __call__(self, environ, start_response):
        eio_socket = getattr(self.app, "__self__", None)    # the handler is a bound Socket method
        queue_ = getattr(eio_socket, "queue", None)
        if not isinstance(queue_, FanoutQueue):
            return super().__call__(environ, start_response)
        self.ws = simple_websocket.Server(environ, **self.server_args)
        queue_.open_websocket(eio_socket, self.ws)
        self._queue = queue_
        ret = self.app(self)
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret

    def close(self):
        queue_ = getattr(self, "_queue", None)
        if queue_ is not None:
            queue_.finish()
        super().close()


def install(eio_server) -> Fanout | None:
    """Make Engine.IO server ``eio_server`` (threading mode) write its websockets through one
    fanout; the fanout.  The driver table is Engine.IO's own (not a public API): where it is not
    as this module knows it, the server keeps Engine.IO's writer per socket (None) and says so."""
    drivers = getattr(eio_server, "_async", None)
    if getattr(eio_server, "async_mode", None) != "threading" or not isinstance(drivers, dict) \
            or not {"queue", "websocket"} <= drivers.keys():
        log.warning("Engine.IO's driver table is not the one server/fanout.py knows: each screen keeps "
                    "a writer thread of its own (slower on a Pi, nothing lost)")
        return None
    fanout = Fanout()
    eio_server._async = {**eio_server._async, "queue": partial(FanoutQueue, fanout),
                         "websocket": FanoutWebSocket}
    return fanout
