"""How long the onboarding lead's live matrix and a member's recorded answer take on a full
team: 200 members, 40 events each (8,000 events), on SQLite (WAL) in a temporary folder.

    python tests/bench/bench_onboarding.py [--members 200] [--events 40] [--repeat 15]

Prints the median and p90 of: one event recorded (Store.record: a write transaction and the
step's level read back), the roster with every event's evidence (what a download reads) and
the lead's matrix (Store.summary, added up by the database, then
lab.onboarding.report.matrix), which the lead's page draws every 5 s.
Run by hand; report the machine's load average (``uptime``) with the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lab.onboarding import db, report, steps as S  # noqa: E402
from lab.onboarding.store import Store  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(0.9 * (len(times) - 1))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--members", type=int, default=200)
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(db.open_engine(f"sqlite:///{folder}/bench.sqlite3"))
        team, secret = store.create_team("bench")
        people = [store.join(team.code, f"member {i}")[0] for i in range(a.members)]
        for m in people:
            for j in range(a.events):
                store.record(m, S.STEP_IDS[j % len(S.STEP_IDS)], ("tried", "done")[j % 2],
                             {"answer": j})
        print(f"{a.members} members x {a.events} events")
        for name, fn in (
                ("one event recorded", lambda: store.record(people[0], "ndcg", "tried", {})),
                ("every event (a download)", lambda: store.roster(team.code, secret)),
                ("the lead's matrix", lambda: report.matrix(*store.summary(
                    team.code, secret)[1:]))):
            med, p90 = timed(fn, a.repeat)
            print(f"{name:22s} median {med:7.1f} ms   p90 {p90:7.1f} ms")
        store.engine.dispose()


if __name__ == "__main__":
    main()
