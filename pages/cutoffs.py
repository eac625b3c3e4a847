"""Cutoffs: NDCG@k for every k, a longer cutoff scoring lower, cutting the ideal at the same
k, where the ideal comes from, and choosing k. Prose: assets/lessons/04_cutoffs.md."""

import streamlit as st

import ndcg_core as nc
from lab.documents import RUNNING_EXAMPLE
from lab.i18n import t
from lab.text import fmt, gain_name
from ui import charts, learn, lessons as L, playground as view, present, routing, state, tables

LESSON = "04_cutoffs"
DROP = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]  # NDCG@5 = 1.0 > NDCG@10 = 0.865
DOC002 = [1, 3, 2]                           # NDCG@2 = 0.679 < NDCG@3 = 0.818
RUN, UNRETRIEVED = [3, 2, 1], (3,)           # d1 d2 d3 retrieved, d4 (grade 3) not
JUDGED = RUN + list(UNRETRIEVED)
# the stored value is the language-independent key; format_func shows it in the language
LAYOUTS = {"answer box (1)": 1, "phone, no scrolling (3)": 3, "widget (6 slots)": 6,
           "results page (10)": 10, "results page (12)": 12}


def layout_label(layout: str, lang: str) -> str:
    return {"answer box (1)": t("answer box (1)", lang),
            "phone, no scrolling (3)": t("phone, no scrolling (3)", lang),
            "widget (6 slots)": t("widget (6 slots)", lang),
            "results page (10)": t("results page (10)", lang),
            "results page (12)": t("results page (12)", lang)}[layout]


def labels(n, prefix="d"):
    return [f"{prefix}{i}" for i in range(1, n + 1)]


routing.route_through_app(__file__)
pg = state.playground()
lang = state.language()
L.header(LESSON)
L.section(LESSON, "intro")
st.markdown(t("### NDCG@k of your playground ranking, for every k", lang))
figures, problem = view.scored(pg, ("linear",))
if problem:
    learn.scoring_error(problem, t("The playground's list cannot be drawn", lang))
else:
    charts.show(charts.curve_chart(pg.grades, pg.cutoff, pg.judged), key="cut_curve_pg")
    with st.expander(t("The numbers behind the curve", lang)):
        gain = "exponential" if pg.gain == "exponential" else "linear"
        st.caption(gain_name(gain, lang=lang, long=True))
        curve = nc.ndcg_curve(list(pg.grades), gain=gain,
                              ideal=list(pg.judged) if pg.judged else None)
        present.dataframe(curve, hide_index=True, width="stretch",  # k, DCG, IDCG, NDCG
                          column_config={c: {**tables.NUMBER, "label": c.upper()}
                                         for c in ("dcg", "idcg", "ndcg")})
routing.link_to_playground(t("Change this ranking in the playground", lang))

L.section(LESSON, "not-monotonic")
learn.metric_row([(f"NDCG@{k}", nc.ndcg(DROP, k=k)) for k in (5, 10, 12)])
charts.show(charts.curve_chart(tuple(DROP), 10, None), key="cut_curve_drop")
learn.metric_row([(f"[1, 3, 2] · NDCG@{k}", nc.ndcg(DOC002, k=k)) for k in (2, 3)])
a, b = st.columns(2)
with a:
    routing.open_in_playground(labels(12), DROP, k=10, key="cut_open_drop",
                               label=t("Open the twelve items in the playground", lang))
with b:
    routing.open_in_playground(labels(3), DOC002, k=2, key="cut_open_doc002",
                               label=t("Open the glossary's list [1, 3, 2] in the playground",
                                       lang))

L.section(LESSON, "same-cutoff")
a, b = st.columns(2)
n = len(RUNNING_EXAMPLE)
k = a.slider(t("Cutoff k of your list (DCG@k)", lang), 1, n, 3, key="cut_k")
k2 = b.slider(t("Cutoff k′ of the ideal (IDCG@k′)", lang), 1, n, n, key="cut_k2")
right = nc.ndcg_parts(list(RUNNING_EXAMPLE), k=k)
d, i2 = right.dcg, nc.ndcg_parts(list(RUNNING_EXAMPLE), k=k2).idcg
learn.metric_row([(f"DCG@{k}", d), (f"IDCG@{k2}", i2), (f"DCG@{k} / IDCG@{k2}", d / i2),
                  (t("NDCG@{k} (same cutoff)", lang, k=k), right.ndcg)])
if k2 != k:
    mixed = dict(dcg=fmt(d), idcg=fmt(i2), ratio=fmt(d / i2), k=k, ndcg=fmt(right.ndcg))
    if d / i2 > 1:
        st.error(t("Mixed cutoffs: {dcg} / {idcg} = {ratio} instead of NDCG@{k} = {ndcg} — "
                   "more than 1, which a correct NDCG never is.", lang, **mixed),
                 icon=":material/warning:")
    else:
        st.warning(t("Mixed cutoffs: {dcg} / {idcg} = {ratio} instead of NDCG@{k} = {ndcg}.",
                     lang, **mixed), icon=":material/warning:")
routing.open_in_playground(labels(6, "Doc "), RUNNING_EXAMPLE, k=k, key="cut_open_doc000")

L.section(LESSON, "ideal-pool")
choice = st.radio(t("Build the ideal from", lang), ["the returned list", "all judgments"],
                  format_func=lambda c: t("the returned list", lang) if c == "the returned list"
                  else t("all judgments", lang), index=1, horizontal=True, key="cut_pool")
judged = JUDGED if choice == "all judgments" else None
learn.metric_row([(t("ideal from the list · NDCG@3", lang), nc.ndcg(RUN, k=3)),
                  (t("ideal from all judgments · NDCG@3", lang),
                   nc.ndcg(RUN, k=3, ideal=JUDGED)),
                  (t("all judgments · full depth", lang), nc.ndcg(RUN, ideal=JUDGED))])
tables.dcg_tables(RUN, labels(3), k=3, gain="linear", judged=judged,
                  unretrieved_labels=["d4"])
routing.open_in_playground(labels(3), RUN, k=3, unretrieved=UNRETRIEVED, key="cut_open_pool",
                           label=t("Open in playground (d4 as judged but not retrieved)", lang))

L.section(LESSON, "choose-k")
layout = st.segmented_control(t("Your layout shows", lang), list(LAYOUTS),
                              format_func=lambda x: layout_label(x, lang),
                              default="widget (6 slots)", key="cut_layout")
shown = []
if layout and not problem:
    kk = LAYOUTS[layout]
    shown.append((t("your playground ranking · NDCG@{k}", lang, k=kk),
                  nc.ndcg(list(pg.grades), k=kk, ideal=list(pg.judged) if pg.judged else None)))
    if kk > len(pg.grades):
        st.caption(t("Linear gain, ideal cut at k = {k} too. Your list has one item: "
                     "positions past its end add nothing.", lang, k=kk)
                   if len(pg.grades) == 1 else
                   t("Linear gain, ideal cut at k = {k} too. Your list has {n} items: "
                     "positions past its end add nothing.", lang, k=kk, n=len(pg.grades)))
    else:
        st.caption(t("Linear gain, ideal cut at k = {k} too.", lang, k=kk))
learn.metric_row(shown + [(f"[1, 3, 2] · NDCG@{kk}", nc.ndcg(DOC002, k=kk)) for kk in (3, 10)])
