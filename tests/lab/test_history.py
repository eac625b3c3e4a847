"""lab.history: push, undo, redo, the bound, redo cleared by a new change, and the
browser's Back/Forward as a visit (issue 25)."""

import pytest
from hypothesis import given, strategies as st

from lab import playground as P
from lab.history import LIMIT, History


def test_push_undo_redo_walk_the_steps_in_order():
    h = History("a").push("b").push("c")
    assert (h.present, h.past, h.future) == ("c", ("a", "b"), ())
    assert h.can_undo and not h.can_redo
    h = h.undo()
    assert (h.present, h.past, h.future) == ("b", ("a",), ("c",))
    h = h.undo()
    assert (h.present, h.can_undo, h.can_redo) == ("a", False, True)
    assert h.undo() is h  # nothing to undo: the same history
    h = h.redo().redo()
    assert (h.present, h.can_redo) == ("c", False)
    assert h.redo() is h


def test_a_change_equal_to_the_present_is_not_a_step():
    h = History("a").push("b")
    assert h.push("b") is h


def test_a_new_change_after_an_undo_clears_redo():
    h = History("a").push("b").push("c").undo().undo().push("d")
    assert (h.past, h.present, h.future) == (("a",), "d", ())
    assert not h.can_redo


def test_the_history_keeps_at_most_limit_steps_dropping_the_oldest():
    h = History(0)
    for n in range(1, 251):
        h = h.push(n)
    assert len(h.past) == LIMIT == 100
    assert h.past[0] == 250 - LIMIT and h.past[-1] == 249
    for _ in range(500):
        h = h.undo()
    assert h.present == 150 and h.future[-1] == 250


@pytest.mark.parametrize("limit", [0, -1, 1.5, None])
def test_a_limit_below_one_step_is_refused(limit):
    with pytest.raises(ValueError, match="limit must be a whole number of steps"):
        History("a", limit=limit)


def test_visit_moves_to_the_nearest_state_held_else_records_a_step():
    h = History("a").push("b").push("c")
    assert h.visit("c") is h
    back = h.visit("b")  # Back: an undo
    assert (back.present, back.future) == ("b", ("c",))
    assert back.visit("c") == h  # Forward: a redo
    jump = h.visit("a")  # the history menu, two entries back
    assert (jump.present, jump.future) == ("a", ("b", "c"))
    new = back.visit("z")  # an address the history does not hold: a new step
    assert (new.past, new.present, new.future) == (("a", "b"), "z", ())


def test_visit_compares_playgrounds_by_their_link_and_keeps_the_stored_ids():
    """A state read from the address has fresh ids (i0, i1, ...): the history's own state,
    with the ids the table drew, comes back."""
    start = P.make(["A", "B", "C"], [3, 2, 1], k=3)
    added = P.apply_event(P.apply_event(start, {"action": "add"}), {"action": "remove",
                                                                      "id": "i0"})
    moved = P.reorder(added, ["i3", "i2", "i1"])
    h = History(start).push(added).push(moved)
    from_link, _ = P.from_query_params(
        lambda name: ({name: v if isinstance(v, list) else [v]
                       for name, v in P.to_query_params(added).items()}).get(name, []))
    assert from_link != added  # its ids are i0, i1, i2
    back = h.visit(from_link, same=P.to_query_params)
    assert back.present is added and back.future == (moved,)


@given(st.lists(st.sampled_from(["push", "undo", "redo"]), max_size=60))
def test_undo_then_redo_returns_to_the_same_present(ops):
    h = History(0)
    for n, op in enumerate(ops, start=1):
        h = h.push(n) if op == "push" else getattr(h, op)()
    assert len(h.past) <= LIMIT
    if h.can_undo:
        assert h.undo().redo() == h
    if h.can_redo:
        assert h.redo().undo() == h
