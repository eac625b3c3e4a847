"""Every figure of the playground is the engine's: with a judged pool and negative grades the
IDCG shown, the ideal table and the formula are the IDCG the NDCG divides by (issue 14).
The figures and the ideal table are the ranking table's (read from the data it draws)."""

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from playground_events import formula_data, table_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_link(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def shown_figures(at) -> dict:
    """{"DCG@k": "0.869", ...}: the table's figures as it writes them (3 decimals); with
    both gains each name ends in " (linear)" / " (exponential)"."""
    d = table_data(at)
    suffix = (lambda g: f" ({g})") if len(d["gains"]) > 1 else (lambda g: "")
    return {f"{name.upper()}@{d['k']}{suffix(g)}": f"{d['figures'][g][name]:.3f}"
            for g in d["gains"] for name in ("dcg", "idcg", "ndcg")}


def test_a_pool_with_negative_grades_shows_the_idcg_the_ndcg_divides_by():
    """?g=2,-1,-1&k=3&pool=1&neg=keep: negatives kept as written (not the default, which
    counts them 0), the ideal from the pool [2, -1, -1, 1] leaves the -1s out."""
    at = open_link(g="2,-1,-1", k="3", pool="1", scale="free", neg="keep")
    assert not at.exception
    dcg = 2 - 1 / math.log2(3) - 1 / 2             # rel = 2, -1, -1
    idcg = 2 + 1 / math.log2(3)                    # ideal [2, 1]: negatives left out
    shown = shown_figures(at)
    assert shown["DCG@3"] == f"{dcg:.3f}" == "0.869"
    assert shown["IDCG@3"] == f"{idcg:.3f}" == "2.631"
    assert shown["NDCG@3"] == f"{dcg / idcg:.3f}" == "0.330"
    assert nc.ndcg([2, -1, -1], k=3, ideal=[2, -1, -1, 1]) == pytest.approx(dcg / idcg)
    formula = formula_data(at)["figures"]["linear"]
    assert [f"{formula[name]:.3f}" for name in ("dcg", "idcg", "ndcg")] == [
        "0.869", "2.631", "0.330"]
    data = table_data(at)
    assert [r["label"] for r in data["ideal_rows"]] == ["Item 1", "judged 1"]
    assert [r["retrieved"] for r in data["ideal_rows"]] == [True, False]
    assert data["ideal_figures"]["linear"]["cumulative"][-1] == pytest.approx(idcg)


def test_both_gains_with_a_negative_pool_grade_show_consistent_ratios():
    """?g=3,-1&pool=-1&gain=both&neg=keep: each formula's quotient is its NDCG."""
    at = open_link(g="3,-1", pool="-1", gain="both", scale="free", neg="keep")
    assert not at.exception
    shown = shown_figures(at)
    for gain in ("linear", "exponential"):
        parts = nc.ndcg_parts([3, -1], gain=gain, ideal=[3, -1, -1])
        assert shown[f"IDCG@2 ({gain})"] == f"{parts.idcg:.3f}"
        assert shown[f"NDCG@2 ({gain})"] == f"{parts.ndcg:.3f}"
        assert parts.ndcg == pytest.approx(parts.dcg / parts.idcg)
    assert shown["IDCG@2 (linear)"] == "3.000"  # not 2.369: the -1 never enters the ideal
