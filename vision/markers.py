"""ArUco markers (DICT_4X4_100): finding them in a picture, and drawing them.

Its first 50 markers are DICT_4X4_50's, so markers printed for that dictionary keep their ids;
six markers a board for nine boards needs more than 50.

One detector for the whole program; :func:`detect` smooths over the OpenCV
4.x / 5.x difference in the shape of ``ids`` ((N, 1) in 4.x, (N,) in 5.0).
"""
from __future__ import annotations

import cv2
import numpy as np

DICTIONARY_NAME = "DICT_4X4_100"
DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_100)


def make_detector() -> cv2.aruco.ArucoDetector:
    """A detector tuned for small markers seen from above (sub-pixel corners).

    Each candidate's bits are read from a copy straightened at 10 px a cell (OpenCV's default 4):
    markers of 2-3 px a cell, blurred, read far more often (hard-level pictures of the camera
    bench: 2,601 of 2,700 markers against 2,499, none misread).
    """
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 25
    params.adaptiveThreshWinSizeStep = 10
    params.minMarkerPerimeterRate = 0.02
    params.perspectiveRemovePixelPerCell = 10
    return cv2.aruco.ArucoDetector(DICTIONARY, params)


#: The detector's corners lie this far (px) inside a small marker's true corners, towards its centre
#: (OpenCV-drawn markers of 16-30 px a side, resampled by area and blurred: 0.41-0.43 px; 0.25 px at
#: 60 px).  It does not move a board placed by markers at known places much, but it shrinks what a
#: marker's own size says of the scale: see :func:`outer_corners`.
CORNER_INSET_PX = 0.43


def outer_corners(corners: np.ndarray) -> np.ndarray:
    """A detected marker's corners moved out by :data:`CORNER_INSET_PX`, away from its centre."""
    out = corners - corners.mean(0)
    return corners + out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9) * CORNER_INSET_PX


def detect(detector: cv2.aruco.ArucoDetector, grey: np.ndarray,
           offset: tuple[int, int] = (0, 0)) -> dict[int, np.ndarray]:
    """Markers in a greyscale image: ``{id: corners (4, 2) float32}`` in TL, TR, BR, BL order.

    ``offset`` is added to the corners (for a crop taken at that x, y).
    """
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None or len(ids) == 0:
        return {}
    ids = np.asarray(ids).reshape(-1)
    out = {}
    for mid, c in zip(ids, corners):
        out[int(mid)] = np.asarray(c, np.float32).reshape(4, 2) + np.float32(offset)
    return out


#: The second look enlarges the picture this many times before reading it again.
CLOSER_SCALE = 2
#: Its two copies: sharpened then evened locally (CLAHE, 4x4 tiles), and only evened (2x2 tiles).
_CLAHE_FINE = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))
_CLAHE_COARSE = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(2, 2))


def _sharpened(img: np.ndarray) -> np.ndarray:
    soft = cv2.GaussianBlur(img, (0, 0), 2.0)
    return cv2.addWeighted(img, 2.0, soft, -1.0, 0)


def detect_closer(detector: cv2.aruco.ArucoDetector, grey: np.ndarray,
                  box: tuple[int, int, int, int]) -> dict[int, np.ndarray]:
    """A second look at a small part of the picture where a marker should be but was not found.

    The box ``(x0, y0, x1, y1)`` is enlarged :data:`CLOSER_SCALE` times and read twice: sharpened
    with its contrast evened locally, then only evened more broadly; this finds small markers that
    blur, glare or dim light hid from the first pass (on the camera bench's hard pictures 79 of the
    98 markers that pass missed, the rest mostly under hands).  Corners come back in the whole
    picture's pixels; too small a box gives nothing.
    """
    x0, y0, x1, y1 = box
    if x1 - x0 < 8 or y1 - y0 < 8:
        return {}
    big = cv2.resize(grey[y0:y1, x0:x1], None, fx=CLOSER_SCALE, fy=CLOSER_SCALE, interpolation=cv2.INTER_CUBIC)
    found = detect(detector, _CLAHE_FINE.apply(_sharpened(big)))
    for mid, c in detect(detector, _CLAHE_COARSE.apply(big)).items():
        found.setdefault(mid, c)
    # a pixel's centre at i in the box is at (i + 0.5) * scale - 0.5 in the enlarged copy
    return {m: (c + 0.5) / CLOSER_SCALE - 0.5 + np.float32((x0, y0)) for m, c in found.items()}


#: Pixels per marker cell needed to find a marker under blur, a slant and a little glare.
CELL_PX = 5.0


def smallest_marker_mm(width_px: int, camera_height_m: float, fov_deg: float) -> float:
    """The smallest marker side (mm) a camera finds reliably: 6 cells (4 data, 2 border) of
    :data:`CELL_PX` pixels each, for a camera ``camera_height_m`` above the table whose picture
    ``width_px`` wide spans ``fov_deg`` degrees."""
    view_mm = 2 * camera_height_m * 1000 * np.tan(np.radians(fov_deg) / 2)
    return 6 * CELL_PX * view_mm / width_px


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a greyscale image ``side_px`` square (black border included, no margin)."""
    return cv2.aruco.generateImageMarker(DICTIONARY, int(marker_id), int(side_px), borderBits=1)
