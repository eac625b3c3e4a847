"""The one owner of ``st.session_state``: every key is declared in this package, and only
this package writes them (widgets write their own keys; Streamlit does that, not our code).
The data page's and the exercises page's keys and writers are in :mod:`ui.state.data` and
:mod:`ui.state.practice`, re-exported here, so a page reads every key and calls every
writer as ``state.NAME``.

How a move flows
----------------
1. browser: the user drags a row of the playground's ``ui/ranking_table`` (or presses
   Alt+↑). The component reports the new order as its state
   (``st.session_state[LIST]["order"]``) and fires its ``event`` trigger (a move; or a
   grade, rename, remove, add). The other pages' ``ui/sortable`` lists report the same
   ``order`` with a ``moved`` trigger;
2. state: the trigger's callback, :func:`table_events` (the table: :func:`lab.table.receive`,
   check -> reconcile -> reduce, with the playground's reduce, :data:`PLAYGROUND_TABLE`; a
   refusal goes back to its row) or :func:`on_list_move` (a sortable list:
   :func:`lab.playground.reorder`), stores the new :class:`lab.playground.Playground` and
   its history (``PG``, ``PG_HISTORY``). :func:`pending_edits` runs the same at the top of
   each run: a report whose trigger a reconnect lost is news there (the table re-sends
   every unanswered event every 4 s, a list its move). A report made before this session
   began (the old one expired during a cut, or the server restarted) names rows it never
   drew and is left alone;
3. engine: the page reads :func:`playground` and asks ``ndcg_core`` for every figure (a move
   reruns only the table's fragment; the explanation's follows once the table has drawn);
4. URL: that fragment's :func:`publish` writes the address bar, so a copied link reopens it.

Undo, redo and Back: each state :func:`_set_playground` stores is one step of
the session's :class:`lab.history.History`, which the table's Undo/Redo buttons, Ctrl+Z and
its kin and Back/Forward move through (as table events, in order with the moves:
ui/ranking_table/history.js). Streamlit pushes a browser history entry per query string a
run writes, and on Back reruns with the entry's address, which :func:`playground` cannot
tell from an address that lags a move: so :func:`publish` leaves such an address alone, and
the table's "visit" event, carrying it, moves the history there. An undo or a visit sets
the settings row (k's slider, the gain ...) over what the browser shows; a rerun the
browser asks for before that answer arrives still carries the old values, so every rerun
says which setting of the row the page had drawn (:func:`settings_generation`, the hidden
:data:`SETTINGS_DRAWN`) and :func:`on_settings` sets an older one back, not applying it.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs

import streamlit as st

from lab import playground as P, rules as mistake_rules
from lab.i18n import LANGUAGES, language_of, t
from lab.history import LIMIT, History
from lab.table import Report
from lab.text import fmt_grade
from ui.state.present import *  # noqa: F401,F403  (presenter view: ui/state/present.py)

ss = st.session_state

# ---------------------------------------------------------------- keys: the playground
PG = "pg"                        # Playground: the shared ranking and its settings
PG_ORIGIN = "pg_origin"          # what Reset returns to: the state the last link opened
PG_NOTICE = "pg_notice"          # a message for the next run (a link that could not be read)
PG_SEED = "pg_seed"              # the shuffle button's seed, counted up per press
PG_QP_WRITTEN = "pg_qp_written"  # the URL this session wrote last
PG_QP_HISTORY = "pg_qp_history"  # URLs this session wrote (a lagging one is not news)
PG_SETTINGS_SHOWN = "pg_settings_shown"  # what the settings row was drawn for
PG_HISTORY = "pg_history"        # lab.history.History of PG: undo, redo, Back and Forward
PG_REPORT_SEEN = "pg_report_seen__"      # + list key: the component report applied last
COMPONENT_MEMO = "component_memo__{}__{}"  # .format(component, key): what a list drew last
LAST_PAGE = "last_page"          # url path of the page that last ran to the end
# The playground's url paths: the root (the default page; its links) and /playground (app.py)
PLAYGROUND_URLS = ("", "playground")
PLAYGROUND_ROOT_NAME = "playground_root"  # the default page's reserved, unserved name
LIST = "pg_list"                 # the playground page's ranking table (component state)
VIEW = "pg_view"                 # the playground's open tab (formula or charts)
SETTLED = "pg_settled"           # the table's answer is drawn: redraw the charts and link
FORMULA = "pg_formula"           # the formula under the table (follows it in the browser)
# widgets of the settings row (mirrors of PG, set from it before each draw)
GAIN_WIDGET, K_WIDGET, SCALE_WIDGET = "pg_gain", "pg_k", "pg_scale"
UNRETRIEVED_WIDGET = "pg_unretrieved_text"
UNRETRIEVED_ERROR = "pg_unretrieved_error"  # why the typed grades were refused
UNRETRIEVED_BAD_TEXT = "pg_unretrieved_bad_text"  # the refused text, shown again as typed
RULE_WIDGET = "pg_rule_{}"       # .format(setting): the mistake settings (lab.rules), mirrors
# Times the server set the settings row over what the browser showed (an undo, Back, Reset,
# a link): the table's events carry the number the page had drawn (``generation``), so a
# rerun that carries a number behind this one carries the row's replaced values too.
PG_SETTINGS_GEN = "pg_settings_gen"
SETTINGS_DRAWN = "pg_settings_drawn"  # the number the page shows: ui.playground.settings_drawn
# other pages that show (and may move) the shared ranking
GAIN_LIST, GAIN_K = "gain_list", "gain_k"
BEYOND_LIST, BEYOND_K, BEYOND_THRESHOLD = "beyond_list", "beyond_k", "beyond_threshold"
# ---------------------------------------------------------------- keys: start here
TOUR_STEP, MK_STEP = "sh_step", "mk_step"  # the tour's stop; the mistake shown (and its menu)
# ---------------------------------------------------------------- keys: exercises
EXERCISE_PARAM, DOCUMENT_PARAM = "ex", "doc"  # share links: ?ex=compute/medium/5, ?doc=000
# the exercises page's own keys and writers: ui/state/practice.py (re-exported below)
# ---------------------------------------------------------------- keys: language
LANG = "lang"                    # "en" or "zh": the language every page is drawn in
LANG_WIDGET = "lang_switch"      # the sidebar's language switch (a mirror of LANG)
LANG_PARAM = "lang"              # the address's ?lang= (a query parameter, not a state key)
CLASS = "cl_{}"  # .format(name): class mode's widgets; its notes go through component_memo


# ================================================================ the playground

def _qp_signature(get_all):
    return tuple((n, tuple(get_all(n))) for n in P.LINK_PARAMS)


def _set_playground(pg: P.Playground):
    """The only writer of ``PG`` (a new state is one undo step); not of k's slider, drawn
    before :func:`pending_edits` runs (StreamlitWidgetAlreadyInstantiatedError):
    :func:`settings_widgets` sets it."""
    h = _history()
    ss[PG_HISTORY] = History(pg) if h.present is None else h.push(pg)
    ss[PG] = pg


def _history() -> History:
    """The session's history, whose present is the state shown (``PG``; None before one):
    a ``PG`` stored around :func:`_set_playground` (tests do) is recorded as a step."""
    h, pg = ss.get(PG_HISTORY), ss.get(PG)
    if h is None:
        return History(pg)
    if pg is not None and pg != h.present:
        ss[PG_HISTORY] = h = h.push(pg)
    return h


def _restore(h: History):
    """Show the history's present (the settings follow it: :func:`settings_widgets`).
    Pool text that was refused stays, with its message, unless the pool itself changes."""
    if PG in ss and h.present.unretrieved != ss[PG].unretrieved:
        ss[UNRETRIEVED_ERROR] = ss[UNRETRIEVED_BAD_TEXT] = None
    ss[PG_HISTORY] = h
    ss[PG] = h.present


def history_flags() -> dict:
    """What the Undo and Redo buttons can do now: ``{"undo": bool, "redo": bool}``."""
    h = _history()
    return {"undo": h.can_undo, "redo": h.can_redo}


def _reset_widgets(pg: P.Playground):
    _set_settings({GAIN_WIDGET: pg.gain, SCALE_WIDGET: pg.scale, K_WIDGET: pg.cutoff,
                   UNRETRIEVED_WIDGET: ", ".join(fmt_grade(g) for g in pg.unretrieved)})
    ss[UNRETRIEVED_ERROR] = ss[UNRETRIEVED_BAD_TEXT] = None


def _set_settings(values: dict) -> None:
    """Set the settings row's widgets; a value the browser does not show yet is a new
    generation of the row (:data:`PG_SETTINGS_GEN`)."""
    if any(ss.get(key) != value for key, value in values.items()):
        ss[PG_SETTINGS_GEN] = settings_generation() + 1
    for key, value in {**values, SETTINGS_DRAWN: settings_generation()}.items():
        ss[key] = value


def settings_generation() -> int:
    """How many times the server has set the settings row over the browser's values."""
    return ss.get(PG_SETTINGS_GEN, 0)


