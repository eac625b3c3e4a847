"""Every worked example of the five source documents (../shared/reference/documents/), and
their errata.

Expected values are written as the arithmetic the documents print, with the grades in a
comment; where a document is wrong, the test name and docstring say so and assert the
correct value.
"""

import math

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

from ndcg_core import (
    cg,
    dcg,
    dcg_table,
    idcg,
    mean_reciprocal_rank,
    ndcg,
    ndcg_curve,
    reciprocal_rank,
)

DOC000 = [3, 2, 3, 0, 1, 2]
DOC004 = [3, 2, 3, 0, 1]


# ------------------------------------------------------------------ document 000

def test_doc000_first_table_cell_by_cell():
    """dcg_table rounded to 3 decimals is the document's table of rel_i / log2(i + 1)."""
    printed = [  # position, rel_i, log2(i + 1), rel_i / log2(i + 1), as printed in 000
        (1, 3, 1.000, 3.000),
        (2, 2, 1.585, 1.262),
        (3, 3, 2.000, 1.500),
        (4, 0, 2.322, 0.000),
        (5, 1, 2.585, 0.387),
        (6, 2, 2.807, 0.712),
    ]
    table = dcg_table(DOC000).round(3)
    assert table["position"].tolist() == [row[0] for row in printed]
    assert table["relevance"].tolist() == [row[1] for row in printed]
    assert table["discount"].tolist() == [row[2] for row in printed]
    assert table["contribution"].tolist() == [row[3] for row in printed]


def test_doc000_ideal_table_cell_by_cell():
    """The ideal ordering [3, 3, 2, 2, 1, 0] and its contributions, as printed."""
    printed = [  # position, rel_i, rel_i / log2(i + 1)
        (1, 3, 3.000),
        (2, 3, 1.893),
        (3, 2, 1.000),
        (4, 2, 0.861),
        (5, 1, 0.387),
        (6, 0, 0.000),
    ]
    ideal = sorted(DOC000, reverse=True)
    assert ideal == [3, 3, 2, 2, 1, 0]
    table = dcg_table(ideal).round(3)
    assert table["position"].tolist() == [row[0] for row in printed]
    assert table["relevance"].tolist() == [row[1] for row in printed]
    assert table["contribution"].tolist() == [row[2] for row in printed]
    # the ideal DCG is the sum of that table's unrounded column
    assert idcg(DOC000) == pytest.approx(
        3 / np.log2(2) + 3 / np.log2(3) + 2 / np.log2(4) + 2 / np.log2(5) + 1 / np.log2(6),
        abs=1e-12)  # rel = 3, 3, 2, 2, 1, 0


def test_doc000_table_orders_items_by_scores():
    """With scores the table lists items in score order and keeps their labels."""
    table = dcg_table([0, 3, 1], scores=[0.1, 0.9, 0.5], labels=["a", "b", "c"])
    assert table["label"].tolist() == ["b", "c", "a"]
    assert table["relevance"].tolist() == [3, 1, 0]


def test_doc000_exponential_table_uses_two_to_the_rel_minus_one():
    """The 2^rel − 1 variant of the first table: a 3 is worth 7, a 1 is worth 1."""
    table = dcg_table(DOC000, gain="exponential")
    gains = [7, 3, 7, 0, 1, 3]  # 2^rel - 1 for rel = 3, 2, 3, 0, 1, 2
    assert table["gain"].tolist() == gains
    expected = [g / np.log2(i + 1) for i, g in enumerate(gains, 1)]
    np.testing.assert_allclose(table["contribution"], expected, rtol=0, atol=1e-12)
    assert table["cumulative_dcg"].iloc[-1] == pytest.approx(sum(expected), abs=1e-12)
    assert dcg(DOC000, gain="exponential") == pytest.approx(sum(expected), abs=1e-12)


