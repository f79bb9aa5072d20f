"""The camera does less when nothing needs it (issue 20): it rests at one frame a second while the
running game watches no board, and the pipeline skips a frame in which nothing changed while every
board lies still, yet still sees a token laid at once and looks at the table every second; a
table still for a while is looked at a few times a second until something changes."""
import dataclasses
import threading
import time

import cv2
import numpy as np
import pytest

from server.context import TableContext
from tests.support.hardware_helpers import wait_for
from tests.support.tofu_god import new_game as tofu_god_game
from tests.support.vision_scenes import calibrated, layouts, random_layout_tokens
from vision import camera, service as camera_service
from vision import synthetic as syn
from vision.config import CameraConfig, CameraConfigError
from vision import pipeline as pipeline_module
from vision.pipeline import Pipeline
from vision.service import CameraService
from vision.sources import FrameSource


class _Looping(FrameSource):
    """Hands out its pictures in turn, for ever, noting when each was read."""

    name = "test"

    def __init__(self, frames):
        self.frames, self.reads = list(frames), []

    def read(self):
        frame = self.frames[len(self.reads) % len(self.frames)]
        self.reads.append(time.monotonic())
        return frame


def _still_board(seed=13, noise=3.0):
    """A calibrated pipeline on one board, and its scene with a camera's sensor noise."""
    layout = layouts("diet-1")["diet-1"]
    scene = syn.board_scene(layout, seed)
    cal = Pipeline({"diet-1": layout})
    syn.calibrate(cal, scene, seed=seed * 7)
    return layout, dataclasses.replace(scene, noise=noise), Pipeline({"diet-1": layout},
                                                                      {"diet-1": cal.boards["diet-1"].reference})


def _renders(scene, tokens, seeds, hands=None):
    return [syn.render(syn.with_tokens(scene, tokens, seed, hands))[0] for seed in seeds]


def test_a_still_board_is_not_looked_at_again_but_a_token_laid_is_seen_at_once(monkeypatch):
    monkeypatch.setattr(camera_service, "FULL_PASS_S", 3600.0)     # no full pass due during the test
    layout, scene, pipe = _still_board()
    tokens = {"diet-1": syn.random_tokens(layout, np.random.default_rng(13))}
    puts = []
    service = CameraService(_Looping(_renders(scene, tokens, range(100, 112))), pipe, puts.append)
    for _ in range(12):
        service.step()
    assert len(puts) == 1 and pipe.at_rest()         # the baseline, then still
    taken = pipe.frame_no
    for _ in range(24):                              # new pictures, nothing but the sensor's noise in them
        service.step()
    assert pipe.frame_no == taken and len(service.source.reads) == 36
    laid = next(s.id for s in layout.slots if s.id not in tokens["diet-1"])
    after = {"diet-1": {**tokens["diet-1"], laid: "grain"}}
    service.source.frames = _renders(scene, after, range(200, 212))
    for _ in range(12):
        service.step()
    assert len(puts) == 2 and puts[1]["board"]["slots"][laid] == "grain"
    bw, bh = layout.size_mm
    hand = [syn.Hand(tip=(bw * 0.4, bh * 0.5), origin=(bw * 0.4, bh * 2.5))]
    service.source.frames = _renders(scene, after, range(300, 304), hand)
    taken = pipe.frame_no
    for _ in range(4):
        service.step()
    assert pipe.frame_no == taken + 4 and pipe.status()["boards"]["diet-1"]["busy"]


def test_a_still_table_is_still_looked_at_every_full_pass(monkeypatch):
    monkeypatch.setattr(camera_service, "FULL_PASS_S", 0.3)
    layout, scene, pipe = _still_board()
    service = CameraService(_Looping(_renders(scene, {}, range(400, 410))), pipe, lambda inp: None)
    wait_for(lambda: service.step() is not None and pipe.at_rest(), what="the board still")
    taken, since = pipe.frame_no, time.monotonic()
    wait_for(lambda: service.step() is not None and pipe.frame_no > taken, what="the next full pass")
    assert time.monotonic() - since >= 0.3 * 0.9
    assert len(service.source.reads) > pipe.frame_no          # frames in between were skipped


