"""Browser tests for ui.ranking_table, driven through tests/apps/ranking_table_demo.py.

The demo starts with document 000's ranking: Doc A..F with grades 3, 2, 3, 0, 1, 2,
k = 4, linear gain, scale 0-3.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import ndcg_core as nc
from drag_helpers import SCROLL_Y, Finger

DEMO = "tests/apps/ranking_table_demo.py"
JS = Path(__file__).resolve().parents[2] / "ui" / "ranking_table" / "figures.js"
LABELS = ["Doc A", "Doc B", "Doc C", "Doc D", "Doc E", "Doc F"]
GRADES = [3, 2, 3, 0, 1, 2]
K = 4
ROOT = ".rt[data-testid='ranking-table']"


def row(page: Page, item_id: str) -> Locator:
    return page.locator(f".rt-list-rank .rt-row[data-item-id='{item_id}']")


def figure(page: Page, name: str, gain: str = "linear") -> Locator:
    return page.locator(f"[data-figure='{name}-{gain}']")


def order_line(page: Page) -> Locator:
    return page.get_by_text(re.compile(r"^ORDER:"))


def live_region(page: Page) -> Locator:
    return page.locator(".rt-live[aria-live='polite']")


def engine_ndcg(grades, k=K, gain="linear") -> str:
    return f"{nc.ndcg(grades, k=k, gain=gain):.3f}"


def reorder(labels_grades, order):
    return [labels_grades[i] for i in order]


@pytest.fixture
def demo(page: Page, start_app, open_app) -> Page:
    open_app(page, start_app(DEMO))
    expect(page.locator(".rt-list-rank .rt-row")).to_have_count(6)
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg(GRADES))  # 5.762 / 6.754
    return page


def wait_engine(page: Page, wait_idle) -> None:
    wait_idle(page)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")


# ------------------------------------------------------------------ mouse drag

def test_mouse_drag_from_the_label_previews_every_figure_while_held(demo: Page, wait_idle):
    """Dragging Doc E by its label to the top: while the button is down, the rows make
    room and NDCG@4, DCG@4, contributions and cumulative DCG already show the new order;
    after the drop the engine's figures are the same text."""
    page = demo
    label = row(page, "doc-e").locator(".rt-label")
    src = label.bounding_box()
    top = row(page, "doc-a").bounding_box()
    x, y = src["x"] + src["width"] / 2, src["y"] + src["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 10, steps=4)          # past the 5 px threshold
    page.mouse.move(x, top["y"] + 2, steps=20)   # over Doc A's upper half
    new = [1, 3, 2, 3, 0, 2]  # E, A, B, C, D, F
    # Still held: the preview.
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "preview")
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg(new))
    expect(figure(page, "dcg")).to_have_text(f"{nc.dcg(new, k=K):.3f}")  # 1 + 3/log2(3) + 2/2 + 3/log2(5)
    expect(row(page, "doc-e").locator(".rt-pos")).to_have_text("1")
    expect(row(page, "doc-e").locator(".rt-contrib .rt-t")).to_have_text("1.000")  # 1 / log2(2)
    expect(row(page, "doc-a").locator(".rt-pos")).to_have_text("2")
    expect(row(page, "doc-a").locator(".rt-contrib .rt-t")).to_have_text(f"{3 / math.log2(3):.3f}")
    expect(row(page, "doc-d").locator(".rt-cum .rt-t")).to_have_text(
        f"{nc.dcg(new[:5]):.3f}")  # Doc D at 5: past k, cumulative DCG@5
    expect(row(page, "doc-d")).to_have_class(re.compile(r"\bis-past\b"))  # dimmed
    expect(row(page, "doc-d").locator(".rt-label")).to_contain_text("(past k: not counted)")
    # The other rows made room: Doc A is drawn lower than it stands.
    transform = row(page, "doc-a").evaluate("el => getComputedStyle(el).transform")
    assert transform not in ("none", ""), transform
    page.mouse.up()
    wait_engine(page, wait_idle)

    expect(order_line(page)).to_have_text("ORDER: Doc E,Doc A,Doc B,Doc C,Doc D,Doc F")
    expect(row(page, "doc-d")).to_have_attribute("aria-label", re.compile(
        r"^Position 5: Doc D, grade 0, contribution 0\.000, past k: not counted$"))
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg(new))
    expect(figure(page, "dcg")).to_have_text(f"{nc.dcg(new, k=K):.3f}")
    expect(page.locator(".rt-list-rank .rt-row").first).to_have_attribute("data-item-id", "doc-e")


