"""Benchmark: learners pressing Run the tests on "Write it yourself", on one server.

1. Starts ``streamlit run app.py`` on 127.0.0.1 (as root: the sandbox needs it) and opens
   one student on the playground (``monkey.MovingStudent``: websocket moves, each checked
   against ndcg_core).
2. Quiet: the student's moves alone, --quiet-s seconds.
3. Loops: --loopers learners (websocket clients on /write_code) each press Run the tests on
   a dcg that never ends, again as soon as the answer comes, for --loop-s seconds, while the
   student moves. The student's move p95 against quiet.
4. Burst: --learners learners open /write_code, then each presses Run the tests with a
   correct dcg at a random moment within one second. Each learner's time from its press to
   the answer holding "N of N tests passed"; how many never got it (lost); the server's
   extra CPU (its own and its sandboxes', which it waits for) and the peak memory of the
   server and every process under it (PSS) over the level before.

    python tests/bench/bench_code.py
    python tests/bench/bench_code.py --learners 40 --loopers 10

Run by hand; not part of the test suite. Exit status 1 on a lost answer, a wrong result or a
server traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import monkey as M  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RIGHT = (ROOT / "tests" / "data" / "code_solutions" / "dcg__right__1.py").read_text()
ENDLESS = "def dcg(grades, k=None):\n    while True:\n        pass\n"
PASSED = re.compile(r"^(\d+) of (\d+) tests passed$")


class Learner:
    """One browser on /write_code, spoken to over Streamlit's websocket (as monkey's
    WireSession does for the playground): opens the page, presses Run the tests."""

    def __init__(self, base: str, index: int):
        self.base, self.index = base, index
        self.ws = self.editor_id = self.page_hash = None
        self.result: str | None = None
        self.exceptions = 0

    async def open(self):
        import websockets
        from streamlit.proto.BackMsg_pb2 import BackMsg
        url = self.base.replace("http://", "ws://", 1) + "/_stcore/stream"
        self.ws = await websockets.connect(url, subprotocols=["streamlit"], origin=self.base,
                                           max_size=None, open_timeout=120)
        msg = BackMsg()
        msg.rerun_script.query_string = "lang=en"
        msg.rerun_script.page_name = "write_code"
        await self.ws.send(msg.SerializeToString())
        await self._read_run()

    async def press_run(self, code: str) -> float:
        """Send the editor's code and its Run the tests trigger; ms until the result."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash = "lang=en", self.page_hash
        state = rerun.widget_states.widgets.add()
        state.id = self.editor_id
        state.json_value = json.dumps({"code": code, "learner": f"bench-{self.index}",
                                       "progress": []})
        trigger = rerun.widget_states.widgets.add()
        trigger.id = f"$$STREAMLIT_INTERNAL_KEY_{self.editor_id}__events"
        trigger.json_trigger_value = json.dumps([{"event": "run", "value": time.time()}])
        self.result = None
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        await self._read_run()
        return 1000 * (time.perf_counter() - t0)

    async def _read_run(self):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await asyncio.wait_for(self.ws.recv(), 300))
            kind = fwd.WhichOneof("type")
            if kind == "script_finished":
                return
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                el = fwd.delta.new_element
                which = el.WhichOneof("type")
                if which == "bidi_component" and el.bidi_component.id.endswith("cx_editor"):
                    self.editor_id = el.bidi_component.id
                    self.page_hash = fwd.metadata.active_script_hash
                elif which == "alert":
                    self.result = el.alert.body
                elif which == "exception":
                    self.exceptions += 1

    async def close(self):
        if self.ws is not None:
            await self.ws.close()


