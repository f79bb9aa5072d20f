"""`tofu-table doctor` and the station `tofu-table serve` starts, on emulated devices.

doctor must name each wrong thing in plain words; the station must put taps
from configured readers on the table and show every device in the health list.
"""
import io
from argparse import Namespace

from gpiozero import Device

from hardware import doctor, station
from hardware.registry import TagRegistry
from server.context import TableContext
from tests.support.hardware_helpers import wait_for
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
    assert "ok       button advance: GPIO5 is free and set up" in text
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
