"""Class mode under attack and faults, against SQLite and a real PostgreSQL server: a flood of
joins refused while a real student joins, guessed codes limited, forged link parameters
refused before any query, a database fault (a held SQLite lock, a full disk, PostgreSQL
stopped) read as "busy" with nothing acknowledged lost and the pool back to its size, hostile
nicknames through the CSV, the teacher's roster, cap and new link, expired rooms purged on a
timer.

No mocks: real databases, a real tmpfs for the full disk, real threads."""

from __future__ import annotations

import csv
import io
import sqlite3
import subprocess
import time

import pytest
import sqlalchemy as sa

from lab.classroom import codes, db, questions as Q, report
from lab.classroom.bank import BANK
from lab.classroom.errors import ClassError
from lab.classroom.limits import Gate, Limits
from lab.classroom.store import Store
from postgres_server import postgres_cluster

QUESTION = Q.to_json(BANK[0])






@pytest.fixture
def store(url, clock) -> Store:
    engine = db.open_engine(url)
    yield Store(engine, clock=clock)
    engine.dispose()


def cpu_per_call(fn, n: int) -> float:
    """This process's CPU seconds per call of ``fn`` (``n`` calls; waiting costs nothing)."""
    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) / n


def busy(fn) -> ClassError:
    with pytest.raises(ClassError) as e:
        fn()
    assert e.value.what == "busy", e.value.what
    assert "busy" in e.value.message("en") and "Nothing you sent before is lost" in \
        e.value.message("en")
    return e.value


# ------------------------------------------------------------------ floods and guesses

def test_a_join_flood_from_one_session_is_refused_while_a_real_student_joins(store):
    """One client sends Join 500 times: it gets 5 seats, the class keeps the rest, and a
    student on another phone joins at once."""
    room, _ = store.create_room()
    now = [0.0]
    gate = Gate(Limits(), clock=lambda: now[0])
    joined, refused = 0, set()
    for i in range(500):
        now[0] += 0.044  # 500 joins in 22 s, as the probe sent them
        try:
            gate.admit("bot-session", "203.0.113.9", room.code)
            store.join(room.code)
            gate.joined("bot-session", "203.0.113.9", room.code)
            joined += 1
        except ClassError as e:
            refused.add(e.what)
    assert joined == Limits().joins_per_session and refused == {"slow_down"}
    gate.admit("phone-session", "198.51.100.7", room.code)
    me, _ = store.join(room.code, "Ada")
    assert me.number == joined + 1 and store.room(room.code).students == joined + 1


def test_new_sessions_from_one_address_are_held_to_the_address_limit():
    """A bot opening a fresh session for every join is counted by its address; an address
    Streamlit does not know (a local connection) is never one address for a whole class."""
    now = [0.0]
    limits = Limits(joins_per_address=60, address_window=60.0)
    gate = Gate(limits, clock=lambda: now[0])
    for i in range(60):  # into three rooms: one room's seats per address are fewer
        gate.admit(f"s{i}", "203.0.113.9", f"ROOM{i // 20}")
        gate.joined(f"s{i}", "203.0.113.9", f"ROOM{i // 20}")
        now[0] += 0.06  # 60 joins, 3.6 s: also under the room's 20 a second
    with pytest.raises(ClassError, match="slow_down"):
        gate.admit("s-new", "203.0.113.9", "ABC234")
    gate.admit("s-other", "198.51.100.7", "ABC234")  # another phone in the hall
    now[0] += 60
    gate.admit("s-later", "203.0.113.9", "ABC234")  # the window has moved on
    for i in range(15):
        gate.admit(f"local{i}", None, "XYZ789")  # 15 sessions from no address: all in


def test_one_address_never_fills_a_room():
    """Joining slowly, under every per-minute limit, one address still gets at most 50
    seats of a room for its life: the rest of the class always gets in."""
    now = [0.0]
    gate = Gate(Limits(), clock=lambda: now[0])
    for i in range(50):
        gate.admit(f"s{i}", "203.0.113.9", "ABC234")
        gate.joined(f"s{i}", "203.0.113.9", "ABC234")
        now[0] += 30.0
    with pytest.raises(ClassError) as e:
        gate.admit("s50", "203.0.113.9", "ABC234")
    assert e.value.what == "address_full" and "tell your teacher" in e.value.message("en")
    gate.admit("s50", "198.51.100.7", "ABC234")  # a phone on another network
    gate.admit("s50", "203.0.113.9", "XYZ789")  # another room


