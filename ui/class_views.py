"""Class mode's shared pieces: the database (one per server process), the rooms' current
rounds kept in memory (:mod:`lab.classroom.watch`), a question as the class sees it, and a
round's answers revealed. User text (nicknames, answers) is drawn as data in tables, never as
Markdown."""

from __future__ import annotations

import functools
import random
import secrets

import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from lab.classroom import codes, config, db, questions as Q, report
from lab.classroom.errors import ClassError
from lab.classroom.limits import Gate
from lab.classroom.store import DAY, Answer, Round, Store
from lab.classroom.tx import FAULTS, busy
from lab.classroom.watch import RoomWatch
from lab.i18n import t
from lab.text import escape_markdown, fmt_grade
from ui import charts, class_kinds, state

COOKIE_AGE = int(DAY)  # a room lives a day: so does a browser's memory of its place in it
POLL = "1s"  # the teacher's count follows the room this often
# A phone follows the room every 1.2-1.6 s, its own interval drawn once per session: a
# waiting phone's poll draws nothing (ui/classroom.py) and costs the server ~2 ms, what
# Streamlit's rerun of an empty fragment costs (tests/bench/bench_lecture.py --floor), so 200
# phones cost ~0.27 of a core at 1.4 s on average, and the next question reaches the last
# phone within the longest interval. Spread, the polls do not come in waves.
PHONE_POLL_S = (1.2, 1.6)
RIGHT, WRONG = "#2ca02c", "#d62728"


@st.cache_resource(show_spinner=False)
def store() -> Store:
    """One engine per server process (SQLAlchemy's pool is thread-safe; sessions share it),
    and its purge of expired rooms on a timer. A database that cannot be opened is
    ``ClassError("busy")`` (not cached: the next run tries again)."""
    try:
        opened = Store(db.open_engine(config.database_url()))
    except FAULTS as e:
        raise busy(e) from None
    opened.start_purging()
    return opened


@st.cache_resource(show_spinner=False)
def gate() -> tuple[Gate, str | None]:
    """The join limits of this server process, and the proxy's client address header."""
    return Gate(config.limits()), config.client_ip_header()


def client() -> tuple[str, str | None]:
    """``(session, address)`` this run comes from, as the join limits count them: a random
    id kept in the session, and the client's address (the configured proxy header's last
    entry, else Streamlit's ``st.context.ip_address``; ``None`` from this machine)."""
    session = st.session_state.setdefault(state.CLASS.format("session"),
                                          secrets.token_hex(8))
    header = gate()[1]
    if header:
        sent = str(st.context.headers.get(header) or "").split(",")[-1].strip()[:64]
        if sent:
            return session, sent
    return session, st.context.ip_address


def guarded(draw):
    """``draw`` (a part of the page, or a fragment's body) with a refusal shown as its
    sentence: a database fault, an ended room, a stale link never reach Streamlit as an
    uncaught exception."""
    @functools.wraps(draw)
    def run(*args, **kwargs):
        try:
            return draw(*args, **kwargs)
        except ClassError as e:
            st.error(e.message(state.language()), icon=":material/error:")
    return run


def watch() -> RoomWatch:
    """The rooms' current rounds for every session of this process (one reading thread)."""
    return _watch(store())


@st.cache_resource(show_spinner=False, hash_funcs={Store: id})
def _watch(of: Store) -> RoomWatch:
    return RoomWatch(of)


def session_watch() -> RoomWatch:
    """:func:`watch`, kept in the session: a phone's poll skips its two cache lookups (0.1-0.15
    ms, against Streamlit's 1.6-1.7 ms for the rerun itself)."""
    key = state.CLASS.format("watch")
    kept = st.session_state.get(key)
    if kept is None:
        kept = st.session_state[key] = watch()
    return kept


def phone_poll_s() -> float:
    """This session's interval between two looks at the room (seconds)."""
    key = state.CLASS.format("poll_s")
    if key not in st.session_state:
        st.session_state[key] = round(random.uniform(*PHONE_POLL_S), 2)
    return st.session_state[key]


@functools.lru_cache(maxsize=256)
def parsed(question_json: str) -> Q.Question:
    """A stored question read once per process (a phone redraws it at every poll)."""
    return Q.from_json(question_json)


@functools.lru_cache(maxsize=256)
def _ranking_table(grades: tuple, labels: tuple, lang: str) -> pa.Table:
    # An Arrow table is handed to the browser as it is: drawn from pandas at every poll, the
    # ranking cost a phone's poll ~0.8 ms more (measured). Arrow tables are immutable.
    return pa.Table.from_pandas(pd.DataFrame({
        t("position", lang): range(1, len(grades) + 1), t("item", lang): list(labels),
        t("grade", lang): [fmt_grade(g) for g in grades]}), preserve_index=False)


def cookie(code: str, who: str) -> str | None:
    """The cookie that keeps this browser's place in room ``code``: ``teacher`` (the key) or
    ``student`` (the token); None for a code of the wrong form (no such cookie)."""
    if codes.normal_code(code) != code:
        return None
    return f"ndcg_class_{code}_{'t' if who == 'teacher' else 's'}"


def note(name: str) -> dict | None:
    return state.component_memo("class", name)


def set_note(name: str, value: dict | None) -> None:
    state.set_component_memo("class", name, value)


