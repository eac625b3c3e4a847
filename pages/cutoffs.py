"""Cutoffs: NDCG@k for every k, a longer cutoff scoring lower, cutting the ideal at the same
k, where the ideal comes from, and choosing k. Prose: assets/lessons/04_cutoffs.md."""

import streamlit as st

import ndcg_core as nc
from ui import compare as C, controls, lessons as L, playground as P

LESSON = "04_cutoffs"
PLOT = {"displaylogo": False}
DROP = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]  # NDCG@5 = 1.0 > NDCG@10 = 0.865119
DOC002 = [1, 3, 2]                           # NDCG@2 = 0.6788 < NDCG@3 = 0.8175
DOC000 = [3, 2, 3, 0, 1, 2]
RUN, JUDGED, UNRETRIEVED = [3, 2, 1], [3, 2, 1, 3], (3,)  # d1 d2 d3 retrieved, d4 not
LAYOUTS = {"answer box (1)": 1, "phone, no scrolling (3)": 3, "widget (6 slots)": 6,
           "results page (10)": 10, "results page (12)": 12}


def labels(n, prefix="d"):
    return [f"{prefix}{i}" for i in range(1, n + 1)]


def metrics(values):
    for col, (label, value) in zip(st.columns(len(values)), values.items()):
        col.metric(label, f"{value:.6f}", border=True)


pg = controls.load()
L.header(LESSON)
L.section(LESSON, "intro")
st.markdown("### NDCG@k of your playground ranking, for every k")
if C.missing_grades(pg.grades):
    st.error("Some items of the playground list have no grade: give each one a grade in the "
             "playground to see its curve.", icon=":material/error:")
else:
    pool = tuple(pg.ideal_pool()) if pg.pool else None
    st.plotly_chart(P.curve_chart(tuple(pg.grades), pg.cutoff, pool), config=PLOT,
                    key="cut_curve_pg")
    with st.expander("The numbers behind the curve"):
        gain = "exponential" if pg.gain == "exponential" else "linear"
        st.caption(f"{gain} gain")
        st.dataframe(nc.ndcg_curve(pg.grades, gain=gain, ideal=pg.ideal_pool()),
                     hide_index=True, width="stretch")
st.page_link(P.PLAYGROUND, label="Change this ranking in the playground",
             icon=":material/swap_vert:")

L.section(LESSON, "not-monotonic")
metrics({f"NDCG@{k}": nc.ndcg(DROP, k=k) for k in (5, 10, 12)})
st.plotly_chart(P.curve_chart(tuple(DROP), 10, None), config=PLOT, key="cut_curve_drop")
metrics({f"doc 002 · NDCG@{k}": nc.ndcg(DOC002, k=k) for k in (2, 3)})
a, b = st.columns(2)
with a:
    P.open_in_playground(labels(12), DROP, k=10, key="cut_open_drop",
                         label="Open the twelve items in the playground")
with b:
    P.open_in_playground(labels(3), DOC002, k=2, key="cut_open_doc002",
                         label="Open document 002's list in the playground")

L.section(LESSON, "same-cutoff")
a, b = st.columns(2)
k = a.slider("Cutoff k of your list (DCG@k)", 1, len(DOC000), 3, key="cut_k")
k2 = b.slider("Cutoff k′ of the ideal (IDCG@k′)", 1, len(DOC000), len(DOC000), key="cut_k2")
d, i2, right = nc.dcg(DOC000, k=k), nc.idcg(DOC000, k=k2), nc.ndcg(DOC000, k=k)
metrics({f"DCG@{k}": d, f"IDCG@{k2}": i2, f"DCG@{k} / IDCG@{k2}": d / i2,
         f"NDCG@{k} (same cutoff)": right})
if k2 != k:
    (st.error if d / i2 > 1 else st.warning)(
        f"Mixed cutoffs: {d:.4f} / {i2:.4f} = {d / i2:.4f} instead of NDCG@{k} = {right:.4f}"
        + (" — more than 1, which a correct NDCG never is." if d / i2 > 1 else "."),
        icon=":material/warning:")
P.open_in_playground(labels(6, "Doc "), DOC000, k=k, key="cut_open_doc000")

L.section(LESSON, "ideal-pool")
judged = st.radio("Build the ideal from", ["the returned list", "all judgments"],
                  index=1, horizontal=True, key="cut_pool")
pool = JUDGED if judged == "all judgments" else None
metrics({"ideal from the list · NDCG@3": nc.ndcg(RUN, k=3),
         "ideal from all judgments · NDCG@3": nc.ndcg(RUN, k=3, ideal=JUDGED),
         "all judgments · full depth": nc.ndcg(RUN, ideal=JUDGED)})
P.dcg_tables(RUN, labels(3), k=3, gain="linear", pool=pool)
P.open_in_playground(labels(3), RUN, k=3, pool=UNRETRIEVED, key="cut_open_pool",
                     label="Open in playground (d4 as judged but not retrieved)")

L.section(LESSON, "choose-k")
layout = st.segmented_control("Your layout shows", list(LAYOUTS), default="widget (6 slots)",
                              key="cut_layout")
shown = {}
if layout and not C.missing_grades(pg.grades):
    kk = LAYOUTS[layout]
    shown[f"your playground ranking · NDCG@{kk}"] = nc.ndcg(pg.grades, k=kk,
                                                           ideal=pg.ideal_pool())
    st.caption(f"Linear gain, ideal cut at k = {kk} too." + (
        f" Your list has {len(pg.grades)} items: positions past its end add nothing."
        if kk > len(pg.grades) else ""))
metrics({**shown, **{f"[1, 3, 2] · NDCG@{kk}": nc.ndcg(DOC002, k=kk) for kk in (3, 10)}})
