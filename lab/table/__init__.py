"""The event loop of a draggable table, in one typed, Streamlit-free place.

A table (``ui.ranking_table``, ``ui.sortable``) draws rows; the browser reports what the user
did as a component value: the ``order`` it shows and a trigger (an ``event``, or a batch of
every event not yet acknowledged). The loop, once per report:

1. :meth:`Report.parse`: the component's raw value read once, at the boundary (as
   Streamlit's own ``CheckboxSerde`` turns a widget's wire value into a ``bool``);
2. :func:`receive`: each new event (one the table has not acknowledged) is checked against
   the rows drawn (:func:`lab.ranking_table.check_event`), a move's order reconciled with
   their ids (:func:`lab.playground.reconcile`), and handed to the owner's ``reduce``,
   which folds it into its state: once each;
3. the draw: a table with an owner draws the owner's rows (the report is not read again);
   one without, :func:`order_to_draw`'s order. The adapter normalises the rows once and
   records what it drew in the :class:`TableSession`.

The session is a frozen value: each step returns a new one, which the adapter stores
(``ui.state`` is the only writer of ``st.session_state``). The playground's ``reduce``
(its events and its undo history) is :func:`lab.table_events.reduce`.

>>> rows = ({"id": "a", "label": "A", "grade": 1}, {"id": "b", "label": "B", "grade": 3})
>>> session = TableSession("s1", rows=rows, drawn=("a", "b"))
>>> report = Report.parse({"order": ["b", "a"], "event": {
...     "action": "move", "id": "b", "from": 2, "to": 1, "seq": 1, "instance": "p",
...     "session": "s1"}})
>>> session, state = receive(session, [], report, lambda s, e: s + [e["order"]])
>>> state, session.ack
([['b', 'a']], Ack(instance='p', seq=1))
>>> receive(session, [], report, lambda s, e: s + [e["order"]])[1]  # applied once
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from lab.grades import MAX_ITEMS, MAX_LABEL
from lab.playground import MAX_LINK, reconcile
from lab.ranking_table import check_event

S = TypeVar("S")
Event = dict[str, Any]  # a checked event: {"action": ..., ...} (lab.ranking_table.check_event)
Reduce = Callable[[Any, Event], Any]  # (state, checked event) -> state; ValueError refuses

# Events a table with an undo history sends (ui/ranking_table/history.js): the Undo and
# Redo buttons and keys, and the browser's Back and Forward with the entry's address.
HISTORY_ACTIONS = ("undo", "redo", "visit")
MAX_QUERY = 4 * MAX_LINK  # a visited address longer than any the app writes is not read


@dataclass(frozen=True)
class Ack:
    """One event's place: the page instance that sent it and its number there."""

    instance: str | None
    seq: int

    @classmethod
    def of(cls, event: Mapping) -> Ack | None:
        seq = event.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return None
        instance = event.get("instance")
        return cls(instance if isinstance(instance, str) else None, seq)

    def answered_by(self, last: Ack | None) -> bool:
        """Whether ``last`` (the table's acknowledgement) covers this event already."""
        return last is not None and self.instance == last.instance and self.seq <= last.seq


