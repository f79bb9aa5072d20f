"""The hardware configuration: ``config.toml`` in the data dir (see ``config.example.toml``).

:func:`load` reads and checks the whole file and raises :class:`ConfigError`
listing every problem in plain words, so ``tofu-table doctor`` can show them
all at once.  Pins are BCM GPIO numbers, as gpiozero uses.
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from server.protocol import READERS

FILE_NAME = "config.toml"
EXAMPLE = Path(__file__).with_name("config.example.toml")
DRIVERS = ("mfrc522", "usb", "simulated")
GPIO_PINS = range(0, 28)
#: The highest chip select the Pi's SPI overlays give each bus: spi0-2cs (CE0-1), spi1-3cs and
#: spi2-3cs (CE0-2), spi3-2cs to spi6-2cs (CE0-1; SPI3-6 on a Pi 4, SPI3-5 on a Pi 5).
MAX_CHIP_SELECT = {0: 1, 1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}
#: Receiver gains the MFRC522 offers (RFCfgReg), in dB.
RX_GAINS_DB = (18, 23, 33, 38, 43, 48)
_BUTTON = re.compile(r"^[a-z][a-z0-9_]{0,31}$")

_SECTIONS = {
    "hub": {"lift_after_ms", "lift_misses", "min_round_ms", "idle_round_ms", "doze_after_s", "doze_round_ms",
            "deep_doze_after_s", "deep_doze_round_ms", "retry_first_s", "retry_max_s"},
    "readers": {"name", "driver", "bus", "device", "reset_pin", "speed_hz", "timeout_ms", "attempts",
                "rx_gain_db", "match"},
    "buttons": {"pull_up", "debounce_ms", "hold_to_undo_ms", "pins"},
    "leds": set(),
    "buzzer": {"pin", "active_high"},
    "camera": None,   # the camera's own settings, checked by the camera code
}


class ConfigError(ValueError):
    """The configuration has problems; ``problems`` lists each one in plain words."""

    def __init__(self, path: Path, problems: list[str]):
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path, self.problems = path, problems


@dataclass
class ReaderConfig:
    """One reader: which driver, and where it is connected."""

    name: str
    driver: str
    bus: int = 0
    device: int = 0
    reset_pin: int | None = None
    speed_hz: int = 1_000_000
    timeout_ms: float = 1.0
    attempts: int = 3
    rx_gain_db: int = 48
    match: str = ""     # usb: part of the PC/SC reader's name


@dataclass
class Config:
    """The whole hardware configuration (defaults: no devices at all)."""

    readers: list[ReaderConfig] = field(default_factory=list)
    buttons: dict[str, int] = field(default_factory=dict)
    button_pull_up: bool = True
    debounce_ms: float = 50.0
    hold_to_undo_ms: float = 0.0      # 0: holding advance does nothing more
    leds: dict[str, int] = field(default_factory=dict)
    buzzer_pin: int | None = None
    buzzer_active_high: bool = True
    lift_after_ms: float = 400.0
    lift_misses: int = 3
    min_round_ms: float = 10.0
    idle_round_ms: float = 18.0
    doze_after_s: float = 5.0
    doze_round_ms: float = 40.0
    deep_doze_after_s: float = 30.0
    deep_doze_round_ms: float = 100.0
    retry_first_s: float = 0.5
    retry_max_s: float = 10.0
    camera: dict = field(default_factory=dict)
    path: Path | None = None

    def hub_timing(self) -> dict[str, float]:
        """The reader hub's timing settings, as :class:`hardware.hub.ReaderHub` takes them (seconds)."""
        return {"lift_after": self.lift_after_ms / 1000, "lift_misses": self.lift_misses,
                "min_round": self.min_round_ms / 1000, "idle_round": self.idle_round_ms / 1000,
                "doze_after": self.doze_after_s, "doze_round": self.doze_round_ms / 1000,
                "deep_doze_after": self.deep_doze_after_s, "deep_doze_round": self.deep_doze_round_ms / 1000,
                "retry_first": self.retry_first_s, "retry_max": self.retry_max_s}


class _Checker:
    def __init__(self):
        self.problems: list[str] = []

    def keys(self, where: str, table: dict, allowed: set) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else \
                    f" (known: {', '.join(sorted(allowed))})" if allowed else ""
                self.problems.append(f"{where} has an unknown setting {key!r}{hint}")

    def number(self, where: str, value, low: float, high: float, whole: bool = True):
        kinds = (int,) if whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
            self.problems.append(f"{where} must be a {'whole ' if whole else ''}number from {low:g} "
                                 f"to {high:g}, not {value!r}")
            return None
        return value

    def order(self, where: str, value: float | None, other: str, floor: float | None, why: str) -> None:
        """A problem when ``value`` is below ``floor`` (the setting ``other``); none when either is
        already refused."""
        if value is not None and floor is not None and value < floor:
            self.problems.append(f"{where} ({value:g}) must be at least {other} ({floor:g}): {why}")

    def pin(self, where: str, value):
        return self.number(where + " (a BCM GPIO number)", value, GPIO_PINS.start, GPIO_PINS.stop - 1)

    def flag(self, where: str, value) -> bool:
        if not isinstance(value, bool):
            self.problems.append(f"{where} must be true or false, not {value!r}")
            return True
        return value


