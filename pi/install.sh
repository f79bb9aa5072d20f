#!/usr/bin/env bash
# Install Tofu Table on Raspberry Pi OS Bookworm or Trixie as an appliance (docs/pi.md):
# SPI and the camera on, apt packages, the program in /opt/tofu-table with its own venv,
# the `tofu` user, the server unit (starts at boot, restarted by its watchdog), the TV page in
# kiosk mode on the Pi's own screen, and at the end the addresses to open.
#
#   sudo pi/install.sh                     the kiosk runs for the desktop user who ran sudo
#   sudo KIOSK_USER=anna pi/install.sh     ... for the desktop user anna
#   sudo KIOSK=0 pi/install.sh             no TV on this Pi's HDMI output
#   sudo USB_READER=1 pi/install.sh        also set up a USB NFC reader (ACR122U): pcscd and
#                                          pyscard, the kernel's NFC modules kept off it, and
#                                          pcscd open to the service user (automatic when the
#                                          table's config.toml has a driver = "usb" reader)
#   DRY_RUN=1 pi/install.sh                say what it would write and run, change nothing
#   ROOT=/tmp/pi pi/install.sh             write the files under /tmp/pi and print the commands
#                                          (implies DRY_RUN=1: apt, pip and systemctl would act
#                                          on this machine, not on /tmp/pi)
#
# Running it again changes nothing that is already right: a file is written only when its
# content differs, a config.txt line is added only when missing, and each command is skipped
# when what it makes is already there.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${ROOT:-}
ROOT=${ROOT%/}
DRY_RUN=${DRY_RUN:-0}
WRITE=1                                  # files are written: for real, or under ROOT
if [ -n "$ROOT" ]; then DRY_RUN=1; elif [ "$DRY_RUN" = 1 ]; then WRITE=0; fi
KIOSK=${KIOSK:-1}
KIOSK_USER=${KIOSK_USER:-${SUDO_USER:-}}
APP=/opt/tofu-table
DATA=/var/lib/tofu-table
USB_READER=${USB_READER:-auto}
if [ "$USB_READER" = auto ]; then
  USB_READER=0
  grep -qE '^[[:space:]]*driver[[:space:]]*=[[:space:]]*"usb"' "$ROOT$DATA/config.toml" 2>/dev/null && USB_READER=1
fi

reboot_needed=0
app_changed=0

log() { printf '%s\n' "$*"; }
die() { printf 'pi/install.sh: %s\n' "$*" >&2; exit 1; }
# A command that changes the system: printed, and run unless DRY_RUN=1.
run() {
  local arg shown=()
  for arg in "$@"; do
    if [[ "$arg" =~ ^[A-Za-z0-9_./:=@+,-]+$ ]]; then shown+=("$arg"); else shown+=("${arg@Q}"); fi
  done
  printf '+ %s\n' "${shown[*]}"
  if [ "$DRY_RUN" != 1 ]; then "$@"; fi
}

# put FILE_IN_REPO_OR_- DEST MODE: make ROOT/DEST hold that content (stdin for -); 0 if it changed.
put() {
  local src=$1 dest=$ROOT$2 mode=$3 tmp=$1
  if [ "$src" = - ]; then tmp=$(mktemp); cat >"$tmp"; fi
  [ -f "$tmp" ] || die "$src is missing from the source folder"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest" && [ "$(stat -c %a "$dest")" = "$mode" ]; then
    [ "$src" = - ] && rm -f "$tmp"
    return 1
  fi
  if [ "$WRITE" = 1 ]; then
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" "$tmp" "$dest"
    log "wrote $2"
  else
    log "would write $2"
  fi
  [ "$src" = - ] && rm -f "$tmp"
  return 0
}

# ---- what this machine is -------------------------------------------------------------
if [ -z "$ROOT" ] && [ "$DRY_RUN" != 1 ] && [ "$(id -u)" != 0 ]; then
  die "run it as root: sudo $0"
