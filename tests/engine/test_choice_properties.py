"""compare_choices' statistics on generated data (hypothesis: new data every run, not seeds
chosen in advance): τ-b is SciPy's kendalltau, τ_AP its definition, each pair's t-test and
Wilcoxon p-value SciPy's ttest_rel and wilcoxon, to 1e-9."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ndcg_core import _choice_stats as S

# NDCG-like values on a grid of 1/8, so that ties (in means and in differences) happen
value = st.integers(0, 8).map(lambda v: v / 8)


@st.composite
def score_matrix(draw, min_queries=3):
    """queries × systems per-query scores, 3 to 6 systems."""
    n = draw(st.integers(min_queries, 25))
    m = draw(st.integers(3, 6))
    cells = draw(st.lists(value, min_size=n * m, max_size=n * m))
    return np.array(cells, dtype=float).reshape(n, m)


def transcribed_tau_ap(x, truth):
    """Yilmaz, Aslam & Robertson (2008), eq. 1, for orderings without ties."""
    order = sorted(range(len(x)), key=lambda a: -x[a])
    total = sum(sum(truth[above] > truth[order[i]] for above in order[:i]) / i
                for i in range(1, len(order)))
    return 2 / (len(x) - 1) * total - 1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(value, value), min_size=2, max_size=12))
def test_kendall_tau_b_is_scipys_kendalltau(pairs):
    x, y = (np.array(v) for v in zip(*pairs))
    got = S.kendall_tau_b(x, y)
    if np.all(x == x[0]) or np.all(y == y[0]):
        assert math.isnan(got)
    else:
        assert abs(got - stats.kendalltau(x, y).statistic) <= 1e-9


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10).flatmap(lambda n: st.tuples(st.permutations(range(n)),
                                                      st.permutations(range(n)))))
def test_tau_ap_is_its_definition_without_ties(orders):
    x, truth = (np.array(o, dtype=float) for o in orders)
    assert abs(S.tau_ap(x, truth) - transcribed_tau_ap(x, truth)) <= 1e-12


@settings(max_examples=25, deadline=None)
@given(score_matrix())
def test_each_pairs_t_test_is_scipys_ttest_rel(scores):
    p = S.pair_pvalues_all([scores], "t", 1000, 0)[0]
    for (a, b), got in zip(zip(*S.pair_index(scores.shape[1])), p):
        x, y = scores[:, b], scores[:, a]
        if not (x - y).any() or S._zero_means((x - y)[None], x[None], y[None])[0]:
            assert got == 1.0  # no difference: p = 1, where SciPy says NaN
            continue
        expected = stats.ttest_rel(x, y).pvalue
        assert abs(got - expected) <= 1e-9, (a, b)


@settings(max_examples=20, deadline=None)
@given(score_matrix(min_queries=14))  # fewer, with ties: SciPy enumerates 2^n signs a pair
def test_each_pairs_wilcoxon_is_scipys_wilcoxon(scores):
    p = S.pair_pvalues_all([scores], "wilcoxon", 1000, 0)[0]
    for (a, b), got in zip(zip(*S.pair_index(scores.shape[1])), p):
        x, y = scores[:, b], scores[:, a]
        expected = stats.wilcoxon(x, y).pvalue if (x - y).any() else 1.0
        assert abs(got - expected) <= 1e-9, (a, b)
