"""`tofu-table serve`: a quiet start that shows the addresses, and a clear exit on a data folder
it cannot use instead of a traceback."""
import subprocess
import sys

import requests

from tests.support.hardware_helpers import wait_for
from tests.support.server import ROOT, appliance_data, free_port, run_server


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


def test_a_table_with_the_camera_off_never_imports_opencv(tmp_path):
    """Issue 20: start-up imports only what the configuration uses. With ``[camera] source = "off"``
    neither OpenCV, numpy nor the vision pipeline is imported, nor the Socket.IO client's HTTP and
    websocket libraries, nor the Socket.IO and Engine.IO clients, their asyncio servers, Flask-SocketIO's
    test client or Werkzeug's debugger (python-socketio and Flask-SocketIO bring them; the server has no
    use for them), while serving pages and answering the calibrate API (``python -X importtime`` lists
    every module the server imported)."""
    data = appliance_data(tmp_path / "data")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(tmp_path / "imports.txt", "w") as log:
        proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "server.cli", "serve", "--data",
                                 str(data), "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    try:
        def answers():
            try:
                return requests.get(url + "/api/health", timeout=1)
            except requests.RequestException:
                return None
        health = wait_for(answers, timeout=60, what="the first answer").json()
        assert health["camera"][0]["status"] == "off"
        token = (data / "host-token").read_text().strip()
        assert requests.get(url + "/", timeout=10).ok and requests.get(url + "/calibrate", timeout=10).ok
        status = requests.get(url + "/api/camera/status", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert status.status_code == 503 and status.json()["error"]["code"] == "camera_off"
    finally:
        proc.terminate()
        proc.wait(10)
    imported = {line.rsplit("|", 1)[1].strip() for line in (tmp_path / "imports.txt").read_text().splitlines()
                if line.startswith("import time:") and line.count("|") == 2}
    assert {"server.app", "flask", "vision.camera"} <= imported       # the log is complete
    # an import refused (server/cli.py hides the client's libraries) is listed too, but not its submodules
    assert not {m for m in imported if m.split(".")[0] in ("cv2", "numpy") or m.startswith(("requests.", "websocket."))
                or m in ("vision.pipeline", "vision.service", "vision.sources")}
    assert not {m for m in imported if m.split(".")[0] in ("asyncio", "pdb", "multiprocessing")
                or m in ("socketio.client", "engineio.client", "socketio.async_server", "engineio.async_server",
                         "flask_socketio.test_client", "werkzeug.debug")}


def test_a_table_with_a_camera_answers_before_the_camera_is_ready_and_the_camera_then_starts(tmp_path):
    """Issue 20: start-up to the first answer within 1.5 s. The camera (OpenCV, the synthetic
    camera's calibration) starts in its own thread once the server listens: the first answer
    says it is starting, and it is running soon after."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.toml").write_text('[camera]\nsource = "synthetic"\nfps = 10\n')
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--data", str(data), "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def camera():
            try:
                records = requests.get(url + "/api/health", timeout=1).json()["camera"]
            except requests.RequestException:
                return None
            return next(r for r in records if r["name"] == "camera")
        first = wait_for(camera, timeout=60, step=0.01, what="the first answer")
        assert first["status"] == "starting", first
        token = (data / "host-token").read_text().strip()
        status = requests.get(url + "/api/camera/status", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert status.ok or status.json()["error"]["code"] == "camera_starting", status.text   # never "off"
        def frames_flow():
            record = camera() or {}
            return record.get("status") != "starting" and record.get("fps") and record
        running = wait_for(frames_flow, timeout=60, step=0.1, what="the camera's frames")
        assert running["status"] == "simulated", running
    finally:
        proc.terminate()
        proc.wait(10)
