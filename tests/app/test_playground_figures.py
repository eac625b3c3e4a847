"""Every figure of the playground is the engine's: with a judged pool and negative grades the
IDCG shown, the ideal table and the formula are the IDCG the NDCG divides by (issue 14)."""

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_link(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def test_a_pool_with_negative_grades_shows_the_idcg_the_ndcg_divides_by():
    """?g=2,-1,-1&k=3&pool=1: the ideal from the pool [2, -1, -1, 1] leaves the -1s out."""
    at = open_link(g="2,-1,-1", k="3", pool="1", scale="free")
    assert not at.exception
    dcg = 2 - 1 / math.log2(3) - 1 / 2             # rel = 2, -1, -1
    idcg = 2 + 1 / math.log2(3)                    # ideal [2, 1]: negatives left out
    shown = {m.label: m.value for m in at.metric}
    assert shown["DCG@3"] == f"{dcg:.3f}" == "0.869"
    assert shown["IDCG@3"] == f"{idcg:.3f}" == "2.631"
    assert shown["NDCG@3"] == f"{dcg / idcg:.3f}" == "0.330"
    assert nc.ndcg([2, -1, -1], k=3, ideal=[2, -1, -1, 1]) == pytest.approx(dcg / idcg)
    formula = [el.value for el in at.get("latex")]
    assert any(r"\frac{0.869}{2.631} = 0.330" in f for f in formula), formula
    ideal = next(d.value for d in at.dataframe if "item" in d.value.columns
                 and "not retrieved 1" in list(d.value["item"]))
    assert list(ideal["item"]) == ["Item 1", "not retrieved 1"]
    assert ideal["cumulative DCG"].iloc[-1] == pytest.approx(idcg)


def test_both_gains_with_a_negative_pool_grade_show_consistent_ratios():
    """?g=3,-1&pool=-1&gain=both: each formula's quotient is its NDCG."""
    at = open_link(g="3,-1", pool="-1", gain="both", scale="free")
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    for gain in ("linear", "exponential"):
        parts = nc.ndcg_parts([3, -1], gain=gain, ideal=[3, -1, -1])
        assert shown[f"IDCG@2 ({gain})"] == f"{parts.idcg:.3f}"
        assert shown[f"NDCG@2 ({gain})"] == f"{parts.ndcg:.3f}"
        assert parts.ndcg == pytest.approx(parts.dcg / parts.idcg)
    assert shown["IDCG@2 (linear)"] == "3.000"  # not 2.369: the -1 never enters the ideal
