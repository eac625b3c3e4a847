"""Renderers of the conventions lesson: its tables and the library presets panel. The tables
themselves are built by :mod:`lab.conventions` (plain pandas, tested without a server)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from lab import conventions
from lab.playground import Playground
from lab.i18n import t
from lab.text import escape_markdown, fmt, fmt_grade, unbroken
from ui import routing, state

HIGHLIGHT = "background-color: rgba(255, 171, 0, 0.28)"


def table(df):
    """A lesson table: a static table whose words wrap (its "used by / what it does" text
    would be cut in a data grid's single-line cells), numbers with the learner pages'
    decimals (the exact values stay in the data)."""
    floats = [c for c in df.columns if df[c].dtype.kind == "f"]
    words = [c for c in df.columns if df[c].dtype.kind in "OUT"]  # text: no break at a hyphen
    st.table(df.style.format(fmt, subset=floats).format(unbroken, subset=words)
             .format_index(unbroken, axis=1), hide_index=True)


def presets_panel(pg: Playground, k: int):
    """The playground list under every library preset, differences highlighted."""
    lang = state.language()
    table_ = conventions.presets_table(pg.grades, k, pg.unretrieved, lang=lang)
    mask = conventions.differs_from_baseline(table_)
    styled = table_.style.apply(lambda _: np.where(mask, HIGHLIGHT, ""), axis=None)
    shown = ", ".join(f"{escape_markdown(lab)} ({fmt_grade(g)})"
                      for lab, g in zip(pg.labels, pg.grades))
    if pg.unretrieved:
        st.caption(t("Ranked list: {items}; k = {k}; judged but not retrieved: {unretrieved}. "
                     "Highlighted cells differ from trec_eval.", lang, items=shown, k=k,
                     unretrieved=", ".join(fmt_grade(g) for g in pg.unretrieved)))
    else:
        st.caption(t("Ranked list: {items}; k = {k}. Highlighted cells differ from trec_eval.",
                     lang, items=shown, k=k))
    # A static table: the option names and the "why" text wrap instead of being cut.
    st.table(styled)
    st.caption(t("A preset that refuses the list shows the engine's message as its NDCG.",
                 lang))
    routing.link_to_playground(t("Change the list in the playground", lang))
    return table_
