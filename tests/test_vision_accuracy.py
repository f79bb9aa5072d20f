"""Per-slot accuracy on the synthetic camera: at least 2,000 slots under slant, uneven and coloured light,
drift of the light after calibration, blur, sensor noise and JPEG artefacts.

Most conditions show one board filling a small picture (about 1.1 px/mm); two show the whole
table at 1280 x 720 (about 0.75 px/mm).  Each condition is one table light and camera pose: the board is calibrated under it (empty board, then the
token plan), as the owner does once per table, and then read in fresh pictures with other tokens while the
light drifts by a few percent.  The target (issue 7) is a per-slot error of at most 0.1 %.
"""
import numpy as np

from tests.support.vision_scenes import layouts
from vision import synthetic as syn
from vision.pipeline import Pipeline
from vision.tokens import UNKNOWN


def _read_condition(layout, seed: int, pictures: int = 3):
    # a picture tall enough for a diet board (340 x 360 mm) at about 1 px/mm, as for the shopping list
    base = syn.board_scene(layout, seed, 480, max(360, round(layout.size_mm[1] * 1.32)))
    pipe = Pipeline({layout.board: layout})
    syn.calibrate(pipe, base, seed=seed * 100)
    ref = pipe.boards[layout.board].reference
    rng = np.random.default_rng(seed)
    results = []
    for k in range(pictures):
        tokens = syn.random_tokens(layout, rng)
        scene = syn.with_tokens(base, {layout.board: tokens}, seed * 1000 + k, light=syn.drifted(base.light, rng))
        img, truth = syn.render(scene)
        fresh = Pipeline({layout.board: layout}, {layout.board: ref})
        fresh.process(img)
        reading = fresh.boards[layout.board].reading
        assert reading is not None, f"board not read in condition {seed}"
        for slot, label in zip(layout.slots, reading.labels):
            results.append((truth["boards"][layout.board]["slots"][slot.id], label))
    return base, results


def _read_table(seed: int):
    """The whole table at 1280 x 720 (about 0.75 px/mm, as the benchmark's): five boards at once."""
    ls = layouts("shop", "diet-1", "diet-2", "diet-3", "diet-4")
    base = syn.table_scene(ls, seed, tokens={})
    pipe = Pipeline(ls)
    syn.calibrate(pipe, base, seed=seed * 100)
    rng = np.random.default_rng(seed)
    tokens = {b: syn.random_tokens(layout, rng) for b, layout in ls.items()}
    img, truth = syn.render(syn.with_tokens(base, tokens, seed * 1000, light=syn.drifted(base.light, rng)))
    fresh = Pipeline(ls, {b: w.reference for b, w in pipe.boards.items()})
    fresh.process(img)
    return base, [(truth["boards"][b]["slots"][s.id], label) for b, w in fresh.boards.items()
                  for s, label in zip(w.layout.slots, w.reading.labels)]


def test_per_slot_error_at_most_a_thousandth_over_2000_slots():
    results, conditions = [], []
    for layout, seeds in ((layouts("diet-1")["diet-1"], range(12)), (layouts("shop")["shop"], range(50, 54))):
        for seed in seeds:
            scene, res = _read_condition(layout, seed)
            results += res
            conditions.append(scene)
    for seed in (70, 71):
        scene, res = _read_table(seed)
        results += res
        conditions.append(scene)
    wrong = [(t, got) for t, got in results if t != got]
    guesses = [(t, got) for t, got in wrong if got != UNKNOWN]
    assert len(results) >= 2000
    # the conditions really vary: slant, light unevenness, blur, noise and JPEG quality
    assert max(abs(s.camera.pitch) for s in conditions) > 5 and max(s.light.gradient for s in conditions) > 0.25
    assert min(s.jpeg for s in conditions) < 75 and max(s.noise for s in conditions) > 3
    assert max(s.blur for s in conditions) > 1.0
    assert len(wrong) / len(results) <= 0.001, wrong
    assert not guesses, f"wrong token types (not 'unknown'): {guesses}"
    types = {t for t, _ in results if t}
    assert len(types) == 13          # every food type, the diet boards' action markers and the shopping token were seen


def test_a_token_never_calibrated_reads_unknown_not_a_guess():
    """A token type missing from the reference must not be read as some other type."""
    layout = layouts("diet-1")["diet-1"]
    base = syn.board_scene(layout, 3, hard=False)
    pipe = Pipeline({layout.board: layout})
    syn.calibrate(pipe, base)
    ref = pipe.boards[layout.board].reference
    del ref.tokens["water"]
    slots = [s.id for s in layout.slots[:10]]
    img, _ = syn.render(syn.with_tokens(base, {layout.board: {s: "water" for s in slots}}, 77))
    fresh = Pipeline({layout.board: layout}, {layout.board: ref})
    fresh.process(img)
    labels = dict(zip([s.id for s in layout.slots], fresh.boards[layout.board].reading.labels))
    assert {labels[s] for s in slots} == {UNKNOWN}
