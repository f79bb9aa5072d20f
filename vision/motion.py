"""Is something moving over a board?  Background subtraction on the rectified board.

The board is looked at through its homography at a coarse scale (``MM_PER_PX``),
in grey.  A board is *busy* when, compared with the previous frame, enough of
it changed (motion), or when, compared with the background (the board as it
last lay still), enough changed *outside the slots* (a hand or arm resting over
the board, or anything that is not a token on a slot), or when anything changed that reaches
the board's edge, however small (a fingertip resting on an edge space from the side: a hand
always comes in over an edge, a token never touches one).  Token changes inside
slots are what the classifier reads, so they alone do not make a board busy
once they stop moving.  What differs from the background is judged by colour
(every 4 mm, :meth:`MotionDetector.unlit`) as well as grey: a person's shadow
darkens the print and keeps its colour, a glare spot brightens it towards white,
while skin and a sleeve bring their own colour, so a still shadow or glare spot
does not hold a board busy for good; a grey change alone counts only when darker
than any shadow (the grey view alone is used until a colour background is known).
While a board lies still and no cell's grey moved since the previous frame, the
foreground is looked at every other frame (a Pi's CPU, issue 20): the verdict stands
for the frame between.
The background follows the board slowly while it is still; something that lies
still outside the slots for ``absorb_frames`` is taken into the background (and
reported) so a forgotten card does not block the board for ever.
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
#: Changed area (mm^2) connected to the board's edge that makes it busy: four coarse pixels, just
#: above what noise and JPEG leave, well below a fingertip's.
EDGE_MM2 = 16.0
#: A shadow darkens by at most this much (grey gain): a person's shadow leaves 40 % of the light and more;
#: darker than this a cell is something dark over the board, whatever its colour.
SHADOW_GAIN = 0.3
#: Colour is looked at every this many mm each way (a fingertip is three or four samples across)...
COLOUR_MM = 4.0
#: ... from this far in from the board's edge: the outermost coarse cell half shows the table, whose wood
#: has a skin's colour, and a token reaches no nearer than 5 mm (the layouts keep them 10 mm off the edge).
COLOUR_RIM_MM = 3.0
#: A colour cell differing from what a change of light makes of the background by more than this, in
#: levels of a channel as the background's light showed them, is something over the board (with a
#: neighbour that is too).  A shadow keeps the print's colour, light added (glare) moves it towards white;
#: noise and JPEG move a sample by a few levels, a fingertip of the renderer's darkest skin resting in a
#: 0.6-deep shadow by 20-60 (its lightest skin there by less, not always enough: bench/README.md).
COLOUR_CHANGE = 16.0
#: Added to colour levels before they are compared as shares, so dark print and noise do not swing them.
DARK = 12.0


class MotionDetector:
    """Busy / still for one board from its rectified, coarse, grey view."""

    def __init__(self, layout: Layout, absorb_frames: int = 300):
        self.layout = layout
        self.absorb_frames = absorb_frames
        w, h = (int(np.ceil(v / MM_PER_PX)) for v in layout.size_mm)
        self.size = (w, h)
        self.outside = self._outside_slots(0.0)
        self.px_mm2 = MM_PER_PX * MM_PER_PX
        self.maps: tuple[np.ndarray, np.ndarray] | None = None
        self.previous: np.ndarray | None = None
        self.background: np.ndarray | None = None
        self.colour: np.ndarray | None = None     # the background in colour every COLOUR_MM, when known
        self.colour_maps: tuple[np.ndarray, np.ndarray] | None = None
        self.colour_outside: np.ndarray | None = None
        self.static_frames = 0
        self.absorbed = False
        self.seeded = False
        self.busy = True              # the last verdict
        self.looked = False           # whether the last frame was looked at (not passed over as still)
        self.flagged: np.ndarray | None = None   # the cells the colour measure flagged when it last looked
        self.last = {"motion_mm2": 0.0, "foreground_mm2": 0.0, "edge_mm2": 0.0}

    def set_view(self, to_image, scale: float) -> None:
        """Use the board's new place: ``to_image`` maps board mm (N, 2) to full-frame pixels (see
        :meth:`vision.localize.BoardLocator.to_image`), ``scale`` full-frame pixels to the grey image given to update."""
        w, h = self.size
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)     # (made here, not kept: 1.6 MiB for ten boards)
        pts = to_image(np.stack([(xs + 0.5) * MM_PER_PX, (ys + 0.5) * MM_PER_PX], -1).reshape(-1, 2)) * scale
        self.maps = (pts[:, 0].reshape(h, w).astype(np.float32), pts[:, 1].reshape(h, w).astype(np.float32))
        cw, ch = (max(int(round((v - 2 * COLOUR_RIM_MM) / COLOUR_MM)), 1) + 1 for v in self.layout.size_mm)
        cx, cy = (np.linspace(COLOUR_RIM_MM, v - COLOUR_RIM_MM, n, dtype=np.float32)
                  for v, n in zip(self.layout.size_mm, (cw, ch)))
        pts = to_image(np.stack(np.meshgrid(cx, cy), -1).reshape(-1, 2))
        self.colour_maps = (pts[:, 0].reshape(ch, cw).astype(np.float32), pts[:, 1].reshape(ch, cw).astype(np.float32))
        # a token's edge blurs over about a picture pixel: where the board is seen coarsely that spill
        # lies outside the slots' circles, and a full board's spill looked like a hand resting on it
        step = np.hypot(np.diff(self.maps[0], axis=1), np.diff(self.maps[1], axis=1))
        self.outside = self._outside_slots(MM_PER_PX / max(float(np.median(step)), 1e-6))
        self.colour_outside = cv2.resize(self.outside.astype(np.uint8), self.colour_maps[0].shape[::-1],
                                         interpolation=cv2.INTER_NEAREST) > 0
        self.previous = self.background = self.colour = self.flagged = None
        self.seeded, self.busy = False, True
        self.static_frames = 0

    def _outside_slots(self, spill_mm: float) -> np.ndarray:
        """The coarse cells outside every slot's circle (a token's reach, 2.5 mm, and ``spill_mm``)."""
        w, h = self.size
        mask = np.full((h, w), 255, np.uint8)
        r = (self.layout.token_mm / 2 + 2.5 + spill_mm) / MM_PER_PX
        for s in self.layout.slots:
            cv2.circle(mask, (int(round(s.x / MM_PER_PX - 0.5)), int(round(s.y / MM_PER_PX - 0.5))),
                       int(np.ceil(r)), 0, -1)
        return mask > 0

    def rectified(self, small_grey: np.ndarray) -> np.ndarray:
        """The board as seen now, coarse and grey."""
        return cv2.remap(small_grey, self.maps[0], self.maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def seed(self, empty_view: np.ndarray) -> None:
        """Start from the empty board as calibration saw it (until the board has been seen still).

        A hand already over the board in the first frame then shows as foreground (what
        ``tofu-table vision classify`` reports for a still picture).
        """
        if empty_view.shape == self.size[::-1] and self.previous is None:
            self.background = empty_view.astype(np.float32)
            self.seeded = True

    def coloured(self, frame: np.ndarray) -> np.ndarray:
        """The board as seen in ``frame`` (the full-size BGR picture ``to_image`` maps into), in colour,
        every ``COLOUR_MM`` from ``COLOUR_RIM_MM`` in."""
        return cv2.remap(frame, *self.colour_maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=0).astype(np.float32)

    def unlit(self, view: np.ndarray, background: np.ndarray) -> np.ndarray:
        """How far each cell of ``view`` is from what a change of light makes of ``background`` (both BGR,
        from :meth:`coloured`), in levels of a channel as the background's light shows them (a fingertip
        in a shadow differs as much as in the light it was seen in before).

        The board's overall colour cast since the background (the daylight's share) is taken out first
        (its median outside the slots).  Then a shadow keeps each channel's share of the three, and light
        added (glare) moves the shares only towards white; what is left is a colour the light does not
        make.  Skin, a sleeve or anything laid over the print brings its own.
        """
        # channel by channel, each a plane of its own (numpy sums and maxima over a last axis of three are slow)
        v, b = [p + DARK for p in cv2.split(view)], [p + DARK for p in cv2.split(background)]
        cast = [np.median(vk[self.colour_outside] / bk[self.colour_outside]) for vk, bk in zip(v, b)]
        v = [vk * (sum(cast) / 3 / ck) for vk, ck in zip(v, cast)]
        sv, sb = v[0] + v[1] + v[2], b[0] + b[1] + b[2]
        d = [vk / sv - bk / sb for vk, bk in zip(v, b)]   # the change of each channel's share
        white = [1 / 3 - bk / sb for bk in b]              # from the background's colour towards white
        t = (d[0] * white[0] + d[1] * white[1] + d[2] * white[2]) / np.maximum(
            white[0] * white[0] + white[1] * white[1] + white[2] * white[2], 1e-6)
        t = np.where(sv > sb, np.clip(t, 0, 1), 0)        # only light added moves it that way
        off = [np.abs(dk - t * wk) for dk, wk in zip(d, white)]
        return np.maximum(np.maximum(off[0], off[1]), off[2]) * sb

    def odd(self, colour: np.ndarray) -> np.ndarray:
        """The coarse cells whose colour (``colour``, from :meth:`coloured`, against the colour background)
        is not one a change of light makes (:meth:`unlit`), with a neighbouring sample that is not either."""
        h, w = self.size[::-1]
        if not (cv2.absdiff(colour, self.colour) > COLOUR_CHANGE).any():
            return np.zeros((h, w), bool)
        odd = (self.unlit(colour, self.colour) > COLOUR_CHANGE).astype(np.uint8)
        # a sample counts with a neighbour that does too: a fingertip is several, noise one alone
        odd &= cv2.boxFilter(odd, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT) >= 2
        return cv2.resize(odd, (w, h), interpolation=cv2.INTER_NEAREST) > 0

    def foreground(self, view: np.ndarray, background: np.ndarray, odd: np.ndarray | None = None) -> tuple[float, float]:
        """What differs from ``background``: the area outside the slots, and the area of the changed
        regions that reach the board's edge (mm^2 each).

        With ``odd`` (:meth:`odd`), a cell counts when it is odd or darker than any shadow; without, when
        its grey level changed.
        """
        grey = view.astype(np.float32)
        fg = cv2.absdiff(grey, background) > CHANGE
        if odd is not None:
            fg &= grey < SHADOW_GAIN * background
            fg |= odd
        fg = fg.astype(np.uint8)
        outside = int(np.count_nonzero(fg & self.outside)) * self.px_mm2
        if not (fg[0].any() or fg[-1].any() or fg[:, 0].any() or fg[:, -1].any()):
            return float(outside), 0.0      # nothing reaches the edge: no need to label the regions
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
        if n <= 1:
            return float(outside), 0.0
        rim = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
        rim = rim[rim > 0]
        edge = int(stats[rim, cv2.CC_STAT_AREA].sum()) * self.px_mm2 if len(rim) else 0
        return float(outside), float(edge)

    def update(self, small_grey: np.ndarray, frame: np.ndarray | None = None) -> bool:
        """True when the board is busy in this frame (``frame``: the full-size BGR picture, for colour)."""
        view = self.rectified(small_grey)
        motion = 0.0 if self.previous is None else \
            int(np.count_nonzero(cv2.absdiff(view, self.previous) > CHANGE)) * self.px_mm2
        # while the board lies still and no cell's grey moved, it is looked at every other frame and the
        # verdict stands for the frame between (something that differs in colour alone, appearing without
        # moving a cell's grey, is seen a frame later)
        look = frame is not None and (self.flagged is None or self.busy or motion > 0 or not self.looked)
        self.looked = look
        if frame is not None and not look:
            self.previous, self.static_frames = view, self.static_frames + 1
            self.last = {**self.last, "motion_mm2": 0.0}
            cv2.accumulateWeighted(view, self.background, 0.05)
            return False
        colour = self.coloured(frame) if frame is not None else None
        if self.previous is None and self.seeded:
            # the calibration's empty board, brought to today's brightness outside the slots
            ratio = np.median((self.background[self.outside] + 1) / (view[self.outside].astype(np.float32) + 1))
            self.background *= 1 / ratio
            foreground, edge = self.foreground(view, self.background)
            self.last = {"motion_mm2": 0.0, "foreground_mm2": foreground, "edge_mm2": edge}
            # only this first verdict uses it: from now on the board as seen is the background
            self.previous, self.background, self.colour, self.seeded = view, view.astype(np.float32), colour, False
            self.busy = foreground > FOREGROUND_MM2 or edge > EDGE_MM2
            return self.busy
        if self.previous is None:
            self.previous, self.background, self.colour = view, view.astype(np.float32), colour
            self.busy = True
            return True
        if colour is not None and self.colour is not None:
            self.flagged = self.odd(colour)
        foreground, edge = self.foreground(view, self.background, self.flagged if frame is not None else None)
        self.previous = view
        self.last = {"motion_mm2": float(motion), "foreground_mm2": foreground, "edge_mm2": edge}
        busy = self.busy = motion > MOTION_MM2 or foreground > FOREGROUND_MM2 or edge > EDGE_MM2
        if motion <= MOTION_MM2:
            self.static_frames += 1
        else:
            self.static_frames = 0
        if not busy:
            cv2.accumulateWeighted(view, self.background, 0.05)
            if colour is not None and self.colour is not None:
                cv2.accumulateWeighted(colour, self.colour, 0.05)
            self.absorbed = False
        elif self.static_frames >= self.absorb_frames:
            self.background = view.astype(np.float32)    # it lies still: part of the board now
            if colour is not None:
                self.colour, self.flagged = colour, None
            self.absorbed = True
        return busy
