"""Finding boards (issue 13): lens calibration, what straightening costs, and markers that survive.

    python3 bench/bench_boards.py [--shots 6] [--runs 7] [--only lens,cost,markers,cached,frames,pose,far]
                                  [--levels easy,medium,hard] [--layouts-at REV] [--scenes DIR]
                                  [--size 1280x720] [--cache bench/out/scenes]

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
4. cached: the camera bench's own rendered tables (bench/bench_vision.py keeps them in
   bench/out/scenes; run it first), every picture of each (empty boards, token plan, play, with
   its hands, glare and people's shadows): each board found from a cold start, as the pipeline's
   first frame finds it, by the detector as it was (OpenCV's 4 px a cell to read the bits), by the
   detector reading bits at 10 px a cell, and by that plus the second look where markers are
   missing, that through a lens calibrated from the ChArUco sheet (as the owner does) and through
   none; and how far the found boards' slot centres land from where they were drawn (picture px,
   and mm on the board), and the boards lost.  The pictures' size is read from them (``--scenes``
   a 1920x1080 set of bench_vision.py's ``--size``).
5. frames: the live pipeline's CPU per frame (one core) on the synthetic table, calibrated, at
   1280x720 and 1920x1080, still and with a hand moving, a full read of every board, what its
   board locators take of it, and a search of the whole picture for markers.
6. pose: the camera bench's per-slot error (bench/bench_vision.py's reading of its cached tables,
   ``--size`` and ``--cache`` as there) with the boards the locator places, and with the same boards
   given their true pose: how much of the reading error placement explains; and how many times a board
   its markers did not place was held at its calibrated place (in the play and the token-plan pictures).
7. far: the same reading's errors split by how each board was placed (by its markers, held, unread) and
   by the spaces seen coarser than the pipeline's "too far" (0.4 px a mm) and not: what a larger
   picture or a straighter camera can take (``--size``, ``--cache`` as for pose).

``--layouts-at REV`` takes every part's layouts from that git revision (for the cached tables:
those they were rendered with, when the layouts changed since); ``--scenes DIR`` reads the cached
tables from DIR (one rendered set, such as a private cache of bench_vision.py's ``--cache``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_vision                                # noqa: E402
from vision.lens import sheet_views                            # noqa: E402
from vision import lens as L                                  # noqa: E402
from vision import scenes                                     # noqa: E402
from vision.classify import Window                            # noqa: E402
from vision.layout import Layout, sample_layouts              # noqa: E402
from vision import localize                                   # noqa: E402
from vision.localize import BoardLocator                      # noqa: E402
from vision.markers import detect, make_detector              # noqa: E402
from vision.tokens import UNKNOWN                             # noqa: E402

BOARDS = ("shop", "diet-1", "diet-2", "diet-3", "diet-4")     # the camera bench's table


def _table(rev: str | None = None) -> dict[str, Layout]:
    """The camera bench's boards, as the working tree has them or as git revision ``rev`` had them."""
    if not rev:
        every = sample_layouts()
        return {b: every[b] for b in BOARDS}
    root = Path(__file__).resolve().parent.parent
    return {b: Layout.from_dict(json.loads(subprocess.check_output(
        ["git", "-C", str(root), "show", f"{rev}:vision/data/layouts/{b}.json"]))) for b in BOARDS}


def _true_lens(shot) -> L.Lens:
    matrix, dist = shot.lens()
    return L.Lens(matrix, dist, (shot.camera.width, shot.camera.height))


def _placement(layout: Layout, locator: BoardLocator, truth: dict, lens: L.Lens) -> tuple[np.ndarray, np.ndarray]:
    """How far each slot centre the locator puts in the picture lies from where the renderer drew it:
    in picture px, and in mm on the board (the found point taken back through the true lens and pose)."""
    true_h = np.array(truth["boards"][layout.board]["homography"])
    centres = layout.slot_centres().astype(np.float64)
    drawn = lens.distort(cv2.perspectiveTransform(centres[None], true_h)[0])
    found = locator.to_image(centres)
    on_board = cv2.perspectiveTransform(lens.undistort(found)[None].astype(np.float64), np.linalg.inv(true_h))[0]
    return np.linalg.norm(found - drawn, axis=1), np.linalg.norm(on_board - centres, axis=1)


