"""The playground's "Slides" popover: the tables and formula as one 16:9 image, each chart as
PNG or SVG (drawn on click by the server's Chromium, lab/slides.py), and the formula's LaTeX
to paste into slides."""

from __future__ import annotations

from functools import partial

import streamlit as st

from lab import formula as formula_text
from lab import playground as P
from lab import slides as S
from lab.i18n import t
from ui import charts as plotly_charts
from ui import state


def downloads(name: str, figure, *, key: str, stem: str):
    """PNG and SVG buttons; ``figure`` is a function, called on click (off this rerun). The
    data page's "Choose gain and cutoff" tab uses them too."""
    lang = state.language()
    st.markdown(f"**{name}**")
    row = st.container(horizontal=True, gap="small")
    for fmt_ in S.FORMATS:
        with row:
            st.download_button(fmt_.upper(), data=partial(_image, figure, fmt_),
                               file_name=f"ndcg-lab-{stem}-{lang}.{fmt_}",
                               mime="image/png" if fmt_ == "png" else "image/svg+xml",
                               on_click="ignore", key=f"{key}_{fmt_}",
                               icon=":material/download:")


def _image(figure, fmt_: str) -> bytes:
    return S.image(figure(), fmt_)


def popover(pg: P.Playground, figures: dict):
    """Slide images of the playground as it stands, one gain (the first shown), its charts
    from this run's ``figures`` (``ui.playground.figures``). Drawn only while open (the
    playground reruns this on every move)."""
    lang = state.language()
    gain = pg.gains[0]
    pop = st.popover(t("Slides", lang), icon=":material/slideshow:", key="sl_pop",
                     on_change="rerun")
    if not pop.open:
        return
    with pop:
        if not S.available():
            st.caption(t("Slide images need a Chromium on the server (Debian: apt-get install "
                         "chromium).", lang))
        else:
            st.caption(t("Images 1600 × 900 px, drawn on the server when you click.", lang))
            downloads(t("Tables and formula", lang),
                       partial(S.table_slide, pg.labels, pg.grades, k=pg.cutoff, gain=gain,
                               unretrieved=pg.unretrieved, lang=lang),
                       key="sl_table", stem="tables")
            contrib = plotly_charts.contribution_chart(pg.cutoff, gain, figures[gain])
            curve = plotly_charts.curve_chart(pg.grades, pg.cutoff, pg.judged,
                                  {g: f["ranking"]["ndcg"] for g, f in figures.items()})
            downloads(t("Contribution chart", lang), lambda: contrib, key="sl_contrib",
                       stem="contributions")
            downloads(t("NDCG@k curve", lang), lambda: curve, key="sl_curve", stem="curve")
        st.markdown(f"**{t('The formula in LaTeX', lang)}**")
        st.code(formula_text.latex(pg.grades, k=pg.cutoff, gain=gain, judged=pg.judged),
                language="latex")
