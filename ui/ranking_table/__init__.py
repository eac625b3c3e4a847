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
checks in :mod:`lab.grades`, the order rules in :func:`lab.playground.order_to_draw` and
:func:`lab.playground.reconcile`.

Reports from the browser (``st.session_state[key]``): the state ``order`` (ids, latest
order) and the trigger ``event``, one of::

    {"action": "move", "id": str, "from": int, "to": int}      # 1-based positions
    {"action": "grade", "id": str, "grade": float}
    {"action": "rename", "id": str, "label": str}
    {"action": "remove", "id": str}
    {"action": "add"}
    {"action": "undo"} / {"action": "redo"} / {"action": "visit", "query": str}  # history=

each with ``seq``, ``instance``, ``session`` and ``generation`` (the ``generation`` of the
data the page had drawn); or ``{"action": "batch", "events": [...], "generation": ...}``,
every event not yet acknowledged, sent again every 4 s until a run acknowledges them. The
server applies each (instance, seq) once and acknowledges the last in ``data["ack"]``;
``data["session"]`` names this server session, so events and reports made before it (the
old session expired during a cut) are left alone and the browser says what was lost.

The browser refuses a grade outside the scale before sending it; the server checks
every event again (:func:`lab.table_events.read_event`: check, then a move's order
reconciled), and ``on_change`` may refuse one by raising ValueError: the message is shown
at that row. A caller with a model of its own passes ``on_event`` instead, one function
from the raw event to the next state (the playground: :func:`lab.table_events.next_state`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st

from lab import grades
from lab import playground as P
from lab import ranking_table as model
from lab.i18n import t
from lab.text import gain_name
from lab.table_events import read_event
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

# What ranking_table saw and drew last run, per key (lab.playground.order_to_draw's memo,
# the rows and scale its events are checked against, refusals to show), kept by ui.state
# (the one writer of st.session_state).
_MEMO = "ranking_table"

__all__ = ["ranking_table", "ranking_formula", "settled_listener", "HINT", "model"]


def _noop() -> None:
    """Declare a state name to the component; nothing to do."""


def _read_report(key: str) -> tuple[list[str] | None, Any]:
    """The order the browser last reported for ``key`` and this run's event (or None)."""
    snapshot = st.session_state[key] if key in st.session_state else None
    if not isinstance(snapshot, Mapping):
        return None, None
    order = snapshot.get("order")
    if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
        order = None
    return order, snapshot.get("event")


def _events(raw: Any) -> list:
    """The events of one report: a resend carries every event not yet acknowledged."""
    if isinstance(raw, Mapping) and raw.get("action") == "batch":
        return [e for e in raw.get("events") or [] if isinstance(e, Mapping)]
    return [raw] if isinstance(raw, Mapping) else []


def _on_event(key: str, on_change: Callable[[dict], None] | None,
              on_event: Callable[[Any, list | None], tuple] | None) -> None:
    """The ``event`` trigger fired: take each new event to the next state (``on_event``, or
    this table's own check and ``on_change``), acknowledge it, and keep a refusal to show
    at its row. Events of another session (this one began after the old expired during a
    cut) name rows this session never drew: they are left alone, and the browser, seeing
    the new session, tells the student."""
    memo = state.component_memo(_MEMO, key) or {}
    reported, raw = _read_report(key)
    if not isinstance(raw, Mapping) or raw.get("session") != memo.get("session"):
        return
    ack = memo.get("ack") or {}
    for one in _events(raw):
        seq, instance = one.get("seq"), one.get("instance")
        if not isinstance(seq, int) or (instance == ack.get("instance")
                                        and seq <= ack.get("seq", 0)):
            continue  # applied already: a resend crossed its answer
        ack = {"instance": instance, "seq": seq}
        event, message, row_id = _take(memo, one, reported, on_change, on_event)
        if message:
            memo.setdefault("refused", {})[row_id or ""] = message
        memo["event"] = event
    memo["ack"] = ack
    state.set_component_memo(_MEMO, key, memo)


def _take(memo: dict, raw: Mapping, reported: list | None, on_change, on_event) -> tuple:
    """(event applied or None, refusal or None, its row id) for one event."""
    if on_event is not None:
        return on_event(raw, reported)
    event, message, row_id = read_event(
        raw, memo.get("rows") or [], reported, scale=memo.get("scale"),
        max_label=memo.get("max_label", grades.MAX_LABEL),
        max_rows=memo.get("max_rows", grades.MAX_ITEMS), lang=state.language())
    if event is not None and on_change is not None:
        try:
            on_change(event)
        except ValueError as exc:
            return None, str(exc), raw.get("id")
    return event, message, row_id


def ranking_table(
    rows: Sequence[Mapping[str, Any]],
    *,
    k: int | None,
    gain: str = "linear",
    key: str,
    scale: Mapping[str, Any] | None = None,
    unretrieved: Sequence[Mapping[str, Any]] | None = None,
    zero_idcg: str = "zero",
    rules: Any = None,
    on_change: Callable[[dict], None] | None = None,
    on_event: Callable[[Any, list | None], tuple] | None = None,
    show_ideal: bool = True,
    editable: bool = True,
    disabled: bool = False,
    hint: str | None = HINT,
    max_label: int = grades.MAX_LABEL,
    max_rows: int = grades.MAX_ITEMS,
    size: str = "normal",
    history: Mapping[str, bool] | None = None,
    generation: int | None = None,
) -> dict[str, Any]:
    """Draw ``rows`` as the DCG table the user reorders and edits; return what they did.

    Parameters
    ----------
    rows : sequence of dict
        In ranked order, each ``{"id": str, "label": str, "grade": float | None}``.
        ``id`` is stable and unique; ``label`` is shown as plain text (never HTML);
        a grade of None reads "?" and the figures wait for it.
    k : int or None
        The cutoff: positions past k are dimmed and marked "past k". None: the whole list.
    gain : {'linear', 'exponential', 'both'}
        Which gains the figures use; 'both' shows the two side by side.
    key : str
        Widget key. ``st.session_state[key]`` holds the browser's report.
    scale : dict, optional
        ``{"min": number | None, "max": number | None, "integer": bool}``
        (:func:`lab.grades.scale_of`): grades outside it are refused at the row.
        None: any number.
    unretrieved : sequence of dict, optional
        Judged items that were not retrieved, ``{"label": str, "grade": number}``:
        the ideal ordering (and IDCG) is drawn from the ranking plus these, without
        negative grades (``ndcg_core.ndcg(..., ideal=...)``'s rule).
    zero_idcg : {'zero', 'one', 'nan'}
        NDCG when IDCG@k is 0 (``ndcg_core.ndcg``'s option; default as scikit-learn).
    rules : lab.rules.Rules, optional
        The playground's mistake settings (replace ``zero_idcg``); the browser's preview
        computes them too (figures.js).
    on_change : callable, optional
        Called with the checked event (see the module notes; a move also carries
        ``"order"``, every id in the new order) before the script reruns. Apply it to
        your state there. Raise ValueError to refuse it: the message shows at its row.
    on_event : callable, optional
        Instead of this table's own check and ``on_change``: called with the browser's
        raw event and the order it reported, it checks, applies and returns
        ``(event applied or None, refusal message or None, row id or None)`` — as
        :func:`lab.table_events.next_state` does for the playground.
    show_ideal : bool
        Show the ideal ordering's table beside (or, on a narrow screen, below) the list.
    editable : bool
        Allow editing grades and labels, adding and removing rows.
    disabled : bool
        Show the table without moves or edits.
    hint : str or None
        The help line under the list.
    max_label, max_rows : int
        Longest label, most rows (add is refused beyond).
    size : {'normal', 'present'}
        'present': type for a projector (cells at 20 px or more, the figures at 40 px or
        more, no hint line), for the presenter view.
    history : dict, optional
        ``{"undo": bool, "redo": bool}``: this table holds the page's undo history. It
        shows Undo and Redo buttons (enabled as given) beside "+ Add item"; they, Ctrl+Z
        (Cmd+Z) and Ctrl+Shift+Z / Ctrl+Y anywhere on the page but in a text field, send
        ``{"action": "undo"}`` / ``"redo"`` events, and the browser's Back and Forward
        ``{"action": "visit", "query": the entry's address}`` (ui/ranking_table/history.js;
        ``on_event`` takes them: :func:`lab.table_events.history_step`).
    generation : int, optional
        A number the caller raises when the server sets the page's other widgets over the
        browser's values; every event carries back the one the page had drawn, so the
        caller can tell a rerun whose widget values are older than that setting (the
        playground: ``ui.state.settings_generation``).

    Returns
    -------
    dict
        ``{"order": [ids in the order drawn], "event": the checked event of this run,
        or None}``. Without ``on_change``, apply ``event`` yourself (a move needs
        nothing: the order is drawn as the user left it).

    Raises
    ------
    ValueError
        If a row is not a dict, its ``id`` is missing or repeated, or its grade is not
        a finite number or None; if ``gain`` or ``zero_idcg`` is not a choice.
    """
    norm = model.normalise_rows(rows)
    ids = [r["id"] for r in norm]
    reported, raw_event = _read_report(key)
    memo = state.component_memo(_MEMO, key) or {}
    # A report from before this session (the old one expired during a cut) names rows it
    # never drew: not news here (bridge.js tells the student what it held).
    foreign = "session" not in memo
    moved = any(e.get("action") == "move" for e in _events(raw_event))
    order = P.order_to_draw(ids, None if foreign else reported, moved and not foreign,
                            memo.get("order_memo"))
    by_id = {r["id"]: r for r in norm}
    drawn = [by_id[i] for i in order]

    lang = state.language()
    if hint is HINT:
        hint = hint_text(lang)
    data = model.table_data(drawn, k=k, gain=gain, unretrieved=unretrieved,
                            zero_idcg=zero_idcg, rules=rules, lang=lang)
    refused = memo.get("refused") or {}
    data.update(
        scale=dict(scale) if scale else None,
        scale_text=grades.scale_text(scale, lang=lang),
        labels=labels(lang, scale),
        messages={i: m for i, m in refused.items() if i in by_id},
        notice=" ".join(m for i, m in refused.items() if i not in by_id) or data["problem"],
        hint=hint or "",
        editable=bool(editable),
        disabled=bool(disabled),
        show_ideal=bool(show_ideal),
        max_label=int(max_label),
        size=_size(size),
        history={"undo": bool(history.get("undo")), "redo": bool(history.get("redo"))}
        if history else None,
        generation=None if generation is None else int(generation),
    )
    event = memo.get("event") if raw_event is not None else None
    data["key"] = str(key)  # names the figures it announces to its formula (formula.js)
    session = memo.get("session") or uuid.uuid4().hex
    data.update(session=session, ack=memo.get("ack"))
    order_memo = {"seen": reported, "incoming": ids, "drawn": order}
    state.set_component_memo(_MEMO, key, {
        "session": session,
        "ack": memo.get("ack"),
        "formula": model.formula_data(data),
        "order_memo": order_memo,
        "rows": drawn,
        "scale": dict(scale) if scale else None,
        "max_label": int(max_label),
        "max_rows": int(max_rows),
    })
    result = _component(
        key=key,
        data=data,
        on_order_change=_noop,
        on_event_change=partial(_on_event, str(key), on_change, on_event),
    )
    if not memo:
        # This session's first draw. Streamlit shows the browser's report only once the
        # component is registered: one there already is a previous session's (the server
        # restarted, or the session expired), in ids this session never drew. Not news.
        order_memo["seen"] = result.get("order")
        state.first_report(key, order_memo["seen"])
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
    memo = state.component_memo(_MEMO, table) or {}
    lang = state.language()
    _formula(key=key, data={
        "table": str(table), "formula": memo.get("formula"), "size": _size(size),
        "labels": {"note_linear": gain_name("linear", lang=lang, long=True),
                   "note_exponential": gain_name("exponential", lang=lang, long=True),
                   "no_gain": t("(no positive gain to find)", lang)}})


def settled_listener(*, key: str) -> None:
    """Rerun the fragment this is drawn in once a ranking table on the page has drawn the
    engine's answer to a move or an edit (nothing on screen; its container is hidden by
    ui/fit.css through the key's class). The table's own fragment answers first, alone."""
    _listener(key=key, on_settled_change=_noop)
