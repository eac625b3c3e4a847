"""Class mode's page under a flood, a database fault and forged input (AppTest sessions on
one SQLite file): a sentence every time, never an uncaught exception."""

from __future__ import annotations

import sqlite3

from lab.classroom import codes
from test_class_mode import (click, count, join, open_page, send, start_class, submit_label,
                             teacher_key, texts)
from test_class_mode import database  # noqa: F401  (the fixture: a fresh database per test)
from ui import class_views


def press_join(page, code: str, nickname: str = ""):
    page.text_input(key="cl_code").input(code)
    if nickname:
        page.text_input(key="cl_nickname").input(nickname)
    page.button(key="FormSubmitter:cl_join_form-" + submit_label(page, "cl_join_form")) \
        .click().run()
    assert not page.exception
    return page


def test_one_tab_joining_again_and_again_is_refused_and_a_real_student_still_joins():
    """A tab joining again keeps its seat; a bot's tab that forgets its seat each time sends
    Join over and over: five seats, then "Too many joins"; the room keeps its seats and
    another phone joins at once."""
    teacher = start_class()
    code = teacher.query_params["room"]
    bot = open_page()
    for _ in range(2):
        bot.query_params.clear()  # back on the join form, in the same session
        press_join(bot.run(), code)
    assert class_views.store().room(code).students == 1
    for _ in range(8):
        bot.query_params.clear()
        bot.session_state[f"cl_me_{code}"] = ""  # its seat forgotten (a cookie refused)
        press_join(bot.run(), code)
    assert any("Too many joins" in e for e in texts(bot, "error"))
    assert class_views.store().room(code).students == 5
    join(code, "Ada")
    assert class_views.store().room(code).students == 6


def test_guessed_codes_are_limited_and_forged_links_read_a_sentence():
    """Ten codes that open no class, then "wait"; ``?room=%00&key=x`` and
    ``?join=%00&me=x`` read their refusal (no query reaches the database)."""
    guesser = open_page()
    for i in range(11):
        press_join(guesser, "ZZZZZ" + codes.ALPHABET[i])
    assert any("Too many codes that open no class" in e for e in texts(guesser, "error"))
    for params, words in (({"room": "\x00", "key": "x"}, "teacher link is not valid"),
                          ({"join": "\x00", "me": "x"}, "does not open a class"),
                          ({"join": "%00"}, "Join a class")):
        page = open_page(**params)
        assert not page.exception
        assert any(words in s for s in texts(page, "error") + texts(page, "header")), params


def test_a_locked_database_reads_busy_and_loses_no_answer(tmp_path):
    """Another process holds the SQLite file: the student's Send reads "busy — send again"
    (after the 5 s busy timeout), the page draws no exception; once the lock is gone the
    same Send goes through and the earlier answer is still counted."""
    teacher = start_class()
    code = teacher.query_params["room"]
    click(teacher, "next")
    ann, bob = join(code, "Ann"), join(code, "Bob")
    send(ann, "0.5")
    holder = sqlite3.connect(tmp_path / "class.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        send(bob, "0.6")
        assert any("database is busy" in e for e in texts(bob, "error"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    send(bob, "0.6")
    assert any("Sent:" in s for s in texts(bob, "success"))
    assert count(teacher.run()) == "2 of 2 answered"
    assert class_views.store().engine.pool.checkedout() == 0


def test_a_refused_answer_is_never_a_link_and_a_crafted_arrange_state_reads_a_sentence():
    teacher = start_class()
    code = teacher.query_params["room"]
    click(teacher, "next")
    student = join(code)
    send(student, "[click](http://ev.il/a)")
    error = texts(student, "error")[0]
    assert r"\[click\]\(http\:" in error and "](http" not in error
    send(student, "![t](http://ev.il/p.png)")
    assert "![" not in texts(student, "error")[0]

    teacher.text_input(key="cl_own").input("http://x/?g=1,3,2&l=a&l=b&l=c&k=2")
    teacher.selectbox(key="cl_own_kind").set_value("arrange")
    click(teacher, "own")
    student.run()
    rid = next(b.key for b in student.button if b.key.startswith("cl_send"))[len("cl_send"):]
    for crafted in ({"order": 5}, ["i0"], {"order": ["i9", "i1", "i0"]}):
        student.session_state[f"cl_answer{rid}"] = crafted
        student.button(key=f"cl_send{rid}").click().run()
        assert not student.exception and texts(student, "error"), crafted
    assert count(teacher.run()) == "0 of 1 answered"


def test_the_teacher_removes_a_student_raises_the_cap_and_replaces_the_link():
    teacher = start_class()
    code = teacher.query_params["room"]
    old = teacher_key(teacher)
    click(teacher, "next")
    bot = join(code, "bot")
    send(bot, "0.1")
    join(code, "Ada")
    teacher.run()
    teacher.select_slider(key="cl_range").set_range(1, 1)
    click(teacher, "pick_range")  # a burst of bots: consecutive ids, picked at once
    assert teacher.multiselect(key="cl_remove").value == [1]
    click(teacher, "remove")
    assert any("Removed 1" in s for s in texts(teacher, "success"))
    assert count(teacher) == "0 of 1 answered"
    assert any("does not open a class" in e for e in texts(bot.run(), "error"))
    teacher.number_input(key="cl_cap").set_value(400)
    click(teacher, "cap")
    assert class_views.store().room(code).max_students == 400
    click(teacher, "relink")
    assert teacher_key(teacher) != old and "key" not in teacher.query_params
    assert any("teacher link is replaced" in s for s in texts(teacher, "success"))
    assert count(teacher.run()) == "0 of 1 answered"  # this tab keeps the room
    stale = open_page(room=code, key=old)
    assert any("replaced by a new one" in e for e in texts(stale, "error"))


def test_a_second_teacher_tab_is_heard_on_its_first_press():
    """Two tabs on one room: after tab A moves on, tab B's live view follows, and B's first
    Vote again opens round 2 (it used to be ignored as a stale press)."""
    a = start_class()
    code, key = a.query_params["room"], teacher_key(a)
    b = open_page(room=code, key=key)
    click(a, "next")
    b.run()  # its page reruns (the live view every second does the same)
    store = class_views.store()
    first = store.current(code).id
    click(a, "again")
    second = store.current(code).id
    assert second != first
    # what B's live view (a fragment AppTest does not rerun alone) records a second later
    b.session_state["cl_seen"] = second
    click(b, "again")
    assert store.current(code).round_no == 3
