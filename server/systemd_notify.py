"""Telling systemd how the table is doing: READY=1 once serving, WATCHDOG=1 while it answers.

Under ``Type=notify`` systemd passes ``NOTIFY_SOCKET`` (an AF_UNIX datagram
socket, ``@`` for the abstract namespace) and, with ``WatchdogSec=``,
``WATCHDOG_USEC``.  This module speaks that protocol directly (no libsystemd):

- ``READY=1`` once this process listens on a TCP port (the web server is up);
- ``WATCHDOG=1`` every half watchdog period, but only when the table's
  applying thread takes a no-op off its queue in time, so a hung or dead
  table stops the pings and systemd restarts the service;
- ``STOPPING=1`` when ``serve`` stops.

Outside systemd (no ``NOTIFY_SOCKET``) it does nothing.  ``serve`` starts it
as the ``systemd`` device plugin (:mod:`server.plugins`).
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Callable, Mapping

log = logging.getLogger(__name__)


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send one notification (``"READY=1"`` ...) to ``NOTIFY_SOCKET``; False when there is none."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


def watchdog_interval(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings (half of ``WATCHDOG_USEC``), or None without a watchdog."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2e6


def listening() -> bool:
    """True when this process holds a TCP socket in LISTEN state (Linux ``/proc``)."""
    inodes = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/self/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A":   # 0A = TCP_LISTEN
                inodes.add(fields[9])
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


class Notifier:
    """The thread that sends READY=1 once serving, then WATCHDOG=1 while ``alive()`` holds."""

    def __init__(self, alive: Callable[[float], bool], env: Mapping[str, str] | None = None,
                 serving: Callable[[], bool] = listening):
        self.env = dict(os.environ if env is None else env)
        self.alive = alive
        self.serving = serving
        self.interval = watchdog_interval(self.env)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="systemd-notify", daemon=True)

    def start(self) -> "Notifier":
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop pinging and tell systemd the service is stopping."""
        self._stop.set()
        self._thread.join(5)
        self._send("STOPPING=1")

    def _send(self, message: str) -> None:
        try:
            notify(message, self.env)
        except OSError as exc:   # systemd gone or socket unreachable: keep serving
            log.warning("could not notify systemd (%s): %s", message, exc)

    def _run(self) -> None:
        while not self.serving():
            if self._stop.wait(0.05):
                return
        self._send("READY=1\nSTATUS=Serving the table")
        if self.interval is None:
            return
        while not self._stop.is_set():
            started = time.monotonic()
            if self.alive(self.interval):
                self._send("WATCHDOG=1")
            else:
                log.error("the table's applying thread did not answer within %.1f s: "
                          "not pinging the systemd watchdog", self.interval)
                self._send("STATUS=The table is not answering")
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))


def start(ctx) -> Callable[[], None]:
    """``serve`` hook: notify systemd about ``ctx``'s table; returns the function that stops it."""
    if not os.environ.get("NOTIFY_SOCKET"):
        return lambda: None
    notifier = Notifier(ctx.table.ping).start()
    return notifier.stop
