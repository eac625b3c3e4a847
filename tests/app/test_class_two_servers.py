"""Two app servers on one database share a room, as behind a proxy with sticky sessions.

Each server is its own ``streamlit run app.py`` process on 127.0.0.1; the teacher and the
phones speak Streamlit's websocket as the browser does (tests/class_wire.py). On one SQLite
file (the servers of one machine) and on a real PostgreSQL server (tests/postgres_server.py).
Not timed: the figures are tests/bench/bench_lecture.py's.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402
from class_wire import WirePhone, WireTeacher, run_apart  # noqa: E402
from postgres_server import postgres_server  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", "postgresql"])
def two_servers(request, tmp_path, monkeypatch):
    """Two app servers on one database; the servers inherit its address."""
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
        monkeypatch.setenv("NDCG_LAB_DB_URL", url)
    else:
        monkeypatch.delenv("NDCG_LAB_DB_URL", raising=False)
        monkeypatch.setenv("NDCG_LAB_DATA", str(tmp_path))
    with M.AppServer(tmp_path) as a, M.AppServer(tmp_path) as b:
        yield a, b


@pytest.fixture(scope="module")
def postgres_url():
    with postgres_server() as url:
        yield url


async def until(check, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


def test_a_room_is_shared_by_two_servers_on_one_database(two_servers):
    """The teacher starts a class on server A; a phone on B and one on A join with its code.
    B's phone sees the question the teacher opened on A, both answers are counted on the
    teacher's screen, and the reveal reaches both phones."""
    a, b = two_servers

    async def lecture():
        teacher = WireTeacher(a.url)
        code = await teacher.start()
        assert "key" not in teacher.query and len(teacher.secret) >= 20  # folded away
        on_a, on_b = WirePhone(a.url, code, 0), WirePhone(b.url, code, 1)
        await on_a.join()
        await on_b.join()
        assert "Waiting for the teacher's first question…" in on_b.texts
        stop = asyncio.Event()
        following = [asyncio.create_task(c.follow(stop)) for c in (teacher, on_a, on_b)]
        try:
            await teacher.click("cl_do_next")
            await until(lambda: any(k.startswith("cl_answer") for k in on_b.widgets),
                        "server B's phone draws the question opened on A")
            round_id = int(next(k for k in on_b.widgets
                                if k.startswith("cl_answer"))[len("cl_answer"):])
            await on_b.answer(round_id, "0.961")
            await until(lambda: on_a.answer_box(round_id), "server A's phone draws it")
            await on_a.answer(round_id, "0.5")
            await until(lambda: teacher.answered() == (2, 2),
                        "the teacher's count reads 2 of 2")
            await teacher.click("cl_do_reveal")
            await until(lambda: any(t.startswith("Right!") for t in on_b.texts),
                        "B's phone shows its answer right after the reveal")
            await until(lambda: any(t.startswith("Your answer: 0.5") for t in on_a.texts),
                        "A's phone shows its answer wrong after the reveal")
        finally:
            stop.set()
            await asyncio.gather(*following, return_exceptions=True)
            for c in (teacher, on_a, on_b):
                await c.close()
        return [c.exceptions for c in (teacher, on_a, on_b)]

    assert run_apart(lecture()) == [0, 0, 0]
    assert not a.all_tracebacks() and not b.all_tracebacks()
