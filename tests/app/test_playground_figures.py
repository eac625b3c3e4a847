"""Every figure of the playground is the engine's: with a judged pool and negative grades the
IDCG shown, the ideal table and the formula are the IDCG the NDCG divides by (issue 14).
The figures and the ideal table are the ranking table's (read from the data it draws)."""

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from playground_events import fire, formula_data, plotly_figures, table_data, values

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


def chart_figures(at) -> dict:
    """What the playground's charts write: the bars' heights, DCG@k and IDCG@k (their
    legend), NDCG@k at the cutoff's line (both charts) and the curve's NDCG@k at k."""
    bars, curve = plotly_figures(at)
    ranking, ideal = bars["data"]
    k = table_data(at)["k"]
    at_k = {chart["layout"]["annotations"][0]["text"] for chart in (bars, curve)}
    return {"contribution": values(ranking["y"]), "ideal": values(ideal["y"]),
            "legend": [ranking["name"], ideal["name"]], "at_k": at_k,
            "curve": {line["name"]: values(line["y"])[k - 1] for line in curve["data"]}}


@pytest.mark.parametrize("params, move", [
    (dict(g="3,2,3,0,1,2", k="4"), None),
    (dict(g="2,-1,-1", k="3", unretrieved="1", scale="free"), None),
    (dict(g="3,-1,2,0", k="2", unretrieved="3,-1", gain="both", scale="free"), None),
    (dict(g="3,2,3,0,1,2", k="4", unretrieved="3"), 3),  # after Doc 4 moves to the top
], ids=["default", "negatives", "both-gains", "after-a-move"])
def test_the_charts_show_the_tables_figures(params, move):
    """One computation per run: the charts' bars, DCG@k, IDCG@k and NDCG@k are the numbers
    the table (and the formula, drawn from its data) shows for the same state."""
    at = open_link(**params)
    if move is not None:
        order = [it.id for it in at.session_state["pg"].items]
        order.insert(0, order.pop(move))
        fire(at, {"action": "move", "id": order[0], "order": order})
    at.session_state["pg_view"] = "Charts"
    at.run()
    assert not at.exception
    data, charts = table_data(at), chart_figures(at)
    k, first = data["k"], data["gains"][0]
    table = data["figures"][first]
    assert charts["contribution"] == table["contribution"]  # the same numbers, not close ones
    assert charts["ideal"] == data["ideal_figures"][first]["contribution"][:len(table["gain"])]
    assert charts["legend"] == [f"your ranking: DCG@{k} = {table['dcg']:.3f}",
                                f"ideal: IDCG@{k} = {table['idcg']:.3f}"]
    ndcg = {g: f"{data['figures'][g]['ndcg']:.3f}" for g in data["gains"]}
    both = ", ".join(f"{ndcg[g]} ({g})" for g in ndcg) if len(ndcg) > 1 else ndcg[first]
    assert charts["at_k"] == {f"k = {k} · NDCG@{k} = {ndcg[first]}",
                              f"k = {k} · NDCG@{k} = {both}"}
    curve = dict(zip(("linear", "exponential"), charts["curve"].values()))
    for gain in data["gains"]:
        assert curve[gain] == pytest.approx(data["figures"][gain]["ndcg"])
    assert formula_data(at) is None  # the formula tab is closed: its numbers are the table's
