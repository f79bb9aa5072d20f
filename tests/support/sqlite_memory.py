"""SQLite's own count of the memory it holds in this process, for the tests of issue 20's growth."""
import ctypes
import ctypes.util


def sqlite_memory_used() -> int | None:
    """SQLite's own count of the memory it holds in this process (bytes), or None where the
    library cannot be opened by name (0 where the one opened by name is a second copy, not the
    one the ``sqlite3`` module uses: it holds nothing)."""
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    except OSError:
        return None
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return lib.sqlite3_memory_used()
