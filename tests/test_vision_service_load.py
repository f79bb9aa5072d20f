"""The camera never holds up an input (issue 20): the table asks for health after every input (the
host's view), and that answer must not wait for the frame the camera is working on; and its frames
take no more CPU than they need."""
import threading
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

from vision.pipeline import Pipeline
from vision.service import CameraService
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
