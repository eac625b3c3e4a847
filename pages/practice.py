"""Practice: generated exercises, checked step by step (DCG, then IDCG, then NDCG), with a
running score. Prose: assets/lessons/07_practice.md; generator and checker: lab/exercises.py."""

import pandas as pd
import streamlit as st

from lab import exercises as X
from ui import lessons as L, routing, state, tables

LESSON = "07_practice"
GAIN_TEXT = {"linear": "linear gain (gain = grade)",
             "exponential": "exponential gain (gain = 2^grade − 1)"}
ICONS = {"error": ":material/close:", "success": ":material/check_circle:",
         "info": ":material/lightbulb:"}
ss = st.session_state

routing.route_through_app()
state.practice_init()


def current() -> X.Exercise:
    return X.generate(int(ss[state.PX_NUMBER]), ss.get(state.PX_LEVEL, "medium"),
                      ss.get(state.PX_KIND, "compute"))


def _check():
    ex = current()
    fb = (X.check(ex, state.practice_answers()) if ex.kind == "compute"
          else X.check_choice(ex, ss.get(state.PX_CHOICE)))
    state.practice_feedback(ex.id, fb)


def ranking(grades, labels):
    st.dataframe(pd.DataFrame({"position": range(1, len(grades) + 1), "item": labels,
                               "grade": grades}), hide_index=True, width="stretch")


L.header(LESSON)
L.section(LESSON, "intro")
L.section(LESSON, "how-checked")
a, b, c, d = st.columns([1.4, 1.6, 1, 1])
a.radio("Exercise", list(X.KINDS), format_func=X.KINDS.get, key=state.PX_KIND,
        on_change=state.on_practice_clear)
b.radio("Difficulty", list(X.LEVELS), index=1, horizontal=True, key=state.PX_LEVEL,
        on_change=state.on_practice_clear)
c.number_input("Exercise number", min_value=1, max_value=1_000_000, step=1,
               key=state.PX_NUMBER, on_change=state.on_practice_clear,
               help="The same number always gives the same exercise.")
score = ss[state.PX_SCORE]
d.metric("Score", f"{score.correct} / {score.attempted}", border=True,
         help="Each exercise counts once, as correct if you got it right before opening "
              "its solution.")

ex = current()
k = ex.k
st.subheader(f"Exercise {ex.number} · {ex.level}")
st.caption(X.LEVELS[ex.level].label)
st.markdown(f"Cutoff **k = {k}**, **{GAIN_TEXT[ex.gain]}**.")
with st.form("px_form", border=False):
    if ex.kind == "compute":
        left, right = st.columns(2)
        with left:
            ranking(ex.grades, ex.labels)
        for step in X.STEPS:
            right.text_input(f"{X.STEP_NAMES[step]}@{k}", key=state.PX_ANSWER.format(step),
                             placeholder="3 decimals, e.g. 0.972")
    else:
        left, right = st.columns(2)
        for col, name, grades, labels in ((left, "A", ex.grades, ex.labels),
                                          (right, "B", ex.other, ex.other_labels)):
            with col:
                st.markdown(f"**Ranking {name}**")
                ranking(grades, labels)
        st.radio(f"Which ranking has the higher NDCG@{k} under {ex.gain} gain?", X.CHOICES,
                 index=None, format_func=lambda c: f"Ranking {c}", horizontal=True,
                 key=state.PX_CHOICE)
    st.form_submit_button("Check", type="primary", on_click=_check, key="px_check")
b1, b2, _ = st.columns([1, 1, 3])
b1.button("New exercise", key="px_new", on_click=state.on_practice_new,
          icon=":material/refresh:", width="stretch")
b2.button("Show solution", key="px_reveal", on_click=state.practice_reveal, args=(ex.id,),
          icon=":material/visibility:", width="stretch")

saved = ss.get(state.PX_FEEDBACK)
fb = saved[1] if saved and saved[0] == ex.id else None
for level, text in X.report(ex, fb) if fb else []:
    getattr(st, level)(text, icon=ICONS[level])
if fb and fb.status == "wrong" and ex.kind == "compute":
    if fb.wrong_step == "ndcg":
        tables.formula(ex.grades, k=k, gain=ex.gain)
    else:
        ideal = fb.wrong_step == "idcg"
        st.caption(f"The correct {'ideal ordering' if ideal else 'table of your list'}: "
                   f"{X.STEP_NAMES[fb.wrong_step]}@{k} is its cumulative DCG at position {k}.")
        (tables.ideal_table if ideal else tables.ranking_table)(ex.grades, ex.labels, k=k,
                                                                 gain=ex.gain)

if ex.id in score.revealed:
    st.markdown("### Solution")
    for name, grades, labels in (("A", ex.grades, ex.labels), ("B", ex.other, ex.other_labels)):
        if not grades:
            continue
        if ex.kind == "compare":
            st.markdown(f"**Ranking {name}**")
        tables.dcg_tables(grades, labels, k=k, gain=ex.gain)
        tables.formula(grades, k=k, gain=ex.gain)
    routing.open_in_playground(ex.labels, ex.grades, k=k, gain=ex.gain, key="px_open")
L.section(LESSON, "tips")
