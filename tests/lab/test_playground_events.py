"""The ranking table's events folded into the playground (lab.playground.apply_event;
lab.table.receive with the playground's reduce, lab.table_events.reduce): what a learner's drag, grade, rename, remove and add
do to the shared ranking, and what is refused with which message."""

from __future__ import annotations

import pytest

from lab import grades, playground as P, table as T, table_events as E
from lab.history import History

PG = P.default()  # Doc A..F, grades 3, 2, 3, 0, 1, 2, scale 0-3, k = 6
IDS = [it.id for it in PG.items]


def test_a_move_puts_the_items_in_the_reported_order():
    """Doc D (i3) dragged to the top: D, A, B, C, E, F."""
    moved = P.apply_event(PG, {"action": "move", "order": [IDS[3]] + IDS[:3] + IDS[4:]})
    assert moved.labels == ("Doc D", "Doc A", "Doc B", "Doc C", "Doc E", "Doc F")
    assert moved.grades == (0, 3, 2, 3, 1, 2)


def test_a_grade_on_the_scale_is_applied_and_the_order_kept():
    graded = P.apply_event(PG, {"action": "grade", "id": IDS[3], "grade": 3})
    assert graded.grades == (3, 2, 3, 3, 1, 2) and graded.labels == PG.labels


@pytest.mark.parametrize("grade, problem", [
    (9, "9 is outside the scale: type a whole number from 0 to 3"),
    (-1, "-1 is outside the scale: type a whole number from 0 to 3"),
    (2.5, "2.5 is not a whole number: this scale takes a whole number from 0 to 3"),
    ("x", "'x' is not a number: type a whole number from 0 to 3"),
    (float("nan"), "'nan' is not a number: type a whole number from 0 to 3"),
    (None, "'None' is not a number: type a whole number from 0 to 3"),
])
def test_a_grade_off_the_scale_is_refused_and_says_the_old_grade_stays(grade, problem):
    """The state checks a reported grade with the ranking table's own rule and words."""
    with pytest.raises(ValueError) as refused:
        P.apply_event(PG, {"action": "grade", "id": IDS[1], "grade": grade})
    assert str(refused.value) == f"{problem}. The grade stays 2."


def test_the_free_scale_takes_any_finite_number():
    free = P.make(["x"], [1], scale="free")
    assert P.apply_event(free, {"action": "grade", "id": "i0", "grade": -2.5}).grades == (-2.5,)
    with pytest.raises(ValueError, match="^'inf' is not a number: type a number"):
        P.apply_event(free, {"action": "grade", "id": "i0", "grade": float("inf")})


def test_a_rename_is_cleaned_and_a_blank_one_names_the_item_by_position():
    renamed = P.apply_event(PG, {"action": "rename", "id": IDS[0], "label": "  New   name "})
    assert renamed.labels[0] == "New name"
    assert P.apply_event(PG, {"action": "rename", "id": IDS[2], "label": " "}).labels[2] == \
        "Item 3"


def test_remove_drops_the_item_but_never_the_last_one():
    assert P.apply_event(PG, {"action": "remove", "id": IDS[0]}).labels[0] == "Doc B"
    one = P.make(["x"], [1])
    with pytest.raises(ValueError, match="^The list needs at least one item"):
        P.apply_event(one, {"action": "remove", "id": "i0"})


def test_add_names_the_item_by_its_position_with_the_scales_lowest_grade():
    """Item 7, grade 0 (the 0-3 scale's minimum), a fresh id, at the end."""
    added = P.apply_event(PG, {"action": "add"})
    new = added.items[-1]
    assert (new.label, new.grade, new.id) == ("Item 7", 0, "i6")
    assert added.next_id == 7 and added.items[:6] == PG.items


def test_add_stops_at_the_most_items_a_playground_holds():
    full = P.make([f"x{i}" for i in range(grades.MAX_ITEMS)], [1] * grades.MAX_ITEMS)
    with pytest.raises(ValueError, match="^The list holds at most 200 items: remove one first.$"):
        P.apply_event(full, {"action": "add"})


def test_an_event_about_an_item_that_is_gone_changes_nothing():
    assert P.apply_event(PG, {"action": "grade", "id": "i99", "grade": 1}) is PG


def test_order_to_draw_follows_a_fresh_report_and_a_buttons_reorder():
    """The browser resends its last report: it is news only when a move fired or it
    changed; otherwise the caller's new order (a button) is drawn."""
    drew = T.TableSession("s", seen=("a", "b"), given=("a", "b"), drawn=("a", "b"))
    moved = T.Report(("b", "a"), ({"action": "move"},))
    assert T.order_to_draw(drew, ["a", "b"], moved) == ["b", "a"]
    assert T.order_to_draw(drew, ["b", "a"], T.Report(("a", "b"))) == ["b", "a"]
    # an item added: the old report (without it) is not news; the caller's list is drawn
    assert T.order_to_draw(drew, ["a", "b", "c"], T.Report(("a", "b"))) == ["a", "b", "c"]


def _report(*events, order=None, session="s"):
    numbered = [{**e, "seq": n, "instance": "page"} for n, e in enumerate(events, start=1)]
    return T.Report.parse({"order": order, "event": {"action": "batch", "events": numbered,
                                                     "session": session}})


def _drawn(pg):
    rows = tuple({"id": it.id, "label": it.label, "grade": it.grade} for it in pg.items)
    return T.TableSession("s", rows=rows, checks=T.Checks(grades.SCALES[pg.scale]),
                          drawn=tuple(r["id"] for r in rows), seen=None)


def test_one_drag_is_checked_reconciled_and_reduced_once_even_when_resent():
    """A move and its resend (the answer crossed it): the playground moves once, one step."""
    session, history = _drawn(PG), History(PG)
    ids = [it.id for it in PG.items]
    report = _report({"action": "move", "id": ids[3], "from": 4, "to": 1},
                     order=[ids[3]] + ids[:3] + ids[4:])
    session, history = T.receive(session, history, report, E.reduce)
    again, history_again = T.receive(session, history, report, E.reduce)
    assert history_again is history and again == session
    assert [it.id for it in history.present.items] == [ids[3]] + ids[:3] + ids[4:]
    assert len(history.past) == 1


def test_a_refused_grade_leaves_the_state_and_says_why_at_its_row():
    session, history = _drawn(PG), History(PG)
    row = PG.items[1].id
    session, after = T.receive(session, history, _report({"action": "grade", "id": row,
                                                          "grade": 9}), E.reduce)
    assert after is history
    assert session.refused[row].startswith("9 is outside the scale")


def test_events_of_an_expired_session_are_left_alone():
    session, history = _drawn(PG), History(PG)
    report = _report({"action": "remove", "id": PG.items[0].id}, session="old")
    assert T.receive(session, history, report, E.reduce) == (session, history)


def test_an_order_reported_without_its_trigger_is_taken_as_a_move():
    """A reconnect can lose the trigger, not the state: the reported order is news."""
    session, history = _drawn(PG), History(PG)
    ids = [it.id for it in PG.items]
    session, history = T.receive(session, history, T.Report(tuple(ids[::-1])), E.reduce)
    assert [it.id for it in history.present.items] == ids[::-1]
    # read once: the same report again is not news
    assert T.receive(session, history, T.Report(tuple(ids[::-1])), E.reduce)[1] is history


def test_undo_and_back_move_through_the_history():
    session, history = _drawn(PG), History(PG).push(P.make(["x"], [1]))
    session, history = T.receive(session, history, _report({"action": "undo"}), E.reduce)
    assert history.present == PG
