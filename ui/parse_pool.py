"""Uploaded files are read in another process, so that reading one never holds up the moves
of the other students on the server.

Why: pandas and numpy hold the interpreter's lock for most of a parse. Read on a session's
own script thread, a 150 MB run kept every other session's rerun waiting, seconds at a time.
Here the whole reading of a file (the shape check on its bytes, ``read_qrels`` /
``read_run`` and the validation that words their messages) runs in a small pool of
processes, and the session's thread waits for it without the lock.

- At most :data:`WORKERS` processes: the server has other work on its cores, and each parse
  needs about twice its file (``tests/bench/bench_upload_memory.py``). A second worker
  starts only when two files are read at once. Workers run at a lower priority
  (:data:`NICE`): on a busy machine the moves of the class come first, the reading after.
- One pool per server process, made on first use (:func:`warm` makes it when the data page
  is drawn, so the first upload does not wait for it) and kept. Its processes come from
  ``forkserver``: a fresh interpreter that imported the engine once, from which every worker
  forks. No thread of Streamlit's is copied into a worker (a plain ``fork`` would copy a
  process of many threads and their locks), and a worker that replaces a dead one starts in
  a fraction of a second. Where there is no forkserver (Windows), ``spawn``.
- The file goes to the worker as a temporary file and the table comes back as one (a
  pickle), not through the pool's pipe, which pickles the bytes on both sides and would add
  two copies of the file to the peak. Temporary files live in the system's temporary
  directory only while one file is read.
- A worker that dies (out of memory, killed) breaks the pool: each file whose reading had
  begun gets :data:`STOPPED` (the page words it, no traceback), and the next file starts a
  new pool; a file still queued is sent to the new pool. A ``MemoryError`` inside a worker
  gives :data:`STOPPED` too.
- Where no process can be started (a host without ``/dev/shm`` or process limits), files are
  read on the calling thread, as before.

No Streamlit in here: the page (:func:`ui.your_data.load`) caches what :func:`read` returns
per session, and words :data:`STOPPED`.
"""

from __future__ import annotations

import atexit
import io
import multiprocessing
import os
import pickle
import shutil
import sys
import tempfile
import threading
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pandas as pd

from ndcg_core import read_qrels, read_run
from ui import memory

__all__ = ["STOPPED", "WORKERS", "read", "warm"]

WORKERS = 2
NICE = 10  # the workers' priority below the server's (Unix nice: 0 normal, 19 lowest)
STOPPED = "<the process reading the file stopped>"  # :func:`read`'s error when a worker died

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_unavailable = False  # no process could be started here: read on the calling thread
_folder: str | None = None


def read(kind: str, name: str, data: bytes) -> tuple[pd.DataFrame | None, str | None]:
    """``(table, None)`` of judgments (``kind="qrels"``) or a run named ``name`` holding
    ``data``; ``(None, message)`` with the engine's ``ValueError`` message; ``(None,
    STOPPED)`` when the process reading it died or ran out of memory."""
    src, dst = _paths()
    try:
        with open(src, "wb") as f:
            f.write(data)
    except OSError:  # no room for a temporary file: read it here
        _remove(src)
        return _read_here(kind, name, data)
    try:
        for _ in range(2):
            pool, future = _submit(_read_file, kind, name, src, dst)
            if future is None:
                return _read_here(kind, name, data)
            try:
                err = future.result()
                break
            except BrokenProcessPool:  # a worker died: while reading this file or another
                _forget(pool)
                if os.path.exists(dst):  # this file was being read (_read_file's mark)
                    return None, STOPPED
                # Not begun: a worker killed while idle, which the pool noticed only after
                # this file was queued (once in a full run here, under load). Once again, on
                # a new pool.
        else:
            return None, STOPPED
        if err is not None:
            return None, err
        with open(dst, "rb") as f:
            return pickle.load(f), None
    finally:
        _remove(src, dst)