def _settings_reported_behind() -> bool:
    """This rerun comes from a page that had not yet drawn the server's last setting of the
    row (a resend after 4 s, Back twice, a button or the charts' rerun on its way): the row's
    values in it are the ones that setting replaced. Every rerun reports the number drawn."""
    reported = (Report.parse(ss.get(LIST)).generation, ss.get(SETTINGS_DRAWN))
    return any(isinstance(g, int) and g < settings_generation() for g in reported)


def playground() -> P.Playground:
    """The shared ranking, read once per run: initialised once per session, and again when
    the URL carries a new ranking (a shared link, or "Open in playground" from a lesson)."""
    qp = st.query_params
    sig = _qp_signature(qp.get_all)
    # A rerun request carries the browser's URL, which can lag a move or two behind (the
    # last publish() has not reached it yet): a URL this session published itself is stale
    # unless the user has just arrived from another page (a shared link or a hand-off).
    arrived = ss.get(LAST_PAGE) not in PLAYGROUND_URLS
    stale = sig in ss.get(PG_QP_HISTORY, ())
    if PG not in ss or (sig != ss.get(PG_QP_WRITTEN) and (arrived or not stale)):
        pg, problem = P.from_query_params(qp.get_all, lang=language())
        if problem:
            ss[PG_NOTICE] = {"problem": problem, "kept": PG in ss}
        if pg is not None or PG not in ss:
            pg = pg or P.default()
            _set_playground(pg)
            ss[PG_ORIGIN] = pg
            _reset_widgets(pg)
        ss[PG_QP_WRITTEN] = sig
    return pending_edits()


