"""The tables' session state: what each drew last (a :class:`lab.table.TableSession`) and
the one entry from the browser's report to its owner's state, :func:`table_events`. Part
of :mod:`ui.state` (re-exported there: ``state.NAME``)."""

from __future__ import annotations

import streamlit as st

from lab.table import Owner, Report, TableSession, receive
from ui.state import COMPONENT_MEMO, language  # defined before ui.state imports this

ss = st.session_state
__all__ = ["TABLE", "table_session", "set_table_session", "component_report", "table_events"]

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


def table_events(key: str, owner: Owner | None) -> None:
    """Take the new events of the table ``key``'s report into its owner's state
    (:func:`lab.table.receive`: each checked, reconciled and reduced once). The table's
    trigger calls this before the script reruns; the playground calls it again at the top
    of each run, where a report whose trigger a reconnect lost is still news."""
    session = table_session(key)
    if session is None:
        return
    report = Report.parse(ss.get(key))
    before = owner.load() if owner is not None else None
    session, after = receive(session, before, report, owner.reduce if owner else None,
                             lang=language())
    set_table_session(key, session)
    if owner is not None and after is not before:
        owner.store(after)
