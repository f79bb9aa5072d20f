"""Screens that fall behind: what is waiting for each Socket.IO client, and dropping one that stalls.

In threading mode every Engine.IO socket has a queue that a writer thread empties onto the
connection.  A client that stops reading blocks that writer, so everything emitted to it would
pile up in the queue without limit.  The publisher asks :meth:`Backlog.lagging` before each emit
and leaves out the clients with more than :data:`BEHIND_PACKETS` waiting (a state is owed to them
instead: only the newest is sent once they catch up), and drops a client that stays behind for
:data:`DROP_AFTER_SECONDS`.  Dropping closes its TCP connection, which also frees the threads
blocked on it; the page reconnects by itself and gets the whole state on connect.  It has caught
up only once its connection has also taken what was written to it (:meth:`Backlog.caught_up`): the
kernel's send buffer grows by itself and may swallow a stalled client's waiting packets.  A client
that stopped reading also stops answering Engine.IO's pings, so the ping timeout may close it first
(:meth:`Backlog.disconnected`): one closed so with anything still unread is dropped the same way at
once, whatever came first.
"""
from __future__ import annotations

import fcntl
import logging
import socket
import struct
import termios
import threading
import weakref
from urllib.parse import parse_qs

log = logging.getLogger(__name__)

#: Packets waiting for a client before it counts as behind (a reading client's queue empties
#: within milliseconds; a burst of inputs may queue a few).
BEHIND_PACKETS = 8
#: A client still behind after this long is dropped.
DROP_AFTER_SECONDS = 5.0
#: A client behind has caught up once at most this many packets wait for it and its connection holds at
#: most CAUGHT_UP_BYTES it has not acknowledged (a reading client's drains within a round trip).  The
#: kernel's send buffer grows by itself (to 4 MiB) and may take a stalled client's waiting packets long
#: after it stopped reading: counted in packets alone, that client looked caught up.
CAUGHT_UP_PACKETS = BEHIND_PACKETS // 2
CAUGHT_UP_BYTES = 4096
#: Engine.IO pings each client this often and closes one that has not answered within
#: PING_TIMEOUT_SECONDS (Engine.IO's own defaults; server/app.py passes them on)
PING_INTERVAL_SECONDS = 25
PING_TIMEOUT_SECONDS = 20
NAMESPACE = "/"


