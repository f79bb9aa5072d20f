"""Limits per device (client address): repeated wrong host tokens, and floods of refused inputs.

A device that sends :data:`WRONG_TOKENS_ALLOWED` wrong host tokens within
:data:`WRONG_TOKEN_WINDOW` seconds is locked out of every request that carries a token for a
while (10 s, doubling with each lockout up to 5 minutes): while locked out its tokens are not
even compared, so guessing gets no faster by sending more; devices at other addresses, the host's
among them, are never slowed.  A device whose inputs keep being refused gets a budget of
:data:`REFUSAL_BURST` refusals, refilled at :data:`REFUSALS_PER_SECOND`; past it, its inputs are
answered 429 before they reach the table or the journal.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque

WRONG_TOKENS_ALLOWED = 5
WRONG_TOKEN_WINDOW = 60.0
LOCKOUT_FIRST = 10.0
LOCKOUT_LONGEST = 300.0
REFUSAL_BURST = 300
REFUSALS_PER_SECOND = 30.0
#: Devices remembered at once (the least recently seen is forgotten first).
DEVICES_REMEMBERED = 4096


class _Device:
    __slots__ = ("fails", "lockouts", "locked_until", "budget", "refilled")

    def __init__(self, now: float):
        self.fails: deque = deque(maxlen=WRONG_TOKENS_ALLOWED)
        self.lockouts = 0
        self.locked_until = 0.0
        self.budget = float(REFUSAL_BURST)
        self.refilled = now


class Throttle:
    """What each client address may still do; thread-safe."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._devices: OrderedDict[str, _Device] = OrderedDict()
        self._lock = threading.Lock()

    def _device(self, addr: str, now: float) -> _Device:
        device = self._devices.get(addr)
        if device is None:
            device = self._devices[addr] = _Device(now)
            while len(self._devices) > DEVICES_REMEMBERED:
                self._devices.popitem(last=False)
        self._devices.move_to_end(addr)
        return device

    def token_wait(self, addr: str) -> float:
        """Seconds ``addr`` must still wait before its tokens are looked at again (0: none)."""
        with self._lock:
            device = self._devices.get(addr)
            return max(0.0, device.locked_until - self.clock()) if device else 0.0

    def wrong_host_token(self, addr: str) -> None:
        """Note one wrong host token from ``addr``; enough of them lock it out."""
        with self._lock:
            now = self.clock()
            device = self._device(addr, now)
            device.fails.append(now)
            if len(device.fails) == WRONG_TOKENS_ALLOWED and now - device.fails[0] <= WRONG_TOKEN_WINDOW:
                device.locked_until = now + min(LOCKOUT_LONGEST, LOCKOUT_FIRST * 2 ** device.lockouts)
                device.lockouts += 1
                device.fails.clear()

    def refusal_wait(self, addr: str) -> float:
        """Seconds until ``addr`` may have an input refused again (0: it may now)."""
        with self._lock:
            device = self._devices.get(addr)
            if device is None:
                return 0.0
            self._refill(device)
            return 0.0 if device.budget >= 1 else (1 - device.budget) / REFUSALS_PER_SECOND

    def refused(self, addr: str) -> None:
        """Take one refusal from ``addr``'s budget."""
        with self._lock:
            device = self._device(addr, self.clock())
            self._refill(device)
            device.budget = max(0.0, device.budget - 1)

    def _refill(self, device: _Device) -> None:
        now = self.clock()
        device.budget = min(float(REFUSAL_BURST), device.budget + (now - device.refilled) * REFUSALS_PER_SECOND)
        device.refilled = now