def test_a_room_takes_a_bounded_number_of_joins_a_second():
    now = [0.0]
    gate = Gate(Limits(joins_per_room_second=20), clock=lambda: now[0])
    for i in range(20):
        gate.admit(f"s{i}", f"10.0.0.{i}", "ABC234")
    with pytest.raises(ClassError) as e:
        gate.admit("s20", "10.0.1.1", "ABC234")
    assert e.value.what == "crowded" and "press Join again" in e.value.message("en")
    gate.admit("s20", "10.0.1.1", "XYZ789")  # another room is not held up
    now[0] += 1.0
    gate.admit("s20", "10.0.1.1", "ABC234")


def test_guessing_codes_is_limited_per_session_and_per_address():
    """Ten codes that open no class, then the session must wait; so must its address."""
    now = [0.0]
    gate = Gate(Limits(misses_per_session=10, misses_per_address=40), clock=lambda: now[0])
    for _ in range(10):
        gate.admit("guesser", "203.0.113.9", "AAAAAA")
        gate.missed("guesser", "203.0.113.9")
    with pytest.raises(ClassError) as e:
        gate.admit("guesser", "203.0.113.9", "AAAAAB")
    assert e.value.what == "guessing"
    for i in range(30):  # new sessions from the same address
        gate.missed(f"g{i}", "203.0.113.9")
    with pytest.raises(ClassError, match="guessing"):
        gate.admit("fresh", "203.0.113.9", "AAAAAC")
    gate.admit("student", "198.51.100.7", "AAAAAC")
    now[0] += Limits().session_window
    gate.admit("guesser", "203.0.113.9", "AAAAAD")


def test_a_students_link_answers_alike_for_an_unknown_code_and_a_stranger(store):
    """``?join=CODE&me=x`` is no oracle: a code with no class and a class the token is not in
    read the same sentence."""
    room, _ = store.create_room()
    _, token = store.join(room.code)
    other = next(c for c in ("ABCDEF", "BCDEFG") if c != room.code)
    errors = []
    for code, tok in ((other, token), (room.code, codes.new_secret())):
        with pytest.raises(ClassError) as e:
            store.student(code, tok)
        errors.append(e.value)
    assert {e.what for e in errors} == {"not_joined"}
    assert errors[0].message("en") == errors[1].message("en")


def _no_queries(store, calls):
    queries = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda *a: queries.append(a[2]))
    for call, what in calls:
        with pytest.raises(ClassError) as e:
            call()
        assert e.value.what == what
    return [q for q in queries if not q.strip().upper().startswith(("BEGIN", "ROLLBACK"))]


@pytest.mark.parametrize("code", ["\x00", "ABC234\x00", "%00", "A" * 10_000, "abc234", None])
def test_forged_codes_are_refused_before_any_query(store, code):
    """``?room=%00&key=x``, ``?join=%00&me=x``, a 10,000-character code: each reads as the
    link's ordinary refusal, and PostgreSQL (which refuses a NUL) never sees it."""
    token = codes.new_secret()
    assert _no_queries(store, [
        (lambda: store.room(code), "no_room"), (lambda: store.join(code), "no_room"),
        (lambda: store.teacher_room(code, token), "not_teacher"),
        (lambda: store.student(code, token), "not_joined"),
        (lambda: store.submit(code, token, 1, "0.5", correct=False), "not_joined")]) == []


@pytest.mark.parametrize("secret", ["x", "\x00" * 22, "k" * 21 + "'", "k" * 23, None])
def test_forged_secrets_and_tokens_are_refused_before_any_query(store, secret):
    assert _no_queries(store, [
        (lambda: store.teacher_room("ABC234", secret), "not_teacher"),
        (lambda: store.vote_again("ABC234", secret), "not_teacher"),
        (lambda: store.student("ABC234", secret), "not_joined"),
        (lambda: store.submit("ABC234", secret, 1, "0.5", correct=False), "not_joined")]) \
        == []


def test_a_nickname_cannot_pass_for_an_anonymous_id(store):
    room, _ = store.create_room(names_on=True)
    for nick in ("S001", "s 002", "Ｓ００３", "S-004."):
        with pytest.raises(ClassError) as e:
            store.join(room.code, nick)
        assert e.value.what == "nickname_like_id"
    me, _ = store.join(room.code, "Sam 1")
    assert me.nickname == "Sam 1" and store.room(room.code).students == 1


# ------------------------------------------------------------------ the teacher's hold

