"""The server's memory and pauses on a Pi (issue 20): a picture a thread has freed goes back to the
system, and the objects its start-up leaves are kept out of the cycle collector's passes, which
stopped every thread for 40-130 ms in the middle of play."""
from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import pytest

from server import memory
from tests.support.hardware_helpers import wait_for

#: Run in a fresh process (its allocator as a server's at start): a large block mapped and freed
#: (glibc then raises its thresholds), the camera's thresholds set, then a thread that holds a
#: picture of 6 MiB and frees it; prints the KiB resident after it more than before it.
_THREAD_PICTURE = """
import re, sys, threading
from server import memory
rss = lambda: int(re.search(r"VmRSS:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
block = bytearray(20 << 20)
del block
if sys.argv[1] == "set":
    assert memory.map_blocks_over(8 << 20)
kept = []
def camera():
    before = rss()
    picture = bytearray(6 << 20)          # filled: resident
    del picture
    kept.append(rss() - before)
thread = threading.Thread(target=camera)
thread.start()
thread.join()
print(kept[0])
"""


def _kept_kib(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", _THREAD_PICTURE, mode], capture_output=True, text=True,
                         check=True, cwd=Path(memory.__file__).resolve().parents[1])
    return int(out.stdout)


@pytest.mark.skipif(memory._glibc() is None or not sys.platform.startswith("linux"),
                    reason="glibc's allocator on Linux")
def test_a_picture_a_thread_freed_goes_back_to_the_system():
    # without the fixed thresholds the thread's heap keeps the freed picture at its top for good
    # (issue 20: 13-14 MiB of the idle table); with them it is given back as it is freed
    assert _kept_kib("unset") > 5 * 1024
    assert _kept_kib("set") < 1024


def test_giving_memory_back_looks_the_c_library_up_once(monkeypatch):
    # issue 20: the resting camera gives memory back every frame; ctypes' find_library runs ldconfig
    # in a child process (a fork of the whole server) each time it is asked
    import ctypes.util

    memory.give_back_free_memory()
    lookups = []
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: lookups.append(name))
    for _ in range(5):
        memory.give_back_free_memory()
    assert lookups == []


def test_settling_collects_the_start_ups_garbage_and_sets_aside_what_is_alive(monkeypatch):
    class Node:
        pass

    monkeypatch.setattr(memory, "_settled", False)
    garbage, kept = Node(), Node()
    garbage.me, kept.me = garbage, kept       # cycles: only the collector frees the first
    gone = weakref.ref(garbage)
    del garbage
    try:
        assert memory.settle()
        assert gone() is None                                 # collected, not set aside for ever
        assert not any(o is kept for o in gc.get_objects())   # out of the collector's passes
        assert not memory.settle()                            # a second call sets nothing more aside
    finally:
        gc.unfreeze()           # this test process goes on as it was



#: Run in a fresh process: the collector's own passes turned off, the table's collecting thread
#: started with a short cadence; prints whether it set the start-up's objects aside, and whether a
#: cycle made after that was freed (the thread's later passes).
_KEEP_COLLECTING = """
import gc, sys, threading, time, weakref
from server import memory
gc.disable()
class Node:
    pass
def cycle():
    node = Node()
    node.me = node
    return weakref.ref(node)
stop = threading.Event()
threading.Thread(target=memory.keep_collecting, args=(stop, 0.1), daemon=True).start()
end = time.monotonic() + 20
while not gc.get_freeze_count() and time.monotonic() < end:
    time.sleep(0.01)
settled = gc.get_freeze_count() > 0
later = cycle()
while later() is not None and time.monotonic() < end:
    time.sleep(0.01)
stop.set()
print(settled, later() is None)
"""


def test_a_table_without_a_camera_is_settled_and_its_garbage_cycles_freed_all_the_same():
    # issue 20: the camera's service settled the table once it had prepared itself, and its thread freed
    # the cycles play leaves (werkzeug's, one an HTTP request) every minute; a table whose camera is off
    # (the card games on a Pi with none) did neither: its cycles waited for the collector's own passes,
    # 35-42 ms each over every object of its start-up. The server's collecting thread does both.
    out = subprocess.run([sys.executable, "-c", _KEEP_COLLECTING], capture_output=True, text=True, check=True,
                         timeout=60, cwd=Path(memory.__file__).resolve().parents[1])
    assert out.stdout.split() == ["True", "True"]


def test_the_tables_garbage_is_collected_on_a_cadence_not_at_once_nor_twice_a_tick(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "settle", lambda: calls.append(("settle", time.monotonic())) or len(calls) == 1)
    monkeypatch.setattr(memory, "collect_garbage", lambda: calls.append(("collect", time.monotonic())))
    stop = threading.Event()
    thread = threading.Thread(target=memory.keep_collecting, args=(stop, 0.3), daemon=True)
    started = time.monotonic()
    thread.start()
    try:
        wait_for(lambda: sum(kind == "collect" for kind, _ in calls) >= 2, timeout=10, what="two collections")
    finally:
        stop.set()
        thread.join(timeout=5)
    assert calls[0][0] == "settle" and calls[0][1] - started >= 0.3 * 0.9   # after a whole period, not at start
    assert calls[1][0] == "settle"                # the first tick's settle collected: no second pass then
    collects = [at for kind, at in calls if kind == "collect"]
    assert collects[0] - calls[0][1] >= 0.3 * 0.9 and collects[1] - collects[0] >= 0.3 * 0.9
