"""`tofu-table doctor` and the station `tofu-table serve` starts, on emulated devices.

doctor must name each wrong thing in plain words; the station must put taps
from configured readers on the table and show every device in the health list.
"""
import io
import threading
import time
from argparse import Namespace

import requests
from gpiozero import Device

from hardware import doctor, station
from hardware.mfrc522_reader import Mfrc522Reader
from hardware.registry import TagRegistry
from server.context import TableContext
from tests.support.emulated_serve import device_dir
from tests.support.emulated_table import EmulatedTable
from tests.support.hardware_helpers import wait_for
from tests.support.server import free_port
from tests.support.mfrc522_emulator import EmulatedTag, Emulator

CONFIG = """
[[readers]]
name = "seat-1"
bus = 0
device = 0
reset_pin = 25
[[readers]]
name = "seat-2"
bus = 0
device = 1
reset_pin = 25
[buttons.pins]
advance = 5
[leds]
seat-1 = 12
"""


def run_doctor(data, **kw) -> tuple[int, str]:
    out = io.StringIO()
    status = doctor.run(Namespace(data=str(data), example=False, **kw), out=out)
    return status, out.getvalue()


def test_doctor_reports_each_reader_and_pin(tmp_path, pins):
    (tmp_path / "config.toml").write_text(CONFIG)
    registry = TagRegistry.in_data_dir(tmp_path)
    registry.enrol("04A224C2B31190", "tofu-kingdom/queen")
    registry.close()
    with Emulator() as emu:
        emu.add_reader(0, 0, reset_pin=25).place(EmulatedTag("04A224C2B31190"))
        emu.add_empty_device(0, 1)
        status, text = run_doctor(tmp_path)
    assert status == 1
    assert ("ok       seat-1: MFRC522 on /dev/spidev0.0, reset on GPIO25 (MFRC522 v2.0) answers; "
            "tag 04A224C2B31190 on it (tofu-kingdom/queen)") in text
    assert "PROBLEM  seat-2: nothing answers on /dev/spidev0.1" in text
    assert "ok       button advance: GPIO5 is free and set up (pull-up: pressed connects it to GND)" in text
    assert "ok       LED seat-1: GPIO12 is free and set up" in text
    assert "Tofu Kingdom cards: 1 of 8 cards enrolled" in text
    assert "1 problem found." in text


def test_doctor_without_a_configuration_explains_simulation(tmp_path):
    status, text = run_doctor(tmp_path)
    assert status == 0 and "the table runs in simulation" in text and "All good." in text


def test_doctor_lists_configuration_mistakes(tmp_path):
    (tmp_path / "config.toml").write_text('[[readers]]\nname = "seat-1"\ndriver = "nfc"\n')
    status, text = run_doctor(tmp_path)
    assert status == 1 and "PROBLEM  reader seat-1: driver must be one of mfrc522, usb, simulated" in text


def test_doctor_off_a_pi_says_gpio_cannot_be_checked_once(tmp_path, monkeypatch):
    (tmp_path / "config.toml").write_text("[buttons.pins]\nadvance = 5\nundo = 6\n")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "none")     # as on a machine with no pin driver
    old = Device.pin_factory
    Device.pin_factory = None
    try:
        status, text = run_doctor(tmp_path)
    finally:
        Device.pin_factory = old
    assert status == 1
    assert text.count("no GPIO pin driver works here") == 1


def test_doctor_prints_the_example():
    out = io.StringIO()
    assert doctor.run(Namespace(data=".", example=True), out=out) == 0
    assert "[[readers]]" in out.getvalue() and "spi1-3cs" in out.getvalue()


