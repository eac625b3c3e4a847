"""Every page fits a projector (1280x720), a laptop (1400x1000) and a phone (390x844).

In English at the three sizes, and in Chinese (``?lang=zh``, issue 15: "table headers that
still fit") at the two where room is shortest, the projector and the phone.

Each page is opened by its own name at the three sizes, in the states a class meets: every
tab of the worked examples, every stop of the guided tour, the expanders opened, an exercise
checked and then its solution shown. The test fails on

- anything cut off sideways: an element whose content is wider than its box (a data grid,
  a Markdown block, a formula, a metric, a static table, the page's main block) unless it
  is a data grid that scrolls with the phone's visible "swipe" hint beside it (ui/fit.css);
- a page that scrolls sideways (on the phone above all);
- "Page not found", and any exception shown on the page.

One server (the session's ``app_url``) and one browser context per size.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

import ndcg_core as nc
from conftest import FIRST_LOAD_TIMEOUT_MS, RERUN_TIMEOUT_MS, wait_idle_on
from lab import mistakes
from lab.i18n import t
from lab.text import fmt

SIZES = {
    "projector 1280x720": {"viewport": {"width": 1280, "height": 720}},
    "laptop 1400x1000": {"viewport": {"width": 1400, "height": 1000}},
    "phone 390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                      "has_touch": True, "device_scale_factor": 2},
}
# (size, language) pairs checked: English everywhere; Chinese where room is shortest (its
# words are wider per character, and the laptop has more room than the projector).
RUNS = [(size, "en") for size in SIZES] + [("projector 1280x720", "zh"), ("phone 390x844", "zh")]
# Every page by its own name (the root, where shared links open the playground, is checked
# by test_playground_opens_by_its_own_name_and_its_links_keep_working).
PAGES = ["playground", "start_here", "worked_examples", "gain", "cutoffs", "conventions",
         "beyond", "mistakes", "practice", "your_data"]

# Lazy parts (data grids, charts) have drawn.
DRAWN_JS = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  return !document.querySelector("[data-testid='stSkeleton']")
    && shown("[data-testid='stDataFrame']").every((f) => f.querySelector('.dvn-scroller'));
}"""

