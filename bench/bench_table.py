"""The whole table at play: readers, camera, server and twenty screens at once, optionally in a Pi 4's CPU budget.

The real server runs in a subprocess outside simulation (tests/support/emulated_table.py; the
process: tests/support/emulated_serve.py): eight MFRC522 readers wired as on a Pi (the real
``mfrc522`` package and driver on emulated chips whose SPI transfers cost what they cost on a
Pi), the camera pipeline fed by the synthetic
camera at 15 frames per second (each frame handed over as a new picture, as a real camera's, so
the pipeline looks at every one; it skips a picture it has seen), the journal on disk (SQLite, every input fsync'ed).  Twenty
python-socketio clients stay connected: the eight players' seat pages and twelve TVs and idle
phones in the ``table`` room, dealt over ``--client-processes`` processes (4: so that they do not
decode each state one after another in one interpreter, which added its own delay to the figures);
``--light-screens`` makes them :class:`LightScreen` clients, the Socket.IO protocol spoken over websocket-client
alone: the bench's clients took about 17 ms of CPU an input in all with python-socketio, about 10 light, on
the same two cores as the table.  The tiny test game runs with eight players.

What happens, in order:

1. **start-up**: from starting the process to its first answer on ``/api/health`` (and the CPU
   time it had used by then, which a busy machine does not inflate as much);
2. **idle**: a new game waits with every screen connected, readers polling and the camera
   running, for ``--idle-seconds``: the server's CPU (all of it, and per part) and memory.  Every
   seat lays its card and takes it off first, and it starts once nobody has laid a card for the
   readers' ``doze_after_s`` (hardware/hub.py: they then poll 25 times a second instead of 55;
   without the cards a slow start could pass their deeper doze).  The tiny game watches no board, so the camera
   rests (vision/service.py); then the same idle again with the tiny game's twin that watches
   every board (``tiny-watched``, tests/support/emulated_serve.py): the camera watching a still
   table, each frame a new picture with new sensor noise, so it skips the frames in which
   nothing changed, measured once the still table has made it doze (5 frames a second instead
   of 15, vision/service.py; the cards laid and taken off again first, so that the readers are
   at their first doze too).  Each of the two idles is measured twice: "after 5 s
   quiet" (the readers' and camera's first doze) and again "after N s quiet" (``deep_doze_after_s``,
   30: the readers then poll 10 times a second, and the camera, watching, takes 2 frames a second;
   hardware/hub.py, vision/service.py), each waited for on ``/api/health``'s paces.  The issue's
   idle target ("a game waiting") is judged on the second: a table where nobody has done anything
   for a while; the first is what a pause between two moves costs;
3. **play**: for ``--play-seconds``, the boards watched and something moving in the camera's view
   every frame, over one board after another for a second each (a hand working over one board at a
   time; tests/support/emulated_serve.py), so the pipeline takes every frame and looks at that
   board in each, and at each board it leaves: the camera really working.  At a busy table's pace:
   cards laid on the seat readers (``--reader-rate`` a second, seat after seat, each taken off
   again a second later: a tap, then a lift) and taps sent over HTTP as the simulator page or a
   phone sends them (``--http-rate`` a second, open loop).  Input to screen: for a reader, from
   the card landing on the emulated chip to the ``state`` holding its tap reaching the screens;
   for HTTP, from sending to the same.  "TV" is the slowest of the twelve table-room clients,
   "all" the slowest of the twenty.  Also: the camera's frames per second (its own measure,
   ``/api/health``), the polls per second each reader answered, CPU per part, and memory every
   second (its growth: the least-squares slope over the later half of play's samples; and, from six
   minutes of play, the same slope of each minute's lowest sample, of all memory and of the anonymous
   alone: :func:`floor_slope`, which leaves out a sawtooth of memory freed and taken again within a minute).
   Before and after play, the disk's own floor: p50/p99 of a small append and fsync in the
   journal's folder (:func:`fsync_ms`), so the input-to-screen figures can be read against what
   the disk allows.

Before those runs, the same idle figures (start-up, CPU, memory with the tiny game waiting and
20 screens) are taken once for the README's first command, ``tofu-table serve --simulate``
(simulated readers, the synthetic camera at its simulated 10 fps; its start-up to the first answer
and, as "ready", to its camera having built its pipeline, which it does after the server answers), and once for the eight
emulated readers with the camera off (``[camera] source = "off"``: no OpenCV imported), each
after 5 s quiet and after N s quiet as above.

CPU per part comes from ``/proc/<pid>/task/*/stat``: the server process names its threads in
the OS (``readers-spi0``..., ``camera``); "readers" is the reader threads (which here also run
the emulated chips), "camera" the camera thread (grabbing the synthetic frame and the vision
pipeline), "server" everything else (HTTP, Socket.IO, the table, the journal, publishing); while
playing also by thread name (``play_cpu_threads``: ``table-apply``, ``publisher``, the screens'
websocket writers summed as ``(wri``..., to see where a CPU quota goes).
Idle CPU is also given without the chip emulation (:func:`emulation_cpu`): the emulator counts
the CPU it spends on each SPI transfer (tests/support/mfrc522_emulator.py), which is taken off,
and a Pi's cost of the same transfers (25 us each, the system call) is added back.

``--quota`` runs it unconstrained (``none``), inside a cgroup CPU quota standing in for a
Raspberry Pi 4 (``pi4``: see bench/pi_quota.py for how it is sized), at a given number of this
machine's cores, or ``both`` (the default): unconstrained, then ``pi4``.  The ``pi4`` quota is
``--pi-cores`` times a Pi 4 core's share of a core here, by default the fixed share measured once on
a quiet moment (``bench.pi_quota.PI4_CORE_SHARE``, or ``--pi-share``), so that runs at different
loads get the same quota; ``--time-pi-share`` times the yardstick again in this run instead.
``--slice-us`` sets the kernel's CFS bandwidth slice while a quota runs and puts it back after (the
default 5 ms is more than the pi4 quota's budget a period; 1 ms measured no better: bench/README.md).

``--parts`` times, in this process, what the table does most often (median of five runs):
the camera pipeline on one frame of the bench's play (the synthetic table with all its boards,
each frame with new sensor noise and the patch moving over one board after another, as the
camera service gives it to the pipeline; CPU ms a frame, periodic board readings included) and
one empty poll of an emulated MFRC522 reader (CPU us, and how much of it is the chip's emulation).
Every run times the same two first (medians of three), as **the day's machine**: the runs of two days
are compared by what the table's own work cost on each (the quota's yardstick does not tell).

Run from the repository root (as root for the quota):
    python3 bench/bench_table.py [--play-seconds 60] [--idle-seconds 10] [--quota both] [--pi-share 0.197 | --time-pi-share] [--slice-us N] [--json]
    python3 bench/bench_table.py --parts
Exit status 1 when a tap was never journaled; the targets are printed, met or MISSED, not enforced
(on a shared machine they say more about the load than the table).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import requests  # noqa: E402
import websocket  # noqa: E402

from bench.bench_load import rss_kib  # noqa: E402
from bench.bench_readers import PLACES  # noqa: E402
from bench.pi_quota import PI4_CORE_SHARE, CpuQuota, pi4_core_share  # noqa: E402
from bench.watchers import Watcher, close_all, new_tiny_game, percentile, post_input  # noqa: E402
from hardware.config import Config  # noqa: E402
from hardware.registry import TagRegistry  # noqa: E402
from server import games  # noqa: E402
from tests.support import tiny_game  # noqa: E402
from tests.support.emulated_table import EmulatedTable  # noqa: E402
from tests.support.server import Server  # noqa: E402

SEATS = 8
#: One tag per colour card of the tiny game (every seat lays its own copy).
TAGS = {"test/red": "04A224C2B31190", "test/blue": "04B11C22A35E80"}
TICK = os.sysconf("SC_CLK_TCK")
#: After this long without a card the readers poll at their dozing pace, and after the second
#: at their deeper dozing pace (hardware/hub.py).
DOZE_AFTER_S, DEEP_DOZE_AFTER_S = Config().doze_after_s, Config().deep_doze_after_s

#: The issue's targets: (figure, limit, "max" or "min", where it applies).
#: The idle ones are judged after N s quiet: the issue's "a game waiting" is a table nobody has
#: touched for a while, not the pause between two moves (the figures after 5 s are printed too).
TARGETS = [("http_all_p99_ms", 20, "max", "none"), ("idle_deep_cpu_pct", 5, "max", "none"),
           ("idle_watched_deep_cpu_pct", 5, "max", "none"), ("idle_deep_table_cpu_pct", 5, "max", "none"),
           ("idle_watched_deep_table_cpu_pct", 5, "max", "none"),
           ("idle_rss_mib", 120, "max", "none"), ("startup_s", 1.5, "max", "none"),
           ("camera_fps", 10, "min", "pi4"), ("reader_polls_min", 50, "min", "pi4"),
           ("all_p99_ms", 100, "max", "pi4")]


def ms(values: list[float], p: float) -> float | None:
    """The ``p``-th percentile of ``values`` (seconds) in milliseconds, or None when there are none."""
    return round(percentile(values, p) * 1000, 1) if values else None


def fsync_ms(folder: Path, writes: int = 200) -> list[float]:
    """What this disk allows a durable write, the floor under the journal's commit: the seconds each
    of ``writes`` small appends (100 bytes) to a file in ``folder`` took with its fsync, one after
    another (SQLite's commit in WAL mode appends its pages and fsyncs the WAL file so)."""
    path = folder / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    times = []
    try:
        for _ in range(writes):
            start = time.perf_counter()
            os.write(fd, b"x" * 100)
            os.fsync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return times


class LightScreen(Watcher):
    """A screen as a light Socket.IO client: Engine.IO 4 and Socket.IO 5 spoken over one websocket
    (websocket-client) by a reader thread that decodes only the ``state`` messages' JSON, without
    python-socketio's and Engine.IO's client layers (about 40 % less of the bench's CPU a state,
    measured), so that less of the figure is the bench's own clients on the same cores."""

    def __init__(self, url: str, view: str = "table", token: str | None = None):
        # not Watcher's __init__, which connects a python-socketio client
        self.view = view
        self.arrived: dict[int, float] = {}
        self.latest = 0
        self.changed = threading.Condition()
        self.ws = websocket.create_connection(url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
                                              timeout=10)
        if not self.ws.recv().startswith("0"):                     # Engine.IO's open packet
            raise ConnectionError(f"{url} did not open an Engine.IO session")
        self.ws.send("40" + json.dumps({"view": view, "token": token}))   # Socket.IO CONNECT with auth
        while not (answer := self.ws.recv()).startswith("40"):    # the connect's state may come first
            if not self._take(answer):
                raise ConnectionError(f"{view} was refused: {answer[:300]}")
        self.ws.settimeout(None)
        threading.Thread(target=self._read, name=f"screen-{view}", daemon=True).start()

    def _take(self, message: str) -> bool:
        """Act on one message from the server; False for one this screen does not expect."""
        if message.startswith('42["state",'):
            self._state(json.loads(message[2:])[1])
        elif message == "2":                                       # Engine.IO's ping
            self.ws.send("3")
        return message.startswith(("42", "2"))

    def _read(self) -> None:
        while True:
            try:
                message = self.ws.recv()
            except (websocket.WebSocketException, OSError):
                return
            if not message:
                return
            self._take(message)

    def close(self) -> None:
        try:
            self.ws.send("41")                                    # Socket.IO DISCONNECT
            self.ws.close()
        except (websocket.WebSocketException, OSError):
            pass


def _screens_process(conn, url: str, specs: list[tuple[str, str | None]], light: bool = False) -> None:
    """A child process of :class:`Screens`: a screen (a Watcher, or a LightScreen when ``light``) for
    each ``(view, token)``; answers the parent's ``(seqs, timeout)`` with when each got each state
    (None: never), until told None."""
    kind = LightScreen if light else Watcher
    watchers = [kind(url, view, token) for view, token in specs]
    conn.send("ready")
    while (asked := conn.recv()) is not None:
        seqs, timeout = asked
        deadline = time.monotonic() + timeout
        conn.send([{seq: w.arrival(seq, max(0.0, deadline - time.monotonic())) for seq in sorted(seqs)}
                   for w in watchers])
    if light:
        for w in watchers:
            w.close()
    else:
        close_all(watchers)
    conn.send("closed")


class Screens:
    """The twenty screens (the players' seat pages, then ``tvs`` TVs in the table room), each a
    python-socketio client, dealt over ``processes`` processes so that the clients do not decode
    one after another in one interpreter (a table's phones and TVs are twenty devices)."""

    def __init__(self, srv, seats: int, tvs: int, processes: int, light: bool = False):
        specs = [(f"seat-{s}", srv.seat_token(s)) for s in range(1, seats + 1)] + [("table", None)] * tvs
        self.count = len(specs)
        self.processes = max(1, min(processes, len(specs)))
        spawn = multiprocessing.get_context("spawn")
        self.children = []
        for k in range(self.processes):
            mine, theirs = spawn.Pipe()
            child = spawn.Process(target=_screens_process, args=(theirs, srv.url, specs[k::self.processes], light),
                                  daemon=True)
            child.start()
            self.children.append((child, mine))
        for child, conn in self.children:
            if not conn.poll(120) or conn.recv() != "ready":
                raise TimeoutError(f"a screens process did not connect its clients (exit code {child.exitcode})")

    def __len__(self) -> int:
        return self.count

    def arrivals(self, seqs: list[int], timeout: float = 10.0) -> list[dict[int, float | None]]:
        """For each screen in order, when it got each state of ``seqs`` (time.perf_counter, the
        system's monotonic clock, the same in every process), None for one it never got."""
        for _, conn in self.children:
            conn.send((seqs, timeout))
        got = [conn.recv() for _, conn in self.children]
        return [got[i % self.processes][i // self.processes] for i in range(self.count)]

    def close(self) -> None:
        """Disconnect every client and end the processes."""
        for _, conn in self.children:
            conn.send(None)
        for child, conn in self.children:
            if conn.poll(30):
                conn.recv()         # "closed"
            child.join(10)
        self.children = []


def config_toml(fps: float | None, deep_doze_after_s: float | None = None) -> str:
    """Eight MFRC522 readers placed as on a Pi (bench_readers.PLACES) and the synthetic camera
    (none when ``fps`` is None); their deeper doze after ``deep_doze_after_s`` (None: the default)."""
    deep = "" if deep_doze_after_s is None else f"deep_doze_after_s = {deep_doze_after_s:g}\n"
    readers = ("" if not deep else "[hub]\n" + deep) + "".join(f'\n[[readers]]\nname = "seat-{n + 1}"\ndriver = "mfrc522"\nbus = {bus}\n'
                      f"device = {device}\nreset_pin = 25\n" for n, (bus, device) in enumerate(PLACES[:SEATS]))
    return readers + ("" if fps is None else f'\n[camera]\nsource = "synthetic"\nfps = {fps:g}\n' + deep)


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of the process (``"total"``, threads that ended included) and of each live
    thread, summed by the thread's OS name."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:          # the thread ended meanwhile
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICK
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()    # last: it includes the above
    out["total"] = (int(fields[11]) + int(fields[12])) / TICK
    return out


def cpu_parts(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    """Per cent of one core of this machine: the whole server, its readers, camera and the rest."""
    def used(pick) -> float:
        return sum(after[n] - before.get(n, 0.0) for n in after if n != "total" and pick(n))
    total = after["total"] - before["total"]
    readers = used(lambda n: n.startswith("readers-"))
    camera = used(lambda n: n == "camera")
    return {k: round(v / seconds * 100, 1) for k, v in
            (("total", total), ("readers", readers), ("camera", camera), ("server", total - readers - camera))}


def cpu_by_name(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    """Per cent of one core of this machine by thread name, most first; the unnamed threads (Python's
    "Thread-N (target)", the OS name cut at 15 characters) summed by what is left of their target's name."""
    out: dict[str, float] = {}
    for name in after.keys() - {"total"}:
        kind = re.sub(r"^Thread-\d+ ?", "", name) or "Thread"
        out[kind] = out.get(kind, 0.0) + after[name] - before.get(name, 0.0)
    return {k: round(v / seconds * 100, 1) for k, v in sorted(out.items(), key=lambda kv: -kv[1]) if v > 0}


def report(srv: EmulatedTable, folder: Path, name: str, timeout: float = 10.0) -> dict:
    """Ask the server process for its readers' poll counts (tests/support/emulated_serve.py)."""
    path = folder / f"{name}.json"
    srv.hardware(report=str(path))
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the server did not write its report")
        time.sleep(0.01)
    return {**json.loads(path.read_text()), "at": time.perf_counter()}


def emulation_cpu(before: dict, after: dict, measured: float) -> dict[str, float]:
    """Between two reports: the CPU the chip emulation took and the CPU the same SPI transfers
    take on a Pi (per cent of one core), transfers a second, and the table's own CPU:
    ``measured`` (the server's, %) less the emulation plus the Pi's cost.  A transfer costs a Pi
    the emulator's per-transfer overhead (25 us, the system call; bench_readers' "Pi CPU est."),
    counted here as 25 us of this machine's CPU: not scaled down to its faster core, so the
    table's figure is an upper bound."""
    seconds = after["at"] - before["at"]

    def summed(key: str) -> float:
        return sum(bus[key] - before["buses"].get(n, {}).get(key, 0) for n, bus in after["buses"].items())
    transfers = summed("transfers")
    on_pi = sum((bus["transfers"] - before["buses"].get(n, {}).get("transfers", 0)) * bus["overhead_s"]
                for n, bus in after["buses"].items())
    emulation = summed("emulation_s") / seconds * 100
    return {"emulation": round(emulation, 1), "pi_spi": round(on_pi / seconds * 100, 1),
            "transfers_per_s": round(transfers / seconds),
            "pi_us_per_transfer": round(on_pi / transfers * 1e6, 1) if transfers else None,
            "table": round(measured - emulation + on_pi / seconds * 100, 1)}


def health(srv: Server) -> dict:
    return requests.get(srv.url + "/api/health", timeout=10).json()


def camera(srv: Server) -> dict:
    """The camera's health record."""
    return next(r for r in health(srv)["camera"] if r["name"] == "camera")


def camera_fps(srv: Server) -> float | None:
    """The frames per second the camera says it got over the last couple of seconds."""
    return camera(srv).get("fps")


def frames_taken(session: requests.Session, srv: Server) -> tuple[float, int]:
    """(now, frames the camera's pipeline has taken so far): the frames it did not skip."""
    return time.perf_counter(), session.get(srv.url + "/api/camera/status", timeout=10).json()["frames"]


def polls_per_second(before: dict, after: dict) -> dict[str, float]:
    """Polls each reader answered a second between two reports."""
    seconds = after["at"] - before["at"]
    return {r: (after["polls"][r] - before["polls"].get(r, 0)) / seconds for r in after["polls"]}


def taken_per_second(before: tuple[float, int], after: tuple[float, int]) -> float:
    return round((after[1] - before[1]) / (after[0] - before[0]), 1)


def idle_cpu(pid: int, seconds: float, rss: list, began: float) -> dict[str, float]:
    """CPU per part over ``seconds`` of idling, noting the memory every second in ``rss``; it starts
    once the readers doze (no card laid since the server started ``DOZE_AFTER_S`` ago)."""
    time.sleep(max(0.0, began + DOZE_AFTER_S + 2.0 - time.perf_counter()))    # (the readers start after the imports)
    cpu0, t0 = thread_cpu(pid), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        time.sleep(min(1.0, seconds))
        rss.append((time.perf_counter() - began, rss_kib(pid)))
    return cpu_parts(cpu0, thread_cpu(pid), time.perf_counter() - t0)


def wait_for_pace(srv: Server, pace: str, camera_doze: str | None = None, timeout: float = 120.0) -> None:
    """Until every reader's ``pace`` is ``pace`` (hardware/hub.py: "dozing", "dozing deeply") and,
    given ``camera_doze``, the camera's health begins so (vision/service.py: "dozing (", "dozing deeply")."""
    deadline = time.monotonic() + timeout
    while True:
        h = health(srv)
        cams = [r["detail"] for r in h.get("camera", []) if r["name"] == "camera"]
        if (all(r.get("pace") == pace for r in h.get("readers", []))
                and (camera_doze is None or any(d.startswith(camera_doze) for d in cams))):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the readers not {pace} or the camera not {camera_doze} after {timeout} s: {h}")
        time.sleep(0.2)


def cards_laid_and_taken(srv: EmulatedTable, camera_doze: str | None = None) -> None:
    """Every seat lays its card and takes it off again, then until the readers are at their first
    doze (and the camera's health begins with ``camera_doze``, if given).  With ``camera_doze`` a hand
    moves in the camera's view while the cards are laid, so the camera's stillness starts again with the
    readers': else, on a loaded machine, the camera could doze deeply (its stillness dated from the game's
    start) before the readers reached their first doze, and the wait never end."""
    if camera_doze is not None:
        srv.hardware(camera="moving")
    for seat in range(1, SEATS + 1):
        srv.hardware(place=f"seat-{seat}", uid=TAGS["test/red"])
    wait_for_pace(srv, "playing", timeout=10)
    for seat in range(1, SEATS + 1):
        srv.hardware(remove=f"seat-{seat}")
    if camera_doze is not None:
        srv.hardware(camera="fresh")
    wait_for_pace(srv, "dozing", camera_doze, timeout=60)


def quiet_idle(srv: EmulatedTable, session: requests.Session, folder: Path, name: str, pid: int, seconds: float,
               rss: list, began: float) -> dict:
    """The idle figures over ``seconds`` from now (after the waits for a pace; ``session`` the host's):
    CPU per part, the same without the chip emulation, the camera's frames a second and frames taken,
    the slowest reader's polls a second."""
    taken0, polls0 = frames_taken(session, srv), report(srv, folder, f"{name}-before")
    cpu = idle_cpu(pid, seconds, rss, began)
    taken = taken_per_second(taken0, frames_taken(session, srv))
    polls1 = report(srv, folder, f"{name}-after")
    polls = polls_per_second(polls0, polls1)
    return {"cpu": cpu, "emulation": emulation_cpu(polls0, polls1, cpu["total"]), "camera_fps": camera_fps(srv),
            "frames_taken_per_s": taken, "reader_polls_min": round(min(polls.values()), 1) if polls else None}


def wait_until_running(srv: EmulatedTable, timeout: float) -> None:
    """Until every reader answers and the camera gives frames (it calibrates itself first)."""
    deadline = time.monotonic() + timeout
    while True:
        h = health(srv)
        cams = [r for r in h.get("camera", []) if r["name"] == "camera"]
        readers_ok = len(h.get("readers", [])) == SEATS and all(r["status"] == "ok" for r in h["readers"])
        if readers_ok and cams and cams[0].get("fps"):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"table not running after {timeout} s: {h}")
        time.sleep(0.2)


def slope_kib_per_min(samples: list[tuple[float, int]]) -> float:
    """Least-squares growth of the later half of the (seconds, KiB) samples, in KiB a minute (the
    bench gives it play's samples: with the idle phases' before them it measured the step from an
    idle table, whose heaps the camera trims, to a played one as growth)."""
    half = samples[len(samples) // 2:]
    if len(half) < 2:
        return 0.0
    ts, ks = [t for t, _ in half], [k for _, k in half]
    mt, mk = statistics.fmean(ts), statistics.fmean(ks)
    var = sum((t - mt) ** 2 for t in ts)
    return 0.0 if var == 0 else sum((t - mt) * (k - mk) for t, k in zip(ts, ks)) / var * 60


def minute_floors(samples: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """The lowest of the (seconds, KiB) samples in each whole minute from the first: memory that is freed
    and taken again within a minute (a frame's buffers, the heaps' trims: a sawtooth of a few MiB) left
    out, so that what stays taken shows.  A last minute not over (the sample after play) has no floor."""
    minutes: dict[int, tuple[float, int]] = {}
    whole = int((samples[-1][0] - samples[0][0]) // 60) if samples else 0
    for t, k in samples:
        m = int((t - samples[0][0]) // 60)
        if m < whole and (m not in minutes or k < minutes[m][1]):
            minutes[m] = (t, k)
    return [minutes[m] for m in sorted(minutes)]


def floor_slope(samples: list[tuple[float, int]]) -> float | None:
    """:func:`slope_kib_per_min` of the later half of the minutes' floors (:func:`minute_floors`); None
    under six minutes of samples (too few floors to fit)."""
    floors = minute_floors(samples)
    return round(slope_kib_per_min(floors), 1) if len(floors) >= 6 else None


def run(play_seconds: float = 60, idle_seconds: float = 10, reader_rate: float = 2.0, http_rate: float = 2.0,
        tvs: int = 12, fps: float = 15, quota: CpuQuota | None = None, progress=None,
        client_processes: int = 4, deep_doze_after_s: float | None = None, light_screens: bool = False) -> dict:
    """One run against a fresh server; the figures (see the module docstring).  ``deep_doze_after_s``
    shortens the wait for the deeper doze (the test's; None: the table's default); ``light_screens``:
    the screens are :class:`LightScreen` clients, not python-socketio's."""
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "bench" / "out") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        (data / "config.toml").write_text(config_toml(fps, deep_doze_after_s))
        games.register(tiny_game.GAME)     # so its cards can be enrolled
        registry = TagRegistry.in_data_dir(data)
        for card, uid in TAGS.items():
            registry.enrol(uid, card)
        registry.close()
        srv = EmulatedTable(data, simulate=False)
        srv.preexec = quota.preexec if quota else None
        watchers: Screens | None = None
        began = time.perf_counter()
        srv.start(timeout=120)
        startup = time.perf_counter() - began
        try:
            pid = srv.proc.pid
            startup_cpu = thread_cpu(pid)["total"]
            srv.hardware(camera="fresh")      # a real camera's frames: a new picture, new noise each time
            rss: list[tuple[float, int]] = [(time.perf_counter() - began, rss_kib(pid))]
            session = requests.Session()
            session.headers["Authorization"] = f"Bearer {srv.host_token}"
            assert session.post(srv.url + "/api/input", json=new_tiny_game(SEATS), timeout=30).status_code == 200
            watchers = Screens(srv, SEATS, tvs, client_processes, light_screens)
            wait_until_running(srv, timeout=180)
            ready = time.perf_counter() - began
            if progress:
                progress(f"running {ready:.1f} s after the start; idle for {idle_seconds:g} s, then again "
                         "with the boards watched")

            # ----- idle: a game waiting, every screen connected ------------------------------
            cards_laid_and_taken(srv)        # the readers' first doze, however long the start took
            idle = quiet_idle(srv, session, Path(tmp), "idle", pid, idle_seconds, rss, began)
            idle_rss = rss[-1][1]
            idle_anon, idle_file = rss_kib(pid, "RssAnon"), rss_kib(pid, "RssFile")
            if progress:
                progress(f"waiting for the deeper doze ({deep_doze_after_s or DEEP_DOZE_AFTER_S:g} s without a card)")
            wait_for_pace(srv, "dozing deeply")
            idle_deep = quiet_idle(srv, session, Path(tmp), "deep", pid, idle_seconds, rss, began)
            # the same with a game that watches every board: the camera at its full rate
            watched = new_tiny_game(SEATS, "tiny-watched")
            assert session.post(srv.url + "/api/input", json=watched, timeout=30).status_code == 200
            watchers.close()
            watchers = Screens(srv, SEATS, tvs, client_processes, light_screens)   # the seat tokens are new with the game
            deadline = time.monotonic() + 60
            while "resting" in camera(srv)["detail"] or (camera_fps(srv) or 0) < 2:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the camera did not wake for the watched boards: {camera(srv)}")
                time.sleep(0.2)
            wait_for_pace(srv, "dozing deeply", "dozing", timeout=60)   # the boards settle (still) after the
            cards_laid_and_taken(srv, "dozing (")     # new game and the camera dozes; the readers at their first doze
            idle_watched = quiet_idle(srv, session, Path(tmp), "watched", pid, idle_seconds, rss, began)
            if progress:
                progress("waiting for the deeper doze with the boards watched")
            wait_for_pace(srv, "dozing deeply", "dozing deeply")
            idle_watched_deep = quiet_idle(srv, session, Path(tmp), "watched-deep", pid, idle_seconds, rss, began)
            srv.hardware(camera="moving")     # from now on the pipeline takes every frame
            throttled0 = quota.throttled() if quota else None

            # ----- play ----------------------------------------------------------------------
            if progress:
                progress(f"playing for {play_seconds:g} s")
            fsyncs = fsync_ms(data)             # the disk's own floor, before and after play
            journal = sqlite3.connect(data / "journal.sqlite")
            before_play = journal.execute("SELECT COALESCE(MAX(id), 0) FROM inputs").fetchone()[0]
            journal.close()
            polls0 = report(srv, Path(tmp), "before")
            taken0 = frames_taken(session, srv)
            cpu1, t1 = thread_cpu(pid), time.perf_counter()
            placed: dict[str, list[float]] = {f"seat-{s}": [] for s in range(1, SEATS + 1)}
            sent: list[tuple[float, int | None]] = []
            lock = threading.Lock()

            def http_tap(n: int) -> None:
                body = {"tap": {"reader": f"seat-{n % SEATS + 1}", "card": list(TAGS)[n // SEATS % 2]}}
                start, seq, _ = post_input(session, srv.url, body)
                with lock:
                    sent.append((start, seq))

            # the schedule: (due, what, n); a card stays on its reader a second
            hold = min(1.0, SEATS / reader_rate / 3)
            plan = [(k / reader_rate, "place", k) for k in range(int(play_seconds * reader_rate))]
            plan += [(k / reader_rate + hold, "remove", k) for k in range(int(play_seconds * reader_rate))]
            plan += [(k / http_rate, "http", k) for k in range(int(play_seconds * http_rate))]
            plan.sort()
            fps_seen: list[float] = []
            play_from = len(rss)                # the samples of play (its growth)
            anon: list[tuple[float, int]] = []  # the same, anonymous memory only (the libraries' file pages left out)
            next_sample, next_fps = 1.0, 5.0
            with ThreadPoolExecutor(max_workers=8) as pool:
                for due, what, k in plan:
                    while (now := time.perf_counter() - t1) < due:
                        time.sleep(min(due - now, 0.005))
                    seat = f"seat-{k % SEATS + 1}"
                    if what == "http":
                        pool.submit(http_tap, k)
                    elif what == "place":
                        placed[seat].append(time.perf_counter())
                        srv.hardware(place=seat, uid=TAGS[list(TAGS)[k // SEATS % 2]])
                    else:
                        srv.hardware(remove=seat)
                    if now >= next_sample:
                        next_sample += 1.0
                        rss.append((time.perf_counter() - began, rss_kib(pid)))
                        anon.append((time.perf_counter() - began, rss_kib(pid, "RssAnon")))
                    if now >= next_fps:
                        next_fps += 5.0
                        fps_seen.append(camera_fps(srv))
            time.sleep(1.0)                     # the last lifts
            fps_seen.append(camera_fps(srv))
            play_wall = time.perf_counter() - t1
            cpu2 = thread_cpu(pid)
            play_cpu = cpu_parts(cpu1, cpu2, play_wall)
            play_threads = cpu_by_name(cpu1, cpu2, play_wall)
            play_taken = taken_per_second(taken0, frames_taken(session, srv))
            polls1 = report(srv, Path(tmp), "after")
            rss.append((time.perf_counter() - began, rss_kib(pid)))
            throttled1 = quota.throttled() if quota else None
            fsyncs += fsync_ms(data)

            # ----- latencies -----------------------------------------------------------------
            journal = sqlite3.connect(data / "journal.sqlite")
            rows = journal.execute("SELECT id, source FROM inputs WHERE source LIKE 'reader:%' "
                                   "AND input LIKE '{\"tap\"%' AND id > ? ORDER BY id", (before_play,)).fetchall()
            journal.close()
            arrived = watchers.arrivals([seq for _, seq in sent if seq is not None] + [seq for seq, _ in rows])

            def reached(seq: int, group: range) -> float | None:
                times = [arrived[i].get(seq) for i in group]
                return None if any(t is None for t in times) else max(times)
            tv_watchers, all_watchers = range(SEATS, len(watchers)), range(len(watchers))

            latency: dict[str, dict[str, list[float]]] = {"http": {"tv": [], "all": []},
                                                          "reader": {"tv": [], "all": []}}
            # lost: never journaled; unseen: journaled, but a screen never got that state (the
            # publisher sends a screen that fell behind only the newest state once it catches up)
            lost, unseen = {"http": 0, "reader": 0}, {"http": 0, "reader": 0}
            for start, seq in sent:
                if seq is None:
                    lost["http"] += 1
                    continue
                tv, every = reached(seq, tv_watchers), reached(seq, all_watchers)
                if every is None:
                    unseen["http"] += 1
                    continue
                latency["http"]["tv"].append(tv - start)
                latency["http"]["all"].append(every - start)
            taps: dict[str, list[int]] = {}
            for seq, source in rows:
                taps.setdefault(source.split(":", 1)[1], []).append(seq)
            for seat, times in placed.items():
                seqs = taps.get(seat, [])
                lost["reader"] += max(0, len(times) - len(seqs))
                for start, seq in zip(times, seqs):
                    tv, every = reached(seq, tv_watchers), reached(seq, all_watchers)
                    if every is None:
                        unseen["reader"] += 1
                        continue
                    latency["reader"]["tv"].append(tv - start)
                    latency["reader"]["all"].append(every - start)
        finally:
            srv.stop()
            if watchers:
                watchers.close()

    polls = polls_per_second(polls0, polls1)
    figures = {
        "quota_cores": quota.cores if quota else None, "quota_slice_us": quota.slice_us if quota else None, "play_seconds": round(play_wall, 1),
        "clients": len(watchers), "client_processes": watchers.processes,
        "screens": "light" if light_screens else "python-socketio",
        "reader_taps": sum(len(v) for v in placed.values()), "http_taps": len(sent),
        "lost": lost, "unseen": unseen, "startup_s": round(startup, 2), "startup_cpu_s": round(startup_cpu, 2), "running_after_s": round(ready, 1),
        "play_cpu": play_cpu, "play_cpu_threads": play_threads,
        # the four idles (after 5 s quiet: idle, idle_watched; after N s: idle_deep, idle_watched_deep)
        **{f"{phase}_{k}": v for phase, q in (("idle", idle), ("idle_watched", idle_watched), ("idle_deep", idle_deep),
                                              ("idle_watched_deep", idle_watched_deep))
           for k, v in (("cpu_pct", q["cpu"]["total"]), ("cpu", q["cpu"]), ("emulation", q["emulation"]),
                        ("table_cpu_pct", q["emulation"]["table"]), ("camera_fps", q["camera_fps"]),
                        ("frames_taken_per_s", q["frames_taken_per_s"]),
                        ("reader_polls_min", q["reader_polls_min"]))},
        "play_frames_taken_per_s": play_taken, "deep_doze_after_s": deep_doze_after_s or DEEP_DOZE_AFTER_S,
        "idle_rss_mib": round(idle_rss / 1024, 1),
        "idle_anon_mib": round(idle_anon / 1024, 1), "idle_file_mib": round(idle_file / 1024, 1),
        "startup_rss_mib": round(rss[0][1] / 1024, 1), "rss_max_mib": round(max(k for _, k in rss) / 1024, 1),
        "rss_end_mib": round(rss[-1][1] / 1024, 1), "rss_slope_kib_per_min": round(slope_kib_per_min(rss[play_from:]), 1),
        "rss_floor_slope_kib_per_min": floor_slope(rss[play_from:]), "anon_floor_slope_kib_per_min": floor_slope(anon),
        "rss_floors": [(round(t, 1), k) for t, k in minute_floors(rss[play_from:])],
        "rss_samples": [(round(t, 1), k) for t, k in rss],
        "camera_fps": round(statistics.median(v or 0.0 for v in fps_seen), 1), "camera_fps_asked": fps,
        "reader_polls": {r: round(v, 1) for r, v in sorted(polls.items())},
        "reader_polls_min": round(min(polls.values()), 1) if polls else None,
        "throttled_s": round((throttled1["throttled_time"] - throttled0["throttled_time"]) / 1e9, 2)
        if quota else None,
    }
    for path, groups in latency.items():
        for group, values in groups.items():
            figures[f"{path}_{group}_p50_ms"] = ms(values, 50)
            figures[f"{path}_{group}_p99_ms"] = ms(values, 99)
    both = latency["http"]["all"] + latency["reader"]["all"]
    figures["all_p50_ms"], figures["all_p99_ms"] = ms(both, 50), ms(both, 99)
    figures["disk_fsync_p50_ms"], figures["disk_fsync_p99_ms"] = ms(fsyncs, 50), ms(fsyncs, 99)
    return figures


def idle_only(make, config: str | None = None, idle_seconds: float = 10, tvs: int = 12,
              client_processes: int = 4) -> dict:
    """Start ``make(data_dir)`` (a Server, not started; ``config`` its config.toml) with the tiny
    game waiting and the same 20 screens: start-up, idle CPU and memory."""
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "bench" / "out") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        if config is not None:
            (data / "config.toml").write_text(config)
        srv = make(data)
        began = time.perf_counter()
        srv.start()             # a simulated table's start waits for its camera's pipeline too
        ready = time.perf_counter() - began
        startup = srv.answered_at - began
        watchers: Screens | None = None
        try:
            pid = srv.proc.pid
            startup_cpu = thread_cpu(pid)["total"]
            srv.post(new_tiny_game(SEATS))
            deadline = time.monotonic() + 120
            while camera(srv)["status"] != "off" and not camera_fps(srv) and time.monotonic() < deadline:
                time.sleep(0.2)          # calibrated and running
            time.sleep(1.0)
            no_clients = rss_kib(pid)
            watchers = Screens(srv, SEATS, tvs, client_processes)
            emulated = isinstance(srv, EmulatedTable)
            before = report(srv, Path(tmp), "idle-before") if emulated else None
            cpu = idle_cpu(pid, idle_seconds, [], began)
            emulation = emulation_cpu(before, report(srv, Path(tmp), "idle-after"), cpu["total"]) if emulated else None
            rss = rss_kib(pid)
            per_client = (rss - no_clients) / len(watchers)
            wait_for_pace(srv, "dozing deeply")
            before = report(srv, Path(tmp), "deep-before") if emulated else None
            deep = idle_cpu(pid, idle_seconds, [], began)
            deep_emulation = (emulation_cpu(before, report(srv, Path(tmp), "deep-after"), deep["total"])
                              if emulated else None)
        finally:
            srv.stop()
            if watchers:
                watchers.close()
    return {"startup_s": round(startup, 2), "ready_s": round(ready, 2), "startup_cpu_s": round(startup_cpu, 2),
            "idle_cpu_pct": cpu["total"], "idle_cpu": cpu, "idle_emulation": emulation,
            "idle_table_cpu_pct": emulation["table"] if emulation else None, "idle_rss_mib": round(rss / 1024, 1), "no_clients_rss_mib": round(no_clients / 1024, 1),
            "rss_per_client_kib": round(per_client), "deep_doze_after_s": DEEP_DOZE_AFTER_S,
            "idle_deep_cpu_pct": deep["total"], "idle_deep_cpu": deep, "idle_deep_emulation": deep_emulation,
            "idle_deep_table_cpu_pct": deep_emulation["table"] if deep_emulation else None}


def parts(runs: int = 5, frames: int = 60, polls: int = 1000) -> dict:
    """CPU a pipeline frame (ms) and an empty reader poll (us) take in this process (see the module
    docstring), each the median of ``runs`` runs."""
    from hardware.mfrc522_reader import Mfrc522Reader
    from tests.support.emulated_serve import CAMERA, SensorNoise, board_centres
    from tests.support.mfrc522_emulator import Emulator
    from vision.layout import sample_layouts
    from vision.pipeline import Pipeline, blocks_of
    from vision.sources import SyntheticSource
    from vision.synthetic import calibrate

    source = SyntheticSource(sample_layouts())
    pipeline = Pipeline({p.layout.board: p.layout for p in source.scene.boards})
    calibrate(pipeline, source.scene)
    noise = SensorNoise(source.read().shape, spots=board_centres(source))
    CAMERA["moving"] = True
    pictures = [noise(source.read()) for _ in range(30)]
    for picture in pictures[:20]:              # located, read, settled
        pipeline.process(picture, None, blocks_of(picture))
    frame_ms = []
    for _ in range(runs):
        t = time.process_time()
        for i in range(frames):
            picture = pictures[i % len(pictures)]
            pipeline.process(picture, None, blocks_of(picture))     # as the camera service calls it
        frame_ms.append((time.process_time() - t) / frames * 1000)
    poll_us, emulation_us = [], []
    with Emulator() as emulator:
        emulator.add_reader(0, 0)
        reader = Mfrc522Reader("seat-1", 0, 0)
        reader.open()
        bus = emulator.buses[0]
        for _ in range(runs):
            t, e = time.thread_time(), bus.emulation_s
            for _ in range(polls):
                reader.poll()
            poll_us.append((time.thread_time() - t) / polls * 1e6)
            emulation_us.append((bus.emulation_s - e) / polls * 1e6)
        reader.close()
    return {"boards": len(pipeline.boards), "slots": sum(len(w.layout.slots) for w in pipeline.boards.values()),
            "frame_cpu_ms": round(statistics.median(frame_ms), 2),
            "empty_poll_cpu_us": round(statistics.median(poll_us), 1),
            "empty_poll_emulation_us": round(statistics.median(emulation_us), 1)}


def verdicts(figures: dict, where: str) -> list[str]:
    """The issue's targets that apply ``where`` ("none" or "pi4"), each met or MISSED."""
    out = []
    for key, limit, kind, applies in TARGETS:
        value = figures.get(key)
        if applies != where or value is None:
            continue
        met = value <= limit if kind == "max" else value >= limit
        out.append(f"{key} {value} ({'met' if met else 'MISSED'}: {'at most' if kind == 'max' else 'at least'} "
                   f"{limit:g})")
    return out


def without_emulation(measured: float, e: dict) -> str:
    """The sum of :func:`emulation_cpu`, in words."""
    return (f"{measured} measured - {e['emulation']} emulating the chips + {e['pi_spi']} for the "
            f"{e['transfers_per_s']} SPI transfers a second at a Pi's {e['pi_us_per_transfer']} us each = "
            f"{e['table']} % of a core")


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.1f}" if a and b else "-"


def describe(f: dict) -> str:
    """The figures of one run, as lines to read."""
    quota = "none" if f["quota_cores"] is None else f"{f['quota_cores']:.3f} cores of this machine" + (
        "" if f.get("quota_slice_us") is None else f", the kernel's slice {f['quota_slice_us']} us")
    lines = [f"quota: {quota}"
             f"; {f['clients']} clients in {f['client_processes']} processes"
             f"{' (light screens)' if f.get('screens') == 'light' else ''}; {f['reader_taps']} reader taps and {f['http_taps']} HTTP taps in "
             f"{f['play_seconds']} s; never journaled: {f['lost']}, journaled but not seen by every "
             f"screen: {f['unseen']}",
             f"  start-up to first answer {f['startup_s']} s ({f['startup_cpu_s']} s of CPU; readers "
             f"and camera running after "
             f"{f['running_after_s']} s)",
             f"  input to screen, ms    p50 TV / all    p99 TV / all"]
    for path in ("http", "reader"):
        lines.append(f"    {path:<6}               {f[f'{path}_tv_p50_ms']} / {f[f'{path}_all_p50_ms']}"
                     f"      {f[f'{path}_tv_p99_ms']} / {f[f'{path}_all_p99_ms']}")
    lines += [f"    both, all screens    p50 {f['all_p50_ms']}  p99 {f['all_p99_ms']}",
              f"  the disk's floor (a 100-byte append and fsync in the journal's folder, before and after "
              f"play): p50 {f['disk_fsync_p50_ms']} ms, p99 {f['disk_fsync_p99_ms']} ms; HTTP input to all "
              f"screens p99 = {ratio(f['http_all_p99_ms'], f['disk_fsync_p99_ms'])} x the disk's p99",
              f"  idle, no board watched: camera {f['idle_camera_fps']} fps, pipeline took "
              f"{f['idle_frames_taken_per_s']}/s, readers {f['idle_reader_polls_min']} polls/s (slowest); "
              f"boards watched, a still table: camera "
              f"{f['idle_watched_camera_fps']} fps, pipeline took {f['idle_watched_frames_taken_per_s']}/s",
              f"  camera {f['camera_fps']} fps while playing (asked {f['camera_fps_asked']:g}), pipeline took "
              f"{f['play_frames_taken_per_s']}/s; reader polls/s: slowest "
              f"{f['reader_polls_min']}, each {list(f['reader_polls'].values())}",
              "  CPU % of one core here   " + "   ".join(
                  f"{phase}: " + ", ".join(f"{k} {v}" for k, v in f[f'{phase}_cpu'].items())
                  for phase in ("idle", "idle_watched", "play")),
              "  CPU % of one core while playing, by thread name: "
              + ", ".join(f"{n} {v}" for n, v in f["play_cpu_threads"].items()),
              *(f"  {phase} without the chip emulation: {without_emulation(f[phase + '_cpu']['total'], f[phase + '_emulation'])}"
                for phase in ("idle", "idle_watched")),
              f"  idle after 5 s quiet: the figures above; after {f['deep_doze_after_s']:g} s quiet: camera "
              f"{f['idle_deep_camera_fps']} fps, pipeline took {f['idle_deep_frames_taken_per_s']}/s, readers "
              f"{f['idle_deep_reader_polls_min']} polls/s (slowest); boards watched: camera "
              f"{f['idle_watched_deep_camera_fps']} fps, pipeline took {f['idle_watched_deep_frames_taken_per_s']}/s",
              f"  CPU % of one core after {f['deep_doze_after_s']:g} s quiet   " + "   ".join(
                  f"{phase}: " + ", ".join(f"{k} {v}" for k, v in f[f'{phase}_deep_cpu'].items())
                  for phase in ("idle", "idle_watched")),
              *(f"  {phase} after {f['deep_doze_after_s']:g} s quiet without the chip emulation: "
                f"{without_emulation(f[phase + '_deep_cpu_pct'], f[phase + '_deep_emulation'])}"
                for phase in ("idle", "idle_watched")),
              f"  memory: {f['startup_rss_mib']} MiB at the first answer, idle {f['idle_rss_mib']} MiB"
              f" (anonymous {f['idle_anon_mib']}, mapped from files {f['idle_file_mib']})"
              f", max {f['rss_max_mib']} MiB, end "
              f"{f['rss_end_mib']} MiB, later-half growth {f['rss_slope_kib_per_min']} KiB/min"
              + ("" if f["rss_floor_slope_kib_per_min"] is None else
                 f"; of each minute's lowest {f['rss_floor_slope_kib_per_min']} KiB/min (anonymous "
                 f"{f['anon_floor_slope_kib_per_min']})"),
              "  memory over time (s: MiB): " + ", ".join(
                  f"{t:g}: {k / 1024:.1f}" for t, k in f["rss_samples"][::max(1, len(f["rss_samples"]) // 12)])]
    if f["throttled_s"] is not None:
        lines.append(f"  time throttled by the quota while playing: {f['throttled_s']} s")
    return "\n".join(lines)


def quota_runs(quota: str, pi_cores: float, pi_share: float = PI4_CORE_SHARE, time_share: bool = False,
               pi_python: str | None = None) -> tuple[list[tuple[str, float | None]], dict | None]:
    """The runs ``--quota`` asks for, each (name, cores of this machine or None), and the Pi 4 core's
    share the ``pi4`` run uses (None without one): ``pi_share``, or timed now when ``time_share``."""
    runs: list[tuple[str, float | None]] = []
    share = None
    if quota in ("none", "both"):
        runs.append(("none", None))
    if quota in ("pi4", "both"):
        share = pi4_core_share(pi_python) if time_share else {"pi4_core_share": pi_share}
        runs.append(("pi4", share["pi4_core_share"] * pi_cores))
    elif quota not in ("none", "both"):
        runs.append((quota, float(quota)))
    return runs, share


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--play-seconds", type=float, default=60)
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--reader-rate", type=float, default=2.0, help="cards laid on readers a second")
    parser.add_argument("--http-rate", type=float, default=2.0, help="taps over HTTP a second")
    parser.add_argument("--fps", type=float, default=15, help="the camera's frame rate")
    parser.add_argument("--quota", default="both", help="none, pi4, both, or a number of this machine's cores")
    parser.add_argument("--pi-cores", type=float, default=2.0, help="Pi 4 cores the pi4 quota stands for")
    parser.add_argument("--pi-share", type=float, default=PI4_CORE_SHARE,
                        help="a Pi 4 core as a share of one core here (default: measured on a quiet moment, "
                        "bench/pi_quota.py)")
    parser.add_argument("--time-pi-share", action="store_true",
                        help="time the Pi 4 yardstick in this run instead of using --pi-share")
    parser.add_argument("--slice-us", type=int, help="the kernel's CFS bandwidth slice while a quota runs "
                        "(/proc/sys/kernel/sched_cfs_bandwidth_slice_us; put back after); default: as it is")
    parser.add_argument("--pi-python", help="the interpreter timing the Pi 4 work with --time-pi-share "
                        "(default: a Python 3.7)")
    parser.add_argument("--client-processes", type=int, default=4,
                        help="processes the 20 screens' clients are dealt over (1: all in one)")
    parser.add_argument("--light-screens", action="store_true",
                        help="the screens as light Socket.IO clients (LightScreen: no python-socketio client "
                        "layers), so that less of the latency is the bench's own CPU")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--parts", action="store_true", help="only time a pipeline frame and an empty reader poll")
    args = parser.parse_args(argv)
    if args.parts:
        f = parts()
        print(json.dumps(f) if args.json else
              f"pipeline, {f['boards']} boards ({f['slots']} slots), a frame of play: {f['frame_cpu_ms']} ms of CPU; "
              f"an empty MFRC522 poll: {f['empty_poll_cpu_us']} us of CPU, {f['empty_poll_emulation_us']} us of "
              f"it emulating the chip (medians of 5 runs)")
        return 0

    runs, share = quota_runs(args.quota, args.pi_cores, args.pi_share, args.time_pi_share, args.pi_python)
    # the table's own work timed on the day's machine: the quota's yardstick (pure-Python arithmetic) does not
    # follow what makes the table cheaper or dearer from one day to the next (stop 38: a third less CPU in play
    # on a fresh VM, the yardstick no faster), so runs of different days are compared by this
    machine = parts(runs=3)
    if not args.json:
        print(f"the day's machine: a pipeline frame of play {machine['frame_cpu_ms']} ms of CPU, an empty "
              f"MFRC522 poll {machine['empty_poll_cpu_us']} us (medians of 3, the bench's process alone)")

    def progress(message: str) -> None:
        if not args.json:
            print("  " + message, file=sys.stderr, flush=True)

    results, lost = {}, 0
    idles = {"simulation": idle_only(Server, idle_seconds=args.idle_seconds, client_processes=args.client_processes),
             "no_camera": idle_only(lambda data: EmulatedTable(data, simulate=False), config_toml(None),
                                    args.idle_seconds, client_processes=args.client_processes)}
    for name, f in idles.items():
        if args.json:
            continue
        print(f"{'simulation (tofu-table serve --simulate)' if name == 'simulation' else '8 MFRC522 readers, camera off'}"
              f", a game waiting, 20 screens: start-up to first answer {f['startup_s']} s (ready {f['ready_s']} s; "
              f"{f['startup_cpu_s']} s of CPU by then), idle CPU "
              + ", ".join(f"{k} {v}" for k, v in f["idle_cpu"].items())
              + f" % of a core, memory {f['idle_rss_mib']} MiB ({f['no_clients_rss_mib']} "
              f"before the screens connected: {f['rss_per_client_kib']} KiB a screen)")
        if f["idle_emulation"]:
            print("  idle without the chip emulation: " + without_emulation(f["idle_cpu_pct"], f["idle_emulation"]))
        print(f"  idle after {f['deep_doze_after_s']:g} s quiet: CPU "
              + ", ".join(f"{k} {v}" for k, v in f["idle_deep_cpu"].items()) + " % of a core")
        if f["idle_deep_emulation"]:
            print(f"  idle after {f['deep_doze_after_s']:g} s quiet without the chip emulation: "
                  + without_emulation(f["idle_deep_cpu_pct"], f["idle_deep_emulation"]))
        for line in verdicts(f, "none"):
            print("  target: " + line)
    for name, cores in runs:
        # a group of this run's own: two benches at once in one group would share its quota and its counts
        quota = CpuQuota(cores, name=f"tofu-pi-{os.getpid()}", slice_us=args.slice_us) if cores else None
        try:
            results[name] = run(args.play_seconds, args.idle_seconds, args.reader_rate, args.http_rate,
                                fps=args.fps, quota=quota, progress=progress,
                                client_processes=args.client_processes, light_screens=args.light_screens)
        finally:
            if quota:
                quota.remove()
        lost += sum(results[name]["lost"].values())
        if not args.json:
            print(describe(results[name]))
            for line in verdicts(results[name], "pi4" if cores else "none"):
                print("  target: " + line)
    if args.json:
        print(json.dumps({"pi4": share, "machine": machine, "load_average": os.getloadavg(), **idles, "runs": results},
                         indent=2))
    elif share:
        how = (f"timed now, n-body: {share['here_us_per_step']} us a step here with Python {share['python']}, "
               f"{share['pi4_us_per_step']} on the Pi 4" if "python" in share else "fixed, --pi-share")
        print(f"pi4 quota: a Pi 4 core is {share['pi4_core_share']:.3f} of a core here ({how}); "
              f"{args.pi_cores:g} Pi cores")
    if not args.json:
        print(f"load average at the end: {' '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
