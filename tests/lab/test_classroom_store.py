"""Class mode's store against SQLite and a real PostgreSQL server (tests/postgres_server.py).

No mocks: every test runs its store on both databases."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from lab.classroom import codes, config, db
from lab.classroom.errors import ClassError
from lab.classroom.store import DAY, MAX_ANSWER, MAX_NICKNAME, RATE_SENDS, RATE_WINDOW, Store






@pytest.fixture
def store(url, clock) -> Store:
    engine = db.open_engine(url)
    yield Store(engine, clock=clock)
    engine.dispose()


def test_schema_is_versioned_and_created_once(url):
    engine = db.open_engine(url)
    assert db.create_schema(engine) == db.SCHEMA_VERSION  # a second start changes nothing
    with engine.connect() as conn:
        assert conn.execute(sa.select(db.schema_version.c.version)).scalars().all() == [1]
        conn.execute(db.schema_version.update().values(version=db.SCHEMA_VERSION + 1))
        conn.commit()
    with pytest.raises(ValueError, match="schema version 2"):
        db.create_schema(engine)
    engine.dispose()


def test_sqlite_opens_in_wal_mode_with_a_busy_timeout(tmp_path):
    engine = db.open_engine(f"sqlite:///{tmp_path / 'new' / 'c.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == db.BUSY_TIMEOUT_MS
    engine.dispose()


def test_other_databases_are_refused_with_their_name():
    with pytest.raises(ValueError, match="not 'mysql'"):
        db.make_engine("mysql://u@h/db")


def test_database_url_order(tmp_path):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('[class]\ndata_dir = "/srv/x"\n')
    assert config.database_url({}, secrets_file=secrets) == "sqlite:////srv/x/class.sqlite3"
    assert config.database_url({"NDCG_LAB_DATA": "/d"}, secrets_file=secrets) == \
        "sqlite:////d/class.sqlite3"
    secrets.write_text('[class]\ndb_url = "postgresql+psycopg://a@b/c"\n')
    assert config.database_url({"NDCG_LAB_DATA": "/d"}, secrets_file=secrets) == \
        "postgresql+psycopg://a@b/c"
    assert config.database_url({}, secrets_file=tmp_path / "none") == \
        f"sqlite:///{Path('.data').resolve() / 'class.sqlite3'}"
    secrets.write_text("[class\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        config.database_url({}, secrets_file=secrets)


def test_default_data_folder_is_git_ignored():
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text().split()
    assert ".data/" in ignored


def test_join_codes_have_no_look_alikes_and_secrets_128_bits():
    assert not set("O0I1L") & set(codes.ALPHABET)
    for _ in range(200):
        assert re.fullmatch(f"[{codes.ALPHABET}]{{6}}", codes.new_code())
    secret = codes.new_secret()
    assert len(secret) >= 22  # 16 bytes of urlsafe base64
    assert codes.same_secret(secret, codes.digest(secret))
    assert not codes.same_secret(secret + "x", codes.digest(secret))


def test_teacher_secret_alone_controls_the_room(store):
    room, secret = store.create_room()
    assert store.teacher_room(room.code, secret).id == room.id
    student, token = store.join(room.code)
    for wrong in ("", token, secret[:-1], secret.upper()):
        with pytest.raises(ClassError) as e:
            store.open_question(room.code, wrong, "{}")
        assert e.value.what == "not_teacher"
    assert store.current(room.code) is None


def test_room_comes_back_from_a_new_store_on_the_same_database(url, clock):
    first = Store(db.open_engine(url), clock=clock)
    room, secret = first.create_room(lang="zh")
    _s, token = first.join(room.code, "Ann")
    rnd = first.open_question(room.code, secret, '{"q": 1}')
    first.submit(room.code, token, rnd.id, "0.5", correct=False, mistake="log_e")
    first.engine.dispose()  # the server "restarts"
    again = Store(db.open_engine(url), clock=clock)
    assert again.teacher_room(room.code, secret).lang == "zh"
    assert again.current(room.code) == rnd
    assert again.count(room.code) == (1, 1)
    assert [a.answer for a in again.answers(room.code)] == ["0.5"]
    again.engine.dispose()


def test_rooms_expire_and_are_purged_with_their_answers(store, clock):
    room, secret = store.create_room()
    _s, token = store.join(room.code)
    rnd = store.open_question(room.code, secret, "{}")
    store.submit(room.code, token, rnd.id, "1", correct=True)
    kept, _ = store.create_room(ttl=3 * DAY)
    clock.now += DAY
    for action in (lambda: store.join(room.code), lambda: store.current(room.code)):
        with pytest.raises(ClassError) as e:
            action()
        assert e.value.what == "expired"
    with pytest.raises(ClassError, match="not_teacher"):
        store.teacher_room(room.code, secret)
    assert store.purge() == 1
    with pytest.raises(ClassError, match="no_room"):
        store.current(room.code)
    with store.engine.connect() as conn:
        for table in (db.answers, db.rounds, db.students):
            assert conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() == 0
    assert store.room(kept.code).id == kept.id


def test_a_room_holds_a_bounded_number_of_students(store):
    room, _ = store.create_room(max_students=3)
    numbers = [store.join(room.code)[0].anon_id for _ in range(3)]
    assert numbers == ["S001", "S002", "S003"]
    with pytest.raises(ClassError) as e:
        store.join(room.code)
    assert e.value.what == "full" and "3 students" in e.value.message("en")


def test_one_answer_per_student_per_round_replaced_until_the_lock(store):
    room, secret = store.create_room()
    (_a, ta), (_b, tb) = store.join(room.code), store.join(room.code)
    rnd = store.open_question(room.code, secret, "{}")
    store.submit(room.code, ta, rnd.id, "0.8", correct=False, mistake="ideal_retrieved")
    store.submit(room.code, ta, rnd.id, "0.75", correct=True)
    assert store.count(room.code) == (1, 2)
    store.submit(room.code, tb, rnd.id, "0.7", correct=False)
    assert [(a.student, a.answer, a.correct) for a in store.answers(room.code, rnd.id)] == \
        [(1, "0.75", True), (2, "0.7", False)]
    store.lock(room.code, secret)
    with pytest.raises(ClassError, match="locked"):
        store.submit(room.code, ta, rnd.id, "0.1", correct=False)
    assert store.my_answer(room.code, ta, rnd.id).answer == "0.75"


def test_phases_open_locked_revealed_and_a_countdown(store, clock):
    room, secret = store.create_room()
    _s, token = store.join(room.code)
    with pytest.raises(ClassError, match="no_question"):
        store.submit(room.code, token, 1, "1", correct=True)
    rnd = store.open_question(room.code, secret, "{}")
    assert store.current(room.code).phase == "open"
    store.lock(room.code, secret, countdown=30)
    assert store.current(room.code).phase == "open"  # answers until the deadline
    clock.now += 29
    store.submit(room.code, token, rnd.id, "1", correct=True)
    clock.now += 1
    assert store.current(room.code).phase == "locked"
    with pytest.raises(ClassError, match="locked"):
        store.submit(room.code, token, rnd.id, "2", correct=False)
    assert store.reveal(room.code, secret).phase == "revealed"
    assert store.current(room.code).phase == "revealed"


def test_vote_again_keeps_both_rounds(store):
    room, secret = store.create_room()
    _s, token = store.join(room.code)
    first = store.open_question(room.code, secret, '{"q": "a"}')
    store.submit(room.code, token, first.id, "0.5", correct=False)
    store.reveal(room.code, secret)
    second = store.vote_again(room.code, secret)
    assert (second.question_no, second.round_no, second.phase) == (1, 2, "open")
    assert second.question == first.question
    assert store.count(room.code) == (0, 1)
    with pytest.raises(ClassError, match="moved_on"):
        store.submit(room.code, token, first.id, "0.6", correct=True)
    store.submit(room.code, token, second.id, "0.6", correct=True)
    assert [(r.round_no, r.phase) for r in store.rounds(room.code, 1)] == \
        [(1, "revealed"), (2, "open")]
    assert [(a.round_id, a.answer) for a in store.answers(room.code)] == \
        [(first.id, "0.5"), (second.id, "0.6")]
    nxt = store.open_question(room.code, secret, '{"q": "b"}')
    assert (nxt.question_no, nxt.round_no) == (2, 1)


def test_a_flood_is_refused_politely_and_others_still_answer(store, clock):
    room, secret = store.create_room()
    (_a, flood), (_b, calm) = store.join(room.code), store.join(room.code)
    rnd = store.open_question(room.code, secret, "{}")
    for i in range(RATE_SENDS):
        store.submit(room.code, flood, rnd.id, str(i), correct=False)
    with pytest.raises(ClassError) as e:
        store.submit(room.code, flood, rnd.id, "99", correct=False)
    assert e.value.what == "too_fast" and "wait a few seconds" in e.value.message("en")
    store.submit(room.code, calm, rnd.id, "1", correct=True)
    clock.now += RATE_WINDOW
    store.submit(room.code, flood, rnd.id, "5", correct=False)
    assert {a.answer for a in store.answers(room.code)} == {"5", "1"}


def test_nicknames_and_answers_are_stored_as_capped_plain_text(store):
    room, secret = store.create_room(names_on=True)
    student, token = store.join(room.code, "  [x](http://e.com)\n<b>" + "é" * 99)
    assert student.nickname == ("[x](http://e.com) <b>" + "é" * 99)[:MAX_NICKNAME]
    rnd = store.open_question(room.code, secret, "{}")
    store.submit(room.code, token, rnd.id, "9" * 999, correct=False)
    assert len(store.answers(room.code)[0].answer) == MAX_ANSWER


def test_a_student_token_is_bound_to_its_room(store):
    one, _ = store.create_room()
    two, secret2 = store.create_room()
    _s, token = store.join(one.code)
    rnd = store.open_question(two.code, secret2, "{}")
    with pytest.raises(ClassError, match="not_joined"):
        store.submit(two.code, token, rnd.id, "1", correct=True)
    with pytest.raises(ClassError, match="not_joined"):
        store.student(two.code, "made-up")


def test_sixty_students_answering_at_once_are_all_stored(url, clock):
    engine = db.open_engine(url)
    store = Store(engine, clock=clock)
    room, secret = store.create_room()
    tokens = [store.join(room.code)[1] for _ in range(60)]
    rnd = store.open_question(room.code, secret, "{}")
    errors = []

    def answer(token):
        try:
            store.submit(room.code, token, rnd.id, "0.5", correct=True)
        except Exception as e:  # noqa: BLE001 - collected and asserted empty below
            errors.append(e)
    threads = [threading.Thread(target=answer, args=(t,)) for t in tokens]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert store.count(room.code) == (60, 60)
    engine.dispose()


def test_every_refusal_reads_in_both_languages():
    from lab.i18n import catalog
    for what in ("no_room", "expired", "not_teacher", "full", "not_joined", "no_question",
                 "moved_on", "locked", "too_fast", "no_next"):
        en, zh = ClassError(what, n=3).message("en"), ClassError(what, n=3).message("zh")
        assert en and zh and en != zh
    assert catalog("zh")


def test_a_press_repeated_or_from_a_stale_screen_asks_nothing_twice(store):
    """Next question pressed on a screen showing no question yet, then the same press again
    (a rerun that repeats its button, or a second tab): the second one opens nothing and
    answers with the question it finds. Vote again likewise."""
    room, secret = store.create_room()
    first = store.open_question(room.code, secret, '{"q": "a"}', seen=None)
    assert store.open_question(room.code, secret, '{"q": "b"}', seen=None) == first
    assert [r.question_no for r in store.rounds(room.code)] == [1]
    again = store.vote_again(room.code, secret, seen=first.id)
    assert (again.question_no, again.round_no) == (1, 2)
    assert store.vote_again(room.code, secret, seen=first.id) == again
    nxt = store.open_question(room.code, secret, '{"q": "b"}', seen=again.id)
    assert (nxt.question_no, nxt.round_no) == (2, 1)
    assert store.current(room.code) == nxt
