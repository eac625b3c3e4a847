"""The exercises page's session state: its keys and their only writers. Part of
:mod:`ui.state` (re-exported there: pages call ``state.NAME``)."""

from __future__ import annotations

import streamlit as st

from lab.exercises import STEPS, Score
from lab.share import exercise_from_link
from ui.state import EXERCISE_PARAM, language  # defined before ui.state imports this

ss = st.session_state
__all__ = ["PX_NUMBER", "PX_LEVEL", "PX_KIND", "PX_SCORE", "PX_FEEDBACK", "PX_CHOICE",
           "PX_ANSWER", "practice_init", "practice_answers", "on_practice_clear",
           "on_practice_new", "practice_feedback", "practice_reveal"]

PX_NUMBER, PX_LEVEL, PX_KIND = "px_number", "px_level", "px_kind"
PX_SCORE, PX_FEEDBACK, PX_CHOICE = "px_score", "px_feedback", "px_choice"
PX_ANSWER = "px_{}"              # .format(step): the typed DCG / IDCG / NDCG


def practice_init() -> str | None:
    """The exercises page's state; on a session's first visit, the exercise a share link
    names (``?ex=compute/medium/5``). Returns a message when the link's exercise is refused."""
    problem = None
    if PX_NUMBER not in ss and st.query_params.get(EXERCISE_PARAM):
        try:
            ss[PX_KIND], ss[PX_LEVEL], ss[PX_NUMBER] = exercise_from_link(
                st.query_params[EXERCISE_PARAM], lang=language())
        except ValueError as e:
            problem = str(e)
    ss.setdefault(PX_NUMBER, 1)
    ss.setdefault(PX_LEVEL, "medium")
    ss.setdefault(PX_KIND, "compute")
    ss.setdefault(PX_SCORE, Score())
    return problem


def practice_answers() -> dict:
    return {s: ss.get(PX_ANSWER.format(s)) for s in STEPS}


def on_practice_clear():
    for step in STEPS:
        ss[PX_ANSWER.format(step)] = ""
    ss[PX_CHOICE] = None
    ss[PX_FEEDBACK] = None


def on_practice_new():
    ss[PX_NUMBER] = int(ss[PX_NUMBER]) + 1
    on_practice_clear()


def practice_feedback(exercise_id, feedback):
    ss[PX_FEEDBACK] = (exercise_id, feedback)
    if feedback.graded:
        ss[PX_SCORE].record(exercise_id, feedback.status == "correct")


def practice_reveal(exercise_id):
    ss[PX_SCORE].reveal(exercise_id)
    # the answers' messages belong to the exercise as typed, not to its solution
    ss[PX_FEEDBACK] = None
