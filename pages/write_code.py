"""Write it yourself: write dcg, ndcg, ... in Python; the tests run in a sandbox
(lab/code_sandbox.py) and a failure names the catalogued mistake it reproduces
(lab/code_check.py). The exercises: lab/code_exercises.py; the words: lab/code_text.py."""

import streamlit as st

from lab import code_exercises as X, code_text as text
from lab.i18n import t
from ui import code_view, routing, state
from ui.code_editor import code_editor

routing.route_through_app(__file__)
state.code_init()
lang = state.language()
passed = state.code_progress()

st.title(t("Write it yourself", lang))
st.caption(t("Write each function in Python and press Run the tests. Your code runs on the "
             "server in a sandbox: no network, no files, a few seconds of CPU. When a test "
             "fails the way a known tool's bug does, you are told which.", lang))
st.selectbox(t("Exercise", lang), X.KEYS, key=state.CX_EXERCISE,
             format_func=lambda k: (("✓ " if k in passed else "")
                                    + f"{X.KEYS.index(k) + 1}. {text.title(k, lang)}"))
ex = X.exercise(st.session_state[state.CX_EXERCISE])
st.markdown(text.task(ex.key, lang))
work, result = st.columns([3, 2])   # the result beside the code, on one projector screen
with work:
    code_editor(exercise=ex.key, stub=ex.stub(), passed=sorted(passed), key=state.CX_EDITOR,
                on_run=state.on_code_run, lang=lang)
    st.caption(t("Tab indents; Esc then Tab leaves the editor.", lang))
with result:
    code_view.report(state.code_report(ex.key), ex, lang)
    code_view.visible_cases(ex, lang)
