"""Beyond NDCG: CG, precision, reciprocal rank, average precision and NDCG on the shared
playground ranking, live as it is reordered; MRR over queries; NDCG's blind spots.
Prose: assets/lessons/06_beyond.md."""

import math
from functools import partial

import streamlit as st

import ndcg_core as nc
from lab import beyond as B
from lab.i18n import t
from lab.text import escape_markdown, fmt, gain_name
from ui import charts, lessons as L, playground as view, routing, state

routing.route_through_app(__file__)
pg = state.playground()
lang = state.language()
L.header(B.BEYOND)
L.section(B.BEYOND, "intro")

st.markdown(t("### Five metrics on your playground ranking", lang))
grades, n = pg.grades, len(pg.grades)
positive = [g for g in grades + pg.unretrieved if g is not None and g > 0]
lo, hi = (min(positive), max(positive)) if positive else (1, 1)
integral = all(float(g).is_integer() for g in positive)
lo, hi = (max(1, math.ceil(lo)), max(1, int(hi))) if integral else (float(lo), float(hi))
a, b, c = st.columns(3)
if n > 1:
    state.clamp(state.BEYOND_K, 1, n, pg.cutoff)
    k = a.slider(t("Cutoff k", lang), 1, n, key=state.BEYOND_K,
                 help=t("For CG@k, Precision@k and NDCG@k.", lang))
else:
    k = 1
if hi > lo:
    state.clamp(state.BEYOND_THRESHOLD, lo, hi, lo)
    threshold = b.slider(t("Relevant if grade ≥", lang), lo, hi, key=state.BEYOND_THRESHOLD,
                         help=t("Precision, reciprocal rank and average precision only know "
                                "relevant or not: this threshold decides.", lang))
else:
    threshold = lo
    b.markdown(t("**Relevant if grade ≥ {threshold}**", lang, threshold=f"{threshold:g}"))
gain = c.radio(t("Gain (CG and NDCG)", lang), ["linear", "exponential"], horizontal=True,
               format_func=partial(gain_name, lang=lang),
               index=int(pg.gain == "exponential"), key="beyond_gain")

left, right = st.columns([1, 1.4])
with left:
    view.ranked_list(pg, key=state.BEYOND_LIST)
with right:
    _, problem = view.scored(pg, (gain,))
    if problem:
        st.error(t("These grades cannot be scored: {error}", lang,
                   error=escape_markdown(problem)), icon=":material/error:")
    else:
        rows = B.beyond_metrics(list(grades), k=k, threshold=threshold, gain=gain,
                                unretrieved=pg.unretrieved, lang=lang)
        for (name, value, what), col in zip(rows, st.columns(2) * 3):
            col.metric(name, fmt(value), border=True,
                       help=t("{what}. Exact: {value}", lang, what=what,
                              value=f"{value:.12g}"))
        if pg.unretrieved:
            st.caption(t("{n} judged item(s) not retrieved count in average precision's "
                         "relevant total and in NDCG's ideal.", lang, n=len(pg.unretrieved)))
st.caption(t("Drag here or in the playground: it is the same ranking.", lang))
routing.link_to_playground()

L.section(B.BEYOND, "metrics")

L.section(B.BEYOND, "mrr")
st.metric(t("MRR of ranks {ranks}", lang, ranks=list(B.MRR_RANKS)),
          fmt(nc.mean_reciprocal_rank(ranks=list(B.MRR_RANKS))), border=True)
charts.show(charts.lines_chart(
    B.steepness(10, lang=lang), x=t("rank", lang), columns=(t("reciprocal rank", lang), "NDCG"),
    title=t("One relevant item at rank r: reciprocal rank vs NDCG", lang), y=t("score", lang),
    yrange=[0, 1.05]), key="beyond_steep")

L.section(B.BEYOND, "limits")
