"""The ranking table: a ranked list whose rows are the DCG table (st.components.v2).

One component shows DCG@k / IDCG@k / NDCG@k, the ranking as a table (position, item,
grade, gain, discount log2(i+1), contribution with a bar, cumulative DCG) with the
cutoff line after position k, and the ideal ordering's table beside it. Rows drag by
mouse from anywhere, by touch from the grip or after a short hold, and move with
Alt+Arrow / Alt+Home / Alt+End; while a row is held every figure shows the order under
the pointer (computed in the browser), and the drop brings the engine's figures, equal
to that preview. Grades and labels are edited in place; rows are added and removed.

The component's files sit beside this module and are read once, at import. Its
JavaScript is one ES module joined from files, one concern each (:data:`JS_FILES`):
``figures.js`` (the arithmetic, the browser's twin of ndcg_core), ``dom.js`` and
``drag.js`` (shared with :mod:`ui.sortable`: the words, and one drag for every list),
``view.js`` (drawing), ``interaction.js`` (what a drag, a key or an edit does) and
``bridge.js`` (the instance, ``data`` in, reports out; its notes say how st.components.v2
runs it); its words come from :mod:`ui.ranking_table.words`. ``ranking_table.css`` and ``ranking_table.html`` are the rest. The formula
under the table is a component of its own (:func:`ranking_formula`, ``formula.js``) that
redraws in the frame the table draws new figures. The arithmetic lives in
:mod:`lab.ranking_table` (no Streamlit; imported here as ``model``), grades and their
checks in :mod:`lab.grades`, the event loop and the order rules in :mod:`lab.table`.

Reports from the browser (``st.session_state[key]``): the state ``order`` (ids, latest
order) and the trigger ``event``, one of::

    {"action": "move", "id": str, "from": int, "to": int}      # 1-based positions
    {"action": "grade", "id": str, "grade": float}
    {"action": "rename", "id": str, "label": str}
    {"action": "remove", "id": str}
    {"action": "add"}
    {"action": "undo"} / {"action": "redo"} / {"action": "visit", "query": str}  # history

each with ``seq``, ``instance``, ``session`` and ``generation`` (the ``generation`` the
page had drawn); or ``{"action": "batch", "events": [...], "generation": ...}``, every
event not yet acknowledged, sent again every 4 s until a run acknowledges them. The loop
is :mod:`lab.table`'s: the report parsed once (:class:`lab.table.Report`), each new event
checked, reconciled and reduced once (:func:`lab.table.receive`; ``ui.state.table_events``
runs it from the trigger and again at the top of the playground's runs, where it finds
nothing new), the acknowledgement in ``data["ack"]``, this server session in
``data["session"]`` (events made before it are left alone; the browser says what was
lost). The browser refuses a grade outside the scale before sending it; the server checks
every event again. The table's owner (:class:`lab.table.Owner`) keeps the state and says
what an event does to it (the playground: ``ui.state.PLAYGROUND_TABLE``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace as _replace
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from lab import grades
from lab import ranking_table as model
from lab.i18n import t
from lab.table import Checks, Owner, Report, TableSession, order_to_draw
from lab.text import gain_name
from ui import state
from ui.ranking_table.words import HINT, hint_text, labels

_HERE = Path(__file__).resolve().parent


SIZES = ("normal", "present")  # the table's and the formula's type: a screen, a projector
JS_FILES = ("figures.js", "dom.js", "drag.js", "view.js", "interaction.js", "history.js",
            "bridge.js")


def _read(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


def module_js(paths) -> str:
    """One ES module from ``paths`` (st.components.v2 takes a component's JavaScript as one
    inline module, so files cannot import each other): their text joined in order, each
    after a comment naming its file. Their top-level names share one scope."""
    return "\n".join(f"// ---- {path.name}\n" + path.read_text(encoding="utf-8")
                     for path in paths)


_component = st.components.v2.component(
    "ndcg_ranking_table",
    html=_read("ranking_table.html"),
    css=_read("ranking_table.css"),
    js=module_js(_HERE / name for name in JS_FILES),
)

# The formula under the table (DCG@k's and IDCG@k's sums, the NDCG ratio) as HTML: it
# redraws in the frame the table draws new figures (formula.js), so a drag and a key
# press reach it without a rerun and without KaTeX.
_formula = st.components.v2.component(
    "ndcg_ranking_formula",
    html='<div class="fx" data-testid="ranking-formula"></div>',
    css=_read("formula.css"),
    js=module_js(_HERE / name for name in ("figures.js", "dom.js", "formula.js")),
)

# A component without a face: its JS fires its ``settled`` trigger when a ranking table
# on the page has drawn the engine's answer to one of its events (bridge.js sends the
# window event). Placed in another fragment than the table, it reruns that fragment
# after the table's own, short rerun has answered.
_listener = st.components.v2.component(
    "ndcg_ranking_table_settled",
    html='<span hidden></span>',
    js=_read("settled.js"),
)

__all__ = ["ranking_table", "ranking_formula", "settled_listener", "View", "HINT", "model"]


@dataclass(frozen=True)
class View:
    """How a table looks and what it lets the user do.

    ``show_ideal``: the ideal ordering's table beside (on a narrow screen, below) the list;
    ``editable``: grades and labels edited, rows added and removed; ``disabled``: no moves
    or edits; ``hint``: the help line under the list (:data:`HINT`: the default, in the
    page's language; None: none); ``max_label``, ``max_rows``: the longest label, the most
    rows (add is refused beyond); ``size``: "present" sets type for a projector (cells at
    20 px or more, the figures at 40 px or more, no hint line); ``figures``: DCG, IDCG and
    NDCG above the list (off where they would give an answer away: a class's Arrange)."""

    show_ideal: bool = True
    editable: bool = True
    disabled: bool = False
    hint: str | None = HINT
    max_label: int = grades.MAX_LABEL
    max_rows: int = grades.MAX_ITEMS
    size: str = "normal"
    figures: bool = True


def _noop() -> None:
    """Declare a state name to the component; nothing to do."""


def ranking_table(
    rows: Sequence[Mapping[str, Any]],
    *,
    key: str,
    k: int | None,
    gain: str = "linear",
    scale: Mapping[str, Any] | None = None,
    unretrieved: Sequence[Mapping[str, Any]] | None = None,
    rules: Any = None,
    owner: Owner | None = None,
    view: View = View(),
) -> dict[str, Any]:
    """Draw ``rows`` as the DCG table the user reorders and edits; return what they did.

    Parameters
    ----------
    rows : sequence of dict
        In ranked order, each ``{"id": str, "label": str, "grade": float | None}``.
        ``id`` is stable and unique; ``label`` is shown as plain text (never HTML);
        a grade of None reads "?" and the figures wait for it.
    key : str
        Widget key. ``st.session_state[key]`` holds the browser's report.
    k : int or None
        The cutoff: positions past k are dimmed and marked "past k". None: the whole list.
    gain : {'linear', 'exponential', 'both'}
        Which gains the figures use; 'both' shows the two side by side.
    scale : dict, optional
        ``{"min": number | None, "max": number | None, "integer": bool}``
        (:func:`lab.grades.scale_of`): grades outside it are refused at the row.
        None: any number.
    unretrieved : sequence of dict, optional
        Judged items that were not retrieved, ``{"label": str, "grade": number}``:
        the ideal ordering (and IDCG) is drawn from the ranking plus these, without
        negative grades (``ndcg_core.ndcg(..., ideal=...)``'s rule).
    rules : lab.rules.Rules, optional
        The conventions (the playground's mistake settings; None: the engine's defaults,
        NDCG 0 when IDCG@k is 0); the browser's preview computes them too (figures.js).
    owner : lab.table.Owner, optional
        Keeps the state the rows are drawn from and reduces each checked event into it
        (a move also carries ``"order"``, every id in the new order) before the script
        reruns; a ValueError it raises refuses the event, its message shown at the row.
        ``Owner.calling(fn)`` calls ``fn(event)``. The rows are then drawn in the owner's
        order (the report is not read again here): the caller runs
        ``ui.state.table_events(key, owner)`` at the top of its run, before it reads the
        state, for a report whose trigger never fired (a reconnect lost it; AppTest fires
        none). Its ``extras`` are drawn too (the
        playground's Undo and Redo flags: ``{"history": {"undo": bool, "redo": bool}}``
        shows the buttons, Ctrl+Z and its kin, and Back and Forward as events;
        ``{"generation": int}`` is sent back with every event). None: the order is drawn
        as the user left it, and the return value says what they did.
    view : View
        How the table looks and what it allows (:class:`View`).

    Returns
    -------
    dict
        ``{"order": [ids in the order drawn], "event": the checked event of this run,
        or None}``.

    Raises
    ------
    ValueError
        If a row is not a dict, its ``id`` is missing or repeated, or its grade is not
        a finite number or None; if ``gain`` or ``view.size`` is not a choice.
    """
    norm = model.normalise_rows(rows)
    ids = [r["id"] for r in norm]
    session = state.table_session(key)
    if owner is None:  # the rows are the caller's: the browser's order is drawn over them
        report = Report.parse(state.component_report(key))
        order, seen = order_to_draw(session, ids, report), report.order
    else:  # the owner's state took the report (lab.table.receive, once): its rows are news
        order, seen = ids, session.seen if session else None
    by_id = {r["id"]: r for r in norm}
    drawn = [by_id[i] for i in order]

    lang = state.language()
    hint = hint_text(lang) if view.hint is HINT else view.hint
    data = model.table_data(drawn, k=k, gain=gain, unretrieved=unretrieved, rules=rules,
                            lang=lang, normalised=True)
    refused = session.refused if session else {}
    data.update(
        scale=dict(scale) if scale else None,
        scale_text=grades.scale_text(scale, lang=lang),
        labels=labels(lang, scale),
        messages={i: m for i, m in refused.items() if i in by_id},
        notice=" ".join(m for i, m in refused.items() if i not in by_id) or data["problem"],
        hint=hint or "",
        editable=bool(view.editable),
        disabled=bool(view.disabled),
        show_ideal=bool(view.show_ideal),
        show_figures=bool(view.figures),
        max_label=int(view.max_label),
        size=_size(view.size),
        history=None,
        generation=None,
    )
    if owner is not None:
        data.update(owner.extras())
    event = session.applied if session else None  # what receive took since the last draw
    data["key"] = str(key)  # names the figures it announces to its formula (formula.js)
    new = TableSession(
        id=session.id if session else uuid.uuid4().hex,
        rows=tuple(drawn),
        checks=Checks(dict(scale) if scale else None, int(view.max_label), int(view.max_rows)),
        ack=session.ack if session else None,
        seen=seen if session else None,
        given=tuple(ids), drawn=tuple(order),
        formula=model.formula_data(data),
    )
    ack = new.ack
    data.update(session=new.id,
                ack=None if ack is None else {"instance": ack.instance, "seq": ack.seq})
    state.set_table_session(key, new)
    result = _component(
        key=key,
        data=data,
        on_order_change=_noop,
        on_event_change=partial(state.table_events, str(key), owner, trigger=True),
    )
    if session is None:
        # This session's first draw. Streamlit shows the browser's report only once the
        # component is registered: one there already is a previous session's (the server
        # restarted, or the session expired), in ids this session never drew. Not news.
        state.set_table_session(key, _replace(new, seen=Report.parse(result).order))
    return {"order": order, "event": event}


def _size(size: str) -> str:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}; got {size!r}.")
    return size


def ranking_formula(*, table: str, key: str, size: str = "normal") -> None:
    """The formula of the ranking table drawn this run under the key ``table``: DCG@k's and
    IDCG@k's sums and the NDCG ratio with its figures (the same ones: from the table's
    data), per gain. It then follows the table in the browser, in the frame the table
    draws new figures (a drag's preview, a key's move, the engine's answer). ``size``:
    as the table's ("present": type for a projector)."""
    session = state.table_session(table)
    lang = state.language()
    _formula(key=key, data={
        "table": str(table), "formula": session.formula if session else None,
        "size": _size(size),
        "labels": {"note_linear": gain_name("linear", lang=lang, long=True),
                   "note_exponential": gain_name("exponential", lang=lang, long=True),
                   "no_gain": t("(no positive gain to find)", lang)}})


def settled_listener(*, key: str) -> None:
    """Rerun the fragment this is drawn in once a ranking table on the page has drawn the
    engine's answer to a move or an edit (nothing on screen; its container is hidden by
    ui/fit.css through the key's class). The table's own fragment answers first, alone;
    this rerun does not read the tables' reports again (``ui.state.tables_answered``)."""
    _listener(key=key, on_settled_change=state.tables_answered)
