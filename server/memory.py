"""Keeping the server's memory small and its pauses short on a Pi: glibc's allocator and Python's
cycle collector.

The camera works on pictures of megabytes.  glibc's ``malloc`` serves a block that large from a
separate mapping at first, but after the first such block is freed it raises that threshold (up
to 32 MiB) and serves later ones from its heaps, which keep freed memory for reuse: the memory
of a burst of pictures (the synthetic camera's calibration renders a dozen tables at 1280x720 in
floats) then stays resident for the life of the process.  :func:`map_blocks_over` and
:func:`give_back_free_memory` undo that; both do nothing where the C library is not glibc.

Capping glibc's heaps (``M_ARENA_MAX`` 2, against up to eight a core for a thread per screen) was
tried and left out: the bench's table idled 1-3 MiB smaller, but its HTTP inputs' p99 was 132-134 ms
in 3 of 3 runs against 47-72 without (load 1-7; likely the niced camera thread holding a shared
heap's lock while the CPU is short; not traced).

Once the table has started, the objects it keeps for good (modules, the app, the camera's layouts)
are set aside from the cycle collector (:func:`settle`), whose full passes over them stopped every
thread for 40-130 ms in the middle of play (issue 20).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc

#: mallopt's parameter number for the mapping threshold (malloc.h).
_M_MMAP_THRESHOLD = -3

_settled = False


def _glibc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def map_blocks_over(size: int) -> bool:
    """Serve every block of ``size`` bytes or more from its own mapping, returned to the system
    when freed (and keep that threshold fixed).  False where this cannot be set."""
    libc = _glibc()
    return bool(libc and libc.mallopt(_M_MMAP_THRESHOLD, size))


def give_back_free_memory() -> bool:
    """Return the free memory of every heap to the system (after a burst of large work)."""
    libc = _glibc()
    return bool(libc and libc.malloc_trim(0))


def settle() -> bool:
    """Once a process has started: collect its start-up's garbage, then leave every object alive now
    out of the cycle collector's later passes (they stay for the process's life).  Only the first
    call does it (a later one would keep whatever is alive then out of the collector for good: a
    camera's pipeline started again in the same process); whether this call did."""
    global _settled
    if _settled:
        return False
    _settled = True
    gc.collect()
    gc.freeze()
    return True
