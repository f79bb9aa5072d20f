"""The camera's start: its thread's priority.

On a busy machine a thread ten nice levels down gets a sliver of a core: the synthetic camera's
calibration (4-5 s of CPU at start) niced kept ``serve --simulate`` from being ready for three
minutes at load 7-14 (bench/README, "The test suite's time").  The frames, which run for as long
as the table does, stay niced so the readers and the server come first (issue 20).
"""
import os
import threading

import numpy as np

from tests.support.hardware_helpers import wait_for
from vision import service as camera_service
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

