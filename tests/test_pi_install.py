"""pi/install.sh against a fake Raspberry Pi OS root: the right files, the right commands, and a
second run that changes nothing (issue 8: "Running it twice changes nothing the second time").

Nothing here runs apt, pip or systemctl: with ROOT set the installer writes its files under ROOT
and prints those commands.  What happens on a real Pi is described (honestly) in docs/pi.md.
"""
from __future__ import annotations

import hashlib
import os
import stat
import subprocess

import pytest

from tests.support.fake_pi import CONFIG_TXT, commands, make_root, run_installer, snapshot_source, tree

APT = ["python3-venv", "python3-picamera2", "python3-numpy", "python3-spidev", "python3-rpi-lgpio", "curl", "espeak-ng"]
CHROMIUM = {"bookworm": "chromium-browser", "trixie": "chromium"}


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    return snapshot_source(tmp_path_factory.mktemp("src"))


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_fresh_pi_gets_files_and_commands(src, tmp_path, release):
    root = make_root(tmp_path / "root", release)
    out = run_installer(src, root).stdout
    cmds = commands(out)

    # SPI0, SPI1 with three chip selects, and the camera, each once, under [all], nothing else touched
    config = (root / "boot/firmware/config.txt").read_text()
    assert config.startswith(CONFIG_TXT)
    added = config[len(CONFIG_TXT):].splitlines()
    assert "[all]" in added and added.index("[all]") < added.index("dtparam=spi=on")
    assert "dtoverlay=spi1-3cs" in added
    assert config.count("camera_auto_detect=1") == 1     # already on in the image: not added twice

    # apt: picamera2 and the Chromium package of this release, no recommends
    apt = next(c for c in cmds if "apt-get install" in c)
    for package in APT + [CHROMIUM[release]]:
        assert f" {package}" in apt
    assert "--no-install-recommends" in apt
    # the venv sees apt's picamera2; numpy is pinned to apt's; the pi extra goes in
    assert "python3 -m venv --system-site-packages /opt/tofu-table/venv" in cmds
    assert any("numpy==$(/usr/bin/python3" in c for c in cmds)
    assert any("pip install" in c and "--constraint /opt/tofu-table/constraints.txt" in c
               and "--editable /opt/tofu-table/src" in c for c in cmds)
    assert any('["optional-dependencies"]["pi"]' in c for c in cmds)
    assert any("--no-deps --requirement /opt/tofu-table/pi-extra.txt" in c for c in cmds)
    # the user, the units, enabled and started
    assert "systemd-sysusers --root=" + str(root) + " /etc/sysusers.d/tofu-table.conf" in cmds
    assert cmds.index("systemctl daemon-reload") < cmds.index("systemctl enable tofu-table.service")
    assert "systemctl restart tofu-table.service" in cmds
    assert "env SUDO_USER=anna raspi-config nonint do_boot_behaviour B4" in cmds

    for rel, repo_file in [("etc/systemd/system/tofu-table.service", "systemd/tofu-table.service"),
                           ("etc/systemd/user/tofu-table-kiosk.service", "systemd/tofu-table-kiosk.service"),
                           ("etc/sysusers.d/tofu-table.conf", "systemd/tofu-table.sysusers"),
                           ("opt/tofu-table/bin/tofu-table-kiosk", "pi/tofu-table-kiosk"),
                           ("usr/local/bin/tofu-table", "pi/tofu-table"),
                           ("opt/tofu-table/src/server/table.py", "server/table.py"),
                           ("opt/tofu-table/src/web/tv.html", "web/tv.html")]:
        assert (root / rel).read_bytes() == (src / repo_file).read_bytes(), rel
    for exe in ("opt/tofu-table/bin/tofu-table-kiosk", "usr/local/bin/tofu-table"):
        assert os.stat(root / exe).st_mode & stat.S_IXOTH, exe
    assert "TOFU_TABLE_PORT=8000" in (root / "etc/default/tofu-table").read_text()

    # the desktop's own autostart is kept, and the kiosk line added once
    autostart = (root / "home/anna/.config/labwc/autostart").read_text()
    assert autostart.startswith((root / "etc/xdg/labwc/autostart").read_text())
    assert autostart.count("systemctl --user restart tofu-table-kiosk.service") == 1
    assert "chown -R anna: /home/anna/.config/labwc" in cmds

    assert "http://tofutable.local:8000/" in out
    assert "sudo reboot" in out


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_second_run_changes_no_file(src, tmp_path, release):
    root = make_root(tmp_path / "root", release)
    first = run_installer(src, root).stdout
    before = tree(root)
    second = run_installer(src, root).stdout
    assert tree(root) == before
    for word in ("wrote", "added", "updated", "removed"):
        assert not [l for l in second.splitlines() if l.startswith(word)], second
    assert "sudo reboot" in first
    # the commands still printed are the ones whose effect a dry run cannot create
    assert "systemctl daemon-reload" not in commands(second)