def _slot_error(layout: Layout, locator: BoardLocator, truth: dict, lens: L.Lens) -> float:
    """The board's worst slot centre, picture px off where it was drawn."""
    return float(_placement(layout, locator, truth, lens)[0].max())


def bench_lens(shots: int, layouts: dict[str, Layout]) -> None:
    print("## lens: k1 recovered from 9 views of the sheet; worst slot error (px) of fully seen boards")
    print("| k1 | seed | k1 found | reprojection px | bend error px (inner 3/4) | slots: lens | slots: none | boards |")
    print("|---|---|---|---|---|---|---|---|")
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


def bench_cost(runs: int, layouts: dict[str, Layout]) -> None:
    cv2.setNumThreads(1)
    print("\n## cost: CPU ms on one core, median of", runs, "(k1 -0.22)")
    print("| picture | remap every frame | straighten 120 marker corners, per frame | "
          "bend 5 boards' slot windows, per move: every point / local linear map (largest difference px) |")
    print("|---|---|---|---|")
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
    """The layout with only its four markers nearest its corners (a layout may reach beyond its
    printed board, so the corner markers need not lie at the layout's edge)."""
    w, h = layout.size_mm
    centre = {m: (x + s / 2, y + s / 2) for m, (x, y, s) in layout.markers.items()}
    keep = {min(centre, key=lambda m: np.hypot(centre[m][0] - cx, centre[m][1] - cy))
            for cx, cy in ((0, 0), (w, 0), (w, h), (0, h))}
    keep = {m: layout.markers[m] for m in keep}
    data = layout.to_dict()
    data["markers"] = {str(m): {"x": x, "y": y, "size": s} for m, (x, y, s) in keep.items()}
    return Layout.from_dict(data)


def bench_markers(shots: int, six: dict[str, Layout], levels: list[str]) -> None:
    print("\n## markers: boards found from a cold start with hands and glare (harder renderer)")
    print("| level | markers a board, picture | boards found | markers seen a board (median) | "
          "slot error px median / max |")
    print("|---|---|---|---|---|")
    four = {b: _corners_only(l) for b, l in six.items()}
    variants = (("4 corners, any 3 place it (the locator before), 1280x720", four, 0.0, 1280),
                ("4 corners, 1280x720", four, localize.WHOLE_FIT_SPREAD, 1280),
                ("6, 1280x720", six, localize.WHOLE_FIT_SPREAD, 1280),
                ("6, 1920x1080", six, localize.WHOLE_FIT_SPREAD, 1920))
    spread = localize.WHOLE_FIT_SPREAD
    for level in levels:
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


