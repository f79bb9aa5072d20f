"""The camera thread: frames from the source through the pipeline; committed snapshots onto the table.

It never touches the engine: every commit is ``table.put(input, source="camera")``.
A camera that cannot be opened, or stops giving frames, is reported in
:meth:`CameraService.health` and retried; nothing is committed meanwhile.

While nothing needs its pictures (the running game watches no board, no calibration runs and
nobody looked at them for a few seconds) the camera rests: one frame a second, enough to keep
its health; it is back at its full rate as soon as a game watches a board.  A frame in which
nothing changed is not looked at either, while every board lies still: the picture, cut into
blocks of ``BLOCK_PX`` pixels (vision/pipeline.py, which leaves a still board alone by the same
blocks), is compared with the last one the pipeline took, and none of its blocks moved by more
than ``CHANGE_LEVEL`` (a camera's noise, averaged over a block, moves them by under one level; a
token laid or a hand by tens).  The pipeline still takes a frame every
``FULL_PASS_S``, so a change too small for the blocks waits at most that long.  Once nothing has
changed for ``DOZE_AFTER_S`` the camera dozes: ``DOZING_FPS`` frames a second until a frame
shows a change (a hand reaching over the table is then seen up to a fifth of a second later, and
followed at the full rate); still for ``DEEP_DOZE_AFTER_S``, it dozes deeply: ``DEEP_DOZING_FPS``
frames a second (a hand seen up to half a second later), until a frame shows a change; a change
too small for the blocks then waits up to ``DEEP_FULL_PASS_S``.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from typing import Callable

import cv2
import numpy as np

from server.memory import give_back_free_memory, settle

from .config import OFF, CameraConfig
from .pipeline import LIGHT_WARN, Pipeline, blocks_alike, blocks_of
from .sources import FrameSource, SourceError

log = logging.getLogger(__name__)

#: Seconds between attempts to open a missing camera.
RETRY_S = 5.0
#: Frames in a row without a picture before the camera counts as gone (and is reopened).
LOST_AFTER = 30
#: Seconds an opened camera may take to give its first picture before health says it is down (a
#: driver whose read never returns would otherwise say "starting" for ever).
FIRST_FRAME_WITHIN_S = 10.0
#: Frames a second while the camera rests.
RESTING_FPS = 1.0
#: Seconds the full rate is kept after someone asked for a picture (the calibrate or simulator page).
LOOKED_AT_S = 5.0
#: The pipeline takes a frame at least this often (seconds), changed or not; while the camera
#: dozes deeply, at least every ``DEEP_FULL_PASS_S`` (that full pass was most of its CPU then).
FULL_PASS_S = 1.0
DEEP_FULL_PASS_S = 5.0
#: Seconds without a change after which the camera dozes, and its frames a second then (unless
#: the [camera] section sets them, vision/config.py).
DOZE_AFTER_S = CameraConfig.doze_after_s
DOZING_FPS = CameraConfig.dozing_fps
#: Seconds without a change after which the camera dozes deeply (nobody has touched the table for
#: a while: issue 20's idle budget), and its frames a second then.
DEEP_DOZE_AFTER_S = CameraConfig.deep_doze_after_s
DEEP_DOZING_FPS = CameraConfig.deep_dozing_fps
#: The camera thread runs this many nice levels below the rest of the table: when the CPU is short
#: (a Pi's cores, other programs) the readers and the server get it first and the camera what is left.
#: Only once it has prepared: the synthetic camera's calibration at start (4-5 s of CPU) niced took
#: 170-185 s to be ready on a 2-core machine at load 7-14, against 25-42 s at the table's priority.
CAMERA_NICE = 10
#: The pipeline's frame status until it has looked at a frame (vision/pipeline.py).
FIRST_FRAME_DUE = "no frame yet"
#: While it dozes the camera thread gives the heaps' free memory back to the system this often,
#: seconds, right after a frame; while it rests, after every frame (one a second).  Each frame
#: allocates and frees pictures of megabytes (below server/memory.py's mapping threshold, so from
#: the heaps, which keep what is freed in their middle): without it an idle table stays about 12-16
#: MiB larger at a Pi's 1280x720, and trimmed only every other resting frame it held the last
#: frame's 3-4 MiB half the time (issue 20).  Not while the table is played: a trim locks each heap
#: in turn, and the camera thread, niced, could keep an input's thread waiting on one while the CPU
#: is short.  Trimmed every 2 s in play as well (tried; bench/README, 2026-11-27), the camera's heap
#: swung between 28.4 MiB resident after a trim and 32.2 a frame later, where untrimmed it held
#: 29.1-30.0 for 30 minutes: no smaller, and the screens' p99 inside the Pi quota was higher in 3 of 4
#: alternated pairs (within the runs' spread).
TRIM_EVERY_S = 2.0
#: After the table has applied an input the camera starts no frame, and looks at no further board of
#: the frame it is on, for this long, seconds (a frame waits at most this long in all): the input's views
#: are then on their way to the screens.  Inside a Pi's CPU budget (the bench's quota, 0.394 cores in
#: 10 ms periods) a frame, about 10 ms of CPU here, spent the periods on one core while the input's
#: threads waited on the other: nice levels order the threads of one core, not a budget two share.  With
#: it the screens' p50 in that quota went 46.2 -> 34.4 ms, their p99 134.9 -> 123.6 and the camera 14.1 -> 12.9
#: fps (medians of 6 and 5 alternated runs; a 60 ms hold did no better: bench/README.md, issue 20).
YIELD_TO_TABLE_S = 0.04


def _some(slots: list[str], shown: int = 3) -> str:
    """How many spaces, with the first few named: "4 spaces (a, b, c, ...)"."""
    more = ", ..." if len(slots) > shown else ""
    return f"{len(slots)} space{'s' if len(slots) != 1 else ''} ({', '.join(slots[:shown])}{more})"


def lower_priority(steps: int) -> None:
    """Lower the calling thread's OS priority by ``steps`` nice levels (Linux sets it per thread)."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps))
    except (AttributeError, OSError):      # not Linux, or not allowed: the camera runs as it is
        log.info("the camera thread keeps its priority")


