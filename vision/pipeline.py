"""The per-frame pipeline: locate boards, watch for hands, classify slots, commit snapshots.

:meth:`Pipeline.process` takes one BGR frame and returns the ``board`` inputs
committed by it (usually none).  It never raises on a bad frame: a missing or
dead frame, a board out of view or without calibration is recorded in
:meth:`Pipeline.status` and commits nothing.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from .classify import Reading, Reference, Window, classify, coarse_samples, paper_points, patch_gain, window_scale
from .config import Settings
from .layout import Layout
from .lens import Lens
from .localize import HOLD_MATCH, BoardLocator, Fix, camera_over, parallax, print_cells, print_match
from .markers import detect, make_detector
from .motion import MotionDetector
from .tokens import EMPTY, MARKER_MM, UNKNOWN, is_marker
from .tracker import SnapshotTracker

#: A frame whose grey levels spread less than this is dead (lens cap, black frame, no signal).
DEAD_SPREAD = 4.0
#: Light changed since calibration by more than this share (the grey patch says): the owner is
#: asked to calibrate again.  Reading goes on: each slot measures the light around it and reads
#: unsure only where its own evidence is weak (vision/classify.py), so a board is never blanked
#: for its patch alone (glare on the patch, or a daylight mix that changed, says little of a slot).
LIGHT_WARN = 0.25
#: Every this many frames one part of one board, each in turn, is read again, still, busy or not
#: (slow light changes, a change too small for the slot test below).  Otherwise a board is read only once
#: it lies still after something moved on it, and then only the slots whose window changed.
REREAD_EVERY = 10
#: A turn reads at most this many of a board's slots (with its LIGHT_SLOTS), the next ones at the
#: board's next turn: read whole in one frame a 137-slot board took up to 21 ms here, which a Pi's
#: CPU budget pays all at once while the readers and the screens wait (issue 20).
TURN_SLOTS = 32
#: A slot's window is compared with the one it was last read from at every this many samples each way.
SIGN_STEP = 2
#: A sample whose colour moved by more than this (grey levels, in any channel) since its slot was
#: last read changed (a camera's noise moves one by a few levels; a token laid, taken, swapped for
#: another colour or nudged moves dozens of samples by far more)...
SLOT_CHANGE = 20
#: ... and this many changed samples make the slot be read again.
SLOT_CHANGED = 3
#: A reading of some of a board's slots takes up to this many others, spread over the board, with
#: them: the classifier measures the board's tint and usual gain over the slots it reads.
LIGHT_SLOTS = 16
#: Coarser than this (picture pixels per board mm along a slot's narrower axis, as the camera sees it) a slot is
#: seen too far: a 20 mm token is then under 8 pixels across its foreshortened side, blur and JPEG mix its face
#: with its rim, shadow and the print, and on the harder renderer's hard and medium tables such slots read wrong
#: two to three times as often (0.2-0.4 % of them against 0.08-0.18 %; shots the benchmark never reads,
#: bench/README.md).  They are still read (90-97 % of them right: blanking them cost thousands of right readings
#: to save a handful of wrong ones); the board is reported too far (move the camera closer or capture at
#: 1920x1080).
MIN_PX_PER_MM = 0.4
#: A held board (its markers not read, see vision/localize.py) names nothing on its slots seen coarser than
#: MIN_PX_PER_MM: no marker confirms the place, and when the rule came (0992776) the bench's held far boards
#: (0.19-0.36 px a mm) read 20 wrong values in 1,233 slots.  Only an empty reading this sure stays (the
#: classifier's empty confidence: 0.8 is a difference from the empty board's picture of at most 0.4 token
#: thresholds; a window off its place sees print unlike calibration's, not the empty board).  On the private
#: hard render (shots 10-31) the held far slots read empty were all empty from 0.8 (279 of 352; one grain token
#: read empty at 0.76), where the tokens read there held 2 wrong values: issue 13, bench/README.md.
HELD_FAR_EMPTY = 0.8
#: Side of the blocks a frame is cut into to see whether anything in it changed, pixels (a power of
#: two: the picture is halved that many times, see :func:`blocks_of`).
BLOCK_PX = 16
#: A block whose mean moved by more than this (grey levels, in any colour) is a change: a camera's
#: noise, averaged over a block, moves one by under a level, a token laid or a hand by tens.
CHANGE_LEVEL = 6
#: A board lying still, read, and with nothing committed pending is not looked at in a frame in which
#: none of the blocks over it moved since it last was (given the frame's blocks, as the camera service
#: gives them), but at least this often (seconds): slow light changes, a change too small for the blocks.
#: At a busy table most boards lie still while hands work over a few (a board looked at costs 0.4-0.5 ms
#: of CPU a frame here: its markers, motion and light; issue 20).
LOOK_EVERY_S = 1.0
#: OpenCV runs on this many threads.  A frame's steps are small (a board's remap takes about 0.1 ms),
#: and handing their rows to a second thread costs more CPU than it shares: on this 2-core machine two
#: threads took 8.5-9.9 ms of CPU a frame of play where one took 6.9-7.6, which a Pi's budget pays
#: (issue 20).  What is read is the same (each thread works on its own rows).
OPENCV_THREADS = 1


def blocks_of(frame: np.ndarray) -> np.ndarray:
    """``frame`` averaged over blocks of about ``BLOCK_PX`` pixels a side, by halving it again and again:
    OpenCV's area resize halves a picture on a fast path but takes its general one for any other factor
    (a 1280x720 frame cut into 16-pixel blocks at once: 1.5 ms of CPU, halved four times 0.56; at
    1920x1080, whose 1080 rows are no multiple of 16, 8.4 against 1.6).  Each halving rounds to whole
    grey levels, so a block may differ by one level from the one-step mean: far under ``CHANGE_LEVEL``,
    and every frame is cut the same way."""
    steps = BLOCK_PX.bit_length() - 1
    for _ in range(steps):
        h, w = frame.shape[:2]
        if h < 2 or w < 2:
            break
        frame = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return frame


def blocks_alike(now: np.ndarray, before: np.ndarray | None) -> bool:
    """Whether no block of ``now`` moved by more than ``CHANGE_LEVEL`` since ``before`` (the same part of the
    picture cut by :func:`blocks_of`; None: nothing to compare with)."""
    return before is not None and before.shape == now.shape and int(cv2.absdiff(now, before).max()) <= CHANGE_LEVEL


def too_far(watch: "BoardWatch") -> list[str]:
    """The slots of a located board seen coarser than the classifier reads reliably (still read)."""
    if watch.scale is None or not (watch.fix and watch.fix.usable):
        return []
    return [watch.layout.slots[i].id for i in np.flatnonzero(watch.scale < MIN_PX_PER_MM)]


def glared_unsure(watch: "BoardWatch", unsure=None) -> list[str]:
    """The ``unsure`` slots (ids; the board's tracker's unless given) whose faces glare washed out when last read:
    a reflection of a lamp or a window hides them, and only moving or shading the light (or tilting the board)
    makes them readable."""
    if watch.reading is None:
        return []
    unsure = set(watch.tracker.unsure if unsure is None else unsure)
    return [s.id for s, washed in zip(watch.layout.slots, watch.reading.glared) if washed and s.id in unsure]


def too_far_advice(width: int | None) -> str:
    """What to do about spaces seen too far, for a picture ``width`` pixels wide (None: not known yet)."""
    return "move the camera closer" + (", higher over the middle, or straighter down" if width and width >= 1920
                                       else " or capture at 1920x1080")


def light_change(gain: np.ndarray | None) -> float:
    """How far the light is from calibration's, as a share (0 = the same; from the patch gain)."""
    return 0.0 if gain is None else float(np.abs(np.log(gain)).max())


