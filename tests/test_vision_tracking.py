"""Hands, bumps, covered markers and bad frames: the camera commits only what is true, once the table is still."""
import dataclasses

import cv2
import numpy as np
import pytest

from tests.support.vision_scenes import Frames, blow_out, expected_changes, layouts
from vision import synthetic as syn
from vision.pipeline import Pipeline, Settings
from vision.service import CameraService
from vision.sources import ReplaySource
from vision.tracker import SnapshotTracker

FPS = 30


def _board(seed=5, board="diet-1"):
    layout = layouts(board)[board]
    base = syn.board_scene(layout, seed)
    pipe = Pipeline({board: layout})
    syn.calibrate(pipe, base, seed=seed * 7)
    return layout, base, Pipeline({board: layout}, {board: pipe.boards[board].reference})


def _frames(pipe, scene, tokens, n, seed, hands=None, log=None):
    commits = []
    for i in range(n):
        img, _ = syn.render(syn.with_tokens(scene, tokens, seed + i, hands))
        got = pipe.process(img)
        commits += got
        if log is not None:
            log.append(got)
    return commits


def _settle(pipe, scene, tokens, seed=0):
    """The first still frames commit the whole board (the baseline)."""
    commits = _frames(pipe, scene, tokens, 10, seed)
    assert len(commits) == 1
    return commits[0]


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_hand_moves_tokens_no_commit_while_there_then_the_exact_change(seed):
    layout, scene, pipe = _board(seed)
    rng = np.random.default_rng(seed)
    before = {layout.board: syn.random_tokens(layout, rng)}
    baseline = _settle(pipe, scene, before)
    assert baseline["board"]["slots"] == {s.id: before[layout.board].get(s.id) for s in layout.slots}
    # the hand comes in, takes two tokens off, moves one to an empty slot, and leaves
    after = {layout.board: dict(before[layout.board])}
    taken = sorted(after[layout.board])[:3]
    moved = after[layout.board].pop(taken[0])
    after[layout.board].pop(taken[1])
    after[layout.board].pop(taken[2])
    empty = next(s.id for s in layout.slots if s.id not in before[layout.board])
    after[layout.board][empty] = moved
    bw, bh = layout.size_mm
    during = []
    for i in range(14):
        tip = (bw * (0.3 + 0.03 * i), bh * (0.5 - 0.01 * i))
        hand = [syn.Hand(tip=tip, origin=(bw * 0.4, bh * 2.5))]
        tokens = before if i < 5 else after
        during += _frames(pipe, scene, tokens, 1, 500 + i, hand)
    assert during == [], "committed while the hand was over the board"
    log = []
    commits = _frames(pipe, scene, after, 20, 900, log=log)
    assert len(commits) == 1
    # the whole view, exactly as the tokens now lie (so every change is in it)
    assert commits[0]["board"]["slots"] == {s.id: after[layout.board].get(s.id) for s in layout.slots}
    assert len(expected_changes(before, after, layout.board)) == 4
    latency = next(i for i, got in enumerate(log) if got) + 1
    assert latency / FPS <= 0.5, f"committed {latency} frames after the hand left"


def test_a_hand_resting_over_the_board_never_commits():
    layout, scene, pipe = _board(8)
    before = {layout.board: syn.random_tokens(layout, np.random.default_rng(8))}
    _settle(pipe, scene, before)
    bw, bh = layout.size_mm
    hand = [syn.Hand(tip=(bw * 0.5, bh * 0.45), origin=(bw * 0.5, bh * 2.5))]
    changed = {layout.board: {s.id: "water" for s in layout.slots[:20]}}
    assert _frames(pipe, scene, changed, 40, 100, hand) == []
    assert pipe.boards[layout.board].busy


def test_implausibly_many_changes_wait_for_a_second_look():
    slots = [f"s{i}" for i in range(20)]
    tr = SnapshotTracker("diet-1", slots, still_frames=4, max_changes=4)
    for _ in range(4):
        first = tr.update([None] * 20, False)
    assert first is not None                                 # the baseline
    glitch = ["water"] * 10 + [None] * 10
    assert [tr.update(glitch, False) for _ in range(4)] == [None] * 4
    assert tr.state == "held"
    # the glitch goes away: nothing was ever committed
    assert [tr.update([None] * 20, False) for _ in range(6)] == [None] * 6
    # a real big change is still there at the second look (half as long): committed then
    for _ in range(4):
        assert tr.update(glitch, False) is None
    out = [tr.update(glitch, False) for _ in range(2)]
    assert out[0] is None
    assert out[1]["board"]["slots"] == {**{f"s{i}": "water" for i in range(10)}, **{f"s{i}": None for i in range(10, 20)}}


