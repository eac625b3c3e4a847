"""Write it yourself in a real browser: a learner types dcg into the editor (a textbox named
"Your code"), presses Run the tests and reads "N of N tests passed", in English and Chinese;
the code ran in the sandbox, on the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_app_on, wait_idle_on

SOLUTION = (Path(__file__).resolve().parents[1] / "data" / "code_solutions"
            / "dcg__right__1.py").read_text()
WRONG = SOLUTION.replace("log2(i + 1)", "log2(i + 2)")


def type_code(page, name: str, code: str):
    editor = page.get_by_role("textbox", name=name)
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)   # as pasted: the editor's auto-indent leaves it as is
    return editor


@pytest.mark.parametrize("lang, your_code, run, passed", [
    ("en", "Your code", "Run the tests", r"^(\d+) of \1 tests passed$"),
    ("zh", "你的代码", "运行测试", r"^(\d+) 个测试中通过了 \1 个$")])
def test_typing_dcg_and_running_the_tests_passes_them_all(page, app_url, lang, your_code,
                                                          run, passed):
    """The learner sees every test pass, in the page's language."""
    open_app_on(page, f"{app_url}/write_code?lang={lang}")
    type_code(page, your_code, SOLUTION)
    page.get_by_role("button", name=run, exact=True).click()
    wait_idle_on(page)
    expect(page.get_by_text(re.compile(passed))).to_be_visible(timeout=30_000)


def test_a_wrong_discount_is_named_with_its_real_case(page, app_url):
    """log2(i + 2) for ranks counted from 1: the page names the mistake and links to it."""
    open_app_on(page, f"{app_url}/write_code?lang=en")
    type_code(page, "Your code", WRONG)
    page.get_by_role("button", name="Run the tests", exact=True).click()
    wait_idle_on(page)
    expect(page.get_by_text("Ranks shifted by one: log2(i + 2)")).to_be_visible(timeout=30_000)
    link = page.get_by_role("link", name="See it on the Common mistakes page")
    expect(link).to_have_attribute("href", re.compile(r"mistake=rank_from_zero"))