def test_a_table_still_for_long_is_looked_at_every_deep_full_pass(monkeypatch):
    # issue 20: dozing deeply, the pipeline takes a frame in which nothing changed only every
    # DEEP_FULL_PASS_S (its full pass was most of the deeply dozing camera's CPU), not every FULL_PASS_S
    monkeypatch.setattr(camera_service, "FULL_PASS_S", 0.05)
    monkeypatch.setattr(camera_service, "DEEP_FULL_PASS_S", 0.5)
    layout, scene, pipe = _still_board()
    service = CameraService(_Looping(_renders(scene, {}, range(400, 410))), pipe, lambda inp: None,
                            doze=(0.0, 5.0), deep_doze=(0.0, 2.0))
    wait_for(lambda: service.step() is not None and pipe.at_rest(), what="the board still")
    assert service.dozing_deeply()
    taken, since = pipe.frame_no, time.monotonic()
    wait_for(lambda: service.step() is not None and pipe.frame_no > taken, what="the next full pass")
    assert time.monotonic() - since >= 0.5 * 0.9


def test_the_camera_rests_while_no_board_is_watched_and_wakes_when_one_is():
    frame = np.random.default_rng(1).integers(0, 255, (180, 320, 3), np.uint8)
    service = CameraService(_Looping([frame]), Pipeline(layouts("diet-1")), lambda inp: None, fps=30)
    service.watch(False)
    service.start()
    try:
        reads = service.source.reads
        wait_for(lambda: len(reads) >= 3, timeout=5, what="three frames at rest")
        assert min(b - a for a, b in zip(reads, reads[1:3])) >= 1 / camera_service.RESTING_FPS - 0.05
        cam = service.health()[0]
        assert cam["status"] == "ok" and "resting" in cam["detail"]
        service.watch(True)               # 30 frames at rest would take 30 s
        start = len(reads)
        wait_for(lambda: len(reads) >= start + 30, timeout=5, what="30 frames at the full rate")
        assert service.health()[0]["detail"] == ""
        service.watch(False)
        wait_for(lambda: "resting" in service.health()[0]["detail"], what="resting again")
        assert service.jpeg() is not None      # someone looks at the pictures: the full rate again
        start = len(reads)
        wait_for(lambda: len(reads) >= start + 30, timeout=5, what="30 frames while looked at")
    finally:
        service.stop()


def test_the_camera_watches_while_the_running_game_watches_a_board(tmp_path):
    """How vision/ learns it without importing a game: ``games.boards`` of the table's state."""
    ctx = TableContext.open(tmp_path, simulate=True)
    service = camera.build(ctx)
    assert not service.watched                                   # no game
    accepted = ctx.table.handle({"new_game": {"game": "food-for-thought", "players": ["Ann", "Ben"],
                                              "seed": 1, "options": {"data": "sample"}}})
    assert accepted.accepted and service.watched
    assert ctx.table.handle(tofu_god_game(["Ann", "Ben", "Cy"])).accepted
    assert not service.watched


def _nice(tid: int) -> int:
    """A thread's nice level as the OS has it (/proc: the 19th field of its stat line)."""
    stat = open(f"/proc/self/task/{tid}/stat").read()
    return int(stat.rsplit(")", 1)[1].split()[16])


def test_the_camera_thread_yields_the_cpu_to_the_readers_and_the_server():
    # on a short CPU budget (a Pi's) the readers' and the server's threads are run first: the camera
    # thread is CAMERA_NICE levels below the rest of the process
    source = _Looping([np.full((90, 160, 3), 128, np.uint8)])
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30)
    svc.start()
    try:
        wait_for(lambda: len(source.reads) >= 2, timeout=10)
        assert _nice(svc._thread.native_id) == min(19, _nice(threading.get_native_id()) + camera_service.CAMERA_NICE)
        assert camera_service.CAMERA_NICE >= 5
    finally:
        svc.stop()


