"""Every chart of the app: one layout and one config, and the figures the pages draw.

The playground's charts draw the numbers its ranking table shows (the run's
``lab.ranking_table.gain_figures``, handed down by the page), not numbers of their own.
Figures are cached as objects (``st.cache_resource``: no copy; docs/architecture.md, *Caching*):
``st.plotly_chart`` re-validates a dict through plotly's validators (~18 ms); a Figure
object only needs ``to_dict`` (~2 ms).

Words: every title, axis title, legend entry and hover label is drawn in the page's language,
read here (``ui.state.language``) so the pages call these functions unchanged; the cached
figures are cached per language. Chinese charts name CJK faces a browser has (no font is
downloaded): Plotly draws text as SVG ``<text>``, which the browser renders with the first
face that has each glyph.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import ndcg_core as nc
from lab.gains import GAINS, chart_words
from lab.i18n import FONTS, t
from lab.tour import single_hit
from lab.text import escape_html, fmt, gain_name
from ui import state

# The camera button saves a slide-sized PNG (1600 x 900 px, redrawn at that size) whatever
# the chart's size on screen; the playground's "Slide images" also gives SVG (lab/slides.py).
CONFIG = {"displaylogo": False,
          "toImageButtonOptions": {"format": "png", "width": 1600, "height": 900,
                                   "filename": "ndcg-lab-chart"}}
ACTUAL, IDEAL = "#1f77b4", "#ff7f0e"
SYSTEM_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                 "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")


# Plotly's toolbar (the modebar) sits in the top right corner: the chart keeps a strip
# MODEBAR_PX high free for it, and the title starts below it, so the toolbar covers neither the title
# nor the data. A title wraps at TITLE_WIDTH (a Latin letter 1, a Chinese character 2): a
# phone's chart is about 350 px wide, where one line held "One relevant item among 10:
# precision@10 vs NDC" (Plotly does not wrap titles itself).
MODEBAR_PX, TITLE_LINE_PX, TITLE_WIDTH = 30, 22, 36


def wrap_title(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` in lines of at most ``width`` (Plotly's ``<br>`` between them), broken at
    spaces, or between two Chinese characters; a longer word keeps a line to itself."""
    lines, line, used = [], "", 0
    for token in re.findall(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*"
                            r"|\s+", text):
        size = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in token.rstrip())
        if line and used + size > width:
            lines.append(line.rstrip())
            line, used = "", 0
        if line or not token.isspace():
            line += token
            used += size + (len(token) - len(token.rstrip()))
    return "<br>".join(lines + [line.rstrip()])


def layout(fig: go.Figure, *, title: str, x: str, y: str, height: int = 340,
           lang: str | None = None, **kw) -> go.Figure:
    """The one chart layout: title (wrapped, below the toolbar's strip), axis titles, legend
    below, small margins; in a language whose script needs faces of its own
    (:data:`lab.i18n.FONTS`: Chinese), that font list. Nested dicts, not plotly's
    "magic underscore" keys: those cost ~20 ms per figure."""
    lang = lang or state.language()
    title = wrap_title(title)
    below = TITLE_LINE_PX * title.count("<br>")  # the lines after the first
    top = MODEBAR_PX + TITLE_LINE_PX + 8 + below
    family = FONTS.get(lang)
    if family:
        # Streamlit's chart theme keeps the legend's, the axis titles' and the hover
        # labels' families but replaces the layout's and the title's (ui/fit.css lists the
        # same faces for every chart's text in the browser)
        cjk = dict(family=family)
        kw.setdefault("font", cjk)
        kw.setdefault("hoverlabel", dict(font=cjk))
        x, y = dict(text=x, font=cjk), dict(text=y, font=cjk)
        legend = dict(orientation="h", y=-0.25, font=cjk)
        title = dict(text=title, font=cjk)
    else:
        x, y = dict(text=x), dict(text=y)
        legend = dict(orientation="h", y=-0.25)
        title = dict(text=title)
    # just above the plot (Plotly anchors a title's first line: the others need room too)
    title |= dict(yref="paper", y=1, yanchor="bottom", pad=dict(b=8 + below))
    fig.update_layout(title=title, xaxis=dict(title=x), yaxis=dict(title=y),
                      height=height + top - 50, margin=dict(t=top, b=40, l=40, r=10),
                      legend=legend, **kw)
    return fig


def show(fig: go.Figure, key: str | None = None):
    st.plotly_chart(fig, config=CONFIG, key=key)


def hover_text(ids) -> list[str]:
    """Ids for hover labels: plotly reads a few HTML tags there, so show them as data."""
    return [escape_html(i) for i in ids]




def _at_k(k: int, n: int, ndcg: Mapping[str, float | None] | None, lang: str) -> dict:
    """The cutoff line's label, "k = 4 · NDCG@4 = 0.853" (one value per gain shown, each
    named when there are two), on the side of the line with room for it."""
    values = {g: v for g, v in (ndcg or {}).items() if v is not None}
    text = f"k = {k}"
    if len(values) == 1:
        text += f" · NDCG@{k} = {fmt(next(iter(values.values())))}"
    elif values:
        text += f" · NDCG@{k} = " + ", ".join(f"{fmt(v)} ({gain_name(g, lang=lang)})"
                                              for g, v in values.items())
    return dict(annotation_text=text,
                annotation_position="top left" if 2 * k > n else "top right")