def test_the_station_puts_reader_taps_on_the_table_and_reports_health(tmp_path, pins):
    (tmp_path / "config.toml").write_text(CONFIG)
    registry = TagRegistry.in_data_dir(tmp_path)
    registry.enrol("A1B2C3D4", "test/red")
    registry.close()
    ctx = TableContext.open(tmp_path, simulate=False)
    ctx.table.handle({"new_game": {"game": "tiny", "players": ["Anna"], "seed": 1, "options": {}}})
    ctx.table.start()
    with Emulator() as emu:
        chip = emu.add_reader(0, 0, reset_pin=25)
        stop = station.start(ctx)
        try:
            chip.place(EmulatedTag("A1B2C3D4"))
            wait_for(lambda: ctx.table.state["secrets"].get("1") == "red")
            pins.pin(5).drive_low()
            wait_for(lambda: ctx.table.state["round"] == 2)
            # seat-2's missing SPI device is found by the hub's own thread: wait until it has looked
            wait_for(lambda: {r["name"]: r for r in ctx.health.snapshot()["readers"]}["seat-2"]["status"] != "starting")
            health = ctx.health.snapshot()
            readers = {r["name"]: r for r in health["readers"]}
            assert readers["seat-1"]["status"] == "ok" and readers["seat-1"]["last_seen"]
            assert readers["seat-2"]["status"] == "down"
            assert "/dev/spidev0.1 does not exist: enable SPI" in readers["seat-2"]["detail"]
            assert {b["name"]: b["status"] for b in health["buttons"]} == {"button advance": "ok",
                                                                          "LED seat-1": "ok"}
        finally:
            stop()
            ctx.table.stop()


def test_a_configuration_with_mistakes_starts_nothing_and_shows_why_in_health(tmp_path):
    (tmp_path / "config.toml").write_text('[[readers]]\nname = "seat-1"\nbus = 9\n')
    ctx = TableContext.open(tmp_path, simulate=False)
    stop = station.start(ctx)
    try:
        readers = ctx.health.snapshot()["readers"]
        assert station.station_for(ctx) is None
        assert [(r["name"], r["status"]) for r in readers] == [("config.toml", "down")]
        assert "reader seat-1: bus must be a whole number from 0 to 6" in readers[0]["detail"]
        assert "tofu-table doctor" in readers[0]["detail"]
    finally:
        stop()


def test_doctor_sets_buttons_up_as_wired(tmp_path, pins):
    """Issue 18 item 11: [buttons] pull_up = false is pull-down wiring, for doctor too."""
    (tmp_path / "config.toml").write_text("[buttons]\npull_up = false\n[buttons.pins]\nadvance = 5\n")
    status, text = run_doctor(tmp_path)
    assert status == 0
    assert "ok       button advance: GPIO5 is free and set up (pull-down: pressed connects it to 3.3 V)" in text


def test_doctor_asks_the_running_table_about_the_readers_it_holds(tmp_path):
    """Issue 18 item 4: doctor must not poll a chip the table is polling (their register
    traffic would interleave); the reader's lock tells it so, and it reads /api/health."""
    (tmp_path / "config.toml").write_text(
        '[[readers]]\nname = "seat-1"\nbus = 0\ndevice = 0\n[camera]\nsource = "off"\n')
    srv = EmulatedTable(tmp_path, simulate=False).start()
    try:
        srv.hardware(place="seat-1", uid="04A224C2B31190")
        wait_for(lambda: requests.get(srv.url + "/api/health", timeout=5).json()["readers"][0]["status"] == "ok",
                 timeout=10, what="the table's reader up")
        with Emulator(device_dir=device_dir(tmp_path)) as emu:
            emu.add_reader(0, 0)
            status, text = run_doctor(tmp_path, port=srv.port)
    finally:
        srv.stop()
    assert status == 0, text
    assert "ok       seat-1: held by the running table, which reports it ok (MFRC522 on /dev/spidev0.0" in text


def test_doctor_says_when_a_reader_is_held_and_no_table_answers(tmp_path):
    (tmp_path / "config.toml").write_text('[[readers]]\nname = "seat-1"\nbus = 0\ndevice = 0\n')
    with Emulator() as emu:
        emu.add_reader(0, 0)
        holder = Mfrc522Reader("seat-1", 0, 0)
        holder.open()
        status, text = run_doctor(tmp_path, port=free_port())
        holder.close()
    assert status == 1
    assert "PROBLEM  seat-1: /dev/spidev0.0 is in use by another program" in text
    assert "no table answers on port" in text


