"""Everything one running table is made of, built once by ``tofu-table serve``.

Plugins (device drivers, the camera, extra pages: :mod:`server.plugins`)
receive this context so they can put inputs on the table, report health, keep
files in the data dir and keep what they run in ``plugins``.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .access import Access, load_host_token
from .devices import DeviceStore
from .health import Health
from .journal import Journal
from .players import Roster
from .table import Table


def default_data_dir() -> Path:
    """``$TOFU_TABLE_DATA``, else ``$XDG_DATA_HOME/tofu-table``, else ``~/.local/share/tofu-table``."""
    if os.environ.get("TOFU_TABLE_DATA"):
        return Path(os.environ["TOFU_TABLE_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tofu-table"


def _already_set() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


@dataclass
class TableContext:
    """The table, who may use it, its players, device health, and where its files live."""

    data_dir: Path
    simulate: bool
    table: Table
    access: Access
    roster: Roster
    devices: DeviceStore
    health: Health = field(default_factory=Health)
    public_url: str | None = None
    local_display: bool = False   # the browser on this machine is a paired display (the Pi's kiosk TV)
    #: What the plugins run for this table, each under its own name (the camera's service under "camera")
    plugins: dict[str, Any] = field(default_factory=dict)
    #: Set once the web server listens (``serve`` clears it until then; without a server there is
    #: nothing to wait for): a plugin with a slow start waits for it, so the table answers first
    listening: threading.Event = field(default_factory=_already_set)

    @classmethod
    def open(cls, data_dir: Path, simulate: bool, public_url: str | None = None,
             local_display: bool = False) -> "TableContext":
        """Open (or create) the data dir's journal, host token and devices, and refold the table."""
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        table = Table(Journal(data_dir / "journal.sqlite"))
        access = Access(load_host_token(data_dir), simulate)
        ctx = cls(data_dir=data_dir, simulate=simulate, table=table, access=access,
                  roster=Roster(data_dir / "players.sqlite"),
                  devices=DeviceStore(data_dir / "devices.sqlite"), public_url=public_url,
                  local_display=local_display)
        ctx.health.register("table", table.health)
        return ctx