fi
[ -r "$ROOT/etc/os-release" ] || die "$ROOT/etc/os-release is missing: is this Raspberry Pi OS?"
release=$(. "$ROOT/etc/os-release"; echo "${VERSION_CODENAME:-unknown}")
case "$release" in
  bookworm) chromium_package=chromium-browser ;;
  trixie) chromium_package=chromium ;;
  *) log "warning: Raspberry Pi OS '$release' is neither bookworm nor trixie; carrying on untested"
     chromium_package=chromium ;;
esac
mode_note=""
[ "$DRY_RUN" = 1 ] && mode_note=" (dry run: commands are printed, not run)"
log "Installing Tofu Table on Raspberry Pi OS $release${ROOT:+ under $ROOT}$mode_note"

# ---- SPI (readers) and the camera, in config.txt -----------------------------------------
config=$ROOT/boot/firmware/config.txt                        # Bookworm and later
[ -f "$config" ] || config=$ROOT/boot/config.txt             # older layouts
[ -f "$config" ] || die "no config.txt in $ROOT/boot/firmware or $ROOT/boot: is this a Raspberry Pi?"
marker="# Tofu Table (pi/install.sh): SPI0 and SPI1 with three chip selects for the readers, the camera"
for line in "dtparam=spi=on" "dtoverlay=spi1-3cs" "camera_auto_detect=1"; do
  if grep -qxF "$line" "$config"; then
    continue
  fi
  { cat "$config"
    grep -qxF "$marker" "$config" || printf '\n%s\n[all]\n' "$marker"
    printf '%s\n' "$line"; } | put - "${config#"$ROOT"}" "$(stat -c %a "$config")" >/dev/null
  log "added '$line' to ${config#"$ROOT"}"
  reboot_needed=1
done

# ---- packages from apt -----------------------------------------------------------------
# picamera2 and its compiled companions (libcamera, simplejpeg, numpy) come from apt; so do
# spidev and rpi-lgpio (RPi.GPIO's interface over /dev/gpiochip, which works on every Pi
# including the Pi 5), because PyPI has no aarch64 wheels for them.
# espeak-ng: the Tofu Kingdom narrator's offline voice.
packages=(python3-venv python3-picamera2 python3-numpy python3-spidev python3-rpi-lgpio curl espeak-ng)
if [ "$USB_READER" = 1 ]; then packages+=(pcscd python3-pyscard); fi
if [ "$KIOSK" = 1 ]; then
  if [ -x "$ROOT/usr/bin/chromium" ] || [ -x "$ROOT/usr/bin/chromium-browser" ]; then
    :   # either name will do (tofu-table-kiosk looks for both)
  else
    packages+=("$chromium_package")
  fi
fi
missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [ "${status:0:2}" = ii ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# ---- a USB NFC reader (ACR122U and other PN533 readers) -----------------------------------
# The kernel's own NFC driver (pn533_usb, pn533, nfc) claims an ACR122U before pcscd can, and
# pcscd asks polkit before serving a program with no desktop session, such as the table's
# service user: both are dealt with here (docs/hardware.md, "USB readers").
if [ "$USB_READER" = 1 ]; then
  put - /etc/modprobe.d/tofu-table-nfc.conf 644 <<'EOF' || true
# Tofu Table (pi/install.sh): pcscd drives the USB NFC reader, not the kernel's NFC stack.
blacklist pn533_usb
blacklist pn533
blacklist nfc
EOF
  if [ -z "$ROOT" ] && grep -qE '^(pn533_usb|pn533|nfc) ' /proc/modules 2>/dev/null; then
    run modprobe -r pn533_usb pn533 nfc
  fi
  put - /etc/polkit-1/rules.d/60-tofu-table-pcscd.rules 644 <<'EOF' || true
// Tofu Table (pi/install.sh): the table's service user may use pcscd and its readers.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.debian.pcsc-lite.access_pcsc" ||
         action.id == "org.debian.pcsc-lite.access_card") && subject.user == "tofu") {
        return polkit.Result.YES;
    }
});
EOF
fi

