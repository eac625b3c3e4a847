"""Renderers of the conventions lesson: its tables and the library presets panel. The tables
themselves are built by :mod:`lab.conventions` (plain pandas, tested without a server)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from lab import conventions as C
from lab.playground import Playground
from lab.text import escape_markdown, fmt_grade
from ui import routing, tables

HIGHLIGHT = "background-color: rgba(255, 171, 0, 0.28)"


def table(df, **kw):
    """A lesson table: numbers with the learner pages' decimals."""
    st.dataframe(df, hide_index=True, width="stretch",
                 column_config={c: tables.NUMBER for c in df.columns if df[c].dtype.kind == "f"},
                 **kw)


def presets_panel(pg: Playground, k: int):
    """The playground list under every library preset, differences highlighted."""
    table_ = C.presets_table(pg.grades, k, pg.unretrieved)
    mask = C.differs_from_baseline(table_)
    styled = table_.style.apply(lambda _: np.where(mask, HIGHLIGHT, ""), axis=None)
    shown = ", ".join(f"{escape_markdown(lab)} ({fmt_grade(g)})"
                      for lab, g in zip(pg.labels, pg.grades))
    st.caption(f"Ranked list: {shown}; k = {k}" + (
        f"; judged but not retrieved: {', '.join(fmt_grade(g) for g in pg.unretrieved)}"
        if pg.unretrieved else "") + ". Highlighted cells differ from trec_eval.")
    st.dataframe(styled, width="stretch", key="cv_presets_table", column_config={
        f"NDCG@{k}": st.column_config.Column(help="Refusals show the engine's message."),
        "why it differs from trec_eval": st.column_config.Column(width="medium")})
    routing.link_to_playground("Change the list in the playground")
    return table_
