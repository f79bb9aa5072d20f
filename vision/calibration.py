"""Calibration captures: the empty board, and one token of each type on planned slots.

Both are taken from a few consecutive frames of the live camera (or from
still images) and saved as a :class:`vision.classify.Reference` per board in
``DATA/vision/reference/``.  The empty capture must come first (token colours
are measured relative to it); either can be redone at any time.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .classify import Reference, patch_gain, token_centre
from .layout import Layout
from .pipeline import Pipeline


def reference_dir(data_dir: str | Path) -> Path:
    """Where the table's colour references live."""
    return Path(data_dir) / "vision" / "reference"


def token_plan(layout: Layout, types: tuple[str, ...] | None = None, per_type: int = 2) -> dict[str, str]:
    """Which slot gets which token type for the colour session, spread evenly over the board.

    ``types`` defaults to the layout's token types; each gets ``per_type`` slots
    (fewer when the board is small: two tokens of a type average out their print).
    """
    types = tuple(types or layout.token_types())
    slots = layout.slots
    if len(slots) < len(types):
        raise ValueError(f"Board {layout.board} has {len(slots)} slots, fewer than the "
                         f"{len(types)} token types: calibrate its tokens on a larger board.")
    wanted = [t for _ in range(max(1, min(per_type, len(slots) // len(types)))) for t in types]
    step = len(slots) / len(wanted)
    return {slots[int(i * step + step / 2)].id: t for i, t in enumerate(wanted)}


def _measure(pipeline: Pipeline, board: str, frames) -> tuple[np.ndarray, np.ndarray | None]:
    means, patches = [], []
    for frame in frames:
        pipeline.process(frame)
        try:
            m, p = pipeline.measure(board)
        except LookupError:
            continue
        means.append(m)
        if p is not None:
            patches.append(p)
    if not means:
        raise LookupError(f"Board {board} was not found in any of the frames: check that its "
                          "markers are in view and not covered.")
    return np.median(means, 0), (np.median(patches, 0) if patches else None)


def capture_empty(pipeline: Pipeline, board: str, frames) -> Reference:
    """A fresh reference from frames of the empty board (token colours start empty)."""
    means, patch = _measure(pipeline, board, frames)
    layout = pipeline.boards[board].layout
    ref = Reference(board=board, empty=means.astype(np.float32),
                    patch=None if patch is None else patch.astype(np.float32),
                    slots=[s.id for s in layout.slots])
    pipeline.set_reference(board, ref)
    return ref


def capture_tokens(pipeline: Pipeline, board: str, frames, plan: dict[str, str]) -> Reference:
    """Add the token colours seen on the ``plan`` slots to the board's reference."""
    watch = pipeline.boards[board]
    ref = watch.reference
    if ref is None:
        raise LookupError(f"Board {board} has no empty-board capture yet: capture the empty board first.")
    means, patch = _measure(pipeline, board, frames)
    gain = patch_gain(ref, patch)
    index = {s.id: i for i, s in enumerate(watch.layout.slots)}
    for kind in dict.fromkeys(plan.values()):
        rows = [index[slot] for slot, k in plan.items() if k == kind]
        ref.tokens[kind] = token_centre(means[rows], ref.empty[rows], gain).astype(np.float32)
    pipeline.set_reference(board, ref)
    return ref
