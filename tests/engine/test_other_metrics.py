"""The comparison metrics shown next to NDCG: CG, precision@k, reciprocal rank, MRR and
average precision, by hand and against scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from ndcg_core import (
    average_precision,
    cg,
    mean_reciprocal_rank,
    precision_at_k,
    reciprocal_rank,
)

RANKED = [3, 2, 3, 0, 1, 2]


def test_cg_sums_the_top_k_gains_blind_to_order():
    assert cg(RANKED) == 3 + 2 + 3 + 0 + 1 + 2
    assert cg(RANKED, k=3) == 3 + 2 + 3
    assert cg(RANKED, k=100) == cg(RANKED)
    assert cg(RANKED, k=4) == cg([0, 3, 3, 2], k=4)
    assert cg(RANKED, k=3, gain="exponential") == 7 + 3 + 7  # 2^rel - 1 for rel = 3, 2, 3
    assert cg([2, -1], negative="zero") == 2 + 0
    assert cg([2, -1]) == 2 - 1  # negative='keep' by default


def test_precision_at_k_counts_grades_at_or_above_the_threshold():
    assert precision_at_k(RANKED, k=4) == 3 / 4  # 3, 2, 3 are >= 1; 0 is not
    assert precision_at_k(RANKED, k=4, threshold=3) == 2 / 4  # 3 and 3
    assert precision_at_k(RANKED, k=1, threshold=3) == 1 / 1
    assert precision_at_k(RANKED, k=6, threshold=2) == 4 / 6  # 3, 2, 3, 2


def test_precision_at_k_past_the_end_of_the_list_divides_by_k():
    assert precision_at_k(RANKED, k=10) == 5 / 10  # 5 relevant items, 4 empty slots


def test_reciprocal_rank_is_one_over_the_first_relevant_position():
    assert reciprocal_rank([0, 0, 2, 1]) == 1 / 3
    assert reciprocal_rank([0, 1, 2, 1], threshold=2) == 1 / 3
    assert reciprocal_rank([1, 0]) == 1.0
    assert reciprocal_rank([0, 0, 2], k=2) == 0.0  # the hit lies below the cutoff
    assert reciprocal_rank([0, 0, 0]) == 0.0
    assert reciprocal_rank([0, 1, 2], threshold=3) == 0.0


def test_mrr_from_rankings_with_a_threshold():
    rankings = [[0, 2, 1], [1, 0, 3], [0, 0, 0]]
    assert mean_reciprocal_rank(rankings) == pytest.approx((1 / 2 + 1 / 1 + 0) / 3, abs=1e-15)
    assert mean_reciprocal_rank(rankings, threshold=2) == pytest.approx(
        (1 / 2 + 1 / 3 + 0) / 3, abs=1e-15)
    assert mean_reciprocal_rank(rankings, k=1) == pytest.approx((0 + 1 + 0) / 3, abs=1e-15)


def test_mrr_from_ranks_counts_queries_without_a_hit_as_zero():
    """Document 003's "common mistake": a query with no relevant item scores 0 here."""
    assert mean_reciprocal_rank(ranks=[1, None, 0, 4]) == (1 + 0 + 0 + 1 / 4) / 4
    assert mean_reciprocal_rank(ranks=np.array([2, 4])) == (1 / 2 + 1 / 4) / 2


def test_average_precision_by_hand():
    assert average_precision([1, 0, 1, 0]) == pytest.approx((1 / 1 + 2 / 3) / 2, abs=1e-15)
    # threshold 2: relevant at ranks 1, 3, 5
    assert average_precision([3, 1, 2, 0, 3], threshold=2) == pytest.approx(
        (1 / 1 + 2 / 3 + 3 / 5) / 3, abs=1e-15)
    assert average_precision([0, 0, 0]) == 0.0


def test_average_precision_counts_unretrieved_relevant_items_as_misses():
    # 2 relevant retrieved at ranks 1 and 3, 5 relevant judged in all
    assert average_precision([1, 0, 1, 0], n_relevant=5) == pytest.approx(
        (1 / 1 + 2 / 3) / 5, abs=1e-15)


def test_average_precision_at_k_keeps_the_full_list_relevant_count():
    # relevant at ranks 1, 3, 5; only the first two lie in the top 3
    assert average_precision([1, 0, 1, 0, 1], k=3) == pytest.approx((1 / 1 + 2 / 3) / 3,
                                                                   abs=1e-15)


@pytest.mark.parametrize("case", range(200))
def test_average_precision_matches_sklearn_on_tie_free_scores(case):
    rng = np.random.default_rng(50_000 + case)
    n = int(rng.integers(2, 20))
    grades = rng.integers(0, 4, n)
    threshold = int(rng.integers(1, 4))
    if not (grades >= threshold).any():
        grades[rng.integers(n)] = threshold
    scores = rng.permutation(n) + rng.uniform(0, 0.5, n)  # distinct
    ranked = grades[np.argsort(-scores)]
    expected = average_precision_score(grades >= threshold, scores)
    assert average_precision(ranked, threshold=threshold) == pytest.approx(expected, abs=1e-12)
