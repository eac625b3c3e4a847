"""A server restart under an open playground tab whose ranking was moved (issue 26, item 6).

The tab reconnects to a new server on the same address and re-sends what its widgets held,
the ranking table's last order included, in ids of the old session's items. Before: the
new session applied that order after the cutoff slider was drawn and wrote the slider's key
(StreamlitWidgetAlreadyInstantiatedError for ``pg_k``, 3 of 3 tries), and the ranking took
another session's order. Now the address bar's ranking stands and the next move works.
"""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect

import ndcg_core as nc
from lab.playground import DEFAULT_GRADES, DEFAULT_LABELS
from conftest import _free_port, streamlit_server, upload_on
from test_your_data_browser import QRELS, RUN

ROWS = ".rt-list-rank .rt-row"  # the playground's ranking table (ui/ranking_table)
TABLE = ".rt[data-testid='ranking-table']"
NDCG = "[data-figure='ndcg-linear']"
WAIT_MS = 60_000
GRADE = dict(zip(DEFAULT_LABELS, DEFAULT_GRADES))


def order_read(page: Page) -> list[str]:
    return page.locator(f"{ROWS} .rt-label-text").all_text_contents()


def move_down(page: Page, row: int, wait_idle) -> list[str]:
    """Alt+↓ on ``row`` (0-based); the order it gives, once the engine's figures are drawn
    and the address bar carries it."""
    expected = order_read(page)
    expected[row], expected[row + 1] = expected[row + 1], expected[row]
    page.locator(ROWS).nth(row).focus()
    page.keyboard.press("Alt+ArrowDown")
    expect(page.locator(NDCG)).to_have_text(
        f"{nc.ndcg([GRADE[label] for label in expected]):.3f}", timeout=WAIT_MS)
    expect(page.locator(TABLE)).to_have_attribute("data-figures", "engine", timeout=WAIT_MS)
    deadline = time.monotonic() + WAIT_MS / 1000
    while parse_qs(urlsplit(page.url).query).get("l") != expected:
        assert time.monotonic() < deadline, f"the address bar kept {page.url}"
        page.wait_for_timeout(100)
    wait_idle(page)
    return expected


def active_sessions(url: str) -> int:
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=5) as resp:
        for line in resp.read().decode().splitlines():
            if line.startswith("active_sessions "):
                return int(float(line.split()[1]))
    return 0


def assert_one_ranking(page: Page, order: list[str]) -> None:
    """No traceback; the list, the engine's NDCG and the address bar show ``order``."""
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    assert order_read(page) == order
    expect(page.locator(NDCG)).to_have_text(
        f"{nc.ndcg([GRADE[label] for label in order]):.3f}")
    query = parse_qs(urlsplit(page.url).query)
    assert query["l"] == order
    assert query["g"] == [",".join(str(GRADE[label]) for label in order)]


def test_a_moved_playground_tab_survives_a_server_restart(page: Page, open_app, wait_idle,
                                                          tmp_path: Path):
    """Move a row, restart the server: no error, the moved order stays, the next move works."""
    port = _free_port()
    with streamlit_server("app.py", tmp_path, port=port) as url:
        open_app(page, f"{url}/")
        expect(page.locator(ROWS)).to_have_count(len(DEFAULT_LABELS), timeout=WAIT_MS)
        expect(page.locator(TABLE)).to_have_attribute("data-figures", "engine",
                                                      timeout=WAIT_MS)
        wait_idle(page)
        moved = move_down(page, 0, wait_idle)  # Doc B, Doc A, ...
    # the server is stopped (by its pid); the tab keeps trying to reconnect
    with streamlit_server("app.py", tmp_path, port=port) as url:
        deadline = time.monotonic() + WAIT_MS / 1000
        while active_sessions(url) < 1:
            assert time.monotonic() < deadline, "the tab did not reconnect to the new server"
            time.sleep(0.2)
        page.wait_for_timeout(1000)  # the reconnected session's first run, and its fragments
        wait_idle(page, timeout_ms=WAIT_MS)
        assert_one_ranking(page, moved)
        assert_one_ranking(page, move_down(page, 2, wait_idle))  # Doc C below Doc D


def upload_both(page: Page) -> None:
    for label, name, data in (("Judgments", "judgments.qrels", QRELS), ("Runs", "mine.run", RUN)):
        upload_on(page, label, [{"name": name, "mimeType": "text/plain", "buffer": data}])
    expect(page.get_by_role("heading", name="Mean over queries")).to_be_visible(timeout=WAIT_MS)


def test_files_the_restarted_server_lost_are_named_and_can_be_uploaded_again(
        page: Page, open_app, wait_idle, tmp_path: Path):
    """Upload two files, restart the server: the page says it lost both and offers a re-upload."""
    port = _free_port()
    with streamlit_server("app.py", tmp_path, port=port) as url:
        open_app(page, f"{url}/your_data")
        upload_both(page)
    with streamlit_server("app.py", tmp_path, port=port) as url:
        deadline = time.monotonic() + WAIT_MS / 1000
        while active_sessions(url) < 1:
            assert time.monotonic() < deadline, "the tab did not reconnect to the new server"
            time.sleep(0.2)
        # A reconnect does not rerun the page: the student's next action does (here a
        # setting), and that run finds the widgets listing files the server does not have.
        page.wait_for_timeout(1000)
        page.get_by_text("Judged documents only").click()
        lost = page.get_by_text("The server no longer has 2 of the files listed above")
        expect(lost).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("[data-testid='stException']")).to_have_count(0)
        uploaders = page.get_by_test_id("stFileUploader")
        expect(uploaders.filter(has_text="judgments.qrels")).to_have_count(1)  # still listed
        expect(uploaders.filter(has_text="mine.run")).to_have_count(1)
        page.get_by_role("button", name="Upload again").click()
        wait_idle(page)
        expect(lost).to_have_count(0)
        expect(uploaders.filter(has_text="judgments.qrels")).to_have_count(0)
        expect(uploaders.filter(has_text="mine.run")).to_have_count(0)
        upload_both(page)  # and the files, uploaded again, are read
