"""Every table sums to the figure printed beside it: for every combination of the options
of OPTIONS and MISTAKE_OPTIONS that the tables take, dcg_table's and ideal_table's cumulative
DCG at k is ndcg_parts' DCG@k and IDCG@k, and each row's gain is the gain the figure used."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import MISTAKE_OPTIONS, OPTIONS, dcg_table, ideal_table, ndcg_parts

# the options of OPTIONS and MISTAKE_OPTIONS a table or ndcg_parts takes; the others are
# evaluate()'s alone (a run's pool, missing queries, score precision, fractional grades in
# a qrels file, condensed lists): a new option must be sorted into one list or the other
TABLE_OPTIONS = {"gain", "discount", "ties", "zero_idcg", "negative", "cut", "shift",
                 "ideal_discount", "negative_ideal"}
EVALUATE_ONLY = {"ideal_pool", "missing", "score_precision", "fractional", "judged_only"}

GRADES = [-2, -1, 0, 1, 2, 3, 0.5]


def test_every_option_is_either_a_table_option_or_evaluates_runs_only():
    """No option is left out of the property below without saying why."""
    assert TABLE_OPTIONS | EVALUATE_ONLY == set(OPTIONS) | set(MISTAKE_OPTIONS)
    assert not TABLE_OPTIONS & EVALUATE_ONLY


@st.composite
def gains(draw):
    """A gain name, or a mapping of every grade to a gain (negative gains and a gain for
    grade 0 included)."""
    if draw(st.booleans()):
        return draw(st.sampled_from(list(OPTIONS["gain"].choices)))
    values = st.one_of(st.integers(-3, 9), st.sampled_from([0.1, 0.3, 2.5, 1 / 3]))
    return {(int(g) if float(g).is_integer() else g): draw(values) for g in GRADES}


@st.composite
def cases(draw):
    grades = draw(st.lists(st.sampled_from(GRADES), min_size=1, max_size=16))
    kw = {
        "gain": draw(gains()),
        "discount": draw(st.sampled_from(list(OPTIONS["discount"].choices))),
        "negative": draw(st.sampled_from(["keep", "zero"])),
        "shift": draw(st.sampled_from(list(MISTAKE_OPTIONS["shift"].choices))),
        "negative_ideal": draw(st.sampled_from(list(MISTAKE_OPTIONS["negative_ideal"].choices))),
    }
    if kw["discount"] == "jarvelin":
        kw["base"] = draw(st.sampled_from([2, 3, 1.5, 10]))
    rest = {
        "k": draw(st.one_of(st.none(), st.integers(1, 20))),
        "zero_idcg": draw(st.sampled_from(list(OPTIONS["zero_idcg"].choices))),
        "cut": draw(st.sampled_from(list(MISTAKE_OPTIONS["cut"].choices))),
        "ideal_discount": draw(st.sampled_from(list(MISTAKE_OPTIONS["ideal_discount"].choices))),
    }
    scored = None
    if draw(st.booleans()):
        scores = draw(st.lists(st.integers(0, 3), min_size=len(grades), max_size=len(grades)))
        ties = draw(st.sampled_from(list(OPTIONS["ties"].choices)))
        scored = {"scores": scores, "ties": ties,
                  "docids": [f"d{i}" for i in range(len(grades))]}
    pool = None
    if draw(st.booleans()):  # a judged pool: the ranking's grades plus unretrieved ones
        pool = grades + draw(st.lists(st.sampled_from(GRADES), max_size=6))
    return grades, kw, rest, scored, pool


def reference_gain(grade, kw):
    """The gain of one grade as written, from the options' own definitions."""
    if grade < 0 and kw["negative"] == "zero":
        return 0.0  # trec_eval: a negative grade gains nothing, whatever the map says
    gain = kw["gain"]
    if isinstance(gain, dict):
        return float(gain[int(grade) if float(grade).is_integer() else grade])
    return float(grade) if gain == "linear" else 2.0 ** grade - 1


def close(a, b):
    return a == pytest.approx(b, abs=1e-12, rel=1e-12) or (math.isnan(a) and math.isnan(b))


@settings(max_examples=300, deadline=None)
@given(cases())
def test_dcg_and_ideal_tables_sum_to_ndcg_parts_for_every_option(case):
    """The last cumulative DCG within k of each table is the DCG@k / IDCG@k printed beside
    it, and every row carries the gain the figure used for that item."""
    grades, kw, rest, scored, pool = case
    parts = ndcg_parts(grades, ideal=pool, **kw, **rest, **(scored or {}))
    n = len(grades)
    k = rest["k"]

    # the ranking's table, each row labelled by the item's index
    table = dcg_table(grades, labels=range(n), k=k, **kw_without(kw, "negative_ideal"),
                      **(scored or {}))
    expected = [reference_gain(grades[int(i)], kw) for i in table["label"]]
    if scored and scored["ties"] == "average":  # each tied item carries its group's mean
        s = np.asarray(scored["scores"])[[int(i) for i in table["label"]]]
        expected = [np.mean([e for e, t in zip(expected, s) if t == v]) for v in s]
    assert np.allclose(table["gain"], expected, rtol=1e-12, atol=1e-12)
    kk = n if k is None or rest["cut"] == "ideal_only" else min(k, n)
    assert close(table["cumulative_dcg"].iloc[kk - 1], parts.dcg)
    assert table["in_cutoff"].sum() == (n if k is None else min(k, n))

    # the ideal table, in IDCG's own discount
    disc = rest["ideal_discount"] or kw["discount"]
    ideal = ideal_table(grades, labels=range(n), k=k, ideal=pool,
                        ideal_labels=None if pool is None else range(len(pool)),
                        **{**kw, "discount": disc})
    source = grades if pool is None else pool
    assert ideal["gain"].tolist() == [reference_gain(source[int(i)], kw)
                                      for i in ideal["label"]]
    ik = k if k is not None else len(source)
    if rest["cut"] == "list_length" and k is not None:  # a k past the list cut to it
        ik = min(ik, n)
    rows = min(ik, len(ideal))
    assert close(ideal["cumulative_dcg"].iloc[rows - 1] if rows else 0.0, parts.idcg)


def kw_without(kw, name):
    return {key: value for key, value in kw.items() if key != name}