def load(path: str | Path) -> Config:
    """Read and check ``path``; a missing file is an empty configuration (simulation)."""
    path = Path(path)
    if not path.exists():
        return Config(path=None)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [f"the file is not valid TOML: {exc}"]) from None
    return parse(raw, path)


def parse(raw: dict, path: Path) -> Config:
    """Check an already parsed TOML document; raises ConfigError listing every problem."""
    check, cfg = _Checker(), Config(path=path)
    check.keys("the file", raw, set(_SECTIONS))
    hub = _table(check, raw, "hub")
    check.keys("[hub]", hub, _SECTIONS["hub"])
    cfg.lift_after_ms = check.number("[hub] lift_after_ms", hub.get("lift_after_ms", 400), 0, 10_000, False) or 0
    cfg.lift_misses = check.number("[hub] lift_misses", hub.get("lift_misses", 3), 1, 50) or 3
    cfg.min_round_ms = check.number("[hub] min_round_ms", hub.get("min_round_ms", 10), 0, 1000, False) or 0
    cfg.idle_round_ms = check.number("[hub] idle_round_ms", hub.get("idle_round_ms", 18), 0, 1000, False) or 0
    doze_after = check.number("[hub] doze_after_s", hub.get("doze_after_s", 5), 0, 3600, False)
    doze_round = check.number("[hub] doze_round_ms", hub.get("doze_round_ms", 40), 0, 1000, False)
    deep_after = check.number("[hub] deep_doze_after_s", hub.get("deep_doze_after_s", 30), 0, 3600, False)
    deep_round = check.number("[hub] deep_doze_round_ms", hub.get("deep_doze_round_ms", 100), 0, 1000, False)
    check.order("[hub] deep_doze_after_s", deep_after, "doze_after_s", doze_after,
                "the deeper doze comes after the first")
    check.order("[hub] deep_doze_round_ms", deep_round, "doze_round_ms", doze_round,
                "the deeper doze polls less often")
    cfg.doze_after_s, cfg.doze_round_ms = doze_after or 0, doze_round or 0
    cfg.deep_doze_after_s, cfg.deep_doze_round_ms = deep_after or 0, deep_round or 0
    cfg.retry_first_s = check.number("[hub] retry_first_s", hub.get("retry_first_s", 0.5), 0.01, 60, False) or 0.5
    cfg.retry_max_s = check.number("[hub] retry_max_s", hub.get("retry_max_s", 10), 0.01, 600, False) or 10

    readers = raw.get("readers", [])
    if not isinstance(readers, list):
        check.problems.append("readers must be a list of [[readers]] tables")
        readers = []
    for number, entry in enumerate(readers, 1):
        reader = _reader(check, number, entry)
        if reader:
            cfg.readers.append(reader)
    names = [r.name for r in cfg.readers]
    for name in sorted({n for n in names if names.count(n) > 1}):
        check.problems.append(f"two readers are both called {name!r}: give each place its own reader")
    places = [(r.bus, r.device) for r in cfg.readers if r.driver == "mfrc522"]
    for bus, device in sorted({p for p in places if places.count(p) > 1}):
        check.problems.append(f"two MFRC522 readers are on the same chip select /dev/spidev{bus}.{device}")

    buttons = _table(check, raw, "buttons")
    check.keys("[buttons]", buttons, _SECTIONS["buttons"])
    cfg.button_pull_up = check.flag("[buttons] pull_up", buttons.get("pull_up", True))
    cfg.debounce_ms = check.number("[buttons] debounce_ms", buttons.get("debounce_ms", 50), 0, 1000, False) or 0
    hold = buttons.get("hold_to_undo_ms", 0)
    if hold != 0:
        hold = check.number("[buttons] hold_to_undo_ms (0 for off)", hold, 300, 10_000, False) or 0
    cfg.hold_to_undo_ms = hold
    pins = buttons.get("pins", {})
    if not isinstance(pins, dict):
        check.problems.append("[buttons.pins] must map button names to pins, like advance = 17")
        pins = {}
    for name, pin in pins.items():
        if not _BUTTON.match(name):
            check.problems.append(f"button name {name!r} must be lower-case letters, digits and _")
        elif check.pin(f"[buttons.pins] {name}", pin) is not None:
            cfg.buttons[name] = pin

    leds = _table(check, raw, "leds")
    for name, pin in leds.items():
        if name not in names:
            check.problems.append(f"[leds] {name}: there is no reader called {name!r} "
                                  f"(readers: {', '.join(names) or 'none'})")
        elif check.pin(f"[leds] {name}", pin) is not None:
            cfg.leds[name] = pin

    buzzer = _table(check, raw, "buzzer")
    check.keys("[buzzer]", buzzer, _SECTIONS["buzzer"])
    if "pin" in buzzer:
        cfg.buzzer_pin = check.pin("[buzzer] pin", buzzer["pin"])
    cfg.buzzer_active_high = check.flag("[buzzer] active_high", buzzer.get("active_high", True))
    cfg.camera = _table(check, raw, "camera")

    _check_pins(check, cfg)
    if check.problems:
        raise ConfigError(path, check.problems)
    return cfg


