"""Renderers of the conventions lesson: its tables and the library presets panel. The tables
themselves are built by :mod:`lab.conventions` (plain pandas, tested without a server)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from lab import conventions as C
from lab.playground import Playground
from lab.text import escape_markdown, fmt, fmt_grade
from ui import routing

HIGHLIGHT = "background-color: rgba(255, 171, 0, 0.28)"


def table(df):
    """A lesson table: a static table whose words wrap (its "used by / what it does" text
    would be cut in a data grid's single-line cells), numbers with the learner pages'
    decimals (the exact values stay in the data)."""
    floats = [c for c in df.columns if df[c].dtype.kind == "f"]
    st.table(df.style.format(fmt, subset=floats), hide_index=True)


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
    # A static table: the option names and the "why" text wrap instead of being cut.
    st.table(styled)
    st.caption("A preset that refuses the list shows the engine's message as its NDCG.")
    routing.link_to_playground("Change the list in the playground")
    return table_