def test_dropping_a_row_where_it_started_changes_nothing(demo: Page, wait_idle):
    """A drag that ends on its own place keeps the order and the engine's figures."""
    page = demo
    box = row(page, "doc-b").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 8, steps=4)
    page.mouse.move(x, y, steps=4)
    page.mouse.up()
    page.wait_for_timeout(300)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")
    expect(order_line(page)).to_have_text("ORDER: " + ",".join(LABELS))
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg(GRADES))


# ------------------------------------------------------------------ touch

@pytest.fixture
def phone(new_page, start_app, open_app):
    page = new_page(390, 844, has_touch=True, is_mobile=True, device_scale_factor=2)
    open_app(page, start_app(DEMO))
    expect(page.locator(".rt-list-rank .rt-row")).to_have_count(6)
    return page






# The touch drag (grip and press-and-hold; preview figures, no scroll): tests/browser/test_drag.py.


def test_touch_swipe_on_a_row_scrolls_the_page_and_moves_nothing(phone: Page, wait_idle):
    """A quick swipe that starts on a row (no hold) scrolls the page as usual."""
    page = phone
    Finger(page).swipe(row(page, "doc-e").locator(".rt-label"), -250)
    page.wait_for_timeout(600)
    assert page.evaluate(SCROLL_Y) > 50
    expect(order_line(page)).to_have_text("ORDER: " + ",".join(LABELS))


# ------------------------------------------------------------------ keyboard

def test_alt_arrows_home_end_move_the_focused_row_and_announce(demo: Page, wait_idle):
    """Alt+↑, Alt+End, Alt+Home and Alt+↓ move Doc C, keep it focused and say where."""
    page = demo
    doc_c = row(page, "doc-c")
    expect(doc_c).to_have_attribute("aria-label", re.compile(r"^Position 3: Doc C, grade 3"))
    doc_c.focus()
    steps = [
        ("Alt+ArrowUp", 2, [3, 3, 2, 0, 1, 2], "Doc A,Doc C,Doc B,Doc D,Doc E,Doc F"),
        ("Alt+End", 6, [3, 2, 0, 1, 2, 3], "Doc A,Doc B,Doc D,Doc E,Doc F,Doc C"),
        ("Alt+Home", 1, [3, 3, 2, 0, 1, 2], "Doc C,Doc A,Doc B,Doc D,Doc E,Doc F"),
        ("Alt+ArrowDown", 2, [3, 3, 2, 0, 1, 2], "Doc A,Doc C,Doc B,Doc D,Doc E,Doc F"),
    ]
    for key, pos, grades, order in steps:
        page.keyboard.press(key)
        expect(live_region(page)).to_have_text(
            f"Doc C moved to position {pos}; NDCG@4 {engine_ndcg(grades)}")
        # The figures follow at once (the browser's preview), then the engine's agree.
        expect(figure(page, "ndcg")).to_have_text(engine_ndcg(grades))
        wait_engine(page, wait_idle)
        expect(order_line(page)).to_have_text("ORDER: " + order)
        expect(figure(page, "ndcg")).to_have_text(engine_ndcg(grades))
        expect(doc_c).to_be_focused()
        expect(doc_c).to_have_attribute("data-position", str(pos))


