"""Undo, Redo and Back on the playground under AppTest (issue 25): the table's Undo and Redo
buttons (their events through the server's path; the browser test clicks them) walk the
states a move, a grade edit and a k change made, each restoring the table, the figures,
the formula, the settings and the address together; Back and Forward do the same."""

from pathlib import Path
from urllib.parse import urlencode

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc

from lab import playground as P
from playground_events import fire, formula_data, item_id, labels, metrics, table_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LABELS = list(P.DEFAULT_LABELS)


def open_playground() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def shows(at, order, grades, k, *, address=True):
    """Table, figures, formula, k's slider and the address all say this state."""
    assert not at.exception
    assert labels(at) == order
    assert [r["grade"] for r in table_data(at)["rows"]] == grades
    ndcg = nc.ndcg(grades, k=k)
    assert metrics(at)[f"NDCG@{k}"] == round(ndcg, 3)
    f = formula_data(at)
    assert (f["k"], f["grades"]) == (k, [P.fmt_grade(g) for g in grades])
    assert f["ideal"] == [P.fmt_grade(g) for g in sorted(grades, reverse=True)]
    assert f["figures"]["linear"]["ndcg"] == pytest.approx(ndcg)
    assert at.slider(key="pg_k").value == k
    if not address:
        return
    qp = {name: v if isinstance(v, list) else [v] for name, v in at.query_params.items()}
    assert qp["l"] == order and qp["g"] == [",".join(P.fmt_grade(g) for g in grades)]
    assert qp["k"] == [str(k)]


def buttons(at):
    """(Undo disabled, Redo disabled) as the table draws its two buttons."""
    flags = table_data(at)["history"]
    return not flags["undo"], not flags["redo"]


def press(at, action):
    """The table's Undo or Redo button (or Ctrl+Z, Ctrl+Shift+Z): its event, reported as
    the browser reports it, through the page's own path (lab.table.receive with the
    playground's reduce)."""
    assert fire(at, {"action": action}) is None


def three_changes(at):
    """A move (Doc E to the top), a grade (Doc B: 2 -> 0) and k 6 -> 4."""
    ids = [it.id for it in at.session_state["pg"].items]
    fire(at, {"action": "move", "id": ids[4], "from": 5, "to": 1,
              "order": [ids[4]] + ids[:4] + ids[5:]})
    fire(at, {"action": "grade", "id": item_id(at, "Doc B"), "grade": 0})
    at.slider(key="pg_k").set_value(4).run()


S0 = (LABELS, [3, 2, 3, 0, 1, 2], 6)
S1 = (["Doc E", "Doc A", "Doc B", "Doc C", "Doc D", "Doc F"], [1, 3, 2, 3, 0, 2], 6)
S2 = (S1[0], [1, 3, 0, 3, 0, 2], 6)
S3 = (S1[0], [1, 3, 0, 3, 0, 2], 4)


def test_undo_and_redo_buttons_walk_back_and_forth_through_every_change():
    """Disabled with nothing to undo or redo; three undos return to the opening ranking,
    two redos come back, each state whole (table, figures, formula, slider, address)."""
    at = open_playground()
    shows(at, *S0)
    assert buttons(at) == (True, True)
    three_changes(at)
    shows(at, *S3)
    assert buttons(at) == (False, True)
    for expected in (S2, S1, S0):
        press(at, "undo")
        shows(at, *expected)
    assert buttons(at) == (True, False)
    for expected in (S1, S2):
        press(at, "redo")
        shows(at, *expected)
    assert buttons(at) == (False, False)


def test_a_new_change_after_undo_clears_redo():
    at = open_playground()
    three_changes(at)
    press(at, "undo")
    press(at, "undo")
    shows(at, *S1)
    at.radio(key="pg_gain").set_value("exponential").run()
    assert buttons(at) == (False, True)
    press(at, "undo")
    shows(at, *S1)
    assert at.radio(key="pg_gain").value == "linear"


