"""The practice generator and checker (lab/exercises.py): reproducible exercises, difficulty
ranges, the ±0.001 tolerance, the first wrong step, and readable messages for bad input."""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc
from lab import exercises as E

NUMBERS = range(1, 61)


def answers(ex, **override):
    """Exact answers as typed text (full precision), with some steps replaced."""
    sol = E.solution(ex)
    typed = {s: repr(sol[s]) for s in E.STEPS}
    typed.update(override)
    return typed


@pytest.mark.parametrize("kind", E.KINDS)
@pytest.mark.parametrize("level", E.LEVELS)
def test_same_number_gives_the_same_exercise(kind, level):
    for number in (1, 2, 17, 999):
        assert E.generate(number, level, kind) == E.generate.__wrapped__(number, level, kind)


def test_different_numbers_give_different_exercises():
    seen = {E.generate(n, "medium", "compute").grades for n in NUMBERS}
    assert len(seen) > 50


@pytest.mark.parametrize("kind", E.KINDS)
@pytest.mark.parametrize("level", E.LEVELS)
def test_exercises_stay_within_their_level(kind, level):
    spec = E.LEVELS[level]
    for number in NUMBERS:
        ex = E.generate(number, level, kind)
        n = len(ex.grades)
        assert spec.lengths[0] <= n <= spec.lengths[1]
        assert all(0 <= g <= spec.max_grade for g in ex.grades + ex.other)
        assert ex.gain in spec.gains
        assert ex.k == n if not spec.cut else spec.min_k <= ex.k < n
        assert sum(g > 0 for g in ex.grades) >= 2  # IDCG > 0: NDCG is defined


def test_levels_grow_harder():
    longest = {lv: max(len(E.generate(n, lv).grades) for n in NUMBERS) for lv in E.LEVELS}
    assert longest["easy"] <= 4 < longest["medium"] <= 6 < longest["hard"]
    assert {E.generate(n, "easy").gain for n in NUMBERS} == {"linear"}
    assert {E.generate(n, "hard").gain for n in NUMBERS} == {"linear", "exponential"}


def test_hard_exercises_need_an_item_from_below_k_in_the_ideal():
    for number in NUMBERS:
        ex = E.generate(number, "hard")
        top_sorted = sorted(ex.grades[:ex.k], reverse=True)
        assert sorted(ex.grades, reverse=True)[:ex.k] != top_sorted


def test_compute_exercises_are_not_already_ideal():
    for level in E.LEVELS:
        for number in NUMBERS:
            assert E.solution(E.generate(number, level))["ndcg"] < 1


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_compare_winner_depends_on_the_gain(level):
    for number in range(1, 21):
        ex = E.generate(number, level, "compare")
        other = "exponential" if ex.gain == "linear" else "linear"
        a, b = (nc.ndcg(list(g), k=ex.k, gain=ex.gain) for g in (ex.grades, ex.other))
        a2, b2 = (nc.ndcg(list(g), k=ex.k, gain=other) for g in (ex.grades, ex.other))
        assert abs(a - b) >= 0.01
        assert (a > b) != (a2 > b2)
        assert sorted(ex.grades) == sorted(ex.other)  # the same items, reordered


def test_solution_is_ndcg_core():
    ex = E.generate(1, "medium")
    sol = E.solution(ex)
    g = list(ex.grades)
    assert sol["dcg"] == nc.dcg(g, k=ex.k, gain=ex.gain)
    assert sol["idcg"] == nc.idcg(g, k=ex.k, gain=ex.gain)
    assert sol["ndcg"] == pytest.approx(sol["dcg"] / sol["idcg"])


def test_generate_rejects_bad_arguments():
    with pytest.raises(ValueError, match="level must be one of"):
        E.generate(1, "expert")
    with pytest.raises(ValueError, match="kind must be one of"):
        E.generate(1, "easy", "essay")
    with pytest.raises(ValueError, match="whole number ≥ 1"):
        E.generate(0)


# ------------------------------------------------------------------ tolerance

@pytest.mark.parametrize("step", E.STEPS)
@pytest.mark.parametrize("offset, accepted", [(0.0009, True), (-0.0009, True),
                                              (0.0011, False), (-0.0011, False)])
def test_tolerance_boundary(step, offset, accepted):
    ex = E.generate(3, "medium")
    exact = E.solution(ex)[step]
    fb = E.check(ex, answers(ex, **{step: repr(exact + offset)}))
    assert fb.status == ("correct" if accepted else "wrong")
    assert fb.wrong_step == (None if accepted else step)


def test_close_is_plus_minus_0_001():
    assert E.TOLERANCE == 0.001
    assert E.close(0.5 + 0.0009, 0.5) and E.close(0.5 - 0.001, 0.5)
    assert not E.close(0.5 + 0.0011, 0.5)


def test_three_decimals_rounded_are_accepted():
    for number in NUMBERS:
        ex = E.generate(number, "hard")
        sol = E.solution(ex)
        assert E.check(ex, {s: f"{sol[s]:.3f}" for s in E.STEPS}).status == "correct"


