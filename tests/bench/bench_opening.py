"""Benchmark: a class opening the app at once while one student is already working.

1. Starts ``streamlit run app.py`` on 127.0.0.1 and warms it (one session opened).
2. Quiet: one student (a websocket client, ``monkey.WireSession``: the messages Chromium
   sends for a share link and an Alt+Arrow move) makes --quiet-moves moves; each move is
   timed from its send to the server's answer holding the new DCG.
3. For each N of --n: N sessions open their own share links at once (websocket clients; with
   --assets each first fetches the page and every script and stylesheet it names, as a
   browser's first visit does) while the student goes on moving. Prints how long the N
   took to open (each, and all), the student's move p50/p95/max during the opening against
   quiet, the server CPU seconds used, and the load average.

    python tests/bench/bench_opening.py                  # N = 60 and 300
    python tests/bench/bench_opening.py --n 60 --assets

Every answer is checked against ndcg_core (monkey.WireSession.check). Run by hand; not part
of the test suite. Exit status 1 on wrong figures, crosstalk or server tracebacks.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402

ASSET = re.compile(r'(?:src|href)="\./(static/[^"]+\.(?:js|css))"')


async def fetch(port: int, paths: list[str]) -> int:
    """GET each path over one keep-alive connection (as a browser does); bytes read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    total = 0
    try:
        for path in paths:
            writer.write(f"GET /{path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         "Accept-Encoding: gzip\r\n\r\n".encode())
            await writer.drain()
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
            if "transfer-encoding: chunked" in head:
                while size := int((await reader.readline()).strip() or b"0", 16):
                    total += len(await reader.readexactly(size + 2)) - 2
                await reader.readline()
            else:
                length = int(re.search(r"content-length: *(\d+)", head).group(1))
                total += len(await reader.readexactly(length))
    finally:
        writer.close()
    return total


async def page_assets(base: str) -> list[str]:
    port = urlsplit(base).port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                 .encode())
    html = (await reader.read()).decode("utf-8", "replace")
    writer.close()
    return [""] + sorted(set(ASSET.findall(html)))


async def open_one(base: str, st: M.Student, assets: list[str] | None) -> float:
    t0 = time.perf_counter()
    if assets:
        await fetch(urlsplit(base).port, assets)
    session = M.WireSession(base, st)
    try:
        await session.open()
        session.check("after opening its share link")
    finally:
        await session.close()
    return time.perf_counter() - t0


async def mover_loop(session: M.WireSession, st: M.Student, rng: random.Random,
                     stop: asyncio.Event, out: list[float], least: int,
                     think: tuple[float, float] = (0.2, 0.5)) -> None:
    """Move until ``stop`` is set and at least ``least`` moves are made."""
    while not stop.is_set() or len(out) < least:
        await asyncio.sleep(rng.uniform(*think))
        pos, key = M._pick_move(st, rng)
        M._record_move(st, pos, key)
        out.append(await session.move(pos, key))
        session.check(f"after move {len(st.moves)}")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def line(name: str, xs: list[float]) -> str:
    return (f"{name:<26} n={len(xs):3d}  p50 {M.percentile(xs, 50):7.0f} ms  "
            f"p95 {M.percentile(xs, 95):7.0f} ms  max {max(xs):7.0f} ms")


async def bench(server: M.AppServer, ns: list[int], quiet_moves: int, with_assets: bool,
                seed: int, rounds: int) -> list[str]:
    rng = random.Random(seed)
    assets = await page_assets(server.url) if with_assets else None
    if assets:
        print(f"a first visit fetches {len(assets)} files, "
              f"{await fetch(server.port, assets) / 1e6:.2f} MB (uncompressed)")
    await open_one(server.url, M.Student.make(900, rng), assets)  # warm
    student = M.Student.make(0, rng)
    mover = M.WireSession(server.url, student)
    await mover.open()
    quiet: list[float] = []
    stop = asyncio.Event()
    stop.set()
    await mover_loop(mover, student, rng, stop, quiet, quiet_moves)
    print(f"load average {load()}")
    print(line("quiet: the student's move", quiet))
    first = 1
    for n in ns:
        during, times, failed, wall, cpu = [], [], [], [], 0.0
        for _ in range(rounds):
            students = [M.Student.make(first + i, rng) for i in range(n)]
            first += n
            stop = asyncio.Event()
            cpu0, t0 = server.cpu_seconds(), time.perf_counter()
            # the student moves all through the opening (a short think time: more samples)
            moving = asyncio.create_task(mover_loop(mover, student, rng, stop, during, 0,
                                                    think=(0.05, 0.15)))
            opens = await asyncio.gather(*(open_one(server.url, st, assets)
                                           for st in students), return_exceptions=True)
            wall.append(time.perf_counter() - t0)
            stop.set()
            await moving
            cpu += server.cpu_seconds() - cpu0
            failed += [o for o in opens if isinstance(o, BaseException)]
            times += [1000 * o for o in opens if not isinstance(o, BaseException)]
            student.problems += [p for st in students for p in st.problems]
            await asyncio.sleep(2)
        print(f"\n{n} sessions opening at once{' (with assets)' if assets else ''}, "
              f"{rounds} rounds: all open in {', '.join(f'{w:.1f}' for w in wall)} s, "
              f"server CPU {cpu / rounds:.1f} s a round, load average {load()}")
        if times:
            print(line("  one session's opening", times))
        print(line("  the student's move", during))
        print(f"  p95 during / quiet: {M.percentile(during, 95) / M.percentile(quiet, 95):.1f}x"
              + (f"; {len(failed)} could not open: {failed[0]!r:.200}" if failed else ""))
    await mover.close()
    return student.problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[60, 300])
    ap.add_argument("--quiet-moves", type=int, default=40)
    ap.add_argument("--assets", action="store_true",
                    help="each opening session first fetches the page's scripts and styles")
    ap.add_argument("--rounds", type=int, default=2, help="openings of each N")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    with M.AppServer(Path(tempfile.mkdtemp(prefix="ndcg-opening-"))) as server:
        problems = asyncio.run(bench(server, args.n, args.quiet_moves, args.assets, args.seed,
                                     args.rounds))
        problems += ["server traceback:\n" + t for t in server.all_tracebacks()]
    for p in problems[:10]:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
