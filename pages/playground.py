"""Playground: drag the DCG table itself, edit grades in place, and watch DCG / IDCG / NDCG
answer: everything that explains the number on one screen."""

import streamlit as st

from lab.i18n import t
from lab.text import escape_markdown
from ui import handouts, playground as view, routing, share, slides, state

routing.route_through_app(__file__)
pg = state.playground()
lang = state.language()
# The title shares its row with the five buttons: the table needs the height
# (settings, buttons, figures, 10 rows and the ideal in the first screen at 1280x720).
head = st.container(horizontal=True, vertical_alignment="center", gap="medium")
head.title(t("Playground", lang), width="content")
view.buttons(head)
view.settings(pg)


@st.fragment
def live():
    """The figures and the ranking table: everything a move, an edit or a button changes
    first. A move reruns only this part, so its answer (the engine's figures, in the
    table's data) is all that rerun sends."""
    pg = state.pending_edits()
    # A whole run: e.g. a row added or removed (k's slider needs a new max); or after Back
    # or Forward, for which Streamlit reruns the whole page while the table's own event
    # reruns this fragment: the whole run, cut short by the fragment's, can leave the page
    # without the other fragment's parts (the formula or charts, the share buttons) on a
    # busy server.
    if state.settings_stale(pg):
        st.rerun(scope="app")
    view.notices(pg)
    _, problem = view.figures(pg)
    if problem:
        st.error(t("These grades cannot be scored yet: {problem} Fix the grade in the table "
                   "below; nothing you entered is lost.", lang,
                   problem=escape_markdown(problem)),
                 icon=":material/error:")
    # The list is the DCG table: figures, the ranking's rows and the ideal ordering.
    view.table(pg)
    view.mistake_settings(pg)  # folded below the table: the mistakes' settings (lab.rules)
    view.settings_drawn()  # after every widget of the row: what the page reports it shows


@st.fragment
def explained():
    """The formula or the charts, and the link in the address bar. After a move or an edit
    this reruns on its own once the table has drawn the engine's answer (its "settled"
    signal): the charts and the address's update do not hold that answer back.
    The formula does not wait for this rerun: it follows the table in the browser, in the
    frame the table draws new figures."""
    view.settled()
    pg = state.pending_edits()
    # Once per run, the table's own figures (memoised by value): the charts and the slides
    # draw these numbers, the formula the table's data.
    figures, _ = view.figures(pg)
    if figures:
        # Only the open tab is built and sent: a move redraws the formula or the charts,
        # not both.
        formula, charts = st.tabs([t("Formula", lang), t("Charts", lang)], key=state.VIEW,
                                  on_change="rerun")
        if formula.open:
            with formula:
                view.formula()
        if charts.open:
            with charts:
                view.charts(pg, figures)

    note = state.publish(pg)
    if note:
        st.caption(t("The link in the address bar is shortened to open everywhere: {note}.",
                     lang, note=note))
    if figures:  # what a teacher takes out: the link and its QR code, a PDF, slide images
        with st.container(horizontal=True, gap="small"):
            share.playground()
            handouts.playground(pg.labels, pg.grades, k=pg.cutoff, gain=pg.gain,
                                unretrieved=pg.unretrieved, link=share.here())
            slides.popover(pg, figures)


live()
explained()
