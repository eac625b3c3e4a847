"""Class mode's page (/class): who is here decides what is drawn.

- ``?room=CODE``: the teacher (ui/class_teacher.py), when this browser holds the room's key:
  from the teacher link (``&key=SECRET``, taken out of the address bar on the first run, so
  a projector never shows it), this session, or the cookie a teacher's page writes;
- ``?join=CODE``: the student this browser already is in that room (``&me=TOKEN``, this
  session, or the cookie the student's page writes: a reopened join link, a reload or a
  restarted server keeps the same student), else the join form;
- neither: *Start a class* and *Join a class*.

A student's view is two fragments: the question (``_student_live``), drawn when the page
runs and again only when the room moved on since, and a watcher (``_student_watch``) that
reruns every 1.2-1.6 s (each session its own interval) and draws nothing while the question
on the phone is current: a waiting phone's poll costs the server Streamlit's rerun of an
empty fragment and a look at memory (``class_views.watch``: one query a server makes for
every room, not one per phone). When the room moved on (the teacher's next question, lock,
reveal, a countdown's step), the watcher draws a hook (``page_hooks.moved``) whose callback
reruns the question's fragment alone: a fragment cannot rerun another from its body, and a
rerun of the whole page costs a phone several times the question's. The open round's form
is a fragment inside the question's: Send redraws the form and what was sent, not the
question above it.

Every refusal (a database fault included) is drawn as its sentence (``V.guarded``), joins
pass the join limits first (``V.gate``), and a link's parameters are checked before any
query (the store refuses a code, secret or token of the wrong form).
"""

from __future__ import annotations

import streamlit as st

from lab.classroom import codes, questions as Q
from lab.classroom.errors import ClassError
from lab.classroom.store import MAX_NICKNAME
from lab.i18n import t
from lab.text import escape_markdown
from ui import class_kinds, class_teacher, class_views as V, page_hooks, state

ss = st.session_state
KEY = state.CLASS.format


@V.guarded
def render() -> None:
    lang = state.language()
    qp = st.query_params
    room = qp.get("room")
    if room:  # the store refuses a code or key of the wrong form with its sentence
        secret = _teacher_secret(room)
        if secret:
            class_teacher.render(room, secret, lang)
            return
        st.warning(t("This browser does not hold the teacher's key of class {code}: open "
                     "your teacher link (it ends in &key=…), or start a new class.", lang,
                     code=codes.normal_code(room) or "?"), icon=":material/key_off:")
    join = qp.get("join")
    if join:
        token, from_link = _student_token(join)
        if token and _student(join, token, lang, quiet=not from_link):
            return
    _landing(lang)


def _teacher_secret(code: str) -> str | None:
    """The room's key from the teacher link (then out of the address bar), this session or
    this browser's cookie."""
    qp = st.query_params
    if qp.get("key"):
        ss[KEY(f"key_{code}")] = qp["key"]
        del qp["key"]
    return ss.get(KEY(f"key_{code}")) or st.context.cookies.get(V.cookie(code, "teacher"))


def _student_token(code: str) -> tuple[str | None, bool]:
    """This browser's token in room ``code`` and whether the address gave it."""
    given = st.query_params.get("me")
    if given:
        return given, True
    return (ss.get(KEY(f"me_{code}")) or st.context.cookies.get(V.cookie(code, "student")),
            False)


# ------------------------------------------------------------------ arriving

def _start() -> None:
    try:
        room, secret = V.store().create_room(lang=state.language())
    except ClassError as e:
        V.set_note("join", {"error": e.message(state.language())})
        return
    ss[KEY(f"key_{room.code}")] = secret  # never in the address bar: the teacher link has it
    st.query_params.from_dict({"room": room.code, **_lang_param()})


def _lang_param() -> dict:
    return {"lang": st.query_params["lang"]} if st.query_params.get("lang") else {}


def _join() -> None:
    lang = state.language()
    code = codes.normal_code(ss.get(KEY("code")) or "")
    if code is None:
        V.set_note("join", {"error": t("A join code has 6 letters and digits, as on the "
                                       "teacher's screen.", lang)})
        return
    known = ss.get(KEY(f"me_{code}")) or st.context.cookies.get(V.cookie(code, "student"))
    if known and _still_student(code, known):  # this browser joined before: the same seat
        V.set_note("join", None)
        st.query_params.from_dict({"join": code, "me": known, **_lang_param()})
        return
    gate = V.gate()[0]
    session, address = V.client()
    try:
        gate.admit(session, address, code)  # before any query: a flood stops here
        _student_row, token = V.store().join(code, ss.get(KEY("nickname")) or None)
        gate.joined(session, address, code)
    except ClassError as e:
        if e.what in ("no_room", "expired"):
            gate.missed(session, address)  # a typo, or a guess: counted
        V.set_note("join", {"error": e.message(lang)})
        return
    V.set_note("join", None)
    ss[KEY(f"me_{code}")] = token
    st.query_params.from_dict({"join": code, "me": token, **_lang_param()})


