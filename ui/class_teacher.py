"""The teacher's side of class mode: the room's code and QR code, the pacing buttons, the
live count, the reveal, rounds side by side, and the export.

The teacher's link (``/class?room=CODE&key=SECRET``) is the only key to the room: folded away,
it is copied without being shown (the projector shows the join code, never the secret), and
reopening it after a closed tab or a server restart brings the room back from the database.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode

import pandas as pd
import segno
import streamlit as st

from lab.classroom import kinds, questions as Q, report
from lab.classroom.bank import BANK, from_exercise, from_link
from lab.classroom.errors import ClassError
from lab.i18n import t
from ui import class_admin, class_views as V, page_hooks, share, state
from ui.copy_button import copy_button

KEY = state.CLASS.format
QR_PIXELS = 360  # a 33-module code at ~11 px a module: readable across a room on 720 lines


def qr_png(link: str) -> bytes:
    """The join link's QR code as a PNG, drawn here (segno; nothing is sent anywhere)."""
    buf = io.BytesIO()
    segno.make(link, error="m").save(buf, kind="png", scale=10, border=2)
    return buf.getvalue()


def _act(action: str, code: str, secret: str, seen: int | None = None) -> None:
    """One press of a teacher's button; ``seen``: the current round's id the page showed
    (a press repeated by an interrupted rerun, or from a stale tab, asks nothing twice)."""
    lang = state.language()
    # the round this tab's live view drew last (it follows the room every second), not the
    # one the page had when its buttons were drawn: a second tab's first press counts
    seen = st.session_state.get(KEY("seen"), seen)
    try:
        store = V.store()
        if action == "next":
            asked = {Q.from_json(r.question).source for r in store.rounds(code)}
            todo = [q for q in BANK if q.source not in asked]
            if not todo:
                raise ValueError(t("The ready questions are all asked: ask one of your own "
                                   "below.", lang))
            store.open_question(code, secret, Q.to_json(todo[0]), seen=seen)
        elif action == "lock":
            seconds = int(st.session_state.get(KEY("countdown")) or 0)
            store.lock(code, secret, countdown=seconds or None)
        elif action == "reveal":
            store.reveal(code, secret)
        elif action == "again":
            store.vote_again(code, secret, seen=seen)
        elif action == "own":
            q = _own_question(lang)
            store.open_question(code, secret, Q.to_json(q), seen=seen)
        elif action == "names":
            store.set_names(code, secret, bool(st.session_state.get(KEY("names"))))
    except (ClassError, ValueError) as e:
        V.set_note("teacher", {"error": e.message(lang) if isinstance(e, ClassError)
                               else str(e)})
        return
    V.set_note("teacher", None)


def _own_question(lang: str) -> Q.Question:
    text = str(st.session_state.get(KEY("own")) or "").strip()
    kind = kinds.get(st.session_state.get(KEY("own_kind")) or next(iter(kinds.KINDS)))
    if text.isdigit():
        return from_exercise(int(text), kind=kind.exercise, ask=kind.name)
    return from_link(text, kind.name, lang=lang)


