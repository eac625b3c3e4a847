"""The "Beyond NDCG" lesson as data: CG, precision, reciprocal rank, average precision and
NDCG on one list, and how steeply each falls with rank. Rendered by ``ui/beyond.py``; prose
in ``assets/lessons/06_beyond.md``.
"""

from __future__ import annotations

import pandas as pd

import ndcg_core as nc

BEYOND = "06_beyond"
MRR_RANKS = (1, 4, 2, 9)  # document 003: the first relevant item's rank per query


def beyond_metrics(grades, *, k: int, threshold: float, gain: str,
                   unretrieved=()) -> list[tuple]:
    """(name, value, what it looks at) of CG, Precision, RR, AP and NDCG for one list.

    The judged-but-not-retrieved grades ``unretrieved`` count in AP's number of relevant
    items and in NDCG's ideal, as in trec_eval.
    """
    judged = list(grades) + list(unretrieved)
    n_rel = sum(1 for g in judged if g >= threshold)
    ideal = judged if unretrieved else None
    return [
        (f"CG@{k}", nc.cg(grades, k=k, gain=gain),
         f"sum of the top-{k} gains ({gain} gain), blind to their order"),
        (f"Precision@{k}", nc.precision_at_k(grades, k=k, threshold=threshold),
         f"share of the top {k} with grade ≥ {threshold:g}"),
        ("Reciprocal rank", nc.reciprocal_rank(grades, threshold=threshold),
         f"1 / rank of the first item with grade ≥ {threshold:g}"),
        ("Average precision", nc.average_precision(grades, threshold=threshold,
                                                   n_relevant=n_rel),
         f"mean precision at each relevant item; {n_rel} relevant judged"),
        (f"NDCG@{k}", nc.ndcg(grades, k=k, gain=gain, ideal=ideal),
         f"graded gains, log discount, over the ideal ({gain} gain)"),
    ]


def steepness(n: int = 10) -> pd.DataFrame:
    """A single relevant item at rank r: reciprocal rank vs NDCG (full depth), r = 1..n."""
    rows = []
    for r in range(1, n + 1):
        ranking = [0] * (r - 1) + [1]
        rows.append({"rank": r, "reciprocal rank": nc.reciprocal_rank(ranking),
                     "NDCG": nc.ndcg(ranking)})
    return pd.DataFrame(rows)
