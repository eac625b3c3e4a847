"""Browser checks of the Playground page (the app's default page) in headless Chromium:
the one-screen playground of issue 11, whose list is the DCG table (ui.ranking_table).

Every expected figure comes from ``ndcg_core`` applied to the order read back from the
page's rows, so the tests check what a learner sees against the engine. The component's
own tests run against its demo (tests/browser/test_ranking_table.py); these run the same
behaviours on the real page: its state, its link and its settings around the table.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import ndcg_core as nc
from lab.playground import DEFAULT_GRADES, DEFAULT_LABELS
from drag_helpers import SCROLL_Y, Finger

DEFAULT_ORDER = list(DEFAULT_LABELS)  # Doc A .. Doc F, graded 3, 2, 3, 0, 1, 2
K = 6
ROOT = ".rt[data-testid='ranking-table']"
# A rerun of this page takes 0.3-2.5 s on two busy cores (more under load): wait 30 s.
WAIT_MS = 30_000
FIRST_LOAD_MS = 45_000


def link(labels, grades, **settings) -> str:
    """The query string of a shared link (the playground's ?l=..&g=..&k=.. format)."""
    params = {"l": list(labels), "g": ",".join(str(g) for g in grades), "scale": "0-3"}
    params.update({name: str(value) for name, value in settings.items()})
    return "/?" + urlencode(params, doseq=True)


# ------------------------------------------------------------------ reading the page

def rows(page: Page) -> Locator:
    return page.locator(".rt-list-rank .rt-row")


def row(page: Page, label: str) -> Locator:
    return rows(page).filter(has=page.locator(".rt-label-text").get_by_text(label, exact=True))


def rows_read(page: Page) -> list[tuple[str, float]]:
    """(label, grade) of every row of the ranking table, top to bottom."""
    cells = rows(page).evaluate_all(
        "rows => rows.map(r => [r.querySelector('.rt-label-text').textContent,"
        " r.querySelector('.rt-grade').textContent])")
    return [(label, float(grade)) for label, grade in cells]


def order_read(page: Page) -> list[str]:
    return [label for label, _ in rows_read(page)]


def figure(page: Page, name: str = "ndcg", gain: str = "linear") -> Locator:
    return page.locator(f"[data-figure='{name}-{gain}']")


def expected_ndcg(grades, k=K) -> str:
    return f"{nc.ndcg(list(grades), k=k, gain='linear'):.3f}"


def settled(page: Page, wait_idle, k=K) -> list[tuple[str, float]]:
    """After a change: the engine's figures are back, and they are the rows' NDCG."""
    wait_idle(page)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine", timeout=WAIT_MS)
    shown = rows_read(page)
    expect(figure(page)).to_have_text(expected_ndcg((g for _, g in shown), k), timeout=WAIT_MS)
    return shown


def expect_default(page: Page) -> None:
    """Right after opening the page: doc 000's ranking and its NDCG@6."""
    expect(figure(page)).to_have_text(expected_ndcg(DEFAULT_GRADES), timeout=FIRST_LOAD_MS)
    expect(rows(page)).to_have_count(len(DEFAULT_ORDER), timeout=WAIT_MS)
    assert rows_read(page) == list(zip(DEFAULT_ORDER, map(float, DEFAULT_GRADES)))


def no_exception(page: Page) -> None:
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


# ------------------------------------------------------------------ mouse and keyboard

def test_mouse_drag_from_the_label_previews_every_figure_while_held(
        page: Page, app_url, open_app, wait_idle) -> None:
    """Dragging Doc E by its label to the top: while the button is down NDCG@6 and DCG@6
    already show the new order (the browser's preview); after the drop the engine's
    figures say the same, and the address bar holds the new order."""
    open_app(page, app_url)
    expect_default(page)
    label = row(page, "Doc E").locator(".rt-label")
    src, top = label.bounding_box(), row(page, "Doc A").bounding_box()
    x, y = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 10, steps=4)          # past the 5 px threshold
    page.mouse.move(x, top["y"] + 2, steps=20)   # over Doc A's upper half
    new = [1, 3, 2, 3, 0, 2]  # E, A, B, C, D, F
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "preview")
    expect(figure(page)).to_have_text(expected_ndcg(new))
    expect(figure(page, "dcg")).to_have_text(f"{nc.dcg(new, k=K):.3f}")
    page.mouse.up()
    shown = settled(page, wait_idle)
    assert [label for label, _ in shown] == ["Doc E", "Doc A", "Doc B", "Doc C", "Doc D",
                                             "Doc F"]
    expect(page).to_have_url(re.compile(r"[?&]g=1%2C3%2C2%2C3%2C0%2C2(&|$)"), timeout=WAIT_MS)
    no_exception(page)