def render(code: str, secret: str, lang: str) -> None:
    try:
        room = V.store().teacher_room(code, secret)
    except ClassError as e:
        st.error(e.message(lang), icon=":material/error:")
        if e.what != "busy":
            st.button(t("Start a class", lang), type="primary", key=KEY("restart"),
                      on_click=lambda: st.query_params.clear())
        return
    page_hooks.remember(V.cookie(room.code, "teacher"), secret, max_age=V.COOKIE_AGE,
                        key=KEY("remember"))
    page_hooks.to_top(room.current_round, key=KEY("to_top"))
    reach = share.reach()
    join = f"{reach.base}/class?{urlencode({'join': room.code})}"
    spaced = " ".join(room.code[i:i + 3] for i in (0, 3))
    asking = room.current_round is not None
    # the QR code fills the screen until the first question, then folds away (one click)
    with st.expander(t("Join the class: code {code}", lang, code=spaced),
                     expanded=not asking, icon=":material/qr_code_2:"), \
            st.container(key=KEY("join")):
        left, right = st.columns([1, 1], gap="large")
        left.image(qr_png(join), width=QR_PIXELS, caption=t("Scan to join", lang),
                   output_format="PNG")  # sharp modules (JPEG would blur them)
        with right:
            st.markdown(t("Join with the code", lang))
            st.title(spaced)
            st.code(join, language=None, wrap_lines=True)
            _reach_note(reach, lang)
    # The question (live) beside the controls: on a projector's first screen (1280x720) the
    # code, a smaller QR code for latecomers, the question, its count and the buttons.
    live, side = st.columns([3, 1], gap="medium")
    with side, st.container(key=KEY("side")):
        if asking:
            st.image(qr_png(join), width="stretch", caption=t("Scan to join", lang),
                     output_format="PNG")
            st.metric(t("Join code", lang), spaced)
        _controls(code, secret, room, lang)
    with live, st.container(key=KEY("live")):
        _live(code, secret)
    _own(code, secret, room.current_round, lang)
    class_admin.render(code, secret, room, lang)
    _teacher_link(room.code, secret, lang)
    _results(code, lang)


def _teacher_link(code: str, secret: str, lang: str) -> None:
    """The link that controls the room, copied without being shown: the class sees this
    screen, and a photograph of the link is the room's key. Shown only on request."""
    link = f"{share.own_base()}/class?{urlencode({'room': code, 'key': secret})}"
    with st.expander(t("Your teacher link (keep it private)", lang), icon=":material/key:"):
        st.caption(t("This link controls the class: reopen it to come back after a closed "
                     "tab or a restart. Do not show it to the class.", lang))
        copy_button(link, key=KEY("copy_link"), label=t("Copy the teacher link", lang),
                    copied=t("Copied: paste it somewhere only you can see.", lang),
                    failed=t("This browser did not copy it: turn on Show the link, and copy "
                             "it by hand.", lang))
        if st.toggle(t("Show the link", lang), value=False, key=KEY("show_link"),
                     help=t("Only when the class cannot see this screen.", lang)):
            st.code(link, language=None, wrap_lines=True)


def _reach_note(reach, lang: str) -> None:
    """One line: which address the phones open, and how to name another."""
    how = reach.how
    if how in ("public", "same", "network"):
        st.caption({
            "public": t("Phones open {url}: the public address set in NDCG_LAB_PUBLIC_URL or "
                        "[class] public_url.", lang, url=reach.base),
            "same": t("Phones open {url}, this page's address. To name another, set "
                      "NDCG_LAB_PUBLIC_URL (docs/class-mode.md).", lang, url=reach.base),
            "network": t("Phones open {url}: this computer's address on its network (phones "
                         "on the same network). To name another, set NDCG_LAB_PUBLIC_URL "
                         "(docs/class-mode.md).", lang, url=reach.base),
        }[how])
        return
    st.warning({
        "local_only": t("This server listens on this computer only (server.address = {a}): "
                        "phones cannot open the link. Start it without --server.address, or "
                        "set NDCG_LAB_PUBLIC_URL (docs/class-mode.md).", lang,
                        a=st.get_option("server.address")),
        "none": t("This computer has no network address: phones cannot open {url}. Join the "
                  "room's network, or set NDCG_LAB_PUBLIC_URL (docs/class-mode.md).", lang,
                  url=reach.base),
        "bad_public": reach.problem,
    }[how], icon=":material/wifi_off:")


def _controls(code: str, secret: str, room, lang: str) -> None:
    """The pacing buttons one above the other, the countdown and the names switch."""
    for action, label, icon in (
            ("next", t("Next question", lang), ":material/skip_next:"),
            ("lock", t("Lock", lang), ":material/lock:"),
            ("reveal", t("Reveal", lang), ":material/visibility:"),
            ("again", t("Vote again", lang), ":material/replay:")):
        st.button(label, key=KEY(f"do_{action}"), on_click=_act,
                  args=(action, code, secret, room.current_round),
                  icon=icon, width="stretch", type="primary" if action == "next" else
                  "secondary")
    error = (V.note("teacher") or {}).get("error")
    if error:
        st.error(error, icon=":material/error:")
    st.number_input(t("Countdown (s)", lang), min_value=0, max_value=600, step=10, value=0,
                    key=KEY("countdown"),
                    help=t("Lock after this many seconds (0: lock at once).", lang))
    st.toggle(t("Show names", lang), value=room.names_on, key=KEY("names"),
              on_change=_act, args=("names", code, secret),
              help=t("Off: the screen and the export show anonymous ids only.", lang))


