"""The p-values of every pair of every choice, computed at once (one draw of the resamples,
one product), are exactly those of the former code, which tested one choice at a time,
drew the resamples again for each and summed every pair's differences with math.fsum.

`one_choice_at_a_time` below is that former code, kept here as the reference: the same
seeds, the same draws, and the figures compared with ==, not to a tolerance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ndcg_core import _choice_stats as S
from ndcg_core._significance import _p_value


def one_choice_at_a_time(scores, test, n_resamples, seed):
    """The former ndcg_core._choice_stats.pair_pvalues, line for line."""
    i, j = S.pair_index(scores.shape[1])
    x, b = scores[:, j].T, scores[:, i].T
    d = x - b
    n = d.shape[1]
    p = np.full(d.shape[0], np.nan)
    same = ~d.any(axis=1)
    if test == "wilcoxon":
        zero = np.zeros_like(same)
    else:
        scale = np.maximum(np.abs(x).max(axis=1), np.abs(b).max(axis=1))
        sums = np.array([math.fsum(row) for row in d])
        zero = np.abs(sums) <= 4 * n * float(np.finfo(float).eps) * scale
    rest = ~(same | zero)
    p[~rest] = 1.0
    if not rest.any():
        return p
    xr, br, dr = x[rest], b[rest], d[rest]
    if test == "t":
        with np.errstate(divide="ignore", invalid="ignore"):
            t = dr.mean(axis=1) / (dr.std(axis=1, ddof=1) / math.sqrt(n))
        p[rest] = 2 * stats.t.sf(np.abs(t), n - 1)
    elif test == "wilcoxon":
        p[rest] = stats.wilcoxon(xr, br, axis=1, zero_method="wilcox", method="auto").pvalue
    elif 2 ** min(n, 64) <= n_resamples:
        p[rest] = [_p_value(a, c, test, n_resamples, seed) for a, c in zip(xr, br)]
    elif test == "randomization":
        null = S._sign_flips(n, n_resamples, seed) @ dr.T / n
        p[rest] = S._monte_carlo_p(null, dr.mean(axis=1), n_resamples)
    else:
        shifted = dr - dr.mean(axis=1, keepdims=True)
        null = S._draw_counts(n, n_resamples, seed) @ shifted.T / n
        p[rest] = S._monte_carlo_p(null, dr.mean(axis=1), n_resamples)
    return p


def ndcg_like(rng, n_queries, n_systems):
    """Per-query scores in [0, 1] on a grid of 1/64 (so ties and equal means happen), with
    a copy of system 0 (no query differs), a system whose differences from system 0 cancel
    only in binary (0.1 + 0.2 against 0.3) and systems of different skill."""
    skill = rng.uniform(0.2, 0.8, n_systems)
    base = rng.uniform(0, 1, (n_queries, 1))
    x = np.clip(np.round((base + skill - 0.5 + rng.normal(0, 0.2, (n_queries, n_systems)))
                         * 64) / 64, 0, 1)
    x[:, 1] = x[:, 0]
    x[:, 2] = x[:, 0]
    x[0::3, 2], x[1::3, 2], x[2::3, 2] = 0.1, 0.2, 0.3
    x[0::3, 0], x[1::3, 0], x[2::3, 0] = 0.2, 0.1, 0.3   # mean(x2 - x0) = 0 but for rounding
    x[:, 1] = x[:, 0]
    return x


@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomization", "bootstrap"])
@pytest.mark.parametrize("n_queries, n_systems, n_choices", [(6, 5, 3), (30, 8, 4),
                                                              (251, 12, 6)])
def test_every_choice_at_once_gives_the_former_pvalues_exactly(test, n_queries, n_systems,
                                                               n_choices):
    """Seeds 0 and 7, 1,000 resamples: every p-value equal to the last bit, pairs with no
    difference and pairs whose differences cancel in binary at p = 1 as before (6 queries:
    every sign flip enumerated)."""
    rng = np.random.default_rng(n_queries)
    matrices = [ndcg_like(rng, n_queries, n_systems) for _ in range(n_choices)]
    for seed in (0, 7):
        got = S.pair_pvalues_all(matrices, test, 1000, seed)
        for m, p in zip(matrices, got):
            expected = one_choice_at_a_time(m, test, 1000, seed)
            np.testing.assert_array_equal(p, expected)
            assert p[0] == 1.0  # systems 0 and 1: no query differs
            if test != "wilcoxon":
                assert p[1] == 1.0  # systems 0 and 2: a mean difference of 0 in binary


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_the_benchmarks_size_gives_the_former_pvalues_exactly(test):
    """30 systems (435 pairs) x 250 queries x 12 choices, the size the tab is timed at: the
    pairs of all twelve choices in one product (in blocks of 2,000 pairs) change no p."""
    rng = np.random.default_rng(2024)
    matrices = [ndcg_like(rng, 250, 30) for _ in range(12)]
    got = S.pair_pvalues_all(matrices, test, 1000, 0)
    for m, p in zip(matrices, got):
        np.testing.assert_array_equal(p, one_choice_at_a_time(m, test, 1000, 0))


def test_the_exact_sum_is_asked_only_near_zero():
    """A mean difference far from 0 is settled by numpy's sum: the same answer as the exact
    sum, on differences that cancel, nearly cancel and do not."""
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 1, (200, 40))
    b = x.copy()
    b[:50] = x[:50, ::-1]                           # the same values, another order: sum 0
    b[50:100] += rng.choice([-1, 1], (50, 40)) * 2.0 ** -52   # within rounding of 0
    b[100:] = rng.uniform(0, 1, (100, 40))          # clearly different
    d = x - b
    scale = np.maximum(np.abs(x).max(axis=1), np.abs(b).max(axis=1))
    exact = np.array([abs(math.fsum(r)) for r in d]) <= 4 * 40 * np.finfo(float).eps * scale
    np.testing.assert_array_equal(S._zero_means(d, x, b), exact)
    assert exact[:50].all() and not exact[100:].any()
