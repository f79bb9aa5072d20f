"""The printed ChArUco lens sheet as a camera sees it, through a given lens (the barrel model
vision/scenes.py draws with): for the lens tests and bench/bench_boards.py."""
import cv2
import numpy as np

from vision import lens as L


def distorted_from_ideal(lens: L.Lens) -> np.ndarray:
    """For each camera pixel, where it lies in the perfect-lens picture (as vision/scenes.py does)."""
    w, h = lens.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return lens.undistort(np.stack([xs, ys], -1).reshape(-1, 2)).reshape(h, w, 2)


def sheet_view(lens: L.Lens, ideal: np.ndarray, tilt: tuple[float, float, float], at: tuple[float, float],
               distance_mm: float, rng) -> np.ndarray:
    """The printed sheet held ``distance_mm`` from the camera, turned by ``tilt`` (radians), its centre
    seen at ``at`` (share of the picture's width, height): a greyscale camera picture."""
    ppm = 6.0
    sheet = np.full((int(L.SQUARES[1] * L.SQUARE_MM * ppm) + 60, int(L.SQUARES[0] * L.SQUARE_MM * ppm) + 60),
                    255, np.uint8)
    art = L.board_image(ppm)
    sheet[30:30 + art.shape[0], 30:30 + art.shape[1]] = art          # the paper's white margin
    k = lens.matrix
    rot, _ = cv2.Rodrigues(np.array(tilt, np.float64))
    centre = np.array([(at[0] * lens.size[0] - k[0, 2]) / k[0, 0] * distance_mm,
                       (at[1] * lens.size[1] - k[1, 2]) / k[1, 1] * distance_mm, distance_mm])
    t = centre - rot @ np.array([L.SQUARES[0] * L.SQUARE_MM / 2, L.SQUARES[1] * L.SQUARE_MM / 2, 0])
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


def sheet_views(lens: L.Lens, count: int = len(PLACES), seed: int = 1) -> list[np.ndarray]:
    """``count`` pictures of the sheet as an owner holds it for `tofu-table vision lens`, through ``lens``."""
    rng = np.random.default_rng(seed)
    ideal = distorted_from_ideal(lens)
    return [sheet_view(lens, ideal, (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-0.3, 0.3)),
                        PLACES[i], _a_third_of_the_picture(lens) * rng.uniform(0.85, 1.15), rng) for i in range(count)]


def _a_third_of_the_picture(lens: L.Lens) -> float:
    """How far from the camera (mm) the sheet spans about a third of the picture's width."""
    return lens.matrix[0, 0] * L.SQUARES[0] * L.SQUARE_MM / (lens.size[0] / 3)
