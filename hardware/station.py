"""The table's hardware, built from ``config.toml``: readers and their hub, buttons, lights.

``tofu-table serve`` calls :func:`start` (the ``readers`` device plugin,
:mod:`server.plugins`).  It always connects the tag registry to the table
(``Table.resolve_uid``).  In simulation it starts a simulated reader at every
place of the table; otherwise it starts the devices of the configuration and
reports their health under ``readers`` and ``buttons`` in ``/api/health``.  A
configuration with mistakes starts no device and shows the mistakes as a
``down`` record instead.
"""
from __future__ import annotations

import logging
from typing import Callable

from server.protocol import READERS

from .buttons import ButtonPanel
from .config import FILE_NAME, Config, ConfigError, ReaderConfig, load
from .feedback import Feedback
from .hub import ReaderHub, Sink
from .mfrc522_reader import Mfrc522Reader
from .reader import TagReader
from .registry import TagRegistry
from .simulated import SimulatedReader
from .usb_reader import PcscReader

log = logging.getLogger(__name__)


def make_reader(rc: ReaderConfig) -> TagReader:
    """The driver object for one configured reader."""
    if rc.driver == "mfrc522":
        return Mfrc522Reader(rc.name, rc.bus, rc.device, rc.reset_pin, rc.speed_hz,
                             rc.timeout_ms / 1000, rc.attempts, rc.rx_gain_db)
    if rc.driver == "usb":
        return PcscReader(rc.name, rc.match)
    return SimulatedReader(rc.name)


class Station:
    """Every configured device, sending inputs to ``sink`` (normally ``Table.put``)."""

    def __init__(self, config: Config, sink: Sink):
        self.config = config
        self.hub = ReaderHub([make_reader(rc) for rc in config.readers], sink, **config.hub_timing())
        self.buttons = ButtonPanel(config.buttons, sink, pull_up=config.button_pull_up,
                                   debounce_s=config.debounce_ms / 1000,
                                   hold_to_undo_s=config.hold_to_undo_ms / 1000)
        self.feedback = Feedback(config.leds, config.buzzer_pin, config.buzzer_active_high)
        self._table = None

    def start(self, table=None) -> None:
        """Start polling, claim the pins, and (given the table) signal its tap outcomes."""
        if self.config.buttons:
            self.buttons.start()
        if self.config.leds or self.config.buzzer_pin is not None:
            self.feedback.start()
        if table is not None:
            table.listeners.append(self.feedback.on_outcome)
            self._table = table
        self.hub.start()

    def stop(self) -> None:
        self.hub.stop()
        self.buttons.stop()
        self.feedback.stop()
        if self._table is not None and self.feedback.on_outcome in self._table.listeners:
            self._table.listeners.remove(self.feedback.on_outcome)

    def reader_health(self) -> list[dict]:
        return self.hub.health()

    def button_health(self) -> list[dict]:
        return self.buttons.health() + self.feedback.health()


#: Where a running table keeps its tag registry and its devices (in ``ctx.plugins``).
REGISTRY, STATION = "tags", "readers"


def registry_for(ctx) -> TagRegistry:
    """The tag registry of a running table (opened on first use)."""
    if REGISTRY not in ctx.plugins:
        ctx.plugins[REGISTRY] = TagRegistry.in_data_dir(ctx.data_dir, simulate=ctx.simulate)
    return ctx.plugins[REGISTRY]


def station_for(ctx) -> Station | None:
    """The devices of a running table, or None before they started."""
    return ctx.plugins.get(STATION)


def simulated_config() -> Config:
    """Simulation: a simulated reader at every place of the table, nothing else."""
    return Config(readers=[ReaderConfig(name=name, driver="simulated") for name in READERS],
                  min_round_ms=20.0)


def start(ctx) -> Callable[[], None]:
    """Connect the registry to ``ctx.table`` and start the devices; returns ``stop``.

    In simulation the devices are simulated readers (driven over HTTP, see
    :mod:`hardware.reader_web`); otherwise those of ``config.toml``.
    """
    registry = registry_for(ctx)
    ctx.table.resolve_uid = registry.resolve_uid
    if ctx.simulate:
        station = Station(simulated_config(), ctx.table.put)
        station.start()
    else:
        try:
            config = load(ctx.data_dir / FILE_NAME)
        except ConfigError as exc:
            log.error("%s", exc)
            problems = "; ".join(exc.problems)
            ctx.health.register("readers", lambda: [{
                "name": FILE_NAME, "kind": "config", "status": "down", "last_seen": None,
                "detail": f"no device started: {problems} (run `tofu-table doctor`)"}])
            return lambda: None
        station = Station(config, ctx.table.put)
        station.start(ctx.table)
        ctx.health.register("readers", station.reader_health)
        ctx.health.register("buttons", station.button_health)
    ctx.plugins[STATION] = station

    def stop() -> None:
        station.stop()
        ctx.plugins.pop(STATION, None)
    return stop
