"""Accessibility checks in Chromium: an axe-core audit of every page, a keyboard-only path
through the playground, chart titles and axis labels, and the "beyond k" text marker.

The audit uses axe-playwright-python (it bundles axe-core). It fails on any critical or
serious violation, except the ones listed in UPSTREAM: markup that Streamlit itself renders
and our code cannot change, each named with its rule, its element and why.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

import ndcg_core as nc
from lab.playground import DEFAULT_GRADES, DEFAULT_LABELS, ranking_query_params

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 15_000  # a rerun or a lazy element on two busy cores: up to the reruns' timeout
FAILING_IMPACTS = ("critical", "serious", "moderate")  # beyond the issue: moderate too

# Critical/serious findings in markup Streamlit renders, not us: (rule id, the upstream
# element a flagged node must sit in, why). Only a node inside that element is excused, and
# only for that rule; every other rule still runs on it.
UPSTREAM = [
    ("list", "[data-testid='stSidebarNavItems']",
     "st.navigation's sidebar (Streamlit 1.67) puts each page group, a <div> holding the group's "
     "<header> and its <li> links, straight inside <ul data-testid='stSidebarNavItems'>; axe "
     "'list' allows only <li> children. The groups come from app.py's grouped navigation."),
    ("listitem", "[data-testid='stSidebarNavItems']",
     "the same markup: each sidebar <li> link's parent is that group <div>, not a <ul>."),
]

# The axe target of a node is a list of selectors (one per frame); in a shadow DOM a selector
# is itself a list, host first. Resolve it and ask whether the node sits inside `within`.
NODE_WITHIN_JS = """([target, within]) => {
  let root = document, el = null;
  for (const sel of [].concat(target[target.length - 1])) {
    el = root.querySelector(sel);
    if (!el) return false;
    root = el.shadowRoot || el;
  }
  return !!el.closest(within);
}"""
# Lazy elements have drawn: no loading skeleton left, and every shown table, chart and list
# has its content (a table in a closed expander never draws, so only shown ones count).
RENDERED_JS = """() => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
  return !document.querySelector("[data-testid='stSkeleton']")
    && shown("[data-testid='stDataFrame']").every((f) => f.querySelector("table[role='grid']"))
    && shown("[data-testid='stPlotlyChart']").every((c) => c.querySelector('.main-svg'))
    && shown("[data-testid='stBidiComponentIsolated']")
         .every((h) => h.shadowRoot && h.shadowRoot.querySelector('.ndcg-row, .rt-row, .fx-line, .cm-editor'));
}"""
# Colours measured mid-transition are neither the start nor the end state: let them finish.
SETTLED_JS = """() => document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""


def english_title(node: ast.AST) -> str:
    """A page's title in app.py: a literal, or ``t("Title", lang)`` (lab.i18n's lookup,
    whose first argument is the English text the sidebar shows in English)."""
    if isinstance(node, ast.Call):
        node = node.args[0]
    return node.value


def app_pages() -> list[tuple[str, str, bool]]:
    """(url path, title, has the ranked list) of every st.Page in app.py, in its order.

    st.navigation derives a page's URL path from its file name; the default page is "/".
    """
    tree = ast.parse((ROOT / "app.py").read_text())
    pages = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page":
            kw = {k.arg: k.value for k in node.keywords}
            if "visibility" in kw and kw["visibility"].value == "hidden":
                continue  # /playground: the default page again under its own name
            default = "default" in kw and kw["default"].value is True
            file = node.args[0].value
            pages.append(("" if default else Path(file).stem, english_title(kw["title"]),
                          any(call in (ROOT / file).read_text()
                              for call in ("ranked_list(", "view.table("))))
    return pages


PAGES = app_pages()


def wait_rendered(page: Page) -> None:
    page.wait_for_function(RENDERED_JS, timeout=30_000)


