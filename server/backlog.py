"""Screens that fall behind: what is waiting for each Socket.IO client, and dropping one that stalls.

Every Engine.IO socket has a queue; once it is a websocket, one writer for all of them empties
those onto the connections (server/fanout.py).  A client that stops reading takes no more bytes,
so everything emitted to it would pile up in its queue without limit.  The publisher asks
:meth:`Backlog.lagging` before each emit and leaves out the clients with more than
:data:`BEHIND_PACKETS` waiting (a state is owed to them instead: only the newest is sent once they
catch up), and drops a client that stays behind for :data:`DROP_AFTER_SECONDS`.  Dropping closes
its TCP connection, which also frees the threads waiting on it; the page reconnects by itself and
gets the whole state on connect.
"""
from __future__ import annotations

import logging
import socket
import threading
import weakref
from urllib.parse import parse_qs

log = logging.getLogger(__name__)

#: Packets waiting for a client before it counts as behind (a reading client's queue empties
#: within milliseconds; a burst of inputs may queue a few).
BEHIND_PACKETS = 8
#: A client still behind after this long is dropped.
DROP_AFTER_SECONDS = 5.0
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

    def lagging(self, room: str) -> list[str]:
        """The clients in ``room`` with more than BEHIND_PACKETS waiting."""
        return [sid for sid, _ in self.server.manager.get_participants(NAMESPACE, room)
                if self.waiting(sid) > BEHIND_PACKETS]

    def room_of(self, sid: str) -> str | None:
        """The audience room client ``sid`` is in now (None once it has gone)."""
        try:
            rooms = self.server.manager.get_rooms(sid, NAMESPACE)
        except RuntimeError:   # the rooms changed while being read; the caller tries again later
            return None
        return next((r for r in rooms if r != sid), None)

    def drop(self, sid: str) -> None:
        """Disconnect client ``sid`` at once, whatever is still queued for it."""
        eio_sid = self.server.manager.eio_sid_from_sid(sid, NAMESPACE)
        eio_socket = self.server.eio.sockets.pop(eio_sid, None) if eio_sid else None
        if eio_socket is None:
            return
        environ = self.server.environ.get(eio_sid, {})
        with self._lock:
            tcp = self._upgraded.pop(eio_sid, None)
        if tcp is None and environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            tcp = environ.get("werkzeug.socket")   # connected over a websocket from the start
        eio_socket.close(wait=False, abort=True)   # runs the disconnect handlers, queues nothing more
        if tcp is not None:
            try:
                tcp.shutdown(socket.SHUT_RDWR)      # unblocks its writer and reader threads
            except OSError:
                pass
        self.dropped += 1
        log.warning("dropped a screen (%s) that stayed %s packets behind", environ.get("REMOTE_ADDR"),
                    eio_socket.queue.qsize())

    def health(self) -> list[dict]:
        """The screens' health record: how many were dropped for falling behind."""
        detail = (f"{self.dropped} screen(s) stopped reading and were disconnected; a page that "
                  "comes back reconnects by itself." if self.dropped else "")
        return [{"name": "screens", "status": "ok", "detail": detail, "last_seen": None,
                 "dropped": self.dropped, "peak_waiting": self.peak}]
