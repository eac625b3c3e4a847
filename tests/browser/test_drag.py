"""One set of drag tests for every list built on the shared drag core (ui/ranking_table/drag.js):
the ranking table (its demo), the sortable list (its demo) and class mode's Arrange question
on a student's page. Each is moved the four ways a learner can move a row — the mouse, a
finger on the grip (at once), a finger held on the row (press-and-hold) and Alt+↑ — and each
must end with the same order, with the row showing its new place while it is still held and
the page not scrolled by a touch drag.

The lists' own files test what only they have (the ranking table's figures, the sortable
list's "beyond k" tag, class mode's stored answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from conftest import open_app_on, wait_idle_on
from drag_helpers import SCROLL_Y, Finger, mouse_drag
import test_class_mode_browser as cls

import ndcg_core as nc

WAYS = ["mouse", "grip", "hold", "keyboard"]


@dataclass
class DragList:
    """How to read one list: its rows (top to bottom), a row's parts, the row to move and
    where it should end."""
    rows: str                      # every row of the list, in order
    label: str                     # a row's label text
    grip: str                      # a row's ⋮⋮ grip
    pos: str                       # a row's position number
    move: str                      # the label of the row to move to the top
    before: list[str]              # the order when the page opens
    live: str                      # the live region that announces a keyboard move
    while_held: Callable[[Page], None] = field(default=lambda page: None)  # list's own checks

    def row(self, page: Page, label: str) -> Locator:
        return page.locator(self.rows).filter(
            has=page.locator(self.label).get_by_text(label, exact=True))

    def order(self, page: Page) -> list[str]:
        return page.locator(self.rows).locator(self.label).all_text_contents()

    def after(self) -> list[str]:
        return [self.move] + [x for x in self.before if x != self.move]


DOCS = ["Doc A", "Doc B", "Doc C", "Doc D", "Doc E", "Doc F"]


def _table_preview(page: Page) -> None:
    """The ranking table's figures already show the held order (the browser's preview)."""
    expect(page.locator(".rt[data-testid='ranking-table']")).to_have_attribute(
        "data-figures", "preview")
    expect(page.locator("[data-figure='ndcg-linear']")).to_have_text(
        f"{nc.ndcg([0, 3, 2, 3, 1, 2], k=4):.3f}")  # Doc D (grade 0) first, k = 4


LISTS = {
    "ranking table": DragList(
        rows=".rt-list-rank .rt-row", label=".rt-label-text", grip=".rt-grip", pos=".rt-pos",
        move="Doc D", before=DOCS, live=".rt-live[aria-live='polite']",
        while_held=_table_preview),
    "sortable": DragList(
        rows=".ndcg-row", label=".ndcg-label", grip=".ndcg-grip", pos=".ndcg-pos",
        move="Doc D", before=DOCS, live=".ndcg-live[aria-live='polite']"),
    "class Arrange": DragList(
        rows=".rt-list-rank .rt-row", label=".rt-label-text", grip=".rt-grip", pos=".rt-pos",
        move="c", before=["a", "b", "c"], live=".rt-live[aria-live='polite']"),
}
DEMOS = {"ranking table": "tests/apps/ranking_table_demo.py",
         "sortable": "tests/apps/sortable_demo.py"}


@pytest.fixture(scope="module")
def arrange_room(browser: Browser, tmp_path_factory):
    """One class server whose teacher has asked an Arrange question (a, b, c graded 0, 3, 1);
    each test's student joins it from a fresh context. Yields (server url, join code)."""
    w = cls.WORDS["en"]
    tmp = tmp_path_factory.mktemp("arrange-room")
    with cls.server({"NDCG_LAB_DATA": str(tmp)}, tmp) as (_proc, url):
        teacher = cls.teacher_page(browser)
        code, _ = cls.start(teacher, url, w, "en")
        cls.ask_arrange(teacher)
        yield url, code
        teacher.context.close()


