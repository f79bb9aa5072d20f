"""The camera's lens: calibrated once with a printed ChArUco sheet, then used to straighten points.

A wide lens bends straight lines (barrel distortion), so a board's markers and slots no longer
lie on one plane's homography.  The owner prints the ChArUco sheet (``tofu-table vision lens
--sheet``), holds it in front of the camera at several angles and places, and
:func:`calibrate` fits OpenCV's camera model (``cv2.calibrateCamera``) to the chessboard corners
``cv2.aruco.CharucoDetector`` finds.  The result is kept in ``DATA/vision/lens.json``.

The pipeline never remaps whole frames: it straightens the marker corners it found
(:meth:`Lens.undistort`), fits each board's homography in the straightened picture, and bends
the slot points it samples back into the camera's picture (:meth:`Lens.distort`), once per board
move.  The sheet uses 5x5 markers, which the boards' 4x4 marker detector never mistakes for a
board's own.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

#: The sheet's chessboard: squares across and down, square and marker side (mm, as printed on A4;
#: the print's scale does not matter to the lens, only that the sheet is flat).
SQUARES = (7, 5)
SQUARE_MM = 34.0
MARKER_MM = 25.0
DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_50)
#: A view is used when it shows at least this many chessboard corners (of 24).
MIN_CORNERS = 12
#: At least this many usable views, at different angles, are needed.
MIN_VIEWS = 6
#: The corners of all views together must reach this share of the picture's width and height.
MIN_SPREAD = 0.6
#: A view whose corners' centre lies within this share of the picture's width of an earlier view's
#: adds little: the sheet must be moved (or turned a lot) between views.
SAME_PLACE = 0.08
#: Above this reprojection error (px) the fit is reported as poor.
GOOD_RMS_PX = 1.0
FILE = Path("vision") / "lens.json"


class LensError(ValueError):
    """Calibration cannot be done or a lens file cannot be used; the message says what to do."""


def board() -> cv2.aruco.CharucoBoard:
    """The printed ChArUco sheet's board (millimetres)."""
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM, DICTIONARY)


def board_image(px_per_mm: float) -> np.ndarray:
    """The board alone as a greyscale image at ``px_per_mm``, no margin."""
    size = (int(round(SQUARES[0] * SQUARE_MM * px_per_mm)), int(round(SQUARES[1] * SQUARE_MM * px_per_mm)))
    return board().generateImage(size, marginSize=0, borderBits=1)


@dataclass
class Lens:
    """A calibrated camera: its matrix, distortion coefficients and the picture size they hold for."""

    matrix: np.ndarray                 # 3x3
    dist: np.ndarray                   # k1, k2, p1, p2, k3
    size: tuple[int, int]              # width, height
    rms: float = 0.0                   # reprojection error of the calibration, px
    views: int = 0

    def fits(self, width: int, height: int) -> bool:
        """Whether pictures of this size are the ones the lens was calibrated on."""
        return (int(width), int(height)) == tuple(self.size)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Camera pixels (N, 2) -> where they would be through a perfect lens (same camera matrix)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(pts, self.matrix, self.dist, P=self.matrix,
                                  criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-4))
        return out.reshape(-1, 2).astype(np.float32)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Perfect-lens pixels (N, 2) -> where the camera sees them (the inverse of :meth:`undistort`)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        k = self.matrix
        rays = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1],
                                np.ones(len(pts))])
        out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), k, self.dist)
        return out.reshape(-1, 2).astype(np.float32)

    def to_dict(self) -> dict:
        """The JSON form (what :meth:`from_dict` reads)."""
        return {"size": list(self.size), "matrix": self.matrix.tolist(), "dist": self.dist.reshape(-1).tolist(),
                "rms_px": round(self.rms, 4), "views": self.views}

    @classmethod
    def from_dict(cls, data: dict) -> "Lens":
        """A lens from its JSON form; LensError when a field is missing or the wrong shape."""
        try:
            matrix = np.array(data["matrix"], np.float64)
            dist = np.array(data["dist"], np.float64).reshape(-1)
            size = (int(data["size"][0]), int(data["size"][1]))
            if matrix.shape != (3, 3) or len(dist) not in (4, 5, 8, 12, 14) or min(size) <= 0:
                raise ValueError("wrong shape")
            return cls(matrix, dist, size, float(data.get("rms_px", 0.0)), int(data.get("views", 0)))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LensError(f"the lens file is malformed ({exc}); calibrate the lens again "
                            "(`tofu-table vision lens`)") from None

    def save(self, data_dir: str | Path) -> Path:
        """Write ``DATA/vision/lens.json`` (atomically); returns its path."""
        path = Path(data_dir) / FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1))
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, data_dir: str | Path | None) -> "Lens | None":
        """The table's lens, or None when it was never calibrated."""
        path = Path(data_dir) / FILE if data_dir else None
        return cls.read(path) if path is not None and path.is_file() else None

    @classmethod
    def read(cls, path: str | Path) -> "Lens":
        """A lens file; LensError when it cannot be read or used."""
        try:
            return cls.from_dict(json.loads(Path(path).read_text()))
        except (OSError, json.JSONDecodeError) as exc:
            raise LensError(f"cannot read the lens file {path} ({exc}); calibrate the lens again "
                            "(`tofu-table vision lens`)") from None


