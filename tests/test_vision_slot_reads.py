"""Which slots the camera reads, and when (issue 20): after a change only the slots whose window
changed, with a few spread over the board for its light; every board read again in turn, a part
of one board at a time, never all at once."""
from collections import Counter

import cv2
import numpy as np

import vision.classify as classify_module
import vision.pipeline as pipeline_module
from tests.support.vision_scenes import calibrated, expected_changes, random_layout_tokens
from vision import synthetic as syn
from vision.classify import Reference, classify
from vision.pipeline import LIGHT_SLOTS, TURN_SLOTS


def _counting(monkeypatch) -> list[tuple[str, int]]:
    """Every classification the pipeline makes, as (board, slots read)."""
    calls = []
    real = pipeline_module.classify

    def counted(reference, windows, *args, **kwargs):
        calls.append((reference.board, len(windows)))
        return real(reference, windows, *args, **kwargs)
    monkeypatch.setattr(pipeline_module, "classify", counted)
    return calls


def _frames(pipe, scene, tokens, n, seed, hands=None):
    commits = []
    for i in range(n):
        commits += pipe.process(syn.render(syn.with_tokens(scene, tokens, seed + i, hands))[0])
    return commits


def test_after_a_hand_only_the_changed_slots_are_read_and_a_close_colour_swap_is_seen(monkeypatch):
    pipe, scene = calibrated(("diet-1",), seed=4, width=960, height=540, hard=False)
    layout = pipe.boards["diet-1"].layout
    dairy = [s.id for s in layout.slots if s.id.startswith("body.dairy.")]
    fats = [s.id for s in layout.slots if s.id.startswith("body.fats.")]
    before = {"diet-1": {dairy[0]: "dairy", dairy[1]: "dairy", fats[0]: "fats"}}
    assert _frames(pipe, scene, before, 12, 100), "the board is read and committed whole first"
    calls = _counting(monkeypatch)
    monkeypatch.setattr(pipeline_module, "REREAD_EVERY", 10**6)     # no board's turn now (the test below)
    # a hand swaps a dairy token for fats (pale yellow for cream: close in grey) and takes the fats one away
    after = {"diet-1": {dairy[0]: "fats", dairy[1]: "dairy"}}
    w, h = layout.size_mm
    place = next(p for p in scene.boards if p.layout.board == "diet-1")
    hand = syn.Hand((place.x + w / 2, place.y + h / 2), (place.x + w / 2, place.y + h + 1000))
    assert _frames(pipe, scene, after, 3, 200, [hand]) == [], "nothing is decided under the hand"
    commits = _frames(pipe, scene, after, 12, 300)
    assert [c["board"]["slots"][s] for c in commits for s in (dairy[0], fats[0])] == ["fats", None]
    assert expected_changes(before, after, "diet-1") == {dairy[0]: "fats", fats[0]: None}
    parts = [n for board, n in calls if n < len(layout.slots)]
    assert parts and max(parts) <= LIGHT_SLOTS + 4, f"a few slots are read, not the board's {len(layout.slots)}: {calls}"
    # the board's whole reading is what lies on it (the slots not read again kept their right values)
    read = dict(zip([s.id for s in layout.slots], pipe.boards["diet-1"].reading.labels))
    assert read == {s.id: after["diet-1"].get(s.id) for s in layout.slots}


def test_a_still_table_is_read_whole_in_turn_a_part_of_one_board_at_a_time(monkeypatch):
    pipe, scene = calibrated(("shop", "diet-1", "diet-2"), seed=2, width=960, height=540, hard=False)
    rng = np.random.default_rng(2)
    tokens = {p.layout.board: syn.random_tokens(p.layout, rng) for p in scene.boards}
    _frames(pipe, scene, tokens, 12, 400)
    monkeypatch.setattr(pipeline_module, "REREAD_EVERY", 2)      # (fewer frames to render)
    read = []
    real = pipeline_module.classify
    monkeypatch.setattr(pipeline_module, "classify",
                        lambda reference, *a, slots=None, **kw: read.append(
                            (reference.board, list(reference.slots) if slots is None
                             else [reference.slots[i] for i in slots]))
                        or real(reference, *a, slots=slots, **kw))
    sizes = {b: len(w.layout.slots) for b, w in pipe.boards.items()}
    parts = sum(-(-n // TURN_SLOTS) for n in sizes.values())
    assert parts > len(sizes), "the diet boards are read in several parts"
    _frames(pipe, scene, tokens, 2 * 2 * parts, 500)
    # a Pi's budget is not spent all at once: one board a frame, and a part of it, in turn
    assert len(read) == 2 * parts, "one part every REREAD_EVERY frames, nothing else read"
    assert max(len(slots) for _, slots in read) <= TURN_SLOTS + LIGHT_SLOTS
    for board, n in sizes.items():
        times = Counter(slot for b, slots in read if b == board for slot in slots)
        assert len(times) == n and min(times.values()) >= 2, f"every slot of {board} read again twice"


def test_a_partial_read_reads_its_slots_as_the_whole_read_does_without_rebuilding_the_reference(monkeypatch):
    pipe, scene = calibrated(("diet-1",), seed=4, width=960, height=540, hard=False)
    watch = pipe.boards["diet-1"]
    tokens = random_layout_tokens(scene, 5)
    img = syn.render(syn.with_tokens(scene, tokens, 600))[0]
    pipe.process(img)
    whole = classify(watch.reference, cv2.remap(img, *watch.maps, cv2.INTER_LINEAR), watch.window)
    slots = np.flatnonzero(np.array([label is not None for label in whole.labels]))[::3]
    assert len(slots) >= 5 and len(set(whole.labels[i] for i in slots)) >= 3, "several token types among the slots"
    built = []
    real = classify_module._near
    monkeypatch.setattr(classify_module, "_near", lambda *a: built.append(1) or real(*a))
    windows = cv2.remap(img, watch.maps[0][slots], watch.maps[1][slots], cv2.INTER_LINEAR)
    part = classify(watch.reference, windows, watch.window, slots=slots)
    assert part.labels == [whole.labels[i] for i in slots]
    assert np.allclose(part.confidence, whole.confidence[slots])
    assert built == [], "the empty board's near-sample extremes are not computed again for a partial read"


def test_the_empty_boards_pixel_of_play_stays_inside_each_slots_window():
    # two slots' windows, one dark and one pale, stacked as the reference keeps them: the pale one's edge
    # rows must not take the dark one's grey as a "darkest look nearby" (nor the dark one the pale's)
    side = 5
    empty = np.stack([np.full((side * side, 3), 60, np.uint8), np.full((side * side, 3), 200, np.uint8)])
    ref = Reference(board="b", empty=empty, white=np.full((2, 3), 220, np.float32), patch=None)
    look = ref.empty_look()
    assert (look.lo[1] == 200).all() and (look.hi[0] == 60).all()
    assert (look.lo[0] == 60).all() and (look.hi[1] == 200).all()