@dataclass
class BoardWatch:
    """Everything the pipeline keeps for one board."""

    layout: Layout
    locator: BoardLocator
    motion: MotionDetector
    tracker: SnapshotTracker
    reference: Reference | None = None
    fix: Fix | None = None
    maps: tuple[np.ndarray, np.ndarray] | None = None        # every slot's window (see vision.classify)
    tall_maps: tuple | None = None          # ... centred where a player's marker's top lies on it, and how far off (mm)
    scale: np.ndarray | None = None          # (N,) picture px per board mm each slot is seen at (its narrower axis)
    patch_maps: tuple[np.ndarray, np.ndarray] | None = None
    paper_maps: tuple[np.ndarray, np.ndarray] | None = None  # the plain paper's sample points
    gain: np.ndarray | None = None
    reading: Reading | None = None
    patch: np.ndarray | None = None
    busy: bool = True
    over: bool = True              # something (a hand) over the board, whether or not it moves
    window: Window | None = None
    stale: bool = True             # every slot is to be read afresh (new place, new reference, its turn)
    touched: bool = True           # something moved on the board since its slots were last read
    signs: np.ndarray | None = None        # (N, S, 3) each slot's window as last read, every SIGN_STEP-th sample
    sign_samples: np.ndarray | None = None  # (S,) which samples of a window those are
    light_slots: np.ndarray | None = None  # the slots read with any others (LIGHT_SLOTS)
    at_place: tuple[MotionDetector, np.ndarray] | None = None  # the coarse view at the reference's place and
    #                                                             the cells of it that holding the board compares
    paper: np.ndarray | None = None        # (P, 2) board mm of its plain paper: the layout's, found once (0.2 s)
    block_box: tuple[int, int, int, int] | None = None   # rows and columns of the frame's blocks over it
    looked: tuple[float, np.ndarray] | None = None       # when it was last looked at, the blocks over it then


