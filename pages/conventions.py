"""Conventions and edge cases: ties, all-zero queries, negative grades, log base, unjudged
items, rescaled scores, and the library presets on the playground list.
Prose: assets/lessons/05_conventions.md."""

import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab import conventions as C
from lab.documents import RUNNING_EXAMPLE
from lab.text import escape_markdown, fmt
from ui import charts, lessons as L, playground as view, routing, state
from ui.conventions import presets_panel, table

LESSON = "05_conventions"
TIES = pd.DataFrame({"docid": ["d1", "d2", "d3"], "grade": [0, 2, 1],
                     "score": [1.0, 1.0, 0.5]})
NEGATIVE = [-1, 2, 0, 1]

routing.route_through_app()
pg = state.playground()
L.header(LESSON)
L.section(LESSON, "intro")

L.section(LESSON, "ties")
left, right = st.columns([1, 2])
with left:
    edited = st.data_editor(
        TIES, key="cv_ties_editor", hide_index=True, num_rows="fixed", width="stretch",
        column_config={"docid": st.column_config.TextColumn("doc id", required=True),
                       "grade": st.column_config.NumberColumn("grade", required=True),
                       "score": st.column_config.NumberColumn("score", required=True)})
    k_ties = st.slider("Cutoff k", 1, 3, 1, key="cv_ties_k")
with right:
    try:
        table(C.ties_table(list(edited["docid"]), list(edited["grade"]),
                           list(edited["score"]), k_ties), key="cv_ties_table")
    except ValueError as exc:
        st.error(f"These rows cannot be ranked: {escape_markdown(exc)}",
                 icon=":material/error:")

L.section(LESSON, "all-zero")
table(C.zero_idcg_table(), key="cv_zero_table")

L.section(LESSON, "negative")
neg, message = C.negative_table(NEGATIVE, 3)
table(neg, key="cv_negative_table")
if message:
    st.error(f"negative='error': `ValueError: {message}`", icon=":material/block:")

L.section(LESSON, "log-base")
base = st.slider("Base b of the Järvelin–Kekäläinen discount", 1.5, 12.0, 2.0, step=0.5,
                 key="cv_base")
table(C.log_base_table(list(RUNNING_EXAMPLE), base), key="cv_log_table")
weights = C.discount_weights(10, base)
charts.show(charts.lines_chart(
    weights, x="index", columns=weights.columns, y="weight of a gain of 1",
    title=f"Weight of each rank, 1 / discount (Järvelin–Kekäläinen b = {base:g})"),
    key="cv_weights")

L.section(LESSON, "unlabeled")
table(C.unlabeled_table(), key="cv_unlabeled_table")

L.section(LESSON, "monotone-scores")
name = st.selectbox("Transform the scores with", list(C.TRANSFORMS), key="cv_transform")
items, before, after = C.transform_table(name, 3)
a, b = st.columns(2)
a.metric("NDCG@3, original scores", fmt(before), border=True)
b.metric(f"NDCG@3, {name}", fmt(after), delta=f"{after - before:+.3f}"
         if abs(after - before) > 1e-12 else None, border=True)
if C.TRANSFORMS[name][1]:
    st.success(f"{name} is strictly increasing: same order, same ties, same NDCG.",
               icon=":material/check_circle:")
else:
    st.warning(f"{name} is not strictly increasing: the order or the ties change, and NDCG "
               "can too.", icon=":material/warning:")
table(items, key="cv_transform_table")

L.section(LESSON, "presets")
figures, problem = view.scored(pg, ("linear",))
if problem:
    st.error(f"The playground's list cannot be compared: {escape_markdown(problem)}",
             icon=":material/error:")
else:
    presets_panel(pg, pg.cutoff)
with st.expander("Every option a preset sets"):
    for opt in ("gain", "ties", "zero_idcg", "negative", "ideal_pool", "fractional",
                "score_precision", "judged_only"):
        st.markdown(f"**{nc.OPTIONS[opt].label}** — {nc.OPTIONS[opt].help()}")
