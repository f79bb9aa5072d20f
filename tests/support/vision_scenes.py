"""Synthetic tables for the vision tests: a calibrated pipeline and frame sequences with hands."""
from __future__ import annotations

import cv2
import numpy as np

from vision import synthetic as syn
from vision.layout import sample_layouts
from vision.pipeline import Pipeline, Settings
from vision.sources import FrameSource


class Frames(FrameSource):
    """These frames, once each in order, then none (the camera gone quiet)."""
    name = "test"

    def __init__(self, frames):
        self.frames = list(frames)

    def read(self):
        return self.frames.pop(0) if self.frames else None


def layouts(*names: str) -> dict:
    every = sample_layouts()
    return {n: every[n] for n in names}


def calibrated(names=("shop", "diet-1", "diet-2"), seed: int = 1, width: int = 1280, height: int = 720,
               settings: Settings | None = None, hard: bool = True):
    """(pipeline, scene): a table scene of these boards and a pipeline calibrated on it."""
    ls = layouts(*names)
    scene = syn.table_scene(ls, seed, width, height, tokens={}, hard=hard)
    pipe = Pipeline(ls, settings=settings)
    syn.calibrate(pipe, scene)
    return pipe, scene


def random_layout_tokens(scene: syn.Scene, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {p.layout.board: syn.random_tokens(p.layout, rng) for p in scene.boards}


def run(pipe: Pipeline, scene: syn.Scene, tokens: dict, frames: int, seed: int, hands=None) -> list[dict]:
    """Feed ``frames`` rendered frames; every commit in order."""
    out = []
    for i in range(frames):
        img, _ = syn.render(syn.with_tokens(scene, tokens, seed + i, hands))
        out += pipe.process(img)
    return out


def expected_changes(before: dict, after: dict, board: str) -> dict:
    """The slot changes a correct camera commits for ``board`` (None for emptied slots)."""
    b, a = before.get(board, {}), after.get(board, {})
    return {s: a.get(s) for s in set(a) | set(b) if a.get(s) != b.get(s)}


def blow_out(images: list, scene: syn.Scene) -> dict:
    """Paint a lamp's reflection into ``images`` (in place): a disc blown out to white, about three spaces
    across, round the middle space of the scene's first board.  Each slot's distance from its centre, in
    spaces (the pitch from that space to the nearest)."""
    layout = scene.boards[0].layout
    centres = cv2.perspectiveTransform(layout.slot_centres()[None].astype(np.float64),
                                       syn.board_homography(scene, scene.boards[0]))[0]
    middle = centres[len(centres) // 2]
    away = np.linalg.norm(centres - middle, axis=1)
    pitch = float(np.sort(away)[1])
    for img in images:
        cv2.circle(img, tuple(int(v) for v in middle), int(1.6 * pitch), (255, 255, 255), -1)
    return dict(zip((s.id for s in layout.slots), away / pitch))