def test_an_idle_camera_gives_the_heaps_free_memory_back_now_and_then_but_not_during_play(monkeypatch):
    # issue 20: each frame frees pictures of megabytes into the heaps, which keep them unless asked;
    # the camera thread asks every TRIM_EVERY_S while it dozes or rests (12-16 MiB of an idle table's
    # memory at 1280x720), never while the table changes (a trim locks the heaps the inputs need)
    trims = []
    monkeypatch.setattr(camera_service, "TRIM_EVERY_S", 0.05)
    monkeypatch.setattr(camera_service, "DOZE_AFTER_S", 1.0)     # frames of a loaded machine come well inside it
    monkeypatch.setattr(camera_service, "give_back_free_memory", lambda: trims.append(time.monotonic()))
    rng = np.random.default_rng(6)
    moving = [rng.integers(60, 200, (90, 160, 3), dtype=np.uint8) for _ in range(2)]    # a hand waving
    source = _Looping(moving)
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30)
    svc.start()
    try:
        # until its first frames show the hand, a camera that started slowly (settling the process takes a
        # while on a loaded machine) may doze and trim once, as at any still start: play is counted from there
        wait_for(lambda: len(source.reads) >= 2 and not svc.dozing(), timeout=10, what="the hand seen")
        seen = len(source.reads)
        wait_for(lambda: len(source.reads) >= seen + 2, timeout=10, what="the frame after")
        trims.clear()
        seen = len(source.reads)
        wait_for(lambda: len(source.reads) >= seen + 30, timeout=10, what="a second of play")
        assert trims == [] and not svc.dozing()
        source.frames = moving[:1]                          # the table lies still
        wait_for(lambda: len(trims) >= 3, timeout=10, what="three trims")
    finally:
        svc.stop()
    assert min(b - a for a, b in zip(trims, trims[1:])) >= 0.05 * 0.9      # not at every frame


def test_a_resting_camera_gives_back_what_each_frame_freed_before_the_next_frame(monkeypatch):
    # issue 20: a game that watches no board leaves the camera resting (a frame a second); each frame
    # frees pictures of megabytes into the heaps, given back right after that frame, not only every
    # other frame (the idle table then held the last frame's 3-4 MiB half the time)
    events = []
    monkeypatch.setattr(camera_service, "RESTING_FPS", 20.0)
    monkeypatch.setattr(camera_service, "give_back_free_memory", lambda: events.append("t"))
    source = _Looping([np.full((90, 160, 3), 128, np.uint8)])
    source.read = lambda read=source.read: events.append("f") or read()
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30)
    svc.watch(False)                    # no game watches a board: the camera rests
    svc.start()
    try:
        wait_for(lambda: events.count("f") >= 8, timeout=10, what="eight resting frames")
    finally:
        svc.stop()
    frames = "".join(events)
    assert "ff" not in frames, frames           # a trim after every frame (the last one's may come after the stop)


def test_a_table_still_for_a_while_dozes_and_a_change_brings_the_full_rate_back(monkeypatch):
    monkeypatch.setattr(camera_service, "DOZE_AFTER_S", 0.4)
    still = np.random.default_rng(5).integers(60, 200, (90, 160, 3), dtype=np.uint8)     # a table, not a dead frame
    moved, moving = still.copy(), still.copy()
    moved[:40, :40], moving[:40, :40] = 30, 90              # a hand moving in a corner
    source = _Looping([still])
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=20)
    svc.start()
    try:
        wait_for(lambda: svc.dozing() and len(source.reads) >= 3, timeout=10, what="dozing")
        n = len(source.reads)
        wait_for(lambda: len(source.reads) >= n + 4, timeout=10, what="four frames dozing")
        dozing = source.reads[n:n + 4]
        assert (dozing[-1] - dozing[0]) / 3 >= 0.8 / camera_service.DOZING_FPS       # not 1/20 s
        assert "dozing" in svc.health()[0]["detail"]
        source.frames = [moved, moving]     # still moving: a loaded machine's slow frames do not doze off again
        wait_for(lambda: not svc.dozing(), timeout=10, what="the change seen")
        n = len(source.reads)
        wait_for(lambda: len(source.reads) >= n + 6, timeout=10, what="six frames after the change")
        awake = source.reads[n:n + 6]
        assert (awake[-1] - awake[0]) / 5 < 0.6 / camera_service.DOZING_FPS, "the full rate again"
    finally:
        svc.stop()


def test_the_started_camera_sets_its_start_ups_objects_aside_from_the_collector_once(monkeypatch):
    # issue 20: a full pass of the cycle collector over the objects of OpenCV, the layouts and the
    # references stopped every thread for 40-130 ms in the middle of play; once the camera has
    # prepared itself they are set aside (server/memory.py's settle), once
    happened = []
    monkeypatch.setattr(camera_service, "settle", lambda: happened.append("settle"))
    source = _Looping([np.random.default_rng(7).integers(60, 200, (90, 160, 3), dtype=np.uint8)])
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30, prepare=lambda: happened.append("prepare"))
    svc.start()
    try:
        wait_for(lambda: len(source.reads) >= 5, timeout=10, what="five frames")
    finally:
        svc.stop()
    assert happened == ["prepare", "settle"]


