"""The playground page under AppTest: what a learner reads after each change."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import playground as S

APP = str(Path(__file__).resolve().parents[2] / "app.py")
DEFAULT = [3, 2, 3, 0, 1, 2]  # document 000's ranking


def open_playground(query_params=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def metrics(at) -> dict:
    return {m.label: float(m.value) for m in at.metric}


def dcg_table(at, which=0):
    """The n-th DCG table on the page (the editor is a dataframe too, without 'item')."""
    tables = [d.value for d in at.dataframe if "item" in d.value.columns]
    return tables[which]


def editor_key(at) -> str:
    return f"pg_editor_{at.session_state['pg_editor_ver']}"


def test_default_ranking_is_document_000_with_ndcg_0_961():
    """The page opens on doc 000: DCG@6 6.861, IDCG@6 7.141, NDCG@6 0.961."""
    at = open_playground()
    assert metrics(at) == {"DCG@6": 6.861, "IDCG@6": 7.141, "NDCG@6": 0.961}
    assert [it.label for it in at.session_state["pg"].items] == list(S.DEFAULT_LABELS)


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
    at.session_state["pg"] = S.reorder(pg, [ids[3]] + ids[:3] + ids[4:])
    at.run()
    grades = [0, 3, 2, 3, 1, 2]
    m = metrics(at)
    assert m["NDCG@6"] == round(nc.ndcg(grades), 3)
    assert m["DCG@6"] == round(nc.dcg(grades), 3)
    table = dcg_table(at)
    assert list(table["item"][:2]) == ["Doc D", "Doc A"]
    assert f"{nc.ndcg(grades):.3f}" in at.latex[1].value
    # the move's effect is the metric's delta
    assert at.metric[2].delta == f"{nc.ndcg(grades) - nc.ndcg(DEFAULT):+.3f}"


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
    assert "5.762" in at.latex[1].value and "6.754" in at.latex[1].value
    assert list(dcg_table(at)["in top k"]) == ["✓"] * 4 + ["· beyond k"] * 2


def test_exponential_gain_changes_the_numbers():
    at = open_playground()
    at.radio(key="pg_gain").set_value("exponential").run()
    assert metrics(at)["DCG@6"] == round(nc.dcg(DEFAULT, gain="exponential"), 3)


def test_judged_but_not_retrieved_pool_raises_idcg():
    """Two judged items the ranking missed (grades 3, 2) enter the ideal only."""
    at = open_playground()
    at.text_input(key="pg_pool_text").input("3, 2").run()
    pool = DEFAULT + [3, 2]
    m = metrics(at)
    assert m["IDCG@6"] == round(nc.idcg(pool, k=6), 3)
    assert m["DCG@6"] == round(nc.dcg(DEFAULT), 3)
    assert m["NDCG@6"] == round(nc.ndcg(DEFAULT, k=6, ideal=pool), 3)
    assert m["IDCG@6"] > 7.141


def test_bad_pool_text_shows_a_message_and_keeps_the_text():
    at = open_playground()
    at.text_input(key="pg_pool_text").input("3, two").run()
    assert not at.exception
    assert any("not a number" in e.value for e in at.error)
    assert at.text_input(key="pg_pool_text").value == "3, two"
    # after a visit to another page, the text and its message are still there
    at.switch_page("pages/your_data.py").run()
    at.switch_page("pages/playground.py").run()
    assert at.text_input(key="pg_pool_text").value == "3, two"
    assert any("not a number" in e.value for e in at.error)
    at.text_input(key="pg_pool_text").input("3").run()  # fixed: the message goes
    assert not any("not a number" in e.value for e in at.error)
    assert at.session_state["pg"].unretrieved == (3,)


@pytest.mark.parametrize("typed, shown", [("3, 2", "3, 2"), (" 2 , 2 ", "2, 2"), ("2,", "2")])
def test_the_pool_box_always_shows_the_pool_the_ideal_uses(typed, shown):
    """The 2,000-action monkey once found the box empty after page switches while IDCG
    still used the pool: the box is now set from the state on every run."""
    at = open_playground()
    at.text_input(key="pg_pool_text").input(typed).run()
    pool = at.session_state["pg"].unretrieved
    for page in ("pages/your_data.py", "pages/beyond.py", "pages/practice.py"):
        at.switch_page(page).run()
        assert not at.exception
    at.switch_page("pages/playground.py").run()
    assert at.text_input(key="pg_pool_text").value == shown
    assert metrics(at)["IDCG@6"] == round(nc.idcg(DEFAULT + list(pool), k=6), 3)


def test_editing_a_grade_keeps_the_order():
    """Regrading Doc D to 3 in the editor keeps every item where it was. The editor's rows
    stay in the order the items were made (A..F), whatever the ranking: row 3 is Doc D."""
    at = open_playground()
    at.button(key="pg_btn_reverse").click().run()  # a user order: F E D C B A
    editor_df = next(df.value for df in at.dataframe if "item" not in df.value.columns)
    assert editor_df["label"].tolist() == ["Doc A", "Doc B", "Doc C", "Doc D", "Doc E", "Doc F"]
    at.session_state[editor_key(at)] = {
        "edited_rows": {3: {"grade": 3}}, "added_rows": [], "deleted_rows": []}
    at.run()
    pg = at.session_state["pg"]
    assert pg.labels == ("Doc F", "Doc E", "Doc D", "Doc C", "Doc B", "Doc A",)
    assert pg.grades == (2, 1, 3, 3, 2, 3,)  # Doc D (third in the ranking) went from 0 to 3
    # every grade edit is confirmed (the grid turns typed letters into 0: never silently)
    assert [t.value for t in at.toast] == ["Grade changed: Doc D 0 → 3"]
    assert metrics(at)["NDCG@6"] == round(nc.ndcg(pg.grades), 3)


def test_adding_and_removing_rows_through_the_editor():
    at = open_playground()
    at.session_state[editor_key(at)] = {
        "edited_rows": {}, "added_rows": [{"label": "Doc G", "grade": 3}],
        "deleted_rows": [0]}
    at.run()
    pg = at.session_state["pg"]
    assert pg.labels == ("Doc B", "Doc C", "Doc D", "Doc E", "Doc F", "Doc G",)
    assert metrics(at)["NDCG@6"] == round(nc.ndcg([2, 3, 0, 1, 2, 3]), 3)


def test_a_cleared_grade_is_refused_and_the_old_grade_stays():
    """A blank grade is refused with a message at once; the old grade and every row stay."""
    at = open_playground()
    at.session_state[editor_key(at)] = {
        "edited_rows": {2: {"grade": None}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("Doc C" in e.value and "a grade is needed" in e.value for e in at.error)
    assert at.session_state["pg"].grades == S.DEFAULT_GRADES
    assert metrics(at)["NDCG@6"] == 0.961


def test_query_params_restore_a_shared_ranking():
    """A copied link reopens the same ranking, k and gain."""
    params = S.ranking_query_params(["x", "y", "z"], [1, 3, 2], k=2, gain="exponential")
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


def plotly_figures(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array) -> list[float]:
    """A Plotly data array, plain or binary-packed ({"bdata": base64, "dtype": ...})."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def test_charts_tab_draws_contributions_and_the_ndcg_curve_only_when_open():
    """The charts are built when their tab is open, and then show the engine's numbers:
    at k = 4 the bars are 3/log2(2), 2/log2(3), 3/log2(4), 0/log2(5), ... against the
    ideal 3/log2(2), 3/log2(3), 2/log2(4), 2/log2(5), ..., and the curve is NDCG@k for
    k = 1..6 under both gains."""
    at = open_playground(S.ranking_query_params(S.DEFAULT_LABELS, S.DEFAULT_GRADES, k=4))
    assert not at.get("plotly_chart") and dcg_table(at) is not None  # tables tab by default
    at.session_state["pg_view"] = "Charts"
    at.run()
    assert not at.exception
    assert not [d for d in at.dataframe if "item" in d.value.columns]  # tables not built
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
    editor drops the scale's step (which would show "1") and says which item is off."""
    at = open_playground(S.ranking_query_params(["x", "y"], [1.5, 0], scale="free"))
    assert at.session_state["pg"].grades == (1.5, 0,)
    at.selectbox(key="pg_scale").set_value("binary").run()
    assert any("Outside the binary (0/1) scale: x (1.5)" in w.value for w in at.warning)
    editor = next(d for d in at.dataframe if "item" not in d.value.columns)
    # grades are typed as text and checked by the app: the grid never rounds or clamps them
    assert json.loads(editor.proto.columns)["grade"]["type_config"]["type"] == "text"
    assert editor.value["grade"].tolist() == ["1.5", "0"]
    at.session_state["pg"], refused = S.apply_edits(at.session_state["pg"],
                                                    {"edited_rows": {0: {"grade": 1}}})
    assert refused == []
    at.run()
    assert not any("Outside" in w.value for w in at.warning)
