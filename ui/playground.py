"""Pieces of the playground that lessons reuse: metrics, tables, formula, charts, and the
"Open in playground" button. Every number comes from ndcg_core."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from ui.state import fmt_grade, ranking_query_params

PLAYGROUND = "pages/playground.py"
GAIN_NAMES = {"linear": "linear", "exponential": "exponential"}
TABLE_COLUMNS = {
    "position": "position", "label": "item", "relevance": "grade", "gain": "gain",
    "discount": "discount log2(i+1)", "contribution": "contribution",
    "cumulative_dcg": "cumulative DCG", "marker": "in top k",
}
ACTUAL, IDEAL = "#1f77b4", "#ff7f0e"


def gains_of(choice: str):
    return ("linear", "exponential") if choice == "both" else (choice,)


@st.cache_data(max_entries=512, show_spinner=False)
def summary(grades: tuple, k: int, gain: str, pool: tuple | None):
    """DCG@k, IDCG@k, NDCG@k of one ranking under one gain (cached per state)."""
    ideal = list(pool) if pool else None
    return (nc.dcg(list(grades), k=k, gain=gain),
            nc.dcg(sorted(ideal or grades, reverse=True), k=k, gain=gain),
            nc.ndcg(list(grades), k=k, gain=gain, ideal=ideal))


NUMERIC = ["gain", "discount log2(i+1)", "contribution", "cumulative DCG"]
DIM = [("color", "#6b7280"), ("font-style", "italic")]


def _display(table: pd.DataFrame):
    """A DCG table as shown: renamed columns, a text marker for rows past k (so colour is not
    the only signal), and which rows to dim. Built in one go (each ``assign`` / ``drop`` /
    ``rename`` would copy the frame: 1.6 ms per table against 0.4 ms)."""
    inside = table["in_cutoff"].to_numpy()
    cols = {TABLE_COLUMNS[c]: table[c].to_numpy() for c in table.columns if c != "in_cutoff"}
    cols["grade"] = np.array([fmt_grade(g) for g in cols["grade"]], dtype=object)
    cols["in top k"] = np.where(inside, "✓", "· beyond k").astype(object)
    return pd.DataFrame(cols, copy=False), np.flatnonzero(~inside).tolist()


def _styled(shown):
    """The table for st.dataframe: a pandas Styler that dims the rows past k, built without
    Styler's renderer; the plain frame when no row is past k (a Styler costs Streamlit a
    second, all-text copy of the table: ~2 ms per table).

    st.dataframe reads a Styler through ``_compute()`` and ``_translate()`` (cell CSS and
    display texts). Rendering those with pandas costs ~10 ms per small table, most of the
    playground's rerun; we hand Streamlit just the cell CSS, precomputed, and leave number
    formatting to the column config (3 decimals).
    """
    df, dim_rows = shown
    if not dim_rows:
        return df
    styler = df.style
    ncols = df.shape[1]
    translated = {
        "body": [],
        "cellstyle": [{"props": DIM, "selectors": [f"row{r}_col{c}" for r in dim_rows
                                                   for c in range(ncols)]}],
        "table_styles": [],
    }
    styler._compute = lambda: styler
    styler._translate = lambda *args, **kwargs: translated
    return styler


# short headers on screen; the full names stay in the data and in the tooltips
_HEADERS = {
    "position": ("pos.", "position i in the list"),
    "discount log2(i+1)": ("log₂(i+1)", "discount: the gain at position i is divided by "
                           "log2(i+1)"),
    "contribution": ("contrib.", "contribution = gain / log2(i+1)"),
    "cumulative DCG": ("cum. DCG", "cumulative DCG: DCG@i, the sum of contributions so far"),
    "in top k": ("top k", "✓ counts in DCG@k; '· beyond k' rows are past the cutoff"),
}
COLUMN_CONFIG = {
    name: (st.column_config.NumberColumn(label, help=help_, format="%.3f") if name in NUMERIC
           else st.column_config.Column(label, help=help_))
    for name, (label, help_) in _HEADERS.items()}
COLUMN_CONFIG |= {name: st.column_config.NumberColumn(name, format="%.3f")
                  for name in NUMERIC if name not in COLUMN_CONFIG}
# Pinned: the "beyond k" text marker stays on screen however narrow the table is (it is the
# last column, and half-width tables cut it off at 1280 px; dimming alone is colour only).
COLUMN_CONFIG["in top k"] = st.column_config.Column("top k", help=_HEADERS["in top k"][1],
                                                    pinned=True)


def ideal_order(grades: tuple, labels: tuple, pool: tuple | None = None,
                pool_labels: tuple = ()) -> tuple[tuple, tuple]:
    """(grades, labels) of the ideal ordering, best first: the ranking's items, or with a
    judged pool also the judged items it did not retrieve. Ties keep the ranking's order."""
    if pool:
        extra = list(pool)[len(grades):]
        names = list(labels) + (list(pool_labels) or
                                [f"not retrieved {i + 1}" for i in range(len(extra))])
        all_grades = list(grades) + extra
    else:
        names, all_grades = list(labels), list(grades)
    order = sorted(range(len(all_grades)), key=lambda i: -all_grades[i])
    return tuple(all_grades[i] for i in order), tuple(names[i] for i in order)


