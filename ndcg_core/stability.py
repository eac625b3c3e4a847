"""Stability of a choice of NDCG settings across query sets: the swap rate between disjoint
query sets by their size (Buckley & Voorhees, SIGIR 2000; Voorhees & Buckley, SIGIR 2002) and
the topic-set size a paired t-test needs (Sakai, "Topic set size design", Information Retrieval
Journal 19(3), 2016).

Part of :mod:`ndcg_core.choices` (re-exported there): each function takes
:func:`~ndcg_core.choice_scores`'s ``{choice: queries × runs}`` frames.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from . import _choice_stats as S
from ._compare_input import _open_unit, _whole

__all__ = ["swap_curve", "queries_for_swap_rate", "topic_set_size", "CURVE_SPLITS"]

#: Random splits per topic-set size of :func:`swap_curve` (ten sizes: 1,000 splits in all).
CURVE_SPLITS = 100


def _sizes(n_queries: int, sizes):
    half = n_queries // 2
    if sizes is None:
        step = max(1, half // 10)
        sizes = sorted({*range(step, half + 1, step), half})
    sizes = [int(s) for s in sizes]
    if not sizes or min(sizes) < 1 or max(sizes) > half:
        raise ValueError(f"topic-set sizes must lie in 1..{half} (two disjoint sets of "
                         f"{n_queries} queries); got {sizes}.")
    return sizes


def swap_curve(scores: dict, *, difference=0.0, sizes=None, n_splits=CURVE_SPLITS, seed=0):
    """Swap rate between two disjoint query sets of each size (Voorhees & Buckley 2002).

    For each size n, ``n_splits`` random splits (from ``seed``, the same for every choice)
    draw two disjoint sets of n queries; a pair of systems whose mean differs by at least
    ``difference`` on the first set (and not 0) is counted, and swapped when the second set
    orders it the other way. The swap rate is swapped / counted (NaN when no pair is
    counted). Default sizes: ten steps up to half the queries.

    Returns a long frame ``choice, size, swap_rate, counted``.
    """
    if not (isinstance(difference, numbers.Real) and 0 <= difference < 1):
        raise ValueError(f"difference must be a number in [0, 1), e.g. 0.02; got "
                         f"{difference!r}.")
    n_splits = _whole("n_splits", n_splits, 1)
    first_frame = next(iter(scores.values()))
    rows = []
    for size in _sizes(len(first_frame), sizes):
        one, two = S.split_halves(len(first_frame), size, n_splits, seed)
        for n in scores:
            swapped, counted = S.swaps(scores[n].to_numpy(), one, two, float(difference))
            rows.append((n, size, swapped / counted if counted else math.nan, counted))
    return pd.DataFrame(rows, columns=["choice", "size", "swap_rate", "counted"])


def queries_for_swap_rate(curve: pd.DataFrame, *, target=0.05) -> pd.DataFrame:
    """Per choice, the topic-set size at which the swap rate falls under ``target``.

    ``how`` says where the figure comes from: ``"measured"`` (the smallest size of the
    curve from which on every measured rate is under ``target``), ``"extrapolated"``
    (Voorhees & Buckley 2002's fit: log(swap rate) linear in the size, fitted to the
    curve's nonzero rates and solved for ``target``), or ``"unknown"`` (NaN: fewer than two
    nonzero rates, or rates that do not fall with size).
    """
    target = _open_unit("target", target)
    rows = []
    for name, part in curve.groupby("choice", sort=False):
        part = part.dropna(subset=["swap_rate"])
        above = part["swap_rate"] >= target
        sizes = part["size"].to_numpy()
        if len(part) and not above.iloc[-1]:
            last_above = sizes[above.to_numpy()].max() if above.any() else 0
            rows.append((name, int(sizes[sizes > last_above].min()), "measured"))
            continue
        fit = part[part["swap_rate"] > 0]
        if len(fit) >= 2:
            slope, icpt = np.polyfit(fit["size"], np.log(fit["swap_rate"]), 1)
            if slope < 0:
                rows.append((name, int(math.ceil((math.log(target) - icpt) / slope)),
                             "extrapolated"))
                continue
        rows.append((name, math.nan, "unknown"))
    return pd.DataFrame(rows, columns=["choice", "queries", "how"]).set_index("choice")


def topic_set_size(scores: dict, *, difference, alpha=0.05, power=0.8) -> pd.DataFrame:
    """The queries a paired t-test needs to detect ``difference`` (Sakai 2016).

    Sakai's power-based topic-set size design for the paired t-test: the variance of a
    difference between two systems is estimated as σ_d² = 2·V_E, V_E the residual variance
    of a two-way ANOVA (queries × systems) of the choice's scores; the size is the smallest
    n whose two-sided paired t-test at ``alpha`` has at least ``power`` for the
    standardised effect ``difference / σ_d`` (noncentral t).

    Returns one row per choice: ``sigma_d``, ``queries`` (needed; NaN when σ_d is 0),
    ``power_now`` (the power with the queries at hand) and ``n_queries``.
    """
    if not (isinstance(difference, numbers.Real) and 0 < difference < 1):
        raise ValueError(f"difference must be a number in (0, 1), e.g. 0.02 (the smallest "
                         f"difference in mean NDCG worth detecting); got {difference!r}.")
    alpha, power = _open_unit("alpha", alpha), _open_unit("power", power)
    rows = []
    for n, frame in scores.items():
        sigma = math.sqrt(2 * S.residual_variance(frame.to_numpy()))
        if sigma == 0:
            rows.append((n, 0.0, math.nan, math.nan, len(frame)))
            continue
        effect = difference / sigma
        needed = S.queries_for_power(effect, alpha, power)
        rows.append((n, sigma, needed if needed > 0 else math.inf,
                     S.t_power(len(frame), effect, alpha), len(frame)))
    return pd.DataFrame(rows, columns=["choice", "sigma_d", "queries", "power_now",
                                       "n_queries"]).set_index("choice")
