"""One transaction on class mode's database, and what a database fault becomes.

Every fault of the database (SQLite's lock held past the busy timeout, a full disk,
PostgreSQL down or restarting, the pool exhausted) leaves :class:`Tx` as
``ClassError("busy")``: the page says "send again" in a sentence instead of an uncaught
traceback, which Streamlit would log at about a second of server CPU each (rich tracebacks).
Nothing acknowledged is lost: a fault rolls the transaction back, and an answer is
acknowledged only after its commit.

The server's log gets one line per fault kind every :data:`LOG_EVERY` seconds (with how many
it left out), not a traceback per request.
"""

from __future__ import annotations

import logging
import threading
import time

import sqlalchemy as sa

from .db import WRITE
from .errors import ClassError

log = logging.getLogger("ndcg_lab.classroom")

FAULTS = (sa.exc.DBAPIError, sa.exc.TimeoutError)  # the driver's errors; the pool's wait
LOG_EVERY = 10.0  # seconds


class _FaultLog:
    """At most one log line per fault kind per ``LOG_EVERY`` seconds."""

    def __init__(self):
        self.lock = threading.Lock()
        self.last: dict[str, float] = {}
        self.skipped: dict[str, int] = {}

    def __call__(self, exc: BaseException) -> None:
        orig = getattr(exc, "orig", None) or exc
        kind = type(orig).__name__
        now = time.monotonic()
        with self.lock:
            if now - self.last.get(kind, -LOG_EVERY) < LOG_EVERY:
                self.skipped[kind] = self.skipped.get(kind, 0) + 1
                return
            self.last[kind] = now
            skipped = self.skipped.pop(kind, 0)
        first = (str(orig).strip().splitlines() or [""])[0][:200]
        log.warning("class database fault, answered 'busy' (%s: %s)%s", kind, first,
                    f"; {skipped} more since the last line" if skipped else "")


fault_log = _FaultLog()


def busy(exc: BaseException) -> ClassError:
    """The refusal a person reads for the database fault ``exc`` (which is logged)."""
    fault_log(exc)
    err = ClassError("busy")
    err.fault = exc  # raised ``from None``: no traceback chain to format or log
    return err


class Tx:
    """A connection in one transaction; ``write`` makes SQLite's BEGIN IMMEDIATE.

    The connection goes back to the pool whatever fails, BEGIN included (a BEGIN that timed
    out on a locked SQLite file kept its connection checked out until a garbage collection:
    fifteen of them emptied the pool)."""

    def __init__(self, engine: sa.Engine, *, write: bool):
        self.engine, self.write = engine, write
        self.conn = self.tx = None

    def __enter__(self) -> sa.Connection:
        try:
            self.conn = self.engine.connect().execution_options(**{WRITE: self.write})
            self.tx = self.conn.begin()
        except FAULTS as e:
            self._close()
            raise busy(e) from None
        return self.conn

    def __exit__(self, kind, exc, _tb):
        try:
            if kind is None:
                self.tx.commit()
                return False
            try:
                self.tx.rollback()
            except FAULTS:
                pass  # the connection is gone: nothing was committed to roll back
        except FAULTS as e:
            raise busy(e) from None  # the commit failed: nothing was stored
        finally:
            self._close()
        if isinstance(exc, FAULTS):
            raise busy(exc) from None
        return False

    def _close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except FAULTS:
                pass
            self.conn = None