@dataclass(frozen=True)
class Report:
    """A table's component value, parsed once: the ``order`` the browser shows (ids) and
    the ``events`` its trigger carried this run (a resend's batch unpacked), with the
    server ``session`` and the settings ``generation`` the page had drawn."""

    order: tuple[str, ...] | None = None
    events: tuple[Mapping, ...] = ()
    session: str | None = None
    generation: int | None = None

    @classmethod
    def parse(cls, value: Any, trigger: str = "event") -> Report:
        """``value`` is ``st.session_state[key]`` (None before the browser reported);
        ``trigger`` names the component's trigger ("event"; the sortable list: "moved").

        >>> Report.parse({"order": ["a", 3], "event": {"action": "batch", "events": [
        ...     {"action": "add", "seq": 2}, "junk"], "session": "s", "generation": 4}})
        Report(order=None, events=({'action': 'add', 'seq': 2},), session='s', generation=4)
        """
        if not isinstance(value, Mapping):
            return cls()
        order = value.get("order")
        order = (tuple(order) if isinstance(order, list)
                 and all(isinstance(i, str) for i in order) else None)
        raw = value.get(trigger)
        if not isinstance(raw, Mapping):
            return cls(order)
        if raw.get("action") == "batch":
            events = tuple(e for e in raw.get("events") or () if isinstance(e, Mapping))
        else:
            events = (raw,)
        session, generation = raw.get("session"), raw.get("generation")
        return cls(order, events, session if isinstance(session, str) else None,
                   generation if isinstance(generation, int)
                   and not isinstance(generation, bool) else None)

    @property
    def moved(self) -> bool:
        """A move fired this run (the order is then news even when it repeats the last)."""
        return any(e.get("action", "move") == "move" for e in self.events)


@dataclass(frozen=True)
class Checks:
    """What an event is checked against besides the rows: the grade scale
    (:func:`lab.grades.scale_of`; None: any number), the longest label, the most rows."""

    scale: Mapping[str, Any] | None = None
    max_label: int = MAX_LABEL
    max_rows: int = MAX_ITEMS


@dataclass(frozen=True)
class TableSession:
    """What one table drew last run and what it has taken from the browser since.

    ``id`` names this server session to the browser (a report made before it, when the
    old one expired during a network cut, names rows this one never drew: left alone);
    ``rows`` are the rows drawn, in order, and ``checks`` their limits: what events are
    checked against; ``ack`` the last event taken; ``seen`` the browser's order as last
    read (a report is news when it differs); ``given`` the ids the caller gave and
    ``drawn`` the order drawn; ``refused`` messages to show once at their rows ("": the
    table's); ``applied`` the event the last report applied; ``taken``: the trigger's
    callback received the report this run (the run's own pass has nothing left to take);
    ``formula`` what the formula under the table draws (``lab.ranking_table.formula_data``)."""

    id: str
    rows: tuple[Mapping[str, Any], ...] = ()
    checks: Checks = Checks()
    ack: Ack | None = None
    seen: tuple[str, ...] | None = None
    given: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    refused: Mapping[str, str] = field(default_factory=dict)
    applied: Event | None = None
    taken: bool = False
    formula: Mapping[str, Any] | None = None


def check(raw: Mapping, session: TableSession, order: Sequence[str] | None, *,
          lang: str = "en") -> tuple[Event | None, str | None, str | None]:
    """One event from the browser, checked against the rows drawn; a move carries
    ``"order"``, the reported order reconciled with their ids (a report can lag an edit).
    Returns ``(event, refusal, row id)``; ``(None, None, None)`` for what is not an event.

    >>> s = TableSession("s", rows=({"id": "a", "label": "A", "grade": 1},
    ...                             {"id": "b", "label": "B", "grade": 3}))
    >>> check({"action": "move", "id": "b", "from": 2, "to": 1}, s, ["b", "x"])[0]["order"]
    ['b', 'a']
    >>> check({"action": "visit", "query": "?g=1"}, s, None)[0]
    {'action': 'visit', 'query': '?g=1'}
    """
    action = raw.get("action")
    if action in HISTORY_ACTIONS:
        if action != "visit":
            return {"action": action}, None, None
        query = raw.get("query")
        if not isinstance(query, str) or len(query) > MAX_QUERY:
            return None, None, None
        return {"action": "visit", "query": query}, None, None
    event, message, row_id = check_event(raw, session.rows, scale=session.checks.scale,
                                         max_label=session.checks.max_label,
                                         max_rows=session.checks.max_rows, lang=lang)
    if event is not None and event["action"] == "move":
        event["order"] = reconcile(order or (), [row["id"] for row in session.rows])
    return event, message, row_id


