"""Plugins: the devices, pages and commands a table is built from, found through entry points.

A distribution (this one, or any other installed beside it) names its parts in
``pyproject.toml``, the way gpiozero names its pin factories::

    [project.entry-points."tofu_table.devices"]
    camera = "vision.camera:start"        # start(ctx) -> stop(); started by `serve`

    [project.entry-points."tofu_table.pages"]
    camera = "vision.web:register"        # register(app, socketio, ctx); called by create_app

    [project.entry-points."tofu_table.commands"]
    markers = "vision.cli:add_markers"    # add_markers(subparsers); `tofu-table markers`

Nothing is imported until it is used: :func:`found` lists the entry points
without loading them, :func:`load` imports one group's callables when the
table starts (so ``import server.app`` costs none of them).  A plugin keeps
what it runs for a table in ``ctx.plugins`` under its own name, never in a
module global.  After changing entry points an editable install needs
reinstalling (``scripts/install.sh`` does it when pyproject.toml changed).
"""
from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Callable

DEVICES = "tofu_table.devices"
PAGES = "tofu_table.pages"
COMMANDS = "tofu_table.commands"


class PluginsMissing(RuntimeError):
    """The installed metadata has none of a group's entry points: the install is older than them."""


def found(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` in every installed distribution, by name (none loaded)."""
    chosen: dict[str, EntryPoint] = {}
    for point in entry_points(group=group):
        chosen.setdefault(point.name, point)   # a name twice (a stale egg-info): the first wins
    if not chosen:
        # tofu-table itself names some of every group: none at all means a stale editable install
        raise PluginsMissing(f"No {group} entry points are installed: the installed tofu-table "
                             "predates them. Run `bash scripts/install.sh --dev` (it reinstalls "
                             "when pyproject.toml changed) and try again.")
    return [chosen[name] for name in sorted(chosen)]


def load(group: str, names: set[str] | None = None) -> list[tuple[str, Callable]]:
    """Import and return ``(name, callable)`` for ``group``'s entry points (only ``names`` when given)."""
    return [(point.name, point.load()) for point in found(group) if names is None or point.name in names]
