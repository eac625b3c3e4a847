"""Renderers of the first Learn pages: the start-here tour, the worked examples with their
claims and errata, and the gain lesson's flip finder. Data and logic live in ``lab``
(:mod:`lab.tour`, :mod:`lab.documents`, :mod:`lab.flips`); every number comes from ndcg_core.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab.documents import WORKED, Document, Ranking, claims_frame
from lab.flips import FLIP_REASONS, Flip, arrange
from lab.text import escape_markdown, fmt, fmt_grade, show_grades
from lab.tour import Step
from ui import lessons as L, routing, tables

NUMBER = tables.NUMBER


def metric_row(items):
    """``items``: (label, value) pairs shown as bordered metrics, 3 decimals (exact in help)."""
    for col, (label, value) in zip(st.columns(len(items)), items):
        col.metric(label, value if isinstance(value, str) else fmt(value), border=True,
                   help=None if isinstance(value, str) else f"{label} = {value:.12g}")


# ------------------------------------------------------------------ worked examples

def claims_table(claims):
    tables.swipe_hint()
    st.dataframe(claims_frame(claims), hide_index=True, width="stretch",
                 column_config={"ndcg_core (exact)": NUMBER,
                                "quantity": st.column_config.TextColumn(width="large")})


def render_ranking(r: Ranking):
    st.markdown(f"### {r.title}")
    tables.dcg_tables(r.grades, r.labels, k=r.cutoff, gain=r.gain, judged=r.judged,
                      pool_labels=r.unretrieved_labels)
    tables.formula(r.grades, k=r.cutoff, gain=r.gain, judged=r.judged)
    if r.claims:
        claims_table(r.claims)
    routing.open_in_playground(r.labels, r.grades, k=min(r.cutoff, len(r.grades)),
                               gain=r.gain, unretrieved=r.unretrieved, key=f"we_open_{r.key}")


def render_document(doc: Document):
    L.section(WORKED, doc.section)
    for r in doc.rankings:
        render_ranking(r)
    if doc.claims:
        claims_table(doc.claims)
    for ex in doc.code:
        st.markdown(f"### {ex.title}")
        st.code(ex.code, language="python")
        st.caption("It prints (computed by ndcg_core, to 12 significant digits):")
        st.code(ex.prints(), language="text")
        if ex.ranking:
            render_ranking(ex.ranking)
    for e in doc.errata:
        L.erratum(WORKED, e.section)
        if e.claims:
            claims_table(e.claims)


# ------------------------------------------------------------------ start here

def render_step(step: Step):
    g, k, lab = step.grades, step.k, step.labels
    if step.view == "cg":
        orders = (g, tuple(sorted(g)), tuple(reversed(g)))
        metric_row([(f"CG@{k} of {show_grades(o)}", f"{nc.cg(list(o), k=k):g}")
                    for o in orders])
    elif step.view in ("dcg", "idcg"):
        ideal = step.view == "idcg"
        if ideal:
            tables.ideal_table(g, lab, k=k, gain="linear")
        else:
            tables.ranking_table(g, lab, k=k, gain="linear")
        parts = nc.ndcg_parts(list(g), k=k)
        metric_row([(f"{'IDCG' if ideal else 'DCG'}@{k}", parts.idcg if ideal else parts.dcg)])
    else:
        for gain in ("linear", "exponential"):
            parts = nc.ndcg_parts(list(g), k=k, gain=gain)
            metric_row([(f"{m}@{k} ({gain})", v) for m, v in zip(("DCG", "IDCG", "NDCG"),
                                                                  parts)])
            tables.formula(g, k=k, gain=gain)
    routing.open_in_playground(lab, g, k=k, key=f"sh_open_{step.section}")


# ------------------------------------------------------------------ the gain lesson

def render_flip(pg, flip: Flip):
    k = flip.k
    if flip.a is None:
        st.info(FLIP_REASONS[flip.reason].format(searched=flip.searched),
                icon=":material/block:")
        return
    how = (f"all {flip.searched} distinct top-{k} orderings" if flip.exhaustive
           else f"{flip.searched} orderings sampled with seed 0")
    (la, ea), (lb, eb) = flip.ndcg["a"], flip.ndcg["b"]
    st.success(f"Linear gain prefers **P** ({fmt(la)} > {fmt(lb)}); exponential gain prefers "
               f"**Q** ({fmt(eb)} > {fmt(ea)}). Searched {how}.",
               icon=":material/swap_horiz:")
    labels = {name: arrange(pg.labels, pg.grades, order) for name, order in (("P", flip.a),
                                                                             ("Q", flip.b))}
    rows = [{"ordering": name, "grades in order": ", ".join(fmt_grade(x) for x in order),
             f"top {k} items": ", ".join(labels[name][:k]),
             f"NDCG@{k} linear": scores[0], f"NDCG@{k} exponential": scores[1]}
            for name, order, scores in (("P", flip.a, flip.ndcg["a"]),
                                        ("Q", flip.b, flip.ndcg["b"]))]
    tables.swipe_hint()
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={f"NDCG@{k} linear": NUMBER, f"NDCG@{k} exponential": NUMBER},
                 key="gain_flip_table")
    for col, name, order in zip(st.columns(2), "PQ", (flip.a, flip.b)):
        with col:
            routing.open_in_playground(labels[name], order, k=k, gain="both",
                                       unretrieved=pg.unretrieved, key=f"gain_open_{name}",
                                       label=f"Open {name} in playground")


def scoring_error(exc: Exception, what: str = "These grades cannot be scored"):
    st.error(f"{what}: {escape_markdown(exc)}", icon=":material/error:")

