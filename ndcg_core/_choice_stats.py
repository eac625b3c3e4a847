"""The vectorised statistics behind :mod:`ndcg_core.choices`: every pair of systems at once.

Apart from :mod:`ndcg_core.choices` (the public functions, their options and docstrings):
Kendall's τ-b and τ_AP between two orderings of the systems, the paired tests of every pair
of systems as arrays (the same tests, draws and rules as :func:`ndcg_core.compare`, whose
per-pair code is :mod:`ndcg_core._significance`), the swap rate between disjoint query
sets, and the power of a paired t-test.
"""

from __future__ import annotations

import math

import numpy as np

from ._significance import _BATCH_CELLS, _p_value


def pair_index(n_systems: int) -> tuple[np.ndarray, np.ndarray]:
    """The (i, j) of every pair i < j of n systems, row by row: (0, 1), (0, 2), ... (1, 2)."""
    return np.triu_indices(n_systems, k=1)


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's τ-b of two score vectors (ties adjusted, as ``scipy.stats.kendalltau``):
    (concordant − discordant) / √((pairs untied in x) · (pairs untied in y)). NaN when
    either vector has every value equal (no ordering to compare)."""
    i, j = pair_index(x.size)
    sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
    untied_x, untied_y = np.count_nonzero(sx), np.count_nonzero(sy)
    if untied_x == 0 or untied_y == 0:
        return math.nan
    return float((sx * sy).sum() / math.sqrt(untied_x * untied_y))


def tau_ap(x: np.ndarray, reference: np.ndarray) -> float:
    """τ_AP of the ordering by ``x`` against the ordering by ``reference`` (Yilmaz, Aslam &
    Robertson, SIGIR 2008): 2/(N−1) · Σ_{i=2..N} C(i)/(i−1) − 1, where the items are taken
    in x's order (highest first) and C(i) counts the items above the i-th that the
    reference also ranks above it. An error near the top costs more than one near the
    bottom; τ_AP is not symmetric (``reference`` is the truth).

    Ties, which the definition leaves out: a pair tied in either ordering counts ½ in C(i);
    items tied in x take their places in x's list in the reference's order (then by
    position), which only decides the weights 1/(i−1) of the tied items, not whether a pair
    agrees. Without ties this is the definition exactly. NaN when every x is equal."""
    n = x.size
    if n < 2 or np.all(x == x[0]):
        return math.nan
    # x's list: by x descending, ties by reference descending, then by position (stable)
    order = np.lexsort((-reference, -x))
    xs, rs = x[order], reference[order]
    above_x = xs[None, :] > xs[:, None]        # [i, j]: j above i in x
    above_r = rs[None, :] > rs[:, None]
    tied = (xs[None, :] == xs[:, None]) | (rs[None, :] == rs[:, None])
    agree = np.where(tied, 0.5, (above_x & above_r) | (~above_x & ~above_r)).astype(float)
    earlier = np.tril(np.ones((n, n), bool), k=-1)  # j placed before i in x's list
    c = (agree * earlier).sum(axis=1)[1:]
    return float(2.0 / (n - 1) * (c / np.arange(1, n)).sum() - 1.0)


# ------------------------------------------------------------------ paired tests, all pairs

def _sign_flips(n: int, n_resamples: int, seed: int) -> np.ndarray:
    """The ±1 sign matrix (resamples × queries) :func:`ndcg_core.compare`'s randomization
    test draws from ``seed``: the same generator, the same batches, the same bytes."""
    rng = np.random.default_rng(seed)
    batch = max(1, _BATCH_CELLS // n)
    blocks = []
    for start in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - start)
        bytes_ = rng.integers(0, 256, size=(rows, (n + 7) // 8), dtype=np.uint8)
        minus = np.unpackbits(bytes_, axis=1, count=n).view(bool)
        blocks.append(np.where(minus, -1.0, 1.0))
    return np.concatenate(blocks)


def _draw_counts(n: int, n_resamples: int, seed: int) -> np.ndarray:
    """How often each query is drawn in each of :func:`ndcg_core.compare`'s bootstrap
    resamples (resamples × queries), from the same generator and batches."""
    rng = np.random.default_rng(seed)
    batch = max(1, _BATCH_CELLS // n)
    counts = np.zeros((n_resamples, n))
    for start in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - start)
        idx = rng.integers(0, n, size=(rows, n))
        flat = (np.arange(rows)[:, None] * n + idx).ravel()
        counts[start:start + rows] = np.bincount(flat, minlength=rows * n).reshape(rows, n)
    return counts


def _monte_carlo_p(null: np.ndarray, observed: np.ndarray, n_resamples: int) -> np.ndarray:
    """Two-sided p of each column, counted as scipy.stats.monte_carlo_test counts:
    2 · min of the one-sided (k + 1) / (R + 1), with its tolerance of 100 ulps."""
    gamma = np.abs(np.finfo(float).eps * 100 * observed)
    less = ((null <= observed + gamma).sum(axis=0) + 1.0) / (n_resamples + 1.0)
    greater = ((null >= observed - gamma).sum(axis=0) + 1.0) / (n_resamples + 1.0)
    return np.clip(np.minimum(less, greater) * 2, 0.0, 1.0)


def _zero_means(d: np.ndarray, x: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pair: mean(d) is 0 but for binary rounding (``_significance._zero_mean``'s rule,
    the differences summed exactly).

    The exact sum (``math.fsum``) is asked only where numpy's sum cannot settle the rule:
    any order of summing n terms lands within (n − 1)·u·Σ|d| of the exact sum (u = eps/2,
    Higham's bound), so a sum far above the threshold or far below it decides as fsum would.
    """
    eps = float(np.finfo(float).eps)
    scale = np.maximum(np.abs(x).max(axis=1), np.abs(b).max(axis=1))
    bound = 4 * d.shape[1] * eps * scale
    approx = np.abs(d.sum(axis=1))
    slack = d.shape[1] * eps * np.abs(d).sum(axis=1)  # twice Higham's bound, and then some
    zero = approx + slack < bound / 2
    unsure = ~zero & (approx <= 2 * bound + 2 * slack)
    for row in np.flatnonzero(unsure):
        zero[row] = abs(math.fsum(d[row])) <= bound[row]
    return zero


