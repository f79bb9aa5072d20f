"""`tofu-table serve`: a quiet start that shows the addresses, and a clear exit on a data folder
it cannot use instead of a traceback."""
import subprocess
import sys

from tests.support.hardware_helpers import wait_for
from tests.support.server import ROOT, run_server


def test_serve_refuses_a_data_folder_it_cannot_create_with_a_clear_message():
    # /proc refuses new folders even to root, like a read-only card would
    run = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--data", "/proc/tofu-table",
                          "--port", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "Cannot use the data folder /proc/tofu-table" in run.stderr
    assert "--data" in run.stderr and "Traceback" not in run.stderr


def test_the_first_start_shows_the_address_block_and_nothing_around_it(tmp_path):
    """Issue 11, item 14: no INFO lines about simulated readers and no Flask banner."""
    with run_server(tmp_path / "data") as srv:
        wait_for(lambda: any("Press Ctrl+C" in line for line in srv.output), timeout=10)
        output = "".join(srv.output)
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines[0].startswith("Tofu Table is running") and "Press Ctrl+C to stop." in lines
    assert " INFO " not in output and "Serving Flask app" not in output and "Debug mode" not in output
