"""The teacher's hold on the room (folded away under the controls): who has joined, removing
a student (a bot that joined many times, a prank name), the class's size, and a new teacher
link when the old one was seen by someone else.

Nicknames are shown as table cells (data, never Markdown); the remove list names students by
their anonymous ids.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lab.classroom.errors import ClassError
from lab.i18n import t
from ui import class_views as V, state

KEY = state.CLASS.format


def _do(action: str, code: str, secret: str) -> None:
    lang = state.language()
    ss = st.session_state
    try:
        store = V.store()
        if action == "pick_range":  # a burst of bots joins with consecutive numbers
            low, high = ss.get(KEY("range")) or (0, -1)
            known = ss.get(KEY("roster_numbers")) or []
            ss[KEY("remove")] = sorted(set(ss.get(KEY("remove")) or [])
                                       | {n for n in known if low <= n <= high})
            return
        if action == "remove":
            picked = ss.get(KEY("remove")) or []
            gone = store.remove_students(code, secret, picked)
            ss[KEY("remove")] = []
            V.set_note("admin", {"done": t("Removed {n}: their answers are deleted and "
                                           "their links no longer work.", lang, n=gone)})
        elif action == "cap":
            store.set_cap(code, secret, ss.get(KEY("cap")) or 0)
            V.set_note("admin", {"done": t("The class now takes up to {n} students.", lang,
                                           n=ss.get(KEY("cap")))})
        elif action == "relink":
            fresh = store.new_teacher_secret(code, secret)
            ss[KEY(f"key_{code}")] = fresh  # this session's key (ui/classroom.py), and the
            # cookie the page writes from it
            V.set_note("admin", {"done": t("The teacher link is replaced: the new one is "
                                           "under Your teacher link, and the old one no "
                                           "longer opens this class.", lang)})
    except ClassError as e:
        V.set_note("admin", {"error": e.message(lang)})


@V.guarded
def render(code: str, secret: str, room, lang: str) -> None:
    store = V.store()
    with st.expander(t("Students and access ({n} joined, up to {m})", lang,
                       n=room.students, m=room.max_students), icon=":material/group:"):
        note = V.note("admin") or {}
        if note.get("error"):
            st.error(note["error"], icon=":material/error:")
        elif note.get("done"):
            st.success(note["done"], icon=":material/check:")
        roster = store.roster(code, secret)
        if roster:
            st.dataframe(pd.DataFrame(
                [(f"S{n:03d}", nick or "", k) for n, nick, k in roster],
                columns=[t("student", lang), t("nickname", lang), t("answers", lang)]),
                hide_index=True, width="stretch", height=min(400, 38 + 35 * len(roster)))
            numbers = [n for n, _, _ in roster]
            st.session_state[KEY("roster_numbers")] = numbers
            if len(numbers) > 1:
                r1, r2 = st.columns([3, 1], vertical_alignment="bottom")
                r1.select_slider(t("A range of ids", lang), numbers, key=KEY("range"),
                                 value=(numbers[0], numbers[-1]),
                                 format_func=lambda n: f"S{n:03d}")
                r2.button(t("Pick them", lang), key=KEY("do_pick_range"), on_click=_do,
                          args=("pick_range", code, secret))
            st.multiselect(t("Remove from the class", lang), numbers,
                           key=KEY("remove"), format_func=lambda n: f"S{n:03d}",
                           placeholder=t("Pick students by their ids", lang))
            st.button(t("Remove them", lang), key=KEY("do_remove"), on_click=_do,
                      args=("remove", code, secret), icon=":material/person_remove:")
        c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
        c1.number_input(t("Students who may join", lang), min_value=1,
                        max_value=store.max_cap, value=room.max_students, key=KEY("cap"),
                        help=t("At most {n} on this server's database.", lang,
                               n=store.max_cap))
        c2.button(t("Set", lang), key=KEY("do_cap"), on_click=_do, args=("cap", code, secret))
        st.caption(t("If someone else saw your teacher link, replace it: the old link stops "
                     "working at once.", lang))
        st.button(t("Replace the teacher link", lang), key=KEY("do_relink"), on_click=_do,
                  args=("relink", code, secret), icon=":material/key:")
