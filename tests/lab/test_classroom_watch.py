"""The rooms' current rounds kept in memory (lab/classroom/watch.py), on SQLite and a real
PostgreSQL server: what a waiting phone reads instead of asking the database."""

from __future__ import annotations

import pytest

from lab.classroom import db
from lab.classroom.errors import ClassError
from lab.classroom.store import Store
from lab.classroom.watch import RoomWatch

QUESTION = '{"kind": "predict", "grades": [3, 2, 3, 0, 1, 2], "k": 6}'






@pytest.fixture
def two_servers(url, clock):
    """Two stores on one database, as two app servers are, each with its own watch (its
    thread asleep for the test: the test reads when it chooses)."""
    stores = [Store(db.open_engine(url), clock=clock) for _ in range(2)]
    watches = [RoomWatch(s, period=3600) for s in stores]
    yield list(zip(stores, watches))
    for s, w in zip(stores, watches):
        w.stop()
        s.engine.dispose()


def test_a_write_on_this_server_is_seen_at_the_next_poll(two_servers):
    (store, watch), _ = two_servers
    room, secret = store.create_room()
    assert watch.current(room.code) is None  # before the first question
    reads = watch.reads
    opened = store.open_question(room.code, secret, QUESTION)
    assert watch.current(room.code) == opened  # read back when written, not when asked
    for _ in range(50):
        watch.current(room.code)
    assert watch.reads == reads + 1


def test_another_servers_write_is_seen_at_the_next_reading_of_all_rooms(two_servers):
    (a, watch_a), (b, watch_b) = two_servers
    rooms = [a.create_room() for _ in range(3)]
    for room, _ in rooms:
        assert watch_b.current(room.code) is None
    code, secret = rooms[1][0].code, rooms[1][1]
    a.open_question(code, secret, QUESTION)
    assert watch_b.current(code) is None  # server B reads the database on its own time
    reads = watch_b.reads
    watch_b.refresh()
    assert watch_b.reads == reads + 1  # one query for every room it follows
    assert watch_b.current(code).phase == "open"
    a.reveal(code, secret)
    watch_b.refresh()
    assert watch_b.current(code) == a.current(code)


def test_a_countdown_locks_from_memory_and_an_ended_room_says_so(two_servers, clock):
    (store, watch), _ = two_servers
    room, secret = store.create_room(ttl=600)
    store.open_question(room.code, secret, QUESTION)
    store.lock(room.code, secret, countdown=30)
    assert watch.current(room.code).phase == "open"
    clock.now += 31
    assert watch.current(room.code).phase == "locked"
    clock.now += 600
    with pytest.raises(ClassError) as e:
        watch.current(room.code)
    assert e.value.what == "expired"
    with pytest.raises(ClassError) as e:
        watch.current("ZZZZZZ")
    assert e.value.what == "no_room"


def test_the_reading_thread_follows_the_database(url, clock):
    """Left to itself, the watch's thread reads another server's write within its period."""
    import time
    a, b = Store(db.open_engine(url), clock=clock), Store(db.open_engine(url), clock=clock)
    watch = RoomWatch(b, period=0.05)
    try:
        room, secret = a.create_room()
        assert watch.current(room.code) is None
        a.open_question(room.code, secret, QUESTION)
        for _ in range(200):
            if watch.current(room.code) is not None:
                break
            time.sleep(0.01)
        assert watch.current(room.code).phase == "open"
    finally:
        watch.stop()
        a.engine.dispose()
        b.engine.dispose()


def test_a_room_holds_200_on_sqlite_and_500_on_postgresql_for_two_servers(url):
    store = Store(db.open_engine(url))
    try:
        room, _ = store.create_room()
        assert room.max_students == (500 if url.startswith("postgresql") else 200)
    finally:
        store.engine.dispose()