def contribution_chart(k: int, gain: str, figures: Mapping[str, Mapping]) -> go.Figure:
    """What each position adds to DCG: the ranking's bars beside the ideal's, DCG@k and
    IDCG@k in the legend, NDCG@k at the cutoff's line. ``figures`` is one gain's figures as
    the ranking table draws them (:func:`lab.ranking_table.gain_figures`): the chart shows
    the table's and the formula's numbers, computed once."""
    ranking, ideal = figures["ranking"], figures["ideal"]
    n = len(ranking["contribution"])
    return _contribution_chart(k, gain, tuple(ranking["contribution"]),
                               tuple(ideal["contribution"][:n]), ranking["dcg"],
                               ranking["idcg"], ranking["ndcg"], state.language())


@st.cache_resource(max_entries=256, show_spinner=False)
def _contribution_chart(k: int, gain: str, actual: tuple, ideal: tuple, dcg: float,
                        idcg: float, ndcg: float | None, lang: str) -> go.Figure:
    hover = t("position %{x}<br>contribution %{y:.3f}", lang)
    fig = go.Figure([
        go.Bar(name=t("your ranking: DCG@{k} = {value}", lang, k=k, value=fmt(dcg)),
               x=list(range(1, len(actual) + 1)), y=list(actual), marker_color=ACTUAL,
               hovertemplate=hover),
        go.Bar(name=t("ideal: IDCG@{k} = {value}", lang, k=k, value=fmt(idcg)),
               x=list(range(1, len(ideal) + 1)), y=list(ideal), marker_color=IDEAL,
               marker_pattern_shape="/", hovertemplate=hover),
    ])
    fig.add_vline(x=k + 0.5, line_dash="dash", **_at_k(k, len(actual), {gain: ndcg}, lang))
    title = chart_words(lang)[gain]["contributions"]
    return layout(fig, title=title, x=t("position", lang), y=t("gain / discount", lang),
                  barmode="group", lang=lang)


def curve_chart(grades: tuple, k: int, judged: tuple | None,
                ndcg: Mapping[str, float | None] | None = None, *,
                negative: str = "zero") -> go.Figure:
    """NDCG@k for every cutoff k, under both gains; ``ndcg`` ({gain: NDCG@k}, the table's
    figures when the playground draws it) is written at the cutoff's line. ``negative``:
    the engine's option, "zero" (a negative grade counts 0) as the playground's right
    convention."""
    return _curve_chart(tuple(grades), k, judged, tuple((ndcg or {}).items()),
                        state.language(), negative)


@st.cache_resource(max_entries=256, show_spinner=False)
def _curve_chart(grades: tuple, k: int, judged: tuple | None, ndcg: tuple,
                 lang: str, negative: str) -> go.Figure:
    fig = go.Figure()
    for gain, row in GAINS.items():
        dash = row.dash
        try:
            c = nc.ndcg_curve(list(grades), gain=gain, ideal=list(judged) if judged else None,
                              negative=negative)
        except ValueError:
            continue
        fig.add_scatter(x=c["k"], y=c["ndcg"], name=gain_name(gain, lang=lang, long=True),
                        mode="lines+markers", line_dash=dash,
                        hovertemplate="NDCG@%{x} = %{y:.3f}")
    fig.add_vline(x=k, line_dash="dash", **_at_k(k, len(grades), dict(ndcg), lang))
    return layout(fig, title=t("NDCG@k for every cutoff k", lang), x=t("cutoff k", lang),
                  y="NDCG@k", yaxis_range=[0, 1.05], lang=lang)


def hit_chart(n: int = 10) -> go.Figure:
    """One relevant item among n: precision@n stays flat, NDCG@n falls with its position."""
    return _hit_chart(n, state.language())


@st.cache_resource(show_spinner=False)
def _hit_chart(n: int, lang: str) -> go.Figure:
    pos = list(range(1, n + 1))
    fig = go.Figure()
    fig.add_scatter(x=pos, y=[nc.precision_at_k(single_hit(p, n), k=n) for p in pos],
                    name=t("precision@{n}", lang, n=n), mode="lines+markers")
    fig.add_scatter(x=pos, y=[nc.ndcg(single_hit(p, n), k=n) for p in pos],
                    name=f"NDCG@{n}", mode="lines+markers", line_dash="dot")
    fig.update_yaxes(range=[0, 1.05])
    return layout(fig, title=t("One relevant item among {n}: precision@{n} vs NDCG@{n}", lang,
                               n=n),
                  x=t("position of the relevant item", lang), y=t("score", lang), lang=lang)


def gain_chart(top: int = 4) -> go.Figure:
    """The gain of a grade under linear and exponential gain."""
    return _gain_chart(top, state.language())


