"""The common-mistakes lesson (pages/mistakes.py): one mistake per screen, its wrong figure
beside the right one as lab.mistakes computes them, the real case, and "Open in playground"
with the settings that show it; the same figures in 中文."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab import mistakes as M
from lab import playground as P
from lab.text import escape_markdown, fmt
from page_tests import assert_same_figures_in_both_languages, chinese, metrics, page
from playground_events import formula_data, table_data

PATH = "pages/mistakes.py"
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def at():
    return page(PATH)


def shown(at) -> list[str]:
    return [m.value for m in at.metric]


def test_each_mistake_shows_the_right_and_the_wrong_figure_and_their_difference(at):
    """Next walks through all of them; each screen names its mistake and its real case."""
    at.session_state["mk_step"] = 0
    at.run()
    for i, key in enumerate(M.KEYS):
        right, wrong = M.figures(key)
        assert shown(at) == [fmt(right), fmt(wrong), f"{wrong - right:+.3f}"], key
        assert at.header[0].value == M.name(key)
        assert any(escape_markdown(M.case(key)) in md.value for md in at.markdown)
        if i < len(M.KEYS) - 1:
            at.button(key="mk_next").click().run()
            assert not at.exception
    assert at.button(key="mk_next").disabled


def test_the_running_example_is_wikipedias_with_two_unfound_documents(at):
    at.session_state["mk_step"] = 0
    at.run()
    assert metrics(at) == {"Right NDCG@4": "0.794", "With this mistake": "0.853",
                           "Difference": "+0.059"}
    assert "[3, 2, 3, 0, 1, 2]" in at.caption[0].value


def test_the_menu_picks_a_mistake(at):
    at.selectbox(key="mk_step").set_value(M.KEYS.index("zero_query_averaged")).run()
    assert metrics(at)["Right mean NDCG@4"] == "0.794"     # the all-zero query left out
    assert metrics(at)["With this mistake"] == "0.397"     # scored 0 and averaged


@pytest.mark.parametrize("key", M.KEYS)
def test_open_in_playground_shows_the_mistakes_number(key):
    """Every mistake's button opens the playground with its setting on: the link carries
    it, and the table's NDCG (and the formula's) is the mistake's number in the catalogue."""
    at = page(PATH)
    at.session_state["mk_step"] = M.KEYS.index(key)
    at.run()
    at.button(key=f"mk_open_{key}").click().run()
    assert not at.exception
    want = M.playground(key)
    pg = at.session_state["pg"]
    assert (pg.grades, pg.unretrieved, pg.k, pg.gain, pg.rules) == (
        want["grades"], want["unretrieved"], want["k"], want["gain"], want["rules"])
    # the link the playground reads (and writes back) carries the same state
    def get_all(name):
        value = at.query_params.get(name)
        return [] if value is None else list(value) if isinstance(value, list) else [value]
    link, problem = P.from_query_params(get_all, lang="en")
    assert problem is None and link.rules == want["rules"] and link.k == want["k"]
    value = M.playground_value(key)
    shown = table_data(at)["figures"][pg.gain]["ndcg"]
    assert shown == pytest.approx(value, abs=1e-12)
    assert formula_data(at)["figures"][pg.gain]["ndcg"] == pytest.approx(value, abs=1e-12)
    if "queries" not in M.example(key):   # the figure the lesson shows beside the right one
        assert value == pytest.approx(M.figures(key)[1])
    if pg.rules.changed:          # said where the figures are read
        assert any("Mistake settings on" in w.value for w in at.warning)


def test_short_ideal_opens_at_k_8_with_6_items_as_the_catalogue_states_it():
    at = page(PATH)
    at.session_state["mk_step"] = M.KEYS.index("short_ideal")
    at.run()
    at.button(key="mk_open_short_ideal").click().run()
    data = table_data(at)
    assert (data["k"], len(data["rows"])) == (8, 6)
    assert round(data["figures"]["linear"]["ndcg"], 3) == 0.785   # mlflow's k = len(list)
    assert at.slider(key="pg_k").value == 8 and at.slider(key="pg_k").max == 8


def test_switching_the_setting_back_shows_the_right_number():
    """The mistake's link, then its setting turned back in *Mistakes*: the right number."""
    want = M.playground("discount_offset")
    params = P.ranking_query_params([f"D{i}" for i in range(6)], want["grades"], k=want["k"],
                                    gain=want["gain"], unretrieved=want["unretrieved"],
                                    rules=want["rules"])
    assert params["disc"] == "jarvelin" and set(params) == {"l", "g", "gain", "scale", "k",
                                                             "unretrieved", "disc"}
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert table_data(at)["figures"]["linear"]["ndcg"] == pytest.approx(
        M.playground_value("discount_offset"))
    at.selectbox(key="pg_rule_discount").set_value("log2").run()
    right, _ = M.figures("discount_offset")
    assert table_data(at)["figures"]["linear"]["ndcg"] == pytest.approx(right)
    assert not any("Mistake settings on" in w.value for w in at.warning)
    assert "disc" not in at.query_params     # the default is not written into the link


def test_in_chinese_the_same_figures_and_chinese_words():
    zh = assert_same_figures_in_both_languages(PATH)
    assert chinese(zh.header[0].value) and chinese(zh.metric[1].label)
    assert chinese(zh.button(key="mk_next").label)