def tree_pss_mb(root_pid: int) -> float:
    """PSS of ``root_pid`` and every process under it (MB)."""
    parents = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                parents[int(d)] = int(Path(f"/proc/{d}/stat").read_text()
                                      .rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    tree, grew = {root_pid}, True
    while grew:
        more = {p for p, pp in parents.items() if pp in tree} - tree
        tree |= more
        grew = bool(more)
    total = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_with_children(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop_event = pid, 0.0, threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            self.peak = max(self.peak, tree_pss_mb(self.pid))
            time.sleep(0.1)


def moves_between(student: M.MovingStudent, t0: float, t1: float) -> list[float]:
    return [ms for at, ms in student.moves if t0 <= at < t1]


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def line(name, xs):
    return (f"{name:<34} n={len(xs):3d}  p50 {M.percentile(xs, 50):7.0f} ms  "
            f"p95 {M.percentile(xs, 95):7.0f} ms  max {max(xs):7.0f} ms")


async def loopers(base: str, n: int, seconds: float) -> tuple[int, list[str]]:
    learners = [Learner(base, 100 + i) for i in range(n)]
    await asyncio.gather(*(x.open() for x in learners))
    stop = time.perf_counter() + seconds
    runs, results = 0, []

    async def one(x):
        nonlocal runs
        while time.perf_counter() < stop:
            await x.press_run(ENDLESS)
            runs += 1
            results.append(x.result or "")
    await asyncio.gather(*(one(x) for x in learners))
    await asyncio.gather(*(x.close() for x in learners))
    return runs, results


async def burst(base: str, n: int, seed: int) -> tuple[list[float], list[str]]:
    rng = random.Random(seed)
    learners = [Learner(base, i) for i in range(n)]
    await asyncio.gather(*(x.open() for x in learners))
    times, lost = [], []

    async def one(x):
        await asyncio.sleep(rng.uniform(0, 1))
        try:
            ms = await x.press_run(RIGHT)
        except Exception as exc:  # noqa: BLE001 - a lost answer, reported
            lost.append(f"learner {x.index}: {type(exc).__name__}: {exc!s:.200}")
            return
        m = PASSED.match(x.result or "")
        if not m or m.group(1) != m.group(2) or x.exceptions:
            lost.append(f"learner {x.index}: result {x.result!r}")
        else:
            times.append(ms)
    await asyncio.gather(*(one(x) for x in learners))
    await asyncio.gather(*(x.close() for x in learners))
    return times, lost


async def warm_up(base: str):
    warm = Learner(base, 999)
    await warm.open()
    await warm.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=40)
    ap.add_argument("--loopers", type=int, default=10)
    ap.add_argument("--quiet-s", type=float, default=20)
    ap.add_argument("--loop-s", type=float, default=30)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    problems = []
    with M.AppServer(Path(tempfile.mkdtemp(prefix="ndcg-code-"))) as server:
        asyncio.run(warm_up(server.url))   # the page's modules imported once
        student = M.MovingStudent(server.url, seed=args.seed)
        student.start()
        student.opened.wait(120)
        t0 = time.perf_counter()
        time.sleep(args.quiet_s)
        t1 = time.perf_counter()
        quiet = moves_between(student, t0, t1)
        print(f"load average {load()}")
        print(line("quiet: the student's move", quiet))

        runs, results = asyncio.run(loopers(server.url, args.loopers, args.loop_s))
        t2 = time.perf_counter()
        during = moves_between(student, t1, t2)
        stopped = sum("longer than" in r or "endless loop" in r or "tests passed" in r
                      for r in results)
        print(f"\n{args.loopers} learners running an endless loop, {args.loop_s:.0f} s: "
              f"{runs} runs ({stopped} answered), load average {load()}")
        print(line("  the student's move", during))
        print(f"  p95 during / quiet: {M.percentile(during, 95) / M.percentile(quiet, 95):.2f}x")

        base_mb = tree_pss_mb(server.pid)
        cpu0 = cpu_with_children(server.pid)
        sampler = Sampler(server.pid)
        sampler.start()
        t3 = time.perf_counter()
        times, lost = asyncio.run(burst(server.url, args.learners, args.seed))
        wall = time.perf_counter() - t3
        sampler.stop_event.set()
        sampler.join()
        cpu = cpu_with_children(server.pid) - cpu0
        student.stop_event.set()
        student.join(30)
        print(f"\n{args.learners} learners pressing Run the tests within a second: all "
              f"answered in {wall:.1f} s, load average {load()}")
        if times:
            print(line("  a learner's time to its result", times))
        print(f"  lost: {len(lost)}; server CPU (with its sandboxes) {cpu:.1f} s; memory "
              f"(server and its processes, PSS) {base_mb:.0f} MB before, peak +"
              f"{sampler.peak - base_mb:.0f} MB")
        problems += lost + student.st.problems
        problems += ["server traceback:\n" + t for t in server.all_tracebacks()]
    for p in problems[:10]:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
