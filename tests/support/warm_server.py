"""A test server whose next life is started ahead of time, for drills that restart it often.

``tofu-table serve`` spends most of a cold start importing Flask, Socket.IO and the games. A
drill that cuts the power fifty times is testing the recovery (the journal refold), not the
imports, so :class:`WarmServer` keeps a standby process that has done its imports and waits on
stdin; ``start()`` tells it to go on into the real ``serve`` (which opens the journal, refolds
and binds the port) and at once starts the next standby.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import requests

from tests.support.server import ROOT, Server


def wait_serving(srv: Server, timeout: float) -> None:
    """Collect ``srv.proc``'s output and wait until it answers /api/health (RuntimeError if not);
    when it did goes in ``srv.answered_at``."""
    threading.Thread(target=srv._drain, daemon=True).start()
    deadline = time.monotonic() + timeout
    while True:
        if srv.proc.poll() is not None:
            raise RuntimeError("server exited:\n" + "".join(srv.output))
        try:
            if requests.get(srv.url + "/api/health", timeout=1).ok:
                srv.answered_at = time.perf_counter()
                return
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start:\n" + "".join(srv.output)) from None
            time.sleep(0.01)


class WarmServer(Server):
    """:class:`Server` with a standby process that has already imported everything."""

    standby: subprocess.Popen | None = None

    def _spawn(self) -> subprocess.Popen:
        args = [sys.executable, "-m", "tests.support.warm_server", "serve", "--port", str(self.port),
                "--data", str(self.data_dir), *self.extra_args] + (["--simulate"] if self.simulate else [])
        return subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def start(self, timeout: float = 20.0) -> "WarmServer":
        self.proc, self.standby = self.standby or self._spawn(), None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        wait_serving(self, timeout)
        self.standby = self._spawn()
        return self

    def stop(self) -> None:
        super().stop()
        if self.standby is not None:
            self.standby.kill()
            self.standby.wait(10)
            self.standby = None


if __name__ == "__main__":
    from server import cli, games, plugins
    from tests.support import tiny_game

    plugins.load(plugins.DEVICES)
    import server.app  # noqa: F401  (the expensive part of a start)
    games.register(tiny_game.GAME)
    games.all_games()
    sys.stdin.readline()
    sys.exit(cli.main(sys.argv[1:]))
