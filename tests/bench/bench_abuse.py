"""Benchmark: class mode under a participant's floods and a database fault, and what a
working student feels meanwhile (its Send -> acknowledgement time).

1. Starts ``streamlit run app.py`` on 127.0.0.1 with a fresh SQLite file (or PostgreSQL with
   ``--db postgresql``: tests/postgres_server.py starts one). The teacher's room and question
   are made through the store (the same database the server reads).
2. A working student (``WireStudent`` of bench_class.py: Streamlit's websocket protocol, no
   browser) joins and sends an answer every 1.5 s, polling its live fragment every second.
3. Phases of ``--phase-s`` seconds each (default 15), in order:
   ``quiet`` (nothing else), ``join flood`` (one session pressing Join in a loop: once in,
   its page no longer draws the join form; plus new sessions from one address: each client
   connects from its own loopback address,
   127.0.0.x, so Streamlit's ``st.context.ip_address`` tells them apart), ``answer flood``
   (the bots that got in send as fast as they can), ``NUL links`` (``?room=%00&key=x`` and
   ``?join=%00&me=x`` in a loop), ``guessing`` (random join codes in a loop), and the
   database fault: ``db lock`` (SQLite: another connection holds BEGIN IMMEDIATE for the
   phase) or ``db down`` (PostgreSQL stopped for the phase, then started again).
4. Per phase: the student's Send -> ack median and p95 (an ack is "Sent: ..." or, in a
   fault, the "busy" sentence), sends refused, the server's CPU seconds (and per refused
   request in the fault), the flood's seats taken and refusals, tracebacks in the server's
   log; at the end, that every acknowledged answer is stored.

    python tests/bench/bench_abuse.py                 # SQLite, 15 s phases
    python tests/bench/bench_abuse.py --db postgresql --phase-s 20
    python tests/bench/bench_abuse.py --rich-cost     # CPU of one uncaught database
                                                       # traceback, rich logging on vs off

Run by hand; not part of the suite. Exit status 1 when an acknowledged answer is lost, the
flood took more than its limit of seats, the working student could not join, or the server
logged a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.parse
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser"),
                str(ROOT / "tests" / "bench")]
import monkey as M  # noqa: E402
from bench_class import WireStudent  # noqa: E402


class Wire(WireStudent):
    """A websocket client from its own loopback address (``source``), which may open any
    query string, join, and send."""

    def __init__(self, base: str, code: str, index: int, source: str = "127.0.0.1",
                 query: str | None = None):
        super().__init__(base, code, index)
        self.source = source
        self.headers: dict | None = None  # sent with the websocket's request
        if query is not None:
            self.query = query

    async def connect(self) -> None:
        import websockets
        self.ws = await websockets.connect(
            self.base.replace("http://", "ws://", 1) + "/_stcore/stream",
            subprotocols=["streamlit"], origin=self.base, max_size=None, open_timeout=60,
            local_addr=(self.source, 0), proxy=None, additional_headers=self.headers)

    async def try_join(self) -> str:
        """Draw the join form, press Join: "joined", or the refusal's first words."""
        self.query = urllib.parse.urlencode({"join": self.code})
        self.widgets.pop("cl_code", None)
        for _ in range(3):  # a fresh server's first run routes through app.py, then reruns
            await self.run(page_name="class")
            if "cl_code" in self.widgets:
                break
        else:  # this session is in the class already: its page shows the question
            return "no form: already in"
        await self.run(states=[("string_value", self.widgets["cl_code"], self.code),
                               ("trigger_value", self.submit, True)])
        return "joined" if "me=" in self.query else (self.texts or ["?"])[0][:40]

    async def timed_send(self, round_id: int, text: str) -> tuple[float, str]:
        t0 = time.perf_counter()
        box = self.widgets[f"cl_answer{round_id}"]
        await self.run([("string_value", box, text), ("trigger_value", self.submit, True)],
                       fragment=True)
        took = time.perf_counter() - t0
        said = " ".join(self.texts)
        kind = ("sent" if "Sent:" in said else "busy" if "database is busy" in said
                else "refused")
        return took, kind


async def student_loop(s: Wire, round_id: int, stop: asyncio.Event, log: list) -> None:
    """Send a new answer every 1.5 s (under the 8 per 10 s limit) until ``stop``."""
    n = 0
    while not stop.is_set():
        n += 1
        text = f"0.{100 + n % 900:03d}"
        took, kind = await s.timed_send(round_id, text)
        log.append((time.perf_counter(), took, kind, text))
        await asyncio.sleep(max(0.0, 1.5 - took))