class Owner(io.StringIO):
    """The owner at the table during ``doctor --soak``: does what each printed line asks, on
    the emulated chips, and meanwhile the chips suffer a brown-out and a stalled bus."""

    def __init__(self, emu, chips):
        super().__init__()
        self.emu, self.chips, self.lines = emu, chips, []
        self.thread = None

    def write(self, text):
        self.lines.append(text)
        threading.Thread(target=self._act, args=(text,), daemon=True).start()
        return super().write(text)

    def _act(self, line):
        name = line.split(":")[0]
        chip = self.chips.get(name)
        if "lay a 4-byte" in line or "lay a 7-byte" in line:
            tag = EmulatedTag("A1B2C3D4" if "4-byte" in line else "04A224C2B31190")
            chip.place(tag)
            # Lifted once the reader has read it whole and put it to sleep (however slow the poll).
            wait_for(lambda: tag.was_halted, timeout=10, what="the laid tag read whole")
            chip.remove(tag)
        elif "unplug the reader" in line:
            asked = chip.unanswered_version_reads
            chip.unplug(floating=0xFF)
            # Plugged back once the driver has found the chip silent (however slow the poll).
            wait_for(lambda: chip.unanswered_version_reads > asked, timeout=10, what="the unplugged chip found silent")
            chip.plug()
        elif "leave one card resting" in line:
            tags = [EmulatedTag(f"04A224C2B311{i:02X}", power_up_s=0.005) for i in range(len(self.chips))]
            for chip, tag in zip(self.chips.values(), tags):
                chip.place(tag)
            time.sleep(0.4)
            self.chips["seat-1"].brown_out()
            time.sleep(0.4)
            tags[1].fail("silent", 1)
            self.emu.buses[0].stall(0.3)


def test_doctor_soak_walks_the_owner_through_every_reader_and_finds_nothing_spurious(tmp_path):
    """The owner's soak test (issue 18): each reader reads 4- and 7-byte tags whole, comes back
    after being unplugged, and resting cards give no lift or tap through faults."""
    (tmp_path / "config.toml").write_text(
        "[hub]\nlift_after_ms = 100\nretry_first_s = 0.05\nretry_max_s = 0.2\n"
        '[[readers]]\nname = "seat-1"\nbus = 0\ndevice = 0\n'
        '[[readers]]\nname = "seat-2"\nbus = 0\ndevice = 1\n')
    with Emulator() as emu:
        chips = {"seat-1": emu.add_reader(0, 0), "seat-2": emu.add_reader(0, 1)}
        owner = Owner(emu, chips)
        status = doctor.run(Namespace(data=str(tmp_path), example=False, soak=0.03, port=1), out=owner)
    text = owner.getvalue()
    assert status == 0, text
    for name in ("seat-1", "seat-2"):
        section = text.split(f"  {name}:\n")[1]
        assert "ok       a 4-byte tag (MIFARE Classic): read whole" in section
        assert "ok       a 7-byte tag (an NTAG sticker): read whole" in section
        assert "ok       unplug and replug: down, then back by itself" in section
        assert "while resting: 0 spurious input(s), 0 lift/tap pair(s) (must be 0)" in section
        assert "polls/s; polling CPU" in section and "poll results:" in section
    assert "down" in text.split("  seat-1:\n")[1].split("poll results:")[1]
    assert "Soak passed." in text


class CarelessOwner(Owner):
    """Skips the unplugging, and picks up the resting card and puts it back during the soak."""

    def _act(self, line):
        if "unplug the reader" in line:
            return
        if "leave one card resting" in line:
            chip, tag = self.chips["seat-1"], EmulatedTag("04A224C2B31100")
            chip.place(tag)
            time.sleep(0.3)
            chip.remove(tag)
            time.sleep(0.3)
            chip.place(tag)
            return
        super()._act(line)


def test_the_soak_reports_a_skipped_step_and_every_lift_and_tap_while_cards_rest(tmp_path):
    from hardware import soak
    from hardware.config import load

    (tmp_path / "config.toml").write_text(
        "[hub]\nlift_after_ms = 100\n" '[[readers]]\nname = "seat-1"\nbus = 0\ndevice = 0\n')
    with Emulator() as emu:
        owner = CarelessOwner(emu, {"seat-1": emu.add_reader(0, 0)})
        status = soak.run(load(tmp_path / "config.toml"), 0.02, owner, step_timeout=1.0)
    text = owner.getvalue()
    assert status == 1
    assert "PROBLEM  unplug and replug: NOT SEEN" in text
    assert "PROBLEM  while resting: 2 spurious input(s), 1 lift/tap pair(s) (must be 0)" in text
    assert "Soak found 2 problem(s)." in text