class CameraService:
    """Runs one source through one pipeline and puts commits on the table's queue."""

    def __init__(self, source: FrameSource | None, pipeline: Pipeline, put: Callable[[dict], None],
                 fps: float = 30.0, simulated: bool = False, prepare: Callable[[], None] | None = None,
                 expected: set[str] | None = None, doze: tuple[float, float] | None = None,
                 deep_doze: tuple[float, float] | None = None):
        self.source = source
        self.pipeline = pipeline
        self.put = put
        self.period = 1.0 / max(1.0, fps)
        self.simulated = simulated
        self.lock = threading.Lock()        # the pipeline is used by the camera thread and the web pages
        self.opened = False
        self.error: str | None = None if source is not None else OFF
        self.last_frame_at: float | None = None
        self.frame_times: deque = deque(maxlen=60)
        self.misses = 0
        self.commits = 0
        self._stop = threading.Event()
        self._wake = threading.Event()      # set to end a wait between frames early
        self._thread: threading.Thread | None = None
        self._next_open = 0.0
        self._opened_at = 0.0           # when the camera was last opened (monotonic)
        self.prepare = prepare          # run once in the camera thread before the first frame
        self._taken: tuple[float, np.ndarray] | None = None    # when the pipeline took a frame, its blocks
        self._changed_at = time.monotonic()     # when a frame last showed a change (or a board was not still)
        self.collecting = False         # a calibration capture wants every frame measured
        self.expected = expected        # boards that must be in view (the [camera] boards list)
        self.watched = True             # the running game watches a board (see vision.camera)
        self.marks: dict[str, dict[str, str]] = {}   # tokens to mark on the pictures, by board and slot
        self._looked_at = float("-inf")
        self._status: tuple[dict, float | None] | None = None   # the pipeline's status when last asked
        # (seconds of a still table, frames a second then) of its doze and its deeper doze
        self.doze = doze or (DOZE_AFTER_S, DOZING_FPS)
        self.deep_doze = deep_doze or (DEEP_DOZE_AFTER_S, DEEP_DOZING_FPS)
        self._yield_until = float("-inf")   # no frame starts before this (monotonic): the table's turn
        self._hold_left = YIELD_TO_TABLE_S   # what the frame under way may still wait for the table

    def watch(self, watched: bool) -> None:
        """Whether the running game watches a board: the camera rests while none is, and starts
        awake when one is (players lay out the game: no doze carried over from the rest)."""
        if watched != self.watched:
            self.watched = watched
            if watched:
                self._changed_at = time.monotonic()
            self._wake.set()

    def yield_to_table(self) -> None:
        """The table has applied an input: no frame or board for ``YIELD_TO_TABLE_S`` (the screens first)."""
        self._yield_until = time.monotonic() + YIELD_TO_TABLE_S

    def _table_first(self) -> None:
        """Wait while the table's latest input goes out (``yield_to_table``), as long as the frame under
        way may still wait."""
        held = min(self._yield_until - time.monotonic(), self._hold_left)
        if held > 0:
            self._stop.wait(held)
            self._hold_left -= held

    def resting(self) -> bool:
        """Whether nothing needs the camera's pictures now."""
        return not (self.watched or self.collecting or time.monotonic() - self._looked_at < LOOKED_AT_S)

    def dozing(self) -> bool:
        """Whether the watched table has shown no change for the doze's seconds (``DOZE_AFTER_S``
        unless set; nobody looking at the pictures, no calibration running)."""
        return self._still_for(self.doze[0])

    def dozing_deeply(self) -> bool:
        """Whether it has dozed until the table showed no change for the deeper doze's seconds."""
        return self._still_for(self.deep_doze[0])

    def _still_for(self, seconds: float) -> bool:
        now = time.monotonic()
        return (now - self._changed_at >= seconds and not self.collecting
                and now - self._looked_at >= LOOKED_AT_S)

    def _doze(self) -> tuple[str, float, float] | None:
        """While it dozes: how deeply ("dozing" or "dozing deeply"), frames a second, and after how
        many seconds of a still table; None while it does not."""
        if self.dozing_deeply():
            return "dozing deeply", self.deep_doze[1], self.deep_doze[0]
        return ("dozing", self.doze[1], self.doze[0]) if self.dozing() else None

    # ----- one step ----------------------------------------------------------------------
    def step(self) -> list[dict]:
        """Read one frame, run it, put its commits on the table; the commits."""
        if self.source is None:
            return []
        if not self.opened:
            if time.monotonic() < self._next_open:
                return []
            try:
                self.source.open()
                self.opened, self.error, self.misses = True, None, 0
                self._opened_at = time.monotonic()
            except SourceError as exc:
                self.error = str(exc)
                self._next_open = time.monotonic() + RETRY_S
                return []
        try:
            frame = self.source.read()
        except Exception as exc:     # a driver failing mid-stream must not end the thread
            log.warning("camera read failed: %s", exc)
            frame = None
        blocks = None
        if frame is None:
            self.misses += 1
            if self.misses >= LOST_AFTER:
                self.error = f"No frames from the {self.source.name} camera; reopening it."
                self.source.close()
                self.opened = False
        else:
            self.misses = 0
            now = time.monotonic()
            self.frame_times.append(now)
            self.last_frame_at = time.time()
            blocks = blocks_of(frame) if isinstance(frame, np.ndarray) and frame.size else None
            if not self._worth_a_look(blocks, now):
                return []
        with self.lock:
            commits = self.pipeline.process(frame, self._table_first, blocks)
        for inp in commits:
            self.commits += 1
            self.put(inp)
        return commits

    def _worth_a_look(self, blocks: np.ndarray | None, now: float) -> bool:
        """Whether the pipeline should take the frame cut into ``blocks`` (:func:`blocks_of`; None: not a
        picture, which the pipeline names); see the module's docstring."""
        if blocks is None:
            return True
        same = blocks_alike(blocks, None if self._taken is None else self._taken[1]) and self.pipeline.at_rest()
        if not same:
            self._changed_at = now
        elif not self.collecting and now - self._taken[0] < (DEEP_FULL_PASS_S if self.dozing_deeply()
                                                             else FULL_PASS_S):
            return False
        self._taken = (now, blocks)
        return True

    # ----- thread --------------------------------------------------------------------------
    def start(self) -> None:
        """Start the camera thread."""
        if self._thread is None:
            self._stop.clear()
            self._wake.clear()
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the thread and release the camera."""
        if self._thread is not None:
            self._stop.set()
            self._wake.set()
            self._thread.join(timeout=5)
            self._thread = None
        if self.source is not None and self.opened:
            self.source.close()
            self.opened = False

    def _run(self) -> None:
        if self.prepare is not None:
            try:
                with self.lock:
                    self.prepare()
            except Exception:
                log.exception("preparing the camera failed")
            self.prepare = None
        lower_priority(CAMERA_NICE)
        settle()        # the table has started: OpenCV, the layouts and references stay (server/memory.py)
        pace = None
        trimmed = time.monotonic()
        while not self._stop.is_set():
            self._hold_left = YIELD_TO_TABLE_S
            self._table_first()
            if self._stop.is_set():
                break
            start = time.monotonic()
            resting, doze = self.resting(), self._doze()
            dozing = doze is not None
            period = 1.0 / RESTING_FPS if resting else max(self.period, 1.0 / doze[1]) if dozing else self.period
            if period != pace:
                self.frame_times.clear()        # the frame rate is the new pace's
                pace = period
            try:
                self.step()
            except Exception:
                log.exception("the camera pipeline failed on a frame")
            if resting or (dozing and start - trimmed >= TRIM_EVERY_S):
                give_back_free_memory()         # right after the frame: what it freed is not kept until the next
                trimmed = start
            self._wake.wait(max(0.0, period - (time.monotonic() - start)))
            self._wake.clear()

    def each_frame(self, look: Callable[[Pipeline], bool], timeout: float) -> bool:
        """Call ``look`` with the pipeline (under its lock) after each new frame, every frame measured
        at the full rate, until it returns True or ``timeout`` seconds pass; whether it returned True."""
        last = None
        end = time.monotonic() + timeout
        self.collecting = True
        self._wake.set()
        try:
            while time.monotonic() < end:
                with self.lock:
                    if self.pipeline.frame_no != last:
                        last = self.pipeline.frame_no
                        if look(self.pipeline):
                            return True
                time.sleep(0.01)
            return False
        finally:
            self.collecting = False

    def collect(self, board: str, count: int = 5, timeout: float = 5.0) -> list:
        """Measurements of ``board`` (zone means, patch) from the next ``count`` frames, for calibration."""
        samples, problems = [], []

        def look(pipeline: Pipeline) -> bool:
            try:
                samples.append(pipeline.measure(board))
            except LookupError as exc:
                problems.append(exc)
            return len(samples) >= count
        self.each_frame(look, timeout)
        if not samples:
            raise (problems[-1] if problems else LookupError("The camera gave no frames: check it on the host page."))
        return samples

    # ----- reporting ------------------------------------------------------------------------
    def fps(self) -> float | None:
        """Frames per second over the last couple of seconds."""
        t = list(self.frame_times)
        if len(t) < 2 or time.monotonic() - t[-1] > 2:
            return None
        return (len(t) - 1) / (t[-1] - t[0]) if t[-1] > t[0] else None

    def health(self) -> list[dict]:
        """Health records for /api/health: the camera, then one per board."""
        if self.prepare is not None:     # the camera thread prepares, holding the lock
            return [{"name": "camera", "status": "starting", "detail": "preparing the camera",
                     "last_seen": None, "fps": None, "ms_per_frame": None, "commits": self.commits}]
        status, ms = self._pipeline_status()
        fps = self.fps()
        if self.source is None:
            cam = {"status": "off", "detail": self.error}
        elif self.error or not self.opened:
            cam = {"status": "down", "detail": self.error or "opening the camera"}
        elif status["frame"] == FIRST_FRAME_DUE and (
                self.last_frame_at is not None or time.monotonic() - self._opened_at < FIRST_FRAME_WITHIN_S):
            cam = {"status": "starting", "detail": "waiting for the first frame"}   # no fault yet: on its way
        elif status["frame"] == FIRST_FRAME_DUE:
            cam = {"status": "down", "detail": f"The {self.source.name} camera opened but has given no picture in "
                                               f"{FIRST_FRAME_WITHIN_S:g} s: check its cable, and that no other "
                                               "program is using it, then restart the table."}
        elif status["frame"] != "ok":
            cam = {"status": "down", "detail": {"dead_frame": "The camera gives blank frames: lens cap? light?",
                                                "no_frame": "The camera gives no frames."}.get(status["frame"],
                                                                                               status["frame"])}
        else:
            lens = status["lens"] if status["lens"] not in ("in use", "not calibrated") else ""
            doze = self._doze()
            cam = {"status": "simulated" if self.simulated else "ok",
                   "detail": f"resting ({RESTING_FPS:g} frame a second): no game watches a board"
                   if self.resting() else f"{doze[0]} ({doze[1]:g} frames a second): the table has lain still "
                   f"for {doze[2]:g} s" if doze and self.period < 1.0 / doze[1] else f"lens {lens}" if lens else ""}
        records = [{"name": "camera", **cam, "last_seen": self.last_frame_at,
                    "fps": None if fps is None else round(fps, 1),
                    "ms_per_frame": None if ms is None else round(ms, 2), "commits": self.commits}]
        if cam["status"] not in ("ok", "simulated"):
            return records          # without pictures there is nothing to say about the boards
        for name, b in status["boards"].items():
            # a board missing or uncalibrated is a fault only when the configuration names it
            fault = "down" if self.expected is not None and name in self.expected else "off"
            if not b["located"]:
                state, detail = fault, (f"board not in view: {len(b['markers_seen'])} of its markers "
                                        f"{b['markers']} seen" + ("; to place it they must be spread over it "
                                                                  "(its four corners, or five of six)"
                                                                  if len(b["markers_seen"]) >= 3 else ""))
            elif not b["calibrated"]:
                state, detail = fault, "not calibrated: capture the empty board and token colours on /calibrate"
            else:
                state = "ok"
                glared = set(b["glare"])        # said apart, with what cures them
                unsure = [slot for slot in b["unsure"] if slot not in glared]
                detail = "; ".join(x for x in (
                    f"markers covered ({len(b['markers_seen'])} of {len(b['markers'])} seen)"
                    if b["status"] in ("covered", "partly_covered") else "",
                    "held where calibration found it (its markers not read): calibrate again if it moves"
                    if b["status"] == "held" else "",
                    f"too far: {len(b['too_far'])} spaces seen too small to read well: {b['too_far_advice']}"
                    if b["too_far"] else "",
                    "busy (hand over it)" if b["busy"] else "",
                    f"glare: {_some(b['glare'])} washed out by a reflection: shade or move the lamp, or tilt the "
                    "board" if b["glare"] else "",
                    f"unsure: {', '.join(unsure[:5])}" if unsure else "",
                    "something lies still outside the slots" if b["clutter"] else "",
                    f"the light changed since calibration ({b['light_change']:.0%}): capture again on /calibrate"
                    if b["light_change"] > LIGHT_WARN else "") if x)
            records.append({"name": f"board {name}", "status": state, "detail": detail,
                            "last_seen": self.last_frame_at, "tracker": b["tracker"],
                            # for the TV: only while a game watches the boards (the players wait on them then)
                            "glare": len(b["glare"]) if self.watched and b["located"] and b["calibrated"] else 0})
        return records

    def _pipeline_status(self) -> tuple[dict, float | None]:
        """The pipeline's status and time a frame, as of now or, while it works on a frame, as of
        the last time it was free: health is asked after every input (the host's view), and an
        input must not wait for a frame (tens of milliseconds on a Pi when it reads a board)."""
        if self.lock.acquire(blocking=self._status is None):
            try:
                self._status = (self.pipeline.status(), self.pipeline.ms_per_frame())
            finally:
                self.lock.release()
        return self._status

    def jpeg(self, annotate: bool = True, quality: int = 80) -> bytes | None:
        """The last frame as JPEG, with markers, slots, classes and :attr:`marks` drawn when ``annotate``."""
        from .overlay import draw
        if self.resting() or self.dozing():
            self._wake.set()
        self._looked_at = time.monotonic()
        with self.lock:
            frame = self.pipeline.last_frame
            if frame is None:
                return None
            img = draw(frame, self.pipeline, self.marks) if annotate else frame
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return buf.tobytes() if ok else None


def blank(width: int = 320, height: int = 180, text: str = "no camera") -> np.ndarray:
    """A grey placeholder picture with a line of text (for the stream when there is no frame)."""
    img = np.full((height, width, 3), 60, np.uint8)
    cv2.putText(img, text, (10, height // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (230, 230, 230), 1, cv2.LINE_AA)
    return img
