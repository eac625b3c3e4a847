"""The playground page under AppTest: what a learner reads after each change."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import playground as P
from playground_events import (fire, formula_data, item_id, labels, metrics, plotly_figures,
                               table_data, values)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
DEFAULT = [3, 2, 3, 0, 1, 2]  # document 000's ranking


def open_playground(query_params=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def past_k(at) -> list[bool]:
    """Which of the table's rows are past the cutoff (drawn dimmed and marked "past k")."""
    d = table_data(at)
    return [pos > d["k"] for pos in range(1, len(d["rows"]) + 1)]


def test_default_ranking_is_document_000_with_ndcg_0_961():
    """The page opens on doc 000: DCG@6 6.861, IDCG@6 7.141, NDCG@6 0.961."""
    at = open_playground()
    assert metrics(at) == {"DCG@6": 6.861, "IDCG@6": 7.141, "NDCG@6": 0.961}
    assert [it.label for it in at.session_state["pg"].items] == list(P.DEFAULT_LABELS)


def test_both_gains_show_linear_0_961_and_exponential_0_949():
    """With gain 'both', the linear and exponential figures stand side by side."""
    at = open_playground()
    at.radio(key="pg_gain").set_value("both").run()
    m = metrics(at)
    assert m["NDCG@6 (linear)"] == 0.961
    assert m["NDCG@6 (exponential)"] == 0.949


def test_reordering_through_session_state_updates_every_figure():
    """Moving Doc D (grade 0) to the top changes DCG, NDCG, the tables and the formula."""
    at = open_playground()
    pg = at.session_state["pg"]
    ids = [it.id for it in pg.items]
    at.session_state["pg"] = P.reorder(pg, [ids[3]] + ids[:3] + ids[4:])
    at.run()
    grades = [0, 3, 2, 3, 1, 2]
    m = metrics(at)
    assert m["NDCG@6"] == round(nc.ndcg(grades), 3)
    assert m["DCG@6"] == round(nc.dcg(grades), 3)
    assert labels(at)[:2] == ["Doc D", "Doc A"]
    formula = formula_data(at)
    assert formula["grades"] == ["0", "3", "2", "3", "1", "2"]
    assert formula["figures"]["linear"]["ndcg"] == pytest.approx(nc.ndcg(grades))
    # a move leaves the ideal as it was: the same items, best first
    assert [r["label"] for r in table_data(at)["ideal_rows"]] == [
        "Doc A", "Doc C", "Doc B", "Doc F", "Doc E", "Doc D"]


def test_ideal_button_gives_ndcg_1_and_reset_restores():
    """'Ideal order' sorts by grade (NDCG 1); 'Reset' returns to the opening ranking."""
    at = open_playground()
    at.button(key="pg_btn_ideal").click().run()
    assert metrics(at)["NDCG@6"] == 1.0
    at.button(key="pg_btn_worst").click().run()
    assert metrics(at)["NDCG@6"] == round(nc.ndcg([0, 1, 2, 2, 3, 3]), 3)
    at.button(key="pg_btn_reset").click().run()
    assert metrics(at)["NDCG@6"] == 0.961


def test_cutoff_4_matches_the_issue_example():
    """k = 4: NDCG@4 = 5.762 / 6.754 = 0.853, and rows past k are marked."""
    at = open_playground()
    at.slider(key="pg_k").set_value(4).run()
    assert metrics(at) == {"DCG@4": 5.762, "IDCG@4": 6.754, "NDCG@4": 0.853}
    formula = formula_data(at)["figures"]["linear"]
    assert (round(formula["dcg"], 3), round(formula["idcg"], 3)) == (5.762, 6.754)
    assert past_k(at) == [False] * 4 + [True] * 2


def test_exponential_gain_changes_the_numbers():
    at = open_playground()
    at.radio(key="pg_gain").set_value("exponential").run()
    assert metrics(at)["DCG@6"] == round(nc.dcg(DEFAULT, gain="exponential"), 3)


def test_judged_but_not_retrieved_pool_raises_idcg():
    """Two judged items the ranking missed (grades 3, 2) enter the ideal only."""
    at = open_playground()
    at.text_input(key="pg_unretrieved_text").input("3, 2").run()
    pool = DEFAULT + [3, 2]
    m = metrics(at)
    assert m["IDCG@6"] == round(nc.idcg(pool, k=6), 3)
    assert m["DCG@6"] == round(nc.dcg(DEFAULT), 3)
    assert m["NDCG@6"] == round(nc.ndcg(DEFAULT, k=6, ideal=pool), 3)
    assert m["IDCG@6"] > 7.141


