"""Practice: generated exercises, checked step by step (DCG, then IDCG, then NDCG), with a
running score. Prose: assets/lessons/07_practice.md; generator and checker: lab/exercises.py."""

import pandas as pd
import streamlit as st

from lab import exercises as X, mistakes as M, spot
from lab.i18n import t
from lab.text import gain_name
from ui import handouts, lessons as L, routing, share, state, tables

LESSON = "07_practice"
ICONS = {"error": ":material/close:", "success": ":material/check_circle:",
         "info": ":material/lightbulb:", "warning": ":material/bug_report:"}
ss = st.session_state

routing.route_through_app(__file__)
link_problem = state.practice_init()
lang = state.language()


def current() -> X.Exercise:
    return X.generate(int(ss[state.PX_NUMBER]), ss.get(state.PX_LEVEL, "medium"),
                      ss.get(state.PX_KIND, "compute"))


def _check():
    ex = current()
    lang = state.language()
    fb = (X.check(ex, state.practice_answers(), lang=lang) if ex.kind == "compute"
          else X.check_choice(ex, ss.get(state.PX_CHOICE), lang=lang))
    state.practice_feedback(ex.id, fb)


def gain_text(gain: str) -> str:
    return {"linear": t("linear gain (gain = grade)", lang),
            "exponential": t("exponential gain (gain = 2^grade − 1)", lang)}[gain]


def ranking(grades, labels):
    # headers translated for display only (the frame is the page's own, not the engine's)
    st.dataframe(pd.DataFrame({"position": range(1, len(grades) + 1), "item": labels,
                               "grade": grades}), hide_index=True, width="stretch",
                 column_config={"position": t("position", lang), "item": t("item", lang),
                                "grade": t("grade", lang)})


L.header(LESSON)
if link_problem:
    st.warning(link_problem, icon=":material/link_off:")
L.section(LESSON, "intro")
L.section(LESSON, "how-checked")
a, b, c, d = st.columns([1.4, 1.6, 1, 1])
a.radio(t("Exercise", lang), list(X.KINDS), format_func=lambda c: X.kind_label(c, lang=lang),
        key=state.PX_KIND, on_change=state.on_practice_clear)
b.radio(t("Difficulty", lang), list(X.LEVELS), horizontal=True, key=state.PX_LEVEL,
        format_func=lambda c: X.level_name(c, lang=lang), on_change=state.on_practice_clear)
c.number_input(t("Exercise number", lang), min_value=1, max_value=1_000_000, step=1,
               key=state.PX_NUMBER, on_change=state.on_practice_clear,
               help=t("The same number always gives the same exercise.", lang))
score = ss[state.PX_SCORE]
d.metric(t("Score", lang), f"{score.correct} / {score.attempted}", border=True,
         help=t("Each exercise counts once, as correct if you got it right before opening "
                "its solution.", lang))

ex = current()
k = ex.k
st.subheader(t("Exercise {number} · {level}", lang, number=ex.number,
               level=X.level_name(ex.level, lang=lang)))
st.caption(X.level_label(ex.level, lang=lang))
st.markdown(t("Cutoff **k = {k}**, **{gain}**.", lang, k=k, gain=gain_text(ex.gain)))
with st.form("px_form", border=False):
    if ex.kind == "compute":
        left, right = st.columns(2)
        with left:
            ranking(ex.grades, ex.labels)
        for step in X.STEPS:
            right.text_input(f"{X.STEP_NAMES[step]}@{k}", key=state.PX_ANSWER.format(step),
                             placeholder=t("3 decimals, e.g. 0.972", lang))
    elif ex.kind == "spot":
        ranking(ex.grades, ex.labels)
        st.caption(spot.unretrieved_caption(ex, lang))
        st.radio(spot.question(ex, lang), ex.options, index=None, key=state.PX_CHOICE,
                 format_func=lambda key: M.name(key, lang))
    else:
        left, right = st.columns(2)
        for col, name, grades, labels in ((left, "A", ex.grades, ex.labels),
                                          (right, "B", ex.other, ex.other_labels)):
            with col:
                st.markdown(t("**Ranking {name}**", lang, name=name))
                ranking(grades, labels)
        st.radio(t("Which ranking has the higher NDCG@{k} under {gain}?", lang, k=k,
                   gain=gain_name(ex.gain, lang=lang, long=True)), X.CHOICES,
                 index=None, format_func=lambda c: t("Ranking {name}", lang, name=c),
                 horizontal=True, key=state.PX_CHOICE)
    st.form_submit_button(t("Check", lang), type="primary", on_click=_check, key="px_check")
b1, b2, b3 = st.columns([1, 1, 3])
b1.button(t("New exercise", lang), key="px_new", on_click=state.on_practice_new,
          icon=":material/refresh:", width="stretch")
b2.button(t("Show solution", lang), key="px_reveal", on_click=state.practice_reveal,
          args=(ex.id,), icon=":material/visibility:", width="stretch")
with b3.container(horizontal=True, gap="small"):
    share.exercise(ex.id)
    handouts.worksheet(ex.level, ex.kind, ex.number)

saved = ss.get(state.PX_FEEDBACK)
fb = saved[1] if saved and saved[0] == ex.id else None
for level, text in X.report(ex, fb, lang=lang) if fb else []:
    getattr(st, level)(text, icon=ICONS[level])
if fb and fb.status == "wrong" and ex.kind == "compute":
    if fb.wrong_step == "ndcg":
        tables.formula(ex.grades, k=k, gain=ex.gain)
    else:
        ideal = fb.wrong_step == "idcg"
        st.caption(t("The correct ideal ordering: IDCG@{k} is its cumulative DCG at position "
                     "{k}.", lang, k=k) if ideal else
                   t("The correct table of your list: DCG@{k} is its cumulative DCG at "
                     "position {k}.", lang, k=k))
        (tables.ideal_table if ideal else tables.ranking_table)(ex.grades, ex.labels, k=k,
                                                                 gain=ex.gain)

if ex.id in score.revealed:
    st.markdown("### " + t("Solution", lang))
    if ex.kind == "spot":
        st.markdown(t("The figure comes from **{name}**.", lang, name=M.name(ex.mistake, lang)))
    for name, grades, labels in (("A", ex.grades, ex.labels), ("B", ex.other, ex.other_labels)):
        if not grades:
            continue
        if ex.kind == "compare":
            st.markdown(t("**Ranking {name}**", lang, name=name))
        judged = ex.grades + ex.unretrieved if ex.unretrieved else None
        tables.dcg_tables(grades, labels, k=k, gain=ex.gain, judged=judged)
        tables.formula(grades, k=k, gain=ex.gain, judged=judged)
    routing.open_in_playground(ex.labels, ex.grades, k=k, gain=ex.gain, key="px_open",
                               unretrieved=ex.unretrieved)
L.section(LESSON, "tips")