def test_unsure_slots_keep_their_value_and_are_reported():
    tr = SnapshotTracker("diet-1", ["a", "b"], still_frames=2, max_changes=5)
    tr.update(["meat", None], False)
    assert tr.update(["meat", None], False)["board"]["slots"] == {"a": "meat", "b": None}
    tr.update(["unknown", "water"], False)
    assert tr.update(["unknown", "water"], False)["board"]["slots"] == {"b": "water"}     # not a guess for a
    tr.update(["unknown", "water"], False)
    assert tr.update(["unknown", "water"], False) is None           # nothing changed: nothing sent
    assert tr.unsure == ["a"] and tr.committed["a"] == "meat"


def _slot_error(pipe, scene, board):
    truth = syn.board_homography(scene, scene.boards[0])
    pts = pipe.boards[board].layout.slot_centres()[None].astype(np.float64)
    a = cv2.perspectiveTransform(pts, truth)[0]
    b = cv2.perspectiveTransform(pts, pipe.boards[board].fix.homography)[0]
    return float(np.abs(a - b).max())


@pytest.mark.parametrize("dx, dy, turn", [(12, -8, 1.5), (-30, 20, -4.0), (3, 0, 0.0)])
def test_board_bumped_the_homography_follows_and_nothing_is_committed(dx, dy, turn):
    layout, scene, pipe = _board(9)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(9))}
    _settle(pipe, scene, tokens)
    assert _slot_error(pipe, scene, layout.board) < 1.0
    place = scene.boards[0]
    bumped = dataclasses.replace(scene, boards=[dataclasses.replace(place, x=place.x + dx, y=place.y + dy,
                                                                     angle=place.angle + turn)])
    assert _frames(pipe, bumped, tokens, 20, 300) == []       # same tokens: nothing to commit
    assert _slot_error(pipe, bumped, layout.board) < 1.0
    assert pipe.boards[layout.board].fix.status == "ok"


def test_a_covered_marker_moves_nothing():
    layout, scene, pipe = _board(10)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(10))}
    _settle(pipe, scene, tokens)
    h_before = pipe.boards[layout.board].fix.homography.copy()
    # a hand reaching in over the top-right marker only
    x, y, size = layout.markers[min(layout.markers) + 1]
    hand = [syn.Hand(tip=(x + size / 2, y + size / 2), origin=(x + 400, y - 300), width_mm=60)]
    assert _frames(pipe, scene, tokens, 15, 400, hand) == []
    fix = pipe.boards[layout.board].fix
    assert fix.status == "partly_covered" and len(fix.seen) == len(layout.markers) - 1
    assert np.array_equal(fix.homography, h_before)
    assert _frames(pipe, scene, tokens, 12, 450) == []
    assert np.array_equal(pipe.boards[layout.board].fix.homography, h_before)


def test_dead_frames_are_reported_and_commit_nothing_then_reading_resumes():
    layout, scene, pipe = _board(11)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(11))}
    black = np.zeros((scene.camera.height, scene.camera.width, 3), np.uint8)
    good = [syn.render(syn.with_tokens(scene, tokens, 600 + i))[0] for i in range(12)]
    puts = []
    service = CameraService(Frames([black] * 20 + good), pipe, puts.append)
    for _ in range(20):
        service.step()
    assert puts == []
    cam = service.health()[0]
    assert cam["status"] == "down" and "blank" in cam["detail"]
    for _ in range(12):
        service.step()
    assert len(puts) == 1
    assert puts[0]["board"]["slots"] == {s.id: tokens[layout.board].get(s.id) for s in layout.slots}
    assert service.health()[0]["status"] == "ok"