def pending_edits() -> P.Playground:
    """Fold in what arrived since the last run: a list order a component reported without
    its trigger (a reconnect can lose the trigger, not the state). Cheap enough for every
    run, fragment reruns included."""
    table_events(LIST, PLAYGROUND_TABLE)
    for key in (GAIN_LIST, BEYOND_LIST):
        _follow_report(key)
    return ss[PG]


def _report(key):
    order = Report.parse(ss.get(key), "moved").order
    return None if order is None else list(order)


def _follow_report(key):
    """Apply the component's reported order when it is news: not the report applied last
    (the browser resends its last on every run: an old one must not undo a button)."""
    order = _report(key)
    if order is None or order == ss.get(PG_REPORT_SEEN + key):
        return
    ss[PG_REPORT_SEEN + key] = order
    if not _drawn(key):
        return
    pg = ss[PG]
    if set(order) == {it.id for it in pg.items} and order != [it.id for it in pg.items]:
        _set_playground(P.reorder(pg, order))


def first_report(key: str, order):
    """A list's first draw in this session found ``order`` reported: another session's, in
    ids this one never drew (a restart), so not news: the address bar's stands."""
    if isinstance(order, list):
        ss[PG_REPORT_SEEN + key] = list(order)


def on_list_move(key: str = LIST):
    """The component's ``moved`` trigger: apply the order it reports."""
    order = _report(key)
    if order and _drawn(key):
        ss[PG_REPORT_SEEN + key] = order
        _set_playground(P.reorder(ss[PG], order))


def _drawn(key) -> bool:  # this session drew the list ``key``: its reports name its rows
    return any(COMPONENT_MEMO.format(c, key) in ss for c in ("ranking_table", "sortable"))


def on_button(action: str):
    pg = ss[PG]
    if action in P.MOVES:
        pg = P.MOVES[action](pg)
    elif action == "shuffle":
        ss[PG_SEED] = ss.get(PG_SEED, 0) + 1
        pg = P.shuffled(pg, ss[PG_SEED])
    elif action == "reset":
        pg = ss.get(PG_ORIGIN, P.default())
        _reset_widgets(pg)
    _set_playground(pg)


