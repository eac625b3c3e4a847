"""What each room shows its class now, kept in memory: one query for every room, not one per
phone per poll.

A waiting phone asks "has the room moved?" every second or so. With 200 phones that is 200
reads a second of the same few rows, each a connection from the pool and a transaction.
:class:`RoomWatch` answers from memory instead: the current round of every room asked about
(its question, phase and countdown) is read for all of them at once, by one thread, every
``period`` seconds; a write made through this process's :class:`~lab.classroom.store.Store`
(the teacher's Next, Lock, Reveal, Vote again) is read back at once, so a phone on the
teacher's server sees it on its next poll. Across servers the database decides: another
server's write is seen here within ``period``.

A room nobody asked about for ``forget_after`` seconds is dropped from the reading.
No Streamlit here.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from .db import rooms, rounds
from .errors import ClassError
from .store import Round, Store, in_effect
from .tx import FAULTS, busy

@dataclass(frozen=True)
class Seen:
    """A room as last read: its end, and its current round's row (None before any)."""
    expires_at: float
    round: Round | None  # phase as stored; :meth:`RoomWatch.current` applies the countdown


class RoomWatch:
    """The current round of the rooms this process's sessions follow (thread-safe)."""

    def __init__(self, store: Store, *, period: float = 0.5, forget_after: float = 60.0,
                 clock: Callable[[], float] | None = None):
        self.store, self.period, self.forget_after = store, period, forget_after
        self.clock = clock or store.clock
        self._seen: dict[str, Seen | None] = {}   # code -> last reading (None: no such room)
        self._asked: dict[str, float] = {}        # code -> when a session last asked
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.reads = 0  # queries made (the benchmark and the tests read it)
        store.on_change.append(self._written)

    # what sessions call --------------------------------------------------------------
    def current(self, code: str) -> Round | None:
        """The round the class sees now, as :meth:`Store.current` answers, from memory.

        Raises ``ClassError('no_room')`` or ``('expired')`` as the store does."""
        code = str(code)
        with self._lock:
            self._asked[code] = time.monotonic()
            known = code in self._seen
            seen = self._seen.get(code)
        if not known:
            seen = self.refresh(code)
        if self._thread is None:
            self._start()
        if seen is None:
            raise ClassError("no_room")
        if seen.expires_at <= self.clock():
            raise ClassError("expired")
        return None if seen.round is None else in_effect(seen.round, self.clock())

    def refresh(self, *codes: str) -> Seen | None:
        """Read ``codes`` (all the rooms followed, if none given) now; the last one's reading."""
        codes = tuple(map(str, codes))
        if not codes:
            with self._lock:
                codes = tuple(self._seen)
        if not codes:
            return None
        found = self._read(codes)
        with self._lock:
            for code in codes:
                if code in self._seen or code in self._asked:
                    self._seen[code] = found.get(code)
        return found.get(codes[-1])

    def _written(self, code: str) -> None:
        """A write through this process's store: read the room back now (if followed)."""
        with self._lock:
            if code not in self._seen:
                return
        try:
            self.refresh(code)
        except ClassError:  # the write stands (logged by busy); the thread reads it later
            pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # the reading ---------------------------------------------------------------------
    def _read(self, codes: tuple[str, ...]) -> dict[str, Seen]:
        q = (sa.select(rooms.c.code, rooms.c.expires_at, rounds)
             .select_from(rooms.outerjoin(rounds, rounds.c.id == rooms.c.current_round))
             .where(rooms.c.code.in_(codes)))
        try:
            with self.store.engine.connect() as conn:
                rows = conn.execute(q).all()
        except FAULTS as e:
            raise busy(e) from None  # "send again" on the page; the thread keeps its reading
        self.reads += 1
        return {r.code: Seen(r.expires_at, None if r.id is None else Round(
            r.id, r.question_no, r.round_no, r.question, r.phase, r.opened_at, r.deadline))
            for r in rows}

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._loop, name="class-room-watch",
                                            daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.period):
            now = time.monotonic()
            with self._lock:
                for code in [c for c, at in self._asked.items()
                             if now - at > self.forget_after]:
                    del self._asked[code]
                    self._seen.pop(code, None)
                if not self._asked:  # nobody follows a room: the next question starts it
                    self._thread = None
                    return
            try:
                self.refresh()
            except ClassError:  # the database away (logged by busy): keep the last reading
                pass