# Cached with its output and keyed by what it shows: on a repeat Streamlit replays the stored
# element instead of building and serialising the table again (~0.3 ms instead of ~6 ms).
# After a move the ideal table is such a repeat (unless tied items swapped), and so is any
# state seen before.
@st.cache_data(max_entries=1024, show_spinner=False)
def _table(grades: tuple, labels: tuple, k: int, gain: str) -> None:
    """Show one DCG table of ``grades`` / ``labels`` in the order given."""
    table = nc.dcg_table(list(grades), k=k, gain=gain, labels=list(labels))
    st.dataframe(_styled(_display(table)), hide_index=True, width="stretch",
                 column_config=COLUMN_CONFIG)


def dcg_tables(grades, labels, *, k, gain, pool=None, heading=True):
    """The ranking's DCG table and its ideal ordering's table, side by side."""
    grades, labels, pool = tuple(grades), tuple(labels), tuple(pool) if pool else None
    left, right = st.columns(2)
    with left:
        if heading:
            st.markdown(f"**Your ranking** ({gain} gain)")
        _table(grades, labels, k, gain)
    with right:
        if heading:
            st.markdown("**Ideal ordering**" + (" (ranking + judged pool)" if pool else ""))
        _table(*ideal_order(grades, labels, pool), k, gain)


def formula(grades, *, k, gain, pool=None):
    """The DCG sum and the NDCG ratio with the numbers substituted."""
    d, i, n = summary(tuple(grades), k, gain, tuple(pool) if pool else None)
    terms = []
    for pos, g in enumerate(list(grades)[:k], start=1):
        num = fmt_grade(g) if gain == "linear" else f"(2^{{{fmt_grade(g)}}}-1)"
        terms.append(rf"\frac{{{num}}}{{\log_2 {pos + 1}}}")
    shown = " + ".join(terms[:8]) + (r" + \cdots" if len(terms) > 8 else "")
    st.latex(rf"\mathrm{{DCG@{k}}} = {shown} = {d:.3f}")
    st.latex(rf"\mathrm{{NDCG@{k}}} = \frac{{\mathrm{{DCG@{k}}}}}{{\mathrm{{IDCG@{k}}}}}"
             rf" = \frac{{{d:.3f}}}{{{i:.3f}}} = {n:.3f}")


# Figures are cached as objects (cache_resource: no copy). st.plotly_chart re-validates a dict
# through plotly's validators (~18 ms); a Figure object only needs to_dict (~2 ms).
@st.cache_resource(max_entries=256, show_spinner=False)
def contribution_chart(grades: tuple, k: int, gain: str, pool: tuple | None) -> go.Figure:
    ideal_grades = sorted(pool or grades, reverse=True)[: len(grades)]
    actual = nc.dcg_table(list(grades), k=k, gain=gain)
    ideal = nc.dcg_table(ideal_grades, k=k, gain=gain)
    fig = go.Figure([
        go.Bar(name="your ranking", x=actual["position"], y=actual["contribution"],
               marker_color=ACTUAL, hovertemplate="position %{x}<br>contribution %{y:.4f}"),
        go.Bar(name="ideal", x=ideal["position"], y=ideal["contribution"], marker_color=IDEAL,
               marker_pattern_shape="/", hovertemplate="position %{x}<br>contribution %{y:.4f}"),
    ])
    fig.add_vline(x=k + 0.5, line_dash="dash", annotation_text=f"k = {k}")
    fig.update_layout(title=f"What each position adds to DCG ({gain} gain)", barmode="group",
                      xaxis_title="position", yaxis_title="gain / discount", height=340,
                      margin=dict(t=50, b=40, l=40, r=10), legend=dict(orientation="h", y=-0.25))
    return fig


