"""Camera benchmark: per-slot error on the synthetic set, time per frame, commit latency after a hand.

    python3 bench/bench_vision.py [--conditions 40] [--tables 10] [--frames 60] [--hands 6]
                                  [--levels easy,medium,hard] [--shots 8] [--pictures 3]
                                  [--first-shot 0] [--cache bench/out/scenes] [--levels-only]
                                  [--size 1280x720]

0. Per-slot error on the harder renderer (``vision/scenes.py``), per nuisance level: each shot is
   one table (the shopping list and four diet boards at 1280x720, or ``--size``), calibrated as docs/camera.md says
   (empty boards, then the token plan, under the calibration light), then read in ``--pictures``
   pictures with fresh random tokens under the play light (its mix changed since calibration,
   glare and people's shadows as the level says).  Boards fully right and confusion pairs too, over
   every board and over the boards found and read only (a board not found is board finding's share).

1. Per-slot error: single boards (diet board and shopping list) under random slant, uneven and
   coloured light (calibrated under it, then drifting), blur, noise and JPEG; three pictures per
   condition with fresh random tokens; and the whole table at 1280x720 (five boards, one picture
   per condition).
2. Time per 1280x720 frame on one core (cv2.setNumThreads(1)) for the whole pipeline with the
   main board, the shopping list and four diet boards in view, still frames and frames with a hand,
   median; beside a naive baseline that searches the whole frame for markers and warps every board
   every frame; and a full read (every slot of every board in view classified, as after a change).
3. Commit latency at 30 fps: frames from the first frame without the hand to the commit, for one
   token taken and for ten (more than ``max_changes``: the second look).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import scenes                                  # noqa: E402
from vision import synthetic as syn                       # noqa: E402
from vision.calibration import capture_empty, capture_tokens, token_plan  # noqa: E402
from vision.check import Tally                             # noqa: E402
from vision.classify import Window, classify               # noqa: E402
from vision.layout import sample_layouts                   # noqa: E402
from vision.lens import Lens                               # noqa: E402
from vision.markers import detect, make_detector           # noqa: E402
from vision.pipeline import Pipeline, blocks_of            # noqa: E402
from vision.tokens import UNKNOWN                          # noqa: E402

FPS = 30


def _count(pairs, tally: dict) -> None:
    for t, label in pairs:
        tally["slots"] += 1
        if label != t:
            tally["errors"] += 1
            tally["unknown" if label == UNKNOWN else "wrong_type"] += 1


LEVEL_SEEDS = {"easy": 1000, "medium": 2000, "hard": 3000}
#: Where rendered shots are kept (git-ignored): rendering takes about a minute a shot, reading them a second.
CACHE = Path(__file__).resolve().parent / "out" / "scenes"


#: The harder renderer's table: the shopping list and four diet boards (the figures' boards since issue 13).
LEVEL_BOARDS = ("shop", "diet-1", "diet-2", "diet-3", "diet-4")


#: The picture size the harder renderer's figures are quoted at (its shots' cache folders carry no size).
SIZE = (1280, 720)


def _renderer_key(ls: dict, size: tuple[int, int] = SIZE) -> str:
    """What a cached shot depends on: the renderer's source, the layouts and the picture size (a change
    renders anew); any size but :data:`SIZE` is named after the hash (``<hash>-1920x1080``)."""
    h = hashlib.sha256()
    for name in ("scenes.py", "tokens.py"):
        h.update((Path(scenes.__file__).parent / name).read_bytes())
    h.update(json.dumps({b: l.to_dict() for b, l in sorted(ls.items())}, sort_keys=True).encode())
    return h.hexdigest()[:12] + ("" if tuple(size) == SIZE else "-{}x{}".format(*size))


def level_shot(ls: dict, level: str, seed: int, pictures: int, cache: Path | None,
               size: tuple[int, int] = SIZE) -> dict:
    """One table of ``level`` in ``size`` pictures (the same table, camera and light at any size): its
    calibration pictures (empty, token plan), the plans, the camera's lens (as ``tofu-table vision
    lens`` measures it, here the renderer's own: a perfect calibration) and ``pictures`` play pictures
    with their truth; read from ``cache`` when rendered before."""
    folder = cache / _renderer_key(ls, size) / f"{level}-{seed}" if cache else None
    play = scenes.shot(ls, level, seed, width=size[0], height=size[1])
    lens = Lens(*play.lens(), size=(play.camera.width, play.camera.height))
    if folder and (folder / "truth.json").exists():
        meta = json.loads((folder / "truth.json").read_text())
        if len(meta["truth"]) >= pictures:
            load = lambda name: cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
            return {"plans": meta["plans"], "lens": lens, "empty": [load(f"empty-{i}.png") for i in range(3)],
                    "full": [load(f"plan-{i}.png") for i in range(3)],
                    "play": [(load(f"play-{k}.png"), meta["truth"][k]) for k in range(pictures)]}
    plans = {b: token_plan(layout) for b, layout in ls.items()}
    out = {"plans": plans, "lens": lens,
           "empty": [scenes.render(scenes.calibration_shot(play, {}, seed * 10 + i))[0] for i in range(3)],
           "full": [scenes.render(scenes.calibration_shot(play, plans, seed * 10 + 5 + i))[0] for i in range(3)],
           "play": []}
    rng = np.random.default_rng(seed)
    for k in range(pictures):
        tokens = {b: scenes.random_tokens(layout, rng) for b, layout in ls.items()}
        out["play"].append(scenes.render(scenes.with_tokens(play, tokens, seed * 100 + k)))
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
        for name, imgs in (("empty", out["empty"]), ("plan", out["full"])):
            for i, img in enumerate(imgs):
                cv2.imwrite(str(folder / f"{name}-{i}.png"), img)
        for k, (img, _) in enumerate(out["play"]):
            cv2.imwrite(str(folder / f"play-{k}.png"), img)
        (folder / "truth.json").write_text(json.dumps({"plans": plans, "truth": [t for _, t in out["play"]]}))
    return out


def level_error(level: str, shots: int, pictures: int, cache: Path | None = None, first: int = 0,
                use_lens: bool = True, size: tuple[int, int] = SIZE, each=None) -> tuple[Tally, Tally]:
    """The pipeline on ``shots`` harder-rendered tables of ``level``, ``pictures`` pictures each: every board,
    and the boards found and read only (the classifier's share: a board not found is board finding's).
    ``each(watch, truth)``, when given, sees every board of every play picture after it is read."""
    every = sample_layouts()
    ls = {b: every[b] for b in LEVEL_BOARDS}
    tally, found = Tally(), Tally()
    for c in range(first, first + shots):
        got = level_shot(ls, level, LEVEL_SEEDS[level] + c, pictures, cache, size)
        lens = got["lens"] if use_lens else None
        pipe = Pipeline(ls, lens=lens)
        for b in ls:
            try:
                capture_empty(pipe, b, got["empty"])
                capture_tokens(pipe, b, got["full"], got["plans"][b])
            except LookupError:
                pass                      # refused: the board stays uncalibrated and reads nothing
        refs = {b: w.reference for b, w in pipe.boards.items() if w.reference is not None}
        for img, truth in got["play"]:
            fresh = Pipeline(ls, refs, lens=lens)
            fresh.process(img)
            for b, w in fresh.boards.items():
                if each is not None:
                    each(w, truth["boards"][b]["slots"])
                read = None if w.reading is None else dict(zip((s.id for s in w.layout.slots), w.reading.labels))
                tally.add_board(truth["boards"][b]["slots"], read)
                if read is not None:
                    found.add_board(truth["boards"][b]["slots"], read)
    return tally, found


def table_error(conditions: int) -> dict:
    """The whole table at 1280 x 720 (about 0.75 px/mm): five boards, one picture per condition."""
    ls = {k: v for k, v in sample_layouts().items() if not k.startswith("freezer")}
    tally = {"slots": 0, "errors": 0, "unknown": 0, "wrong_type": 0}
    for c in range(conditions):
        base = syn.table_scene(ls, 20_000 + c, tokens={})
        pipe = Pipeline(ls)
        syn.calibrate(pipe, base, seed=c * 37)
        rng = np.random.default_rng(c)
        tokens = {b: syn.random_tokens(layout, rng) for b, layout in ls.items()}
        img, truth = syn.render(syn.with_tokens(base, tokens, 60_000 + c, light=syn.drifted(base.light, rng)))
        fresh = Pipeline(ls, {b: w.reference for b, w in pipe.boards.items()})
        fresh.process(img)
        _count([(truth["boards"][b]["slots"][s.id], label) for b, w in fresh.boards.items()
                for s, label in zip(w.layout.slots, w.reading.labels)], tally)
    return tally


def slot_error(conditions: int) -> dict:
    """One board filling a 480 x 360 picture (about 1.1 px/mm), three pictures per condition."""
    ls = sample_layouts()
    tally = {"slots": 0, "errors": 0, "unknown": 0, "wrong_type": 0}
    for c in range(conditions):
        layout = ls["shop"] if c % 5 == 4 else ls["diet-1"]
        base = syn.board_scene(layout, 10_000 + c)
        pipe = Pipeline({layout.board: layout})
        syn.calibrate(pipe, base, seed=c * 31)
        ref = pipe.boards[layout.board].reference
        rng = np.random.default_rng(c)
        for k in range(3):
            tokens = syn.random_tokens(layout, rng)
            img, truth = syn.render(syn.with_tokens(base, {layout.board: tokens}, 50_000 + c * 10 + k,
                                                    light=syn.drifted(base.light, rng)))
            fresh = Pipeline({layout.board: layout}, {layout.board: ref})
            fresh.process(img)
            _count([(truth["boards"][layout.board]["slots"][s.id], label)
                    for s, label in zip(layout.slots, fresh.boards[layout.board].reading.labels)], tally)
    return tally


class NaivePipeline:
    """The baseline: whole-frame marker search, a fresh homography and a full warp of every board, every frame."""

    PX_PER_MM = 2.0

    def __init__(self, pipe: Pipeline):
        self.pipe = pipe
        self.detector = make_detector()

    def process(self, frame):
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = detect(self.detector, grey)
        for watch in self.pipe.boards.values():
            layout = watch.layout
            seen = [m for m in layout.markers if m in found]
            if len(seen) < 3:
                continue
            src = np.concatenate([layout.marker_corners(m) for m in seen])
            dst = np.concatenate([found[m] for m in seen])
            h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
            s = self.PX_PER_MM
            to_px = np.array([[s, 0, -0.5], [0, s, -0.5], [0, 0, 1]])
            w, hh = (int(v * s) for v in layout.size_mm)
            board = cv2.warpPerspective(frame, to_px @ np.linalg.inv(h), (w, hh))
            window = Window.for_token(layout.token_mm)
            pts = (layout.slot_centres()[:, None, :] + window.offsets[None]) * s - 0.5
            windows = cv2.remap(board, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                                cv2.INTER_LINEAR)
            classify(watch.reference, windows, window)


def _timed(process, frames) -> tuple[float, float, float]:
    """Median CPU time (this thread, so other programs on the machine do not count) and wall time, and the
    mean CPU time (what a core's budget pays, the periodic re-reads and re-placed boards included), ms."""
    cpu, wall = [], []
    for img in frames:
        c, w = time.thread_time(), time.perf_counter()
        process(img)
        cpu.append((time.thread_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return statistics.median(cpu), statistics.median(wall), statistics.fmean(cpu)


def frame_times(frames: int) -> dict:
    ls = {k: v for k, v in sample_layouts().items() if not k.startswith("freezer")}
    scene = syn.table_scene(ls, 3, tokens={})
    pipe = Pipeline(ls)
    syn.calibrate(pipe, scene)
    refs = {b: w.reference for b, w in pipe.boards.items()}
    rng = np.random.default_rng(3)
    tokens = {p.layout.board: syn.random_tokens(p.layout, rng) for p in scene.boards}
    still = [syn.render(syn.with_tokens(scene, tokens, 100 + i))[0] for i in range(frames // 2)]
    hand = []
    for i in range(frames - len(still)):
        tip = (300 + 30 * i, 520 - 3 * i)
        hand.append(syn.render(syn.with_tokens(scene, tokens, 300 + i, [syn.Hand(tip=tip, origin=(200 + 10 * i, 1300))]))[0])
    out = {}
    ours = Pipeline(ls, refs)
    ours.process(still[0])
    for name, seq in (("still", still), ("hand", hand)):
        out[f"ours_{name}"], out[f"ours_{name}_wall"], out[f"ours_{name}_mean"] = _timed(ours.process, seq)
    # a full read: every slot of every board classified (after a change on it, and every 15th frame)
    boards = [w for w in ours.boards.values() if w.maps is not None]
    out["boards"], out["slots"] = len(boards), sum(len(w.layout.slots) for w in boards)
    full_read = lambda img: [classify(w.reference, cv2.remap(img, *w.maps, cv2.INTER_LINEAR), w.window) for w in boards]
    out["full_read"], out["full_read_wall"], _ = _timed(full_read, still)
    naive = NaivePipeline(Pipeline(ls, refs))
    for name, seq in (("still", still), ("hand", hand)):
        out[f"naive_{name}"], out[f"naive_{name}_wall"], _ = _timed(naive.process, seq)
    return out


def commit_latency(runs: int, taken: int = 1) -> list[int]:
    """Frames to the commit after a hand takes ``taken`` tokens off diet-1 and leaves, each frame given to the
    pipeline as the camera service gives it (with its change blocks: the still boards are left alone)."""
    ls = {k: v for k, v in sample_layouts().items() if k in ("shop", "diet-1", "diet-2")}
    frames_to_commit = []
    for r in range(runs):
        scene = syn.table_scene(ls, 40 + r, tokens={})
        pipe = Pipeline(ls)
        syn.calibrate(pipe, scene)
        rng = np.random.default_rng(r)
        before = {p.layout.board: syn.random_tokens(p.layout, rng) for p in scene.boards}
        def live(img):
            return pipe.process(img, None, blocks_of(img))
        for i in range(10):
            live(syn.render(syn.with_tokens(scene, before, i))[0])
        after = {b: dict(t) for b, t in before.items()}
        for slot in sorted(after["diet-1"])[r:r + taken]:
            after["diet-1"].pop(slot)
        for i in range(8):
            live(syn.render(syn.with_tokens(scene, after if i > 3 else before, 20 + i,
                                            [syn.Hand(tip=(250 + 8 * i, 520), origin=(200, 1300))]))[0])
        for i in range(30):
            if live(syn.render(syn.with_tokens(scene, after, 40 + i))[0]):
                frames_to_commit.append(i + 1)
                break
        else:
            frames_to_commit.append(None)
    return frames_to_commit


def _print_tally(name: str, t: Tally) -> None:
    s = t.summary()
    pairs = ", ".join(f"{c['truth']}->{c['read']} {c['count']}" for c in s["confusions"])
    print(f"per-slot error, {name}: {t.errors} of {t.slots} slots = {s['error_percent']:.3f} % "
          f"({t.unknown} unknown, {t.wrong} wrong values); boards fully right {t.boards_right} of {t.boards} "
          f"= {s['boards_right_percent']:.1f} % ({t.unread_boards} unread); most confused: {pairs}")


def _size(text: str) -> tuple[int, int]:
    """``1920x1080`` -> (1920, 1080), refused unless two positive whole numbers."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a picture size is WIDTHxHEIGHT, such as 1920x1080, not {text!r}")
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"a picture size needs a positive width and height, not {text!r}")
    return w, h


def _cache(text: str) -> Path | None:
    """The folder of rendered shots (None for ''), refused when it is one renderer's own folder: that
    folder's shots sit one level deeper than they are looked for, so every shot would be rendered again."""
    if not text:
        return None
    folder = Path(text)
    if any((shot / "truth.json").exists() for shot in folder.glob("*-*")):
        raise argparse.ArgumentTypeError(
            f"{text} holds one renderer's shots: --cache takes the folder above it ({folder.resolve().parent}), "
            "in which each renderer and picture size has a folder of its own")
    return folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conditions", type=int, default=40)
    ap.add_argument("--tables", type=int, default=10, help="whole-table conditions for the error rate")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--levels", default="easy,medium,hard", help="harder-renderer levels to measure ('' for none)")
    ap.add_argument("--shots", type=int, default=8, help="tables per level (each calibrated anew)")
    ap.add_argument("--pictures", type=int, default=3, help="pictures read per table")
    ap.add_argument("--first-shot", type=int, default=0, help="start at this shot (seeds level base + n)")
    ap.add_argument("--cache", default=str(CACHE), type=_cache,
                    help="folder of rendered shots, one folder a renderer and size in it ('' renders every time)")
    ap.add_argument("--levels-only", action="store_true", help="only the harder renderer's error")
    ap.add_argument("--timing-only", action="store_true",
                    help="only the time per frame and the commit latency (no error figures)")
    ap.add_argument("--no-lens", action="store_true", help="read the harder renderer's shots without the lens")
    ap.add_argument("--size", default="{}x{}".format(*SIZE), type=_size,
                    help="the harder renderer's picture size, WIDTHxHEIGHT (1920x1080: the capture option)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    total, total_found = Tally(), Tally()
    for level in [v for v in args.levels.split(",") if v and not args.timing_only]:
        t, found = level_error(level, args.shots, args.pictures, args.cache,
                               args.first_shot, not args.no_lens, args.size)
        total, total_found = total.merge(t), total_found.merge(found)
        _print_tally(f"harder renderer, {level}", t)
        _print_tally(f"harder renderer, {level}, boards read only", found)
    if total.slots:
        _print_tally("harder renderer, all levels", total)
        _print_tally("harder renderer, all levels, boards read only", total_found)
    if args.levels_only:
        return 0
    for name, err in [] if args.timing_only else (("one board, ~1.1 px/mm", slot_error(args.conditions)),
                      ("whole table 1280x720, ~0.75 px/mm", table_error(args.tables))):
        print(f"per-slot error, {name}: {err['errors']} of {err['slots']} slots = "
              f"{err['errors'] / err['slots'] * 100:.3f} % ({err['unknown']} read as unknown, "
              f"{err['wrong_type']} read as a wrong type)")
    t = frame_times(args.frames)
    print(f"time per 1280x720 frame, {t['boards']} boards, one core, median CPU ms (wall ms): ours still "
          f"{t['ours_still']:.2f} ({t['ours_still_wall']:.2f}), with a hand {t['ours_hand']:.2f} "
          f"({t['ours_hand_wall']:.2f}); mean CPU ms still {t['ours_still_mean']:.2f}, with a hand "
          f"{t['ours_hand_mean']:.2f}; naive still {t['naive_still']:.2f} ({t['naive_still_wall']:.2f}), "
          f"with a hand {t['naive_hand']:.2f} ({t['naive_hand_wall']:.2f}); naive/ours "
          f"{t['naive_still'] / t['ours_still']:.1f}x still, {t['naive_hand'] / t['ours_hand']:.1f}x with a hand; "
          f"a full read of every slot ({t['slots']}) {t['full_read']:.1f} ({t['full_read_wall']:.1f})")
    for taken in (1, 10):
        lat = commit_latency(args.hands, taken)
        done = [f for f in lat if f is not None]
        print(f"commit after the hand leaves at {FPS} fps, {taken} token(s) taken: frames {lat}; median "
              f"{statistics.median(done) / FPS:.2f} s, worst {max(done) / FPS:.2f} s"
              + (f"; {len(lat) - len(done)} never committed" if len(done) < len(lat) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
