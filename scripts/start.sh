#!/usr/bin/env bash
# Install Tofu Table and start it in simulation: the TV, host and simulator pages.
# Extra arguments go to `tofu-table serve` (say --port 8080, or --host 0.0.0.0 for phones).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# --local-display: a TV page opened on this machine shows the join and seat codes without pairing
exec .venv/bin/tofu-table serve --simulate --local-display "$@"
