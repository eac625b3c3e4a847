"""The mistakes catalogue (lab/mistakes.py): each mistaken number written out as arithmetic
on the running example, properties every ranking keeps, and, where a mistake is a real
library's behaviour, the library's own number on random cases."""

from __future__ import annotations

import math
from math import log, log2

import lightgbm as lgb
import numpy as np
import pytest
import xgboost as xgb
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

from lab import i18n
from lab import mistakes as M

G, U = [3, 2, 3, 0, 1, 2], (3, 2)   # the running example: Wikipedia's, D7 = 3, D8 = 2 unfound
DCG4 = 3 + 2 / log2(3) + 3 / 2 + 0                        # rel = 3, 2, 3, 0
IDCG4 = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5)             # ideal = 3, 3, 3, 2 (D7 included)
RIGHT4 = DCG4 / IDCG4


def values(**kw):
    return M.mistaken_values(G, **{"k": 4, "gain": "linear", "unretrieved": U, **kw})


def test_the_running_example_right_value():
    assert M.right_value(G, k=4, gain="linear", unretrieved=U) == pytest.approx(RIGHT4)
    assert RIGHT4 == pytest.approx(0.7943, abs=1e-4)


# one line per mistake: its number on the running example, as arithmetic
EXPECTED = {
    "retrieved_ideal": DCG4 / (3 + 3 / log2(3) + 2 / 2 + 2 / log2(5)),   # ideal 3, 3, 2, 2
    "short_ideal": RIGHT4,                                   # 6 items >= k = 4: no effect
    "cutoff_ignored": (DCG4 + 1 / log2(6) + 2 / log2(7)) / IDCG4,        # ranks 5, 6 added
    "discount_offset": (3 / 1 + 2 / 1 + 3 / log2(3) + 0 / 2)
    / (3 / 1 + 3 / 1 + 3 / log2(3) + 2 / 2),                 # rank i over max(1, log2(i))
    "rank_from_zero": (3 / log2(3) + 2 / 2 + 3 / log2(5) + 0)
    / (3 / log2(3) + 3 / 2 + 3 / log2(5) + 2 / log2(6)),     # rank i over log2(i + 2)
    "natural_log_dcg": (3 / log(2) + 2 / log(3) + 3 / log(4) + 0) / IDCG4,
    "numerator_one": (1 + 1 / log2(3) + 1 / 2 + 1 / log2(5))
    / (1 + 1 / log2(3) + 1 / 2 + 1 / log2(5)),             # every judged item 1, grade 0 too
    "linear_for_exponential": RIGHT4,                        # linear was asked: no effect
    "exponential_for_linear": (7 + 3 / log2(3) + 7 / 2 + 0)
    / (7 + 7 / log2(3) + 7 / 2 + 3 / log2(5)),               # gains 2^rel - 1
    "negative_grades": RIGHT4,                               # no negative grade here
    "zero_query_one": RIGHT4,                                # IDCG > 0 here
    "zero_query_averaged": RIGHT4,
}


@pytest.mark.parametrize("key", list(EXPECTED))
def test_each_mistake_on_the_running_example(key):
    assert values()[key] == pytest.approx(EXPECTED[key])


def test_the_per_query_mistakes_are_the_catalogue_less_the_mean_level_one():
    assert set(values()) == set(EXPECTED) == set(M.KEYS) - {"mixed_depths"}
    assert len(M.CATALOGUE) >= 8


def test_short_ideal_at_k_8_is_wikipedias_0_785():
    """k = 8 > 6 retrieved: cut at 6 on both sides, Wikipedia's NDCG@6 (mlflow #24541)."""
    dcg6 = DCG4 + 1 / log2(6) + 2 / log2(7)
    idcg6 = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)
    assert values(k=8)["short_ideal"] == pytest.approx(dcg6 / idcg6)
    assert round(dcg6 / idcg6, 3) == 0.785
    idcg8 = idcg6 + 1 / log2(8) + 0 / log2(9)                # ideal 3,3,3,2,2,2,1,0
    assert M.right_value(G, k=8, gain="linear", unretrieved=U) == pytest.approx(dcg6 / idcg8)


def test_linear_for_exponential_when_exponential_was_asked():
    assert values(gain="exponential")["linear_for_exponential"] == pytest.approx(RIGHT4)


