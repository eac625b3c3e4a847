"""Your runs, analysed: what the "Evaluate your runs" page computes besides NDCG itself.

Pure pandas/numpy on the frames ``ndcg_core.read_qrels`` / ``read_run`` / ``evaluate`` return:
per-query tables, the paired comparison of two systems, the facts that make conventions
disagree, and the playground link of one query. No streamlit import: ``ui/your_data.py``
reads the files, caches per session and draws. Every NDCG figure comes from
:func:`ndcg_core.evaluate`; the ranking a query opens in the playground is the engine's.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import ndcg_core as nc
from lab.playground import MAX_ITEMS, ranking_query_params

SETTING_NAMES = ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "missing")
N_BOOTSTRAP, N_PERMUTATIONS, SEED = 2000, 10000, 0
PLAYGROUND_DEPTH = 50


@dataclass(frozen=True)
class Upload:
    """One file's name and bytes; caches key it by its name and a hash of the bytes."""

    name: str
    data: bytes = field(repr=False, compare=False)
    digest: str = ""

    @classmethod
    def of(cls, name, data) -> "Upload":
        data = bytes(data)
        return cls(str(name), data, hashlib.blake2b(data, digest_size=16).hexdigest())

    def open(self):
        f = io.BytesIO(self.data)
        f.name = self.name
        return f



@dataclass(frozen=True)
class Settings:
    ks: tuple
    preset: str
    options: tuple  # (name, value) pairs of SETTING_NAMES

    @property
    def opts(self) -> dict:
        return dict(self.options)



def by_message(errors: dict) -> dict:
    """{message: [systems]}: a judgments problem is told once, not once per run."""
    out = {}
    for system, err in errors.items():
        out.setdefault(err, []).append(system)
    return out


def _codes(a: pd.Series, b: pd.Series):
    """One integer code per distinct id across both columns (Arrow strings stay Arrow)."""
    codes, uniques = pd.concat([a, b], ignore_index=True).factorize()
    return codes[: len(a)], codes[len(a):], uniques


def query_facts(q: pd.DataFrame, r: pd.DataFrame) -> pd.DataFrame:
    """Per judged query, the facts that make conventions disagree (vectorised, no loop).

    ``first_tie``: the best rank of a group of tied scores holding documents of different
    grades (inf if none); ``min_grade``/``max_grade``; ``unretrieved``: relevant judged
    documents the run does not retrieve.
    """
    jq, rq, qids = _codes(q["qid"], r["qid"])
    jd, rd, docids = _codes(q["docid"], r["docid"])
    nq, nd = len(qids), len(docids)
    rel = q["relevance"].to_numpy(float)
    jkey, rkey = jq.astype(np.int64) * nd + jd, rq.astype(np.int64) * nd + rd
    jorder = np.argsort(jkey, kind="stable")
    pos = np.minimum(np.searchsorted(jkey[jorder], rkey), len(jkey) - 1)
    hit = jkey[jorder][pos] == rkey
    grade = np.where(hit, rel[jorder[pos]], 0.0)  # unjudged count as 0
    # rank within each query by score descending; groups of equal scores
    score = r["score"].to_numpy(float)
    levels, inv = np.unique(-score, return_inverse=True)  # one packed key: np.lexsort is slow
    order = np.argsort(rq.astype(np.int64) * len(levels) + inv, kind="stable")
    qs, ss, gs = rq[order], score[order], grade[order]
    newq = np.r_[True, qs[1:] != qs[:-1]]
    rank = np.arange(qs.size) - np.flatnonzero(newq)[np.cumsum(newq) - 1] + 1
    starts = np.flatnonzero(newq | np.r_[True, ss[1:] != ss[:-1]])
    first_tie = np.full(nq, np.inf)
    if starts.size:
        mixed = np.maximum.reduceat(gs, starts) != np.minimum.reduceat(gs, starts)
        np.minimum.at(first_tie, qs[starts][mixed], rank[starts][mixed])
    max_g, min_g = np.full(nq, -np.inf), np.full(nq, np.inf)
    np.maximum.at(max_g, jq, rel)
    np.minimum.at(min_g, jq, rel)
    found = np.isin(jkey, rkey)
    unretrieved = np.bincount(jq, weights=(rel > 0) & ~found, minlength=nq)
    judged = np.unique(jq)
    return pd.DataFrame({"first_tie": first_tie[judged], "min_grade": min_g[judged],
                         "max_grade": max_g[judged],
                         "unretrieved": unretrieved[judged].astype(int)},
                        index=pd.Index(np.asarray(qids[judged], object), name="qid"))


def reasons(facts: pd.DataFrame, k: int) -> pd.Series:
    """Per query, the reasons as text: what in the data makes the presets disagree at k."""
    flags = {
        f"tied scores in the top {k} (documents of different grades)": facts["first_tie"] <= k,
        "all judgments 0 (ideal DCG = 0)": facts["max_grade"] <= 0,
        "relevant documents not retrieved": facts["unretrieved"] > 0,
        "negative grades": facts["min_grade"] < 0,
        "grades above 1 (the gain matters)": facts["max_grade"] > 1,
    }
    text = pd.Series("", index=facts.index)
    for label, flag in flags.items():
        text = text.where(~flag, text + label + "; ")
    return text.str.rstrip("; ")


# ------------------------------------------------------------------ statistics

