"""Hands and changes: anything reaching a board's edge makes it busy (a still resting fingertip too);
a board whose light changed a lot since calibration asks for a new calibration and is still read slot by slot."""
from dataclasses import replace

import numpy as np

from tests.support.vision_scenes import calibrated, layouts, random_layout_tokens, run
from vision import scenes
from vision import synthetic as syn
from vision.pipeline import REREAD_EVERY, TURN_SLOTS, Pipeline
from vision.tokens import UNKNOWN


def _frames(s, tokens, seeds, hands=None):
    for seed in seeds:
        yield scenes.render(scenes.with_tokens(s, tokens, seed, hands))


def test_a_still_fingertip_resting_on_an_edge_space_keeps_the_board_busy():
    ls = layouts("diet-1", "diet-2")
    s = scenes.shot(ls, "easy", 21, width=960, height=540)
    rng = np.random.default_rng(21)
    tokens = {b: scenes.random_tokens(layout, rng) for b, layout in ls.items()}
    pipe = Pipeline(ls)
    for img, _ in _frames(s, tokens, range(4)):
        pipe.process(img)
    assert not pipe.status()["boards"]["diet-1"]["busy"]
    board = next(b for b in s.boards if b.layout.board == "diet-1")
    # a finger whose arm comes in away from diet-2 (the arm of seed 5 passes a few mm from its corner)
    finger = scenes.random_hand(s, np.random.default_rng(8), board, finger=True)
    busy, other = [], []
    for img, truth in _frames(s, tokens, range(10, 16), [finger]):    # the finger does not move
        assert truth["boards"]["diet-1"]["hand"] and not truth["boards"]["diet-2"]["hand"]
        pipe.process(img)
        st = pipe.status()["boards"]
        busy.append(st["diet-1"]["busy"])
        other.append(st["diet-2"]["busy"])
        assert st["diet-1"]["motion"]["edge_mm2"] > 0
    assert all(busy), busy
    assert not any(other[1:]), "the other board has no hand on it"
    for img, _ in _frames(s, tokens, range(30, 33)):       # the finger is gone
        pipe.process(img)
    assert not pipe.status()["boards"]["diet-1"]["busy"]


def test_a_board_whose_light_changed_a_lot_asks_for_calibration_and_is_still_read_slot_by_slot():
    """Issue 13: a board whose light changed a lot is reported (the calibrate page asks for a quick
    recalibration), but it is not blanked: each slot measures the light around it, so what is committed
    is what lies on the board, and a slot the camera is unsure of is left out, never guessed."""
    pipe, scene = calibrated(("diet-1",), seed=3, width=640, height=360, hard=False)
    tokens = random_layout_tokens(scene, 3)
    assert run(pipe, scene, tokens, 10, 100), "the board is read under the calibration's light"
    assert not pipe.status()["boards"]["diet-1"]["recalibrate"]
    dim = replace(scene.light, gain=tuple(g * 0.6 for g in scene.light.gain))    # a lamp switched off
    moved = {"diet-1": dict(list(tokens["diet-1"].items())[2:])}
    commits = []
    # past the periodic re-read of every part of a still board (one part every REREAD_EVERY frames):
    # the slots read after the change saw only a few others for the board's tint under the new light
    for i in range(REREAD_EVERY * -(-len(pipe.boards["diet-1"].layout.slots) // TURN_SLOTS) + 6):
        commits += pipe.process(syn.render(syn.with_tokens(scene, moved, 200 + i, light=dim))[0])
    board = pipe.status()["boards"]["diet-1"]
    assert board["recalibrate"] and board["light_change"] > 0.45      # more than the old rule's blanking
    slots = [s.id for s in pipe.boards["diet-1"].layout.slots]
    truth = {s: moved["diet-1"].get(s) for s in slots}
    read = dict(zip(slots, pipe.boards["diet-1"].reading.labels))
    assert not [s for s in slots if read[s] not in (truth[s], UNKNOWN)], "no slot is read as something else"
    assert sum(read[s] == truth[s] for s in slots) >= 0.95 * len(slots), "the board is read, not blanked"
    gone = [s for s in tokens["diet-1"] if s not in moved["diet-1"]]
    assert [read[s] for s in gone] == [None, None], "the tokens taken away read as empty spaces"
    assert all(v == truth[s] for c in commits for s, v in c["board"]["slots"].items())