class Pipeline:
    """Frames in, committed ``board`` inputs out; status and timings on the side."""

    def __init__(self, layouts: dict[str, Layout], references: dict[str, Reference] | None = None,
                 settings: Settings | None = None, lens: Lens | None = None):
        cv2.setNumThreads(OPENCV_THREADS)
        self.settings = settings or Settings()
        self.lens = lens               # the calibrated lens (vision/lens.py), used while the frame size fits
        self.lens_status = "in use" if lens is not None else "not calibrated"
        self.detector = make_detector()
        self.boards: dict[str, BoardWatch] = {}
        for layout in layouts.values():
            self.set_layout(layout)
        for name, ref in (references or {}).items():
            self.set_reference(name, ref)
        self.frame_no = 0
        self.frame_status = "no frame yet"
        self.timings: deque = deque(maxlen=120)
        self.last_frame: np.ndarray | None = None
        self._search_now = False
        self._turn: tuple[str, np.ndarray] | None = None   # the board and slots this frame reads again

    def set_layout(self, layout: Layout) -> None:
        """Watch a board with this layout (a new board, or new geometry for a known one)."""
        self.boards[layout.board] = BoardWatch(
            layout, BoardLocator(layout, self.settings.min_markers, self.lens),
            MotionDetector(layout, self.settings.absorb_frames),
            SnapshotTracker(layout.target, [s.id for s in layout.slots], self.settings.still_frames,
                            self.settings.max_changes))

    def set_reference(self, board: str, reference: Reference | None) -> None:
        """Use a (new) colour reference for ``board``; one made for another layout is ignored."""
        watch = self.boards.get(board)
        if watch is None:
            return
        watch.reference = reference if reference is not None and reference.fits(watch.layout) else None
        watch.reading, watch.stale, watch.at_place = None, True, None
        watch.tracker.reset()
        if watch.reference is not None and watch.reference.view is not None:
            watch.motion.seed(watch.reference.view)

    # ----- one frame ---------------------------------------------------------------------
    def process(self, frame: np.ndarray | None, between: Callable[[], None] | None = None,
                blocks: np.ndarray | None = None) -> list[dict]:
        """Run one frame; the ``board`` inputs it commits.  ``between`` is called before each board is
        looked at (the camera service lets the table's work go first there); with the frame's ``blocks``
        (:func:`blocks_of`) a board lying still with nothing moved over it is not (``LOOK_EVERY_S``)."""
        start = time.perf_counter()
        self.frame_no += 1
        commits = []
        grey = None
        if isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 4:
            frame = np.ascontiguousarray(frame[..., :3])      # XBGR from some cameras: drop the padding
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            self.frame_status = "no_frame"
        else:
            grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            if self.lens is not None and not self.lens.fits(frame.shape[1], frame.shape[0]):
                self.lens_status = (f"calibrated for {self.lens.size[0]}x{self.lens.size[1]} pictures, the camera "
                                    f"gives {frame.shape[1]}x{frame.shape[0]}: calibrate the lens again")
                self.lens = None
                for watch in self.boards.values():
                    watch.locator.lens, watch.maps, watch.at_place = None, None, None
            lo, hi = np.percentile(grey[::8, ::8], (2, 98))
            self.frame_status = "dead_frame" if hi - lo < DEAD_SPREAD else "ok"
        if self.frame_status != "ok":
            self._search_now = True          # the picture may come back anywhere
            for watch in self.boards.values():
                watch.tracker.update(None, True)
                watch.busy = True
            self.timings.append((time.perf_counter() - start) * 1000)
            return commits
        self.last_frame = frame
        self._turn = None
        if self.boards and self.frame_no % REREAD_EVERY == 0:
            turns = [(name, part) for name, w in self.boards.items()
                     for part in np.array_split(np.arange(len(w.layout.slots)), -(-len(w.layout.slots) // TURN_SLOTS))]
            self._turn = turns[self.frame_no // REREAD_EVERY % len(turns)] if turns else None
        small = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        found = None
        if self._search_due():
            found = detect(self.detector, grey)
        waited = 0.0          # in ``between``: not the frame's time
        for watch in self.boards.values():
            if between is not None:
                paused = time.perf_counter()
                between()
                waited += time.perf_counter() - paused
            if found is None and self._quiet(watch, blocks, start):
                continue
            commit = self._board(watch, frame, grey, small, found)
            if commit:
                commits.append(commit)
        self.timings.append((time.perf_counter() - start - waited) * 1000)
        return commits

    def _search_due(self) -> bool:
        if self.frame_no == 1 or self._search_now:
            self._search_now = False
            return True
        lost = any(w.fix is None or w.fix.status in ("not_found", "too_few_markers", "covered", "held")
                   for w in self.boards.values())
        return lost and self.frame_no % self.settings.search_every == 0

    def _quiet(self, watch: BoardWatch, blocks: np.ndarray | None, now: float) -> bool:
        """Whether ``watch`` need not be looked at in this frame (``LOOK_EVERY_S``); when it must, the blocks
        over it are kept for the next frames to compare with."""
        if blocks is None or watch.block_box is None:
            return False
        r0, r1, c0, c1 = watch.block_box
        over = blocks[r0:r1, c0:c1]
        last = watch.looked
        if (last is not None and now - last[0] < LOOK_EVERY_S
                and watch.tracker.state == "still" and not (watch.busy or watch.touched or watch.stale)
                and watch.maps is not None and watch.fix is not None
                and watch.fix.status in ("ok", "partly_covered", "held")
                and (self._turn is None or self._turn[0] != watch.layout.board)
                and blocks_alike(over, last[1])):
            return True
        watch.looked = (now, over.copy())
        return False

    def _board(self, watch: BoardWatch, frame, grey, small, found) -> dict | None:
        fix = watch.locator.update(grey, self.detector, found)
        # a board its markers do not place is checked at its calibrated place with each search of the whole
        # picture, and while held, after anything moved over it too (the check takes about 2 ms a board)
        held = fix.status == "held"
        if (fix.homography is None or held) and (found is not None or held and (
                watch.busy or watch.motion.last["motion_mm2"] > 0)):
            fix = self._hold(watch, small, fix)
        watch.fix = fix
        if fix.homography is None:
            watch.busy, watch.reading = True, None
            watch.tracker.update(None, True)
            return None
        if fix.moved or watch.maps is None:
            self._build_maps(watch)
            watch.motion.set_view(watch.locator.to_image, 0.5)
            watch.tracker.reset()
            if watch.reference is not None and watch.reference.view is not None:
                watch.motion.seed(watch.reference.view)     # the empty board: a hand in the first frame shows
        # too few markers in view: the cached place is kept for the picture, but nothing is decided
        watch.over = watch.motion.update(small, frame)
        busy = watch.over or fix.moved or fix.status == "covered"
        watch.busy = busy
        if watch.reference is None:
            watch.tracker.update(None, True)
            return None
        if watch.patch_maps is not None:
            watch.patch = cv2.remap(frame, *watch.patch_maps, cv2.INTER_LINEAR).reshape(-1, 3).mean(0)
        watch.gain = patch_gain(watch.reference, watch.patch)
        watch.touched |= busy or watch.motion.last["motion_mm2"] > 0
        # read the slots when the board lies still after a change (nothing is decided while it is busy)
        turn = self._turn[1] if self._turn and self._turn[0] == watch.layout.board else None
        if watch.reading is None or (watch.stale and not busy):
            self._read(watch, frame, None)
            if not busy:
                watch.stale = watch.touched = False
        elif turn is not None or (watch.touched and not busy):
            # (a part read under a hand in its turn: those slots' windows changed, read again once still)
            far = self._far_while_held(watch)
            if turn is not None and far is not None:
                turn = turn[~far[turn]]        # a held board's far spaces: read again only when they change
            changed = self._changed_slots(watch, frame) if watch.touched and not busy else turn
            slots = changed if turn is None else np.union1d(turn, changed)
            self._read(watch, frame, slots)
            watch.touched = watch.touched and busy
        return watch.tracker.update(watch.reading.labels, busy)

    def _hold(self, watch: BoardWatch, small: np.ndarray, fix: Fix) -> Fix:
        """A board its markers do not place (``fix``), held at the place calibration found it while the
        picture there shows the empty board's print as calibration saw it and any markers seen lie where
        that place puts them (a board moved since fails both); ``fix`` without a place otherwise."""
        ref, locator = watch.reference, watch.locator
        if ref is None or ref.place is None or ref.view is None:
            return fix
        if watch.at_place is None:
            there = MotionDetector(watch.layout)
            there.set_view(lambda pts: locator.to_image(pts, ref.place), 0.5)
            watch.at_place = there, print_cells(watch.layout, there.outside)
        there, cells = watch.at_place
        view = there.rectified(small)
        if (view.shape == ref.view.shape and locator.agrees(ref.place, fix.seen)
                and print_match(view, ref.view, cells) >= HOLD_MATCH):
            return locator.hold(ref.place, fix)
        return locator.release(fix)

    def _changed_slots(self, watch: BoardWatch, frame: np.ndarray) -> np.ndarray:
        """The slots (indices) whose window changed since they were last read, and those read unsure (but
        a held board's far spaces only when changed: a token there reads unknown whatever it looks like)."""
        picked = watch.sign_samples        # (their places come from the window maps: kept apart, 1 MiB for ten boards)
        now = cv2.remap(frame, watch.maps[0][:, picked], watch.maps[1][:, picked], cv2.INTER_LINEAR)
        changed = (cv2.absdiff(now, watch.signs).max(2) > SLOT_CHANGE).sum(1) >= SLOT_CHANGED
        unsure = np.fromiter((label == UNKNOWN for label in watch.reading.labels), bool, len(changed))
        far = self._far_while_held(watch)
        if far is not None:
            unsure &= ~far
        return np.flatnonzero(changed | unsure)

    def _read(self, watch: BoardWatch, frame: np.ndarray, slots: np.ndarray | None) -> None:
        """Classify the ``slots`` (indices) of a board, with its light slots, or every slot (None)."""
        if slots is None:
            windows = cv2.remap(frame, watch.maps[0], watch.maps[1], cv2.INTER_LINEAR)
            watch.reading = classify(watch.reference, windows, watch.window, self.settings.min_confidence,
                                     tall=self._tall(watch, frame))
            watch.signs = np.ascontiguousarray(windows[:, watch.sign_samples])
            self._unread_far_while_held(watch)
            return
        if not len(slots):
            return
        slots = np.union1d(slots, watch.light_slots)
        windows = cv2.remap(frame, watch.maps[0][slots], watch.maps[1][slots], cv2.INTER_LINEAR)
        got = classify(watch.reference, windows, watch.window, self.settings.min_confidence, slots=slots,
                       tall=self._tall(watch, frame))
        labels, confidence, glared = list(watch.reading.labels), watch.reading.confidence.copy(), \
            watch.reading.glared.copy()
        for j, i in enumerate(slots):
            labels[i] = got.labels[j]
        confidence[slots], glared[slots] = got.confidence, got.glared
        watch.reading = Reading(labels, confidence, glared)
        watch.signs[slots] = windows[:, watch.sign_samples]
        self._unread_far_while_held(watch)

    @staticmethod
    def _tall(watch: BoardWatch, frame: np.ndarray):
        """What :func:`classify` asks for a player's marker's top (the windows of given slots centred there, and how
        far off their centres), or None where its place is not known (no lens: the camera's place over the board
        unknown)."""
        if watch.tall_maps is None:
            return None
        maps, shift = watch.tall_maps
        return lambda slots: (cv2.remap(frame, maps[0][slots], maps[1][slots], cv2.INTER_LINEAR), shift[slots])

    @staticmethod
    def _far_while_held(watch: BoardWatch) -> np.ndarray | None:
        """Which slots of a held board are seen coarser than MIN_PX_PER_MM (None when it is not held)."""
        if watch.fix is None or watch.fix.status != "held" or watch.scale is None:
            return None
        return watch.scale < MIN_PX_PER_MM

    def _unread_far_while_held(self, watch: BoardWatch) -> None:
        """A held board's slots seen coarser than MIN_PX_PER_MM read unknown unless they read surely empty
        (:data:`HELD_FAR_EMPTY`): no marker confirms the place, and such tokens read wrong too often."""
        far = self._far_while_held(watch)
        if far is not None and far.any():
            sure_empty = np.fromiter((label is EMPTY for label in watch.reading.labels), bool, len(far)) \
                & (watch.reading.confidence >= HELD_FAR_EMPTY)
            doubt = far & ~sure_empty
            watch.reading = Reading([UNKNOWN if d else label for label, d in zip(watch.reading.labels, doubt)],
                                    np.where(doubt, 0.0, watch.reading.confidence), watch.reading.glared)

    def _build_maps(self, watch: BoardWatch) -> None:
        layout = watch.layout
        watch.window, watch.stale = Window.for_token(layout.token_mm), True
        offsets = watch.window.offsets
        to_image = watch.locator.to_image
        w_mm, h_mm = layout.size_mm
        edge = np.linspace(0, 1, 5)
        outline = np.concatenate([np.stack([edge * w_mm, np.full(5, y)], 1) for y in (0, h_mm)]
                                 + [np.stack([np.full(5, x), edge * h_mm], 1) for x in (0, w_mm)])
        pts = to_image(outline) / BLOCK_PX        # the board's outline in blocks, one more all round
        (c0, r0), (c1, r1) = np.floor(pts.min(0)).astype(int) - 1, np.ceil(pts.max(0)).astype(int) + 1
        watch.block_box, watch.looked = (max(0, r0), max(0, r1), max(0, c0), max(0, c1)), None
        img = watch.locator.windows_to_image(layout.slot_centres(), offsets)
        watch.maps = (np.ascontiguousarray(img[..., 0]), np.ascontiguousarray(img[..., 1]))
        watch.scale = window_scale(watch.maps, watch.window)
        watch.tall_maps = None
        if self.lens is not None and any(is_marker(t) for t in layout.token_types()):
            camera = camera_over(watch.locator.homography, self.lens.matrix)
            centres = layout.slot_centres()
            shift = parallax(centres, camera, MARKER_MM)
            img = watch.locator.windows_to_image(centres + shift, offsets)
            watch.tall_maps = ((np.ascontiguousarray(img[..., 0]), np.ascontiguousarray(img[..., 1])), shift)
        watch.sign_samples = coarse_samples(watch.window.side, SIGN_STEP)
        n = len(layout.slots)
        watch.light_slots = np.unique(np.linspace(0, n - 1, min(n, LIGHT_SLOTS)).round().astype(np.intp))
        watch.paper_maps = None
        if watch.paper is None:
            watch.paper = paper_points(layout)
        if len(watch.paper):
            p = to_image(watch.paper)
            watch.paper_maps = (p[:, 0].reshape(1, -1).copy(), p[:, 1].reshape(1, -1).copy())
        watch.patch_maps = None
        if layout.patch:
            x, y, w, h = layout.patch
            # the grey (left) half of the patch; the white half is for people and may clip
            gx, gy = np.meshgrid(np.linspace(x + w * 0.1, x + w * 0.4, 4), np.linspace(y + h * 0.2, y + h * 0.8, 5))
            p = to_image(np.stack([gx, gy], -1).reshape(-1, 2))
            watch.patch_maps = (p[:, 0].reshape(1, -1).copy(), p[:, 1].reshape(1, -1).copy())

    def at_rest(self) -> bool:
        """Whether no board waits for frames: each lies still, or cannot be read (out of view, uncalibrated)."""
        return all(w.tracker.state == "still" or w.reference is None or not (w.fix and w.fix.usable)
                   for w in self.boards.values())

    # ----- reporting -----------------------------------------------------------------------
    def ms_per_frame(self) -> float | None:
        """Median pipeline time per frame over the recent frames, ms."""
        return float(np.median(self.timings)) if self.timings else None

    def status(self) -> dict:
        """Per board: located or not, markers seen, busy, tracker state, unsure slots."""
        boards = {}
        for name, w in self.boards.items():
            boards[name] = {
                "located": bool(w.fix and w.fix.usable),
                "status": w.fix.status if w.fix else "waiting",
                "markers_seen": w.fix.seen if w.fix else [],
                "markers": sorted(w.layout.markers),
                "busy": w.busy,
                "calibrated": w.reference is not None,
                "missing_types": w.reference.missing_types(w.layout.token_types()) if w.reference else None,
                "tracker": w.tracker.state,
                "unsure": list(w.tracker.unsure),
                "glare": glared_unsure(w),
                "clutter": w.motion.absorbed,
                "motion": dict(w.motion.last),
                "light_change": round(light_change(w.gain), 2),
                "recalibrate": light_change(w.gain) > LIGHT_WARN,
                # slots seen too coarsely to be read reliably (still read): move the camera closer or capture bigger
                "too_far": too_far(w),
                "too_far_advice": too_far_advice(None if self.last_frame is None else self.last_frame.shape[1]),
            }
        return {"frame": self.frame_status, "frames": self.frame_no, "lens": self.lens_status, "boards": boards}

    def measure(self, board: str) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]:
        """The window (N, K, 3) of every slot of ``board``, its patch colour, its coarse grey view
        (what :class:`vision.motion.MotionDetector` compares), its plain paper's colours (P, 3) and its
        place (homography, board mm -> straightened picture px), from the last frame.

        Raises LookupError with a message for the owner when the board is not located.
        """
        watch = self.boards.get(board)
        if watch is None:
            raise LookupError(f"There is no layout for board {board!r}.")
        if self.last_frame is None or watch.maps is None or not (watch.fix and watch.fix.usable):
            # the next frame is searched whole (the search is otherwise every search_every frames): a
            # calibration's few frames differ in their noise, and markers read in any of them add up
            self._search_now = True
            raise LookupError(f"Board {board} is not in view: check that at least "
                              f"{self.settings.min_markers} of its markers are visible.")
        windows = cv2.remap(self.last_frame, watch.maps[0], watch.maps[1], cv2.INTER_LINEAR)
        paper = np.zeros((0, 3), np.float32)
        if watch.paper_maps is not None:
            paper = cv2.remap(self.last_frame, *watch.paper_maps, cv2.INTER_LINEAR).reshape(-1, 3).astype(np.float32)
        patch = None
        if watch.patch_maps is not None:
            patch = cv2.remap(self.last_frame, *watch.patch_maps, cv2.INTER_LINEAR).reshape(-1, 3).mean(0)
        small = cv2.resize(cv2.cvtColor(self.last_frame, cv2.COLOR_BGR2GRAY),
                           (self.last_frame.shape[1] // 2, self.last_frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
        return windows, patch, watch.motion.rectified(small), paper, watch.locator.homography.copy()
