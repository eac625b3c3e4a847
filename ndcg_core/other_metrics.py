"""The comparison metrics beside NDCG: CG, precision@k, reciprocal rank, MRR and average
precision, for one ranked list (re-exported by :mod:`ndcg_core.metrics`)."""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import as_numbers, check_k
from .metrics import _prepare

__all__ = ["cg", "precision_at_k", "reciprocal_rank", "mean_reciprocal_rank",
           "average_precision"]


def cg(relevance, *, k=None, gain="linear", negative="keep") -> float:
    """Cumulative gain: the sum of the top-k gains, blind to their order.

    >>> cg([3, 2, 3, 0, 1])   # 3 + 2 + 3 + 0 + 1
    9.0
    """
    _, gains = _prepare(relevance, gain, negative)
    return float(gains[:check_k(k, gains.size)].sum())


def _binary(relevance, threshold):
    grades = as_numbers(relevance)
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, numbers.Real) \
            or not np.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number; got {threshold!r}.")
    return grades >= threshold


def precision_at_k(relevance, *, k, threshold=1) -> float:
    """Share of the top k positions holding an item with grade ≥ ``threshold``.

    Positions past the end of a shorter list count as not relevant (k is the denominator).

    >>> precision_at_k([3, 2, 3, 0, 1, 2], k=4)   # 3 relevant of 4
    0.75
    """
    kk = check_k(k)
    rel = _binary(relevance, threshold)
    return float(rel[:kk].sum() / kk)


def reciprocal_rank(relevance, *, k=None, threshold=1) -> float:
    """1 / rank of the first item with grade ≥ ``threshold`` in the top k; 0 if there is none.

    >>> reciprocal_rank([0, 0, 2, 1])
    0.3333333333333333
    """
    rel = _binary(relevance, threshold)[:check_k(k, None) or None]
    hits = np.flatnonzero(rel)
    return float(1.0 / (hits[0] + 1)) if hits.size else 0.0


def mean_reciprocal_rank(rankings=None, *, ranks=None, k=None, threshold=1) -> float:
    """MRR over queries: the mean of :func:`reciprocal_rank`.

    Give either ``rankings`` (one relevance list per query) or ``ranks`` (the rank of each
    query's first relevant item; None or 0 for a query with none, which scores 0).

    >>> round(mean_reciprocal_rank(ranks=[1, 4, 2, 9]), 4)   # (1 + 1/4 + 1/2 + 1/9) / 4
    0.4653
    """
    if (rankings is None) == (ranks is None):
        raise ValueError("give either rankings=[...] or ranks=[...], not both or neither.")
    if ranks is not None:
        rr = []
        for i, r in enumerate(list(ranks)):
            if r is None or r == 0:
                rr.append(0.0)
                continue
            if isinstance(r, (bool, np.bool_)) or not isinstance(r, numbers.Real) \
                    or not float(r).is_integer() or r < 1:
                raise ValueError(
                    f"ranks at position {i + 1} is {r!r}: a rank is a whole number ≥ 1 "
                    "(or None for a query with no relevant item)."
                )
            rr.append(1.0 / r)
    else:
        rr = [reciprocal_rank(r, k=k, threshold=threshold) for r in rankings]
    if not rr:
        raise ValueError("no queries given: MRR needs at least one.")
    return float(np.mean(rr))


def average_precision(relevance, *, k=None, threshold=1, n_relevant=None) -> float:
    """Average precision: the mean of precision@i over the ranks i of relevant items.

    ``n_relevant`` is the number of relevant items judged for the query (default: those in
    the list), so relevant items never retrieved count as misses. 0 when there is none.

    >>> round(average_precision([1, 0, 1, 0]), 4)   # (1/1 + 2/3) / 2
    0.8333
    """
    rel = _binary(relevance, threshold)
    rel = rel[:check_k(k, rel.size)]
    hits = np.flatnonzero(rel)
    if n_relevant is not None and (isinstance(n_relevant, (bool, np.bool_))
                                   or not isinstance(n_relevant, numbers.Integral)):
        raise ValueError(f"n_relevant must be a whole number (the relevant items judged for "
                         f"the query); got {n_relevant!r}.")
    total = int(_binary(relevance, threshold).sum()) if n_relevant is None else n_relevant
    if total < hits.size:
        raise ValueError(
            f"n_relevant is {n_relevant!r} but the list holds {hits.size} relevant items."
        )
    if total == 0:
        return 0.0
    precisions = np.arange(1, hits.size + 1) / (hits + 1)
    return float(precisions.sum() / total)
