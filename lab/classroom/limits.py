"""How fast one participant may join a class or try codes: no one locks a class out.

A join is counted per browser session, per client address and per room (a second); a code
that opens no class (a guess) per session and per address. The counts live in this server
process's memory: a flood is refused before it reaches the database, and a restart forgets
them (a few minutes of history is all they keep). With two servers each counts its own.

A client with no address (``None``: Streamlit reports none for a connection from this
machine, which is also every student's connection behind a reverse proxy on the same host
unless the proxy's header is configured: :mod:`lab.classroom.config`) is counted per session
and per room only, never as one address for the whole class.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, fields
from typing import Callable

from .errors import ClassError

ROOM_LIFE = 24 * 3600.0  # a room's seats from one address are counted for the room's life


@dataclass(frozen=True)
class Limits:
    """The limits (each a count per ``*_window`` seconds); ``[class]`` in secrets.toml may
    set any of them (:func:`lab.classroom.config.limits`)."""
    joins_per_session: int = 5        # a student joins once; a retry after "full" or a typo
    joins_per_address: int = 60       # a lecture hall on one NAT address joins in minutes
    address_window: float = 60.0
    joins_per_room_second: int = 20   # a 200-seat hall scanning the QR code: ~5 a second
    seats_per_address: int = 50       # in one room, for its life: one address never fills it
    misses_per_session: int = 10      # codes that open no class
    misses_per_address: int = 40
    session_window: float = 600.0

    def __post_init__(self):
        for f in fields(self):
            if not getattr(self, f.name) > 0:
                raise ValueError(f"class limit {f.name} must be above 0, got "
                                 f"{getattr(self, f.name)!r}")


class Window:
    """Events per key in a sliding window of ``seconds``: at most ``limit`` of them."""

    MAX_KEYS = 50_000  # past this, keys with nothing in their window are dropped

    def __init__(self, limit: int, seconds: float):
        self.limit, self.seconds = int(limit), float(seconds)
        self.times: dict[str, deque] = {}

    def full(self, key: str, now: float) -> bool:
        times = self.times.get(key)
        if not times:
            return False
        while times and now - times[0] >= self.seconds:
            times.popleft()
        return len(times) >= self.limit

    def add(self, key: str, now: float) -> None:
        if len(self.times) >= self.MAX_KEYS:
            self._prune(now)
        self.times.setdefault(key, deque(maxlen=self.limit)).append(now)

    def _prune(self, now: float) -> None:
        for key in [k for k, ts in self.times.items() if not ts or now - ts[-1] >= self.seconds]:
            del self.times[key]


class Gate:
    """Admits a join attempt, or refuses it with a :class:`ClassError` before any query."""

    def __init__(self, limits: Limits = Limits(), *, clock: Callable[[], float] = time.monotonic):
        self.limits, self.clock = limits, clock
        self.lock = threading.Lock()
        L = limits
        self.session_joins = Window(L.joins_per_session, L.session_window)
        self.address_joins = Window(L.joins_per_address, L.address_window)
        self.room_joins = Window(L.joins_per_room_second, 1.0)
        self.room_seats = Window(L.seats_per_address, ROOM_LIFE)
        self.session_misses = Window(L.misses_per_session, L.session_window)
        self.address_misses = Window(L.misses_per_address, L.session_window)

    def admit(self, session: str, address: str | None, code: str) -> None:
        """Let one join attempt at ``code`` through, or refuse it (``guessing``,
        ``slow_down``, ``address_full``, ``crowded``). The room counts every attempt let through; the session
        and the address count a seat taken (:meth:`joined`) or a code that opened no class
        (:meth:`missed`), so a student's typos never read as "too many joins"."""
        now = self.clock()
        with self.lock:
            if (self.session_misses.full(session, now)
                    or address and self.address_misses.full(address, now)):
                raise ClassError("guessing")
            if (self.session_joins.full(session, now)
                    or address and self.address_joins.full(address, now)):
                raise ClassError("slow_down")
            if address and self.room_seats.full(f"{code} {address}", now):
                raise ClassError("address_full")
            if self.room_joins.full(code, now):
                raise ClassError("crowded")
            self.room_joins.add(code, now)

    def joined(self, session: str, address: str | None, code: str) -> None:
        """Count a seat taken in room ``code``."""
        now = self.clock()
        with self.lock:
            self.session_joins.add(session, now)
            if address:
                self.address_joins.add(address, now)
                self.room_seats.add(f"{code} {address}", now)

    def missed(self, session: str, address: str | None) -> None:
        """Count a code that opened no class (a typo, or a guess)."""
        now = self.clock()
        with self.lock:
            self.session_misses.add(session, now)
            if address:
                self.address_misses.add(address, now)
