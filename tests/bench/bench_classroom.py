"""Benchmark: a classroom of N sessions on one Streamlit server (tests/browser/monkey.py).

1. Starts ``streamlit run app.py`` on 127.0.0.1 and warms it up (one session, a few moves).
2. Single session: one browser context opens its share link and makes --moves Alt+Arrow
   moves; each move's latency is measured in the page, from the keydown to the moment the
   DCG metric's text changes.
3. Loaded: N sessions (one browser context each, one headless Chromium, async Playwright)
   open their own share links, then all make --moves moves at the same time, each after a
   random think time (--think, seconds). Every move is checked against that session's own
   ranking and ndcg_core (crosstalk, lost moves, wrong figures).
4. Prints p50/p95 single vs loaded (target: loaded p95 <= 3x single p95) and the server's
   memory per session: VmRSS (/proc/<pid>/status) after opening the N sessions minus before,
   divided by N.

    python tests/bench/bench_classroom.py                  # N = 20, 10 moves each
    python tests/bench/bench_classroom.py --n 10 --moves 20 --think 0 0
    python tests/bench/bench_classroom.py --observers 2 --moves 20 --think 2 6
    python tests/bench/bench_classroom.py --wire              # 2 timed browsers + 18 clients

All N browsers share this machine's cores with the server: with 20 of them on 2 cores the
latency measures mostly the browsers' own drawing. ``--observers M`` times only M sessions
and runs the other sessions' Chromium at nice 19 (as if on the students' own computers);
they still send every move, and the line "moves the server answered" shows the load.
``--wire`` goes further: the other sessions speak Streamlit's websocket protocol directly
(the messages Chromium sends for a share link and an Alt+Arrow move; ``monkey.WireSession``)
with no browser at all, so the server does the whole classroom's work while only the timed
browsers (2 unless --observers says otherwise) draw on this machine. Their answers are
checked against ndcg_core too, and their send-to-new-DCG times are printed apart.

Run by hand; not part of the test suite. Exit status 1 on crosstalk/wrong figures/tracebacks.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20, help="sessions under load")
    ap.add_argument("--moves", type=int, default=10, help="moves per loaded session")
    ap.add_argument("--single-moves", type=int, default=30, help="moves of the single session")
    ap.add_argument("--think", type=float, nargs=2, default=(0.3, 1.0), metavar=("MIN", "MAX"),
                    help="random pause before each move, seconds")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--observers", type=int, default=None,
                    help="time only this many sessions (normal priority); run the other "
                         "sessions' Chromium at nice 19, as if on the students' own computers")
    ap.add_argument("--wire", action="store_true",
                    help="the untimed sessions are websocket clients with no browser (see "
                         "monkey.WireSession); implies --observers 2 unless given")
    args = ap.parse_args()
    if args.wire and args.observers is None:
        args.observers = 2
    think = tuple(args.think)

    M.check_chromium()
    log_dir = Path(tempfile.mkdtemp(prefix="ndcg-classroom-"))
    problems: list[str] = []
    with M.AppServer(log_dir) as server:
        rss_start = server.rss_kb()
        warm = M.run_classroom(server, 1, 3, seed=args.seed, think_s=(0.2, 0.4),
                               measure=False, first_index=90)
        problems += warm.problems
        single = M.run_classroom(server, 1, args.single_moves, seed=args.seed + 1,
                                 think_s=think, first_index=80)
        problems += single.problems
        loaded = M.run_classroom(server, args.n, args.moves, seed=args.seed + 2,
                                 think_s=think, observers=args.observers, wire=args.wire)
        problems += loaded.problems
        tracebacks = server.all_tracebacks()

    s, lo = single.latencies_ms, loaded.latencies_ms
    print(f"server: {server.url}, log {server.log_path}")
    print(f"think time per move: {think[0]:g}-{think[1]:g} s; loaded run {loaded.seconds:.0f} s")
    print(f"after opening, waited {loaded.quiet_seconds:.1f} s for the browsers' after-load "
          "work (JavaScript compilation) to end before the first move")
    print(M.latency_line("single session  ", s))
    rest = "websocket clients" if args.wire else "at nice 19"
    who = (f"{args.observers} of {args.n} sessions (the rest {rest})"
           if args.observers is not None else f"{args.n} sessions")
    print(M.latency_line(f"{who}", lo))
    if args.wire:
        print(M.latency_line(f"the {args.n - args.observers} websocket clients, send to new DCG",
                             [x for st in loaded.students for x in st.wire_ms]))
    if loaded.moves_seconds:
        print(f"moves the server answered under load: {loaded.moves_done} in "
              f"{loaded.moves_seconds:.0f} s = {loaded.moves_done / loaded.moves_seconds:.1f} "
              "moves/s")
    if s and lo:
        ratio = M.percentile(lo, 95) / M.percentile(s, 95)
        print(f"p95 loaded / p95 single = {ratio:.2f}x (target <= 3x): "
              f"{'MET' if ratio <= 3 else 'NOT MET'}")
        print(f"p50 loaded / p50 single = {M.percentile(lo, 50) / M.percentile(s, 50):.2f}x")
    print(f"server CPU while moving: single {single.server_cpu_share:.2f} core, "
          f"{args.n} sessions {loaded.server_cpu_share:.2f} core "
          f"({loaded.moves_cpu_seconds:.0f} s CPU in {loaded.moves_seconds:.0f} s; one Python "
          "process, so about 1 core is its ceiling); the browsers share the same cores")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    mb = 1024
    after_open = loaded.rss_after_open_kb
    print(f"server RSS: at start {rss_start / mb:.0f} MB; before the {args.n} sessions "
          f"{loaded.rss_before_kb / mb:.0f} MB; after opening them "
          + (f"{after_open / mb:.0f} MB" if after_open else "(not all opened)")
          + f"; after their moves {loaded.rss_after_moves_kb / mb:.0f} MB")
    per = loaded.per_session_kb()
    print("memory per session: "
          + (f"{per / mb:.1f} MB (after opening) and " if per is not None else "")
          + f"{(loaded.rss_after_moves_kb - loaded.rss_before_kb) / loaded.n / mb:.1f} MB "
          "(after the moves)")
    print(f"page JS errors: {len(loaded.page_errors + single.page_errors)}")
    for e in (single.page_errors + loaded.page_errors)[:10]:
        print("  " + e)
    print(f"problems (crosstalk, lost moves, wrong figures, exceptions): {len(problems)}")
    for p in problems:
        print("  " + p)
    print(f"server tracebacks: {len(tracebacks)}")
    for t in tracebacks[:3]:
        print(t)
    return 1 if problems or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
