"""The language in a real browser: a zh-CN browser gets Chinese without asking, and the
sidebar's switch changes the language on any page (AppTest cannot see the sidebar after a
session's first run)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
# the prose a reader reads in the main area: Markdown without formulas and code
PROSE_JS = """() => [...document.querySelectorAll(
        "[data-testid='stMain'] [data-testid='stMarkdownContainer']")].map(el => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('.katex, code, pre').forEach(x => x.remove());
    return copy.innerText;
}).join('\\n')"""


def chinese_share(text: str) -> float:
    cjk, latin = len(CJK.findall(text)), len(LATIN.findall(text))
    return cjk / max(cjk + latin, 1)


@pytest.fixture
def page_in(browser: Browser):
    """``page_in("zh-CN")``: a page of a browser whose language (navigator.language) is that
    locale, as Playwright sets it; closed after the test."""
    contexts = []

    def _page(locale: str):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        context.set_default_timeout(30_000)  # as conftest's page fixture
        contexts.append(context)
        return context.new_page()

    yield _page
    for context in contexts:
        context.close()


def title(page) -> str:
    return page.locator("[data-testid='stMain'] h1").first.inner_text().strip()


def test_a_zh_cn_browser_gets_chinese_without_asking(page_in, app_url, open_app):
    """A browser set to zh-CN opens a lesson in Chinese, sidebar included."""
    page = page_in("zh-CN")
    open_app(page, f"{app_url}/cutoffs")
    assert title(page) == "截断位置"
    prose = page.evaluate(PROSE_JS)
    assert chinese_share(prose) > 0.5, prose[:300]
    sidebar = page.locator("[data-testid='stSidebar']")
    for text in ("学习", "演练场", "语言"):  # the switch draws a moment after the navigation
        expect(sidebar).to_contain_text(text, timeout=30_000)


def test_the_sidebar_switch_changes_the_language_on_a_lesson_page(page_in, app_url, open_app,
                                                                 wait_idle):
    """Clicking 中文 in the sidebar turns an English lesson Chinese, and a reload keeps it."""
    page = page_in("en-US")
    open_app(page, f"{app_url}/gain")
    assert title(page) == "Linear vs exponential gain"
    page.locator("[data-testid='stSidebar']").get_by_role("radio", name="中文").click()
    wait_idle(page)
    page.wait_for_function(
        "() => document.querySelector(\"[data-testid='stMain'] h1\")"
        "?.innerText.includes('线性增益与指数增益')")
    assert "lang=zh" in page.url
    assert chinese_share(page.evaluate(PROSE_JS)) > 0.5
    # a reload keeps the choice (the address carries it)
    open_app(page, page.url)
    assert title(page) == "线性增益与指数增益"


def test_lang_en_in_the_address_wins_over_a_chinese_browser(page_in, app_url, open_app):
    """?lang=en opens English even in a Chinese browser."""
    page = page_in("zh-CN")
    open_app(page, f"{app_url}/cutoffs?lang=en")
    assert title(page) == "Cutoffs"


def test_the_playgrounds_address_carries_the_language(page_in, app_url, open_app):
    """The playground's address (its share link) says lang=zh next to the ranking."""
    page = page_in("zh-CN")
    open_app(page, app_url)
    page.wait_for_function("() => location.search.includes('lang=zh')")
    assert "g=" in page.url
