"""Conventions and edge cases: ties, all-zero queries, negative grades, log base, unjudged
items, rescaled scores, and the library presets on the playground list.
Prose: assets/lessons/05_conventions.md."""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from ui import compare as C, controls, lessons as L

LESSON = "05_conventions"
TIES = pd.DataFrame({"docid": ["d1", "d2", "d3"], "grade": [0, 2, 1],
                     "score": [1.0, 1.0, 0.5]})
NEGATIVE, RUNNING = [-1, 2, 0, 1], [3, 2, 3, 0, 1, 2]
NUM = st.column_config.NumberColumn(format="%.6f")


def table(df, **kw):
    st.dataframe(df, hide_index=True, width="stretch",
                 column_config={c: NUM for c in df.columns if df[c].dtype.kind == "f"}, **kw)


pg = controls.load()
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
        st.error(f"These rows cannot be ranked: {exc}", icon=":material/error:")

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
table(C.log_base_table(RUNNING, base), key="cv_log_table")
weights = C.discount_weights(10, base)
fig = go.Figure([go.Scatter(x=weights.index, y=weights[d], name=d, mode="lines+markers")
                 for d in weights.columns])
fig.update_layout(title=f"Weight of each rank, 1 / discount (Järvelin–Kekäläinen b = {base:g})",
                  xaxis=dict(title=dict(text="rank")),
                  yaxis=dict(title=dict(text="weight of a gain of 1")), height=320,
                  margin=dict(t=50, b=40, l=40, r=10), legend=dict(orientation="h", y=-0.25))
st.plotly_chart(fig, config={"displaylogo": False}, key="cv_weights")

L.section(LESSON, "unlabeled")
table(C.unlabeled_table(), key="cv_unlabeled_table")

L.section(LESSON, "monotone-scores")
name = st.selectbox("Transform the scores with", list(C.TRANSFORMS), key="cv_transform")
items, before, after = C.transform_table(name, 3)
a, b = st.columns(2)
a.metric("NDCG@3, original scores", f"{before:.6f}", border=True)
b.metric(f"NDCG@3, {name}", f"{after:.6f}", delta=f"{after - before:+.6f}"
         if abs(after - before) > 1e-12 else None, border=True)
if C.TRANSFORMS[name][1]:
    st.success(f"{name} is strictly increasing: same order, same ties, same NDCG.",
               icon=":material/check_circle:")
else:
    st.warning(f"{name} is not strictly increasing: the order or the ties change, and NDCG "
               "can too.", icon=":material/warning:")
table(items, key="cv_transform_table")

L.section(LESSON, "presets")
C.presets_panel(pg, pg.cutoff)
with st.expander("Every option a preset sets"):
    for opt in ("gain", "ties", "zero_idcg", "negative", "ideal_pool"):
        st.markdown(f"**{nc.OPTIONS[opt].label}** — {nc.OPTIONS[opt].help()}")