def _still_student(code: str, token: str) -> bool:
    try:
        V.store().student(code, token)
    except ClassError:
        return False
    return True


def _landing(lang: str) -> None:
    st.title(t("Class mode", lang))
    st.caption(t("The teacher asks, the whole class answers from their phones, and the "
                 "answers are revealed together.", lang))
    student_link = bool(st.query_params.get("join"))  # a join link: a student, no Teach
    teach, join = st.columns(2, gap="large") if not student_link else (None, st.container())
    if teach is not None:
        with teach:
            st.header(t("Teach", lang))
            st.markdown(t("Start a room: the class joins with its code or QR code. You "
                          "control the questions; answers stay hidden until you reveal "
                          "them.", lang))
            st.button(t("Start a class", lang), type="primary", key=KEY("start"),
                      on_click=_start, icon=":material/co_present:")
    with join:
        st.header(t("Join a class", lang))
        with st.form(KEY("join_form"), border=False):
            st.text_input(t("Join code", lang), key=KEY("code"), max_chars=12,
                          value=codes.normal_code(st.query_params.get("join", "")) or "",
                          placeholder="ABC234")
            st.text_input(t("Nickname (optional)", lang), key=KEY("nickname"),
                          max_chars=MAX_NICKNAME,
                          help=t("Anonymous by default: the screen shows no name unless "
                                 "the teacher turns names on.", lang))
            st.form_submit_button(t("Join", lang), type="primary", on_click=_join)
        error = (V.note("join") or {}).get("error")
        if error:
            st.error(error, icon=":material/error:")


# ------------------------------------------------------------------ a student

def _send(code: str, token: str, rnd_id: int, question_json: str, text_key: str) -> None:
    lang = state.language()
    q = V.parsed(question_json)
    try:
        graded = Q.grade(q, Q.kind_of(q).sent_text(q, ss.get(text_key)), lang=lang)
        stored = V.store().submit(code, token, rnd_id, graded.answer,
                                  correct=graded.correct, mistake=graded.mistake)
    except ClassError as e:
        V.set_note("sent", {"round": rnd_id, "error": e.message(lang)})
        return
    except ValueError as e:  # it quotes what was typed: literal characters, never a link
        V.set_note("sent", {"round": rnd_id, "error": escape_markdown(str(e))})
        return
    V.set_note("sent", {"round": rnd_id, "error": None})
    ss[KEY("mine")] = (rnd_id, stored)  # as stored: the next run asks the database nothing


def _mine(code: str, token: str, round_id: int):
    """The student's answer to ``round_id``: from the database once per round and session
    (only this session answers for this student; :func:`_send` keeps what it stored)."""
    kept = ss.get(KEY("mine"))
    if kept is None or kept[0] != round_id:
        kept = ss[KEY("mine")] = (round_id, V.store().my_answer(code, token, round_id))
    return kept[1]


def _student(code: str, token: str, lang: str, *, quiet: bool = False) -> bool:
    """The student's page, or False (and a message, unless ``quiet``: a key this browser
    kept from an ended room) when ``token`` is not a student of room ``code``."""
    try:
        me = V.store().student(code, token)
    except ClassError as e:
        if e.what == "busy":  # a busy database: the same link works again in a moment
            st.error(e.message(lang), icon=":material/error:")
            return True
        if not quiet:
            st.error(e.message(lang), icon=":material/error:")
        return False
    ss[KEY(f"me_{code}")] = token
    page_hooks.remember(V.cookie(code, "student"), token, max_age=V.COOKIE_AGE,
                        key=KEY("remember"))
    with st.container(key=KEY("reconnect")):  # shown by ui/fit.css while the link is down
        st.info(t("The class is reconnecting… Keep this page open: it comes back by itself, "
                  "and your answers are kept.", lang), icon=":material/wifi_find:")
    who = t("You are {id} in class {code}.", lang, id=me.anon_id, code=me.room_code)
    st.caption(who + (" " + t("Nickname: {name}", lang, name=escape_markdown(me.nickname))
                      if me.nickname else ""))
    st.fragment(_student_live, key=KEY("live"))(code, token)
    st.fragment(_student_watch, run_every=V.phone_poll_s())(code)
    return True


