"""Faceless components that act on the page itself (st.components.v2): they draw nothing
and write no text; each is one ``.js`` file of this folder.

- :func:`arrive`: keeps a share link's ``#anchor`` (a worked example) in view while the
  page draws above it (``arrive.js``);
- :func:`fold_sidebar`: folds the sidebar once, when the presenter view turns on
  (``fold.js``);
- :func:`moved`: asks the server for a callback, once per mark (``moved.js``; class mode's
  phone: the room moved on, draw the question again);
- :func:`remember`: writes one cookie, which the server reads back on the next visit
  (``remember.js``; class mode's "this browser is this student / this room's teacher");
- :func:`to_top`: scrolls the page to its top when drawn with a new ``mark``
  (``to_top.js``; class mode's next question).

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
_moved = _component("ndcg_room_moved", "moved.js")
_remember = _component("ndcg_remember", "remember.js")
_to_top = _component("ndcg_to_top", "to_top.js")


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


def moved(mark, *, key: str, on_moved) -> None:
    """Call ``on_moved`` once the browser has drawn this hook with a new ``mark`` (once per
    mark, not on other reruns that draw it with the same mark)."""
    _moved(key=key, data={"mark": str(mark)}, on_moved_change=on_moved)


def remember(name: str, value: str, *, max_age: int, key: str) -> None:
    """Keep ``value`` in this browser's cookie ``name`` for ``max_age`` seconds (an empty
    value deletes it). Names and values are letters, digits, ``-`` and ``_`` only."""
    _remember(key=key, data={"name": name, "value": value, "maxAge": int(max_age)})


def to_top(mark, *, key: str) -> None:
    """Scroll the page to its top each time ``mark`` changes (not on other reruns)."""
    _to_top(key=key, data={"mark": str(mark)})