def ranking(grades, labels, lang: str, *, title: str | None = None,
            compact: bool = False) -> None:
    """A ranking's table; ``compact``: rows 28 px high, not 35 (two rankings one above the
    other beside a reveal's chart stay on a projector's 720 lines)."""
    if title:
        st.markdown(title)
    st.dataframe(_ranking_table(tuple(grades), tuple(labels), lang), hide_index=True,
                 width="stretch", row_height=28 if compact else None)


def question(q: Q.Question, number: int, lang: str, *, show_table: bool = True,
             note: str | None = None, answering: bool = False) -> None:
    """The question's title, its sentence and its ranking(s) (``answering``: on a phone whose
    answer widget is the ranking, none here); ``note`` (Markdown, ours): a line under the
    sentence. With a note the title and the sentence are one element (a phone's poll sends
    each element again: fewer is cheaper)."""
    if note is None:
        with st.container(key=state.CLASS.format("question")):  # sized by ui/present.css
            st.header(Q.title(q, number, lang), anchor=False)
            st.markdown(Q.prompt(q, lang))
    else:
        st.markdown(f"### {Q.title(q, number, lang)}\n\n{Q.prompt(q, lang)}"
                    + (f"\n\n{note}" if note else ""))
    if show_table and not (answering and class_kinds.draws_ranking(q)):
        tables(q, lang)


def tables(q: Q.Question, lang: str, *, stacked: bool = False) -> None:
    """The question's ranking(s): one, or several titled (side by side, or ``stacked``)."""
    shown = Q.kind_of(q).rankings(q, lang)
    if len(shown) == 1:
        ranking(shown[0][1], shown[0][2], lang)
        return
    places = [st.container() for _ in shown] if stacked else st.columns(len(shown))
    for place, (name, grades, labels) in zip(places, shown):
        with place:
            ranking(grades, labels, lang, title=t("**Ranking {name}**", lang, name=name),
                    compact=stacked)


def options(q: Q.Question, lang: str) -> None:
    """A pick question's choices with their letters, side by side (the projector's copy of
    what the phones offer), when its kind's choices carry words of their own."""
    kind = Q.kind_of(q)
    if not kind.show_choices:
        return
    letters = kind.choices(q)
    with st.container(key=state.CLASS.format("options")):
        for col, letter in zip(st.columns(len(letters)), letters):
            col.subheader(kind.choice_words(q, letter, lang), anchor=False)


def chart(q: Q.Question, rnd: Round, answers: list[Answer], lang: str, *,
          top: int | None = None) -> None:
    """A round's bars; ``top``: the most answers any shown round has in one bar, so rounds
    side by side share one scale. Whole students on the axis (never 0.5)."""
    rows = report.distribution(q, answers)
    top = max(top or 0, *(n for _, n, *_ in rows), 1)
    fig = go.Figure(go.Bar(
        x=[Q.kind_of(q).group_words(q, g, lang) for g, *_ in rows],
        y=[n for _, n, *_ in rows], marker_color=[RIGHT if ok else WRONG for _, _, ok, _ in rows],
        hovertext=[Q.mistake_name(m, lang) for *_, m in rows], hoverinfo="x+y+text"))
    charts.layout(fig, title=t("Round {n}", lang, n=rnd.round_no), x=t("answer", lang),
                  y=t("students", lang), height=210, lang=lang)
    fig.update_xaxes(type="category")
    fig.update_yaxes(range=[0, top * 1.08], tickformat="d", dtick=max(1, -(-top // 6)),
                     rangemode="tozero")
    if state.presenting():  # read from the back of a room: ticks and titles at 16 px+
        fig.update_layout(font=dict(size=16))
        fig.update_xaxes(tickfont=dict(size=16), title=dict(font=dict(size=16)))
        fig.update_yaxes(tickfont=dict(size=16), title=dict(font=dict(size=16)))
    charts.show(fig, key=state.CLASS.format(f"chart{rnd.id}"))


def revealed(q: Q.Question, rnd: Round, answers: list[Answer], lang: str,
             names_on: bool, *, top: int | None = None) -> None:
    """A revealed round: the distribution, the right answer, each wrong group's mistake
    (``top``: see :func:`chart`)."""
    chart(q, rnd, answers, lang, top=top)
    kind = Q.kind_of(q)
    st.success(kind.right_line(q, lang), icon=":material/check_circle:")
    wrong = sorted((r for r in report.distribution(q, answers) if not r[2] and r[1]),
                   key=lambda r: (not r[3], -r[1]))  # named mistakes first, most common first
    if wrong:  # one line each (a table's rows would push the third below 720 px)
        with st.container(key=state.CLASS.format(f"mistakes{rnd.id}")):
            st.markdown("\n".join(
                f"- **{escape_markdown(kind.group_words(q, g, lang))}** ({n}) · "
                f"{escape_markdown(Q.mistake_name(m, lang) or '—')}"
                for g, n, _ok, m in wrong[:3]))
    if names_on and answers:
        st.dataframe(pd.DataFrame([(a.nickname or f"S{a.student:03d}", a.answer,
                                    "✓" if a.correct else "✗") for a in answers],
                                  columns=[t("student", lang), t("answer", lang), "✓"]),
                     hide_index=True, width="stretch")
