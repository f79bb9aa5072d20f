"""The server's memory on a Pi (issue 20): its threads share few heaps, and the objects its start-up
leaves are kept out of the cycle collector's passes, which stopped every thread in the middle of play."""
from __future__ import annotations

import gc
import platform
import subprocess
import sys
import weakref

import pytest

from server import memory

glibc_only = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the heaps are glibc's")

#: A process that starts eight threads, each allocating while the others hold theirs, then has
#: glibc list its heaps ("Arena N:" lines of malloc_stats, on stderr).
_THREADS = """
import ctypes, sys, threading
from server import memory
if sys.argv[1] == "few":
    assert memory.few_heaps()
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
all_in = threading.Barrier(8)
def allocate():
    libc.malloc(4096)
    all_in.wait()
threads = [threading.Thread(target=allocate) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc.malloc_stats()
"""


def _heaps(mode: str) -> int:
    run = subprocess.run([sys.executable, "-c", _THREADS, mode], capture_output=True, text=True, timeout=60,
                         cwd=memory.__file__.rsplit("/server/", 1)[0])
    assert run.returncode == 0, run.stderr
    return sum(line.startswith("Arena ") for line in run.stderr.splitlines())


@glibc_only
def test_threads_started_after_few_heaps_share_at_most_two():
    # glibc's own limit is eight heaps a core: eight threads allocating at once get heaps of their own
    assert _heaps("default") > memory.HEAPS
    assert _heaps("few") <= memory.HEAPS == 2


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
