"""Class mode as a lecture needs it, in Chromium: a teacher at 1280x720 (a projector), phones
at 390x844 (touch). What stopped a lecture: an empty Choose answer stored and counted, the
Choose options missing from the projector, a join link naming the teacher's own address, the
teacher's key in the address bar, and a phone reopening the join link joining again."""

from __future__ import annotations

import os
import signal

import pytest
from playwright.sync_api import expect

from conftest import RERUN_TIMEOUT_MS, open_app_on, wait_idle_on
from test_class_mode_browser import RIGHT, WORDS, answer, button, count_is, join, phone, \
    press, server, teacher_page

from lab import mistakes as M
from lab.classroom import db, questions as Q
from lab.classroom.bank import BANK
from lab.classroom.store import Store
from lab.i18n import t

CHOOSE = BANK[1]  # the bank's second question: Choose, four options
PUBLIC = "https://ndcg.example.org"
# a named mistake's value on the bank's first question (ranks counted from zero)
WRONG = f"{M.mistaken_values([3, 2, 3, 0, 1, 2], k=6, gain='linear')['rank_from_zero']:.3f}"  # what a deployment behind a proxy states


def start(teacher, url: str, w: dict, lang: str) -> str:
    """Start a class; the room's code (the address bar names the room, not its key)."""
    open_app_on(teacher, f"{url}/class?lang={lang}")
    press(teacher, w["start"])
    teacher.wait_for_url("**/class?room=*")
    return teacher.url.split("room=")[1].split("&")[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_choose_shows_its_options_on_the_projector_and_refuses_send_with_nothing_picked(
        browser, tmp_path, lang):
    """The teacher's screen lists A, B, C, D with their values; a phone pressing Send with
    nothing picked reads "Pick one of A, B, C, D." and the count stays 0 of 1."""
    w = WORDS[lang]
    with server({"NDCG_LAB_DATA": str(tmp_path)}, tmp_path) as (_proc, url):
        teacher, ann = teacher_page(browser), phone(browser)
        code = start(teacher, url, w, lang)
        join(ann, url, code, w, lang)
        press(teacher, w["next"])
        press(teacher, w["next"])
        for letter, (v, _key) in zip("ABCD", CHOOSE.options):
            expect(teacher.get_by_text(f"{letter} · {v:.3f}", exact=True)).to_be_visible()
        # the phone has the Choose question (not question 1's Send, before its next poll)
        expect(ann.get_by_role("radiogroup", name=w["answer"])).to_be_visible(
            timeout=RERUN_TIMEOUT_MS)
        press(ann, w["send"], tap=True)
        expect(ann.get_by_text(t("Pick one of {letters}.", lang, letters="A, B, C, D"),
                               exact=True)).to_be_visible()
        count_is(teacher, w, 0, 1)
        teacher.context.close()
        ann.context.close()


def copy_teacher_link(teacher, url: str, lang: str) -> str:
    """Unfold *Your teacher link*, press *Copy the teacher link*; the link the clipboard
    got, read by another page of the same browser (the test's browser lets its pages write
    and read it)."""
    teacher.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    teacher.get_by_text(t("Your teacher link (keep it private)", lang), exact=True).click()
    teacher.get_by_role("button", name=t("Copy the teacher link", lang), exact=True).click()
    expect(teacher.get_by_text(t("Copied: paste it somewhere only you can see.", lang),
                               exact=True)).to_be_visible()
    reader = teacher.context.new_page()
    try:
        reader.goto(f"{url}/_stcore/health")
        return reader.evaluate("navigator.clipboard.readText()")
    finally:
        reader.close()


# A page without the clipboard API, as one on a plain-http network address (not localhost)
NO_CLIPBOARD_API_JS = """Object.defineProperty(Navigator.prototype, "clipboard",
                                              {get: () => undefined, configurable: true});"""


def expect_not_on_screen(teacher, secret: str) -> None:
    """``secret`` is in no text of the page, in its markup, or in the address bar."""
    assert secret not in teacher.url
    assert secret not in teacher.locator("body").inner_text()
    assert secret not in teacher.content()
    expect(teacher.get_by_text(secret, exact=False)).to_have_count(0)  # shadow roots too


def test_the_join_link_names_the_public_address_the_key_is_copied_unseen_and_a_phone_stays_one_student(
        browser, tmp_path):
    """The join link and its note name the configured public address, not 127.0.0.1; the
    address bar holds the room, never its key, and *Copy the teacher link* puts the link on
    the clipboard without showing it; a phone reopening the join link is still S001
    ("1 joined"); while the server is down the phone says the class is reconnecting (not
    Streamlit's developer dialog); after the restart the phone is S001 again and the copied
    link, opened in another browser, brings the teacher's room back."""
    w = WORDS["en"]
    env = {"NDCG_LAB_DATA": str(tmp_path), "NDCG_LAB_PUBLIC_URL": PUBLIC}
    teacher, ann = teacher_page(browser), phone(browser)
    with server(env, tmp_path) as (proc, url):
        code = start(teacher, url, w, "en")
        assert "key=" not in teacher.url
        expect(teacher.get_by_text(f"{PUBLIC}/class?join={code}", exact=True)).to_be_visible()
        expect(teacher.get_by_text(f"Phones open {PUBLIC}", exact=False)).to_be_visible()
        link = copy_teacher_link(teacher, url, "en")
        assert link.startswith(f"{url}/class?room={code}&key="), link
        expect_not_on_screen(teacher, link.split("key=")[1])
        join(ann, url, code, w, "en")
        again = ann.context.new_page()  # the QR code scanned again: a new tab, same browser
        open_app_on(again, f"{url}/class?join={code}")
        expect(again.get_by_text(f"You are S001 in class {code}.")).to_be_visible()
        expect(button(again, w["join"])).to_have_count(0)
        again.close()
        expect(teacher.get_by_text("1 joined", exact=True)).to_be_visible(
            timeout=RERUN_TIMEOUT_MS)
        os.killpg(proc.pid, signal.SIGKILL)  # a restart, however the server ended
        proc.wait(timeout=20)
        # the phone, meanwhile: the class's own words, not Streamlit's developer dialog
        expect(ann.get_by_text("The class is reconnecting", exact=False)).to_be_visible(
            timeout=60_000)
        expect(ann.get_by_text("Streamlit server is not responding")).to_be_hidden()
        expect(ann.get_by_text("Is Streamlit still running", exact=False)).to_be_hidden()
    teacher.context.close()
    with server(env, tmp_path) as (_proc, url2):
        open_app_on(ann, f"{url2}/class?join={code}")
        expect(ann.get_by_text(f"You are S001 in class {code}.")).to_be_visible()
        elsewhere = teacher_page(browser)  # no cookie of the room: the link alone opens it
        open_app_on(elsewhere, link.replace(url, url2))
        assert "key=" not in elsewhere.url
        press(elsewhere, w["next"])
        count_is(elsewhere, w, 0, 1)
        elsewhere.context.close()
    ann.context.close()


def test_in_chinese_the_address_note_the_hidden_teacher_link_and_one_student_per_phone(
        browser, tmp_path):
    """中文, at 1280x720: the join QR code lies whole on the first screen; the note says which
    address the phones open (手机打开 https://…); the address bar holds the room, not its key;
    复制教师链接 copies the link unseen (on a page without the clipboard API, as a plain-http
    network address is) and 显示链接 shows it; a phone that reopens the join
    link is still S001 (你是课堂 … 中的 S001。), with no 加入 button, the teacher reads
    已加入 1 人, and the phone's reconnecting line (shown only while the server is out of
    reach) is in Chinese."""
    w = WORDS["zh"]
    env = {"NDCG_LAB_DATA": str(tmp_path), "NDCG_LAB_PUBLIC_URL": PUBLIC}
    teacher, ann = teacher_page(browser), phone(browser)
    teacher.add_init_script(NO_CLIPBOARD_API_JS)  # the copy from an off-screen text box
    with server(env, tmp_path) as (_proc, url):
        code = start(teacher, url, w, "zh")
        qr = teacher.get_by_role("img").first  # the join QR code
        expect(qr).to_be_visible()
        box = qr.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720, box
        expect(teacher.get_by_text(t("Phones open {url}: the public address set in "
                                     "NDCG_LAB_PUBLIC_URL or [class] public_url.", "zh",
                                     url=PUBLIC), exact=True)).to_be_visible()
        link = copy_teacher_link(teacher, url, "zh")
        secret = link.split("key=")[1]
        expect_not_on_screen(teacher, secret)
        teacher.get_by_text(t("Show the link", "zh"), exact=True).click()
        expect(teacher.get_by_text(link, exact=True)).to_be_visible()
        join(ann, url, code, w, "zh")
        open_app_on(ann, f"{url}/class?join={code}&lang=zh")  # the QR code scanned again
        expect(ann.get_by_text(t("You are {id} in class {code}.", "zh", id="S001",
                                 code=code), exact=True)).to_be_visible()
        expect(button(ann, w["join"])).to_have_count(0)
        expect(ann.get_by_text(t("The class is reconnecting… Keep this page open: it comes "
                                 "back by itself, and your answers are kept.", "zh"),
                               exact=True)).to_be_attached()
        expect(teacher.get_by_text(t("{n} joined", "zh", n=1), exact=True)).to_be_visible(
            timeout=RERUN_TIMEOUT_MS)
    for page in (teacher, ann):
        page.context.close()


SIZES_JS = """() => {
  const px = (e) => e ? parseFloat(getComputedStyle(e).fontSize) : 0;
  const live = document.querySelector(".st-key-cl_live");
  const prompt = live.querySelector(".st-key-cl_question [data-testid='stMarkdownContainer'] p");
  const main = document.querySelector("[data-testid='stMainBlockContainer']");
  const buttons = [...main.querySelectorAll("button p")]
    .filter((p) => p.checkVisibility() && p.textContent.trim()).map(px)
    .concat([...main.querySelectorAll("*")].filter((e) => e.shadowRoot)  // Copy the link
      .flatMap((e) => [...e.shadowRoot.querySelectorAll("button")]).map(px));
  const count = live.querySelector("[data-testid='stMetricValue']");
  const ticks = [...live.querySelectorAll(".xtick text, .ytick text")].map(px);
  return {prompt: px(prompt), buttons, count: px(count), ticks};
}"""
BOTTOMS_JS = """() => {
  const live = document.querySelector(".st-key-cl_live");
  const bottom = (e) => e ? e.getBoundingClientRect().bottom : null;
  return {chart: bottom(live.querySelector("[data-testid='stPlotlyChart']")),
          right: bottom(live.querySelector("[data-testid='stAlertContentSuccess']")),
          mistakes: bottom(live.querySelector("[class*='st-key-cl_mistakes'] li:nth-child(3)")),
          ranking: bottom(live.querySelector("[data-testid='stDataFrame']")),
          scrolled: document.querySelector("[data-testid='stMain']").scrollTop};
}"""


def test_the_presenter_view_sizes_the_class_for_a_room_and_the_reveal_fits_720_lines(
        browser, tmp_path):
    """?present=1 at 1280x720: the question's text 24 px or more, the buttons (Copy the
    teacher link's too) 18 px, the count 36 px; revealed, the chart's ticks 16 px, and the
    chart, the right answer, the mistakes and the ranking all above 720 px without
    scrolling; Next question, pressed further down the page, shows the new question from
    the top; a Which-is-higher reveal keeps both rankings above 720 px."""
    w = WORDS["en"]
    with server({"NDCG_LAB_DATA": str(tmp_path)}, tmp_path) as (_proc, url):
        teacher, ann = teacher_page(browser), phone(browser)
        open_app_on(teacher, f"{url}/class?lang=en&present=1")
        press(teacher, w["start"])
        teacher.wait_for_url("**/class?room=*")
        code = teacher.url.split("room=")[1].split("&")[0]
        press(teacher, w["next"])
        join(ann, url, code, w, "en")
        answer(ann, RIGHT, w)
        # three more students, each with another wrong value, straight into the database
        store = Store(db.open_engine(f"sqlite:///{tmp_path / 'class.sqlite3'}"))
        rnd = store.current(code)
        for typed in ("0.5", WRONG, "0.7"):
            graded = Q.grade(BANK[0], typed)
            _s, token = store.join(code)
            store.submit(code, token, rnd.id, graded.answer, correct=graded.correct,
                         mistake=graded.mistake)
        store.engine.dispose()
        count_is(teacher, w, 4, 4)
        sizes = teacher.evaluate(SIZES_JS)
        print(sizes)
        assert sizes["prompt"] >= 24 and min(sizes["buttons"]) >= 18, sizes
        assert sizes["count"] >= 36, sizes
        press(teacher, w["reveal"])
        expect(teacher.locator(".st-key-cl_live [data-testid='stPlotlyChart'] .xtick")
               .first).to_be_visible(timeout=RERUN_TIMEOUT_MS)
        wait_idle_on(teacher)
        sizes, bottoms = teacher.evaluate(SIZES_JS), teacher.evaluate(BOTTOMS_JS)
        print(sizes, bottoms)
        assert sizes["ticks"] and min(sizes["ticks"]) >= 16, sizes
        assert all(b is not None and b <= 720 for b in bottoms.values()), bottoms
        # Next question, pressed with the page scrolled down: the new question from its top
        teacher.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 400)")
        press(teacher, w["next"])
        expect(teacher.get_by_text("Question 2 · Choose")).to_be_visible()
        teacher.wait_for_function(
            "document.querySelector('[data-testid=stMain]').scrollTop === 0")
        # Which is higher, revealed: both rankings (one above the other) on the first screen
        press(teacher, w["next"])
        press(teacher, w["reveal"])
        tables = teacher.locator(".st-key-cl_live [data-testid='stDataFrame']")
        expect(tables).to_have_count(2, timeout=RERUN_TIMEOUT_MS)
        expect(teacher.locator(".st-key-cl_live [data-testid='stPlotlyChart']")).to_be_visible()
        wait_idle_on(teacher)
        assert tables.last.bounding_box()["y"] + tables.last.bounding_box()["height"] <= 720
        for page in (teacher, ann):
            page.context.close()
