"""The camera's start: its thread's priority, and the synthetic camera's calibration kept between starts.

On a busy machine a thread ten nice levels down gets a sliver of a core: the synthetic camera's
calibration (4-5 s of CPU at start) niced kept ``serve --simulate`` from being ready for three
minutes at load 7-14 (bench/README, "The test suite's time").  The frames, which run for as long
as the table does, stay niced so the readers and the server come first (issue 20).  The same
calibration is done once per user: a later start takes its references from the user's cache.
"""
import os
import threading

import numpy as np

from tests.support.hardware_helpers import wait_for
from tests.support.vision_scenes import layouts
from vision import camera, service as camera_service
from vision import synthetic as syn
from vision.classify import Reference
from vision.config import Settings
from vision.pipeline import Pipeline
from vision.service import CameraService
from vision.sources import FrameSource


def _own_nice() -> int:
    """The calling thread's nice level (Linux keeps one per thread)."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


class _NiceRecorder(FrameSource):
    """A grey picture for every read, noting the reading thread's nice level."""

    name = "test"

    def __init__(self):
        self.nice_at_read: list[int] = []

    def read(self):
        self.nice_at_read.append(_own_nice())
        return np.full((90, 160, 3), 128, np.uint8)


def test_the_camera_prepares_at_the_tables_priority_and_reads_frames_below_it():
    source = _NiceRecorder()
    nice_at_prepare = []
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30,
                        prepare=lambda: nice_at_prepare.append(_own_nice()))
    table_nice = _own_nice()
    svc.start()
    try:
        wait_for(lambda: len(source.nice_at_read) >= 2, timeout=10, what="two frames")
        assert nice_at_prepare == [table_nice]
        assert set(source.nice_at_read) == {min(19, table_nice + camera_service.CAMERA_NICE)}
    finally:
        svc.stop()


class _Held(FrameSource):
    """Its first picture comes only once ``release`` is set."""

    name = "test"

    def __init__(self):
        self.release = threading.Event()

    def read(self):
        self.release.wait(10)
        return np.random.default_rng(3).integers(0, 255, (90, 160, 3), dtype=np.uint8)


def test_a_camera_whose_first_frame_is_on_its_way_says_it_is_starting_not_down():
    source = _Held()
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30)
    svc.start()
    try:
        wait_for(lambda: svc.opened, timeout=10, what="the camera opened")
        assert svc.health()[0]["status"] == "starting", svc.health()
        source.release.set()
        wait_for(lambda: svc.health()[0]["status"] != "starting", timeout=10, what="the first frame")
        assert svc.health()[0]["status"] == "ok", svc.health()
    finally:
        source.release.set()
        svc.stop()


def test_a_camera_that_opened_but_gives_no_picture_is_down_with_what_to_check(monkeypatch):
    """A driver whose read never returns (a loose ribbon cable, another program holding the camera) must not
    say "starting" on the host page for ever: after FIRST_FRAME_WITHIN_S it is down, saying what to check."""
    monkeypatch.setattr(camera_service, "FIRST_FRAME_WITHIN_S", 0.3)
    source = _Held()
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=30)
    svc.start()
    try:
        wait_for(lambda: svc.opened, timeout=10, what="the camera opened")
        wait_for(lambda: svc.health()[0]["status"] == "down", timeout=10, what="the camera reported down")
        assert "has given no picture in 0.3 s" in svc.health()[0]["detail"], svc.health()
        source.release.set()
        wait_for(lambda: svc.health()[0]["status"] == "ok", timeout=10, what="the late first frame")
    finally:
        source.release.set()
        svc.stop()


def _board_and_scene(seed: int):
    layout = layouts("diet-1")["diet-1"]
    return layout, syn.board_scene(layout, seed)


def _commits(pipeline: Pipeline, frames) -> list[dict]:
    return [inp for frame in frames for inp in pipeline.process(frame)]


def test_a_second_start_takes_the_calibration_from_the_cache_and_reads_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calibrations = []
    real = syn.calibrate
    monkeypatch.setattr(syn, "calibrate", lambda *args, **kw: calibrations.append(1) or real(*args, **kw))
    layout, scene = _board_and_scene(21)
    first, second = Pipeline({"diet-1": layout}), Pipeline({"diet-1": layout})
    camera.calibrate_synthetic(first, scene, Settings())
    camera.calibrate_synthetic(second, scene, Settings())
    assert len(calibrations) == 1
    assert camera.calibration_cache(scene, Settings()).is_dir()
    assert second.boards["diet-1"].reference.to_dict() == first.boards["diet-1"].reference.to_dict()
    tokens = {"diet-1": syn.random_tokens(layout, np.random.default_rng(4))}
    frames = [syn.render(syn.with_tokens(scene, tokens, seed))[0] for seed in range(200, 212)]
    read = _commits(first, frames)
    assert read and _commits(second, frames) == read      # what goes on the table is the same


def test_another_scene_or_setting_is_calibrated_anew_and_an_unwritable_cache_only_costs_the_time(tmp_path,
                                                                                               monkeypatch):
    layout, scene = _board_and_scene(21)
    _, other_scene = _board_and_scene(22)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = camera.calibration_cache(scene, Settings())
    assert camera.calibration_cache(other_scene, Settings()) != folder
    assert camera.calibration_cache(scene, Settings(still_frames=4)) != folder
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    pipeline = Pipeline({"diet-1": layout})
    camera.calibrate_synthetic(pipeline, scene, Settings())
    assert pipeline.boards["diet-1"].reference.tokens          # calibrated all the same
    assert list(tmp_path.iterdir()) == [tmp_path / "not-a-folder"]


def test_a_spoilt_cached_calibration_is_made_anew_and_only_the_latest_ones_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(camera, "KEPT_CALIBRATIONS", 1)
    layout, scene = _board_and_scene(21)
    _, other_scene = _board_and_scene(22)
    camera.calibrate_synthetic(Pipeline({"diet-1": layout}), scene, Settings())
    folder = camera.calibration_cache(scene, Settings())
    (folder / "diet-1.json").write_text("{not json")
    pipeline = Pipeline({"diet-1": layout})
    camera.calibrate_synthetic(pipeline, scene, Settings())
    assert pipeline.boards["diet-1"].reference.tokens
    assert [f.name for f in folder.parent.iterdir()] == [folder.name]
    assert Reference.load(folder, "diet-1").to_dict() == pipeline.boards["diet-1"].reference.to_dict()  # whole again
    camera.calibrate_synthetic(Pipeline({"diet-1": layout}), other_scene, Settings())
    assert [f.name for f in folder.parent.iterdir()] == [camera.calibration_cache(other_scene, Settings()).name]
