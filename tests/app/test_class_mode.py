"""Class mode under AppTest: a teacher's and students' sessions sharing one SQLite database
(each AppTest is its own session, as each browser tab is)."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest

from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import exercises as X
from lab import mistakes as M
from lab.classroom import kinds, questions as Q
from lab.classroom.bank import BANK
from lab.i18n import t
from lab.text import escape_markdown
from ui import class_views

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/class.py"


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """A fresh database folder per test; the page's one engine per process is opened anew."""
    monkeypatch.setenv("NDCG_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DB_URL", raising=False)
    class_views.store.clear()
    yield
    class_views.watch().stop()
    class_views.store().engine.dispose()
    class_views.store.clear()


def open_page(lang="en", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if lang != "en":
        at.query_params["lang"] = lang
    at.run()  # app.py first (a fresh process routes through it once), then the page
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(PAGE).run()


def start_class(lang="en") -> AppTest:
    teacher = open_page(lang)
    teacher.button(key="cl_start").click().run()
    assert not teacher.exception
    return teacher


def teacher_key(teacher: AppTest) -> str:
    """The room's key as the teacher's session holds it (never in the address bar)."""
    return teacher.session_state[f"cl_key_{teacher.query_params['room']}"]


def join(code: str, nickname: str = "", lang="en") -> AppTest:
    student = open_page(lang, join=code)
    assert student.text_input(key="cl_code").value == code
    if nickname:
        student.text_input(key="cl_nickname").input(nickname)
    student.button(key="FormSubmitter:cl_join_form-" + submit_label(student, "cl_join_form")) \
        .click().run()
    assert not student.exception and student.query_params["me"]
    return student


def submit_label(at: AppTest, form: str) -> str:
    return next(b.key for b in at.button if b.key.startswith(f"FormSubmitter:{form}")) \
        .split("-", 1)[1]


def send(student: AppTest, text: str) -> AppTest:
    answer = next(w for w in student.text_input if w.key.startswith("cl_answer"))
    answer.input(text)
    next(b for b in student.button if b.key.startswith("FormSubmitter:cl_form")).click().run()
    assert not student.exception
    return student


def click(teacher: AppTest, action: str) -> AppTest:
    teacher.button(key=f"cl_do_{action}").click().run()
    assert not teacher.exception
    return teacher


def count(teacher: AppTest) -> str:
    return teacher.metric[0].value


def texts(at: AppTest, kind: str) -> list[str]:
    return [e.value for e in getattr(at, kind)]


def test_the_whole_loop_predict_lock_reveal_vote_again_and_export():
    """A teacher opens the first question, two students answer, the count follows, the
    reveal names the right answer and the mistake, and the export has both rounds."""
    teacher = start_class()
    code = teacher.query_params["room"]
    assert len(code) == 6 and f"/class?join={code}" in texts(teacher, "code")[0]
    assert teacher.get("imgs") or teacher.get("image")  # the QR code
    click(teacher, "next")
    assert count(teacher) == "0 of 0 answered"
    assert BANK[0].kind == "predict" and "What is NDCG@6" in teacher.markdown[1].value

    ann, bob = join(code, "Ann"), join(code)
    right = f"{nc.ndcg([3, 2, 3, 0, 1, 2], k=6):.3f}"
    wrong = f"{M.mistaken_values([3, 2, 3, 0, 1, 2], k=6)['rank_from_zero']:.3f}"
    for bad in ("", "1,5", "abc", "1e400"):
        send(ann, bad)
        assert texts(ann, "error"), bad
    assert count(teacher.run()) == "0 of 2 answered"  # nothing stored for a bad answer
    send(ann, right)
    send(bob, wrong)
    assert any("Sent: " + right in s for s in texts(ann, "success"))
    assert count(teacher.run()) == "2 of 2 answered"

    click(teacher, "lock")
    send(bob, right)
    assert any("locked" in e for e in texts(bob, "error"))
    click(teacher, "reveal")
    assert any(right in s for s in texts(teacher, "success"))
    assert len(teacher.get("plotly_chart")) == 1
    ann.run()
    bob.run()
    assert any("Right!" in s for s in texts(ann, "success"))
    assert any(wrong in e and right in e for e in texts(bob, "error"))
    assert any(M.name("rank_from_zero", "en") in w for w in texts(bob, "warning"))

    click(teacher, "again")
    assert count(teacher) == "0 of 2 answered"
    send(bob.run(), right)
    click(teacher, "reveal")
    assert len(teacher.get("plotly_chart")) == 2  # the two rounds side by side
    assert len(teacher.get("download_button")) == 2  # the answers and the summary
    rows = list(csv.DictReader(io.StringIO(_export(code))))
    assert [(r["student"], r["round"], r["right"], r["mistake_key"]) for r in rows] == [
        ("S001", "1", "yes", ""), ("S002", "1", "no", "rank_from_zero"),
        ("S002", "2", "yes", "")]
    # in words: the mistake as the app names it, the ranking, when each answer came
    assert rows[1]["mistake"] == M.name("rank_from_zero", "en")
    assert rows[0]["ranking"] == "Doc A (3), Doc B (2), Doc C (3), Doc D (0), Doc E (1), Doc F (2)"
    assert all(r["sent_at_utc"][:2] == "20" and float(r["seconds_after_open"]) >= 0
               for r in rows)
    assert "nickname" not in rows[0] and "Ann" not in _export(code)


def _export(code: str) -> str:
    from lab.classroom import report
    store = class_views.store()
    return report.export_csv(store.room(code), store.rounds(code), store.answers(code))


def test_reopening_the_teacher_link_brings_the_room_back():
    """The address bar holds the room's code, never its key, and the page draws the
    teacher's link only when *Show the link* is turned on; a closed tab: that link opens the
    same room, question and count."""
    teacher = start_class()
    code = teacher.query_params["room"]
    assert "key" not in teacher.query_params
    assert not [c for c in texts(teacher, "code") if "key=" in c]
    teacher.toggle(key="cl_show_link").set_value(True).run()
    link = next(c for c in texts(teacher, "code") if "key=" in c)
    click(teacher, "next")
    send(join(code), "0.5")
    again = open_page(room=code, key=link.split("key=")[1])
    assert count(again) == "1 of 1 answered"
    assert "Question 1" in again.header[0].value
    assert "key" not in again.query_params


def test_a_student_never_sees_the_teachers_controls_and_a_wrong_key_is_refused():
    teacher = start_class()
    code = teacher.query_params["room"]
    student = join(code)
    assert not [b for b in student.button if b.key.startswith("cl_do_")]
    forged = open_page(room=code, key=student.query_params["me"])
    assert texts(forged, "error") and "key" not in forged.query_params and not [b for b in forged.button
                                           if b.key.startswith("cl_do_")]
    unknown = open_page(join="ZZZZZZ")
    unknown.text_input(key="cl_code").input("ZZZ-ZZZ")
    unknown.button(key="FormSubmitter:cl_join_form-Join").click().run()
    assert any("No class has this code" in e for e in texts(unknown, "error"))


def test_a_nickname_is_shown_as_plain_text():
    teacher = start_class()
    nickname = "[x](http://e.com) **b**"
    student = join(teacher.query_params["room"], nickname)
    caption = texts(student, "caption")[0]
    # every Markdown sign escaped, and a word joiner inside "http://" (no autolink)
    assert escape_markdown(nickname) in caption
    assert r"\[x\]\(http\:" in caption and r"//e\.com\) \*\*b\*\*" in caption


def test_the_class_in_chinese():
    """The same loop in Chinese: buttons, count and messages in Chinese."""
    teacher = start_class("zh")
    assert teacher.button(key="cl_do_next").label == "下一个问题"
    click(teacher, "next")
    student = join(teacher.query_params["room"], lang="zh")
    send(student, "abc")
    assert "不是数字" in texts(student, "error")[0] or texts(student, "error")
    send(student, f"{nc.ndcg([3, 2, 3, 0, 1, 2], k=6):.3f}")
    assert count(teacher.run()) == "1 人中已有 1 人作答"
    click(teacher, "reveal")
    assert any("答对了" in s for s in texts(student.run(), "success"))


def test_choose_then_an_arrange_question_of_the_teachers_own():
    """Next question twice reaches the bank's choose question; a share link asked as an
    arrange question is answered by the order the student's table reports."""
    teacher = start_class()
    code = teacher.query_params["room"]
    click(click(teacher, "next"), "next")
    assert "Question 2 · Choose" in teacher.header[0].value
    student = join(code)
    choice = next(w for w in student.radio if w.key.startswith("cl_answer"))
    assert choice.label == "Your answer" and len(choice.options) == len(BANK[1].options)
    wrong = next(i for i, (_, key) in enumerate(BANK[1].options) if key)
    choice.set_value("ABCD"[wrong])
    next(b for b in student.button if b.key.startswith("FormSubmitter:cl_form")).click().run()
    click(teacher, "reveal")
    student.run()
    assert any(M.name(BANK[1].options[wrong][1], "en") in w for w in texts(student, "warning"))

    teacher.text_input(key="cl_own").input("http://x/?g=1,3,2&l=a&l=b&l=c&k=2")
    teacher.selectbox(key="cl_own_kind").set_value("arrange")
    click(teacher, "own")
    assert "Question 3 · Arrange" in teacher.header[0].value
    student.run()
    rid = next(b.key for b in student.button if b.key.startswith("cl_send"))[len("cl_send"):]
    student.session_state[f"cl_answer{rid}"] = {"order": ["i1", "i2", "i0"]}
    student.button(key=f"cl_send{rid}").click().run()
    assert not student.exception
    assert any("b, c, a" in s for s in texts(student, "success"))
    assert count(teacher.run()) == "1 of 1 answered"
    click(teacher, "reveal")
    assert any("Right!" in s for s in texts(student.run(), "success"))


def test_names_on_reach_the_reveal_and_the_export_and_a_countdown_locks_later():
    """Names are off by default; turned on, the reveal and the export show them. A countdown
    keeps the round open, with the seconds left, until its deadline."""
    teacher = start_class()
    code = teacher.query_params["room"]
    click(teacher, "next")
    student = join(code, "Ann")
    send(student, "0.5")
    assert "Ann" not in _export(code)
    teacher.toggle(key="cl_names").set_value(True).run()
    teacher.number_input(key="cl_countdown").set_value(60).run()
    click(teacher, "lock")
    assert any("Answers lock in" in w for w in texts(teacher, "warning"))
    send(student.run(), f"{nc.ndcg([3, 2, 3, 0, 1, 2], k=6):.3f}")  # still open
    assert any("Sent:" in s for s in texts(student, "success"))
    click(teacher, "reveal")
    assert "Ann" in [v for df in teacher.dataframe for v in df.value.iloc[:, 0].tolist()]
    rows = list(csv.DictReader(io.StringIO(_export(code))))
    assert rows[0]["nickname"] == "Ann" and rows[0]["right"] == "yes"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_choose_sent_with_nothing_picked_is_refused_and_the_options_are_on_the_projector(lang):
    """On the bank's Choose question the teacher's screen lists every option with its letter;
    a student who presses Send with nothing picked reads a message and nothing is counted."""
    teacher = start_class(lang)
    code = teacher.query_params["room"]
    click(click(teacher, "next"), "next")
    shown = texts(teacher, "subheader")
    assert [f"{letter} · {v:.3f}" for letter, (v, _) in zip("ABCD", BANK[1].options)] == \
        [s for s in shown if " · " in s]
    student = join(code, lang=lang)
    next(b for b in student.button if b.key.startswith("FormSubmitter:cl_form")).click().run()
    # a refused answer's message is shown escaped (it may quote what was typed)
    assert texts(student, "error") == [escape_markdown(t("Pick one of {letters}.", lang,
                                                         letters="A, B, C, D"))]
    assert not texts(student, "success")
    total = {"en": "0 of 1 answered", "zh": "1 人中已有 0 人作答"}[lang]
    assert count(teacher.run()) == total


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_join_screen_says_which_address_phones_open_and_who_has_joined(lang):
    """Before the first question: one line naming the address in the join link and how to
    change it, and "0 joined" (then "1 joined"); a join link never names localhost when
    this machine has a network address."""
    from lab import address

    teacher = start_class(lang)
    link = next(c for c in texts(teacher, "code") if "join=" in c)
    notes = [s for s in texts(teacher, "caption") + texts(teacher, "warning")
             if "NDCG_LAB_PUBLIC_URL" in s]
    assert len(notes) == 1 and link.split("/class?")[0] in notes[0]
    assert ("手机" in notes[0]) == (lang == "zh")
    if address.network_addresses():
        assert "localhost" not in link
    assert count(teacher) == t("{n} joined", lang, n=0)
    join(teacher.query_params["room"], lang=lang)
    assert count(teacher.run()) == t("{n} joined", lang, n=1)


def test_a_waiting_phone_reads_the_room_from_memory():
    """A phone's page drawn again while nothing changed reads the question and its own answer
    from the server's memory (one reading a server makes for every room): no query of the
    rounds or the answers. After the teacher's next press it shows the new round."""
    import threading

    import sqlalchemy as sa
    teacher = start_class()
    code = teacher.query_params["room"]
    click(teacher, "next")
    student = send(join(code), "0.5")
    asked = []

    def record(_conn, _cursor, statement, *_):
        if threading.current_thread().name != "class-room-watch":
            asked.append(statement)
    engine = class_views.store().engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        student.run()
        assert any(a.startswith("Sent: 0.5") for a in texts(student, "success"))
        assert not [q for q in asked if "class_rounds" in q or "class_answers" in q]
        click(teacher, "again")
        student.run()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert any("round 2" in m.value for m in student.markdown)


class DcgToy(kinds.Kind):
    """A question kind of this test's own: "What is DCG@k?", typed; DCG summed past the
    cutoff is the mistake it names. Nothing in the app knows it."""

    name = "dcg_toy"
    style = "value"

    def label(self, lang):
        return "DCG"

    def prompt(self, q, lang):
        return f"What is DCG@{q.k} of this ranking?"

    def grade(self, q, text, lang):
        given = X.parse(text, lang=lang)  # "", "abc", "1e400": refused with a message
        right = abs(given - nc.dcg(list(q.grades), k=q.k)) <= 0.001
        whole = abs(given - nc.dcg(list(q.grades))) <= 0.001
        return Q.Graded(f"{given:.3f}", right, "cutoff_ignored" if whole and not right else None)

    def right_answer(self, q):
        return f"{nc.dcg(list(q.grades), k=q.k):.3f}"


@pytest.fixture
def toy_kind():
    kinds.register(DcgToy())
    yield "dcg_toy"
    kinds.unregister("dcg_toy")


def test_a_kind_registered_in_one_place_is_asked_answered_revealed_and_exported(toy_kind):
    """A kind added by registering one class: the teacher's menu offers it, the phones
    answer it (an empty or unreadable answer refused, nothing counted), the reveal draws its
    bars and names the mistake, and the CSV says its kind."""
    teacher = start_class()
    code = teacher.query_params["room"]
    assert "DCG" in teacher.selectbox(key="cl_own_kind").options  # its label
    teacher.text_input(key="cl_own").input("http://x/?g=3,1,2&k=2")
    teacher.selectbox(key="cl_own_kind").set_value(toy_kind)
    click(teacher, "own")
    assert "Question 1 · DCG" in teacher.header[0].value
    assert "What is DCG@2 of this ranking?" in texts(teacher, "markdown")
    ann, bob, cy = join(code), join(code), join(code)
    assert any("What is DCG@2" in m for m in texts(ann, "markdown"))
    for bad in ("", "abc"):
        send(ann, bad)
        assert texts(ann, "error"), bad
    right = f"{3 + 1 / math.log2(3):.3f}"  # grades 3, 1 at ranks 1, 2
    whole = f"{3 + 1 / math.log2(3) + 2 / math.log2(4):.3f}"  # and 2 at rank 3
    send(ann, right)
    send(bob, whole)
    send(cy, "1")
    assert count(teacher.run()) == "3 of 3 answered"
    click(teacher, "reveal")
    # its answers are escaped as Markdown by default (3\.631 reads 3.631)
    assert any(escape_markdown(right) in s for s in texts(teacher, "success"))
    assert len(teacher.get("plotly_chart")) == 1
    assert any(M.name("cutoff_ignored", "en") in m for m in texts(teacher, "markdown"))
    assert any("Right!" in s for s in texts(ann.run(), "success"))
    assert any(M.name("cutoff_ignored", "en") in w for w in texts(bob.run(), "warning"))
    rows = list(csv.DictReader(io.StringIO(_export(code))))
    assert {r["kind"] for r in rows} == {"dcg_toy"}
    assert [r["right"] for r in rows] == ["yes", "no", "no"]


def test_every_answer_style_a_kind_may_name_has_a_renderer():
    """A kind's style is drawn by ui/class_kinds.py: the two lists cannot drift apart."""
    from ui import class_kinds

    assert set(class_kinds.ANSWER) == set(kinds.STYLES)
    assert {k.style for k in kinds.KINDS.values()} <= set(kinds.STYLES)
