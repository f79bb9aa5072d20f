#!/usr/bin/env bash
# Install everything the tests need (Chromium included) and run the whole test suite.
# Extra arguments go to pytest (say -k tofu_god, or -x).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --dev
exec .venv/bin/python -m pytest "$@"