def test_digit_key_sets_the_grade_and_out_of_scale_digit_is_refused(demo: Page, wait_idle):
    """With Doc D focused, "3" makes its grade 3 (NDCG follows); "7" on the 0-3 scale is
    refused with a message at the row and the grade stays 3."""
    page = demo
    doc_d = row(page, "doc-d")
    doc_d.focus()
    page.keyboard.press("3")
    wait_engine(page, wait_idle)
    expect(doc_d.locator(".rt-grade")).to_have_text("3")
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg([3, 2, 3, 3, 1, 2]))
    expect(doc_d).to_be_focused()

    page.keyboard.press("7")
    alert = doc_d.get_by_role("alert")
    expect(alert).to_have_text(re.compile(r"^7 is outside the scale: type a whole number from "
                                          r"0 to 3\. The grade stays 3\."))
    expect(doc_d.locator(".rt-grade")).to_have_text("3")
    page.wait_for_timeout(300)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")  # nothing sent
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg([3, 2, 3, 3, 1, 2]))


@pytest.mark.parametrize("typed, message", [
    ("x", "“x” is not a number"),
    ("-1", "-1 is outside the scale"),
    ("2.5", "2.5 is not a whole number"),
    ("9", "9 is outside the scale"),
])
def test_typed_grade_outside_the_scale_keeps_the_old_grade(demo: Page, wait_idle, typed,
                                                           message):
    """Clicking Doc B's grade and typing a refused value shows why at the row; the grade
    stays 2 and nothing reaches the server."""
    page = demo
    doc_b = row(page, "doc-b")
    doc_b.locator(".rt-grade-btn").click()
    field = doc_b.locator("input.rt-input-grade")
    expect(field).to_be_focused()
    field.fill(typed)
    field.press("Enter")
    expect(doc_b.get_by_role("alert")).to_contain_text(message)
    expect(doc_b.get_by_role("alert")).to_contain_text("The grade stays 2.")
    expect(doc_b.locator(".rt-grade")).to_have_text("2")
    page.wait_for_timeout(300)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg(GRADES))


def test_typed_grade_in_the_scale_is_applied_by_the_engine(demo: Page, wait_idle):
    """Typing 1 into Doc A's grade makes the engine's NDCG that of grades 1, 2, 3, 0, 1, 2."""
    page = demo
    doc_a = row(page, "doc-a")
    doc_a.locator(".rt-grade-btn").click()
    field = doc_a.locator("input.rt-input-grade")
    field.fill("1")
    field.press("Enter")
    wait_engine(page, wait_idle)
    expect(doc_a.locator(".rt-grade")).to_have_text("1")
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg([1, 2, 3, 0, 1, 2]))
    # IDCG changed too (the ideal is built from the grades): its change is not coloured.
    expect(figure(page, "idcg").locator("xpath=..").locator(".rt-delta")).to_have_class(
        re.compile(r"is-neutral"))


def test_rename_add_remove_and_a_server_refusal(demo: Page, wait_idle):
    """F2 renames Doc B; the demo's server refuses the label "refused" with a message at
    the row; Add item appends a row; Delete removes the focused one."""
    page = demo
    doc_b = row(page, "doc-b")
    doc_b.focus()
    page.keyboard.press("F2")
    field = doc_b.locator("input.rt-input-label")
    field.fill("<b>Bold</b> & co")
    field.press("Enter")
    wait_engine(page, wait_idle)
    expect(doc_b.locator(".rt-label-text")).to_have_text("<b>Bold</b> & co")  # text, not HTML
    expect(page.locator(".rt-row b")).to_have_count(0)

    doc_b.focus()
    page.keyboard.press("F2")
    doc_b.locator("input.rt-input-label").fill("refused")
    page.keyboard.press("Enter")
    wait_idle(page)
    expect(doc_b.get_by_role("alert")).to_have_text(
        "The demo refuses the label “refused”: pick another name.")
    expect(doc_b.locator(".rt-label-text")).to_have_text("<b>Bold</b> & co")

    page.get_by_role("button", name="+ Add item").click()
    wait_engine(page, wait_idle)
    expect(page.locator(".rt-list-rank .rt-row")).to_have_count(7)
    expect(page.locator(".rt-list-rank .rt-row").last).to_contain_text("Item 7")
    expect(page.locator(".rt-list-rank .rt-row").last).to_be_focused()

    row(page, "doc-d").focus()
    page.keyboard.press("Delete")
    wait_engine(page, wait_idle)
    expect(page.locator(".rt-list-rank .rt-row")).to_have_count(6)
    expect(order_line(page)).to_have_text(
        "ORDER: Doc A,<b>Bold</b> & co,Doc C,Doc E,Doc F,Item 7")
    expect(figure(page, "ndcg")).to_have_text(engine_ndcg([3, 2, 3, 1, 2, 0]))
    expect(row(page, "doc-e")).to_be_focused()  # focus moved to the next row

    row(page, "doc-a").get_by_role("button", name="Remove Doc A").click()
    wait_engine(page, wait_idle)
    expect(order_line(page)).to_have_text("ORDER: <b>Bold</b> & co,Doc C,Doc E,Doc F,Item 7")


