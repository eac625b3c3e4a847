"""A session's first run takes a turn (ui/opening.py): a class opening the app at once waits in
line instead of stalling the students already working (issue 26, item 7). The timing itself is
measured by tests/bench/bench_opening.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import opening

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def hold_every_turn() -> int:
    """Take every free turn at once; how many were free."""
    return sum(opening._turns.acquire(timeout=0) for _ in range(opening.AT_ONCE))


def give_back(n: int) -> None:
    for _ in range(n):
        opening._turns.release()


def test_a_first_run_gives_its_turn_back_and_later_runs_take_none():
    """After a session opens every turn is free again; an opened session runs while all are held."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    held = hold_every_turn()
    try:
        assert held == opening.AT_ONCE, "a first run kept its turn"
        for page in ("pages/gain.py", "pages/playground.py"):
            at.switch_page(page).run()
            assert not at.exception
    finally:
        give_back(held)


def test_a_new_session_waits_for_a_turn(monkeypatch):
    """While every turn is held, a new session's first run does not go ahead; then it does."""
    monkeypatch.setattr(opening, "WAIT_S", 5.0)  # then it would go anyway (AppTest waits)
    held = hold_every_turn()
    at = AppTest.from_file(APP, default_timeout=60)
    try:
        assert held == opening.AT_ONCE
        with pytest.raises(RuntimeError, match="timed out"):
            at.run(timeout=2)
    finally:
        give_back(held)
    at = AppTest.from_file(APP, default_timeout=60)  # another new session: it goes ahead
    at.run()
    assert not at.exception
    # the run that waited gives its turn back too (once it has ended: wait for it)
    deadline = time.monotonic() + 30
    while (free := hold_every_turn()) < opening.AT_ONCE and time.monotonic() < deadline:
        give_back(free)
        time.sleep(0.1)
    give_back(free)
    assert free == opening.AT_ONCE
