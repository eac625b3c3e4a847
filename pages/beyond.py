"""Beyond NDCG: CG, precision, reciprocal rank, average precision and NDCG on the shared
playground ranking, live as it is reordered; MRR over queries; NDCG's blind spots.
Prose: assets/lessons/06_beyond.md."""

import math

import streamlit as st

import ndcg_core as nc
from lab import beyond as B
from lab.text import escape_markdown, fmt
from ui import charts, lessons as L, playground as view, routing, state

routing.route_through_app()
pg = state.playground()
L.header(B.BEYOND)
L.section(B.BEYOND, "intro")

st.markdown("### Five metrics on your playground ranking")
grades, n = pg.grades, len(pg.grades)
positive = [g for g in grades + pg.unretrieved if g is not None and g > 0]
lo, hi = (min(positive), max(positive)) if positive else (1, 1)
integral = all(float(g).is_integer() for g in positive)
lo, hi = (max(1, math.ceil(lo)), max(1, int(hi))) if integral else (float(lo), float(hi))
a, b, c = st.columns(3)
if n > 1:
    state.clamp(state.BEYOND_K, 1, n, pg.cutoff)
    k = a.slider("Cutoff k", 1, n, key=state.BEYOND_K,
                 help="For CG@k, Precision@k and NDCG@k.")
else:
    k = 1
if hi > lo:
    state.clamp(state.BEYOND_THRESHOLD, lo, hi, lo)
    threshold = b.slider("Relevant if grade ≥", lo, hi, key=state.BEYOND_THRESHOLD,
                         help="Precision, reciprocal rank and average precision only know "
                         "relevant or not: this threshold decides.")
else:
    threshold = lo
    b.markdown(f"**Relevant if grade ≥ {threshold:g}**")
gain = c.radio("Gain (CG and NDCG)", ["linear", "exponential"], horizontal=True,
               index=int(pg.gain == "exponential"), key="beyond_gain")

left, right = st.columns([1, 1.4])
with left:
    view.ranked_list(pg, key=state.BEYOND_LIST)
with right:
    _, problem = view.scored(pg, (gain,))
    if problem:
        st.error(f"These grades cannot be scored: {escape_markdown(problem)}",
                 icon=":material/error:")
    else:
        rows = B.beyond_metrics(list(grades), k=k, threshold=threshold, gain=gain,
                                unretrieved=pg.unretrieved)
        for (name, value, what), col in zip(rows, st.columns(2) * 3):
            col.metric(name, fmt(value), help=f"{what}. Exact: {value:.12g}", border=True)
        if pg.unretrieved:
            st.caption(f"{len(pg.unretrieved)} judged item(s) not retrieved count in average "
                       "precision's relevant total and in NDCG's ideal.")
st.caption("Drag here or in the playground: it is the same ranking.")
routing.link_to_playground()

L.section(B.BEYOND, "metrics")

L.section(B.BEYOND, "mrr")
st.metric(f"MRR of ranks {list(B.MRR_RANKS)}",
          fmt(nc.mean_reciprocal_rank(ranks=list(B.MRR_RANKS))), border=True)
charts.show(charts.lines_chart(B.steepness(10), x="rank", columns=("reciprocal rank", "NDCG"),
                               title="One relevant item at rank r: reciprocal rank vs NDCG",
                               y="score", yrange=[0, 1.05]), key="beyond_steep")

L.section(B.BEYOND, "limits")
