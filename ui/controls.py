"""The playground's session state and its controls: the list, the editor, the settings.

The state lives in ``st.session_state["pg"]`` as a :class:`ui.state.Playground`; every change
goes through a callback (or the editor's delta at the top of the run), so the figures below
the controls are computed once per run from the final state.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pandas as pd
import streamlit as st

from ui import state as S
from ui.sortable import sortable_list

LIST_KEY = "pg_list"
PLAYGROUND_PATH = ""  # the default page's url path in app.py


def _qp_signature(get_all):
    return tuple((name, tuple(get_all(name))) for name in ("l", "g", "k", "gain", "scale",
                                                           "pool"))


def _sync_widgets(pg: S.Playground):
    ss = st.session_state
    ss.pg_gain = pg.gain
    ss.pg_scale = pg.scale
    ss.pg_k = pg.cutoff
    ss.pg_pool_text = ", ".join(S.fmt_grade(g) for g in pg.pool)
    ss.pg_pool_error = ss.pg_pool_bad_text = None


def load() -> S.Playground:
    """Initialise once per session, and again whenever the URL carries a new ranking
    (a shared link, or "Open in playground" from a lesson)."""
    ss = st.session_state
    qp = st.query_params
    sig = _qp_signature(qp.get_all)
    # A rerun request carries the browser's URL, which can lag a move or two behind (the
    # last publish() has not reached it yet): a URL this session published itself is stale
    # unless the user has just arrived from another page (a shared link or a hand-off).
    arrived = ss.get("last_page") != PLAYGROUND_PATH
    stale = sig in ss.get("pg_qp_history", ())
    if "pg" not in ss or (sig != ss.get("pg_qp_written") and (arrived or not stale)):
        pg, problem = S.from_query_params(qp.get_all)
        if problem:
            ss.pg_notice = (f"The link's ranking could not be read ({problem}), so "
                            + ("your current ranking is kept." if "pg" in ss else
                               "the default example is shown instead."))
        if pg is not None or "pg" not in ss:
            pg = pg or S.default()
            ss.pg = pg
            ss.pg_origin = pg
            ss.pg_editor_ver = ss.get("pg_editor_ver", 0) + 1
            ss.pg_last = None
            _sync_widgets(pg)
        ss.pg_qp_written = sig
    _apply_editor_delta()
    return ss.pg


def apply_edits() -> S.Playground:
    """Fold in the editor's pending edits (in a fragment rerun, which skips :func:`load`)."""
    _apply_editor_delta()
    return st.session_state.pg


def _settings_shown(pg: S.Playground):
    return (len(pg.items), pg.cutoff, pg.gain, pg.scale, pg.pool)


def settings_stale(pg: S.Playground) -> bool:
    """Whether the settings drawn by the last full run no longer match ``pg``."""
    return st.session_state.get("pg_settings_shown") != _settings_shown(pg)


def publish(pg: S.Playground):
    """Write the state into the URL so a copied link reopens it."""
    params = S.to_query_params(pg)
    st.query_params.from_dict(params)
    sig = _qp_signature(st.query_params.get_all)
    ss = st.session_state
    ss.pg_qp_written = sig
    ss.pg_qp_history = (ss.get("pg_qp_history", ())[-49:] + (sig,))


# ------------------------------------------------------------------ callbacks

def _set(pg):
    st.session_state.pg = pg
    st.session_state.pg_k = pg.cutoff


def _on_list_change(key=LIST_KEY):
    value = st.session_state.get(key)
    order = value.get("order") if hasattr(value, "get") else getattr(value, "order", None)
    if order:
        _set(S.reorder(st.session_state.pg, order))