async def poll_loop(s: Wire, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await asyncio.sleep(1.0)
        await s.run(fragment=True)


# ------------------------------------------------------------------ the floods

async def join_flood(base, code, stop, out) -> None:
    one = Wire(base, code, 1000, "127.0.0.2")
    await one.connect()

    async def same_session():
        while not stop.is_set():
            got = await one.try_join()
            out[got] = out.get(got, 0) + 1

    async def new_sessions():
        i = 0
        while not stop.is_set():
            i += 1
            w = Wire(base, code, 2000 + i, "127.0.0.3")
            await w.connect()
            got = await w.try_join()
            out["new session: " + got] = out.get("new session: " + got, 0) + 1
            if got == "joined":
                out.setdefault("bots", []).append(w)
            else:
                await w.ws.close()

    await asyncio.gather(same_session(), new_sessions())
    await one.ws.close()


async def answer_flood(bots, round_id, stop, out) -> None:
    async def spam(b):
        while not stop.is_set():
            _, kind = await b.timed_send(round_id, "0.001")
            out[kind] = out.get(kind, 0) + 1
    await asyncio.gather(*(spam(b) for b in bots))


async def nul_links(base, code, stop, out) -> None:
    async def loop(query, source):
        w = Wire(base, code, 3000, source, query=query)
        await w.connect()
        while not stop.is_set():
            w.query = query
            await w.run(page_name="class")
            out[query] = out.get(query, 0) + 1
            out["exceptions"] = w.exceptions
        await w.ws.close()
    await asyncio.gather(*(loop(q, f"127.0.0.{4 + i}") for i, q in enumerate(
        ["room=%00&key=x", "join=%00&me=x", "room=%00&key=x", "join=%00&me=x"])))


async def guessing(base, code, stop, out) -> None:
    from lab.classroom import codes
    w = Wire(base, code, 4000, "127.0.0.8")
    await w.connect()
    while not stop.is_set():
        w.code = "".join(random.choice(codes.ALPHABET) for _ in range(6))
        got = await w.try_join()
        out[got] = out.get(got, 0) + 1
    await w.ws.close()


# ------------------------------------------------------------------ the run

async def bench(server, db_url, phase_s, cluster) -> tuple[list, dict]:
    from lab.classroom import db, questions as Q
    from lab.classroom.bank import BANK
    from lab.classroom.store import Store
    store = Store(db.open_engine(db_url))
    room, secret = store.create_room()
    rnd = store.open_question(room.code, secret, Q.to_json(BANK[0]))
    me = Wire(server.url, room.code, 0, "127.0.0.9")
    await me.connect()
    if await me.try_join() != "joined":
        raise RuntimeError(f"the working student could not join: {me.texts}")
    await me.run(fragment=True)
    token = urllib.parse.parse_qs(me.query)["me"][0]
    stop_all = asyncio.Event()
    log: list = []
    tasks = [asyncio.create_task(student_loop(me, rnd.id, stop_all, log)),
             asyncio.create_task(poll_loop(me, stop_all))]
    phases, flood = [], {}
    bots: list = []

    async def phase(name, make=None, fault=None):
        stop = asyncio.Event()
        out: dict = {}
        t0, cpu0, tb0 = time.perf_counter(), server.cpu_seconds(), len(server.all_tracebacks())
        task = asyncio.create_task(make(stop, out)) if make else None
        undo = fault() if fault else None
        await asyncio.sleep(phase_s)
        stop.set()
        if undo:
            undo()
        if task:
            await asyncio.wait_for(task, 120)
        t1, cpu1 = time.perf_counter(), server.cpu_seconds()
        sends = [(took, kind) for at, took, kind, _ in log if t0 <= at - took < t1]
        phases.append({"name": name, "sends": sends, "cpu": cpu1 - cpu0, "s": t1 - t0,
                       "out": out, "tracebacks": len(server.all_tracebacks()) - tb0,
                       "seats": store.room(room.code).students})
        bots.extend(out.pop("bots", []))
        await asyncio.sleep(2)  # the student's sends settle between phases

    await phase("quiet")
    await phase("join flood", lambda stop, out: join_flood(server.url, room.code, stop, out))
    await phase("answer flood", lambda stop, out: answer_flood(bots, rnd.id, stop, out))
    await phase("NUL links", lambda stop, out: nul_links(server.url, room.code, stop, out))
    await phase("guessing", lambda stop, out: guessing(server.url, room.code, stop, out))
    if cluster is None:
        def hold():
            holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            return lambda: (holder.execute("ROLLBACK"), holder.close())
        await phase("db lock", fault=hold)
    else:
        def down():
            cluster.stop()
            return cluster.start
        await phase("db down", fault=down)
    await phase("after", None)
    stop_all.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    acked = [text for _, _, kind, text in log if kind == "sent"]
    mine = store.my_answer(room.code, token, rnd.id)
    flood["last acknowledged"] = acked[-1] if acked else None
    flood["stored"] = mine.answer if mine else None
    flood["exceptions drawn"] = me.exceptions + sum(b.exceptions for b in bots)
    for b in bots + [me]:
        await b.ws.close()
    store.engine.dispose()
    return phases, flood


def report(phases, flood, load0, load1) -> int:
    from lab.classroom.limits import Limits
    bad = 0
    print(f"\n{'phase':13} {'sends':>5} {'median':>7} {'p95':>7} {'busy':>5} {'refused':>7} "
          f"{'CPU s':>6} {'seats':>5} {'tracebacks':>10}")
    for p in phases:
        took = [t for t, _ in p["sends"]] or [float("nan")]
        kinds = [k for _, k in p["sends"]]
        print(f"{p['name']:13} {len(took):5} {statistics.median(took):7.2f} "
              f"{M.percentile(took, 95):7.2f} {kinds.count('busy'):5} "
              f"{kinds.count('refused'):7} {p['cpu']:6.2f} {p['seats']:5} "
              f"{p['tracebacks']:10}")
        if p["out"]:
            print(f"{'':13} {', '.join(f'{k}: {v}' for k, v in p['out'].items())}")
        if p["name"] in ("db lock", "db down"):
            print(f"{'':13} server CPU {p['cpu']:.2f} s over {p['s']:.0f} s of fault "
                  f"({kinds.count('busy')} sends answered busy)")
        bad |= p["tracebacks"] > 0
    seats = max(p["seats"] for p in phases)
    limit = Limits()
    allowed = 1 + limit.joins_per_session + limit.seats_per_address
    print(f"\nseats taken: {seats} (the student + at most {limit.joins_per_session} from the "
          f"looping session + {limit.seats_per_address} from the new sessions' address)")
    print(f"last acknowledged answer {flood['last acknowledged']}, stored "
          f"{flood['stored']}; exceptions drawn {flood['exceptions drawn']}")
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    bad |= flood["last acknowledged"] != flood["stored"] or flood["exceptions drawn"] > 0
    bad |= seats > allowed * 2
    return 1 if bad else 0


def rich_cost(tmp: Path, n: int) -> int:
    """Server CPU per uncaught SQLAlchemy error, with Streamlit's rich logging on and off."""
    app = tmp / "db_error_app.py"
    app.write_text("import sqlalchemy as sa\nimport streamlit as st\nst.title('x')\n"
                   "with sa.create_engine('sqlite://').connect() as c:\n"
                   "    c.execute(sa.text('SELECT * FROM missing'))\n")
    got = {}
    for rich in ("true", "false"):
        with M.AppServer(tmp, app=str(app), extra_args=("--logger.enableRich", rich)) as server:
            async def go():
                w = Wire(server.url, "", 0)
                await w.connect()
                await w.run()  # warm up
                cpu0 = server.cpu_seconds()
                for _ in range(n):
                    await w.run()
                await w.ws.close()
                return (server.cpu_seconds() - cpu0) / n
            got[rich] = asyncio.run(go())
            logged = server.log_text().count("no such table: missing")
            if logged < n:
                raise RuntimeError(f"{logged} errors logged of {n} reruns")
    print(f"server CPU per uncaught database error ({n} reruns): rich logging on "
          f"{1000 * got['true']:.0f} ms, off {1000 * got['false']:.0f} ms; load average "
          f"{os.getloadavg()[0]:.2f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--phase-s", type=float, default=15.0)
    ap.add_argument("--rich-cost", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ndcg-bench-abuse-"))
    if args.rich_cost:
        return rich_cost(tmp, 20)
    with ExitStack() as stack:
        cluster = None
        if args.db == "postgresql":
            from postgres_server import postgres_cluster
            cluster = stack.enter_context(postgres_cluster())
            db_url = cluster.url
            os.environ["NDCG_LAB_DB_URL"] = db_url
        else:
            os.environ.pop("NDCG_LAB_DB_URL", None)
            os.environ["NDCG_LAB_DATA"] = str(tmp)
            db_url = f"sqlite:///{tmp / 'class.sqlite3'}"
        server = stack.enter_context(M.AppServer(tmp))
        load0 = os.getloadavg()
        phases, flood = asyncio.run(bench(server, db_url, args.phase_s, cluster))
        load1 = os.getloadavg()
    print(f"{args.db}, {args.phase_s:.0f} s phases")
    return report(phases, flood, load0, load1)


if __name__ == "__main__":
    sys.exit(main())
