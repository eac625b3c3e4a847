"""Browser tests for ui.sortable, driven through tests/apps/sortable_demo.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

DEMO = "tests/apps/sortable_demo.py"
XSS_LABEL = "<img src=x onerror=alert(1)><script>alert(2)</script>"


def row(page: Page, item_id: str) -> Locator:
    return page.locator(f".ndcg-row[data-item-id='{item_id}']")


def order_line(page: Page) -> Locator:
    return page.get_by_text(re.compile(r"^ORDER:"))


def live_region(page: Page) -> Locator:
    return page.locator(".ndcg-live[aria-live='polite']")


@pytest.fixture
def demo(page: Page, start_app, open_app) -> Page:
    open_app(page, start_app(DEMO))
    expect(page.locator(".ndcg-row")).to_have_count(6)
    expect(order_line(page)).to_have_text("ORDER: Doc A,Doc B,Doc C,Doc D,Doc E,Doc F")
    return page


def test_dragging_doc_d_to_top_puts_it_first(demo: Page, wait_idle) -> None:
    """Dragging Doc D above Doc A with the mouse makes Doc D first in ORDER."""
    page = demo
    source = row(page, "doc-d").bounding_box()
    target = row(page, "doc-a").bounding_box()
    x, y = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 15, steps=5)
    page.mouse.move(x, target["y"] + 3, steps=20)
    page.wait_for_timeout(150)
    # Held: Doc D shows the position it would take; the rows it passed made room.
    expect(row(page, "doc-d")).to_have_class(re.compile(r"\bis-dragging\b"))
    expect(row(page, "doc-d").locator(".ndcg-pos")).to_have_text("1")
    expect(row(page, "doc-a").locator(".ndcg-pos")).to_have_text("2")
    page.mouse.up()
    wait_idle(page)

    expect(order_line(page)).to_have_text("ORDER: Doc D,Doc A,Doc B,Doc C,Doc E,Doc F")
    expect(page.locator(".ndcg-row").first).to_have_attribute("data-item-id", "doc-d")
    expect(row(page, "doc-d")).to_have_attribute("data-position", "1")
    # Doc C is now fourth, past k = 3: faded and tagged, Doc D no longer is.
    expect(row(page, "doc-c")).to_contain_text("beyond k")
    expect(row(page, "doc-d")).not_to_contain_text("beyond k")
    expect(page.locator(".ndcg-row.is-dragging")).to_have_count(0)


def test_alt_arrow_up_moves_focused_item_and_keeps_focus(demo: Page, wait_idle) -> None:
    """Alt+ArrowUp moves the focused row up one, announces it, and keeps focus for a second move."""
    page = demo
    doc_c = row(page, "doc-c")
    expect(page.get_by_role("list", name="Ranked list")).to_be_visible()
    expect(doc_c).to_have_attribute("aria-label", "Position 3: Doc C, grade 3")
    doc_c.focus()

    page.keyboard.press("Alt+ArrowUp")
    expect(live_region(page)).to_have_text("Doc C moved to position 2")
    wait_idle(page)
    expect(order_line(page)).to_have_text("ORDER: Doc A,Doc C,Doc B,Doc D,Doc E,Doc F")
    expect(doc_c).to_be_focused()
    expect(doc_c).to_have_attribute("aria-label", "Position 2: Doc C, grade 3")

    page.keyboard.press("Alt+ArrowUp")
    expect(live_region(page)).to_have_text("Doc C moved to position 1")
    wait_idle(page)
    expect(order_line(page)).to_have_text("ORDER: Doc C,Doc A,Doc B,Doc D,Doc E,Doc F")
    expect(doc_c).to_be_focused()


def test_relabel_after_a_move_shows_the_new_label(demo: Page, wait_idle) -> None:
    """After a move, clicking Relabel shows "Doc A*" in the list, in the moved order."""
    page = demo
    row(page, "doc-b").focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_idle(page)
    expect(order_line(page)).to_have_text("ORDER: Doc B,Doc A,Doc C,Doc D,Doc E,Doc F")

    page.get_by_role("button", name="Relabel").click()
    wait_idle(page)
    expect(row(page, "doc-a").locator(".ndcg-label")).to_have_text("Doc A*")
    expect(row(page, "doc-a")).to_have_attribute("data-position", "2")
    expect(order_line(page)).to_have_text("ORDER: Doc B,Doc A*,Doc C,Doc D,Doc E,Doc F")


def test_html_in_a_label_shows_verbatim_and_runs_nothing(demo: Page, wait_idle) -> None:
    """A label made of HTML tags is shown as literal text and opens no dialog."""
    page = demo
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.get_by_role("button", name="XSS label").click()
    wait_idle(page)

    expect(row(page, "doc-b").locator(".ndcg-label")).to_have_text(XSS_LABEL)
    expect(page.locator(".ndcg-row img, .ndcg-row script")).to_have_count(0)
    page.wait_for_timeout(500)
    assert dialogs == []


def test_same_move_after_reset_order_applies_again(demo: Page, wait_idle) -> None:
    """After Reset order, repeating the earlier move reorders the list again."""
    page = demo
    for _ in range(2):
        row(page, "doc-b").focus()
        page.keyboard.press("Alt+ArrowUp")
        wait_idle(page)
        expect(order_line(page)).to_have_text("ORDER: Doc B,Doc A,Doc C,Doc D,Doc E,Doc F")
        expect(page.locator(".ndcg-row").first).to_have_attribute("data-item-id", "doc-b")

        page.get_by_role("button", name="Reset order").click()
        wait_idle(page)
        expect(order_line(page)).to_have_text("ORDER: Doc A,Doc B,Doc C,Doc D,Doc E,Doc F")
        expect(page.locator(".ndcg-row").first).to_have_attribute("data-item-id", "doc-a")


def test_sixty_rows_keyboard_move_keeps_focus(page: Page, start_app, open_app, wait_idle) -> None:
    """In a 60-row list, Alt+ArrowUp on the last row moves it to 59 and keeps it focused."""
    open_app(page, start_app(DEMO) + "/?n=60")
    expect(page.locator(".ndcg-row")).to_have_count(60)
    last = row(page, "doc-60")
    last.focus()

    page.keyboard.press("Alt+ArrowUp")
    expect(live_region(page)).to_have_text("Doc 60 moved to position 59", timeout=2_000)
    wait_idle(page)
    expect(order_line(page)).to_contain_text("Doc 58,Doc 60,Doc 59")
    expect(last).to_have_attribute("data-position", "59")
    expect(last).to_be_focused()


# Touch (grip and press-and-hold), mouse and keyboard moves shared with every list built on
# the same drag core: tests/browser/test_drag.py.