def paired_stats(a: np.ndarray, b: np.ndarray, n_boot=N_BOOTSTRAP, n_perm=N_PERMUTATIONS,
                 seed=SEED) -> dict:
    """B − A over paired queries: mean, seeded bootstrap 95% CI, two-sided randomization p."""
    d = np.asarray(b, float) - np.asarray(a, float)
    n = d.size
    rng = np.random.default_rng(seed)
    chunk = max(1, 2_000_000 // max(n, 1))  # bounds memory for large query sets
    boot = np.concatenate([d[rng.integers(0, n, size=(min(chunk, n_boot - i), n))].mean(1)
                           for i in range(0, n_boot, chunk)])
    # randomization (sign-flip) test: under H0 each difference is equally likely ±.
    # A flipped mean is (2·Σ kept − Σ all) / n; random bits come 8 to a byte.
    flips = []
    for i in range(0, n_perm, chunk):
        m = min(chunk, n_perm - i)
        bits = np.unpackbits(rng.integers(0, 256, size=(m, (n + 7) // 8), dtype=np.uint8),
                             axis=1, count=n)
        flips.append((2.0 * (bits @ d) - d.sum()) / n)
    flips = np.concatenate(flips)
    obs = d.mean()
    p = (np.sum(np.abs(flips) >= abs(obs) - 1e-12) + 1) / (n_perm + 1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return dict(n=n, mean=obs, lo=lo, hi=hi, p=p, wins=int((d > 1e-12).sum()),
                losses=int((d < -1e-12).sum()), ties=int((np.abs(d) <= 1e-12).sum()))


def per_query_table(tables: dict, ks: tuple, k: int) -> pd.DataFrame:
    """One row per query: NDCG@each k per system, DCG/IDCG at k, and B − A with two runs."""
    parts = []
    for system, t in tables.items():
        cols = {f"ndcg@{c}": f"{system} NDCG@{c}" for c in ks}
        cols.update({f"dcg@{k}": f"{system} DCG@{k}", f"idcg@{k}": f"{system} IDCG@{k}",
                     "n_retrieved": f"{system} retrieved"})
        parts.append(t[list(cols)].rename(columns=cols))
    n_rel = pd.concat([t["n_relevant"] for t in tables.values()], axis=1).max(axis=1)
    out = pd.concat([n_rel.rename("relevant judged")] + parts, axis=1)
    if len(tables) == 2:
        a, b = list(tables)
        out[f"B − A NDCG@{k}"] = out[f"{b} NDCG@{k}"] - out[f"{a} NDCG@{k}"]
    return out.reset_index()


def paired(tables: dict, k: int) -> pd.DataFrame:
    a, b = list(tables)
    return pd.concat({s: tables[s][f"ndcg@{k}"] for s in (a, b)}, axis=1, join="inner").dropna()


def most_changed(pairs: pd.DataFrame, k: int, n=15) -> pd.DataFrame:
    diff = pairs.iloc[:, 1] - pairs.iloc[:, 0]
    order = diff.abs().sort_values(ascending=False, kind="stable").index[:n]
    return pairs.assign(**{f"B − A NDCG@{k}": diff}).loc[order].rename_axis("qid").reset_index()


def preset_means(results: dict, ks: tuple) -> pd.DataFrame:
    """One row per preset, one column per system and cutoff: the means side by side."""
    rows = {}
    for (preset, system), t in results.items():
        for c in ks:
            rows.setdefault(preset, {})[f"{system} NDCG@{c}"] = t[f"ndcg@{c}"].mean()
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("preset").reset_index()


def preset_spread(results: dict, why: dict, k: int, n=15) -> pd.DataFrame:
    """Queries whose NDCG@k differs most between presets, with the data's reasons."""
    rows = []
    for system in dict.fromkeys(s for _, s in results):
        wide = pd.concat({p: t[f"ndcg@{k}"] for (p, s), t in results.items() if s == system},
                         axis=1)
        spread = wide.max(axis=1) - wide.min(axis=1)
        wide.insert(0, "spread", spread)
        wide.insert(0, "system", system)
        wide["why"] = why[system].reindex(wide.index).fillna("")
        rows.append(wide)
    df = pd.concat(rows).rename_axis("qid").reset_index()
    return df.sort_values("spread", ascending=False, kind="stable").head(n)


def playground_link(q: pd.DataFrame, r: pd.DataFrame, qid: str, settings: Settings,
                    k: int) -> dict | None:
    """Query params that open the playground on the query's top 50, ranked by the engine
    (ties ordered by the chosen rule; averaged ties keep the run's order, since a list has
    one item per position), with the other judged relevant documents as its judged pool."""
    opts = settings.opts
    judged = q[q["qid"] == qid].set_index("docid")["relevance"]
    docs = r[r["qid"] == qid]
    if docs.empty:
        return None
    grades = judged.reindex(docs["docid"]).fillna(0).to_numpy(float)  # unjudged count as 0
    ties = "input" if opts["ties"] == "average" else opts["ties"]
    ranked = nc.dcg_table(grades, scores=docs["score"].to_numpy(float), ties=ties,
                          docids=docs["docid"].tolist(), labels=docs["docid"].tolist())
    top = ranked.head(PLAYGROUND_DEPTH)
    # judged (or retrieved, by the ideal-pool option) relevant documents beyond the list
    if opts["ideal_pool"] == "judged":
        pool_src = judged
    else:
        pool_src = pd.Series(ranked["relevance"].to_numpy(), index=ranked["label"])
    rest = pool_src.drop(top["label"], errors="ignore")
    unretrieved = sorted((g for g in rest if g > 0), reverse=True)[:MAX_ITEMS]
    return ranking_query_params(top["label"].tolist(), top["relevance"].tolist(),
                                k=min(k, len(top)), gain=opts["gain"],
                                unretrieved=unretrieved)