def test_doc000_ndcg_at_6_linear_is_0961():
    dcg6 = 3 + 2 / np.log2(3) + 3 / 2 + 0 + 1 / np.log2(6) + 2 / np.log2(7)  # rel = 3,2,3,0,1,2
    idcg6 = 3 + 3 / np.log2(3) + 2 / 2 + 2 / np.log2(5) + 1 / np.log2(6)  # rel = 3,3,2,2,1,0
    assert ndcg(DOC000, k=6) == pytest.approx(dcg6 / idcg6, abs=1e-12)
    assert round(ndcg(DOC000, k=6), 3) == 0.961
    assert ndcg(DOC000, k=6) == pytest.approx(0.960808, abs=5e-7)  # conventions.md


def test_doc000_ndcg_at_6_exponential_is_0949():
    dcg6 = 7 + 3 / np.log2(3) + 7 / 2 + 0 + 1 / np.log2(6) + 3 / np.log2(7)  # 2^rel - 1
    idcg6 = 7 + 7 / np.log2(3) + 3 / 2 + 3 / np.log2(5) + 1 / np.log2(6)  # ideal 3,3,2,2,1,0
    assert ndcg(DOC000, k=6, gain="exponential") == pytest.approx(dcg6 / idcg6, abs=1e-12)
    assert round(ndcg(DOC000, k=6, gain="exponential"), 3) == 0.949
    assert ndcg(DOC000, gain="exponential") == pytest.approx(0.948811, abs=5e-7)


def test_doc000_erratum_sklearn_default_gain_is_linear_not_exponential():
    """Erratum: 000 says 2^rel − 1 "is the default in scikit-learn"; ndcg_score uses rel."""
    scores = [[6, 5, 4, 3, 2, 1]]  # rank the items in the document's order
    assert ndcg_score([DOC000], scores) == pytest.approx(ndcg(DOC000), abs=1e-12)
    assert ndcg_score([DOC000], scores) != pytest.approx(ndcg(DOC000, gain="exponential"),
                                                         abs=1e-3)


def test_doc000_query_without_relevant_items_scores_0():
    """000: "If a query has no relevant documents, IDCG is 0 and NDCG is ... 0"."""
    assert idcg([0, 0, 0]) == 0
    assert ndcg([0, 0, 0]) == 0.0
    assert math.isnan(ndcg([0, 0, 0], zero_idcg="nan"))
    assert ndcg([0, 0, 0], zero_idcg="one") == 1.0


# ------------------------------------------------------------------ document 001

def test_doc001_k4_example_dcg_idcg_ndcg():
    """DCG@4 = 5.76, ideal [3, 3, 2, 0] gives IDCG@4 = 5.89, NDCG@4 ≈ 0.978."""
    dcg4 = 3 / np.log2(2) + 2 / np.log2(3) + 3 / np.log2(4) + 0 / np.log2(5)  # rel = 3,2,3,0
    idcg4 = 3 / np.log2(2) + 3 / np.log2(3) + 2 / np.log2(4) + 0 / np.log2(5)  # rel = 3,3,2,0
    ranking = [3, 2, 3, 0]
    assert dcg(ranking, k=4) == pytest.approx(dcg4, abs=1e-12)
    assert idcg(ranking, k=4) == pytest.approx(idcg4, abs=1e-12)
    assert ndcg(ranking, k=4) == pytest.approx(dcg4 / idcg4, abs=1e-12)
    assert round(dcg(ranking, k=4), 2) == 5.76
    assert round(idcg(ranking, k=4), 2) == 5.89
    assert round(ndcg(ranking, k=4), 3) == 0.978