def _mark_installed(root, src):
    """What a finished real install leaves behind that the installer's checks look at."""
    dpkg = root / "var/lib/dpkg"
    (dpkg / "info").mkdir(parents=True)
    (dpkg / "updates").mkdir()
    (dpkg / "status").write_text("".join(
        f"Package: {p}\nStatus: install ok installed\nVersion: 1\nArchitecture: arm64\n"
        f"Maintainer: x <x@example.org>\nDescription: x\n\n" for p in APT + ["chromium"]))
    with open(root / "etc/passwd", "a") as f:
        f.write("tofu:x:998:998:Tofu Table server:/var/lib/tofu-table:/usr/sbin/nologin\n")
    venv = root / "opt/tofu-table/venv/bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\n")
    (venv / "python").chmod(0o755)
    digest = hashlib.sha256((src / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (root / "opt/tofu-table/installed").write_text(f"pyproject {digest}\n")
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "tofu-table.service").symlink_to("/etc/systemd/system/tofu-table.service")
    (root / "etc/lightdm").mkdir()
    (root / "etc/lightdm/lightdm.conf").write_text("[Seat:*]\nautologin-user=anna\n")


def test_what_is_already_there_is_not_done_again(src, tmp_path):
    """Each command is skipped when what it makes exists: packages, user, venv, pip, enable, autologin."""
    root = make_root(tmp_path / "root", "trixie")
    _mark_installed(root, src)
    first = commands(run_installer(src, root).stdout)
    # only the files were new: apply the new sysusers file, reload the units, restart on the new
    # program, hand the autostart file to its user
    assert first == [f"systemd-sysusers --root={root} /etc/sysusers.d/tofu-table.conf",
                     "systemctl daemon-reload", "systemctl restart tofu-table.service",
                     "chown -R anna: /home/anna/.config/labwc"]
    assert commands(run_installer(src, root).stdout) == []


def test_a_changed_source_file_is_copied_and_restarts_the_server(src, tmp_path):
    root = make_root(tmp_path / "root", "trixie")
    _mark_installed(root, src)
    run_installer(src, root)
    egg_info = root / "opt/tofu-table/src/tofu_table.egg-info/PKG-INFO"   # made by pip on the Pi
    egg_info.parent.mkdir()
    egg_info.write_text("Name: tofu-table\n")
    assert commands(run_installer(src, root).stdout) == []
    stale = root / "opt/tofu-table/src/server/old_module.py"
    stale.write_text("# from an older version\n")
    (root / "opt/tofu-table/src/web/tv.html").write_text("old page")
    out = run_installer(src, root).stdout
    assert commands(out) == ["systemctl restart tofu-table.service"]
    assert not stale.exists() and egg_info.exists()
    assert (root / "opt/tofu-table/src/web/tv.html").read_bytes() == (src / "web/tv.html").read_bytes()


def test_no_kiosk_leaves_the_desktop_alone(src, tmp_path):
    root = make_root(tmp_path / "root", "bookworm")
    out = run_installer(src, root, KIOSK="0").stdout
    assert not (root / "home/anna/.config").exists()
    assert "chromium" not in out and "raspi-config" not in out


def test_kiosk_needs_a_desktop_user(src, tmp_path):
    root = make_root(tmp_path / "root", "trixie")
    env = {**os.environ, "ROOT": str(root), "KIOSK_USER": ""}
    env.pop("SUDO_USER", None)
    r = subprocess.run(["bash", str(src / "pi/install.sh")], env=env, capture_output=True, text=True)
    assert r.returncode != 0
    assert "KIOSK_USER=<desktop user>" in r.stderr



def test_a_usb_reader_gets_pcscd_the_kernel_nfc_modules_kept_off_and_a_polkit_rule(src, tmp_path):
    """Issue 18 item 10: the ACR122U's known needs, asked for or found in config.toml."""
    root = make_root(tmp_path / "root", "bookworm")
    apt = next(c for c in commands(run_installer(src, root).stdout) if "apt-get install" in c)
    assert " pcscd" not in apt and not (root / "etc/modprobe.d/tofu-table-nfc.conf").exists()
    (root / "var/lib/tofu-table").mkdir(parents=True, exist_ok=True)
    (root / "var/lib/tofu-table/config.toml").write_text('[[readers]]\nname = "center"\ndriver = "usb"\n')
    out = run_installer(src, root).stdout
    apt = next(c for c in commands(out) if "apt-get install" in c)
    assert " pcscd" in apt and " python3-pyscard" in apt
    blacklist = (root / "etc/modprobe.d/tofu-table-nfc.conf").read_text().splitlines()
    assert {"blacklist pn533_usb", "blacklist pn533", "blacklist nfc"} <= set(blacklist)
    rule = (root / "etc/polkit-1/rules.d/60-tofu-table-pcscd.rules").read_text()
    assert "org.debian.pcsc-lite.access_pcsc" in rule and "org.debian.pcsc-lite.access_card" in rule
    assert 'subject.user == "tofu"' in rule
