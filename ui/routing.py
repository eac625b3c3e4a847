"""Where pages live, and moving between them.

Also the app's one use of a Streamlit internal, kept here alone and watched by
``tests/app/test_streamlit_internals.py``, which fails loudly when Streamlit changes it.
"""

from __future__ import annotations

import streamlit as st

from lab.i18n import t
from lab.playground import ranking_query_params, within_link_limit
from lab.rules import RIGHT
from ui import state

PLAYGROUND = "pages/playground.py"
_routed = False  # route_through_app ran in this process


def route_through_app():
    """Let app.py route a deep link on a fresh server.

    Streamlit starts in its old multipage mode when a ``pages/`` folder sits beside the main
    script, until ``st.navigation`` runs once. A first request for ``/worked_examples`` then
    runs that page file alone: no navigation, no layout. Streamlit offers no public switch
    for this, so we clear its flag (as ``st.navigation`` itself does) and rerun, and app.py
    routes the request. Pages call this first; it acts once per process (Streamlit never
    sets the flag again once ``st.navigation`` has run).
    """
    global _routed
    if _routed:
        return
    _routed = True
    from streamlit.runtime.pages_manager import PagesManager  # the one internal we use

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def open_in_playground(labels, grades, *, k=None, gain="linear", unretrieved=(), key: str,
                       label=None, rules=None):
    """A button that loads this ranking in the playground (the shareable-link mechanism);
    ``label`` (already in the page's language) or "Open in playground"; ``rules``: the
    mistake settings it opens with (lab.rules; None: the right ones)."""
    if label is None:
        label = t("Open in playground", state.language())
    if st.button(label, key=key, icon=":material/open_in_new:"):
        st.switch_page(PLAYGROUND, query_params=within_limit(ranking_query_params(
            labels, grades, k=k, gain=gain, unretrieved=unretrieved, rules=rules or RIGHT)))


def within_limit(params: dict) -> dict:
    """A link's parameters cut to open everywhere (the playground's own link-size rule)."""
    return within_link_limit(params)[0]


def link_to_playground(label: str | None = None):
    """A link to the playground: ``label`` (in the page's language) or "Edit the grades in
    the playground"."""
    if label is None:
        label = t("Edit the grades in the playground", state.language())
    st.page_link(PLAYGROUND, label=label, icon=":material/swap_vert:")