def test_presets_reset_and_settings_are_steps_too():
    """Ideal, Reset, the gain and the judged pool: one undo each."""
    at = open_playground()
    at.button(key="pg_btn_ideal").click().run()
    at.text_input(key="pg_unretrieved_text").input("3, x").run()
    assert at.error  # refused where it was typed: no step
    at.text_input(key="pg_unretrieved_text").input("3, 1").run()
    at.radio(key="pg_gain").set_value("both").run()
    at.button(key="pg_btn_reset").click().run()
    assert at.session_state["pg"] == P.default()
    press(at, "undo")
    pg = at.session_state["pg"]
    assert (pg.gain, pg.unretrieved, pg.grades) == ("both", (3.0, 1.0), (3, 3, 2, 2, 1, 0))
    press(at, "undo")
    assert at.session_state["pg"].gain == "linear"
    press(at, "undo")
    assert at.text_input(key="pg_unretrieved_text").value == ""
    assert at.session_state["pg"].unretrieved == ()
    press(at, "undo")
    shows(at, *S0)


def back_to(at, state):
    """The browser's Back (or Forward) to the entry of ``state``: Streamlit's rerun with that
    address (the page keeps its state and leaves the address: it cannot tell it from one
    that lags), then the table's "visit" event with it, through the page's own path
    (lab.table.receive with the playground's reduce)."""
    order, grades, k = state
    params = P.to_query_params(P.make(order, grades, k=k))
    at.query_params.clear()
    at.query_params.update(params, lang="en")
    shown = labels(at), at.session_state["pg"]
    at.run()
    assert (labels(at), at.session_state["pg"]) == shown  # the same state, not written over
    assert dict(at.query_params)["g"] == params["g"]
    assert fire(at, {"action": "visit", "query": "?" + urlencode(params, doseq=True)}) is None


def test_the_buttons_words_in_both_languages():
    en, zh = (AppTest.from_file(APP, default_timeout=60) for _ in range(2))
    en.run()
    zh.query_params["lang"] = "zh"
    zh.run()
    words = [(table_data(at)["labels"]["undo"], table_data(at)["labels"]["redo"])
             for at in (en, zh)]
    assert words == [("Undo", "Redo"), ("撤销", "重做")]


def test_back_and_forward_show_the_state_of_the_entry_and_the_buttons_follow():
    at = open_playground()
    three_changes(at)
    for expected, enabled in ((S2, (False, False)), (S1, (False, False)),
                              (S2, (False, False)), (S3, (False, True))):
        back_to(at, expected)
        shows(at, *expected)
        assert buttons(at) == enabled


def test_an_address_this_session_wrote_before_is_not_news():
    """A rerun that carries an old address of this session (it lags a move) keeps the
    state: only the table's "visit" event (Back, Forward) goes back."""
    at = open_playground()
    three_changes(at)
    at.query_params.clear()
    at.query_params.update(P.to_query_params(P.make(*S1[:2], k=6)))
    at.run()
    shows(at, *S3, address=False)  # the browser has S3's address already: not written again
    press(at, "undo")
    shows(at, *S2)  # a change is written


def test_back_writes_no_address_over_the_entry_it_went_to():
    """Back's "visit" event may reach the server in a rerun that still carries the address
    from before (S3's: the browser had not told it yet). The state becomes the entry's (S2)
    and no address is written: the browser is on S2's entry already, and a write arriving
    after the user's next Back would become an entry of its own (Back twice then stayed on
    S2). The next change is written as usual."""
    at = open_playground()
    three_changes(at)
    before = dict(at.query_params)  # S3's
    params = P.to_query_params(P.make(*S2[:2], k=S2[2]))
    assert fire(at, {"action": "visit", "query": "?" + urlencode(params, doseq=True)}) is None
    shows(at, *S2, address=False)
    assert dict(at.query_params) == before
    at.run()  # a rerun of the charts and the link: still nothing written
    assert dict(at.query_params) == before
    press(at, "undo")
    shows(at, *S1)


def test_a_rerun_from_the_page_as_drawn_before_back_does_not_set_k_back():
    """Back from S3 (k = 4) to S2 sets k's slider to 6. A rerun the browser asked for before
    it drew that answer (the charts' rerun, a button, another setting) carries the slider
    as it showed it, 4, and the setting of the row it had drawn: k stays 6. The same 4 sent
    from the page as drawn now is the user's change, and is applied."""
    at = open_playground()
    three_changes(at)
    before = at.number_input(key="pg_settings_drawn").value  # what the page had drawn
    back_to(at, S2)
    shows(at, *S2)
    at.number_input(key="pg_settings_drawn").set_value(before)
    at.slider(key="pg_k").set_value(4).run()
    shows(at, *S2)
    at.slider(key="pg_k").set_value(4).run()
    shows(at, *S3)