def test_alt_arrow_up_on_a_focused_row_moves_it_announces_and_keeps_focus(
        page: Page, app_url, open_app, wait_idle) -> None:
    """Alt+ArrowUp on the focused Doc D row swaps it with Doc C; NDCG@6 follows."""
    open_app(page, app_url)
    expect_default(page)
    row(page, "Doc D").focus()
    page.keyboard.press("Alt+ArrowUp")
    moved = [3, 2, 0, 3, 1, 2]  # A, B, D, C, E, F
    expect(page.locator(".rt-live[aria-live='polite']")).to_have_text(
        f"Doc D moved to position 3; NDCG@6 {expected_ndcg(moved)}")
    shown = settled(page, wait_idle)
    assert [label for label, _ in shown] == ["Doc A", "Doc B", "Doc D", "Doc C", "Doc E",
                                             "Doc F"]
    expect(row(page, "Doc D")).to_have_attribute("data-position", "3")
    expect(row(page, "Doc D")).to_be_focused()
    no_exception(page)


def test_digit_key_sets_the_grade_and_a_refused_grade_keeps_the_old_one(
        page: Page, app_url, open_app, wait_idle) -> None:
    """Doc D focused: "3" makes its grade 3 (NDCG follows, the link too); "7" on the 0-3
    scale is refused with a message at the row and the grade stays 3; typed "2.5" too."""
    open_app(page, app_url)
    expect_default(page)
    doc_d = row(page, "Doc D")
    doc_d.focus()
    page.keyboard.press("3")
    settled(page, wait_idle)
    expect(doc_d.locator(".rt-grade")).to_have_text("3")
    expect(figure(page)).to_have_text(expected_ndcg([3, 2, 3, 3, 1, 2]))
    expect(page).to_have_url(re.compile(r"[?&]g=3%2C2%2C3%2C3%2C1%2C2(&|$)"), timeout=WAIT_MS)
    expect(doc_d).to_be_focused()

    page.keyboard.press("7")
    expect(doc_d.get_by_role("alert")).to_have_text(re.compile(
        r"^7 is outside the scale: type a whole number from 0 to 3\. The grade stays 3\."))
    expect(doc_d.locator(".rt-grade")).to_have_text("3")

    doc_d.locator(".rt-grade-btn").click()
    field = doc_d.locator("input.rt-input-grade")
    expect(field).to_be_focused()
    field.fill("2.5")
    field.press("Enter")
    expect(doc_d.get_by_role("alert")).to_contain_text("2.5 is not a whole number")
    expect(doc_d.get_by_role("alert")).to_contain_text("The grade stays 3.")
    page.wait_for_timeout(300)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")  # nothing sent
    expect(figure(page)).to_have_text(expected_ndcg([3, 2, 3, 3, 1, 2]))
    no_exception(page)


def test_add_and_delete_rows_follow_into_k_and_the_link(page: Page, app_url, open_app,
                                                        wait_idle) -> None:
    """+ Add item appends "Item 7" (grade 0): k's slider reaches 7; Delete on the focused
    Doc B removes it: 6 rows again, the link without Doc B."""
    open_app(page, app_url)
    expect_default(page)
    page.get_by_role("button", name="+ Add item").click()
    expect(rows(page)).to_have_count(7, timeout=WAIT_MS)
    expect(rows(page).last).to_contain_text("Item 7")
    expect(page.get_by_role("slider", name="Cutoff k")).to_have_attribute(
        "max", "7", timeout=WAIT_MS)
    wait_idle(page)
    row(page, "Doc B").focus()
    page.keyboard.press("Delete")
    expect(rows(page)).to_have_count(6, timeout=WAIT_MS)
    shown = settled(page, wait_idle)
    assert [label for label, _ in shown] == ["Doc A", "Doc C", "Doc D", "Doc E", "Doc F",
                                             "Item 7"]
    expect(page).to_have_url(re.compile(r"[?&]g=3%2C3%2C0%2C1%2C2%2C0(&|$)"), timeout=WAIT_MS)
    no_exception(page)


