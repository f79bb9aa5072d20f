"""The server process of tests/support/emulated_table.py: ``tofu-table serve`` on emulated hardware.

The data folder's ``config.toml`` names the readers as on a Pi (driver ``mfrc522``, bus, device,
reset pin); the server process wires an emulated chip (tests/support/mfrc522_emulator.py) to
each, so the real ``mfrc522`` package, the driver and the reader hub run as on a Pi.  The
camera is the one ``[camera]`` configures, made unpluggable: while it is gone, opening it fails
and it gives no frames, as a camera whose ribbon came loose.  The test changes the hardware
through the process's stdin, one JSON command per line:

    {"place": "seat-2", "uid": "04A224C2B31190"}   lay a tag on seat-2's reader
    {"remove": "seat-2"}                            take it away
    {"unplug": "seat-2"} / {"plug": "seat-2"}       pull the reader's cable / push it back
    {"camera": "gone"} / {"camera": "back"}         the camera disappears / comes back
    {"camera": "fresh"}                             every frame a new picture from now on, as a real
                                                    camera's: the synthetic one hands over the same
                                                    picture while nothing moves; this one adds a
                                                    sensor's noise, new in every frame
    {"camera": "moving"}                            ... and something moves in view every frame, over
                                                    one board after another (a hand working over one
                                                    board at a time: the camera then skips no frame,
                                                    and looks at the board under it every frame)
    {"report": "/some/file.json"}                   write the readers' poll counts and the emulated
                                                    buses' clocks, transfers, per-transfer overhead
                                                    and the CPU spent emulating them there (for
                                                    bench/bench_table.py)

Every thread of the server process carries its Python name in the OS too (``/proc/<pid>/task/
<tid>/comm``: ``readers-spi0``, ``camera``, ``table-apply``...), so a benchmark can charge CPU
time to the part of the table that spent it.

This module imports nothing of the test's side (the Socket.IO client, requests): the process
imports what ``tofu-table serve`` imports and its emulated hardware, so its start-up and memory
are the table's (bench/bench_table.py measures them).
"""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
from pathlib import Path

from tests.support import tiny_game


def device_dir(data_dir) -> Path:
    """Where the server's emulated chip selects live (their flock files): an Emulator in the
    test given the same folder meets the server's locks, as a second program on the Pi would."""
    return Path(data_dir) / "emulated-spidev"


#: Whether the camera is gone, whether each frame is a new picture, and whether something moves in
#: view (the test's commands).
CAMERA = {"gone": False, "fresh": False, "moving": False}
#: The sensor noise of the fresh pictures, grey levels (a webcam's at indoor light is a few).
NOISE_SIGMA = 2.5
#: While something moves in view, it is over one board after another for this many frames each (a hand
#: working over one board at a time, a second at the bench's 15 frames a second) ...
MOVING_FRAMES_A_BOARD = 15
#: ... a square this many pixels a side (60 mm at the synthetic table's 0.8 px a mm: a palm), its grey
#: changing every frame.
MOVING_PX = 48