def test_a_missing_camera_is_reported_and_nothing_crashes(tmp_path):
    layout = layouts("diet-1")["diet-1"]
    puts = []
    service = CameraService(ReplaySource(tmp_path / "no-such-folder"), Pipeline({"diet-1": layout}), puts.append)
    assert service.step() == [] and service.step() == []
    cam = service.health()[0]
    assert cam["status"] == "down" and "does not exist" in cam["detail"]
    assert puts == []
    off = CameraService(None, Pipeline({"diet-1": layout}), puts.append)
    assert off.step() == [] and off.health()[0]["status"] == "off"


def test_a_camera_that_stops_giving_frames_is_reported_and_reopened():
    layout = layouts("diet-1")["diet-1"]
    service = CameraService(Frames([]), Pipeline({"diet-1": layout}), lambda inp: None)
    for _ in range(30):
        service.step()
    assert service.health()[0]["status"] == "down"
    assert "No frames" in service.health()[0]["detail"] and not service.opened


def test_a_board_out_of_view_is_reported_and_never_committed():
    ls = layouts("diet-1", "diet-2")
    layout = ls["diet-1"]
    base = syn.board_scene(layout, 12)
    cal = Pipeline({"diet-1": layout})
    syn.calibrate(cal, base)
    pipe = Pipeline(ls, {"diet-1": cal.boards["diet-1"].reference}, Settings(search_every=5))
    puts = []
    service = CameraService(Frames([syn.render(syn.with_tokens(base, {}, 700 + i))[0] for i in range(12)]),
                            pipe, puts.append, expected={"diet-1", "diet-2"})
    for _ in range(12):
        service.step()
    assert [p["board"]["board"] for p in puts] == ["diet-1"]
    records = {r["name"]: r for r in service.health()}
    assert records["board diet-2"]["status"] == "down" and "not in view" in records["board diet-2"]["detail"]
    assert records["board diet-1"]["status"] == "ok"
    service.expected = None          # no boards list in the configuration: a missing board is no fault
    assert {r["name"]: r for r in service.health()}["board diet-2"]["status"] == "off"
    assert pipe.status()["boards"]["diet-2"]["status"] == "not_found"


def test_markers_stuck_by_eye_are_measured_from_one_picture():
    import cv2
    from vision.layout import Layout
    from vision.localize import measure_markers
    from vision.markers import detect, make_detector
    sample = layouts("diet-1")["diet-1"]
    data = sample.to_dict()
    data["markers"]["11"]["x"] -= 7
    data["markers"]["12"]["y"] -= 5
    data["markers"]["13"]["x"] += 4
    real = Layout.from_dict(data)
    scene = syn.board_scene(real, 4)
    img, _ = syn.render(scene)
    found = detect(make_detector(), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    measured = measure_markers(sample, found)
    for mid, (x, y, _) in real.markers.items():
        assert abs(measured[mid][0] - x) < 10 and abs(measured[mid][1] - y) < 10
    data["markers"] = {str(k): {"x": x, "y": y, "size": s} for k, (x, y, s) in measured.items()}
    pipe = Pipeline({"diet-1": Layout.from_dict(data)})
    pipe.process(img)
    fix = pipe.boards["diet-1"].fix
    assert fix.status == "ok" and fix.seen == sorted(real.markers)
    # the measured places are consistent with one homography: every marker corner lands within 2 px
    for mid in real.markers:
        there = cv2.perspectiveTransform(pipe.boards["diet-1"].layout.marker_corners(mid)[None].astype(np.float64),
                                         fix.homography)[0]
        assert np.abs(there - found[mid]).max() < 2.0


def test_too_few_markers_in_view_commits_nothing_until_they_are_back():
    layout, scene, pipe = _board(13)
    before = {layout.board: syn.random_tokens(layout, np.random.default_rng(13))}
    _settle(pipe, scene, before)
    after = {layout.board: {}}
    # all but two markers covered by cards lying on them (drawn as still hands from outside the picture)
    cards = [syn.Hand(tip=(x + s / 2, y + s / 2), origin=(x - 400 if x < 100 else x + 400, y + s / 2), width_mm=50)
             for x, y, s in (layout.markers[m] for m in sorted(layout.markers)[:-2])]
    assert _frames(pipe, scene, after, 30, 800, cards) == []
    assert pipe.boards[layout.board].fix.status == "covered"
    commits = _frames(pipe, scene, after, 20, 900)       # every token gone: a second look, then sent
    assert len(commits) == 1 and set(commits[0]["board"]["slots"].values()) == {None}


def test_a_lamp_switched_after_calibration_is_reported_and_only_what_lies_there_is_committed():
    """Issue 13: a lamp dimmed to 45 % while every token is taken off is reported on the health line,
    and it is a change of light, not a hand: the board is read again and committed as it lies (empty),
    never with a value that is not there (2987d29 ended the old rule's deciding nothing)."""
    layout, scene, pipe = _board(14)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(14))}
    _settle(pipe, scene, tokens)
    dim = dataclasses.replace(scene.light, gain=tuple(g * 0.45 for g in scene.light.gain))
    changed = {layout.board: {}}
    frames = [syn.render(syn.with_tokens(scene, changed, 1000 + i, light=dim))[0] for i in range(20)]
    puts = []
    service = CameraService(Frames(frames), pipe, puts.append)
    for _ in range(20):
        service.step()
    assert puts, "the still board under the dimmed lamp is read, not held busy as if a hand were over it"
    assert all(v is None for put in puts for v in put["board"]["slots"].values()), "only empty spaces lie there"
    board = {r["name"]: r for r in service.health()}["board diet-1"]
    assert "light changed since calibration" in board["detail"]


