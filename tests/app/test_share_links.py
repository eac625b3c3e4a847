"""Share links: an exercise's link opens that exercise; a link that names no exercise says so
and shows exercise 1; the Share dialog holds the link as plain text."""

from streamlit.testing.v1 import AppTest

from page_tests import APP


def open_practice(ex: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    if ex is not None:
        at.query_params["ex"] = ex
    at.switch_page("pages/practice.py").run()
    assert not at.exception
    return at


def test_an_exercise_link_opens_that_exercise():
    at = open_practice("compare/hard/12")
    assert at.subheader[0].value == "Exercise 12 · hard"
    assert at.radio(key="px_kind").value == "compare"
    assert not at.warning


def test_a_link_to_no_exercise_says_so_and_shows_exercise_one():
    at = open_practice("compute/medium/[x](https://evil.example)")
    assert "is not one this page knows" in at.warning[0].value
    assert "](" not in at.warning[0].value.replace("\\](", "")  # escaped: no live link
    assert at.subheader[0].value == "Exercise 1 · medium"


def test_the_share_dialog_holds_the_exercises_link():
    """Share opens a dialog whose link (plain text, with a copy button) opens this
    exercise; before the press no link is drawn."""
    at = open_practice("compute/easy/4")
    assert not any("/practice?ex=" in c.value for c in at.code)
    at.button(key="share_px").click().run()
    codes = [c.value for c in at.code]
    assert any(c.endswith("/practice?ex=compute%2Feasy%2F4&lang=en") for c in codes), codes


def open_playground_link(params: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    return at


def test_a_playground_link_with_the_older_pool_parameter_opens_the_same_state():
    """``pool=`` (links written before it was named ``unretrieved=``) opens the state and
    figures ``unretrieved=`` opens, and the address bar then says ``unretrieved=``."""
    from playground_events import metrics
    params = {"l": ["x", "y", "z"], "g": "1,3,2", "k": "2", "gain": "linear", "scale": "0-3"}
    new = open_playground_link({**params, "unretrieved": "3,1"})
    old = open_playground_link({**params, "pool": "3,1"})
    assert old.session_state["pg"] == new.session_state["pg"]
    assert old.session_state["pg"].unretrieved == (3.0, 1.0)
    assert metrics(old) == metrics(new)
    assert old.text_input(key="pg_unretrieved_text").value == "3, 1"
    assert old.query_params["unretrieved"] in ("3,1", ["3,1"])
    assert "pool" not in old.query_params
    assert not old.warning
