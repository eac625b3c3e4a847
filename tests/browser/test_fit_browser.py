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
- "Page not found", and any exception shown on the page;
- a formula cut above or below (or sideways, unless its box scrolls), a word or a number
  split over two lines in a static table, a wide static table whose first column does not
  stay in place, a chart title cut or under Plotly's toolbar, the toolbar over the data;
- at 1280x720 (in both languages) and at 1400x1000, a step of Start here's tour, its text and
  its figures, not all on the first screen; on the phone, its figures not below its text;
- at 1280x720 (in both languages), a mistake of the mistakes lesson, its card (figures,
  case and playground button), not all on the first screen (issue 23: one screen each);
- class mode (/class): its landing page; the teacher's room once started and with a question
  open, whose join code, QR code, question and count must be on the first screen of the
  projector and the laptop; on the phone, a student's join and answer views (the join form,
  the question and its Send button on the first screen);
- onboarding (/onboarding): its landing page, the lead's view of a team just started, and
  the same view once a member has joined: the members x steps matrix, every column in view
  at 1280x720 in both languages (on the phone it scrolls sideways, its swipe hint shown).

One server (the session's ``app_url``) and one browser context per size.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

import ndcg_core as nc
from conftest import FIRST_LOAD_TIMEOUT_MS, RERUN_TIMEOUT_MS, open_app_on, wait_idle_on
from test_class_mode_browser import WORDS, press, start
from lab import mistakes as M
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
         "beyond", "mistakes", "practice", "write_code", "your_data", "class", "onboarding"]
# A member of the team the onboarding lead starts: a long name, as names come.
MEMBER = "Maria Fernanda Oliveira-Santos"

# Lazy parts (data grids, charts) have drawn.
DRAWN_JS = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  return !document.querySelector("[data-testid='stSkeleton']")
    && shown("[data-testid='stDataFrame']").every((f) => f.querySelector('.dvn-scroller'))
    && shown("[data-testid='stPlotlyChart']").every((c) => c.querySelector('.main-svg'));
}"""

# What is drawn wrong though nothing is wider than its box: [what, text] per flaw.
# - A formula: every glyph of a KaTeX formula (its text and its fraction lines) lies inside
#   each box that clips it; a box that scrolls sideways may hold a wider formula, but none
#   may cut it above or below, nor scroll up and down.
# - A static table (Markdown, st.table): no Latin word or number is split over two lines
#   (each one's Range has one line of rects); a table that scrolls sideways keeps its first
#   column fixed (sticky).
# - A chart: its title lies inside the chart and clear of Plotly's toolbar (the modebar),
#   and the toolbar is clear of the plot's data area, whether shown or not.
FLAWS_JS = """async () => {
  const shown = (e) => e.checkVisibility() && !e.closest("[data-testid='stSidebar']");
  const text = (e) => (e.innerText || e.textContent || "").replace(/\\s+/g, " ").slice(0, 60);
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                         && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const flaws = [];
  const stop = document.querySelector("[data-testid='stMain']");
  for (const k of document.querySelectorAll(".katex")) {
    const html = k.querySelector(".katex-html");
    if (!html || !shown(k)) continue;
    const ink = [];
    const walk = document.createTreeWalker(html, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      ink.push(...range.getClientRects());
    }
    for (const e of html.querySelectorAll("svg, .frac-line")) ink.push(box(e));
    const drawn = ink.filter((r) => r.width > 0 && r.height > 0);
    if (!drawn.length) continue;
    const top = Math.min(...drawn.map((r) => r.top));
    const bottom = Math.max(...drawn.map((r) => r.bottom));
    const left = Math.min(...drawn.map((r) => r.left));
    const right = Math.max(...drawn.map((r) => r.right));
    for (let a = k.parentElement; a && a !== stop && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const r = box(a);
      const vTop = r.top + a.clientTop, vLeft = r.left + a.clientLeft;
      const why = [];
      if (top < vTop - 0.5) why.push(`${(vTop - top).toFixed(1)} px cut at the top`);
      if (bottom > vTop + a.clientHeight + 0.5)
        why.push(`${(bottom - vTop - a.clientHeight).toFixed(1)} px cut at the bottom`);
      if (["auto", "scroll"].includes(s.overflowY) && a.scrollHeight > a.clientHeight + 1)
        why.push("scrolls up and down");
      if (!["auto", "scroll"].includes(s.overflowX)
          && (left < vLeft - 0.5 || right > vLeft + a.clientWidth + 0.5)) why.push("cut sideways");
      if (why.length) {
        flaws.push([`formula ${why.join(", ")} by ${a.dataset.testid || a.className.split(" ")[0]}`,
                    text(k)]);
        break;
      }
    }
  }
  const tables = "[data-testid='stMarkdownContainer'] table, [data-testid='stTable'] table";
  for (const table of document.querySelectorAll(tables)) {
    if (!shown(table)) continue;
    for (const cell of table.querySelectorAll("th, td")) {
      const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.parentElement.closest(".katex-mathml")) continue;
        for (const m of n.data.matchAll(/[A-Za-z0-9_.,@%+\\-\u2011\u2212]{2,}/g)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                                  .map((r) => Math.round(r.top)));
          if (lines.size > 1) flaws.push(["word broken over two lines in a table", m[0]]);
        }
      }
    }
    const scroller = [table, table.parentElement].find(
      (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX));
    const first = table.querySelector("tr > :first-child");
    if (scroller && scroller.scrollWidth > scroller.clientWidth + 1 && first
        && getComputedStyle(first).position !== "sticky")
      flaws.push(["table scrolls sideways, its first column not fixed", text(table)]);
  }
  for (const chart of document.querySelectorAll("[data-testid='stPlotlyChart']")) {
    if (!shown(chart)) continue;
    const title = chart.querySelector(".gtitle"), bar = chart.querySelector(".modebar");
    const plot = chart.querySelector(".nsewdrag");
    const c = box(chart);
    if (title) {
      const t = box(title);
      if (t.left < c.left - 0.5 || t.right > c.right + 0.5 || t.top < c.top - 0.5)
        flaws.push(["chart title outside its chart", text(title)]);
      if (bar && meet(t, box(bar))) flaws.push(["chart title under the toolbar", text(title)]);
    }
    if (bar && plot && meet(box(bar), box(plot)))
      flaws.push(["chart toolbar over the data", text(title || chart)]);
  }
  return flaws;
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
    out += [f"{where}: {what}: {text!r}" for what, text in page.evaluate(FLAWS_JS)]
    if found["pageWidth"] > found["viewport"]:
        out.append(f"{where}: the page scrolls sideways ({found['pageWidth']} px > "
                   f"{found['viewport']} px)")
    if found["notFound"]:
        out.append(f"{where}: Page not found")
    out += [f"{where}: exception {e!r}" for e in found["exceptions"]]
    return out


