"""Drawing what the pipeline sees over a frame: markers, slots and their classes, board states."""
from __future__ import annotations

import cv2
import numpy as np

from .tokens import UNKNOWN, synthetic_colour

SEEN, MISSING, EMPTY_SLOT, UNSURE = (60, 220, 60), (40, 40, 230), (200, 200, 200), (0, 0, 255)
PLANNED = (255, 0, 255)


def _text(img: np.ndarray, text: str, at: tuple[int, int], scale: float, colour) -> None:
    """``text`` with a dark outline, readable on any board."""
    cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def draw(frame: np.ndarray, pipeline, marks: dict[str, dict[str, str]] | None = None) -> np.ndarray:
    """A copy of ``frame`` with every located board's markers, slots and readings drawn on it, and
    ``marks`` (by board: slot -> token type, such as the self-test's plan) as boxes named by type."""
    img = frame.copy()
    for name, watch in pipeline.boards.items():
        fix = watch.fix
        if fix is None or fix.homography is None:
            continue
        h = fix.homography
        for mid, corners in watch.locator.expected().items():
            colour = SEEN if mid in fix.seen else MISSING
            cv2.polylines(img, [corners.astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        centres = watch.locator.to_image(watch.layout.slot_centres())      # through the lens, if calibrated
        px_per_mm = float(np.sqrt(abs(np.linalg.det(h[:2, :2]))) / abs(h[2, 2]))
        r = max(3, int(watch.layout.token_mm / 2 * px_per_mm * 0.8))
        labels = watch.reading.labels if watch.reading is not None else [None] * len(centres)
        for (x, y), label in zip(centres, labels):
            c = (int(x), int(y))
            if label is None:
                cv2.circle(img, c, r, EMPTY_SLOT, 1, cv2.LINE_AA)
            elif label == UNKNOWN:
                cv2.circle(img, c, r, UNSURE, 2, cv2.LINE_AA)
                cv2.putText(img, "?", (c[0] - 4, c[1] + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5, UNSURE, 2)
            else:
                cv2.circle(img, c, r, synthetic_colour(label), 2, cv2.LINE_AA)
                cv2.putText(img, label[:3], (c[0] - r, c[1] - r - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                            (255, 255, 255), 1, cv2.LINE_AA)
        index = {s.id: i for i, s in enumerate(watch.layout.slots)}
        for slot, kind in (marks or {}).get(name, {}).items():
            if slot not in index:          # a plan made before the layout changed
                continue
            x, y = (int(v) for v in centres[index[slot]])
            cv2.rectangle(img, (x - r - 2, y - r - 2), (x + r + 2, y + r + 2), PLANNED, 2, cv2.LINE_AA)
            _text(img, kind, (x - r, y + r + 12), 0.4, PLANNED)
        corner = watch.locator.to_image(np.zeros((1, 2)))[0]
        _text(img, f"{name}: {'busy' if watch.busy else watch.tracker.state}",
              (int(corner[0]), max(12, int(corner[1]) - 6)), 0.5, (255, 255, 255))
    return img
