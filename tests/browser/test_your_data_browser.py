"""Browser checks of "Evaluate your runs": real uploads in Chromium, read what a user reads."""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.sync_api import expect

import pandas as pd

from ndcg_core import compare, evaluate, read_qrels, read_run, to_markdown
from conftest import upload_on
from ui.your_data import SAMPLE_RUNS

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"
QRELS = b"1 0 d1 2\n1 0 d2 0\n1 0 d3 3\n2 0 d4 1\n2 0 d5 2\n3 0 d6 0\n"
RUN = (b"1 Q0 d2 1 3.0 mine\n1 Q0 d1 2 2.0 mine\n1 Q0 d3 3 1.0 mine\n"
       b"2 Q0 d5 1 0.4 mine\n2 Q0 d4 2 0.9 mine\n3 Q0 d6 1 1.0 mine\n")


RENDERED_JS = """() => [...document.querySelectorAll("[data-testid='stDataFrame']")]
  .filter((e) => e.checkVisibility()).every((f) => f.querySelector("table[role='grid']"))"""
# Neither the page nor its main column (Streamlit scrolls that box, not the document)
# scrolls sideways.
NO_SIDEWAYS_JS = """() => [document.scrollingElement,
                            document.querySelector("[data-testid='stMain']")]
  .every((e) => e.scrollWidth <= e.clientWidth)"""
# Per table: is its grid wider than its box, and does the element after it hint at scrolling?
OVERFLOW_JS = """() => [...document.querySelectorAll("[data-testid='stDataFrame']")]
  .filter((e) => e.checkVisibility()).map((f) => {
    const scroller = f.querySelector('.dvn-scroller');
    const box = f.closest("[data-testid='stElementContainer']");
    const next = box && box.nextElementSibling;
    return {wider: !!scroller && scroller.scrollWidth > scroller.clientWidth + 1,
            hint: !!next && next.innerText.includes('scroll the table sideways'),
            cut: f.getBoundingClientRect().right > window.innerWidth + 1};
  })"""


def means_cells(page) -> list[str]:
    """The cells of the headline table (mean over queries), as the grid renders them."""
    page.wait_for_function(RENDERED_JS, timeout=30_000)
    grid = page.locator("[data-testid='stDataFrame'] >> visible=true").first
    return grid.locator("table[role='grid'] td").evaluate_all(
        "tds => tds.map(td => td.textContent)")


def open_page(page, app_url, open_app, wait_idle):
    """Open the app, then its "Evaluate your runs" page from the navigation, as a user does."""
    open_app(page, app_url)
    nav = page.get_by_test_id("stSidebarNav")
    more = nav.get_by_text("View", exact=False).filter(has_text="more")
    if more.count():  # the sidebar folds its last links away
        more.first.click()
    nav.get_by_role("link", name="Evaluate your runs").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Evaluate your runs")).to_be_visible()


def test_uploading_judgments_and_a_run_shows_the_engines_mean(page, app_url, open_app,
                                                              wait_idle):
    """Uploading a qrels and a run file shows mean NDCG@10 exactly as ndcg_core computes it."""
    open_page(page, app_url, open_app, wait_idle)
    upload_on(page, "Judgments",
              [{"name": "judgments.qrels", "mimeType": "text/plain", "buffer": QRELS}])
    upload_on(page, "Runs", [{"name": "mine.run", "mimeType": "text/plain", "buffer": RUN}])
    expect(page.get_by_role("heading", name="Mean over queries")).to_be_visible()
    expected = evaluate(read_qrels(io.BytesIO(QRELS)), read_run(io.BytesIO(RUN)), k=5)
    cells = means_cells(page)
    # the grid's accessible cells hold the exact value (the canvas draws it with 4 decimals)
    assert cells[:2] == ["mine.run", "3"]
    assert f"{float(cells[2]):.4f}" == f"{expected['ndcg@5'].mean():.4f}"