# ------------------------------------------------------------------ layout

def test_a_move_shifts_no_layout(demo: Page, wait_idle):
    """After the first move (when the change badges appear) Doc A's row, the last row and
    the ideal table stand exactly where they stood."""
    page = demo

    def tops():
        return [row(page, "doc-a").bounding_box()["y"],
                page.locator(".rt-list-rank .rt-row").last.bounding_box()["y"],
                page.locator(".rt-list-ideal .rt-row").first.bounding_box()["y"],
                page.locator(".rt-figures").bounding_box()["height"]]

    before = tops()
    row(page, "doc-d").focus()
    page.keyboard.press("Alt+ArrowUp")
    wait_engine(page, wait_idle)
    expect(figure(page, "ndcg").locator("xpath=..").locator(".rt-delta")).not_to_have_text("")
    assert tops() == before


def _clipped(page: Page) -> list[str]:
    return page.evaluate("""() => {
      const out = [];
      const root = [...document.querySelectorAll('*')].map((e) => e.shadowRoot)
        .find((s) => s && s.querySelector('.rt'));
      for (const el of root.querySelectorAll('.rt, .rt-figures, .rt-tables, .rt-box, .rt-head, .rt-row, .rt-num, .rt-label, .rt-cut-text')) {
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'none') {
          out.push(`${el.className} ${el.scrollWidth}>${el.clientWidth} ${el.textContent.slice(0, 30)}`);
        }
      }
      if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
      return out;
    }""")


@pytest.mark.parametrize("gain", ["linear", "both"])
@pytest.mark.parametrize("width, height", [(1280, 720), (1400, 1000)])
def test_figures_ten_rows_and_ideal_fit_the_first_screen(new_page, start_app, open_app,
                                                          width, height, gain):
    """At 1280x720 and 1400x1000, sidebar open: figures, all 10 rows with every column and
    the ideal table beside them are on the first screen, nothing cut off."""
    page = new_page(width, height)
    try:
        open_app(page, start_app(DEMO) + f"/?n=10&gain={gain}&pool=1")
        expect(page.locator(".rt-list-rank .rt-row")).to_have_count(10)
        expect(page.get_by_test_id("stSidebar")).to_be_visible()
        last = page.locator(".rt-list-rank .rt-row").last.bounding_box()
        ideal = page.locator(".rt-list-ideal .rt-row")
        ideal_last = ideal.last.bounding_box()
        rank_first = page.locator(".rt-list-rank .rt-row").first.bounding_box()
        assert figure(page, "ndcg", "linear").bounding_box()["y"] >= 0
        assert last["y"] + last["height"] <= height, last
        assert ideal_last["y"] + ideal_last["height"] <= height, ideal_last
        assert ideal.first.bounding_box()["x"] > rank_first["x"] + rank_first["width"]  # beside
        assert _clipped(page) == []
    finally:
        page.close()


def test_phone_shows_ndcg_and_first_rows_and_nothing_sideways(phone: Page):
    """At 390x844 the NDCG figure and the first rows are on the first screen, and no box
    (nor the page) is cut off sideways."""
    page = phone
    ndcg = figure(page, "ndcg").bounding_box()
    third = row(page, "doc-c").bounding_box()
    assert ndcg["y"] + ndcg["height"] <= 844
    assert third["y"] + third["height"] <= 844
    assert _clipped(page) == []