def test_negative_grade_in_the_running_example():
    """Rank 4 graded -1: through the formula it costs 1/log2(5); counted as 0 it costs 0."""
    grades = [3, 2, 3, -1, 1, 2]
    v = M.mistaken_values(grades, k=4, gain="linear", unretrieved=U)
    assert v["negative_grades"] == pytest.approx((DCG4 - 1 / log2(5)) / IDCG4)
    assert M.right_value(grades, k=4, gain="linear", unretrieved=U) == pytest.approx(RIGHT4)


def test_sklearn_17639_gives_396():
    """y_true -0.89 -0.53 -0.47 0.39 0.56 ranked by y_score .75 .33 .31 .27 .07."""
    v = M.mistaken_values([-0.47, 0.39, -0.53, 0.56, -0.89], k=5, gain="linear")
    assert round(v["negative_grades"], 2) == 396.03


def test_all_zero_query():
    v = M.mistaken_values([0, 0, 0], k=3, gain="linear")
    assert (v["zero_query_one"], v["zero_query_averaged"]) == (1.0, 0.0)
    assert math.isnan(M.right_value([0, 0, 0], k=3, gain="linear"))


def test_sklearn_29521_mean_of_a_perfect_and_an_all_zero_query():
    m = M.mean_values([([1, 1, 0], ()), ([0, 0, 0], ())], k=3)
    assert m == {"right": 1.0, "zero_query_averaged": 0.5, "zero_query_one": 1.0,
                 "mixed_depths": 1.0}


def test_mixed_depths_mean():
    """Running example and a two-item list, k = 8: each cut at its own length."""
    short_right = 2 / (2 + 2 / log2(3) + 1 / 2)             # [2, 0], D = 2, 1 unfound
    m = M.mean_values([(G, U), ([2, 0], (2, 1))], k=8)
    assert m["mixed_depths"] == pytest.approx((values(k=8)["short_ideal"] + 2 / (2 + 2 / log2(3)))
                                              / 2)
    assert m["right"] == pytest.approx((values(k=8)["cutoff_ignored"] + short_right) / 2)


def test_recommenders_1749_is_reproduced_not_quoted():
    """Wikipedia's example at k = 6 (D7, D8 judged, not retrieved): 1.0 instead of 0.785."""
    ones = sum(1 / log2(i + 1) for i in range(1, 7))   # six items, each counted 1
    mistaken = M.mistake("numerator_one").mistaken(G, k=6, unretrieved=U)
    assert mistaken == ones / ones == 1.0
    assert M.recommenders_1749(G, 6, U) == pytest.approx(1.0)   # its own ln(1 + rank) code
    assert round(M.right_value(G, k=6, unretrieved=U), 3) == 0.785
    # grade 0 counted 1 is what makes it 1.0: counting only relevant items gives less
    relevant = (1 + 1 / log2(3) + 1 / 2 + 1 / log2(6) + 1 / log2(7)) / ones   # D4 is 0
    assert relevant < 0.95


@pytest.mark.parametrize("seed", range(20))
def test_numerator_one_equals_recommenders_code_on_random_lists(seed):
    rng = np.random.default_rng(seed)
    grades = rng.integers(0, 4, size=int(rng.integers(1, 9))).tolist()
    pool = tuple(rng.integers(0, 4, size=int(rng.integers(0, 4))).tolist())
    k = int(rng.integers(1, 10))
    assert M.mistake("numerator_one").mistaken(grades, k=k, unretrieved=pool) == \
        pytest.approx(M.recommenders_1749(grades, k, pool))


def test_matching_names_the_mistake_and_not_the_right_answer():
    assert M.matching(round(EXPECTED["cutoff_ignored"], 3), G, k=4, unretrieved=U) == \
        ["cutoff_ignored"]
    assert M.matching(round(RIGHT4, 3), G, k=4, unretrieved=U) == []
    assert M.matching(0.5, G, k=4, unretrieved=U) == []


def test_distinct_mistakes_on_the_running_example():
    d = M.distinct_mistakes(G, k=4, unretrieved=U)
    assert set(d) == {"retrieved_ideal", "cutoff_ignored", "discount_offset", "rank_from_zero",
                      "natural_log_dcg", "numerator_one", "exponential_for_linear"}