def warm() -> None:
    """Start the pool and one worker, without waiting: the data page calls it on every run,
    so the first upload finds a worker ready."""
    if _pool is None and not _unavailable:
        _submit(int)


# ------------------------------------------------------------------ the server's side

def _submit(fn, *args):
    """``(pool, future)`` of ``fn(*args)`` in a worker, or ``(None, None)`` where no process
    can be started. A pool that broke while idle (its worker killed) is replaced: no file
    was being read."""
    global _unavailable
    for _ in range(2):
        pool = _get_pool()
        if pool is None:
            return None, None
        try:
            return pool, pool.submit(fn, *args)
        except BrokenProcessPool:
            _forget(pool)
        except (OSError, RuntimeError):  # cannot start a process, or the server is exiting
            _unavailable = True
            return None, None
    return None, None


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool, _unavailable
    with _lock:
        if _pool is None and not _unavailable:
            # A worker imports __main__ again, by its module name or its file; with
            # neither (``python -c``, as in pytest-xdist's workers) it imports nothing, and
            # only a file that is not there cannot be imported.
            main = sys.modules["__main__"]
            main_file = getattr(main, "__file__", None)
            if getattr(main.__spec__, "name", None) is None and main_file is not None and (
                    not os.path.isfile(main_file)):
                _unavailable = True
                return None
            try:
                if "forkserver" in multiprocessing.get_all_start_methods():
                    context = multiprocessing.get_context("forkserver")
                    # the engine imported once; and the server's __main__ (``streamlit
                    # run``'s script, which only imports its CLI) imported there once,
                    # not again in every worker
                    context.set_forkserver_preload(["__main__", __name__])
                else:
                    context = multiprocessing.get_context("spawn")
                _pool = ProcessPoolExecutor(WORKERS, mp_context=context,
                                            initializer=_start_worker)
            except (OSError, ImportError, NotImplementedError):
                _unavailable = True
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    """Let a broken pool go; the next file makes a new one."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def _paths() -> tuple[str, str]:
    """A fresh (input, output) pair of temporary file names."""
    global _folder
    with _lock:
        if _folder is None or not os.path.isdir(_folder):
            try:
                _folder = tempfile.mkdtemp(prefix="ndcg-lab-reading-")
                atexit.register(shutil.rmtree, _folder, True)
            except OSError:  # then opening the file fails, and it is read here
                _folder = os.path.join(tempfile.gettempdir(), "ndcg-lab-reading-missing")
    stem = os.path.join(_folder, uuid.uuid4().hex)
    return stem + ".in", stem + ".out"


def _remove(*paths: str) -> None:
    for path in paths:
        try:
            os.remove(path)
        except OSError:
            pass


def _read_here(kind: str, name: str, data: bytes):
    f = io.BytesIO(data)
    f.name = name
    try:
        return (read_qrels if kind == "qrels" else read_run)(f), None
    except ValueError as exc:
        return None, str(exc)


# ------------------------------------------------------------------ the worker's side

def _start_worker() -> None:
    """A worker hands back what each file's parse used, and yields the cores to the
    server's own threads: a move waits for no reading (a lower priority, ``nice``)."""
    memory.allocators()
    if hasattr(os, "nice"):
        os.nice(NICE)


def _read_file(kind: str, name: str, src: str, dst: str) -> str | None:
    """In a worker: read ``src`` as the page reads an upload (a file object named ``name``:
    the messages name the upload), pickle the table to ``dst``; the engine's message, or
    :data:`STOPPED` when memory ran out, or None."""
    try:
        open(dst, "wb").close()  # the mark that this file's reading began (see read)
        with open(src, "rb") as f:
            data = f.read()
        table, err = _read_here(kind, name, data)
        del data
        if table is not None:
            with open(dst, "wb") as f:
                pickle.dump(table, f, protocol=pickle.HIGHEST_PROTOCOL)
        return err
    except MemoryError:
        return STOPPED
    finally:
        table = None
        memory.trim()  # what this file's parse used goes back to the system
