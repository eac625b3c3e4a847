"""One path for a ranking table event: the browser's report -> the next state, pure Python.

:func:`read_event` checks a report against the rows drawn (any ranking table:
``ui.ranking_table`` calls it) and reconciles a move's reported order with their ids;
:func:`next_state` then applies it to the playground (an undo, a redo or the browser's Back
moves its history instead: :func:`history_step`). The server
(``ui.state.on_table_event``) and the tests (tests/app/playground_events.py) both call
:func:`next_state`: check -> reconcile -> apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from collections.abc import Mapping, Sequence

from lab import playground as P
from lab.history import History
from lab.grades import MAX_ITEMS, MAX_LABEL, SCALES
from lab.ranking_table import check_event


def read_event(event: Any, rows: Sequence[Mapping[str, Any]], reported: Sequence[str] | None,
               *, scale: Mapping[str, Any] | None, max_label: int = MAX_LABEL,
               max_rows: int = MAX_ITEMS,
               lang: str = "en") -> tuple[dict[str, Any] | None, str | None, str | None]:
    """One report from the browser, checked (:func:`lab.ranking_table.check_event`) and, for
    a move, given ``"order"``: the ``reported`` order reconciled with the ids of ``rows``
    (:func:`lab.playground.reconcile`: a report can lag one edit behind). Returns
    ``(event, message, row_id)`` as ``check_event`` does.

    >>> rows = [{"id": "a", "label": "A", "grade": 1}, {"id": "b", "label": "B", "grade": 3}]
    >>> read_event({"action": "move", "id": "b", "from": 2, "to": 1}, rows, ["b", "x"],
    ...            scale=None)[0]["order"]
    ['b', 'a']
    """
    clean, message, row_id = check_event(event, rows, scale=scale, max_label=max_label,
                                         max_rows=max_rows, lang=lang)
    if clean is not None and clean["action"] == "move":
        clean["order"] = P.reconcile(reported or [], [row["id"] for row in rows])
    return clean, message, row_id


@dataclass(frozen=True)
class Step:
    """What one event did: the ``state`` after it, the ``event`` applied (None: refused or
    nothing to do), and a refusal ``message`` with the row it belongs to (``row_id`` None:
    the table's)."""

    state: P.Playground
    event: dict | None = None
    message: str | None = None
    row_id: str | None = None


def next_state(state: P.Playground, event: Any, reported: list | None = None, *,
               lang: str = "en") -> Step:
    """The playground after the browser's ``event`` (a trigger's raw value) with the order
    it ``reported``; a refused event leaves ``state`` as it was and says why.

    >>> pg = P.make(["A", "B"], [3, 1])
    >>> next_state(pg, {"action": "move", "id": "i1", "from": 2, "to": 1}, ["i1", "i0"]
    ...            ).state.labels
    ('B', 'A')
    >>> step = next_state(pg, {"action": "grade", "id": "i1", "grade": 9})
    >>> step.state is pg, step.row_id, step.message
    (True, 'i1', '9 is outside the scale: type a whole number from 0 to 3. The grade stays 1.')
    """
    rows = [{"id": it.id, "label": it.label, "grade": it.grade} for it in state.items]
    clean, message, row_id = read_event(event, rows, reported, scale=SCALES[state.scale],
                                        max_label=MAX_LABEL, max_rows=MAX_ITEMS, lang=lang)
    if clean is None:
        return Step(state, None, message, row_id)
    try:
        return Step(P.apply_event(state, clean, lang=lang), clean)
    except ValueError as exc:
        return Step(state, None, str(exc), clean.get("id"))


HISTORY_ACTIONS = ("undo", "redo", "visit")  # the table's keys and Back (history.js)
MAX_QUERY = 4 * P.MAX_LINK  # a visited address longer than any the app writes is not read


def address_key(state: P.Playground) -> tuple:
    """The address the app writes for ``state`` (its link, shortened as
    :func:`lab.playground.within_link_limit` does) as one value: equal keys, same page."""
    params, _ = P.within_link_limit(P.to_query_params(state))
    return tuple(sorted((n, (v,) if isinstance(v, str) else tuple(v)) for n, v in params.items()))


def history_step(history: History, event: Any, *,
                 lang: str = "en") -> tuple[History | None, str | None]:
    """``history`` after an undo, redo or visit event, and why a visit was not followed
    (or None); ``(None, None)`` for any other event, which :func:`next_state` takes.

    ``{"action": "undo"}`` and ``{"action": "redo"}`` come from the Undo/Redo buttons and
    the keys; ``{"action": "visit", "query": "?l=..&g=.."}`` from the browser's Back or
    Forward: the history moves to the state that address opens
    (:meth:`lab.history.History.visit`, by :func:`address_key`); an address without a
    ranking (the app's own "/") changes nothing, an unreadable one says why.

    >>> h = History(P.make(["A", "B"], [3, 1])).push(P.make(["B", "A"], [1, 3]))
    >>> history_step(h, {"action": "undo"})[0].present.labels
    ('A', 'B')
    >>> history_step(h, {"action": "visit", "query": "?l=A&l=B&g=3,1&scale=0-3"}
    ...              )[0].present.labels
    ('A', 'B')
    >>> history_step(h, {"action": "visit", "query": "?g=3,x"})[1]
    "the grades (g) has 'x', which is not a number"
    >>> history_step(h, {"action": "move"})
    (None, None)
    """
    action = event.get("action") if isinstance(event, Mapping) else None
    if action not in HISTORY_ACTIONS:
        return None, None
    if action != "visit":
        return (history.undo() if action == "undo" else history.redo()), None
    query = event.get("query")
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        return history, None
    values = parse_qs(query.lstrip("?"), keep_blank_values=True)
    state, problem = P.from_query_params(lambda name: values.get(name, []), lang=lang)
    if state is None:
        return history, problem
    return history.visit(state, same=address_key), None