def test_a_table_still_for_long_dozes_deeply_and_a_hand_over_it_is_followed_at_the_full_rate(monkeypatch):
    # issue 20: after DEEP_DOZE_AFTER_S of a still table the camera takes DEEP_DOZING_FPS frames a
    # second; a hand reaching over a board wakes it: the board is busy, nothing is committed under the
    # hand, and the token it laid is committed once it has gone, the camera at its full rate
    monkeypatch.setattr(camera_service, "DOZE_AFTER_S", 0.3)       # longer than a dozing frame's 0.2 s
    monkeypatch.setattr(camera_service, "DEEP_DOZE_AFTER_S", 0.8)
    layout, scene, pipe = _still_board()
    tokens = {"diet-1": syn.random_tokens(layout, np.random.default_rng(13))}
    puts = []
    source = _Looping(_renders(scene, tokens, range(100, 106)))
    svc = CameraService(source, pipe, puts.append, fps=20)
    svc.start()
    try:
        wait_for(lambda: svc.dozing_deeply() and len(puts) == 1, timeout=20, what="the baseline, then dozing deeply")
        n = len(source.reads)
        wait_for(lambda: len(source.reads) >= n + 4, timeout=10, what="four frames dozing deeply")
        deep = source.reads[n:n + 4]
        assert (deep[-1] - deep[0]) / 3 >= 0.8 / camera_service.DEEP_DOZING_FPS       # not 1/5 or 1/20 s
        assert "dozing deeply (2 frames a second)" in svc.health()[0]["detail"]
        laid = next(s.id for s in layout.slots if s.id not in tokens["diet-1"])
        after = {"diet-1": {**tokens["diet-1"], laid: "grain"}}
        bw, bh = layout.size_mm
        hand = [syn.Hand(tip=(bw * 0.4, bh * 0.5), origin=(bw * 0.4, bh * 2.5))]
        source.frames = _renders(scene, after, range(300, 304), hand)
        wait_for(lambda: pipe.status()["boards"]["diet-1"]["busy"], timeout=10, what="the hand seen")
        assert not svc.dozing() and len(puts) == 1, "awake, and nothing committed under the hand"
        n = len(source.reads)
        wait_for(lambda: len(source.reads) >= n + 6, timeout=10, what="six frames with the hand there")
        awake = source.reads[n:n + 6]
        assert (awake[-1] - awake[0]) / 5 < 0.6 / camera_service.DOZING_FPS, "the full rate while the hand is there"
        assert len(puts) == 1
        source.frames = _renders(scene, after, range(200, 206))
        wait_for(lambda: len(puts) == 2, timeout=10, what="the token laid committed")
        assert puts[1]["board"]["slots"][laid] == "grain"
    finally:
        svc.stop()


def test_the_cameras_dozes_are_set_in_the_camera_section_and_the_deeper_comes_after(tmp_path):
    """Issue 20: [camera] doze_after_s / dozing_fps and deep_doze_after_s / deep_dozing_fps (5 s and 5,
    30 s and 2 unless set) reach the camera; a deeper doze sooner or faster than the first is refused."""
    service = camera.build(TableContext.open(tmp_path, simulate=True), {"deep_doze_after_s": 60, "deep_dozing_fps": 1})
    assert (service.doze, service.deep_doze) == ((5.0, 5.0), (60.0, 1.0))
    with pytest.raises(CameraConfigError) as refused:
        CameraConfig.from_dict({"doze_after_s": 20, "deep_doze_after_s": 10, "deep_dozing_fps": 6})
    assert refused.value.problems == [
        "[camera] deep_doze_after_s (10) must be at least doze_after_s (20): the deeper doze comes after the first",
        "[camera] deep_dozing_fps (6) must be at most dozing_fps (5): the deeper doze takes fewer frames"]
    with pytest.raises(CameraConfigError, match=r"doze_after_s \(0.1\) must be at least one frame at dozing_fps "
                       r"\(0.2 s\): a hand seen in every frame would not wake it"):
        CameraConfig.from_dict({"doze_after_s": 0.1})


