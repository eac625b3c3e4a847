"""The ranking table's logic (lab.ranking_table): the figures it draws are ndcg_core's, and
the edits it accepts obey the scale. The component's Streamlit side and its demo are
tests/app/test_ranking_table_server.py; the browser side tests/browser/test_ranking_table.py.
"""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc
from lab import grades
from lab import ranking_table as RT

SCALE_0_3 = grades.scale_of(0, 3, integer=True)
ROWS = [{"id": f"d{i}", "label": f"Doc {c}", "grade": g}
        for i, (c, g) in enumerate(zip("ABCDEF", [3, 2, 3, 0, 1, 2]))]


def test_table_figures_are_the_engines_for_document_000():
    """DCG@4 = 3/1 + 2/log2(3) + 3/2 + 0/log2(5) = 5.762, IDCG@4 of [3, 3, 2, 2] = 6.754."""
    data = RT.table_data(ROWS, k=4, gain="linear")
    f = data["figures"]["linear"]
    assert f["dcg"] == pytest.approx(3 / 1 + 2 / math.log2(3) + 3 / 2 + 0)  # grades 3, 2, 3, 0
    assert f["idcg"] == pytest.approx(3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5))
    assert f["ndcg"] == nc.ndcg([3, 2, 3, 0, 1, 2], k=4)
    assert f["contribution"][1] == pytest.approx(2 / math.log2(3))
    assert f["cumulative"][-1] == pytest.approx(nc.dcg([3, 2, 3, 0, 1, 2]))
    assert [r["label"] for r in data["ideal_rows"]] == ["Doc A", "Doc C", "Doc B", "Doc F",
                                                        "Doc E", "Doc D"]
    assert data["max_gain"] == {"linear": 3.0}


def test_both_gains_give_two_sets_of_figures():
    """Exponential gain: DCG@4 = 7/1 + 3/log2(3) + 7/2 + 0 (gains 2^g - 1 of 3, 2, 3, 0)."""
    data = RT.table_data(ROWS, k=4, gain="both")
    assert data["gains"] == ["linear", "exponential"]
    assert data["figures"]["exponential"]["dcg"] == pytest.approx(7 + 3 / math.log2(3) + 3.5)
    assert data["max_gain"]["exponential"] == 7.0


def test_a_judged_pool_enters_the_ideal_without_its_negative_grades():
    """Pool X (3) and Y (-1): the ideal holds A, C, X (3s) ... and not Y; IDCG is ndcg's."""
    pool = [{"label": "X", "grade": 3}, {"label": "Y", "grade": -1}]
    data = RT.table_data(ROWS, k=4, gain="linear", unretrieved=pool)
    labels = [r["label"] for r in data["ideal_rows"]]
    assert labels[:3] == ["Doc A", "Doc C", "X"] and "Y" not in labels
    assert [r["retrieved"] for r in data["ideal_rows"]][2] is False
    f = data["figures"]["linear"]
    judged = [3, 2, 3, 0, 1, 2, 3, -1]
    assert f["ndcg"] == nc.ndcg([3, 2, 3, 0, 1, 2], k=4, ideal=judged)
    assert f["dcg"] / f["idcg"] == pytest.approx(f["ndcg"], abs=1e-15)
    assert f["idcg"] == pytest.approx(3 + 3 / math.log2(3) + 3 / 2 + 2 / math.log2(5))


def test_zero_idcg_follows_the_rule_and_nan_travels_as_null():
    rows = [{"id": "a", "label": "A", "grade": 0}]
    assert RT.table_data(rows, k=1, gain="linear")["figures"]["linear"]["ndcg"] == 0.0
    data = RT.table_data(rows, k=1, gain="linear", zero_idcg="nan")
    assert data["zero"] is None and data["figures"]["linear"]["ndcg"] is None


def test_a_missing_grade_leaves_the_figures_out_with_a_message():
    rows = ROWS[:2] + [{"id": "x", "label": "Doc X", "grade": None}]
    data = RT.table_data(rows, k=2, gain="linear")
    assert data["figures"] is None
    assert data["problem"] == "Doc X (position 3) has no grade yet: click its grade to type one."


