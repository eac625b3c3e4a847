"""The paired significance tests and confidence intervals behind
:func:`~ndcg_core.compare`: SciPy's ``ttest_rel``, ``wilcoxon``, ``permutation_test``,
``monte_carlo_test`` and ``bootstrap``, with the sign-flip and shifted-bootstrap resamplers,
in batches of bounded memory.

Apart from :mod:`ndcg_core.compare` (the public functions, their options and docstrings):
this is the resampling machinery, and the only place scipy.stats is imported.
"""

from __future__ import annotations

import math

import numpy as np

# scipy.stats is imported where a test runs, not here: importing it takes ~2.5 s on this
# machine (import ndcg_core: 0.5-1.0 s without it, 3.1-4.1 s with it), which every CLI call
# and every page would pay for statistics it may never compute.

# Resampled statistics are computed this many cells (resamples x queries) at a time, so
# 10,000 resamples of 7,000 queries never hold more than ~16 MB at once.
_BATCH_CELLS = 2_000_000


def _mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def _zero_mean(x: np.ndarray, b: np.ndarray) -> bool:
    """True when mean(x - b) is 0 but for the rounding of the scores to binary: the exact
    sum of the differences is within what rounding n pairs of scores can leave (an ulp of
    the largest score each, twice: x and b).

    >>> _zero_mean(np.array([0.3, 0.1]), np.array([0.2, 0.2]))  # 0.1 - 0.1, in binary
    True
    >>> _zero_mean(np.array([0.3, 0.1]), np.array([0.2, 0.19]))
    False
    """
    scale = max(float(np.abs(x).max()), float(np.abs(b).max()))
    return abs(math.fsum(x - b)) <= 4 * x.size * float(np.finfo(float).eps) * scale


def _p_value(x: np.ndarray, b: np.ndarray, test: str, n_resamples: int, seed: int) -> float:
    """Two-sided p-value of ``x`` against ``b`` (paired), by ``test``."""
    from scipy import stats

    d = x - b
    if not d.any():
        # No query differs: nothing speaks against H0. SciPy gives NaN here (0/0) for the
        # t-test and the normal approximation; 1.0 keeps the corrections defined.
        return 1.0
    n = d.size
    if test != "wilcoxon" and _zero_mean(x, b):
        # The statistic is exactly 0, so every resample is as extreme as it: p = 1. SciPy
        # counts resampled means of about 1e-17 as less extreme than an observed mean of
        # about 1e-17 (0.1 - 0.1 in binary), and gives p < 1.
        return 1.0
    batch = max(1, _BATCH_CELLS // n)
    if test == "t":
        return float(stats.ttest_rel(x, b).pvalue)
    if test == "wilcoxon":
        # Both arguments spelled out although they are SciPy's defaults (as PyTerrier calls
        # it): drop zero differences (Wilcoxon 1945); exact null when n <= 50 and no ties or
        # zeros, all permutations when ties or zeros and n <= 13, else the normal
        # approximation with the tie correction.
        return float(stats.wilcoxon(x, b, zero_method="wilcox", method="auto").pvalue)
    if test == "randomization":
        if 2 ** min(n, 64) <= n_resamples:
            # permutation_test enumerates all 2^n swaps of the two scores of each query when
            # n_resamples allows: an exact p, no randomness.
            res = stats.permutation_test(
                (x, b), _mean_difference, permutation_type="samples", vectorized=True,
                n_resamples=n_resamples, batch=batch, alternative="two-sided", rng=seed)
            return float(res.pvalue)
        # The same null, sampled: a swap flips the sign of one difference. monte_carlo_test
        # counts and adjusts exactly as permutation_test's random branch ((k + 1) / (R + 1),
        # Phipson & Smyth 2010) and runs ~8x faster on 1,000 queries (0.07 s vs 0.6 s).
        # Signs come 8 to a random byte: half the time of one random float per sign.
        rng = np.random.default_rng(seed)

        def flipped(size):
            rows, cols = size
            bytes_ = rng.integers(0, 256, size=(rows, (cols + 7) // 8), dtype=np.uint8)
            minus = np.unpackbits(bytes_, axis=1, count=cols).view(bool)
            return np.where(minus, -d, d)

        res = stats.monte_carlo_test(d, flipped, np.mean, vectorized=True,
                                     n_resamples=n_resamples, batch=batch,
                                     alternative="two-sided")
        return float(res.pvalue)
    # test == "bootstrap": shift the differences to mean 0 so H0 holds, resample queries with
    # replacement, and see how often a resampled mean is as extreme as the observed one.
    shifted = d - d.mean()
    rng = np.random.default_rng(seed)

    def resampled(size):
        return shifted[rng.integers(0, n, size=size)]

    res = stats.monte_carlo_test(d, resampled, np.mean, vectorized=True,
                                 n_resamples=n_resamples, batch=batch, alternative="two-sided")
    return float(res.pvalue)


def _interval(x: np.ndarray, b: np.ndarray, test: str, confidence: float, n_resamples: int,
              seed: int) -> tuple[float, float]:
    """CI of mean(x - b): the t-interval for the t-test, else the percentile bootstrap."""
    from scipy import stats

    d = x - b
    if np.ptp(d) == 0:  # every query moved by the same amount: the interval is that point
        return float(d[0]), float(d[0])
    if test == "t":
        ci = stats.ttest_rel(x, b).confidence_interval(confidence_level=confidence)
    else:
        ci = stats.bootstrap((d,), np.mean, n_resamples=n_resamples,
                             batch=max(1, _BATCH_CELLS // d.size), vectorized=True,
                             confidence_level=confidence, method="percentile",
                             rng=seed).confidence_interval
    return float(ci.low), float(ci.high)