def test_words_in_both_languages():
    for m in M.CATALOGUE:
        assert M.name(m.key, "en") == m.name and M.what(m.key) == m.what
        assert M.case(m.key) == m.case
        assert "#" in m.case or "XGBoost" in m.case   # an issue number, or a documented metric
        for lang in i18n.LANGUAGES:
            assert M.name(m.key, lang) and M.what(m.key, lang) and M.case(m.key, lang)
        assert M.name(m.key, "zh") != m.name
    with pytest.raises(ValueError, match="no mistake 'nope'"):
        M.name("nope", "en")


# ------------------------------------------------------------------ properties

grades_st = st.lists(st.integers(0, 4), min_size=1, max_size=9)
unretrieved_st = st.lists(st.integers(0, 4), max_size=4).map(tuple)
gain_st = st.sampled_from(["linear", "exponential"])
k_st = st.integers(1, 10)


@settings(max_examples=150, deadline=None)
@given(grades_st, unretrieved_st, k_st, gain_st)
def test_properties(grades, unretrieved, k, gain):
    right = M.right_value(grades, k=k, gain=gain, unretrieved=unretrieved)
    v = M.mistaken_values(grades, k=k, gain=gain, unretrieved=unretrieved)
    if math.isnan(right):  # no relevant document judged
        assert (v["zero_query_one"], v["zero_query_averaged"]) == (1.0, 0.0)
        return
    eps = 1e-12
    assert -eps <= right <= 1 + eps
    assert v["zero_query_one"] == v["zero_query_averaged"] == right
    assert v["retrieved_ideal"] >= right - eps          # fewer items in the ideal
    assert v["short_ideal"] >= right - eps or len(grades) >= k
    assert (v["short_ideal"] == right) == (v["short_ideal"] == right) if len(grades) >= k else 1
    if len(grades) >= k:
        assert v["short_ideal"] == pytest.approx(right)
    assert v["cutoff_ignored"] >= right - eps
    if len(grades) <= k:
        assert v["cutoff_ignored"] == pytest.approx(right)
    assert v["natural_log_dcg"] == pytest.approx(right / log(2))
    assert v["negative_grades"] == pytest.approx(right)   # no negative grade drawn
    if k == 1:
        assert v["discount_offset"] == pytest.approx(right)
    if set(grades) | set(unretrieved) <= {0, 1}:
        assert v["exponential_for_linear"] == pytest.approx(v["linear_for_exponential"])
    # every judged item counts 1, so the order does not matter
    assert v["numerator_one"] == pytest.approx(M.mistaken_values(
        grades[::-1], k=k, gain=gain, unretrieved=unretrieved)["numerator_one"])
    assert M.matching(right, grades, k=k, gain=gain, unretrieved=unretrieved) == []
    d = M.distinct_mistakes(grades, k=k, gain=gain, unretrieved=unretrieved)
    for key, x in d.items():
        assert abs(x - right) > 2 * M.TOLERANCE
        assert M.matching(x, grades, k=k, gain=gain, unretrieved=unretrieved) == [key]


# ------------------------------------------------------------------ the libraries themselves

def _random_queries(seed, n_queries=6):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_queries):
        n = int(rng.integers(2, 9))
        grades = rng.integers(0, 4, size=n).tolist()
        if rng.random() < 0.25:
            grades = [0] * n
        out.append((grades, tuple(rng.integers(0, 4, size=int(rng.integers(0, 3))).tolist())))
    return out


def _descending(n, start=100.0):
    return np.arange(start, start - n, -1.0)


@pytest.mark.parametrize("seed", range(8))
def test_sklearn_is_the_retrieved_ideal_with_all_zero_queries_scored_0(seed):
    k = 1 + seed % 5
    queries = _random_queries(seed)
    for grades, unretrieved in queries:
        ours = M.mistaken_values(grades, k=k, unretrieved=unretrieved)
        theirs = ndcg_score([grades], [_descending(len(grades))], k=k)
        key = "retrieved_ideal" if any(grades) else "zero_query_averaged"
        assert ours[key] == pytest.approx(theirs)
    # a mean over queries of one length, as ndcg_score takes them
    same = [(g[:2], ()) for g, _ in queries]
    assert M.mean_values(same, k=k)["zero_query_averaged"] == pytest.approx(
        ndcg_score([g for g, _ in same], [_descending(2)] * len(same), k=k))


