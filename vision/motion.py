"""Is something moving over a board?  Background subtraction on the rectified board.

The board is looked at through its homography at a coarse scale (``MM_PER_PX``),
in grey.  A board is *busy* when, compared with the previous frame, enough of
it changed (motion), or when, compared with the background (the board as it
last lay still), enough changed *outside the slots* (a hand or arm resting over
the board, or anything that is not a token on a slot).  Token changes inside
slots are what the classifier reads, so they alone do not make a board busy
once they stop moving.  The background follows the board slowly while it is
still; something that lies still outside the slots for ``absorb_frames`` is
taken into the background (and reported) so a forgotten card does not block
the board for ever.
"""
from __future__ import annotations

import cv2
import numpy as np

from .layout import Layout

#: Rectified board scale for motion, millimetres per pixel.
MM_PER_PX = 2.0
#: Grey-level change that counts as a changed pixel.
CHANGE = 22
#: Changed area (mm^2) that makes a board busy: about half a token.
MOTION_MM2 = 150.0
FOREGROUND_MM2 = 400.0


class MotionDetector:
    """Busy / still for one board from its rectified, coarse, grey view."""

    def __init__(self, layout: Layout, absorb_frames: int = 300):
        self.layout = layout
        self.absorb_frames = absorb_frames
        w, h = (int(np.ceil(v / MM_PER_PX)) for v in layout.size_mm)
        self.size = (w, h)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        self._grid = np.stack([(xs + 0.5) * MM_PER_PX, (ys + 0.5) * MM_PER_PX], -1).reshape(1, -1, 2)
        mask = np.full((h, w), 255, np.uint8)
        r = (layout.token_mm / 2 + 2.5) / MM_PER_PX
        for s in layout.slots:
            cv2.circle(mask, (int(round(s.x / MM_PER_PX - 0.5)), int(round(s.y / MM_PER_PX - 0.5))),
                       int(np.ceil(r)), 0, -1)
        self.outside = mask > 0
        self.px_mm2 = MM_PER_PX * MM_PER_PX
        self.maps: tuple[np.ndarray, np.ndarray] | None = None
        self.previous: np.ndarray | None = None
        self.background: np.ndarray | None = None
        self.static_frames = 0
        self.absorbed = False
        self.last = {"motion_mm2": 0.0, "foreground_mm2": 0.0}

    def set_homography(self, homography: np.ndarray, scale: float) -> None:
        """Use a new homography; ``scale`` maps full-frame pixels to the grey image given to update."""
        pts = cv2.perspectiveTransform(self._grid, homography)[0] * scale
        w, h = self.size
        self.maps = (pts[:, 0].reshape(h, w).astype(np.float32), pts[:, 1].reshape(h, w).astype(np.float32))
        self.previous = self.background = None
        self.static_frames = 0

    def rectified(self, small_grey: np.ndarray) -> np.ndarray:
        """The board as seen now, coarse and grey."""
        return cv2.remap(small_grey, self.maps[0], self.maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def update(self, small_grey: np.ndarray) -> bool:
        """True when the board is busy in this frame."""
        view = self.rectified(small_grey)
        if self.previous is None:
            self.previous, self.background = view, view.astype(np.float32)
            return True
        motion = int(np.count_nonzero(cv2.absdiff(view, self.previous) > CHANGE)) * self.px_mm2
        fg = cv2.absdiff(view.astype(np.float32), self.background) > CHANGE
        foreground = int(np.count_nonzero(fg & self.outside)) * self.px_mm2
        self.previous = view
        self.last = {"motion_mm2": float(motion), "foreground_mm2": float(foreground)}
        busy = motion > MOTION_MM2 or foreground > FOREGROUND_MM2
        if motion <= MOTION_MM2:
            self.static_frames += 1
        else:
            self.static_frames = 0
        if not busy:
            cv2.accumulateWeighted(view, self.background, 0.05)
            self.absorbed = False
        elif self.static_frames >= self.absorb_frames:
            self.background = view.astype(np.float32)      # it lies still: part of the board now
            self.absorbed = True
        return busy
