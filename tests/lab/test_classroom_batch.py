"""Answers sent at once are written together (lab/classroom/batch.py), on SQLite and on a real
PostgreSQL server: all stored, in fewer transactions than answers, and one student's refusal
is that student's alone."""

from __future__ import annotations

import threading

from lab.classroom import db
from lab.classroom.errors import ClassError
from lab.classroom.store import Store


def _at_once(calls):
    """Run ``calls`` on threads released together; what each returned or raised."""
    start = threading.Barrier(len(calls))
    got = [None] * len(calls)

    def run(i, call):
        start.wait()
        try:
            got[i] = call()
        except ClassError as e:
            got[i] = e
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return got


def test_eighty_answers_at_once_are_stored_in_fewer_transactions(url, clock):
    """80 students press Send together: every answer is stored and handed back as stored,
    and the store wrote them in fewer transactions than answers."""
    engine = db.open_engine(url)
    store = Store(engine, clock=clock)
    room, secret = store.create_room()
    tokens = [store.join(room.code)[1] for _ in range(80)]
    rnd = store.open_question(room.code, secret, "{}")
    got = _at_once([lambda t=t, i=i: store.submit(room.code, t, rnd.id, f"0.{i}",
                                                  correct=i % 2 == 0)
                    for i, t in enumerate(tokens)])
    assert [a.answer for a in got] == [f"0.{i}" for i in range(80)]
    assert sorted(a.student for a in got) == list(range(1, 81))
    assert store.count(room.code) == (80, 80)
    stored = {a.student: (a.answer, a.correct) for a in store.answers(room.code, rnd.id)}
    assert stored == {a.student: (a.answer, a.correct) for a in got}
    assert store._answers.jobs == 80
    assert store._answers.transactions < 80
    engine.dispose()


def test_a_refused_answer_in_a_batch_leaves_the_others_stored(url, clock):
    """Among 30 answers sent at once, a stale link's and a closed round's are refused with
    their own sentence; the other students' answers are stored."""
    engine = db.open_engine(url)
    store = Store(engine, clock=clock)
    room, secret = store.create_room()
    tokens = [store.join(room.code)[1] for _ in range(30)]
    rnd = store.open_question(room.code, secret, "{}")
    calls = [lambda t=t: store.submit(room.code, t, rnd.id, "0.5", correct=True)
             for t in tokens]
    calls[7] = lambda: store.submit(room.code, "x" * 43, rnd.id, "0.5", correct=True)
    calls[19] = lambda: store.submit(room.code, tokens[19], rnd.id + 1, "0.5", correct=True)
    got = _at_once(calls)
    assert isinstance(got[7], ClassError) and got[7].what == "not_joined"
    assert isinstance(got[19], ClassError) and got[19].what == "moved_on"
    assert all(a.answer == "0.5" for i, a in enumerate(got) if i not in (7, 19))
    assert store.count(room.code) == (28, 30)
    engine.dispose()