def _table(check: _Checker, raw: dict, name: str) -> dict:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        check.problems.append(f"[{name}] must be a table of settings")
        return {}
    return value


def _reader(check: _Checker, number: int, entry) -> ReaderConfig | None:
    where = f"reader {number}"
    if not isinstance(entry, dict):
        check.problems.append(f"{where} must be a [[readers]] table")
        return None
    check.keys(f"[[readers]] {number}", entry, _SECTIONS["readers"])
    name, driver = entry.get("name"), entry.get("driver", "mfrc522")
    if name not in READERS:
        check.problems.append(f"{where}: name must be one of {', '.join(READERS)}, not {name!r}")
        return None
    where = f"reader {name}"
    if driver not in DRIVERS:
        check.problems.append(f"{where}: driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
        return None
    reader = ReaderConfig(name=name, driver=driver)
    if driver == "mfrc522":
        reader.bus = check.number(f"{where}: bus", entry.get("bus", 0), 0, 6) or 0
        top = MAX_CHIP_SELECT.get(reader.bus, 2)
        reader.device = check.number(f"{where}: device (chip select; SPI{reader.bus} has CE0-CE{top})",
                                     entry.get("device", 0), 0, top) or 0
        if "reset_pin" in entry:
            reader.reset_pin = check.pin(f"{where}: reset_pin", entry["reset_pin"])
        reader.speed_hz = check.number(f"{where}: speed_hz", entry.get("speed_hz", 1_000_000),
                                       10_000, 10_000_000) or 1_000_000
        reader.timeout_ms = check.number(f"{where}: timeout_ms", entry.get("timeout_ms", 1), 0.5, 100,
                                         False) or 1.0
        reader.attempts = check.number(f"{where}: attempts", entry.get("attempts", 3), 1, 10) or 3
        gain = entry.get("rx_gain_db", 48)
        if isinstance(gain, bool) or gain not in RX_GAINS_DB:
            check.problems.append(f"{where}: rx_gain_db must be one of "
                                  f"{', '.join(map(str, RX_GAINS_DB))} (dB), not {gain!r}")
        else:
            reader.rx_gain_db = gain
    if driver == "usb":
        match = entry.get("match", "")
        if not isinstance(match, str):
            check.problems.append(f"{where}: match must be text (part of the reader's name)")
        else:
            reader.match = match
    return reader


def _check_pins(check: _Checker, cfg: Config) -> None:
    """No GPIO may do two jobs (readers may share one reset line)."""
    users: dict[int, list[str]] = {}
    for reader in cfg.readers:
        if reader.reset_pin is not None:
            users.setdefault(reader.reset_pin, [])
            if "reader reset" not in users[reader.reset_pin]:
                users[reader.reset_pin].append("reader reset")
    for name, pin in cfg.buttons.items():
        users.setdefault(pin, []).append(f"button {name}")
    for name, pin in cfg.leds.items():
        users.setdefault(pin, []).append(f"LED {name}")
    if cfg.buzzer_pin is not None:
        users.setdefault(cfg.buzzer_pin, []).append("buzzer")
    spi_pins = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
                16: "SPI1 CE2", 17: "SPI1 CE1", 18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI",
                21: "SPI1 SCLK"}
    buses = {r.bus for r in cfg.readers if r.driver == "mfrc522"}
    for pin, jobs in sorted(users.items()):
        if len(jobs) > 1:
            check.problems.append(f"GPIO{pin} is used for {' and '.join(jobs)}: one pin, one job")
        spi = spi_pins.get(pin)
        if spi and int(spi[3]) in buses:
            check.problems.append(f"GPIO{pin} ({', '.join(jobs)}) is {spi}, which the readers on "
                                  f"SPI{spi[3]} need")
