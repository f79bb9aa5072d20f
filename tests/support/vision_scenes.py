"""Synthetic tables for the vision tests: a calibrated pipeline and frame sequences with hands."""
from __future__ import annotations

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
    """A lamp's reflection painted into each of ``images`` round the middle space of the scene's first board
    (:func:`vision.synthetic.blow_out`): each slot's distance from its centre, in spaces."""
    for img in images:
        away = syn.blow_out(img, scene, scene.boards[0])
    return dict(zip((s.id for s in scene.boards[0].layout.slots), away))