def test_the_teacher_removes_bots_and_their_answers_and_raises_the_cap(store):
    room, secret = store.create_room(max_students=3)
    rnd = store.open_question(room.code, secret, QUESTION)
    tokens = [store.join(room.code, nick)[1] for nick in ("bot", "bot", "Ada")]
    for tok in tokens:
        store.submit(room.code, tok, rnd.id, "0.961", correct=True)
    with pytest.raises(ClassError, match="full"):
        store.join(room.code)
    assert [(n, nick, k) for n, nick, k in store.roster(room.code, secret)] == \
        [(1, "bot", 1), (2, "bot", 1), (3, "Ada", 1)]
    assert store.remove_students(room.code, secret, [1, 2]) == 2
    assert store.count(room.code) == (1, 1)  # Ada's answer stays
    assert [a.nickname for a in store.answers(room.code)] == ["Ada"]
    with pytest.raises(ClassError, match="not_joined"):
        store.submit(room.code, tokens[0], rnd.id, "0.5", correct=False)
    late, _ = store.join(room.code, "Bo")
    assert late.number == 4  # a new number: S001's old answers cannot be taken for Bo's
    store.set_cap(room.code, secret, store.max_cap)
    assert store.room(room.code).max_students == store.max_cap
    with pytest.raises(ClassError) as e:
        store.set_cap(room.code, secret, store.max_cap + 1)
    assert e.value.what == "cap_range" and str(store.max_cap) in e.value.message("en")
    with pytest.raises(ClassError, match="not_teacher"):
        store.remove_students(room.code, codes.new_secret(), [3])


def test_a_replaced_teacher_link_stops_working_and_says_so(store):
    room, old = store.create_room()
    new = store.new_teacher_secret(room.code, old)
    assert store.teacher_room(room.code, new).code == room.code
    with pytest.raises(ClassError) as e:
        store.vote_again(room.code, old)
    assert e.value.what == "not_teacher" and "replaced by a new one" in e.value.message("en")


def test_expired_rooms_are_purged_on_a_timer(store, clock):
    """Nobody starts another class: the purge thread still deletes the room a day later."""
    room, _ = store.create_room(names_on=True)
    store.join(room.code, "Ada")
    clock.now += 25 * 3600
    store.start_purging(every=0.05)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with store.engine.connect() as conn:
                left = conn.execute(sa.select(sa.func.count()).select_from(db.students)).scalar()
                rooms = conn.execute(sa.select(sa.func.count()).select_from(db.rooms)).scalar()
            if not left and not rooms:
                break
            time.sleep(0.05)
    finally:
        store.stop_purging()
    assert (left, rooms) == (0, 0)


# ------------------------------------------------------------------ what a student sends

def test_hostile_nicknames_open_as_text_in_both_csvs(store):
    """OWASP's rule: a cell starting with = + - @, a tab or a carriage return starts with an
    apostrophe, so a spreadsheet shows the characters, not a formula's result."""
    hostile = ['=HYPERLINK("http://e.x")', "=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)",
               "\tTab", "\rCR", "=1+1"]
    room, secret = store.create_room(names_on=True)
    rnd = store.open_question(room.code, secret, QUESTION)
    for nick in hostile:
        _, tok = store.join(room.code, nick)
        store.submit(room.code, tok, rnd.id, "0.961", correct=True)
    room = store.room(room.code)
    rows = list(csv.reader(io.StringIO(report.export_csv(room, store.rounds(room.code),
                                                          store.answers(room.code)))))
    cells = [c for row in rows for c in row]
    assert not [c for c in cells if c.startswith(report.FORMULA_STARTS)]
    nicks = [row[rows[0].index("nickname")] for row in rows[1:]]
    assert "'=HYPERLINK(\"http://e.x\")" in nicks and "'+1+1" in nicks
    summary = report.summary([], [], "en") + [{"Question": "=1+1", "Right": "-5"}]
    text = report.summary_csv(summary)
    assert not [c for row in csv.reader(io.StringIO(text)) for c in row
                if c.startswith(report.FORMULA_STARTS)]


def test_crafted_widget_values_are_refused_with_a_message():
    """An Arrange table's state {"order": 5} and a radio value 99: a sentence, no TypeError."""
    arrange = next(q for q in BANK if q.kind == "arrange")
    for state in ({"order": 5}, {"order": [1, 2]}, [1, 2], "x", {"order": "a,b"}):
        with pytest.raises(ClassError) as e:
            Q.kind_of(arrange).sent_text(arrange, state)
        assert e.value.what == "bad_answer" and e.value.message("zh")
    assert Q.kind_of(arrange).sent_text(arrange, None) == ",".join(arrange.item_ids)
    choose = next(q for q in BANK if q.kind == "choose")
    for value in (99, "99", None, "", "AB", {"x": 1}):
        with pytest.raises(ValueError, match="Pick one of"):
            Q.grade(choose, value)


