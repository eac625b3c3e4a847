"""Benchmark: a lecture hall of phones on one server, or on two sharing one database.

1. Starts ``--servers`` app servers (``streamlit run app.py``, each its own process on
   127.0.0.1) on one database: a fresh SQLite file, or with ``--db postgresql`` one
   PostgreSQL server started as tests/postgres_server.py does.
2. The teacher is a websocket client on the first server (``tests/class_wire.py``: the
   messages Chromium sends, no browser): *Start a class*, then *Next question* and, for the
   next rounds, *Vote again*; its live count reruns as the browser's timer asks.
3. N phones (websocket clients, spread over the servers in turn) join the room with its
   join form and follow it as a phone's browser does: each reruns the live fragment at the
   interval the server gave it.
4. Each round: the teacher clicks; every phone's poll draws the new round's answer box
   (**next**: seconds from the click to each phone's first drawing of it); the phones wait
   ``--wait`` seconds with the question open, from ``--settle`` seconds after the last
   phone drew it (**waiting cores**: each server's CPU over that window, per second; **one
   poll**: that CPU over the polls answered); then every phone sends its answer at a random moment within one
   second (**lost**: answers not acknowledged or not in the database); **count**: seconds
   from the last Send to the teacher's page reading "N of N answered".

   Per round it also prints the servers' CPU per phone beyond the waiting polls for the
   next question and for an answer, and how busy this process was (near 1.0: the phones'
   side, not the server, set the pace).
5. With ``--floor``, the same number of clients (per server) then poll
   tests/apps/poll_floor_app.py, a fragment that draws nothing, at the same intervals: the
   ratio of a poll to Streamlit's own, measured in the same run.

    python tests/bench/bench_lecture.py --students 200 --floor
    python tests/bench/bench_lecture.py --students 400 --servers 2 --db postgresql

The last line reads ``lecture: students=N waiting_cores=X answer_lost=L count_p95_s=C
next_p95_s=S load=A``: X is the busiest server's median over the rounds, C and S are p95 over
the rounds (and phones), A the 1-minute load average at the end. Goals (issue: a lecture of
200 on one 2-core server): X <= 0.3, L = 0, C <= 3, S <= 2. The machine's load average is
printed before and after: on a shared machine, read the figures with it.

Run by hand; not part of the suite. Exit status 1 when an answer is lost, a phone drew an
exception, a server logged a traceback, or the teacher never read N of N.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]
import monkey as M  # noqa: E402
from class_wire import WirePhone, WireTeacher  # noqa: E402

ANSWER = "0.961"  # the bank's first question, NDCG@6 of 3 2 3 0 1 2 (vote again keeps it)


async def wait_for(check, timeout: float, what: str, step: float = 0.02):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(step)
    return found


async def send_within(phone: WirePhone, round_id: int, rng: random.Random) -> tuple:
    """Wait 0-1 s, press Send: (when pressed, acknowledged or not)."""
    await asyncio.sleep(rng.uniform(0, 1))
    pressed = time.perf_counter()
    try:
        await phone.answer(round_id, ANSWER)
        return pressed, True
    except RuntimeError as e:
        print(f"  {e}", flush=True)
        return pressed, False


async def bench(servers: list, store, n: int, rounds: int, wait_s: float,
                settle_s: float) -> dict:
    out = {"next_s": [], "count_s": [], "lost": [], "cores": [], "per_server": [],
           "ms_per_poll": [], "polls_per_s": [], "click_s": [], "ms_per_next": [],
           "ms_per_answer": [], "client_next": [], "client_answer": [], "hook_s": [],
           "redraw_s": []}
    rng = random.Random(35)
    teacher = WireTeacher(servers[0].url)
    code = await teacher.start()
    secret = teacher.secret
    phones = [WirePhone(servers[i % len(servers)].url, code, i) for i in range(n)]
    t0 = time.perf_counter()
    for i in range(0, n, 10):  # a class trickles in: 10 a second (the room takes 20)
        began = time.perf_counter()
        await asyncio.gather(*(p.join() for p in phones[i:i + 10]))
        await asyncio.sleep(1.0 - (time.perf_counter() - began))
    every = [min(p.timers.values()) for p in phones]
    out["poll_s"] = statistics.mean(every)
    print(f"{n} phones joined in {time.perf_counter() - t0:.1f} s (each polls every "
          f"{min(every):.2f}-{max(every):.2f} s, {statistics.mean(every):.2f} s on average)",
          flush=True)
    stop = asyncio.Event()
    followers = [asyncio.create_task(c.follow(stop)) for c in [teacher, *phones]]
    try:
        for r in range(rounds):
            cpu_a, mine_a = sum(s.cpu_seconds() for s in servers), time.process_time()
            clicked = time.perf_counter()
            await teacher.click("cl_do_next" if r == 0 else "cl_do_again")
            out["click_s"].append(time.perf_counter() - clicked)
            rnd = store.current(code)
            box = f"cl_answer{rnd.id}"
            await wait_for(lambda: all(box in p.widgets for p in phones), 60,
                           "every phone to draw the question")
            seen = [p.first_seen[box] - clicked for p in phones]
            out["next_s"].extend(seen)
            # the two legs: the click to the poll that drew the hook, the hook to the question
            hooks = [p.hook_seen[-1] - clicked for p in phones]
            out["hook_s"].extend(hooks)
            out["redraw_s"].extend(s_ - h for s_, h in zip(seen, hooks))
            # the servers' CPU from the click to the last phone's drawing, per phone (the
            # polls of phones still waiting included), and this process's share of a core
            # (1.0: the phones' side, not the server, set the pace)
            next_cpu = sum(s.cpu_seconds() for s in servers) - cpu_a
            next_took = time.perf_counter() - clicked
            out["client_next"].append(
                (time.process_time() - mine_a) / (time.perf_counter() - clicked))
            # waiting: the question open, nobody answering yet, once the polls that came late
            # during the answers and the next question have been made up for (a phone's
            # timer, as the browser's, runs a late tick at once)
            await asyncio.sleep(settle_s)
            cpu0 = [s.cpu_seconds() for s in servers]
            runs0 = sum(p.runs for p in phones)
            w0 = time.perf_counter()
            await asyncio.sleep(wait_s)
            took = time.perf_counter() - w0
            cores = [(s.cpu_seconds() - c) / took for s, c in zip(servers, cpu0)]
            polls = (sum(p.runs for p in phones) - runs0) / took
            out["per_server"].append(cores)
            out["cores"].append(max(cores))
            # a loaded machine slows the polls (a phone's browser would too): the CPU of one
            # poll, and the figure at the rate the phones were asked to poll
            out["ms_per_poll"].append(1000 * sum(cores) / polls)
            out["polls_per_s"].append(polls)
            cpu_a, mine_a, a0 = (sum(s.cpu_seconds() for s in servers), time.process_time(),
                                 time.perf_counter())
            sent = await asyncio.gather(*(send_within(p, rnd.id, rng) for p in phones))
            last = max(pressed for pressed, _ in sent)
            acked = sum(ok for _, ok in sent)
            await wait_for(lambda: teacher.answered() == (n, n) or None, 60,
                           f"the teacher's page to read {n} of {n}")
            count_s = time.perf_counter() - last
            # beyond the waiting: what the servers spent on the phones' next question and on
            # the answers, the polls of the same time (at the waiting rate) taken off
            waiting = sum(cores)
            out["ms_per_next"].append(1000 * (next_cpu - waiting * next_took) / n)
            out["ms_per_answer"].append(1000 * (sum(s.cpu_seconds() for s in servers) - cpu_a
                                                - waiting * (time.perf_counter() - a0)) / n)
            out["client_answer"].append(
                (time.process_time() - mine_a) / (time.perf_counter() - a0))
            stored = len(store.answers(code, rnd.id))
            lost = n - min(stored, acked)
            out["count_s"].append(count_s)
            out["lost"].append(lost)
            print(f"round {r + 1}: next on every phone {max(seen):.2f} s after the click "
                  f"(median {statistics.median(seen):.2f}); waiting "
                  f"{' + '.join(f'{c:.3f}' for c in cores)} cores at {polls:.0f} polls/s "
                  f"({out['ms_per_poll'][-1]:.2f} ms each); {stored}/{n} stored, "
                  f"{acked} acknowledged; teacher read {n} of {n} {count_s:.2f} s after "
                  f"the last Send; load {os.getloadavg()[0]:.2f}", flush=True)
            print(f"  the hook drawn after the click: median "
                  f"{statistics.median(hooks):.2f} s, max {max(hooks):.2f} s; the question "
                  f"after the hook: median {statistics.median(out['redraw_s'][-n:]):.2f} s, "
                  f"max {max(out['redraw_s'][-n:]):.2f} s", flush=True)
            print(f"  click {out['click_s'][-1]:.2f} s; server CPU per phone beyond waiting: next "
                  f"{out['ms_per_next'][-1]:.1f} ms, answer {out['ms_per_answer'][-1]:.1f} ms; "
                  f"phones' process busy {out['client_next'][-1]:.2f} / "
                  f"{out['client_answer'][-1]:.2f} of a core", flush=True)
    finally:
        stop.set()
        await asyncio.gather(*followers, return_exceptions=True)
        await asyncio.gather(*(c.close() for c in [teacher, *phones]),
                             return_exceptions=True)
    out["exceptions"] = sum(c.exceptions for c in [teacher, *phones])
    out["secret"] = secret
    return out


async def floor(server, n: int, windows: int, wait_s: float, poll: str) -> dict:
    """N clients on tests/apps/poll_floor_app.py, each rerunning a fragment that draws nothing
    at the phones' intervals: what the same connections cost a server that only polls."""
    from class_wire import WireClient
    clients = [WireClient(server.url, {"poll": poll}, page="") for _ in range(n)]
    for i in range(0, n, 20):
        await asyncio.gather(*(c.connect() for c in clients[i:i + 20]))
    stop = asyncio.Event()
    followers = [asyncio.create_task(c.follow(stop)) for c in clients]
    cores, per_poll = [], []
    try:
        await asyncio.sleep(3)
        for _ in range(windows):
            cpu0, runs0, w0 = server.cpu_seconds(), sum(c.runs for c in clients), \
                time.perf_counter()
            await asyncio.sleep(wait_s)
            took = time.perf_counter() - w0
            cores.append((server.cpu_seconds() - cpu0) / took)
            per_poll.append(1000 * cores[-1] / ((sum(c.runs for c in clients) - runs0) / took))
    finally:
        stop.set()
        await asyncio.gather(*followers, return_exceptions=True)
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return {"cores": statistics.median(cores), "ms_per_poll": statistics.median(per_poll)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--servers", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--wait", type=float, default=6.0,
                    help="seconds the phones wait with the question open, each round")
    ap.add_argument("--settle", type=float, default=2.0,
                    help="seconds between the last phone drawing the question and the "
                         "waiting window")
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--floor", action="store_true",
                    help="then the same number of clients (per server) on a page that polls "
                         "and draws nothing (tests/apps/poll_floor_app.py): the ratio")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from lab.classroom import db
    from lab.classroom.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="ndcg-bench-lecture-"))
    with ExitStack() as stack:
        if args.db == "postgresql":
            from postgres_server import postgres_server
            db_url = stack.enter_context(postgres_server())
            os.environ["NDCG_LAB_DB_URL"] = db_url
        else:
            os.environ.pop("NDCG_LAB_DB_URL", None)
            os.environ["NDCG_LAB_DATA"] = str(tmp)
            db_url = f"sqlite:///{tmp / 'class.sqlite3'}"
        store = Store(db.open_engine(db_url))
        stack.callback(store.engine.dispose)
        servers = [stack.enter_context(M.AppServer(tmp)) for _ in range(args.servers)]
        idle0 = [s.cpu_seconds() for s in servers]
        time.sleep(3)
        idle = max((s.cpu_seconds() - c) / 3 for s, c in zip(servers, idle0))
        load0 = os.getloadavg()
        t0 = time.perf_counter()
        out = asyncio.run(bench(servers, store, args.students, args.rounds, args.wait,
                                args.settle))
        load1 = os.getloadavg()
        tracebacks = sum(len(s.all_tracebacks()) for s in servers)
        if args.floor:
            for s in servers:
                s.stop()
            from ui.class_views import PHONE_POLL_S
            with M.AppServer(tmp, app="tests/apps/poll_floor_app.py") as bare:
                ref = asyncio.run(floor(bare, args.students // args.servers, 5, args.wait,
                                        "-".join(map(str, PHONE_POLL_S))))
            load2 = os.getloadavg()
    cores = statistics.median(out["cores"])
    count_p95 = M.percentile(out["count_s"], 95)
    next_p95 = M.percentile(out["next_s"], 95)
    lost = sum(out["lost"])
    print(f"\n{args.students} phones x {args.rounds} rounds on {args.servers} server(s), "
          f"{args.db} ({time.perf_counter() - t0:.0f} s); a server idle before: "
          f"{idle:.3f} cores")
    print(f"waiting ({args.wait:.0f} s a round, question open): busiest server median "
          f"{cores:.3f} cores (rounds: {', '.join(f'{c:.3f}' for c in out['cores'])})")
    ms = statistics.median(out["ms_per_poll"])
    nominal = ms / 1000 * args.students / args.servers / out["poll_s"]
    print(f"one poll: median {ms:.2f} ms of server CPU at "
          f"{statistics.median(out['polls_per_s']):.0f} polls/s (asked: "
          f"{args.students / out['poll_s']:.0f}/s); at the asked rate a server would use "
          f"{nominal:.3f} cores")
    print(f"next question on a phone after the click: median "
          f"{statistics.median(out['next_s']):.2f} s, p95 {next_p95:.2f} s, max "
          f"{max(out['next_s']):.2f} s (goal p95 <= 2 s)")
    print(f"  of which: the click to the poll that drew the hook median "
          f"{statistics.median(out['hook_s']):.2f} s, p95 {M.percentile(out['hook_s'], 95):.2f}"
          f" s; the hook to the question median {statistics.median(out['redraw_s']):.2f} s, "
          f"p95 {M.percentile(out['redraw_s'], 95):.2f} s")
    print(f"teacher reads N of N after the last Send: median "
          f"{statistics.median(out['count_s']):.2f} s, p95 {count_p95:.2f} s (goal <= 3 s)")
    print(f"answers lost: {lost} ({out['lost']}); exceptions drawn {out['exceptions']}; "
          f"server tracebacks {tracebacks}")
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (2 cores)")
    ms_next, ms_answer = (statistics.median(out["ms_per_next"]),
                          statistics.median(out["ms_per_answer"]))
    print(f"server CPU per phone beyond waiting: the next question {ms_next:.1f} ms, an answer "
          f"{ms_answer:.1f} ms (medians); teacher's click {statistics.median(out['click_s']):.2f}"
          f" s; the phones' process busy {max(out['client_next'] + out['client_answer']):.2f} "
          f"of a core at most")
    if args.floor:
        print(f"floor: {args.students // args.servers} clients polling a fragment that draws "
              f"nothing, same intervals: {ref['cores']:.3f} cores, {ref['ms_per_poll']:.2f} ms "
              f"a poll (load after {load2[0]:.2f}); the lecture's waiting = "
              f"{cores / ref['cores']:.2f}x the floor, a poll {ms / ref['ms_per_poll']:.2f}x")
    print(f"lecture: students={args.students} waiting_cores={cores:.3f} answer_lost={lost} "
          f"count_p95_s={count_p95:.2f} next_p95_s={next_p95:.2f} load={load1[0]:.2f}")
    return 1 if lost or out["exceptions"] or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