def _open(request, name: str, phone: bool) -> Page:
    new_page = request.getfixturevalue("new_page")
    if phone:
        page = new_page(390, 844, has_touch=True, is_mobile=True, device_scale_factor=2)
    else:  # class mode's join taps its button: a laptop with a touch screen
        page = new_page(1280, 900, has_touch=name == "class Arrange")
    if name == "class Arrange":
        url, code = request.getfixturevalue("arrange_room")
        cls.join(page, url, code, cls.WORDS["en"], "en")
    else:
        open_app_on(page, request.getfixturevalue("start_app")(DEMOS[name]))
    spec = LISTS[name]
    expect(page.locator(spec.rows)).to_have_count(len(spec.before))
    wait_idle_on(page)
    assert spec.order(page) == spec.before
    return page


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", list(LISTS))
def test_every_way_of_moving_a_row_puts_it_first(request, name: str, way: str) -> None:
    """Mouse, grip touch, press-and-hold touch or Alt+↑: the moved row shows position 1
    while held (touch: the page does not scroll), and the list ends in the new order."""
    spec = LISTS[name]
    page = _open(request, name, phone=way in ("grip", "hold"))
    moving, top = spec.row(page, spec.move), spec.row(page, spec.before[0])
    if way == "keyboard":
        moving.focus()
        for _ in range(spec.before.index(spec.move)):
            page.keyboard.press("Alt+ArrowUp")
        expect(page.locator(spec.live)).to_contain_text(f"{spec.move} moved to position 1")
        expect(moving).to_be_focused()
    else:
        if way == "mouse":
            mouse_drag(page, moving, top)
        else:
            top.scroll_into_view_if_needed()
            if page.evaluate(SCROLL_Y) == 0 and spec.before[0].startswith("Doc"):
                page.evaluate(SCROLL_Y + " = 40")  # the demos' page can scroll both ways
            scroll_before = page.evaluate(SCROLL_Y)
            finger = Finger(page)
            start = moving.locator(spec.grip if way == "grip" else spec.label)
            finger.slide(start, top, hold=way == "hold")
        expect(moving).to_have_class(re.compile(r"\bis-dragging\b"))
        expect(moving.locator(spec.pos)).to_have_text("1")
        spec.while_held(page)
        if way == "mouse":
            page.mouse.up()
        else:
            assert page.evaluate(SCROLL_Y) == scroll_before
            finger.lift()
    wait_idle_on(page)
    expect(page.locator(spec.rows).first.locator(spec.label)).to_have_text(spec.move)
    wait_idle_on(page)
    assert spec.order(page) == spec.after()
    expect(page.locator(f"{spec.rows}.is-dragging")).to_have_count(0)
    if way in ("grip", "hold"):
        assert page.evaluate(SCROLL_Y) == scroll_before


@pytest.mark.parametrize("name", list(DEMOS))
def test_keys_pressed_faster_than_the_server_answers_all_count(request, name: str) -> None:
    """Alt+↑ five times, 0.2 s apart, while each move costs the server 0.8 s (?slow=0.8):
    each press moves Doc F one place up from where the last left it (a run answering an
    earlier press does not put the row back on screen), and the list ends with Doc F first
    once every answer has come."""
    spec = LISTS[name]
    page = request.getfixturevalue("page")
    open_app_on(page, request.getfixturevalue("start_app")(DEMOS[name]) + "?slow=0.8")
    expect(page.locator(spec.rows)).to_have_count(len(DOCS))
    spec.row(page, "Doc F").focus()
    for pos in range(5, 0, -1):
        page.keyboard.press("Alt+ArrowUp")
        expect(page.locator(spec.live)).to_contain_text(f"Doc F moved to position {pos}")
        page.wait_for_timeout(200)
    after = ["Doc F"] + DOCS[:5]
    assert spec.order(page) == after
    page.wait_for_timeout(5 * 800)  # every answer is back
    wait_idle_on(page)
    assert spec.order(page) == after
    expect(spec.row(page, "Doc F")).to_be_focused()
