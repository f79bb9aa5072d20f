"""The server's pauses on a Pi (issue 20): the objects its start-up leaves are kept out of the cycle
collector's passes, which stopped every thread for 40-130 ms in the middle of play."""
from __future__ import annotations

import gc
import weakref

from server import memory


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
