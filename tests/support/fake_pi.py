"""A fake Raspberry Pi OS root for testing pi/install.sh and the systemd units on a laptop.

The installer writes its files under ``ROOT`` and only prints the commands
(apt, pip, systemctl, raspi-config) it would run there.  A fake root holds
what a fresh Raspberry Pi OS image has that the installer reads: os-release,
config.txt, passwd, the hostname and labwc's system autostart file.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: What pi/install.sh copies from the source folder (plus pyproject.toml and README.md).
SOURCE_DIRS = ("server", "hardware", "vision", "web", "docs", "pi", "systemd")

CONFIG_TXT = """\
# For more options and information see the documentation
dtparam=audio=on
#dtparam=i2c_arm=on
#dtparam=spi=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""

LABWC_SYSTEM_AUTOSTART = """\
/usr/bin/lwrespawn /usr/bin/pcmanfm --desktop --profile LXDE-pi &
/usr/bin/lwrespawn /usr/bin/wf-panel-pi &
/usr/bin/kanshi &
/usr/bin/lxsession-xdg-autostart
"""


def snapshot_source(dest: Path) -> Path:
    """Copy the parts of this checkout the installer uses, so others' edits cannot race a test."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SOURCE_DIRS:
        shutil.copytree(REPO / name, dest / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    return dest


def make_root(root: Path, release: str = "trixie", user: str = "anna") -> Path:
    """A fresh Raspberry Pi OS ``release`` image's files that the installer reads."""
    version = {"bookworm": "12", "trixie": "13"}[release]
    (root / "etc" / "xdg" / "labwc").mkdir(parents=True)
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "home" / user).mkdir(parents=True)
    (root / "etc" / "os-release").write_text(
        f'PRETTY_NAME="Raspbian GNU/Linux {version} ({release})"\nNAME="Raspbian GNU/Linux"\n'
        f'VERSION_ID="{version}"\nVERSION_CODENAME={release}\nID=raspbian\nID_LIKE=debian\n')
    (root / "boot" / "firmware" / "config.txt").write_text(CONFIG_TXT)
    (root / "etc" / "passwd").write_text(
        f"root:x:0:0:root:/root:/bin/bash\n{user}:x:1000:1000:,,,:/home/{user}:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\nvideo:x:44:\nspi:x:999:\ngpio:x:997:\n")
    (root / "etc" / "hostname").write_text("tofutable\n")
    (root / "etc" / "xdg" / "labwc" / "autostart").write_text(LABWC_SYSTEM_AUTOSTART)
    return root


def run_installer(src: Path, root: Path, **env) -> subprocess.CompletedProcess:
    """Run ``src``/pi/install.sh against ``root``; fails the test if it exits non-zero."""
    full_env = {**os.environ, "ROOT": str(root), "KIOSK_USER": "anna", **env}
    full_env.pop("SUDO_USER", None)
    result = subprocess.run(["bash", str(src / "pi" / "install.sh")], env=full_env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def commands(output: str) -> list[str]:
    """The commands the installer printed (lines starting with ``+ ``)."""
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def tree(root: Path) -> dict[str, tuple]:
    """Every file and symlink under ``root``: content hash (or link target), mode and mtime."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        st = path.lstat()
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_file():
            out[rel] = (hashlib.sha256(path.read_bytes()).hexdigest(), oct(st.st_mode), st.st_mtime_ns)
    return out
