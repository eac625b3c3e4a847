"""Playground: drag to reorder, edit grades, and watch DCG / IDCG / NDCG answer."""

import streamlit as st

from ui import controls, playground as P, state as S

pg = controls.load()
st.title("Playground")
st.caption("Drag an item (or focus it and press Alt+↑ / Alt+↓), edit the grades, change k "
           "and the gain — every figure follows. The address bar always holds a link to this "
           "exact ranking.")
controls.settings(pg)


@st.fragment
def live():
    """Everything a move, an edit or a button changes. A move reruns only this part, so the
    page answers it without redrawing the navigation and the settings."""
    pg = controls.apply_edits()
    if controls.settings_stale(pg):  # e.g. a row added or deleted: k's slider needs a new max
        st.rerun(scope="app")
    if st.session_state.get("pg_notice"):
        st.warning(st.session_state.pop("pg_notice"), icon=":material/link_off:")
    k, gains, pool = pg.cutoff, P.gains_of(pg.gain), pg.ideal_pool()

    problem = S.missing_grade(pg)
    figures = None
    if not problem:
        try:
            figures = {g: P.summary(tuple(pg.grades), k, g, tuple(pool) if pool else None)
                       for g in gains}
        except ValueError as exc:
            problem = str(exc)
    if problem:
        st.error(f"These grades cannot be scored yet: {problem} Fix the grade in the table "
                 "below; nothing you entered is lost.", icon=":material/error:")

    if figures:
        P.headline(figures, k, pg)

    left, right = st.columns([1, 1.25])
    with left:
        st.header("Ranked list")
        controls.buttons()
        controls.ranked_list(pg)
    with right:
        st.header("Items and grades")
        controls.editor(pg)
        if figures:
            P.change_note(figures, gains)

    if figures:
        # Only the open tab is built and sent: a move redraws the tables or the charts,
        # not both.
        tables, charts = st.tabs(["DCG tables", "Charts"], key="pg_view", on_change="rerun")
        if tables.open:
            with tables:
                for g in gains:
                    st.subheader(f"DCG tables — {g} gain")
                    P.dcg_tables(pg.grades, pg.labels, k=k, gain=g, pool=pool, heading=True)
                    P.formula(pg.grades, k=k, gain=g, pool=pool)
        if charts.open:
            with charts:
                P.charts(pg.grades, k=k, gain=gains[0], pool=pool)

    controls.publish(pg)


live()