@pytest.mark.parametrize("seed", range(8))
def test_mlflows_call_of_sklearn_is_the_short_ideal(seed):
    """mlflow #24541: ndcg_score over retrieved + unfound judged documents, the unfound
    scored 0, with k = len(retrieved[:k])."""
    k = 2 + seed % 6
    for grades, unretrieved in _random_queries(seed):
        if not any(grades) and not any(unretrieved):
            continue
        y_true = [*grades, *unretrieved]
        y_score = [*_descending(len(grades)), *[0.0] * len(unretrieved)]
        theirs = ndcg_score([y_true], [y_score], k=len(grades[:k]), ignore_ties=True)
        ours = M.mistaken_values(grades, k=k, unretrieved=unretrieved)["short_ideal"]
        assert ours == pytest.approx(theirs)


def _group_data(queries):
    labels = np.array([g for grades, _ in queries for g in grades], dtype=float)
    scores = np.concatenate([_descending(len(g)) for g, _ in queries])
    return labels, scores, [len(g) for g, _ in queries]


def _expected_mean(queries, k, key_all_zero):
    vals = [M.mistaken_values(g, k=k, gain="exponential")[
        "retrieved_ideal" if any(g) else key_all_zero] for g, _ in queries]
    return sum(vals) / len(vals)


@pytest.mark.parametrize("seed", range(6))
def test_xgboost_ndcg_scores_all_zero_queries_1_and_ndcg_minus_0(seed):
    k = 1 + seed % 5
    queries = _random_queries(seed)
    labels, scores, groups = _group_data(queries)
    d = xgb.DMatrix(np.zeros((labels.size, 1)), label=labels, base_margin=scores)
    d.set_group(groups)
    for metric, key in ((f"ndcg@{k}", "zero_query_one"), (f"ndcg@{k}-", "zero_query_averaged")):
        bst = xgb.train({"objective": "rank:ndcg", "eval_metric": metric}, d, num_boost_round=0)
        theirs = float(bst.eval(d).split(":")[-1])
        assert theirs == pytest.approx(_expected_mean(queries, k, key), abs=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_lightgbm_ndcg_scores_all_zero_queries_1(seed):
    k = 1 + seed % 5
    queries = _random_queries(seed)
    labels, scores, groups = _group_data(queries)
    ds = lgb.Dataset(np.zeros((labels.size, 1)), label=labels, group=groups, init_score=scores,
                     params={"verbose": -1})
    record = {}
    # one round at a vanishing learning rate: the metric is that of the scores given
    lgb.train({"objective": "lambdarank", "metric": "ndcg", "eval_at": [k], "verbose": -1,
               "learning_rate": 1e-12, "min_data_in_leaf": 1}, ds, num_boost_round=1,
              valid_sets=[ds], callbacks=[lgb.record_evaluation(record)])
    theirs = float(record["training"][f"ndcg@{k}"][0])
    assert theirs == pytest.approx(_expected_mean(queries, k, "zero_query_one"), abs=1e-6)


def test_docstring_examples_hold():
    import doctest
    result = doctest.testmod(M, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 10


@pytest.mark.parametrize("key", M.KEYS)
def test_each_lessons_example_shows_its_mistake(key):
    """The lesson's settings for a mistake make its figure differ from the right one."""
    right, wrong = M.figures(key)
    assert abs(wrong - right) > 0.01
    ex = M.example(key)
    assert ex["grades"] == M.RUNNING["grades"] or key == "negative_grades"


def test_the_lessons_means():
    """All-zero second query: right 0.794 (left out), scored 0: 0.794 / 2, scored 1:
    (0.794 + 1) / 2; a two-item query at k = 8, each list cut at its own length."""
    assert M.figures("zero_query_averaged") == pytest.approx((RIGHT4, RIGHT4 / 2))
    assert M.figures("zero_query_one") == pytest.approx((RIGHT4, (RIGHT4 + 1) / 2))
    assert M.figures("mixed_depths")[1] == pytest.approx(M.mean_values(
        [(G, U), ([2, 0], (2, 1))], k=8)["mixed_depths"])
