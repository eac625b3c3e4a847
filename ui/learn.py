"""Renderers of the first Learn pages: the start-here tour, the worked examples with their
claims and errata, and the gain lesson's flip finder. Data and logic live in ``lab``
(:mod:`lab.tour`, :mod:`lab.documents`, :mod:`lab.flips`); every number comes from ndcg_core.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab.documents import WORKED, Document, Ranking, claim_headers, claims_frame, say
from lab.errors import explain
from lab.flips import Flip, arrange, flip_reasons
from lab.i18n import t
from lab.text import escape_markdown, fmt, fmt_grade, show_grades
from lab.tour import Step
from ui import handouts, lessons as L, present, routing, share, state, tables

NUMBER = tables.NUMBER


def metric(label: str, value, where=st):
    """A bordered metric in ``where``; a number with 3 decimals (exact in its help)."""
    where.metric(label, value if isinstance(value, str) else fmt(value), border=True,
                 help=None if isinstance(value, str) else f"{label} = {value:.12g}")


def metric_row(items):
    """``items``: (label, value) pairs shown side by side as :func:`metric`."""
    for col, (label, value) in zip(st.columns(len(items)), items):
        metric(label, value, col)


# ------------------------------------------------------------------ worked examples

def claims_table(claims):
    lang = state.language()
    head = claim_headers(lang)  # display only: the frame keeps its English columns
    tables.swipe_hint()
    present.dataframe(claims_frame(claims, lang=lang), hide_index=True, width="stretch",
                      column_config={
                          "quantity": st.column_config.TextColumn(head["quantity"], width="large"),
                          "the source says": st.column_config.TextColumn(head["the source says"]),
                          "ndcg_core (exact)": {**NUMBER, "label": head["ndcg_core (exact)"]},
                          "agrees": st.column_config.TextColumn(head["agrees"])})


def render_ranking(r: Ranking, document: str):
    # anchored by the ranking's key: a share link /worked_examples#doc000 scrolls to it
    st.subheader(say(r.title, state.language()), anchor=r.key)
    tables.dcg_tables(r.grades, r.labels, k=r.cutoff, gain=r.gain, judged=r.judged,
                      unretrieved_labels=r.unretrieved_labels)
    tables.formula(r.grades, k=r.cutoff, gain=r.gain, judged=r.judged)
    if r.claims:
        claims_table(r.claims)
    left, right = st.columns([3, 2])
    with left:
        routing.open_in_playground(r.labels, r.grades, k=min(r.cutoff, len(r.grades)),
                                   gain=r.gain, unretrieved=r.unretrieved,
                                   key=f"we_open_{r.key}")
    with right.container(horizontal=True, gap="small"):
        share.worked_example(r.key, document)
        handouts.worked_example(r.key)


def render_document(doc: Document):
    L.section(WORKED, doc.section)
    for r in doc.rankings:
        render_ranking(r, doc.number)
    if doc.claims:
        claims_table(doc.claims)
    lang = state.language()
    for ex in doc.code:
        st.markdown(f"### {say(ex.title, lang)}")
        st.code(ex.code, language="python")
        st.caption(t("It prints (computed by ndcg_core, to 12 significant digits):", lang))
        st.code(ex.prints(), language="text")
        if ex.ranking:
            render_ranking(ex.ranking, doc.number)
    for e in doc.errata:
        L.erratum(WORKED, e.section)
        if e.claims:
            claims_table(e.claims)


# ------------------------------------------------------------------ start here

def render_step(step: Step):
    """The step's figures, in the column beside its lesson text (pages/start_here.py), and
    its playground button: the three orders' CG; the DCG table of the list or of its ideal
    order, its sum beside the button; DCG, IDCG and NDCG in a column per gain."""
    g, k, lab = step.grades, step.k, step.labels
    lang = state.language()
    link, gain = None, "linear"  # the button's column (below the figures if None), gain
    if step.view == "cg":
        for o in (g, tuple(sorted(g)), tuple(reversed(g))):
            metric(t("CG@{k} of {grades}", lang, k=k, grades=show_grades(o)),
                   f"{nc.cg(list(o), k=k):g}")
    elif step.view in ("dcg", "idcg"):
        ideal = step.view == "idcg"
        draw = tables.ideal_table if ideal else tables.ranking_table
        draw(g, lab, k=k, gain="linear", columns=tables.COMPACT)
        parts = nc.ndcg_parts(list(g), k=k)
        total, link = st.columns(2, vertical_alignment="center")
        metric(f"{'IDCG' if ideal else 'DCG'}@{k}", parts.idcg if ideal else parts.dcg, total)
    else:
        for col, gain in zip(st.columns(2), ("linear", "exponential")):
            parts = nc.ndcg_parts(list(g), k=k, gain=gain)
            for m, v in zip(("DCG", "IDCG", "NDCG"), parts):
                metric(at_k(m, k, gain, lang), v, col)
        gain = "both"
    with link or st.container():
        routing.open_in_playground(lab, g, k=k, gain=gain, key=f"sh_open_{step.section}")


# ------------------------------------------------------------------ the gain lesson

def at_k(metric: str, k: int, gain: str, lang: str) -> str:
    """A metric's label with its gain, "NDCG@6 (linear)", in ``lang``."""
    if gain == "linear":
        return t("{metric}@{k} (linear)", lang, metric=metric, k=k)
    return t("{metric}@{k} (exponential)", lang, metric=metric, k=k)


