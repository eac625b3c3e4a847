"""Two teacher tabs on one room in Chromium: a tab's first press counts after the other tab
moved the class on (its live view follows the room, and its buttons go by what it drew)."""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import RERUN_TIMEOUT_MS, open_app_on
from test_class_mode_browser import WORDS, press, server, start, teacher_page


def test_a_second_teacher_tab_is_heard_on_its_first_press(browser, tmp_path):
    """Tab A opens question 1 and votes again; tab B, open since before, shows round 2 by
    itself, and one press of its Vote again opens round 3 (it used to take two)."""
    w = WORDS["en"]
    with server({"NDCG_LAB_DATA": str(tmp_path)}, tmp_path) as (_proc, url):
        a = teacher_page(browser)
        try:
            _code, link = start(a, url, w, "en")
            b = a.context.new_page()  # the same browser: its cookie holds the teacher's key
            open_app_on(b, link)
            press(a, w["next"])
            press(a, w["again"])
            for tab in (a, b):  # B's live view follows without a press or a reload
                expect(tab.get_by_text("Round 2 · open", exact=True)).to_be_visible(
                    timeout=RERUN_TIMEOUT_MS)
            press(b, w["again"])
            for tab in (b, a):
                expect(tab.get_by_text("Round 3 · open", exact=True)).to_be_visible(
                    timeout=RERUN_TIMEOUT_MS)
        finally:
            a.context.close()
