"""A session's first run waits its turn, so a class opening the app at once cannot stall the
students already working.

Streamlit runs each session's script in a thread of its own, and Python's threads share one
interpreter lock (the GIL) with the server's event loop, which receives every move and sends
every answer. When 300 sessions open at once, 300 first runs hold that lock in turn: the
event loop waits for it on every message (and for each new session's thread to start), and
a working student's move waits behind the whole class.

Here at most :data:`AT_ONCE` first runs go at once; the others wait on a semaphore, which
holds no lock and costs no CPU, and every later run of a session (a move, an edit, a page
switch) goes straight through. The class opens in about the same total time (the work is
the same); a move competes with two runs, not with every opening one. A first run that
waited :data:`WAIT_S` goes anyway: a stuck turn cannot lock a session out.

Measured with ``tests/bench/bench_opening.py --n 300`` (websocket clients, 2 rounds, on 2
cores shared with other work, load average 14-16), one after the other: the working
student's move p95 during the opening 11.2 s without turns, 2.3 s with them (quiet: 62-77
ms); it made 14 moves in that time without, 64 with.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ui import state

AT_ONCE = 2  # two cores: while one run waits on I/O or numpy the other goes on
WAIT_S = 60.0
_turns = threading.BoundedSemaphore(AT_ONCE)  # one per server process


@contextmanager
def first_run_in_turn() -> Iterator[None]:
    """Run the block at once, or, until a run of this session has ended
    (:func:`ui.state.opened`), once a turn is free."""
    if state.opened():
        yield
        return
    got = _turns.acquire(timeout=WAIT_S)
    try:
        yield
    finally:
        if got:
            _turns.release()
