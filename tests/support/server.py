"""Run the real table server in a subprocess, as a user would, and talk to it.

    with run_server(tmp_path) as srv:
        srv.post({"button": {"name": "advance"}})
        sio = srv.client("table")

The server is `tofu-table serve --simulate` (through tests/support/serve.py,
which also registers the tiny test game) on a free port with its own data dir.
"""
from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests
import socketio

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The config.toml of a table run as the appliance with no readers and the camera off.
CAMERA_OFF_CONFIG = '[camera]\nsource = "off"\n'


def appliance_data(data_dir: Path) -> Path:
    """Make ``data_dir`` the data folder of an appliance with no readers and the camera off; returns it.

    For a test of the table itself, run with ``simulate=False`` (a simulation ignores config.toml and
    runs the synthetic camera, which calibrates at every start: 4-5 s of CPU in a thread 10 nice
    levels down, so past :meth:`Server.start`'s 60 s when the machine is loaded). Inputs then come
    over HTTP with the host token."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text(CAMERA_OFF_CONFIG)
    return data_dir


#: Keys the running server adds to the engine's views (server/publisher.py and its additions).
SERVER_ADDITIONS = ("seat_links", "health", "undo", "tonight")


def _starting(health: dict) -> bool:
    """Whether a device of the table still says it is starting (the camera builds its pipeline
    after the server listens): a test gets the table whole, as it was before that change."""
    return any(isinstance(records, list) and any(isinstance(r, dict) and r.get("status") == "starting"
                                                 for r in records)
               for records in health.values())


class Server:
    """A running server process with its URL, data dir and host token."""

    def __init__(self, data_dir: Path, port: int | None = None, simulate: bool = True, extra_args=(),
                 env: dict | None = None):
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.simulate = simulate
        self.extra_args = list(extra_args)
        self.env = dict(env or {})   # added to the server's environment
        self.proc: subprocess.Popen | None = None
        self.output: list[str] = []
        self.answered_at: float | None = None   # time.perf_counter() when the last start first answered /api/health

    @property
    def host_token(self) -> str:
        return (self.data_dir / "host-token").read_text().strip()

    def start(self, timeout: float = 60.0) -> "Server":
        args = [sys.executable, "-m", "tests.support.serve", "serve", "--port", str(self.port),
                "--data", str(self.data_dir), *self.extra_args]
        if self.simulate:
            args.append("--simulate")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.answered_at = None
        threading.Thread(target=self._drain, daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited:\n" + "".join(self.output))
            try:
                health = requests.get(self.url + "/api/health", timeout=1)
                if health.ok:
                    self.answered_at = self.answered_at or time.perf_counter()
                if health.ok and not _starting(health.json()):
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.05)
        self.kill()   # not left running behind the failed test
        raise RuntimeError("server did not start:\n" + "".join(self.output))

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)

    def kill(self) -> None:
        """SIGKILL: a power cut, as far as the server can tell."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def post(self, inp, token: str | None = "host", timeout: float = 10) -> requests.Response:
        """POST one input; ``token="host"`` uses the host token, None sends none."""
        headers = {}
        if token == "host":
            token = self.host_token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return requests.post(self.url + "/api/input", json=inp, headers=headers, timeout=timeout)

    def state(self, view: str = "table", token: str | None = None) -> dict:
        params = {"view": view}
        if token:
            params["token"] = token
        r = requests.get(self.url + "/api/state", params=params, timeout=10)
        r.raise_for_status()
        return r.json()

    def engine_view(self, view: str = "table", token: str | None = None) -> dict:
        """The served view without what the server adds to the game's own view (seat links, health,
        the undo label, tonight's standings), so it can be compared with a refold in-process."""
        out = self.state(view, token)
        for key in SERVER_ADDITIONS:
            out.pop(key, None)
        return out

    def seat_token(self, seat: int) -> str:
        """A seat's token, as the host page links it."""
        host = self.state("host", self.host_token)
        link = next(l for l in host["seat_links"] if l["seat"] == seat)
        return link["path"].split("token=")[1]

    def client(self, view: str = "table", token: str | None = None) -> "Client":
        return Client(self.url, view, token)


class Client:
    """A real python-socketio client that records every message it receives."""

    def __init__(self, url: str, view: str, token: str | None):
        self.messages: "queue.Queue[tuple[str, dict]]" = queue.Queue()
        self.log: list[tuple[str, dict]] = []
        self.sio = socketio.Client(reconnection=False)
        for name in ("state", "event", "refused", "reauth", "sound", "devices"):
            self.sio.on(name, self._recorder(name))
        self.sio.connect(url, auth={"view": view, "token": token}, transports=["websocket"],
                         wait_timeout=10)

    def _recorder(self, name):
        def record(data):
            self.log.append((name, data))
            self.messages.put((name, data))
        return record

    def wait_for(self, name: str, predicate=lambda d: True, timeout: float = 10) -> dict:
        """The next ``name`` message satisfying ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {name} message matching in {timeout}s")
            try:
                got, data = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if got == name and predicate(data):
                return data

    def send(self, inp) -> dict:
        return self.sio.call("input", inp, timeout=10)

    def close(self) -> None:
        self.sio.disconnect()


@contextlib.contextmanager
def run_server(data_dir: Path, **kwargs):
    server = Server(data_dir, **kwargs).start()
    try:
        yield server
    finally:
        server.stop()