def _on_button(action):
    ss = st.session_state
    pg = ss.pg
    if action == "ideal":
        pg = S.ideal_order(pg)
    elif action == "worst":
        pg = S.worst_order(pg)
    elif action == "reverse":
        pg = S.reversed_order(pg)
    elif action == "shuffle":
        ss.pg_seed = ss.get("pg_seed", 0) + 1
        pg = S.shuffled(pg, ss.pg_seed)
    elif action == "reset":
        pg = ss.get("pg_origin", S.default())
        ss.pg_editor_ver = ss.get("pg_editor_ver", 0) + 1
        _sync_widgets(pg)
    _set(pg)


def _on_settings():
    ss = st.session_state
    pool_text = ss.get("pg_pool_text", "")
    try:
        pool = tuple(S._numbers(pool_text, "the judged pool"))
        ss.pg_pool_error = ss.pg_pool_bad_text = None
    except ValueError as exc:
        pool = ss.pg.pool
        ss.pg_pool_error = f"{exc}: write grades separated by commas, e.g. 3, 2, 1."
        ss.pg_pool_bad_text = pool_text  # shown again, as typed, until it is fixed
    ss.pg = replace(ss.pg, gain=ss.pg_gain, scale=ss.pg_scale, k=int(ss.pg_k), pool=pool)


def _grade_changes(before: S.Playground, after: S.Playground, limit: int = 4) -> list[str]:
    """'Doc B 2 → 0' for each item whose grade an edit changed (at most ``limit``)."""
    old = {it.id: it.grade for it in before.items}
    out = [f"{it.label} {S.fmt_grade(old[it.id])} → {S.fmt_grade(it.grade)}"
           for it in after.items if it.id in old and it.grade != old[it.id]]
    return out[:limit] + ([f"and {len(out) - limit} more"] if len(out) > limit else [])


def _apply_editor_delta():
    """Fold the editor's edits into the items, then start a fresh editor on the new data
    (so its delta is never applied twice and the user's order is kept)."""
    ss = st.session_state
    key = f"pg_editor_{ss.get('pg_editor_ver', 0)}"
    delta = ss.get(key)
    if delta and any(delta.get(p) for p in ("edited_rows", "added_rows", "deleted_rows")):
        pg = S.apply_edits(ss.pg, delta)
        deleted = len(set(delta.get("deleted_rows") or []))
        wanted = len(ss.pg.items) - deleted + len(delta.get("added_rows") or [])
        if pg.items and wanted > len(pg.items):
            ss.pg_notice = (f"The playground holds at most {S.MAX_ITEMS} items: "
                            f"{wanted - len(pg.items)} added rows were left out.")
        if not pg.items:
            ss.pg_notice = "A ranking needs at least one item: nothing was deleted."
            pg = ss.pg
        changed = _grade_changes(ss.pg, pg)
        if changed:
            # every grade edit is confirmed: the grid's number cell turns typed letters
            # into 0, and a confirmation keeps such a change from passing unseen
            st.toast("Grade changed: " + "; ".join(changed), icon=":material/edit:")
        _set(pg)
        ss.pg_editor_ver = ss.get("pg_editor_ver", 0) + 1


# ------------------------------------------------------------------ widgets

