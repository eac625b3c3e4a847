"""The common-mistakes lesson (pages/mistakes.py): one mistake per screen, its wrong figure
beside the right one as lab.mistakes computes them, the real case, and "Open in playground"
with the settings that show it; the same figures in 中文."""

from __future__ import annotations

import pytest

from lab import mistakes as M
from lab.text import escape_markdown, fmt
from page_tests import assert_same_figures_in_both_languages, chinese, metrics, page

PATH = "pages/mistakes.py"


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


@pytest.mark.parametrize(("key", "grades", "pool", "k", "gain"), [
    ("retrieved_ideal", (3, 2, 3, 0, 1, 2), (3, 2), 4, "linear"),
    ("linear_for_exponential", (3, 2, 3, 0, 1, 2), (3, 2), 4, "exponential"),
    ("negative_grades", (3, 2, 3, -1, 1, 2), (3, 2), 4, "linear"),
    ("zero_query_one", (0, 0, 0, 0), (), 4, "linear"),
])
def test_open_in_playground_loads_the_settings_that_show_the_mistake(key, grades, pool, k,
                                                                      gain):
    at = page(PATH)
    at.session_state["mk_step"] = M.KEYS.index(key)
    at.run()
    at.button(key=f"mk_open_{key}").click().run()
    assert not at.exception
    pg = at.session_state["pg"]
    assert (pg.grades, pg.unretrieved, pg.k, pg.gain) == (grades, pool, k, gain)


def test_in_chinese_the_same_figures_and_chinese_words():
    zh = assert_same_figures_in_both_languages(PATH)
    assert chinese(zh.header[0].value) and chinese(zh.metric[1].label)
    assert chinese(zh.button(key="mk_next").label)