# ------------------------------------------------------------------ first wrong step

def test_all_right_is_correct():
    ex = E.generate(5, "easy")
    fb = E.check(ex, answers(ex))
    assert fb.status == "correct" and fb.wrong_step is None and fb.graded


@pytest.mark.parametrize("wrong, named", [
    (("dcg",), "dcg"), (("idcg",), "idcg"), (("ndcg",), "ndcg"),
    (("dcg", "idcg"), "dcg"), (("idcg", "ndcg"), "idcg"), (("dcg", "ndcg"), "dcg"),
    (("dcg", "idcg", "ndcg"), "dcg"),
])
def test_first_wrong_step_is_named_in_order(wrong, named):
    ex = E.generate(8, "medium")
    sol = E.solution(ex)
    fb = E.check(ex, answers(ex, **{s: repr(sol[s] + 0.25) for s in wrong}))
    assert fb.status == "wrong" and fb.wrong_step == named


def test_first_wrong_step_helper():
    expected = {"dcg": 1.0, "idcg": 2.0, "ndcg": 0.5}
    assert E.first_wrong_step(dict(expected), expected) is None
    assert E.first_wrong_step({**expected, "idcg": 2.5, "ndcg": 0.4}, expected) == "idcg"


def test_hint_spots_the_uncut_ideal():
    ex = E.generate(1, "hard")
    g = list(ex.grades)
    full = nc.idcg(g, gain=ex.gain)  # the ideal of the whole list, not cut at k
    fb = E.check(ex, answers(ex, idcg=repr(full)))
    assert fb.wrong_step == "idcg"
    assert "cut the ideal" in fb.hint


def test_hint_spots_the_other_gain():
    ex = next(e for e in (E.generate(n, "medium") for n in NUMBERS) if e.gain == "exponential")
    linear = nc.dcg(list(ex.grades), k=ex.k, gain="linear")
    fb = E.check(ex, answers(ex, dcg=repr(linear)))
    assert fb.wrong_step == "dcg" and "linear gain" in fb.hint


# ------------------------------------------------------------------ unreadable answers

@pytest.mark.parametrize("text, message", [
    ("", "nothing typed"), ("   ", "nothing typed"), (None, "nothing typed"),
    ("abc", "not a number"), ("1,5", "uses a comma"), ("0.5.1", "not a number"),
    ("1e999", "too large"), ("nan", "not a number"), ("inf", "not a number"),
    ("1_000", "not a number"),
])
def test_parse_explains_bad_input(text, message):
    with pytest.raises(ValueError, match=message):
        E.parse(text)


@pytest.mark.parametrize("text, value", [("0.972", 0.972), (" .5 ", 0.5), ("3", 3.0),
                                         ("+1.25", 1.25), ("1e-3", 0.001)])
def test_parse_reads_numbers(text, value):
    assert E.parse(text) == value


def test_unreadable_answers_are_not_graded():
    ex = E.generate(2, "medium")
    fb = E.check(ex, answers(ex, dcg="abc", ndcg="1,5"))
    assert fb.status == "invalid" and not fb.graded and fb.wrong_step is None
    assert set(fb.errors) == {"dcg", "ndcg"}


# ------------------------------------------------------------------ compare

def test_check_choice():
    ex = E.generate(4, "medium", "compare")
    sol = E.solution(ex)
    loser = "B" if sol["winner"] == "A" else "A"
    assert E.check_choice(ex, sol["winner"]).status == "correct"
    wrong = E.check_choice(ex, loser)
    assert wrong.status == "wrong" and "gain" in wrong.hint  # the loser wins with the other gain
    assert E.check_choice(ex, None).status == "invalid"
    assert math.isclose(sol["A"], nc.ndcg(list(ex.grades), k=ex.k, gain=ex.gain))


# ------------------------------------------------------------------ score and report

def test_score_counts_each_exercise_once():
    score = E.Score()
    score.record("a", False)
    score.record("a", True)   # right on the second try still counts
    score.record("a", True)
    score.reveal("b")
    score.record("b", True)   # right after opening the solution: not counted correct
    score.record("c", True)
    assert (score.correct, score.attempted) == (2, 3)


def test_report_names_the_step_and_escapes_typed_text():
    ex = E.generate(8, "medium")
    sol = E.solution(ex)
    wrong = E.report(ex, E.check(ex, answers(ex, idcg=repr(sol["idcg"] + 1))))
    assert wrong[0][0] == "error" and wrong[0][1].startswith(f"**IDCG@{ex.k} is off**")
    assert f"DCG@{ex.k} is right" in wrong[0][1]
    bad = E.report(ex, E.check(ex, answers(ex, dcg="**1** :red[x]")))
    assert bad[0][1].startswith(f"**DCG@{ex.k}**") and "\\*\\*1\\*\\*" in bad[0][1]
    assert "Nothing was graded" in bad[0][1]
