"""The "Write it yourself" page's session state, and the Common mistakes page's link to one
mistake (``?mistake=<key>``). Part of :mod:`ui.state` (re-exported there: ``state.NAME``)."""

from __future__ import annotations

import streamlit as st

from lab import code_check as C
from lab import code_exercises as X
from lab import mistakes as M
from ui.state import MK_STEP

ss = st.session_state
__all__ = ["CX_EXERCISE", "CX_EDITOR", "CX_REPORT", "MISTAKE_PARAM", "code_init",
           "on_code_run", "code_report", "code_progress", "code_learner", "code_passed",
           "mistake_from_link"]

CX_EXERCISE, CX_EDITOR = "cx_exercise", "cx_editor"   # the chosen exercise; the editor
CX_REPORT = "cx_report"           # {exercise key: lab.code_check.Report} of this session
CX_PASSED = "cx_passed"           # {exercise key: the code that passed it} of this session
CX_LINKED = "cx_linked_mistake"   # the ?mistake= value already applied (then Next works)
MISTAKE_PARAM = "mistake"


def code_init():
    ss.setdefault(CX_EXERCISE, X.KEYS[0])
    ss.setdefault(CX_REPORT, {})


def _editor_state() -> dict:
    value = ss.get(CX_EDITOR)
    return value if isinstance(value, dict) else {}


def code_learner() -> str:
    """This browser's id (kept in its localStorage): the seed of its hidden cases."""
    learner = _editor_state().get("learner")
    return learner[:64] if isinstance(learner, str) else ""


def code_progress() -> set[str]:
    """The exercises passed in this browser (its localStorage) or this session."""
    stored = _editor_state().get("progress")
    known = {k for k in stored if k in X.KEYS} if isinstance(stored, list) else set()
    return known | {k for k, r in ss.get(CX_REPORT, {}).items() if r.all_passed}


def on_code_run():
    """Run the tests on the code the editor sent (the sandbox: lab.code_sandbox)."""
    code = _editor_state().get("code")
    if not isinstance(code, str):
        return
    key, code = ss[CX_EXERCISE], code[:100_000]
    report = C.check(key, code, seed=code_learner())
    ss[CX_REPORT] = {**ss.get(CX_REPORT, {}), key: report}
    if report.all_passed:
        ss[CX_PASSED] = {**ss.get(CX_PASSED, {}), key: code}


def code_passed(key: str) -> str | None:
    """The code that passed exercise ``key`` in this session, or None: evidence another page
    (the onboarding path) can store, and check again with lab.code_check.passes."""
    return ss.get(CX_PASSED, {}).get(key)


def code_report(key: str) -> C.Report | None:
    return ss.get(CX_REPORT, {}).get(key)


def mistake_from_link():
    """Open the mistake a link names (``?mistake=short_ideal``) once; Next and Previous then
    move on from it."""
    wanted = st.query_params.get(MISTAKE_PARAM)
    if wanted in M.KEYS and ss.get(CX_LINKED) != wanted:
        ss[CX_LINKED] = wanted
        ss[MK_STEP] = M.KEYS.index(wanted)
