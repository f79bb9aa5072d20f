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
    """A detector tuned for small markers seen from above (sub-pixel corners)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 25
    params.adaptiveThreshWinSizeStep = 10
    params.minMarkerPerimeterRate = 0.02
    return cv2.aruco.ArucoDetector(DICTIONARY, params)


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