def test_doc001_k4_with_ideal_from_the_full_six_item_list_is_0853():
    """Ideal from all six judged items [3, 2, 3, 0, 1, 2]: 5.762 / 6.754 = 0.853."""
    dcg4 = 3 + 2 / np.log2(3) + 3 / 2 + 0  # rel = 3, 2, 3, 0
    idcg4 = 3 + 3 / np.log2(3) + 2 / 2 + 2 / np.log2(5)  # rel = 3, 3, 2, 2
    assert ndcg([3, 2, 3, 0], k=4, ideal=DOC000) == pytest.approx(dcg4 / idcg4, abs=1e-12)
    assert ndcg(DOC000, k=4) == pytest.approx(dcg4 / idcg4, abs=1e-12)
    assert round(dcg4, 3) == 5.762 and round(idcg4, 3) == 6.754
    assert round(ndcg(DOC000, k=4), 3) == 0.853


def test_doc001_erratum_position_2_counts_0631_not_half():
    """Erratum: 001 says position 2 "contributes half as much"; it counts 1/log2(3) = 0.631.

    Position 3 is the one that counts half: 1/log2(4) = 0.5.
    """
    assert dcg([0, 1]) == pytest.approx(1 / np.log2(3), abs=1e-12)  # rel = 0, 1
    assert round(dcg([0, 1]), 3) == 0.631
    assert dcg([0, 1]) != pytest.approx(0.5, abs=0.1)
    assert dcg([0, 0, 1]) == 0.5  # rel = 0, 0, 1: 1/log2(4)


# ------------------------------------------------------------------ document 002

def test_doc002_cutoff_3():
    """Grades 3, 2, 1 predicted in the order 1, 3, 2: DCG@3 3.8928, IDCG@3 4.7619."""
    ranked = [1, 3, 2]
    dcg3 = 1 / np.log2(2) + 3 / np.log2(3) + 2 / np.log2(4)  # rel = 1, 3, 2
    idcg3 = 3 / np.log2(2) + 2 / np.log2(3) + 1 / np.log2(4)  # rel = 3, 2, 1
    assert dcg(ranked, k=3) == pytest.approx(dcg3, abs=1e-12)
    assert idcg(ranked, k=3) == pytest.approx(idcg3, abs=1e-12)
    assert round(dcg(ranked, k=3), 4) == 3.8928
    assert round(idcg(ranked, k=3), 4) == 4.7619
    assert round(ndcg(ranked, k=3), 4) == 0.8175


def test_doc002_cutoff_2():
    ranked = [1, 3, 2]
    dcg2 = 1 / np.log2(2) + 3 / np.log2(3)  # rel = 1, 3
    idcg2 = 3 / np.log2(2) + 2 / np.log2(3)  # rel = 3, 2
    assert ndcg(ranked, k=2) == pytest.approx(dcg2 / idcg2, abs=1e-12)
    assert round(dcg(ranked, k=2), 4) == 2.8928
    assert round(idcg(ranked, k=2), 4) == 4.2619
    assert round(ndcg(ranked, k=2), 4) == 0.6788


def test_doc002_example_by_scores_gives_the_same_values():
    """The same example stated as true grades 3, 2, 1 with scores ranking them 1, 3, 2."""
    grades, scores = [3, 2, 1], [0.5, 0.2, 0.9]  # grade 1 first, then 3, then 2
    for k, printed in [(3, 0.8175), (2, 0.6788)]:
        assert round(ndcg(grades, scores=scores, k=k), 4) == printed


def test_doc002_ndcg_at_10_can_be_lower_than_at_5():
    """002 and conventions.md: no monotonicity in k. [3]*5 + [0]*5 + [2, 2]."""
    grades = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]
    top5 = sum(3 / np.log2(i + 1) for i in range(1, 6))  # rel = 3, 3, 3, 3, 3
    idcg10 = top5 + 2 / np.log2(7) + 2 / np.log2(8)  # ideal adds rel = 2, 2 at ranks 6, 7
    assert ndcg(grades, k=5) == 1.0
    assert ndcg(grades, k=10) == pytest.approx(top5 / idcg10, abs=1e-12)
    assert round(ndcg(grades, k=10), 6) == 0.865119
    assert ndcg(grades, k=10) < ndcg(grades, k=5)
    curve = ndcg_curve(grades).set_index("k")["ndcg"]
    assert curve[5] == 1.0 and round(curve[10], 6) == 0.865119


