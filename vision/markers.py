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
    # for a board's markers the search could not read (vision.localize): a square within 10 px of
    # where the others put one, its bits within 3 times the dictionary's error correction of its own
    refine = cv2.aruco.RefineParameters(minRepDistance=10.0, errorCorrectionRate=3.0, checkAllOrders=True)
    return cv2.aruco.ArucoDetector(DICTIONARY, params, refine)


#: The detector's corners lie this far (px) inside a small marker's true corners, towards its centre
#: (OpenCV-drawn markers of 16-30 px a side, resampled by area and blurred: 0.41-0.43 px; 0.25 px at
#: 60 px).  It does not move a board placed by markers at known places much, but it shrinks what a
#: marker's own size says of the scale: see :func:`outer_corners`.
CORNER_INSET_PX = 0.43


def outer_corners(corners: np.ndarray) -> np.ndarray:
    """A detected marker's corners moved out by :data:`CORNER_INSET_PX`, away from its centre."""
    out = corners - corners.mean(0)
    return corners + out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9) * CORNER_INSET_PX


class Found(dict):
    """Markers found, ``{id: corners (4, 2) float32}``, and ``rejected``: the candidate squares whose
    bits could not be read, each (1, 4, 2) float32 in the same pixels (see :mod:`vision.localize`)."""

    rejected: tuple = ()


def detect(detector: cv2.aruco.ArucoDetector, grey: np.ndarray,
           offset: tuple[int, int] = (0, 0)) -> Found:
    """Markers in a greyscale image: ``{id: corners (4, 2) float32}`` in TL, TR, BR, BL order, with
    the squares whose bits could not be read as ``.rejected``.

    ``offset`` is added to the corners (for a crop taken at that x, y).
    """
    corners, ids, rejected = detector.detectMarkers(grey)
    out = Found()
    out.rejected = tuple(np.asarray(r, np.float32).reshape(1, 4, 2) + np.float32(offset) for r in rejected)
    if ids is None or len(ids) == 0:
        return out
    ids = np.asarray(ids).reshape(-1)
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


#: Pixels a marker cell needs where the table is smallest in the picture for the marker to be found
#: reliably under blur, JPEG and a little glare.  On the camera bench's hard pictures (blur sigma
#: 0.6-1.3 px, JPEG 65-80, 15-25 degree tilt), with the second look: every marker of 2.75 px a cell
#: or more was found, 96-100 % at 1.75-2.75, 43-64 % below (bench/README.md, "Finding boards").
CELL_PX = 3.0
#: The play area the sheet assumes, metres across and deep (docs/camera.md's mounting table).
PLAY_AREA_M = (1.6, 0.9)
#: The camera's picture shape, width to height: 16:9, as 1280x720 and 1920x1080 are.
ASPECT = (16, 9)


def picture_height(width_px: int) -> int:
    """The height (px) of the camera's picture ``width_px`` wide (:data:`ASPECT`)."""
    return width_px * ASPECT[1] // ASPECT[0]


def worst_px_per_mm(width_px: int, height_px: int, camera_height_m: float, fov_deg: float,
                    tilt_deg: float = 0.0, area_m: tuple[float, float] = PLAY_AREA_M) -> float:
    """The fewest picture pixels a millimetre of the play area gets (0 when part of it is behind the camera).

    The camera is ``camera_height_m`` above the table, its picture ``width_px`` x ``height_px``
    spanning ``fov_deg`` degrees across, tilted ``tilt_deg`` from straight down in the worst
    direction (every 15 degrees tried) and aimed at the middle of the ``area_m`` play area (width
    along the picture's width).  Looking straight down every part of the table gets the same
    pixels; tilted, the far edge gets fewer, and fewer along the tilt than across it: this is the
    smaller of the two, at the area's worst point.  The lens is taken as distortion-free.
    """
    f = width_px / 2 / np.tan(np.radians(fov_deg) / 2)
    k = np.array([[f, 0, width_px / 2], [0, f, height_px / 2], [0, 0, 1]])
    up = camera_height_m * 1000
    tilt = np.radians(tilt_deg)
    u, v = (g.ravel() for g in np.meshgrid(np.linspace(-0.5, 0.5, 9), np.linspace(-0.5, 0.5, 9)))
    worst = np.inf
    for turn in np.radians(np.arange(0, 360, 15)):
        along = np.array([np.cos(turn), np.sin(turn), 0.0])
        # the camera's axes in the table's frame (z up): straight down, then tilted towards `along`
        axes = cv2.Rodrigues(np.cross(along, (0.0, 0.0, 1.0)) * tilt)[0] @ np.diag([1.0, -1.0, -1.0])
        to_px = k @ np.column_stack([axes.T[:, 0], axes.T[:, 1], -axes.T @ (0.0, 0.0, up)])
        aim = along[:2] * up * np.tan(tilt)
        q = np.stack([aim[0] + u * area_m[0] * 1000, aim[1] + v * area_m[1] * 1000, np.ones_like(u)], 1) @ to_px.T
        if (q[:, 2] <= 0).any():
            return 0.0
        x, y = q[:, 0] / q[:, 2], q[:, 1] / q[:, 2]
        # the homography's derivative at each point, px per mm (N, 2, 2); its smaller singular value
        jac = np.stack([np.stack([to_px[0, 0] - x * to_px[2, 0], to_px[0, 1] - x * to_px[2, 1]], 1),
                        np.stack([to_px[1, 0] - y * to_px[2, 0], to_px[1, 1] - y * to_px[2, 1]], 1)], 1)
        worst = min(worst, float((np.linalg.svd(jac, compute_uv=False)[:, 1] / q[:, 2]).min()))
    return worst


def smallest_marker_mm(px_per_mm: float) -> float:
    """The smallest marker side (mm) the camera finds reliably where the table gets ``px_per_mm``
    (:func:`worst_px_per_mm` at the play area's farthest point): 6 cells (4 data, 2 border) of
    :data:`CELL_PX` pixels each; infinite when part of the area is out of the camera's view."""
    return 6 * CELL_PX / px_per_mm if px_per_mm > 0 else np.inf


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a greyscale image ``side_px`` square (black border included, no margin)."""
    return cv2.aruco.generateImageMarker(DICTIONARY, int(marker_id), int(side_px), borderBits=1)
