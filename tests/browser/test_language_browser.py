"""The language in a real browser: a zh-CN browser gets Chinese without asking, and the
sidebar's switch changes the language on any page (AppTest cannot see the sidebar after a
session's first run)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser

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


def new_page(browser: Browser, locale: str):
    """A page of a browser whose language is ``locale`` (its navigator.language)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    context.set_default_timeout(30_000)  # conftest's page fixture's timeout
    return context, context.new_page()


def title(page) -> str:
    return page.locator("[data-testid='stMain'] h1").first.inner_text().strip()


def test_a_zh_cn_browser_gets_chinese_without_asking(browser: Browser, app_url: str, open_app):
    context, page = new_page(browser, "zh-CN")
    try:
        open_app(page, f"{app_url}/cutoffs")
        assert title(page) == "截断位置"
        prose = page.evaluate(PROSE_JS)
        assert chinese_share(prose) > 0.5, prose[:300]
        sidebar = page.locator("[data-testid='stSidebar']")
        assert "学习" in sidebar.inner_text() and "演练场" in sidebar.inner_text()
    finally:
        context.close()


def test_the_sidebar_switch_changes_the_language_on_a_lesson_page(browser: Browser, app_url: str,
                                                                 open_app, wait_idle):
    context, page = new_page(browser, "en-US")
    try:
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
    finally:
        context.close()


def test_lang_en_in_the_address_wins_over_a_chinese_browser(browser: Browser, app_url: str, open_app):
    context, page = new_page(browser, "zh-CN")
    try:
        open_app(page, f"{app_url}/cutoffs?lang=en")
        assert title(page) == "Cutoffs"
    finally:
        context.close()
