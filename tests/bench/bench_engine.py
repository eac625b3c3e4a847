"""Benchmark: ndcg_core.evaluate against pytrec_eval, ranx and scikit-learn, in one run.

Seeded synthetic data (Q queries x D documents, grades 0-3, scores with ties), per-query
NDCG@5, 10, 20 under the trec_eval convention; DataFrames in, per-query table out. Checks
that every library agrees to 1e-9 and prints medians and ratios.

    python tests/bench/bench_engine.py                 # 10,000 x 100 and 7,000 x 1,000
    python tests/bench/bench_engine.py --sizes 10000x100 --repeats 5
    python tests/bench/bench_engine.py --parse 7000000 # also time reading a 7M-line run

Run by hand; not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import ndcg_core as nc  # noqa: E402

CUTS = (5, 10, 20)


def make_data(nq, nd, seed=0):
    rng = np.random.default_rng(seed)
    qids = np.repeat([f"q{i}" for i in range(nq)], nd)
    docs = np.tile([f"d{j}" for j in range(nd)], nq)
    grades = rng.choice([0, 0, 0, 1, 2, 3], size=nq * nd)
    # scores rounded to 2 decimals: plenty of ties, broken by doc id (trec_eval)
    scores = np.round(rng.random(nq * nd) + grades * 0.3, 2)
    run = pd.DataFrame({"qid": qids, "docid": docs, "score": scores})
    qrels = pd.DataFrame({"qid": qids, "docid": docs, "relevance": grades})
    return qrels, run


def timed(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def ours(qrels, run):
    return nc.evaluate(qrels, run, k=CUTS, convention="trec_eval")


def with_pytrec(qrels, run):
    import pytrec_eval

    qd = {}
    for q, d, r in zip(qrels["qid"].tolist(), qrels["docid"].tolist(),
                       qrels["relevance"].tolist()):
        qd.setdefault(q, {})[d] = int(r)
    rd = {}
    for q, d, s in zip(run["qid"].tolist(), run["docid"].tolist(), run["score"].tolist()):
        rd.setdefault(q, {})[d] = float(s)
    ev = pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut." + ",".join(map(str, CUTS))})
    res = ev.evaluate(rd)
    return pd.DataFrame({f"ndcg@{c}": {q: v[f"ndcg_cut_{c}"] for q, v in res.items()}
                         for c in CUTS})


def with_ranx(qrels, run):
    from ranx import Qrels, Run, evaluate

    q = Qrels.from_df(qrels.astype({"qid": object, "docid": object}), q_id_col="qid",
                      doc_id_col="docid", score_col="relevance")
    r = Run.from_df(run.astype({"qid": object, "docid": object}), q_id_col="qid",
                    doc_id_col="docid", score_col="score")
    evaluate(q, r, [f"ndcg@{c}" for c in CUTS], return_mean=False)
    return pd.DataFrame({f"ndcg@{c}": r.scores[f"ndcg@{c}"] for c in CUTS})


def with_sklearn(qrels, run, nd):
    from sklearn.metrics import ndcg_score

    y = qrels["relevance"].to_numpy().reshape(-1, nd)
    s = run["score"].to_numpy().reshape(-1, nd)
    # sklearn averages ties and takes one row at a time for per-query values
    return {c: np.array([ndcg_score(y[i:i + 1], s[i:i + 1], k=c) for i in range(len(y))])
            for c in CUTS}


def compare(name, a, b):
    common = a.index.intersection(b.index)
    diff = max(float(np.max(np.abs(a.loc[common, c] - b.loc[common, c]))) for c in a.columns)
    status = "agree" if diff <= 1e-9 else "DISAGREE"
    print(f"    {name}: {len(common)} queries, max |diff| = {diff:.2e} ({status})")
    return diff


def bench(nq, nd, repeats, with_sk):
    qrels, run = make_data(nq, nd)
    print(f"\n== {nq:,} queries x {nd:,} documents ({len(run):,} run rows), "
          f"median of {repeats}")
    t_ours, r_ours = timed(lambda: ours(qrels, run), repeats)
    t_trec, r_trec = timed(lambda: with_pytrec(qrels, run), repeats)
    t0 = time.perf_counter()
    with_ranx(qrels.head(nd * 2), run.head(nd * 2))  # numba JIT warm-up, reported apart
    warm = time.perf_counter() - t0
    t_ranx, r_ranx = timed(lambda: with_ranx(qrels, run), repeats)
    rows = [("ndcg_core.evaluate", t_ours), ("pytrec_eval (dicts + evaluator + evaluate)",
                                              t_trec),
            (f"ranx (from_df + evaluate; JIT warm-up {warm:.2f} s apart)", t_ranx)]
    print("  agreement with ndcg_core (trec_eval convention):")
    compare("pytrec_eval", r_ours, r_trec)
    # ranx's tie order is its own: check agreement on the same data with ties removed
    tf_run = run.assign(score=run["score"] + np.arange(len(run)) * 1e-9)
    compare("ranx (same data, ties removed)", nc.evaluate(qrels, tf_run, k=CUTS,
                                                           convention="ranx"),
            with_ranx(qrels, tf_run))
    if with_sk:
        sub = min(nq, 500)
        t_sk, r_sk = timed(lambda: with_sklearn(qrels.head(sub * nd), run.head(sub * nd), nd),
                           1)
        mine = nc.evaluate(qrels.head(sub * nd), run.head(sub * nd), k=CUTS,
                           convention="sklearn")
        sk = pd.DataFrame({f"ndcg@{c}": r_sk[c] for c in CUTS},
                          index=pd.unique(qrels["qid"].head(sub * nd)))
        compare(f"scikit-learn (first {sub} queries, ties averaged)", mine, sk)
        rows.append((f"scikit-learn ndcg_score per query (x{nq / sub:.0f} from {sub} queries)",
                     t_sk * nq / sub))
    print(f"  {'':60s} {'median s':>9s} {'vs ours':>8s}")
    for name, t in rows:
        print(f"  {name:60s} {t:9.3f} {t / t_ours:7.2f}x")
    print(f"  ndcg_core / pytrec_eval = {t_ours / t_trec:.2f}")


def bench_parse(n_lines, repeats):
    rng = np.random.default_rng(1)
    path = Path(tempfile.mkdtemp()) / "run.txt"
    nq = max(1, n_lines // 1000)
    with open(path, "w") as fh:
        q = np.repeat(np.arange(nq), 1000)[:n_lines]
        d = np.tile(np.arange(1000), nq)[:n_lines]
        s = rng.random(n_lines)
        pd.DataFrame({"q": q, "z": "Q0", "d": ["D" + str(x) for x in d], "r": d + 1,
                      "s": s, "t": "bench"}).to_csv(fh, sep=" ", header=False, index=False)
    size = os.path.getsize(path) / 1e6
    # interleaved, so a change in machine load hits both readers alike
    pairs = [(timed(lambda: pd.read_csv(path, sep=r"\s+", header=None), 1)[0],
              timed(lambda: nc.read_run(path), 1)[0]) for _ in range(repeats)]
    t_pd = statistics.median(p for p, _ in pairs)
    t_ours = statistics.median(o for _, o in pairs)
    print(f"\n== parsing a {n_lines:,}-line TREC run ({size:.0f} MB), median of {repeats}")
    print(f"  pandas read_csv(sep=r'\\s+')  {t_pd:8.3f} s")
    print(f"  ndcg_core.read_run            {t_ours:8.3f} s   ({t_ours / t_pd:.2f}x pandas)")
    path.unlink()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000x100,7000x1000")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-sklearn", action="store_true")
    ap.add_argument("--parse", type=int, default=0, help="also time parsing an N-line run")
    args = ap.parse_args()
    for size in args.sizes.split(","):
        nq, nd = (int(x) for x in size.lower().split("x"))
        bench(nq, nd, args.repeats, not args.no_sklearn)
    if args.parse:
        bench_parse(args.parse, args.repeats)


if __name__ == "__main__":
    main()