def settings(pg: S.Playground):
    ss = st.session_state
    # The state is the source of truth: Streamlit drops a widget's value while its page is
    # not shown, and lessons may change the shared ranking, so set the widgets from it.
    ss.pg_gain, ss.pg_scale = pg.gain, pg.scale
    ss.pg_settings_shown = _settings_shown(pg)
    # The pool's text follows the state too (the monkey saw the box empty after a page
    # switch while the ideal still used the pool), except text that did not parse: that
    # stays as the user typed it, with its message, until it is fixed.
    if ss.get("pg_pool_error") and ss.get("pg_pool_bad_text") is not None:
        ss.pg_pool_text = ss.pg_pool_bad_text
    else:
        ss.pg_pool_error = None
        ss.pg_pool_text = ", ".join(S.fmt_grade(g) for g in pg.pool)
    a, b, c, d = st.columns([1.3, 1.6, 1, 1.4])
    a.radio("Gain", S.GAINS, key="pg_gain", horizontal=True, on_change=_on_settings,
            help="linear: gain = grade. exponential: gain = 2^grade − 1. both: side by side.")
    n = len(pg.items)
    if n > 1:
        ss.pg_k = pg.cutoff  # from the state (a lesson may have changed k)
        b.slider("Cutoff k", 1, n, key="pg_k", on_change=_on_settings,
                 help="Only the top k positions count, in the ranking and in the ideal.")
    else:
        b.markdown("**Cutoff k** = 1 (one item)")
    c.selectbox("Grade scale", list(S.SCALES), key="pg_scale", on_change=_on_settings,
                format_func=S.SCALE_LABELS.get)
    d.text_input("Judged but not retrieved", key="pg_pool_text", on_change=_on_settings,
                 placeholder="e.g. 3, 2", help="Grades of judged items the ranking missed. "
                 "They count in the ideal (like trec_eval), not in your ranking.")
    if ss.get("pg_pool_error"):
        d.error(ss.pg_pool_error)


def buttons():
    row = st.container(horizontal=True, gap="small")
    for action, label, icon in [
        ("ideal", "Ideal order", ":material/vertical_align_top:"),
        ("worst", "Worst order", ":material/vertical_align_bottom:"),
        ("reverse", "Reverse", ":material/swap_vert:"),
        ("shuffle", "Shuffle", ":material/shuffle:"),
        ("reset", "Reset", ":material/restart_alt:"),
    ]:
        row.button(label, key=f"pg_btn_{action}", icon=icon, on_click=_on_button,
                   args=(action,), help=f"{label}: reorder the list (seeded shuffle)"
                   if action == "shuffle" else None)


def ranked_list(pg: S.Playground, key: str = LIST_KEY):
    """The draggable list of the shared playground state (usable on any page)."""
    k = pg.cutoff
    items = [{"id": it.id, "label": it.label, "grade": S.fmt_grade(it.grade),
              "dimmed": pos > k} for pos, it in enumerate(pg.items, start=1)]
    sortable_list(items, key=key, on_change=partial(_on_list_change, key))


def editor(pg: S.Playground):
    lo, hi, step = S.SCALES[pg.scale]
    rows = S.editor_items(pg)
    off = [it for it in rows
           if pg.scale != "free" and it.grade is not None and not S._fits([it.grade], pg.scale)]
    if off:
        # a grade the scale cannot hold (a link, or a scale picked after the grade): the
        # grid would show it rounded to the scale's step, so show it exactly and say so
        names = ", ".join(f"{it.label} ({S.fmt_grade(it.grade)})" for it in off[:5])
        more = f" and {len(off) - 5} more" if len(off) > 5 else ""
        st.warning(f"Outside the {S.SCALE_LABELS[pg.scale]} scale: {names}{more}. The table "
                   "shows these grades exactly; edit them, or choose the free scale.",
                   icon=":material/straighten:")
        lo, hi, step = None, None, None
    st.caption("One row per item, in the order the items were added: dragging reorders the "
               "list, not these rows. Type in a cell to edit; the last line adds an item; "
               "select rows (left edge) and press Delete to remove them.")
    df = pd.DataFrame({"label": [it.label for it in rows],
                       "grade": pd.array([it.grade for it in rows], dtype="Float64")})
    st.data_editor(
        df, key=f"pg_editor_{st.session_state.get('pg_editor_ver', 0)}", hide_index=True,
        num_rows="dynamic", width="stretch",
        column_config={
            "label": st.column_config.TextColumn("label", max_chars=S.MAX_LABEL,
                                                 required=True),
            "grade": st.column_config.NumberColumn(
                "grade", min_value=lo, max_value=hi, step=step, required=True,
                help=f"Relevance grade on the {S.SCALE_LABELS[pg.scale]} scale."),
        },
    )