# ---- the user the server runs as ---------------------------------------------------------
if put "$SRC/systemd/tofu-table.sysusers" /etc/sysusers.d/tofu-table.conf 644 \
   || ! grep -q '^tofu:' "$ROOT/etc/passwd" 2>/dev/null; then
  run systemd-sysusers ${ROOT:+--root="$ROOT"} /etc/sysusers.d/tofu-table.conf
fi

# ---- the program: source in /opt/tofu-table/src, a venv that sees apt's picamera2 ---------------
# Only what the table runs (web/ is served from the source folder, so the install is editable);
# files gone from those folders are removed, anything else there (pip's egg-info) is left alone.
wanted=$(cd "$SRC" && { printf '%s\n' pyproject.toml README.md
  find server hardware vision web docs pi systemd -type f ! -path '*/__pycache__/*' ! -name '*.pyc'; } | sort)
while IFS= read -r f; do
  mode=644; [ -x "$SRC/$f" ] && mode=755
  put "$SRC/$f" "$APP/src/$f" "$mode" >/dev/null && app_changed=1
done <<<"$wanted"
if [ -d "$ROOT$APP/src" ]; then
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    if [ "$WRITE" = 1 ]; then rm -f "$ROOT$APP/src/$f"; fi
    log "removed $APP/src/$f (no longer in the source)"
    app_changed=1
  done < <(comm -13 <(printf '%s\n' "$wanted") <(cd "$ROOT$APP/src" && find server hardware vision web \
             docs pi systemd -type f ! -path '*/__pycache__/*' ! -name '*.pyc' 2>/dev/null | sort))
fi
[ "$app_changed" = 1 ] && log "updated the program in $APP/src"
put "$SRC/pi/tofu-table-kiosk" "$APP/bin/tofu-table-kiosk" 755 && app_changed=1
put "$SRC/docs/pi.md" "$APP/docs/pi.md" 644 || true
put "$SRC/pi/tofu-table" /usr/local/bin/tofu-table 755 || true

if [ ! -x "$ROOT$APP/venv/bin/python" ]; then
  run python3 -m venv --system-site-packages "$APP/venv"
fi
# numpy is pinned to apt's: picamera2's compiled parts are built against it, and a second numpy
# in the venv would shadow it and break `import picamera2`. pip then picks the newest
# opencv-python-headless that accepts that numpy (4.11.0.86 on Bookworm's numpy 1.24; 4.12 and
# later need numpy 2, which Trixie has). The pi extra's packages go in without their
# dependencies, which are apt's python3-spidev and python3-rpi-lgpio (mfrc522 asks for the
# RPi.GPIO sdist, which would shadow rpi-lgpio and fails on a Pi 5).
stamp="pyproject $(sha256sum <"$SRC/pyproject.toml" | cut -c1-16)"
if [ "$(cat "$ROOT$APP/installed" 2>/dev/null)" != "$stamp" ]; then
  run sh -c "echo \"numpy==\$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')\" >$APP/constraints.txt"
  run "$APP/venv/bin/pip" install --quiet --constraint "$APP/constraints.txt" --editable "$APP/src"
  run sh -c "$APP/venv/bin/python -c 'import tomllib; print(\"\\n\".join(tomllib.load(open(\"$APP/src/pyproject.toml\", \"rb\"))[\"project\"][\"optional-dependencies\"][\"pi\"]))' >$APP/pi-extra.txt"
  run "$APP/venv/bin/pip" install --quiet --no-deps --requirement "$APP/pi-extra.txt"
  run "$APP/venv/bin/python" -c "import numpy, cv2, picamera2, spidev, RPi.GPIO, mfrc522; print('numpy', numpy.__version__, 'opencv', cv2.__version__)"
  if [ "$DRY_RUN" != 1 ]; then printf '%s\n' "$stamp" >"$APP/installed"; fi
  app_changed=1
fi

# ---- the units ----------------------------------------------------------------------------
units_changed=0
put "$SRC/systemd/tofu-table.service" /etc/systemd/system/tofu-table.service 644 && units_changed=1
put "$SRC/systemd/tofu-table-kiosk.service" /etc/systemd/user/tofu-table-kiosk.service 644 && units_changed=1
if [ ! -f "$ROOT/etc/default/tofu-table" ]; then   # the owner's own settings: made once, never overwritten
  put - /etc/default/tofu-table 644 <<'EOF' || true
