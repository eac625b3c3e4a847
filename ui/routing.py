"""Where pages live, and moving between them: app.py's navigation, a deep link on a fresh
server, the playground's links."""

from __future__ import annotations

import streamlit as st

from lab.i18n import t
from lab.playground import ranking_query_params, within_link_limit
from lab.rules import RIGHT
from ui import state

PLAYGROUND = "pages/playground.py"
_navigated = False  # app.py's st.navigation has run in this process


def navigation(pages):
    """app.py's ``st.navigation(pages)``; remembers that it ran (:func:`route_through_app`)."""
    global _navigated
    _navigated = True
    # expanded: every page listed; by default Streamlit folds a long list behind "View N
    # more", which hid the last pages of Practice and Your data from the sidebar
    return st.navigation(pages, expanded=True)


def _nothing() -> None:
    """The default page of the navigation :func:`route_through_app` declares; never run."""


def route_through_app(page_file: str) -> None:
    """Let app.py route a deep link on a fresh server; ``page_file``: the calling page's
    ``__file__``.

    Streamlit starts in its old multipage mode when a ``pages/`` folder sits beside the main
    script, until ``st.navigation`` runs once. A first request for ``/worked_examples`` then
    runs that page file alone: no navigation, no layout. Pages call this first: while
    app.py's navigation has not run in this process, the page declares a navigation of its
    own, holding itself under the address it was opened by (any ``st.navigation`` turns the
    old mode off for the process), and reruns: app.py then routes the same address. Public
    API only: no flag of Streamlit's is read or written.
    """
    if _navigated:
        return
    st.navigation([st.Page(_nothing, title="NDCG Lab", url_path="routing", default=True),
                   st.Page(page_file)], position="hidden")
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