def serious_violations(page: Page) -> tuple[list[str], list[str]]:
    """Run axe-core on the page: (critical/serious/moderate findings, upstream ones excused)."""
    results = Axe().run(page).response
    failing, excused = [], []
    for violation in results["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            why = "; ".join(c["message"] for c in node["any"] + node["all"] + node["none"])
            text = (f"{violation['id']} ({violation['impact']}): {violation['help']} — "
                    f"{json.dumps(node['target'])} {node['html'][:160]} — {why}")
            upstream = [within for rule, within, _ in UPSTREAM if rule == violation["id"]]
            if any(page.evaluate(NODE_WITHIN_JS, [node["target"], w]) for w in upstream):
                excused.append(text)
            else:
                failing.append(text)
    return failing, excused


def audit(page: Page, where: str) -> None:
    page.wait_for_function(SETTLED_JS, timeout=WAIT_MS)
    failing, excused = serious_violations(page)
    print(f"axe {where}: {len(failing)} failing, {len(excused)} upstream-excused")
    assert not failing, f"axe-core on {where}:\n" + "\n".join(failing)


ROWS = ".rt-list-rank .rt-row"  # the playground's ranking table (ui/ranking_table)


def ndcg_figure(page: Page, gain: str = "linear") -> Locator:
    return page.locator(f"[data-figure='ndcg-{gain}']")


def row(page: Page, label: str) -> Locator:
    return page.locator(ROWS).filter(
        has=page.locator(".rt-label-text").get_by_text(label, exact=True))


def rows_read(page: Page) -> list[tuple[str, float]]:
    cells = page.locator(ROWS).evaluate_all(
        "rows => rows.map(r => [r.querySelector('.rt-label-text').textContent,"
        " r.querySelector('.rt-grade').textContent])")
    return [(label, float(grade)) for label, grade in cells]


# ------------------------------------------------------------------ axe-core

@pytest.mark.parametrize("path, title, has_list", PAGES,
                         ids=[path or "playground" for path, _, _ in PAGES])
def test_every_page_has_no_serious_axe_violations(page: Page, app_url, open_app, path, title,
                                                  has_list) -> None:
    """axe-core finds no critical, serious or moderate violation on the page as it opens."""
    open_app(page, f"{app_url}/{path}")
    current = page.get_by_test_id("stSidebarNavLink").filter(has_text=title)
    expect(current).to_have_attribute("href", re.compile(rf"/{re.escape(path)}$"))
    if has_list:
        expect(page.locator(".ndcg-row, .rt-row").first).to_be_visible(timeout=WAIT_MS)
    wait_rendered(page)
    audit(page, f"/{path}")


def test_playground_with_rows_beyond_k_and_both_gains_passes_axe(page: Page, app_url,
                                                                 open_app) -> None:
    """With dimmed rows past k and both gains' figures, the playground still passes axe."""
    query = urlencode(ranking_query_params(DEFAULT_LABELS, DEFAULT_GRADES, k=3, gain="both"),
                      doseq=True)
    open_app(page, f"{app_url}/?{query}")
    expect(page.locator(f"{ROWS}.is-past")).to_have_count(3, timeout=WAIT_MS)
    wait_rendered(page)
    audit(page, "the playground, k = 3, both gains")
    page.get_by_role("tab", name="Charts").click()
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=WAIT_MS)
    wait_rendered(page)
    audit(page, "the playground's Charts tab, k = 3, both gains")


def test_evaluate_your_runs_with_the_sample_passes_axe_on_every_tab(page: Page, app_url,
                                                                    open_app,
                                                                    wait_idle) -> None:
    """With the sample loaded, each tab of "Evaluate your runs" passes axe-core."""
    open_app(page, f"{app_url}/your_data")
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    expect(page.get_by_role("tab", name="Per query")).to_be_visible(timeout=WAIT_MS)
    for tab in ("Per query", "Wins and losses", "Charts", "What changed?",
                "Choose gain and cutoff"):
        page.get_by_role("tab", name=tab).click()
        wait_idle(page)
        expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
        wait_rendered(page)
        audit(page, f"/your_data with the sample, tab {tab!r}")


# ------------------------------------------------------------------ keyboard only

