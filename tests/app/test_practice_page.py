"""AppTest checks of the Exercises page: answers checked step by step, solutions, compare
exercises."""

from __future__ import annotations


import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import exercises as E
from page_tests import metrics, page

# ------------------------------------------------------------------ practice

def practice() -> tuple[AppTest, E.Exercise]:
    at = page("pages/practice.py")
    number = int(at.number_input(key="px_number").value)
    level, kind = at.radio(key="px_level").value, at.radio(key="px_kind").value
    return at, E.generate(number, level, kind)


def type_answers(at, values: dict):
    for step, text in values.items():
        at.text_input(key=f"px_{step}").input(text)
    at.button(key="px_check").click().run()
    assert not at.exception


def test_practice_accepts_a_correct_answer():
    at, ex = practice()
    g = list(ex.grades)
    right = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    type_answers(at, {s: f"{v:.3f}" for s, v in right.items()})
    assert "within ±0.001" in at.success[0].value
    assert metrics(at)["Score"] == "1 / 1"


@pytest.mark.parametrize("wrong, named", [("idcg", "IDCG"), ("dcg", "DCG"),
                                          ("ndcg", "NDCG")])
def test_practice_names_the_first_wrong_step(wrong, named):
    """Correct DCG but a wrong IDCG is reported as "IDCG@k is off", and so on."""
    at, ex = practice()
    g = list(ex.grades)
    typed = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    typed[wrong] += 0.5
    type_answers(at, {s: f"{v:.3f}" for s, v in typed.items()})
    assert at.error[0].value.startswith(f"**{named}@{ex.k} is off**")
    assert metrics(at)["Score"] == "0 / 1"


@pytest.mark.parametrize("text", ["", "abc", "1,5"])
def test_practice_bad_input_gets_a_message_and_stays(text):
    at, _ = practice()
    type_answers(at, {"dcg": text, "idcg": "1", "ndcg": "0.5"})
    assert at.error and "Nothing was graded" in at.error[0].value
    assert at.text_input(key="px_dcg").value == text
    assert metrics(at)["Score"] == "0 / 0"


def test_practice_new_exercise_and_solution():
    at, ex = practice()
    at.button(key="px_reveal").click().run()
    assert not at.exception and metrics(at)["Score"] == "0 / 1"
    at.button(key="px_new").click().run()
    assert at.number_input(key="px_number").value == ex.number + 1


def test_practice_compare_exercise():
    at = page("pages/practice.py")
    at.radio(key="px_kind").set_value("compare").run()
    ex = E.generate(1, "medium", "compare")
    at.radio(key="px_choice").set_value(E.solution(ex)["winner"])
    at.button(key="px_check").click().run()
    assert not at.exception and at.success and metrics(at)["Score"] == "1 / 1"