# Start here's tour: the bottom of the step's box (its text, figures and link), how far the
# page has scrolled, and where the step's two columns (text, figures) are.
TOUR_JS = """() => {
  const next = document.querySelector(".st-key-sh_next");
  const step = document.querySelector(".st-key-sh_tour");  // the step's bordered box
  const cols = step ? [...step.querySelectorAll("[data-testid='stColumn']")]
    .filter((c) => c.parentElement.closest("[data-testid='stColumn']") === null)
    .map((c) => { const r = c.getBoundingClientRect(); return [r.top, r.bottom]; }) : [];
  return {bottom: step ? step.getBoundingClientRect().bottom : null, next: !!next, cols,
          scrolled: document.querySelector("[data-testid='stMain']").scrollTop,
          height: innerHeight};
}"""
# Where every step of the tour, and the teacher's room in class mode, must be on the first
# screen (text and figures side by side).
FIRST_SCREEN_SIZES = ("projector 1280x720", "laptop 1400x1000")


def tour_problems(page: Page, where: str, size: str, *, opened: bool) -> list[str]:
    """Start here: the tour's step, text and figures, on the first screen at the projector's
    and the laptop's sizes (the page as opened, unscrolled; a later step once scrolled back
    to the top, where Next is); on the phone, its figures below its text."""
    if not opened:
        page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        page.wait_for_timeout(100)
    found = page.evaluate(TOUR_JS)
    if found["bottom"] is None or not found["next"] or len(found["cols"]) != 2:
        return [f"{where}: no tour step with its text and figures found"]
    (_, text_bottom), (figures_top, _) = found["cols"]
    if size not in FIRST_SCREEN_SIZES:
        return [] if figures_top >= text_bottom else [
            f"{where}: the step's figures beside its text, not below it"]
    print(f"{where}: the tour's step ends at {found['bottom']:.1f} px")
    if found["scrolled"] or found["bottom"] > found["height"]:
        return [f"{where}: the tour's step ends at {found['bottom']:.1f} px, below the "
                f"first screen ({found['height']} px)"]
    return []


# Class mode: the bottom of each part a class must see at once (a selector per part; the
# keyed containers are ui/class_teacher.py's), or null where a part is missing.
BOTTOMS_JS = """(parts) => Object.fromEntries(Object.entries(parts).map(([name, sel]) => {
  const e = [...document.querySelectorAll(sel)].find((x) => x.checkVisibility());
  return [name, e ? e.getBoundingClientRect().bottom : null];
}))"""


