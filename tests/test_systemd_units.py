"""Every unit in systemd/ passes `systemd-analyze verify`, as installed by pi/install.sh.

How the Pi-only paths are provided, honestly: pi/install.sh runs against a fake root (it writes
its files there and only prints apt/pip/systemctl), so the units, the sysusers file and the
kiosk script sit exactly where the installer puts them on a Pi.  The host's own unit library
(/usr/lib/systemd) is copied in, as a Pi has it.  The only thing a dry run cannot make is the
venv's `tofu-table` entry point (pip makes it on the Pi); the test puts a launcher for this
checkout at that path.  The system unit is verified with `--root` (systemd then checks
ExecStart= inside the fake root); `--root` does not work for user units, so the kiosk unit is
verified as a copy whose /opt/tofu-table paths point into the fake root.  verify exits 0 even
for an unknown directive or a bad value (it only warns), so any output at all fails the test.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.support.fake_pi import REPO, make_root, run_installer, snapshot_source
from tests.support.server import Server

pytestmark = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                reason="systemd-analyze is not installed (Debian package systemd)")


@pytest.fixture(scope="module")
def pi_root(tmp_path_factory):
    """A fake Pi with Tofu Table installed by pi/install.sh and the host's unit library."""
    src = snapshot_source(tmp_path_factory.mktemp("src"))
    root = make_root(tmp_path_factory.mktemp("pi") / "root", "trixie")
    run_installer(src, root)
    for kind in ("system", "user"):
        shutil.copytree(f"/usr/lib/systemd/{kind}", root / "usr/lib/systemd" / kind, symlinks=True)
    entry = root / "opt/tofu-table/venv/bin/tofu-table"
    entry.parent.mkdir(parents=True)
    entry.write_text(f"#!/bin/sh\ncd {REPO} && exec {sys.executable} -m server.cli \"$@\"\n")
    entry.chmod(0o755)
    return root


def verify_system(root, unit="tofu-table.service"):
    return subprocess.run(["systemd-analyze", "verify", f"--root={root}", unit],
                          capture_output=True, text=True, timeout=60)


def verify_user(root, tmp_path, unit_text):
    unit = tmp_path / "tofu-table-kiosk.service"
    unit.write_text(unit_text.replace("/opt/tofu-table/", f"{root}/opt/tofu-table/"))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return subprocess.run(["systemd-analyze", "verify", "--user", str(unit)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})


def test_every_unit_in_systemd_is_verified_here():
    units = sorted(p.name for p in (REPO / "systemd").glob("*.service"))
    assert units == ["tofu-table-kiosk.service", "tofu-table.service"]


def test_server_unit_passes_verify(pi_root):
    r = verify_system(pi_root)
    assert (r.returncode, r.stdout + r.stderr) == (0, "")


def test_kiosk_user_unit_passes_verify(pi_root, tmp_path):
    r = verify_user(pi_root, tmp_path, (pi_root / "etc/systemd/user/tofu-table-kiosk.service").read_text())
    assert (r.returncode, r.stdout + r.stderr) == (0, "")


def test_verify_would_catch_a_missing_program_or_a_bad_line(pi_root, tmp_path):
    """The checks above can fail: a missing ExecStart program, and a misspelt setting."""
    entry = pi_root / "opt/tofu-table/venv/bin/tofu-table"
    entry.rename(entry.with_suffix(".away"))
    try:
        r = verify_system(pi_root)
    finally:
        entry.with_suffix(".away").rename(entry)
    assert r.returncode != 0 and "is not executable" in r.stderr
    text = (pi_root / "etc/systemd/user/tofu-table-kiosk.service").read_text()
    r = verify_user(pi_root, tmp_path, text.replace("Restart=always", "Restart=sometimes"))
    assert "sometimes" in r.stderr


def test_server_unit_settings_the_appliance_relies_on(pi_root):
    """Watchdog through sd_notify, restart on failure, unprivileged user in spi/gpio/video, journal."""
    text = (pi_root / "etc/systemd/system/tofu-table.service").read_text()
    settings = dict(line.split("=", 1) for line in text.splitlines()
                    if "=" in line and not line.startswith("#"))
    assert settings["Type"] == "notify" and int(settings["WatchdogSec"]) > 0
    assert settings["Restart"] == "on-failure"
    assert settings["User"] == "tofu" and set(settings["SupplementaryGroups"].split()) == {"spi", "gpio", "video"}
    assert settings["StandardOutput"] == settings["StandardError"] == "journal"
    assert "--host 0.0.0.0" in settings["ExecStart"]
    assert "--local-display" in settings["ExecStart"]   # the kiosk TV shows the join and seat codes


def test_sysusers_makes_the_user_in_the_device_groups(tmp_path):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\nvideo:x:44:\nspi:x:999:\ngpio:x:997:\n")
    r = subprocess.run(["systemd-sysusers", f"--root={root}", str(REPO / "systemd/tofu-table.sysusers")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    user = next(l for l in (root / "etc/passwd").read_text().splitlines() if l.startswith("tofu:"))
    assert user.split(":")[5:] == ["/var/lib/tofu-table", "/usr/sbin/nologin"]
    groups = {l.split(":")[0]: l.split(":")[3].split(",") for l in (root / "etc/group").read_text().splitlines()}
    assert all("tofu" in groups[g] for g in ("spi", "gpio", "video"))


def test_kiosk_script_waits_for_the_table_then_opens_the_tv_page_full_screen(tmp_path):
    """tofu-table-kiosk: no Chromium until the server answers, then the TV page in kiosk mode."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "chromium-args"
    (bin_dir / "chromium").write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {record}\n")
    (bin_dir / "chromium").chmod(0o755)
    server = Server(tmp_path / "data")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "TOFU_TABLE_PORT": str(server.port)}
    kiosk = subprocess.Popen([str(REPO / "pi/tofu-table-kiosk")], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        assert kiosk.poll() is None and not record.exists()   # still waiting: no server yet
        server.start()
        assert kiosk.wait(10) == 0
    finally:
        kiosk.kill()
        server.stop()
    args = record.read_text().splitlines()
    assert args[-1] == f"http://127.0.0.1:{server.port}/"
    assert "--kiosk" in args and "--noerrdialogs" in args
