"""The playground's renderers: the settings row, the buttons, the draggable list, the grades
editor, the headline figures and the notices. The state they read and every write they
cause go through :mod:`ui.state`; every figure comes from ndcg_core (via
:func:`lab.playground.figures`).
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from lab import playground as P
from lab.text import escape_markdown, fmt, fmt_grade
from ui import charts as C, state
from ui.sortable import sortable_list

BUTTONS = [
    ("ideal", "Ideal order", ":material/vertical_align_top:"),
    ("worst", "Worst order", ":material/vertical_align_bottom:"),
    ("reverse", "Reverse", ":material/swap_vert:"),
    ("shuffle", "Shuffle", ":material/shuffle:"),
    ("reset", "Reset", ":material/restart_alt:"),
]


def notices():
    """What the last change left to say: a link that could not be read, refused edits, and
    the grade changes an edit made (each text escaped: labels and links are user input)."""
    link, refused, changes = state.pop_notices()
    if link:
        kept = "your current ranking is kept." if link["kept"] else \
            "the default example is shown instead."
        st.warning(f"The link's ranking could not be read "
                   f"({escape_markdown(link['problem'])}), so {kept}",
                   icon=":material/link_off:")
    for message in refused:
        st.error(f"Refused: {escape_markdown(message)}", icon=":material/block:")
    if changes:
        shown, more = changes
        text = "; ".join(f"{escape_markdown(label)} {fmt_grade(a)} → {fmt_grade(b)}"
                         for label, a, b in shown)
        st.toast("Grade changed: " + text + (f"; and {more} more" if more else ""),
                 icon=":material/edit:")


def settings(pg: P.Playground):
    state.settings_widgets(pg)
    a, b, c, d = st.columns([1.3, 1.6, 1, 1.4])
    a.radio("Gain", P.GAINS, key=state.GAIN_WIDGET, horizontal=True,
            on_change=state.on_settings,
            help="linear: gain = grade. exponential: gain = 2^grade − 1. both: side by side.")
    n = len(pg.items)
    if n > 1:
        b.slider("Cutoff k", 1, n, key=state.K_WIDGET, on_change=state.on_settings,
                 help="Only the top k positions count, in the ranking and in the ideal.")
    else:
        b.markdown("**Cutoff k** = 1 (one item)")
    c.selectbox("Grade scale", list(P.SCALES), key=state.SCALE_WIDGET,
                on_change=state.on_settings, format_func=P.SCALE_LABELS.get)
    d.text_input("Judged but not retrieved", key=state.UNRETRIEVED_WIDGET,
                 on_change=state.on_settings, placeholder="e.g. 3, 2",
                 help="Grades of judged items the ranking missed. They count in the ideal "
                      "(like trec_eval), not in your ranking.")
    if state.unretrieved_error():
        d.error(escape_markdown(state.unretrieved_error()))


def buttons():
    row = st.container(horizontal=True, gap="small")
    for action, label, icon in BUTTONS:
        row.button(label, key=f"pg_btn_{action}", icon=icon, on_click=state.on_button,
                   args=(action,), help=f"{label}: reorder the list (seeded shuffle)"
                   if action == "shuffle" else None)


def ranked_list(pg: P.Playground, key: str = state.LIST):
    """The draggable list of the shared playground state (usable on any page)."""
    k = pg.cutoff
    items = [{"id": it.id, "label": it.label, "grade": fmt_grade(it.grade),
              "dimmed": pos > k} for pos, it in enumerate(pg.items, start=1)]
    sortable_list(items, key=key, on_change=partial(state.on_list_move, key))


def editor(pg: P.Playground):
    """The grades as a table: grades are typed as text and checked by
    :func:`lab.playground.grade_problem`, so a value the scale cannot take is refused with a
    message (a number cell would silently turn letters into 0 and clamp -1 to 1)."""
    rows = P.editor_items(pg)
    off = [it for it in rows if it.grade is not None and not P.fits_scale([it.grade], pg.scale)]
    if off:
        names = ", ".join(f"{escape_markdown(it.label)} ({fmt_grade(it.grade)})"
                          for it in off[:5])
        more = f" and {len(off) - 5} more" if len(off) > 5 else ""
        st.warning(f"Outside the {P.SCALE_LABELS[pg.scale]} scale: {names}{more}. Edit "
                   "these grades, or choose the free scale.", icon=":material/straighten:")
    st.caption("One row per item, in the order the items were added: dragging reorders the "
               "list, not these rows. Type in a cell to edit; the last line adds an item; "
               "select rows (left edge) and press Delete to remove them.")
    df = pd.DataFrame({"label": [it.label for it in rows],
                       "grade": [fmt_grade(it.grade) for it in rows]})
    st.data_editor(
        df, key=state.editor_key(), hide_index=True, num_rows="dynamic", width="stretch",
        column_config={
            "label": st.column_config.TextColumn("label", max_chars=P.MAX_LABEL,
                                                 required=True),
            "grade": st.column_config.TextColumn(
                "grade", required=True, max_chars=24,
                help=f"Relevance grade on the {P.SCALE_LABELS[pg.scale]} scale."),
        },
    )


def headline(figures: dict, k: int, pg: P.Playground):
    """DCG@k, IDCG@k, NDCG@k as metrics, each with the change the last edit caused. IDCG's
    change is shown without colour: a change of the ideal is neither good nor bad."""
    delta = state.figure_deltas(figures, (pg.grades, k, pg.unretrieved))
    for gain, values in figures.items():
        suffix = f" ({gain})" if len(figures) > 1 else ""
        for col, name, v, dv in zip(st.columns(3), ("DCG", "IDCG", "NDCG"), values,
                                    delta.get(gain, (None,) * 3)):
            col.metric(f"{name}@{k}{suffix}", fmt(v), border=True,
                       delta=None if dv is None or abs(dv) < 5e-13 else f"{dv:+.3f}",
                       delta_color="off" if name == "IDCG" else "normal",
                       help=f"{name}@{k} = {v:.6f} under {gain} gain")


def change_note(gains):
    """With both gains: which of them the last change moved more."""
    delta = (st.session_state.get(state.PG_LAST) or {}).get("delta", {})
    if len(gains) < 2 or not all(g in delta for g in gains):
        return
    lin, exp = delta["linear"][2], delta["exponential"][2]
    if abs(lin) < 5e-13 and abs(exp) < 5e-13:
        return
    more = "exponential" if abs(exp) > abs(lin) else "linear"
    st.info(f"Your last change moved NDCG by {lin:+.3f} under linear gain and {exp:+.3f} "
            f"under exponential gain: it matters more under **{more}** gain.",
            icon=":material/compare_arrows:")


def scored(pg: P.Playground, gains) -> tuple[dict | None, str | None]:
    """({gain: (DCG@k, IDCG@k, NDCG@k)} from the engine, None) or (None, why not)."""
    missing = P.missing_grade(pg)
    if missing:
        label, pos = missing
        return None, f"{label} (position {pos}) has no grade: type a number in its grade cell."
    try:
        return {g: tuple(P.figures(pg.grades, pg.cutoff, g, pg.judged)) for g in gains}, None
    except ValueError as exc:
        return None, str(exc)


def charts(pg: P.Playground, gain: str):
    judged = pg.judged
    left, right = st.columns(2)
    with left:
        C.show(C.contribution_chart(pg.grades, pg.cutoff, gain, judged))
    with right:
        C.show(C.curve_chart(pg.grades, pg.cutoff, judged))
