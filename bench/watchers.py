"""What the socket benches share: a client that notes when each state arrives, the screens and the tiny
game they watch, posting an input, and percentiles."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests
import socketio


class Watcher:
    """One Socket.IO client in ``view``'s room; notes when each state (by seq) first arrives."""

    def __init__(self, url: str, view: str = "table", token: str | None = None):
        self.view = view
        self.arrived: dict[int, float] = {}
        self.latest = 0
        self.changed = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("state", self._state)
        self.sio.connect(url, auth={"view": view, "token": token}, transports=["websocket"], wait_timeout=10)

    def _state(self, view: dict) -> None:
        now = time.perf_counter()
        with self.changed:
            self.arrived.setdefault(view["seq"], now)
            self.latest = max(self.latest, view["seq"])
            self.changed.notify_all()

    def arrival(self, seq: int, timeout: float) -> float | None:
        """When the state with exactly ``seq`` arrived (None if it never did)."""
        with self.changed:
            self.changed.wait_for(lambda: self.latest >= seq, timeout)
            return self.arrived.get(seq)

    def reached(self, seq: int, timeout: float = 10.0) -> float:
        """When the state with ``seq`` (or a later one) got here; TimeoutError if none did in time."""
        with self.changed:
            if not self.changed.wait_for(lambda: self.latest >= seq, timeout):
                raise TimeoutError(f"state {seq} did not arrive within {timeout} s")
            return min(t for s, t in self.arrived.items() if s >= seq)

    def close(self) -> None:
        self.sio.disconnect()


def close_all(watchers: list[Watcher]) -> None:
    """Disconnect every watcher at once (each disconnect waits about 3 s for its client's threads)."""
    with ThreadPoolExecutor(max_workers=max(1, len(watchers))) as pool:
        list(pool.map(Watcher.close, watchers))


def post_input(session: requests.Session, url: str, body: dict) -> tuple[float, int | None, float]:
    """POST one input to ``url``/api/input: (sent at, its journal seq or None when refused or
    failed, answered at), in ``time.perf_counter`` seconds."""
    start = time.perf_counter()
    try:
        r = session.post(url + "/api/input", json=body, timeout=30)
        seq = r.json().get("seq") if r.status_code == 200 else None
    except requests.RequestException:
        seq = None
    return start, seq, time.perf_counter()


def new_tiny_game(seats: int, game: str = "tiny") -> dict:
    """The input starting the tiny test game (or ``game``, a variant of it) with ``seats`` players
    and rounds enough for any run."""
    return {"new_game": {"game": game, "players": [f"P{n}" for n in range(1, seats + 1)], "options": {"rounds": 99}}}


def screens(srv, seats: int, tvs: int) -> list[Watcher]:
    """The players' seat pages (each in its room with its seat token), then ``tvs`` TVs in the table room."""
    watchers = [Watcher(srv.url, f"seat-{s}", srv.seat_token(s)) for s in range(1, seats + 1)]
    return watchers + [Watcher(srv.url, "table", None) for _ in range(tvs)]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values``: the sorted value nearest that rank, not interpolated."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]