# ------------------------------------------------------------------ database faults

def _class_with_answers(store, n=5):
    room, secret = store.create_room()
    rnd = store.open_question(room.code, secret, QUESTION)
    tokens = [store.join(room.code)[1] for _ in range(n + 1)]
    for tok in tokens[:n]:
        store.submit(room.code, tok, rnd.id, "0.961", correct=True)
    return room, secret, rnd, tokens


def test_a_held_sqlite_lock_reads_busy_costs_little_and_returns_the_pool(tmp_path, clock):
    """Another process holds the file (BEGIN IMMEDIATE): 16 sends are refused as "busy",
    each in well under 0.2 s of CPU; afterwards every connection is back in the pool, the 5
    acknowledged answers are all there, and the 6th student's send goes through."""
    path = tmp_path / "class.sqlite3"
    engine = db.open_engine(f"sqlite:///{path}", busy_ms=100)
    store = Store(engine, clock=clock)
    room, secret, rnd, tokens = _class_with_answers(store)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        send = lambda: busy(lambda: store.submit(room.code, tokens[5], rnd.id, "0.5",  # noqa
                                                 correct=False))
        cpu = cpu_per_call(send, 16)  # more than the pool's 5 + 10 connections
        assert engine.pool.checkedout() == 0
        busy(lambda: store.vote_again(room.code, secret))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    print(f"CPU per refused send (SQLite lock): {1000 * cpu:.1f} ms")
    assert cpu <= 0.2
    assert engine.pool.checkedout() == 0
    store.submit(room.code, tokens[5], rnd.id, "0.5", correct=False)
    assert store.count(room.code) == (6, 6)
    engine.dispose()


def test_a_full_disk_reads_busy_and_loses_no_acknowledged_answer(tmp_path, clock):
    """The class database on a 4 MB tmpfs, filled by another file: sends are refused as
    "busy"; with room again, they go through, and the answers sent before are all there."""
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], check=True)
    try:
        engine = db.open_engine(f"sqlite:///{disk / 'class.sqlite3'}", busy_ms=100)
        store = Store(engine, clock=clock)
        room, secret, rnd, tokens = _class_with_answers(store)
        filler = disk / "filler"
        with open(filler, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass  # the disk is full
        refused = 0
        for i in range(40):  # the WAL may still have room for a few pages
            try:
                late = store.join(room.code)[1]
                store.submit(room.code, late, rnd.id, "0.9" + str(i % 10), correct=False)
            except ClassError as e:
                assert e.what == "busy"
                refused += 1
        assert refused and engine.pool.checkedout() == 0
        filler.unlink()
        store.submit(room.code, tokens[5], rnd.id, "0.5", correct=False)
        got = {a.student: a.answer for a in store.answers(room.code, rnd.id)}
        assert all(got[n] == "0.961" for n in range(1, 6)) and got[6] == "0.5"
        engine.dispose()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def test_a_stopped_postgresql_reads_busy_and_the_class_resumes(clock):
    """PostgreSQL stopped in the middle of a class: every read and send is "busy" (in well
    under 0.2 s of CPU each), the pool is back to its size, and after the restart the class
    goes on in the same process with every acknowledged answer."""
    with postgres_cluster() as pg:
        engine = db.open_engine(pg.url)
        store = Store(engine, clock=clock)
        room, secret, rnd, tokens = _class_with_answers(store)
        pg.stop()
        calls = [lambda: store.submit(room.code, tokens[5], rnd.id, "0.5", correct=False),
                 lambda: store.count(room.code), lambda: store.current(room.code),
                 lambda: store.join(room.code), lambda: store.create_room(),
                 lambda: store.reveal(room.code, secret)]
        cpu = cpu_per_call(lambda: [busy(c) for c in calls], 5) / len(calls)
        print(f"CPU per refused request (PostgreSQL down): {1000 * cpu:.1f} ms")
        assert cpu <= 0.2
        assert engine.pool.checkedout() == 0
        pg.start()
        store.submit(room.code, tokens[5], rnd.id, "0.5", correct=False)
        assert store.count(room.code) == (6, 6)
        assert engine.pool.checkedout() == 0
        engine.dispose()