def bench_cached(levels: list[str], layouts: dict[str, Layout], folder: Path | None = None) -> None:
    folder = folder or bench_vision.CACHE / bench_vision._renderer_key(layouts)
    if not folder.is_dir():
        print(f"\n## cached: no rendered tables in {folder}; run bench/bench_vision.py --levels-only first "
              "(or give --layouts-at the revision they were rendered with)")
        return
    before = make_detector()
    params = before.getDetectorParameters()
    params.perspectiveRemovePixelPerCell = 4
    before.setDetectorParameters(params)
    closer = localize.detect_closer
    # the locator's lens: the renderer's own, one calibrated from the ChArUco sheet as docs/camera.md says, none
    variants = (("bits at 4 px a cell (before)", before, False, "true"),
                ("bits at 10 px a cell", make_detector(), False, "true"),
                ("10 px a cell + second look", make_detector(), True, "true"),
                ("+ second look, lens calibrated from the sheet", make_detector(), True, "sheet"),
                ("+ second look, no lens", make_detector(), True, "none"))
    print(f"\n## cached: the camera bench's tables ({folder.name}), every board from a cold start")
    print("| level | tables | detector | boards found: all pictures | : play pictures of the bench's shots | "
          "slot centres off, px: median / worst | mm on the board: median / p99 / worst | "
          "boards with a slot > 1 mm / 2 mm off | ms a picture (CPU) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for level in levels:
        shots = sorted(folder.glob(f"{level}-*"), key=lambda p: int(p.name.split("-")[1]))
        by_cell, lost = {}, []           # of the second look through the renderer's lens
        for name, detector, second, lens_from in variants:
            localize.detect_closer = closer if second else (lambda *a: {})
            placed = total = placed_play = total_play = 0
            px_off, mm_off, worst_mm, cpu = [], [], [], []
            main = second and lens_from == "true"
            for shot_dir in shots:
                seed = int(shot_dir.name.split("-")[1])
                pictures = sorted(shot_dir.glob("*.png"))
                h, w = cv2.imread(str(pictures[0]), cv2.IMREAD_GRAYSCALE).shape
                shot = scenes.shot(layouts, level, seed, width=w, height=h)
                true = _true_lens(shot)
                lens = true if lens_from == "true" else None if lens_from == "none" else L.calibrate(
                    sheet_views(true, seed=seed))
                truth = {"boards": {b.layout.board: {"homography": scenes.board_homography(shot, b).tolist()}
                                    for b in shot.boards}}
                bench_shot = seed - bench_vision.LEVEL_SEEDS[level] < 50
                for picture in pictures:
                    grey = cv2.cvtColor(cv2.imread(str(picture)), cv2.COLOR_BGR2GRAY)
                    t = time.process_time()
                    found = detect(detector, grey)
                    locators = [BoardLocator(layout, 3, lens) for layout in layouts.values()]
                    fixes = [loc.update(grey, detector, found) for loc in locators]
                    cpu.append((time.process_time() - t) * 1000)
                    play = bench_shot and picture.name.startswith("play")
                    for loc, layout, fix in zip(locators, layouts.values(), fixes):
                        if main:
                            _tally_cells(by_cell, shot, layout, true, found, fix.seen)
                        total += 1
                        total_play += play
                        if not fix.usable:
                            if main:
                                lost.append(f"{shot_dir.name}/{picture.stem} {layout.board} "
                                            f"({len(fix.seen)} of {len(layout.markers)})")
                            continue
                        placed += 1
                        placed_play += play
                        px, mm = _placement(layout, loc, truth, true)
                        px_off.append(px)
                        mm_off.append(mm)
                        worst_mm.append(mm.max())
            px_all, mm_all = np.concatenate(px_off), np.concatenate(mm_off)
            print(f"| {level} | {len(shots)} | {name} | {placed} of {total} | {placed_play} of {total_play} | "
                  f"{np.median(px_all):.2f} / {px_all.max():.2f} | {np.median(mm_all):.2f} / "
                  f"{np.percentile(mm_all, 99):.2f} / {mm_all.max():.2f} | "
                  f"{sum(m > 1 for m in worst_mm)} / {sum(m > 2 for m in worst_mm)} | {statistics.median(cpu):.1f} |")
        print(f"\n{level}, markers found by their size (px a cell: the shortest side as drawn, through the lens, / 6): "
              + "; ".join(f"{cell:.2f}-{cell + 0.25:.2f}: {n} markers, {first / n:.0%} by the search, {seen / n:.0%} "
                          f"by the locator" for cell, (n, first, seen) in sorted(by_cell.items())))
        print(f"{level}, boards lost with the second look (markers seen): " + ("; ".join(lost) or "none") + "\n")
    localize.detect_closer = closer


def bench_pose(levels: list[str], shots: int, size: tuple[int, int], cache: Path) -> None:
    """The camera bench's per-slot error (bench_vision's own reading: calibrated, then its play pictures)
    with each board the locator places as it places it, and with the same boards given their true pose
    (the renderer's): what placement leaves to the classifier."""
    true: dict[str, np.ndarray] = {}
    rendered, fit, hold = bench_vision.level_shot, BoardLocator._fit, BoardLocator.hold
    held = [0]

    def counted(locator, place, fix):
        held[0] += not locator.held
        return hold(locator, place, fix)

    def level_shot(ls, level, seed, pictures, folder, size):
        shot = scenes.shot(ls, level, seed, width=size[0], height=size[1])
        true.update({b.layout.board: scenes.board_homography(shot, b) for b in shot.boards})
        return rendered(ls, level, seed, pictures, folder, size)

    def true_pose(locator, seen):
        return None if fit(locator, seen) is None else true[locator.layout.board].copy()
    print(f"\n## pose: the camera bench's reading at {size[0]}x{size[1]}, {shots} shots, placed by the locator "
          "and by the true pose")
    print("| level | placed by | per-slot error, all boards (unread) | on the boards found | unknown / wrong values "
          "| boards fully right | held |")
    print("|---|---|---|---|---|---|---|")
    for level in levels:
        for name, how in (("the locator", fit), ("the true pose", true_pose)):
            bench_vision.level_shot, BoardLocator._fit, BoardLocator.hold = level_shot, how, counted
            held[0] = 0
            try:
                every, found = bench_vision.level_error(level, shots, 3, cache, size=size)
            finally:
                bench_vision.level_shot, BoardLocator._fit, BoardLocator.hold = rendered, fit, hold
            print(f"| {level} | {name} | {every.summary()['error_percent']:.3f} % ({every.unread_boards}) | "
                  f"{found.summary()['error_percent']:.3f} % ({found.errors} of {found.slots}) | "
                  f"{found.unknown} / {found.wrong} | {every.boards_right} of {every.boards} | {held[0]} |")


def bench_far(levels: list[str], shots: int, size: tuple[int, int], cache: Path) -> None:
    """The camera bench's reading errors (bench_vision's own reading) split by how each board was placed
    (by its markers, held at its calibrated place, or unread) and whether each space is seen coarser than
    the pipeline's "too far" (:data:`vision.pipeline.MIN_PX_PER_MM`, at the place the board was read)."""
    from vision.pipeline import MIN_PX_PER_MM
    print(f"\n## far: the camera bench's reading at {size[0]}x{size[1]}, {shots} shots, by placement and by spaces "
          f"seen under {MIN_PX_PER_MM} px/mm")
    print("| level | board | spaces | seen | share of the level's spaces | unknown | wrong values |")
    print("|---|---|---|---|---|---|---|")
    for level in levels:
        split: dict[tuple[str, str], list[int]] = {}

        def each(watch, truth):
            if watch.reading is None:
                n = split.setdefault(("unread", "any"), [0, 0, 0])
                n[0], n[1] = n[0] + len(truth), n[1] + len(truth)
                return
            how = "held" if watch.fix.status == "held" else "placed by its markers"
            for slot, label, scale in zip(watch.layout.slots, watch.reading.labels, watch.scale):
                n = split.setdefault((how, "far" if scale < MIN_PX_PER_MM else "near"), [0, 0, 0])
                want = truth[slot.id]
                n[0] += 1
                n[1] += label != want and label == UNKNOWN
                n[2] += label != want and label != UNKNOWN
        bench_vision.level_error(level, shots, 3, cache, size=size, each=each)
        every = sum(n[0] for n in split.values())
        for (how, seen), (n, unknown, wrong) in sorted(split.items()):
            print(f"| {level} | {how} | {n} | {seen} | {n / every:.1%} | {unknown} | {wrong} |")


def _tally_cells(by_cell: dict, shot, layout: Layout, lens: L.Lens, found: dict, seen: list[int]) -> None:
    """Count each of the board's markers under its size in the picture (px a cell, in quarters):
    [markers, found by the whole-picture search, seen by the locator]."""
    board = next(b for b in shot.boards if b.layout.board == layout.board)
    h = scenes.board_homography(shot, board)
    for mid in layout.markers:
        px = lens.distort(cv2.perspectiveTransform(layout.marker_corners(mid)[None].astype(np.float64), h)[0])
        cell = np.floor(min(np.linalg.norm(np.roll(px, -1, 0) - px, axis=1)) / 6 * 4) / 4
        n = by_cell.setdefault(float(cell), [0, 0, 0])
        n[0], n[1], n[2] = n[0] + 1, n[1] + (mid in found), n[2] + (mid in seen)


def bench_frames(frames: int) -> None:
    """The live pipeline's CPU per frame at 1280x720 and 1920x1080 (the synthetic table, calibrated,
    five boards: still frames, then a hand moving over diet-1), the locators' share of it, and one
    search of the whole picture for markers (the first frame's, and now and then while a board is lost)."""
    from vision import synthetic as syn
    from vision.pipeline import Pipeline
    cv2.setNumThreads(1)
    ls = {k: v for k, v in sample_layouts().items() if k in ("main", "shop") or k.startswith("diet-")}
    print(f"\n## frames: CPU ms a frame (this thread), median of {frames}")
    print("| picture | still | hand moving | a full read (every slot of every board) | locators (update of every "
          "board), still | a whole-picture search |")
    print("|---|---|---|---|---|---|")
    for w, h in ((1280, 720), (1920, 1080)):
        scene = syn.table_scene(ls, 3, width=w, height=h, tokens={})
        pipe = Pipeline(ls)
        syn.calibrate(pipe, scene)
        rng = np.random.default_rng(3)
        tokens = {p.layout.board: syn.random_tokens(p.layout, rng) for p in scene.boards}
        still = [syn.render(syn.with_tokens(scene, tokens, 100 + i))[0] for i in range(frames)]
        hand = [syn.render(syn.with_tokens(scene, tokens, 300 + i, [syn.Hand(tip=(300 + 30 * i, 520 - 3 * i),
                                                                           origin=(200 + 10 * i, 1300))]))[0]
                for i in range(frames)]
        ours = Pipeline(ls, {b: wt.reference for b, wt in pipe.boards.items()})
        ours.process(still[0])
        cpu = [bench_vision._timed(ours.process, seq)[0] for seq in (still, hand)]
        # as after a change on every board (and every 15th frame): the pipeline's own full read
        seen = [wt for wt in ours.boards.values() if wt.maps is not None]
        full = bench_vision._timed(lambda img: [ours._read(wt, img, None) for wt in seen], still)[0]
        greys = [cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) for img in still]
        locate = bench_vision._timed(lambda g: [wt.locator.update(g, ours.detector) for wt in ours.boards.values()],
                                     greys)[0]
        search = bench_vision._timed(lambda g: detect(ours.detector, g), greys)[0]
        print(f"| {w}x{h} | {cpu[0]:.2f} | {cpu[1]:.2f} | {full:.1f} ({len(seen)} boards) | {locate:.3f} | {search:.1f} |")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=6)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", default="lens,cost,markers,cached",
                    help="any of lens,cost,markers,cached,frames,pose,far")
    ap.add_argument("--frames", type=int, default=15, help="frames a sequence for frames")
    ap.add_argument("--levels", default="easy,medium,hard", help="levels for markers and cached")
    ap.add_argument("--layouts-at", default=None,
                    help="git revision whose layouts to use (the cached tables' when the layouts changed since)")
    ap.add_argument("--scenes", type=Path, default=None,
                    help="folder of one rendered set for cached (default: bench/out/scenes/<the renderer's key>)")
    ap.add_argument("--size", default="1280x720", type=bench_vision._size,
                    help="pose, far: the rendered tables' picture size (bench_vision.py --size)")
    ap.add_argument("--cache", type=Path, default=bench_vision.CACHE,
                    help="pose, far: bench_vision.py's cache of rendered tables (its --cache)")
    args = ap.parse_args(argv)
    parts = args.only.split(",")
    layouts = _table(args.layouts_at)
    if "lens" in parts:
        bench_lens(min(args.shots, 3), layouts)
    if "cost" in parts:
        bench_cost(args.runs, layouts)
    if "markers" in parts:
        bench_markers(args.shots, layouts, args.levels.split(","))
    if "cached" in parts:
        bench_cached(args.levels.split(","), layouts, args.scenes)
    if "frames" in parts:
        bench_frames(args.frames)
    if "pose" in parts:
        bench_pose(args.levels.split(","), args.shots, args.size, args.cache)
    if "far" in parts:
        bench_far(args.levels.split(","), args.shots, args.size, args.cache)


if __name__ == "__main__":
    main()