def find_corners(detector: cv2.aruco.CharucoDetector, grey: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The sheet's chessboard corners in a greyscale picture: (corners (N, 1, 2), ids (N, 1)), or None."""
    corners, ids, _, _ = detector.detectBoard(grey)
    if ids is None or len(ids) == 0:
        return None
    return np.asarray(corners, np.float32).reshape(-1, 1, 2), np.asarray(ids, np.int32).reshape(-1, 1)


def make_detector() -> cv2.aruco.CharucoDetector:
    """A ChArUco detector for :func:`board` (sub-pixel corners)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.CharucoDetector(board(), detectorParams=params)


def calibrate(pictures: Iterable[np.ndarray]) -> Lens:
    """Fit the lens to pictures of the ChArUco sheet; LensError says what is missing.

    Every picture must be the same size; pictures with fewer than :data:`MIN_CORNERS` corners are
    skipped.  Needs :data:`MIN_VIEWS` usable views whose corners together reach
    :data:`MIN_SPREAD` of the picture's width and height (the edges are where a lens bends most).
    """
    detector, brd = make_detector(), board()
    objects, images, size, skipped = [], [], None, 0
    for picture in pictures:
        grey = picture if picture.ndim == 2 else cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
        here = (grey.shape[1], grey.shape[0])
        if size is not None and here != size:
            raise LensError(f"the pictures differ in size ({size[0]}x{size[1]} and {here[0]}x{here[1]}); "
                            "take them all at the camera's configured width and height")
        size = here
        found = find_corners(detector, grey)
        if found is None or len(found[1]) < MIN_CORNERS:
            skipped += 1
            continue
        obj, img = brd.matchImagePoints(found[0], found[1])
        objects.append(obj.astype(np.float32))
        images.append(img.astype(np.float32))
    if len(objects) < MIN_VIEWS:
        raise LensError(f"only {len(objects)} picture(s) show at least {MIN_CORNERS} of the sheet's corners "
                        f"({skipped} did not); {MIN_VIEWS} are needed: hold the whole sheet flat in view, "
                        "at several angles and in several places")
    every = np.concatenate(images).reshape(-1, 2)
    spread = (every.max(0) - every.min(0)) / np.array(size, np.float64)
    if spread.min() < MIN_SPREAD:
        raise LensError(f"the sheet's corners cover only {spread[0]:.0%} of the picture's width and "
                        f"{spread[1]:.0%} of its height; hold it near the edges and corners too "
                        f"(at least {MIN_SPREAD:.0%} of each)")
    rms, matrix, dist, _, _ = cv2.calibrateCamera(objects, images, size, None, None)
    return Lens(matrix, dist.reshape(-1), size, float(rms), len(objects))


# ----- what a camera sees of the sheet (the simulated table, the tests, bench/bench_boards.py) -----
def distorted_from_ideal(lens: Lens) -> np.ndarray:
    """For each camera pixel (h, w, 2), where it lies in the perfect-lens picture."""
    w, h = lens.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return lens.undistort(np.stack([xs, ys], -1).reshape(-1, 2)).reshape(h, w, 2)


def sheet_view(lens: Lens, ideal: np.ndarray, tilt: tuple[float, float, float], at: tuple[float, float],
               distance_mm: float, rng: np.random.Generator) -> np.ndarray:
    """The printed sheet held ``distance_mm`` from the camera, turned by ``tilt`` (radians), its centre
    seen at ``at`` (share of the picture's width, height): a greyscale camera picture through ``lens``
    (``ideal`` is :func:`distorted_from_ideal` of it)."""
    ppm = 6.0
    sheet = np.full((int(SQUARES[1] * SQUARE_MM * ppm) + 60, int(SQUARES[0] * SQUARE_MM * ppm) + 60), 255, np.uint8)
    art = board_image(ppm)
    sheet[30:30 + art.shape[0], 30:30 + art.shape[1]] = art          # the paper's white margin
    k = lens.matrix
    rot, _ = cv2.Rodrigues(np.array(tilt, np.float64))
    centre = np.array([(at[0] * lens.size[0] - k[0, 2]) / k[0, 0] * distance_mm,
                       (at[1] * lens.size[1] - k[1, 2]) / k[1, 1] * distance_mm, distance_mm])
    t = centre - rot @ np.array([SQUARES[0] * SQUARE_MM / 2, SQUARES[1] * SQUARE_MM / 2, 0])
    to_ideal = k @ np.column_stack([rot[:, 0], rot[:, 1], t])                    # sheet mm -> ideal px
    to_sheet = np.array([[ppm, 0, 30 - 0.5], [0, ppm, 30 - 0.5], [0, 0, 1]]) @ np.linalg.inv(to_ideal)
    h, w = ideal.shape[:2]
    src = cv2.perspectiveTransform(ideal.reshape(1, -1, 2).astype(np.float64), to_sheet)[0].reshape(h, w, 2)
    out = cv2.remap(sheet, src[..., 0].astype(np.float32), src[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                    borderValue=95).astype(np.float32)
    out = cv2.GaussianBlur(out, (0, 0), 0.7) + rng.normal(0, 2.0, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


#: Where the owner holds the sheet: all over the picture (docs/camera.md says so), a third of it wide.
PLACES = [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.15, 0.5, 0.85)]


def sheet_views(lens: Lens, count: int = len(PLACES), seed: int = 1,
                places: Sequence[tuple[float, float]] = PLACES) -> list[np.ndarray]:
    """``count`` pictures of the sheet held as docs/camera.md says, through ``lens``: the i-th at
    ``places[i % len(places)]``, at a random turn."""
    rng = np.random.default_rng(seed)
    ideal = distorted_from_ideal(lens)
    third = lens.matrix[0, 0] * SQUARES[0] * SQUARE_MM / (lens.size[0] / 3)      # mm: a third of the picture wide
    return [sheet_view(lens, ideal, (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-0.3, 0.3)),
                       places[i % len(places)], third * rng.uniform(0.85, 1.15), rng) for i in range(count)]
