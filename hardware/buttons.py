"""Push buttons on GPIO pins (gpiozero): each press is one ``button`` input for the table.

A press is reported once, when the button goes down; holding it (a held
``undo``) sends nothing more, and a second edge within ``debounce_s`` of the
last accepted one is contact bounce, not a press.  gpiozero's own
``bounce_time`` is set as well where the pin driver supports it.

With ``hold_to_undo_s`` set, the ``advance`` button does two jobs: released
before that time it is ``advance`` (sent on release, since only then is it
known not to be a hold), held that long it is one ``undo`` and no advance.
"""
from __future__ import annotations

import logging
import time
from typing import Callable

log = logging.getLogger(__name__)


class ButtonPanel:
    """Buttons by name (``advance``, ``undo``, ...) on BCM pins, feeding ``sink(inp, source)``."""

    def __init__(self, pins: dict[str, int], sink: Callable[[dict, str], None], *,
                 pull_up: bool = True, debounce_s: float = 0.05, hold_to_undo_s: float = 0.0,
                 clock: Callable[[], float] = time.monotonic):
        self.pins, self.sink = dict(pins), sink
        self.pull_up, self.debounce_s, self.clock = pull_up, debounce_s, clock
        self.hold_to_undo_s = hold_to_undo_s
        self._held: set[str] = set()     # buttons whose current press already became an undo
        self.buttons: dict[str, object] = {}
        self._errors: dict[str, str] = {}
        self._last_press: dict[str, float] = {}
        self._last_seen: dict[str, float] = {}

    def start(self) -> None:
        """Claim the pins (a pin that cannot be claimed is reported in the health)."""
        from gpiozero import Button   # only when buttons are configured

        for name, pin in self.pins.items():
            two_jobs = name == "advance" and self.hold_to_undo_s > 0
            try:
                button = Button(pin, pull_up=self.pull_up, bounce_time=self.debounce_s or None,
                                hold_time=self.hold_to_undo_s if two_jobs else 1.0)
            except Exception as exc:   # gpiozero raises many kinds: pin in use, no pin driver ...
                self._errors[name] = f"GPIO{pin} could not be used: {exc}"
                log.warning("button %s: %s", name, self._errors[name])
                continue
            if two_jobs:
                button.when_pressed = lambda _device=None, name=name: self._down(name)
                button.when_held = lambda _device=None, name=name: self._hold(name)
                button.when_released = lambda _device=None, name=name: self._up(name)
            else:
                button.when_pressed = lambda _device=None, name=name: self._pressed(name)
            self.buttons[name] = button

    def stop(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}

    def _bounced(self, name: str) -> bool:
        """Whether this press is contact bounce; otherwise it is remembered as the last one."""
        now = self.clock()
        last = self._last_press.get(name)
        if last is not None and now - last < self.debounce_s:
            return True
        self._last_press[name] = now
        return False

    def _pressed(self, name: str) -> None:
        if not self._bounced(name):
            self._send(name, name)

    def _down(self, name: str) -> None:
        if self._bounced(name):
            self._held.add(name)        # the bounce's release must not send an advance
        else:
            self._held.discard(name)

    def _hold(self, name: str) -> None:
        if name not in self._held:
            self._held.add(name)
            self._send(name, "undo")

    def _up(self, name: str) -> None:
        if name not in self._held:
            self._send(name, name)
        self._held.add(name)

    def _send(self, button: str, meaning: str) -> None:
        self._last_seen[button] = time.time()
        try:
            self.sink({"button": {"name": meaning}}, f"button:{button}")
        except Exception:
            log.exception("could not deliver the %s button", button)

    def health(self) -> list[dict]:
        """One record per configured button."""
        out = []
        for name, pin in self.pins.items():
            error = self._errors.get(name)
            out.append({"name": f"button {name}", "kind": "button",
                        "status": "down" if error else "ok" if name in self.buttons else "off",
                        "detail": error or f"GPIO{pin}", "last_seen": self._last_seen.get(name)})
        return out
