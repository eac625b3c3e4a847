"""Browser checks of the Playground page (the app's default page) in headless Chromium.

Every expected figure comes from ``ndcg_core`` applied to the order read back from the
page's rows, so the tests check what a learner sees against the engine.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

import ndcg_core as nc
from lab.playground import DEFAULT_GRADES, DEFAULT_LABELS

DEFAULT_ORDER = list(DEFAULT_LABELS)  # Doc A .. Doc F, graded 3, 2, 3, 0, 1, 2
K = 6
METRIC = f"NDCG@{K}"
ROW_HEIGHT_PX = 35  # glide-data-grid's row (and header) height in st.data_editor
# A rerun of this page takes 0.3-2.5 s on two busy cores: wait up to the reruns' timeout.
WAIT_MS = 15_000
# On a first load the lazily loaded elements (metrics, buttons, the editor...) can appear
# seconds after the run has finished: wait as long as conftest's first-load budget.
FIRST_LOAD_MS = 45_000


# ------------------------------------------------------------------ reading the page

def row(page: Page, label: str) -> Locator:
    return page.locator(".ndcg-row").filter(
        has=page.locator(".ndcg-label").get_by_text(label, exact=True))


def rows_read(page: Page) -> list[tuple[str, float]]:
    """(label, grade) of every row of the ranked list, top to bottom."""
    cells = page.locator(".ndcg-row").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.ndcg-label').textContent,"
        " r.querySelector('.ndcg-grade').textContent])")
    return [(label, float(grade.removeprefix("grade "))) for label, grade in cells]


def order_read(page: Page) -> list[str]:
    return [label for label, _ in rows_read(page)]


def metric_value(page: Page, label: str = METRIC) -> Locator:
    metric = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return metric.get_by_test_id("stMetricValue")


def expected_ndcg(grades) -> str:
    return f"{nc.ndcg(list(grades), k=K, gain='linear'):.3f}"


def expect_metric_matches_rows(page: Page) -> list[tuple[str, float]]:
    """The NDCG metric equals ndcg_core's value for the grades in the rows' order."""
    shown = rows_read(page)
    expect(metric_value(page)).to_have_text(expected_ndcg(g for _, g in shown),
                                            timeout=WAIT_MS)
    return shown


def settled(page: Page, wait_idle) -> list[tuple[str, float]]:
    """After a move: wait until the rerun it caused shows the rows' NDCG and has finished.

    ``wait_idle`` alone can return before a slow rerun has even started; the metric only
    changes inside that rerun, so waiting for it first makes the idle wait meaningful.
    """
    shown = expect_metric_matches_rows(page)
    wait_idle(page)
    return shown


def expect_default(page: Page) -> None:
    """Right after opening a page: doc 000's ranking and its NDCG@6."""
    expect(metric_value(page)).to_have_text(expected_ndcg(DEFAULT_GRADES),
                                            timeout=FIRST_LOAD_MS)
    expect(page.locator(".ndcg-row")).to_have_count(len(DEFAULT_ORDER), timeout=WAIT_MS)
    assert rows_read(page) == list(zip(DEFAULT_ORDER, map(float, DEFAULT_GRADES)))


def no_exception(page: Page) -> None:
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


# ------------------------------------------------------------------ acting on the page

def drag(page: Page, source: Locator, target: Locator) -> None:
    """A mouse drag of ``source`` onto the top edge of ``target``, as a user does it."""
    src, dst = source.bounding_box(), target.bounding_box()
    x, y = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 15, steps=5)
    page.mouse.move(x, dst["y"] + 3, steps=20)
    page.wait_for_timeout(150)
    page.mouse.up()


def grades_editor(page: Page) -> Locator:
    heading = page.get_by_role("heading", name="Items and grades")
    column = page.get_by_test_id("stColumn").filter(has=heading)
    return column.get_by_test_id("stDataFrame")


