"""The server's memory: what a big upload's parsing and evaluation free goes back to the
system, so a class's server returns to its level when the uploading tabs close.

Two allocators keep freed memory for reuse by default:

- glibc's ``malloc`` raises its mmap threshold as large blocks are freed (up to 32 MB on
  64-bit), so the next arrays of a few MB come from the heap, and a freed heap block stays
  with the process. With the threshold fixed at 128 kB (``mallopt(M_MMAP_THRESHOLD)``, the
  same as starting the server with ``MALLOC_MMAP_THRESHOLD_=131072``), every block above
  it is its own mapping, returned when freed. ``malloc_trim(0)`` hands back the free pages
  left inside the heaps, once a session's parsed files and results are let go.
- Arrow's own pool (jemalloc or mimalloc) keeps freed pages for later; Arrow is told to use
  the system allocator, and so follows the threshold above.

Measured with ``tests/bench/bench_upload_memory.py`` (see its docstring): without these, a
150 MB upload left 343 MB held after its tab closed (the glibc part alone) and three left
2.9 GB; with them, 6 MB and 9 MB over the server's level before them.

Where there is no glibc (macOS, Windows, musl) the calls are skipped: those allocators
return large blocks on their own.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
import time
import weakref

import pyarrow as pa

M_MMAP_THRESHOLD = -3      # <malloc.h>
MMAP_THRESHOLD = 128 * 1024  # glibc's own starting value, here kept fixed

COLLECT_EVERY_S = 15  # while any session holds parsed uploads, see _collect_closed

_glibc = None
_configured = False
_caches: "weakref.WeakValueDictionary[int, SessionCache]" = weakref.WeakValueDictionary()


def _libc():
    """The process's glibc, or None where it is not glibc."""
    global _glibc
    if _glibc is None:
        _glibc = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None)  # the symbols the process already has
                libc.gnu_get_libc_version  # glibc only (musl has no such function)
                libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
                libc.malloc_trim.argtypes = [ctypes.c_size_t]
                _glibc = libc
            except (OSError, AttributeError):
                pass
    return _glibc or None


def configure() -> None:
    """Once per process (the app's entry file calls it on every run): large freed blocks go
    back to the system, Arrow allocates through the system allocator, and closed sessions'
    uploads are collected (:func:`_collect_closed`)."""
    global _configured
    if _configured:
        return
    _configured = True
    allocators()
    threading.Thread(target=_collect_closed, name="ndcg-lab-memory", daemon=True).start()


def allocators() -> None:
    """Large freed blocks go back to the system and Arrow allocates through the system
    allocator: the server's setting, and that of the processes reading uploads
    (:mod:`ui.parse_pool`), which hand back what each file's parse used."""
    pa.set_memory_pool(pa.system_memory_pool())
    libc = _libc()
    if libc is not None:
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def _collect_closed() -> None:
    """Every COLLECT_EVERY_S seconds while some session holds parsed uploads: a full
    garbage collection, then :func:`trim`.

    Streamlit lets a closed session go (after ``server.disconnectedSessionTTL``) by
    dropping its last reference, but a session is a cycle of objects: only Python's full
    collection frees it, with its state (our cache) and its uploaded files (its
    ``__del__`` removes them). The collection after every rerun is off here
    (``runner.postScriptGC``, for the playground's speed), and a full one otherwise comes
    seldom: a closed tab's 150 MB upload and its results stayed for minutes. One
    collection costs tens of ms, so it runs only while an upload is held.
    """
    while True:
        time.sleep(COLLECT_EVERY_S)
        if len(_caches):
            gc.collect()
            trim()


def trim() -> None:
    """Hand the free pages inside glibc's heaps back to the system (no-op elsewhere)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


class SessionCache(dict):
    """One session's parsed uploads and results (``ui.state.session_cache``). When Streamlit
    drops the session, or the page lets its files go, the entries are freed and then the
    freed pages handed back (:func:`trim`): a 150 MB upload's are a few hundred MB."""

    def __init__(self):
        super().__init__()
        _caches[id(self)] = self

    def __del__(self):
        try:
            self.clear()
            trim()
        except Exception:  # noqa: BLE001 - at interpreter exit ctypes may be gone already
            pass