class SensorNoise:
    """New noise for each picture, cheaply: two precomputed fields of noise (what it adds, what it
    takes away) a sixteenth of the picture high and a few rows more; each sixteenth of each picture
    gets them from another row (the bench counts this process's memory: 0.6 MiB at 1280x720, where
    fields a quarter of the picture high took 1.8 and as high as the picture 6; 0.29 against 0.22 ms
    of CPU a picture)."""

    ROWS = 32
    BANDS = 16

    def __init__(self, shape: tuple[int, ...], seed: int = 20, spots=((MOVING_PX // 2, MOVING_PX // 2),)):
        import numpy as np

        band = -(-shape[0] // self.BANDS)
        noise = np.random.default_rng(seed).normal(0, NOISE_SIGMA, (band + self.ROWS, *shape[1:]))
        self.add = np.clip(noise, 0, 255).round().astype(np.uint8)
        self.sub = np.clip(-noise, 0, 255).round().astype(np.uint8)
        self.rng = np.random.default_rng(seed + 1)
        self.count = 0
        self.spots = list(spots)        # where something moves, in turn (picture pixels; see board_centres)

    def __call__(self, frame):
        import cv2
        import numpy as np

        out = np.empty_like(frame)
        band = self.add.shape[0] - self.ROWS
        for top in range(0, frame.shape[0], band):
            rows = min(band, frame.shape[0] - top)
            row = int(self.rng.integers(self.ROWS))
            part = out[top:top + rows]
            cv2.add(frame[top:top + rows], self.add[row:row + rows], dst=part)
            cv2.subtract(part, self.sub[row:row + rows], dst=part)
        self.count += 1
        if CAMERA["moving"]:
            x, y = self.spots[self.count // MOVING_FRAMES_A_BOARD % len(self.spots)]
            r = MOVING_PX // 2
            out[max(0, y - r):y + r, max(0, x - r):x + r] = self.count * 97 % 256
        return out


def board_centres(source) -> list[tuple[int, int]]:
    """The middles of the synthetic camera's boards in its picture (pixels), where :class:`SensorNoise`
    moves something in turn; the picture's top left corner for another camera."""
    from vision.sources import SyntheticSource
    from vision.synthetic import board_homography

    if not isinstance(source, SyntheticSource):
        return [(MOVING_PX // 2, MOVING_PX // 2)]
    centres = []
    for place in source.scene.boards:
        w, h = place.layout.size_mm
        x, y, z = board_homography(source.scene, place) @ (w / 2, h / 2, 1.0)
        centres.append((int(x / z), int(y / z)))
    return centres


def _unpluggable(source):
    """``source`` (a vision FrameSource), turned into one that fails while ``CAMERA["gone"]``."""
    from vision.sources import SourceError

    if source is None:          # [camera] source = "off"
        return None
    base = type(source)

    class Unpluggable(base):
        def open(self):
            if CAMERA["gone"]:
                raise SourceError(f"no {self.name} camera found")
            return base.open(self)

        def read(self):
            if CAMERA["gone"]:
                return None
            frame = base.read(self)
            if not CAMERA["fresh"] or frame is None:
                return frame
            if getattr(self, "noise", None) is None or self.noise.add.shape[1:] != frame.shape[1:]:
                self.noise = SensorNoise(frame.shape, spots=board_centres(self))
            return self.noise(frame)

    source.__class__ = Unpluggable
    return source


def _make_cameras_unpluggable() -> None:
    """Make every camera the table builds unpluggable, patching ``vision.sources`` only as the camera
    is built: that is when the server imports OpenCV and numpy (after it answers, as ``tofu-table
    serve`` does), not before it starts, which put their import in the start-up the bench measures."""
    from vision import camera

    real_build = camera.build

    def build(*args, **kwargs):
        from vision import sources

        if not getattr(sources.make_source, "unpluggable", False):
            real_make_source = sources.make_source
            sources.make_source = lambda *a: _unpluggable(real_make_source(*a))
            sources.make_source.unpluggable = True
        return real_build(*args, **kwargs)
    camera.build = build


@functools.cache
def _sample_boards() -> tuple[str, ...]:
    from vision.layout import sample_layouts
    return tuple(layout.target for layout in sample_layouts().values())


def _every_board(state: dict) -> dict[str, dict]:
    return {board: {} for board in _sample_boards()}


#: The tiny game, watching every board of the camera's sample layouts (all empty): a game that
#: needs the camera at its full rate, for bench/bench_table.py.
WATCHED_TINY = dataclasses.replace(
    tiny_game.GAME, id="tiny-watched", name="Tiny Test Game, boards watched", watch=_every_board,
    setup=lambda players, options, seed: {**tiny_game.setup(players, options, seed), "game": "tiny-watched"})


#: The running table's context, once the readers' plugin started (for the report command).
TABLE: list = []


def _report(path: str, emulator) -> None:
    """Write each reader's answered polls and each emulated bus's clock, transfers, overhead a
    transfer and emulation CPU (tests/support/mfrc522_emulator.py's SpiBus) to ``path``."""
    from hardware.station import station_for

    running = station_for(TABLE[0]) if TABLE else None
    polls = running.hub.polls() if running else {}
    buses = {str(n): {"clock_s": bus.now, "transfers": bus.transfers, "overhead_s": bus.overhead_s,
                      "emulation_s": bus.emulation_s} for n, bus in emulator.buses.items()}
    Path(path + ".part").write_text(json.dumps({"polls": polls, "buses": buses}))
    os.replace(path + ".part", path)


def _name_os_threads() -> None:
    """From now on every new thread gives the OS its Python name (prctl PR_SET_NAME, 15 bytes)."""
    import ctypes
    import threading

    libc = ctypes.CDLL(None, use_errno=True)

    def name_this_thread(*_):
        sys.setprofile(None)          # called once, as the thread starts: no profiling after
        libc.prctl(15, threading.current_thread().name.encode()[:15], 0, 0, 0)
    threading.setprofile(name_this_thread)


def _steer(chips: dict, emulator) -> None:
    from tests.support.mfrc522_emulator import EmulatedTag

    on_reader: dict[str, EmulatedTag] = {}
    for line in sys.stdin:
        command = json.loads(line)
        (action, reader), = ((k, v) for k, v in command.items() if k != "uid")
        if action == "camera":
            if reader in ("fresh", "moving"):
                CAMERA["fresh"] = True
                CAMERA["moving"] = reader == "moving"
            else:
                CAMERA["gone"] = reader == "gone"
            continue
        if action == "report":
            _report(reader, emulator)
            continue
        chip = chips[reader]
        if action == "place":
            on_reader[reader] = EmulatedTag(command["uid"])
            chip.place(on_reader[reader])
        elif action == "remove":
            chip.remove(on_reader.pop(reader))
        elif action == "unplug":
            chip.unplug()
        elif action == "plug":
            chip.plug()


if __name__ == "__main__":
    import threading

    from hardware.config import FILE_NAME, load
    from server import games
    from server.cli import main
    from hardware import station
    from tests.support.mfrc522_emulator import Emulator

    real_start_readers = station.start
    station.start = lambda ctx: TABLE.append(ctx) or real_start_readers(ctx)     # the plugin, as loaded
    games.register(tiny_game.GAME)
    games.register(WATCHED_TINY)
    argv = sys.argv[1:]
    config = load(Path(argv[argv.index("--data") + 1]) / FILE_NAME)
    if config.camera.get("source", "off") != "off":
        _make_cameras_unpluggable()
    with Emulator(device_dir=device_dir(Path(argv[argv.index("--data") + 1]))) as emulator:
        chips = {rc.name: emulator.add_reader(rc.bus, rc.device, rc.reset_pin)
                 for rc in config.readers if rc.driver == "mfrc522"}
        _name_os_threads()
        threading.Thread(target=_steer, args=(chips, emulator), name="emulator-steer", daemon=True).start()
        sys.exit(main(argv))