def receive(session: TableSession, state: S, report: Report, reduce: Reduce | None, *,
            lang: str = "en") -> tuple[TableSession, S]:
    """``state`` after the report's new events, each checked, reconciled and reduced once.

    A refused event (by :func:`check`, or ``reduce`` raising ValueError) leaves the state
    and keeps its message for the next draw, at its row. ``reduce`` None: the events are
    checked and acknowledged only (``session.applied``), the caller reads them.
    Without a new event, an order the browser reports that is news (a reconnect lost the
    trigger, not the state) is reduced as a move. Events of another server session are
    left alone (their order is seen: not news at the next report either).
    """
    if report.events and report.session != session.id:  # not news later either
        return replace(session, seen=report.order or session.seen), state
    ack, refused, applied, took = session.ack, dict(session.refused), session.applied, False
    for raw in report.events:
        mark = Ack.of(raw)
        if mark is None or mark.answered_by(ack):
            continue  # applied already: a resend crossed its answer
        ack, took = mark, True
        event, message, row_id = check(raw, session, report.order, lang=lang)
        if event is not None and reduce is not None:
            try:
                state = reduce(state, event)
            except ValueError as exc:
                event, message, row_id = None, str(exc), event.get("id")
        if message:
            refused[row_id or ""] = message
        applied = event
    if reduce is None:
        return replace(session, ack=ack, refused=refused, applied=applied), state
    order = report.order
    if (not took and order is not None and order != session.seen
            and set(order) == set(session.drawn) and order != session.drawn):
        state = reduce(state, {"action": "move", "order": list(order)})
    return replace(session, ack=ack, refused=refused, applied=applied,
                   seen=session.seen if order is None else order), state


def order_to_draw(session: TableSession | None, ids: Sequence[str],
                  report: Report) -> list[str]:
    """The order a table without an owner draws, from the caller's ``ids`` and the
    browser's report (a table with an owner draws its owner's rows: :func:`receive` took
    the report into them).

    A report is news when it differs from the one last seen or a move fired; without news,
    the order drawn last stays while the ids are unchanged (a caller that only reads the
    return value does not see its move undone), and the caller's order is drawn when it
    reordered the same ids (a button). On the session's first draw a report is a previous
    session's: not news.

    >>> s = TableSession("s", seen=("a", "b"), given=("a", "b"), drawn=("a", "b"))
    >>> order_to_draw(s, ["a", "b"], Report(("b", "a"), ({"action": "move"},)))
    ['b', 'a']
    >>> order_to_draw(s, ["b", "a"], Report(("a", "b")))  # a button's order
    ['b', 'a']
    """
    ids = list(ids)
    if session is None:
        return ids
    reported = report.order
    if reported is not None and (reported != session.seen or report.moved):
        return reconcile(reported, ids)
    given, drawn = list(session.given), list(session.drawn)
    if ids == given:
        return reconcile(drawn, ids) if drawn != ids else ids
    if drawn == given or set(ids) == set(given):
        return ids
    return reconcile(drawn, ids)


@dataclass(frozen=True)
class Owner:
    """Who keeps a table's state, and what its events do to it: ``load`` and ``store`` the
    state, ``reduce`` one checked event into it (ValueError refuses, with the message the
    row shows), and ``extras``: what the browser draws besides the rows (the playground:
    its Undo/Redo flags and the settings generation, read by bridge.js)."""

    load: Callable[[], Any]
    store: Callable[[Any], None]
    reduce: Reduce
    extras: Callable[[], Mapping[str, Any]] = dict

    @classmethod
    def calling(cls, on_change: Callable[[Event], None]) -> Owner:
        """An owner whose state lives elsewhere: ``on_change(event)`` applies each event
        (a move carries ``"order"``, every id in the new order)."""
        def reduce(state, event):
            on_change(event)
            return state
        return cls(load=lambda: None, store=lambda state: None, reduce=reduce)