@st.cache_resource(show_spinner=False)
def _gain_chart(top: int, lang: str) -> go.Figure:
    fine = [i / 10 for i in range(10 * top + 1)]
    whole = list(range(top + 1))
    fig = go.Figure()
    for gain, row in GAINS.items():
        name = chart_words(lang)[gain]["curve"]
        fig.add_scatter(x=fine, y=nc.dcg_table(fine, gain=gain)["gain"], name=name,
                        mode="lines", line_dash=row.dash, legendgroup=gain,
                        hovertemplate=t("rel %{x}: gain %{y:.3f}", lang))
        fig.add_scatter(x=whole, y=nc.dcg_table(whole, gain=gain)["gain"], mode="markers",
                        legendgroup=gain, showlegend=False,
                        hovertemplate=t("rel %{x}: gain %{y}", lang))
    return layout(fig, title=t("Gain of a grade: linear vs exponential", lang),
                  x=t("grade rel", lang), y=t("gain (points before the discount)", lang),
                  lang=lang)


def lines_chart(df, *, x: str, columns, title: str, y: str, yrange=None) -> go.Figure:
    """One line per column of ``df`` against column (or index) ``x``."""
    xs = df.index if x == "index" else df[x]
    fig = go.Figure([go.Scatter(x=xs, y=df[c], name=c, mode="lines+markers") for c in columns])
    if yrange:
        fig.update_yaxes(range=yrange)
    return layout(fig, title=title, x=t("rank", state.language()) if x == "index" else x, y=y,
                  height=320)


# ------------------------------------------------------------------ your runs

def colors(systems) -> dict:
    """One colour per run, in upload order (the same run keeps its colour on every chart)."""
    return {s: SYSTEM_COLORS[i % len(SYSTEM_COLORS)] for i, s in enumerate(systems)}


def runs_histogram(tables: dict, k: int) -> go.Figure:
    lang = state.language()
    fig = go.Figure()
    color = colors(tables)
    for system, table in tables.items():
        fig.add_histogram(x=table[f"ndcg@{k}"], name=system, opacity=0.65, nbinsx=20,
                          marker=dict(color=color[system]))
    return layout(fig, title=t("Per-query NDCG@{k}", lang, k=k), x=f"NDCG@{k}",
                  y=t("queries", lang), height=360, barmode="overlay")


def runs_curve_chart(df: pd.DataFrame) -> go.Figure:
    lang = state.language()
    fig = go.Figure()
    color = colors(dict.fromkeys(df["system"]))
    for (system, gain), g in df.groupby(["system", "gain"], sort=False):
        fig.add_scatter(x=g["k"], y=g["mean NDCG@k"], mode="lines+markers",
                        name=chart_words(lang)[gain]["run"].format(run=system),
                        marker=dict(color=color[system]),
                        line=dict(color=color[system], dash=GAINS[gain].dash))
    return layout(fig, title=t("Mean NDCG@k as k grows", lang), x="k",
                  y=t("mean NDCG@k", lang), height=360)


def wins_chart(counts: pd.DataFrame, baseline: str, k: int) -> go.Figure:
    """Wins, ties and losses of each run against the baseline, one stacked bar per run."""
    lang = state.language()
    fig = go.Figure()
    names = hover_text(counts.index)
    words = {"wins": (t("wins", lang), t("%{y}: %{x} wins", lang)),
             "ties": (t("ties", lang), t("%{y}: %{x} ties", lang)),
             "losses": (t("losses", lang), t("%{y}: %{x} losses", lang))}
    for column, color in (("wins", "#2ca02c"), ("ties", "#bbbbbb"), ("losses", "#d62728")):
        name, hover = words[column]
        fig.add_bar(y=names, x=counts[column], name=name, orientation="h",
                    marker=dict(color=color), hovertemplate=hover + "<extra></extra>")
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(legend=dict(traceorder="normal"))
    return layout(fig, title=t("Queries won, tied, lost against {baseline} at NDCG@{k}", lang,
                               baseline=hover_text([baseline])[0], k=k),
                  x=t("queries", lang), y="", height=max(220, 80 + 34 * len(counts)),
                  barmode="stack")


def delta_chart(d: pd.DataFrame, system: str, baseline: str, k: int) -> go.Figure:
    """Per-query NDCG@k difference, sorted: green bars the run wins, red bars it loses."""
    lang = state.language()
    color = np.where(d["delta"] > 0, "#2ca02c", np.where(d["delta"] < 0, "#d62728", "#bbbbbb"))
    fig = go.Figure(go.Bar(
        x=np.arange(1, len(d) + 1), y=d["delta"], marker=dict(color=color),
        text=hover_text(d["qid"]), customdata=d[["baseline", "system"]].to_numpy(float),
        hovertemplate=t("query %{text}<br>Δ %{y:+.4f}<br>baseline %{customdata[0]:.4f}"
                        "<br>run %{customdata[1]:.4f}", lang) + "<extra></extra>",
        textposition="none"))
    who = hover_text([system, baseline])
    return layout(fig, title=t("{run} − {baseline}, per query (sorted)", lang, run=who[0],
                               baseline=who[1]),
                  x=t("queries, largest gain first", lang), y=f"Δ NDCG@{k}", height=340)
