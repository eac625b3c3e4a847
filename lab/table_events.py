"""One path for a ranking table event: the browser's report -> the next state, pure Python.

:func:`read_event` checks a report against the rows drawn (any ranking table:
``ui.ranking_table`` calls it) and reconciles a move's reported order with their ids;
:func:`next_state` then applies it to the playground (an undo or a redo moves its history
instead: :func:`history_step`). The server
(``ui.state.on_table_event``) and the tests (tests/app/playground_events.py) both call
:func:`next_state`: check -> reconcile -> apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from collections.abc import Mapping, Sequence

from lab import playground as P
from lab.history import History
from lab.grades import MAX_ITEMS, MAX_LABEL
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
    clean, message, row_id = read_event(event, rows, reported, scale=P.table_scale(state.scale),
                                        max_label=MAX_LABEL, max_rows=MAX_ITEMS, lang=lang)
    if clean is None:
        return Step(state, None, message, row_id)
    try:
        return Step(P.apply_event(state, clean, lang=lang), clean)
    except ValueError as exc:
        return Step(state, None, str(exc), clean.get("id"))


HISTORY_ACTIONS = ("undo", "redo")  # the table's Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y (history.js)


def history_step(history: History, event: Any) -> History | None:
    """``history`` after an undo or redo event (``{"action": "undo"}`` or ``"redo"``, from
    the Undo/Redo buttons or the keys the table sends); None for any other event, which
    :func:`next_state` takes. Nothing to undo (or redo): the same history.

    >>> h = History("a").push("b")
    >>> history_step(h, {"action": "undo"}).present, history_step(h, {"action": "move"})
    ('a', None)
    """
    action = event.get("action") if isinstance(event, Mapping) else None
    if action not in HISTORY_ACTIONS:
        return None
    return history.undo() if action == "undo" else history.redo()