# ------------------------------------------------------------------ the link

def test_the_shared_url_restores_the_ranking_in_a_fresh_context(
        page: Page, browser: Browser, app_url, open_app, wait_idle) -> None:
    """The address after a move reopens, in a new browser context, the same order and NDCG;
    a link in the old format (?l=..&g=..&k=..&gain=..&scale=..&pool=..) opens as written."""
    open_app(page, app_url)
    expect_default(page)
    row(page, "Doc D").focus()
    page.keyboard.press("Alt+Home")
    shown = settled(page, wait_idle)
    expect(page).to_have_url(re.compile(r"[?&]g=0%2C3%2C2%2C3%2C1%2C2(&|$)"), timeout=WAIT_MS)
    shared = page.url

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        fresh = context.new_page()
        open_app(fresh, shared)
        expect(figure(fresh)).to_have_text(expected_ndcg([0, 3, 2, 3, 1, 2]),
                                           timeout=FIRST_LOAD_MS)
        assert rows_read(fresh) == shown
        open_app(fresh, app_url + "/?l=x&l=y&l=z&g=1,3,2&k=2&gain=linear&scale=0-3&pool=3")
        expect(figure(fresh, "ndcg")).to_have_text(
            f"{nc.ndcg([1, 3, 2], k=2, ideal=[1, 3, 2, 3]):.3f}", timeout=FIRST_LOAD_MS)
        assert order_read(fresh) == ["x", "y", "z"]
        expect(fresh.locator(".rt-list-ideal .rt-row")).to_have_count(4)
        expect(fresh.locator(".rt-list-ideal")).to_contain_text("judged 1")
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


# ------------------------------------------------------------------ touch, layout, sizes

@pytest.fixture
def phone(new_page, app_url, open_app):
    page = new_page(390, 844, has_touch=True, is_mobile=True, device_scale_factor=2)
    open_app(page, app_url)
    expect_default(page)
    return page




@pytest.mark.parametrize("start", ["hold", "grip"])
def test_phone_touch_drags_the_row_without_scrolling(phone: Page, wait_idle,
                                                     start: str) -> None:
    """390x844, touch: NDCG and the first rows are on the first screen; a finger on Doc D's
    label that holds, or on its ⋮⋮ grip at once (no hold; issue 21.2), then slides up moves
    Doc D above Doc A while the page stays put."""
    page = phone
    ndcg, third = figure(page).bounding_box(), row(page, "Doc C").bounding_box()
    assert ndcg["y"] + ndcg["height"] <= 844 and third["y"] + third["height"] <= 844
    # scroll so that Doc A is near the top and Doc D on screen (the settings stack above)
    page.evaluate(f"{SCROLL_Y} += {row(page, 'Doc A').bounding_box()['y'] - 200}")
    page.wait_for_timeout(200)
    scroll_before = page.evaluate(SCROLL_Y)
    where = ".rt-label" if start == "hold" else ".rt-grip"
    finger = Finger(page)
    finger.slide(row(page, "Doc D").locator(where), row(page, "Doc A"), hold=start == "hold")
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "preview")
    expect(figure(page)).to_have_text(expected_ndcg([0, 3, 2, 3, 1, 2]))
    assert page.evaluate(SCROLL_Y) == scroll_before
    finger.lift()
    shown = settled(page, wait_idle)
    assert page.evaluate(SCROLL_Y) == scroll_before
    assert [label for label, _ in shown][:2] == ["Doc D", "Doc A"]


