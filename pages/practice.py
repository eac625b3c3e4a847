"""Practice: generated exercises, checked step by step (DCG, then IDCG, then NDCG), with a
running score. Prose: assets/lessons/07_practice.md; generator and checker: ui/exercises.py."""

import pandas as pd
import streamlit as st

from ui import exercises as E, lessons as L, playground as P

LESSON = "07_practice"
GAIN_TEXT = {"linear": "linear gain (gain = grade)",
             "exponential": "exponential gain (gain = 2^grade − 1)"}
ss = st.session_state
ss.setdefault("px_number", 1)
ss.setdefault("px_score", E.Score())


def current() -> E.Exercise:
    return E.generate(int(ss.px_number), ss.get("px_level", "medium"),
                      ss.get("px_kind", "compute"))


def _clear():
    for step in E.STEPS:
        ss[f"px_{step}"] = ""
    ss.px_choice = None
    ss.px_feedback = None


def _new():
    ss.px_number = int(ss.px_number) + 1
    _clear()


def _check():
    ex = current()
    fb = (E.check(ex, {s: ss.get(f"px_{s}") for s in E.STEPS}) if ex.kind == "compute"
          else E.check_choice(ex, ss.get("px_choice")))
    ss.px_feedback = (ex.id, fb)
    if fb.graded:
        ss.px_score.record(ex.id, fb.status == "correct")


def _reveal():
    ss.px_score.reveal(current().id)


def ranking(grades, labels):
    st.dataframe(pd.DataFrame({"position": range(1, len(grades) + 1), "item": labels,
                               "grade": grades}), hide_index=True, width="stretch")


L.header(LESSON)
L.section(LESSON, "intro")
L.section(LESSON, "how-checked")
a, b, c, d = st.columns([1.4, 1.6, 1, 1])
a.radio("Exercise", list(E.KINDS), format_func=E.KINDS.get, key="px_kind", on_change=_clear)
b.radio("Difficulty", list(E.LEVELS), index=1, horizontal=True, key="px_level",
        on_change=_clear)
c.number_input("Exercise number", min_value=1, max_value=1_000_000, step=1, key="px_number",
               on_change=_clear, help="The same number always gives the same exercise.")
d.metric("Score", f"{ss.px_score.correct} / {ss.px_score.attempted}", border=True,
         help="Each exercise counts once, as correct if you got it right before opening "
              "its solution.")

ex, k = current(), current().k
st.subheader(f"Exercise {ex.number} · {ex.level}")
st.caption(E.LEVELS[ex.level].label)
st.markdown(f"Cutoff **k = {k}**, **{GAIN_TEXT[ex.gain]}**.")
with st.form("px_form", border=False):
    if ex.kind == "compute":
        left, right = st.columns(2)
        with left:
            ranking(ex.grades, ex.labels)
        for step in E.STEPS:
            right.text_input(f"{E.STEP_NAMES[step]}@{k}", key=f"px_{step}",
                             placeholder="3 decimals, e.g. 0.972")
    else:
        left, right = st.columns(2)
        for col, name, grades, labels in ((left, "A", ex.grades, ex.labels),
                                          (right, "B", ex.other, ex.other_labels)):
            with col:
                st.markdown(f"**Ranking {name}**")
                ranking(grades, labels)
        st.radio(f"Which ranking has the higher NDCG@{k} under {ex.gain} gain?", E.CHOICES,
                 index=None, format_func=lambda c: f"Ranking {c}", horizontal=True,
                 key="px_choice")
    st.form_submit_button("Check", type="primary", on_click=_check, key="px_check")
b1, b2, _ = st.columns([1, 1, 3])
b1.button("New exercise", key="px_new", on_click=_new, icon=":material/refresh:",
          width="stretch")
b2.button("Show solution", key="px_reveal", on_click=_reveal, icon=":material/visibility:",
          width="stretch")

saved = ss.get("px_feedback")
fb = saved[1] if saved and saved[0] == ex.id else None
ICONS = {"error": ":material/close:", "success": ":material/check_circle:",
         "info": ":material/lightbulb:"}
for level, text in E.report(ex, fb) if fb else []:
    getattr(st, level)(text, icon=ICONS[level])
if fb and fb.status == "wrong" and ex.kind == "compute":
    if fb.wrong_step == "ndcg":
        P.formula(ex.grades, k=k, gain=ex.gain)
    else:
        ideal = fb.wrong_step == "idcg"
        st.caption(f"The correct {'ideal ordering' if ideal else 'table of your list'}: "
                   f"{E.STEP_NAMES[fb.wrong_step]}@{k} is its cumulative DCG at position {k}.")
        P.one_table(ex.grades, ex.labels, k=k, gain=ex.gain, ideal=ideal)

if ex.id in ss.px_score.revealed:
    st.markdown("### Solution")
    for name, grades, labels in (("A", ex.grades, ex.labels), ("B", ex.other, ex.other_labels)):
        if not grades:
            continue
        if ex.kind == "compare":
            st.markdown(f"**Ranking {name}**")
        P.dcg_tables(grades, labels, k=k, gain=ex.gain)
        P.formula(grades, k=k, gain=ex.gain)
    P.open_in_playground(ex.labels, ex.grades, k=k, gain=ex.gain, key="px_open")
L.section(LESSON, "tips")
