"""Benchmark: evaluate() now against evaluate() at an earlier commit, interleaved in one
process on bench_engine.py's data (the exact sums' cost: the ratio is what to read; the
machine's load moves both alike).

    python tests/bench/bench_exact.py --before 4fa918d          # 10,000 x 100, 7 repeats
    python tests/bench/bench_exact.py --before 4fa918d --sizes 7000x1000 --repeats 3

Run by hand; not part of the test suite.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import ndcg_core as now  # noqa: E402
from bench_engine import CUTS, make_data  # noqa: E402


def engine_at(commit: str):
    """ndcg_core as it was at ``commit``, imported under the name ndcg_core_before."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "ndcg_core"],
                         capture_output=True, check=True).stdout
    where = Path(tempfile.mkdtemp())
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(where, filter="data")
    os.rename(where / "ndcg_core", where / "ndcg_core_before")
    sys.path.insert(0, str(where))
    return importlib.import_module("ndcg_core_before")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="the commit to compare with")
    ap.add_argument("--sizes", default="10000x100")
    ap.add_argument("--conventions", default="trec_eval,sklearn")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    before = engine_at(args.before)
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the start")
    for size in args.sizes.split(","):
        nq, nd = (int(x) for x in size.lower().split("x"))
        qrels, run = make_data(nq, nd)
        for convention in args.conventions.split(","):
            times = {"before": [], "now": []}
            for _ in range(args.repeats):
                for name, engine in (("before", before), ("now", now)):
                    start = time.perf_counter()
                    res = engine.evaluate(qrels, run, k=CUTS, convention=convention)
                    times[name].append(time.perf_counter() - start)
                    times[name + " result"] = res
            diff = float((times["before result"] - times["now result"]).abs().max().max())
            b, n = statistics.median(times["before"]), statistics.median(times["now"])
            print(f"{nq:,} x {nd:,} {convention:10s} before {b:7.3f} s  now {n:7.3f} s  "
                  f"now/before {n / b:5.2f}  max |diff| {diff:.1e}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")


if __name__ == "__main__":
    main()
