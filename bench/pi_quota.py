"""A CPU quota standing in for a Raspberry Pi 4, and how big it is.

The quota is chosen by timing the same Python work here and on a Pi 4.  The work is the n-body
simulation of the Computer Language Benchmarks Game (the Sun and the four giant planets, pairwise
gravity, fixed time step), because a published Pi 4 figure exists for it: 5,000,000 steps took
158.26 s on a Raspberry Pi 4 Model B at 1.5 GHz with the performance governor
(https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages; the
Python version is not stated: Raspberry Pi OS of 2020 (Buster) had Python 3.7).  The program
below is written for this project with the same loop: per step, every pair of bodies, then every
position.  It is timed here with a Python 3.7 when one is installed (``--pi-python``), so the
interpreter's own speed-ups since (3.11 is about 1.5x faster on this work) do not count as CPU
speed; otherwise with the running Python, which makes the quota too small by that factor.

One Pi 4 core is then ``here_s_per_step / pi_s_per_step`` of a core of this machine.  Timed
while other work shares the machine, the yardstick runs slower and the Pi core comes out bigger (0.19
to 0.23 of a core here in the runs of 2026-11-26, 0.277-0.295 at a load of 15-23): the quota then
changed from run to run with the load.  So the bench uses :data:`PI4_CORE_SHARE`, measured once on a
quiet moment, and times the yardstick again only when asked.  The quota
gives the table server ``pi_cores`` Pi cores' worth: by default 2 of the Pi's 4, the other two
left to the kiosk browser showing the TV page and to the system.  (The server's Python threads
share one interpreter lock, so its Python work runs on one core at a time; OpenCV and SQLite
release the lock.)

The quota is a cgroup v1 ``cpu`` controller group (``cpu.cfs_quota_us`` per ``cpu.cfs_period_us``).
A short period (10 ms) keeps the throttling fine-grained, closer to a slower core than to a fast
core that stops for most of every 100 ms.
"""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

#: The published Pi 4 figure: seconds for PI4_NBODY_STEPS steps (see the module docstring).
PI4_NBODY_SECONDS = 158.26
PI4_NBODY_STEPS = 5_000_000

#: One Pi 4 core, as a share of one core of this machine (a 2-core AMD EPYC dev machine): the median of
#: seven timings of :func:`pi4_core_share` on a quiet moment (2026-11-26 14:55 UTC, load average 0.2
#: rising to 1.5; Python 3.7.16): 0.1927, 0.1943, 0.1956, 0.1971, 0.2153, 0.2156, 0.2176.  The quiet
#: runs before it measured 0.191 (2026-11-23) and 0.197 (2026-11-26 10:59).
PI4_CORE_SHARE = 0.197

#: Where pyenv keeps a Python 3.7, if it does (the Pi figure's interpreter).
_PYENV_37 = os.path.expanduser("~/.pyenv/versions/3.7.16/bin/python")

CGROUP_ROOT = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 10_000
#: The kernel's bandwidth slice: how much of a period's quota a core takes from the group's pool at a time
#: (5 ms by default, more than the pi4 quota's 3.94 ms a period, so the first core takes it all).
SLICE_FILE = Path("/proc/sys/kernel/sched_cfs_bandwidth_slice_us")

_DAYS_PER_YEAR = 365.24
_SOLAR_MASS = 4 * 3.141592653589793 ** 2


def _bodies() -> list[list]:
    """The Sun and the giant planets: [position, velocity, mass] in AU, AU/year, solar masses."""
    planets = [  # x, y, z (AU); vx, vy, vz (AU/day); mass (solar masses)
        (4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05, 9.54791938424326609e-04),
        (8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05, 2.85885980666130812e-04),
        (1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05, 4.36624404335156298e-05),
        (1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05, 5.15138902046611451e-05),
    ]
    bodies = [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], _SOLAR_MASS]]
    for x, y, z, vx, vy, vz, m in planets:
        bodies.append([[x, y, z], [vx * _DAYS_PER_YEAR, vy * _DAYS_PER_YEAR, vz * _DAYS_PER_YEAR],
                       m * _SOLAR_MASS])
    momentum = [sum(b[1][k] * b[2] for b in bodies) for k in range(3)]
    bodies[0][1] = [-p / _SOLAR_MASS for p in momentum]   # the Sun balances the planets
    return bodies