def test_a_bad_upload_shows_the_line_and_the_sample_still_loads(page, app_url, open_app,
                                                                wait_idle):
    """A malformed judgments file shows an error naming the line; the sample then works."""
    open_page(page, app_url, open_app, wait_idle)
    upload_on(page, "Judgments", [{"name": "bad.qrels", "mimeType": "text/plain",
                                   "buffer": b"1 0 d1 2\n1 0 d2 relevant\n"}])
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("line 2")
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    qrels = read_qrels(SAMPLES / "qrels.txt")
    expected = evaluate(qrels, read_run(SAMPLES / "system_b.run"), k=5)["ndcg@5"].mean()
    expect(page.get_by_role("heading", name="Mean over queries")).to_be_visible()
    cells = means_cells(page)
    row = cells.index("system_b.run")
    assert f"{float(cells[row + 2]):.4f}" == f"{expected:.4f}"
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


MARK_SETTINGS_JS = """() => document.querySelectorAll("[data-testid='stMultiSelect']")
    .forEach(n => { n.dataset.seen = "before"; })"""
SAME_SETTINGS_JS = """() => [...document.querySelectorAll("[data-testid='stMultiSelect']")]
    .map(n => n.dataset.seen === "before")"""


def test_loading_files_keeps_the_settings_widgets_and_the_chosen_cutoffs(page, app_url,
                                                                         open_app, wait_idle):
    """The files' panel grows when files come; the settings below stay the same widgets (a
    remounted multiselect can come back empty), and cutoffs chosen before survive the
    sample, an upload and a tab click."""
    open_page(page, app_url, open_app, wait_idle)
    page.get_by_role("button", name="Remove 5").click()
    wait_idle(page)
    page.evaluate(MARK_SETTINGS_JS)
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    expect(page.get_by_role("tab", name="Per query")).to_be_visible()
    assert page.evaluate(SAME_SETTINGS_JS) == [True]
    page.get_by_role("tab", name="Charts").click()
    wait_idle(page)
    expect(page.get_by_role("tab", name="Charts")).to_have_attribute("aria-selected", "true")
    chips = page.get_by_test_id("stMultiSelect").get_by_role("button", name=re.compile("^Remove"))
    assert sorted(b.get_attribute("aria-label") for b in chips.all()) == ["Remove 10",
                                                                          "Remove 20"]
    upload_on(page, "Runs", [{"name": "mine.run", "mimeType": "text/plain", "buffer": RUN}])
    assert page.evaluate(SAME_SETTINGS_JS) == [True]
    assert len(chips.all()) == 2


def test_tabs_draw_on_click_and_a_query_opens_in_the_playground(page, app_url, open_app,
                                                                 wait_idle):
    """Opening a tab draws it; "Open in playground" lands on the playground with the query."""
    open_page(page, app_url, open_app, wait_idle)
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    page.get_by_role("tab", name="What changed?").click()
    wait_idle(page)
    expect(page.get_by_text("Mean NDCG under every preset")).to_be_visible()
    page.get_by_role("tab", name="Charts").click()
    wait_idle(page)
    # Plotly's bundle loads with the first chart: on two busy cores that takes a while
    expect(page.get_by_test_id("stPlotlyChart").locator(".main-svg").first).to_be_visible(
        timeout=30_000)
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2)
    page.get_by_role("tab", name="Per query").click()
    wait_idle(page)
    page.get_by_role("button", name="Open in playground").click()
    wait_idle(page)
    expect(page).to_have_url(re.compile(r"\?l=q01-d"))
    expect(page.get_by_role("heading", name="Playground")).to_be_visible()
    # the playground scores the handed-over ranking as the engine scored the query
    qrels = read_qrels(SAMPLES / "qrels.txt")
    value = evaluate(qrels, read_run(SAMPLES / "system_a.run"), k=20).loc["q01", "ndcg@20"]
    # the playground's figures are the ranking table's (ui/ranking_table)
    expect(page.locator("[data-figure='ndcg-linear']")).to_have_text(f"{value:.3f}",
                                                                       timeout=30_000)


