"""Many sessions' writes in one transaction: a class's answers arrive within a second.

Two hundred students pressing *Send* at once, each in a transaction of their own, wait for one
another's write lock (SQLite: one writer at a time, each waiting writer polling the lock with
growing sleeps; and the writer holding it waits for Python's interpreter lock among two
hundred threads), and each commit costs its own round trip. :class:`Batch` has the writes
that arrive while one is being written wait, and writes them together: one transaction, one
lock, one commit.

The first caller that finds nobody writing writes its batch (its own job and whatever queued
meanwhile), then hands the queue to the first waiting caller, which writes the next batch: no
thread of its own, nothing to stop. A job's refusal (a :class:`ClassError` it raises *before*
it writes anything) reaches its own caller only; a fault of the transaction reaches every
caller of the batch as ``ClassError("busy")``: nothing of it was stored.
No Streamlit here.
"""

from __future__ import annotations

import threading
from typing import Callable

import sqlalchemy as sa

from .errors import ClassError
from .tx import Tx


class _Item:
    __slots__ = ("job", "done", "lead", "value", "error")

    def __init__(self, job):
        self.job, self.done, self.lead = job, threading.Event(), False
        self.value = self.error = None


class Batch:
    """Runs ``job(conn)`` for many threads, in as few write transactions as they allow."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self._lock = threading.Lock()
        self._queue: list[_Item] = []
        self._writing = False
        self.transactions = 0  # the benchmark and the tests read them
        self.jobs = 0

    def run(self, job: Callable[[sa.Connection], object]):
        """``job(conn)``'s value once its transaction committed; its ClassError raised."""
        item = _Item(job)
        with self._lock:
            self._queue.append(item)
            item.lead = not self._writing
            self._writing = True
        if not item.lead:
            item.done.wait()
        if item.lead:  # the first, or handed the queue by the last writer
            self._write_queue()
            item.done.wait()
        if item.error is not None:
            raise item.error
        return item.value

    def _write_queue(self) -> None:
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            self._write(batch)
        finally:
            with self._lock:
                nxt = self._queue[0] if self._queue else None
                self._writing = nxt is not None
            for item in batch:
                item.done.set()
            if nxt is not None:  # it writes what queued while this batch was written
                nxt.lead = True
                nxt.done.set()

    def _write(self, batch: list[_Item]) -> None:
        try:
            with Tx(self.engine, write=True) as conn:
                for item in batch:
                    try:
                        item.value = item.job(conn)
                    except ClassError as e:  # refused before it wrote: the others stand
                        item.error = e
            self.transactions += 1
            self.jobs += len(batch)
        except ClassError as e:  # the transaction failed: nothing of the batch was stored
            for item in batch:
                item.value, item.error = None, e
        except BaseException as e:  # a bug: every caller sees it, none waits forever
            for item in batch:
                item.value, item.error = None, e
            raise