@pytest.mark.parametrize("grade, message", [
    (9, "9 is outside the scale: type a whole number from 0 to 3. The grade stays 2."),
    (-1, "-1 is outside the scale: type a whole number from 0 to 3. The grade stays 2."),
    (2.5, "2.5 is not a whole number: this scale takes a whole number from 0 to 3. "
          "The grade stays 2."),
    ("x", "'x' is not a number: type a whole number from 0 to 3. The grade stays 2."),
    (True, "'True' is not a number: type a whole number from 0 to 3. The grade stays 2."),
    (float("nan"), "'nan' is not a number: type a whole number from 0 to 3. The grade stays 2."),
])
def test_the_server_refuses_a_grade_outside_the_scale(grade, message):
    event, refused, row = RT.check_event({"action": "grade", "id": "d1", "grade": grade},
                                            ROWS, scale=SCALE_0_3)
    assert (event, refused, row) == (None, message, "d1")


def test_the_server_accepts_grades_labels_moves_adds_and_removes():
    check = lambda e: RT.check_event(e, ROWS, scale=SCALE_0_3)  # noqa: E731
    assert check({"action": "grade", "id": "d1", "grade": 3, "seq": 4})[0] == {
        "action": "grade", "id": "d1", "grade": 3.0}
    assert check({"action": "rename", "id": "d1", "label": "  New  "})[0] == {
        "action": "rename", "id": "d1", "label": "New"}
    assert check({"action": "rename", "id": "d1", "label": " "})[1].startswith(
        "A label cannot be empty")
    assert check({"action": "move", "id": "d3", "from": 4, "to": 1})[0] == {
        "action": "move", "id": "d3", "from": 4, "to": 1}
    assert check({"action": "remove", "id": "d0"})[0] == {"action": "remove", "id": "d0"}
    assert check({"action": "add"})[0] == {"action": "add"}
    assert check({"action": "remove", "id": "gone"}) == (None, None, None)
    assert check("junk") == (None, None, None)
    one = ROWS[:1]
    assert RT.check_event({"action": "remove", "id": "d0"}, one, scale=None)[1].startswith(
        "The list needs at least one item")


def test_rows_with_a_repeated_id_are_refused_by_name():
    with pytest.raises(ValueError, match="ids must be unique; 'd0' repeats"):
        RT.normalise_rows(ROWS + ROWS[:1])


def test_idcg_and_the_ideal_rows_are_the_engines_with_a_judged_pool():
    """Ranking [2, -1], pool [1, -2]: the ideal holds 2 then 1 (negatives left out), and
    IDCG@2 = 2/1 + 1/log2(3) is ndcg_parts' (not idcg() of the grades, which keeps -1s)."""
    rows = [{"id": "a", "label": "A", "grade": 2}, {"id": "b", "label": "B", "grade": -1}]
    pool = [{"label": "X", "grade": 1}, {"label": "Y", "grade": -2}]
    data = RT.table_data(rows, k=2, gain="linear", unretrieved=pool)
    parts = nc.ndcg_parts([2, -1], k=2, ideal=[2, -1, 1, -2])
    f = data["figures"]["linear"]
    assert (f["dcg"], f["idcg"], f["ndcg"]) == tuple(parts)
    assert f["idcg"] == pytest.approx(2 / 1 + 1 / math.log2(3))
    assert [r["label"] for r in data["ideal_rows"]] == ["A", "X"]
    table = nc.ideal_table([2, -1], k=2, ideal=[2, -1, 1, -2])
    assert data["ideal_figures"]["linear"]["cumulative"] == list(table["cumulative_dcg"])


def test_the_ideal_without_a_pool_keeps_negative_grades_last():
    """No pool: the ideal is the ranking sorted (ndcg_core.ideal_table), -1 last."""
    rows = [{"id": "a", "label": "A", "grade": -1}, {"id": "b", "label": "B", "grade": 1},
            {"id": "c", "label": "C", "grade": 1}]
    data = RT.table_data(rows, k=3, gain="linear")
    assert [r["id"] for r in data["ideal_rows"]] == ["b", "c", "a"]
    assert data["figures"]["linear"]["idcg"] == nc.ndcg_parts([-1, 1, 1], k=3).idcg