def _own(code: str, secret: str, seen: int | None, lang: str) -> None:
    with st.expander(t("Ask a question of your own", lang), icon=":material/add:"):
        c1, c2, c3 = st.columns([3, 1.4, 1], vertical_alignment="bottom")
        c1.text_input(t("An exercise number or a playground link", lang), key=KEY("own"),
                      max_chars=4000)
        names = kinds.names(lang)
        c2.selectbox(t("Kind", lang), list(names), key=KEY("own_kind"),
                     format_func=names.get)
        c3.button(t("Ask it next", lang), key=KEY("do_own"), on_click=_act,
                  args=("own", code, secret, seen), width="stretch")


@st.fragment(run_every=V.POLL)
@V.guarded
def _live(code: str, secret: str) -> None:
    lang = state.language()
    store = V.store()
    room = store.teacher_room(code, secret)
    rnd = store.current(code)
    st.session_state[KEY("seen")] = None if rnd is None else rnd.id
    if rnd is None:
        st.metric(t("Class", lang), t("{n} joined", lang, n=store.count(code)[1]))
        st.info(t("Press Next question to show the class the first question.", lang),
                icon=":material/play_arrow:")
        return
    q = Q.from_json(rnd.question)
    answered, joined = store.count(code)  # first: the projector shows it without scrolling
    phase = {"open": t("open", lang), "locked": t("locked", lang),
             "revealed": t("revealed", lang)}[rnd.phase]
    st.metric(t("Round {n} · {phase}", lang, n=rnd.round_no, phase=phase),
              t("{n} of {m} answered", lang, n=answered, m=joined))
    if rnd.phase == "open" and rnd.deadline:
        st.warning(t("Answers lock in {s} s.", lang,
                     s=max(0, int(rnd.deadline - store.clock()))), icon=":material/timer:")
    # revealed: the distribution takes the ranking's place on the first screen (the phones
    # still show the ranking)
    shown = rnd.phase != "revealed"
    V.question(q, rnd.question_no, lang, show_table=shown)
    if shown:  # revealed, the chart's axis names the choices
        V.options(q, lang)
        return
    # the ranking stays beside the rounds' charts (the class looks back at its numbers),
    # every round on one scale, so the reveal fits a projector's first screen
    shown = [r for r in store.rounds(code, rnd.question_no) if r.phase == "revealed"]
    given = {r.id: store.answers(code, r.id) for r in shown}
    top = max((n for r in shown for _g, n, *_ in report.distribution(q, given[r.id])),
              default=1)
    left, *cols = st.columns([1.1] + [2] * len(shown), gap="small")
    with left:
        V.tables(q, lang, stacked=True)
    for col, r in zip(cols, shown):
        with col:
            V.revealed(q, r, given[r.id], lang, room.names_on, top=top)


@V.guarded
def _results(code: str, lang: str) -> None:
    store = V.store()
    with st.expander(t("Results and export", lang), icon=":material/download:"):
        room, rounds, answers = store.room(code), store.rounds(code), store.answers(code)
        rows = report.summary(rounds, answers, lang)
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.download_button(t("Download the answers (CSV)", lang),
                           report.export_csv(room, rounds, answers), key=KEY("csv"),
                           file_name=f"class-{room.code}.csv", mime="text/csv",
                           icon=":material/download:")
        st.download_button(t("Download the summary (CSV)", lang),
                           report.summary_csv(rows), key=KEY("summary"),
                           file_name=f"class-{room.code}-summary.csv", mime="text/csv",
                           icon=":material/download:")
