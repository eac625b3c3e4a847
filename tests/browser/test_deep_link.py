"""A deep link is the first request a fresh server sees (a teacher's bookmark, a shared address).

Streamlit runs the page's own file for it, before ``app.py`` has declared the pages; the page
then routes through ``app.py`` (``route_through_app`` in ui/routing.py; public
``st.navigation`` only). The first screen must be the page asked for, with the sidebar's page list, at the address given.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from conftest import open_app_on, streamlit_server

FIRST_REQUESTS = [
    ("/worked_examples", "Worked examples"),
    ("/cutoffs?lang=zh", "截断"),
    ("/playground?g=1,2,0&k=1", "Playground"),
]


@pytest.mark.parametrize(("path", "heading"), FIRST_REQUESTS)
def test_a_deep_link_to_a_fresh_server_opens_that_page(
        path: str, heading: str, page: Page, tmp_path: Path) -> None:
    with streamlit_server("app.py", tmp_path) as url:
        open_app_on(page, url + path)
        expect(page.locator("h1").first).to_contain_text(heading)
        expect(page.get_by_test_id("stSidebarNav")).to_be_visible()
        asked, shown = urlsplit(url + path), urlsplit(page.url)
        assert shown.path == asked.path, f"the address {path} became {page.url}"
        # The playground writes out its whole state (l=, gain=, ...); what was asked stays.
        kept = parse_qs(shown.query)
        for key, values in parse_qs(asked.query).items():
            assert kept.get(key) == values, f"{key}={values} became {page.url}"
