"""`tofu-table serve` on a data folder it cannot use says so and exits, instead of a traceback."""
import subprocess
import sys

from tests.support.server import ROOT


def test_serve_refuses_a_data_folder_it_cannot_create_with_a_clear_message():
    # /proc refuses new folders even to root, like a read-only card would
    run = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--data", "/proc/tofu-table",
                          "--port", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "Cannot use the data folder /proc/tofu-table" in run.stderr
    assert "--data" in run.stderr and "Traceback" not in run.stderr
