"""Faceless components that act on the page itself (st.components.v2): they draw nothing,
take no data and write no text; each is one ``.js`` file of this folder.

- :func:`arrive`: keeps a share link's ``#anchor`` (a worked example) in view while the
  page draws above it (``arrive.js``);
- :func:`fold_sidebar`: folds the sidebar once, when the presenter view turns on
  (``fold.js``).

Their element containers are hidden by ui/fit.css (their keys' classes).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).resolve().parent


def _component(name: str, js: str):
    return st.components.v2.component(
        name,
        html=(_HERE / "page_hooks.html").read_text(encoding="utf-8"),
        css=(_HERE / "page_hooks.css").read_text(encoding="utf-8"),
        js=(_HERE / js).read_text(encoding="utf-8"),
    )


_arrive = _component("ndcg_share_arrive", "arrive.js")
_fold = _component("ndcg_present_fold", "fold.js")


def arrive(*, key: str = "we_arrive") -> None:
    """Keep the example a share link's ``#`` names at the top while the tables, formulas and
    charts above it are drawn (Streamlit scrolls to it once, as it appears; what is drawn
    above afterwards pushed it away, seen in CI)."""
    _arrive(key=key)


def fold_sidebar(*, key: str = "present_fold") -> None:
    """Fold the sidebar now: ``initial_sidebar_state`` yields to a choice the visitor made
    by hand in this browser before (Streamlit keeps it in the browser's storage), so a
    presenter link opened there would keep the sidebar open. Drawn only on the run the view
    turns on, so a sidebar the presenter opens afterwards stays open."""
    _fold(key=key)