def test_bad_pool_text_shows_a_message_and_keeps_the_text():
    at = open_playground()
    at.text_input(key="pg_unretrieved_text").input("3, two").run()
    assert not at.exception
    assert any("not a number" in e.value for e in at.error)
    assert at.text_input(key="pg_unretrieved_text").value == "3, two"
    # after a visit to another page, the text and its message are still there
    at.switch_page("pages/your_data.py").run()
    at.switch_page("pages/playground.py").run()
    assert at.text_input(key="pg_unretrieved_text").value == "3, two"
    assert any("not a number" in e.value for e in at.error)
    at.text_input(key="pg_unretrieved_text").input("3").run()  # fixed: the message goes
    assert not any("not a number" in e.value for e in at.error)
    assert at.session_state["pg"].unretrieved == (3,)


@pytest.mark.parametrize("typed, shown", [("3, 2", "3, 2"), (" 2 , 2 ", "2, 2"), ("2,", "2")])
def test_the_pool_box_always_shows_the_pool_the_ideal_uses(typed, shown):
    """The 2,000-action monkey once found the box empty after page switches while IDCG
    still used the pool: the box is now set from the state on every run."""
    at = open_playground()
    at.text_input(key="pg_unretrieved_text").input(typed).run()
    pool = at.session_state["pg"].unretrieved
    for page in ("pages/your_data.py", "pages/beyond.py", "pages/practice.py"):
        at.switch_page(page).run()
        assert not at.exception
    at.switch_page("pages/playground.py").run()
    assert at.text_input(key="pg_unretrieved_text").value == shown
    assert metrics(at)["IDCG@6"] == round(nc.idcg(DEFAULT + list(pool), k=6), 3)


def test_a_moved_row_reaches_the_state_the_figures_and_the_link():
    """Dragging Doc D (grade 0) to the top: NDCG@6 of [0, 3, 2, 3, 1, 2], and the link."""
    at = open_playground()
    ids = [it.id for it in at.session_state["pg"].items]
    order = [ids[3]] + ids[:3] + ids[4:]
    assert fire(at, {"action": "move", "id": ids[3], "from": 4, "to": 1,
                     "order": order}) is None
    assert labels(at) == ["Doc D", "Doc A", "Doc B", "Doc C", "Doc E", "Doc F"]
    assert metrics(at)["NDCG@6"] == round(nc.ndcg([0, 3, 2, 3, 1, 2]), 3)
    assert at.query_params["g"] in ("0,3,2,3,1,2", ["0,3,2,3,1,2"])


def test_grading_a_row_keeps_the_order():
    """Regrading Doc D to 3 in the table keeps every item where it was."""
    at = open_playground()
    at.button(key="pg_btn_reverse").click().run()  # a user order: F E D C B A
    assert fire(at, {"action": "grade", "id": item_id(at, "Doc D"), "grade": 3}) is None
    pg = at.session_state["pg"]
    assert pg.labels == ("Doc F", "Doc E", "Doc D", "Doc C", "Doc B", "Doc A",)
    assert pg.grades == (2, 1, 3, 3, 2, 3,)  # Doc D (third in the ranking) went from 0 to 3
    assert metrics(at)["NDCG@6"] == round(nc.ndcg(pg.grades), 3)


@pytest.mark.parametrize("typed, message", [
    (9, "9 is outside the scale: type a whole number from 0 to 3. The grade stays 0."),
    (-1, "-1 is outside the scale: type a whole number from 0 to 3. The grade stays 0."),
    (2.5, "2.5 is not a whole number: this scale takes a whole number from 0 to 3. "
          "The grade stays 0."),
    ("x", "'x' is not a number: type a whole number from 0 to 3. The grade stays 0."),
])
def test_a_grade_off_the_scale_is_refused_at_the_row_and_the_old_grade_stays(typed, message):
    """Doc D (grade 0) typed off the 0-3 scale: the row says why; the 0 stays."""
    at = open_playground()
    assert fire(at, {"action": "grade", "id": item_id(at, "Doc D"), "grade": typed}) == message
    assert at.session_state["pg"].grades == P.DEFAULT_GRADES
    assert metrics(at)["NDCG@6"] == 0.961


def test_the_state_refuses_a_grade_the_component_let_through():
    """A report can come from anywhere: the state checks the scale again (the ranking
    table's own check, lab.ranking_table.check_grade)."""
    pg = P.default()
    with pytest.raises(ValueError, match="^9 is outside the scale: type a whole number "
                                         "from 0 to 3. The grade stays 0.$"):
        P.apply_event(pg, {"action": "grade", "id": pg.items[3].id, "grade": 9})


def test_adding_renaming_and_removing_rows():
    """Add names the item "Item 7" with grade 0; rename cleans the label; remove drops it;
    the last item cannot be removed."""
    at = open_playground()
    assert fire(at, {"action": "add"}) is None
    pg = at.session_state["pg"]
    assert pg.labels[-1] == "Item 7" and pg.grades[-1] == 0
    assert fire(at, {"action": "rename", "id": pg.items[-1].id, "label": "  Doc   G "}) is None
    assert labels(at)[-1] == "Doc G"
    assert fire(at, {"action": "remove", "id": item_id(at, "Doc A")}) is None
    assert at.session_state["pg"].labels == ("Doc B", "Doc C", "Doc D", "Doc E", "Doc F",
                                             "Doc G",)
    assert metrics(at)["NDCG@6"] == round(nc.ndcg([2, 3, 0, 1, 2, 0]), 3)
    one = open_playground(P.ranking_query_params(["x"], [1]))
    assert fire(one, {"action": "remove", "id": item_id(one, "x")}).startswith(
        "The list needs at least one item")
    assert one.session_state["pg"].labels == ("x",)


