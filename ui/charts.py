"""Every chart of the app: one layout and one config, and the figures the pages draw.

Figures are built from ndcg_core's numbers and cached as objects (``st.cache_resource``: no
copy). ``st.plotly_chart`` re-validates a dict through plotly's validators (~18 ms); a Figure
object only needs ``to_dict`` (~2 ms).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from lab.tour import single_hit
from lab.text import escape_html

CONFIG = {"displaylogo": False}
ACTUAL, IDEAL = "#1f77b4", "#ff7f0e"
SYSTEM_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                 "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")


def layout(fig: go.Figure, *, title: str, x: str, y: str, height: int = 340, **kw) -> go.Figure:
    """The one chart layout: title, axis titles, legend below, small margins. Nested dicts,
    not plotly's "magic underscore" keys: those cost ~20 ms per figure."""
    fig.update_layout(title=dict(text=title), xaxis=dict(title=dict(text=x)),
                      yaxis=dict(title=dict(text=y)), height=height,
                      margin=dict(t=50, b=40, l=40, r=10),
                      legend=dict(orientation="h", y=-0.25), **kw)
    return fig


def show(fig: go.Figure, key: str | None = None):
    st.plotly_chart(fig, config=CONFIG, key=key)


def hover_text(ids) -> list[str]:
    """Ids for hover labels: plotly reads a few HTML tags there, so show them as data."""
    return [escape_html(i) for i in ids]


@st.cache_resource(max_entries=256, show_spinner=False)
def contribution_chart(grades: tuple, k: int, gain: str, judged: tuple | None) -> go.Figure:
    """What each position adds to DCG: the ranking's bars beside the ideal's."""
    actual = nc.dcg_table(list(grades), k=k, gain=gain)
    ideal = nc.ideal_table(list(grades), k=k, gain=gain,
                           ideal=list(judged) if judged else None).head(len(grades))
    hover = "position %{x}<br>contribution %{y:.3f}"
    fig = go.Figure([
        go.Bar(name="your ranking", x=actual["position"], y=actual["contribution"],
               marker_color=ACTUAL, hovertemplate=hover),
        go.Bar(name="ideal", x=ideal["position"], y=ideal["contribution"], marker_color=IDEAL,
               marker_pattern_shape="/", hovertemplate=hover),
    ])
    fig.add_vline(x=k + 0.5, line_dash="dash", annotation_text=f"k = {k}")
    return layout(fig, title=f"What each position adds to DCG ({gain} gain)", x="position",
                  y="gain / discount", barmode="group")


@st.cache_resource(max_entries=256, show_spinner=False)
def curve_chart(grades: tuple, k: int, judged: tuple | None) -> go.Figure:
    """NDCG@k for every cutoff k, under both gains."""
    fig = go.Figure()
    for gain, dash in (("linear", "solid"), ("exponential", "dot")):
        try:
            c = nc.ndcg_curve(list(grades), gain=gain, ideal=list(judged) if judged else None)
        except ValueError:
            continue
        fig.add_scatter(x=c["k"], y=c["ndcg"], name=f"{gain} gain", mode="lines+markers",
                        line_dash=dash, hovertemplate="NDCG@%{x} = %{y:.3f}")
    fig.add_vline(x=k, line_dash="dash", annotation_text=f"k = {k}")
    return layout(fig, title="NDCG@k for every cutoff k", x="cutoff k", y="NDCG@k",
                  yaxis_range=[0, 1.05])


@st.cache_resource(show_spinner=False)
def hit_chart(n: int = 10) -> go.Figure:
    """One relevant item among n: precision@n stays flat, NDCG@n falls with its position."""
    pos = list(range(1, n + 1))
    fig = go.Figure()
    fig.add_scatter(x=pos, y=[nc.precision_at_k(single_hit(p, n), k=n) for p in pos],
                    name=f"precision@{n}", mode="lines+markers")
    fig.add_scatter(x=pos, y=[nc.ndcg(single_hit(p, n), k=n) for p in pos],
                    name=f"NDCG@{n}", mode="lines+markers", line_dash="dot")
    fig.update_yaxes(range=[0, 1.05])
    return layout(fig, title=f"One relevant item among {n}: precision@{n} vs NDCG@{n}",
                  x="position of the relevant item", y="score")


