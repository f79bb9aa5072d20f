"""A table nobody has touched for a while (issue 20): the readers doze, then doze deeply, polling
less and less often, yet a card laid after the longest lull is still one tap, journaled, and wakes
its readers, and the other buses' from the deep doze; each reader's health says the pace it is
polled at."""
import json
import sqlite3
import time

from hardware.hub import ReaderHub
from hardware.mfrc522_reader import Mfrc522Reader
from hardware.registry import TagRegistry
from server import games
from server.journal import Journal
from server.table import Table
from tests.support import tiny_game
from tests.support.hardware_helpers import wait_for
from tests.support.mfrc522_emulator import EmulatedTag, Emulator

RED = "04A224C2B31190"


class MovedClock:
    """The hub's clock, moved on by the test: minutes of lull without waiting for them."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _seconds_a_poll(hub: ReaderHub, reader: str, polls: int = 5) -> float:
    """Wall-clock seconds between the hub's polls of ``reader``, over the next ``polls`` polls."""
    first = hub.polls()[reader]
    start = time.monotonic()
    wait_for(lambda: hub.polls()[reader] >= first + polls, timeout=10, what=f"{polls} polls")
    return (time.monotonic() - start) / polls


def test_a_card_laid_after_a_long_lull_is_journaled_and_wakes_the_readers(tmp_path):
    games.register(tiny_game.GAME)
    registry = TagRegistry.in_data_dir(tmp_path)
    registry.enrol(RED, "test/red")
    table = Table(Journal(tmp_path / "journal.sqlite"), resolve_uid=registry.resolve_uid)
    table.start()
    assert table.handle({"new_game": {"game": "tiny", "players": ["Ann", "Ben"], "options": {"rounds": 9}}}).accepted
    clock = MovedClock()
    with Emulator() as emu:
        chip = emu.add_reader(0, 0, reset_pin=25)
        hub = ReaderHub([Mfrc522Reader("seat-1", 0, 0, reset_pin=25)], table.put, min_round=0.002,
                        idle_round=0.01, doze_after=5, doze_round=0.04, deep_doze_after=30, deep_doze_round=0.1,
                        lift_after=0.1, clock=clock)
        hub.start()
        try:
            def pace() -> str:
                return hub.health()[0]["pace"]
            wait_for(lambda: hub.polls()["seat-1"] >= 3, what="the reader answering")
            assert pace() == "waiting" and "dozing" not in hub.health()[0]["detail"]
            clock.now += 6
            wait_for(lambda: pace() == "dozing", what="the first doze")
            assert "dozing: a poll every 40 ms" in hub.health()[0]["detail"]
            clock.now += 25
            wait_for(lambda: pace() == "dozing deeply", what="the deep doze")
            assert "dozing deeply: a poll every 100 ms, no card on the table for 30 s" in hub.health()[0]["detail"]
            assert _seconds_a_poll(hub, "seat-1") >= 0.1 * 0.8        # 10 polls a second, not 25
            clock.now += 600                                           # ten minutes of nothing
            chip.place(EmulatedTag(RED))
            wait_for(lambda: pace() == "playing", what="the card seen")
            journal = sqlite3.connect(tmp_path / "journal.sqlite")
            rows = wait_for(lambda: journal.execute("SELECT source, input FROM inputs WHERE source LIKE "
                                                    "'reader:%'").fetchall(), what="the tap journaled")
            journal.close()
            assert [(source, json.loads(inp)) for source, inp in rows] == [
                ("reader:seat-1", {"tap": {"reader": "seat-1", "uid": RED, "card": "test/red"}})]
            assert table.state["secrets"] == {"1": "red"}
            chip.remove()

            def lifted() -> bool:
                clock.now += 0.05        # time passes: a poll that saw the card just before still counts
                return pace() != "playing"
            wait_for(lifted, what="the lift")
            assert pace() == "waiting"
            assert _seconds_a_poll(hub, "seat-1") < 0.04 * 0.8, "awake again: the idle pace, not a doze"
        finally:
            hub.stop()
            table.stop()


def test_a_card_on_one_bus_wakes_the_other_buses_from_the_deep_doze():
    """The deep doze is the whole table's: once a card lies anywhere, the next tap on another bus
    waits for a first-doze round (40 ms) at most, not a deep one (100 ms); the first doze stays each
    bus's own (nobody playing at that end of the table)."""
    clock = MovedClock()
    with Emulator() as emu:
        chip = emu.add_reader(0, 0, reset_pin=25)
        emu.add_reader(1, 0, reset_pin=25)
        hub = ReaderHub([Mfrc522Reader("seat-1", 0, 0, reset_pin=25), Mfrc522Reader("seat-3", 1, 0, reset_pin=25)],
                        lambda inp, source: None, min_round=0.002, idle_round=0.01, doze_after=5, doze_round=0.04,
                        deep_doze_after=30, deep_doze_round=0.1, lift_after=0.1, clock=clock)
        hub.start()
        try:
            def paces() -> list[str]:
                return [r["pace"] for r in hub.health()]
            wait_for(lambda: min(hub.polls().values()) >= 3, what="both readers answering")
            clock.now += 60
            wait_for(lambda: paces() == ["dozing deeply"] * 2, what="the deep doze")
            chip.place(EmulatedTag(RED))
            wait_for(lambda: paces() == ["playing", "dozing"], what="seat-3's bus awake from the deep doze")
            assert _seconds_a_poll(hub, "seat-3") < 0.1 * 0.8         # 25 polls a second, not 10
        finally:
            hub.stop()