DEEP_FOCUS_JS = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a) return {};
  const column = a.closest("[data-testid='stColumn']");
  const heading = column && column.querySelector('h2, h3');
  return {
    row: a.classList.contains('rt-row') ? a.querySelector('.rt-label-text').textContent : null,
    section: heading ? heading.textContent : null,
  };
}"""


def focus(page: Page) -> dict:
    return page.evaluate(DEEP_FOCUS_JS)


def tab_until(page: Page, done, limit: int = 80) -> dict:
    for _ in range(limit):
        page.keyboard.press("Tab")
        where = focus(page)
        if done(where):
            return where
    raise AssertionError(f"{limit} presses of Tab never reached the target; focus: {where}")


def test_keyboard_only_reorder_and_grade_edit_update_ndcg(page: Page, app_url, open_app,
                                                          wait_idle) -> None:
    """Without the mouse: Tab to the table, Alt+↑ a row, set a grade; NDCG follows.

    The keyboard path: Tab reaches the table's rows (a row is a tab stop; ↑/↓ move between
    them); Alt+↑ moves the focused row up one; a digit sets the focused row's grade.
    """
    k = len(DEFAULT_GRADES)
    open_app(page, app_url)
    expect(page.locator(ROWS)).to_have_count(k, timeout=WAIT_MS)
    wait_rendered(page)

    tab_until(page, lambda where: where.get("row") is not None)
    for _ in range(k):
        if focus(page)["row"] == "Doc D":
            break
        page.keyboard.press("ArrowDown")
    assert focus(page)["row"] == "Doc D"
    page.keyboard.press("Alt+ArrowUp")
    moved = ["Doc A", "Doc B", "Doc D", "Doc C", "Doc E", "Doc F"]
    grades = dict(zip(DEFAULT_LABELS, DEFAULT_GRADES))
    expected = f"{nc.ndcg([grades[x] for x in moved], k=k):.3f}"
    expect(page.locator(".rt-live")).to_have_text(f"Doc D moved to position 3; NDCG@{k} "
                                                  f"{expected}")
    expect(ndcg_figure(page)).to_have_text(expected, timeout=WAIT_MS)
    wait_idle(page)
    expect(page.locator(".rt")).to_have_attribute("data-figures", "engine", timeout=WAIT_MS)
    assert [label for label, _ in rows_read(page)] == moved
    expect(row(page, "Doc D")).to_be_focused()

    page.keyboard.press("ArrowUp")  # to Doc B
    assert focus(page)["row"] == "Doc B"
    page.keyboard.press("0")
    grades["Doc B"] = 0
    expected = f"{nc.ndcg([grades[x] for x in moved], k=k):.3f}"
    expect(row(page, "Doc B").locator(".rt-grade")).to_have_text("0", timeout=WAIT_MS)
    wait_idle(page)
    expect(page.locator(".rt")).to_have_attribute("data-figures", "engine", timeout=WAIT_MS)
    expect(ndcg_figure(page)).to_have_text(expected, timeout=WAIT_MS)
    assert rows_read(page) == [(label, float(grades[label])) for label in moved]


# ------------------------------------------------------------------ charts and markers

def test_every_playground_chart_has_a_title_and_axis_labels(page: Page, app_url,
                                                            open_app) -> None:
    """Each Plotly chart on the playground shows a title and both axis titles."""
    open_app(page, app_url)
    page.get_by_role("tab", name="Charts").click()  # charts are built when their tab opens
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=WAIT_MS)
    wait_rendered(page)
    for chart in page.get_by_test_id("stPlotlyChart").all():
        for part in (".gtitle", ".xtitle", ".ytitle"):
            texts = chart.locator(part).all_text_contents()
            assert texts and all(t.strip() for t in texts), f"{part} is missing or empty"


def test_rows_past_k_are_marked_in_text_not_only_faded(page: Page, app_url,
                                                       open_app) -> None:
    """Past the cutoff, rows are not only faded: each row's name says "past k: not
    counted", and the cutoff line says where k ends, in the ranking and in the ideal."""
    k = 4
    query = urlencode(ranking_query_params(DEFAULT_LABELS, DEFAULT_GRADES, k=k), doseq=True)
    open_app(page, f"{app_url}/?{query}")
    expect(page.locator(ROWS)).to_have_count(len(DEFAULT_LABELS), timeout=WAIT_MS)
    wait_rendered(page)

    for position, label in enumerate(DEFAULT_LABELS, start=1):
        if position > k:
            expect(row(page, label)).to_have_attribute(
                "aria-label", re.compile(r", past k: not counted$"))
            expect(row(page, label)).to_contain_text("past k: not counted")
            expect(row(page, label)).to_have_class(re.compile(r"\bis-past\b"))
        else:
            expect(row(page, label)).not_to_have_attribute("aria-label", re.compile("past k"))
            expect(row(page, label)).not_to_have_class(re.compile(r"\bis-past\b"))
    # the cutoff line under row k says it in words (drawn from the row's data-cut)
    expect(row(page, DEFAULT_LABELS[k - 1])).to_have_attribute(
        "data-cut", re.compile(rf"^k = {k}: rows below are past k"))
    ideal = page.locator(".rt-list-ideal .rt-row")
    expect(ideal.nth(k)).to_have_attribute("aria-label", re.compile(r", past k$"))
