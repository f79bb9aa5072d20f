"""LEDs and a buzzer that answer every tap: one short flash or chirp when the table
accepted it, three quick flashes or one long buzz when it was refused.

:meth:`Feedback.on_outcome` is a ``Table.listeners`` entry: the table calls it
on the applying thread right after an input is decided, and gpiozero's
``blink``/``beep`` switch the output on at once and finish in their own
thread, so the table never waits and the light comes on within milliseconds.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)

#: (on seconds, off seconds, times) for each signal.
ACCEPTED_LED = (0.2, 0.0, 1)
REFUSED_LED = (0.08, 0.08, 3)
ACCEPTED_BEEP = (0.05, 0.0, 1)
REFUSED_BEEP = (0.4, 0.0, 1)


class Feedback:
    """An LED per reader (by reader name) and/or one buzzer for all of them."""

    def __init__(self, led_pins: dict[str, int], buzzer_pin: int | None = None,
                 buzzer_active_high: bool = True):
        self.led_pins, self.buzzer_pin = dict(led_pins), buzzer_pin
        self.buzzer_active_high = buzzer_active_high
        self.leds: dict[str, object] = {}
        self.buzzer = None
        self._errors: dict[str, str] = {}

    def start(self) -> None:
        """Claim the pins (a pin that cannot be claimed is reported in the health)."""
        from gpiozero import LED, Buzzer   # only when lights are configured

        for reader, pin in self.led_pins.items():
            try:
                self.leds[reader] = LED(pin)
            except Exception as exc:   # pin in use, no pin driver ...
                self._errors[f"LED {reader}"] = f"GPIO{pin} could not be used: {exc}"
        if self.buzzer_pin is not None:
            try:
                self.buzzer = Buzzer(self.buzzer_pin, active_high=self.buzzer_active_high)
            except Exception as exc:
                self._errors["buzzer"] = f"GPIO{self.buzzer_pin} could not be used: {exc}"
        for what, error in self._errors.items():
            log.warning("%s: %s", what, error)

    def stop(self) -> None:
        for device in [*self.leds.values(), self.buzzer]:
            if device is not None:
                device.close()
        self.leds, self.buzzer = {}, None

    def accepted(self, reader: str) -> None:
        """Signal an accepted tap on ``reader``."""
        self._signal(reader, ACCEPTED_LED, ACCEPTED_BEEP)

    def refused(self, reader: str) -> None:
        """Signal a refused tap on ``reader``."""
        self._signal(reader, REFUSED_LED, REFUSED_BEEP)

    def _signal(self, reader: str, led_pattern: tuple, beep_pattern: tuple) -> None:
        led = self.leds.get(reader)
        if led is not None:
            on, off, times = led_pattern
            led.blink(on_time=on, off_time=off, n=times)
        if self.buzzer is not None:
            on, off, times = beep_pattern
            self.buzzer.beep(on_time=on, off_time=off, n=times)

    def on_outcome(self, outcome, inp: dict) -> None:
        """Table listener: signal the outcome of every tap."""
        body = inp.get("tap") if isinstance(inp, dict) else None
        if not isinstance(body, dict) or "reader" not in body:
            return
        (self.accepted if outcome.accepted else self.refused)(body["reader"])

    def health(self) -> list[dict]:
        """One record per LED and buzzer."""
        out = [{"name": f"LED {reader}", "kind": "led", "detail": f"GPIO{pin}", "last_seen": None,
                "status": "down" if f"LED {reader}" in self._errors else "ok"}
               for reader, pin in self.led_pins.items()]
        if self.buzzer_pin is not None:
            out.append({"name": "buzzer", "kind": "buzzer", "detail": f"GPIO{self.buzzer_pin}",
                        "last_seen": None, "status": "down" if "buzzer" in self._errors else "ok"})
        for record in out:
            record["detail"] = self._errors.get(record["name"], record["detail"])
        return out