class Backlog:
    """Per-client queue sizes of a Flask-SocketIO server, and dropping a client that stalls."""

    def __init__(self, socketio):
        self.server = socketio.server
        #: Engine.IO sid -> the TCP socket its websocket was upgraded on (gone when the socket is)
        self._upgraded: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._lock = threading.Lock()
        self.dropped = 0
        self.peak = 0   # the most packets seen waiting for one client

    def wrap(self, wsgi_app):
        """WSGI middleware that notes the TCP socket of each websocket upgrade, so a stalled
        client can be cut off (its writer thread is blocked sending on it)."""
        def app(environ, start_response):
            if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                sid = parse_qs(environ.get("QUERY_STRING", "")).get("sid", [None])[0]
                sock = environ.get("werkzeug.socket")
                if sid and sock is not None:
                    with self._lock:
                        self._upgraded[sid] = sock
            return wsgi_app(environ, start_response)
        return app

    def waiting(self, sid: str) -> int:
        """Packets queued for Socket.IO client ``sid`` and not yet written to its connection."""
        eio_sid = self.server.manager.eio_sid_from_sid(sid, NAMESPACE)
        sock = self.server.eio.sockets.get(eio_sid) if eio_sid else None
        count = sock.queue.qsize() if sock is not None else 0
        self.peak = max(self.peak, count)
        return count

    def unacknowledged(self, sid: str) -> int:
        """Bytes written to client ``sid``'s websocket that it has not acknowledged (0 when unknown)."""
        eio_sid = self.server.manager.eio_sid_from_sid(sid, NAMESPACE)
        tcp = self._tcp(eio_sid) if eio_sid else None
        try:
            return struct.unpack("i", fcntl.ioctl(tcp.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]
        except (AttributeError, OSError, ValueError):   # no websocket, or closed meanwhile
            return 0

    def caught_up(self, sid: str) -> bool:
        """Whether client ``sid``, behind before, has taken what was sent to it."""
        return self.waiting(sid) <= CAUGHT_UP_PACKETS and self.unacknowledged(sid) <= CAUGHT_UP_BYTES

    def _tcp(self, eio_sid: str, forget: bool = False) -> socket.socket | None:
        """The TCP socket of Engine.IO socket ``eio_sid``'s websocket, if it has one."""
        with self._lock:
            tcp = self._upgraded.pop(eio_sid, None) if forget else self._upgraded.get(eio_sid)
        environ = self.server.environ.get(eio_sid, {})
        if tcp is None and environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            tcp = environ.get("werkzeug.socket")   # connected over a websocket from the start
        return tcp

    def members(self, room: str) -> list[str]:
        """The clients in ``room`` now."""
        return [sid for sid, _ in self.server.manager.get_participants(NAMESPACE, room)]

    def lagging(self, sids: list[str]) -> list[str]:
        """Those of clients ``sids`` with more than BEHIND_PACKETS waiting."""
        return [sid for sid in sids if self.waiting(sid) > BEHIND_PACKETS]

    def room_of(self, sid: str) -> str | None:
        """The audience room client ``sid`` is in now (None once it has gone)."""
        while True:
            try:
                rooms = self.server.manager.get_rooms(sid, NAMESPACE)
            except RuntimeError:   # another thread changed the rooms while they were read: read again
                continue
            return next((r for r in rooms if r != sid), None)

    def disconnected(self, sid: str, reason: str | None) -> None:
        """Client ``sid`` is disconnecting for ``reason``.  Engine.IO's ping timeout closes a client that
        stopped reading, unless the backlog dropped it first; left to Engine.IO, its connection would
        stay open while its writer waits (and its room no longer names it, so the publisher would take
        it as gone, not behind).  With packets still waiting, or bytes it has not acknowledged, it is
        dropped here as it would have been."""
        if reason == self.server.reason.PING_TIMEOUT and (self.waiting(sid) > 0
                                                          or self.unacknowledged(sid) > CAUGHT_UP_BYTES):
            self.drop(sid)

    def drop(self, sid: str) -> None:
        """Disconnect client ``sid`` at once, whatever is still queued for it."""
        eio_sid = self.server.manager.eio_sid_from_sid(sid, NAMESPACE)
        eio_socket = self.server.eio.sockets.pop(eio_sid, None) if eio_sid else None
        if eio_socket is None:
            return
        environ = self.server.environ.get(eio_sid, {})
        tcp = self._tcp(eio_sid, forget=True)
        eio_socket.close(wait=False, abort=True)   # runs the disconnect handlers, queues nothing more
        if tcp is not None:
            try:
                tcp.shutdown(socket.SHUT_RDWR)      # unblocks its writer and reader threads
            except OSError:
                pass
        self.dropped += 1
        log.warning("dropped a screen (%s) that stayed %s packets behind", environ.get("REMOTE_ADDR"),
                    eio_socket.queue.qsize())

    def health(self, behind: dict[str, int]) -> list[dict]:
        """The screens' health record: how many are ``behind`` now (by the view they show: a state is
        owed to them), how many were dropped for falling behind, and the most packets seen waiting."""
        details = []
        if behind:
            views = ", ".join(f"{view} {count}" for view, count in sorted(behind.items()))
            details.append(f"{sum(behind.values())} screen(s) behind now ({views}): they get the newest "
                           "state once they catch up.")
        if self.dropped:
            details.append(f"{self.dropped} screen(s) stopped reading and were disconnected; a page that "
                           "comes back reconnects by itself.")
        return [{"name": "screens", "status": "ok", "detail": " ".join(details), "last_seen": None,
                 "behind": behind, "dropped": self.dropped, "peak_waiting": self.peak}]
