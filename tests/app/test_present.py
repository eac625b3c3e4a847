"""Presenter view (issue 25): ``?present=1`` and the sidebar switch turn it on, it stays on
from page to page, and every link the app makes while it is on carries ``present=1``."""

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from lab import playground as P
from page_tests import APP
from ui import present, ranking_table


def open_app(params: dict | None = None, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception
    return at


def param(at: AppTest, name: str):
    value = at.query_params.get(name)
    return value[-1] if isinstance(value, list) and value else value


def values(at: AppTest, name: str) -> list:
    value = at.query_params.get(name)
    return [] if value is None else value if isinstance(value, list) else [value]


def test_a_present_link_turns_the_view_on():
    at = open_app({"present": "1"})
    assert at.session_state["present"] is True
    assert at.toggle(key="present_switch").value is True
    assert param(at, "present") == "1"


def test_without_the_parameter_the_view_is_off():
    at = open_app()
    assert at.session_state["present"] is False
    assert at.toggle(key="present_switch").value is False
    assert "present" not in at.query_params


def test_the_switch_turns_the_view_on_and_off_and_the_address_follows():
    at = open_app()
    at.toggle(key="present_switch").set_value(True).run()
    assert at.session_state["present"] is True
    assert param(at, "present") == "1"
    at.toggle(key="present_switch").set_value(False).run()
    assert at.session_state["present"] is False
    assert "present" not in at.query_params


def test_the_view_stays_on_from_page_to_page():
    """(AppTest lists no sidebar widget after switch_page: the browser test reads the
    switch on every page.)"""
    at = open_app({"present": "1"})
    for page in ("pages/worked_examples.py", "pages/cutoffs.py", "pages/playground.py"):
        at.switch_page(page).run()
        assert not at.exception
        assert at.session_state["present"] is True, page
        assert param(at, "present") == "1", page


def test_present_combines_with_a_playground_link():
    """A playground link with present=1 opens that ranking, in the presenter view, and the
    address the page writes keeps both."""
    at = open_app({"l": ["One", "Two", "Three"], "g": "1,3,0", "k": "2", "present": "1"})
    pg = at.session_state["pg"]
    assert list(pg.labels) == ["One", "Two", "Three"] and list(pg.grades) == [1, 3, 0]
    assert at.session_state["present"] is True
    assert param(at, "present") == "1" and param(at, "g") == "1,3,0"
    back, problem = P.from_query_params(lambda n: values(at, n))
    assert problem is None and back.labels == pg.labels and back.grades == pg.grades


def test_the_playground_address_drops_present_when_the_view_is_turned_off():
    at = open_app({"g": "1,3,0", "present": "1"})
    at.toggle(key="present_switch").set_value(False).run()
    assert "present" not in at.query_params
    assert param(at, "g") == "1,3,0"


@pytest.mark.parametrize("on", [True, False])
def test_share_links_carry_present_while_it_is_on(on):
    at = open_app({"present": "1"} if on else {})
    at.query_params["ex"] = "compute/easy/4"
    at.switch_page("pages/practice.py").run()
    at.button(key="share_px").click().run()  # the link is drawn in Share's dialog
    codes = [c.value for c in at.code if "/practice?" in c.value]
    assert codes, [c.value for c in at.code]
    assert all(c.endswith("&present=1") == on for c in codes), codes
    at.switch_page("pages/worked_examples.py").run()
    next(b for b in at.button if str(b.key).startswith("share_")).click().run()
    links = [c.value for c in at.code if "/worked_examples?" in c.value]
    assert links and all(("present=1" in c) == on for c in links), links


def test_the_worked_examples_tables_are_static_tables_in_the_presenter_view():
    """A data grid draws its text on a canvas at the theme's size; in the presenter view
    the lessons' tables are static tables (ui/present.css sets them at 20 px)."""
    on = open_app({"present": "1"}, page="pages/worked_examples.py")
    off = open_app(page="pages/worked_examples.py")
    assert not on.dataframe and len(on.table) == len(off.dataframe)
    first = on.table[0].value
    assert list(first.columns[:3]) == ["pos.", "item", "grade"]
    assert list(first["item"])[:2] == ["Doc A", "Doc B"]


def test_a_static_table_escapes_text_and_keeps_three_decimals():
    styler = present.as_table(
        pd.DataFrame({"item": ["[x](https://evil.example)"], "v": [2 / 3]}), {})
    html = styler.to_html()
    assert "0.667" in html and "](" not in html.replace("\\](", "")


def test_the_table_refuses_an_unknown_size():
    with pytest.raises(ValueError, match="size must be one of normal, present"):
        ranking_table._size("huge")
