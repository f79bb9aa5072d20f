"""Plugins: devices, pages and commands come from entry points, and keep their state on the table's context.

A second distribution installed beside tofu-table (here a dist-info folder on
the path, as pip would leave it) adds a page, a device and a command without
touching tofu-table's code; the table's own parts are found the same way.
"""
import subprocess
import sys
import textwrap

import pytest
import requests

from hardware import station
from server import cli, plugins
from server.context import TableContext
from tests.support.server import ROOT, run_server

EXTRA_MODULE = '''
from flask import jsonify


def register(app, socketio, ctx):
    @app.get("/api/extra")
    def extra():
        return jsonify(started=ctx.plugins.get("extra", {}).get("started", False))


def start(ctx):
    ctx.plugins["extra"] = {"started": True}
    return lambda: ctx.plugins.pop("extra")


def add_parser(subparsers):
    p = subparsers.add_parser("extra", help="say that the extra plugin answered")
    p.set_defaults(func=lambda args: print("the extra plugin answered") or 0)
'''


@pytest.fixture
def extra_distribution(tmp_path, monkeypatch):
    """An installed distribution ``tofu-extra`` naming one page, one device and one command."""
    folder = tmp_path / "site"
    info = folder / "tofu_extra-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tofu-extra\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent("""\
        [tofu_table.pages]
        extra = tofu_extra:register

        [tofu_table.devices]
        extra = tofu_extra:start

        [tofu_table.commands]
        extra = tofu_extra:add_parser
        """))
    (folder / "tofu_extra.py").write_text(EXTRA_MODULE)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH", str(folder))   # for the server in its subprocess
    return folder


def test_the_tables_own_parts_are_entry_points():
    assert {"readers", "camera", "systemd"} <= {p.name for p in plugins.found(plugins.DEVICES)}
    assert {"join", "enrol", "readers", "camera", "sound", "players", "history",
            "food-for-thought"} <= {p.name for p in plugins.found(plugins.PAGES)}
    assert {"backup", "data", "enrol", "doctor", "vision"} <= {p.name for p in plugins.found(plugins.COMMANDS)}


def test_a_page_and_a_device_of_another_distribution_run_in_the_real_server(tmp_path, extra_distribution):
    with run_server(tmp_path / "data") as srv:
        answer = requests.get(srv.url + "/api/extra", timeout=10)
        assert answer.status_code == 200
        # the device was started before serving, and the page reads what it keeps on the context
        assert answer.json() == {"started": True}
        assert requests.get(srv.url + "/api/health", timeout=10).ok   # the table's own parts too


def test_a_command_of_another_distribution_is_a_subcommand(extra_distribution, capsys):
    assert cli.main(["extra"]) == 0
    assert capsys.readouterr().out == "the extra plugin answered\n"


def test_only_the_named_plugins_are_loaded(extra_distribution):
    assert [name for name, _ in plugins.load(plugins.DEVICES, {"extra"})] == ["extra"]


def test_importing_the_server_loads_no_plugin():
    """Plugins are imported when the table starts them, so a command that needs none pays for none."""
    code = ("import sys, server.app, server.cli\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('vision', 'hardware')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_stale_install_is_told_to_reinstall(monkeypatch):
    monkeypatch.setattr(plugins, "entry_points", lambda group: [])
    with pytest.raises(plugins.PluginsMissing, match="scripts/install.sh"):
        plugins.load(plugins.PAGES)


def test_each_table_keeps_its_own_devices_on_its_context(tmp_path):
    """Two tables in one process: each context holds its own registry and readers, none a module global."""
    first = TableContext.open(tmp_path / "one", simulate=True)
    second = TableContext.open(tmp_path / "two", simulate=True)
    stop_first, stop_second = station.start(first), station.start(second)
    try:
        assert station.station_for(first) is first.plugins["readers"]
        assert station.station_for(second) is second.plugins["readers"]
        assert station.station_for(first) is not station.station_for(second)
        assert station.registry_for(first).path != station.registry_for(second).path
        stop_first()
        assert station.station_for(first) is None
        assert station.station_for(second) is not None   # stopping one table leaves the other's readers
    finally:
        stop_second()
