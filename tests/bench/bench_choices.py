"""Benchmark: ndcg_core.compare_choices and the curves of "Choose gain and cutoff".

Seeded synthetic data: 30 runs x 250 queries x 100 documents each (grades 0-3, runs of
different skill), 12 choices: by default the tab's own grid, linear and exponential gain x
log2(i + 1) and the steeper discount x k = 5, 10, 20 (--grid judged: judged-only off and on
in place of the discounts; --grid all: 24 choices). For each test it times, as the page
computes them: choice_scores, pair_pvalues (435 pairs x 12 choices), compare_choices on
those, tau_matrix (τ-b and τ_AP), the swap-rate curve (10 sizes x 100 splits) and Sakai's
topic-set sizes. The randomization and bootstrap tests draw
ndcg_core.choices.CHOICE_RESAMPLES (1,000) resamples.

Each answer is timed between two runs of a fixed reference workload (a numpy sort and a
Python loop, about 0.3 s of CPU, the same every time): "x ref" is the answer's wall time over the reference's,
a figure that holds under load (both slow down alike); "idle est." is that ratio times the
reference's CPU time (its wall time on an idle core).

--page times the data page itself (Streamlit's AppTest, in this process) with the 30 runs
loaded as TREC files and the tab open: the first run (reading 31 files, the page's tables of
the first 10 runs, the tab's evidence for all 30) and a rerun (cached), with the process's
peak memory.

    python tests/bench/bench_choices.py                  # every test, 3 repeats
    python tests/bench/bench_choices.py --tests t --repeats 5 --grid all
    python tests/bench/bench_choices.py --page

Prints `uptime` before and after, and the process's CPU time beside the wall time: on a
shared machine the CPU time is the steadier figure. Run by hand; not part of the suite.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import ndcg_core as nc  # noqa: E402
from lab import choices as LC  # noqa: E402

GRIDS = {"discount": dict(judged=False, discounts=("log2", "steep")),
         "judged": dict(judged=True, discounts=("log2",)),
         "all": dict(judged=True, discounts=("log2", "steep"))}
CHOICES = LC.grid(("linear", "exponential"), (5, 10, 20), **GRIDS["discount"])


def reference() -> tuple[float, float]:
    """(wall, CPU) time of a fixed workload: a numpy sort of 3e6 floats and a Python loop
    of 1e6 steps.
    Its CPU time is its wall time on an idle core."""
    t, c = time.perf_counter(), time.process_time()
    np.sort(np.random.default_rng(0).random(3_000_000))
    sum(i * i for i in range(1_000_000))
    return time.perf_counter() - t, time.process_time() - c


def make_data(n_runs=30, n_queries=250, n_docs=100, seed=0):
    rng = np.random.default_rng(seed)
    qids = np.repeat([f"q{i:03d}" for i in range(n_queries)], n_docs)
    docs = np.tile([f"d{j:03d}" for j in range(n_docs)], n_queries)
    grades = rng.choice(4, size=qids.size, p=[0.6, 0.2, 0.12, 0.08])
    judged = rng.random(qids.size) < 0.7  # 30 % of the retrieved documents unjudged
    qrels = pd.DataFrame({"qid": qids, "docid": docs, "relevance": grades})[judged]
    runs = {}
    for r in range(n_runs):
        skill = rng.uniform(0.2, 1.5)
        score = skill * grades + rng.normal(size=qids.size)
        runs[f"run{r:02d}"] = pd.DataFrame({"qid": qids, "docid": docs, "score": score})
    return qrels, runs


def once(qrels, runs, test):
    times = {}
    before = reference()
    t0, c0 = time.perf_counter(), time.process_time()
    scores = nc.choice_scores(qrels, runs, CHOICES)
    times["choice_scores"] = time.perf_counter() - t0
    t = time.perf_counter()
    p = nc.pair_pvalues(scores, test=test)
    times["pair_pvalues"] = time.perf_counter() - t
    t = time.perf_counter()
    nc.compare_choices(qrels, runs, CHOICES, test=test, scores=scores, pvalues=p)
    nc.achieved_significance(p)
    nc.tau_matrix(scores), nc.tau_matrix(scores, measure="tau_ap")
    times["table + τ"] = time.perf_counter() - t
    t = time.perf_counter()
    curve = nc.swap_curve(scores, difference=0.02)
    nc.queries_for_swap_rate(curve)
    nc.topic_set_size(scores, difference=0.02)
    times["swap curve + sizes"] = time.perf_counter() - t
    times["total"] = time.perf_counter() - t0
    times["cpu"] = time.process_time() - c0
    after = reference()
    times["ref"] = (before[0] + after[0]) / 2
    times["x ref"] = times["total"] / times["ref"]
    times["ref cpu"] = (before[1] + after[1]) / 2
    return times


def page(qrels, runs, repeats):
    """The data page with 31 files in its state and the tab open, timed by AppTest."""
    import resource
    from streamlit.testing.v1 import AppTest

    def trec(frame, columns):
        return "".join(" ".join(map(str, row)) + "\n" for row in
                       frame[columns].itertuples(index=False)).encode()
    files = {"qrels": {"name": "qrels.txt", "data": trec(qrels.assign(z=0),
                                                          ["qid", "z", "docid", "relevance"])},
             "runs": [{"name": f"{name}.run", "data": trec(
                 run.assign(q0="Q0", rank=1, tag=name), ["qid", "q0", "docid", "rank", "score",
                                                          "tag"])} for name, run in runs.items()]}
    mb = sum(len(f["data"]) for f in files["runs"]) / 2**20
    print(f"page: {len(runs)} runs, {mb:.1f} MB of TREC files")
    app = str(Path(__file__).resolve().parents[2] / "app.py")
    for i in range(repeats):
        at = AppTest.from_file(app, default_timeout=600)
        at.run()
        at.switch_page("pages/your_data.py").run()
        at.session_state["yd_files"] = files
        at.session_state["yd_tab"] = "Choose gain and cutoff"
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        before = reference()
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        first, cpu = time.perf_counter() - t0, time.process_time() - c0
        after = reference()
        ref, ref_cpu = (before[0] + after[0]) / 2, (before[1] + after[1]) / 2
        assert not at.exception, at.exception
        table = next(d.value for d in at.dataframe if "kendall_tau" in d.value.columns)
        assert (table["pairs"] == len(runs) * (len(runs) - 1) // 2).all(), table["pairs"]
        t1 = time.perf_counter()
        at.run()
        again = time.perf_counter() - t1
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"  run {i + 1}: first {first:.2f} s (cpu {cpu:.2f} s, {first / ref:.1f} x ref "
              f"{ref:.3f} s: idle est. {first / ref * ref_cpu:.2f} s), rerun {again:.2f} s; "
              f"peak RSS {peak / 1024:.0f} MB "
              f"(+{(peak - rss0) / 1024:.0f} MB in this run)")


def main():
    global CHOICES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", default=["t", "wilcoxon", "randomization",
                                                       "bootstrap"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--grid", choices=list(GRIDS), default="discount")
    parser.add_argument("--page", action="store_true", help="time the page in AppTest")
    args = parser.parse_args()
    CHOICES = LC.grid(("linear", "exponential"), (5, 10, 20), **GRIDS[args.grid])
    print("before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    qrels, runs = make_data()
    if args.page:
        page(qrels, runs, args.repeats)
        print("after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
        return
    print(f"{len(runs)} runs x {qrels['qid'].nunique()} queries x {len(CHOICES)} choices "
          f"({args.grid}); {nc.choices.CHOICE_RESAMPLES} resamples")
    once(qrels, runs, "t")  # warm: scipy's import, numpy's first calls
    for test in args.tests:
        runs_times = [once(qrels, runs, test) for _ in range(args.repeats)]
        medians = {k: statistics.median(r[k] for r in runs_times) for k in runs_times[0]}
        parts = ", ".join(f"{k} {v:.2f}" + ("" if k == "x ref" else " s")
                          for k, v in medians.items())
        print(f"{test:>13}: {parts}  (max total {max(r['total'] for r in runs_times):.2f} s; "
              f"idle est. {medians['x ref'] * medians['ref cpu']:.2f} s)")
    print("after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
