"""Playground: drag to reorder, edit grades, and watch DCG / IDCG / NDCG answer."""

import streamlit as st

from lab.text import escape_markdown
from ui import playground as view, routing, state, tables

routing.route_through_app()
pg = state.playground()
st.title("Playground")
st.caption("Drag an item (or focus it and press Alt+↑ / Alt+↓), edit the grades, change k "
           "and the gain — every figure follows. The address bar always holds a link to this "
           "exact ranking.")
view.settings(pg)


@st.fragment
def live():
    """Everything a move, an edit or a button changes. A move reruns only this part, so the
    page answers it without redrawing the navigation and the settings."""
    pg = state.pending_edits()
    if state.settings_stale(pg):  # e.g. a row added or deleted: k's slider needs a new max
        st.rerun(scope="app")
    view.notices()
    k, gains = pg.cutoff, pg.gains
    figures, problem = view.scored(pg, gains)
    if problem:
        st.error(f"These grades cannot be scored yet: {escape_markdown(problem)} Fix the "
                 "grade in the table below; nothing you entered is lost.",
                 icon=":material/error:")
    else:
        view.headline(figures, k, pg)

    left, right = st.columns([1, 1.25])
    with left:
        st.header("Ranked list")
        view.buttons()
        view.ranked_list(pg)
    with right:
        st.header("Items and grades")
        view.editor(pg)
        if figures:
            view.change_note(gains)

    if figures:
        # Only the open tab is built and sent: a move redraws the tables or the charts,
        # not both.
        tabs, charts = st.tabs(["DCG tables", "Charts"], key=state.VIEW, on_change="rerun")
        if tabs.open:
            with tabs:
                for g in gains:
                    st.subheader(f"DCG tables — {g} gain")
                    tables.dcg_tables(pg.grades, pg.labels, k=k, gain=g, judged=pg.judged)
                    tables.formula(pg.grades, k=k, gain=g, judged=pg.judged)
        if charts.open:
            with charts:
                view.charts(pg, gains[0])

    note = state.publish(pg)
    if note:
        st.caption(f"The link in the address bar is shortened to open everywhere: {note}.")


live()