def _classify(scores: np.ndarray, test: str):
    """Per pair of ``scores``' columns (:func:`pair_index`): the differences (pairs ×
    queries) and the pairs whose p is 1 without a test (no query differs; for the tests of
    the mean, a mean difference 0 but for rounding), as ``_significance._p_value`` rules."""
    i, j = pair_index(scores.shape[1])
    x, b = scores[:, j].T, scores[:, i].T           # pairs × queries
    d = x - b
    same = ~d.any(axis=1)
    zero = np.zeros_like(same) if test == "wilcoxon" else _zero_means(d, x, b)
    return x, b, d, same | zero


def _resampled_p(d: np.ndarray, test: str, n_resamples: int, seed: int) -> np.ndarray:
    """Two-sided p of each row of ``d`` (pairs × queries) by the randomization or bootstrap
    test: one draw matrix (resamples × queries) from ``seed``, the one compare draws for
    every pair, multiplied with every pair's differences at once, in column blocks of
    bounded memory (the same products, so the same p-values, as one pair at a time)."""
    n = d.shape[1]
    if test == "randomization":
        draws, rows = _sign_flips(n, n_resamples, seed), d
    else:  # bootstrap, shift method: resample the centred differences
        draws, rows = _draw_counts(n, n_resamples, seed), d - d.mean(axis=1, keepdims=True)
    observed = d.mean(axis=1)
    p = np.empty(d.shape[0])
    block = max(1, _BATCH_CELLS // n_resamples)
    for start in range(0, d.shape[0], block):
        part = slice(start, start + block)
        null = draws @ rows[part].T / n                     # resamples × pairs
        p[part] = _monte_carlo_p(null, observed[part], n_resamples)
    return p


def pair_pvalues_all(matrices: list, test: str, n_resamples: int, seed: int) -> list:
    """:func:`pair_pvalues` of each matrix in ``matrices`` (queries × systems, the same
    queries): the resampling tests draw their resamples once and test every pair of every
    matrix in one product."""
    from scipy import stats

    parts = [_classify(m, test) for m in matrices]
    out = [np.where(settled, 1.0, np.nan) for _, _, _, settled in parts]
    n = matrices[0].shape[0]
    if test == "t":
        for (_, _, d, settled), p in zip(parts, out):
            dr = d[~settled]
            # ttest_rel's statistic, vectorised: mean(d) / (sd(d) / √n) on n − 1 degrees
            # of freedom (sd = 0 with a nonzero mean: t = ±inf, p = 0, as SciPy gives it)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = dr.mean(axis=1) / (dr.std(axis=1, ddof=1) / math.sqrt(n))
            p[~settled] = 2 * stats.t.sf(np.abs(t), n - 1)
    elif test == "wilcoxon":
        for (x, b, _, settled), p in zip(parts, out):
            if (~settled).any():
                # SciPy's wilcoxon takes the pairs as rows and applies method="auto" to each
                p[~settled] = stats.wilcoxon(x[~settled], b[~settled], axis=1,
                                             zero_method="wilcox", method="auto").pvalue
    elif 2 ** min(n, 64) <= n_resamples:
        # every sign flip enumerated: few queries, the per-pair exact test is cheap
        for (x, b, _, settled), p in zip(parts, out):
            p[~settled] = [_p_value(a, c, test, n_resamples, seed)
                           for a, c in zip(x[~settled], b[~settled])]
    else:
        rest = np.concatenate([d[~settled] for _, _, d, settled in parts])
        if rest.size:
            got, start = _resampled_p(rest, test, n_resamples, seed), 0
            for (_, _, _, settled), p in zip(parts, out):
                count = int((~settled).sum())
                p[~settled] = got[start:start + count]
                start += count
    return out


def pair_pvalues(scores: np.ndarray, test: str, n_resamples: int, seed: int) -> np.ndarray:
    """Two-sided p-value of every pair i < j (:func:`pair_index`) of the columns of
    ``scores`` (queries × systems), as :func:`ndcg_core.compare` would give it for system j
    against baseline i: the same test, the same resamples drawn from ``seed`` (the same for
    every pair), and p = 1 when no query differs or the mean difference is 0 but for
    rounding."""
    return pair_pvalues_all([scores], test, n_resamples, seed)[0]


# ------------------------------------------------------------------ stability

def split_halves(n_queries: int, size: int, n_splits: int, seed: int):
    """``n_splits`` random pairs of disjoint query sets of ``size`` each: two (splits ×
    size) arrays of query positions, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    perms = np.argsort(rng.random((n_splits, n_queries)), axis=1)
    return perms[:, :size], perms[:, size:2 * size]


def swaps(scores: np.ndarray, first: np.ndarray, second: np.ndarray, difference: float):
    """(swapped, counted) pair-split counts: a pair is counted in a split when its mean
    difference on the first set is at least ``difference`` in size (and not 0), and swapped
    when the second set orders it the other way (Voorhees & Buckley 2002; a tie on the
    second set is not a swap)."""
    i, j = pair_index(scores.shape[1])
    # the sets' means by gathering, not a matrix product: tiny products pay BLAS's threads
    m1, m2 = scores[first].mean(axis=1), scores[second].mean(axis=1)   # splits × systems
    d1, d2 = m1[:, j] - m1[:, i], m2[:, j] - m2[:, i]
    counted = (np.abs(d1) >= difference) & (d1 != 0)
    swapped = counted & (np.sign(d1) * np.sign(d2) < 0)
    return int(swapped.sum()), int(counted.sum())


def residual_variance(scores: np.ndarray) -> float:
    """V_E of a two-way ANOVA without replication (queries × systems): the residual mean
    square after the query and system effects, on (n − 1)(m − 1) degrees of freedom."""
    n, m = scores.shape
    resid = (scores - scores.mean(axis=0, keepdims=True) - scores.mean(axis=1, keepdims=True)
             + scores.mean())
    return float((resid ** 2).sum() / ((n - 1) * (m - 1)))


def t_power(n: int, effect: float, alpha: float) -> float:
    """Power of a two-sided paired t-test on n queries for a standardised effect
    (difference / sd of the differences): P(|T| > t_{1−α/2, n−1}) with T noncentral t on
    n − 1 degrees of freedom and noncentrality effect · √n."""
    from scipy import stats

    df = n - 1
    crit = stats.t.isf(alpha / 2, df)
    nc = effect * math.sqrt(n)
    return float(stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc))


def queries_for_power(effect: float, alpha: float, power: float, most: int = 1_000_000) -> int:
    """The smallest n >= 2 whose paired t-test reaches ``power`` for ``effect`` (Sakai 2016's
    topic set size for the t-test): from the normal approximation ((z_{α/2} + z_β) / effect)²,
    stepped to the exact noncentral-t answer (power grows with n). -1 beyond ``most``."""
    from scipy import stats

    z = stats.norm.isf(alpha / 2) + stats.norm.isf(1 - power)
    approx = (z / effect) ** 2
    if approx > most:
        return -1
    n = max(2, math.ceil(approx))
    while t_power(n, effect, alpha) < power:
        n += 1
    while n > 2 and t_power(n - 1, effect, alpha) >= power:
        n -= 1
    return n