def first_screen(page: Page, where: str, parts: dict[str, str]) -> list[str]:
    """Each of ``parts`` (name: selector) shown and on the first screen, page at its top."""
    page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
    page.wait_for_timeout(100)
    height = page.evaluate("innerHeight")
    out = []
    for name, bottom in page.evaluate(BOTTOMS_JS, parts).items():
        if bottom is None or bottom > height:
            out.append(f"{where}: {name} not on the first screen ({height} px): "
                       f"{'missing' if bottom is None else f'ends at {bottom:.0f} px'}")
        else:
            print(f"{where}: {name} ends at {bottom:.0f} px")
    return out


def class_problems(page: Page, app_url: str, size: str, lang: str) -> list[str]:
    """Class mode beyond its landing page: the teacher's room after *Start a class* and with a
    question open (join code, QR code, question and count on the first screen of the
    projector and the laptop); on the phone, a student's join view and answer view (the join
    form, and the question with its Send button, on the first screen)."""
    w, where = WORDS[lang], f"{size} /class?lang={lang}"
    code, _ = start(page, app_url, w, lang)
    settle(page)
    found = problems(page, f"{where} (class started)")
    if size in FIRST_SCREEN_SIZES:
        found += first_screen(page, f"{where} (class started)", {
            "the QR code": ".st-key-cl_join img", "the join code": ".st-key-cl_join h1",
            "Next question": ".st-key-cl_do_next"})
    press(page, w["next"])
    page.get_by_text(w["q"].format(n=1)).first.wait_for()
    settle(page)
    if size in FIRST_SCREEN_SIZES:
        found += first_screen(page, f"{where} (a question open)", {
            "the QR code": ".st-key-cl_side img",
            "the join code": ".st-key-cl_side [data-testid='stMetric']",
            "the count": ".st-key-cl_live [data-testid='stMetric']",
            "the question": ".st-key-cl_live [data-testid='stDataFrame']",
            "Lock": ".st-key-cl_do_lock"})
    found += problems(page, f"{where} (a question open)")
    if size != "phone 390x844":
        return found
    student = page.context.new_page()  # a session of its own
    try:
        open_app_on(student, f"{app_url}/class?join={code}&lang={lang}")
        settle(student)
        found += first_screen(student, f"{where} (a student's join view)", {
            "the join code": ".st-key-cl_code", "Join": "[data-testid='stFormSubmitButton']"})
        found += problems(student, f"{where} (a student's join view)")
        press(student, w["join"], tap=True)
        student.wait_for_url("**me=*")
        student.get_by_label(w["answer"]).wait_for()
        settle(student)
        found += first_screen(student, f"{where} (a student's answer view)", {
            "the question": "[data-testid='stDataFrame']",
            "Send": "[data-testid='stFormSubmitButton']"})
        found += problems(student, f"{where} (a student's answer view)")
    finally:
        student.close()
    return found


# the bottom edge of the bordered card around the mistake's heading (ui/mistakes.py)
CARD_BOTTOM_JS = """() => {
  let e = document.querySelector("[data-testid='stMain'] h2");
  while (e && getComputedStyle(e).borderTopWidth === "0px") e = e.parentElement;
  return e ? e.getBoundingClientRect().bottom : null;
}"""


def mistake_card_problems(page: Page, where: str) -> list[str]:
    """The mistakes lesson at 1280x720 (both languages): the whole mistake, its figures,
    case and playground button, on one screen without scrolling (issue 23)."""
    page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
    page.wait_for_timeout(100)
    bottom = page.evaluate(CARD_BOTTOM_JS)
    if bottom is None or bottom > 720:
        return [f"{where}: the mistake's card ends at {bottom} px, below the first screen"]
    return []


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
        for i in range(2, len(M.CATALOGUE) + 1):
            click(page, page.get_by_role("button", name=t("Next", lang)))
            page.get_by_role("heading", name=M.name(M.KEYS[i - 1], lang)).wait_for()
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
    elif name == "onboarding":  # the landing page; the lead's view, then with a member
        click(page, page.get_by_role("button", name=t("Start a team", lang)))
        page.wait_for_url("**/onboarding?team=*")
        settle(page)
        yield "a team started"
        team_link = page.url
        member = page.context.browser.new_context()  # a browser of its own: not the lead's
        try:
            joining = member.new_page()
            open_app_on(joining, f"{team_link}&lang={lang}")
            joining.get_by_label(t("Your name", lang)).fill(MEMBER)
            press(joining, t("Join the team", lang))
            joining.wait_for_url("**me=*")
        finally:
            member.close()
        page.get_by_test_id("stDataFrame").wait_for()  # the matrix follows the team live
        settle(page)
        yield "a member joined: the members x steps matrix"


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
                where = f"{size} /{name}?lang={lang} ({state})"
                if name == "start_here":  # before problems(), which scrolls to each grid
                    found += tour_problems(page, where, size, opened=state == "as opened")
                if name == "mistakes" and size == "projector 1280x720":  # likewise
                    found += mistake_card_problems(page, where)
                found += problems(page, where)
            if name == "class":
                found += class_problems(page, app_url, size, lang)
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


