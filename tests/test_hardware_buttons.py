"""Buttons, LEDs and the buzzer, on gpiozero's MockFactory (no Pi needed).

What a player checks: one press is one button input, holding undo does not undo
again and again, and every tap is answered at once: one flash or a short chirp
when the table accepted it, three flashes or a long buzz when it refused it.
"""
import time

import pytest

from hardware.buttons import ButtonPanel
from hardware.feedback import Feedback
from server.journal import Journal
from server.table import Table
from tests.support.hardware_helpers import Recorder, wait_for

ADVANCE, UNDO, LED_PIN, BUZZER_PIN = 5, 6, 12, 26


@pytest.fixture
def panel(pins):
    sink = Recorder()
    panel = ButtonPanel({"advance": ADVANCE, "undo": UNDO}, sink, debounce_s=0.05)
    panel.start()
    yield panel, sink
    panel.stop()


def press(pins, pin, hold=0.0):
    pins.pin(pin).drive_low()      # pull-up wiring: pressed connects the pin to ground
    time.sleep(hold)
    pins.pin(pin).drive_high()


def test_each_press_is_exactly_one_button_input(pins, panel):
    _, sink = panel
    press(pins, ADVANCE)
    time.sleep(0.06)
    press(pins, UNDO)
    time.sleep(0.06)
    press(pins, ADVANCE)
    wait_for(lambda: len(sink.inputs) == 3)
    time.sleep(0.05)
    assert sink.inputs == [{"button": {"name": "advance"}}, {"button": {"name": "undo"}},
                           {"button": {"name": "advance"}}]
    assert [source for _, source, _ in sink.items] == ["button:advance", "button:undo", "button:advance"]


def test_a_held_undo_does_not_repeat(pins, panel):
    _, sink = panel
    press(pins, UNDO, hold=1.2)      # longer than gpiozero's hold time
    time.sleep(0.05)
    assert sink.inputs == [{"button": {"name": "undo"}}]


def test_contact_bounce_is_one_press(pins):
    now = [100.0]
    sink = Recorder()
    panel = ButtonPanel({"advance": ADVANCE}, sink, debounce_s=0.05, clock=lambda: now[0])
    panel.start()
    pin = pins.pin(ADVANCE)
    for _ in range(4):              # a bouncing contact: several edges within a few ms
        pin.drive_low()
        pin.drive_high()
        now[0] += 0.004
    now[0] += 0.2                   # a real second press, later
    pin.drive_low()
    pin.drive_high()
    panel.stop()
    assert sink.inputs == [{"button": {"name": "advance"}}] * 2


def test_button_health_names_each_pin(pins, panel):
    buttons, _ = panel
    assert [(h["name"], h["status"], h["detail"]) for h in buttons.health()] == [
        ("button advance", "ok", "GPIO5"), ("button undo", "ok", "GPIO6")]


def test_a_pin_that_cannot_be_used_is_reported_down(pins):
    other = ButtonPanel({"advance": ADVANCE}, Recorder())
    other.start()
    clash = ButtonPanel({"undo": ADVANCE}, Recorder())   # the same pin again
    clash.start()
    assert clash.health()[0]["status"] == "down" and "GPIO5 could not be used" in clash.health()[0]["detail"]
    other.stop()


# ----- lights and buzzer answering the table's outcomes -------------------------------
@pytest.fixture
def table(tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite"))
    table.handle({"new_game": {"game": "tiny", "players": ["Anna", "Ben"], "seed": 1, "options": {}}})
    table.start()
    yield table
    table.stop()


@pytest.fixture
def lights(pins, table):
    feedback = Feedback({"seat-1": LED_PIN}, BUZZER_PIN)
    feedback.start()
    table.listeners.append(feedback.on_outcome)
    yield feedback
    feedback.stop()


def on_times(pin) -> list[float]:
    """How long each on-phase of a pin lasted."""
    states = pin.states
    return [states[i + 1].timestamp for i in range(len(states) - 1) if states[i].state and i > 0]


def test_an_accepted_tap_flashes_once_within_50_ms(pins, table, lights):
    led, buzzer = pins.pin(LED_PIN), pins.pin(BUZZER_PIN)
    led.clear_states()
    table.put({"tap": {"reader": "seat-1", "card": "test/red"}}, source="reader:seat-1")
    wait_for(lambda: len(led.states) >= 3 and len(buzzer.states) >= 3)
    assert led.states[1].state is True and led.states[1].timestamp < 0.05
    assert [s.state for s in led.states] == [False, True, False]      # one flash
    assert on_times(buzzer)[0] < 0.15                                 # a short chirp


def test_a_refused_tap_flashes_three_times_and_buzzes_long(pins, table, lights):
    led, buzzer = pins.pin(LED_PIN), pins.pin(BUZZER_PIN)
    led.clear_states()
    table.put({"tap": {"reader": "seat-1", "card": "test/green"}}, source="reader:seat-1")
    wait_for(lambda: len(led.states) >= 7 and len(buzzer.states) >= 3)
    assert led.states[1].timestamp < 0.05
    assert [s.state for s in led.states] == [False, True, False, True, False, True, False]
    assert on_times(buzzer)[0] >= 0.3


def test_buttons_and_lifts_do_not_flash(pins, table, lights):
    led = pins.pin(LED_PIN)
    led.clear_states()
    table.submit({"lift": {"reader": "seat-1", "card": "test/red"}})
    table.submit({"button": {"name": "advance"}})
    time.sleep(0.05)
    assert [s.state for s in led.states] == [False]


def test_hold_to_undo_makes_a_long_press_on_advance_one_undo(pins):
    """Issue 18 item 11: [buttons] hold_to_undo_ms: a short press is advance (on release), a
    press held that long is one undo and no advance."""
    sink = Recorder()
    panel = ButtonPanel({"advance": ADVANCE}, sink, debounce_s=0.02, hold_to_undo_s=0.3)
    panel.start()
    try:
        press(pins, ADVANCE, hold=0.05)
        wait_for(lambda: sink.inputs, what="the advance")
        time.sleep(0.05)
        press(pins, ADVANCE, hold=0.8)           # past the hold time: gpiozero fires when_held
        wait_for(lambda: len(sink.inputs) == 2, what="the undo")
        time.sleep(0.1)
    finally:
        panel.stop()
    assert sink.inputs == [{"button": {"name": "advance"}}, {"button": {"name": "undo"}}]
    assert [source for _, source, _ in sink.items] == ["button:advance", "button:advance"]