def on_settings():
    """The settings row changed: gain, k, scale or the judged-but-not-retrieved grades (or
    a rerun carried the values the server had replaced: the row is set back from the state)."""
    if _settings_reported_behind():
        settings_widgets(ss[PG])
        return
    text = ss.get(UNRETRIEVED_WIDGET, "")
    lang = language()
    try:
        unretrieved = tuple(P.parse_numbers(text, None, lang=lang))
        ss[UNRETRIEVED_ERROR] = ss[UNRETRIEVED_BAD_TEXT] = None
    except ValueError as exc:
        unretrieved = ss[PG].unretrieved
        ss[UNRETRIEVED_ERROR] = t("{problem}: write grades separated by commas, e.g. 3, 2, 1.",
                                  lang, problem=str(exc))
        ss[UNRETRIEVED_BAD_TEXT] = text  # shown again, as typed, until it is fixed
    _set_playground(replace(ss[PG], gain=ss[GAIN_WIDGET], scale=ss[SCALE_WIDGET],
                            k=int(ss[K_WIDGET]), unretrieved=unretrieved))


def on_rules(reset: bool = False):
    """The mistake settings changed (or *Back to the right conventions*: ``reset``)."""
    if not reset and _settings_reported_behind():
        settings_widgets(ss[PG])
        return
    rules = mistake_rules.RIGHT if reset else mistake_rules.Rules(
        **{name: ss[RULE_WIDGET.format(name)] for name in mistake_rules.CHOICES})
    _set_playground(replace(ss[PG], rules=rules))


def on_k(key: str):
    """A page's own cutoff slider (``key``) sets the shared cutoff."""
    _set_playground(replace(ss[PG], k=int(ss[key])))


def set_widget_from_state(key: str, value):
    """Set a widget from the shared state before it is drawn (Streamlit drops it off-page)."""
    ss[key] = value


def settings_widgets(pg: P.Playground):
    """Set the settings row's widgets from the state, just before they are drawn."""
    values = {GAIN_WIDGET: pg.gain, SCALE_WIDGET: pg.scale}
    ss[PG_SETTINGS_SHOWN] = _settings_signature(pg)
    # The unretrieved grades' text follows the state too (the monkey saw it empty after a page switch),
    # except text that did not parse: that stays as typed, with its message, until fixed.
    if ss.get(UNRETRIEVED_ERROR) and ss.get(UNRETRIEVED_BAD_TEXT) is not None:
        values[UNRETRIEVED_WIDGET] = ss[UNRETRIEVED_BAD_TEXT]
    else:
        ss[UNRETRIEVED_ERROR] = None
        values[UNRETRIEVED_WIDGET] = ", ".join(fmt_grade(g) for g in pg.unretrieved)
    if len(pg.items) + len(pg.unretrieved) > 1:
        values[K_WIDGET] = pg.cutoff  # from the state (a lesson may have changed k)
    for name in mistake_rules.CHOICES:
        values[RULE_WIDGET.format(name)] = getattr(pg.rules, name)
    _set_settings(values)


def unretrieved_error() -> str | None:
    return ss.get(UNRETRIEVED_ERROR)


def _settings_signature(pg: P.Playground):
    return (len(pg.items), pg.cutoff, pg.gain, pg.scale, pg.unretrieved, pg.rules)


def settings_stale(pg: P.Playground) -> bool:
    """Whether the page must run whole: settings drawn for another ``pg``, or Back/Forward."""
    return ss.get(PG_SETTINGS_SHOWN) != _settings_signature(pg)


def pop_notice() -> dict | None:
    """{"problem", "kept"} of a link that could not be read (may quote it), or None: once."""
    return ss.pop(PG_NOTICE, None)


def publish(pg: P.Playground) -> str | None:
    """Write the state into the URL so a copied link reopens it, in this language. Returns a
    note when the link had to be shortened to open everywhere (labels cut or left out)."""
    params, note = P.within_link_limit({**P.to_query_params(pg), LANG_PARAM: language(),
                                        **present_params()}, lang=language())
    sig = _qp_signature(lambda n: _values(params, n))
    written = ss.get(PG_QP_WRITTEN)
    here = _qp_signature(st.query_params.get_all)
    if sig == written and here != written and here in ss.get(PG_QP_HISTORY, ()):
        # Nothing changed since this was written, and the run came with an address this
        # session wrote before: a rerun that lags (the browser has the new one already) or
        # Back/Forward's (the browser is on that entry: writing would replace it; the
        # table's "visit" event shows its state).
        return note
    if _query_now() != {name: _values(params, name) for name in params}:
        # Only an address the browser does not have is written: Streamlit sends every
        # write, and the browser takes one that differs from its address when it arrives as
        # a new entry. The charts' rerun wrote the address shown again, and on a slow server
        # that arrived after Back: Back twice then landed on it, not two states back.
        st.query_params.from_dict(params)
    _shown(_qp_signature(st.query_params.get_all))
    return note


