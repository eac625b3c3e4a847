"""The playground prints the zero rule's value where the ideal DCG cancels to exactly 0, and
an ideal table that sums to the IDCG printed beside it (the links of the audit's report)."""

import math
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground_events import formula_data, metrics, table_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_link(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def test_an_ideal_that_cancels_prints_the_zero_rule_not_a_huge_ndcg():
    """?g=-3,0,0,0,0,0,1&k=7&neg=keep: the ideal [1, 0, ..., -3] sums 1/1 - 3/log2(8) = 0,
    so NDCG@7 follows the zero rule (here 'undefined', printed as a dash; with zero=zero,
    0.000), never -4.8e16."""
    at = open_link(g="-3,0,0,0,0,0,1", scale="free", k="7", neg="keep")
    assert not at.exception
    assert metrics(at) == {"DCG@7": round(-3 + 1 / 3, 3), "IDCG@7": 0.0, "NDCG@7": None}
    assert table_data(at)["ideal_figures"]["linear"]["cumulative"][-1] == 0.0
    formula = formula_data(at)["figures"]["linear"]
    assert (formula["idcg"], formula["ndcg"]) == (0.0, None)
    at = open_link(g="-3,0,0,0,0,0,1", scale="free", k="7", neg="keep", zero="zero")
    assert metrics(at)["NDCG@7"] == 0.0
    at = open_link(g="1,0,0,0,0,0,-3", scale="free", k="7", neg="keep", zero="one")
    assert metrics(at) == {"DCG@7": 0.0, "IDCG@7": 0.0, "NDCG@7": 1.0}


def test_the_ideal_table_gives_a_negative_grade_counted_as_zero_no_gain():
    """?l=A&l=B&l=C&g=-1,1,0&k=3&num=one (every item's numerator 1, negative grades counted
    as 0): item A (grade -1) gains 0 in the ideal table as in the figure, and the table sums
    to IDCG@3 = 1 + 1/log2(3) = 1.631 (it summed to 2.131)."""
    at = open_link(l=["A", "B", "C"], g="-1,1,0", gain="linear", scale="free", k="3",
                   num="one")
    assert not at.exception
    d = table_data(at)
    idcg = 1 + 1 / math.log2(3)   # B and C count 1 each, A nothing
    assert metrics(at)["IDCG@3"] == round(idcg, 3) == 1.631
    ideal = d["ideal_figures"]["linear"]
    assert dict(zip([r["label"] for r in d["ideal_rows"]], ideal["gain"])) == {
        "B": 1.0, "C": 1.0, "A": 0.0}
    assert ideal["cumulative"][-1] == d["figures"]["linear"]["idcg"]