def test_query_params_restore_a_shared_ranking():
    """A copied link reopens the same ranking, k and gain."""
    params = P.ranking_query_params(["x", "y", "z"], [1, 3, 2], k=2, gain="exponential")
    at = open_playground(params)
    pg = at.session_state["pg"]
    assert pg.labels == ("x", "y", "z",) and pg.grades == (1, 3, 2,)
    assert metrics(at)["NDCG@2"] == round(nc.ndcg([1, 3, 2], k=2, gain="exponential"), 3)


def test_state_is_written_back_to_the_url():
    at = open_playground()
    at.slider(key="pg_k").set_value(3).run()
    assert at.query_params["k"] in ("3", ["3"])
    assert at.query_params["g"] in ("3,2,3,0,1,2", ["3,2,3,0,1,2"])


@pytest.mark.parametrize("params, reason", [
    ({"g": "3,abc,1"}, "not a number"),
    ({"g": "3,2", "l": ["a"]}, "1 labels but 2 grades"),
    ({"g": "3,2", "k": "9"}, "k = '9'"),
    ({"g": "3,2", "gain": "cubic"}, "gain 'cubic'"),
    ({"g": "3,9", "scale": "0-3"}, "outside"),
    ({"g": "nan,1"}, "not a finite number"),
    ({"g": ""}, "empty"),
])
def test_tampered_links_fall_back_to_the_default_with_a_notice(params, reason):
    at = open_playground(params)
    assert not at.exception
    assert any(reason in w.value for w in at.warning), [w.value for w in at.warning]
    assert metrics(at)["NDCG@6"] == 0.961


def test_charts_tab_draws_contributions_and_the_ndcg_curve_only_when_open():
    """The charts are built when their tab is open, and then show the engine's numbers:
    at k = 4 the bars are 3/log2(2), 2/log2(3), 3/log2(4), 0/log2(5), ... against the
    ideal 3/log2(2), 3/log2(3), 2/log2(4), 2/log2(5), ..., and the curve is NDCG@k for
    k = 1..6 under both gains."""
    at = open_playground(P.ranking_query_params(P.DEFAULT_LABELS, P.DEFAULT_GRADES, k=4))
    assert not at.get("plotly_chart") and formula_data(at)  # the formula tab by default
    at.session_state["pg_view"] = "Charts"
    at.run()
    assert not at.exception
    assert formula_data(at) is None  # the formula is not built
    bars, curve = plotly_figures(at)
    actual, ideal = bars["data"]
    log2 = np.log2
    assert values(actual["y"]) == pytest.approx(
        [3 / 1, 2 / log2(3), 3 / 2, 0 / log2(5), 1 / log2(6), 2 / log2(7)])
    assert values(ideal["y"]) == pytest.approx(
        [3 / 1, 3 / log2(3), 2 / 2, 2 / log2(5), 1 / log2(6), 0 / log2(7)])
    assert bars["layout"]["title"]["text"].startswith("What each position adds to DCG")
    assert bars["layout"]["xaxis"]["title"]["text"] == "position"
    linear, exponential = curve["data"]
    assert values(linear["y"]) == pytest.approx([nc.ndcg(DEFAULT, k=k) for k in range(1, 7)])
    assert values(exponential["y"]) == pytest.approx(
        [nc.ndcg(DEFAULT, k=k, gain="exponential") for k in range(1, 7)])
    assert curve["layout"]["yaxis"]["title"]["text"] == "NDCG@k"
    assert metrics(at)["NDCG@4"] == round(5.762 / 6.754, 3)  # the headline stays


def test_a_grade_outside_the_scale_is_shown_exactly_with_a_note():
    """The binary scale picked while a grade is 1.5 (the 2,000-action monkey found it): the
    table shows 1.5 as it is (never rounded) and the page says which item is off."""
    at = open_playground(P.ranking_query_params(["x", "y"], [1.5, 0], scale="free"))
    assert at.session_state["pg"].grades == (1.5, 0,)
    at.selectbox(key="pg_scale").set_value("binary").run()
    assert any("Outside the binary (0/1) scale: x (1.5)" in w.value for w in at.warning)
    assert [r["grade_text"] for r in table_data(at)["rows"]] == ["1.5", "0"]
    assert fire(at, {"action": "grade", "id": item_id(at, "x"), "grade": 1}) is None
    assert not any("Outside" in w.value for w in at.warning)
