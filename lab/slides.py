"""Slide images: a ranking's two DCG tables and its formula on one 16:9 slide, and any chart,
as PNG (1600 px wide or more) or SVG.

The slide is a Plotly figure (two tables and the formula's lines), so one exporter serves
it and every chart: Kaleido, which draws the figure in a headless Chromium on this server
(Debian's ``chromium``; it downloads nothing). Every number is the engine's
(``ndcg_core.dcg_table`` / ``ideal_table``; the sums are :mod:`lab.formula`'s).
"""

from __future__ import annotations

import shutil

import plotly.graph_objects as go

import ndcg_core as nc
from lab.formula import ratio_line, sum_line
from lab.i18n import t
from lab.text import escape_html, fmt, fmt_grade

WIDTH, HEIGHT = 1600, 900  # px: a 16:9 slide
FORMATS = ("png", "svg")
MAX_ROWS = 10  # rows a table slide shows: ten and the header keep its text at 20 px
MIN_TEXT_PX = 20  # a slide's smallest text, read from the back of a room
CJK_FONT = '"DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif'


def table_slide(labels, grades, *, k: int, gain: str, unretrieved=(), lang: str = "en"
                ) -> go.Figure:
    """Both DCG tables side by side and the formula (DCG's and IDCG's sums, the ratio)."""
    grades, labels = list(grades), list(labels)
    judged = grades + list(unretrieved) if unretrieved else None
    extra = len(unretrieved)
    ranking = nc.dcg_table(grades, k=k, gain=gain, labels=labels)
    ideal = nc.ideal_table(grades, k=k, gain=gain, labels=labels, ideal=judged,
                           ideal_labels=(labels + [t("not retrieved {i}", lang, i=i + 1)
                                                   for i in range(extra)]) if judged else None)
    header = [t("pos.", lang), t("item", lang), t("grade", lang), t("gain", lang),
              "log₂(i+1)", t("contrib.", lang), t("cum. DCG", lang)]
    fig = go.Figure()
    for frame, x in ((ranking, (0.0, 0.49)), (ideal, (0.51, 1.0))):
        rows = frame.head(MAX_ROWS)
        # the rows and a two-line header share the tables' 470 px; a long label is cut
        row_px = min(40, 470 // (len(rows) + 2))
        size = max(MIN_TEXT_PX, round(row_px * 0.55))
        inside = rows["in_cutoff"].tolist()
        colour = ["#111827" if i else "#9ca3af" for i in inside]
        # Plotly reads a few HTML tags in text (<a href>, <b>): a label is escaped, as data
        cells = [rows["position"].tolist(), [escape_html(_short(x)) for x in rows["label"].astype(str)],
                 [fmt_grade(g) for g in rows["relevance"]]] + [
            [fmt(v) for v in rows[c]] for c in ("gain", "discount", "contribution",
                                                 "cumulative_dcg")]
        fig.add_trace(go.Table(
            domain=dict(x=list(x), y=[0.34, 0.9]), columnwidth=[0.6, 1.9, 0.8, 0.9, 1, 1, 1.1],
            header=dict(values=header, fill_color="#e5e7eb", font=dict(size=size), height=row_px),
            cells=dict(values=cells, font=dict(size=size, color=[colour] * len(header)),
                       height=row_px, fill_color="white", line_color="#d1d5db")))
    parts = nc.ndcg_parts(grades, k=k, gain=gain, ideal=judged)
    gain_words = (t("linear gain (gain = grade)", lang) if gain == "linear" else
                  t("exponential gain (gain = 2^grade − 1)", lang))
    notes = [(t("Your ranking", lang), 0.0, 0.955, 24), (t("Ideal ordering", lang), 0.51, 0.955, 24),
             (t("Cutoff k = {k}, {gain}.", lang, k=k, gain=gain_words), 0.0, 1.02, 22),
             (wrap(sum_line(ranking, "DCG", k, gain)), 0.0, 0.25, 20),
             (wrap(sum_line(ideal, "IDCG", k, gain)), 0.0, 0.13, 20),
             (ratio_line(parts, k), 0.0, 0.04, 28)]
    for text, x, y, size in notes:
        fig.add_annotation(text=text, x=x, y=y, xref="paper", yref="paper", xanchor="left",
                           yanchor="middle", showarrow=False, font=dict(size=size),
                           align="left")
    fig.update_layout(width=WIDTH, height=HEIGHT, margin=dict(l=40, r=40, t=60, b=30),
                      paper_bgcolor="white", font=dict(family=CJK_FONT, color="#111827"))
    return fig


def _short(label: str, most: int = 15) -> str:
    return label if len(label) <= most else label[:most - 1] + "…"


def wrap(line: str, width: int = 120) -> str:
    """A long sum broken after a ``+`` or before a ``=`` into lines of at most about
    ``width`` characters (Plotly's ``<br>``), so a sum of ten terms stays on the slide.

    >>> wrap("DCG@3 = 1/log₂2 + 1/log₂3 + 1/log₂4 = 1.000 + 0.631 + 0.500 = 2.131", 40)
    'DCG@3 = 1/log₂2 + 1/log₂3 + 1/log₂4<br>= 1.000 + 0.631 + 0.500 = 2.131'
    """
    pieces = line.replace(" = ", " \0= ").replace(" + ", " + \0").split("\0")
    lines, current = [], ""
    for piece in pieces:
        if current and len(current) + len(piece) > width:
            lines.append(current.rstrip())
            current = ""
        current += piece
    return "<br>".join(lines + [current.rstrip()])


def _readable(fig: go.Figure) -> go.Figure:
    """A chart laid out for a page, its text at :data:`MIN_TEXT_PX` or more for a slide, the
    axes' margins grown to hold their labels."""
    big = dict(size=MIN_TEXT_PX)
    fig.update_layout(font=big, legend=dict(font=big), hoverlabel=dict(font=big))
    fig.for_each_xaxis(lambda a: a.update(tickfont=big, title=dict(font=big), automargin=True))
    fig.for_each_yaxis(lambda a: a.update(tickfont=big, title=dict(font=big), automargin=True))
    fig.for_each_annotation(lambda a: a.update(font=dict(
        size=max(MIN_TEXT_PX, a.font.size or 0))))
    if fig.layout.title.text:
        fig.update_layout(title=dict(font=dict(size=max(MIN_TEXT_PX + 4,
                                                        fig.layout.title.font.size or 0))))
    return fig


def available() -> bool:
    """Whether this server can draw images (a Chromium for Kaleido)."""
    return any(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome",
                                               "chrome"))


def image(fig: go.Figure, fmt_: str = "png", *, width: int = WIDTH, height: int = HEIGHT
          ) -> bytes:
    """``fig`` as PNG or SVG bytes, ``width`` × ``height`` px (a chart laid out for a page is
    drawn again at the slide's size)."""
    if fmt_ not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt_!r}.")
    if not available():
        raise ValueError("slide images need a Chromium on the server (Debian: "
                         "`apt-get install chromium`); the charts' own camera button still "
                         "saves a PNG in the browser.")
    fig = _readable(go.Figure(fig))
    try:
        return fig.to_image(format=fmt_, width=width, height=height)
    except Exception:  # noqa: BLE001 - Kaleido's page can miss its script on a loaded
        # machine ("kaleido_scopes is not defined", seen in the suite at load 10): a fresh
        # browser draws it; a second failure is raised as it is
        return fig.to_image(format=fmt_, width=width, height=height)
