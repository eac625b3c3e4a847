"""Presenter view: its key, its sidebar switch and its link parameter. Part of
:mod:`ui.state` (re-exported there: pages call ``state.NAME``).

On for a session when the address it arrived with says ``?present=1``, then only the
sidebar switch changes it; it stays on from page to page (the session's state), and every
link the app writes while it is on carries ``present=1`` (:func:`present_params`).
"""

from __future__ import annotations

import streamlit as st

ss = st.session_state
__all__ = ["PRESENT", "PRESENT_WIDGET", "PRESENT_PARAM", "presenting", "present_widget",
           "on_present", "present_params", "keep_present_param", "sidebar_state",
           "table_size", "fold_sidebar_now"]

PRESENT = "present"               # bool: the presenter view is on
PRESENT_WIDGET = "present_switch"  # the sidebar's switch (a mirror of PRESENT)
PRESENT_PARAM = "present"          # the address's ?present=1 (a query parameter, not a key)
PRESENT_FOLD = "present_fold"      # the view has just turned on: fold the sidebar (once)


def presenting() -> bool:
    """Whether this run draws the presenter view: decided on a session's arrival from
    ``?present=1``, then by the sidebar switch (:func:`on_present`)."""
    if PRESENT not in ss:
        ss[PRESENT] = ss[PRESENT_FOLD] = st.query_params.get(PRESENT_PARAM) == "1"
    return ss[PRESENT]


def present_widget() -> bool:
    """Set the sidebar switch from the state, just before it is drawn."""
    ss[PRESENT_WIDGET] = presenting()
    return ss[PRESENT]


def on_present():
    """The sidebar switch changed: the view, and the address (reloads, copied links)."""
    ss[PRESENT] = ss[PRESENT_FOLD] = bool(ss.get(PRESENT_WIDGET))
    keep_present_param()


def present_params() -> dict:
    """What a link made now adds to its parameters: ``{"present": "1"}`` while the view is
    on, nothing otherwise."""
    return {PRESENT_PARAM: "1"} if presenting() else {}


def keep_present_param():
    """The address bar says ``present=1`` exactly while the view is on (a page switch
    clears the parameters; the session's state keeps the view)."""
    on = presenting()
    if on and st.query_params.get(PRESENT_PARAM) != "1":
        st.query_params[PRESENT_PARAM] = "1"
    elif not on and PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]


def sidebar_state() -> str:
    """``st.set_page_config``'s ``initial_sidebar_state``: folded while presenting.
    Streamlit applies it when it changes (the run that turns the view on or off), unless
    the visitor has folded or opened the sidebar by hand in this browser before: that
    choice, kept in the browser's storage, comes first."""
    return "collapsed" if presenting() else "auto"


def fold_sidebar_now() -> bool:
    """True once, on the run the view turns on: the page then folds the sidebar even where
    the visitor's own earlier choice in this browser keeps it open (ui.page_hooks.fold_sidebar)."""
    return bool(ss.pop(PRESENT_FOLD, False))


def table_size() -> str:
    """The ranking table's and its formula's ``size`` option: "present" or "normal"."""
    return "present" if presenting() else "normal"
