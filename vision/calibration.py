"""Calibration captures: the empty board, and one token of each type on planned slots.

Both are taken from a few consecutive frames of the live camera (or from
still images) and saved as a :class:`vision.classify.Reference` per board in
``DATA/vision/reference/``.  The empty capture must come first (a token is
found as a difference from the empty board, and its colour is taken relative
to the board's paper); either can be redone at any time.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .classify import TOKEN_DIFF, Reference, Window, fit_paper, paper_points, read_windows, spreads, token_look
from .layout import Layout
from .pipeline import Pipeline


def reference_dir(data_dir: str | Path) -> Path:
    """Where the table's colour references live."""
    return Path(data_dir) / "vision" / "reference"


def token_plan(layout: Layout, types: tuple[str, ...] | None = None, per_type: int = 4) -> dict[str, str]:
    """Which slot gets which token type for the colour session, spread evenly over the board.

    ``types`` defaults to the layout's token types; each gets ``per_type`` slots (fewer when the
    board is small), on differently printed spaces all over the board, so that what is learnt is the
    token's own colour and how much it varies, not one space's print nor one part of the picture.  Not
    only where it lies in play (its regions' ``holds``): a diet board's markers learnt on its marker
    spaces alone, at the board's sides, read worse everywhere (issue 13's tuning render, 2026-11-26).
    A type with spaces of its own (a region named after it, as Food for Thought's dice have: a die on
    ``die.row.<n>`` or ``die.col.<n>`` shows n) is laid on every one of them instead, so each of its
    looks is learnt.
    """
    types = tuple(types or layout.token_types())
    plan = {s.id: s.region for s in layout.slots if s.region in types}
    slots = [s for s in layout.slots if s.id not in plan]
    spread = [t for t in types if t not in plan.values()]
    if len(slots) < len(spread):
        raise ValueError(f"Board {layout.board} has {len(slots)} slots, fewer than the "
                         f"{len(spread)} token types: calibrate its tokens on a larger board.")
    if not spread:
        return plan
    wanted = [t for _ in range(max(1, min(per_type, len(slots) // len(spread)))) for t in spread]
    step = len(slots) / len(wanted)
    return plan | {slots[int(i * step + step / 2)].id: t for i, t in enumerate(wanted)}


#: One frame's slot windows (N, K, 3), patch colour, the board's coarse grey view, its paper samples (P, 3)
#: and its place (homography, board mm -> straightened picture px).
Sample = tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]


def measure(pipeline: Pipeline, board: str, frames) -> list[Sample]:
    """Run still frames through the pipeline and measure ``board`` in each one it is found in."""
    samples = []
    for frame in frames:
        pipeline.process(frame)
        try:
            samples.append(pipeline.measure(board))
        except LookupError:
            continue
    return samples


def _median(board: str, samples: list[Sample]) -> Sample:
    if not samples:
        raise LookupError(f"Board {board} was not found in any of the frames: check that its "
                          "markers are in view and not covered; if they are, they may be seen too small "
                          "(`tofu-table markers --camera-height METRES` says whether they are big enough).")
    patches = [s[1] for s in samples if s[1] is not None]
    return (np.median([s[0] for s in samples], 0).astype(np.uint8), (np.median(patches, 0) if patches else None),
            np.median([s[2] for s in samples], 0).astype(np.uint8), np.median([s[3] for s in samples], 0),
            np.median([s[4] / s[4][2, 2] for s in samples], 0))


def empty_reference(layout: Layout, samples: list[Sample]) -> Reference:
    """A fresh reference from measurements of the empty board (no token colours yet)."""
    windows, patch, view, paper, place = _median(layout.board, samples)
    centres = layout.slot_centres()
    white = fit_paper(paper_points(layout), paper, centres)
    if white is None:     # no plain paper to speak of: the grey patch stands for it (the light taken as even)
        grey = np.full(3, 128, np.float32) if patch is None else np.asarray(patch, np.float32)
        white = np.tile(grey, (len(centres), 1))
    return Reference(board=layout.board, empty=windows, white=white.astype(np.float32),
                     patch=None if patch is None else patch.astype(np.float32),
                     slots=[s.id for s in layout.slots],
                     centres=np.round(layout.slot_centres(), 2).tolist(), view=view, place=place)


def _listed(slots: list[str]) -> str:
    """The first six of ``slots`` named: "a, b, c ..."."""
    return f"{', '.join(slots[:6])}{' ...' if len(slots) > 6 else ''}"


def add_token_colours(reference: Reference, layout: Layout, samples: list[Sample],
                      plan: dict[str, str]) -> tuple[Reference, list[str]]:
    """Set the colours of the token types lying on the ``plan`` slots (other types are kept); returns
    the reference and notes for the owner.

    A type is learnt from those of its plan spaces where a token is seen, at least half of those not
    washed out: a token on a space printed in nearly its colour may not stand out, and one washed out to
    white by a bright spot tells nothing of its colour (a note names its spaces; a pale type under a lamp
    may keep one space of four).  Fewer refuse the capture with what to do, and nothing is learnt from it.
    """
    looks = read_windows(reference, _median(layout.board, samples)[0], Window.for_token(layout.token_mm))
    index = {s.id: i for i, s in enumerate(layout.slots)}
    unseen, bright, washed, found = [], [], [], {}
    for kind in dict.fromkeys(plan.values()):
        spaces = [slot for slot, k in plan.items() if k == kind]
        white = [slot for slot in spaces if looks.clipped[index[slot]]]
        seen = [index[slot] for slot in spaces if slot not in white
                and looks.usable[index[slot]] and looks.diff[index[slot]] >= TOKEN_DIFF]
        if seen and len(seen) * 2 >= len(spaces) - len(white):
            # those not seen look like the empty board (a space printed in nearly the token's colour) or
            # are washed out: the type is learnt from the others
            found[kind] = token_look(looks.colour[seen])
            washed += white
        elif white:
            bright += white
        else:
            # those look like the empty board: no token was laid there
            unseen.append((kind, [slot for slot in spaces if index[slot] not in seen]))
    if bright:
        raise LookupError(f"Too bright to read on {_listed(bright)}: glare or an over-exposed picture washes the "
                          "tokens there out to white. Move or dim the lamp (or shade the window) so no bright "
                          "spot lies on the board, lower the camera's exposure if the whole picture is pale "
                          "(the Pi camera: `exposure = 0.7` under [camera] in config.toml, then restart the "
                          "table and capture the empty board again), then capture again.")
    if unseen:
        raise LookupError(f"No token seen on {_listed([s for _, spaces in unseen for s in spaces])}: lay "
                          f"{', '.join(k for k, _ in unseen)} there as the plan shows, then capture again.")
    reference.tokens.update(found)
    notes = [f"Too bright on {_listed(washed)}: left out, each colour learnt from the plan's other spaces. If a "
             "bright spot lies there in play too, the camera cannot read a token there: move or dim the lamp."
             ] if washed else []
    return reference, notes


def confusable(reference: Reference, limit: float = 4.0) -> list[tuple]:
    """Pairs of token types whose colours lie closer than ``limit`` spreads: tell the owner."""
    names = list(reference.tokens)
    if not names:
        return []
    centre, spread = spreads(reference)
    out = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            # (a look saved before the icon's pattern was learnt has none: the pair compared on the rest)
            d = float(np.sqrt(np.nansum(((centre[i] - centre[j]) / spread) ** 2)))
            if d < limit:
                out.append((names[i], names[j], round(d, 1)))
    return out


def capture_empty(pipeline: Pipeline, board: str, frames) -> Reference:
    """Calibrate the empty board from still frames and use it in ``pipeline``."""
    ref = empty_reference(pipeline.boards[board].layout, measure(pipeline, board, frames))
    pipeline.set_reference(board, ref)
    return ref


def capture_tokens(pipeline: Pipeline, board: str, frames, plan: dict[str, str]) -> Reference:
    """Calibrate token colours from still frames of the ``plan`` and use them in ``pipeline``."""
    watch = pipeline.boards[board]
    if watch.reference is None:
        raise LookupError(f"Board {board} has no empty-board capture yet: capture the empty board first.")
    ref, _notes = add_token_colours(watch.reference, watch.layout, measure(pipeline, board, frames), plan)
    pipeline.set_reference(board, ref)
    return ref