# Settings for tofu-table.service and the kiosk (read by both; restart them after a change).
TOFU_TABLE_PORT=8000
EOF
fi
port=$(sed -n 's/^TOFU_TABLE_PORT=\([0-9]*\).*/\1/p' "$ROOT/etc/default/tofu-table" | tail -n1)
port=${port:-8000}
[ "$units_changed" = 1 ] && run systemctl daemon-reload
if [ ! -L "$ROOT/etc/systemd/system/multi-user.target.wants/tofu-table.service" ]; then
  run systemctl enable tofu-table.service
  app_changed=1
fi
if [ "$app_changed" = 1 ] || [ "$units_changed" = 1 ]; then
  run systemctl restart tofu-table.service
fi

# ---- the TV page on this Pi's screen ----------------------------------------------------------
# The desktop (labwc on Trixie and on Bookworm since its October 2024 release) runs
# ~/.config/labwc/autostart when the screen is up; that line hands the display to the user's
# systemd manager and starts tofu-table-kiosk.service, which restarts Chromium if it dies.
if [ "$KIOSK" = 1 ]; then
  [ -n "$KIOSK_USER" ] && [ "$KIOSK_USER" != root ] \
    || die "say whose desktop shows the TV page: sudo KIOSK_USER=<desktop user> $0 (or KIOSK=0)"
  home=$(awk -F: -v u="$KIOSK_USER" '$1 == u { print $6 }' "$ROOT/etc/passwd")
  [ -n "$home" ] || die "no user $KIOSK_USER on this system (KIOSK_USER)"
  autostart=$home/.config/labwc/autostart
  line="sh -c 'systemctl --user import-environment WAYLAND_DISPLAY DISPLAY XDG_RUNTIME_DIR; systemctl --user restart tofu-table-kiosk.service' & # Tofu Table TV page"
  if ! grep -qxF "$line" "$ROOT$autostart" 2>/dev/null; then
    # A user autostart file replaces the system one, so start from the system's (panel, desktop).
    { if [ -f "$ROOT$autostart" ]; then cat "$ROOT$autostart"
      elif [ -f "$ROOT/etc/xdg/labwc/autostart" ]; then cat "$ROOT/etc/xdg/labwc/autostart"; fi
      printf '%s\n' "$line"; } | put - "$autostart" 644
    run chown -R "$KIOSK_USER:" "$home/.config/labwc"
  fi
  if ! grep -qx "autologin-user=$KIOSK_USER" "$ROOT/etc/lightdm/lightdm.conf" 2>/dev/null; then
    run env SUDO_USER="$KIOSK_USER" raspi-config nonint do_boot_behaviour B4   # desktop, logged in
    run raspi-config nonint do_blanking 1                                       # no screen blanking
    reboot_needed=1
  fi
fi

# ---- where to go ----------------------------------------------------------------------------
host=$(cat "$ROOT/etc/hostname" 2>/dev/null || echo raspberrypi)
token=""
if [ "$DRY_RUN" != 1 ]; then
  for _ in $(seq 30); do [ -s "$DATA/host-token" ] && break; sleep 1; done
  token=$(cat "$DATA/host-token" 2>/dev/null || true)
  addresses=$(hostname -I 2>/dev/null || true)
fi
log ""
log "Tofu Table is installed. Open, from a phone or laptop on the same network:"
log "  TV page:    http://$host.local:$port/"
log "  Host page:  http://$host.local:$port/host?token=${token:-<the token in $DATA/host-token>}"
for a in ${addresses:-}; do
  case "$a" in *:*) continue ;; esac
  log "  or by address: http://$a:$port/"
done
log "Logs: journalctl -u tofu-table -f    Hardware check: sudo -u tofu tofu-table doctor"
[ "$reboot_needed" = 1 ] && log "Reboot once for SPI, the camera and the kiosk to take effect: sudo reboot"
exit 0