def advance(bodies: list[list], steps: int, dt: float = 0.01) -> None:
    """Move ``bodies`` on by ``steps`` steps of ``dt`` years: every pair's pull, then every position."""
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    for _ in range(steps):
        for (p1, v1, m1), (p2, v2, m2) in pairs:
            dx, dy, dz = p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            b1, b2 = m1 * mag, m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for p, v, _m in bodies:
            p[0] += dt * v[0]
            p[1] += dt * v[1]
            p[2] += dt * v[2]


def nbody_seconds(steps: int) -> float:
    """Seconds this machine takes for ``steps`` steps of the n-body work (CPU time of this thread)."""
    bodies = _bodies()
    start = time.thread_time()
    advance(bodies, steps)
    return time.thread_time() - start


def pi4_core_share(python: str | None = None, steps: int = 200_000) -> dict:
    """How much of one core of this machine a Pi 4 core is: the n-body work timed here (the
    fastest of 3 runs) with the interpreter ``python`` (None: a Python 3.7 if installed, else
    this one) against the published Pi 4 time."""
    python = python or find_python37() or sys.executable
    out = subprocess.run([python, str(Path(__file__)), str(steps)], capture_output=True, text=True,
                         check=True).stdout.split()
    here_us, version = float(out[0]), out[1]
    pi_us = PI4_NBODY_SECONDS / PI4_NBODY_STEPS * 1e6
    return {"python": version, "steps": steps, "here_us_per_step": round(here_us, 3),
            "pi4_us_per_step": round(pi_us, 3), "pi4_core_share": here_us / pi_us}


def find_python37() -> str | None:
    """A Python 3.7 interpreter on this machine (pyenv's, or on the PATH but not a pyenv shim), or None."""
    if os.path.exists(_PYENV_37):
        return _PYENV_37
    found = shutil.which("python3.7")
    return found if found and "/shims/" not in found else None


class CpuQuota:
    """A cgroup v1 cpu group limiting its processes to ``cores`` cores of this machine.

    ``preexec`` (for ``subprocess.Popen(preexec_fn=...)``) moves the new process into it before
    it runs anything.  Raises OSError when the cpu controller cannot be written here.
    """

    def __init__(self, cores: float, name: str = "tofu-pi", slice_us: int | None = None):
        self.cores = cores
        self.path = CGROUP_ROOT / name
        self.path.mkdir(exist_ok=True)
        # the kernel's slice is one setting for the whole machine: put back by remove()
        self.slice_us, self._slice_before = slice_us, None
        if slice_us is not None:
            self._slice_before = SLICE_FILE.read_text().strip()
            SLICE_FILE.write_text(str(slice_us))
        (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (self.path / "cpu.cfs_quota_us").write_text(str(max(1000, round(cores * PERIOD_US))))

    def preexec(self) -> None:
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def throttled(self) -> dict:
        """The controller's counts: periods, periods throttled, and nanoseconds throttled."""
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return {k: int(v) for k, v in stat.items()}

    def remove(self) -> None:
        """Remove the group (once its processes have ended) and put the kernel's slice back."""
        if self._slice_before is not None:
            SLICE_FILE.write_text(self._slice_before)
            self._slice_before = None
        try:
            self.path.rmdir()
        except OSError:
            pass


if __name__ == "__main__":     # run by pi4_core_share's interpreter: microseconds per step, version
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    print(min(nbody_seconds(steps) for _ in range(3)) / steps * 1e6, platform.python_version())
