"""The DCG tables and the formula with numbers substituted, as every page shows them.

Each figure is the engine's: the ranking's table is ``ndcg_core.dcg_table``, the ideal's
``ndcg_core.ideal_table`` (the ideal NDCG divides by: with a judged pool, negative grades are
left out), and the formula's numbers come from ``ndcg_core.ndcg_parts``.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import streamlit as st

import ndcg_core as nc
from lab.gains import GAINS
from lab.i18n import t
from lab.text import LEARN_DECIMALS, fmt, fmt_grade, number_format
from ui import present as ui_present, state

TABLE_COLUMNS = {
    "position": "position", "label": "item", "relevance": "grade", "gain": "gain",
    "discount": "discount log2(i+1)", "contribution": "contribution",
    "cumulative_dcg": "cumulative DCG", "marker": "in top k",
}
NUMERIC = ["gain", "discount log2(i+1)", "contribution", "cumulative DCG"]
DIM = "color: #6b7280; font-style: italic"

NUMBER = st.column_config.NumberColumn(format=number_format(LEARN_DECIMALS))


def headers(lang: str) -> dict[str, tuple[str, str | None]]:
    """{column: (short header on screen, tooltip)} in ``lang``: the frame's own column
    names stay English (the display labels are Streamlit's column_config); the full names
    are in the tooltips."""
    return {
        "position": (t("pos.", lang), t("position i in the list", lang)),
        "item": (t("item", lang), None),
        "grade": (t("grade", lang), None),
        "gain": (t("gain", lang), None),
        "discount log2(i+1)": ("log₂(i+1)", t("discount: the gain at position i is divided "
                                               "by log2(i+1)", lang)),
        "contribution": (t("contrib.", lang), t("contribution = gain / log2(i+1)", lang)),
        "cumulative DCG": (t("cum. DCG", lang), t("cumulative DCG: DCG@i, the sum of "
                                                   "contributions so far", lang)),
        "in top k": (t("top k", lang), t("✓ counts in DCG@k; '· beyond k' rows are past the "
                                         "cutoff", lang)),
    }


def column_config(lang: str) -> dict:
    """The DCG table's column_config in ``lang`` (numbers: 3 decimals)."""
    config = {}
    for name, (label, help_) in headers(lang).items():
        if name in NUMERIC:
            config[name] = st.column_config.NumberColumn(
                label, help=help_, format=number_format(LEARN_DECIMALS))
        else:
            # Pinned: the "beyond k" text marker stays on screen however narrow the table
            # is (it is the last column, and half-width tables cut it off at 1280 px;
            # dimming alone is colour only).
            config[name] = st.column_config.Column(label, help=help_,
                                                   pinned=name == "in top k" or None)
    return config



def _display(table: pd.DataFrame, lang: str = "en"):
    """A DCG table as shown: renamed columns, a text marker for rows past k (so colour is not
    the only signal), and which rows to dim. Built in one go (each ``assign`` / ``drop`` /
    ``rename`` would copy the frame)."""
    inside = table["in_cutoff"].to_numpy()
    cols = {TABLE_COLUMNS[c]: table[c].to_numpy() for c in table.columns if c != "in_cutoff"}
    cols["grade"] = np.array([fmt_grade(g) for g in cols["grade"]], dtype=object)
    cols["in top k"] = np.where(inside, "✓", t("· beyond k", lang)).astype(object)
    return pd.DataFrame(cols, copy=False), ~inside


def _styled(df: pd.DataFrame, dimmed: np.ndarray):
    """The rows past k dimmed, with pandas' public Styler API; the plain frame when no row is
    past k (a Styler costs Streamlit a second, all-text copy of the table)."""
    if not dimmed.any():
        return df
    css = np.where(dimmed[:, None], DIM, "")
    return df.style.apply(lambda _: np.broadcast_to(css, df.shape), axis=None)


# Cached with its output and keyed by what it shows: on a repeat Streamlit replays the stored
# element instead of building and serialising the table again (~0.3 ms instead of ~10 ms).
# After a move the ideal table is such a repeat, and so is any state seen before.
# ``present``: the presenter view's static table (ui/present.py), a key of its own.
@st.cache_data(max_entries=1024, show_spinner=False)
def _show(table: pd.DataFrame, lang: str = "en", columns: tuple | None = None,
          present: bool = False) -> None:
    ui_present.dataframe(_styled(*_display(table, lang)), hide_index=True, width="stretch",
                         column_config=column_config(lang), column_order=columns,
                         present=present)


# The tour's table (Start here): its list is all inside k and its gain is linear (the grade
# itself), so "in top k" and "gain" would only repeat; six columns fit beside the lesson text.
COMPACT = ("position", "item", "grade", "discount log2(i+1)", "contribution", "cumulative DCG")


# The two notes' markup: a class ui/fit.css shows on a phone only, around one sentence from
# the catalogs. st.html gets the app's own markup only (tests/browser/test_security.py): this
# literal template, filled with a catalog message, escaped.
SWIPE_HINT = '<p class="ndcg-swipe">↔ {note}</p>'  # before one table wider than a phone
# in a pair of DCG tables, which ui/fit.css wraps where two tables do not fit side by side
PAIR_MARKER = '<p class="ndcg-pair">↔ {note}</p>'


def swipe_hint():
    """Before a single table that is wider than a phone: says so there, hidden elsewhere."""
    st.html(SWIPE_HINT.format(note=html.escape(t(
        "This table is wider than the screen: swipe it sideways to see every column.",
        state.language()))))


def pair_marker():
    """Mark the columns this is called in as a pair of DCG tables (see PAIR_MARKER)."""
    st.html(PAIR_MARKER.format(note=html.escape(t(
        "The tables are wider than the screen: swipe them sideways to see every column.",
        state.language()))))


def ranking_table(grades, labels, *, k, gain, hint=True, columns=None):
    """The DCG table of ``grades`` in the order given; ``hint``: the phone's swipe hint above
    it (not in a pair of tables, which has its own); ``columns``: the columns shown (all by
    default; :data:`COMPACT`)."""
    if hint:
        swipe_hint()
    _show(nc.dcg_table(list(grades), k=k, gain=gain, labels=list(labels)), state.language(),
          columns, state.presenting())


def ideal_table(grades, labels, *, k, gain, judged=None, unretrieved_labels=(),
                hint=True, columns=None):
    """The DCG table of the ideal ordering the NDCG divides by. ``judged``: the ranking's
    grades then the unretrieved ones (the engine's ``ideal=``), or None;
    ``unretrieved_labels``: the unretrieved items' names (default "not retrieved 1", ...);
    ``hint``, ``columns``: as in :func:`ranking_table`."""
    if hint:
        swipe_hint()
    grades, labels = list(grades), list(labels)
    lang = state.language()
    names = None
    if judged:
        extra = len(judged) - len(grades)
        names = labels + (list(unretrieved_labels)[:extra]
                          if len(unretrieved_labels) >= extra else
                          [t("not retrieved {i}", lang, i=i + 1) for i in range(extra)])
    _show(nc.ideal_table(grades, k=k, gain=gain, labels=labels,
                         ideal=list(judged) if judged else None, ideal_labels=names), lang,
          columns, state.presenting())


def dcg_tables(grades, labels, *, k, gain, judged=None, heading=True,
               unretrieved_labels=()):
    """The ranking's DCG table and its ideal ordering's table, side by side where they fit
    (one above the other where they do not: see ui/fit.css)."""
    lang = state.language()
    left, right = st.columns(2)
    with left:
        pair_marker()
        if heading:
            st.markdown(t("**Your ranking** (linear gain)", lang) if gain == "linear" else
                        t("**Your ranking** (exponential gain)", lang))
        ranking_table(grades, labels, k=k, gain=gain, hint=False)
    with right:
        if heading:
            st.markdown(t("**Ideal ordering** (ranking + unretrieved)", lang) if judged else
                        t("**Ideal ordering**", lang))
        ideal_table(grades, labels, k=k, gain=gain, judged=judged,
                    unretrieved_labels=unretrieved_labels,
                    hint=False)


def formula(grades, *, k, gain, judged=None):
    """The DCG sum and the NDCG ratio with the engine's numbers substituted."""
    parts = nc.ndcg_parts(list(grades), k=k, gain=gain, ideal=list(judged) if judged else None)
    terms = []
    for pos, g in enumerate(list(grades)[:k], start=1):
        num = GAINS[gain].numerator_latex.format(g=fmt_grade(g))
        terms.append(rf"\frac{{{num}}}{{\log_2 {pos + 1}}}")
    terms = terms[:8] + ([r"\cdots"] if len(terms) > 8 else [])
    # A few terms per line, so the sum fits a phone's width (390 px) without a scrollbar:
    # a display formula cannot wrap by itself.
    per_line = 3 if GAINS[gain].wide else 4
    lines = [" + ".join(terms[i:i + per_line]) for i in range(0, len(terms), per_line)]
    body = r" \\ &\quad + ".join(lines)
    st.latex(rf"\begin{{aligned}} \mathrm{{DCG@{k}}} &= {body} \\ &= {fmt(parts.dcg)}"
             r" \end{aligned}")
    if parts.idcg > 0:
        st.latex(rf"\mathrm{{NDCG@{k}}} = \frac{{\mathrm{{DCG@{k}}}}}{{\mathrm{{IDCG@{k}}}}}"
                 rf" = \frac{{{fmt(parts.dcg)}}}{{{fmt(parts.idcg)}}} = {fmt(parts.ndcg)}")
    else:
        st.latex(rf"\mathrm{{IDCG@{k}}} = {fmt(parts.idcg)}\ \Rightarrow\ "
                 rf"\mathrm{{NDCG@{k}}} = {fmt(parts.ndcg)}\ \text{{"
                 + t("(no positive gain to find)", state.language()) + "}")
