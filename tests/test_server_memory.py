"""The server's memory and pauses on a Pi (issue 20): a picture a thread has freed goes back to the
system, and the objects its start-up leaves are kept out of the cycle collector's passes, which
stopped every thread for 40-130 ms in the middle of play."""
from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from server import memory

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