def _room_mark(code: str) -> tuple[str, object]:
    """What the student's question depends on in room ``code`` now, as a short mark (round,
    phase, the countdown's step), and the round (or the ClassError the room reads as)."""
    try:
        rnd = V.session_watch().current(code)
    except ClassError as e:
        return f"refused {e.what}", e
    if rnd is None:
        return "none", None
    mark = f"{rnd.id} {rnd.phase}"
    if rnd.phase == "open" and rnd.deadline:
        mark += f" {_left_step(rnd.deadline - V.store().clock())}"
    return mark, rnd


def _left_step(left: float) -> int:
    """The countdown as a phone shows it: each second of the last ten, 5 s steps before."""
    s = max(0, int(left))
    return s if s <= 10 else s - s % 5


def _student_watch(code: str) -> None:
    """Draws nothing while the question on the phone is current; else the hook that has
    the question drawn again (its mark counts the asks, so a draw that failed asks again at
    the next poll)."""
    mark, _ = _room_mark(code)
    if mark == ss.get(KEY("drawn")):
        return
    asks = ss[KEY("asks")] = ss.get(KEY("asks"), 0) + 1
    page_hooks.moved(f"{asks} {mark}", key=KEY("moved"), on_moved=_redraw)


def _redraw() -> None:
    st.rerun(KEY("live"))


@V.guarded
def _student_live(code: str, token: str) -> None:
    lang = state.language()
    mark, rnd = _room_mark(code)
    ss[KEY("drawn")] = mark
    if isinstance(rnd, ClassError):
        raise rnd
    if rnd is None:
        st.info(t("Waiting for the teacher's first question…", lang),
                icon=":material/hourglass_top:")
        return
    q = V.parsed(rnd.question)
    kind = Q.kind_of(q)
    again = t("Vote again: round {n}. Your earlier answer is kept.", lang, n=rnd.round_no)
    V.question(q, rnd.question_no, lang, note=f":small[{again}]" if rnd.round_no > 1 else "",
               answering=True)
    if rnd.phase == "open":
        # its own fragment: Send redraws the form and "Sent", not the question above it
        st.fragment(_answering, key=KEY("answering"))(code, token, rnd, q)
        if rnd.deadline:
            left = _left_step(rnd.deadline - V.store().clock())
            st.warning(t("Answers lock in {s} s.", lang, s=left), icon=":material/timer:")
        return
    mine = _mine(code, token, rnd.id)
    refused = _refused(rnd.id)
    if refused and rnd.phase != "revealed":
        st.error(refused, icon=":material/error:")
    if rnd.phase == "locked":
        st.info(t("Answers are locked. Wait for the reveal.", lang), icon=":material/lock:")
        if mine:
            st.caption(t("Your answer: {answer}", lang,
                         answer=kind.said(q, mine.answer, lang)))
        return
    right = kind.right_words(q, lang)
    if mine is None:
        st.info(t("You did not answer this one. The right answer: {right}", lang, right=right))
    elif mine.correct:
        st.success(t("Right! Your answer: {answer}", lang,
                     answer=kind.said(q, mine.answer, lang)), icon=":material/check_circle:")
    else:
        st.error(t("Your answer: {answer}. The right answer: {right}", lang,
                   answer=kind.said(q, mine.answer, lang), right=right),
                 icon=":material/close:")
        if mine.mistake:
            st.warning(t("Your value is what this mistake gives: {mistake}", lang,
                         mistake=Q.mistake_name(mine.mistake, lang)),
                       icon=":material/lightbulb:")


def _refused(round_id: int) -> str | None:
    sent = V.note("sent") or {}
    return sent.get("error") if sent.get("round") == round_id else None


@V.guarded
def _answering(code: str, token: str, rnd, q: Q.Question) -> None:
    """The open round's answer form, the refusal of a Send, and what was sent."""
    lang = state.language()
    _answer_form(code, token, rnd, q, lang)
    refused = _refused(rnd.id)
    if refused:
        st.error(refused, icon=":material/error:")
    mine = _mine(code, token, rnd.id)
    if mine and not refused:
        st.success(t("Sent: {answer}. You can change it until the teacher locks the "
                     "answers.", lang, answer=Q.kind_of(q).said(q, mine.answer, lang)),
                   icon=":material/check:")


def _answer_form(code: str, token: str, rnd, q: Q.Question, lang: str) -> None:
    text_key = KEY(f"answer{rnd.id}")
    class_kinds.answer(q, rnd.id, text_key, lang, on_send=_send,
                       args=(code, token, rnd.id, rnd.question, text_key))
