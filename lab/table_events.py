"""The playground's ``reduce``: what each ranking table event does to its undo history.

:func:`lab.table.receive` checks each event the browser reports and reconciles a move's
order; :func:`reduce` then folds it into the playground's :class:`lab.history.History`:
an undo, a redo or the browser's Back moves through it, every other event applies to its
present and becomes one new step. The server (``ui.state``: the table's trigger and the
top of each run) and the AppTest helper (tests/app/playground_events.py, which reports as
the browser does) both go through :func:`lab.table.receive` with this ``reduce``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from lab import playground as P
from lab.history import History
from lab.table import HISTORY_ACTIONS, MAX_QUERY


class UnreadableAddress(ValueError):
    """The browser's Back or Forward went to an address whose ranking cannot be read."""


def reduce(history: History, event: dict, *, lang: str = "en") -> History:
    """``history`` after one checked event (:func:`lab.table.check`).

    >>> h = History(P.make(["A", "B"], [3, 1]))
    >>> h = reduce(h, {"action": "move", "id": "i1", "order": ["i1", "i0"]})
    >>> h.present.labels, reduce(h, {"action": "undo"}).present.labels
    (('B', 'A'), ('A', 'B'))
    >>> reduce(h, {"action": "grade", "id": "i1", "grade": 2}).present.grades
    (2.0, 3)
    """
    action = event["action"]
    if action in HISTORY_ACTIONS:
        moved, problem = history_step(history, event, lang=lang)
        if problem:
            raise UnreadableAddress(problem)
        return moved
    return history.push(P.apply_event(history.present, event, lang=lang, checked=True))


def address_key(state: P.Playground) -> tuple:
    """The address the app writes for ``state`` (its link, shortened as
    :func:`lab.playground.within_link_limit` does) as one value: equal keys, same page."""
    params, _ = P.within_link_limit(P.to_query_params(state))
    return tuple(sorted((n, (v,) if isinstance(v, str) else tuple(v)) for n, v in params.items()))


def history_step(history: History, event: Any, *,
                 lang: str = "en") -> tuple[History | None, str | None]:
    """``history`` after an undo, redo or visit event, and why a visit was not followed
    (or None); ``(None, None)`` for any other event.

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
