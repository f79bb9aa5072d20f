#!/usr/bin/env bash
# Install Tofu Table into ./.venv on a laptop or CI machine (Debian/Ubuntu).
#   scripts/install.sh         the table itself
#   scripts/install.sh --dev   plus everything the tests need (Chromium from Debian's packages)
# For a Raspberry Pi appliance use the Pi install instead (see docs/pi.md).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_packages=()
python3 -m venv --help >/dev/null 2>&1 || apt_packages+=(python3-venv)
# the Tofu Kingdom narrator's offline voice (without it the TV shows the lines as captions)
command -v espeak-ng >/dev/null 2>&1 || apt_packages+=(espeak-ng)
if [ "$dev" = 1 ]; then
  [ -x /usr/bin/chromium ] || apt_packages+=(chromium)
  command -v systemd-analyze >/dev/null 2>&1 || apt_packages+=(systemd)
  # player avatars may be emoji: the screenshots should show them as a phone would
  [ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || apt_packages+=(fonts-noto-color-emoji)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "Installing from Debian's packages: ${apt_packages[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${apt_packages[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# pip runs only when pyproject.toml (or the --dev choice) changed since the last install
stamp=".venv/tofu-installed"
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) dev=$dev"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] && ! { [ "$dev" = 0 ] && [ "$(cat "$stamp" 2>/dev/null)" = "${wanted% *} dev=1" ]; }; then
  # pip's and setuptools' chatter goes to a log, shown only when the install fails
  echo "Installing Tofu Table into .venv (only when pyproject.toml changed; about a minute)..."
  log=".venv/install.log"
  target="."; [ "$dev" = 1 ] && target=".[dev]"
  if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e "$target"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "The install failed (the log above is kept in $log)." >&2
    exit 1
  fi
  echo "$wanted" > "$stamp"
fi
