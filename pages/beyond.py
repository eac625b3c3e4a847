"""Beyond NDCG: CG, precision, reciprocal rank, average precision and NDCG on the shared
playground ranking, live as it is reordered; MRR over queries; NDCG's blind spots.
Prose: assets/lessons/06_beyond.md."""

import math

import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from ui import compare as C, controls, lessons as L, playground as P

LESSON = "06_beyond"
MRR_RANKS = [1, 4, 2, 9]  # document 003: first relevant item per query


def clamp(key, lo, hi, default):
    ss = st.session_state
    ss[key] = type(lo)(min(max(ss.get(key, default), lo), hi))


pg = controls.load()
L.header(LESSON)
L.section(LESSON, "intro")

st.markdown("### Five metrics on your playground ranking")
grades, n = pg.grades, len(pg.grades)
missing = C.missing_grades(grades)
positive = [g for g in grades + list(pg.pool) if g is not None and g > 0]
lo, hi = (min(positive), max(positive)) if positive else (1, 1)
integral = all(float(g).is_integer() for g in positive)
lo, hi = (max(1, math.ceil(lo)), max(1, int(hi))) if integral else (float(lo), float(hi))
a, b, c = st.columns(3)
if n > 1:
    clamp("beyond_k", 1, n, pg.cutoff)
    k = a.slider("Cutoff k", 1, n, key="beyond_k",
                 help="For CG@k, Precision@k and NDCG@k.")
else:
    k = 1
if hi > lo:
    clamp("beyond_threshold", lo, hi, lo)
    threshold = b.slider("Relevant if grade ≥", lo, hi, key="beyond_threshold",
                         help="Precision, reciprocal rank and average precision only know "
                         "relevant or not: this threshold decides.")
else:
    threshold = lo
    b.markdown(f"**Relevant if grade ≥ {threshold:g}**")
gain = c.radio("Gain (CG and NDCG)", ["linear", "exponential"], horizontal=True,
               index=int(pg.gain == "exponential"), key="beyond_gain")

left, right = st.columns([1, 1.4])
with left:
    controls.ranked_list(pg, key="beyond_list")
with right:
    if missing:
        st.error("Items at positions " + ", ".join(map(str, missing)) + " have no grade: "
                 "give them one in the playground.", icon=":material/error:")
    else:
        rows = C.beyond_metrics(grades, k=k, threshold=threshold, gain=gain, pool=pg.pool)
        for (name, value, what), col in zip(rows, st.columns(2) * 3):
            col.metric(name, f"{value:.4f}", help=what, border=True)
        if pg.pool:
            st.caption(f"{len(pg.pool)} judged item(s) not retrieved count in average "
                       "precision's relevant total and in NDCG's ideal.")
st.caption("Drag here or in the playground: it is the same ranking.")
st.page_link(P.PLAYGROUND, label="Edit the grades in the playground",
             icon=":material/swap_vert:")

L.section(LESSON, "metrics")

L.section(LESSON, "mrr")
st.metric(f"MRR of ranks {MRR_RANKS}", f"{nc.mean_reciprocal_rank(ranks=MRR_RANKS):.4f}",
          border=True)
steep = C.steepness(10)
fig = go.Figure([go.Scatter(x=steep["rank"], y=steep[m], name=m, mode="lines+markers")
                 for m in ("reciprocal rank", "NDCG")])
fig.update_layout(title="One relevant item at rank r: reciprocal rank vs NDCG",
                  xaxis=dict(title=dict(text="rank r of the relevant item")),
                  yaxis=dict(title=dict(text="score"), range=[0, 1.05]), height=320,
                  margin=dict(t=50, b=40, l=40, r=10), legend=dict(orientation="h", y=-0.25))
st.plotly_chart(fig, config={"displaylogo": False}, key="beyond_steep")

L.section(LESSON, "limits")
