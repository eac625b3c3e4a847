"""The playground's widgets follow its state after a trip to another page."""

from dataclasses import replace
from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground_events import metrics

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_gain_radio_matches_the_state_after_visiting_another_page():
    """Exponential gain set on the playground is still shown (and used) after a lesson."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="pg_gain").set_value("exponential").run()
    at.switch_page("pages/beyond.py").run()
    at.switch_page("pages/playground.py").run()
    assert not at.exception
    assert at.radio(key="pg_gain").value == "exponential"
    assert metrics(at)["NDCG@6"] == 0.949


def test_a_lesson_changing_the_shared_gain_moves_the_radio_too():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.session_state["pg"] = replace(at.session_state["pg"], gain="exponential")
    at.run()
    assert at.radio(key="pg_gain").value == "exponential"
    assert metrics(at)["NDCG@6"] == 0.949


def test_k_slider_matches_the_state_after_a_lesson_changes_k():
    """The Gain lesson's k slider moves the shared cutoff; the playground's slider follows."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.slider(key="pg_k").set_value(5).run()
    at.session_state["pg"] = replace(at.session_state["pg"], k=2)
    at.run()
    assert at.slider(key="pg_k").value == 2
    assert "NDCG@2" in metrics(at)


def test_a_stale_url_from_an_earlier_move_does_not_undo_the_latest_move():
    """A rerun whose URL still holds an older published ranking keeps the newest state."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    old = dict(at.query_params)  # the URL the browser holds before the next moves arrive
    at.button(key="pg_btn_ideal").click().run()
    at.button(key="pg_btn_reverse").click().run()
    newest = at.session_state["pg"].labels
    for key, value in old.items():  # the browser sends the lagging URL with a rerun
        at.query_params[key] = value
    at.run()
    assert at.session_state["pg"].labels == newest