def test_markers_are_searched_near_where_they_were_not_in_the_whole_frame(monkeypatch):
    import vision.pipeline as pipeline_module
    layout, scene, pipe = _board(15)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(15))}
    whole = []
    real = pipeline_module.detect
    monkeypatch.setattr(pipeline_module, "detect", lambda det, grey, *a: whole.append(grey.shape) or real(det, grey, *a))
    _frames(pipe, scene, tokens, 40, 1100)
    assert len(whole) == 1                 # the first frame only: afterwards each board is followed locally
    assert pipe.boards[layout.board].fix.status == "ok"


@pytest.mark.parametrize("frame, status", [
    (None, "no_frame"), (np.zeros((48, 64), np.uint8), "no_frame"), ("not a picture", "no_frame"),
    (np.zeros((0, 0, 3), np.uint8), "no_frame"), (np.full((48, 64, 3), 200, np.uint8), "dead_frame"),
    (np.zeros((48, 64, 4), np.uint8), "dead_frame")])
def test_odd_frames_are_named_not_crashed_on(frame, status):
    pipe = Pipeline(layouts("shop"))
    assert pipe.process(frame) == []
    assert pipe.frame_status == status


def test_spaces_washed_out_by_a_reflection_are_named_on_the_health_line_with_what_to_do():
    """Issue 13: a lamp's reflection that blows out some spaces leaves them unsure, and nothing the camera
    does can read them; the owner is told which, and that shading or moving the light (or tilting the board)
    is the cure, so those spaces are not only "unsure"."""
    layout, scene, pipe = _board(15)
    tokens = {layout.board: syn.random_tokens(layout, np.random.default_rng(15))}
    frames = [syn.render(syn.with_tokens(scene, tokens, 2000 + i))[0] for i in range(24)]
    distance = blow_out(frames[12:], scene)          # a lamp's reflection in the second half
    service = CameraService(Frames(frames), pipe, lambda _: None)

    def settled() -> tuple[dict, dict]:
        """Step until the board lies still and is read (the tracker's still frames): its health, its status."""
        while pipe.status()["boards"]["diet-1"]["tracker"] != "still":
            assert service.source.frames, "the frames ran out before the board was read"
            service.step()
        return {r["name"]: r for r in service.health()}["board diet-1"], pipe.status()["boards"]["diet-1"]

    board, _ = settled()
    assert "glare" not in board["detail"], board["detail"]
    while len(service.source.frames) > 11:           # on to the reflection's first frame: read again once still
        service.step()
    board, status = settled()
    glared = status["glare"]
    assert {s for s, d in distance.items() if d <= 1.0} <= set(glared), (glared, board["detail"])
    assert all(distance[s] < 2.0 for s in glared), "only spaces the reflection reaches"
    assert f"glare: {len(glared)} spaces (" in board["detail"] and "shade or move the lamp" in board["detail"]
    assert board["glare"] == len(glared), "the count the TV tells the players"
    assert not set(glared) & set(board["detail"].split("unsure: ")[-1].split(", ")), "said once, with its cure"
