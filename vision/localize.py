"""Where a board is in the picture: its homography (board mm -> image px) from its markers.

Each frame, a :class:`BoardLocator` looks only where its markers were: a
marker whose patch of the picture has not changed is taken as still there; a
changed one is searched for in a window around its last place.  After a
whole-frame search, a marker it missed gets a second look, enlarged and
sharpened, where the markers found put it (:func:`vision.markers.detect_closer`).  The
homography is fitted by RANSAC over the corners of every marker seen (moved out by the
detector's inset, :func:`vision.markers.outer_corners`), then by least squares to every
corner that agrees with it (markers spread over the board place it; fewer, or bunched
on one part, only follow a placed board's slide on the table), and only refitted when a seen marker has
moved, so a hand over one marker moves nothing.  With a calibrated lens
(:mod:`vision.lens`) the homography is fitted to the straightened corners and
:meth:`BoardLocator.to_image` bends board points back into the camera's picture.
A board whose markers are lost or too few is reported as such; the pipeline
then searches the whole frame now and then (see :mod:`vision.pipeline`), and may hold
a board that calibration placed at that place (:meth:`BoardLocator.hold`) while the picture
there still shows its print (:func:`print_match`) and any markers seen lie where it puts them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .layout import QUIET, Layout
from .lens import Lens
from .markers import DICTIONARY, detect, detect_closer, outer_corners
from .motion import MM_PER_PX

#: Mean grey-level change under which a marker's patch counts as unchanged.
SAME_PATCH = 8.0
#: Corner movement (px) under which a re-found marker counts as in the same place.
STILL_PX = 1.0
#: A marker's corners (TL, TR, BR, BL) on a square of side 1.
UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
#: Levenberg-Marquardt steps when measuring marker positions with perspective.
REFINE_STEPS = 30
#: RANSAC reprojection threshold, px.
RANSAC_PX = 3.0
#: Markers whose corners span this share of the board's area place it by themselves (on the sample
#: boards: the four corners, or five of the six markers); fewer only follow a placed board's slide.
WHOLE_FIT_SPREAD = 0.6
#: RANSAC threshold of a slide on the table, mm (about RANSAC_PX at the table's 0.8 px/mm).
SLIDE_MM = 4.0
#: A second look for a missing marker searches this many marker sides around where the markers seen
#: put it (from two or more markers, 9 in 10 such guesses fall within one side on the hard level).
CLOSER_MARGIN = 1.5
#: A board its markers do not place is held at its calibrated place when the print seen there matches
#: calibration's this well, each quarter of it best where it was (:func:`print_match`).  On the private
#: tuning render's hard and medium tables (glare, shadows, light changed 5-35 points, tokens on the slots)
#: every unmoved board scored 0.76-0.99; the same pictures read 2, 5 or 10 mm off, or turned 2 or 3 degrees,
#: all 0 (a quarter matched better shifted).
HOLD_MATCH = 0.7
#: :func:`print_match` looks this many coarse cells (:data:`vision.motion.MM_PER_PX` each) either way for a
#: better match of each quarter of the board.
SHIFT_CELLS = 2


@dataclass
class Fix:
    """One board in one frame: its homography (or None), what was seen, what changed."""

    board: str
    homography: np.ndarray | None
    seen: list[int] = field(default_factory=list)
    moved: bool = False
    status: str = "ok"            # ok, partly_covered, covered, held, too_few_markers, not_found

    @property
    def usable(self) -> bool:
        return self.homography is not None


class BoardLocator:
    """Keeps one board's homography up to date from the markers it can see."""

    def __init__(self, layout: Layout, min_markers: int = 3, lens: Lens | None = None):
        self.layout = layout
        self.min_markers = max(2, min_markers)
        self.lens = lens
        self.homography: np.ndarray | None = None       # board mm -> straightened picture px
        self.held = False                               # the homography is the calibrated place (see hold)
        self.corners: dict[int, np.ndarray] = {}        # marker id -> image corners (4, 2)
        self.templates: dict[int, tuple[int, int, np.ndarray]] = {}
        self._frame = 0
        self._expected: tuple = (None, {})      # ((homography, lens) it was worked out for, corners)
        self._board: cv2.aruco.Board | None = None     # the layout as OpenCV's board, for _read_rejected

    def _window(self, corners: np.ndarray, margin: float, shape) -> tuple[int, int, int, int]:
        x0, y0 = corners.min(0)
        x1, y1 = corners.max(0)
        pad = margin * max(x1 - x0, y1 - y0) + 3
        h, w = shape[:2]
        return (int(max(0, x0 - pad)), int(max(0, y0 - pad)), int(min(w, x1 + pad + 1)), int(min(h, y1 + pad + 1)))

    def _remember(self, grey: np.ndarray, mid: int, corners: np.ndarray) -> None:
        self.corners[mid] = corners
        x0, y0, x1, y1 = self._window(corners, 0.15, grey.shape)
        self.templates[mid] = (x0, y0, grey[y0:y1, x0:x1].copy())

    def _unchanged(self, grey: np.ndarray, mid: int) -> bool:
        x0, y0, crop = self.templates[mid]
        cur = grey[y0:y0 + crop.shape[0], x0:x0 + crop.shape[1]]
        # the mean absolute difference, as absdiff(...).mean() gives it, without the difference picture
        return cur.shape == crop.shape and cv2.norm(cur, crop, cv2.NORM_L1) / crop.size < SAME_PATCH

    def to_image(self, points_mm: np.ndarray, homography: np.ndarray | None = None) -> np.ndarray:
        """Board points (N, 2) mm -> camera picture pixels (N, 2), through the lens if one is calibrated;
        at the board's place, or at ``homography`` when given."""
        h = self.homography if homography is None else homography
        pts = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(1, -1, 2), h)[0]
        return (self.lens.distort(pts) if self.lens is not None else pts).astype(np.float32)

    def windows_to_image(self, centres_mm: np.ndarray, offsets_mm: np.ndarray) -> np.ndarray:
        """The points ``centres_mm`` (N, 2) + ``offsets_mm`` (K, 2) in the picture, (N, K, 2).

        Through a lens, each window is mapped by the local linear map at its centre: within 0.2 px
        of bending every point (k1 -0.22), at a fortieth of its cost (bench/bench_boards.py).
        """
        centres = np.asarray(centres_mm, np.float64).reshape(-1, 2)
        offsets = np.asarray(offsets_mm, np.float64).reshape(-1, 2)
        if self.lens is None:
            return self.to_image((centres[:, None] + offsets[None]).reshape(-1, 2)).reshape(len(centres), -1, 2)
        at = self.to_image(centres)
        du, dv = self.to_image(centres + (1.0, 0.0)) - at, self.to_image(centres + (0.0, 1.0)) - at
        linear = np.stack([du, dv], 1)                        # (N, 2, 2): d(picture) / d(mm) by rows u, v
        return at[:, None] + np.matmul(offsets.astype(np.float32)[None], linear)

    def expected(self) -> dict[int, np.ndarray]:
        """Every marker's corners in the picture as the current homography puts them (worked out
        once per board place and lens: it was most of a still board's time per frame)."""
        if self.homography is None:
            return {}
        done_for, corners = self._expected
        if done_for is None or done_for[1] is not self.lens or not np.array_equal(done_for[0], self.homography):
            corners = {mid: self.to_image(self.layout.marker_corners(mid)) for mid in self.layout.markers}
            self._expected = ((self.homography.copy(), self.lens), corners)
        return corners

    def update(self, grey: np.ndarray, detector, found: dict[int, np.ndarray] | None = None) -> Fix:
        """Locate the board in ``grey``; ``found`` are markers from a whole-frame search, if one ran."""
        self._frame += 1
        seen: dict[int, np.ndarray] = {}
        fresh: dict[int, np.ndarray] = {}
        if found is not None:
            fresh = {m: c for m, c in found.items() if m in self.layout.markers}
        expected = self.expected()
        for mid in self.layout.markers:
            if mid in fresh:
                seen[mid] = fresh[mid]
            elif mid in self.templates and self._unchanged(grey, mid):
                seen[mid] = self.corners[mid]
            elif (mid in self.corners and self._frame % 2 == 0) or (mid in expected and self._frame % 5 == 0):
                # covered (or never seen): look again every other frame, not every frame
                where = self.corners.get(mid, expected.get(mid))
                x0, y0, x1, y1 = self._window(where, 1.0, grey.shape)
                hit = detect(detector, grey[y0:y1, x0:x1], (x0, y0)) if x1 - x0 > 8 and y1 - y0 > 8 else {}
                if mid in hit:
                    seen[mid] = fresh[mid] = hit[mid]
        if found is not None and len(seen) < len(self.layout.markers):
            for mid, c in self._look_closer(grey, detector, seen).items():
                seen[mid] = fresh[mid] = c
            if self.homography is None or self.held:
                for mid, c in self._read_rejected(grey, detector, seen, getattr(found, "rejected", ())).items():
                    seen[mid] = fresh[mid] = c
        moved = any(mid not in self.corners or np.abs(c - self.corners[mid]).max() > STILL_PX
                    for mid, c in fresh.items())
        for mid, c in fresh.items():
            self._remember(grey, mid, c)
        for mid in [m for m in self.corners if m not in seen and m in self.templates]:
            # covered now: keep its last corners for the window, but not its stale template
            del self.templates[mid]
        if len(seen) < self.min_markers:
            status = "held" if self.held else "covered" if self.homography is not None else (
                "too_few_markers" if seen else "not_found")
            return Fix(self.layout.board, self.homography, sorted(seen), False, status)
        changed = False
        if moved or self.homography is None or self.held:
            h = self._fit(seen)
            if h is not None:
                changed = self.homography is None or self._shift(h) > STILL_PX
                if changed:
                    self.homography = h
                self.held = False
            elif self.homography is None or self.held:
                return Fix(self.layout.board, self.homography, sorted(seen), False,
                           "held" if self.held else "too_few_markers")
        status = "ok" if len(seen) == len(self.layout.markers) else "partly_covered"
        return Fix(self.layout.board, self.homography, sorted(seen), changed, status)

    def hold(self, place: np.ndarray, fix: Fix) -> Fix:
        """Put a board its markers do not place (``fix``) at ``place``, its calibrated homography, until
        they do; the caller checks that the picture there still shows it (:func:`print_match`,
        :meth:`agrees`) and :meth:`release` s it when not."""
        moved = not self.held
        self.homography, self.held = np.asarray(place, np.float64).copy(), True
        return Fix(self.layout.board, self.homography, fix.seen, moved, "held")

    def release(self, fix: Fix) -> Fix:
        """Forget a held place (the picture there no longer shows the board): ``fix`` without one."""
        if self.held:
            self.homography, self.held = None, False
        return Fix(self.layout.board, None, fix.seen, False, "too_few_markers" if fix.seen else "not_found")

    def agrees(self, place: np.ndarray, seen: list[int]) -> bool:
        """Whether the markers ``seen`` (ids) lie where ``place`` puts them: each one's corners within
        :data:`RANSAC_PX` on average (a board moved since calibration carries its markers with it)."""
        return all(np.linalg.norm(outer_corners(self.corners[m]) - self.to_image(self.layout.marker_corners(m), place),
                                  axis=1).mean() <= RANSAC_PX for m in seen)

    def _look_closer(self, grey: np.ndarray, detector, seen: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Markers missed by the whole-frame search, found by a second look where they should be.

        Only markers never seen yet (one seen before and missing now is covered, and looked for in
        its window).  Where: the board's place when it has one, else a provisional fit of the
        markers seen: a homography from two or more, an affine map from one (a homography from one
        small marker's corners puts markers ten sides away anywhere; the affine map within two
        sides, 9 in 10 times, on the hard level).  Each missing marker's window is searched by
        :func:`vision.markers.detect_closer` and only its own id there is taken; after a find the
        provisional fit is made again for the markers still missing.
        """
        got: dict[int, np.ndarray] = {}
        for _ in range(len(self.layout.markers)):
            # a marker seen before and missing now is covered (a hand): the windows above look for it
            missing = [m for m in self.layout.markers if m not in seen and m not in got and m not in self.corners]
            if self.homography is not None:
                guess = self.expected()
            else:
                known = {**seen, **got}
                if not known or not missing:
                    break
                src = np.concatenate([self.layout.marker_corners(m) for m in known])
                dst = np.concatenate(list(known.values())).astype(np.float32)
                if self.lens is not None:
                    dst = self.lens.undistort(dst)
                if len(known) == 1:
                    affine = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)[0]
                    h = None if affine is None else np.vstack([affine, [0, 0, 1]])
                else:
                    h, _ = cv2.findHomography(src, dst, cv2.RANSAC if len(known) > 2 else 0, RANSAC_PX)
                if h is None:
                    break
                guess = {m: cv2.perspectiveTransform(self.layout.marker_corners(m)[None].astype(np.float64), h)[0]
                         for m in missing}
                if self.lens is not None:
                    guess = {m: self.lens.distort(g) for m, g in guess.items()}
            new = {}
            for mid in missing:
                hit = detect_closer(detector, grey, self._window(np.asarray(guess[mid], np.float32),
                                                                 CLOSER_MARGIN, grey.shape))
                if mid in hit:
                    new[mid] = hit[mid]
            got.update(new)
            if not new or self.homography is not None:
                break
        return got

    def _read_rejected(self, grey: np.ndarray, detector, seen: dict[int, np.ndarray],
                       rejected: tuple) -> dict[int, np.ndarray]:
        """Markers of a board not placed yet among the squares the search could not read: OpenCV's
        ``refineDetectedMarkers`` takes a square near where the markers seen put a missing marker
        when its bits are close enough to that marker's (:func:`vision.markers.make_detector` says
        how near and how close); repeated while it finds more.  Markers seen before are covered, and
        left to their windows."""
        got: dict[int, np.ndarray] = {}
        if self._board is None:
            ids = sorted(self.layout.markers)
            self._board = cv2.aruco.Board([np.c_[self.layout.marker_corners(m), np.zeros(4)].astype(np.float32)
                                           for m in ids], DICTIONARY, np.array(ids, np.int32))
        while rejected and seen and any(m not in seen and m not in got and m not in self.corners
                                        for m in self.layout.markers):
            known = {**seen, **got}
            corners, ids, rejected, _ = detector.refineDetectedMarkers(
                grey, self._board, tuple(c.reshape(1, 4, 2).astype(np.float32) for c in known.values()),
                np.array(list(known), np.int32).reshape(-1, 1), rejected)
            new = {int(m): c.reshape(4, 2) for c, m in zip(corners, np.asarray(ids).reshape(-1))
                   if int(m) not in known and int(m) not in self.corners}
            if not new:
                break
            got.update(new)
        return got

    def _fit(self, seen: dict[int, np.ndarray]) -> np.ndarray | None:
        """The homography from the markers seen, or None when they cannot place the board well.

        Markers spread over the board (:data:`WHOLE_FIT_SPREAD`) give a whole fit.  Markers on one
        part of it only (a hand over the rest) would tilt the far side by several pixels, so they
        only move a board already placed: within the table's plane (a slide and a turn, 3 degrees
        of freedom, on the last fit).
        """
        src = np.concatenate([self.layout.marker_corners(m) for m in seen])
        dst = np.concatenate([outer_corners(seen[m]) for m in seen]).astype(np.float32)
        if self.lens is not None:
            dst = self.lens.undistort(dst)
        enough = 4 * self.min_markers - 2
        w, ht = self.layout.size_mm
        spread = lambda pts: cv2.contourArea(cv2.convexHull(pts)) >= WHOLE_FIT_SPREAD * w * ht
        if spread(src):
            h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, RANSAC_PX)
            if h is None:
                return None
            h, inliers = _every_corner(h, src, dst)
            if h is None or int(inliers.sum()) < enough:
                return None
            # the markers the fit agrees with must be spread too (a misread marker far off is left out);
            # a marker agrees when two of its corners do (blur and JPEG put a corner of a marker
            # 12-15 px wide 2-3 px off now and then, and a left-out corner shrank a five-marker spread)
            agree = inliers.reshape(-1, 4).sum(1) >= 2
            return h if spread(src.reshape(-1, 4, 2)[agree].reshape(-1, 2)) else None
        if self.homography is None or self.held:
            return None
        before = cv2.perspectiveTransform(dst[None].astype(np.float64), np.linalg.inv(self.homography))[0]
        move, inliers = cv2.estimateAffinePartial2D(src.astype(np.float64), before, method=cv2.RANSAC,
                                                    ransacReprojThreshold=SLIDE_MM)
        if move is None or int(inliers.sum()) < enough or abs(np.hypot(*move[:, 0]) - 1) > 0.03:
            return None                 # not a slide on the table (lifted, bent): wait for more markers
        return self.homography @ np.vstack([_rigid(src[inliers.ravel() > 0], before[inliers.ravel() > 0]),
                                            [0, 0, 1]])

    def _shift(self, h: np.ndarray) -> float:
        """Largest move (px) of the board's corners between the current homography and ``h``."""
        w, ht = self.layout.size_mm
        pts = np.array([[[0, 0], [w, 0], [w, ht], [0, ht]]], np.float32)
        a = cv2.perspectiveTransform(pts, self.homography)[0]
        b = cv2.perspectiveTransform(pts, h)[0]
        return float(np.abs(a - b).max())


