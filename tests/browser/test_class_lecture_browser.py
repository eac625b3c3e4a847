"""Class mode as a lecture needs it, in Chromium: a teacher at 1280x720 (a projector), phones
at 390x844 (touch). What stopped a lecture: an empty Choose answer stored and counted, the
Choose options missing from the projector."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import RERUN_TIMEOUT_MS
from test_class_mode_browser import WORDS, button, count_is, join, phone, press, server, \
    start, teacher_page

from lab.classroom.bank import BANK
from lab.i18n import t

CHOOSE = BANK[1]  # the bank's second question: Choose, four options


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_choose_shows_its_options_on_the_projector_and_refuses_send_with_nothing_picked(
        browser, tmp_path, lang):
    """The teacher's screen lists A, B, C, D with their values; a phone pressing Send with
    nothing picked reads "Pick one of A, B, C, D." and the count stays 0 of 1."""
    w = WORDS[lang]
    with server({"NDCG_LAB_DATA": str(tmp_path)}, tmp_path) as (_proc, url):
        teacher, ann = teacher_page(browser), phone(browser)
        code, _link = start(teacher, url, w, lang)
        join(ann, url, code, w, lang)
        press(teacher, w["next"])
        press(teacher, w["next"])
        for letter, (v, _key) in zip("ABCD", CHOOSE.options):
            expect(teacher.get_by_text(f"{letter} · {v:.3f}", exact=True)).to_be_visible()
        expect(button(ann, w["send"])).to_be_visible(timeout=RERUN_TIMEOUT_MS)
        press(ann, w["send"], tap=True)
        expect(ann.get_by_text(t("Pick one of {letters}.", lang, letters="A, B, C, D"),
                               exact=True)).to_be_visible()
        count_is(teacher, w, 0, 1)
        teacher.context.close()
        ann.context.close()