SAMPLE_FRAMES = """() => {
  const find = (sel) => {
    for (const host of document.querySelectorAll("*")) {
      const hit = host.shadowRoot && host.shadowRoot.querySelector(sel);
      if (hit) return hit;
    }
    return null;
  };
  window.__frames = [];
  const tick = () => {
    const table = find("[data-figure='ndcg-linear']");
    const formula = find("[data-figure='formula-ndcg-linear']");
    window.__frames.push([table && table.textContent,
                          formula && formula.lastChild.textContent]);
    if (window.__frames.length < 240) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def formula_ndcg(page: Page) -> Locator:
    return page.locator("[data-figure='formula-ndcg-linear'] > :last-child")


def test_the_formula_shows_the_tables_figures_in_every_frame(page: Page, app_url, open_app,
                                                            wait_idle) -> None:
    """After Alt+↑, in every painted frame the formula's NDCG is the table's (no frame shows
    the old one beside the new); while a row is held, the formula shows the preview."""
    open_app(page, app_url)
    expect_default(page)
    expect(formula_ndcg(page)).to_have_text(expected_ndcg(DEFAULT_GRADES))
    page.evaluate(SAMPLE_FRAMES)
    row(page, "Doc D").focus()
    page.keyboard.press("Alt+ArrowUp")  # Doc D above Doc C: 3, 2, 0, 3, 1, 2
    moved = expected_ndcg([3, 2, 0, 3, 1, 2])
    expect(formula_ndcg(page)).to_have_text(moved)
    settled(page, wait_idle)
    frames = page.evaluate("window.__frames")
    assert all(table == formula for table, formula in frames), frames
    assert frames[-1] == [moved, moved]
    # A mouse drag: Doc E held above Doc A, the formula follows before the drop.
    src, top = row(page, "Doc E").bounding_box(), row(page, "Doc A").bounding_box()
    x, y = src["x"] + 60, src["y"] + src["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 10, steps=4)
    page.mouse.move(x, top["y"] + 2, steps=12)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "preview")
    expect(formula_ndcg(page)).to_have_text(expected_ndcg([1, 3, 2, 0, 3, 2]))
    page.mouse.up()
    settled(page, wait_idle)
    expect(formula_ndcg(page)).to_have_text(figure(page).inner_text())


def test_a_move_shifts_no_layout(page: Page, app_url, open_app, wait_idle) -> None:
    """After the first move (when the change badges appear) Doc A's row, the last row, the
    ideal table and the tabs below stand exactly where they stood."""
    open_app(page, app_url)
    expect_default(page)

    def tops():
        return [row(page, "Doc A").bounding_box()["y"], rows(page).last.bounding_box()["y"],
                page.locator(".rt-list-ideal .rt-row").first.bounding_box()["y"],
                page.get_by_role("tab", name="Formula").bounding_box()["y"]]

    before = tops()
    row(page, "Doc D").focus()
    page.keyboard.press("Alt+ArrowUp")
    settled(page, wait_idle)
    expect(figure(page).locator("xpath=..").locator(".rt-delta")).not_to_have_text("")
    assert tops() == before


TEN = [f"Doc {c}" for c in "ABCDEFGHIJ"]


def first_screen(page: Page, height: int, *, rows_shown: int) -> None:
    """The settings, the buttons, the figures, the first ``rows_shown`` rows of the ranking
    and of the ideal ordering (beside it) lie inside the first ``height`` pixels; nothing
    makes the page scroll sideways."""
    boxes = [rows(page).nth(rows_shown - 1), page.locator(".rt-list-ideal .rt-row").nth(
        rows_shown - 1), page.get_by_role("button", name="Reset"),
        page.get_by_role("slider", name="Cutoff k"), figure(page, "ndcg", "linear")]
    for box in boxes:
        b = box.bounding_box()
        assert 0 <= b["y"] and b["y"] + b["height"] <= height, (box, b)
    rank_first = rows(page).first.bounding_box()
    ideal_first = page.locator(".rt-list-ideal .rt-row").first.bounding_box()
    assert ideal_first["x"] > rank_first["x"] + rank_first["width"]  # beside
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


@pytest.mark.parametrize("width, height, gain", [(1280, 720, "linear"),
                                                 (1280, 720, "both"),
                                                 (1400, 1000, "linear"),
                                                 (1400, 1000, "both")])
def test_settings_buttons_figures_ten_rows_and_ideal_fit_the_first_screen(
        new_page, app_url, open_app, width, height, gain) -> None:
    """At 1280x720 and 1400x1000, sidebar open, 10 rows and a judged pool: the settings,
    the five buttons, the figures, every row and the ideal's first ten positions beside
    them are on the first screen; with both gains too (a row holds its two values in
    small type, about as high as a one-gain row)."""
    page = new_page(width, height)
    try:
        open_app(page, app_url + link(TEN, [3, 2, 3, 0, 1, 2, 0, 1, 3, 2], k=5, gain=gain,
                                      pool="3,1"))
        expect(rows(page)).to_have_count(10, timeout=FIRST_LOAD_MS)
        expect(page.get_by_test_id("stSidebar")).to_be_visible()
        first_screen(page, height, rows_shown=10)
        no_exception(page)
    finally:
        page.close()
