"""Sums whose value decides a rule (IDCG = 0, NDCG = 1 for the ideal order), formed so the
decision does not depend on the order of additions, on a BLAS, or on a fused multiply-add.

Every term of a DCG is ``g / d``: the gain as given, divided (never multiplied by a rounded
reciprocal) by the discount denominator. The denominators are correctly rounded logarithms
(exact where ``i + 1`` is a power of two, so log2(8) is 3), within one unit in the last
place (2u, u = 2**-53); Järvelin's ``ln(i) / ln(b)`` carries at most 5u, the division adds
u: each term is within 6u of ``g / d`` with the exact logarithm. The terms are then summed
exactly (:func:`math.fsum`; in the vectorised path an error-free split, :func:`split_terms`)
and rounded once.

So a sum whose exact value is 0 comes out within 6u·Σ|g/d| of 0, and conversely a computed
sum that small cannot be told from 0: :func:`cleared` takes any sum with
``|S| <= ZERO_BOUND * Σ|g/d|`` (``ZERO_BOUND = 8u``) as exactly 0. ``[1, 0, 0, 0, 0, 0, -3]``
sums ``1/1 - 3/3`` to 0 whatever the machine; ``[2.5, 0, -5]`` in natural logs sums
``2.5/ln 2 - 5/ln 4`` to 0 too.
"""

from __future__ import annotations

import math
from itertools import accumulate

import numpy as np

from ._checks import OVERFLOW, check_k, denominators

U = 2.0 ** -53  # unit roundoff of a float64
ZERO_BOUND = 8 * U  # above the 6u a term can carry: see the module docstring


def cleared(total: float, size: float) -> float:
    """``total``, or 0.0 when it is within the rounding bound of the terms whose absolute
    values sum to ``size``.

    >>> cleared(2.7755575615628914e-17, 0.4), cleared(0.25, 0.4)
    (0.0, 0.25)
    """
    return 0.0 if abs(total) <= ZERO_BOUND * size else total


def exact_sum(terms) -> tuple[float, float]:
    """(Σ terms, Σ |terms|): the first correctly rounded (math.fsum) and cleared to 0 within
    its bound.

    >>> exact_sum([1.0, 0.0, -3.0 / 3.0])
    (0.0, 2.0)
    """
    terms = [float(t) for t in terms]
    size = math.fsum(abs(t) for t in terms)
    return cleared(math.fsum(terms), size), size


def prefix_sums(terms) -> np.ndarray:
    """Every prefix sum of ``terms``, each correctly rounded from the exact sum (the last is
    :func:`exact_sum`'s first value) and cleared to 0 within its bound.

    The exact running sums are Python integers counting units of the smallest power of two
    the terms are whole multiples of; one correctly rounded division turns each back into
    a float.

    >>> prefix_sums([0.1, 0.2, -0.3]).tolist()   # 0.1 + 0.2 - 0.3 is 2.8e-17 added in turn
    [0.1, 0.30000000000000004, 0.0]
    """
    terms = [float(t) for t in terms]
    if not all(map(math.isfinite, terms)):
        return np.full(len(terms), np.nan)
    ratios = [t.as_integer_ratio() for t in terms]
    unit = max((d for _, d in ratios), default=1)
    scaled = [n * (unit // d) for n, d in ratios]
    try:
        return np.array([cleared(total / unit, size / unit) for total, size in
                         zip(accumulate(scaled), accumulate(map(abs, scaled)))])
    except OverflowError:  # beyond the float range: the caller refuses it
        return np.full(len(terms), np.inf)


def dcg_sum(ranked_gains, k, discount, base, shift=0) -> tuple[float, float]:
    """(DCG@k, Σ|gain / discount|) of gains in ranked order: each gain divided by its
    discount, the terms summed exactly and rounded once, cleared to 0 within the bound.

    >>> dcg_sum(np.array([1.0, 0, 0, 0, 0, 0, -3]), None, "log2", 2.0)   # 1/1 - 3/log2(8)
    (0.0, 2.0)
    """
    kk = check_k(k, ranked_gains.size)
    with np.errstate(over="ignore", invalid="ignore"):
        terms = ranked_gains[:kk] / denominators(kk, discount, base, shift)
    if not np.isfinite(terms).all():
        raise ValueError(OVERFLOW)
    try:
        value, size = exact_sum(terms.tolist())
    except OverflowError:
        raise ValueError(OVERFLOW) from None
    if not (math.isfinite(value) and math.isfinite(size)):
        raise ValueError(OVERFLOW)
    return value, size


def ndcg_ratio(actual, best, sizes, zero_value, loose=False) -> float:
    """NDCG from DCG and IDCG (each already cleared): the zero-IDCG rule's value when IDCG
    is 0 (or below, unless ``loose``), exactly 1 when DCG equals IDCG within the bound of
    their terms (``sizes``: Σ|term| of each), so the ideal order scores 1 and a ranking of
    non-negative gains never more; else DCG / IDCG.

    >>> ndcg_ratio(2.0, 2.0000000000000004, (2.0, 2.0), 0.0), ndcg_ratio(-1.0, 0.0, (1, 1), 0.0)
    (1.0, 0.0)
    """
    if best == 0 or (best < 0 and not loose):
        return zero_value
    if abs(actual - best) <= ZERO_BOUND * (sizes[0] + sizes[1]):
        return 1.0
    return actual / best


def split_terms(q, w, nq) -> tuple[np.ndarray, np.ndarray]:
    """Each term ``w`` split into ``high + low`` (exactly) so that any subset of one query's
    high parts sums exactly in any order (query codes 0..nq-1).

    Each query's terms are split at a power of two ``σ >= (rows + 2) * Σ|w|`` (at least
    ``(rows + 2) * max|w|``: Rump, Ogita & Oishi 2008, ExtractVector): the high parts are
    whole multiples of 2**-53·σ whose sums stay below σ, so no addition of them rounds; a
    low part is at most 2**-53·σ.
    """
    if not q.size:
        return w, w
    with np.errstate(over="ignore"):  # beyond the float range: no split, plain sums
        bound = (np.bincount(q, minlength=nq) + 2.0) * np.bincount(q, np.abs(w), minlength=nq)
        _, e = np.frexp(bound)
    if not np.isfinite(bound).all() or (e > 1023).any():
        return np.zeros_like(w), w
    s = np.ldexp(1.0, e)[q]
    high = s + w
    high -= s
    return high, w - high


def segment_sums(q, high, low, size, nq) -> tuple[np.ndarray, np.ndarray]:
    """(Σ w, Σ |w|) per query code from :func:`split_terms`' parts and ``size`` = |w|, the
    first cleared to 0 within its bound.

    The high parts sum exactly; the low parts, below 2**-53·σ each, add a rounding error
    under rows³·u²·Σ|w| (u = 2**-53): for up to 10**5 rows a query, far below the bound
    for 0 (8u·Σ|w|) and within a unit or two in the last place of the correctly rounded
    sum. Equal sequences of terms give equal sums.

    >>> w = np.array([1.0, 0.0, -1.0, 0.5])
    >>> q = np.array([0, 0, 0, 1])
    >>> s, a = segment_sums(q, *split_terms(q, w, 2), np.abs(w), 2)
    >>> s.tolist(), a.tolist()
    ([0.0, 0.5], [2.0, 0.5])
    """
    total = np.bincount(q, weights=high, minlength=nq)
    total += np.bincount(q, weights=low, minlength=nq)
    size = np.bincount(q, weights=size, minlength=nq)
    return np.where(np.abs(total) <= ZERO_BOUND * size, 0.0, total), size
