"""Renderer of the common-mistakes lesson: one mistake per screen, its wrong figure beside
the right one on the running example, the real case, and the settings in the playground.
The catalogue and every number are :mod:`lab.mistakes` (through ndcg_core)."""

from __future__ import annotations

import streamlit as st

from lab import mistakes as M
from lab.exercises import gain_name
from lab.i18n import t
from lab.text import escape_markdown, fmt, show_grades
from ui import lessons as L, routing, state

LESSON = "08_mistakes"


def chooser(lang: str) -> int:
    """The menu of mistakes with Previous / Next; the index of the one shown."""
    n = len(M.CATALOGUE)
    at = state.tour_step(state.MK_STEP)
    menu, prev, nxt = st.columns([4, 1, 1], vertical_alignment="bottom")
    menu.selectbox(t("Mistake", lang), range(n), key=state.MK_STEP, label_visibility="collapsed",
                   format_func=lambda i: f"{i + 1}. {M.name(M.KEYS[i], lang)}")
    prev.button(t("Previous", lang), key="mk_prev", icon=":material/arrow_back:",
                on_click=state.on_tour_move, args=(-1, n, state.MK_STEP), disabled=at == 0,
                width="stretch")
    nxt.button(t("Next", lang), key="mk_next", icon=":material/arrow_forward:",
               on_click=state.on_tour_move, args=(1, n, state.MK_STEP),
               disabled=at == n - 1, width="stretch")
    return at


def _example_caption(ex: dict, lang: str) -> str:
    gain = gain_name(ex["gain"], lang=lang)
    if "queries" in ex:
        queries = "; ".join(
            t("{grades}, judged but not retrieved {unretrieved}", lang, grades=show_grades(g),
              unretrieved=show_grades(u)) if u else show_grades(g) for g, u in ex["queries"])
        return t("Mean over {n} queries: {queries}. k = {k}, {gain}.", lang,
                 n=len(ex["queries"]), queries=queries, k=ex["k"], gain=gain)
    return t("Ranking {grades}, judged but not retrieved {unretrieved}. k = {k}, {gain}.", lang,
             grades=show_grades(ex["grades"]), unretrieved=show_grades(ex["unretrieved"]),
             k=ex["k"], gain=gain)


def render(key: str):
    """One mistake: name, what it does, the two figures and their difference, the example,
    why, the real case, and the playground."""
    lang = state.language()
    ex = M.example(key)
    right, wrong = M.figures(key)
    k = ex["k"]
    st.header(M.name(key, lang), help=M.what(key, lang))  # h2 below the page's h1
    mean = "queries" in ex
    cols = st.columns(3)
    cols[0].metric(t("Right mean NDCG@{k}", lang, k=k) if mean else
                   t("Right NDCG@{k}", lang, k=k), fmt(right), border=True,
                   help=f"{right:.12g}")
    cols[1].metric(t("With this mistake", lang), fmt(wrong), border=True, help=f"{wrong:.12g}")
    cols[2].metric(t("Difference", lang), f"{wrong - right:+.3f}", border=True)
    why, where = st.columns([5, 2])
    with why:
        L.section(LESSON, key, heading=False)
        # a quote of the case's own figures (1.0, 396.03), so prose, not a figure box
        st.markdown(":material/bug_report: " + t("Seen in: {case}", lang,
                                                 case=escape_markdown(M.case(key, lang))))
    with where:
        st.caption(_example_caption(ex, lang))
        # the playground opens with the mistake's setting on (the query a mean is about):
        # its NDCG is the mistake's number, and its settings turn it back to the right one
        pg = M.playground(key)
        routing.open_in_playground([f"D{i + 1}" for i in range(len(pg["grades"]))],
                                   pg["grades"], k=pg["k"], gain=pg["gain"],
                                   unretrieved=pg["unretrieved"], rules=pg["rules"],
                                   key=f"mk_open_{key}")
        st.caption(t("It opens with this mistake's setting on: {value} there.", lang,
                     value=fmt(M.playground_value(key))))
