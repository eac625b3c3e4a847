"""Invariants of DCG and NDCG, checked on generated rankings (hypothesis)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ndcg_core import dcg, dcg_table, idcg, ndcg, ndcg_curve

TIES = ["average", "docid", "input", "optimistic", "pessimistic"]
GAINS = ["linear", "exponential"]

grades_st = st.lists(st.integers(0, 4), min_size=1, max_size=12)
signed_grades_st = st.lists(st.integers(-2, 4), min_size=1, max_size=12)
gain_st = st.sampled_from(GAINS)
ties_st = st.sampled_from(TIES)
base_st = st.floats(1.05, 12, allow_nan=False)


@st.composite
def discounts(draw):
    """A discount keyword set: log2, ln, or jarvelin with a base b > 1."""
    name = draw(st.sampled_from(["log2", "ln", "jarvelin"]))
    return {"discount": name, "base": draw(base_st) if name == "jarvelin" else 2}


@st.composite
def scored(draw, grades=grades_st, max_score=3):
    """Grades with scores drawn from a few values (so ties are common) and unique doc ids."""
    g = draw(grades)
    s = draw(st.lists(st.integers(0, max_score), min_size=len(g), max_size=len(g)))
    ids = draw(st.permutations([f"d{i}" for i in range(len(g))]))
    return g, s, ids


def k_st(n):
    return st.one_of(st.none(), st.integers(1, n + 3))


def settings_(n=100):
    return settings(max_examples=n, deadline=None)


# ------------------------------------------------------------------ perfect and bounded

@settings_()
@given(grades_st, gain_st, discounts(), st.data())
def test_ideal_ordering_scores_one(grades, gain, disc, data):
    assume(any(g > 0 for g in grades))
    k = data.draw(k_st(len(grades)))
    assert ndcg(sorted(grades, reverse=True), k=k, gain=gain, **disc) == pytest.approx(1,
                                                                                     abs=1e-12)


@settings_()
@given(grades_st, gain_st, ties_st, st.data())
def test_scoring_items_by_their_own_grades_scores_one_in_every_ties_mode(grades, gain, ties,
                                                                        data):
    assume(any(g > 0 for g in grades))
    ids = [f"d{i}" for i in range(len(grades))]
    k = data.draw(k_st(len(grades)))
    assert ndcg(grades, scores=grades, ties=ties, docids=ids, k=k, gain=gain) == pytest.approx(
        1, abs=1e-12)


@settings_(150)
@given(scored(), gain_st, ties_st, discounts(), st.data())
def test_ndcg_lies_between_0_and_1_for_non_negative_grades(case, gain, ties, disc, data):
    grades, scores, ids = case
    k = data.draw(k_st(len(grades)))
    value = ndcg(grades, scores=scores, ties=ties, docids=ids, k=k, gain=gain, **disc)
    assert 0 <= value <= 1 + 1e-12
    value = ndcg(grades, k=k, gain=gain, **disc)  # taken as ranked
    assert 0 <= value <= 1 + 1e-12


@settings_()
@given(grades_st, st.lists(st.integers(0, 4), max_size=6), gain_st, discounts(), st.data())
def test_ndcg_with_a_larger_judged_pool_stays_in_0_1(grades, unretrieved, gain, disc, data):
    """Judged items that were not retrieved raise the ideal, never the DCG."""
    k = data.draw(k_st(len(grades)))
    pool = grades + unretrieved
    value = ndcg(grades, ideal=pool, k=k, gain=gain, **disc)
    assert 0 <= value <= 1 + 1e-12
    assert value <= ndcg(grades, k=k, gain=gain, **disc) + 1e-12


# ------------------------------------------------------------------ scores and ties

TRANSFORMS = {
    "affine": lambda s: 2.5 * s + 7,
    "exp": np.exp,
    "cube": lambda s: s ** 3 - 5,
    "arctan": np.arctan,
}


@settings_(150)
@given(scored(max_score=5), gain_st, ties_st, st.sampled_from(sorted(TRANSFORMS)),
       st.data())
def test_strictly_increasing_transform_of_scores_changes_nothing(case, gain, ties, name,
                                                                 data):
    grades, scores, ids = case
    k = data.draw(k_st(len(grades)))
    s = np.asarray(scores, dtype=float)
    before = ndcg(grades, scores=s, ties=ties, docids=ids, k=k, gain=gain)
    after = ndcg(grades, scores=TRANSFORMS[name](s), ties=ties, docids=ids, k=k, gain=gain)
    assert after == pytest.approx(before, abs=1e-12)


def orders_within_ties(scores):
    """Every ranking consistent with the scores: each tie group in every order."""
    groups = [[i for i, s in enumerate(scores) if s == v] for v in sorted(set(scores),
                                                                          reverse=True)]
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [i for part in parts for i in part]


@settings_(100)
@given(scored(grades=st.lists(st.integers(0, 3), min_size=1, max_size=6), max_score=2),
       gain_st, st.data())
def test_ties_average_equals_mean_ndcg_over_all_orders_of_the_tied_items(case, gain, data):
    """McSherry & Najork 2008: the tie-averaged DCG is the expected DCG over tied orders,
    also when the cutoff k cuts through a tie."""
    grades, scores, _ = case
    k = data.draw(st.integers(1, len(grades)))
    values = [ndcg([grades[i] for i in order], k=k, gain=gain)
              for order in orders_within_ties(scores)]
    assert ndcg(grades, scores=scores, ties="average", k=k, gain=gain) == pytest.approx(
        np.mean(values), abs=1e-12)


@settings_(150)
@given(scored(grades=signed_grades_st), gain_st, st.data())
def test_optimistic_is_at_least_average_is_at_least_pessimistic(case, gain, data):
    """Within each tie the best order maximises DCG and the worst minimises it; averaged,
    input and doc id orders lie in between (any grades, negative ones included)."""
    grades, scores, ids = case
    k = data.draw(k_st(len(grades)))
    kw = dict(scores=scores, docids=ids, k=k, gain=gain)
    best, mean, worst = (dcg(grades, ties=t, **kw) for t in
                         ["optimistic", "average", "pessimistic"])
    assert best + 1e-9 >= mean >= worst - 1e-9
    for ties in ["input", "docid"]:
        assert best + 1e-9 >= dcg(grades, ties=ties, **kw) >= worst - 1e-9
    non_negative = [max(g, 0) for g in grades]
    best, mean, worst = (ndcg(non_negative, ties=t, **kw) for t in
                         ["optimistic", "average", "pessimistic"])
    assert best + 1e-12 >= mean >= worst - 1e-12


@settings_()
@given(scored(), st.data())
def test_ties_docid_ranks_by_score_then_doc_id_descending(case, data):
    """trec_eval's rule, restated with Python's sort: score desc, then doc id desc."""
    grades, scores, ids = case
    k = data.draw(k_st(len(grades)))
    order = sorted(range(len(grades)), key=lambda i: (scores[i], ids[i]), reverse=True)
    assert ndcg(grades, scores=scores, ties="docid", docids=ids, k=k) == pytest.approx(
        ndcg([grades[i] for i in order], k=k), abs=1e-12)


@settings_()
@given(scored(), st.data())
def test_ties_input_keeps_the_given_order_of_tied_items(case, data):
    grades, scores, _ = case
    k = data.draw(k_st(len(grades)))
    order = sorted(range(len(grades)), key=lambda i: -scores[i])  # stable
    assert dcg(grades, scores=scores, ties="input", k=k) == pytest.approx(
        dcg([grades[i] for i in order], k=k), abs=1e-12)


# ------------------------------------------------------------------ discounts

@settings_()
@given(grades_st, gain_st, st.data())
def test_log_base_does_not_change_ndcg_but_scales_dcg_by_ln2(grades, gain, data):
    k = data.draw(k_st(len(grades)))
    assert ndcg(grades, k=k, gain=gain, discount="ln") == pytest.approx(
        ndcg(grades, k=k, gain=gain, discount="log2"), abs=1e-12)
    # 1/ln(i+1) = 1/(log2(i+1) ln 2): every term, hence DCG, is divided by ln 2
    assert dcg(grades, k=k, gain=gain, discount="ln") * math.log(2) == pytest.approx(
        dcg(grades, k=k, gain=gain, discount="log2"), abs=1e-12)


@settings_()
@given(signed_grades_st, st.data())
def test_jarvelin_base_2_differs_from_log2_only_from_rank_2_on(grades, data):
    """Järvelin & Kekäläinen: rank 1 undiscounted, rank i ≥ 2 divided by log2(i), where the
    log2 discount divides rank i by log2(i + 1)."""
    k = data.draw(k_st(len(grades)))
    top = grades[: k or len(grades)]
    jk = top[0] + sum(g / math.log2(i) for i, g in enumerate(top[1:], 2))
    gap = sum(g * (1 / math.log2(i) - 1 / math.log2(i + 1)) for i, g in enumerate(top[1:], 2))
    assert dcg(grades, k=k, discount="jarvelin", base=2) == pytest.approx(jk, abs=1e-12)
    assert dcg(grades, k=k, discount="jarvelin", base=2) - dcg(grades, k=k) == pytest.approx(
        gap, abs=1e-12)


@settings_()
@given(grades_st, base_st)
def test_jarvelin_discount_follows_the_formula_for_any_base(grades, b):
    """No discount for ranks i < b, then gain / log_b(i)."""
    expected = sum(g if i < b else g / math.log(i, b) for i, g in enumerate(grades, 1))
    assert dcg(grades, discount="jarvelin", base=b) == pytest.approx(expected, abs=1e-9)
    table = dcg_table(grades, discount="jarvelin", base=b)
    expected_d = [1.0 if i < b else math.log(i, b) for i in range(1, len(grades) + 1)]
    np.testing.assert_allclose(table["discount"], expected_d, rtol=1e-12)


# ------------------------------------------------------------------ curve and table

@st.composite
def pools(draw, grades):
    """None, or a judged pool holding every graded item of the ranking plus extra ones."""
    if draw(st.booleans()):
        return None
    extra = draw(st.lists(st.integers(0, 4), min_size=1, max_size=6))
    return [g for g in grades if g > 0] + extra


@settings_()
@given(scored(), gain_st, ties_st, discounts(), st.sampled_from(["zero", "nan", "one"]),
       st.data())
def test_ndcg_curve_rows_equal_ndcg_at_each_k(case, gain, ties, disc, rule, data):
    grades, scores, ids = case
    pool = data.draw(pools(grades))
    kw = dict(gain=gain, scores=scores, ties=ties, docids=ids, zero_idcg=rule, **disc)
    curve = ndcg_curve(grades, ideal=pool, **kw)
    assert curve["k"].tolist() == list(range(1, len(grades) + 1))
    for row in curve.itertuples():
        expected = ndcg(grades, k=row.k, ideal=pool, **kw)
        if math.isnan(expected):
            assert math.isnan(row.ndcg)
        else:
            assert row.ndcg == pytest.approx(expected, abs=1e-12)
        assert row.dcg == pytest.approx(
            dcg(grades, k=row.k, gain=gain, scores=scores, ties=ties, docids=ids, **disc),
            abs=1e-12)
        assert row.idcg == pytest.approx(
            idcg(grades if pool is None else pool, k=row.k, gain=gain, **disc), abs=1e-12)


@settings_()
@given(scored(), gain_st, ties_st, discounts(), st.data())
def test_dcg_table_cumulative_dcg_at_the_cutoff_equals_dcg(case, gain, ties, disc, data):
    grades, scores, ids = case
    k = data.draw(k_st(len(grades)))
    kw = dict(gain=gain, scores=scores, ties=ties, docids=ids, **disc)
    table = dcg_table(grades, k=k, **kw)
    in_cutoff = table[table["in_cutoff"]]
    assert len(in_cutoff) == min(k or len(grades), len(grades))
    assert in_cutoff["cumulative_dcg"].iloc[-1] == pytest.approx(dcg(grades, k=k, **kw),
                                                                 abs=1e-12)
    np.testing.assert_allclose(table["contribution"], table["gain"] / table["discount"],
                               rtol=1e-15)
    assert table["cumulative_dcg"].iloc[-1] == pytest.approx(dcg(grades, **kw), abs=1e-12)
