"""Browser checks of the data page's "Choose gain and cutoff" tab: the sample's nine runs in
Chromium, the τ heatmap drawn; the tab fits the three screens (the fit test's measures)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import test_fit_browser as FIT
from conftest import open_app_on
from lab.i18n import t


def test_the_sample_draws_the_tau_heatmap_of_the_choices(page, app_url, open_app, wait_idle):
    """Load the sample, open "Choose gain and cutoff": the recommendation is written and the
    Kendall's τ heatmap of the twelve choices is drawn (Plotly's heatmap layer and its
    title), the steeper discount's among them."""
    open_app(page, f"{app_url}/your_data")  # its own address: the sidebar may fold its link
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    page.get_by_role("tab", name="Choose gain and cutoff").click()
    wait_idle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("separates",
                                                                        timeout=60_000)
    # the title wraps onto two lines (two SVG texts): its first words find the chart
    heatmap = page.get_by_test_id("stPlotlyChart").filter(has_text="Kendall's τ between")
    # Plotly's bundle loads with the first chart: on two busy cores that takes a while
    expect(heatmap.locator("g.heatmaplayer g.hm")).to_have_count(1, timeout=60_000)
    for name in ("linear@5", "exponential@20", "exponential@20, steeper"):
        expect(heatmap.locator("g.xtick", has_text=re.compile(f"^{name}$"))).to_have_count(1)
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(4)


# The tab's wide grids (the evidence, the swapped pairs) scroll sideways where they do not
# fit: each must say so, by the phone's swipe hint above it or by
# the data page's scroll caption under it. [box, content] of each that does not.
UNSAID_GRIDS_JS = """(words) => {
  const panel = [...document.querySelectorAll("[role='tabpanel']")].find(
    (p) => p.checkVisibility());
  const out = [];
  for (const frame of panel.querySelectorAll("[data-testid='stDataFrame']")) {
    const box = frame.querySelector(".dvn-scroller");
    if (!box || box.scrollWidth <= box.clientWidth + 1) continue;
    const container = frame.closest(".stElementContainer");
    const above = container.previousElementSibling?.querySelector(".ndcg-swipe");
    const below = container.nextElementSibling?.innerText || "";
    if (!(above && above.checkVisibility()) && !below.includes(words))
      out.push([box.clientWidth, box.scrollWidth]);
  }
  return out;
}"""


@pytest.mark.parametrize(("size", "lang"), [("projector 1280x720", "en"),
                                            ("laptop 1400x1000", "en"),
                                            ("phone 390x844", "en"), ("projector 1280x720", "zh"),
                                            ("phone 390x844", "zh")])
def test_the_tab_fits_a_projector_a_laptop_and_a_phone(new_page, app_url, size, lang):
    """The tab with the sample's twelve choices, measured as the fit test measures every
    page (nothing cut, no page scrolling sideways), in Chinese too where room is shortest
    (the projector, the phone). Its two wide grids scroll sideways where they do not fit and
    say so (the data page's way); the page's tables above the tabs are the fit of "Evaluate
    your runs" itself, not this tab's."""
    screen = dict(FIT.SIZES[size])
    viewport = screen.pop("viewport")
    page = new_page(viewport["width"], viewport["height"], **screen)
    open_app_on(page, f"{app_url}/your_data?lang={lang}")
    FIT.click(page, page.get_by_role("button", name=t("Load the sample", lang)))
    FIT.click(page, page.get_by_role("tab", name=t("Choose gain and cutoff", lang)))
    expect(page.get_by_test_id("stAlertContentSuccess")).to_be_visible(timeout=120_000)
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(4, timeout=60_000)
    FIT.settle(page)
    where = f"{size} /your_data?lang={lang} (Choose gain and cutoff)"
    found = [f for f in FIT.problems(page, where) if not f.startswith(f"{where}: data grid cut")]
    words = t("{n} columns: where they do not all fit, scroll the table sideways (Shift + "
              "wheel, or swipe); the first column stays in place.", lang, n=0).split("0", 1)[1]
    found += [f"{where}: a grid scrolls sideways unsaid ({box} px box < {content} px)"
              for box, content in page.evaluate(UNSAID_GRIDS_JS, words.strip()[:20])]
    assert not found, "\n".join(found)
