"""Keeping the server's memory small on a Pi: how glibc's allocator holds on to freed memory.

The camera works on pictures of megabytes.  glibc's ``malloc`` serves a block that large from a
separate mapping at first, but after the first such block is freed it raises that threshold (up
to 32 MiB) and serves later ones from its heaps, which keep freed memory for reuse: the memory
of a burst of pictures (the synthetic camera's calibration renders a dozen tables at 1280x720 in
floats) then stays resident for the life of the process.  These two calls undo that; both do
nothing where the C library is not glibc.
"""
from __future__ import annotations

import ctypes
import ctypes.util

#: mallopt's parameter number for the mapping threshold (malloc.h).
_M_MMAP_THRESHOLD = -3


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
