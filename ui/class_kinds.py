"""How a phone answers a class question, one renderer per answer style in one table.

A question kind (``lab.classroom.kinds``) names its style, never a widget of its own:
``value`` is a typed value, ``pick`` one of the kind's choices (its letters, in its words),
``order`` the ranking itself, dragged. A new kind with one of these styles needs nothing
here; a new style is one renderer added to :data:`ANSWER`.
"""

from __future__ import annotations

import streamlit as st

from lab.classroom import kinds as K, questions as Q
from lab.i18n import t
from ui import state
from ui.ranking_table import View, ranking_table

KEY = state.CLASS.format


def _value(q: Q.Question, kind: K.Kind, rnd_id: int, text_key: str, lang: str, send) -> None:
    with st.form(KEY(f"form{rnd_id}"), border=False):
        st.text_input(t("Your answer", lang), key=text_key, max_chars=40,
                      placeholder=kind.placeholder(lang) or None)
        st.form_submit_button(t("Send", lang), type="primary", icon=":material/send:", **send)


def _pick(q: Q.Question, kind: K.Kind, rnd_id: int, text_key: str, lang: str, send) -> None:
    with st.form(KEY(f"form{rnd_id}"), border=False):
        st.radio(t("Your answer", lang), list(kind.choices(q)), index=None, key=text_key,
                 format_func=lambda c: kind.choice_words(q, c, lang), horizontal=True)
        st.form_submit_button(t("Send", lang), type="primary", icon=":material/send:", **send)


def _order(q: Q.Question, kind: K.Kind, rnd_id: int, text_key: str, lang: str, send) -> None:
    """The ranking as a table to drag (no figures while the student arranges), then Send."""
    ranking_table([{"id": i, "label": lab, "grade": g}
                   for i, lab, g in zip(q.item_ids, q.labels, q.grades)],
                  k=q.k, gain=q.gain, key=text_key,
                  view=View(editable=False, show_ideal=False, figures=False,
                            hint=t("Drag a row into your order (touch: the ⋮⋮ grip, or "
                                   "press and hold; keys: Alt+↑/↓), then press Send.", lang)),
                  unretrieved=[{"label": "", "grade": g} for g in q.unretrieved] or None)
    st.button(t("Send", lang), type="primary", key=KEY(f"send{rnd_id}"),
              icon=":material/send:", **send)


ANSWER = {"value": _value, "pick": _pick, "order": _order}
DRAWS_RANKING = frozenset({"order"})  # styles whose answer widget is the ranking itself


def answer(q: Q.Question, rnd_id: int, text_key: str, lang: str, *, on_send, args) -> None:
    """The phone's answer widget for ``q``; ``on_send(*args)`` reads ``text_key``."""
    kind = Q.kind_of(q)
    ANSWER[kind.style](q, kind, rnd_id, text_key, lang, {"on_click": on_send, "args": args})


def draws_ranking(q: Q.Question) -> bool:
    """Whether the phone's answer widget already shows ``q``'s ranking."""
    return Q.kind_of(q).style in DRAWS_RANKING
