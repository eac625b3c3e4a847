"""ndcg_parts and ideal_table: the DCG, IDCG and ideal ordering behind an NDCG, from one place."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import dcg, ideal_table, ndcg, ndcg_parts

grades = st.lists(st.integers(-2, 4), min_size=1, max_size=12)


def test_document_000_parts_written_out():
    parts = ndcg_parts([3, 2, 3, 0, 1, 2], k=4)
    assert parts.dcg == pytest.approx(3 + 2 / math.log2(3) + 3 / 2 + 0)       # rel 3, 2, 3, 0
    assert parts.idcg == pytest.approx(3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5))
    assert parts.ndcg == pytest.approx(parts.dcg / parts.idcg) == pytest.approx(0.8531, abs=1e-4)


def test_the_ideal_table_of_a_pool_leaves_negative_grades_out_and_names_the_unretrieved():
    t = ideal_table([2, -1], labels=["a", "b"], ideal=[2, -1, 1],
                    ideal_labels=["a", "b", "not retrieved 1"])
    assert list(t["label"]) == ["a", "not retrieved 1"]        # b (grade -1) is left out
    assert t["cumulative_dcg"].iloc[-1] == pytest.approx(2 + 1 / math.log2(3))


@settings(max_examples=200, deadline=None)
@given(grades, st.integers(1, 14), st.lists(st.integers(-2, 4), max_size=5),
       st.sampled_from(["linear", "exponential"]))
def test_parts_agree_with_ndcg_dcg_and_the_ideal_table(g, k, extra, gain):
    ideal = g + extra if extra else None
    parts = ndcg_parts(g, k=k, gain=gain, ideal=ideal)
    assert parts.ndcg == ndcg(g, k=k, gain=gain, ideal=ideal)
    assert parts.dcg == pytest.approx(dcg(g, k=k, gain=gain))
    table = ideal_table(g, k=k, gain=gain, ideal=ideal)
    expected_idcg = float(table.loc[table["in_cutoff"], "contribution"].sum())
    assert parts.idcg == pytest.approx(expected_idcg, abs=1e-12)
    if parts.idcg > 0:
        assert parts.ndcg == pytest.approx(parts.dcg / parts.idcg)
    assert np.all(np.diff(table["gain"]) <= 0)  # best first
