"""Keeping the server's memory small and its pauses short on a Pi: glibc's allocator and Python's
cycle collector.

The camera works on pictures of megabytes.  glibc's ``malloc`` serves a block that large from a
separate mapping at first, but after the first such block is freed it raises that threshold (up
to 32 MiB) and serves later ones from its heaps, which keep freed memory for reuse: the memory
of a burst of pictures (the synthetic camera's calibration renders a dozen tables at 1280x720 in
floats) then stays resident for the life of the process.  :func:`map_blocks_over` and
:func:`give_back_free_memory` undo that; both do nothing where the C library is not glibc.

The same raise doubles the size a heap's free top may reach before ``free`` gives it back (the trim
threshold, 128 KiB by default), and ``malloc_trim`` gives back only the free blocks *inside* a
thread's heap, never its top: each thread heap that once held a picture then kept up to twice the
largest block mapped before the camera started, fully resident.  In the whole-table bench (issue 20)
that was 13-14 MiB of the idle server (138.7 -> 125.2 MiB, one probe each at the bench's idle point),
one mapping alone 10.5 MiB; :func:`map_blocks_over` therefore fixes the trim threshold at glibc's
default too.  It costs the camera nothing measurable: on the bench's frames of play, in a thread, no
page fault a frame either way (300 frames: a frame's blocks are reused, not given back and taken
again) and 4.2 against 4.1 ms of CPU a frame (medians of three alternated runs each, load 5-6).

Capping glibc's heaps (``M_ARENA_MAX`` 2, against up to eight a core for a thread per screen) was
tried and left out: the bench's table idled 1-3 MiB smaller, but its HTTP inputs' p99 was 132-134 ms
in 3 of 3 runs against 47-72 without (load 1-7; likely the niced camera thread holding a shared
heap's lock while the CPU is short; not traced).

Once the table has started, the objects it keeps for good (modules, the app, the camera's layouts) are
set aside from the cycle collector (:func:`settle`), whose full passes over them stopped every thread
for 40-130 ms in the middle of play (issue 20). What is left in the collector's care is then small, and
the table collects it itself (:func:`keep_collecting`, every minute from a thread of its own, which also
settles a table that has no camera): the collector runs when more container objects have been made than
freed, which a table at play hardly does, so the cycles play leaves behind waited for it (werkzeug's URL
matcher leaves a cycle of eight objects at every HTTP request: its recursive inner function, its five
closure cells, one holding the function itself, a set and a tuple): the whole-table bench's memory rose
55 KiB a minute over 20 minutes of play, all of it Python objects a full pass frees (1.1-1.6 ms here,
with the start-up's objects set aside).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import threading

#: mallopt's parameter numbers for the trim and the mapping thresholds (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

#: A heap gives the free memory at its top back to the system once there is more than this
#: (bytes): glibc's default, kept fixed (see the module docstring).
TRIM_OVER = 128 << 10

#: The table frees its garbage cycles this often, seconds (:func:`keep_collecting`).
COLLECT_EVERY_S = 60.0

_settled = False


@functools.cache
def _glibc():
    """The C library's handle, looked up once: ``find_library`` runs ``ldconfig`` in a child process
    (1.3 ms here, a fork of the whole server), and the resting camera gives memory back every frame."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def map_blocks_over(size: int, trim_over: int = TRIM_OVER) -> bool:
    """Serve every block of ``size`` bytes or more from its own mapping, returned to the system
    when freed, and let no heap keep more than ``trim_over`` bytes free at its top (both fixed from
    now on).  False where this cannot be set."""
    libc = _glibc()
    return bool(libc and libc.mallopt(_M_MMAP_THRESHOLD, size) and libc.mallopt(_M_TRIM_THRESHOLD, trim_over))


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


def collect_garbage() -> int:
    """One full pass of the cycle collector, freeing the cycles nothing refers to any more (cheap only
    once the process has settled, :func:`settle`); how many objects it found unreachable."""
    return gc.collect()


def keep_collecting(stop: threading.Event, every: float = COLLECT_EVERY_S) -> None:
    """Until ``stop`` is set, every ``every`` seconds free the process's garbage cycles
    (:func:`collect_garbage`); the first time, settle it instead if nothing has yet (a table without a
    camera: a camera's service settles once it has prepared itself, and by then the start-up is over)."""
    while not stop.wait(every):
        if not settle():
            collect_garbage()
