"""The systemd notify/watchdog protocol, spoken over a real AF_UNIX datagram socket.

systemd restarts the table when WATCHDOG=1 stops arriving (WatchdogSec= in
systemd/tofu-table.service), so these tests check that the pings come while the
table answers, stop while its applying thread is stuck, and come back after.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest
import requests

from server import systemd_notify
from server.journal import Journal
from server.table import Table
from tests.support.server import ROOT, Server


class NotifySocket:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.address = path if not path.startswith("\0") else "@" + path[1:]

    def receive(self, timeout: float) -> list[tuple[float, str]]:
        """Every datagram received within ``timeout`` seconds, with its arrival time."""
        got, deadline = [], time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                got.append((time.monotonic(), self.sock.recv(4096).decode()))
            except socket.timeout:
                break
        return got

    def wait_for(self, message: str, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096).decode()
            except socket.timeout:
                break
            if message in data.split("\n"):
                return time.monotonic()
        raise AssertionError(f"no {message} within {timeout} s")

    def close(self):
        self.sock.close()


@contextmanager
def watchdog_notifier(table: Table, notify_socket: NotifySocket):
    """A started Notifier for ``table``, serving at once, with a 0.2 s watchdog; stopped after."""
    env = {"NOTIFY_SOCKET": notify_socket.address, "WATCHDOG_USEC": "200000"}
    notifier = systemd_notify.Notifier(table.ping, env=env, serving=lambda: True).start()
    try:
        yield notifier
    finally:
        notifier.stop()


@pytest.fixture
def notify_socket(tmp_path):
    s = NotifySocket(str(tmp_path / "notify"))
    yield s
    s.close()


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path / "journal.sqlite"))
    t.start()
    yield t
    t.stop()


def test_ready_then_watchdog_pings_while_the_table_answers(notify_socket, table):
    with watchdog_notifier(table, notify_socket):
        got = [m for _, m in notify_socket.receive(0.75)]
    assert got[0].split("\n")[0] == "READY=1"
    # a ping every half period (0.1 s): about 7 in 0.75 s
    assert 4 <= got.count("WATCHDOG=1") <= 9, got
    assert notify_socket.receive(0.3)[-1][1] == "STOPPING=1"


def test_ready_waits_until_serving(notify_socket, table):
    serving = threading.Event()
    env = {"NOTIFY_SOCKET": notify_socket.address}
    notifier = systemd_notify.Notifier(table.ping, env=env, serving=serving.is_set).start()
    try:
        assert notify_socket.receive(0.3) == []
        serving.set()
        assert notify_socket.receive(0.5)[0][1].startswith("READY=1")
    finally:
        notifier.stop()


def test_no_watchdog_pings_while_the_applying_thread_is_stuck(notify_socket, table):
    """A hung table must starve the watchdog, so systemd restarts it; when it recovers, pings resume."""
    release, entered = threading.Event(), threading.Event()

    def stuck_listener(outcome, inp):
        entered.set()
        release.wait(10)

    table.listeners.append(stuck_listener)
    with watchdog_notifier(table, notify_socket):
        try:
            notify_socket.wait_for("WATCHDOG=1", 1)
            table.put({"button": {"name": "advance"}})   # refused (no game): the listener hangs the thread
            assert entered.wait(2)
            time.sleep(0.15)   # a ping already answered before the hang may still be in flight
            stuck = [m for _, m in notify_socket.receive(0.8)]
            assert "WATCHDOG=1" not in stuck, stuck
            assert "STATUS=The table is not answering" in stuck
            release.set()
            notify_socket.wait_for("WATCHDOG=1", 1)
        finally:
            release.set()


def test_no_watchdog_pings_when_the_applying_thread_is_dead(notify_socket, tmp_path):
    table = Table(Journal(tmp_path / "j.sqlite"))   # never started
    with watchdog_notifier(table, notify_socket):
        got = [m for _, m in notify_socket.receive(0.6)]
    assert got and got[0].startswith("READY=1")
    assert "WATCHDOG=1" not in got


def test_abstract_socket_address(table):
    name = f"\0tofu-table-test-{os.getpid()}"
    s = NotifySocket(name)
    try:
        assert systemd_notify.notify("READY=1", {"NOTIFY_SOCKET": s.address})
        assert s.receive(0.3)[0][1] == "READY=1"
    finally:
        s.close()


def test_watchdog_is_for_this_process_only():
    assert systemd_notify.watchdog_interval({"WATCHDOG_USEC": "4000000"}) == 2.0
    assert systemd_notify.watchdog_interval({"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}) is None
    assert systemd_notify.watchdog_interval({}) is None
    assert not systemd_notify.notify("READY=1", {})


def test_real_server_is_ready_only_when_it_answers_http(notify_socket, tmp_path):
    """`tofu-table serve` under Type=notify: when READY=1 arrives, the port already answers."""
    server = Server(tmp_path / "data")
    env = {**os.environ, "NOTIFY_SOCKET": notify_socket.address, "WATCHDOG_USEC": "400000"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.serve", "serve", "--simulate",
                             "--port", str(server.port), "--data", str(server.data_dir)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        notify_socket.wait_for("READY=1", 15)
        assert requests.get(server.url + "/api/health", timeout=2).ok
        pings = [m for _, m in notify_socket.receive(1.0)]
        assert pings.count("WATCHDOG=1") >= 3, pings
    finally:
        proc.kill()
        proc.wait(10)
