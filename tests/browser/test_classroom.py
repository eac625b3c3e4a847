"""Classroom test: five sessions on one server, each moving its own ranking at the same time.

Each session is a separate browser context opened on a share link with its own labels
(``S00-A`` ...) and its own grades (a distinct permutation of 0..5, so every adjacent swap
changes DCG). After every Alt+Arrow move each session reads its rows and metrics back and
checks them against ndcg_core and against its own expected order: a row of another session,
a lost move or a wrong figure is a failure. Latencies (Alt+Arrow keydown -> the engine's
DCG shown, measured in the page) are printed, not asserted; tests/bench/bench_classroom.py
measures them, after waiting for the machine to go quiet, a wait these tests skip
(``quiet_max_s=0``: they check correctness, which a busy machine must keep too).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import monkey as M

N_SESSIONS = 5
MOVES = 6


def test_five_concurrent_sessions_keep_their_own_ranking(tmp_path: Path) -> None:
    """5 sessions x 6 concurrent moves: no crosstalk, figures = engine, no exception."""
    M.check_chromium()
    with M.AppServer(tmp_path) as server:
        # async Playwright runs in its own thread: the session's sync Playwright (browser
        # fixture of other tests) owns this thread's event loop
        with ThreadPoolExecutor(1) as pool:
            report = pool.submit(M.run_classroom, server, N_SESSIONS, MOVES, 11,
                                 quiet_max_s=0).result()
        all_tracebacks = server.all_tracebacks()
    print(f"\n{N_SESSIONS} sessions x {MOVES} moves in {report.seconds:.0f} s; "
          + M.latency_line("move -> DCG update", report.latencies_ms))
    for st in report.students:
        print(f"  session {st.index}: grades {st.grades}, moves {st.moves}")

    assert not report.problems, "\n".join(report.problems)
    assert not all_tracebacks, "\n\n".join(all_tracebacks)
    assert not report.page_errors, "\n".join(report.page_errors)
    assert [len(st.moves) for st in report.students] == [MOVES] * N_SESSIONS
    assert len(report.latencies_ms) == N_SESSIONS * MOVES


def test_websocket_students_beside_a_browser_keep_their_own_ranking(tmp_path: Path) -> None:
    """The benchmark's --wire mode: one timed browser and four websocket clients (the
    messages a browser sends, no browser). Every client's rows and figures, read from the
    server's answers, match its own moves and ndcg_core."""
    M.check_chromium()
    with M.AppServer(tmp_path) as server:
        with ThreadPoolExecutor(1) as pool:
            report = pool.submit(M.run_classroom, server, 5, 4, seed=12,
                                 think_s=(0.1, 0.3), observers=1, wire=True,
                                 quiet_max_s=0).result()
        all_tracebacks = server.all_tracebacks()
    assert not report.problems, "\n".join(report.problems)
    assert not all_tracebacks, "\n\n".join(all_tracebacks)
    assert [len(st.moves) for st in report.students] == [4] * 5
    assert len(report.latencies_ms) == 4  # only the browser is timed in the page
    wire = report.students[1:]
    assert all(len(st.wire_ms) == 4 and all(0 < ms < 60_000 for ms in st.wire_ms)
               for st in wire), [st.wire_ms for st in wire]


def test_a_websocket_student_notices_a_wrong_order_or_figure(tmp_path: Path) -> None:
    """The client's check can fail: told the wrong order, it reports the rows and the
    figures it really got."""
    import asyncio
    import random

    with M.AppServer(tmp_path) as server:
        st = M.Student.make(7, random.Random(3))

        async def scenario():
            session = M.WireSession(server.url, st)
            try:
                await session.open()
                session.check("as opened")
                assert st.problems == []
                st.order.reverse()  # not what the server holds
                session.check("with a wrong order")
            finally:
                await session.close()

        with ThreadPoolExecutor(1) as pool:  # this thread's loop may belong to Playwright
            pool.submit(asyncio.run, scenario()).result()
    assert len(st.problems) == 1
    assert "rows [('S07-A'" in st.problems[0] and "!= ndcg_core" in st.problems[0]