@st.cache_resource(max_entries=256, show_spinner=False)
def curve_chart(grades: tuple, k: int, pool: tuple | None) -> go.Figure:
    fig = go.Figure()
    for gain, dash in (("linear", "solid"), ("exponential", "dot")):
        try:
            c = nc.ndcg_curve(list(grades), gain=gain, ideal=list(pool) if pool else None)
        except ValueError:
            continue
        fig.add_scatter(x=c["k"], y=c["ndcg"], name=f"{gain} gain", mode="lines+markers",
                        line_dash=dash, hovertemplate="NDCG@%{x} = %{y:.4f}")
    fig.add_vline(x=k, line_dash="dash", annotation_text=f"k = {k}")
    fig.update_layout(title="NDCG@k for every cutoff k", xaxis_title="cutoff k",
                      yaxis_title="NDCG@k", yaxis_range=[0, 1.05], height=340,
                      margin=dict(t=50, b=40, l=40, r=10), legend=dict(orientation="h", y=-0.25))
    return fig


def charts(grades, *, k, gain, pool=None):
    pool = tuple(pool) if pool else None
    left, right = st.columns(2)
    with left:
        st.plotly_chart(contribution_chart(tuple(grades), k, gain, pool), key=None,
                        config={"displaylogo": False})
    with right:
        st.plotly_chart(curve_chart(tuple(grades), k, pool), config={"displaylogo": False})


def open_in_playground(labels, grades, *, k=None, gain="linear", pool=(), key: str,
                       label="Open in playground"):
    """A button that loads this ranking in the playground (the shareable-link mechanism)."""
    if st.button(label, key=key, icon=":material/open_in_new:"):
        st.switch_page(PLAYGROUND, query_params=ranking_query_params(
            labels, grades, k=k, gain=gain, pool=pool))


def headline(figures: dict, k: int, pg):
    """DCG@k, IDCG@k, NDCG@k as metrics, each with the change the last edit caused."""
    ss = st.session_state
    sig = (tuple(pg.grades), k, pg.pool)
    last = ss.get("pg_last")
    if not last or last["sig"] != sig:
        before = last["values"] if last else {}
        delta = {g: tuple(a - b for a, b in zip(v, before[g])) for g, v in figures.items()
                 if g in before}
        ss.pg_last = {"sig": sig, "values": figures, "delta": delta}
    else:
        ss.pg_last["values"] = {**last["values"], **figures}
    delta = ss.pg_last["delta"]
    for gain, values in figures.items():
        suffix = f" ({gain})" if len(figures) > 1 else ""
        for col, name, v, dv in zip(st.columns(3), ("DCG", "IDCG", "NDCG"), values,
                                    delta.get(gain, (None,) * 3)):
            col.metric(f"{name}@{k}{suffix}", f"{v:.3f}", border=True,
                       delta=None if dv is None or abs(dv) < 5e-13 else f"{dv:+.3f}",
                       help=f"{name}@{k} = {v:.6f} under {gain} gain")


def change_note(figures: dict, gains):
    """With both gains: which of them the last change moved more."""
    delta = st.session_state.get("pg_last", {}).get("delta", {})
    if len(gains) < 2 or not all(g in delta for g in gains):
        return
    lin, exp = delta["linear"][2], delta["exponential"][2]
    if abs(lin) < 5e-13 and abs(exp) < 5e-13:
        return
    more = "exponential" if abs(exp) > abs(lin) else "linear"
    st.info(f"Your last change moved NDCG by {lin:+.3f} under linear gain and {exp:+.3f} "
            f"under exponential gain: it matters more under **{more}** gain.",
            icon=":material/compare_arrows:")


def one_table(grades, labels, *, k, gain, pool=None, ideal=False):
    """One of :func:`dcg_tables`' two tables on its own: the ranking's, or (``ideal=True``)
    its ideal ordering's — for lessons that show them one step at a time."""
    grades, labels = tuple(grades), tuple(labels)
    if ideal:
        grades, labels = ideal_order(grades, labels, tuple(pool) if pool else None)
    _table(grades, labels, k, gain)
