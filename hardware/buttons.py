"""Push buttons on GPIO pins (gpiozero): each press is one ``button`` input for the table.

A press is reported once, when the button goes down; holding it (a held
``undo``) sends nothing more, and a second edge within ``debounce_s`` of the
last accepted one is contact bounce, not a press.  gpiozero's own
``bounce_time`` is set as well where the pin driver supports it.
"""
from __future__ import annotations

import logging
import time
from typing import Callable

log = logging.getLogger(__name__)


class ButtonPanel:
    """Buttons by name (``advance``, ``undo``, ...) on BCM pins, feeding ``sink(inp, source)``."""

    def __init__(self, pins: dict[str, int], sink: Callable[[dict, str], None], *,
                 pull_up: bool = True, debounce_s: float = 0.05,
                 clock: Callable[[], float] = time.monotonic):
        self.pins, self.sink = dict(pins), sink
        self.pull_up, self.debounce_s, self.clock = pull_up, debounce_s, clock
        self.buttons: dict[str, object] = {}
        self._errors: dict[str, str] = {}
        self._last_press: dict[str, float] = {}
        self._last_seen: dict[str, float] = {}

    def start(self) -> None:
        """Claim the pins (a pin that cannot be claimed is reported in the health)."""
        from gpiozero import Button   # only when buttons are configured

        for name, pin in self.pins.items():
            try:
                button = Button(pin, pull_up=self.pull_up, bounce_time=self.debounce_s or None)
            except Exception as exc:   # gpiozero raises many kinds: pin in use, no pin driver ...
                self._errors[name] = f"GPIO{pin} could not be used: {exc}"
                log.warning("button %s: %s", name, self._errors[name])
                continue
            button.when_pressed = lambda _device=None, name=name: self._pressed(name)
            self.buttons[name] = button

    def stop(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}

    def _pressed(self, name: str) -> None:
        now = self.clock()
        last = self._last_press.get(name)
        if last is not None and now - last < self.debounce_s:
            return
        self._last_press[name] = now
        self._last_seen[name] = time.time()
        try:
            self.sink({"button": {"name": name}}, f"button:{name}")
        except Exception:
            log.exception("could not deliver the %s button", name)

    def health(self) -> list[dict]:
        """One record per configured button."""
        out = []
        for name, pin in self.pins.items():
            error = self._errors.get(name)
            out.append({"name": f"button {name}", "kind": "button",
                        "status": "down" if error else "ok" if name in self.buttons else "off",
                        "detail": error or f"GPIO{pin}", "last_seen": self._last_seen.get(name)})
        return out
