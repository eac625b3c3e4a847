"""Class mode's rooms in a database: the teacher's controls, the students' answers.

A room has a join code (students) and a secret (the teacher; only its digest is stored).
Questions are shown one at a time as *rounds*: ``open`` -> ``locked`` -> ``revealed``;
*vote again* opens a new round of the same question and keeps the old one. Each student has at
most one answer per round; sending again while the round is open replaces it. Every teacher
action takes the secret; a student's token reaches only :meth:`Store.submit` and reads.

Times are seconds since the epoch from ``clock`` (injected, so tests can move time).
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import replace
from typing import Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from . import codes
from .batch import Batch
from .db import answers, rooms, rounds, students
from .errors import ClassError
from .model import Answer, Room, Round, Student, clean_text, looks_like_id  # noqa: F401
from .roster import Roster
from .tx import Tx

_ANY = object()  # open_question's and vote_again's ``seen`` not given: no check

DAY = 24 * 3600.0
MAX_STUDENTS = 200   # a room's students by default on SQLite: one file, one machine's servers
# and on PostgreSQL, where two app servers share a room (tests/bench/bench_lecture.py: 400 on two)
MAX_STUDENTS_SHARED = 500
# What the teacher may raise a room's cap to: one SQLite file takes a lecture hall's answers
# (tests/bench/bench_class.py), a PostgreSQL server a few halls' worth.
MAX_CAP = {"sqlite": 500, "postgresql": 2000}
PURGE_EVERY = 600.0  # seconds between two purges of expired rooms (Store.start_purging)
MAX_NICKNAME = 24
MAX_ANSWER = 200
RATE_WINDOW = 10.0   # seconds
RATE_SENDS = 8       # answers accepted from one student per window (a human sends 1-3)


class Store(Roster):
    """Rooms in the database behind ``engine`` (:func:`lab.classroom.db.open_engine`).

    A database fault reaches the caller as ``ClassError("busy")`` (:mod:`lab.classroom.tx`);
    a code, secret or token that cannot be one is refused before any query."""

    def __init__(self, engine: sa.Engine, *, clock: Callable[[], float] = time.time):
        self.engine = engine
        self.clock = clock
        self._pg = engine.dialect.name == "postgresql"
        self.max_cap = MAX_CAP.get(engine.dialect.name, MAX_STUDENTS)
        self.room_limit = MAX_STUDENTS_SHARED if self._pg else MAX_STUDENTS
        self._purger: threading.Thread | None = None
        self._answers = Batch(engine)  # the students' answers, written together
        # called with a room's code after a write that changes what its class sees
        # (lab.classroom.watch reads the room again at once)
        self.on_change: list[Callable[[str], None]] = []

    # transactions ----------------------------------------------------------------------
    @contextlib.contextmanager
    def _write(self, changed: str | None = None):
        """A write transaction; ``changed``: the room whose class sees its result (told to
        :attr:`on_change` once committed)."""
        with Tx(self.engine, write=True) as conn:
            yield conn
        if changed is not None:
            for listener in self.on_change:
                listener(changed)

    def _read(self):
        return Tx(self.engine, write=False)

    def _room_row(self, conn, code: str, *, lock: bool = False):
        if not codes.valid_code(code):
            raise ClassError("no_room")
        q = sa.select(rooms).where(rooms.c.code == code)
        row = conn.execute(q.with_for_update() if lock and self._pg else q).first()
        if row is None:
            raise ClassError("no_room")
        if row.expires_at <= self.clock():
            raise ClassError("expired")
        return row

    def _teacher_row(self, conn, code: str, secret: str, *, lock: bool = False):
        if not (codes.valid_code(code) and codes.valid_secret(secret)):
            raise ClassError("not_teacher")
        q = sa.select(rooms).where(rooms.c.code == code)
        row = conn.execute(q.with_for_update() if lock and self._pg else q).first()
        # one refusal for a wrong code, a wrong secret and an ended room: nothing to probe
        if (row is None or not codes.same_secret(secret, row.secret_hash)
                or row.expires_at <= self.clock()):
            raise ClassError("not_teacher")
        return row

    # rooms -----------------------------------------------------------------------------
    def create_room(self, *, lang: str = "en", names_on: bool = False,
                    max_students: int | None = None, ttl: float = DAY) -> tuple[Room, str]:
        """A new room and its teacher secret (shown once, in the teacher's link);
        ``max_students``: by default the database's :attr:`room_limit`."""
        if max_students is None:
            max_students = self.room_limit
        if not 1 <= int(max_students) <= self.max_cap:
            raise ValueError(f"max_students must be 1 to {self.max_cap}, got {max_students}")
        self.purge()
        secret = codes.new_secret()
        now = self.clock()
        for _ in range(20):  # a clash among ~887 million codes is rare; try another
            code = codes.new_code()
            try:
                with self._write() as conn:
                    conn.execute(rooms.insert().values(
                        code=code, secret_hash=codes.digest(secret), lang=lang,
                        names_on=bool(names_on), max_students=int(max_students),
                        created_at=now, expires_at=now + ttl, current_round=None, students=0))
                return self.room(code), secret
            except ClassError as e:
                if not isinstance(getattr(e, "fault", None), sa.exc.IntegrityError):
                    raise
        raise RuntimeError("no free join code after 20 tries")

    def room(self, code: str) -> Room:
        with self._read() as conn:
            return Room(**_room_fields(self._room_row(conn, code)))

    def teacher_room(self, code: str, secret: str) -> Room:
        """The room, if ``secret`` is its teacher's (else ``ClassError('not_teacher')``)."""
        with self._read() as conn:
            return Room(**_room_fields(self._teacher_row(conn, code, secret)))

    def set_names(self, code: str, secret: str, on: bool) -> None:
        with self._write() as conn:
            row = self._teacher_row(conn, code, secret)
            conn.execute(rooms.update().where(rooms.c.id == row.id).values(names_on=bool(on)))

    def purge(self) -> int:
        """Delete every expired room with its students, rounds and answers; how many rooms."""
        now = self.clock()
        with self._write() as conn:
            old = sa.select(rooms.c.id).where(rooms.c.expires_at <= now)
            old_rounds = sa.select(rounds.c.id).where(rounds.c.room_id.in_(old))
            conn.execute(answers.delete().where(answers.c.round_id.in_(old_rounds)))
            conn.execute(rounds.delete().where(rounds.c.room_id.in_(old)))
            conn.execute(students.delete().where(students.c.room_id.in_(old)))
            return conn.execute(rooms.delete().where(rooms.c.expires_at <= now)).rowcount

    def start_purging(self, every: float = PURGE_EVERY) -> threading.Thread:
        """Purge expired rooms every ``every`` seconds in a daemon thread (once per store):
        nicknames and answers go 24 h after the class started even when no one starts
        another class."""
        if self._purger is None:
            stop = self._stop_purging = threading.Event()

            def loop():
                while not stop.is_set():
                    try:
                        self.purge()
                    except ClassError:
                        pass  # a database fault, logged: the next turn tries again
                    stop.wait(every)
            self._purger = threading.Thread(target=loop, name="class-purge", daemon=True)
            self._purger.start()
        return self._purger

    def stop_purging(self) -> None:
        if self._purger is not None:
            self._stop_purging.set()
            self._purger.join()
            self._purger = None
    # students --------------------------------------------------------------------------
    def join(self, code: str, nickname: str | None = None) -> tuple[Student, str]:
        """A new student in the room and their token (kept in their session to answer)."""
        nick = clean_text(nickname, MAX_NICKNAME) if nickname else None
        if nick and looks_like_id(nick):
            raise ClassError("nickname_like_id")
        token = codes.new_secret()
        with self._write() as conn:
            row = self._room_row(conn, code, lock=True)
            if row.students >= row.max_students:
                raise ClassError("full", n=row.max_students)
            # rooms.students counts who is in the room (a removed student leaves it); the
            # number is past every number in use
            number = 1 + (conn.execute(sa.select(sa.func.max(students.c.number)).where(
                students.c.room_id == row.id)).scalar() or 0)
            conn.execute(rooms.update().where(rooms.c.id == row.id).values(
                students=row.students + 1))
            sid = conn.execute(students.insert().values(
                room_id=row.id, number=number, token_hash=codes.digest(token),
                nickname=nick or None, joined_at=self.clock(), window_start=0.0,
                window_sends=0)).inserted_primary_key[0]
        return Student(sid, row.code, number, nick or None), token

    def _student_row(self, conn, code: str, token: str):
        """The room and the student; ``not_joined`` alike for a code with no class and a
        token not in it (a student's link tells nothing about which codes are in use)."""
        if not (codes.valid_code(code) and codes.valid_secret(token)):
            raise ClassError("not_joined")
        room = conn.execute(sa.select(rooms).where(rooms.c.code == code)).first()
        st = None if room is None else conn.execute(sa.select(students).where(
            students.c.token_hash == codes.digest(token),
            students.c.room_id == room.id)).first()
        if st is None:
            raise ClassError("not_joined")
        if room.expires_at <= self.clock():
            raise ClassError("expired")
        return room, st

    def student(self, code: str, token: str) -> Student:
        with self._read() as conn:
            room, st = self._student_row(conn, code, token)
            return Student(st.id, room.code, st.number, st.nickname)

    # the teacher's pacing --------------------------------------------------------------
    def _new_round(self, conn, room, question_no: int, round_no: int, question: str) -> Round:
        now = self.clock()
        rid = conn.execute(rounds.insert().values(
            room_id=room.id, question_no=question_no, round_no=round_no, question=question,
            phase="open", opened_at=now, deadline=None)).inserted_primary_key[0]
        conn.execute(rooms.update().where(rooms.c.id == room.id).values(current_round=rid))
        return Round(rid, question_no, round_no, question, "open", now, None)

    def _moved_on(self, conn, room, seen) -> Round | None:
        """The current round when the teacher pressed on a screen that showed another one
        (``seen``: its round id, None before the first question): the press came twice (a
        rerun repeating a button) or from a stale tab, and changes nothing."""
        if seen is _ANY or seen == room.current_round:
            return None
        cur = self._current_row(conn, room)
        if cur is None:
            raise ClassError("no_next")
        return self._round(cur)

    def open_question(self, code: str, secret: str, question: str, *, seen=_ANY) -> Round:
        """Show ``question`` (JSON) to the class as the next question, round 1, open.
        ``seen``: the current round's id on the teacher's screen (see ``_moved_on``)."""
        with self._write(changed=str(code)) as conn:
            room = self._teacher_row(conn, code, secret, lock=True)
            if (current := self._moved_on(conn, room, seen)) is not None:
                return current
            last = conn.execute(sa.select(sa.func.max(rounds.c.question_no)).where(
                rounds.c.room_id == room.id)).scalar() or 0
            return self._new_round(conn, room, last + 1, 1, str(question))

    def vote_again(self, code: str, secret: str, *, seen=_ANY) -> Round:
        """A new open round of the current question; the earlier rounds are kept.
        ``seen``: the current round's id on the teacher's screen (see ``_moved_on``)."""
        with self._write(changed=str(code)) as conn:
            room = self._teacher_row(conn, code, secret, lock=True)
            if (current := self._moved_on(conn, room, seen)) is not None:
                return current
            cur = self._current_row(conn, room)
            if cur is None:
                raise ClassError("no_next")
            last = conn.execute(sa.select(sa.func.max(rounds.c.round_no)).where(
                rounds.c.room_id == room.id, rounds.c.question_no == cur.question_no)).scalar()
            return self._new_round(conn, room, cur.question_no, last + 1, cur.question)

    def lock(self, code: str, secret: str, *, countdown: float | None = None) -> Round:
        """Lock the current round now, or after ``countdown`` seconds (answers until then)."""
        with self._write(changed=str(code)) as conn:
            room = self._teacher_row(conn, code, secret)
            cur = self._current_row(conn, room)
            if cur is None:
                raise ClassError("no_next")
            if cur.phase == "open":
                values = ({"phase": "locked", "deadline": None} if not countdown else
                          {"deadline": self.clock() + float(countdown)})
                conn.execute(rounds.update().where(rounds.c.id == cur.id).values(**values))
            return self._round(conn.execute(sa.select(rounds).where(
                rounds.c.id == cur.id)).first())

    def reveal(self, code: str, secret: str) -> Round:
        """Lock the current round (if it is not) and show its answers to everyone."""
        with self._write(changed=str(code)) as conn:
            room = self._teacher_row(conn, code, secret)
            cur = self._current_row(conn, room)
            if cur is None:
                raise ClassError("no_next")
            conn.execute(rounds.update().where(rounds.c.id == cur.id).values(phase="revealed"))
            return self._round(conn.execute(sa.select(rounds).where(
                rounds.c.id == cur.id)).first())

    # reads -----------------------------------------------------------------------------
    def _current_row(self, conn, room):
        if room.current_round is None:
            return None
        return conn.execute(sa.select(rounds).where(rounds.c.id == room.current_round)).first()

    def _round(self, row) -> Round:
        return in_effect(Round(row.id, row.question_no, row.round_no, row.question, row.phase,
                               row.opened_at, row.deadline), self.clock())

    def current(self, code: str) -> Round | None:
        """The round the class sees now (``None`` before the first question)."""
        with self._read() as conn:
            row = self._current_row(conn, self._room_row(conn, code))
            return None if row is None else self._round(row)

    def count(self, code: str) -> tuple[int, int]:
        """``(answered, joined)``: answers in the current round, students in the room."""
        with self._read() as conn:
            room = self._room_row(conn, code)
            if room.current_round is None:
                return 0, room.students
            n = conn.execute(sa.select(sa.func.count()).select_from(answers).where(
                answers.c.round_id == room.current_round)).scalar()
            return n, room.students

    def rounds(self, code: str, question_no: int | None = None) -> list[Round]:
        """Every round of the room (or of one question), in the order they were opened."""
        with self._read() as conn:
            room = self._room_row(conn, code)
            q = sa.select(rounds).where(rounds.c.room_id == room.id)
            if question_no is not None:
                q = q.where(rounds.c.question_no == question_no)
            return [self._round(r) for r in conn.execute(q.order_by(rounds.c.id))]

    def answers(self, code: str, round_id: int | None = None) -> list[Answer]:
        """The answers of one round (or of the whole room), by round and student number."""
        with self._read() as conn:
            room = self._room_row(conn, code)
            q = (sa.select(answers, students.c.number, students.c.nickname)
                 .join(students, students.c.id == answers.c.student_id)
                 .join(rounds, rounds.c.id == answers.c.round_id)
                 .where(rounds.c.room_id == room.id))
            if round_id is not None:
                q = q.where(answers.c.round_id == round_id)
            q = q.order_by(rounds.c.id, students.c.number)
            return [Answer(r.round_id, r.number, r.nickname, r.answer, r.correct, r.mistake,
                           r.sent_at) for r in conn.execute(q)]

    def my_answer(self, code: str, token: str, round_id: int) -> Answer | None:
        with self._read() as conn:
            _room, st = self._student_row(conn, code, token)
            r = conn.execute(sa.select(answers).where(
                answers.c.round_id == round_id, answers.c.student_id == st.id)).first()
            return None if r is None else Answer(r.round_id, st.number, st.nickname, r.answer,
                                                 r.correct, r.mistake, r.sent_at)

    # answers ---------------------------------------------------------------------------
    def submit(self, code: str, token: str, round_id: int, answer: str, *, correct: bool,
               mistake: str | None = None) -> Answer:
        """Store a student's answer to round ``round_id`` (replacing theirs while it is open)
        and return it as stored. Answers sent at once are written together, in one
        transaction (:class:`~lab.classroom.batch.Batch`).

        The caller parsed and scored ``answer`` (:mod:`lab.classroom.questions`); refused
        with a :class:`ClassError` when the class has moved on, the round is locked, or the
        student sends faster than ``RATE_SENDS`` per ``RATE_WINDOW`` seconds.
        """
        text = clean_text(answer, MAX_ANSWER)

        def job(conn) -> Answer:  # every refusal before the first write (lab.classroom.batch)
            now = self.clock()
            room, st = self._student_row(conn, code, token)
            cur = self._current_row(conn, room)
            if cur is None:
                raise ClassError("no_question")
            if cur.id != round_id:
                raise ClassError("moved_on")
            if self._round(cur).phase != "open":
                raise ClassError("locked")
            fresh = now - st.window_start >= RATE_WINDOW
            if not fresh and st.window_sends >= RATE_SENDS:
                raise ClassError("too_fast")
            conn.execute(students.update().where(students.c.id == st.id).values(
                window_start=now if fresh else st.window_start,
                window_sends=1 if fresh else st.window_sends + 1))
            values = dict(round_id=round_id, student_id=st.id, answer=text,
                          correct=bool(correct), mistake=mistake, sent_at=now)
            insert = (postgresql.insert if self._pg else sqlite.insert)(answers).values(values)
            conn.execute(insert.on_conflict_do_update(
                index_elements=[answers.c.round_id, answers.c.student_id],
                set_={k: values[k] for k in ("answer", "correct", "mistake", "sent_at")}))
            return Answer(round_id, st.number, st.nickname, text, bool(correct), mistake, now)

        return self._answers.run(job)


def in_effect(rnd: Round, now: float) -> Round:
    """``rnd`` as the class sees it at ``now``: open past its countdown reads locked."""
    if rnd.phase == "open" and rnd.deadline is not None and now >= rnd.deadline:
        return replace(rnd, phase="locked")
    return rnd


def _room_fields(row) -> dict:
    return {f: getattr(row, f) for f in Room.__dataclass_fields__}

