"""The camera never holds up an input (issue 20): the table asks for health after every input (the
host's view), and that answer must not wait for the frame the camera is working on; its frames
take no more CPU than they need; and an input's views go out before the camera's next frame or board."""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

from vision.layout import sample_layouts
from vision.pipeline import Pipeline
from vision.service import YIELD_TO_TABLE_S, CameraService
from vision.sources import FrameSource


class _Still(FrameSource):
    name = "test"
    picture = np.random.default_rng(1).integers(0, 256, (90, 160, 3), np.uint8)

    def read(self):
        return self.picture


def test_health_answers_at_once_while_the_camera_works_on_a_frame():
    svc = CameraService(_Still(), Pipeline({}), lambda inp: None, fps=30)
    svc.step()
    assert svc.health()[0]["status"] == "ok" and svc.health()[0]["ms_per_frame"] is not None
    holding, done = threading.Event(), threading.Event()

    def frame_in_progress():           # as the camera thread does while the pipeline takes a frame
        with svc.lock:
            holding.set()
            done.wait(10)
    worker = threading.Thread(target=frame_in_progress)
    worker.start()
    try:
        assert holding.wait(5)
        with ThreadPoolExecutor(1) as pool:
            records = pool.submit(svc.health).result(timeout=2)   # not after the frame: now
        assert records[0]["name"] == "camera" and records[0]["status"] == "ok"
        assert records[0]["ms_per_frame"] is not None, "the status as of the last frame"
    finally:
        done.set()
        worker.join()


def test_the_pipeline_runs_opencv_on_one_thread():
    """Issue 20: a frame's OpenCV steps are too small to share between threads; two took about a
    quarter more CPU a frame of play than one on a 2-core machine."""
    cv2.setNumThreads(2)
    Pipeline({})
    assert cv2.getNumThreads() == 1


class _Counted(_Still):
    def __init__(self):
        self.reads: list[float] = []

    def read(self):
        self.reads.append(time.monotonic())
        return self.picture


def test_the_camera_starts_no_frame_while_the_inputs_go_to_the_screens():
    """Issue 20: inside a Pi's CPU budget a frame on the other core used up the budget the input's
    views needed on their way to the screens; after each input the camera waits, at most
    YIELD_TO_TABLE_S a frame, so a stream of inputs slows it but never stops it."""
    source = _Counted()
    svc = CameraService(source, Pipeline({}), lambda inp: None, fps=200)     # a frame every 5 ms
    svc.start()
    try:
        deadline = time.monotonic() + 10
        while len(source.reads) < 5:           # the camera runs
            assert time.monotonic() < deadline, "the camera took no frames"
            time.sleep(0.005)
        begun = time.monotonic()
        while time.monotonic() - begun < 0.4:  # an input every 10 ms
            svc.yield_to_table()
            time.sleep(0.01)
        during = [t for t in source.reads if begun + 0.01 < t < begun + 0.4]
    finally:
        svc.stop()
    # running free, about 80 frames in that time; held, one every YIELD_TO_TABLE_S at most
    assert 2 <= len(during) <= 0.39 / YIELD_TO_TABLE_S + 1, len(during)


def test_a_frame_lets_the_table_go_first_before_each_board_and_its_time_leaves_that_wait_out():
    """Issue 20: an input applied while the camera is on a frame waits for none of the boards left:
    the camera service waits there (``between``), and that wait is not the frame's time."""
    pipeline = Pipeline(sample_layouts())
    pipeline.process(_Still.picture)         # the first frame searches the whole picture
    calls = []

    def between():
        calls.append(pipeline.frame_no)
        time.sleep(0.05)              # the table's turn
    pipeline.process(_Still.picture, between)
    assert calls == [2] * len(pipeline.boards) and len(calls) > 1
    assert pipeline.timings[-1] < 25 * len(calls), "the waits were counted as the frame's time"
