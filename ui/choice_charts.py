"""The charts of "Choose gain and cutoff": the τ heatmap, discriminative power per choice, the
achieved significance curves and the swap-rate curve. One layout with every other chart
(:func:`ui.charts.layout`); the camera button saves each as a 1600 × 900 PNG.

Choice names are drawn through ``labels`` (the page's language); run names are data and are
escaped (:func:`ui.charts.hover_text`).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from lab.i18n import t
from ui import charts, state


def _names(labels: dict, names) -> list:
    return charts.hover_text([labels[n] for n in names])


def tau_heatmap(matrix: pd.DataFrame, labels: dict, measure: str) -> go.Figure:
    """τ between every pair of choices: 1 on the diagonal, red where orderings differ."""
    lang = state.language()
    names = _names(labels, matrix.index)
    fig = go.Figure(go.Heatmap(
        z=matrix.to_numpy(), x=names, y=names, zmin=-1, zmax=1, colorscale="RdBu",
        texttemplate="%{z:.2f}", hoverongaps=False,
        hovertemplate=t("%{y} vs %{x}: %{z:.3f}", lang) + "<extra></extra>",
        colorbar=dict(thickness=12)))
    fig.update_yaxes(autorange="reversed")
    title = (t("Kendall's τ between the systems' orderings", lang) if measure == "kendall_tau"
             else t("τ_AP of each row's ordering against the column's", lang))
    return charts.layout(fig, title=title, x="", y="",
                         height=max(340, 120 + 34 * len(names)))


def power_chart(table: pd.DataFrame, labels: dict) -> go.Figure:
    """Discriminative power (Sakai 2006): the share of pairs each choice separates."""
    lang = state.language()
    alpha = table.attrs["alpha"]
    fig = go.Figure(go.Bar(
        y=_names(labels, table.index), x=table["discriminative_power"], orientation="h",
        customdata=table[["significant_pairs", "pairs"]].to_numpy(),
        hovertemplate=t("%{y}: %{customdata[0]} of %{customdata[1]} pairs", lang)
        + "<extra></extra>", marker=dict(color=charts.ACTUAL)))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, 1], tickformat=".0%")
    return charts.layout(fig, title=t("Pairs of systems separated at α = {alpha}", lang,
                                      alpha=f"{alpha:g}"),
                         x=t("share of pairs with p < α", lang), y="",
                         height=max(260, 90 + 28 * len(table)))


def significance_chart(curve: pd.DataFrame, labels: dict, alpha: float) -> go.Figure:
    """The achieved significance curves: each choice's p-values, sorted."""
    lang = state.language()
    fig = go.Figure()
    for name, part in curve.groupby("choice", sort=False):
        fig.add_scatter(x=part["rank"], y=part["p"], mode="lines", name=_names(labels, [name])[0])
    fig.add_hline(y=alpha, line=dict(dash="dot", color="#7f7f7f"))
    return charts.layout(fig, title=t("Achieved significance: p-values of every pair, sorted",
                                      lang),
                         x=t("pairs of systems, sorted by p", lang), y="p", height=380)


def swap_chart(curve: pd.DataFrame, labels: dict, difference: float,
               target: float) -> go.Figure:
    """Swap rate between two disjoint query sets, by their size (Voorhees & Buckley 2002)."""
    lang = state.language()
    fig = go.Figure()
    for name, part in curve.groupby("choice", sort=False):
        fig.add_scatter(x=part["size"], y=part["swap_rate"], mode="lines+markers",
                        name=_names(labels, [name])[0])
    fig.add_hline(y=target, line=dict(dash="dot", color="#7f7f7f"))
    fig.update_yaxes(tickformat=".0%", rangemode="tozero")
    return charts.layout(fig, title=t("Swap rate between disjoint query sets, pairs at least "
                                      "{d} apart", lang, d=f"{difference:g}"),
                         x=t("queries in each set", lang), y=t("swap rate", lang), height=380)
