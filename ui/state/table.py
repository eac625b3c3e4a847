"""The tables' session state: what each drew last (a :class:`lab.table.TableSession`), the
one entry from the browser's report to its owner's state (:func:`table_events`), and the
playground table's owner (:data:`PLAYGROUND_TABLE`: its undo history). Part of
:mod:`ui.state` (re-exported there: ``state.NAME``)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from lab import table_events as playground_events
from lab.history import History
from lab.table import Owner, Report, TableSession, receive
# defined before ui.state imports this
from ui.state import (COMPONENT_MEMO, PG_NOTICE, PG_SETTINGS_SHOWN, _history, _restore,
                      history_flags, language, settings_generation, visited)

ss = st.session_state
__all__ = ["TABLE", "PLAYGROUND_TABLE", "table_session", "set_table_session",
           "component_report", "table_events", "tables_answered"]

TABLE = "ranking_table"  # the component whose sessions these are (COMPONENT_MEMO's first part)


def table_session(key: str) -> TableSession | None:
    """What the table ``key`` drew last run, or None before its first draw this session."""
    session = ss.get(COMPONENT_MEMO.format(TABLE, key))
    return session if isinstance(session, TableSession) else None


def set_table_session(key: str, session: TableSession) -> None:
    ss[COMPONENT_MEMO.format(TABLE, key)] = session


def component_report(key: str):
    """The browser's raw value for the component ``key`` (None before it reported); read
    it with :meth:`lab.table.Report.parse`."""
    return ss.get(key)


def table_events(key: str, owner: Owner | None, *, trigger: bool = False) -> None:
    """Take the new events of the table ``key``'s report into its owner's state
    (:func:`lab.table.receive`: each checked, reconciled and reduced once). The table's
    trigger calls this (``trigger``) before the script reruns; the playground calls it
    again at the top of each run, where a report whose trigger a reconnect lost (or
    AppTest's, which fires none) is still news. In the run the trigger's callback began,
    that pass has nothing left to take and reads nothing."""
    session = table_session(key)
    if session is None:
        return
    if session.taken and not trigger:
        set_table_session(key, replace(session, taken=False))
        return
    report = Report.parse(ss.get(key))
    before = owner.load() if owner is not None else None
    session, after = receive(session, before, report, owner.reduce if owner else None,
                             lang=language())
    set_table_session(key, replace(session, taken=trigger))
    if owner is not None and after is not before:
        owner.store(after)


def tables_answered() -> None:
    """The settled signal's callback (``ui.ranking_table.settled_listener``): a table drew
    the engine's answer to its events, so every table's report is taken; the fragment
    rerun this signal asks for reads none again (a report whose trigger was lost comes
    back with the browser's resend)."""
    prefix = COMPONENT_MEMO.format(TABLE, "")
    for name in [n for n in list(ss.keys()) if isinstance(n, str) and n.startswith(prefix)]:
        session = ss[name]
        if isinstance(session, TableSession):
            ss[name] = replace(session, taken=True)


def _reduce_table(history: History, event: dict) -> History:
    """The playground's ``reduce`` (:func:`lab.table_events.reduce`), with what the page
    does around it: after Back or Forward the whole page runs again (its settings row
    follows) and the address is the browser's own, and an address that cannot be read is
    said above the table."""
    if event["action"] == "visit":
        ss[PG_SETTINGS_SHOWN] = None
    try:
        after = playground_events.reduce(history, event, lang=language())
    except playground_events.UnreadableAddress as exc:
        ss[PG_NOTICE] = {"problem": str(exc), "kept": True}
        return history
    if event["action"] == "visit":
        visited(event["query"])  # the browser is on that address: nothing to write over it
    return after


# The playground's ranking table: its state is the session's undo history.
PLAYGROUND_TABLE = Owner(
    load=_history, store=_restore, reduce=_reduce_table,
    extras=lambda: {"history": history_flags(), "generation": settings_generation()})
