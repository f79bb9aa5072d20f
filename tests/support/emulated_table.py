"""The real ``tofu-table serve`` on emulated hardware, steered by the test (reader and camera drills).

:class:`EmulatedTable` starts the server process (tests/support/emulated_serve.py): the readers
``config.toml`` names as on a Pi run the real ``mfrc522`` package and driver on emulated chips,
and the camera ``[camera]`` configures can be unplugged.  The test changes the hardware through
:meth:`EmulatedTable.hardware`, one command at a time (the commands: emulated_serve's docstring).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.support.server import ROOT, Server
from tests.support.warm_server import wait_serving


class EmulatedTable(Server):
    """A :class:`Server` (not in simulation) whose readers are emulated chips.

    ``preexec``: called in the server's process just before it starts Python (for example to
    put it in a CPU quota's cgroup, so its start-up runs inside the quota too).
    """

    preexec = None

    def start(self, timeout: float = 20.0) -> "EmulatedTable":
        args = [sys.executable, "-m", "tests.support.emulated_serve", "serve", "--port", str(self.port),
                "--data", str(self.data_dir)]
        self.proc = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, preexec_fn=self.preexec,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        wait_serving(self, timeout)
        return self

    def hardware(self, **command) -> None:
        """Send one hardware command (see tests/support/emulated_serve.py)."""
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