def _every_corner(h: np.ndarray, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """RANSAC's homography ``h`` refitted by least squares to every corner within :data:`RANSAC_PX`
    of it, the corners judged again against each refit until none joins or leaves; and which are in.

    RANSAC judges corners against fits of four of them, which on a far board (0.3 px/mm, corners read
    up to 2 px off) are themselves pixels off at the other markers: it left good corners out, most
    often the far ones that hold the board's far side (the camera bench's hard tables: a board's
    worst slot 4.2 -> 2.0 mm off; bench/README.md, "Finding boards").
    """
    keep = None
    for _ in range(10):
        near = np.linalg.norm(cv2.perspectiveTransform(src[None].astype(np.float64), h)[0] - dst, axis=1) <= RANSAC_PX
        if near.sum() < 8:
            return (None, near) if keep is None else (h, keep)
        if keep is not None and np.array_equal(near, keep):
            break
        keep = near
        h = cv2.findHomography(src[keep], dst[keep], 0)[0]
        if h is None:
            return None, keep
    return h, keep


def camera_over(homography: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The camera's centre in board coordinates (x, y mm and its height above the board, mm), from the board's
    ``homography`` (board mm -> straightened picture px) and the lens' camera ``matrix``: the homography is the
    matrix times the board's turn and place, [r1 r2 t], up to scale."""
    m = np.linalg.inv(matrix) @ homography
    scale = 2 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    scale *= np.sign(m[2, 2]) or 1.0                      # the board lies in front of the camera
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rot = u @ vt                                          # the nearest turn (the fit's noise leaves r1, r2 askew)
    centre = -rot.T @ t
    return np.array([centre[0], centre[1], abs(centre[2])])


def parallax(points_mm: np.ndarray, camera: np.ndarray, height_mm: float) -> np.ndarray:
    """Where the top of a piece ``height_mm`` tall standing at each of ``points_mm`` (N, 2) meets the board along the
    camera's line of sight, off its foot (N, 2 mm): away from the point under the ``camera`` (:func:`camera_over`)."""
    return (np.asarray(points_mm, np.float64) - camera[:2]) * height_mm / max(camera[2] - height_mm, 1.0)


def print_cells(layout: Layout, outside: np.ndarray) -> np.ndarray:
    """The cells of a board's coarse view (:data:`vision.motion.MM_PER_PX`) that :func:`print_match` compares:
    those ``outside`` its slots and off its markers and their quiet zones, with a cell to spare (a marker
    taped over, or too small to read, says nothing of where the board lies)."""
    cells = outside.copy()
    for x, y, side in layout.markers.values():
        pad = side * QUIET + MM_PER_PX
        x0, y0 = (max(0, int((v - pad) / MM_PER_PX)) for v in (x, y))
        x1, y1 = (int(np.ceil((v + side + pad) / MM_PER_PX)) for v in (x, y))
        cells[y0:y1, x0:x1] = False
    return cells


def print_match(view: np.ndarray, calibrated: np.ndarray, cells: np.ndarray) -> float:
    """How well a board's print seen now matches calibration's in the same place: the normalised
    correlation of the grey gradients of ``view`` and ``calibrated`` (its coarse grey views,
    :meth:`vision.motion.MotionDetector.rectified`) over the ``cells`` (:func:`print_cells`) the picture
    covers, 1 for the same print; 0 when any quarter of the board matches better shifted by up to
    :data:`SHIFT_CELLS` cells (a board slid or turned by a few millimetres since).

    Tokens on the slots are left out, and a change of light's gain and offset leave it be.
    """
    grads = lambda v: cv2.merge([cv2.Sobel(v.astype(np.float32), cv2.CV_32F, dx, 1 - dx) for dx in (1, 0)])
    now, then = grads(view), grads(calibrated)
    # out of the picture: the remap's black border, and the cells next to it (its edge is no print)
    keep = (cv2.erode(((view > 0) & cells).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0).astype(np.float32)
    then *= keep[..., None]
    r = SHIFT_CELLS
    now = cv2.copyMakeBorder(now, r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    energy = (now * now).sum(2)
    h, w = keep.shape
    dot = seen = known = 0.0
    for y0, y1 in ((0, h // 2), (h // 2, h)):
        for x0, x1 in ((0, w // 2), (w // 2, w)):
            part, mask = then[y0:y1, x0:x1], keep[y0:y1, x0:x1]
            around = np.s_[y0:y1 + 2 * r, x0:x1 + 2 * r]
            # each shift of this quarter: its dot product with the picture, and the picture's energy under it
            num = cv2.matchTemplate(now[around], part, cv2.TM_CCORR)
            under = cv2.matchTemplate(energy[around], mask, cv2.TM_CCORR)
            own = float((part * part).sum())
            score = num / np.sqrt(np.maximum(under * own, 1e-12))
            if np.unravel_index(int(np.argmax(score)), score.shape) != (r, r):
                return 0.0
            dot, seen, known = dot + float(num[r, r]), seen + float(under[r, r]), known + own
    return dot / float(np.sqrt(seen * known)) if seen * known > 0 else 0.0


def _rigid(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The turn and slide (2x3, no change of size: a board keeps its size on the table) that best
    takes the points ``src`` (N, 2) onto ``dst``, least squares."""
    a, b = np.asarray(src, np.float64), np.asarray(dst, np.float64)
    ca, cb = a.mean(0), b.mean(0)
    u, _, vt = np.linalg.svd((a - ca).T @ (b - cb))
    turn = (u @ np.diag([1.0, np.sign(np.linalg.det(u @ vt))]) @ vt).T
    return np.column_stack([turn, cb - turn @ ca])


def measure_markers(layout: Layout, found: dict[int, np.ndarray], lens: Lens | None = None) -> dict[int, tuple]:
    """Where the board's markers really are (mm), from one picture of them.

    For boards whose markers were stuck by eye: the lowest-numbered marker seen keeps its place
    in the layout, the others are placed where the picture shows them relative to it (each marker
    square and straight on the board, of the side the layout gives; the camera looking down
    roughly straight, as docs/camera.md asks).  Needs at least two markers;
    markers not seen keep their old place; ``lens``, when calibrated, straightens the picture's
    corners first.  Returns ``{id: (x, y, size)}`` for every marker.
    """
    found = {m: outer_corners(c) for m, c in found.items()}      # the marker's size sets the scale here
    if lens is not None:
        found = {m: lens.undistort(c) for m, c in found.items()}
    seen = sorted(m for m in found if m in layout.markers)
    if len(seen) < 2:
        raise LookupError(f"Only {len(seen)} of {layout.board}'s markers are in view; at least two are needed.")
    markers = dict(layout.markers)
    anchor, others = seen[0], seen[1:]
    # least squares, affine: A @ [u, v, 1] = marker corner (mm); unknowns A (6) and each other marker's x, y
    rows, rhs = [], []
    for k, mid in enumerate(seen):
        size = markers[mid][2]
        for (u, v), (du, dv) in zip(found[mid].astype(np.float64), UNIT_SQUARE):
            for axis in range(2):
                row = np.zeros(6 + 2 * len(others))
                row[axis * 3:axis * 3 + 3] = (u, v, 1)
                if mid == anchor:
                    rhs.append(markers[anchor][axis] + size * (du, dv)[axis])
                else:
                    row[6 + 2 * (k - 1) + axis] = -1
                    rhs.append(size * (du, dv)[axis])
                rows.append(row)
    solution = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
    pos = {anchor: np.array(markers[anchor][:2])}
    for k, mid in enumerate(others):
        pos[mid] = solution[6 + 2 * k:8 + 2 * k]
    pos = _refine_with_perspective(pos, found, markers, anchor, others)
    for mid in others:
        x, y = pos[mid]
        markers[mid] = (float(round(x * 2) / 2), float(round(y * 2) / 2), markers[mid][2])
    return markers


def _refine_with_perspective(pos: dict, found: dict, markers: dict, anchor: int, others: list[int]) -> dict:
    """The markers' places (mm) and the board's homography fitted together to every corner seen
    (Levenberg-Marquardt from the affine answer ``pos``; the anchor stays put).  Fitting them in
    turn converged slowly at a tilt: 13 mm off at 20 degrees from exact corners after 10 rounds."""
    seen = [anchor, *others]
    src = np.concatenate([pos[m] + UNIT_SQUARE * markers[m][2] for m in seen])
    dst = np.concatenate([found[m] for m in seen]).astype(np.float64)
    h = cv2.findHomography(src, dst, 0)[0]
    params = np.concatenate([(h / h[2, 2]).reshape(-1)[:8], *[pos[m] for m in others]])

    def residuals(p):
        hom = np.append(p[:8], 1.0).reshape(3, 3)
        places = [np.asarray(pos[anchor], np.float64)] + [p[8 + 2 * k:10 + 2 * k] for k in range(len(others))]
        pts = np.concatenate([q + UNIT_SQUARE * markers[m][2] for q, m in zip(places, seen)])
        proj = np.c_[pts, np.ones(len(pts))] @ hom.T
        return (proj[:, :2] / proj[:, 2:] - dst).reshape(-1)

    damping = 1e-3
    res = residuals(params)
    for _ in range(REFINE_STEPS):
        steps = np.maximum(np.abs(params) * 1e-7, 1e-9)
        jac = np.stack([(residuals(params + np.eye(len(params))[i] * steps[i]) - res) / steps[i]
                        for i in range(len(params))], 1)
        normal = jac.T @ jac
        step = np.linalg.solve(normal + damping * np.diag(np.diag(normal)), -jac.T @ res)
        trial = residuals(params + step)
        if trial @ trial < res @ res:
            params, res, damping = params + step, trial, damping / 3
        else:
            damping *= 5
    return {anchor: np.asarray(pos[anchor], np.float64),
            **{m: params[8 + 2 * k:10 + 2 * k] for k, m in enumerate(others)}}
