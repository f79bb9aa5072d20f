"""Hands and changes: anything reaching a board's edge makes it busy (a still resting fingertip too);
a board whose light changed a lot since calibration asks for a new calibration and is still read slot by slot."""
from dataclasses import replace

import numpy as np

from tests.support.vision_scenes import calibrated, layouts, random_layout_tokens, run
from vision import scenes
from vision import synthetic as syn
from vision.lens import Lens
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


def _medium_table(seed):
    """A medium-level shot of diet-1 and the shop whose light after calibration has a person's shadow
    across diet-1's right edge and a glare spot on the shop's left edge (both as strong as the level
    makes them), its pipeline calibrated under the calibration's light, and diet-1's shadowed edge space."""
    ls = layouts("diet-1", "shop")
    s = scenes.shot(ls, "medium", seed)
    diet, shop = (next(b for b in s.boards if b.layout.board == n) for n in ("diet-1", "shop"))
    w, h = diet.layout.size_mm
    edge = diet.pose() @ (w, h / 2, 1)
    sh = shop.layout.size_mm[1]
    glare = scenes.board_homography(s, shop) @ (0, sh / 2, 1)
    light = replace(s.light, shadows=[(float(edge[0]), float(edge[1]), 260.0, 90.0, 0.6)],
                    glare=[(glare[0] / glare[2] / s.camera.width, glare[1] / glare[2] / s.camera.height, 0.04, 90.0)])
    s = replace(s, light=light)
    pipe = Pipeline(ls, lens=Lens(*s.lens(), size=(s.camera.width, s.camera.height)))
    syn.calibrate(pipe, s, picture=lambda tokens, n: scenes.render(scenes.calibration_shot(s, tokens, n))[0])
    space = max((sl for sl in diet.layout.slots if sl.x > w - 40), key=lambda sl: -abs(sl.y - h / 2))
    return s, pipe, diet, space


def _held_then_committed(pipe, s, tokens, hand, free, seed):
    """``hand`` held still over diet-1 while ``free`` gets a grain token: busy on every frame and nothing
    committed; then the hand gone: frames until diet-1's commit (at most 15), which must hold the grain."""
    after = {**tokens, "diet-1": {**tokens["diet-1"], free: "grain"}}
    for img, truth in _frames(s, after, range(seed, seed + 8), [hand]):       # the hand does not move
        assert truth["boards"]["diet-1"]["hand"]
        assert pipe.process(img) == [], "nothing is committed while the hand is over the board"
        assert pipe.status()["boards"]["diet-1"]["busy"]
    for n, (img, _) in enumerate(_frames(s, after, range(seed + 100, seed + 115)), 1):
        got = [c for c in pipe.process(img) if c["board"]["board"] == "diet-1"]
        if got:
            assert got[0]["board"]["slots"][free] == "grain"
            tokens["diet-1"] = after["diet-1"]
            return n
    raise AssertionError("diet-1 was not committed within 15 frames of the hand leaving")


def test_a_still_shadow_and_glare_are_light_but_a_resting_fingertip_or_a_still_arm_is_a_hand():
    """Issues 13/14 (the physical-first medium games that stalled): a person's shadow across a board's
    edge and a glare spot on another's, still since calibration, change the light, not what lies there:
    both boards are read and committed as they lie.  In that light a fingertip resting from the side on
    the shadowed edge space, and then a still arm of the lightest skin in a grey sleeve (the colour of no
    print) reaching from the picture's edge over the board's middle, each keep the board busy with
    nothing committed while a token is laid; once each is gone the board is committed within 0.5 s at
    30 fps (issue 13's hands target).  The finger has the darkest of the renderer's skins: in that
    0.6-deep shadow the lightest one is not held yet (bench/README.md, Camera)."""
    s, pipe, diet, space = _medium_table(31)
    rng = np.random.default_rng(31)
    tokens = {b.layout.board: scenes.random_tokens(b.layout, rng) for b in s.boards}
    tokens["diet-1"].pop(space.id, None)
    commits = []
    for img, _ in _frames(s, tokens, range(12)):
        commits += pipe.process(img)
    status = pipe.status()["boards"]
    assert not status["diet-1"]["busy"] and not status["shop"]["busy"], status
    assert {c["board"]["board"] for c in commits} == {"diet-1", "shop"}, "both boards are committed"
    wrong = {(c["board"]["board"], slot): v for c in commits for slot, v in c["board"]["slots"].items()
             if v not in (tokens[c["board"]["board"]].get(slot), UNKNOWN)}
    assert not wrong, wrong
    free = [sl.id for sl in diet.layout.slots if sl.id not in tokens["diet-1"] and sl.id != space.id]
    tip = diet.pose() @ (space.x, space.y, 1)
    out = diet.pose()[:2, :2] @ (1.0, 0.0)
    finger = scenes.Hand(tip=(float(tip[0]), float(tip[1])), origin=tuple(float(v) for v in tip[:2] + out * 700),
                         skin=scenes.SKINS[3], sleeve=(200, 200, 200), finger=True)
    assert _held_then_committed(pipe, s, tokens, finger, free[0], 100) / 30 <= 0.5
    w, h = diet.layout.size_mm
    middle = diet.pose() @ (w / 2, h / 2, 1)
    arm = scenes.Hand(tip=(float(middle[0]), float(middle[1])), origin=(float(middle[0]) + 100, 1400.0),
                      skin=scenes.SKINS[0], sleeve=(150, 150, 150))
    assert _held_then_committed(pipe, s, tokens, arm, free[1], 300) / 30 <= 0.5


def test_something_that_differs_from_the_print_in_colour_alone_is_seen_within_a_frame():
    """Issue 20 (a Pi's CPU) beside issue 13's hands target: a still board is looked at every other frame
    while no cell's grey moves, so a fingertip of the print's own grey but another colour, appearing at the
    board's edge without moving any grey, must still make the board busy by the next frame, whichever
    frame it comes in (the tracker wants several still frames before a commit, so nothing is committed
    under it), and keep it busy while it stays."""
    import cv2

    from vision.motion import CHANGE, MotionDetector

    layout = layouts("diet-1")["diet-1"]
    w, h = (int(v) for v in layout.size_mm)
    print_bgr, finger_bgr = (120, 140, 160), (200, 120, 182)       # one grey (143.7 and 147.7), two colours
    grey = lambda bgr: 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]
    assert abs(grey(finger_bgr) - grey(print_bgr)) < CHANGE / 4
    rng = np.random.default_rng(5)

    def frame(finger: bool) -> np.ndarray:      # the board 1 px a mm, a fingertip 20 mm wide on its left edge
        img = np.empty((h, w, 3), np.uint8)
        img[:] = print_bgr
        if finger:
            img[h // 2 - 10:h // 2 + 10, :20] = finger_bgr
        return np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)

    for arrives_after in (6, 7):        # after a frame looked at, and after one passed over
        motion = MotionDetector(layout)
        motion.set_view(lambda pts: pts, 0.5)
        verdicts = []
        for i in range(arrives_after + 6):
            img = frame(i >= arrives_after)
            small = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (w // 2, h // 2), interpolation=cv2.INTER_AREA)
            verdicts.append(motion.update(small, img))
        assert not any(verdicts[2:arrives_after]), "the empty board lies still"
        assert all(verdicts[arrives_after + 1:]), f"seen at most a frame late and held: {verdicts}"
