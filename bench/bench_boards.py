"""Finding boards (issue 13): lens calibration, what straightening costs, and markers that survive.

    python3 bench/bench_boards.py [--shots 6] [--runs 7] [--only lens,cost,markers]

1. lens: the ChArUco sheet rendered through the barrel model vision/scenes.py draws with (k1 of
   each level, nine views held as docs/camera.md says), calibrated by ``vision.lens.calibrate``:
   recovered k1, reprojection error, the worst bend error over the picture's inner 3/4, and on a
   hard-level table through that lens the worst slot-centre error (px) of every board whose
   markers are all found, with the calibrated lens and without one.
2. cost: CPU time on one core (cv2.setNumThreads(1)), median of ``--runs``: remapping a whole
   frame through the lens every frame (the naive way) against straightening the markers' corners
   every frame plus bending every slot window's points once per board move (what the pipeline does).
3. markers: per level, ``--shots`` tables of the harder renderer with one or two hands and the
   level's glare; each board found from a cold start (no earlier place) with the six-marker layouts
   (at 1280x720 and 1920x1080) and with the same layouts cut to their four corner markers (placed
   as now, and by any three as the locator did before), and the slot-centre error of the boards
   found (in 1280x720 pixels, so the two picture sizes compare).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.lens_views import sheet_views               # noqa: E402
from vision import lens as L                                  # noqa: E402
from vision import scenes                                     # noqa: E402
from vision.classify import Window                            # noqa: E402
from vision.layout import Layout, sample_layouts              # noqa: E402
from vision import localize                                   # noqa: E402
from vision.localize import BoardLocator                      # noqa: E402
from vision.markers import detect, make_detector              # noqa: E402

BOARDS = ("shop", "diet-1", "diet-2", "diet-3", "diet-4")     # the camera bench's table


def _table() -> dict[str, Layout]:
    every = sample_layouts()
    return {b: every[b] for b in BOARDS}


def _true_lens(shot) -> L.Lens:
    matrix, dist = shot.lens()
    return L.Lens(matrix, dist, (shot.camera.width, shot.camera.height))


def _slot_error(layout: Layout, locator: BoardLocator, truth: dict, lens: L.Lens) -> float:
    drawn = cv2.perspectiveTransform(layout.slot_centres()[None].astype(np.float64),
                                     np.array(truth["boards"][layout.board]["homography"]))[0]
    return float(np.linalg.norm(locator.to_image(layout.slot_centres()) - lens.distort(drawn), axis=1).max())


def bench_lens(shots: int) -> None:
    print("## lens: k1 recovered from 9 views of the sheet; worst slot error (px) of fully seen boards")
    print("| k1 | seed | k1 found | reprojection px | bend error px (inner 3/4) | slots: lens | slots: none | boards |")
    print("|---|---|---|---|---|---|---|---|")
    layouts = _table()
    for k1 in (-0.05, -0.12, -0.22):
        for seed in range(1, shots + 1):
            shot = scenes.shot(layouts, "hard", seed)
            shot = scenes.replace(shot, k1=k1, hands=[], light=scenes.replace(shot.light, glare=[], shadows=[]))
            true = _true_lens(shot)
            found_lens = L.calibrate(sheet_views(true, seed=seed))
            w, h = true.size
            grid = np.stack(np.meshgrid(np.linspace(w / 8, w * 7 / 8, 7), np.linspace(h / 8, h * 7 / 8, 5)),
                            -1).reshape(-1, 2)
            bend = float(np.abs(found_lens.distort(true.undistort(grid)) - grid).max())
            img, truth = scenes.render(shot)
            grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            found = detect(make_detector(), grey)
            errs = {"lens": [], "none": []}
            for name, layout in layouts.items():
                if not set(layout.markers) <= set(found):
                    continue
                for key, lens in (("lens", found_lens), ("none", None)):
                    locator = BoardLocator(layout, 3, lens)
                    locator.update(grey, make_detector(), found)
                    errs[key].append(_slot_error(layout, locator, truth, true))
            print(f"| {k1} | {seed} | {found_lens.dist[0]:.3f} | {found_lens.rms:.2f} | {bend:.2f} | "
                  f"{max(errs['lens'], default=float('nan')):.2f} | {max(errs['none'], default=float('nan')):.2f} | "
                  f"{len(errs['lens'])} of {len(layouts)} |")


def _ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def bench_cost(runs: int) -> None:
    cv2.setNumThreads(1)
    print("\n## cost: CPU ms on one core, median of", runs, "(k1 -0.22)")
    print("| picture | remap every frame | straighten 120 marker corners, per frame | "
          "bend 5 boards' slot windows, per move: every point / local linear map (largest difference px) |")
    print("|---|---|---|---|")
    layouts = _table()
    window = Window.for_token(20.0)
    for w, h in ((1280, 720), (1920, 1080)):
        shot = scenes.replace(scenes.shot(layouts, "hard", 2, width=w, height=h), k1=-0.22)
        lens = _true_lens(shot)
        frame = np.random.default_rng(1).integers(0, 255, (h, w, 3), np.uint8)
        maps = cv2.initUndistortRectifyMap(lens.matrix, lens.dist, None, lens.matrix, (w, h), cv2.CV_16SC2)
        remap = _ms(lambda: cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR), runs)
        corners = np.random.default_rng(2).uniform(0, (w, h), (len(BOARDS) * 6 * 4, 2)).astype(np.float32)
        straighten = _ms(lambda: lens.undistort(corners), runs)
        locators = []
        for board in shot.boards:
            locator = BoardLocator(board.layout, 3, lens)
            locator.homography = scenes.board_homography(shot, board)
            locators.append(locator)

        def every_point():
            return [loc.to_image((loc.layout.slot_centres()[:, None] + window.offsets[None]).reshape(-1, 2))
                    for loc in locators]

        def linear():
            return [loc.windows_to_image(loc.layout.slot_centres(), window.offsets) for loc in locators]
        gap = max(float(np.abs(a.reshape(-1, 2) - b.reshape(-1, 2)).max()) for a, b in zip(every_point(), linear()))
        print(f"| {w}x{h} | {remap:.2f} | {straighten:.3f} | {_ms(every_point, runs):.1f} / {_ms(linear, runs):.2f} "
              f"({gap:.3f}) |")


def _corners_only(layout: Layout) -> Layout:
    w, h = layout.size_mm
    keep = {m: v for m, v in layout.markers.items()
            if min(v[0], w - v[0] - v[2]) < 10 and min(v[1], h - v[1] - v[2]) < 10}
    data = layout.to_dict()
    data["markers"] = {str(m): {"x": x, "y": y, "size": s} for m, (x, y, s) in keep.items()}
    return Layout.from_dict(data)


def bench_markers(shots: int) -> None:
    print("\n## markers: boards found from a cold start with hands and glare (harder renderer)")
    print("| level | markers a board, picture | boards found | markers seen a board (median) | "
          "slot error px median / max |")
    print("|---|---|---|---|---|")
    six = _table()
    four = {b: _corners_only(l) for b, l in six.items()}
    variants = (("4 corners, any 3 place it (the locator before), 1280x720", four, 0.0, 1280),
                ("4 corners, 1280x720", four, localize.WHOLE_FIT_SPREAD, 1280),
                ("6, 1280x720", six, localize.WHOLE_FIT_SPREAD, 1280),
                ("6, 1920x1080", six, localize.WHOLE_FIT_SPREAD, 1920))
    spread = localize.WHOLE_FIT_SPREAD
    for level in ("easy", "medium", "hard"):
        for name, layouts, localize.WHOLE_FIT_SPREAD, width in variants:
            placed, total, seen_counts, errors = 0, 0, [], []
            for seed in range(shots):
                rng = np.random.default_rng(1000 + seed)
                shot = scenes.shot(layouts, level, 500 + seed, width=width, height=width * 9 // 16)
                hands = [scenes.random_hand(shot, rng) for _ in range(1 + seed % 2)]
                shot = scenes.replace(shot, hands=hands)
                img, truth = scenes.render(shot)
                grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
                found = detect(make_detector(), grey)
                true = _true_lens(shot)
                for layout in layouts.values():
                    total += 1
                    seen_counts.append(sum(m in found for m in layout.markers))
                    locator = BoardLocator(layout, 3, true)
                    if locator.update(grey, make_detector(), found).usable:
                        placed += 1
                        errors.append(_slot_error(layout, locator, truth, true) * 1280 / width)
            print(f"| {level} | {name} | {placed} of {total} | {statistics.median(seen_counts):g} | "
                  f"{statistics.median(errors):.2f} / {max(errors):.2f} |")
    localize.WHOLE_FIT_SPREAD = spread


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=6)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", default="lens,cost,markers")
    args = ap.parse_args(argv)
    parts = args.only.split(",")
    if "lens" in parts:
        bench_lens(min(args.shots, 3))
    if "cost" in parts:
        bench_cost(args.runs)
    if "markers" in parts:
        bench_markers(args.shots)


if __name__ == "__main__":
    main()