# ------------------------------------------------------------------ document 003

def doc003_mrr(ranks):  # document 003, Example 1, verbatim
    return sum(1.0 / r for r in ranks) / len(ranks)


def doc003_dcg(rel, k):  # document 003, Example 2, verbatim
    return sum(r / math.log2(i + 2) for i, r in enumerate(rel[:k]))


def doc003_ndcg(rel_true, rel_pred, k):  # document 003, Example 2, verbatim
    ideal = sorted(rel_true, reverse=True)
    return doc003_dcg(rel_pred, k) / max(doc003_dcg(ideal, k), 1e-9)


def test_doc003_mrr_of_first_relevant_ranks_1_4_2_9_is_0465():
    expected = (1 / 1 + 1 / 4 + 1 / 2 + 1 / 9) / 4
    assert mean_reciprocal_rank(ranks=[1, 4, 2, 9]) == pytest.approx(expected, abs=1e-15)
    assert round(mean_reciprocal_rank(ranks=[1, 4, 2, 9]), 3) == 0.465


def test_doc003_mrr_from_relevance_lists_matches_ranks():
    """The same MRR from one relevance list per query (first relevant at 1, 4, 2, 9)."""
    rankings = [[1], [0, 0, 0, 1], [0, 2], [0] * 8 + [1]]
    assert [reciprocal_rank(r) for r in rankings] == [1, 1 / 4, 1 / 2, 1 / 9]
    assert mean_reciprocal_rank(rankings) == mean_reciprocal_rank(ranks=[1, 4, 2, 9])


def test_doc003_example_1_mrr():
    expected = (1 / 1 + 1 / 2 + 1 / 4 + 1 / 3 + 1 / 5) / 5
    assert mean_reciprocal_rank(ranks=[1, 2, 4, 3, 5]) == pytest.approx(expected, abs=1e-15)
    assert mean_reciprocal_rank(ranks=[1, 2, 4, 3, 5]) == pytest.approx(
        doc003_mrr([1, 2, 4, 3, 5]), abs=1e-15)


def test_doc003_example_2_ndcg_at_5_of_a_four_item_list():
    """k = 5 on four items uses all four; the ideal is [3, 2, 1, 0]."""
    dcg_ = 3 + 0 / np.log2(3) + 2 / 2 + 1 / np.log2(5)  # rel = 3, 0, 2, 1
    idcg_ = 3 + 2 / np.log2(3) + 1 / 2 + 0  # rel = 3, 2, 1, 0
    assert ndcg([3, 0, 2, 1], k=5) == pytest.approx(dcg_ / idcg_, abs=1e-12)
    assert ndcg([3, 0, 2, 1], k=5, ideal=[3, 2, 1, 0]) == pytest.approx(dcg_ / idcg_,
                                                                         abs=1e-12)
    assert ndcg([3, 0, 2, 1], k=5) == pytest.approx(doc003_ndcg([3, 2, 1, 0], [3, 0, 2, 1], 5),
                                                    abs=1e-12)


def test_doc003_example_3_sklearn_ndcg_score_equals_ndcg_with_scores():
    """sklearn ranks by its scores: 0.9 (3), 0.5 (1), 0.3 (0), 0.2 (0), 0.1 (2)."""
    true_rel, scores = [3, 2, 1, 0, 0], [0.9, 0.1, 0.5, 0.3, 0.2]
    dcg_ = 3 + 1 / np.log2(3) + 0 + 0 + 2 / np.log2(6)  # rel = 3, 1, 0, 0, 2
    idcg_ = 3 + 2 / np.log2(3) + 1 / 2  # rel = 3, 2, 1, 0, 0
    ours = ndcg(true_rel, scores=scores, k=5)
    assert ours == pytest.approx(dcg_ / idcg_, abs=1e-12)
    assert ours == pytest.approx(ndcg_score(np.array([true_rel]), np.array([scores]), k=5),
                                 abs=1e-12)