def editor_rows(page: Page) -> list[tuple[str, str]]:
    """(label, grade) per row of the editor, read from the grid's accessibility table."""
    return [tuple(cells) for cells in grades_editor(page).locator(
        "table[role='grid'] tbody tr").evaluate_all(
        "trs => trs.map(tr => Array.from(tr.querySelectorAll('td'), td => td.textContent))")]


def edit_grade(page: Page, data_row: int, value: str) -> None:
    """Click the grade cell of ``data_row`` (0-based) in the editor, type, Enter.

    The grid is a canvas: the grade column is the rightmost one (the editor stretches it),
    rows are 35 px high under a 35 px header. The grid's accessibility table tells whether
    the click selected the cell, and its overlay shows what was typed.
    """
    editor = grades_editor(page)
    canvas = editor.get_by_test_id("data-grid-canvas")
    expect(canvas).to_be_visible()
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 30,
                     box["y"] + ROW_HEIGHT_PX * (data_row + 1) + ROW_HEIGHT_PX / 2)
    grid = editor.locator("table[role='grid']")
    column = grid.locator("th", has_text=re.compile(r"^grade$")).get_attribute("aria-colindex")
    cell = grid.locator(f"tr[aria-rowindex='{data_row + 2}'] td[aria-colindex='{column}']")
    expect(cell).to_have_attribute("aria-selected", "true")
    page.keyboard.type(value)
    expect(page.get_by_test_id("portal").locator(".gdg-clip-region input, .gdg-clip-region textarea")).to_have_value(value)
    page.keyboard.press("Enter")


# ------------------------------------------------------------------ tests

MOVED_UP = ["Doc A", "Doc B", "Doc D", "Doc C", "Doc E", "Doc F"]  # Doc D up one place


def test_dragging_doc_d_to_the_top_updates_ndcg(page: Page, app_url, open_app,
                                                wait_idle) -> None:
    """A mouse drag of Doc D to the top puts it first and NDCG@6 follows ndcg_core."""
    open_app(page, app_url)
    expect_default(page)

    drag(page, row(page, "Doc D"), row(page, "Doc A"))
    expect(row(page, "Doc D")).to_have_attribute("data-position", "1")
    shown = settled(page, wait_idle)

    assert [label for label, _ in shown] == ["Doc D", "Doc A", "Doc B", "Doc C", "Doc E",
                                             "Doc F"]
    assert metric_value(page).inner_text() != expected_ndcg(DEFAULT_GRADES)
    expect_metric_matches_rows(page)
    no_exception(page)


def test_alt_arrow_up_on_a_focused_row_updates_ndcg(page: Page, app_url, open_app,
                                                    wait_idle) -> None:
    """Alt+ArrowUp on the focused Doc D row swaps it with Doc C and NDCG@6 follows."""
    open_app(page, app_url)
    expect_default(page)

    row(page, "Doc D").focus()
    page.keyboard.press("Alt+ArrowUp")
    expect(page.locator(".ndcg-live[aria-live='polite']")).to_have_text(
        "Doc D moved to position 3")
    shown = settled(page, wait_idle)

    assert [label for label, _ in shown] == MOVED_UP
    expect(row(page, "Doc D")).to_have_attribute("data-position", "3")
    expect(row(page, "Doc D")).to_be_focused()
    expect_metric_matches_rows(page)
    no_exception(page)


def open_and_move_doc_d_up(page: Page, app_url, open_app, wait_idle) -> None:
    """Open the default ranking and move Doc D one place up with Alt+ArrowUp."""
    open_app(page, app_url)
    expect_default(page)
    row(page, "Doc D").focus()
    page.keyboard.press("Alt+ArrowUp")
    assert [label for label, _ in settled(page, wait_idle)] == MOVED_UP