def test_the_comparison_exports_the_engines_table_and_the_page_fits(page, app_url, open_app,
                                                                    wait_idle, tmp_path):
    """Wilcoxon chosen: the Markdown download is compare()'s table as to_markdown writes it.
    At 1280x720 and 1400x1000 a table wider than its box says it scrolls; at 390x844 the
    page does not scroll sideways."""
    open_page(page, app_url, open_app, wait_idle)
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    test = page.get_by_test_id("stSelectbox").filter(has_text="Significance test")
    page.wait_for_function(RENDERED_JS, timeout=30_000)  # a click during a rerun is lost
    box = test.get_by_role("combobox")
    box.focus()
    box.press_sequentially("wilcoxon")  # typing opens the list, filtered; Enter picks
    expect(page.get_by_role("option", name="wilcoxon")).to_be_visible(timeout=15_000)
    box.press("Enter")
    wait_idle(page)
    # the footnote names the test once the rerun has drawn the new table
    expect(page.get_by_test_id("stCaptionContainer").filter(
        has_text="Wilcoxon signed-rank test")).to_be_visible(timeout=30_000)
    with page.expect_download() as info:
        page.get_by_role("button", name="Markdown").click()
    text = info.value.path().read_text(encoding="utf-8")
    qrels = read_qrels(SAMPLES / "qrels.txt")
    runs = {n: read_run(SAMPLES / n) for n in SAMPLE_RUNS}  # the page's order
    per_query = pd.concat({n: evaluate(qrels, r, k=20)["ndcg@20"] for n, r in runs.items()},
                          axis=1)
    assert text == to_markdown(compare(per_query, baseline="system_a.run", test="wilcoxon"))
    assert "Wilcoxon signed-rank test" in text
    for width, height in ((1280, 720), (1400, 1000)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        page.wait_for_function(RENDERED_JS, timeout=30_000)
        tables = page.evaluate(OVERFLOW_JS)
        assert tables and all(t["hint"] for t in tables if t["wider"]), (width, tables)
        assert not any(t["cut"] for t in tables), (width, tables)
        assert page.evaluate(NO_SIDEWAYS_JS)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(600)
    assert page.evaluate(NO_SIDEWAYS_JS)


# Each control's centre, scrolled to the middle of the screen: is the control itself what a
# tap there reaches? (Not a data grid's toolbar drawn over it.)
COVERED_JS = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const covered = [];
  const main = document.querySelector("[data-testid='stMain']");
  for (const c of main.querySelectorAll("button, input, [role='combobox']")) {
    if (!c.checkVisibility() || c.closest("[data-testid='stElementToolbar']")
        || c.closest("[data-testid='stDataFrame']")) continue;
    c.scrollIntoView({block: "center"});
    await frame();
    const r = c.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top && !c.contains(top) && !top.contains(c))
      covered.push([c.getAttribute("aria-label") || c.innerText || c.tagName,
                    top.closest("[data-testid]")?.dataset.testid || top.tagName]);
  }
  return covered;
}"""


def test_on_a_phone_no_table_toolbar_covers_a_control(browser, app_url, wait_idle):
    """At 390x844 (touch), the sample loaded: every button and box on the page, α's − and +
    among them, is what a tap on it reaches; no data grid's toolbar lies over it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/your_data", wait_until="domcontentloaded")
        page.wait_for_selector("[data-testid='stApp']", timeout=45_000)
        wait_idle(page, timeout_ms=45_000)
        page.get_by_role("button", name="Load the sample").click()
        wait_idle(page)
        page.wait_for_function(RENDERED_JS, timeout=30_000)
        alpha = page.get_by_test_id("stNumberInput").filter(has_text="α")
        expect(alpha.get_by_test_id(re.compile("stNumberInputStep"))).to_have_count(2)  # − +
        assert page.evaluate(COVERED_JS) == []
    finally:
        context.close()
