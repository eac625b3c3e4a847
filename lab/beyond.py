"""The "Beyond NDCG" lesson as data: CG, precision, reciprocal rank, average precision and
NDCG on one list, and how steeply each falls with rank. Rendered by ``pages/beyond.py``; prose
in ``assets/lessons/06_beyond.md``.
"""

from __future__ import annotations

import pandas as pd

import ndcg_core as nc
from lab.i18n import t
from lab.text import gain_name

BEYOND = "06_beyond"
MRR_RANKS = (1, 4, 2, 9)  # document 003: the first relevant item's rank per query


def beyond_metrics(grades, *, k: int, threshold: float, gain: str,
                   unretrieved=(), lang: str = "en") -> list[tuple]:
    """(name, value, what it looks at) of CG, Precision, RR, AP and NDCG for one list, the
    words in ``lang``.

    The judged-but-not-retrieved grades ``unretrieved`` count in AP's number of relevant
    items and in NDCG's ideal, as in trec_eval.
    """
    judged = list(grades) + list(unretrieved)
    n_rel = sum(1 for g in judged if g >= threshold)
    ideal = judged if unretrieved else None
    g = f"{threshold:g}"
    name = gain_name(gain, lang=lang)
    return [
        (f"CG@{k}", nc.cg(grades, k=k, gain=gain),
         t("sum of the top-{k} gains ({gain} gain), blind to their order", lang, k=k,
           gain=name)),
        (f"Precision@{k}", nc.precision_at_k(grades, k=k, threshold=threshold),
         t("share of the top {k} with grade ≥ {threshold}", lang, k=k, threshold=g)),
        (t("Reciprocal rank", lang), nc.reciprocal_rank(grades, threshold=threshold),
         t("1 / rank of the first item with grade ≥ {threshold}", lang, threshold=g)),
        (t("Average precision", lang), nc.average_precision(grades, threshold=threshold,
                                                            n_relevant=n_rel),
         t("mean precision at each relevant item; {n} relevant judged", lang, n=n_rel)),
        (f"NDCG@{k}", nc.ndcg(grades, k=k, gain=gain, ideal=ideal),
         t("graded gains, log discount, over the ideal ({gain} gain)", lang, gain=name)),
    ]


def steepness(n: int = 10, *, lang: str = "en") -> pd.DataFrame:
    """A single relevant item at rank r: reciprocal rank vs NDCG (full depth), r = 1..n; the
    column names in ``lang`` (they are the chart's axis and legend)."""
    rows = []
    for r in range(1, n + 1):
        ranking = [0] * (r - 1) + [1]
        rows.append({t("rank", lang): r,
                     t("reciprocal rank", lang): nc.reciprocal_rank(ranking),
                     "NDCG": nc.ndcg(ranking)})
    return pd.DataFrame(rows)
