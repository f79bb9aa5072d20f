"""Small helpers for the hardware tests: waiting on background threads, and a sink that records."""
from __future__ import annotations

import threading
import time


def wait_for(predicate, timeout: float = 3.0, step: float = 0.002, what: str = ""):
    """Poll ``predicate`` until it returns something true, and return that; fail the test after
    ``timeout`` s, naming ``what`` was awaited (or the predicate)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what or getattr(predicate, '__name__', predicate)}")


class Recorder:
    """A hub/button sink that keeps every input with its source and arrival time."""

    def __init__(self, forward=None):
        self.items: list[tuple[dict, str, float]] = []
        self.forward = forward
        self._lock = threading.Lock()

    def __call__(self, inp: dict, source: str) -> None:
        with self._lock:
            self.items.append((inp, source, time.monotonic()))
        if self.forward is not None:
            self.forward(inp, source)

    @property
    def inputs(self) -> list[dict]:
        with self._lock:
            return [inp for inp, _, _ in self.items]

    def kinds(self, reader: str | None = None) -> list[str]:
        """The kinds of the recorded inputs (of one reader only, when named)."""
        return [next(iter(i)) for i in self.inputs
                if reader is None or next(iter(i.values())).get("reader") == reader]