def _shown(sig):
    """The browser's address is now ``sig`` (written by :func:`publish` or gone to by Back)."""
    ss[PG_QP_WRITTEN] = sig
    if sig != (ss.get(PG_QP_HISTORY) or (None,))[-1]:
        # as many as Back can reach in lab.history (a lagging or Back's address is one of these)
        ss[PG_QP_HISTORY] = ss.get(PG_QP_HISTORY, ())[-LIMIT:] + (sig,)


def visited(query: str):
    """Back or Forward took the browser to ``query``, whose state is shown now: the address
    is the state's, so :func:`publish` writes none over it."""
    values = parse_qs(query.lstrip("?"), keep_blank_values=True)
    sig = _qp_signature(lambda n: values.get(n, []))
    if any(v for _, v in sig):  # a ranking's address, not the app's own "/"
        _shown(sig)


def _query_now() -> dict:  # the address this run came with (or wrote), every value
    return {name: st.query_params.get_all(name) for name in st.query_params}


def _values(params: dict, name: str) -> list:
    value = params.get(name, [])
    return [value] if isinstance(value, str) else list(value)


def component_memo(component: str, key) -> dict | None:
    """What the drag ``component`` saw and drew last run under widget ``key``."""
    return ss.get(COMPONENT_MEMO.format(component, key))


def set_component_memo(component: str, key, memo: dict):
    ss[COMPONENT_MEMO.format(component, key)] = memo


def mark_page(url_path: str):
    """The page that last ran to the end: the playground tells an arrival from its own runs."""
    ss[LAST_PAGE] = url_path


def opened() -> bool:
    """Whether a run of this session ran to the end (ui.opening: first runs take turns)."""
    return LAST_PAGE in ss


def clamp(key: str, lo, hi, default):
    """Keep a page's slider value inside its current range (the list may have shrunk)."""
    ss[key] = type(lo)(min(max(ss.get(key, default), lo), hi))


# ================================================================ language

def language() -> str:
    """The language this run draws in ("en" or "zh"), decided once per session on arrival:
    ``?lang=``, else the browser's (``zh*``: Chinese), else English. Then only the sidebar
    switch changes it (:func:`on_language`): a rerun's address can lag behind."""
    if LANG not in ss:
        ss[LANG] = (language_of(st.query_params.get(LANG_PARAM))
                    or language_of(st.context.locale) or "en")
    return ss[LANG]


def language_widget() -> str:
    """Set the sidebar switch from the state, just before it is drawn; the language."""
    ss[LANG_WIDGET] = language()
    return ss[LANG]


def on_language():
    """The sidebar switch changed: the new language, in the address too (reloads, links)."""
    chosen = ss.get(LANG_WIDGET)
    if chosen in LANGUAGES:
        ss[LANG] = chosen
        st.query_params[LANG_PARAM] = chosen


# ================================================================ start here, worked examples

def tour_step(key: str = TOUR_STEP) -> int:
    return ss.setdefault(key, 0)


def on_tour_move(by: int, steps: int, key: str = TOUR_STEP):
    ss[key] = max(0, min(ss.get(key, 0) + by, steps - 1))


def requested_document() -> str | None:
    """The document number a share link's ``?doc=`` names (its tab opens first), or None."""
    return st.query_params.get(DOCUMENT_PARAM) or None


# The data page's and the exercises page's keys and writers (ui/state/data.py,
# ui/state/practice.py), here as everywhere else: state.NAME.
from ui.state.data import *  # noqa: E402,F401,F403
from ui.state.practice import *  # noqa: E402,F401,F403
from ui.state.code import *  # noqa: E402,F401,F403
from ui.state.table import *  # noqa: E402,F401,F403