def test_sixty_rows_drag_and_keyboard_move(page: Page, start_app, open_app, wait_idle):
    """A 60-row list: Alt+↑ on the last row moves it to 59 and keeps focus; a drag works."""
    open_app(page, start_app(DEMO) + "/?n=60")
    expect(page.locator(".rt-list-rank .rt-row")).to_have_count(60)
    last = row(page, "doc-60")
    last.focus()
    page.keyboard.press("Alt+ArrowUp")
    expect(live_region(page)).to_contain_text("Doc 60 moved to position 59", timeout=2_000)
    wait_engine(page, wait_idle)
    expect(order_line(page)).to_contain_text("Doc 58,Doc 60,Doc 59")
    expect(last).to_be_focused()
    # A drag of Doc 2 below Doc 3: the preview answers within the drag.
    row(page, "doc-1").scroll_into_view_if_needed()
    src = row(page, "doc-2").bounding_box()
    below = row(page, "doc-3").bounding_box()
    x, y = src["x"] + 40, src["y"] + src["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, below["y"] + below["height"] - 2, steps=10)
    expect(row(page, "doc-2").locator(".rt-pos")).to_have_text("3")
    page.mouse.up()
    wait_engine(page, wait_idle)
    expect(order_line(page)).to_contain_text("ORDER: Doc 1,Doc 3,Doc 2,Doc 4")


# ------------------------------------------------------------------ preview == engine

def _cases(count: int, seed: int = 20261202):
    """Seeded random lists: integer and fractional grades, negatives, both gains, every k
    from 1 to n + 1, with and without a judged pool."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        n = rng.randint(1, 12)
        kind = i % 4
        if kind == 0:
            grades = [rng.randint(0, 4) for _ in range(n)]
        elif kind == 1:
            grades = [round(rng.uniform(0, 4), rng.choice([1, 2, 3])) for _ in range(n)]
        elif kind == 2:
            grades = [rng.choice([-2, -1, 0, 1, 2, 3]) for _ in range(n)]
        else:  # sixteenths: contributions at position 1 and 3 are exact ties at 3 decimals
            grades = [rng.randint(-8, 64) / 16 for _ in range(n)]
        pool = [rng.randint(-1, 4) for _ in range(rng.randint(0, 3))] if i % 3 == 0 else []
        k = (i // 4) % (n + 1) + 1
        cases.append({"grades": grades, "k": k, "pool": pool})
    return cases


def _engine(case):
    out = {}
    grades, k, pool = case["grades"], case["k"], case["pool"]
    ideal = grades + pool if pool else None
    for gain in ("linear", "exponential"):
        table = nc.dcg_table(grades, k=k, gain=gain)
        best = (nc.idcg([max(x, 0) for x in ideal], k=k, gain=gain) if ideal
                else nc.idcg(grades, k=k, gain=gain))
        out[gain] = {"contribution": table["contribution"].tolist(),
                     "cumulative": table["cumulative_dcg"].tolist(),
                     "gain": table["gain"].tolist(), "discount": table["discount"].tolist(),
                     "dcg": nc.dcg(grades, k=k, gain=gain), "idcg": best,
                     "ndcg": nc.ndcg(grades, k=k, gain=gain, ideal=ideal)}
    return out


# figures.js's preview of each case ({grades, k, idcg, zero?, conv?: lab.rules.conv}) with
# its 3-decimal text; test_ranking_table_settings.py runs it with the mistake settings.
PREVIEW_BATCH = """async ([source, cases]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const m = await import(url);
  return cases.map((c) => {
    const p = m.preview(c.grades, {k: c.k, gains: ["linear", "exponential"], idcg: c.idcg,
                                   zero: c.zero ?? 0, conv: c.conv ?? null});
    const out = {};
    for (const g of ["linear", "exponential"]) {
      const f = p[g];
      out[g] = {...f, text: {
        contribution: f.contribution.map(m.fmt3), cumulative: f.cumulative.map(m.fmt3),
        gain: f.gain.map(m.fmt3), discount: f.discount.map(m.fmt3),
        dcg: m.fmt3(f.dcg), ndcg: m.fmt3(f.ndcg)}};
    }
    return out;
  });
}"""


def test_browser_preview_equals_the_engine_on_600_random_lists(browser: Browser):
    """The component's own preview arithmetic (figures.js, loaded alone in one page)
    gives every figure ndcg_core gives, to 1e-9 and as the same 3-decimal text, for 600
    seeded lists: integer, fractional and negative grades, both gains, every k, with and
    without a judged pool (its IDCG from the engine)."""
    cases = _cases(600)
    engine = [_engine(c) for c in cases]
    payload = [{"grades": c["grades"], "k": c["k"],
                "idcg": {g: e[g]["idcg"] for g in e}} for c, e in zip(cases, engine)]
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto("about:blank")
        got = page.evaluate(PREVIEW_BATCH, [JS.read_text(encoding="utf-8"), payload])
    finally:
        context.close()
    checked = 0
    for case, want, have in zip(cases, engine, got):
        for gain in ("linear", "exponential"):
            w, h = want[gain], have[gain]
            where = f"{case} {gain}"
            for name in ("contribution", "cumulative", "gain", "discount"):
                for a, b, text in zip(w[name], h[name], h["text"][name]):
                    assert abs(a - b) <= 1e-9, (where, name, a, b)
                    assert text == f"{a:.3f}", (where, name, a, text)
                    checked += 1
            for name in ("dcg", "ndcg"):
                assert abs(w[name] - h[name]) <= 1e-9, (where, name, w[name], h[name])
                assert h["text"][name] == f"{w[name]:.3f}", (where, name, w[name], h["text"][name])
                checked += 1
    assert checked > 10_000


FMT_BATCH = """async ([source, xs]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const m = await import(url);
  return xs.map(m.fmt3);
}"""


def test_three_decimal_text_matches_python_on_ties_and_signs(browser: Browser):
    """fmt3 writes what Python's f"{x:.3f}" writes, on exact ties (odd sixteenths round
    half to even), negatives, -0.0 and random values."""
    rng = random.Random(7)
    xs = [j / 16 for j in range(-400, 401)] + [-0.0, 0.0, 1e-7, -1e-7, 12345.0625, 2.0005,
                                               0.0005, 1.0005]
    xs += [rng.uniform(-50, 50) for _ in range(2000)]
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto("about:blank")
        got = page.evaluate(FMT_BATCH, [JS.read_text(encoding="utf-8"), xs])
    finally:
        context.close()
    assert [f"{x:.3f}" for x in xs] == got


def test_rows_make_room_with_animation_unless_reduced_motion(browser: Browser, start_app,
                                                             open_app):
    """Rows glide aside (a transform transition); with prefers-reduced-motion they jump."""
    durations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      reduced_motion=motion)
        page = context.new_page()
        try:
            open_app(page, start_app(DEMO))
            durations[motion] = row(page, "doc-a").evaluate(
                "el => getComputedStyle(el).transitionDuration")
        finally:
            context.close()
    assert durations == {"no-preference": "0.16s", "reduce": "0s"}


def test_the_ideal_table_is_read_only(demo: Page, wait_idle):
    """The ideal ordering's rows take no focus and no drag: pulling one changes nothing."""
    page = demo
    ideal = page.locator(".rt-list-ideal .rt-row")
    expect(ideal).to_have_count(6)
    expect(ideal.first).not_to_have_attribute("tabindex", "0")
    expect(page.locator(".rt-list-ideal button")).to_have_count(0)
    box = ideal.nth(3).bounding_box()
    page.mouse.move(box["x"] + 50, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 50, box["y"] - 80, steps=8)
    page.mouse.up()
    page.wait_for_timeout(300)
    expect(page.locator(ROOT)).to_have_attribute("data-figures", "engine")
    expect(order_line(page)).to_have_text("ORDER: " + ",".join(LABELS))