def render_flip(pg, flip: Flip):
    k = flip.k
    lang = state.language()
    if flip.a is None:
        st.info(flip_reasons(lang)[flip.reason].format(searched=flip.searched),
                icon=":material/block:")
        return
    (la, ea), (lb, eb) = flip.ndcg["a"], flip.ndcg["b"]
    values = dict(la=fmt(la), lb=fmt(lb), ea=fmt(ea), eb=fmt(eb), n=flip.searched, k=k)
    if flip.exhaustive:
        found = t("Linear gain prefers **P** ({la} > {lb}); exponential gain prefers **Q** "
                  "({eb} > {ea}). Searched all {n} distinct top-{k} orderings.", lang, **values)
    else:
        found = t("Linear gain prefers **P** ({la} > {lb}); exponential gain prefers **Q** "
                  "({eb} > {ea}). Searched {n} orderings sampled with seed 0.", lang, **values)
    st.success(found, icon=":material/swap_horiz:")
    labels = {name: arrange(pg.labels, pg.grades, order) for name, order in (("P", flip.a),
                                                                             ("Q", flip.b))}
    rows = [{"ordering": name, "grades in order": ", ".join(fmt_grade(x) for x in order),
             f"top {k} items": ", ".join(labels[name][:k]),
             f"NDCG@{k} linear": scores[0], f"NDCG@{k} exponential": scores[1]}
            for name, order, scores in (("P", flip.a, flip.ndcg["a"]),
                                        ("Q", flip.b, flip.ndcg["b"]))]
    tables.swipe_hint()
    present.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                      column_config={  # headers in the page's language, the frame's stay English
                          "ordering": st.column_config.TextColumn(t("ordering", lang)),
                          "grades in order": st.column_config.TextColumn(
                              t("grades in order", lang)),
                          f"top {k} items": st.column_config.TextColumn(
                              t("top {k} items", lang, k=k)),
                          f"NDCG@{k} linear": {**NUMBER, "label": t("NDCG@{k} linear", lang, k=k)},
                          f"NDCG@{k} exponential": {**NUMBER, "label": t("NDCG@{k} exponential",
                                                                         lang, k=k)}},
                      key="gain_flip_table")
    for col, name, order in zip(st.columns(2), "PQ", (flip.a, flip.b)):
        with col:
            routing.open_in_playground(labels[name], order, k=k, gain="both",
                                       unretrieved=pg.unretrieved, key=f"gain_open_{name}",
                                       label=t("Open {name} in playground", lang, name=name))


def scoring_error(exc: Exception, what: str | None = None):
    """An engine error, after what could not be done (``what``, already in the page's
    language; by default "These grades cannot be scored")."""
    lang = state.language()
    what = what or t("These grades cannot be scored", lang)
    st.error(t("{what}: {error}", lang, what=what, error=escape_markdown(explain(exc, lang))),
             icon=":material/error:")