# ------------------------------------------------------------------ document 004

def test_doc004_cg_at_5_is_9_in_either_order():
    assert cg(DOC004, k=5) == 3 + 2 + 3 + 0 + 1
    assert cg([0, 1, 2, 3, 3], k=5) == 9  # CG ignores the order


def test_doc004_dcg_idcg_at_5():
    """DCG@5 = 3.0 + 1.26 + 1.5 + 0.0 + 0.39 = 6.15; IDCG@5 = 3.0 + 1.89 + 1.0 + 0.43 = 6.32."""
    dcg5 = 3 + 2 / np.log2(3) + 3 / 2 + 0 + 1 / np.log2(6)  # rel = 3, 2, 3, 0, 1
    idcg5 = 3 + 3 / np.log2(3) + 2 / 2 + 1 / np.log2(5) + 0  # rel = 3, 3, 2, 1, 0
    assert dcg(DOC004, k=5) == pytest.approx(dcg5, abs=1e-12)
    assert idcg(DOC004, k=5) == pytest.approx(idcg5, abs=1e-12)
    assert round(dcg(DOC004, k=5), 2) == 6.15
    assert round(idcg(DOC004, k=5), 2) == 6.32
    parts = dcg_table(DOC004)["contribution"].round(2).tolist()
    assert parts == [3.0, 1.26, 1.5, 0.0, 0.39]
    ideal_parts = dcg_table(sorted(DOC004, reverse=True))["contribution"].round(2).tolist()
    assert ideal_parts == [3.0, 1.89, 1.0, 0.43, 0.0]


def test_doc004_erratum_ndcg_is_0972_not_0973():
    """Erratum: 004 prints NDCG@5 ≈ 0.973; unrounded it is 0.9724 (0.972 to 3 decimals).

    0.973 comes only from dividing the rounded parts, 6.15 / 6.32.
    """
    dcg5 = 3 + 2 / np.log2(3) + 3 / 2 + 0 + 1 / np.log2(6)  # rel = 3, 2, 3, 0, 1
    idcg5 = 3 + 3 / np.log2(3) + 2 / 2 + 1 / np.log2(5)  # rel = 3, 3, 2, 1, 0
    assert ndcg(DOC004, k=5) == pytest.approx(dcg5 / idcg5, abs=1e-12)
    assert round(ndcg(DOC004, k=5), 4) == 0.9724
    assert round(ndcg(DOC004, k=5), 3) == 0.972
    assert round(6.15 / 6.32, 3) == 0.973


def test_doc004_erratum_reversed_order_dcg_is_40835_not_453():
    """Erratum: 004 says [0, 1, 2, 3, 3] has DCG@5 "≈ 4.53"; it is 4.0835."""
    reversed_dcg = 0 + 1 / np.log2(3) + 2 / 2 + 3 / np.log2(5) + 3 / np.log2(6)  # 0,1,2,3,3
    assert dcg([0, 1, 2, 3, 3], k=5) == pytest.approx(reversed_dcg, abs=1e-12)
    assert round(dcg([0, 1, 2, 3, 3], k=5), 4) == 4.0835
    assert abs(dcg([0, 1, 2, 3, 3], k=5) - 4.53) > 0.4
    assert dcg([0, 1, 2, 3, 3], k=5) < dcg(DOC004, k=5)  # the document's point still holds


def test_doc004_log_base_does_not_change_ndcg():
    """004: using ln instead of log2 in both DCG and IDCG leaves NDCG unchanged."""
    assert ndcg(DOC004, discount="ln") == pytest.approx(ndcg(DOC004), abs=1e-15)
    assert dcg(DOC004, discount="ln") == pytest.approx(dcg(DOC004) / np.log(2), abs=1e-12)
