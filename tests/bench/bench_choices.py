"""Benchmark: ndcg_core.compare_choices and the curves of "Choose gain and cutoff".

Seeded synthetic data: 30 runs x 250 queries x 100 documents each (grades 0-3, runs of
different skill), 12 choices (linear and exponential gain x k = 5, 10, 20 x judged-only off
and on). For each test it times, as the page computes them: choice_scores (360 evaluations,
grouped by everything but k: 120 calls of evaluate), pair_pvalues (435 pairs x 12 choices),
compare_choices on those, tau_matrix (τ-b and τ_AP), the swap-rate curve (10 sizes x 100
splits) and Sakai's topic-set sizes. The randomization and bootstrap tests draw
ndcg_core.choices.CHOICE_RESAMPLES (1,000) resamples.

    python tests/bench/bench_choices.py                  # every test, 3 repeats
    python tests/bench/bench_choices.py --tests t --repeats 5

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

CHOICES = {f"{g}@{k}{' judged' if j else ''}": dict(gain=g, k=k, judged_only=j)
           for g in ("linear", "exponential") for k in (5, 10, 20) for j in (False, True)}


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
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", default=["t", "wilcoxon", "randomization",
                                                       "bootstrap"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print("before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    qrels, runs = make_data()
    print(f"{len(runs)} runs x {qrels['qid'].nunique()} queries x {len(CHOICES)} choices; "
          f"{nc.choices.CHOICE_RESAMPLES} resamples")
    once(qrels, runs, "t")  # warm: scipy's import, numpy's first calls
    for test in args.tests:
        runs_times = [once(qrels, runs, test) for _ in range(args.repeats)]
        medians = {k: statistics.median(r[k] for r in runs_times) for k in runs_times[0]}
        parts = ", ".join(f"{k} {v:.2f} s" for k, v in medians.items())
        print(f"{test:>13}: {parts}  (max total {max(r['total'] for r in runs_times):.2f} s)")
    print("after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
