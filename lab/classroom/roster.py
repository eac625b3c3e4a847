"""The teacher's hold on a room: who is in it, removing someone, its size, a new link.

A mixin of :class:`lab.classroom.store.Store` (every method takes the teacher's secret).
"""

from __future__ import annotations

import sqlalchemy as sa

from . import codes
from .db import answers, rooms, students
from .errors import ClassError


class Roster:
    def roster(self, code: str, secret: str) -> list[tuple[int, str | None, int]]:
        """``(number, nickname, answers sent)`` of each student in the room, by number."""
        with self._read() as conn:
            room = self._teacher_row(conn, code, secret)
            sent = (sa.select(answers.c.student_id, sa.func.count().label("n"))
                    .group_by(answers.c.student_id).subquery())
            q = (sa.select(students.c.number, students.c.nickname,
                           sa.func.coalesce(sent.c.n, 0))
                 .outerjoin(sent, sent.c.student_id == students.c.id)
                 .where(students.c.room_id == room.id).order_by(students.c.number))
            return [(n, nick, int(k)) for n, nick, k in conn.execute(q)]

    def remove_students(self, code: str, secret: str, numbers) -> int:
        """Take the students ``numbers`` out of the room with their answers (their links
        stop working; the room has their seats again); how many were removed."""
        numbers = sorted({int(n) for n in numbers})
        with self._write() as conn:
            room = self._teacher_row(conn, code, secret, lock=True)
            ids = sa.select(students.c.id).where(students.c.room_id == room.id,
                                                 students.c.number.in_(numbers))
            conn.execute(answers.delete().where(answers.c.student_id.in_(ids)))
            gone = conn.execute(students.delete().where(
                students.c.room_id == room.id, students.c.number.in_(numbers))).rowcount
            conn.execute(rooms.update().where(rooms.c.id == room.id).values(
                students=max(0, room.students - gone)))
            return gone

    def set_cap(self, code: str, secret: str, max_students: int) -> None:
        """How many students may join (1 to ``self.max_cap``, what this database takes)."""
        n = int(max_students)
        if not 1 <= n <= self.max_cap:
            raise ClassError("cap_range", n=self.max_cap)
        with self._write() as conn:
            room = self._teacher_row(conn, code, secret)
            conn.execute(rooms.update().where(rooms.c.id == room.id).values(max_students=n))

    def new_teacher_secret(self, code: str, secret: str) -> str:
        """Replace the teacher's secret (a link shown by mistake): the new one is returned,
        the old link is refused from now on."""
        fresh = codes.new_secret()
        with self._write() as conn:
            room = self._teacher_row(conn, code, secret, lock=True)
            conn.execute(rooms.update().where(rooms.c.id == room.id).values(
                secret_hash=codes.digest(fresh)))
        return fresh