@st.cache_resource(show_spinner=False)
def gain_chart(top: int = 4) -> go.Figure:
    """The gain of a grade under linear and exponential gain."""
    fine = [i / 10 for i in range(10 * top + 1)]
    whole = list(range(top + 1))
    fig = go.Figure()
    for gain, dash in (("linear", "solid"), ("exponential", "dot")):
        name = "linear: rel" if gain == "linear" else "exponential: 2^rel − 1"
        fig.add_scatter(x=fine, y=nc.dcg_table(fine, gain=gain)["gain"], name=name,
                        mode="lines", line_dash=dash, legendgroup=gain,
                        hovertemplate="rel %{x}: gain %{y:.3f}")
        fig.add_scatter(x=whole, y=nc.dcg_table(whole, gain=gain)["gain"], mode="markers",
                        legendgroup=gain, showlegend=False, hovertemplate="rel %{x}: gain %{y}")
    return layout(fig, title="Gain of a grade: linear vs exponential", x="grade rel",
                  y="gain (points before the discount)")


def lines_chart(df, *, x: str, columns, title: str, y: str, yrange=None) -> go.Figure:
    """One line per column of ``df`` against column (or index) ``x``."""
    xs = df.index if x == "index" else df[x]
    fig = go.Figure([go.Scatter(x=xs, y=df[c], name=c, mode="lines+markers") for c in columns])
    if yrange:
        fig.update_yaxes(range=yrange)
    return layout(fig, title=title, x="rank" if x == "index" else x, y=y, height=320)


# ------------------------------------------------------------------ your runs

def colors(systems) -> dict:
    """One colour per run, in upload order (the same run keeps its colour on every chart)."""
    return {s: SYSTEM_COLORS[i % len(SYSTEM_COLORS)] for i, s in enumerate(systems)}


def runs_histogram(tables: dict, k: int) -> go.Figure:
    fig = go.Figure()
    color = colors(tables)
    for system, t in tables.items():
        fig.add_histogram(x=t[f"ndcg@{k}"], name=system, opacity=0.65, nbinsx=20,
                          marker=dict(color=color[system]))
    return layout(fig, title=f"Per-query NDCG@{k}", x=f"NDCG@{k}", y="queries",
                    height=360, barmode="overlay")


def runs_curve_chart(df: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    color = colors(dict.fromkeys(df["system"]))
    for (system, gain), g in df.groupby(["system", "gain"], sort=False):
        fig.add_scatter(x=g["k"], y=g["mean NDCG@k"], mode="lines+markers",
                        name=f"{system}, {gain} gain", marker=dict(color=color[system]),
                        line=dict(color=color[system],
                                  dash="solid" if gain == "linear" else "dash"))
    return layout(fig, title="Mean NDCG@k as k grows", x="k", y="mean NDCG@k", height=360)


def wins_chart(counts: pd.DataFrame, baseline: str, k: int) -> go.Figure:
    """Wins, ties and losses of each run against the baseline, one stacked bar per run."""
    fig = go.Figure()
    names = hover_text(counts.index)
    for column, color in (("wins", "#2ca02c"), ("ties", "#bbbbbb"), ("losses", "#d62728")):
        fig.add_bar(y=names, x=counts[column], name=column, orientation="h",
                    marker=dict(color=color),
                    hovertemplate="%{y}: %{x} " + column + "<extra></extra>")
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(legend=dict(traceorder="normal"))
    return layout(fig, title=f"Queries won, tied, lost against {hover_text([baseline])[0]}"
                    f" at NDCG@{k}", x="queries", y="", height=max(220, 80 + 34 * len(counts)),
                    barmode="stack")


def delta_chart(d: pd.DataFrame, system: str, baseline: str, k: int) -> go.Figure:
    """Per-query NDCG@k difference, sorted: green bars the run wins, red bars it loses."""
    color = np.where(d["delta"] > 0, "#2ca02c", np.where(d["delta"] < 0, "#d62728", "#bbbbbb"))
    fig = go.Figure(go.Bar(
        x=np.arange(1, len(d) + 1), y=d["delta"], marker=dict(color=color),
        text=hover_text(d["qid"]), customdata=d[["baseline", "system"]].to_numpy(float),
        hovertemplate="query %{text}<br>Δ %{y:+.4f}<br>baseline %{customdata[0]:.4f}"
                      "<br>run %{customdata[1]:.4f}<extra></extra>", textposition="none"))
    who = hover_text([system, baseline])
    return layout(fig, title=f"{who[0]} − {who[1]}, per query (sorted)",
                    x="queries, largest gain first", y=f"Δ NDCG@{k}", height=340)
