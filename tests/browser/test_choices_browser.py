"""Browser check of the data page's "Choose gain and cutoff" tab: the sample's nine runs in
Chromium, the τ heatmap drawn."""

from __future__ import annotations

import re

from playwright.sync_api import expect


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
