"""A reorderable ranked list built on Streamlit's ``st.components.v2`` API.

Notes on ``st.components.v2`` (Streamlit 1.67), checked against its source:

- The JS default export runs again on every rerun that brings new ``data``, with
  the same ``parentElement``. The cleanup it returns is NOT called between those
  runs (only the last one, on unmount). So listeners are bound once per root
  element (tracked in a WeakMap) and every call redraws from ``data``.
- ``parentElement`` is a ShadowRoot (``isolate_styles=True``, the default):
  focus is read from ``getRootNode().activeElement``; the theme reaches the CSS
  as inherited custom properties (``--st-primary-color``, ``--st-text-color``,
  ``--st-secondary-background-color``, ``--st-border-color``, ...).
- ``html`` is inserted once, before the JS runs, and survives reruns, so the
  aria-live region in it keeps announcing across redraws.
- State lives in the browser: the proto has no field to push a value to the
  component, and the browser resends its last state on every rerun, so writing
  ``st.session_state[key]["order"]`` from Python is overwritten. Python decides
  the order to draw and passes it in ``data``; a report is news only when it
  differs from the last one seen or the transient ``moved`` trigger fired.
- ``on_<name>_change`` callbacks fire per state key and only when its value
  changes: a move that recreates the previously reported order (after the page
  reset the order) changes nothing, so ``on_change`` hangs on the ``moved``
  trigger, which fires once per move. Triggers are ignored inside ``st.form``.
- ``setStateValue`` and ``setTriggerValue`` calls in one tick are sent as one
  rerun. ``default=`` keys need a matching ``on_<key>_change`` callback.
- With ``key=``, the element identity is the key alone: new ``data`` redraws in
  place instead of remounting.
- The JS module is cached by content as a blob URL, so module-level variables
  are shared by every instance; per-instance state sits in a WeakMap.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from lab.i18n import t
from lab.table import Ack, Report, TableSession, order_to_draw
from lab.text import fmt_grade
from ui import state
from ui.ranking_table import module_js

_HERE = Path(__file__).resolve().parent
_SHARED = _HERE.parent / "ranking_table"
# Read once, at import: the component is registered once per process. Its JavaScript is
# the ranking table's words and drag (dom.js, drag.js: one drag for every list) and this
# list's own sortable.js, joined into one module.
_component = st.components.v2.component(
    "ndcg_sortable",
    html=(_HERE / "sortable.html").read_text(encoding="utf-8"),
    css=(_HERE / "sortable.css").read_text(encoding="utf-8"),
    js=module_js([_SHARED / "dom.js", _SHARED / "drag.js", _HERE / "sortable.js"]),
)

# What sortable_list saw and drew last run, per key (a lab.table.TableSession: the order
# rules are lab.table.order_to_draw's), kept by ui.state (the one writer of st.session_state).
_MEMO = "sortable"


def labels(lang: str) -> dict[str, str]:
    """Every word the list shows or announces, in ``lang`` (its JavaScript reads them from
    ``data["labels"]``; it has no words of its own). ``{name}`` placeholders are filled
    in the browser, one whole sentence per case."""
    return {
        "ranked_list": t("Ranked list", lang),
        "hint": t("Drag a row to move it, or focus a row and press Alt+↑ / Alt+↓.", lang),
        "row": t("Position {pos}: {label}, grade {grade}", lang),
        "row_beyond": t("Position {pos}: {label}, grade {grade}, beyond k", lang),
        "grade": t("grade {grade}", lang),
        "beyond": t("beyond k", lang),
        "moved": t("{label} moved to position {pos}", lang),
        "already": t("{label} is already at position {pos}", lang),
    }


def _noop() -> None:
    """Declare a state or trigger name to the component; nothing to do."""


def _normalise(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for position, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            raise ValueError(
                f"sortable_list items must be dicts; item {position} is "
                f"{type(item).__name__}."
            )
        item_id = item.get("id")
        if not isinstance(item_id, str) or not item_id:
            raise ValueError(
                f"sortable_list item {position} needs a non-empty string 'id'; "
                f"got {item_id!r}."
            )
        if item_id in seen:
            raise ValueError(f"sortable_list item ids must be unique; {item_id!r} repeats.")
        seen.add(item_id)
        label = item.get("label")
        rows.append(
            {
                "id": item_id,
                "label": item_id if label is None else str(label),
                "grade": (item["grade"] if isinstance(item.get("grade"), str)
                          else fmt_grade(item.get("grade"))),
                "dimmed": bool(item.get("dimmed", False)),
            }
        )
    return rows


def _ack(report: Report, memo: TableSession | None) -> Ack | None:
    """The browser's last move this list has drawn (its page instance and number): the
    browser keeps the moves made since on screen (sortable.js), or a run answering the
    first of two quick Alt+↑ would put the row back between them."""
    marks = [Ack.of(e) for e in report.events]
    mark = marks[-1] if marks else None
    if mark is not None and mark.instance is not None:
        return mark
    return memo.ack if memo else None


def sortable_list(
    items: Sequence[Mapping[str, Any]],
    *,
    key: str,
    on_change: Callable[[], None] | None = None,
    disabled: bool = False,
) -> list[str]:
    """Draw ``items`` as a ranked list the user can reorder; return the order of ids.

    Parameters
    ----------
    items : sequence of dict
        In current order, each ``{"id": str, "label": str, "grade": str or
        number, "dimmed": bool}``. ``id`` is stable and unique; ``label`` is
        shown as plain text (never parsed as HTML). ``dimmed`` marks rows
        beyond the cutoff k; they are faded and tagged "beyond k". The list is
        redrawn from ``items`` on every run, so new labels and grades show at once.
    key : str
        Widget key. The browser's report is ``st.session_state[key]["order"]``.
    on_change : callable, optional
        Called with no arguments, before the script reruns, each time the user
        moves an item (drag or Alt+Arrow). Apply the new order there, from
        ``st.session_state[key]["order"]``, so everything the page computes
        from the order (NDCG, ``dimmed``) agrees within that run.
    disabled : bool
        Show the list without drag or keyboard moves.

    Returns
    -------
    list of str
        The ids in the order drawn: the user's latest move, else the order of
        ``items``. Ids the report lacks are appended; unknown ids are dropped.
        If the user's move has not been applied to ``items`` yet, ``dimmed``
        follows the positions (it marks the cutoff, not an item).

    Raises
    ------
    ValueError
        If an item is not a dict or its ``id`` is missing, not a string, or repeated.

    Examples
    --------
    >>> def apply_order():
    ...     by_id = {it["id"]: it for it in st.session_state.docs}
    ...     new = st.session_state["ranking"]["order"]
    ...     st.session_state.docs = [by_id[i] for i in new if i in by_id]
    >>> order = sortable_list(st.session_state.docs, key="ranking",
    ...                       on_change=apply_order)  # doctest: +SKIP
    """
    rows = _normalise(items)
    ids = [row["id"] for row in rows]
    report = Report.parse(state.component_report(key), "moved")
    previous = state.component_memo(_MEMO, key)
    previous = previous if isinstance(previous, TableSession) else None
    order = order_to_draw(previous, ids, report)
    memo = TableSession("", seen=report.order if previous else None, given=tuple(ids),
                        drawn=tuple(order), ack=_ack(report, previous))
    state.set_component_memo(_MEMO, key, memo)

    by_id = {row["id"]: row for row in rows}
    drawn = [
        {**by_id[item_id], "dimmed": rows[position]["dimmed"]}
        for position, item_id in enumerate(order)
    ]
    result = _component(
        key=key,
        data={"items": drawn, "disabled": bool(disabled),
              "ack": {"instance": memo.ack.instance, "seq": memo.ack.seq} if memo.ack else {},
              "labels": labels(state.language())},
        on_order_change=_noop,
        on_moved_change=on_change if on_change is not None else _noop,
    )
    if previous is None:
        # A report there at this session's first draw is a previous session's (a server
        # restart), in ids this session never drew: not news (as in ui/ranking_table).
        seen = Report.parse(result).order
        state.set_component_memo(_MEMO, key, replace(memo, seen=seen))
        state.first_report(key, None if seen is None else list(seen))
    return order
