"""Browser checks of "Evaluate your runs": real uploads in Chromium, read what a user reads."""

from __future__ import annotations

import io
import re
from pathlib import Path

from playwright.sync_api import expect

from ndcg_core import evaluate, read_qrels, read_run

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"
QRELS = b"1 0 d1 2\n1 0 d2 0\n1 0 d3 3\n2 0 d4 1\n2 0 d5 2\n3 0 d6 0\n"
RUN = (b"1 Q0 d2 1 3.0 mine\n1 Q0 d1 2 2.0 mine\n1 Q0 d3 3 1.0 mine\n"
       b"2 Q0 d5 1 0.4 mine\n2 Q0 d4 2 0.9 mine\n3 Q0 d6 1 1.0 mine\n")


def metric_value(page, label: str) -> str:
    metric = page.get_by_test_id("stMetric").filter(has_text=label)
    return metric.get_by_test_id("stMetricValue").inner_text().strip()


def uploader_input(page, label: str):
    return page.get_by_test_id("stFileUploader").filter(has_text=label).locator(
        "input[type='file']")


def open_page(page, app_url, open_app, wait_idle):
    """Open the app, then its "Evaluate your runs" page from the navigation, as a user does."""
    open_app(page, app_url)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Evaluate your runs").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Evaluate your runs")).to_be_visible()


def test_uploading_judgments_and_a_run_shows_the_engines_mean(page, app_url, open_app,
                                                              wait_idle):
    """Uploading a qrels and a run file shows mean NDCG@10 exactly as ndcg_core computes it."""
    open_page(page, app_url, open_app, wait_idle)
    uploader_input(page, "Judgments").set_input_files(
        files=[{"name": "judgments.qrels", "mimeType": "text/plain", "buffer": QRELS}])
    wait_idle(page)
    uploader_input(page, "Run A").set_input_files(
        files=[{"name": "mine.run", "mimeType": "text/plain", "buffer": RUN}])
    wait_idle(page)
    label = "System A · mean NDCG@10"
    expect(page.get_by_test_id("stMetric").filter(has_text=label)).to_be_visible()
    expected = evaluate(read_qrels(io.BytesIO(QRELS)), read_run(io.BytesIO(RUN)), k=10)
    assert metric_value(page, label) == f"{expected['ndcg@10'].mean():.4f}"


def test_a_bad_upload_shows_the_line_and_the_sample_still_loads(page, app_url, open_app,
                                                                wait_idle):
    """A malformed judgments file shows an error naming the line; the sample then works."""
    open_page(page, app_url, open_app, wait_idle)
    uploader_input(page, "Judgments").set_input_files(
        files=[{"name": "bad.qrels", "mimeType": "text/plain",
                "buffer": b"1 0 d1 2\n1 0 d2 relevant\n"}])
    wait_idle(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("line 2")
    page.get_by_role("button", name="Load the sample").click()
    wait_idle(page)
    qrels = read_qrels(SAMPLES / "qrels.txt")
    expected = evaluate(qrels, read_run(SAMPLES / "system_b.run"), k=20)["ndcg@20"].mean()
    label = "System B · mean NDCG@20"
    expect(page.get_by_test_id("stMetric").filter(has_text=label)).to_be_visible()
    assert metric_value(page, label) == f"{expected:.4f}"
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


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
    assert metric_value(page, "NDCG@20") == f"{value:.3f}"