def test_editing_a_grade_updates_ndcg_and_keeps_the_order(page: Page, app_url, open_app,
                                                          wait_idle) -> None:
    """After a move, setting Doc B's grade to 0 in the editor updates NDCG@6, same order."""
    open_and_move_doc_d_up(page, app_url, open_app, wait_idle)
    before = metric_value(page).inner_text()

    edit_grade(page, MOVED_UP.index("Doc B"), "0")
    expect(row(page, "Doc B").locator(".ndcg-grade")).to_have_text("grade 0", timeout=WAIT_MS)
    shown = settled(page, wait_idle)

    assert shown == [("Doc A", 3.0), ("Doc B", 0.0), ("Doc D", 0.0), ("Doc C", 3.0),
                     ("Doc E", 1.0), ("Doc F", 2.0)]
    assert metric_value(page).inner_text() != before
    # the editor keeps its rows in the order the items were made, not the ranking's
    by_label = dict(shown)
    assert editor_rows(page) == [(label, f"{by_label[label]:g}") for label in DEFAULT_ORDER]
    no_exception(page)


def test_the_shared_url_restores_the_ranking_in_a_fresh_context(page: Page, browser,
                                                                app_url, open_app,
                                                                wait_idle) -> None:
    """The address after a move reopens, in a new browser context, the same order and NDCG."""
    open_app(page, app_url)
    expect_default(page)
    drag(page, row(page, "Doc D"), row(page, "Doc A"))
    expect(row(page, "Doc D")).to_have_attribute("data-position", "1")
    shown = settled(page, wait_idle)
    expect(page).to_have_url(re.compile(r"[?&]g=0%2C3%2C2%2C3%2C1%2C2(&|$)"))
    shared, value = page.url, metric_value(page).inner_text()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        fresh = context.new_page()
        open_app(fresh, shared)
        expect(metric_value(fresh)).to_have_text(value, timeout=FIRST_LOAD_MS)
        expect(row(fresh, "Doc D")).to_have_attribute("data-position", "1")
        assert rows_read(fresh) == shown
        expect_metric_matches_rows(fresh)
        no_exception(fresh)
    finally:
        context.close()


def test_a_tampered_url_shows_the_notice_and_the_default_ranking(page: Page, app_url,
                                                                 open_app) -> None:
    """Opening ?g=3,abc warns that the link could not be read and shows doc 000's ranking."""
    open_app(page, f"{app_url}/?g=3,abc")

    warning = page.get_by_test_id("stAlertContentWarning")
    expect(warning).to_contain_text("could not be read", timeout=FIRST_LOAD_MS)
    expect(warning).to_contain_text("abc")
    expect_default(page)
    no_exception(page)


def test_deleting_a_row_in_the_editor_after_a_move_updates_k_and_keeps_the_order(
        page: Page, app_url, open_app, wait_idle) -> None:
    """A move reruns only the live part of the page; a deleted row then also needs the k
    slider and the headline to follow (5 items: NDCG@5, slider max 5), in the moved order."""
    page.set_viewport_size({"width": 1280, "height": 1400})  # the whole editor on screen
    open_and_move_doc_d_up(page, app_url, open_app, wait_idle)

    canvas = grades_editor(page).get_by_test_id("data-grid-canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    doc_e = DEFAULT_ORDER.index("Doc E")  # the editor lists items as they were made
    page.mouse.click(box["x"] + 14,  # the row marker selects the whole row
                     box["y"] + ROW_HEIGHT_PX * (doc_e + 1) + ROW_HEIGHT_PX / 2)
    page.keyboard.press("Delete")

    expect(page.locator(".ndcg-row")).to_have_count(5, timeout=WAIT_MS)
    shown = rows_read(page)
    assert [label for label, _ in shown] == [x for x in MOVED_UP if x != "Doc E"]
    expect(metric_value(page, "NDCG@5")).to_have_text(
        f"{nc.ndcg([g for _, g in shown], k=5):.3f}", timeout=WAIT_MS)
    expect(page.get_by_role("slider", name="Cutoff k")).to_have_attribute(
        "max", "5", timeout=WAIT_MS)
    wait_idle(page)
    no_exception(page)