# What is cut: [kind, box width, content width, text] per element; plus the page's own width.
CLIPPED_JS = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const shown = (e) => e.checkVisibility() && !e.closest("[data-testid='stSidebar']");
  const text = (e) => (e.innerText || "").replace(/\\s+/g, " ").slice(0, 60);
  const cut = [];
  for (const frameEl of document.querySelectorAll("[data-testid='stDataFrame']")) {
    if (!shown(frameEl)) continue;
    frameEl.scrollIntoView({block: "center"});
    await frame();
    const box = frameEl.querySelector(".dvn-scroller");
    if (!box || box.scrollWidth <= box.clientWidth + 1) continue;
    // the phone's hint: beside a pair of tables, or just above a single one
    const row = frameEl.closest("[data-testid='stHorizontalBlock']");
    const above = frameEl.closest(".stElementContainer")?.previousElementSibling;
    const hint = [...(row ? row.querySelectorAll(".ndcg-pair") : []),
                  ...(above ? above.querySelectorAll(".ndcg-swipe") : [])]
                 .some((h) => h.checkVisibility());
    if (!hint) cut.push(["data grid", box.clientWidth, box.scrollWidth, text(frameEl)]);
  }
  const boxes = ["[data-testid='stMainBlockContainer']", "[data-testid='stMarkdownContainer']",
                 ".katex-display", "[data-testid='stMetric']", "[data-testid='stTable']",
                 "[data-testid='stCaptionContainer']", "[data-testid='stAlertContainer']",
                 "[data-testid='stTab']", "[data-testid='stExpander'] summary"];
  for (const e of document.querySelectorAll(boxes.join(", "))) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1)
      cut.push([e.dataset.testid || e.className.split(" ")[0], e.clientWidth, e.scrollWidth,
                text(e)]);
  }
  const page = document.scrollingElement;
  return {cut, pageWidth: page.scrollWidth, viewport: innerWidth,
          notFound: document.body.innerText.includes("Page not found"),
          exceptions: [...document.querySelectorAll("[data-testid='stException']")]
                        .map((e) => text(e))};
}"""


def settle(page: Page) -> None:
    wait_idle_on(page)
    page.wait_for_function(DRAWN_JS, timeout=RERUN_TIMEOUT_MS)
    page.wait_for_timeout(200)  # layout after the last paint (wrapping, fonts)


def problems(page: Page, where: str) -> list[str]:
    found = page.evaluate(CLIPPED_JS)
    out = [f"{where}: {kind} cut ({box} px box < {content} px content): {text!r}"
           for kind, box, content, text in found["cut"]]
    if found["pageWidth"] > found["viewport"]:
        out.append(f"{where}: the page scrolls sideways ({found['pageWidth']} px > "
                   f"{found['viewport']} px)")
    if found["notFound"]:
        out.append(f"{where}: Page not found")
    out += [f"{where}: exception {e!r}" for e in found["exceptions"]]
    return out


def click(page: Page, locator) -> None:
    locator.scroll_into_view_if_needed()
    locator.click()
    settle(page)


def states(page: Page, name: str, lang: str):
    """Yield a label per state of page ``name`` worth measuring (the page as opened first);
    buttons and tabs are found by their label in ``lang``."""
    yield "as opened"
    if name == "worked_examples":
        tabs = page.get_by_role("tab")
        for i in range(1, tabs.count()):
            click(page, tabs.nth(i))
            yield f"tab {tabs.nth(i).inner_text()!r}"
    elif name == "start_here":
        for step in range(2, 5):
            click(page, page.get_by_role("button", name=t("Next", lang)))
            yield f"tour stop {step}"
    elif name in ("cutoffs", "conventions"):
        click(page, page.get_by_test_id("stExpander").first.locator("summary"))
        yield "expander open"
    elif name == "mistakes":  # one screen per mistake: each of them in turn
        for i in range(2, len(mistakes.CATALOGUE) + 1):
            click(page, page.get_by_role("button", name=t("Next", lang)))
            yield f"mistake {i}"
    elif name == "practice":
        click(page, page.get_by_role("button", name=t("Check", lang)))
        yield "checked with nothing typed"
        click(page, page.get_by_role("button", name=t("Show solution", lang)))
        yield "solution shown"
        click(page, page.get_by_text(t("Spot the mistake", lang), exact=True))
        click(page, page.get_by_role("button", name=t("Check", lang)))
        yield "spot the mistake, checked with nothing picked"
    elif name == "playground":
        click(page, page.get_by_role("tab", name=t("Charts", lang)))
        yield "charts tab"


@pytest.mark.parametrize(("size", "lang"), RUNS, ids=[f"{s} {lang}" for s, lang in RUNS])
def test_every_page_fits_without_cutting_anything(browser: Browser, app_url: str,
                                                 size: str, lang: str) -> None:
    context = browser.new_context(**SIZES[size])
    context.set_default_timeout(RERUN_TIMEOUT_MS)
    page = context.new_page()
    found, started = [], time.monotonic()
    try:
        for name in PAGES:
            page.goto(f"{app_url}/{name}?lang={lang}", wait_until="domcontentloaded")
            page.wait_for_selector("[data-testid='stApp']", timeout=FIRST_LOAD_TIMEOUT_MS)
            wait_idle_on(page, timeout_ms=FIRST_LOAD_TIMEOUT_MS)
            settle(page)
            for state in states(page, name, lang):
                found += problems(page, f"{size} /{name}?lang={lang} ({state})")
    finally:
        context.close()
    assert not found, "\n".join(found)
    print(f"{size} {lang}: {len(PAGES)} pages in {time.monotonic() - started:.0f} s")


def test_playground_opens_by_its_own_name_and_its_links_keep_working(
        browser: Browser, app_url: str) -> None:
    """/playground opens the playground (no "Page not found"); a link made today, /?g=...,
    still opens its ranking at the root."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/playground", wait_until="domcontentloaded")
        wait_idle_on(page, timeout_ms=FIRST_LOAD_TIMEOUT_MS)
        assert page.get_by_role("heading", name="Playground").first.is_visible()
        assert "Page not found" not in page.inner_text("body")
        page.goto(f"{app_url}/?l=a&l=b&l=c&g=1%2C3%2C2&gain=linear&scale=0-3&k=3",
                  wait_until="domcontentloaded")
        wait_idle_on(page, timeout_ms=FIRST_LOAD_TIMEOUT_MS)
        assert "Page not found" not in page.inner_text("body")
        # grades [1, 3, 2]: NDCG@3 = (1 + 3/log2 3 + 2/2) / (3 + 2/log2 3 + 1/2) = 0.81749
        shown = fmt(nc.ndcg([1, 3, 2], k=3))
        assert shown == "0.817"
        # the playground's figures are the ranking table's (ui/ranking_table)
        page.locator("[data-figure='ndcg-linear']").filter(has_text=shown).first.wait_for()
        # and the root still draws everything without cutting it
        settle(page)
        assert not problems(page, "/?l=a&l=b&l=c&g=1,3,2 (a link made today)")
    finally:
        context.close()


# the bottom edge of the bordered card around the mistake's heading (ui/mistakes.py)
CARD_BOTTOM_JS = """() => {
  let e = document.querySelector("[data-testid='stMain'] h2");
  while (e && getComputedStyle(e).borderTopWidth === "0px") e = e.parentElement;
  return e ? e.getBoundingClientRect().bottom : null;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_mistake_fits_one_projector_screen(browser: Browser, app_url: str,
                                                lang: str) -> None:
    """At 1280x720 the lesson shows a whole mistake, figures, case and playground button,
    without scrolling (issue 23: one screen per mistake)."""
    context = browser.new_context(**SIZES["projector 1280x720"])
    context.set_default_timeout(RERUN_TIMEOUT_MS)
    page = context.new_page()
    too_tall = []
    try:
        page.goto(f"{app_url}/mistakes?lang={lang}", wait_until="domcontentloaded")
        page.wait_for_selector("[data-testid='stApp']", timeout=FIRST_LOAD_TIMEOUT_MS)
        wait_idle_on(page, timeout_ms=FIRST_LOAD_TIMEOUT_MS)
        settle(page)
        for i, key in enumerate(mistakes.KEYS):
            if i:
                click(page, page.get_by_role("button", name=t("Next", lang)))
                page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
            page.get_by_role("heading", name=mistakes.name(key, lang)).wait_for()
            bottom = page.evaluate(CARD_BOTTOM_JS)
            if bottom is None or bottom > 720:
                too_tall.append(f"{key}: the card ends at {bottom} px")
    finally:
        context.close()
    assert not too_tall, "\n".join(too_tall)
