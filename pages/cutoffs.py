"""Cutoffs: NDCG@k for every k, a longer cutoff scoring lower, cutting the ideal at the same
k, where the ideal comes from, and choosing k. Prose: assets/lessons/04_cutoffs.md."""

import streamlit as st

import ndcg_core as nc
from lab.documents import RUNNING_EXAMPLE
from lab.text import fmt
from ui import charts, learn, lessons as L, playground as view, routing, state, tables

LESSON = "04_cutoffs"
DROP = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]  # NDCG@5 = 1.0 > NDCG@10 = 0.865
DOC002 = [1, 3, 2]                           # NDCG@2 = 0.679 < NDCG@3 = 0.818
RUN, UNRETRIEVED = [3, 2, 1], (3,)           # d1 d2 d3 retrieved, d4 (grade 3) not
JUDGED = RUN + list(UNRETRIEVED)
LAYOUTS = {"answer box (1)": 1, "phone, no scrolling (3)": 3, "widget (6 slots)": 6,
           "results page (10)": 10, "results page (12)": 12}


def labels(n, prefix="d"):
    return [f"{prefix}{i}" for i in range(1, n + 1)]


routing.route_through_app()
pg = state.playground()
L.header(LESSON)
L.section(LESSON, "intro")
st.markdown("### NDCG@k of your playground ranking, for every k")
figures, problem = view.scored(pg, ("linear",))
if problem:
    learn.scoring_error(problem, "The playground's list cannot be drawn")
else:
    charts.show(charts.curve_chart(pg.grades, pg.cutoff, pg.judged), key="cut_curve_pg")
    with st.expander("The numbers behind the curve"):
        gain = "exponential" if pg.gain == "exponential" else "linear"
        st.caption(f"{gain} gain")
        st.dataframe(nc.ndcg_curve(list(pg.grades), gain=gain,
                                   ideal=list(pg.judged) if pg.judged else None),
                     hide_index=True, width="stretch",
                     column_config={c: tables.NUMBER for c in ("dcg", "idcg", "ndcg")})
routing.link_to_playground("Change this ranking in the playground")

L.section(LESSON, "not-monotonic")
learn.metric_row([(f"NDCG@{k}", nc.ndcg(DROP, k=k)) for k in (5, 10, 12)])
charts.show(charts.curve_chart(tuple(DROP), 10, None), key="cut_curve_drop")
learn.metric_row([(f"[1, 3, 2] · NDCG@{k}", nc.ndcg(DOC002, k=k)) for k in (2, 3)])
a, b = st.columns(2)
with a:
    routing.open_in_playground(labels(12), DROP, k=10, key="cut_open_drop",
                               label="Open the twelve items in the playground")
with b:
    routing.open_in_playground(labels(3), DOC002, k=2, key="cut_open_doc002",
                               label="Open the glossary's list [1, 3, 2] in the playground")

L.section(LESSON, "same-cutoff")
a, b = st.columns(2)
n = len(RUNNING_EXAMPLE)
k = a.slider("Cutoff k of your list (DCG@k)", 1, n, 3, key="cut_k")
k2 = b.slider("Cutoff k′ of the ideal (IDCG@k′)", 1, n, n, key="cut_k2")
right = nc.ndcg_parts(list(RUNNING_EXAMPLE), k=k)
d, i2 = right.dcg, nc.ndcg_parts(list(RUNNING_EXAMPLE), k=k2).idcg
learn.metric_row([(f"DCG@{k}", d), (f"IDCG@{k2}", i2), (f"DCG@{k} / IDCG@{k2}", d / i2),
                  (f"NDCG@{k} (same cutoff)", right.ndcg)])
if k2 != k:
    (st.error if d / i2 > 1 else st.warning)(
        f"Mixed cutoffs: {fmt(d)} / {fmt(i2)} = {fmt(d / i2)} instead of NDCG@{k} = "
        f"{fmt(right.ndcg)}" + (" — more than 1, which a correct NDCG never is."
                                if d / i2 > 1 else "."),
        icon=":material/warning:")
routing.open_in_playground(labels(6, "Doc "), RUNNING_EXAMPLE, k=k, key="cut_open_doc000")

L.section(LESSON, "ideal-pool")
choice = st.radio("Build the ideal from", ["the returned list", "all judgments"],
                  index=1, horizontal=True, key="cut_pool")
judged = JUDGED if choice == "all judgments" else None
learn.metric_row([("ideal from the list · NDCG@3", nc.ndcg(RUN, k=3)),
                  ("ideal from all judgments · NDCG@3", nc.ndcg(RUN, k=3, ideal=JUDGED)),
                  ("all judgments · full depth", nc.ndcg(RUN, ideal=JUDGED))])
tables.dcg_tables(RUN, labels(3), k=3, gain="linear", judged=judged, pool_labels=["d4"])
routing.open_in_playground(labels(3), RUN, k=3, unretrieved=UNRETRIEVED, key="cut_open_pool",
                           label="Open in playground (d4 as judged but not retrieved)")

L.section(LESSON, "choose-k")
layout = st.segmented_control("Your layout shows", list(LAYOUTS), default="widget (6 slots)",
                              key="cut_layout")
shown = []
if layout and not problem:
    kk = LAYOUTS[layout]
    shown.append((f"your playground ranking · NDCG@{kk}",
                  nc.ndcg(list(pg.grades), k=kk, ideal=list(pg.judged) if pg.judged else None)))
    st.caption(f"Linear gain, ideal cut at k = {kk} too." + (
        f" Your list has {len(pg.grades)} items: positions past its end add nothing."
        if kk > len(pg.grades) else ""))
learn.metric_row(shown + [(f"[1, 3, 2] · NDCG@{kk}", nc.ndcg(DOC002, k=kk)) for kk in (3, 10)])
