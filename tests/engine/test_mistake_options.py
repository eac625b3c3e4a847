"""ndcg_core's options that reproduce published mistakes (MISTAKE_OPTIONS): each against the
written-out arithmetic, with the grades in a comment, and scikit-learn where it computes
the same thing; their defaults change nothing; bad values are refused by name."""

from __future__ import annotations

from math import log, log2

import numpy as np
import pytest
from sklearn.metrics import dcg_score

import ndcg_core as nc

G = [3, 2, 3, 0, 1, 2]          # Wikipedia's ranking (document 000)
POOL = G + [3, 2]               # D7 = 3 and D8 = 2 judged, never retrieved


def test_defaults_are_the_right_convention():
    plain = nc.ndcg_parts(G, k=4, ideal=POOL)
    assert nc.ndcg_parts(G, k=4, ideal=POOL, cut="both", shift=0, ideal_discount=None,
                         negative_ideal="drop") == plain
    assert set(nc.MISTAKE_OPTIONS) == {"cut", "shift", "ideal_discount", "negative_ideal"}
    for name, opt in nc.MISTAKE_OPTIONS.items():
        assert opt.default in opt.choices, name


def test_cut_ideal_only_sums_dcg_over_the_whole_list():
    # lenskit #309: ratings 5, 4, 3 at k = 2; DCG of all three over IDCG@2
    expected = (5 + 4 / log2(3) + 3 / 2) / (5 + 4 / log2(3))
    assert nc.ndcg([5, 4, 3], k=2, cut="ideal_only") == pytest.approx(expected)
    parts = nc.ndcg_parts(G, k=4, ideal=POOL, cut="ideal_only")
    assert parts.dcg == pytest.approx(3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6) + 2 / log2(7))
    assert parts.idcg == pytest.approx(3 + 3 / log2(3) + 3 / 2 + 2 / log2(5))  # 3, 3, 3, 2


def test_cut_list_length_sums_idcg_over_fewer_than_k_items():
    # mlflow #24541: one relevant hit, four relevant never found, k = 5 -> k = 1 on both sides
    assert nc.ndcg([1], k=5, ideal=[1] * 5, cut="list_length") == 1.0
    assert nc.ndcg([1], k=5, ideal=[1] * 5) == pytest.approx(
        1 / (1 + 1 / log2(3) + 1 / 2 + 1 / log2(5) + 1 / log2(6)))
    # Wikipedia's example at k = 8: the ideal of 8 judged items cut at the list's 6
    dcg6 = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6) + 2 / log2(7)
    idcg6 = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)  # 3,3,3,2,2,2
    assert nc.ndcg(G, k=8, ideal=POOL, cut="list_length") == pytest.approx(dcg6 / idcg6)
    # k within the list: nothing changes
    assert nc.ndcg(G, k=4, ideal=POOL, cut="list_length") == nc.ndcg(G, k=4, ideal=POOL)


def test_shift_divides_rank_i_by_log2_of_i_plus_2():
    expected = (3 / log2(3) + 2 / 2 + 3 / log2(5) + 0) / (3 / log2(3) + 3 / 2 + 3 / log2(5)
                                                          + 2 / log2(6))  # ideal 3, 3, 3, 2
    assert nc.ndcg(G, k=4, ideal=POOL, shift=1) == pytest.approx(expected)
    table = nc.dcg_table(G, shift=1)
    assert list(table["discount"]) == pytest.approx([log2(i + 2) for i in range(1, 7)])
    ideal = nc.ideal_table(G, k=4, ideal=POOL, shift=1)
    assert ideal["cumulative_dcg"].iloc[3] == pytest.approx(
        nc.ndcg_parts(G, k=4, ideal=POOL, shift=1).idcg)


def test_ideal_discount_mixes_natural_log_dcg_with_log2_idcg():
    # Cohere's documentation #574: ln in the worked example's DCG, log2 in the formula
    dcg = 3 / log(2) + 2 / log(3) + 3 / log(4) + 0
    idcg = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5)
    assert nc.ndcg(G, k=4, ideal=POOL, discount="ln", ideal_discount="log2") == \
        pytest.approx(dcg / idcg)
    # one base on both sides: the base cancels
    assert nc.ndcg(G, k=4, ideal=POOL, discount="ln") == pytest.approx(
        nc.ndcg(G, k=4, ideal=POOL))


def test_negative_ideal_keep_is_scikit_learn_0_22_and_gives_396():
    y = [-0.47, 0.39, -0.53, 0.56, -0.89]          # scikit-learn #17639, in ranked order
    dcg = -0.47 + 0.39 / log2(3) - 0.53 / 2 + 0.56 / log2(5) - 0.89 / log2(6)
    idcg = 0.56 + 0.39 / log2(3) - 0.47 / 2 - 0.53 / log2(5) - 0.89 / log2(6)  # negative
    value = nc.ndcg(y, negative_ideal="keep")
    assert value == pytest.approx(dcg / idcg)
    assert round(value, 2) == 396.03
    # scikit-learn's dcg_score still takes negative grades: 0.22's ndcg_score was this ratio
    scores = np.array([[5.0, 4, 3, 2, 1]])
    arr = np.array([y])
    assert value == pytest.approx(dcg_score(arr, scores) / dcg_score(arr, arr), rel=1e-12)
    # the right rule (drop) scores such a list by zero_idcg instead
    assert nc.ndcg(y) == 0.0


@pytest.mark.parametrize("seed", range(30))
def test_negative_ideal_keep_equals_scikit_learns_dcg_ratio_on_random_lists(seed):
    rng = np.random.default_rng(seed)
    y = np.round(rng.uniform(-2, 3, size=rng.integers(2, 12)), 2)
    k = int(rng.integers(1, y.size + 1))
    scores = np.arange(y.size, 0, -1.0)[None, :]     # the list as ranked
    top, bottom = dcg_score(y[None, :], scores, k=k), dcg_score(y[None, :], y[None, :], k=k)
    expected = 0.0 if bottom == 0 else top / bottom
    assert nc.ndcg(list(y), k=k, negative_ideal="keep") == pytest.approx(expected, rel=1e-9)


def test_negative_ideal_keep_sorts_negatives_into_a_pools_ideal():
    # pool 2, -1, -1, 1 (one -1 unretrieved): kept, the ideal is 2, 1, -1, -1
    parts = nc.ndcg_parts([2, -1], k=4, ideal=[2, -1, -1, 1], negative_ideal="keep")
    assert parts.idcg == pytest.approx(2 + 1 / log2(3) - 1 / 2 - 1 / log2(5))
    table = nc.ideal_table([2, -1], k=4, ideal=[2, -1, -1, 1], negative_ideal="keep")
    assert list(table["relevance"]) == [2, 1, -1, -1]


@pytest.mark.parametrize(("name", "value", "message"), [
    ("cut", "ranking", "cut must be one of 'both', 'ideal_only', 'list_length'; got 'ranking'"),
    ("shift", 2, "shift must be one of 0, 1; got 2"),
    ("shift", True, "shift must be one of 0, 1; got True"),
    ("ideal_discount", "jarvelin", "ideal_discount must be one of None, 'log2', 'ln'"),
    ("negative_ideal", "zero", "negative_ideal must be one of 'drop', 'keep'; got 'zero'"),
])
def test_bad_values_are_refused_by_name(name, value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        nc.ndcg(G, k=4, **{name: value})
