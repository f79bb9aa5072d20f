"""Writing a websocket's frames without letting go of the interpreter when the kernel takes them at once.

In threading mode each Socket.IO screen has its own Engine.IO writer thread, and simple-websocket
writes each frame with ``socket.send``, which lets go of the interpreter for the system call: the
writer then waits to get it back behind the readers and the camera, once for each of the twenty
screens of an input (measured in bench/README.md, "Issue 20's input-to-screen tail").  Here the frame
goes first through libc's ``send`` called with the interpreter kept (``ctypes.PyDLL``) and without
blocking (``MSG_DONTWAIT``); whatever the kernel does not take at once is written as before, with
``socket.sendall``, which blocks and lets go: a screen that stops reading still blocks its own
writer, so server/backlog.py sees it fall behind and drops it as before.
"""
from __future__ import annotations

import ctypes
import socket
import ssl

from simple_websocket import ws as simple_ws
from wsproto.events import Message, TextMessage

_FLAGS = socket.MSG_DONTWAIT | socket.MSG_NOSIGNAL


def _libc_send():
    """libc's ``send`` called with the interpreter kept, or None where there is none to call."""
    try:
        send = ctypes.PyDLL(None, use_errno=True).send
    except (OSError, AttributeError):
        return None
    send.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    send.restype = ctypes.c_ssize_t
    return send


_SEND = _libc_send()


def send_all(sock: socket.socket, data: bytes) -> None:
    """Write all of ``data`` to ``sock``: what the kernel takes at once with the interpreter kept, the
    rest with ``sock.sendall`` (blocking; an OSError as ``sendall``'s).  A TLS socket's bytes must go
    through its own ``sendall``, never straight to the kernel."""
    plain = _SEND is not None and not isinstance(sock, ssl.SSLSocket)
    sent = _SEND(sock.fileno(), data, len(data), _FLAGS) if plain else -1
    if sent < len(data):
        sock.sendall(data[max(sent, 0):])


def _send(self, data) -> None:
    """simple-websocket's ``Base.send`` with the frame written by :func:`send_all`."""
    if not self.connected:
        raise simple_ws.ConnectionClosed(self.close_reason, self.close_message)
    message = Message(data=data) if isinstance(data, bytes) else TextMessage(data=str(data))
    send_all(self.sock, self.ws.send(message))


def install() -> None:
    """Make every simple-websocket connection of this process write its frames so."""
    if _SEND is not None:
        simple_ws.Base.send = _send