def test_a_game_that_starts_watching_the_boards_finds_the_camera_awake():
    # issue 20: the table lay still while the camera rested (no game watched a board); a game that
    # watches them starts with the players laying it out: the full rate, no doze carried over
    frame = np.random.default_rng(2).integers(60, 200, (90, 160, 3), dtype=np.uint8)
    service = CameraService(_Looping([frame]), Pipeline({}), lambda inp: None, fps=30, doze=(0.1, 5.0),
                            deep_doze=(0.2, 2.0))
    service.watch(False)
    service.step()
    wait_for(lambda: service.step() is not None and service.dozing_deeply(), what="a still table, for long")
    service.watch(True)
    assert not service.dozing()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_frames_blocks_see_a_token_laid_but_not_the_sensors_noise(size):
    """The blocks a frame is compared by (vision/service.py): a camera's noise moves none of them past
    CHANGE_LEVEL, a token-sized patch laid moves its block far past it, at either capture size."""
    w, h = size
    rng = np.random.default_rng(5)
    base = cv2.GaussianBlur(rng.integers(40, 220, (h, w, 3), np.uint8), (0, 0), 4)
    def noisy():
        return np.clip(base + rng.normal(0, 2.5, base.shape), 0, 255).astype(np.uint8)
    first, again = pipeline_module.blocks_of(noisy()), pipeline_module.blocks_of(noisy())
    side = pipeline_module.BLOCK_PX
    assert first.shape == (h // side, w // side, 3)
    assert int(cv2.absdiff(first, again).max()) <= pipeline_module.CHANGE_LEVEL
    laid = noisy()
    laid[300:316, 600:616] = (40, 200, 230)         # a 16-pixel token (20 mm at 0.8 px/mm) laid
    changed = cv2.absdiff(first, pipeline_module.blocks_of(laid)).max(2) > pipeline_module.CHANGE_LEVEL
    assert changed.any() and set(zip(*np.nonzero(changed))) <= {(r, c) for r in (18, 19) for c in (37, 38)}


def test_a_still_board_is_left_alone_while_a_hand_works_over_another_yet_a_token_laid_on_it_is_seen(monkeypatch):
    """At a busy table most boards lie still while hands work over a few: a still board with nothing moved
    over it is not looked at again (its markers, motion and light cost CPU each frame), yet a token laid on
    it is committed as fast as on a board looked at every frame."""
    monkeypatch.setattr(pipeline_module, "LOOK_EVERY_S", 3600.0)    # no periodic look due during the test
    monkeypatch.setattr(pipeline_module, "REREAD_EVERY", 10 ** 6)   # nor a board's turn to be read again
    pipe, scene = calibrated(("diet-1", "diet-2"), hard=False)
    scene = dataclasses.replace(scene, noise=2.0)
    tokens = random_layout_tokens(scene, 3)
    looks = {name: 0 for name in pipe.boards}
    for name, watch in pipe.boards.items():
        def counted(*args, _update=watch.motion.update, _name=name):
            looks[_name] += 1
            return _update(*args)
        watch.motion.update = counted
    puts = []
    service = CameraService(_Looping(_renders(scene, tokens, range(100, 112))), pipe, puts.append)
    for _ in range(14):
        service.step()
    assert {p["board"]["board"] for p in puts} == {"diet-1", "diet-2"} and pipe.at_rest()
    place = next(p for p in scene.boards if p.layout.board == "diet-2")
    bw, bh = place.layout.size_mm
    def hand(step):     # a hand over diet-2, moving a little each frame
        tip = (place.x + bw * (0.3 + 0.03 * step), place.y + bh * 0.5)
        return [syn.Hand(tip=tip, origin=(tip[0], tip[1] + 1000))]
    laid = next(s.id for s in pipe.boards["diet-1"].layout.slots if s.id not in tokens["diet-1"])
    after = {**tokens, "diet-1": {**tokens["diet-1"], laid: "grain"}}
    frames = [syn.render(syn.with_tokens(scene, tokens, 200 + i, hand(i)))[0] for i in range(8)]
    frames += [syn.render(syn.with_tokens(scene, after, 300 + i, hand(8 + i)))[0] for i in range(12)]
    service.source.frames, service.source.reads = frames, []
    before = dict(looks)
    for _ in range(8):              # the hand over diet-2 only
        service.step()
    assert looks["diet-2"] - before["diet-2"] == 8 and looks["diet-1"] == before["diet-1"]
    commits = len(puts)
    for i in range(12):             # a grain token laid on diet-1 meanwhile
        service.step()
        if len(puts) > commits:
            break
    assert puts[-1]["board"]["board"] == "diet-1" and puts[-1]["board"]["slots"][laid] == "grain"
    assert i + 1 <= pipe.settings.still_frames + 3
